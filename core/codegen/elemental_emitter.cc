// The elemental generator (XLA's elemental IR emitter idea): the value of an
// instruction at a multi-dimensional index, built from its operands' values
// at the indices they map to. Here: operand access, constants, the index
// arithmetic of the data-movement ops (broadcast, reshape, transpose, slice,
// dynamic-(update-)slice, concatenate, pad, gather, bitcast-convert), the
// per-opcode dispatch, layout-aware and packed sub-byte loads and stores,
// scalar computations and the kernel function's signature. The ops whose
// element is a loop over operand elements (reduce, reduce-window, dot) are in
// elemental_emitter_reductions.cc; the scalar arithmetic is in
// elemental_scalar.cc.
#include <algorithm>
#include <map>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_emitter_internal.h"
#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/line_info.h"
#include "core/ir/computation.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {

using llvm::Value;

Status elemental_internal::OpError(const Instruction& instr, const std::string& why) {
  return Status::Error("codegen: " + std::string(OpcodeName(instr.opcode())) + " %" + instr.name() + ": " + why);
}

using elemental_internal::OpError;

namespace {

bool Has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::vector<int64_t> MinorToMajor(const Shape& s) {
  if (s.has_layout() && static_cast<int>(s.layout().minor_to_major.size()) == s.rank())
    return s.layout().minor_to_major;
  return Shape::DefaultLayout(s.rank()).minor_to_major;
}

// Linear element number of `index` in `shape` stored with minor_to_major `m2m`.
Value* Linearize(llvm::IRBuilderBase& b, const Shape& shape, const std::vector<int64_t>& m2m, const Index& index) {
  Value* linear = b.getInt64(0);
  for (int i = static_cast<int>(m2m.size()) - 1; i >= 0; --i) {
    int64_t d = m2m[i];
    linear = b.CreateAdd(b.CreateMul(linear, b.getInt64(shape.dim(static_cast<int>(d)))), index[d]);
  }
  return linear;
}

// Inverse of Linearize.
Index Delinearize(llvm::IRBuilderBase& b, const Shape& shape, const std::vector<int64_t>& m2m, Value* linear) {
  Index index(shape.rank());
  for (int64_t d : m2m) {
    Value* size = b.getInt64(shape.dim(static_cast<int>(d)));
    index[d] = b.CreateURem(linear, size);
    linear = b.CreateUDiv(linear, size);
  }
  return index;
}

std::vector<int64_t> RowMajor(int rank) { return Shape::DefaultLayout(rank).minor_to_major; }

// A scalar literal element as an LLVM constant of its register type.
StatusOr<Value*> LiteralElement(llvm::IRBuilderBase& b, const Instruction& instr, const Literal& lit, int64_t i) {
  PrimitiveType t = lit.shape().element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, "constant %" + instr.name()));
  llvm::Type* rt = RegisterType(t, b.getContext());
  const uint8_t* p = lit.raw() + i * lit.element_bytes();
  if (t == PrimitiveType::kPred) return b.getInt1(p[0] != 0);
  if (IsComplex(t)) {  // {re, im}, each a float of half the width
    llvm::Type* part = t == PrimitiveType::kC128 ? b.getDoubleTy() : b.getFloatTy();
    const int half = lit.element_bytes() / 2;
    auto component = [&](int k) -> llvm::Constant* {
      uint64_t raw = 0;
      std::memcpy(&raw, p + k * half, static_cast<size_t>(half));
      return llvm::ConstantFP::get(part, llvm::APFloat(part->getFltSemantics(), llvm::APInt(half * 8, raw)));
    };
    return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(rt), {component(0), component(1)});
  }
  int bits = BitWidth(t);
  uint64_t raw = 0;
  std::memcpy(&raw, p, static_cast<size_t>(std::max(bits / 8, 1)));  // sub-byte: a byte per element
  if (bits < 64) raw &= (uint64_t{1} << bits) - 1;
  llvm::APInt ap(bits, raw);
  if (IsInteger(t) || rt->isIntegerTy()) return llvm::ConstantInt::get(rt, ap);  // f8: its byte
  return llvm::ConstantFP::get(rt, llvm::APFloat(rt->getFltSemantics(), ap));
}

}  // namespace

ElementalEmitter::Impl::Impl(llvm::IRBuilderBase& b, const KernelSpec& s, std::vector<Value*> a,
                             ElementalEmitter* e)
    : b(b), spec(s), args(std::move(a)), self(e) {
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const KernelArg& arg = spec.args[i];
    if (arg.is_output || arg.operand < 0) continue;
    if (static_cast<int>(operand_first_arg.size()) <= arg.operand) operand_first_arg.resize(arg.operand + 1, -1);
    if (operand_first_arg[arg.operand] < 0) operand_first_arg[arg.operand] = static_cast<int>(i);
  }
}

