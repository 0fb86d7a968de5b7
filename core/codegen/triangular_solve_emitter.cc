// triangular-solve(a, b): op(a)·x = b (left_side=true) or x·op(a) = b, with
// a's lower (or upper) triangle, optionally a unit diagonal, op = identity,
// transpose or adjoint — the interpreter's substitution order. One thread per
// independent vector of the batch (a column of b for left_side, a row
// otherwise), in f64 (complex<double> for c64/c128: the textbook product and
// Smith's division); x is kept in the output and read back from it. XLA GPU
// calls cuBLAS trsm (or expands small ones); the systems real modules solve
// after a Cholesky factorization (Gaussian processes, whitening) are small
// and batched. JAX's `lapack_?trsm_ffi` calls (core/ir/custom_calls.h) are
// the same kernel with the options read from their backend_config; they
// alias x with b, which this kernel allows: each element of b is read once,
// into the same element of x, before any element of x is written.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/complex_math_ir.h"
#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/matrix_kernel.h"
#include "core/codegen/ir_util.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
using Index = std::vector<Value*>;

std::string Attr(const Instruction& i, const char* name) {
  const RawAttr* a = i.FindRaw(name);
  return a ? a->value : "";
}

struct SolveOptions {
  bool left = false, lower = false, unit = false;
  std::string transpose_a = "NO_TRANSPOSE";
};

