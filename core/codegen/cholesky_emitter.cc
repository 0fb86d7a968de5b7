// cholesky(a), lower=true|false: a = L·L^H (or U^H·U) for every matrix of the
// batch, the other triangle zero — the interpreter's algorithm
// (Cholesky–Crout, column by column, NaN where a is not positive definite,
// as XLA gives). One thread per matrix, in f64 (real and imaginary parts
// apart for complex types); the factor's entries are kept in the output and
// read back from it, so a matrix costs n³/3 multiply-adds and no scratch.
// XLA GPU calls cuSOLVER's potrf for this; the matrices real modules
// factor (covariances, Gaussian processes) are small and batched, which one
// thread per matrix suits.
//
// JAX's potrf library calls (`lapack_?potrf_ffi`, `cusolver_potrf_ffi`:
// a → (factor, info), core/ir/custom_calls.h) are the same kernel with
// LAPACK's conventions, as the interpreter computes them: the other triangle
// of the output keeps the input's values, and info is 0, or the order j+1
// of the first diagonal entry that is not positive (NaN included), per
// matrix. Each entry of a is read before its factor entry is written and
// never again, so the factor may overwrite a in place (the calls alias
// output 0 with operand 0).
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

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

// A value as (re, im) in f64; im is null for real types.
struct C64 {
  Value* re = nullptr;
  Value* im = nullptr;
};

