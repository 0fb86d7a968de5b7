// JAX's nonsymmetric eigendecomposition of complex matrices as a kernel
// (`lapack_{c,z}geev_ffi`; custom_calls.h, ComplexGeevShapes): one thread
// per matrix, LAPACK's zgeev step by step as the interpreter computes it
// (core/eval/eval_nonsymmetric_eigen_complex.cc). The Schur form lives in the
// eigenvector output not asked for, Q (then the eigenvectors, in place) in
// the one asked for; the balancing's scales, tau, the eigenvalues, the
// shifted diagonal and one eigenvector of T at a time in the thread's own
// memory. A call that asks for both left and right eigenvectors is refused
// (it would need a third matrix). The Schur step is in
// geev_complex_schur_emitter.cc.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/geev_complex_emitter_internal.h"
#include "core/codegen/geev_ir.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/matrix_kernel.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {
namespace {

constexpr int64_t kComplexGeevMaxOrder = 512;

}  // namespace

namespace zgeev {

Status ZGeevEmitter::Balance() {
  const Ir& ir = ir_;
  const Cplx& c = c_;
  llvm::Type* i64 = b_.getInt64Ty();
  Var k(b_, i64, "bal_k"), l(b_, i64, "bal_l"), again(b_, b_.getInt1Ty(), "bal_again"), done(b_, b_.getInt1Ty(), "bal_done");
  Var isolated(b_, b_.getInt1Ty(), "bal_isolated"), it(b_, i64, "bal_it");
  k.Set(I(0));
  l.Set(I(n_ - 1));
  done.Set(b_.getFalse());
  auto swap = [&](Value* a, Value* cc, Value* rows_to, Value* cols_from) -> Status {
    RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(rows_to, I(1)), [&](Value* r) { return Swap(T_, r, a, r, cc); }));
    return ir.Up(cols_from, N(), [&](Value* q) { return Swap(T_, a, q, cc, q); });
  };
  again.Set(b_.getTrue());
  RETURN_IF_ERROR(ir.While([&] { return ir.And(again.Get(), b_.CreateICmpSGE(l.Get(), I(0))); }, [&]() -> Status {
    again.Set(b_.getFalse());
    it.Set(l.Get());
    return ir.While([&] { return ir.And(b_.CreateICmpSGE(it.Get(), I(0)), ir.Not(again.Get())); }, [&]() -> Status {
      Value* i = it.Get();
      isolated.Set(b_.getTrue());
      RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(l.Get(), I(1)), [&](Value* j) -> Status {
        ASSIGN_OR_RETURN(Cx v, T_.Get(i, j));
        isolated.Set(ir.And(isolated.Get(), ir.Or(b_.CreateICmpEQ(j, i), c.IsZero(v))));
        return Status::Ok();
      }));
      RETURN_IF_ERROR(ir.If(isolated.Get(), [&]() -> Status {
        Value* lv = l.Get();
        scale_.Set(lv, b_.CreateSIToFP(i, ir.f64()));
        RETURN_IF_ERROR(ir.If(b_.CreateICmpNE(i, lv), [&] { return swap(i, lv, lv, k.Get()); }));
        RETURN_IF_ERROR(ir.If(b_.CreateICmpEQ(lv, I(0)), [&]() -> Status {
          ilo_.Set(I(0)), ihi_.Set(I(0)), done.Set(b_.getTrue());
          return Status::Ok();
        }));
        l.Set(b_.CreateSub(lv, I(1)));
        again.Set(b_.getTrue());
        return Status::Ok();
      }));
      it.Set(b_.CreateSub(i, I(1)));
      return Status::Ok();
    });
  }));
  return ir.If(ir.Not(done.Get()), [&]() -> Status {
    again.Set(b_.getTrue());
    RETURN_IF_ERROR(ir.While([&] { return again.Get(); }, [&]() -> Status {
      again.Set(b_.getFalse());
      it.Set(k.Get());
      return ir.While([&] { return ir.And(b_.CreateICmpSLE(it.Get(), l.Get()), ir.Not(again.Get())); }, [&]() -> Status {
        Value* j = it.Get();
        isolated.Set(b_.getTrue());
        RETURN_IF_ERROR(ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* i) -> Status {
          ASSIGN_OR_RETURN(Cx v, T_.Get(i, j));
          isolated.Set(ir.And(isolated.Get(), ir.Or(b_.CreateICmpEQ(i, j), c.IsZero(v))));
          return Status::Ok();
        }));
        RETURN_IF_ERROR(ir.If(isolated.Get(), [&]() -> Status {
          Value* kv = k.Get();
          scale_.Set(kv, b_.CreateSIToFP(j, ir.f64()));
          RETURN_IF_ERROR(ir.If(b_.CreateICmpNE(j, kv), [&] { return swap(j, kv, l.Get(), kv); }));
          k.Set(b_.CreateAdd(kv, I(1)));
          again.Set(b_.getTrue());
          return Status::Ok();
        }));
        it.Set(b_.CreateAdd(j, I(1)));
        return Status::Ok();
      });
    }));
    RETURN_IF_ERROR(ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* i) {
      scale_.Set(i, ir.F(1));
      return Status::Ok();
    }));
    Var sweep(b_, i64, "bal_sweep"), noconv(b_, b_.getInt1Ty(), "bal_noconv"), steps(b_, i64, "bal_steps");
    Var cn(b_, ir.f64(), "bal_c"), rn(b_, ir.f64(), "bal_r"), ca(b_, ir.f64(), "bal_ca"), ra(b_, ir.f64(), "bal_ra");
    Var cb(b_, ir.f64(), "bal_cb"), rb(b_, ir.f64(), "bal_rb"), g(b_, ir.f64(), "bal_g"), f(b_, ir.f64(), "bal_f");
    sweep.Set(I(0));
    noconv.Set(b_.getTrue());
    RETURN_IF_ERROR(ir.While([&] { return ir.And(noconv.Get(), b_.CreateICmpSLT(sweep.Get(), I(kGeevBalanceSweeps))); }, [&]() -> Status {
      noconv.Set(b_.getFalse());
      sweep.Set(b_.CreateAdd(sweep.Get(), I(1)));
      return ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* i) -> Status {
        cn.Set(ir.F(0)), rn.Set(ir.F(0)), ca.Set(ir.F(0)), ra.Set(ir.F(0)), cb.Set(ir.F(-1)), rb.Set(ir.F(-1));
        RETURN_IF_ERROR(ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Cx v, T_.Get(q, i));
          cn.Set(ir.Add(cn.Get(), c.Norm2(v)));
          ASSIGN_OR_RETURN(Cx w, T_.Get(i, q));
          rn.Set(ir.Add(rn.Get(), c.Norm2(w)));
          return Status::Ok();
        }));
        RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(l.Get(), I(1)), [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Cx v, T_.Get(q, i));
          Value* better = ir.Gt(c.Cabs1(v), cb.Get());
          cb.Set(ir.Sel(better, c.Cabs1(v), cb.Get()));
          ca.Set(ir.Sel(better, c.Abs(v), ca.Get()));
          return Status::Ok();
        }));
        RETURN_IF_ERROR(ir.Up(k.Get(), N(), [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Cx v, T_.Get(i, q));
          Value* better = ir.Gt(c.Cabs1(v), rb.Get());
          rb.Set(ir.Sel(better, c.Cabs1(v), rb.Get()));
          ra.Set(ir.Sel(better, c.Abs(v), ra.Get()));
          return Status::Ok();
        }));
        return BalanceRowAndColumn(ir, cn, rn, ca, ra, g, f, steps, scale_, i, noconv, [&](Value* fv, Value* inv) -> Status {
          RETURN_IF_ERROR(ir.Up(k.Get(), N(), [&](Value* q) { return Update(T_, i, q, [&](Cx v) { return c.Scale(inv, v); }); }));
          return ir.Up(I(0), b_.CreateAdd(l.Get(), I(1)), [&](Value* q) { return Update(T_, q, i, [&](Cx v) { return c.Scale(fv, v); }); });
        });
      });
    }));
    ilo_.Set(k.Get());
    ihi_.Set(l.Get());
    return Status::Ok();
  });
}

