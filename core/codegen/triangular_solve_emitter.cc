// triangular-solve(a, b): op(a)·x = b (left_side=true) or x·op(a) = b, with
// a's lower (or upper) triangle, optionally a unit diagonal, op = identity,
// transpose or adjoint — the interpreter's substitution order. One thread per
// independent vector of the batch (a column of b for left_side, a row
// otherwise), in f64; x is kept in the output and read back from it. XLA GPU
// calls cuBLAS trsm (or expands small ones); the systems real modules solve
// after a Cholesky factorization (Gaussian processes, whitening) are small
// and batched. Real floating-point types; complex ones are refused by name.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
using Index = std::vector<Value*>;

std::string Attr(const Instruction& i, const char* name) {
  const RawAttr* a = i.FindRaw(name);
  return a ? a->value : "";
}

}  // namespace

StatusOr<EmittedKernel> EmitTriangularSolveKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const Instruction* ts, SingleRootOfKind(spec, Opcode::kTriangularSolve));
  auto fail = [&](const std::string& why) {
    return Status::Error("codegen: triangular-solve %" + ts->name() + ": " + why);
  };
  if (ts->operand_count() != 2) return fail("needs a and b");
  const Shape& as = ts->operand(0)->shape();
  const Shape& bs = ts->operand(1)->shape();
  const PrimitiveType t = bs.element_type();
  const int r = bs.rank();
  if (r < 2 || as.rank() != r || as.dim(r - 1) != as.dim(r - 2))
    return fail("needs square matrices a and matrices b");
  if (!IsFloat(t))
    return fail("is not implemented for " + std::string(PrimitiveTypeName(t)) + " by the kernel emitters");
  RETURN_IF_ERROR(CheckSupportedType(t, ts->name()));
  const bool left = Attr(*ts, "left_side") == "true";
  const bool lower = Attr(*ts, "lower") == "true";
  const bool unit = Attr(*ts, "unit_diagonal") == "true";
  std::string tr = Attr(*ts, "transpose_a");
  if (tr.empty()) tr = "NO_TRANSPOSE";
  if (tr != "NO_TRANSPOSE" && tr != "TRANSPOSE" && tr != "ADJOINT")
    return fail("transpose_a=" + tr + " is not NO_TRANSPOSE, TRANSPOSE or ADJOINT");
  const bool transposed = tr != "NO_TRANSPOSE";  // adjoint = transpose for real values
  const bool op_lower = lower != transposed;
  const int64_t mm = as.dim(r - 1);
  const int64_t rows = bs.dim(r - 2), cols = bs.dim(r - 1);
  std::vector<int64_t> batch_dims;
  for (int d = 0; d < r - 2; ++d) batch_dims.push_back(d);
  const int64_t batches = Product(bs, batch_dims);
  const int64_t vectors = batches * (left ? cols : rows);

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  const int out = FirstOutputArg(spec);
  EmittedKernel result;
  result.kind = "triangular-solve";
  result.dims = LoopLaunchDims(vectors, spec.device);
  MarkKernel(f, result.dims.block[0]);
  llvm::Type* f64 = b.getDoubleTy();
  Value* acc = EntryAlloca(b, f64, "acc");

  RETURN_IF_ERROR(GridStrideLoop(b, vectors, [&](Value* v) -> Status {
    Value* batch = b.CreateUDiv(v, I64(b, left ? cols : rows));
    Value* lane = b.CreateURem(v, I64(b, left ? cols : rows));  // b's column (left) or row
    Index base(static_cast<size_t>(r));
    DelinearizeInto(b, batch, bs, batch_dims, base);
    auto at = [&](Value* i, Value* j) {
      Index idx = base;
      idx[static_cast<size_t>(r - 2)] = i;
      idx[static_cast<size_t>(r - 1)] = j;
      return idx;
    };
    // x(i, j) of this vector, kept in the output.
    auto x = [&](Value* i, Value* j) {
      return EmitConvert(b, ee.Load(out, at(i, j)), t, PrimitiveType::kF64);
    };
    auto set_x = [&](Value* i, Value* j, Value* value) -> Status {
      ASSIGN_OR_RETURN(Value * s, EmitConvert(b, value, PrimitiveType::kF64, t));
      ee.Store(out, at(i, j), s);
      return Status::Ok();
    };
    // op(tri(a))(i, k), off the diagonal (inside the triangle the loops visit).
    auto op = [&](Value* i, Value* k) -> StatusOr<Value*> {
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * e, EmitOperand(ee, ts, 0, transposed ? at(k, i) : at(i, k)));
      ee.ClearCache();
      return EmitConvert(b, e, t, PrimitiveType::kF64);
    };
    auto diag = [&](Value* i) -> StatusOr<Value*> {
      if (unit) return static_cast<Value*>(llvm::ConstantFP::get(f64, 1.0));
      return op(i, i);
    };
    // x starts as b.
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, mm), I64(b, 1), [&](Value* i) -> Status {
      ee.ClearCache();
      Index idx = left ? at(i, lane) : at(lane, i);
      ASSIGN_OR_RETURN(Value * e, EmitOperand(ee, ts, 1, idx));
      ee.ClearCache();
      ee.Store(out, idx, e);
      return Status::Ok();
    }));
    return ForLoop(b, I64(b, 0), I64(b, mm), I64(b, 1), [&](Value* step) -> Status {
      // The unknown solved at this step, and the range of k already known.
      const bool down = left ? op_lower : !op_lower;
      Value* i = down ? step : b.CreateSub(I64(b, mm - 1), step);
      Value* k0 = down ? I64(b, 0) : b.CreateAdd(i, I64(b, 1));
      Value* k1 = down ? i : I64(b, mm);
      ASSIGN_OR_RETURN(Value * xi, left ? x(i, lane) : x(lane, i));
      b.CreateStore(xi, acc);
      RETURN_IF_ERROR(ForLoop(b, k0, k1, I64(b, 1), [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(Value * a_ik, left ? op(i, k) : op(k, i));
        ASSIGN_OR_RETURN(Value * xk, left ? x(k, lane) : x(lane, k));
        b.CreateStore(b.CreateFSub(b.CreateLoad(f64, acc), b.CreateFMul(a_ik, xk)), acc);
        return Status::Ok();
      }));
      ASSIGN_OR_RETURN(Value * d, diag(i));
      Value* xv = b.CreateFDiv(b.CreateLoad(f64, acc), d);
      return left ? set_x(i, lane, xv) : set_x(lane, i, xv);
    });
  }));
  b.CreateRetVoid();
  return result;
}

}  // namespace hloscope::codegen