bool ElementalEmitter::Impl::IsKernelInstr(const Instruction* instr) const {
  return instr == spec.instr && spec.instr->opcode() != Opcode::kFusion;
}

StatusOr<int> ElementalEmitter::Impl::ArgOfOperand(const Instruction& user, int operand) const {
  if (operand >= static_cast<int>(operand_first_arg.size()) || operand_first_arg[operand] < 0)
    return OpError(user, "operand " + std::to_string(operand) + " has no kernel argument");
  return operand_first_arg[operand];
}

// Value of operand `k` of `instr` at `index`.
StatusOr<Value*> ElementalEmitter::Impl::Operand(const Instruction* instr, int k, const Index& index) {
  if (IsKernelInstr(instr)) {
    ASSIGN_OR_RETURN(int arg, ArgOfOperand(*instr, k));
    if (!instr->operand(k)->shape().IsArray()) return OpError(*instr, "tuple-shaped operands are not supported");
    return self->Load(arg, index);
  }
  return self->Emit(instr->operand(k), index);
}

StatusOr<Value*> ElementalEmitter::Impl::ScalarOperandI64(const Instruction* instr, int k) {
  ASSIGN_OR_RETURN(Value * v, Operand(instr, k, {}));
  return IndexToI64(b, v, instr->operand(k)->shape().element_type());
}

Value* ElementalEmitter::Impl::Clamp(Value* v, int64_t lo, int64_t hi) {
  v = b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(lo)), b.getInt64(lo), v);
  return b.CreateSelect(b.CreateICmpSGT(v, b.getInt64(hi)), b.getInt64(hi), v);
}

StatusOr<Value*> ElementalEmitter::Impl::Constant(const Instruction* instr, const Index& index) {
  const Literal* lit = instr->literal();
  if (!lit || lit->elided() || !instr->shape().IsArray()) return OpError(*instr, "constant has no array value");
  if (lit->is_splat() || lit->num_elements() == 1) return LiteralElement(b, *instr, *lit, 0);
  PrimitiveType t = lit->shape().element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, "constant %" + instr->name()));
  llvm::Type* st = LlvmStorageType(t, b.getContext());
  llvm::GlobalVariable*& g = constants[instr];
  if (!g) {
    llvm::Module* m = b.GetInsertBlock()->getModule();
    auto data = llvm::ConstantDataArray::getRaw(
        llvm::StringRef(reinterpret_cast<const char*>(lit->raw()), lit->raw_size()), lit->num_elements(), st);
    g = new llvm::GlobalVariable(*m, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data,
                                 "const_" + std::to_string(instr->id()));
    g->setAlignment(llvm::Align(16));
  }
  Value* linear = Linearize(b, instr->shape(), RowMajor(instr->shape().rank()), index);
  Value* v = b.CreateLoad(st, b.CreateInBoundsGEP(st, g, linear));
  if (t == PrimitiveType::kPred) v = b.CreateICmpNE(v, b.getInt8(0));
  if (IsSubByte(t)) v = b.CreateTrunc(v, RegisterType(t, b.getContext()));  // the literal's unpacked byte
  return v;
}

// Emits `then_fn` only when `cond` holds, else `else_value`; the cache
// entries made inside the branch are dropped (they do not dominate).
template <class F>
StatusOr<Value*> ElementalEmitter::Impl::Guarded(Value* cond, F&& then_fn, Value* else_value) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  auto* then_bb = llvm::BasicBlock::Create(b.getContext(), "in_bounds", f);
  auto* merge_bb = llvm::BasicBlock::Create(b.getContext(), "merge", f);
  llvm::BasicBlock* from = b.GetInsertBlock();
  b.CreateCondBr(cond, then_bb, merge_bb);
  b.SetInsertPoint(then_bb);
  auto saved = cache;
  StatusOr<Value*> v = then_fn();
  cache = std::move(saved);
  if (!v.ok()) return v;
  llvm::BasicBlock* then_end = b.GetInsertBlock();
  b.CreateBr(merge_bb);
  b.SetInsertPoint(merge_bb);
  llvm::PHINode* phi = b.CreatePHI(else_value->getType(), 2);
  phi->addIncoming(*v, then_end);
  phi->addIncoming(else_value, from);
  return static_cast<Value*>(phi);
}