Status ZGeevEmitter::Hessenberg() {
  const Ir& ir = ir_;
  const Cplx& c = c_;
  Var norm2(b_, ir.f64(), "hd_norm2");
  CVar t(b_, "hd_t"), acc(b_, "hd_acc"), beta(b_, "hd_beta");
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) {
    tau_.Set(i, c.Re(ir.F(0)));
    return Status::Ok();
  }));
  Value* ihi = ihi_.Get();
  Value* top = b_.CreateAdd(ihi, I(1));
  return ir.Up(ilo_.Get(), ihi, [&](Value* i) -> Status {
    Value* i1 = b_.CreateAdd(i, I(1));
    ASSIGN_OR_RETURN(Cx alpha, T_.Get(i1, i));
    norm2.Set(ir.F(0));
    RETURN_IF_ERROR(ir.Up(b_.CreateAdd(i, I(2)), top, [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Cx v, T_.Get(r, i));
      norm2.Set(ir.Add(norm2.Get(), c.Norm2(v)));
      return Status::Ok();
    }));
    t.Set(c.Re(ir.F(0)));
    RETURN_IF_ERROR(ir.If(ir.Or(ir.Ne(norm2.Get(), ir.F(0)), ir.Ne(alpha.im, ir.F(0))), [&]() -> Status {
      Value* abs2 = ir.Add(ir.Mul(alpha.re, alpha.re), ir.Mul(alpha.im, alpha.im));
      Value* bt = ir.Neg(ir.Copysign(ir.Sqrt(ir.Add(abs2, norm2.Get())), alpha.re));
      t.Set({ir.Div(ir.Sub(bt, alpha.re), bt), ir.Div(ir.Neg(alpha.im), bt)});
      const Cx sc = c.Div(c.Re(ir.F(1)), {ir.Sub(alpha.re, bt), alpha.im});
      RETURN_IF_ERROR(ir.Up(b_.CreateAdd(i, I(2)), top, [&](Value* r) { return Update(T_, r, i, [&](Cx v) { return c.Mul(v, sc); }); }));
      return T_.Set(i1, i, c.Re(bt));
    }));
    const Cx tv = t.Get();
    tau_.Set(i, c.R(tv));
    return ir.If(ir.Not(c.IsZero(tv)), [&]() -> Status {
      ASSIGN_OR_RETURN(Cx bv, T_.Get(i1, i));
      beta.Set(bv);
      RETURN_IF_ERROR(T_.Set(i1, i, c.Re(ir.F(1))));
      RETURN_IF_ERROR(ir.Up(I(0), top, [&](Value* r) -> Status {
        acc.Set(c.Re(ir.F(0)));
        RETURN_IF_ERROR(ir.Up(i1, top, [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Cx x, T_.Get(r, q));
          ASSIGN_OR_RETURN(Cx v, T_.Get(q, i));
          acc.Set(c.Add(acc.Get(), c.Mul(x, v)));
          return Status::Ok();
        }));
        const Cx tw = c.Mul(tv, acc.Get());
        return ir.Up(i1, top, [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Cx v, T_.Get(q, i));
          return Update(T_, r, q, [&](Cx x) { return c.Sub(x, c.Mul(tw, c.Conj(v))); });
        });
      }));
      const Cx ct = c.Conj(tv);
      RETURN_IF_ERROR(ir.Up(i1, N(), [&](Value* q) -> Status {
        acc.Set(c.Re(ir.F(0)));
        RETURN_IF_ERROR(ir.Up(i1, top, [&](Value* r) -> Status {
          ASSIGN_OR_RETURN(Cx x, T_.Get(r, q));
          ASSIGN_OR_RETURN(Cx v, T_.Get(r, i));
          acc.Set(c.Add(acc.Get(), c.Mul(c.Conj(x), v)));
          return Status::Ok();
        }));
        const Cx cs = c.Mul(ct, c.Conj(acc.Get()));
        return ir.Up(i1, top, [&](Value* r) -> Status {
          ASSIGN_OR_RETURN(Cx v, T_.Get(r, i));
          return Update(T_, r, q, [&](Cx x) { return c.Sub(x, c.Mul(v, cs)); });
        });
      }));
      return T_.Set(i1, i, beta.Get());
    });
  });
}

