// The real geev kernel's Schur step (geev_emitter.cc has the others):
// LAPACK's lahqr as the interpreter computes it (eval_nonsymmetric_eigen.cc,
// custom_calls.h) — the double-shift QR iteration on the Hessenberg matrix T
// with its transformations accumulated into Z, Ahues and Tisseur's deflation
// test, exceptional shifts every kGeevExceptionalShift iterations without a
// split, and each 2×2 block standardized as lanv2 does (Standardize).
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "core/codegen/geev_emitter_internal.h"
#include "core/codegen/geev_ir.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen::geev {

using llvm::Value;

Status GeevEmitter::Standardize(Value* i) {
  const Ir& ir = ir_;
  Value* im1 = b_.CreateSub(i, I(1));
  Var a(b_, ir.f64(), "nv_a"), bb(b_, ir.f64(), "nv_b"), c(b_, ir.f64(), "nv_c"), d(b_, ir.f64(), "nv_d");
  Var cs(b_, ir.f64(), "nv_cs"), sn(b_, ir.f64(), "nv_sn"), temp(b_, ir.f64(), "nv_temp"), p(b_, ir.f64(), "nv_p");
  ASSIGN_OR_RETURN(Value * a0, T_.Get(im1, im1));
  ASSIGN_OR_RETURN(Value * b0, T_.Get(im1, i));
  ASSIGN_OR_RETURN(Value * c0, T_.Get(i, im1));
  ASSIGN_OR_RETURN(Value * d0, T_.Get(i, i));
  a.Set(a0), bb.Set(b0), c.Set(c0), d.Set(d0), cs.Set(ir.F(1)), sn.Set(ir.F(0));
  Value* c_zero = ir.Eq(c0, ir.F(0));
  Value* b_zero = ir.And(ir.Not(c_zero), ir.Eq(b0, ir.F(0)));
  Value* keep = ir.And(ir.And(ir.Not(c_zero), ir.Not(b_zero)),
                       ir.And(ir.Eq(ir.Sub(a0, d0), ir.F(0)), b_.CreateICmpNE(ir.Signbit(b0), ir.Signbit(c0))));
  Value* general = ir.And(ir.And(ir.Not(c_zero), ir.Not(b_zero)), ir.Not(keep));
  RETURN_IF_ERROR(ir.If(b_zero, [&]() -> Status {
    cs.Set(ir.F(0)), sn.Set(ir.F(1));
    a.Set(d0), d.Set(a0), bb.Set(ir.Neg(c0)), c.Set(ir.F(0));
    return Status::Ok();
  }));
  RETURN_IF_ERROR(ir.If(general, [&]() -> Status {
    temp.Set(ir.Sub(a0, d0));
    p.Set(ir.Mul(ir.F(0.5), temp.Get()));
    Value* sgn = [&] {
      Value* sb = ir.Sel(ir.Signbit(b0), ir.F(-1), ir.F(1));
      Value* sc = ir.Sel(ir.Signbit(c0), ir.F(-1), ir.F(1));
      return ir.Mul(sb, sc);
    }();
    Value* bcmax = ir.Max(ir.Abs(b0), ir.Abs(c0));
    Value* bcmis = ir.Mul(ir.Min(ir.Abs(b0), ir.Abs(c0)), sgn);
    Value* scale = ir.Max(ir.Abs(p.Get()), bcmax);
    Value* z = ir.Add(ir.Mul(ir.Div(p.Get(), scale), p.Get()), ir.Mul(ir.Div(bcmax, scale), bcmis));
    Value* real = ir.Ge(z, ir.F(4 * ir.p.ulp));
    RETURN_IF_ERROR(ir.If(real, [&]() -> Status {
      Value* zz = ir.Add(p.Get(), ir.Copysign(ir.Mul(ir.Sqrt(scale), ir.Sqrt(z)), p.Get()));
      a.Set(ir.Add(d0, zz));
      d.Set(ir.Sub(d0, ir.Mul(ir.Div(bcmax, zz), bcmis)));
      Value* tau = ir.Sqrt(ir.Add(ir.Mul(c0, c0), ir.Mul(zz, zz)));
      cs.Set(ir.Div(zz, tau)), sn.Set(ir.Div(c0, tau));
      bb.Set(ir.Sub(b0, c0)), c.Set(ir.F(0));
      return Status::Ok();
    }));
    return ir.If(ir.Not(real), [&]() -> Status {
      Value* sigma = ir.Add(b0, c0);
      Value* tau = ir.Sqrt(ir.Add(ir.Mul(sigma, sigma), ir.Mul(temp.Get(), temp.Get())));
      Value* csv = ir.Sqrt(ir.Mul(ir.F(0.5), ir.Add(ir.F(1), ir.Div(ir.Abs(sigma), tau))));
      Value* snv = ir.Mul(ir.Neg(ir.Div(p.Get(), ir.Mul(tau, csv))), ir.Sel(ir.Signbit(sigma), ir.F(-1), ir.F(1)));
      cs.Set(csv), sn.Set(snv);
      Value* aa = ir.Add(ir.Mul(a0, csv), ir.Mul(b0, snv));
      Value* bb2 = ir.Add(ir.Mul(ir.Neg(a0), snv), ir.Mul(b0, csv));
      Value* cc = ir.Add(ir.Mul(c0, csv), ir.Mul(d0, snv));
      Value* dd = ir.Add(ir.Mul(ir.Neg(c0), snv), ir.Mul(d0, csv));
      Value* na = ir.Add(ir.Mul(aa, csv), ir.Mul(cc, snv));
      Value* nb = ir.Add(ir.Mul(bb2, csv), ir.Mul(dd, snv));
      Value* nc = ir.Add(ir.Mul(ir.Neg(aa), snv), ir.Mul(cc, csv));
      Value* nd = ir.Add(ir.Mul(ir.Neg(bb2), snv), ir.Mul(dd, csv));
      temp.Set(ir.Mul(ir.F(0.5), ir.Add(na, nd)));
      a.Set(temp.Get()), d.Set(temp.Get()), bb.Set(nb), c.Set(nc);
      Value* c_nz = ir.Ne(nc, ir.F(0));
      Value* b_nz = ir.Ne(nb, ir.F(0));
      Value* same = b_.CreateICmpEQ(ir.Signbit(nb), ir.Signbit(nc));
      RETURN_IF_ERROR(ir.If(ir.And(ir.And(c_nz, b_nz), same), [&]() -> Status {
        Value* sab = ir.Sqrt(ir.Abs(nb));
        Value* sac = ir.Sqrt(ir.Abs(nc));
        Value* pv = ir.Copysign(ir.Mul(sab, sac), nc);
        Value* tau2 = ir.Div(ir.F(1), ir.Sqrt(ir.Abs(ir.Add(nb, nc))));
        a.Set(ir.Add(temp.Get(), pv)), d.Set(ir.Sub(temp.Get(), pv));
        bb.Set(ir.Sub(nb, nc)), c.Set(ir.F(0));
        Value* cs1 = ir.Mul(sab, tau2);
        Value* sn1 = ir.Mul(sac, tau2);
        Value* t2 = ir.Sub(ir.Mul(csv, cs1), ir.Mul(snv, sn1));
        sn.Set(ir.Add(ir.Mul(csv, sn1), ir.Mul(snv, cs1)));
        cs.Set(t2);
        return Status::Ok();
      }));
      return ir.If(ir.And(c_nz, ir.Not(b_nz)), [&]() -> Status {
        bb.Set(ir.Neg(nc)), c.Set(ir.F(0));
        cs.Set(ir.Neg(snv)), sn.Set(csv);
        return Status::Ok();
      });
    });
  }));
  RETURN_IF_ERROR(T_.Set(im1, im1, a.Get()));
  RETURN_IF_ERROR(T_.Set(im1, i, bb.Get()));
  RETURN_IF_ERROR(T_.Set(i, im1, c.Get()));
  RETURN_IF_ERROR(T_.Set(i, i, d.Get()));
  ASSIGN_OR_RETURN(Value * ta, T_.Get(im1, im1));
  ASSIGN_OR_RETURN(Value * tb, T_.Get(im1, i));
  ASSIGN_OR_RETURN(Value * tc, T_.Get(i, im1));
  ASSIGN_OR_RETURN(Value * td, T_.Get(i, i));
  wr_.Set(im1, ta), wr_.Set(i, td);
  Value* im = ir.Sel(ir.Eq(tc, ir.F(0)), ir.F(0), ir.Mul(ir.Sqrt(ir.Abs(tb)), ir.Sqrt(ir.Abs(tc))));
  wi_.Set(im1, ir.R(im)), wi_.Set(i, ir.R(ir.Neg(im)));
  Value* csv = cs.Get();
  Value* snv = sn.Get();
  auto rot = [&](const Mat& m, Value* r0, Value* c0, Value* r1, Value* c1) -> Status {
    ASSIGN_OR_RETURN(Value * x, m.Get(r0, c0));
    ASSIGN_OR_RETURN(Value * y, m.Get(r1, c1));
    Value* tx = ir.Add(ir.Mul(csv, x), ir.Mul(snv, y));
    RETURN_IF_ERROR(m.Set(r1, c1, ir.Sub(ir.Mul(csv, y), ir.Mul(snv, x))));
    return m.Set(r0, c0, tx);
  };
  RETURN_IF_ERROR(ir.Up(b_.CreateAdd(i, I(1)), N(), [&](Value* j) { return rot(T_, im1, j, i, j); }));
  RETURN_IF_ERROR(ir.Up(I(0), im1, [&](Value* j) { return rot(T_, j, im1, j, i); }));
  return ir.Up(I(0), N(), [&](Value* j) { return rot(Z_, j, im1, j, i); });
}