StatusOr<Value*> ElementalEmitter::Impl::Concatenate(const Instruction* instr, const Index& index) {
  int64_t d = instr->dimensions().empty() ? 0 : instr->dimensions()[0];
  llvm::Function* f = b.GetInsertBlock()->getParent();
  auto* merge_bb = llvm::BasicBlock::Create(b.getContext(), "concat_merge", f);
  std::vector<std::pair<Value*, llvm::BasicBlock*>> incoming;
  int64_t offset = 0;
  for (int k = 0; k < instr->operand_count(); ++k) {
    int64_t size = instr->operand(k)->shape().dim(static_cast<int>(d));
    bool last = k + 1 == instr->operand_count();
    llvm::BasicBlock* body = llvm::BasicBlock::Create(b.getContext(), "concat_operand", f, merge_bb);
    llvm::BasicBlock* next = last ? nullptr : llvm::BasicBlock::Create(b.getContext(), "concat_next", f, merge_bb);
    if (last) b.CreateBr(body);
    else b.CreateCondBr(b.CreateICmpSLT(index[d], b.getInt64(offset + size)), body, next);
    b.SetInsertPoint(body);
    Index sub = index;
    sub[d] = b.CreateSub(index[d], b.getInt64(offset));
    auto saved = cache;
    StatusOr<Value*> v = Operand(instr, k, sub);
    cache = std::move(saved);
    if (!v.ok()) return v;
    incoming.push_back({*v, b.GetInsertBlock()});
    b.CreateBr(merge_bb);
    if (next) b.SetInsertPoint(next);
    offset += size;
  }
  b.SetInsertPoint(merge_bb);
  llvm::PHINode* phi = b.CreatePHI(incoming[0].first->getType(), static_cast<unsigned>(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  return static_cast<Value*>(phi);
}

StatusOr<Value*> ElementalEmitter::Impl::Pad(const Instruction* instr, const Index& index) {
  const Shape& in = instr->operand(0)->shape();
  const auto& pads = instr->attrs().padding;
  if (static_cast<int>(pads.size()) != in.rank()) return OpError(*instr, "padding needs one entry per dimension");
  ASSIGN_OR_RETURN(Value * pad_value, Operand(instr, 1, {}));
  Value* ok = b.getTrue();
  Index src(in.rank());
  for (int d = 0; d < in.rank(); ++d) {
    Value* t = b.CreateSub(index[d], b.getInt64(pads[d].lo));
    Value* step = b.getInt64(pads[d].interior + 1);
    ok = b.CreateAnd(ok, b.CreateICmpSGE(t, b.getInt64(0)));
    Value* q = t;
    if (pads[d].interior > 0) {
      ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateSRem(t, step), b.getInt64(0)));
      q = b.CreateSDiv(t, step);
    }
    ok = b.CreateAnd(ok, b.CreateICmpSLT(q, b.getInt64(in.dim(d))));
    src[d] = q;
  }
  return Guarded(ok, [&] { return Operand(instr, 0, src); }, pad_value);
}

StatusOr<Value*> ElementalEmitter::Impl::Gather(const Instruction* instr, const Index& index) {
  const GatherDnums* dn = instr->attrs().gather.get();
  const Shape& a = instr->operand(0)->shape();
  const Shape& ind = instr->operand(1)->shape();
  const auto& sizes = instr->attrs().dynamic_slice_sizes;
  if (!dn || static_cast<int>(sizes.size()) != a.rank()) return OpError(*instr, "gather needs dimension numbers and slice_sizes");
  std::vector<int64_t> offset = dn->offset_dims;
  std::sort(offset.begin(), offset.end());
  std::vector<int64_t> window_dims;
  for (int d = 0; d < a.rank(); ++d)
    if (!Has(dn->collapsed_slice_dims, d) && !Has(dn->operand_batching_dims, d)) window_dims.push_back(d);
  if (window_dims.size() != offset.size()) return OpError(*instr, "offset_dims do not match the operand");
  Index g;  // batch coordinates, output order
  for (int d = 0; d < instr->shape().rank(); ++d)
    if (!Has(offset, d)) g.push_back(index[d]);
  bool implicit = dn->index_vector_dim == ind.rank();
  if (static_cast<int>(g.size()) != ind.rank() - (implicit ? 0 : 1))
    return OpError(*instr, "output batch dimensions do not match the start indices");
  auto gpos = [&](int64_t s) { return (!implicit && s > dn->index_vector_dim) ? s - 1 : s; };
  std::vector<Value*> start(a.rank(), b.getInt64(0));
  for (size_t k = 0; k < dn->start_index_map.size(); ++k) {
    Index iidx;
    size_t gi = 0;
    for (int d = 0; d < ind.rank(); ++d) iidx.push_back(!implicit && d == dn->index_vector_dim ? b.getInt64(k) : g[gi++]);
    ASSIGN_OR_RETURN(Value * v, Operand(instr, 1, iidx));
    start[dn->start_index_map[k]] = IndexToI64(b, v, ind.element_type());
  }
  for (size_t i = 0; i < dn->operand_batching_dims.size(); ++i)
    start[dn->operand_batching_dims[i]] = g[gpos(dn->start_indices_batching_dims[i])];
  Index src(a.rank());
  for (int d = 0; d < a.rank(); ++d) src[d] = Clamp(start[d], 0, a.dim(d) - sizes[d]);
  for (size_t j = 0; j < window_dims.size(); ++j)
    src[window_dims[j]] = b.CreateAdd(src[window_dims[j]], index[offset[j]]);
  return Operand(instr, 0, src);
}