Status ZGeevEmitter::FormQ() {
  const Ir& ir = ir_;
  const Cplx& c = c_;
  CVar w(b_, "q_w");
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) {
    return ir.Up(I(0), N(), [&](Value* j) { return Z_.Set(i, j, c.Re(ir.Sel(b_.CreateICmpEQ(i, j), ir.F(1), ir.F(0)))); });
  }));
  Value* ilo = ilo_.Get();
  Value* ihi = ihi_.Get();
  Value* top = b_.CreateAdd(ihi, I(1));
  RETURN_IF_ERROR(ir.Up(b_.CreateAdd(ilo, I(1)), top, [&](Value* j) {
    return ir.Up(b_.CreateAdd(j, I(1)), top, [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Cx v, T_.Get(r, b_.CreateSub(j, I(1))));
      return Z_.Set(r, j, v);
    });
  }));
  RETURN_IF_ERROR(ir.Down(b_.CreateSub(ihi, I(1)), ilo, [&](Value* i) -> Status {
    Value* c0 = b_.CreateAdd(i, I(1));
    const Cx t = tau_.Get(i);
    RETURN_IF_ERROR(ir.If(b_.CreateICmpSLT(c0, ihi), [&]() -> Status {
      RETURN_IF_ERROR(Z_.Set(c0, c0, c.Re(ir.F(1))));
      return ir.If(ir.Not(c.IsZero(t)), [&]() -> Status {
        return ir.Up(b_.CreateAdd(c0, I(1)), top, [&](Value* j) -> Status {
          w.Set(c.Re(ir.F(0)));
          RETURN_IF_ERROR(ir.Up(c0, top, [&](Value* r) -> Status {
            ASSIGN_OR_RETURN(Cx v, Z_.Get(r, c0));
            ASSIGN_OR_RETURN(Cx x, Z_.Get(r, j));
            w.Set(c.Add(w.Get(), c.Mul(c.Conj(v), x)));
            return Status::Ok();
          }));
          const Cx tw = c.Mul(t, w.Get());
          return ir.Up(c0, top, [&](Value* r) -> Status {
            ASSIGN_OR_RETURN(Cx v, Z_.Get(r, c0));
            return Update(Z_, r, j, [&](Cx x) { return c.Sub(x, c.Mul(v, tw)); });
          });
        });
      });
    }));
    RETURN_IF_ERROR(ir.Up(b_.CreateAdd(c0, I(1)), top, [&](Value* r) { return Update(Z_, r, c0, [&](Cx v) { return c.Mul(v, c.Neg(t)); }); }));
    RETURN_IF_ERROR(Z_.Set(c0, c0, c.R(c.Sub(c.Re(ir.F(1)), t))));
    return ir.Up(b_.CreateAdd(ilo, I(1)), c0, [&](Value* r) { return Z_.Set(r, c0, c.Re(ir.F(0))); });
  }));
  return ir.Up(I(0), N(), [&](Value* i) {
    return ir.Up(I(0), b_.CreateSub(i, I(1)), [&](Value* j) { return T_.Set(i, j, c.Re(ir.F(0))); });
  });
}

