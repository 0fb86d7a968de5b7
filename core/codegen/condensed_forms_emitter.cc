// JAX's condensed-form and tridiagonal-solve library calls as kernels
// (core/ir/custom_calls.h): sytrd / hetrd (`lapack_?sytrd_ffi`,
// `lapack_?hetrd_ffi`, `cusolver_sytrd_ffi`: lax.linalg.tridiagonal), gehrd
// (`lapack_?gehrd_ffi`: jax.scipy.linalg.hessenberg) and gtsv
// (`lapack_?gtsv_ffi`, `cusparse_gtsv2_ffi`: lax.linalg.tridiagonal_solve).
// One thread per matrix (system), step by step as the interpreter
// (core/eval/eval_condensed_forms.cc) and LAPACK's unblocked sytd2 / hetd2,
// gehd2 and gtsv compute them. The matrix lives in the output (in place over
// the input when buffer assignment shares them, as the calls'
// output_to_operand_aliasing asks); each value is computed in f64 from the
// stored ones and stored in the element type, so the kernel and the
// interpreter agree. sytrd keeps its w vector in tau, as LAPACK does;
// cuSPARSE's gtsv, whose only result is x, keeps dl, d and du in the
// thread's own memory. XLA GPU calls cuSOLVER and cuSPARSE for these; the
// systems JAX programs reduce or solve this way are small and batched.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "core/codegen/complex_math_ir.h"
#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/matrix_kernel.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {

using llvm::Value;
using Index = std::vector<Value*>;

namespace {

// f64 arithmetic on {re, im} values, real-only (im null) for real types, each
// step as the interpreter's Arith on complex<double> (the textbook product,
// Smith's division).
struct Arith {
  llvm::IRBuilderBase& b;
  bool complex;
  Value* F(double v) const { return llvm::ConstantFP::get(b.getDoubleTy(), v); }
  ComplexParts Const(double re) const { return {F(re), complex ? F(0) : nullptr}; }
  ComplexParts Add(ComplexParts x, ComplexParts y) const {
    return {b.CreateFAdd(x.re, y.re), complex ? b.CreateFAdd(x.im, y.im) : nullptr};
  }
  ComplexParts Sub(ComplexParts x, ComplexParts y) const {
    return {b.CreateFSub(x.re, y.re), complex ? b.CreateFSub(x.im, y.im) : nullptr};
  }
  ComplexParts Mul(ComplexParts x, ComplexParts y) const {
    if (!complex) return {b.CreateFMul(x.re, y.re), nullptr};
    return {b.CreateFSub(b.CreateFMul(x.re, y.re), b.CreateFMul(x.im, y.im)),
            b.CreateFAdd(b.CreateFMul(x.re, y.im), b.CreateFMul(x.im, y.re))};
  }
  ComplexParts Div(ComplexParts x, ComplexParts y) const {
    if (!complex) return {b.CreateFDiv(x.re, y.re), nullptr};
    return EmitComplexDivide(b, x, y);
  }
  ComplexParts Conj(ComplexParts x) const { return {x.re, complex ? b.CreateFNeg(x.im) : nullptr}; }
  ComplexParts Neg(ComplexParts x) const { return {b.CreateFNeg(x.re), complex ? b.CreateFNeg(x.im) : nullptr}; }
  ComplexParts RealPart(ComplexParts x) const { return {x.re, complex ? F(0) : nullptr}; }
  Value* IsZero(ComplexParts x) const {
    Value* z = b.CreateFCmpOEQ(x.re, F(0));
    return complex ? b.CreateAnd(z, b.CreateFCmpOEQ(x.im, F(0))) : z;
  }
  Value* Abs(Value* v) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }
  // |x|, or |re| + |im| (LAPACK's cabs1).
  Value* Mag(ComplexParts x) const { return complex ? b.CreateFAdd(Abs(x.re), Abs(x.im)) : Abs(x.re); }
};