// bitcast-convert between types of different widths, as the interpreter
// defines it: little-endian, element k of the narrow side's extra minor
// dimension is bits [k·n, (k+1)·n) of the wide value.
StatusOr<Value*> ElementalEmitter::Impl::BitcastConvertWidths(const Instruction* instr,
                                                              const Index& index) {
  const PrimitiveType from = instr->operand(0)->shape().element_type(), to = instr->shape().element_type();
  const int fb = BitWidth(from), tb = BitWidth(to);
  if (from == PrimitiveType::kPred || to == PrimitiveType::kPred || IsComplex(from) || IsComplex(to) ||
      std::max(fb, tb) % std::min(fb, tb) != 0)
    return OpError(*instr, "bitcast-convert between these widths is not defined");
  llvm::Type* rt = RegisterType(to, b.getContext());
  auto as_int = [&](Value* v, int bits) {
    return v->getType()->isIntegerTy() ? v : b.CreateBitCast(v, b.getIntNTy(bits));
  };
  auto to_result = [&](Value* v) { return rt->isIntegerTy() ? v : b.CreateBitCast(v, rt); };
  if (fb > tb) {  // one wide element, the narrow piece at the last index
    if (index.empty()) return OpError(*instr, "a narrowing bitcast-convert needs a minor dimension");
    Index src(index.begin(), index.end() - 1);
    ASSIGN_OR_RETURN(Value * v, Operand(instr, 0, src));
    Value* w = as_int(v, fb);
    Value* shift = b.CreateMul(b.CreateZExtOrTrunc(index.back(), w->getType()),
                               llvm::ConstantInt::get(w->getType(), tb));
    return to_result(b.CreateTrunc(b.CreateLShr(w, shift), b.getIntNTy(static_cast<unsigned>(tb))));
  }
  llvm::Type* wide = b.getIntNTy(static_cast<unsigned>(tb));
  Value* acc = llvm::ConstantInt::get(wide, 0);
  for (int k = 0; k < tb / fb; ++k) {
    Index src = index;
    src.push_back(b.getInt64(k));
    ASSIGN_OR_RETURN(Value * v, Operand(instr, 0, src));
    acc = b.CreateOr(acc,
                     b.CreateShl(b.CreateZExt(as_int(v, fb), wide), llvm::ConstantInt::get(wide, k * fb)));
  }
  return to_result(acc);
}