Status ZGeevEmitter::Vectors(bool right) {
  const Ir& ir = ir_;
  const Cplx& c = c_;
  Value* smlnum = ir.F(ir.p.safmin * (static_cast<double>(n_) / ir.p.ulp));
  CVar acc(b_, "ev_acc");
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) -> Status {
    ASSIGN_OR_RETURN(Cx v, T_.Get(i, i));
    diag_.Set(i, v);
    return Status::Ok();
  }));
  return ir.Up(I(0), N(), [&](Value* s) -> Status {
    Value* ki = right ? b_.CreateSub(I(n_ - 1), s) : s;
    ASSIGN_OR_RETURN(Cx lambda, T_.Get(ki, ki));
    Value* smin = ir.Max(ir.Mul(ir.F(ir.p.ulp), c.Cabs1(lambda)), smlnum);
    Value* lo = right ? I(0) : b_.CreateAdd(ki, I(1));
    Value* hi1 = right ? ki : N();  // [lo, hi1)
    RETURN_IF_ERROR(ir.Up(lo, hi1, [&](Value* k) -> Status {
      const Cx d = c.Sub(diag_.Get(k), lambda);
      const Cx dd = c.Sel(ir.Lt(c.Cabs1(d), smin), c.Re(smin), d);
      return T_.Set(k, k, c.R(dd));
    }));
    if (right) {
      RETURN_IF_ERROR(ir.Up(I(0), ki, [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(Cx v, T_.Get(k, ki));
        x_.Set(k, c.R(c.Neg(v)));
        return Status::Ok();
      }));
      RETURN_IF_ERROR(ir.Down(b_.CreateSub(ki, I(1)), I(0), [&](Value* j) -> Status {
        ASSIGN_OR_RETURN(Cx tjj, T_.Get(j, j));
        x_.Set(j, c.R(c.Div(x_.Get(j), tjj)));
        const Cx xj = x_.Get(j);
        return ir.Up(I(0), j, [&](Value* k) -> Status {
          ASSIGN_OR_RETURN(Cx tkj, T_.Get(k, j));
          x_.Set(k, c.R(c.Sub(x_.Get(k), c.Mul(xj, tkj))));
          return Status::Ok();
        });
      }));
      RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
        acc.Set(c.Re(ir.F(0)));
        RETURN_IF_ERROR(ir.Up(I(0), ki, [&](Value* k) -> Status {
          ASSIGN_OR_RETURN(Cx v, Z_.Get(r, k));
          acc.Set(c.Add(acc.Get(), c.Mul(v, x_.Get(k))));
          return Status::Ok();
        }));
        ASSIGN_OR_RETURN(Cx own, Z_.Get(r, ki));
        return Z_.Set(r, ki, c.R(c.Add(acc.Get(), own)));
      }));
    } else {
      Value* k1 = b_.CreateAdd(ki, I(1));
      RETURN_IF_ERROR(ir.Up(k1, N(), [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(Cx v, T_.Get(ki, k));
        x_.Set(k, c.R(c.Neg(c.Conj(v))));
        return Status::Ok();
      }));
      RETURN_IF_ERROR(ir.Up(k1, N(), [&](Value* j) -> Status {
        acc.Set(c.Re(ir.F(0)));
        RETURN_IF_ERROR(ir.Up(k1, j, [&](Value* k) -> Status {
          ASSIGN_OR_RETURN(Cx tkj, T_.Get(k, j));
          acc.Set(c.Add(acc.Get(), c.Mul(c.Conj(tkj), x_.Get(k))));
          return Status::Ok();
        }));
        ASSIGN_OR_RETURN(Cx tjj, T_.Get(j, j));
        x_.Set(j, c.R(c.Div(c.Sub(x_.Get(j), acc.Get()), c.Conj(tjj))));
        return Status::Ok();
      }));
      RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
        acc.Set(c.Re(ir.F(0)));
        RETURN_IF_ERROR(ir.Up(k1, N(), [&](Value* k) -> Status {
          ASSIGN_OR_RETURN(Cx v, Z_.Get(r, k));
          acc.Set(c.Add(acc.Get(), c.Mul(v, x_.Get(k))));
          return Status::Ok();
        }));
        ASSIGN_OR_RETURN(Cx own, Z_.Get(r, ki));
        return Z_.Set(r, ki, c.R(c.Add(acc.Get(), own)));
      }));
    }
    return ir.Up(lo, hi1, [&](Value* k) { return T_.Set(k, k, diag_.Get(k)); });
  });
}