// A value kept in registers across loops (two f64 slots).
struct Slot {
  Value* re;
  Value* im;
  Slot(llvm::IRBuilderBase& b, const std::string& name)
      : re(EntryAlloca(b, b.getDoubleTy(), name + "_re")), im(EntryAlloca(b, b.getDoubleTy(), name + "_im")) {}
  ComplexParts Get(llvm::IRBuilderBase& b, bool complex) const {
    return {b.CreateLoad(b.getDoubleTy(), re), complex ? b.CreateLoad(b.getDoubleTy(), im) : nullptr};
  }
  void Set(llvm::IRBuilderBase& b, ComplexParts v) const {
    b.CreateStore(v.re, re);
    if (v.im) b.CreateStore(v.im, im);
  }
};

// A per-matrix vector in output argument `arg` (element type `t`), indexed
// through the matrix's batch index.
struct OutputVector {
  ElementalEmitter& ee;
  llvm::IRBuilderBase& b;
  const OutputMatrix& m;
  int arg;
  PrimitiveType t;
  StatusOr<ComplexParts> Get(Value* i) const { return ElementToParts(b, t, ee.Load(arg, m.VectorAt(i))); }
  Status Set(Value* i, ComplexParts v) const {
    ASSIGN_OR_RETURN(Value * s, PartsToElement(b, t, v));
    ee.Store(arg, m.VectorAt(i), s);
    return Status::Ok();
  }
};

// The reflector of alpha = a(ai, aj) and the tail a(x0:x1, aj) (larfg /
// clarfg, as the interpreter's Reflector): tau into `tau`; the tail scaled
// and alpha replaced by beta where there is a reflection.
Status EmitReflector(const Arith& ar, OutputMatrix& a, Value* ai, Value* aj, Value* x0, Value* x1, const Slot& tau) {
  llvm::IRBuilderBase& b = ar.b;
  llvm::Type* f64 = b.getDoubleTy();
  Value* norm2 = EntryAlloca(b, f64, "norm2");
  b.CreateStore(ar.F(0), norm2);
  RETURN_IF_ERROR(ForLoop(b, x0, x1, I64(b, 1), [&](Value* r) -> Status {
    ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, aj));
    Value* sq = b.CreateFMul(x.re, x.re);
    if (ar.complex) sq = b.CreateFAdd(sq, b.CreateFMul(x.im, x.im));
    b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, norm2), sq), norm2);
    return Status::Ok();
  }));
  ASSIGN_OR_RETURN(ComplexParts alpha, a.LoadParts(ai, aj));
  Value* n2 = b.CreateLoad(f64, norm2);
  tau.Set(b, ar.Const(0));
  Value* reflect = b.CreateFCmpUNE(n2, ar.F(0));
  if (ar.complex) reflect = b.CreateOr(reflect, b.CreateFCmpUNE(alpha.im, ar.F(0)));
  return IfThen(b, reflect, [&]() -> Status {
    Value* abs2 = b.CreateFMul(alpha.re, alpha.re);
    if (ar.complex) abs2 = b.CreateFAdd(abs2, b.CreateFMul(alpha.im, alpha.im));
    Value* norm = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b.CreateFAdd(abs2, n2));
    Value* beta = b.CreateFNeg(b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, norm, alpha.re));
    tau.Set(b, {b.CreateFDiv(b.CreateFSub(beta, alpha.re), beta),
                ar.complex ? b.CreateFDiv(b.CreateFNeg(alpha.im), beta) : nullptr});
    const ComplexParts scale = ar.Div(ar.Const(1.0), {b.CreateFSub(alpha.re, beta), alpha.im});
    RETURN_IF_ERROR(ForLoop(b, x0, x1, I64(b, 1), [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, aj));
      return a.StoreParts(r, aj, ar.Mul(x, scale));
    }));
    return a.StoreParts(ai, aj, ar.RealPart({beta, ar.complex ? ar.F(0) : nullptr}));
  });
}

