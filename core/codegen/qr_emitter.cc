// JAX's Householder QR library calls (jnp.linalg.qr, core/ir/custom_calls.h):
// geqrf (`lapack_{s,d}geqrf_ffi`, `cusolver_geqrf_ffi`, `cublas_geqrf_batched_ffi`:
// a → (reflectors under R, tau)) and orgqr (`lapack_{s,d}orgqr_ffi`,
// `cusolver_orgqr_ffi`: (a, tau) → Q). One thread per matrix, step by step as
// the interpreter (eval_linalg.cc) and LAPACK's geqr2 / org2r compute them;
// the matrix lives in the output (in place over the input when buffer
// assignment shares them, as the calls' output_to_operand_aliasing asks).
// Each value is computed in f64 from the stored ones and stored in the
// element type, so the kernel and the interpreter agree. Complex matrices
// too (`lapack_{c,z}geqrf_ffi`, `lapack_{c,z}ungqr_ffi`, cuSOLVER's calls
// on complex types), as cgeqr2 / cung2r. XLA GPU calls cuSOLVER or cuBLAS for these; the
// matrices JAX programs factor this way are small and batched.
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

// Complex f64 arithmetic on {re, im} registers, each step as the
// interpreter's std::complex<double> (the textbook product).
struct ComplexOps {
  llvm::IRBuilderBase& b;
  ComplexParts Add(ComplexParts x, ComplexParts y) { return {b.CreateFAdd(x.re, y.re), b.CreateFAdd(x.im, y.im)}; }
  ComplexParts Sub(ComplexParts x, ComplexParts y) { return {b.CreateFSub(x.re, y.re), b.CreateFSub(x.im, y.im)}; }
  ComplexParts Mul(ComplexParts x, ComplexParts y) {
    return {b.CreateFSub(b.CreateFMul(x.re, y.re), b.CreateFMul(x.im, y.im)),
            b.CreateFAdd(b.CreateFMul(x.re, y.im), b.CreateFMul(x.im, y.re))};
  }
  ComplexParts Conj(ComplexParts x) { return {x.re, b.CreateFNeg(x.im)}; }
  ComplexParts Neg(ComplexParts x) { return {b.CreateFNeg(x.re), b.CreateFNeg(x.im)}; }
  Value* IsZero(ComplexParts x) {
    Value* z = llvm::ConstantFP::get(b.getDoubleTy(), 0.0);
    return b.CreateAnd(b.CreateFCmpOEQ(x.re, z), b.CreateFCmpOEQ(x.im, z));
  }
};

