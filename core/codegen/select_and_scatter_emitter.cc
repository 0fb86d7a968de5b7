// select-and-scatter (the gradient of max pooling), gathered per output
// element instead of scattered with atomics: one thread per element o of the
// result (the operand's shape) starts from init and, for every source
// element s whose window covers o — in row-major order of s, the
// interpreter's order — walks s's window to find the element `select`
// chooses (the first position, replaced by a later one wherever
// select(chosen, later) is false) and, when that is o, folds the source value
// in with scatter(source[s], acc). No two threads write one element, so any
// scatter computation is exact and the result is deterministic.
//
// The source elements whose windows can cover o lie in a box of at most
// ceil(size·dilation / stride) per dimension; the kernel visits that box and
// skips those outside the source or whose window misses o.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
using Index = std::vector<Value*>;

Status Error(const Instruction& i, const std::string& why) {
  return Status::Error("codegen: select-and-scatter %" + i.name() + ": " + why);
}

// Floor division for a possibly negative numerator and a positive divisor.
Value* FloorDiv(llvm::IRBuilderBase& b, Value* n, int64_t d) {
  Value* q = b.CreateSDiv(n, I64(b, d));
  Value* fix =
      b.CreateAnd(b.CreateICmpNE(b.CreateSRem(n, I64(b, d)), I64(b, 0)), b.CreateICmpSLT(n, I64(b, 0)));
  return b.CreateSub(q, b.CreateZExt(fix, b.getInt64Ty()));
}

}  // namespace

