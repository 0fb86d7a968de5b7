// The eigenvector steps of the real nonsymmetric eigendecomposition kernel
// (geev_emitter_internal.h): trevc's right and left eigenvectors of the Schur
// form (1×1 and 2×2 blocks, small pivots taken as smin), taken back through
// Q in place, gebak, and dgeev's normalization — as the interpreter
// (core/eval/eval_nonsymmetric_eigen.cc) computes them.
#include <llvm/IR/IRBuilder.h>

#include "core/codegen/geev_emitter_internal.h"
#include "core/codegen/ir_loops.h"

namespace hloscope::codegen::geev {

Status GeevEmitter::Solve2(bool trans, Value* wr, Value* wi, bool cplx, Value* j, Value* b1r, Value* b1i, Value* b2r,
                           Value* b2i, Value* smin, Var& x1r, Var& x1i, Var& x2r, Var& x2i) {
  const Ir& ir = ir_;
  Value* j1 = b_.CreateAdd(j, I(1));
  ASSIGN_OR_RETURN(Value * t00, T_.Get(j, j));
  ASSIGN_OR_RETURN(Value * t01, T_.Get(j, j1));
  ASSIGN_OR_RETURN(Value * t10, T_.Get(j1, j));
  ASSIGN_OR_RETURN(Value * t11, T_.Get(j1, j1));
  if (trans) std::swap(t01, t10);
  // a[p][q] = {re, im}
  struct Cx {
    Value* re;
    Value* im;
  };
  Value* nwi = ir.Neg(wi);
  Cx a[2][2] = {{{ir.Sub(t00, wr), nwi}, {t01, ir.F(0)}}, {{t10, ir.F(0)}, {ir.Sub(t11, wr), nwi}}};
  auto mag = [&](Cx v) { return ir.Add(ir.Abs(v.re), ir.Abs(v.im)); };
  auto mul = [&](Cx u, Cx v) -> Cx {
    if (!cplx) return {ir.Mul(u.re, v.re), ir.F(0)};
    return {ir.Sub(ir.Mul(u.re, v.re), ir.Mul(u.im, v.im)), ir.Add(ir.Mul(u.re, v.im), ir.Mul(u.im, v.re))};
  };
  auto div = [&](Cx u, Cx v) -> Cx {
    if (!cplx) return {ir.Div(u.re, v.re), ir.F(0)};
    auto [re, im] = Smith(ir, u.re, u.im, v.re, v.im);
    return {re, im};
  };
  auto sub = [&](Cx u, Cx v) -> Cx { return {ir.Sub(u.re, v.re), cplx ? ir.Sub(u.im, v.im) : ir.F(0)}; };
  auto sel = [&](Value* c, Cx u, Cx v) -> Cx { return {ir.Sel(c, u.re, v.re), ir.Sel(c, u.im, v.im)}; };
  // The pivot: the first largest magnitude in column order.
  Value* best = ir.F(-1);
  Value* pv = I(0);
  Value* qv = I(0);
  for (int q = 0; q < 2; ++q)
    for (int p = 0; p < 2; ++p) {
      Value* mgn = mag(a[p][q]);
      Value* better = ir.Gt(mgn, best);
      best = ir.Sel(better, mgn, best);
      pv = b_.CreateSelect(better, I(p), pv);
      qv = b_.CreateSelect(better, I(q), qv);
    }
  Value* p1 = b_.CreateICmpEQ(pv, I(1));
  Value* q1 = b_.CreateICmpEQ(qv, I(1));
  auto pick = [&](Value* row1, Value* col1) {  // a[row1 ? 1 : 0][col1 ? 1 : 0]
    return sel(row1, sel(col1, a[1][1], a[1][0]), sel(col1, a[0][1], a[0][0]));
  };
  const Cx bvec[2] = {{b1r, b1i}, {b2r, b2i}};
  Cx r1 = sel(p1, bvec[1], bvec[0]);
  Cx r2in = sel(p1, bvec[0], bvec[1]);
  Cx u11 = pick(p1, q1);
  Cx l21 = div(pick(ir.Not(p1), q1), u11);
  Cx u12 = pick(p1, ir.Not(q1));
  Cx u22 = sub(pick(ir.Not(p1), ir.Not(q1)), mul(u12, l21));
  Value* small22 = ir.Lt(mag(u22), smin);
  u22 = {ir.Sel(small22, smin, u22.re), ir.Sel(small22, ir.F(0), u22.im)};
  Cx r2 = sub(r2in, mul(l21, r1));
  Cx xq1 = div(r2, u22);              // x[1 - q]
  Cx xq = div(sub(r1, mul(u12, xq1)), u11);  // x[q]
  // Every pivot under smin: b / smin.
  Value* tiny = ir.Lt(best, smin);
  Cx sm{smin, ir.F(0)};
  Cx x0 = sel(tiny, div(bvec[0], sm), sel(q1, xq1, xq));
  Cx x1 = sel(tiny, div(bvec[1], sm), sel(q1, xq, xq1));
  x1r.Set(x0.re), x1i.Set(x0.im), x2r.Set(x1.re), x2i.Set(x1.im);
  return Status::Ok();
}

Status GeevEmitter::RightVectors() {
  const Ir& ir = ir_;
  llvm::Type* i64 = b_.getInt64Ty();
  Value* smlnum = ir.F(ir.p.safmin * (static_cast<double>(n_) / ir.p.ulp));
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) { return ir.Up(I(0), N(), [&](Value* j) { return X_.Set(i, j, ir.F(0)); }); }));
  Var ki(b_, i64, "rv_ki"), j(b_, i64, "rv_j");
  Var x1r(b_, ir.f64(), "x1r"), x1i(b_, ir.f64(), "x1i"), x2r(b_, ir.f64(), "x2r"), x2i(b_, ir.f64(), "x2i");
  ki.Set(I(n_ - 1));
  return ir.While([&] { return b_.CreateICmpSGE(ki.Get(), I(0)); }, [&]() -> Status {
    Value* k = ki.Get();
    Value* km1 = b_.CreateSub(k, I(1));
    Var pairv(b_, b_.getInt1Ty(), "rv_pair");
    pairv.Set(b_.getFalse());
    RETURN_IF_ERROR(ir.If(b_.CreateICmpSGT(k, I(0)), [&]() -> Status {
      ASSIGN_OR_RETURN(Value * sub, T_.Get(k, km1));
      pairv.Set(ir.Ne(sub, ir.F(0)));
      return Status::Ok();
    }));
    Value* pair = pairv.Get();
    ASSIGN_OR_RETURN(Value * wr, T_.Get(k, k));
    // Each branch (real, pair) emitted on its own.
    for (int cplx = 0; cplx < 2; ++cplx) {
      RETURN_IF_ERROR(ir.If(cplx ? pair : ir.Not(pair), [&]() -> Status {
        Value* wi = ir.F(0);
        if (cplx) {
          ASSIGN_OR_RETURN(Value * s, T_.Get(k, km1));
          ASSIGN_OR_RETURN(Value * u, T_.Get(km1, k));
          wi = ir.Mul(ir.Sqrt(ir.Abs(s)), ir.Sqrt(ir.Abs(u)));
        }
        Value* smin = ir.Max(ir.Mul(ir.F(ir.p.ulp), ir.Add(ir.Abs(wr), ir.Abs(wi))), smlnum);
        Value* cr = cplx ? km1 : k;
        Value* ci = k;
        if (!cplx) {
          RETURN_IF_ERROR(X_.Set(k, k, ir.F(1)));
          RETURN_IF_ERROR(ir.Up(I(0), k, [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * t, T_.Get(q, k));
            return X_.Set(q, k, ir.Neg(t));
          }));
        } else {
          ASSIGN_OR_RETURN(Value * up, T_.Get(km1, k));
          ASSIGN_OR_RETURN(Value * dn, T_.Get(k, km1));
          Value* ge = ir.Ge(ir.Abs(up), ir.Abs(dn));
          RETURN_IF_ERROR(X_.Set(km1, cr, ir.Sel(ge, ir.F(1), ir.Neg(ir.Div(wi, dn)))));
          RETURN_IF_ERROR(X_.Set(k, ci, ir.Sel(ge, ir.Div(wi, up), ir.F(1))));
          RETURN_IF_ERROR(X_.Set(k, cr, ir.F(0)));
          RETURN_IF_ERROR(X_.Set(km1, ci, ir.F(0)));
          RETURN_IF_ERROR(ir.Up(I(0), km1, [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * xr, X_.Get(km1, cr));
            ASSIGN_OR_RETURN(Value * ta, T_.Get(q, km1));
            RETURN_IF_ERROR(X_.Set(q, cr, ir.Neg(ir.Mul(xr, ta))));
            ASSIGN_OR_RETURN(Value * xi, X_.Get(k, ci));
            ASSIGN_OR_RETURN(Value * tb, T_.Get(q, k));
            return X_.Set(q, ci, ir.Neg(ir.Mul(xi, tb)));
          }));
        }
        auto axpy = [&](Value* col, Value* upto, Value* xv, Value* tcol) -> Status {
          return ir.Up(I(0), upto, [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * x, X_.Get(q, col));
            ASSIGN_OR_RETURN(Value * t, T_.Get(q, tcol));
            return X_.Set(q, col, ir.Sub(x, ir.Mul(xv, t)));
          });
        };
        j.Set(cplx ? b_.CreateSub(k, I(2)) : km1);
        return ir.While([&] { return b_.CreateICmpSGE(j.Get(), I(0)); }, [&]() -> Status {
          Value* jv = j.Get();
          Value* jm1 = b_.CreateSub(jv, I(1));
          Var blockv(b_, b_.getInt1Ty(), "rv_block");
          blockv.Set(b_.getFalse());
          RETURN_IF_ERROR(ir.If(b_.CreateICmpSGT(jv, I(0)), [&]() -> Status {
            ASSIGN_OR_RETURN(Value * s, T_.Get(jv, jm1));
            blockv.Set(ir.Ne(s, ir.F(0)));
            return Status::Ok();
          }));
          Value* block = blockv.Get();
          RETURN_IF_ERROR(ir.If(ir.Not(block), [&]() -> Status {
            ASSIGN_OR_RETURN(Value * tjj, T_.Get(jv, jv));
            if (!cplx) {
              Value* csr = ir.Sub(tjj, wr);
              csr = ir.Sel(ir.Lt(ir.Abs(csr), smin), smin, csr);
              ASSIGN_OR_RETURN(Value * xj, X_.Get(jv, cr));
              RETURN_IF_ERROR(X_.Set(jv, cr, ir.Div(xj, csr)));
              ASSIGN_OR_RETURN(Value * xs, X_.Get(jv, cr));
              return axpy(cr, jv, xs, jv);
            }
            Value* csr = ir.Sub(tjj, wr);
            Value* csi = ir.Neg(wi);
            Value* small = ir.Lt(ir.Add(ir.Abs(csr), ir.Abs(csi)), smin);
            csr = ir.Sel(small, smin, csr);
            csi = ir.Sel(small, ir.F(0), csi);
            ASSIGN_OR_RETURN(Value * xr, X_.Get(jv, cr));
            ASSIGN_OR_RETURN(Value * xi, X_.Get(jv, ci));
            auto [qr, qi] = Smith(ir, xr, xi, csr, csi);
            RETURN_IF_ERROR(X_.Set(jv, cr, qr));
            RETURN_IF_ERROR(X_.Set(jv, ci, qi));
            ASSIGN_OR_RETURN(Value * sr, X_.Get(jv, cr));
            ASSIGN_OR_RETURN(Value * si, X_.Get(jv, ci));
            RETURN_IF_ERROR(axpy(cr, jv, sr, jv));
            return axpy(ci, jv, si, jv);
          }));
          RETURN_IF_ERROR(ir.If(block, [&]() -> Status {
            ASSIGN_OR_RETURN(Value * b1r, X_.Get(jm1, cr));
            ASSIGN_OR_RETURN(Value * b2r, X_.Get(jv, cr));
            Value* b1i = ir.F(0);
            Value* b2i = ir.F(0);
            if (cplx) {
              ASSIGN_OR_RETURN(b1i, X_.Get(jm1, ci));
              ASSIGN_OR_RETURN(b2i, X_.Get(jv, ci));
            }
            RETURN_IF_ERROR(Solve2(false, wr, wi, cplx, jm1, b1r, b1i, b2r, b2i, smin, x1r, x1i, x2r, x2i));
            RETURN_IF_ERROR(X_.Set(jm1, cr, x1r.Get()));
            RETURN_IF_ERROR(X_.Set(jv, cr, x2r.Get()));
            ASSIGN_OR_RETURN(Value * s1, X_.Get(jm1, cr));
            RETURN_IF_ERROR(axpy(cr, jm1, s1, jm1));
            ASSIGN_OR_RETURN(Value * s2, X_.Get(jv, cr));
            RETURN_IF_ERROR(axpy(cr, jm1, s2, jv));
            if (cplx) {
              RETURN_IF_ERROR(X_.Set(jm1, ci, x1i.Get()));
              RETURN_IF_ERROR(X_.Set(jv, ci, x2i.Get()));
              ASSIGN_OR_RETURN(Value * s3, X_.Get(jm1, ci));
              RETURN_IF_ERROR(axpy(ci, jm1, s3, jm1));
              ASSIGN_OR_RETURN(Value * s4, X_.Get(jv, ci));
              RETURN_IF_ERROR(axpy(ci, jm1, s4, jv));
            }
            return Status::Ok();
          }));
          j.Set(b_.CreateSub(jv, b_.CreateSelect(block, I(2), I(1))));
          return Status::Ok();
        });
      }));
    }
    ki.Set(b_.CreateSub(k, b_.CreateSelect(pair, I(2), I(1))));
    return Status::Ok();
  });
}