StatusOr<Value*> ElementalEmitter::Impl::Emit(const Instruction* instr, const Index& index) {
  const Shape& shape = instr->shape();
  if (spec.instr->opcode() != Opcode::kFusion && instr != spec.instr) {
    // An operand of an unfused kernel instruction: read its argument.
    for (int k = 0; k < spec.instr->operand_count(); ++k)
      if (spec.instr->operand(k) == instr && shape.IsArray()) {
        ASSIGN_OR_RETURN(int arg, ArgOfOperand(*spec.instr, k));
        return self->Load(arg, index);
      }
  }
  if (instr->opcode() == Opcode::kParameter && instr->parent() != spec.instr->fused_computation()) {
    auto it = nested.find(instr->parent());
    if (it != nested.end()) return self->Emit(it->second->operand(static_cast<int>(instr->parameter_number())), index);
  }
  if (instr->opcode() == Opcode::kFusion && instr != spec.instr && instr->fused_computation() &&
      instr->shape().IsArray()) {
    nested[instr->fused_computation()] = instr;
    return self->Emit(instr->fused_computation()->root(), index);
  }
  const Shape& in = instr->operand_count() > 0 ? instr->operand(0)->shape() : shape;
  switch (instr->opcode()) {
    case Opcode::kParameter: {
      if (IsKernelInstr(instr) || spec.instr->opcode() != Opcode::kFusion)
        return OpError(*instr, "a parameter is not a kernel");
      ASSIGN_OR_RETURN(int arg, ArgOfOperand(*spec.instr, static_cast<int>(instr->parameter_number())));
      if (!shape.IsArray()) return OpError(*instr, "tuple-shaped fusion parameters are read through get-tuple-element");
      return self->Load(arg, index);
    }
    case Opcode::kGetTupleElement: {
      const Instruction* p = instr->operand(0);
      if ((p->opcode() == Opcode::kReduce || p->opcode() == Opcode::kReduceWindow) && p->shape().IsTuple() &&
          !IsKernelInstr(instr)) {
        ASSIGN_OR_RETURN(std::vector<Value*> leaves, VariadicReduction(p, index));
        if (instr->tuple_index() < 0 || instr->tuple_index() >= static_cast<int64_t>(leaves.size()))
          return OpError(*instr, "tuple index out of range");
        return leaves[static_cast<size_t>(instr->tuple_index())];
      }
      if (p->opcode() != Opcode::kParameter || IsKernelInstr(instr) || !shape.IsArray())
        return OpError(*instr, "only a get-tuple-element of a fusion parameter has an elemental form");
      ASSIGN_OR_RETURN(int arg, ArgOfOperand(*spec.instr, static_cast<int>(p->parameter_number())));
      int leaf = 0;
      for (int64_t i = 0; i < instr->tuple_index(); ++i) leaf += static_cast<int>(p->shape().tuple_shapes()[i].leaf_count());
      return self->Load(arg + leaf, index);
    }
    case Opcode::kConstant: return Constant(instr, index);
    case Opcode::kIota: {
      int64_t d = instr->attrs().iota_dimension;
      if (d < 0 || d >= shape.rank()) return OpError(*instr, "iota_dimension out of range");
      return EmitConvert(b, index[d], PrimitiveType::kS64, shape.element_type());
    }
    case Opcode::kCopy: return Operand(instr, 0, index);
    case Opcode::kBroadcast: {
      Index src;
      for (int64_t d : instr->dimensions()) src.push_back(index[d]);
      if (static_cast<int>(src.size()) != in.rank()) return OpError(*instr, "dimensions do not match the operand rank");
      return Operand(instr, 0, src);
    }
    case Opcode::kReshape:
    case Opcode::kBitcast: {
      StatusOr<Value*> v = [&]() -> StatusOr<Value*> {
        if (shape.dims() == in.dims() &&
            (instr->opcode() == Opcode::kReshape || MinorToMajor(shape) == MinorToMajor(in)))
          return Operand(instr, 0, index);
        bool physical = instr->opcode() == Opcode::kBitcast;
        auto out_order = physical ? MinorToMajor(shape) : RowMajor(shape.rank());
        auto in_order = physical ? MinorToMajor(in) : RowMajor(in.rank());
        Value* linear = Linearize(b, shape, out_order, index);
        return Operand(instr, 0, Delinearize(b, in, in_order, linear));
      }();
      if (!v.ok() || in.element_type() == shape.element_type()) return v;
      // A bitcast may also reinterpret the element type (f16 → s16): same
      // width, the bits unchanged.
      if (in.element_type() == PrimitiveType::kPred || shape.element_type() == PrimitiveType::kPred ||
          BitWidth(in.element_type()) != BitWidth(shape.element_type()))
        return OpError(*instr, "a bitcast between element types of different widths is not supported");
      return b.CreateBitCast(*v, RegisterType(shape.element_type(), b.getContext()));
    }
    case Opcode::kTranspose: {
      Index src(in.rank());
      const auto& perm = instr->dimensions();
      if (static_cast<int>(perm.size()) != in.rank()) return OpError(*instr, "permutation does not match the rank");
      for (size_t i = 0; i < perm.size(); ++i) src[perm[i]] = index[i];
      return Operand(instr, 0, src);
    }
    case Opcode::kReverse: {
      Index src = index;
      for (int64_t d : instr->dimensions()) src[d] = b.CreateSub(b.getInt64(in.dim(static_cast<int>(d)) - 1), index[d]);
      return Operand(instr, 0, src);
    }
    case Opcode::kSlice: {
      const auto& sl = instr->attrs().slice;
      if (static_cast<int>(sl.size()) != in.rank()) return OpError(*instr, "slice needs one entry per dimension");
      Index src(in.rank());
      for (int d = 0; d < in.rank(); ++d)
        src[d] = b.CreateAdd(b.getInt64(sl[d].start), b.CreateMul(index[d], b.getInt64(sl[d].stride)));
      return Operand(instr, 0, src);
    }
    case Opcode::kDynamicSlice: {
      if (instr->operand_count() != in.rank() + 1)
        return OpError(*instr, "needs one scalar start index per dimension");
      Index src(in.rank());
      for (int d = 0; d < in.rank(); ++d) {
        ASSIGN_OR_RETURN(Value * s, ScalarOperandI64(instr, d + 1));
        src[d] = b.CreateAdd(Clamp(s, 0, in.dim(d) - shape.dim(d)), index[d]);
      }
      return Operand(instr, 0, src);
    }
    case Opcode::kDynamicUpdateSlice: {
      // Elementally, as XLA's elemental emitter: inside the (clamped)
      // window the update's element, elsewhere the operand's. Both are
      // read at valid indices; the select picks one.
      const Shape& us = instr->operand(1)->shape();
      if (instr->operand_count() != in.rank() + 2 || us.rank() != in.rank())
        return OpError(*instr, "needs one scalar start index per dimension");
      Value* inside = b.getTrue();
      Index uidx(in.rank());
      for (int d = 0; d < in.rank(); ++d) {
        ASSIGN_OR_RETURN(Value * s, ScalarOperandI64(instr, d + 2));
        s = Clamp(s, 0, in.dim(d) - us.dim(d));
        Value* rel = b.CreateSub(index[d], s);
        inside = b.CreateAnd(inside, b.CreateAnd(b.CreateICmpSGE(rel, b.getInt64(0)),
                                                 b.CreateICmpSLT(rel, b.getInt64(us.dim(d)))));
        uidx[d] = Clamp(rel, 0, std::max<int64_t>(us.dim(d) - 1, 0));
      }
      ASSIGN_OR_RETURN(Value * old_v, Operand(instr, 0, index));
      if (us.num_elements() == 0) return old_v;
      ASSIGN_OR_RETURN(Value * new_v, Operand(instr, 1, uidx));
      return b.CreateSelect(inside, new_v, old_v);
    }
    case Opcode::kConcatenate: return Concatenate(instr, index);
    case Opcode::kReduceWindow: return ReduceWindow(instr, index);
    case Opcode::kReduce: return ElementalReduce(instr, index);
    case Opcode::kDot: return ElementalDot(instr, index);
    case Opcode::kPad: return Pad(instr, index);
    case Opcode::kGather: return Gather(instr, index);
    case Opcode::kMap: {
      std::vector<Value*> vals;
      for (int k = 0; k < instr->operand_count(); ++k) {
        ASSIGN_OR_RETURN(Value * v, Operand(instr, k, index));
        vals.push_back(v);
      }
      if (!instr->to_apply()) return OpError(*instr, "map needs to_apply");
      ASSIGN_OR_RETURN(auto r, self->EmitScalarComputation(*instr->to_apply(), vals));
      return r[0];
    }
    case Opcode::kBitcastConvert:
      if (BitWidth(in.element_type()) != BitWidth(shape.element_type()))
        return BitcastConvertWidths(instr, index);
      break;  // same width: elementwise
    case Opcode::kCustomCall: {
      const Opcode math = MathCustomCallOpcode(*instr);
      if (math == Opcode::kParameter) return OpError(*instr, "no kernel emitter implements this custom-call");
      ASSIGN_OR_RETURN(Value * v, Operand(instr, 0, index));
      if (math == Opcode::kAtan2) return EmitAtan(b, v, in.element_type());  // atan(x), see custom_calls.h
      Instruction as_op(math, shape, instr->name());
      return EmitElementwiseOp(b, as_op, {v}, {in.element_type()});
    }
    default: break;
  }
  bool elementwise = IsElementwise(instr->opcode()) || instr->opcode() == Opcode::kReducePrecision;
  if (!elementwise || !shape.IsArray())
    return OpError(*instr, "no kernel emitter implements this op elementally");
  std::vector<Value*> vals;
  std::vector<PrimitiveType> types;
  for (int k = 0; k < instr->operand_count(); ++k) {
    const Shape& os = instr->operand(k)->shape();
    if (!os.IsArray()) return OpError(*instr, "operands must be arrays");
    bool scalar = os.rank() == 0 && shape.rank() > 0;  // select pred / clamp bounds
    ASSIGN_OR_RETURN(Value * v, Operand(instr, k, scalar ? Index{} : index));
    vals.push_back(v);
    types.push_back(os.element_type());
  }
  return EmitElementwiseOp(b, *instr, vals, types);
}