Status ZGeevEmitter::Finish(bool right) {
  const Ir& ir = ir_;
  const Cplx& c = c_;
  Value* ilo = ilo_.Get();
  Value* ihi = ihi_.Get();
  RETURN_IF_ERROR(ir.If(b_.CreateICmpNE(ilo, ihi), [&]() -> Status {
    return ir.Up(ilo, b_.CreateAdd(ihi, I(1)), [&](Value* i) -> Status {
      Value* s = right ? scale_.Get(i) : ir.Div(ir.F(1), scale_.Get(i));
      return ir.Up(I(0), N(), [&](Value* q) { return Update(Z_, i, q, [&](Cx v) { return c.Scale(s, v); }); });
    });
  }));
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* ii) -> Status {
    Value* inside = b_.CreateAnd(b_.CreateICmpSGE(ii, ilo), b_.CreateICmpSLE(ii, ihi));
    return ir.If(b_.CreateNot(inside), [&]() -> Status {
      Value* i = b_.CreateSelect(b_.CreateICmpSLT(ii, ilo), b_.CreateSub(b_.CreateSub(ilo, I(1)), ii), ii);
      Value* k = b_.CreateFPToSI(scale_.Get(i), b_.getInt64Ty());
      return ir.If(b_.CreateICmpNE(k, i), [&]() { return ir.Up(I(0), N(), [&](Value* q) { return Swap(Z_, i, q, k, q); }); });
    });
  }));
  Var acc(b_, ir.f64(), "nm_acc"), best(b_, ir.f64(), "nm_best"), kk(b_, b_.getInt64Ty(), "nm_k");
  return ir.Up(I(0), N(), [&](Value* j) -> Status {
    acc.Set(ir.F(0));
    RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Cx v, Z_.Get(r, j));
      acc.Set(ir.Add(acc.Get(), c.Norm2(v)));
      return Status::Ok();
    }));
    Value* scl = ir.Div(ir.F(1), ir.Sqrt(acc.Get()));
    RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) { return Update(Z_, r, j, [&](Cx v) { return c.Scale(scl, v); }); }));
    best.Set(ir.F(-1)), kk.Set(I(0));
    RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Cx v, Z_.Get(r, j));
      Value* m = c.Norm2(v);
      Value* better = ir.Gt(m, best.Get());
      best.Set(ir.Sel(better, m, best.Get()));
      kk.Set(b_.CreateSelect(better, r, kk.Get()));
      return Status::Ok();
    }));
    Value* k = kk.Get();
    ASSIGN_OR_RETURN(Cx vk, Z_.Get(k, j));
    const Cx tmp = c.Div(c.Conj(vk), c.Re(ir.Sqrt(best.Get())));
    RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* r) { return Update(Z_, r, j, [&](Cx v) { return c.Mul(tmp, v); }); }));
    ASSIGN_OR_RETURN(Cx v2, Z_.Get(k, j));
    return Z_.Set(k, j, c.Re(v2.re));
  });
}

}  // namespace zgeev