Status GeevEmitter::LeftVectors() {
  const Ir& ir = ir_;
  llvm::Type* i64 = b_.getInt64Ty();
  Value* smlnum = ir.F(ir.p.safmin * (static_cast<double>(n_) / ir.p.ulp));
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) { return ir.Up(I(0), N(), [&](Value* j) { return X_.Set(i, j, ir.F(0)); }); }));
  Var ki(b_, i64, "lv_ki"), j(b_, i64, "lv_j"), acc(b_, ir.f64(), "lv_acc");
  Var x1r(b_, ir.f64(), "y1r"), x1i(b_, ir.f64(), "y1i"), x2r(b_, ir.f64(), "y2r"), x2i(b_, ir.f64(), "y2i");
  ki.Set(I(0));
  return ir.While([&] { return b_.CreateICmpSLT(ki.Get(), N()); }, [&]() -> Status {
    Value* k = ki.Get();
    Value* kp1 = b_.CreateAdd(k, I(1));
    Var pairv(b_, b_.getInt1Ty(), "lv_pair");
    pairv.Set(b_.getFalse());
    RETURN_IF_ERROR(ir.If(b_.CreateICmpSLT(kp1, N()), [&]() -> Status {
      ASSIGN_OR_RETURN(Value * sub, T_.Get(kp1, k));
      pairv.Set(ir.Ne(sub, ir.F(0)));
      return Status::Ok();
    }));
    Value* pair = pairv.Get();
    ASSIGN_OR_RETURN(Value * wr, T_.Get(k, k));
    for (int cplx = 0; cplx < 2; ++cplx) {
      RETURN_IF_ERROR(ir.If(cplx ? pair : ir.Not(pair), [&]() -> Status {
        Value* wi = ir.F(0);
        if (cplx) {
          ASSIGN_OR_RETURN(Value * u, T_.Get(k, kp1));
          ASSIGN_OR_RETURN(Value * s, T_.Get(kp1, k));
          wi = ir.Mul(ir.Sqrt(ir.Abs(u)), ir.Sqrt(ir.Abs(s)));
        }
        Value* smin = ir.Max(ir.Mul(ir.F(ir.p.ulp), ir.Add(ir.Abs(wr), ir.Abs(wi))), smlnum);
        Value* cr = k;
        Value* ci = cplx ? kp1 : k;
        Value* first = cplx ? b_.CreateAdd(k, I(2)) : kp1;
        if (!cplx) {
          RETURN_IF_ERROR(X_.Set(k, k, ir.F(1)));
          RETURN_IF_ERROR(ir.Up(kp1, N(), [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * t, T_.Get(k, q));
            return X_.Set(q, k, ir.Neg(t));
          }));
        } else {
          ASSIGN_OR_RETURN(Value * up, T_.Get(k, kp1));
          ASSIGN_OR_RETURN(Value * dn, T_.Get(kp1, k));
          Value* ge = ir.Ge(ir.Abs(up), ir.Abs(dn));
          RETURN_IF_ERROR(X_.Set(k, cr, ir.Sel(ge, ir.Div(wi, up), ir.F(1))));
          RETURN_IF_ERROR(X_.Set(kp1, ci, ir.Sel(ge, ir.F(1), ir.Neg(ir.Div(wi, dn)))));
          RETURN_IF_ERROR(X_.Set(kp1, cr, ir.F(0)));
          RETURN_IF_ERROR(X_.Set(k, ci, ir.F(0)));
          RETURN_IF_ERROR(ir.Up(first, N(), [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * xr, X_.Get(k, cr));
            ASSIGN_OR_RETURN(Value * ta, T_.Get(k, q));
            RETURN_IF_ERROR(X_.Set(q, cr, ir.Neg(ir.Mul(xr, ta))));
            ASSIGN_OR_RETURN(Value * xi, X_.Get(kp1, ci));
            ASSIGN_OR_RETURN(Value * tb, T_.Get(kp1, q));
            return X_.Set(q, ci, ir.Neg(ir.Mul(xi, tb)));
          }));
        }
        // Row `row` less Σ_{q in [first, upto)} T(q, row)·X(q, col).
        auto dot = [&](Value* col, Value* row, Value* upto) -> Status {
          acc.Set(ir.F(0));
          RETURN_IF_ERROR(ir.Up(first, upto, [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * t, T_.Get(q, row));
            ASSIGN_OR_RETURN(Value * x, X_.Get(q, col));
            acc.Set(ir.Add(acc.Get(), ir.Mul(t, x)));
            return Status::Ok();
          }));
          ASSIGN_OR_RETURN(Value * x, X_.Get(row, col));
          return X_.Set(row, col, ir.Sub(x, acc.Get()));
        };
        j.Set(first);
        return ir.While([&] { return b_.CreateICmpSLT(j.Get(), N()); }, [&]() -> Status {
          Value* jv = j.Get();
          Value* jp1 = b_.CreateAdd(jv, I(1));
          Var blockv(b_, b_.getInt1Ty(), "lv_block");
          blockv.Set(b_.getFalse());
          RETURN_IF_ERROR(ir.If(b_.CreateICmpSLT(jp1, N()), [&]() -> Status {
            ASSIGN_OR_RETURN(Value * s, T_.Get(jp1, jv));
            blockv.Set(ir.Ne(s, ir.F(0)));
            return Status::Ok();
          }));
          Value* block = blockv.Get();
          RETURN_IF_ERROR(ir.If(ir.Not(block), [&]() -> Status {
            RETURN_IF_ERROR(dot(cr, jv, jv));
            if (cplx) RETURN_IF_ERROR(dot(ci, jv, jv));
            ASSIGN_OR_RETURN(Value * tjj, T_.Get(jv, jv));
            if (!cplx) {
              Value* csr = ir.Sub(tjj, wr);
              csr = ir.Sel(ir.Lt(ir.Abs(csr), smin), smin, csr);
              ASSIGN_OR_RETURN(Value * xj, X_.Get(jv, cr));
              return X_.Set(jv, cr, ir.Div(xj, csr));
            }
            Value* csr = ir.Sub(tjj, wr);
            Value* csi = wi;
            Value* small = ir.Lt(ir.Add(ir.Abs(csr), ir.Abs(csi)), smin);
            csr = ir.Sel(small, smin, csr);
            csi = ir.Sel(small, ir.F(0), csi);
            ASSIGN_OR_RETURN(Value * xr, X_.Get(jv, cr));
            ASSIGN_OR_RETURN(Value * xi, X_.Get(jv, ci));
            auto [qr, qi] = Smith(ir, xr, xi, csr, csi);
            RETURN_IF_ERROR(X_.Set(jv, cr, qr));
            return X_.Set(jv, ci, qi);
          }));
          RETURN_IF_ERROR(ir.If(block, [&]() -> Status {
            RETURN_IF_ERROR(dot(cr, jv, jv));
            RETURN_IF_ERROR(dot(cr, jp1, jv));
            if (cplx) {
              RETURN_IF_ERROR(dot(ci, jv, jv));
              RETURN_IF_ERROR(dot(ci, jp1, jv));
            }
            ASSIGN_OR_RETURN(Value * b1r, X_.Get(jv, cr));
            ASSIGN_OR_RETURN(Value * b2r, X_.Get(jp1, cr));
            Value* b1i = ir.F(0);
            Value* b2i = ir.F(0);
            if (cplx) {
              ASSIGN_OR_RETURN(b1i, X_.Get(jv, ci));
              ASSIGN_OR_RETURN(b2i, X_.Get(jp1, ci));
            }
            RETURN_IF_ERROR(Solve2(true, wr, cplx ? ir.Neg(wi) : ir.F(0), cplx, jv, b1r, b1i, b2r, b2i, smin, x1r, x1i, x2r, x2i));
            RETURN_IF_ERROR(X_.Set(jv, cr, x1r.Get()));
            RETURN_IF_ERROR(X_.Set(jp1, cr, x2r.Get()));
            if (cplx) {
              RETURN_IF_ERROR(X_.Set(jv, ci, x1i.Get()));
              RETURN_IF_ERROR(X_.Set(jp1, ci, x2i.Get()));
            }
            return Status::Ok();
          }));
          j.Set(b_.CreateAdd(jv, b_.CreateSelect(block, I(2), I(1))));
          return Status::Ok();
        });
      }));
    }
    ki.Set(b_.CreateAdd(k, b_.CreateSelect(pair, I(2), I(1))));
    return Status::Ok();
  });
}