StatusOr<EmittedKernel> EmitSelectAndScatterKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const Instruction* sas, SingleRootOfKind(spec, Opcode::kSelectAndScatter));
  const Computation* select = sas->called("select");
  const Computation* scatter = sas->called("scatter");
  const Window* window = sas->attrs().window.get();
  if (!select || !scatter || !window || sas->operand_count() != 3)
    return Error(*sas, "needs operand, source, init, a window, select and scatter");
  const Shape& in = sas->operand(0)->shape();
  const Shape& src = sas->operand(1)->shape();
  const int rank = in.rank();
  if (static_cast<int>(window->dims.size()) != rank || src.rank() != rank)
    return Error(*sas, "the window, operand and source ranks differ");
  for (const WindowDim& w : window->dims) {
    if (w.stride <= 0 || w.window_dilation <= 0 || w.size <= 0) return Error(*sas, "invalid window");
    if (w.base_dilation != 1) return Error(*sas, "base dilation is not supported by the kernel emitter");
  }
  RETURN_IF_ERROR(CheckSupportedType(in.element_type(), sas->name()));

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  const int out = FirstOutputArg(spec);
  const Shape& out_shape = spec.args[static_cast<size_t>(out)].shape;
  EmittedKernel result;
  result.kind = "select-and-scatter";
  result.dims = LoopLaunchDims(out_shape.num_elements(), spec.device);
  MarkKernel(f, result.dims.block[0]);

  // Per dimension: how many source positions can cover one element.
  std::vector<int64_t> box(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    const WindowDim& w = window->dims[static_cast<size_t>(d)];
    box[static_cast<size_t>(d)] = ((w.size - 1) * w.window_dilation) / w.stride + 1;
  }
  int64_t box_n = 1;
  for (int64_t n : box) box_n *= n;
  int64_t win_n = 1;
  std::vector<int64_t> win_sizes;
  for (const WindowDim& w : window->dims) {
    win_n *= w.size;
    win_sizes.push_back(w.size);
  }

  llvm::Type* vt = RegisterType(in.element_type(), ctx);
  Value* acc = EntryAlloca(b, vt, "acc");
  Value* chosen = EntryAlloca(b, b.getInt64Ty(), "chosen");
  Value* chosen_v = EntryAlloca(b, vt, "chosen_value");
  std::vector<int64_t> out_order = MajorToMinor(out_shape);
  RETURN_IF_ERROR(GridStrideLoop(b, out_shape.num_elements(), [&](Value* linear) -> Status {
    // The element in physical order of the output (neighbouring threads write
    // neighbouring bytes).
    Index o(static_cast<size_t>(rank));
    DelinearizeInto(b, linear, out_shape, out_order, o);
    ee.ClearCache();
    ASSIGN_OR_RETURN(Value * init, EmitOperand(ee, sas, 2, Index{}));
    b.CreateStore(init, acc);
    // First source position per dimension whose window can reach o.
    Index lo(static_cast<size_t>(rank));
    for (int d = 0; d < rank; ++d) {
      const WindowDim& w = window->dims[static_cast<size_t>(d)];
      Value* reach =
          b.CreateSub(b.CreateAdd(o[d], I64(b, w.pad_lo)), I64(b, (w.size - 1) * w.window_dilation));
      // ceil(reach / stride) = floor((reach + stride - 1) / stride)
      lo[d] = FloorDiv(b, b.CreateAdd(reach, I64(b, w.stride - 1)), w.stride);
    }
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, box_n), I64(b, 1), [&](Value* j) -> Status {
      std::vector<Value*> off = Delinearize(b, j, box);
      Index s(static_cast<size_t>(rank));
      Value* ok = b.getTrue();
      for (int d = 0; d < rank; ++d) {
        const WindowDim& w = window->dims[static_cast<size_t>(d)];
        s[d] = b.CreateAdd(lo[d], off[d]);
        ok = b.CreateAnd(ok, b.CreateICmpSGE(s[d], I64(b, 0)));
        ok = b.CreateAnd(ok, b.CreateICmpSLT(s[d], I64(b, src.dim(d))));
        // o = s·stride + k·dilation - pad_lo for some window position k.
        Value* rel = b.CreateSub(b.CreateAdd(o[d], I64(b, w.pad_lo)), b.CreateMul(s[d], I64(b, w.stride)));
        ok = b.CreateAnd(ok, b.CreateICmpSGE(rel, I64(b, 0)));
        ok = b.CreateAnd(ok, b.CreateICmpSLT(rel, I64(b, w.size * w.window_dilation)));
        if (w.window_dilation > 1)
          ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateSRem(rel, I64(b, w.window_dilation)), I64(b, 0)));
      }
      return IfThen(b, ok, [&]() -> Status {
        // select over s's window, in row-major window order.
        b.CreateStore(I64(b, -1), chosen);
        b.CreateStore(init, chosen_v);  // any defined value: replaced by the first position
        RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, win_n), I64(b, 1), [&](Value* q) -> Status {
          std::vector<Value*> k = Delinearize(b, q, win_sizes);
          Index p(static_cast<size_t>(rank));
          Value* inside = b.getTrue();
          Value* plin = I64(b, 0);
          for (int d = 0; d < rank; ++d) {
            const WindowDim& w = window->dims[static_cast<size_t>(d)];
            p[d] = b.CreateSub(b.CreateAdd(b.CreateMul(s[d], I64(b, w.stride)),
                                           b.CreateMul(k[d], I64(b, w.window_dilation))),
                               I64(b, w.pad_lo));
            inside = b.CreateAnd(inside, b.CreateICmpSGE(p[d], I64(b, 0)));
            inside = b.CreateAnd(inside, b.CreateICmpSLT(p[d], I64(b, in.dim(d))));
            plin = b.CreateAdd(b.CreateMul(plin, I64(b, in.dim(d))), p[d]);
          }
          return IfThen(b, inside, [&]() -> Status {
            ee.ClearCache();
            ASSIGN_OR_RETURN(Value * x, EmitOperand(ee, sas, 0, p));
            ee.ClearCache();
            Value* c = b.CreateLoad(b.getInt64Ty(), chosen);
            Value* first = b.CreateICmpSLT(c, I64(b, 0));
            Value* cv = b.CreateLoad(vt, chosen_v);
            ASSIGN_OR_RETURN(std::vector<Value*> keep, ee.EmitScalarComputation(*select, {cv, x}));
            if (keep.size() != 1 || !keep[0]->getType()->isIntegerTy(1))
              return Error(*sas, "select must return a pred");
            Value* take = b.CreateOr(first, b.CreateNot(keep[0]));
            b.CreateStore(b.CreateSelect(take, plin, c), chosen);
            b.CreateStore(b.CreateSelect(take, x, cv), chosen_v);
            return Status::Ok();
          });
        }));
        Value* olin = I64(b, 0);
        for (int d = 0; d < rank; ++d) olin = b.CreateAdd(b.CreateMul(olin, I64(b, in.dim(d))), o[d]);
        return IfThen(b, b.CreateICmpEQ(b.CreateLoad(b.getInt64Ty(), chosen), olin), [&]() -> Status {
          ee.ClearCache();
          ASSIGN_OR_RETURN(Value * sv, EmitOperand(ee, sas, 1, s));
          ee.ClearCache();
          ASSIGN_OR_RETURN(std::vector<Value*> r,
                           ee.EmitScalarComputation(*scatter, {sv, b.CreateLoad(vt, acc)}));
          if (r.size() != 1) return Error(*sas, "scatter must return one value");
          b.CreateStore(r[0], acc);
          return Status::Ok();
        });
      });
    }));
    ee.Store(out, o, b.CreateLoad(vt, acc));
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return result;
}

}  // namespace hloscope::codegen