// sytrd / hetrd of one matrix (custom_calls.h; the interpreter's EvalSytrd).
Status EmitSytrd(const Arith& ar, OutputMatrix& a, const OutputVector& d, const OutputVector& e,
                 const OutputVector& tau, int64_t n, bool lower) {
  llvm::IRBuilderBase& b = ar.b;
  Slot t(b, "tau"), acc(b, "acc"), alpha(b, "alpha");
  auto set_real = [&](Value* i, Value* j) -> Status {
    ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(i, j));
    return a.StoreParts(i, j, ar.RealPart(x));
  };
  // The Hermitian matrix's (r, c) as the stored triangle gives it.
  auto herm = [&](Value* r, Value* c) -> StatusOr<ComplexParts> {
    Value* stored_side = lower ? b.CreateICmpSGT(r, c) : b.CreateICmpSLT(r, c);
    ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(b.CreateSelect(stored_side, r, c), b.CreateSelect(stored_side, c, r)));
    if (!ar.complex) return x;
    Value* im = b.CreateSelect(stored_side, x.im, b.CreateFNeg(x.im));
    return ComplexParts{x.re, b.CreateSelect(b.CreateICmpEQ(r, c), ar.F(0), im)};
  };
  // One reflector (v = a(lo:hi, col)), w kept in tau(w0 + r - lo).
  auto update = [&](Value* col, Value* lo, Value* hi, Value* w0) -> Status {
    auto w_at = [&](Value* r) { return b.CreateAdd(w0, b.CreateSub(r, lo)); };
    const ComplexParts ti = t.Get(b, ar.complex);
    RETURN_IF_ERROR(ForLoop(b, lo, hi, I64(b, 1), [&](Value* r) -> Status {
      acc.Set(b, ar.Const(0));
      RETURN_IF_ERROR(ForLoop(b, lo, hi, I64(b, 1), [&](Value* c) -> Status {
        ASSIGN_OR_RETURN(ComplexParts h, herm(r, c));
        ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(c, col));
        acc.Set(b, ar.Add(acc.Get(b, ar.complex), ar.Mul(h, v)));
        return Status::Ok();
      }));
      return tau.Set(w_at(r), ar.Mul(ti, acc.Get(b, ar.complex)));
    }));
    acc.Set(b, ar.Const(0));
    RETURN_IF_ERROR(ForLoop(b, lo, hi, I64(b, 1), [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(ComplexParts w, tau.Get(w_at(r)));
      ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(r, col));
      acc.Set(b, ar.Add(acc.Get(b, ar.complex), ar.Mul(ar.Conj(w), v)));
      return Status::Ok();
    }));
    alpha.Set(b, ar.Mul(ar.Mul(ar.Const(-0.5), ti), acc.Get(b, ar.complex)));
    RETURN_IF_ERROR(ForLoop(b, lo, hi, I64(b, 1), [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(ComplexParts w, tau.Get(w_at(r)));
      ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(r, col));
      return tau.Set(w_at(r), ar.Add(w, ar.Mul(alpha.Get(b, ar.complex), v)));
    }));
    return ForLoop(b, lo, hi, I64(b, 1), [&](Value* c) -> Status {
      Value* from = lower ? c : lo;
      Value* to = lower ? hi : b.CreateAdd(c, I64(b, 1));
      return ForLoop(b, from, to, I64(b, 1), [&](Value* r) -> Status {
        ASSIGN_OR_RETURN(ComplexParts vr, a.LoadParts(r, col));
        ASSIGN_OR_RETURN(ComplexParts vc, a.LoadParts(c, col));
        ASSIGN_OR_RETURN(ComplexParts wr, tau.Get(w_at(r)));
        ASSIGN_OR_RETURN(ComplexParts wc, tau.Get(w_at(c)));
        ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, c));
        ComplexParts y = ar.Sub(x, ar.Add(ar.Mul(vr, ar.Conj(wc)), ar.Mul(wr, ar.Conj(vc))));
        if (ar.complex) y.im = b.CreateSelect(b.CreateICmpEQ(r, c), ar.F(0), y.im);
        return a.StoreParts(r, c, y);
      });
    });
  };
  auto store_real = [&](const OutputVector& v, Value* i, Value* x) { return v.Set(i, {x, nullptr}); };
  // e(i) back into a(oi, oj), d(di) = re a(di, di), tau(i).
  auto finish_step = [&](Value* i, Value* oi, Value* oj, Value* di) -> Status {
    ASSIGN_OR_RETURN(ComplexParts ev, e.Get(i));
    RETURN_IF_ERROR(a.StoreParts(oi, oj, {ev.re, ar.complex ? ar.F(0) : nullptr}));
    ASSIGN_OR_RETURN(ComplexParts dv, a.LoadParts(di, di));
    RETURN_IF_ERROR(store_real(d, di, dv.re));
    return tau.Set(i, t.Get(b, ar.complex));
  };
  if (n == 0) return Status::Ok();
  if (ar.complex) RETURN_IF_ERROR(set_real(I64(b, lower ? 0 : n - 1), I64(b, lower ? 0 : n - 1)));
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n - 1), I64(b, 1), [&](Value* step) -> Status {
    // Lower: column i = step, alpha = a(i+1, i). Upper: i = n-2-step, alpha = a(i, i+1).
    Value* i = lower ? step : b.CreateSub(I64(b, n - 2), step);
    Value* i1 = b.CreateAdd(i, I64(b, 1));
    Value* ai = lower ? i1 : i;
    Value* aj = lower ? i : i1;
    if (lower) RETURN_IF_ERROR(EmitReflector(ar, a, ai, aj, b.CreateAdd(i, I64(b, 2)), I64(b, n), t));
    else RETURN_IF_ERROR(EmitReflector(ar, a, ai, aj, I64(b, 0), i, t));
    ASSIGN_OR_RETURN(ComplexParts beta, a.LoadParts(ai, aj));
    RETURN_IF_ERROR(store_real(e, i, beta.re));
    Value* nonzero = b.CreateNot(ar.IsZero(t.Get(b, ar.complex)));
    RETURN_IF_ERROR(IfThen(b, nonzero, [&]() -> Status {
      RETURN_IF_ERROR(a.StoreParts(ai, aj, ar.Const(1.0)));
      return lower ? update(i, i1, I64(b, n), i) : update(i1, I64(b, 0), i1, I64(b, 0));
    }));
    if (ar.complex)
      RETURN_IF_ERROR(IfThen(b, b.CreateNot(nonzero), [&]() -> Status { return lower ? set_real(i1, i1) : set_real(i, i); }));
    return finish_step(i, ai, aj, lower ? i : i1);
  }));
  ASSIGN_OR_RETURN(ComplexParts last, a.LoadParts(I64(b, lower ? n - 1 : 0), I64(b, lower ? n - 1 : 0)));
  return store_real(d, I64(b, lower ? n - 1 : 0), last.re);
}