Status GeevEmitter::BackTransform(const Mat& v, bool right) {
  const Ir& ir = ir_;
  llvm::Type* i64 = b_.getInt64Ty();
  Var s(b_, i64, "bt_s"), s0(b_, ir.f64(), "bt_s0"), s1(b_, ir.f64(), "bt_s1");
  s.Set(I(0));
  return ir.While([&] { return b_.CreateICmpSLT(s.Get(), N()); }, [&]() -> Status {
    Value* sv = s.Get();
    Value* ki = right ? b_.CreateSub(I(n_ - 1), sv) : sv;
    Var pairv(b_, b_.getInt1Ty(), "bt_pair");
    pairv.Set(b_.getFalse());
    Value* has = right ? b_.CreateICmpSGT(ki, I(0)) : b_.CreateICmpSLT(b_.CreateAdd(ki, I(1)), N());
    RETURN_IF_ERROR(ir.If(has, [&]() -> Status {
      ASSIGN_OR_RETURN(Value * sub, right ? T_.Get(ki, b_.CreateSub(ki, I(1))) : T_.Get(b_.CreateAdd(ki, I(1)), ki));
      pairv.Set(ir.Ne(sub, ir.F(0)));
      return Status::Ok();
    }));
    Value* pair = pairv.Get();
    Value* c0 = right ? b_.CreateSelect(pair, b_.CreateSub(ki, I(1)), ki) : ki;
    Value* c1 = b_.CreateSelect(pair, b_.CreateAdd(c0, I(1)), c0);
    Value* from = right ? I(0) : c0;
    Value* to = right ? c1 : I(n_ - 1);
    RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
      s0.Set(ir.F(0)), s1.Set(ir.F(0));
      RETURN_IF_ERROR(ir.Up(from, b_.CreateAdd(to, I(1)), [&](Value* q) -> Status {
        ASSIGN_OR_RETURN(Value * x, v.Get(r, q));
        ASSIGN_OR_RETURN(Value * a, X_.Get(q, c0));
        s0.Set(ir.Add(s0.Get(), ir.Mul(x, a)));
        return ir.If(pair, [&]() -> Status {
          ASSIGN_OR_RETURN(Value * bq, X_.Get(q, c1));
          s1.Set(ir.Add(s1.Get(), ir.Mul(x, bq)));
          return Status::Ok();
        });
      }));
      RETURN_IF_ERROR(v.Set(r, c0, s0.Get()));
      return ir.If(pair, [&] { return v.Set(r, c1, s1.Get()); });
    }));
    s.Set(b_.CreateAdd(sv, b_.CreateSelect(pair, I(2), I(1))));
    return Status::Ok();
  });
}

