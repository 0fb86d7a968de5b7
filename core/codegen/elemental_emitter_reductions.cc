// The elemental generator's ops whose element is a loop over operand
// elements (ElementalEmitter::Impl, elemental_emitter_internal.h): reduce and
// reduce-window of one or N inputs, and dot, one output element each, in the
// interpreter's order. Used in fusions no reduction or dot emitter takes (a
// reduce or dot under other ops, as in XLA GPU's Triton fusions) and for XLA
// CPU's variadic reduce-windows (max pooling's gradient).
#include <algorithm>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>

#include "core/codegen/elemental_emitter_internal.h"
#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {

using llvm::Value;
using elemental_internal::OpError;

// reduce-window of one array, one output element (VariadicReduction with
// N = 1): init, then the reducer over the window's in-bounds positions in
// row-major window order (the interpreter's order; padding and holes of
// base dilation are skipped).
StatusOr<Value*> ElementalEmitter::Impl::ReduceWindow(const Instruction* instr, const Index& index) {
  if (instr->operand_count() != 2 || !instr->shape().IsArray())
    return OpError(*instr, "a reduce-window of several inputs is computed through get-tuple-element");
  ASSIGN_OR_RETURN(std::vector<Value*> v, VariadicReduction(instr, index));
  return v[0];
}

// A reduce or reduce-window of N inputs (N inits; a tuple of N results,
// or one array for N = 1), one output element: N accumulators from the inits, then the
// reducer over the reduced dimensions (reduce) or the window's in-bounds
// positions (reduce-window) in row-major order, the interpreter's order.
// XLA CPU writes max pooling's gradient as such a reduce-window (value and
// argmax indices together).
StatusOr<std::vector<Value*>> ElementalEmitter::Impl::VariadicReduction(const Instruction* instr,
                                                                        const Index& index) {
  // Not cached: a value made inside a guarded branch must not be reused
  // outside it; each get-tuple-element of it redoes the reduction.
  const Computation* fn = instr->to_apply();
  const int n = instr->operand_count() / 2;
  const bool tuple = instr->shape().IsTuple();
  if (!fn || n < 1 || instr->operand_count() != 2 * n ||
      (tuple ? instr->shape().tuple_size() != n : n != 1 || !instr->shape().IsArray()))
    return OpError(*instr, "a reduction needs N inputs, N inits, to_apply and N results");
  const Shape& in = instr->operand(0)->shape();
  const int rank = in.rank();
  const bool window = instr->opcode() == Opcode::kReduceWindow;
  std::vector<WindowDim> dims;
  std::vector<int64_t> sizes;  // positions to visit per dimension (window, or reduced dims)
  if (window) {
    dims.assign(static_cast<size_t>(rank), WindowDim{});
    if (const Window* w = instr->attrs().window.get()) {
      if (static_cast<int>(w->dims.size()) != rank) return OpError(*instr, "window rank differs from the operand rank");
      dims = w->dims;
    }
    for (const WindowDim& d : dims) {
      if (d.stride <= 0 || d.base_dilation <= 0 || d.window_dilation <= 0 || d.size < 0)
        return OpError(*instr, "invalid window");
      sizes.push_back(d.size);
    }
  } else {
    for (int64_t d : instr->dimensions()) sizes.push_back(in.dim(static_cast<int>(d)));
  }
  int64_t count = 1;
  for (int64_t z : sizes) count *= z;
  auto saved = cache;
  std::vector<Value*> accs;
  std::vector<llvm::Type*> types;
  for (int k = 0; k < n; ++k) {
    StatusOr<Value*> init = Operand(instr, n + k, Index{});
    if (!init.ok()) return init.status();
    types.push_back((*init)->getType());
    accs.push_back(EntryAlloca(b, types.back(), "variadic_acc"));
    b.CreateStore(*init, accs.back());
  }
  Status st = ForLoop(b, b.getInt64(0), b.getInt64(count), b.getInt64(1), [&](Value* q) -> Status {
    std::vector<Value*> pos = ::hloscope::codegen::Delinearize(b, q, sizes);
    Index src(static_cast<size_t>(rank));
    Value* ok = b.getTrue();
    if (window) {
      for (int e = 0; e < rank; ++e) {
        const WindowDim& w = dims[static_cast<size_t>(e)];
        Value* p = b.CreateAdd(b.CreateMul(index[e], b.getInt64(w.stride)),
                               b.CreateSub(b.CreateMul(pos[e], b.getInt64(w.window_dilation)), b.getInt64(w.pad_lo)));
        if (w.base_dilation > 1) {
          ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateSRem(p, b.getInt64(w.base_dilation)), b.getInt64(0)));
          p = b.CreateSDiv(p, b.getInt64(w.base_dilation));
        }
        ok = b.CreateAnd(ok, b.CreateICmpSGE(p, b.getInt64(0)));
        ok = b.CreateAnd(ok, b.CreateICmpSLT(p, b.getInt64(in.dim(e))));
        src[static_cast<size_t>(e)] = p;
      }
    } else {
      const std::vector<int64_t>& rd = instr->dimensions();
      size_t kept = 0;
      for (int d = 0; d < rank; ++d) {
        auto it = std::find(rd.begin(), rd.end(), d);
        src[static_cast<size_t>(d)] = it != rd.end() ? pos[static_cast<size_t>(it - rd.begin())] : index[kept++];
      }
    }
    return IfThen(b, ok, [&]() -> Status {
      auto inner = cache;
      std::vector<Value*> args;
      for (int k = 0; k < n; ++k) args.push_back(b.CreateLoad(types[static_cast<size_t>(k)], accs[static_cast<size_t>(k)]));
      for (int k = 0; k < n; ++k) {
        StatusOr<Value*> x = Operand(instr, k, src);
        if (!x.ok()) return x.status();
        args.push_back(*x);
      }
      StatusOr<std::vector<Value*>> r = self->EmitScalarComputation(*fn, args);
      cache = std::move(inner);
      if (!r.ok()) return r.status();
      if (static_cast<int>(r->size()) != n) return OpError(*instr, "the reducer must return one value per input");
      for (int k = 0; k < n; ++k) b.CreateStore((*r)[static_cast<size_t>(k)], accs[static_cast<size_t>(k)]);
      return Status::Ok();
    });
  });
  cache = std::move(saved);
  RETURN_IF_ERROR(st);
  std::vector<Value*> out;
  for (int k = 0; k < n; ++k) out.push_back(b.CreateLoad(types[static_cast<size_t>(k)], accs[static_cast<size_t>(k)]));
  return out;
}