// gehrd of one matrix (custom_calls.h; the interpreter's EvalGehrd).
Status EmitGehrd(const Arith& ar, OutputMatrix& a, const OutputVector& tau, int64_t n, int64_t lo, int64_t hi) {
  llvm::IRBuilderBase& b = ar.b;
  Slot t(b, "tau"), acc(b, "acc"), beta(b, "beta");
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, std::max<int64_t>(n - 1, 0)), I64(b, 1),
                          [&](Value* i) -> Status { return tau.Set(i, ar.Const(0)); }));
  return ForLoop(b, I64(b, lo), I64(b, std::max<int64_t>(hi - 1, lo)), I64(b, 1), [&](Value* i) -> Status {
    Value* i1 = b.CreateAdd(i, I64(b, 1));
    RETURN_IF_ERROR(EmitReflector(ar, a, i1, i, b.CreateAdd(i, I64(b, 2)), I64(b, hi), t));
    ASSIGN_OR_RETURN(ComplexParts bv, a.LoadParts(i1, i));
    beta.Set(b, bv);
    const ComplexParts ti = t.Get(b, ar.complex);
    RETURN_IF_ERROR(tau.Set(i, ti));
    return IfThen(b, b.CreateNot(ar.IsZero(ti)), [&]() -> Status {
      RETURN_IF_ERROR(a.StoreParts(i1, i, ar.Const(1.0)));
      // From the right, row by row: a(r, c) -= (tau·Σ a(r, c)·v(c))·conj(v(c)).
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, hi), I64(b, 1), [&](Value* r) -> Status {
        acc.Set(b, ar.Const(0));
        RETURN_IF_ERROR(ForLoop(b, i1, I64(b, hi), I64(b, 1), [&](Value* c) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, c));
          ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(c, i));
          acc.Set(b, ar.Add(acc.Get(b, ar.complex), ar.Mul(x, v)));
          return Status::Ok();
        }));
        const ComplexParts tw = ar.Mul(ti, acc.Get(b, ar.complex));
        return ForLoop(b, i1, I64(b, hi), I64(b, 1), [&](Value* c) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, c));
          ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(c, i));
          return a.StoreParts(r, c, ar.Sub(x, ar.Mul(tw, ar.Conj(v))));
        });
      }));
      // From the left (Hᴴ), column by column: a(r, c) -= v(r)·(conj(tau)·conj(Σ conj(a(r, c))·v(r))).
      const ComplexParts ct = ar.Conj(ti);
      RETURN_IF_ERROR(ForLoop(b, i1, I64(b, n), I64(b, 1), [&](Value* c) -> Status {
        acc.Set(b, ar.Const(0));
        RETURN_IF_ERROR(ForLoop(b, i1, I64(b, hi), I64(b, 1), [&](Value* r) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, c));
          ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(r, i));
          acc.Set(b, ar.Add(acc.Get(b, ar.complex), ar.Mul(ar.Conj(x), v)));
          return Status::Ok();
        }));
        const ComplexParts cs = ar.Mul(ct, ar.Conj(acc.Get(b, ar.complex)));
        return ForLoop(b, i1, I64(b, hi), I64(b, 1), [&](Value* r) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, a.LoadParts(r, c));
          ASSIGN_OR_RETURN(ComplexParts v, a.LoadParts(r, i));
          return a.StoreParts(r, c, ar.Sub(x, ar.Mul(v, cs)));
        });
      }));
      return a.StoreParts(i1, i, beta.Get(b, ar.complex));
    });
  });
}