Status GeevEmitter::Unbalance(const Mat& v, bool right) {
  const Ir& ir = ir_;
  Value* ilo = ilo_.Get();
  Value* ihi = ihi_.Get();
  RETURN_IF_ERROR(ir.If(b_.CreateICmpNE(ilo, ihi), [&]() -> Status {
    return ir.Up(ilo, b_.CreateAdd(ihi, I(1)), [&](Value* i) -> Status {
      Value* s = right ? scale_.Get(i) : ir.Div(ir.F(1), scale_.Get(i));
      return ir.Up(I(0), N(), [&](Value* c) -> Status {
        ASSIGN_OR_RETURN(Value * x, v.Get(i, c));
        return v.Set(i, c, ir.Mul(x, s));
      });
    });
  }));
  return ir.Up(I(0), N(), [&](Value* ii) -> Status {
    Value* inside = b_.CreateAnd(b_.CreateICmpSGE(ii, ilo), b_.CreateICmpSLE(ii, ihi));
    return ir.If(b_.CreateNot(inside), [&]() -> Status {
      Value* i = b_.CreateSelect(b_.CreateICmpSLT(ii, ilo), b_.CreateSub(b_.CreateSub(ilo, I(1)), ii), ii);
      Value* k = b_.CreateFPToSI(scale_.Get(i), b_.getInt64Ty());
      return ir.If(b_.CreateICmpNE(k, i), [&]() -> Status {
        return ir.Up(I(0), N(), [&](Value* c) { return Swap(v, i, c, k, c); });
      });
    });
  });
}

