// JAX's nonsymmetric eigendecomposition of real matrices as a kernel
// (jnp.linalg.eig, eigvals: `lapack_{s,d}geev_ffi`, `cuhybrid_eig_real`,
// `cusolver_geev_ffi`; custom_calls.h): one thread per matrix, LAPACK's
// dgeev step by step as the interpreter computes it
// (core/eval/eval_nonsymmetric_eigen.cc) — balancing, Hessenberg reduction,
// Q, the Schur form by the double-shift QR algorithm, the eigenvectors of the
// Schur form taken back through Q and the balancing, the normalization. The
// matrices live in the call's outputs, stored in the element type as the
// interpreter stores them: for LAPACK's results, the Schur form in vr's
// imaginary parts and Q in its real parts, the eigenvectors of T in vl's
// imaginary parts and a copy of Q for the left ones in its real parts; for
// cuSOLVER's, T in a, Q in vr, the eigenvectors of T in vl. The balancing's
// scales, tau and the eigenvalues are kept in the thread's own memory. XLA GPU
// calls cuSOLVER (or LAPACK on the host) for this; the matrices JAX programs
// take eigenvalues of this way are small and batched.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/geev_emitter_internal.h"
#include "core/codegen/geev_ir.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/matrix_kernel.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {

using llvm::Value;
using geev::Fn;
using geev::Ir;
using geev::Smith;
using geev::Var;
using geev::Vec;
using geev::Mat;
using geev::GeevEmitter;

// (Standardize and Schur, the double-shift QR iteration, are in
// geev_schur_emitter.cc.)

// The most eigenvalues a kernel keeps in its own memory (4·n doubles).
constexpr int64_t kGeevMaxOrder = 1024;