// Where a gtsv kernel keeps dl, d and du of its system: the outputs (LAPACK's
// call) or the thread's own memory (cuSPARSE's), each value rounded to the
// element type as stored.
struct Diagonals {
  llvm::IRBuilderBase& b;
  PrimitiveType t;
  bool complex;
  std::function<StatusOr<ComplexParts>(int which, Value* k)> get;  // which: 0 dl, 1 d, 2 du; k as stored
  std::function<Status(int which, Value* k, ComplexParts v)> set;
};

// gtsv of one system (custom_calls.h; the interpreter's EvalGtsv). b(k, j)
// in the output matrix `x`; info in `info` (i64).
Status EmitGtsv(const Arith& ar, const Diagonals& dg, OutputMatrix& x, int64_t n, int64_t q, Value* info) {
  llvm::IRBuilderBase& b = ar.b;
  llvm::Type* i64 = b.getInt64Ty();
  Slot mult(b, "mult"), temp(b, "temp"), bk(b, "bk");
  // LAPACK's DL(k) is dl(k+1).
  auto DL = [&](Value* k) { return dg.get(0, b.CreateAdd(k, I64(b, 1))); };
  auto setDL = [&](Value* k, ComplexParts v) { return dg.set(0, b.CreateAdd(k, I64(b, 1)), v); };
  auto D = [&](Value* k) { return dg.get(1, k); };
  auto setD = [&](Value* k, ComplexParts v) { return dg.set(1, k, v); };
  auto DU = [&](Value* k) { return dg.get(2, k); };
  auto setDU = [&](Value* k, ComplexParts v) { return dg.set(2, k, v); };
  auto rows = [&](const std::function<Status(Value*)>& body) { return ForLoop(b, I64(b, 0), I64(b, q), I64(b, 1), body); };
  b.CreateStore(I64(b, 0), info);
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, std::max<int64_t>(n - 1, 0)), I64(b, 1), [&](Value* k) -> Status {
    Value* k1 = b.CreateAdd(k, I64(b, 1));
    Value* more = b.CreateICmpSLT(b.CreateAdd(k, I64(b, 2)), I64(b, n));  // k + 2 < n
    return IfThen(b, b.CreateICmpEQ(b.CreateLoad(i64, info), I64(b, 0)), [&]() -> Status {
      ASSIGN_OR_RETURN(ComplexParts dl, DL(k));
      ASSIGN_OR_RETURN(ComplexParts dk, D(k));
      Value* dl_zero = ar.IsZero(dl);
      RETURN_IF_ERROR(IfThen(b, b.CreateAnd(dl_zero, ar.IsZero(dk)), [&]() -> Status {
        b.CreateStore(k1, info);
        return Status::Ok();
      }));
      Value* no_swap = b.CreateFCmpOGE(ar.Mag(dk), ar.Mag(dl));
      RETURN_IF_ERROR(IfThen(b, b.CreateAnd(b.CreateNot(dl_zero), no_swap), [&]() -> Status {
        mult.Set(b, ar.Div(dl, dk));
        ASSIGN_OR_RETURN(ComplexParts d1, D(k1));
        ASSIGN_OR_RETURN(ComplexParts uk, DU(k));
        RETURN_IF_ERROR(setD(k1, ar.Sub(d1, ar.Mul(mult.Get(b, ar.complex), uk))));
        RETURN_IF_ERROR(rows([&](Value* j) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x1, x.LoadParts(k1, j));
          ASSIGN_OR_RETURN(ComplexParts x0, x.LoadParts(k, j));
          return x.StoreParts(k1, j, ar.Sub(x1, ar.Mul(mult.Get(b, ar.complex), x0)));
        }));
        return IfThen(b, more, [&]() -> Status { return setDL(k, ar.Const(0)); });
      }));
      return IfThen(b, b.CreateAnd(b.CreateNot(dl_zero), b.CreateNot(no_swap)), [&]() -> Status {
        mult.Set(b, ar.Div(dk, dl));
        RETURN_IF_ERROR(setD(k, dl));
        ASSIGN_OR_RETURN(ComplexParts d1, D(k1));
        temp.Set(b, d1);
        ASSIGN_OR_RETURN(ComplexParts uk, DU(k));
        RETURN_IF_ERROR(setD(k1, ar.Sub(uk, ar.Mul(mult.Get(b, ar.complex), temp.Get(b, ar.complex)))));
        RETURN_IF_ERROR(IfThen(b, more, [&]() -> Status {
          ASSIGN_OR_RETURN(ComplexParts u1, DU(k1));
          RETURN_IF_ERROR(setDL(k, u1));
          ASSIGN_OR_RETURN(ComplexParts l, DL(k));
          return setDU(k1, ar.Neg(ar.Mul(mult.Get(b, ar.complex), l)));
        }));
        RETURN_IF_ERROR(setDU(k, temp.Get(b, ar.complex)));
        return rows([&](Value* j) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x0, x.LoadParts(k, j));
          bk.Set(b, x0);
          ASSIGN_OR_RETURN(ComplexParts x1, x.LoadParts(k1, j));
          RETURN_IF_ERROR(x.StoreParts(k, j, x1));
          ASSIGN_OR_RETURN(ComplexParts x1b, x.LoadParts(k1, j));
          return x.StoreParts(k1, j, ar.Sub(bk.Get(b, ar.complex), ar.Mul(mult.Get(b, ar.complex), x1b)));
        });
      });
    });
  }));
  if (n == 0) return Status::Ok();
  Value* last = I64(b, n - 1);
  RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(b.CreateLoad(i64, info), I64(b, 0)), [&]() -> Status {
    ASSIGN_OR_RETURN(ComplexParts dn, D(last));
    return IfThen(b, ar.IsZero(dn), [&]() -> Status {
      b.CreateStore(I64(b, n), info);
      return Status::Ok();
    });
  }));
  return IfThen(b, b.CreateICmpEQ(b.CreateLoad(i64, info), I64(b, 0)), [&]() -> Status {
    return rows([&](Value* j) -> Status {
      ASSIGN_OR_RETURN(ComplexParts xn, x.LoadParts(last, j));
      ASSIGN_OR_RETURN(ComplexParts dn, D(last));
      RETURN_IF_ERROR(x.StoreParts(last, j, ar.Div(xn, dn)));
      if (n > 1) {
        Value* k = I64(b, n - 2);
        ASSIGN_OR_RETURN(ComplexParts xk, x.LoadParts(k, j));
        ASSIGN_OR_RETURN(ComplexParts uk, DU(k));
        ASSIGN_OR_RETURN(ComplexParts x1, x.LoadParts(last, j));
        ASSIGN_OR_RETURN(ComplexParts dk, D(k));
        RETURN_IF_ERROR(x.StoreParts(k, j, ar.Div(ar.Sub(xk, ar.Mul(uk, x1)), dk)));
      }
      return ForLoop(b, I64(b, 0), I64(b, std::max<int64_t>(n - 2, 0)), I64(b, 1), [&](Value* step) -> Status {
        Value* k = b.CreateSub(I64(b, n - 3), step);
        Value* k1 = b.CreateAdd(k, I64(b, 1));
        Value* k2 = b.CreateAdd(k, I64(b, 2));
        ASSIGN_OR_RETURN(ComplexParts xk, x.LoadParts(k, j));
        ASSIGN_OR_RETURN(ComplexParts uk, DU(k));
        ASSIGN_OR_RETURN(ComplexParts x1, x.LoadParts(k1, j));
        ASSIGN_OR_RETURN(ComplexParts lk, DL(k));
        ASSIGN_OR_RETURN(ComplexParts x2, x.LoadParts(k2, j));
        ASSIGN_OR_RETURN(ComplexParts dk, D(k));
        return x.StoreParts(k, j, ar.Div(ar.Sub(ar.Sub(xk, ar.Mul(uk, x1)), ar.Mul(lk, x2)), dk));
      });
    });
  });
}

}  // namespace

