// The complex geev kernel's Schur step (geev_complex_emitter.cc has the
// others): LAPACK's zlahqr as the interpreter computes it
// (eval_nonsymmetric_eigen_complex.cc) — the single-shift QR iteration on
// the Hessenberg matrix T with its transformations accumulated into Z.
#include <llvm/IR/IRBuilder.h>

#include "core/codegen/geev_complex_emitter_internal.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen::zgeev {

Status ZGeevEmitter::Schur() {
  const Ir& ir = ir_;
  const Cplx& c = c_;
  llvm::Type* i64 = b_.getInt64Ty();
  Value* ilo = ilo_.Get();
  Value* ihi = ihi_.Get();
  info_.Set(I(0));
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) -> Status {
    return ir.If(b_.CreateOr(b_.CreateICmpSLT(i, ilo), b_.CreateICmpSGT(i, ihi)), [&]() -> Status {
      ASSIGN_OR_RETURN(Cx v, T_.Get(i, i));
      w_.Set(i, v);
      return Status::Ok();
    });
  }));
  RETURN_IF_ERROR(ir.If(b_.CreateICmpEQ(ilo, ihi), [&]() -> Status {
    ASSIGN_OR_RETURN(Cx v, T_.Get(ilo, ilo));
    w_.Set(ilo, v);
    return Status::Ok();
  }));
  return ir.If(b_.CreateICmpSLT(ilo, ihi), [&]() -> Status {
    // Real subdiagonal entries.
    RETURN_IF_ERROR(ir.Up(b_.CreateAdd(ilo, I(1)), b_.CreateAdd(ihi, I(1)), [&](Value* i) -> Status {
      Value* im1 = b_.CreateSub(i, I(1));
      ASSIGN_OR_RETURN(Cx h, T_.Get(i, im1));
      return ir.If(ir.Ne(h.im, ir.F(0)), [&]() -> Status {
        Cx sc = c.Div(h, c.Re(c.Cabs1(h)));
        sc = c.Div(c.Conj(sc), c.Re(c.Abs(sc)));
        RETURN_IF_ERROR(T_.Set(i, im1, c.Re(ir.R(c.Abs(h)))));
        RETURN_IF_ERROR(ScaleRow(i, i, sc));
        Value* ip1 = b_.CreateAdd(i, I(1));
        RETURN_IF_ERROR(ScaleCol(i, I(0), b_.CreateSelect(b_.CreateICmpSLT(ip1, N()), ip1, I(n_ - 1)), c.Conj(sc)));
        return ScaleZ(i, c.Conj(sc));
      });
    }));
    Value* nh = b_.CreateAdd(b_.CreateSub(ihi, ilo), I(1));
    Value* ulp = ir.F(ir.p.ulp);
    Value* smlnum = ir.Mul(ir.F(ir.p.safmin), ir.Div(b_.CreateSIToFP(nh, ir.f64()), ulp));
    Value* itmax = b_.CreateMul(I(30), b_.CreateSelect(b_.CreateICmpSGT(nh, I(10)), nh, I(10)));
    Var iv(b_, i64, "qr_i"), l(b_, i64, "qr_l"), its(b_, i64, "qr_its"), k(b_, i64, "qr_k"), m(b_, i64, "qr_m");
    Var kdefl(b_, i64, "qr_kdefl"), conv(b_, b_.getInt1Ty(), "qr_conv"), found(b_, b_.getInt1Ty(), "qr_found");
    Var stop(b_, b_.getInt1Ty(), "qr_stop"), tst(b_, ir.f64(), "tst");
    CVar t(b_, "shift"), v0(b_, "v0"), v1(b_, "v1"), t1(b_, "t1"), y(b_, "y");
    auto Tg = [&](Value* r, Value* q) { return T_.Get(r, q); };
    kdefl.Set(I(0));
    iv.Set(ihi);
    stop.Set(b_.getFalse());
    return ir.While([&] { return ir.And(b_.CreateICmpSGE(iv.Get(), ilo), ir.Not(stop.Get())); }, [&]() -> Status {
      Value* i = iv.Get();
      Value* im1 = b_.CreateSub(i, I(1));
      l.Set(ilo);
      conv.Set(b_.getFalse());
      its.Set(I(0));
      RETURN_IF_ERROR(ir.While([&] { return ir.And(b_.CreateICmpSLE(its.Get(), itmax), ir.Not(conv.Get())); }, [&]() -> Status {
        its.Set(b_.CreateAdd(its.Get(), I(1)));
        k.Set(i);
        found.Set(b_.getFalse());
        RETURN_IF_ERROR(ir.While([&] { return ir.And(b_.CreateICmpSGT(k.Get(), l.Get()), ir.Not(found.Get())); }, [&]() -> Status {
          Value* kk = k.Get();
          Value* km1 = b_.CreateSub(kk, I(1));
          ASSIGN_OR_RETURN(Cx hkk1, Tg(kk, km1));
          Value* tiny = ir.Le(c.Cabs1(hkk1), smlnum);
          RETURN_IF_ERROR(ir.If(tiny, [&]() -> Status {
            found.Set(b_.getTrue());
            return Status::Ok();
          }));
          RETURN_IF_ERROR(ir.If(ir.Not(tiny), [&]() -> Status {
            ASSIGN_OR_RETURN(Cx hk1k1, Tg(km1, km1));
            ASSIGN_OR_RETURN(Cx hkk, Tg(kk, kk));
            tst.Set(ir.Add(c.Cabs1(hk1k1), c.Cabs1(hkk)));
            RETURN_IF_ERROR(ir.If(ir.Eq(tst.Get(), ir.F(0)), [&]() -> Status {
              Value* km2 = b_.CreateSub(kk, I(2));
              RETURN_IF_ERROR(ir.If(b_.CreateICmpSGE(km2, ilo), [&]() -> Status {
                ASSIGN_OR_RETURN(Cx v, Tg(km1, km2));
                tst.Set(ir.Add(tst.Get(), ir.Abs(v.re)));
                return Status::Ok();
              }));
              Value* kp1 = b_.CreateAdd(kk, I(1));
              return ir.If(b_.CreateICmpSLE(kp1, ihi), [&]() -> Status {
                ASSIGN_OR_RETURN(Cx v, Tg(kp1, kk));
                tst.Set(ir.Add(tst.Get(), ir.Abs(v.re)));
                return Status::Ok();
              });
            }));
            RETURN_IF_ERROR(ir.If(ir.Le(ir.Abs(hkk1.re), ir.Mul(ulp, tst.Get())), [&]() -> Status {
              ASSIGN_OR_RETURN(Cx hk1k, Tg(km1, kk));
              Value* ab = ir.Max(c.Cabs1(hkk1), c.Cabs1(hk1k));
              Value* ba = ir.Min(c.Cabs1(hkk1), c.Cabs1(hk1k));
              Value* diff = c.Cabs1(c.Sub(hk1k1, hkk));
              Value* aa = ir.Max(c.Cabs1(hkk), diff);
              Value* bb = ir.Min(c.Cabs1(hkk), diff);
              Value* s = ir.Add(aa, ab);
              found.Set(ir.Le(ir.Mul(ba, ir.Div(ab, s)), ir.Max(smlnum, ir.Mul(ulp, ir.Mul(bb, ir.Div(aa, s))))));
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
        RETURN_IF_ERROR(ir.If(b_.CreateICmpSGT(lv, ilo), [&] { return T_.Set(lv, b_.CreateSub(lv, I(1)), c.Re(ir.F(0))); }));
        Value* done = b_.CreateICmpSGE(lv, i);
        RETURN_IF_ERROR(ir.If(done, [&]() -> Status {
          conv.Set(b_.getTrue());
          return Status::Ok();
        }));
        return ir.If(ir.Not(done), [&]() -> Status {
          kdefl.Set(b_.CreateAdd(kdefl.Get(), I(1)));
          Value* kd = kdefl.Get();
          Value* ex2 = b_.CreateICmpEQ(b_.CreateSRem(kd, I(2 * kGeevExceptionalShift)), I(0));
          Value* ex1 = ir.And(ir.Not(ex2), b_.CreateICmpEQ(b_.CreateSRem(kd, I(kGeevExceptionalShift)), I(0)));
          RETURN_IF_ERROR(ir.If(ex2, [&]() -> Status {
            ASSIGN_OR_RETURN(Cx h, Tg(i, im1));
            ASSIGN_OR_RETURN(Cx hii, Tg(i, i));
            t.Set(c.Add(c.Re(ir.Mul(ir.F(0.75), ir.Abs(h.re))), hii));
            return Status::Ok();
          }));
          RETURN_IF_ERROR(ir.If(ex1, [&]() -> Status {
            ASSIGN_OR_RETURN(Cx h, Tg(b_.CreateAdd(lv, I(1)), lv));
            ASSIGN_OR_RETURN(Cx hll, Tg(lv, lv));
            t.Set(c.Add(c.Re(ir.Mul(ir.F(0.75), ir.Abs(h.re))), hll));
            return Status::Ok();
          }));
          RETURN_IF_ERROR(ir.If(ir.Not(ir.Or(ex1, ex2)), [&]() -> Status {
            ASSIGN_OR_RETURN(Cx hii, Tg(i, i));
            ASSIGN_OR_RETURN(Cx hup, Tg(im1, i));
            ASSIGN_OR_RETURN(Cx hdn, Tg(i, im1));
            ASSIGN_OR_RETURN(Cx hprev, Tg(im1, im1));
            t.Set(hii);
            const Cx u = c.Mul(c.Sqrt(hup), c.Sqrt(hdn));
            Value* s0 = c.Cabs1(u);
            return ir.If(ir.Ne(s0, ir.F(0)), [&]() -> Status {
              const Cx x = c.Scale(ir.F(0.5), c.Sub(hprev, hii));
              Value* sx = c.Cabs1(x);
              Value* s = ir.Max(s0, sx);
              const Cx xs = c.Div(x, c.Re(s)), us = c.Div(u, c.Re(s));
              y.Set(c.Scale(s, c.Sqrt(c.Add(c.Mul(xs, xs), c.Mul(us, us)))));
              RETURN_IF_ERROR(ir.If(ir.Gt(sx, ir.F(0)), [&]() -> Status {
                const Cx xn = c.Div(x, c.Re(sx));
                const Cx yv = y.Get();
                Value* dot = ir.Add(ir.Mul(xn.re, yv.re), ir.Mul(xn.im, yv.im));
                y.Set(c.Sel(ir.Lt(dot, ir.F(0)), c.Neg(yv), yv));
                return Status::Ok();
              }));
              t.Set(c.Sub(hii, c.Mul(u, c.Div(u, c.Add(x, y.Get())))));
              return Status::Ok();
            });
          }));
          const Cx tv = t.Get();
          // Where the single-shift step starts: the first m from i-1 down to l+1 whose start makes
          // H(m, m-1) negligible, else l.
          auto start_at = [&](Value* mm) -> Status {
            ASSIGN_OR_RETURN(Cx h11, Tg(mm, mm));
            ASSIGN_OR_RETURN(Cx h21c, Tg(b_.CreateAdd(mm, I(1)), mm));
            const Cx h11s0 = c.Sub(h11, tv);
            Value* s = ir.Add(c.Cabs1(h11s0), ir.Abs(h21c.re));
            v0.Set(c.Div(h11s0, c.Re(s)));
            v1.Set(c.Re(ir.Div(h21c.re, s)));
            return Status::Ok();
          };
          m.Set(im1);
          found.Set(b_.getFalse());
          RETURN_IF_ERROR(ir.While([&] { return ir.And(b_.CreateICmpSGE(m.Get(), b_.CreateAdd(l.Get(), I(1))), ir.Not(found.Get())); }, [&]() -> Status {
            Value* mm = m.Get();
            RETURN_IF_ERROR(start_at(mm));
            ASSIGN_OR_RETURN(Cx h11, Tg(mm, mm));
            ASSIGN_OR_RETURN(Cx h22, Tg(b_.CreateAdd(mm, I(1)), b_.CreateAdd(mm, I(1))));
            ASSIGN_OR_RETURN(Cx h10, Tg(mm, b_.CreateSub(mm, I(1))));
            Value* h21 = v1.Get().re;
            Value* ok = ir.Le(ir.Mul(ir.Abs(h10.re), ir.Abs(h21)),
                              ir.Mul(ulp, ir.Mul(c.Cabs1(v0.Get()), ir.Add(c.Cabs1(h11), c.Cabs1(h22)))));
            found.Set(ok);
            return ir.If(ir.Not(ok), [&]() -> Status {
              m.Set(b_.CreateSub(mm, I(1)));
              return Status::Ok();
            });
          }));
          RETURN_IF_ERROR(ir.If(ir.Not(found.Get()), [&]() -> Status {
            m.Set(l.Get());
            return start_at(l.Get());
          }));
          Value* mv = m.Get();
          RETURN_IF_ERROR(ir.Up(mv, i, [&](Value* k2) -> Status {
            Value* k2m1 = b_.CreateSub(k2, I(1));
            Value* k21 = b_.CreateAdd(k2, I(1));
            Value* later = b_.CreateICmpSGT(k2, mv);
            RETURN_IF_ERROR(ir.If(later, [&]() -> Status {
              ASSIGN_OR_RETURN(Cx a0, Tg(k2, k2m1));
              ASSIGN_OR_RETURN(Cx a1, Tg(k21, k2m1));
              v0.Set(a0), v1.Set(a1);
              return Status::Ok();
            }));
            // zlarfg(2, v0, v1).
            t1.Set(c.Re(ir.F(0)));
            const Cx a0 = v0.Get();
            Value* norm2 = c.Norm2(v1.Get());
            RETURN_IF_ERROR(ir.If(ir.Or(ir.Ne(norm2, ir.F(0)), ir.Ne(a0.im, ir.F(0))), [&]() -> Status {
              Value* beta = ir.Neg(ir.Copysign(ir.Sqrt(ir.Add(ir.Add(ir.Mul(a0.re, a0.re), ir.Mul(a0.im, a0.im)), norm2)), a0.re));
              t1.Set({ir.Div(ir.Sub(beta, a0.re), beta), ir.Div(ir.Neg(a0.im), beta)});
              v1.Set(c.Mul(v1.Get(), c.Div(c.Re(ir.F(1)), {ir.Sub(a0.re, beta), a0.im})));
              v0.Set(c.Re(beta));
              return Status::Ok();
            }));
            RETURN_IF_ERROR(ir.If(later, [&]() -> Status {
              RETURN_IF_ERROR(T_.Set(k2, k2m1, v0.Get()));
              return T_.Set(k21, k2m1, c.Re(ir.F(0)));
            }));
            const Cx tt = t1.Get();
            const Cx v2 = v1.Get();
            Value* t2 = c.Mul(tt, v2).re;
            RETURN_IF_ERROR(ir.Up(k2, N(), [&](Value* j) -> Status {
              ASSIGN_OR_RETURN(Cx x0, Tg(k2, j));
              ASSIGN_OR_RETURN(Cx x1, Tg(k21, j));
              const Cx sum = c.Add(c.Mul(c.Conj(tt), x0), c.Scale(t2, x1));
              RETURN_IF_ERROR(T_.Set(k2, j, c.R(c.Sub(x0, sum))));
              return T_.Set(k21, j, c.R(c.Sub(x1, c.Mul(sum, v2))));
            }));
            Value* k22 = b_.CreateAdd(k2, I(2));
            Value* last = b_.CreateSelect(b_.CreateICmpSLT(k22, i), k22, i);
            auto right = [&](const CMat& mt, Value* j) -> Status {
              ASSIGN_OR_RETURN(Cx x0, mt.Get(j, k2));
              ASSIGN_OR_RETURN(Cx x1, mt.Get(j, k21));
              const Cx sum = c.Add(c.Mul(tt, x0), c.Scale(t2, x1));
              RETURN_IF_ERROR(mt.Set(j, k2, c.R(c.Sub(x0, sum))));
              return mt.Set(j, k21, c.R(c.Sub(x1, c.Mul(sum, c.Conj(v2)))));
            };
            RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(last, I(1)), [&](Value* j) { return right(T_, j); }));
            RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* j) { return right(Z_, j); }));
            return ir.If(ir.And(b_.CreateICmpEQ(k2, mv), b_.CreateICmpSGT(mv, l.Get())), [&]() -> Status {
              Cx temp = c.Sub(c.Re(ir.F(1)), tt);
              temp = c.Div(temp, c.Re(c.Abs(temp)));
              Value* m1 = b_.CreateAdd(mv, I(1));
              RETURN_IF_ERROR(Update(T_, m1, mv, [&](Cx v) { return c.Mul(v, c.Conj(temp)); }));
              RETURN_IF_ERROR(ir.If(b_.CreateICmpSLE(b_.CreateAdd(mv, I(2)), i), [&] {
                return Update(T_, b_.CreateAdd(mv, I(2)), m1, [&](Cx v) { return c.Mul(v, temp); });
              }));
              return ir.Up(mv, b_.CreateAdd(i, I(1)), [&](Value* j) -> Status {
                return ir.If(b_.CreateICmpNE(j, m1), [&]() -> Status {
                  RETURN_IF_ERROR(ir.Up(b_.CreateAdd(j, I(1)), N(), [&](Value* q) {
                    return Update(T_, j, q, [&](Cx v) { return c.Mul(temp, v); });
                  }));
                  RETURN_IF_ERROR(ScaleCol(j, I(0), b_.CreateSub(j, I(1)), c.Conj(temp)));
                  return ScaleZ(j, c.Conj(temp));
                });
              });
            });
          }));
          // A real H(i, i-1) after the step.
          ASSIGN_OR_RETURN(Cx h, Tg(i, im1));
          return ir.If(ir.Ne(h.im, ir.F(0)), [&]() -> Status {
            Value* rtemp = c.Abs(h);
            RETURN_IF_ERROR(T_.Set(i, im1, c.Re(ir.R(rtemp))));
            const Cx temp = c.Div(h, c.Re(rtemp));
            RETURN_IF_ERROR(ir.Up(b_.CreateAdd(i, I(1)), N(), [&](Value* q) {
              return Update(T_, i, q, [&](Cx v) { return c.Mul(c.Conj(temp), v); });
            }));
            RETURN_IF_ERROR(ScaleCol(i, I(0), im1, temp));
            return ScaleZ(i, temp);
          });
        });
      }));
      RETURN_IF_ERROR(ir.If(ir.Not(conv.Get()), [&]() -> Status {
        info_.Set(b_.CreateAdd(i, I(1)));
        stop.Set(b_.getTrue());
        return Status::Ok();
      }));
      return ir.If(conv.Get(), [&]() -> Status {
        ASSIGN_OR_RETURN(Cx v, Tg(i, i));
        w_.Set(i, v);
        kdefl.Set(I(0));
        iv.Set(b_.CreateSub(l.Get(), I(1)));
        return Status::Ok();
      });
    });
  });
}

}  // namespace hloscope::codegen::zgeev