using zgeev::Cplx;
using zgeev::Cx;
using zgeev::CMat;
using zgeev::CVec;
using zgeev::ZGeevEmitter;
using zgeev::Ir;
using zgeev::Var;
using zgeev::Vec;
using llvm::Value;

StatusOr<EmittedKernel> EmitComplexGeevKernel(llvm::Module& m, const KernelSpec& spec) {
  std::vector<const Instruction*> roots = KernelRoots(*spec.instr);
  std::optional<LinalgCall> call;
  if (roots.size() == 1) call = LinalgCustomCall(*roots[0]);
  if (!call || call->kind != LinalgCall::Kind::kGeev)
    return Status::Error(spec.instr->name() + ": the complex geev emitter needs a geev call at the kernel root");
  const Instruction* ge = roots[0];
  auto fail = [&](const std::string& why) { return Status::Error("codegen: geev call %" + ge->name() + ": " + why); };
  std::string why;
  std::optional<GeevShape> s = ComplexGeevShapes(*ge, &why);
  if (!s) return fail(why);
  if (call->left && call->right)
    return fail("asks for left and right eigenvectors of complex matrices at once, which the one-thread-per-matrix "
                "kernel would need a third n×n matrix for; ask for them in two calls");
  if (s->n > kComplexGeevMaxOrder)
    return fail("keeps 11·n values in the kernel's memory; n = " + std::to_string(s->n) + " is over the " +
                std::to_string(kComplexGeevMaxOrder) + " its one-thread-per-matrix kernel allows");
  const Shape& in = ge->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, ge->name()));
  const int64_t n = s->n;

  ThreadPerItemKernel frame(m, spec, "geev", s->batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& kernel = frame.kernel;
  const Ir ir{b, t == PrimitiveType::kC64, GeevParams(t == PrimitiveType::kC64)};
  const Cplx c{ir};
  Vec scale(b, n, "scale");
  CVec tau(b, n, "tau"), w(b, n, "w"), x(b, n, "x"), diag(b, n, "diag");
  const bool vectors = call->left || call->right;
  const bool lapack = s->lapack;
  const int o = lapack ? out : out + 1;  // w, vl, vr, info (cuSOLVER's T comes first)
  RETURN_IF_ERROR(GridStrideLoop(b, s->batches, [&](Value* batch) -> Status {
    // Q (then the eigenvectors) in the output asked for (vr for cuSOLVER);
    // T in the other (cuSOLVER's first result).
    const int zarg = call->left ? o + 1 : o + 2;
    const int targ = !lapack ? out : call->left ? o + 2 : o + 1;
    OutputMatrix zm(b, ee, zarg, t, in, batch), tm(b, ee, targ, t, in, batch);
    const CMat T{&tm}, Z{&zm};
    RETURN_IF_ERROR(ir.Up(ir.I(0), ir.I(n), [&](Value* i) {
      return ir.Up(ir.I(0), ir.I(n), [&](Value* j) -> Status {
        ee.ClearCache();
        ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, ge, 0, tm.At(i, j)));
        ee.ClearCache();
        ASSIGN_OR_RETURN(Cx p, ElementToParts(b, t, v));
        return T.Set(i, j, p);
      });
    }));
    ZGeevEmitter g(ir, n, T, Z, scale, tau, w, x, diag);
    RETURN_IF_ERROR(g.Balance());
    RETURN_IF_ERROR(g.Hessenberg());
    RETURN_IF_ERROR(g.FormQ());
    RETURN_IF_ERROR(g.Schur());
    Value* ok = b.CreateICmpEQ(g.info().Get(), ir.I(0));
    if (vectors)
      RETURN_IF_ERROR(ir.If(ok, [&]() -> Status {
        RETURN_IF_ERROR(g.Vectors(call->right));
        return g.Finish(call->right);
      }));
    auto zero = [&](const CMat& mt) {
      return ir.Up(ir.I(0), ir.I(n), [&](Value* i) { return ir.Up(ir.I(0), ir.I(n), [&](Value* j) { return mt.Set(i, j, c.Re(ir.F(0))); }); });
    };
    // The output not asked for (T's storage; cuSOLVER's keeps T, and its vl is
    // zeros) and, without convergence or vectors, Q's: zeros.
    if (lapack) {
      RETURN_IF_ERROR(zero(T));
    } else {
      OutputMatrix lm(b, ee, o + 1, t, in, batch);
      RETURN_IF_ERROR(zero(CMat{&lm}));
    }
    if (!vectors) RETURN_IF_ERROR(zero(Z));
    else RETURN_IF_ERROR(ir.If(b.CreateNot(ok), [&] { return zero(Z); }));
    RETURN_IF_ERROR(ir.Up(ir.I(0), ir.I(n), [&](Value* i) -> Status {
      ASSIGN_OR_RETURN(Value * v, PartsToElement(b, t, w.Get(i)));
      ee.Store(o, zm.VectorAt(i), v);
      return Status::Ok();
    }));
    ASSIGN_OR_RETURN(Value * code, EmitConvert(b, g.info().Get(), PrimitiveType::kS64, ge->shape().tuple_shapes()[lapack ? 3 : 4].element_type()));
    ee.Store(o + 3, zm.BatchIndex(), code);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return kernel;
}

}  // namespace hloscope::codegen