// A reduce of one array, one output element (VariadicReduction with
// N = 1): init, then the reducer over the reduced dimensions in row-major
// order (the interpreter's order). For fusions no reduction emitter takes
// (a reduce under other ops, as in XLA GPU's Triton fusions): every
// element redoes its whole reduction.
StatusOr<Value*> ElementalEmitter::Impl::ElementalReduce(const Instruction* instr, const Index& index) {
  if (instr->operand_count() != 2 || !instr->shape().IsArray())
    return OpError(*instr, "a reduce of several inputs is computed through get-tuple-element");
  ASSIGN_OR_RETURN(std::vector<Value*> v, VariadicReduction(instr, index));
  return v[0];
}

// A dot, one output element: the products over the contracting dims in
// row-major order, as the interpreter and the dot emitter compute them
// (operands converted to the result type, then to the compute type: f32
// for f32/f16/bf16/f8 results, f64, or i64 for integers). For fusions no
// dot emitter takes (a dot under other ops, as in XLA GPU's Triton
// fusions).
StatusOr<Value*> ElementalEmitter::Impl::ElementalDot(const Instruction* instr, const Index& index) {
  const DotDnums* dn = instr->attrs().dot.get();
  if (!dn || instr->operand_count() != 2 || !instr->shape().IsArray())
    return OpError(*instr, "dot needs two operands and dimension numbers");
  const Shape& ls = instr->operand(0)->shape();
  const Shape& rs = instr->operand(1)->shape();
  const PrimitiveType rt = instr->shape().element_type();
  std::vector<int64_t> sizes;
  for (int64_t d : dn->lhs_contracting) sizes.push_back(ls.dim(static_cast<int>(d)));
  int64_t count = 1;
  for (int64_t n : sizes) count *= n;
  // Result index = batch dims, then lhs free dims, then rhs free dims.
  auto free_dims = [](const Shape& s, const std::vector<int64_t>& batch, const std::vector<int64_t>& contract) {
    std::vector<int64_t> out;
    for (int d = 0; d < s.rank(); ++d)
      if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
          std::find(contract.begin(), contract.end(), d) == contract.end())
        out.push_back(d);
    return out;
  };
  const std::vector<int64_t> lf = free_dims(ls, dn->lhs_batch, dn->lhs_contracting);
  const std::vector<int64_t> rf = free_dims(rs, dn->rhs_batch, dn->rhs_contracting);
  if (dn->lhs_batch.size() + lf.size() + rf.size() != index.size())
    return OpError(*instr, "dot dimension numbers do not match the result rank");
  // Complex results accumulate in their own type (complex multiply and
  // add, as the interpreter's std::complex).
  const bool complex = IsComplex(rt);
  const PrimitiveType ct = complex || rt == PrimitiveType::kF64 ? rt
                           : IsFloat(rt)                        ? PrimitiveType::kF32
                                                                : PrimitiveType::kS64;
  if (!complex && !IsFloat(rt) && !IsInteger(rt)) return OpError(*instr, "a dot of this type is not computed elementally");
  llvm::Type* acc_t = RegisterType(ct, b.getContext());
  auto saved = cache;
  Value* acc = EntryAlloca(b, acc_t, "dot_acc");
  Value* zero;
  if (complex) {
    llvm::Type* part = rt == PrimitiveType::kC128 ? b.getDoubleTy() : b.getFloatTy();
    llvm::Constant* z = llvm::ConstantFP::get(part, 0.0);
    zero = llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(acc_t), {z, z});
  } else {
    zero = acc_t->isFloatingPointTy() ? static_cast<Value*>(llvm::ConstantFP::get(acc_t, 0.0))
                                      : static_cast<Value*>(llvm::ConstantInt::get(acc_t, 0));
  }
  b.CreateStore(zero, acc);
  const Instruction mul(Opcode::kMultiply, Shape::Scalar(ct), instr->name() + ".mul");
  const Instruction add(Opcode::kAdd, Shape::Scalar(ct), instr->name() + ".add");
  Status st = ForLoop(b, b.getInt64(0), b.getInt64(count), b.getInt64(1), [&](Value* q) -> Status {
    std::vector<Value*> c = ::hloscope::codegen::Delinearize(b, q, sizes);
    Index li(static_cast<size_t>(ls.rank())), ri(static_cast<size_t>(rs.rank()));
    size_t pos = 0;
    for (size_t k = 0; k < dn->lhs_batch.size(); ++k, ++pos) {
      li[static_cast<size_t>(dn->lhs_batch[k])] = index[pos];
      ri[static_cast<size_t>(dn->rhs_batch[k])] = index[pos];
    }
    for (int64_t d : lf) li[static_cast<size_t>(d)] = index[pos++];
    for (int64_t d : rf) ri[static_cast<size_t>(d)] = index[pos++];
    for (size_t k = 0; k < dn->lhs_contracting.size(); ++k) {
      li[static_cast<size_t>(dn->lhs_contracting[k])] = c[k];
      ri[static_cast<size_t>(dn->rhs_contracting[k])] = c[k];
    }
    auto inner = cache;
    StatusOr<Value*> x = Operand(instr, 0, li);
    if (!x.ok()) return x.status();
    StatusOr<Value*> y = Operand(instr, 1, ri);
    cache = std::move(inner);
    if (!y.ok()) return y.status();
    ASSIGN_OR_RETURN(Value * xc, ToComputeType(b, *x, ls.element_type(), rt, ct));
    ASSIGN_OR_RETURN(Value * yc, ToComputeType(b, *y, rs.element_type(), rt, ct));
    Value* sum = b.CreateLoad(acc_t, acc);
    if (complex) {
      ASSIGN_OR_RETURN(Value * p, EmitElementwiseOp(b, mul, {xc, yc}, {ct, ct}));
      ASSIGN_OR_RETURN(sum, EmitElementwiseOp(b, add, {sum, p}, {ct, ct}));
    } else {
      sum = acc_t->isFloatingPointTy() ? b.CreateFAdd(sum, b.CreateFMul(xc, yc)) : b.CreateAdd(sum, b.CreateMul(xc, yc));
    }
    b.CreateStore(sum, acc);
    return Status::Ok();
  });
  cache = std::move(saved);
  RETURN_IF_ERROR(st);
  if (ct == rt) return b.CreateLoad(acc_t, acc);
  return EmitConvert(b, b.CreateLoad(acc_t, acc), ct, rt);
}

}  // namespace hloscope::codegen
