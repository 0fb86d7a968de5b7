// JAX's singular value decomposition calls (jnp.linalg.svd,
// core/ir/custom_calls.h): `lapack_{s,d}gesdd_ffi`, `cusolver_gesvdj_ffi`:
// a → (a, singular values descending, U, Vᵀ, info). One thread per matrix,
// step by step as custom_calls.h defines it (GesvdShapes) and the
// interpreter (eval_linalg.cc) computes it: one-sided Jacobi sweeps over the
// columns of A (or Aᵀ when it is wide) kept in U (or Vᵀ), the rotations
// accumulated in the other; column lengths as the singular values, sorted
// descending; the columns a full U (or Vᵀ) needs beyond them, and those of
// zero singular values, completed from unit vectors. Each value is computed
// in f64 from the stored ones and stored in the element type, so the kernel
// and the interpreter agree. Complex matrices too (`lapack_{c,z}gesdd_ffi`,
// gesvdj on complex types): EmitComplexSvd. XLA GPU calls cuSOLVER for this.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/complex_math_ir.h"
#include "core/codegen/matrix_kernel.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {

using llvm::Value;

namespace {

// The complex SVDs (custom_calls.h), as EvalGesvdComplex: complex columns,
// L = A or Aᴴ, LAPACK's Vᴴ read and written conjugated.
Status EmitComplexSvd(llvm::IRBuilderBase& b, ElementalEmitter& ee, const Instruction* svd, const SvdShapes& sh, int out,
                      PrimitiveType t, const Shape& in, Value* first, Value* cand, Value* found, double tol) {
  const auto& ts = svd->shape().tuple_shapes();
  const PrimitiveType real = ts[1].element_type();
  const PrimitiveType info_type = ts[4].element_type();
  const int64_t rows = sh.m, cols = sh.n;
  const bool tall = rows >= cols;
  const int64_t p = tall ? rows : cols, q = tall ? cols : rows;
  const int64_t full = tall ? sh.u_cols : sh.vt_rows;
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* i1 = b.getInt1Ty();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  auto sqrt = [&](Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); };
  auto conj = [&](ComplexParts x) { return ComplexParts{x.re, b.CreateFNeg(x.im)}; };
  return GridStrideLoop(b, sh.batches, [&](Value* batch) -> Status {
    OutputMatrix copy(b, ee, out, t, in, batch);
    OutputMatrix u(b, ee, out + 2, t, ts[2], batch);
    OutputMatrix vt(b, ee, out + 3, t, ts[3], batch);
    const bool vt_rows = sh.v_transposed;
    auto load_u = [&](Value* row, Value* j) { return u.LoadParts(row, j); };
    auto store_u = [&](Value* row, Value* j, ComplexParts v) { return u.StoreParts(row, j, v); };
    // Component `row` of right singular vector j: conj(Vᴴ(j, row)), or V(row, j).
    auto load_v = [&](Value* row, Value* j) -> StatusOr<ComplexParts> {
      if (!vt_rows) return vt.LoadParts(row, j);
      ASSIGN_OR_RETURN(ComplexParts x, vt.LoadParts(j, row));
      return conj(x);
    };
    auto store_v = [&](Value* row, Value* j, ComplexParts v) {
      return vt_rows ? vt.StoreParts(j, row, conj(v)) : vt.StoreParts(row, j, v);
    };
    const ComplexKernelColumns uc{rows, load_u, store_u};
    const ComplexKernelColumns vc{cols, load_v, store_v};
    const ComplexKernelColumns& lc = tall ? uc : vc;
    const ComplexKernelColumns& rc = tall ? vc : uc;
    auto load_s = [&](Value* j) { return EmitConvert(b, ee.Load(out + 1, u.VectorAt(j)), real, PrimitiveType::kF64); };
    auto store_s = [&](Value* j, Value* v) -> Status {
      ASSIGN_OR_RETURN(Value * stored, EmitConvert(b, v, PrimitiveType::kF64, real));
      ee.Store(out + 1, u.VectorAt(j), stored);
      return Status::Ok();
    };
    auto loop = [&](int64_t from, int64_t to, const std::function<Status(Value*)>& body) {
      return ForLoop(b, I64(b, from), I64(b, to), I64(b, 1), body);
    };
    auto scale = [&](Value* j, Value* len) {
      return loop(0, p, [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(ComplexParts x, lc.get(row, j));
        return lc.set(row, j, {b.CreateFDiv(x.re, len), b.CreateFDiv(x.im, len)});
      });
    };
    RETURN_IF_ERROR(copy.CopyOperand(svd, 0, rows, cols));
    // L = A or Aᴴ, R = I.
    RETURN_IF_ERROR(loop(0, p, [&](Value* row) -> Status {
      return loop(0, q, [&](Value* j) -> Status {
        ee.ClearCache();
        ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, svd, 0, tall ? copy.At(row, j) : copy.At(j, row)));
        ee.ClearCache();
        ASSIGN_OR_RETURN(ComplexParts x, ElementToParts(b, t, v));
        return lc.set(row, j, tall ? x : conj(x));
      });
    }));
    RETURN_IF_ERROR(loop(0, q, [&](Value* row) -> Status {
      return loop(0, q, [&](Value* j) -> Status {
        return rc.set(row, j, {b.CreateSelect(b.CreateICmpEQ(row, j), c64(1), c64(0)), c64(0)});
      });
    }));
    RETURN_IF_ERROR(EmitComplexJacobiSweeps(b, lc, q, &rc, tol));
    RETURN_IF_ERROR(loop(0, q, [&](Value* j) -> Status {
      ASSIGN_OR_RETURN(ComplexParts s2, EmitComplexColumnDot(b, lc, j, j));
      Value* len = sqrt(s2.re);
      RETURN_IF_ERROR(store_s(j, len));
      return IfThen(b, b.CreateFCmpOGT(len, c64(0)), [&]() -> Status { return scale(j, len); });
    }));
    const KernelColumns values{q, [&](Value* j, Value*) { return load_s(j); },
                               [&](Value* j, Value*, Value* v) { return store_s(j, v); }};
    const KernelColumns lre = lc.Part(false), lim = lc.Part(true), rre = rc.Part(false), rim = rc.Part(true);
    RETURN_IF_ERROR(EmitSortColumnsByValue(b, values, /*descending=*/true, {&lre, &lim, &rre, &rim}));
    // Completion from unit vectors, as the real case.
    b.CreateStore(I64(b, q), first);
    RETURN_IF_ERROR(loop(0, q, [&](Value* j) -> Status {
      ASSIGN_OR_RETURN(Value * sj, load_s(j));
      Value* earlier = b.CreateAnd(b.CreateFCmpOEQ(sj, c64(0)), b.CreateICmpSLT(j, b.CreateLoad(i64, first)));
      b.CreateStore(b.CreateSelect(earlier, j, b.CreateLoad(i64, first)), first);
      return Status::Ok();
    }));
    b.CreateStore(I64(b, 0), cand);
    RETURN_IF_ERROR(ForLoop(b, b.CreateLoad(i64, first), I64(b, full), I64(b, 1), [&](Value* j) -> Status {
      b.CreateStore(b.getFalse(), found);
      return loop(0, p, [&](Value*) -> Status {
        Value* c = b.CreateLoad(i64, cand);
        Value* go = b.CreateAnd(b.CreateNot(b.CreateLoad(i1, found)), b.CreateICmpSLT(c, I64(b, p)));
        return IfThen(b, go, [&]() -> Status {
          RETURN_IF_ERROR(loop(0, p, [&](Value* row) -> Status {
            return lc.set(row, j, {b.CreateSelect(b.CreateICmpEQ(row, c), c64(1), c64(0)), c64(0)});
          }));
          RETURN_IF_ERROR(loop(0, 2, [&](Value*) -> Status {
            return ForLoop(b, I64(b, 0), j, I64(b, 1), [&](Value* i) -> Status {
              ASSIGN_OR_RETURN(ComplexParts d, EmitComplexColumnDot(b, lc, i, j));
              return loop(0, p, [&](Value* row) -> Status {
                ASSIGN_OR_RETURN(ComplexParts y, lc.get(row, j));
                ASSIGN_OR_RETURN(ComplexParts x, lc.get(row, i));
                Value* pr = b.CreateFSub(b.CreateFMul(d.re, x.re), b.CreateFMul(d.im, x.im));
                Value* pi = b.CreateFAdd(b.CreateFMul(d.re, x.im), b.CreateFMul(d.im, x.re));
                return lc.set(row, j, {b.CreateFSub(y.re, pr), b.CreateFSub(y.im, pi)});
              });
            });
          }));
          ASSIGN_OR_RETURN(ComplexParts s2, EmitComplexColumnDot(b, lc, j, j));
          Value* keep = b.CreateFCmpOGE(b.CreateFMul(s2.re, c64(static_cast<double>(2 * p))), c64(1));
          b.CreateStore(b.CreateAdd(c, I64(b, 1)), cand);
          return IfThen(b, keep, [&]() -> Status {
            b.CreateStore(b.getTrue(), found);
            return scale(j, sqrt(s2.re));
          });
        });
      });
    }));
    ASSIGN_OR_RETURN(Value * zero, EmitConvert(b, I64(b, 0), PrimitiveType::kS64, info_type));
    ee.Store(out + 4, u.BatchIndex(), zero);
    return Status::Ok();
  });
}

}  // namespace

