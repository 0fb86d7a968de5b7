// JAX's symmetric eigendecomposition calls (jnp.linalg.eigh,
// core/ir/custom_calls.h): `lapack_{s,d}syevd_ffi`, `cusolver_syevd_ffi`:
// a → (eigenvectors as columns, eigenvalues ascending, info). One thread per
// matrix, step by step as custom_calls.h defines it and the interpreter
// (eval_linalg.cc) computes it: the matrix shifted to be positive definite,
// one-sided Jacobi sweeps over the columns of the first result, then each
// column's length gives its eigenvalue and is divided out, and a selection
// sort orders them. The matrix lives in the first result (in place over the
// input when buffer assignment shares them, as the call's
// output_to_operand_aliasing asks: only the named triangle is read, each
// element before its place is written with the same value, the diagonal
// once). Each value is computed in f64 from the stored ones and stored in
// the element type, so the kernel and the interpreter agree. XLA GPU calls
// cuSOLVER for this; the matrices JAX programs decompose this way are small
// and batched.
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

namespace {

// heevd: the complex Hermitian case (custom_calls.h), one thread per matrix,
// in the interpreter's order (EvalHeevd): the shift, the sweeps that turn
// column j by the phase of γ = g_iᴴ·g_j before the real rotation, the
// lengths, the sort.
Status EmitHeevd(llvm::IRBuilderBase& b, ElementalEmitter& ee, const Instruction* eig, const LinalgCall& call, int out,
                 PrimitiveType t, PrimitiveType wt, const Shape& in, int64_t n, int64_t batches,
                 PrimitiveType info_type) {
  llvm::Type* f64 = b.getDoubleTy();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  auto sqrt = [&](Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); };
  auto abs2 = [&](ComplexParts x) { return b.CreateFAdd(b.CreateFMul(x.re, x.re), b.CreateFMul(x.im, x.im)); };
  Value* norm = EntryAlloca(b, f64, "norm");
  Value* row_sum = EntryAlloca(b, f64, "row");
  const double tol = EighTolerance(t, n);
  auto add_to = [&](Value* slot, Value* v) { b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, slot), v), slot); };
  return GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    OutputMatrix g(b, ee, out, t, in, batch);
    auto load = [&](Value* i, Value* j) { return g.LoadParts(i, j); };
    auto store = [&](Value* i, Value* j, ComplexParts v) { return g.StoreParts(i, j, v); };
    auto load_w = [&](Value* i) { return EmitConvert(b, ee.Load(out + 1, g.VectorAt(i)), wt, PrimitiveType::kF64); };
    auto store_w = [&](Value* i, Value* v) -> Status {
      ASSIGN_OR_RETURN(Value * x, EmitConvert(b, v, PrimitiveType::kF64, wt));
      ee.Store(out + 1, g.VectorAt(i), x);
      return Status::Ok();
    };
    // A(i, j) from the named triangle, conj(A(j, i)) from the other; the
    // diagonal's real part.
    auto herm = [&](Value* i, Value* j) -> StatusOr<ComplexParts> {
      Value* stored = call.lower ? b.CreateICmpSGE(i, j) : b.CreateICmpSLE(i, j);
      Value* row = b.CreateSelect(stored, i, j);
      Value* col = b.CreateSelect(stored, j, i);
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, eig, 0, g.At(row, col)));
      ee.ClearCache();
      ASSIGN_OR_RETURN(ComplexParts x, ElementToParts(b, t, v));
      Value* im = b.CreateSelect(stored, x.im, b.CreateFNeg(x.im));
      return ComplexParts{x.re, b.CreateSelect(b.CreateICmpEQ(i, j), c64(0), im)};
    };
    b.CreateStore(c64(0), norm);
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      b.CreateStore(c64(0), row_sum);
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
        ASSIGN_OR_RETURN(ComplexParts x, herm(i, j));
        add_to(row_sum, sqrt(abs2(x)));
        return Status::Ok();
      }));
      Value* row = b.CreateLoad(f64, row_sum);
      Value* old = b.CreateLoad(f64, norm);
      b.CreateStore(b.CreateSelect(b.CreateFCmpOGT(row, old), row, old), norm);
      return Status::Ok();
    }));
    Value* nv = b.CreateLoad(f64, norm);
    Value* shift = b.CreateSelect(b.CreateFCmpOGT(nv, c64(0)), b.CreateFMul(c64(2), nv), c64(1));
    // B = A + s·I in two passes, so that an operand shared with the result
    // (in place) is read before it is written: the named triangle (each
    // element read, then written, the diagonal's imaginary part dropped),
    // then the other one as the conjugates of what the first pass wrote.
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      return ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
        Value* named = call.lower ? b.CreateICmpSGE(i, j) : b.CreateICmpSLE(i, j);
        return IfThen(b, named, [&]() -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, herm(i, j));
          return store(i, j, {b.CreateFAdd(x.re, b.CreateSelect(b.CreateICmpEQ(i, j), shift, c64(0))), x.im});
        });
      });
    }));
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      return ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
        Value* other = call.lower ? b.CreateICmpSLT(i, j) : b.CreateICmpSGT(i, j);
        return IfThen(b, other, [&]() -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, load(j, i));  // the named triangle, already written (shift only on the diagonal)
          return store(i, j, {x.re, b.CreateFNeg(x.im)});
        });
      });
    }));
    // The sweeps.
    const ComplexKernelColumns columns{n, load, store};
    RETURN_IF_ERROR(EmitComplexJacobiSweeps(b, columns, n, nullptr, tol));
    // Lengths less the shift are the eigenvalues; the columns divided by them.
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      ASSIGN_OR_RETURN(ComplexParts s2, EmitComplexColumnDot(b, columns, i, i));
      Value* len = sqrt(s2.re);
      RETURN_IF_ERROR(store_w(i, b.CreateFSub(len, shift)));
      return ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(ComplexParts x, load(k, i));
        return store(k, i, {b.CreateFDiv(x.re, len), b.CreateFDiv(x.im, len)});
      });
    }));
    // Ascending, the columns (both parts) with their values.
    const KernelColumns eigenvalues{n, [&](Value* i, Value*) { return load_w(i); },
                                    [&](Value* i, Value*, Value* v) { return store_w(i, v); }};
    const KernelColumns re = columns.Part(false), im = columns.Part(true);
    RETURN_IF_ERROR(EmitSortColumnsByValue(b, eigenvalues, /*descending=*/false, {&re, &im}));
    ASSIGN_OR_RETURN(Value * zero, EmitConvert(b, I64(b, 0), PrimitiveType::kS64, info_type));
    ee.Store(out + 2, g.BatchIndex(), zero);
    return Status::Ok();
  });
}

}  // namespace