// geqrf / ungqr of complex matrices, one thread per matrix, as LAPACK's
// cgeqr2 / cung2r and the interpreter (EvalGeqrfComplex, EvalUngqr): the
// reflector by clarfg (real beta; a reflection also where only alpha's
// imaginary part is not zero), H(i)ᴴ applied with conj(tau) while
// factoring, H(i) with tau while forming Q.
Status EmitComplexQr(llvm::IRBuilderBase& b, ElementalEmitter& ee, const KernelSpec& spec, const Instruction* qr,
                     bool factor, int out, int tau_arg, PrimitiveType t, const Shape& in, int64_t rows, int64_t cols,
                     int64_t k, int64_t batches) {
  llvm::Type* f64 = b.getDoubleTy();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  ComplexOps c{b};
  const ComplexParts zero{c64(0), c64(0)}, one{c64(1), c64(0)};
  Value* acc_re = EntryAlloca(b, f64, "acc_re");
  Value* acc_im = EntryAlloca(b, f64, "acc_im");
  Value* tau_re = EntryAlloca(b, f64, "tau_re");
  Value* tau_im = EntryAlloca(b, f64, "tau_im");
  auto acc = [&]() { return ComplexParts{b.CreateLoad(f64, acc_re), b.CreateLoad(f64, acc_im)}; };
  auto set_acc = [&](ComplexParts v) {
    b.CreateStore(v.re, acc_re);
    b.CreateStore(v.im, acc_im);
  };
  return GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    OutputMatrix a(b, ee, out, t, in, batch);
    auto load = [&](Value* i, Value* j) { return a.LoadParts(i, j); };
    auto store = [&](Value* i, Value* j, ComplexParts v) { return a.StoreParts(i, j, v); };
    auto load_tau = [&](Value* i) -> StatusOr<ComplexParts> {
      if (factor) return ElementToParts(b, t, ee.Load(tau_arg, a.VectorAt(i)));
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, qr, 1, a.VectorAt(i)));
      ee.ClearCache();
      return ElementToParts(b, t, v);
    };
    // acc = init + Σ_{row in [from, rows)} conj(a(row, i))·a(row, j).
    auto dot = [&](Value* from, Value* i, Value* j, ComplexParts init) -> Status {
      set_acc(init);
      return ForLoop(b, from, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(ComplexParts x, load(row, i));
        ASSIGN_OR_RETURN(ComplexParts y, load(row, j));
        set_acc(c.Add(acc(), c.Mul(c.Conj(x), y)));
        return Status::Ok();
      });
    };
    // a(row, j) -= a(row, i)·tw for row in [from, rows).
    auto axpy = [&](Value* from, Value* i, Value* j, ComplexParts tw) -> Status {
      return ForLoop(b, from, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(ComplexParts x, load(row, j));
        ASSIGN_OR_RETURN(ComplexParts v, load(row, i));
        return store(row, j, c.Sub(x, c.Mul(v, tw)));
      });
    };
    RETURN_IF_ERROR(a.CopyOperand(qr, 0, rows, cols));
    if (factor) {
      return ForLoop(b, I64(b, 0), I64(b, k), I64(b, 1), [&](Value* i) -> Status {
        Value* below = b.CreateAdd(i, I64(b, 1));
        ASSIGN_OR_RETURN(ComplexParts alpha, load(i, i));
        // ‖x‖² in acc's real part (Σ conj(x)·x).
        RETURN_IF_ERROR(dot(below, i, i, zero));
        Value* norm2 = b.CreateLoad(f64, acc_re);
        Value* reflect = b.CreateOr(b.CreateFCmpONE(norm2, c64(0)), b.CreateFCmpONE(alpha.im, c64(0)));
        b.CreateStore(c64(0), tau_re);
        b.CreateStore(c64(0), tau_im);
        RETURN_IF_ERROR(IfThen(b, reflect, [&]() -> Status {
          Value* abs2 = b.CreateFAdd(b.CreateFMul(alpha.re, alpha.re), b.CreateFMul(alpha.im, alpha.im));
          Value* norm = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b.CreateFAdd(abs2, norm2));
          Value* beta = b.CreateFNeg(b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, norm, alpha.re));
          b.CreateStore(b.CreateFDiv(b.CreateFSub(beta, alpha.re), beta), tau_re);
          b.CreateStore(b.CreateFDiv(b.CreateFNeg(alpha.im), beta), tau_im);
          ComplexParts scale = EmitComplexDivide(b, one, ComplexParts{b.CreateFSub(alpha.re, beta), alpha.im});
          RETURN_IF_ERROR(ForLoop(b, below, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
            ASSIGN_OR_RETURN(ComplexParts x, load(row, i));
            return store(row, i, c.Mul(x, scale));
          }));
          return store(i, i, ComplexParts{beta, c64(0)});
        }));
        ASSIGN_OR_RETURN(Value * tau_stored,
                         PartsToElement(b, t, ComplexParts{b.CreateLoad(f64, tau_re), b.CreateLoad(f64, tau_im)}));
        ee.Store(tau_arg, a.VectorAt(i), tau_stored);
        ASSIGN_OR_RETURN(ComplexParts ti, load_tau(i));
        const ComplexParts ct = c.Conj(ti);
        // H(i)ᴴ = I - conj(tau)·v·vᴴ, v = (1, a(i+1:, i)), on the columns to the right.
        return IfThen(b, b.CreateNot(c.IsZero(ct)), [&]() -> Status {
          return ForLoop(b, below, I64(b, cols), I64(b, 1), [&](Value* j) -> Status {
            ASSIGN_OR_RETURN(ComplexParts top, load(i, j));
            RETURN_IF_ERROR(dot(below, i, j, top));
            ComplexParts tw = c.Mul(ct, acc());
            RETURN_IF_ERROR(store(i, j, c.Sub(top, tw)));
            return axpy(below, i, j, tw);
          });
        });
      });
    }
    // ungqr: columns k.. of the identity, then the reflectors from the last.
    RETURN_IF_ERROR(ForLoop(b, I64(b, k), I64(b, cols), I64(b, 1), [&](Value* j) -> Status {
      return ForLoop(b, I64(b, 0), I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        return store(row, j, ComplexParts{b.CreateSelect(b.CreateICmpEQ(row, j), c64(1), c64(0)), c64(0)});
      });
    }));
    return ForLoop(b, I64(b, 0), I64(b, k), I64(b, 1), [&](Value* step) -> Status {
      Value* i = b.CreateSub(I64(b, k - 1), step);
      Value* below = b.CreateAdd(i, I64(b, 1));
      ASSIGN_OR_RETURN(ComplexParts ti, load_tau(i));
      RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(i, I64(b, cols - 1)), [&]() -> Status {
        RETURN_IF_ERROR(store(i, i, one));
        return IfThen(b, b.CreateNot(c.IsZero(ti)), [&]() -> Status {
          return ForLoop(b, below, I64(b, cols), I64(b, 1), [&](Value* j) -> Status {
            RETURN_IF_ERROR(dot(i, i, j, zero));
            return axpy(i, i, j, c.Mul(ti, acc()));
          });
        });
      }));
      RETURN_IF_ERROR(ForLoop(b, below, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(ComplexParts x, load(row, i));
        return store(row, i, c.Mul(x, c.Neg(ti)));
      }));
      RETURN_IF_ERROR(store(i, i, c.Sub(one, ti)));
      return ForLoop(b, I64(b, 0), i, I64(b, 1), [&](Value* row) -> Status { return store(row, i, zero); });
    });
  });
}

}  // namespace