StatusOr<EmittedKernel> EmitSvdKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const RootLinalgCall root,
                   RootLinalgCallOfKind(spec, {LinalgCall::Kind::kGesvd}, "the SVD emitter needs a gesdd or gesvdj call"));
  const Instruction* svd = root.instr;
  std::string why;
  const std::optional<SvdShapes> sh = GesvdShapes(*svd, &why);
  if (!sh) return Status::Error("codegen: SVD call %" + svd->name() + ": " + why);
  const Shape& in = svd->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  const auto& ts = svd->shape().tuple_shapes();
  const PrimitiveType info_type = ts[4].element_type();
  const int64_t rows = sh->m, cols = sh->n;
  const bool tall = rows >= cols;
  const int64_t p = tall ? rows : cols, q = tall ? cols : rows;
  const int64_t full = tall ? sh->u_cols : sh->vt_rows;

  ThreadPerItemKernel frame(m, spec, "svd", sh->batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& kernel = frame.kernel;
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* i1 = b.getInt1Ty();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  auto sqrt = [&](Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); };
  Value* first = EntryAlloca(b, i64, "first");
  Value* cand = EntryAlloca(b, i64, "candidate");
  Value* found = EntryAlloca(b, i1, "found");
  const double tol = EighTolerance(t, p);
  if (IsComplex(t)) {
    RETURN_IF_ERROR(EmitComplexSvd(b, ee, svd, *sh, out, t, in, first, cand, found, tol));
    b.CreateRetVoid();
    return kernel;
  }

  RETURN_IF_ERROR(GridStrideLoop(b, sh->batches, [&](Value* batch) -> Status {
    OutputMatrix copy(b, ee, out, t, in, batch);
    OutputMatrix u(b, ee, out + 2, t, ts[2], batch);
    OutputMatrix vt(b, ee, out + 3, t, ts[3], batch);
    // Component `row` of left singular vector j: U(row, j); of right
    // singular vector j: Vᵀ(j, row) or V(row, j).
    const bool vt_rows = sh->v_transposed;
    auto load_u = [&](Value* row, Value* j) { return u.Load(row, j); };
    auto store_u = [&](Value* row, Value* j, Value* v) { return u.Store(row, j, v); };
    auto load_v = [&](Value* row, Value* j) { return vt_rows ? vt.Load(j, row) : vt.Load(row, j); };
    auto store_v = [&](Value* row, Value* j, Value* v) { return vt_rows ? vt.Store(j, row, v) : vt.Store(row, j, v); };
    // L(row, j) and R(row, j) where they are kept, in f64.
    auto L = [&](Value* row, Value* j) { return tall ? load_u(row, j) : load_v(row, j); };
    auto set_l = [&](Value* row, Value* j, Value* v) { return tall ? store_u(row, j, v) : store_v(row, j, v); };
    auto R = [&](Value* row, Value* j) { return tall ? load_v(row, j) : load_u(row, j); };
    auto set_r = [&](Value* row, Value* j, Value* v) { return tall ? store_v(row, j, v) : store_u(row, j, v); };
    auto load_s = [&](Value* j) { return EmitConvert(b, ee.Load(out + 1, u.VectorAt(j)), t, PrimitiveType::kF64); };
    auto loop = [&](int64_t from, int64_t to, const std::function<Status(Value*)>& body) {
      return ForLoop(b, I64(b, from), I64(b, to), I64(b, 1), body);
    };
    auto loop_from = [&](Value* from, int64_t to, const std::function<Status(Value*)>& body) {
      return ForLoop(b, from, I64(b, to), I64(b, 1), body);
    };
    RETURN_IF_ERROR(copy.CopyOperand(svd, 0, rows, cols));
    // L = A or Aᵀ, R = I.
    RETURN_IF_ERROR(loop(0, p, [&](Value* row) -> Status {
      return loop(0, q, [&](Value* j) -> Status {
        ee.ClearCache();
        ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, svd, 0, tall ? copy.At(row, j) : copy.At(j, row)));
        ee.ClearCache();
        ASSIGN_OR_RETURN(Value * x, EmitConvert(b, v, t, PrimitiveType::kF64));
        return set_l(row, j, x);
      });
    }));
    RETURN_IF_ERROR(loop(0, q, [&](Value* row) -> Status {
      return loop(0, q, [&](Value* j) -> Status {
        return set_r(row, j, b.CreateSelect(b.CreateICmpEQ(row, j), c64(1), c64(0)));
      });
    }));
    // The sweeps, R rotated with L.
    const KernelColumns lc{p, L, set_l};
    const KernelColumns rc{q, R, set_r};
    RETURN_IF_ERROR(EmitJacobiSweeps(b, lc, q, &rc, tol));
    // Singular values, and L's columns made unit.
    RETURN_IF_ERROR(loop(0, q, [&](Value* j) -> Status {
      ASSIGN_OR_RETURN(Value * s2, EmitColumnDot(b, lc, j, j));
      Value* len = sqrt(s2);
      ASSIGN_OR_RETURN(Value * stored, EmitConvert(b, len, PrimitiveType::kF64, t));
      ee.Store(out + 1, u.VectorAt(j), stored);
      return IfThen(b, b.CreateFCmpOGT(len, c64(0)), [&]() -> Status {
        return loop(0, p, [&](Value* row) -> Status {
          ASSIGN_OR_RETURN(Value * x, L(row, j));
          return set_l(row, j, b.CreateFDiv(x, len));
        });
      });
    }));
    // Descending, L's and R's columns with their values.
    const KernelColumns values{q, [&](Value* j, Value*) { return load_s(j); },
                               [&](Value* j, Value*, Value* v) -> Status {
                                 ASSIGN_OR_RETURN(Value * stored, EmitConvert(b, v, PrimitiveType::kF64, t));
                                 ee.Store(out + 1, u.VectorAt(j), stored);
                                 return Status::Ok();
                               }};
    RETURN_IF_ERROR(EmitSortColumnsByValue(b, values, /*descending=*/true, {&lc, &rc}));
    // Completion from unit vectors: from the first zero singular value (or q)
    // to L's full extent.
    b.CreateStore(I64(b, q), first);
    RETURN_IF_ERROR(loop(0, q, [&](Value* j) -> Status {
      ASSIGN_OR_RETURN(Value * sj, load_s(j));
      Value* earlier = b.CreateAnd(b.CreateFCmpOEQ(sj, c64(0)), b.CreateICmpSLT(j, b.CreateLoad(i64, first)));
      b.CreateStore(b.CreateSelect(earlier, j, b.CreateLoad(i64, first)), first);
      return Status::Ok();
    }));
    b.CreateStore(I64(b, 0), cand);
    RETURN_IF_ERROR(loop_from(b.CreateLoad(i64, first), full, [&](Value* j) -> Status {
      b.CreateStore(b.getFalse(), found);
      // for (; c < p && !found; ++c) as the interpreter's loop with its break.
      return loop(0, p, [&](Value*) -> Status {
        Value* c = b.CreateLoad(i64, cand);
        Value* go = b.CreateAnd(b.CreateNot(b.CreateLoad(i1, found)), b.CreateICmpSLT(c, I64(b, p)));
        return IfThen(b, go, [&]() -> Status {
          RETURN_IF_ERROR(loop(0, p, [&](Value* row) -> Status {
            return set_l(row, j, b.CreateSelect(b.CreateICmpEQ(row, c), c64(1), c64(0)));
          }));
          RETURN_IF_ERROR(loop(0, 2, [&](Value*) -> Status {
            return ForLoop(b, I64(b, 0), j, I64(b, 1), [&](Value* i) -> Status {
              ASSIGN_OR_RETURN(Value * d, EmitColumnDot(b, lc, i, j));
              return loop(0, p, [&](Value* row) -> Status {
                ASSIGN_OR_RETURN(Value * y, L(row, j));
                ASSIGN_OR_RETURN(Value * x, L(row, i));
                return set_l(row, j, b.CreateFSub(y, b.CreateFMul(d, x)));
              });
            });
          }));
          ASSIGN_OR_RETURN(Value * s2, EmitColumnDot(b, lc, j, j));
          Value* keep = b.CreateFCmpOGE(b.CreateFMul(s2, c64(static_cast<double>(2 * p))), c64(1));
          b.CreateStore(b.CreateAdd(c, I64(b, 1)), cand);  // taken or passed over, never again
          return IfThen(b, keep, [&]() -> Status {
            b.CreateStore(b.getTrue(), found);
            Value* len = sqrt(s2);
            return loop(0, p, [&](Value* row) -> Status {
              ASSIGN_OR_RETURN(Value * x, L(row, j));
              return set_l(row, j, b.CreateFDiv(x, len));
            });
          });
        });
      });
    }));
    ASSIGN_OR_RETURN(Value * zero, EmitConvert(b, I64(b, 0), PrimitiveType::kS64, info_type));
    ee.Store(out + 4, u.BatchIndex(), zero);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return kernel;
}

}  // namespace hloscope::codegen