StatusOr<EmittedKernel> EmitCondensedFormKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const RootLinalgCall root,
                   RootLinalgCallOfKind(spec, {LinalgCall::Kind::kSytrd, LinalgCall::Kind::kGehrd, LinalgCall::Kind::kGtsv},
                                        "the condensed-form emitter needs a sytrd, gehrd or gtsv call"));
  const Instruction* lc = root.instr;
  const std::optional<LinalgCall> call = root.call;
  const char* what = call->kind == LinalgCall::Kind::kSytrd ? "sytrd" : call->kind == LinalgCall::Kind::kGehrd ? "gehrd" : "gtsv";
  auto fail = [&](const std::string& why) { return Status::Error("codegen: " + std::string(what) + " call %" + lc->name() + ": " + why); };
  std::string why;
  std::optional<CondensedShapes> s = CondensedFormShapes(*lc, *call, &why);
  if (!s) return fail(why);
  const bool gtsv = call->kind == LinalgCall::Kind::kGtsv;
  const Shape& in = lc->operand(gtsv ? 3 : 0)->shape();  // the matrices (gtsv: b)
  const PrimitiveType t = in.element_type();
  if (!IsFloat(t) && !IsComplex(t))
    return fail("is not implemented for " + std::string(PrimitiveTypeName(t)) + " by the kernel emitters");
  RETURN_IF_ERROR(CheckSupportedType(t, lc->name()));
  const bool complex = IsComplex(t);
  if (gtsv && !s->lapack) {
    const int64_t bytes = 3 * s->n * (complex ? 16 : 8);
    if (bytes > kGtsvScratchBytes)
      return fail("would keep dl, d and du of a system of " + std::to_string(s->n) + " in " + std::to_string(bytes) +
                  " bytes of the kernel's memory, over the " + std::to_string(kGtsvScratchBytes) +
                  " its one-thread-per-system kernel allows");
  }
  const PrimitiveType real = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : t == PrimitiveType::kC128 ? PrimitiveType::kF64 : t;

  ThreadPerItemKernel frame(m, spec, what, s->batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& kernel = frame.kernel;
  const Arith ar{b, complex};
  const int64_t n = s->n;
  Value* info = EntryAlloca(b, b.getInt64Ty(), "info");
  // cuSPARSE's gtsv: dl, d and du in the thread's memory, f64 parts.
  Value* scratch_re = nullptr;
  Value* scratch_im = nullptr;
  llvm::Type* scratch_type = llvm::ArrayType::get(b.getDoubleTy(), static_cast<uint64_t>(3 * std::max<int64_t>(n, 1)));
  if (gtsv && !s->lapack) {
    scratch_re = EntryAlloca(b, scratch_type, "diagonals_re");
    if (complex) scratch_im = EntryAlloca(b, scratch_type, "diagonals_im");
  }

  RETURN_IF_ERROR(GridStrideLoop(b, s->batches, [&](Value* batch) -> Status {
    // The matrix (gtsv: b, whose leading dims are the batch's too) in output 0 (gtsv: 3, or the only one).
    const int matrix_arg = gtsv ? (s->lapack ? out + 3 : out) : out;
    OutputMatrix a(b, ee, matrix_arg, t, in, batch);
    RETURN_IF_ERROR(a.CopyOperand(lc, gtsv ? 3 : 0, in.dim(in.rank() - 2), in.dim(in.rank() - 1)));
    if (call->kind == LinalgCall::Kind::kSytrd) {
      const OutputVector d{ee, b, a, out + 1, real}, e{ee, b, a, out + 2, real}, tau{ee, b, a, out + 3, t};
      RETURN_IF_ERROR(EmitSytrd(ar, a, d, e, tau, n, call->lower));
      ee.Store(out + 4, a.BatchIndex(), llvm::ConstantInt::get(LlvmStorageType(lc->shape().tuple_shapes()[4].element_type(), m.getContext()), 0));
      return Status::Ok();
    }
    if (call->kind == LinalgCall::Kind::kGehrd) {
      const OutputVector tau{ee, b, a, out + 1, t};
      RETURN_IF_ERROR(EmitGehrd(ar, a, tau, n, call->low - 1, call->high < 0 ? n : call->high));
      ee.Store(out + 2, a.BatchIndex(), llvm::ConstantInt::get(LlvmStorageType(lc->shape().tuple_shapes()[2].element_type(), m.getContext()), 0));
      return Status::Ok();
    }
    Diagonals dg{b, t, complex, nullptr, nullptr};
    if (s->lapack) {
      // dl, d, du copied into outputs 0..2 (in place when shared), then worked there.
      for (int k = 0; k < 3; ++k)
        RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
          ee.ClearCache();
          ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, lc, k, a.VectorAt(i)));
          ee.ClearCache();
          ee.Store(out + k, a.VectorAt(i), v);
          return Status::Ok();
        }));
      dg.get = [&](int which, Value* k) -> StatusOr<ComplexParts> {
        return ElementToParts(b, t, ee.Load(out + which, a.VectorAt(k)));
      };
      dg.set = [&](int which, Value* k, ComplexParts v) -> Status {
        ASSIGN_OR_RETURN(Value * e, PartsToElement(b, t, v));
        ee.Store(out + which, a.VectorAt(k), e);
        return Status::Ok();
      };
    } else {
      auto slot = [&](Value* base, int which, Value* k) {
        return b.CreateInBoundsGEP(scratch_type, base, {I64(b, 0), b.CreateAdd(I64(b, which * n), k)});
      };
      dg.get = [&, slot](int which, Value* k) -> StatusOr<ComplexParts> {
        llvm::Type* f64 = b.getDoubleTy();
        return ComplexParts{b.CreateLoad(f64, slot(scratch_re, which, k)),
                            complex ? b.CreateLoad(f64, slot(scratch_im, which, k)) : nullptr};
      };
      dg.set = [&, slot](int which, Value* k, ComplexParts v) -> Status {
        // Rounded to the element type, as the interpreter keeps them.
        ASSIGN_OR_RETURN(Value * e, PartsToElement(b, t, v));
        ASSIGN_OR_RETURN(ComplexParts r, ElementToParts(b, t, e));
        b.CreateStore(r.re, slot(scratch_re, which, k));
        if (complex) b.CreateStore(r.im, slot(scratch_im, which, k));
        return Status::Ok();
      };
      for (int k = 0; k < 3; ++k)
        RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
          ee.ClearCache();
          ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, lc, k, a.VectorAt(i)));
          ee.ClearCache();
          ASSIGN_OR_RETURN(ComplexParts p, ElementToParts(b, t, v));
          return dg.set(k, i, p);
        }));
    }
    RETURN_IF_ERROR(EmitGtsv(ar, dg, a, n, s->nrhs, info));
    if (s->lapack) {
      ASSIGN_OR_RETURN(Value * code, EmitConvert(b, b.CreateLoad(b.getInt64Ty(), info), PrimitiveType::kS64,
                                                 lc->shape().tuple_shapes()[4].element_type()));
      ee.Store(out + 4, a.BatchIndex(), code);
    }
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return kernel;
}

}  // namespace hloscope::codegen