ElementalEmitter::ElementalEmitter(llvm::IRBuilderBase& b, const KernelSpec& spec, std::vector<Value*> args)
    : b_(b), spec_(spec), impl_(new Impl(b, spec, std::move(args), this)) {}

ElementalEmitter::~ElementalEmitter() { delete impl_; }

StatusOr<std::vector<Value*>> ElementalEmitter::EmitLeaves(const Instruction* instr, const Index& index) {
  if (instr->shape().IsTuple() && (instr->opcode() == Opcode::kReduce || instr->opcode() == Opcode::kReduceWindow))
    return impl_->VariadicReduction(instr, index);
  ASSIGN_OR_RETURN(Value * v, Emit(instr, index));
  return std::vector<Value*>{v};
}

StatusOr<Value*> ElementalEmitter::Emit(const Instruction* instr, const Index& index) {
  if (instr->shape().IsArray() && static_cast<int>(index.size()) != instr->shape().rank())
    return OpError(*instr, "index rank " + std::to_string(index.size()) + " does not match the shape");
  auto key = std::make_pair(instr, index);
  auto it = impl_->cache.find(key);
  if (it != impl_->cache.end()) return it->second;
  ScopedHloLocation at(b_, spec_, instr);
  Value* v = nullptr;
  if (auto o = impl_->overrides.find(instr); o != impl_->overrides.end()) {
    ASSIGN_OR_RETURN(v, o->second(index));
  } else {
    ASSIGN_OR_RETURN(v, impl_->Emit(instr, index));
  }
  impl_->cache[key] = v;
  return v;
}