namespace geev {

Status GeevEmitter::Balance(bool scaling) {
  const Ir& ir = ir_;
  llvm::Type* i64 = b_.getInt64Ty();
  Var k(b_, i64, "bal_k"), l(b_, i64, "bal_l"), again(b_, b_.getInt1Ty(), "bal_again"), done(b_, b_.getInt1Ty(), "bal_done");
  Var isolated(b_, b_.getInt1Ty(), "bal_isolated"), it(b_, i64, "bal_it");
  k.Set(I(0));
  l.Set(I(n_ - 1));
  done.Set(b_.getFalse());
  // Swaps columns a and b over rows 0..rows_to, rows a and b over columns cols_from..n-1.
  auto swap = [&](Value* a, Value* c, Value* rows_to, Value* cols_from) -> Status {
    RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(rows_to, I(1)), [&](Value* r) { return Swap(T_, r, a, r, c); }));
    return ir.Up(cols_from, N(), [&](Value* cc) { return Swap(T_, a, cc, c, cc); });
  };
  // Rows isolating an eigenvalue, pushed down.
  again.Set(b_.getTrue());
  RETURN_IF_ERROR(ir.While([&] { return ir.And(again.Get(), b_.CreateICmpSGE(l.Get(), I(0))); }, [&]() -> Status {
    again.Set(b_.getFalse());
    it.Set(l.Get());
    return ir.While([&] { return ir.And(b_.CreateICmpSGE(it.Get(), I(0)), ir.Not(again.Get())); }, [&]() -> Status {
      Value* i = it.Get();
      isolated.Set(b_.getTrue());
      RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(l.Get(), I(1)), [&](Value* j) -> Status {
        ASSIGN_OR_RETURN(Value * v, T_.Get(i, j));
        isolated.Set(ir.And(isolated.Get(), ir.Or(b_.CreateICmpEQ(j, i), ir.Eq(v, ir.F(0)))));
        return Status::Ok();
      }));
      RETURN_IF_ERROR(ir.If(isolated.Get(), [&]() -> Status {
        Value* lv = l.Get();
        scale_.Set(lv, b_.CreateSIToFP(i, ir.f64()));
        RETURN_IF_ERROR(ir.If(b_.CreateICmpNE(i, lv), [&] { return swap(i, lv, lv, k.Get()); }));
        RETURN_IF_ERROR(ir.If(b_.CreateICmpEQ(lv, I(0)), [&]() -> Status {
          ilo_.Set(I(0));
          ihi_.Set(I(0));
          done.Set(b_.getTrue());
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
  // A 1×1 matrix left (l went below 0): ilo = ihi = 0, nothing else to do.
  return ir.If(ir.Not(done.Get()), [&]() -> Status {
    again.Set(b_.getTrue());
    RETURN_IF_ERROR(ir.While([&] { return again.Get(); }, [&]() -> Status {
      again.Set(b_.getFalse());
      it.Set(k.Get());
      return ir.While([&] { return ir.And(b_.CreateICmpSLE(it.Get(), l.Get()), ir.Not(again.Get())); }, [&]() -> Status {
        Value* j = it.Get();
        isolated.Set(b_.getTrue());
        RETURN_IF_ERROR(ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* i) -> Status {
          ASSIGN_OR_RETURN(Value * v, T_.Get(i, j));
          isolated.Set(ir.And(isolated.Get(), ir.Or(b_.CreateICmpEQ(i, j), ir.Eq(v, ir.F(0)))));
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
    RETURN_IF_ERROR(ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* i) -> Status {
      scale_.Set(i, ir.F(1));
      return Status::Ok();
    }));
    ilo_.Set(k.Get());
    ihi_.Set(l.Get());
    if (!scaling) return Status::Ok();
    // Scaling by powers of 2.
    Var sweep(b_, i64, "bal_sweep"), noconv(b_, b_.getInt1Ty(), "bal_noconv");
    Var c(b_, ir.f64(), "bal_c"), r(b_, ir.f64(), "bal_r"), ca(b_, ir.f64(), "bal_ca"), ra(b_, ir.f64(), "bal_ra");
    Var g(b_, ir.f64(), "bal_g"), f(b_, ir.f64(), "bal_f"), steps(b_, i64, "bal_steps");
    sweep.Set(I(0));
    noconv.Set(b_.getTrue());
    RETURN_IF_ERROR(ir.While([&] { return ir.And(noconv.Get(), b_.CreateICmpSLT(sweep.Get(), I(kGeevBalanceSweeps))); }, [&]() -> Status {
      noconv.Set(b_.getFalse());
      sweep.Set(b_.CreateAdd(sweep.Get(), I(1)));
      return ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* i) -> Status {
        c.Set(ir.F(0)), r.Set(ir.F(0)), ca.Set(ir.F(0)), ra.Set(ir.F(0));
        RETURN_IF_ERROR(ir.Up(k.Get(), b_.CreateAdd(l.Get(), I(1)), [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Value * v, T_.Get(q, i));
          c.Set(ir.Add(c.Get(), ir.Mul(v, v)));
          ASSIGN_OR_RETURN(Value * w, T_.Get(i, q));
          r.Set(ir.Add(r.Get(), ir.Mul(w, w)));
          return Status::Ok();
        }));
        RETURN_IF_ERROR(ir.Up(I(0), b_.CreateAdd(l.Get(), I(1)), [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Value * v, T_.Get(q, i));
          ca.Set(ir.Max(ca.Get(), ir.Abs(v)));
          return Status::Ok();
        }));
        RETURN_IF_ERROR(ir.Up(k.Get(), N(), [&](Value* q) -> Status {
          ASSIGN_OR_RETURN(Value * v, T_.Get(i, q));
          ra.Set(ir.Max(ra.Get(), ir.Abs(v)));
          return Status::Ok();
        }));
        return BalanceRowAndColumn(ir, c, r, ca, ra, g, f, steps, scale_, i, noconv, [&](Value* fv, Value* inv) -> Status {
          RETURN_IF_ERROR(ir.Up(k.Get(), N(), [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * v, T_.Get(i, q));
            return T_.Set(i, q, ir.Mul(v, inv));
          }));
          return ir.Up(I(0), b_.CreateAdd(l.Get(), I(1)), [&](Value* q) -> Status {
            ASSIGN_OR_RETURN(Value * v, T_.Get(q, i));
            return T_.Set(q, i, ir.Mul(v, fv));
          });
        });
      });
    }));
    ilo_.Set(k.Get());
    ihi_.Set(l.Get());
    return Status::Ok();
  });
}

Status GeevEmitter::Hessenberg() {
  const Ir& ir = ir_;
  Var norm2(b_, ir.f64(), "hd_norm2"), t(b_, ir.f64(), "hd_t"), acc(b_, ir.f64(), "hd_acc"), beta(b_, ir.f64(), "hd_beta");
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) {
    tau_.Set(i, ir.F(0));
    return Status::Ok();
  }));
  Value* ihi = ihi_.Get();
  return ir.Up(ilo_.Get(), ihi, [&](Value* i) -> Status {
    Value* i1 = b_.CreateAdd(i, I(1));
    Value* top = b_.CreateAdd(ihi, I(1));
    norm2.Set(ir.F(0));
    RETURN_IF_ERROR(ir.Up(b_.CreateAdd(i, I(2)), top, [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Value * v, T_.Get(r, i));
      norm2.Set(ir.Add(norm2.Get(), ir.Mul(v, v)));
      return Status::Ok();
    }));
    ASSIGN_OR_RETURN(Value * alpha, T_.Get(i1, i));
    t.Set(ir.F(0));
    RETURN_IF_ERROR(ir.If(ir.Ne(norm2.Get(), ir.F(0)), [&]() -> Status {
      Value* bt = ir.Neg(ir.Copysign(ir.Sqrt(ir.Add(ir.Mul(alpha, alpha), norm2.Get())), alpha));
      t.Set(ir.Div(ir.Sub(bt, alpha), bt));
      Value* sc = ir.Div(ir.F(1), ir.Sub(alpha, bt));
      RETURN_IF_ERROR(ir.Up(b_.CreateAdd(i, I(2)), top, [&](Value* r) -> Status {
        ASSIGN_OR_RETURN(Value * v, T_.Get(r, i));
        return T_.Set(r, i, ir.Mul(v, sc));
      }));
      return T_.Set(i1, i, bt);
    }));
    Value* tv = t.Get();
    tau_.Set(i, ir.R(tv));
    return ir.If(ir.Ne(tv, ir.F(0)), [&]() -> Status {
      ASSIGN_OR_RETURN(Value * bv, T_.Get(i1, i));
      beta.Set(bv);
      RETURN_IF_ERROR(T_.Set(i1, i, ir.F(1)));
      RETURN_IF_ERROR(ir.Up(I(0), top, [&](Value* r) -> Status {
        acc.Set(ir.F(0));
        RETURN_IF_ERROR(ir.Up(i1, top, [&](Value* c) -> Status {
          ASSIGN_OR_RETURN(Value * x, T_.Get(r, c));
          ASSIGN_OR_RETURN(Value * v, T_.Get(c, i));
          acc.Set(ir.Add(acc.Get(), ir.Mul(x, v)));
          return Status::Ok();
        }));
        Value* tw = ir.Mul(tv, acc.Get());
        return ir.Up(i1, top, [&](Value* c) -> Status {
          ASSIGN_OR_RETURN(Value * x, T_.Get(r, c));
          ASSIGN_OR_RETURN(Value * v, T_.Get(c, i));
          return T_.Set(r, c, ir.Sub(x, ir.Mul(tw, v)));
        });
      }));
      RETURN_IF_ERROR(ir.Up(i1, N(), [&](Value* c) -> Status {
        acc.Set(ir.F(0));
        RETURN_IF_ERROR(ir.Up(i1, top, [&](Value* r) -> Status {
          ASSIGN_OR_RETURN(Value * x, T_.Get(r, c));
          ASSIGN_OR_RETURN(Value * v, T_.Get(r, i));
          acc.Set(ir.Add(acc.Get(), ir.Mul(x, v)));
          return Status::Ok();
        }));
        Value* cs = ir.Mul(tv, acc.Get());
        return ir.Up(i1, top, [&](Value* r) -> Status {
          ASSIGN_OR_RETURN(Value * x, T_.Get(r, c));
          ASSIGN_OR_RETURN(Value * v, T_.Get(r, i));
          return T_.Set(r, c, ir.Sub(x, ir.Mul(v, cs)));
        });
      }));
      return T_.Set(i1, i, beta.Get());
    });
  });
}

Status GeevEmitter::FormQ() {
  const Ir& ir = ir_;
  Var w(b_, ir.f64(), "q_w");
  RETURN_IF_ERROR(ir.Up(I(0), N(), [&](Value* i) {
    return ir.Up(I(0), N(), [&](Value* j) { return Z_.Set(i, j, ir.Sel(b_.CreateICmpEQ(i, j), ir.F(1), ir.F(0))); });
  }));
  Value* ilo = ilo_.Get();
  Value* ihi = ihi_.Get();
  Value* top = b_.CreateAdd(ihi, I(1));
  RETURN_IF_ERROR(ir.Up(b_.CreateAdd(ilo, I(1)), top, [&](Value* j) {
    return ir.Up(b_.CreateAdd(j, I(1)), top, [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Value * v, T_.Get(r, b_.CreateSub(j, I(1))));
      return Z_.Set(r, j, v);
    });
  }));
  RETURN_IF_ERROR(ir.Down(b_.CreateSub(ihi, I(1)), ilo, [&](Value* i) -> Status {
    Value* c0 = b_.CreateAdd(i, I(1));
    Value* t = tau_.Get(i);
    RETURN_IF_ERROR(ir.If(b_.CreateICmpSLT(c0, ihi), [&]() -> Status {
      RETURN_IF_ERROR(Z_.Set(c0, c0, ir.F(1)));
      return ir.If(ir.Ne(t, ir.F(0)), [&]() -> Status {
        return ir.Up(b_.CreateAdd(c0, I(1)), top, [&](Value* j) -> Status {
          w.Set(ir.F(0));
          RETURN_IF_ERROR(ir.Up(c0, top, [&](Value* r) -> Status {
            ASSIGN_OR_RETURN(Value * v, Z_.Get(r, c0));
            ASSIGN_OR_RETURN(Value * x, Z_.Get(r, j));
            w.Set(ir.Add(w.Get(), ir.Mul(v, x)));
            return Status::Ok();
          }));
          Value* tw = ir.Mul(t, w.Get());
          return ir.Up(c0, top, [&](Value* r) -> Status {
            ASSIGN_OR_RETURN(Value * x, Z_.Get(r, j));
            ASSIGN_OR_RETURN(Value * v, Z_.Get(r, c0));
            return Z_.Set(r, j, ir.Sub(x, ir.Mul(v, tw)));
          });
        });
      });
    }));
    RETURN_IF_ERROR(ir.Up(b_.CreateAdd(c0, I(1)), top, [&](Value* r) -> Status {
      ASSIGN_OR_RETURN(Value * v, Z_.Get(r, c0));
      return Z_.Set(r, c0, ir.Mul(v, ir.Neg(t)));
    }));
    RETURN_IF_ERROR(Z_.Set(c0, c0, ir.Sub(ir.F(1), t)));
    return ir.Up(b_.CreateAdd(ilo, I(1)), c0, [&](Value* r) { return Z_.Set(r, c0, ir.F(0)); });
  }));
  return ir.Up(I(0), N(), [&](Value* i) {
    return ir.Up(I(0), b_.CreateSub(i, I(1)), [&](Value* j) { return T_.Set(i, j, ir.F(0)); });
  });
}

}  // namespace geev

StatusOr<EmittedKernel> EmitGeevKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const RootLinalgCall root,
                   RootLinalgCallOfKind(spec, {LinalgCall::Kind::kGeev, LinalgCall::Kind::kGees},
                                        "the geev emitter needs a geev or gees call"));
  const Instruction* ge = root.instr;
  if (root.call.kind == LinalgCall::Kind::kGeev && ge->operand_count() == 1 &&
      IsComplex(ge->operand(0)->shape().element_type()))
    return EmitComplexGeevKernel(m, spec);
  const bool gees = root.call.kind == LinalgCall::Kind::kGees;
  const LinalgCall* call = &root.call;
  auto fail = [&](const std::string& why) {
    return Status::Error("codegen: " + std::string(gees ? "gees" : "geev") + " call %" + ge->name() + ": " + why);
  };
  std::string why;
  std::optional<GeevShape> s = gees ? GeesShapes(*ge, &why) : GeevShapes(*ge, root.call, &why);
  if (!s) return fail(why);
  if (s->n > kGeevMaxOrder)
    return fail("keeps 4·n eigenvalue and balancing values in the kernel's memory; n = " + std::to_string(s->n) +
                " is over the " + std::to_string(kGeevMaxOrder) + " its one-thread-per-matrix kernel allows");
  const Shape& in = ge->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, ge->name()));
  const PrimitiveType ct = t == PrimitiveType::kF32 ? PrimitiveType::kC64 : PrimitiveType::kC128;
  const int64_t n = s->n;

  ThreadPerItemKernel frame(m, spec, gees ? "gees" : "geev", s->batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& kernel = frame.kernel;
  const Ir ir{b, t == PrimitiveType::kF32, GeevParams(t == PrimitiveType::kF32)};
  Vec scale(b, n, "scale"), tau(b, n, "tau"), wr(b, n, "wr"), wi(b, n, "wi");
  const PrimitiveType info_type = ge->shape().tuple_shapes()[4].element_type();

  RETURN_IF_ERROR(GridStrideLoop(b, s->batches, [&](Value* batch) -> Status {
    OutputMatrix om(b, ee, out, t, in, batch);  // indices: every matrix output has a's dims
    auto vec_at = [&](Value* i) { return om.VectorAt(i); };
    auto zero = [&](const Mat& v) {
      return ir.Up(ir.I(0), ir.I(n), [&](Value* i) { return ir.Up(ir.I(0), ir.I(n), [&](Value* j) { return v.Set(i, j, ir.F(0)); }); });
    };
    auto load_a = [&](const Mat& T) {
      return ir.Up(ir.I(0), ir.I(n), [&](Value* i) {
        return ir.Up(ir.I(0), ir.I(n), [&](Value* j) -> Status {
          ee.ClearCache();
          ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, ge, 0, om.At(i, j)));
          ee.ClearCache();
          ASSIGN_OR_RETURN(Value * d, EmitConvert(b, v, t, PrimitiveType::kF64));
          return T.Set(i, j, d);
        });
      });
    };
    if (gees) {
      // T and Z in their own outputs; wr, wi, sdim 0, info.
      const Mat T{&b, &ee, &om, out, t, -1}, Z{&b, &ee, &om, out + 1, t, -1};
      RETURN_IF_ERROR(load_a(T));
      GeevEmitter g(ir, n, T, Z, T, scale, tau, wr, wi);
      RETURN_IF_ERROR(g.Balance(false));
      RETURN_IF_ERROR(g.Hessenberg());
      RETURN_IF_ERROR(g.FormQ());
      RETURN_IF_ERROR(g.Schur());
      if (call->right) RETURN_IF_ERROR(g.Unbalance(Z, true));
      else RETURN_IF_ERROR(zero(Z));
      RETURN_IF_ERROR(ir.Up(ir.I(0), ir.I(n), [&](Value* i) -> Status {
        ASSIGN_OR_RETURN(Value * a, EmitConvert(b, wr.Get(i), PrimitiveType::kF64, t));
        ASSIGN_OR_RETURN(Value * c, EmitConvert(b, wi.Get(i), PrimitiveType::kF64, t));
        ee.Store(out + 2, vec_at(i), a);
        ee.Store(out + 3, vec_at(i), c);
        return Status::Ok();
      }));
      ee.Store(out + 4, om.BatchIndex(), llvm::ConstantInt::get(LlvmStorageType(ge->shape().tuple_shapes()[4].element_type(), m.getContext()), 0));
      ASSIGN_OR_RETURN(Value * code, EmitConvert(b, g.info().Get(), PrimitiveType::kS64, ge->shape().tuple_shapes()[5].element_type()));
      ee.Store(out + 5, om.BatchIndex(), code);
      return Status::Ok();
    }
    const bool lapack = s->lapack;
    // Where T, Q, the eigenvectors of T and the left copy of Q live.
    const Mat T{&b, &ee, &om, lapack ? out + 3 : out, lapack ? ct : t, lapack ? 1 : -1};
    const Mat Z{&b, &ee, &om, out + 3, lapack ? ct : t, lapack ? 0 : -1};
    const Mat X{&b, &ee, &om, out + 2, lapack ? ct : t, lapack ? 1 : -1};
    const Mat ZL{&b, &ee, &om, out + 2, ct, 0};
    RETURN_IF_ERROR(load_a(T));
    GeevEmitter g(ir, n, T, Z, X, scale, tau, wr, wi);
    RETURN_IF_ERROR(g.Balance(true));
    RETURN_IF_ERROR(g.Hessenberg());
    RETURN_IF_ERROR(g.FormQ());
    RETURN_IF_ERROR(g.Schur());
    Value* ok = b.CreateICmpEQ(g.info().Get(), ir.I(0));
    if (call->left) {
      RETURN_IF_ERROR(ir.If(ok, [&]() {
        return ir.Up(ir.I(0), ir.I(n), [&](Value* i) {
          return ir.Up(ir.I(0), ir.I(n), [&](Value* j) -> Status {
            ASSIGN_OR_RETURN(Value * v, Z.Get(i, j));
            return ZL.Set(i, j, v);
          });
        });
      }));
    }
    if (call->right)
      RETURN_IF_ERROR(ir.If(ok, [&]() -> Status {
        RETURN_IF_ERROR(g.RightVectors());
        RETURN_IF_ERROR(g.BackTransform(Z, true));
        RETURN_IF_ERROR(g.Unbalance(Z, true));
        return g.Normalize(Z);
      }));
    if (call->left)
      RETURN_IF_ERROR(ir.If(ok, [&]() -> Status {
        RETURN_IF_ERROR(g.LeftVectors());
        RETURN_IF_ERROR(g.BackTransform(ZL, false));
        RETURN_IF_ERROR(g.Unbalance(ZL, false));
        return g.Normalize(ZL);
      }));
    if (lapack) {
      // wr, wi; then vr and vl as complex vectors (zeros where not asked for).
      RETURN_IF_ERROR(ir.Up(ir.I(0), ir.I(n), [&](Value* i) -> Status {
        ASSIGN_OR_RETURN(Value * a, EmitConvert(b, wr.Get(i), PrimitiveType::kF64, t));
        ASSIGN_OR_RETURN(Value * c, EmitConvert(b, wi.Get(i), PrimitiveType::kF64, t));
        ee.Store(out, vec_at(i), a);
        ee.Store(out + 1, vec_at(i), c);
        return Status::Ok();
      }));
      for (int k = 0; k < 2; ++k) {
        const bool asked = k == 0 ? call->left : call->right;
        const int arg = out + 2 + k;
        const Mat re{&b, &ee, &om, arg, ct, 0}, im{&b, &ee, &om, arg, ct, 1};
        if (!asked) {
          RETURN_IF_ERROR(zero(re));
          RETURN_IF_ERROR(zero(im));
          continue;
        }
        RETURN_IF_ERROR(ir.If(b.CreateNot(ok), [&]() -> Status {
          RETURN_IF_ERROR(zero(re));
          return zero(im);
        }));
        RETURN_IF_ERROR(ir.If(ok, [&]() {
          return ir.Up(ir.I(0), ir.I(n), [&](Value* r) {
            return ir.Up(ir.I(0), ir.I(n), [&](Value* j) -> Status {
              Value* w = wi.Get(j);
              Value* first = b.CreateAnd(ir.Gt(w, ir.F(0)), b.CreateICmpSLT(b.CreateAdd(j, ir.I(1)), ir.I(n)));
              Value* second = b.CreateAnd(ir.Lt(w, ir.F(0)), b.CreateICmpSGT(j, ir.I(0)));
              RETURN_IF_ERROR(ir.If(first, [&]() -> Status {
                ASSIGN_OR_RETURN(Value * y, re.Get(r, b.CreateAdd(j, ir.I(1))));
                return im.Set(r, j, y);
              }));
              RETURN_IF_ERROR(ir.If(second, [&]() -> Status {
                ASSIGN_OR_RETURN(Value * x, re.Get(r, b.CreateSub(j, ir.I(1))));
                ASSIGN_OR_RETURN(Value * y, im.Get(r, b.CreateSub(j, ir.I(1))));
                RETURN_IF_ERROR(re.Set(r, j, x));
                return im.Set(r, j, ir.Neg(y));
              }));
              return ir.If(b.CreateNot(b.CreateOr(first, second)), [&] { return im.Set(r, j, ir.F(0)); });
            });
          });
        }));
      }
    } else {
      // w complex; vl (the eigenvectors of T) cleared; vr zeros where not asked for.
      RETURN_IF_ERROR(ir.Up(ir.I(0), ir.I(n), [&](Value* i) -> Status {
        ASSIGN_OR_RETURN(Value * v, PartsToElement(b, ct, ComplexParts{wr.Get(i), wi.Get(i)}));
        ee.Store(out + 1, vec_at(i), v);
        return Status::Ok();
      }));
      RETURN_IF_ERROR(zero(X));
      if (!call->right) RETURN_IF_ERROR(zero(Z));
      else RETURN_IF_ERROR(ir.If(b.CreateNot(ok), [&] { return zero(Z); }));
    }
    ASSIGN_OR_RETURN(Value * code, EmitConvert(b, g.info().Get(), PrimitiveType::kS64, info_type));
    ee.Store(out + 4, om.BatchIndex(), code);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return kernel;
}

}  // namespace hloscope::codegen