StatusOr<EmittedKernel> EmitEighKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const RootLinalgCall root,
                   RootLinalgCallOfKind(spec, {LinalgCall::Kind::kSyevd}, "the eigh emitter needs a syevd call"));
  const Instruction* eig = root.instr;
  auto fail = [&](const std::string& why) { return Status::Error("codegen: syevd call %" + eig->name() + ": " + why); };
  const Shape& in = eig->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  const int r = in.rank();
  const Shape& ts = eig->shape();
  if (r < 2 || in.dim(r - 1) != in.dim(r - 2) || ts.tuple_shapes()[0].dims() != in.dims())
    return fail("needs square matrices and eigenvectors shaped as them");
  const bool complex = t == PrimitiveType::kC64 || t == PrimitiveType::kC128;
  if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64 && !complex)
    return fail("is not implemented for " + std::string(PrimitiveTypeName(t)) + " by the kernel emitters");
  const PrimitiveType wt = !complex ? t : t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
  const int64_t n = in.dim(r - 1);
  const std::vector<int64_t> batch_shape(in.dims().begin(), in.dims().end() - 2);
  std::vector<int64_t> w_dims = batch_shape;
  w_dims.push_back(n);
  const Shape& ws = ts.tuple_shapes()[1];
  const Shape& info = ts.tuple_shapes()[2];
  if (ws.element_type() != wt || ws.dims() != w_dims || !IsInteger(info.element_type()) || info.dims() != batch_shape)
    return fail("needs results (eigenvectors, n real eigenvalues per matrix, an integer info per matrix)");
  std::vector<int64_t> batch_dims = LeadingDims(r - 2);
  const int64_t batches = Product(in, batch_dims);

  ThreadPerItemKernel frame(m, spec, "eigh", batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& kernel = frame.kernel;
  if (complex) {
    RETURN_IF_ERROR(EmitHeevd(b, ee, eig, root.call, out, t, wt, in, n, batches, info.element_type()));
    b.CreateRetVoid();
    return kernel;
  }
  llvm::Type* f64 = b.getDoubleTy();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  auto fabs = [&](Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
  auto sqrt = [&](Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, v); };
  Value* norm = EntryAlloca(b, f64, "norm");
  Value* row_sum = EntryAlloca(b, f64, "row");
  const double tol = EighTolerance(t, n);

  RETURN_IF_ERROR(GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    OutputMatrix g(b, ee, out, t, in, batch);
    auto load = [&](Value* i, Value* j) { return g.Load(i, j); };
    auto store = [&](Value* i, Value* j, Value* v) { return g.Store(i, j, v); };
    // Eigenvalue i as stored, in f64; an f64 value stored there.
    auto load_w = [&](Value* i) { return EmitConvert(b, ee.Load(out + 1, g.VectorAt(i)), t, PrimitiveType::kF64); };
    auto store_w = [&](Value* i, Value* v) -> Status {
      ASSIGN_OR_RETURN(Value * s, EmitConvert(b, v, PrimitiveType::kF64, t));
      ee.Store(out + 1, g.VectorAt(i), s);
      return Status::Ok();
    };
    // A(i, j) from the named triangle of the operand.
    auto sym = [&](Value* i, Value* j) -> StatusOr<Value*> {
      Value* stored = root.call.lower ? b.CreateICmpSGE(i, j) : b.CreateICmpSLE(i, j);
      Value* row = b.CreateSelect(stored, i, j);
      Value* col = b.CreateSelect(stored, j, i);
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, eig, 0, g.At(row, col)));
      ee.ClearCache();
      return EmitConvert(b, v, t, PrimitiveType::kF64);
    };
    // The shift: twice the largest absolute row sum (1 for a zero matrix).
    b.CreateStore(c64(0), norm);
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      b.CreateStore(c64(0), row_sum);
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
        ASSIGN_OR_RETURN(Value * x, sym(i, j));
        b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, row_sum), fabs(x)), row_sum);
        return Status::Ok();
      }));
      Value* row = b.CreateLoad(f64, row_sum);
      Value* old = b.CreateLoad(f64, norm);
      b.CreateStore(b.CreateSelect(b.CreateFCmpOGT(row, old), row, old), norm);
      return Status::Ok();
    }));
    Value* nv = b.CreateLoad(f64, norm);
    Value* shift = b.CreateSelect(b.CreateFCmpOGT(nv, c64(0)), b.CreateFMul(c64(2), nv), c64(1));
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      return ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* j) -> Status {
        ASSIGN_OR_RETURN(Value * x, sym(i, j));
        return store(i, j, b.CreateFAdd(x, b.CreateSelect(b.CreateICmpEQ(i, j), shift, c64(0))));
      });
    }));
    // The sweeps: every pair of columns made orthogonal.
    const KernelColumns columns{n, load, store};
    RETURN_IF_ERROR(EmitJacobiSweeps(b, columns, n, nullptr, tol));
    // Each column's length less the shift is its eigenvalue; divided by
    // it, the column is the unit eigenvector.
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      ASSIGN_OR_RETURN(Value * s2, EmitColumnDot(b, columns, i, i));
      Value* len = sqrt(s2);
      RETURN_IF_ERROR(store_w(i, b.CreateFSub(len, shift)));
      return ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* k) -> Status {
        ASSIGN_OR_RETURN(Value * x, load(k, i));
        return store(k, i, b.CreateFDiv(x, len));
      });
    }));
    // Ascending, the columns with their values.
    const KernelColumns eigenvalues{n, [&](Value* i, Value*) { return load_w(i); },
                                    [&](Value* i, Value*, Value* v) { return store_w(i, v); }};
    RETURN_IF_ERROR(EmitSortColumnsByValue(b, eigenvalues, /*descending=*/false, {&columns}));
    ASSIGN_OR_RETURN(Value * zero, EmitConvert(b, I64(b, 0), PrimitiveType::kS64, info.element_type()));
    ee.Store(out + 2, g.BatchIndex(), zero);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return kernel;
}

}  // namespace hloscope::codegen