void ElementalEmitter::Override(const Instruction* instr, Generator gen) {
  impl_->overrides[instr] = std::move(gen);
  impl_->cache.clear();
}

// Sub-byte types (IsSubByte) are packed in kernel buffers, as Shape::
// byte_size counts them and the runtime packs them (plan_io.cc): 8/bits
// elements per byte in physical order, the first in the byte's most
// significant bits (XLA's order). Two threads may write two elements of one
// byte, so stores change only their bits with atomic and/or (the CPU's
// `lock and/or`; on the GPU a 32-bit compare-and-swap loop), and loads from
// buffers this kernel writes are atomic (monotonic) too.
namespace {

struct PackedSlot {
  Value* byte;   // i8*
  Value* shift;  // i8: where the element's bits start
  int bits;
};

PackedSlot PackedAddress(llvm::IRBuilderBase& b, const Shape& s, Value* base, Value* linear) {
  const int bits = BitWidth(s.element_type()), per = 8 / bits;
  Value* byte = b.CreateInBoundsGEP(b.getInt8Ty(), base, b.CreateLShr(linear, b.getInt64(per == 2 ? 1 : 2)));
  Value* slot = b.CreateAnd(linear, b.getInt64(per - 1));
  Value* shift = b.CreateMul(b.CreateSub(b.getInt64(per - 1), slot), b.getInt64(bits));
  return {byte, b.CreateTrunc(shift, b.getInt8Ty()), bits};
}

// True when the kernel may write argument `arg`'s buffer.
bool Written(const KernelSpec& spec, int arg) {
  if (spec.args[arg].is_output || spec.args[arg].aliases >= 0) return true;
  for (const KernelArg& o : spec.args)
    if (o.aliases == arg) return true;
  return false;
}

}  // namespace

Value* ElementalEmitter::ElementAddress(int arg, const Index& index) {
  const Shape& s = spec_.args[arg].shape;
  Value* linear = Linearize(b_, s, MinorToMajor(s), index);
  if (IsSubByte(s.element_type())) return PackedAddress(b_, s, impl_->args[arg], linear).byte;  // its byte
  llvm::Type* st = LlvmStorageType(s.element_type(), b_.getContext());
  return b_.CreateInBoundsGEP(st, impl_->args[arg], linear);
}

Value* ElementalEmitter::ElementAddressAs(int arg, const Shape& view, const Index& index) {
  Value* linear = Linearize(b_, view, MinorToMajor(view), index);
  llvm::Type* st = LlvmStorageType(spec_.args[arg].shape.element_type(), b_.getContext());
  return b_.CreateInBoundsGEP(st, impl_->args[arg], linear);
}

Value* ElementalEmitter::Load(int arg, const Index& index) {
  const Shape& s = spec_.args[arg].shape;
  if (IsSubByte(s.element_type())) {
    PackedSlot p = PackedAddress(b_, s, impl_->args[arg], Linearize(b_, s, MinorToMajor(s), index));
    llvm::LoadInst* byte = b_.CreateAlignedLoad(b_.getInt8Ty(), p.byte, llvm::Align(1));
    if (Written(spec_, arg)) byte->setAtomic(llvm::AtomicOrdering::Monotonic);
    return b_.CreateTrunc(b_.CreateLShr(byte, p.shift), b_.getIntNTy(static_cast<unsigned>(p.bits)));
  }
  llvm::Type* st = LlvmStorageType(s.element_type(), b_.getContext());
  Value* v = b_.CreateLoad(st, ElementAddress(arg, index));
  if (s.element_type() == PrimitiveType::kPred) v = b_.CreateICmpNE(v, b_.getInt8(0));
  return v;
}

void ElementalEmitter::Store(int arg, const Index& index, Value* v) {
  const Shape& s = spec_.args[arg].shape;
  if (IsSubByte(s.element_type())) {
    PackedSlot p = PackedAddress(b_, s, impl_->args[arg], Linearize(b_, s, MinorToMajor(s), index));
    Value* bits = b_.CreateShl(b_.CreateZExt(v, b_.getInt8Ty()), p.shift);
    Value* keep = b_.CreateNot(b_.CreateShl(b_.getInt8(static_cast<uint8_t>((1u << p.bits) - 1)), p.shift));
    b_.CreateAtomicRMW(llvm::AtomicRMWInst::And, p.byte, keep, llvm::MaybeAlign(1),
                       llvm::AtomicOrdering::Monotonic);
    b_.CreateAtomicRMW(llvm::AtomicRMWInst::Or, p.byte, bits, llvm::MaybeAlign(1),
                       llvm::AtomicOrdering::Monotonic);
    return;
  }
  if (v->getType()->isIntegerTy(1)) v = b_.CreateZExt(v, b_.getInt8Ty());
  b_.CreateStore(v, ElementAddress(arg, index));
}