Status GeevEmitter::Normalize(const Mat& v) {
  const Ir& ir = ir_;
  Var acc(b_, ir.f64(), "nm_acc"), best(b_, ir.f64(), "nm_best"), kk(b_, b_.getInt64Ty(), "nm_k");
  auto norm = [&](Value* j) -> StatusOr<Value*> {
    acc.Set(ir.F(0));
    RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Value * x, v.Get(r, j));
      acc.Set(ir.Add(acc.Get(), ir.Mul(x, x)));
      return Status::Ok();
    }));
    return ir.Sqrt(acc.Get());
  };
  return ir.Up(I(0), N(), [&](Value* i) -> Status {
    Value* w = wi_.Get(i);
    Value* i1 = b_.CreateAdd(i, I(1));
    RETURN_IF_ERROR(ir.If(ir.Eq(w, ir.F(0)), [&]() -> Status {
      ASSIGN_OR_RETURN(Value * nr, norm(i));
      Value* scl = ir.Div(ir.F(1), nr);
      return ir.Up(I(0), N(), [&](Value* r) -> Status {
        ASSIGN_OR_RETURN(Value * x, v.Get(r, i));
        return v.Set(r, i, ir.Mul(x, scl));
      });
    }));
    return ir.If(ir.And(ir.Gt(w, ir.F(0)), b_.CreateICmpSLT(i1, N())), [&]() -> Status {
      ASSIGN_OR_RETURN(Value * n1, norm(i));
      ASSIGN_OR_RETURN(Value * n2, norm(i1));
      Value* scl = ir.Div(ir.F(1), ir.Sqrt(ir.Add(ir.Mul(n1, n1), ir.Mul(n2, n2))));
      RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
        ASSIGN_OR_RETURN(Value * x, v.Get(r, i));
        RETURN_IF_ERROR(v.Set(r, i, ir.Mul(x, scl)));
        ASSIGN_OR_RETURN(Value * y, v.Get(r, i1));
        return v.Set(r, i1, ir.Mul(y, scl));
      }));
      best.Set(ir.F(-1)), kk.Set(I(0));
      RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
        ASSIGN_OR_RETURN(Value * x, v.Get(r, i));
        ASSIGN_OR_RETURN(Value * y, v.Get(r, i1));
        Value* m = ir.Add(ir.Mul(x, x), ir.Mul(y, y));
        Value* better = ir.Gt(m, best.Get());
        best.Set(ir.Sel(better, m, best.Get()));
        kk.Set(b_.CreateSelect(better, r, kk.Get()));
        return Status::Ok();
      }));
      Value* k = kk.Get();
      ASSIGN_OR_RETURN(Value * f, v.Get(k, i));
      ASSIGN_OR_RETURN(Value * g, v.Get(k, i1));
      Value* g0 = ir.Eq(g, ir.F(0));
      Value* f0 = ir.And(ir.Not(g0), ir.Eq(f, ir.F(0)));
      Value* d = ir.Sqrt(ir.Add(ir.Mul(f, f), ir.Mul(g, g)));
      Value* cs = ir.Sel(g0, ir.F(1), ir.Sel(f0, ir.F(0), ir.Div(ir.Abs(f), d)));
      Value* sn = ir.Sel(g0, ir.F(0), ir.Sel(f0, ir.Copysign(ir.F(1), g), ir.Div(g, ir.Copysign(d, f))));
      RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
        ASSIGN_OR_RETURN(Value * x, v.Get(r, i));
        ASSIGN_OR_RETURN(Value * y, v.Get(r, i1));
        RETURN_IF_ERROR(v.Set(r, i, ir.Add(ir.Mul(cs, x), ir.Mul(sn, y))));
        return v.Set(r, i1, ir.Sub(ir.Mul(cs, y), ir.Mul(sn, x)));
      }));
      return v.Set(k, i1, ir.F(0));
    });
  });
}

}  // namespace hloscope::codegen::geev