// The factorization of `chol`'s operand 0; `lapack`: the potrf call's
// conventions (other triangle kept, info in output 1).
StatusOr<EmittedKernel> EmitFactorization(llvm::Module& m, const KernelSpec& spec, const Instruction* chol, bool lower,
                                          bool lapack) {
  const std::string what = lapack ? "potrf call" : "cholesky";
  const Shape& in = chol->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  const int r = in.rank();
  if (r < 2 || in.dim(r - 1) != in.dim(r - 2))
    return Status::Error("codegen: " + what + " %" + chol->name() + ": needs square matrices in the last two dimensions");
  if (!IsFloat(t) && !IsComplex(t))
    return Status::Error("codegen: " + what + " %" + chol->name() + ": needs a floating-point or complex type");
  RETURN_IF_ERROR(CheckSupportedType(t, chol->name()));
  PrimitiveType info_type = PrimitiveType::kS32;
  if (lapack) {
    const Shape& info = chol->shape().tuple_shapes()[1];
    if (chol->shape().tuple_shapes()[0].dims() != in.dims() || !IsInteger(info.element_type()) ||
        info.dims() != std::vector<int64_t>(in.dims().begin(), in.dims().end() - 2))
      return Status::Error("codegen: potrf call %" + chol->name() +
                           ": needs results (factor shaped as the input, one integer info per matrix)");
    info_type = info.element_type();
  }
  const bool complex = IsComplex(t);
  const PrimitiveType part = t == PrimitiveType::kC64    ? PrimitiveType::kF32
                             : t == PrimitiveType::kC128 ? PrimitiveType::kF64
                                                         : t;
  const int64_t n = in.dim(r - 1);
  std::vector<int64_t> batch_dims = LeadingDims(r - 2);
  const int64_t batches = Product(in, batch_dims);

  ThreadPerItemKernel frame(m, spec, "cholesky", batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& result = frame.kernel;
  llvm::Type* f64 = b.getDoubleTy();

  auto split = [&](Value* v) -> StatusOr<C64> {
    C64 c;
    if (!complex) {
      ASSIGN_OR_RETURN(c.re, EmitConvert(b, v, t, PrimitiveType::kF64));
      return c;
    }
    ASSIGN_OR_RETURN(c.re, EmitConvert(b, b.CreateExtractValue(v, 0), part, PrimitiveType::kF64));
    ASSIGN_OR_RETURN(c.im, EmitConvert(b, b.CreateExtractValue(v, 1), part, PrimitiveType::kF64));
    return c;
  };
  auto join = [&](C64 c) -> StatusOr<Value*> {
    if (!complex) return EmitConvert(b, c.re, PrimitiveType::kF64, t);
    ASSIGN_OR_RETURN(Value * re, EmitConvert(b, c.re, PrimitiveType::kF64, part));
    ASSIGN_OR_RETURN(Value * im, EmitConvert(b, c.im, PrimitiveType::kF64, part));
    Value* v = llvm::UndefValue::get(RegisterType(t, m.getContext()));
    v = b.CreateInsertValue(v, re, 0);
    return b.CreateInsertValue(v, im, 1);
  };
  auto conj = [&](C64 c) {
    if (c.im) c.im = b.CreateFNeg(c.im);
    return c;
  };

  Value* acc_re = EntryAlloca(b, f64, "acc_re");
  Value* acc_im = EntryAlloca(b, f64, "acc_im");
  Value* diag = EntryAlloca(b, f64, "diag");
  Value* info = EntryAlloca(b, b.getInt64Ty(), "info");
  RETURN_IF_ERROR(GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    Index base(static_cast<size_t>(r));
    DelinearizeInto(b, batch, in, batch_dims, base);
    auto at = [&](Value* i, Value* j) {
      Index idx = base;
      idx[r - 2] = i;
      idx[r - 1] = j;
      return idx;
    };
    // The lower-triangle view of a, and the factor L kept in the output
    // (transposed and conjugated there for lower=false).
    auto a = [&](Value* i, Value* j) -> StatusOr<C64> {
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, chol, 0, lower ? at(i, j) : at(j, i)));
      ee.ClearCache();
      ASSIGN_OR_RETURN(C64 c, split(v));
      return lower ? c : conj(c);
    };
    auto l = [&](Value* i, Value* j) -> StatusOr<C64> {
      ASSIGN_OR_RETURN(C64 c, split(ee.Load(out, lower ? at(i, j) : at(j, i))));
      return lower ? c : conj(c);
    };
    auto set_l = [&](Value* i, Value* j, C64 c) -> Status {
      ASSIGN_OR_RETURN(Value * v, join(lower ? c : conj(c)));
      ee.Store(out, lower ? at(i, j) : at(j, i), v);
      return Status::Ok();
    };
    C64 zero{llvm::ConstantFP::get(f64, 0.0), complex ? llvm::ConstantFP::get(f64, 0.0) : nullptr};
    // The strict upper triangle of L is zero (cholesky), or keeps a's values
    // there (potrf: the triangle LAPACK does not touch, as stored).
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      return ForLoop(b, b.CreateAdd(i, I64(b, 1)), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
        if (!lapack) return set_l(i, j, zero);
        ASSIGN_OR_RETURN(C64 v, a(i, j));
        return set_l(i, j, v);
      });
    }));
    b.CreateStore(I64(b, 0), info);
    // acc = a(i, j) - Σ_{k<j} l(i, k)·conj(l(j, k))
    auto dot_rest = [&](Value* i, Value* j) -> Status {
      ASSIGN_OR_RETURN(C64 aij, a(i, j));
      b.CreateStore(aij.re, acc_re);
      if (complex) b.CreateStore(aij.im, acc_im);
      return ForLoop(b, I64(b, 0), j, I64(b, 1), [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(C64 x, l(i, k));
        ASSIGN_OR_RETURN(C64 y, l(j, k));
        Value* re = b.CreateLoad(f64, acc_re);
        if (!complex) {
          b.CreateStore(b.CreateFSub(re, b.CreateFMul(x.re, y.re)), acc_re);
          return Status::Ok();
        }
        // x·conj(y) = (xr·yr + xi·yi) + (xi·yr - xr·yi)i
        Value* pr = b.CreateFAdd(b.CreateFMul(x.re, y.re), b.CreateFMul(x.im, y.im));
        Value* pi = b.CreateFSub(b.CreateFMul(x.im, y.re), b.CreateFMul(x.re, y.im));
        b.CreateStore(b.CreateFSub(re, pr), acc_re);
        b.CreateStore(b.CreateFSub(b.CreateLoad(f64, acc_im), pi), acc_im);
        return Status::Ok();
      });
    };
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
      RETURN_IF_ERROR(dot_rest(j, j));
      // sqrt of the real part: NaN when a is not positive definite.
      Value* dj = CallLibdevice(b, "__nv_sqrt", {b.CreateLoad(f64, acc_re)}, f64);
      b.CreateStore(dj, diag);
      if (lapack) {  // info = j+1 at the first diagonal entry (as stored) that is not > 0
        ASSIGN_OR_RETURN(Value * stored, EmitConvert(b, dj, PrimitiveType::kF64, part));
        ASSIGN_OR_RETURN(stored, EmitConvert(b, stored, part, PrimitiveType::kF64));
        Value* first = b.CreateAnd(b.CreateICmpEQ(b.CreateLoad(b.getInt64Ty(), info), I64(b, 0)),
                                   b.CreateFCmpULE(stored, llvm::ConstantFP::get(f64, 0.0)));
        b.CreateStore(b.CreateSelect(first, b.CreateAdd(j, I64(b, 1)), b.CreateLoad(b.getInt64Ty(), info)), info);
      }
      RETURN_IF_ERROR(set_l(j, j, C64{dj, complex ? llvm::ConstantFP::get(f64, 0.0) : nullptr}));
      return ForLoop(b, b.CreateAdd(j, I64(b, 1)), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
        RETURN_IF_ERROR(dot_rest(i, j));
        Value* d = b.CreateLoad(f64, diag);
        C64 v{b.CreateFDiv(b.CreateLoad(f64, acc_re), d),
              complex ? b.CreateFDiv(b.CreateLoad(f64, acc_im), d) : nullptr};
        return set_l(i, j, v);
      });
    }));
    if (!lapack) return Status::Ok();
    Index batch_index(base.begin(), base.end() - 2);
    ASSIGN_OR_RETURN(Value * code, EmitConvert(b, b.CreateLoad(b.getInt64Ty(), info), PrimitiveType::kS64, info_type));
    ee.Store(out + 1, batch_index, code);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return result;
}

}  // namespace

StatusOr<EmittedKernel> EmitCholeskyKernel(llvm::Module& m, const KernelSpec& spec) {
  if (std::optional<RootLinalgCall> root = FindRootLinalgCall(spec); root && root->call.kind == LinalgCall::Kind::kPotrf)
    return EmitFactorization(m, spec, root->instr, root->call.lower, /*lapack=*/true);
  ASSIGN_OR_RETURN(const Instruction* chol, SingleRootOfKind(spec, Opcode::kCholesky));
  const RawAttr* lower_attr = chol->FindRaw("lower");
  return EmitFactorization(m, spec, chol, !lower_attr || lower_attr->value != "false", /*lapack=*/false);
}

}  // namespace hloscope::codegen