Status GeevEmitter::Schur() {
  const Ir& ir = ir_;
  llvm::Type* i64 = b_.getInt64Ty();
  Value* ilo = ilo_.Get();
  Value* ihi = ihi_.Get();
  info_.Set(I(0));
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) -> Status {
    return ir.If(b_.CreateOr(b_.CreateICmpSLT(i, ilo), b_.CreateICmpSGT(i, ihi)), [&]() -> Status {
      ASSIGN_OR_RETURN(Value * v, T_.Get(i, i));
      wr_.Set(i, v), wi_.Set(i, ir.F(0));
      return Status::Ok();
    });
  }));
  RETURN_IF_ERROR(ir.If(b_.CreateICmpEQ(ilo, ihi), [&]() -> Status {
    ASSIGN_OR_RETURN(Value * v, T_.Get(ilo, ilo));
    wr_.Set(ilo, v), wi_.Set(ilo, ir.F(0));
    return Status::Ok();
  }));
  Value* run = b_.CreateICmpSLT(ilo, ihi);
  return ir.If(run, [&]() -> Status {
    Value* nh = b_.CreateAdd(b_.CreateSub(ihi, ilo), I(1));
    Value* ulp = ir.F(ir.p.ulp);
    Value* smlnum = ir.Mul(ir.F(ir.p.safmin), ir.Div(b_.CreateSIToFP(nh, ir.f64()), ulp));
    Value* itmax = b_.CreateMul(I(30), b_.CreateSelect(b_.CreateICmpSGT(nh, I(10)), nh, I(10)));
    Var iv(b_, i64, "qr_i"), l(b_, i64, "qr_l"), its(b_, i64, "qr_its"), k(b_, i64, "qr_k"), m(b_, i64, "qr_m");
    Var kdefl(b_, i64, "qr_kdefl"), split(b_, b_.getInt1Ty(), "qr_split"), found(b_, b_.getInt1Ty(), "qr_found");
    Var stop(b_, b_.getInt1Ty(), "qr_stop");
    Var h11(b_, ir.f64(), "h11"), h12(b_, ir.f64(), "h12"), h21(b_, ir.f64(), "h21"), h22(b_, ir.f64(), "h22");
    Var rt1r(b_, ir.f64(), "rt1r"), rt1i(b_, ir.f64(), "rt1i"), rt2r(b_, ir.f64(), "rt2r"), rt2i(b_, ir.f64(), "rt2i");
    Var v0(b_, ir.f64(), "v0"), v1(b_, ir.f64(), "v1"), v2(b_, ir.f64(), "v2"), t1(b_, ir.f64(), "t1");
    auto Tg = [&](Value* r, Value* c) { return T_.Get(r, c); };
    kdefl.Set(I(0));
    iv.Set(ihi);
    stop.Set(b_.getFalse());
    return ir.While([&] { return ir.And(b_.CreateICmpSGE(iv.Get(), ilo), ir.Not(stop.Get())); }, [&]() -> Status {
      Value* i = iv.Get();
      l.Set(ilo);
      split.Set(b_.getFalse());
      its.Set(I(0));
      RETURN_IF_ERROR(ir.While([&] { return ir.And(b_.CreateICmpSLE(its.Get(), itmax), ir.Not(split.Get())); }, [&]() -> Status {
        its.Set(b_.CreateAdd(its.Get(), I(1)));
        // A small subdiagonal element.
        k.Set(i);
        found.Set(b_.getFalse());
        RETURN_IF_ERROR(ir.While([&] { return ir.And(b_.CreateICmpSGT(k.Get(), l.Get()), ir.Not(found.Get())); }, [&]() -> Status {
          Value* kk = k.Get();
          Value* km1 = b_.CreateSub(kk, I(1));
          ASSIGN_OR_RETURN(Value * hkk1, Tg(kk, km1));
          Value* tiny = ir.Le(ir.Abs(hkk1), smlnum);
          RETURN_IF_ERROR(ir.If(tiny, [&]() -> Status {
            found.Set(b_.getTrue());
            return Status::Ok();
          }));
          RETURN_IF_ERROR(ir.If(ir.Not(tiny), [&]() -> Status {
            ASSIGN_OR_RETURN(Value * hk1k1, Tg(km1, km1));
            ASSIGN_OR_RETURN(Value * hkk, Tg(kk, kk));
            Var tst(b_, ir.f64(), "tst");
            tst.Set(ir.Add(ir.Abs(hk1k1), ir.Abs(hkk)));
            RETURN_IF_ERROR(ir.If(ir.Eq(tst.Get(), ir.F(0)), [&]() -> Status {
              Value* km2 = b_.CreateSub(kk, I(2));
              RETURN_IF_ERROR(ir.If(b_.CreateICmpSGE(km2, ilo), [&]() -> Status {
                ASSIGN_OR_RETURN(Value * v, Tg(km1, km2));
                tst.Set(ir.Add(tst.Get(), ir.Abs(v)));
                return Status::Ok();
              }));
              Value* kp1 = b_.CreateAdd(kk, I(1));
              return ir.If(b_.CreateICmpSLE(kp1, ihi), [&]() -> Status {
                ASSIGN_OR_RETURN(Value * v, Tg(kp1, kk));
                tst.Set(ir.Add(tst.Get(), ir.Abs(v)));
                return Status::Ok();
              });
            }));
            RETURN_IF_ERROR(ir.If(ir.Le(ir.Abs(hkk1), ir.Mul(ulp, tst.Get())), [&]() -> Status {
              ASSIGN_OR_RETURN(Value * hk1k, Tg(km1, kk));
              Value* ab = ir.Max(ir.Abs(hkk1), ir.Abs(hk1k));
              Value* ba = ir.Min(ir.Abs(hkk1), ir.Abs(hk1k));
              Value* diff = ir.Abs(ir.Sub(hk1k1, hkk));
              Value* aa = ir.Max(ir.Abs(hkk), diff);
              Value* bb = ir.Min(ir.Abs(hkk), diff);
              Value* s = ir.Add(aa, ab);
              Value* ok = ir.Le(ir.Mul(ba, ir.Div(ab, s)), ir.Max(smlnum, ir.Mul(ulp, ir.Mul(bb, ir.Div(aa, s)))));
              found.Set(ok);
              return Status::Ok();
            }));
            return ir.If(ir.Not(found.Get()), [&]() -> Status {
              k.Set(km1);
              return Status::Ok();
            });
          }));
          return Status::Ok();
        }));
        l.Set(k.Get());
        Value* lv = l.Get();
        RETURN_IF_ERROR(ir.If(b_.CreateICmpSGT(lv, ilo), [&] { return T_.Set(lv, b_.CreateSub(lv, I(1)), ir.F(0)); }));
        Value* done = b_.CreateICmpSGE(lv, b_.CreateSub(i, I(1)));
        RETURN_IF_ERROR(ir.If(done, [&]() -> Status {
          split.Set(b_.getTrue());
          return Status::Ok();
        }));
        return ir.If(ir.Not(done), [&]() -> Status {
          kdefl.Set(b_.CreateAdd(kdefl.Get(), I(1)));
          Value* kd = kdefl.Get();
          Value* ex2 = b_.CreateICmpEQ(b_.CreateSRem(kd, I(2 * kGeevExceptionalShift)), I(0));
          Value* ex1 = ir.And(ir.Not(ex2), b_.CreateICmpEQ(b_.CreateSRem(kd, I(kGeevExceptionalShift)), I(0)));
          Value* im1 = b_.CreateSub(i, I(1));
          RETURN_IF_ERROR(ir.If(ex2, [&]() -> Status {
            ASSIGN_OR_RETURN(Value * x, Tg(i, im1));
            ASSIGN_OR_RETURN(Value * y, Tg(im1, b_.CreateSub(i, I(2))));
            ASSIGN_OR_RETURN(Value * hii, Tg(i, i));
            Value* s = ir.Add(ir.Abs(x), ir.Abs(y));
            h11.Set(ir.Add(ir.Mul(ir.F(0.75), s), hii)), h12.Set(ir.Mul(ir.F(-0.4375), s)), h21.Set(s), h22.Set(h11.Get());
            return Status::Ok();
          }));
          RETURN_IF_ERROR(ir.If(ex1, [&]() -> Status {
            Value* l1 = b_.CreateAdd(lv, I(1));
            ASSIGN_OR_RETURN(Value * x, Tg(l1, lv));
            ASSIGN_OR_RETURN(Value * y, Tg(b_.CreateAdd(lv, I(2)), l1));
            ASSIGN_OR_RETURN(Value * hll, Tg(lv, lv));
            Value* s = ir.Add(ir.Abs(x), ir.Abs(y));
            h11.Set(ir.Add(ir.Mul(ir.F(0.75), s), hll)), h12.Set(ir.Mul(ir.F(-0.4375), s)), h21.Set(s), h22.Set(h11.Get());
            return Status::Ok();
          }));
          RETURN_IF_ERROR(ir.If(ir.Not(ir.Or(ex1, ex2)), [&]() -> Status {
            ASSIGN_OR_RETURN(Value * a, Tg(im1, im1));
            ASSIGN_OR_RETURN(Value * c, Tg(i, im1));
            ASSIGN_OR_RETURN(Value * bv, Tg(im1, i));
            ASSIGN_OR_RETURN(Value * d, Tg(i, i));
            h11.Set(a), h21.Set(c), h12.Set(bv), h22.Set(d);
            return Status::Ok();
          }));
          rt1r.Set(ir.F(0)), rt1i.Set(ir.F(0)), rt2r.Set(ir.F(0)), rt2i.Set(ir.F(0));
          Value* s = ir.Add(ir.Add(ir.Add(ir.Abs(h11.Get()), ir.Abs(h12.Get())), ir.Abs(h21.Get())), ir.Abs(h22.Get()));
          RETURN_IF_ERROR(ir.If(ir.Ne(s, ir.F(0)), [&]() -> Status {
            Value* a = ir.Div(h11.Get(), s);
            Value* c = ir.Div(h21.Get(), s);
            Value* bv = ir.Div(h12.Get(), s);
            Value* d = ir.Div(h22.Get(), s);
            Value* tr = ir.Div(ir.Add(a, d), ir.F(2));
            Value* det = ir.Sub(ir.Mul(ir.Sub(a, tr), ir.Sub(d, tr)), ir.Mul(bv, c));
            Value* rtdisc = ir.Sqrt(ir.Abs(det));
            Value* cplx = ir.Ge(det, ir.F(0));
            RETURN_IF_ERROR(ir.If(cplx, [&]() -> Status {
              rt1r.Set(ir.Mul(tr, s)), rt2r.Set(rt1r.Get()), rt1i.Set(ir.Mul(rtdisc, s)), rt2i.Set(ir.Neg(rt1i.Get()));
              return Status::Ok();
            }));
            return ir.If(ir.Not(cplx), [&]() -> Status {
              Value* r1 = ir.Add(tr, rtdisc);
              Value* r2 = ir.Sub(tr, rtdisc);
              Value* first = ir.Le(ir.Abs(ir.Sub(r1, d)), ir.Abs(ir.Sub(r2, d)));
              Value* shift = ir.Mul(ir.Sel(first, r1, r2), s);
              rt1r.Set(shift), rt2r.Set(shift);
              return Status::Ok();
            });
          }));
          // Where the double-shift step starts.
          m.Set(b_.CreateSub(i, I(2)));
          found.Set(b_.getFalse());
          RETURN_IF_ERROR(ir.While([&] { return ir.And(b_.CreateICmpSGE(m.Get(), l.Get()), ir.Not(found.Get())); }, [&]() -> Status {
            Value* mm = m.Get();
            Value* m1 = b_.CreateAdd(mm, I(1));
            ASSIGN_OR_RETURN(Value * hmm, Tg(mm, mm));
            ASSIGN_OR_RETURN(Value * hm1m, Tg(m1, mm));
            ASSIGN_OR_RETURN(Value * hmm1, Tg(mm, m1));
            ASSIGN_OR_RETURN(Value * hm1m1, Tg(m1, m1));
            ASSIGN_OR_RETURN(Value * hm2m1, Tg(b_.CreateAdd(mm, I(2)), m1));
            Value* ss = ir.Add(ir.Add(ir.Abs(ir.Sub(hmm, rt2r.Get())), ir.Abs(rt2i.Get())), ir.Abs(hm1m));
            Value* h21s = ir.Div(hm1m, ss);
            Value* a0 = ir.Add(ir.Mul(h21s, hmm1), ir.Mul(ir.Sub(hmm, rt1r.Get()), ir.Div(ir.Sub(hmm, rt2r.Get()), ss)));
            a0 = ir.Sub(a0, ir.Mul(rt1i.Get(), ir.Div(rt2i.Get(), ss)));
            Value* a1 = ir.Mul(h21s, ir.Sub(ir.Sub(ir.Add(hmm, hm1m1), rt1r.Get()), rt2r.Get()));
            Value* a2 = ir.Mul(h21s, hm2m1);
            Value* s2 = ir.Add(ir.Add(ir.Abs(a0), ir.Abs(a1)), ir.Abs(a2));
            v0.Set(ir.Div(a0, s2)), v1.Set(ir.Div(a1, s2)), v2.Set(ir.Div(a2, s2));
            Value* at_l = b_.CreateICmpEQ(mm, l.Get());
            RETURN_IF_ERROR(ir.If(at_l, [&]() -> Status {
              found.Set(b_.getTrue());
              return Status::Ok();
            }));
            return ir.If(ir.Not(at_l), [&]() -> Status {
              Value* mm1 = b_.CreateSub(mm, I(1));
              ASSIGN_OR_RETURN(Value * hmmm1, Tg(mm, mm1));
              ASSIGN_OR_RETURN(Value * hm1m1b, Tg(mm1, mm1));
              Value* h00 = ir.Mul(ir.Abs(hmmm1), ir.Add(ir.Abs(v1.Get()), ir.Abs(v2.Get())));
              Value* h01 = ir.Mul(ir.Abs(v0.Get()), ir.Add(ir.Add(ir.Abs(hm1m1b), ir.Abs(hmm)), ir.Abs(hm1m1)));
              Value* ok = ir.Le(h00, ir.Mul(ulp, h01));
              found.Set(ok);
              return ir.If(ir.Not(ok), [&]() -> Status {
                m.Set(mm1);
                return Status::Ok();
              });
            });
          }));
          // The double-shift step, chasing the bulge from m to i.
          Value* mv = m.Get();
          return ir.Up(mv, i, [&](Value* k2) -> Status {
            Value* nr3 = b_.CreateICmpSGE(b_.CreateSub(i, k2), I(2));  // min(3, i-k2+1) == 3
            Value* k2m1 = b_.CreateSub(k2, I(1));
            Value* k21 = b_.CreateAdd(k2, I(1));
            Value* k22 = b_.CreateAdd(k2, I(2));
            Value* later = b_.CreateICmpSGT(k2, mv);
            RETURN_IF_ERROR(ir.If(later, [&]() -> Status {
              ASSIGN_OR_RETURN(Value * x0, Tg(k2, k2m1));
              ASSIGN_OR_RETURN(Value * x1, Tg(k21, k2m1));
              v0.Set(x0), v1.Set(x1);
              return ir.If(nr3, [&]() -> Status {
                ASSIGN_OR_RETURN(Value * x2, Tg(k22, k2m1));
                v2.Set(x2);
                return Status::Ok();
              });
            }));
            Value* vv1 = v1.Get();
            Value* vv2 = ir.Sel(nr3, v2.Get(), ir.F(0));
            Value* norm2 = ir.Add(ir.Mul(vv1, vv1), ir.Sel(nr3, ir.Mul(vv2, vv2), ir.F(0)));
            t1.Set(ir.F(0));
            RETURN_IF_ERROR(ir.If(ir.Ne(norm2, ir.F(0)), [&]() -> Status {
              Value* alpha = v0.Get();
              Value* beta = ir.Neg(ir.Copysign(ir.Sqrt(ir.Add(ir.Mul(alpha, alpha), norm2)), alpha));
              t1.Set(ir.Div(ir.Sub(beta, alpha), beta));
              Value* sc = ir.Div(ir.F(1), ir.Sub(alpha, beta));
              v1.Set(ir.Mul(v1.Get(), sc));
              v2.Set(ir.Mul(v2.Get(), sc));
              v0.Set(beta);
              return Status::Ok();
            }));
            Value* tv = t1.Get();
            RETURN_IF_ERROR(ir.If(later, [&]() -> Status {
              RETURN_IF_ERROR(T_.Set(k2, k2m1, v0.Get()));
              RETURN_IF_ERROR(T_.Set(k21, k2m1, ir.F(0)));
              return ir.If(b_.CreateICmpSLT(k2, b_.CreateSub(i, I(1))), [&] { return T_.Set(k22, k2m1, ir.F(0)); });
            }));
            RETURN_IF_ERROR(ir.If(ir.And(ir.Not(later), b_.CreateICmpSGT(mv, l.Get())), [&]() -> Status {
              ASSIGN_OR_RETURN(Value * x, Tg(k2, k2m1));
              return T_.Set(k2, k2m1, ir.Mul(x, ir.Sub(ir.F(1), tv)));
            }));
            Value* w1 = v1.Get();
            Value* w2 = ir.Sel(nr3, v2.Get(), ir.F(0));
            Value* t2 = ir.Mul(tv, w1);
            Value* t3 = ir.Mul(tv, w2);
            // G on the rows k2.. (columns k2..n-1), the columns (rows 0..min(k2+3, i)) and Z.
            auto apply = [&](const Mat& mt, Value* r0, Value* c0, bool rows) -> Status {
              // Element o of G's reach: (r0 + o, c0) along a column, (r0, c0 + o) along a row.
              auto row_at = [&](int64_t o) { return rows ? b_.CreateAdd(r0, I(o)) : r0; };
              auto col_at = [&](int64_t o) { return rows ? c0 : b_.CreateAdd(c0, I(o)); };
              Value* p0r = row_at(0);
              Value* p0c = col_at(0);
              Value* p1r = row_at(1);
              Value* p1c = col_at(1);
              Value* p2r = row_at(2);
              Value* p2c = col_at(2);
              ASSIGN_OR_RETURN(Value * x0, mt.Get(p0r, p0c));
              ASSIGN_OR_RETURN(Value * x1, mt.Get(p1r, p1c));
              Var sum(b_, ir.f64(), "g_sum");
              sum.Set(ir.Add(x0, ir.Mul(w1, x1)));
              RETURN_IF_ERROR(ir.If(nr3, [&]() -> Status {
                ASSIGN_OR_RETURN(Value * x2, mt.Get(p2r, p2c));
                sum.Set(ir.Add(sum.Get(), ir.Mul(w2, x2)));
                return Status::Ok();
              }));
              Value* sv = sum.Get();
              RETURN_IF_ERROR(mt.Set(p0r, p0c, ir.Sub(x0, ir.Mul(sv, tv))));
              RETURN_IF_ERROR(mt.Set(p1r, p1c, ir.Sub(x1, ir.Mul(sv, t2))));
              return ir.If(nr3, [&]() -> Status {
                ASSIGN_OR_RETURN(Value * x2, mt.Get(p2r, p2c));
                return mt.Set(p2r, p2c, ir.Sub(x2, ir.Mul(sv, t3)));
              });
            };
            RETURN_IF_ERROR(ir.Up(k2, N(), [&](Value* j) { return apply(T_, k2, j, true); }));
            Value* k23 = b_.CreateAdd(k2, I(3));
            Value* last = b_.CreateSelect(b_.CreateICmpSLT(k23, i), k23, i);
            RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(last, I(1)), [&](Value* j) { return apply(T_, j, k2, false); }));
            return ir.Up(I(0), N(), [&](Value* j) { return apply(Z_, j, k2, false); });
          });
        });
      }));
      RETURN_IF_ERROR(ir.If(ir.Not(split.Get()), [&]() -> Status {
        info_.Set(b_.CreateAdd(i, I(1)));
        stop.Set(b_.getTrue());
        return Status::Ok();
      }));
      return ir.If(split.Get(), [&]() -> Status {
        Value* lv = l.Get();
        RETURN_IF_ERROR(ir.If(b_.CreateICmpEQ(lv, i), [&]() -> Status {
          ASSIGN_OR_RETURN(Value * v, Tg(i, i));
          wr_.Set(i, v), wi_.Set(i, ir.F(0));
          return Status::Ok();
        }));
        RETURN_IF_ERROR(ir.If(b_.CreateICmpNE(lv, i), [&] { return Standardize(i); }));
        kdefl.Set(I(0));
        iv.Set(b_.CreateSub(lv, I(1)));
        return Status::Ok();
      });
    });
  });
}

}  // namespace hloscope::codegen::geev