StatusOr<EmittedKernel> EmitQrKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const RootLinalgCall root,
                   RootLinalgCallOfKind(spec, {LinalgCall::Kind::kGeqrf, LinalgCall::Kind::kOrgqr},
                                        "the QR emitter needs a geqrf or orgqr call"));
  const Instruction* qr = root.instr;
  const bool factor = root.call.kind == LinalgCall::Kind::kGeqrf;
  auto fail = [&](const std::string& why) {
    return Status::Error("codegen: " + std::string(factor ? "geqrf" : "orgqr") + " call %" + qr->name() + ": " + why);
  };
  const Shape& in = qr->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  const int r = in.rank();
  const Shape& result = factor ? qr->shape().tuple_shapes()[0] : qr->shape();
  if (r < 2 || result.dims() != in.dims()) return fail("needs matrices and a result shaped as them");
  if (!IsFloat(t) && !IsComplex(t))
    return fail("is not implemented for " + std::string(PrimitiveTypeName(t)) + " by the kernel emitters");
  RETURN_IF_ERROR(CheckSupportedType(t, qr->name()));
  const int64_t rows = in.dim(r - 2), cols = in.dim(r - 1);
  const std::vector<int64_t> batch_shape(in.dims().begin(), in.dims().end() - 2);
  // tau: min(m, n) values per matrix out of geqrf, k <= n into orgqr.
  const Shape& tau = factor ? qr->shape().tuple_shapes()[1] : qr->operand(1)->shape();
  const int64_t k = factor ? std::min(rows, cols) : (tau.rank() >= 1 ? tau.dim(tau.rank() - 1) : -1);
  std::vector<int64_t> tau_dims = batch_shape;
  tau_dims.push_back(k);
  if (tau.element_type() != t || tau.dims() != tau_dims)
    return fail("needs tau with " + std::string(factor ? "min(m, n)" : "k") + " values of the matrix type per matrix");
  if (!factor && (cols > rows || k > cols)) return fail("needs m×n matrices with n <= m and k <= n reflectors");
  std::vector<int64_t> batch_dims = LeadingDims(r - 2);
  const int64_t batches = Product(in, batch_dims);

  ThreadPerItemKernel frame(m, spec, factor ? "qr" : "qr-q", batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  // Where tau is read: geqrf's second output, orgqr's second operand.
  const int tau_arg = factor ? out + 1 : -1;
  EmittedKernel& kernel = frame.kernel;
  if (IsComplex(t)) {
    RETURN_IF_ERROR(EmitComplexQr(b, ee, spec, qr, factor, out, tau_arg, t, in, rows, cols, k, batches));
    b.CreateRetVoid();
    return kernel;
  }
  llvm::Type* f64 = b.getDoubleTy();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  Value* acc = EntryAlloca(b, f64, "acc");

  RETURN_IF_ERROR(GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    OutputMatrix a(b, ee, out, t, in, batch);
    auto load = [&](Value* i, Value* j) { return a.Load(i, j); };
    auto store = [&](Value* i, Value* j, Value* v) { return a.Store(i, j, v); };
    auto tau_at = [&](Value* i) { return a.VectorAt(i); };
    // tau(i) as stored, in f64.
    auto load_tau = [&](Value* i) -> StatusOr<Value*> {
      if (factor) return EmitConvert(b, ee.Load(tau_arg, tau_at(i)), t, PrimitiveType::kF64);
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, qr, 1, tau_at(i)));
      ee.ClearCache();
      return EmitConvert(b, v, t, PrimitiveType::kF64);
    };
    // acc = init + Σ_{row in [from, rows)} a(row, i)·a(row, j).
    auto dot = [&](Value* from, Value* i, Value* j, Value* init) -> Status {
      b.CreateStore(init, acc);
      return ForLoop(b, from, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(Value * x, load(row, i));
        ASSIGN_OR_RETURN(Value * y, load(row, j));
        b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, acc), b.CreateFMul(x, y)), acc);
        return Status::Ok();
      });
    };
    // a(row, j) -= a(row, i)·tw for row in [from, rows).
    auto axpy = [&](Value* from, Value* i, Value* j, Value* tw) -> Status {
      return ForLoop(b, from, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(Value * x, load(row, j));
        ASSIGN_OR_RETURN(Value * v, load(row, i));
        return store(row, j, b.CreateFSub(x, b.CreateFMul(v, tw)));
      });
    };
    RETURN_IF_ERROR(a.CopyOperand(qr, 0, rows, cols));
    if (factor) {
      return ForLoop(b, I64(b, 0), I64(b, k), I64(b, 1), [&](Value* i) -> Status {
        Value* below = b.CreateAdd(i, I64(b, 1));
        // The reflector (larfg): tau = 0 where the column below is zero.
        ASSIGN_OR_RETURN(Value * alpha, load(i, i));
        RETURN_IF_ERROR(dot(below, i, i, c64(0)));
        Value* norm2 = b.CreateLoad(f64, acc);
        Value* reflect = b.CreateFCmpONE(norm2, c64(0));
        Value* tau_slot = EntryAlloca(b, f64, "tau");
        b.CreateStore(c64(0), tau_slot);
        RETURN_IF_ERROR(IfThen(b, reflect, [&]() -> Status {
          Value* norm = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b.CreateFAdd(b.CreateFMul(alpha, alpha), norm2));
          Value* beta = b.CreateFNeg(b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, norm, alpha));
          b.CreateStore(b.CreateFDiv(b.CreateFSub(beta, alpha), beta), tau_slot);
          Value* scale = b.CreateFDiv(c64(1), b.CreateFSub(alpha, beta));
          RETURN_IF_ERROR(ForLoop(b, below, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
            ASSIGN_OR_RETURN(Value * x, load(row, i));
            return store(row, i, b.CreateFMul(x, scale));
          }));
          return store(i, i, beta);
        }));
        ASSIGN_OR_RETURN(Value * tau_stored, EmitConvert(b, b.CreateLoad(f64, tau_slot), PrimitiveType::kF64, t));
        ee.Store(tau_arg, tau_at(i), tau_stored);
        ASSIGN_OR_RETURN(Value * ti, load_tau(i));
        // H = I - tau·v·vᵀ, v = (1, a(i+1:, i)), on the columns to the right.
        return IfThen(b, b.CreateFCmpONE(ti, c64(0)), [&]() -> Status {
          return ForLoop(b, below, I64(b, cols), I64(b, 1), [&](Value* j) -> Status {
            ASSIGN_OR_RETURN(Value * top, load(i, j));
            RETURN_IF_ERROR(dot(below, i, j, top));
            Value* tw = b.CreateFMul(ti, b.CreateLoad(f64, acc));
            RETURN_IF_ERROR(store(i, j, b.CreateFSub(top, tw)));
            return axpy(below, i, j, tw);
          });
        });
      });
    }
    // orgqr: columns k.. of the identity, then the reflectors from the last.
    RETURN_IF_ERROR(ForLoop(b, I64(b, k), I64(b, cols), I64(b, 1), [&](Value* j) -> Status {
      return ForLoop(b, I64(b, 0), I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        return store(row, j, b.CreateSelect(b.CreateICmpEQ(row, j), c64(1), c64(0)));
      });
    }));
    return ForLoop(b, I64(b, 0), I64(b, k), I64(b, 1), [&](Value* step) -> Status {
      Value* i = b.CreateSub(I64(b, k - 1), step);
      Value* below = b.CreateAdd(i, I64(b, 1));
      ASSIGN_OR_RETURN(Value * ti, load_tau(i));
      RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(i, I64(b, cols - 1)), [&]() -> Status {
        RETURN_IF_ERROR(store(i, i, c64(1)));
        return IfThen(b, b.CreateFCmpONE(ti, c64(0)), [&]() -> Status {
          return ForLoop(b, below, I64(b, cols), I64(b, 1), [&](Value* j) -> Status {
            RETURN_IF_ERROR(dot(i, i, j, c64(0)));
            return axpy(i, i, j, b.CreateFMul(ti, b.CreateLoad(f64, acc)));
          });
        });
      }));
      RETURN_IF_ERROR(ForLoop(b, below, I64(b, rows), I64(b, 1), [&](Value* row) -> Status {
        ASSIGN_OR_RETURN(Value * x, load(row, i));
        return store(row, i, b.CreateFMul(x, b.CreateFNeg(ti)));
      }));
      RETURN_IF_ERROR(store(i, i, b.CreateFSub(c64(1), ti)));
      return ForLoop(b, I64(b, 0), i, I64(b, 1), [&](Value* row) -> Status { return store(row, i, c64(0)); });
    });
  }));
  b.CreateRetVoid();
  return kernel;
}

}  // namespace hloscope::codegen