StatusOr<std::vector<Value*>> ElementalEmitter::EmitScalarComputation(const Computation& c,
                                                                      const std::vector<Value*>& params) {
  std::map<const Instruction*, std::vector<Value*>> vals;  // leaves per instruction
  for (const Instruction* instr : c.MakePostOrder()) {
    std::vector<Value*>& out = vals[instr];
    switch (instr->opcode()) {
      case Opcode::kParameter: {
        size_t n = static_cast<size_t>(instr->parameter_number());
        if (n >= params.size()) return OpError(*instr, "parameter " + std::to_string(n) + " was not given a value");
        out = {params[n]};
        continue;
      }
      case Opcode::kConstant: {
        if (!instr->literal() || instr->literal()->elided() || instr->literal()->num_elements() != 1)
          return OpError(*instr, "only scalar constants are supported in " + c.name());
        ASSIGN_OR_RETURN(Value * v, LiteralElement(b_, *instr, *instr->literal(), 0));
        out = {v};
        continue;
      }
      case Opcode::kTuple:
        for (const Instruction* o : instr->operands()) out.insert(out.end(), vals[o].begin(), vals[o].end());
        continue;
      case Opcode::kGetTupleElement: {
        const auto& src = vals[instr->operand(0)];
        if (instr->tuple_index() >= static_cast<int64_t>(src.size())) return OpError(*instr, "index out of range");
        out = {src[instr->tuple_index()]};
        continue;
      }
      case Opcode::kCopy:
      case Opcode::kBitcast:
      case Opcode::kReshape:
      case Opcode::kBroadcast:
        if (instr->shape().IsArray() && instr->shape().num_elements() == 1) {
          out = vals[instr->operand(0)];
          const PrimitiveType from = instr->operand(0)->shape().element_type(), to = instr->shape().element_type();
          if (instr->opcode() == Opcode::kBitcast && from != to && out.size() == 1) {
            // A bitcast that reinterprets the element (XLA CPU's total-order
            // comparators: f32 -> s32), as bitcast-convert.
            Instruction as_convert(Opcode::kBitcastConvert, instr->shape(), instr->name());
            ASSIGN_OR_RETURN(Value * v, EmitElementwiseOp(b_, as_convert, out, {from}));
            out = {v};
          }
          continue;
        }
        return OpError(*instr, "not a scalar op in " + c.name());
      default: break;
    }
    std::vector<Value*> ops;
    std::vector<PrimitiveType> types;
    for (const Instruction* o : instr->operands()) {
      if (!o->shape().IsArray() || vals[o].size() != 1) return OpError(*instr, "operands must be scalars in " + c.name());
      ops.push_back(vals[o][0]);
      types.push_back(o->shape().element_type());
    }
    bool elementwise = IsElementwise(instr->opcode()) || instr->opcode() == Opcode::kReducePrecision;
    if (!elementwise) return OpError(*instr, "not a scalar op in " + c.name());
    ASSIGN_OR_RETURN(Value * v, EmitElementwiseOp(b_, *instr, ops, types));
    out = {v};
  }
  if (!c.root()) return Status::Error("codegen: computation " + c.name() + " has no root");
  return vals[c.root()];
}

void ElementalEmitter::ClearCache() { impl_->cache.clear(); }

llvm::Function* CreateKernelFunction(llvm::Module& module, const KernelSpec& spec, llvm::IRBuilderBase& b) {
  llvm::LLVMContext& ctx = module.getContext();
  std::vector<llvm::Type*> params(spec.args.size(), llvm::PointerType::get(ctx, 0));
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
  auto* f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, spec.name, module);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  for (size_t i = 0; i < spec.args.size(); ++i) {
    llvm::Argument* a = f->getArg(static_cast<unsigned>(i));
    a->setName("arg" + std::to_string(i));
    bool aliased = spec.args[i].aliases >= 0;
    for (const KernelArg& o : spec.args) aliased = aliased || o.aliases == static_cast<int>(i);
    if (!aliased) a->addAttr(llvm::Attribute::NoAlias);
    int64_t bytes = spec.args[i].shape.IsArray() ? spec.args[i].shape.byte_size() : 0;
    if (bytes > 0) a->addAttr(llvm::Attribute::getWithDereferenceableBytes(ctx, static_cast<uint64_t>(bytes)));
    a->addAttr(llvm::Attribute::getWithAlignment(ctx, llvm::Align(static_cast<uint64_t>(spec.args[i].align))));
    if (!spec.args[i].is_output && !aliased) a->addAttr(llvm::Attribute::ReadOnly);
  }
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  AttachKernelDebugInfo(*f, spec, b);
  return f;
}

}  // namespace hloscope::codegen