StatusOr<EmittedKernel> EmitSolve(llvm::Module& m, const KernelSpec& spec, const Instruction* ts,
                                  const SolveOptions& opts) {
  auto fail = [&](const std::string& why) {
    return Status::Error("codegen: triangular-solve %" + ts->name() + ": " + why);
  };
  if (ts->operand_count() != 2) return fail("needs a and b");
  const Shape& as = ts->operand(0)->shape();
  const Shape& bs = ts->operand(1)->shape();
  const PrimitiveType t = bs.element_type();
  const int r = bs.rank();
  if (r < 2 || as.rank() != r || as.dim(r - 1) != as.dim(r - 2) || as.element_type() != t)
    return fail("needs square matrices a and matrices b of one type");
  if (!IsFloat(t) && !IsComplex(t))
    return fail("is not implemented for " + std::string(PrimitiveTypeName(t)) + " by the kernel emitters");
  RETURN_IF_ERROR(CheckSupportedType(t, ts->name()));
  const bool left = opts.left, lower = opts.lower, unit = opts.unit;
  const std::string& tr = opts.transpose_a;
  if (tr != "NO_TRANSPOSE" && tr != "TRANSPOSE" && tr != "ADJOINT")
    return fail("transpose_a=" + tr + " is not NO_TRANSPOSE, TRANSPOSE or ADJOINT");
  const bool complex = IsComplex(t);
  const PrimitiveType wide = complex ? PrimitiveType::kC128 : PrimitiveType::kF64;
  const bool transposed = tr != "NO_TRANSPOSE";
  const bool conjugate = complex && tr == "ADJOINT";
  const bool op_lower = lower != transposed;

  const int64_t mm = as.dim(r - 1);
  const int64_t rows = bs.dim(r - 2), cols = bs.dim(r - 1);
  std::vector<int64_t> batch_dims = LeadingDims(r - 2);
  const int64_t batches = Product(bs, batch_dims);
  const int64_t vectors = batches * (left ? cols : rows);

  ThreadPerItemKernel frame(m, spec, "triangular-solve", vectors);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& result = frame.kernel;
  llvm::Type* f64 = b.getDoubleTy();
  Value* acc_re = EntryAlloca(b, f64, "acc_re");
  Value* acc_im = complex ? EntryAlloca(b, f64, "acc_im") : nullptr;
  // Elements as (re, im) in f64; im is null for real types.
  auto widen = [&](Value* e) -> StatusOr<ComplexParts> {
    ASSIGN_OR_RETURN(Value * w, EmitConvert(b, e, t, wide));
    if (!complex) return ComplexParts{w, nullptr};
    return ComplexParts{b.CreateExtractValue(w, 0), b.CreateExtractValue(w, 1)};
  };
  auto narrow = [&](ComplexParts z) -> StatusOr<Value*> {
    if (!complex) return EmitConvert(b, z.re, wide, t);
    Value* w = llvm::UndefValue::get(RegisterType(wide, m.getContext()));
    w = b.CreateInsertValue(b.CreateInsertValue(w, z.re, 0), z.im, 1);
    return EmitConvert(b, w, wide, t);
  };

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
    auto x = [&](Value* i, Value* j) { return widen(ee.Load(out, at(i, j))); };
    auto set_x = [&](Value* i, Value* j, ComplexParts value) -> Status {
      ASSIGN_OR_RETURN(Value * s, narrow(value));
      ee.Store(out, at(i, j), s);
      return Status::Ok();
    };
    // op(tri(a))(i, k), inside the triangle the loops visit.
    auto op = [&](Value* i, Value* k) -> StatusOr<ComplexParts> {
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * e, EmitOperand(ee, ts, 0, transposed ? at(k, i) : at(i, k)));
      ee.ClearCache();
      ASSIGN_OR_RETURN(ComplexParts z, widen(e));
      if (conjugate) z.im = b.CreateFNeg(z.im);
      return z;
    };
    auto diag = [&](Value* i) -> StatusOr<ComplexParts> {
      if (unit)
        return ComplexParts{llvm::ConstantFP::get(f64, 1.0), complex ? llvm::ConstantFP::get(f64, 0.0) : nullptr};
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
      ASSIGN_OR_RETURN(ComplexParts xi, left ? x(i, lane) : x(lane, i));
      b.CreateStore(xi.re, acc_re);
      if (complex) b.CreateStore(xi.im, acc_im);
      RETURN_IF_ERROR(ForLoop(b, k0, k1, I64(b, 1), [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(ComplexParts p, left ? op(i, k) : op(k, i));
        ASSIGN_OR_RETURN(ComplexParts q, left ? x(k, lane) : x(lane, k));
        Value* re = b.CreateLoad(f64, acc_re);
        if (!complex) {
          b.CreateStore(b.CreateFSub(re, b.CreateFMul(p.re, q.re)), acc_re);
          return Status::Ok();
        }
        // acc -= p·q, the textbook product as std::complex computes it.
        Value* pr = b.CreateFSub(b.CreateFMul(p.re, q.re), b.CreateFMul(p.im, q.im));
        Value* pi = b.CreateFAdd(b.CreateFMul(p.re, q.im), b.CreateFMul(p.im, q.re));
        b.CreateStore(b.CreateFSub(re, pr), acc_re);
        b.CreateStore(b.CreateFSub(b.CreateLoad(f64, acc_im), pi), acc_im);
        return Status::Ok();
      }));
      ASSIGN_OR_RETURN(ComplexParts d, diag(i));
      ComplexParts s{b.CreateLoad(f64, acc_re), complex ? b.CreateLoad(f64, acc_im) : nullptr};
      ComplexParts xv = complex ? EmitComplexDivide(b, s, d) : ComplexParts{b.CreateFDiv(s.re, d.re), nullptr};
      return left ? set_x(i, lane, xv) : set_x(lane, i, xv);
    });
  }));
  b.CreateRetVoid();
  return result;
}

}  // namespace

StatusOr<EmittedKernel> EmitTriangularSolveKernel(llvm::Module& m, const KernelSpec& spec) {
  if (std::optional<RootLinalgCall> root = FindRootLinalgCall(spec); root && root->call.kind == LinalgCall::Kind::kTrsm) {
    const LinalgCall& call = root->call;
    return EmitSolve(m, spec, root->instr, SolveOptions{call.left_side, call.lower, call.unit_diagonal, call.transpose_a});
  }
  ASSIGN_OR_RETURN(const Instruction* ts, SingleRootOfKind(spec, Opcode::kTriangularSolve));
  SolveOptions opts{Attr(*ts, "left_side") == "true", Attr(*ts, "lower") == "true",
                    Attr(*ts, "unit_diagonal") == "true", Attr(*ts, "transpose_a")};
  if (opts.transpose_a.empty()) opts.transpose_a = "NO_TRANSPOSE";
  return EmitSolve(m, spec, ts, opts);
}

}  // namespace hloscope::codegen
