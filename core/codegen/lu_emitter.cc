// JAX's getrf library calls (`lapack_?getrf_ffi`, `cusolver_getrf_ffi`:
// a → (lu, pivots, info), core/ir/custom_calls.h): LU with partial pivoting
// of every m×n matrix, one thread per matrix, step by step as the
// interpreter (and LAPACK's getf2) does it: the row of the first largest
// |a(i, j)| at or below the diagonal, rows swapped across the whole matrix,
// the column below the pivot divided by it, the trailing matrix updated.
// The matrix lives in the output (in place over the input when buffer
// assignment shares them, as the call's output_to_operand_aliasing asks):
// each value is computed in f64 from the stored ones and stored in the
// element type, as the interpreter does, so the two agree. Complex matrices
// too: the pivot by |re| + |im| (LAPACK's i?amax), the multipliers by
// Smith's division, the update as the textbook product, in f64 parts. XLA GPU calls
// cuSOLVER for this; the matrices JAX programs solve with are small and
// batched, which one thread per matrix suits.
#include <llvm/IR/IRBuilder.h>
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

StatusOr<EmittedKernel> EmitLuKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const RootLinalgCall root,
                   RootLinalgCallOfKind(spec, {LinalgCall::Kind::kGetrf}, "the LU emitter needs a getrf call"));
  const Instruction* lu = root.instr;
  auto fail = [&](const std::string& why) { return Status::Error("codegen: getrf call %" + lu->name() + ": " + why); };
  const Shape& in = lu->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  const int r = in.rank();
  const Shape& ts = lu->shape();
  if (r < 2 || ts.tuple_shapes()[0].dims() != in.dims()) return fail("needs matrices and an LU result shaped as them");
  if (!IsFloat(t) && !IsComplex(t))
    return fail("is not implemented for " + std::string(PrimitiveTypeName(t)) + " by the kernel emitters");
  RETURN_IF_ERROR(CheckSupportedType(t, lu->name()));
  const int64_t rows = in.dim(r - 2), cols = in.dim(r - 1), k = std::min(rows, cols);
  const std::vector<int64_t> batch_shape(in.dims().begin(), in.dims().end() - 2);
  const Shape& piv = ts.tuple_shapes()[1];
  const Shape& info = ts.tuple_shapes()[2];
  std::vector<int64_t> piv_dims = batch_shape;
  piv_dims.push_back(k);
  if (!IsInteger(piv.element_type()) || piv.dims() != piv_dims || !IsInteger(info.element_type()) ||
      info.dims() != batch_shape)
    return fail("needs results (lu, min(m, n) integer pivots per matrix, an integer info per matrix)");
  std::vector<int64_t> batch_dims = LeadingDims(r - 2);
  const int64_t batches = Product(in, batch_dims);

  ThreadPerItemKernel frame(m, spec, "lu", batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& result = frame.kernel;
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i64 = b.getInt64Ty();
  Value* best = EntryAlloca(b, f64, "best");
  Value* pivot_row = EntryAlloca(b, i64, "pivot_row");
  Value* first_zero = EntryAlloca(b, i64, "first_zero");
  const bool complex = IsComplex(t);
  Value* f0 = llvm::ConstantFP::get(f64, 0.0);
  auto abs = [&](Value* v) { return b.CreateSelect(b.CreateFCmpOLT(v, f0), b.CreateFNeg(v), v); };
  // |re| + |im| for complex values, as LAPACK's i?amax.
  auto mag = [&](ComplexParts v) { return complex ? b.CreateFAdd(abs(v.re), abs(v.im)) : abs(v.re); };

  RETURN_IF_ERROR(GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    OutputMatrix a(b, ee, out, t, in, batch);
    auto at = [&](Value* i, Value* j) { return a.At(i, j); };
    auto load = [&](Value* i, Value* j) { return a.LoadParts(i, j); };
    auto store = [&](Value* i, Value* j, ComplexParts v) { return a.StoreParts(i, j, v); };
    RETURN_IF_ERROR(a.CopyOperand(lu, 0, rows, cols));
    b.CreateStore(I64(b, 0), first_zero);
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, k), I64(b, 1), [&](Value* j) -> Status {
      // The pivot: the first largest magnitude at or below the diagonal.
      ASSIGN_OR_RETURN(ComplexParts d, load(j, j));
      b.CreateStore(mag(d), best);
      b.CreateStore(j, pivot_row);
      RETURN_IF_ERROR(ForLoop(b, b.CreateAdd(j, I64(b, 1)), I64(b, rows), I64(b, 1), [&](Value* i) -> Status {
        ASSIGN_OR_RETURN(ComplexParts v, load(i, j));
        Value* m = mag(v);
        Value* larger = b.CreateFCmpOGT(m, b.CreateLoad(f64, best));
        b.CreateStore(b.CreateSelect(larger, m, b.CreateLoad(f64, best)), best);
        b.CreateStore(b.CreateSelect(larger, i, b.CreateLoad(i64, pivot_row)), pivot_row);
        return Status::Ok();
      }));
      Value* p = b.CreateLoad(i64, pivot_row);
      std::vector<Value*> piv_index = a.VectorAt(j);
      ASSIGN_OR_RETURN(Value * code, EmitConvert(b, b.CreateAdd(p, I64(b, 1)), PrimitiveType::kS64, piv.element_type()));
      ee.Store(out + 1, piv_index, code);
      ASSIGN_OR_RETURN(ComplexParts pivot, load(p, j));
      Value* zero = b.CreateFCmpOEQ(pivot.re, f0);
      if (complex) zero = b.CreateAnd(zero, b.CreateFCmpOEQ(pivot.im, f0));
      RETURN_IF_ERROR(IfThen(b, zero, [&]() -> Status {
        Value* fz = b.CreateLoad(i64, first_zero);
        b.CreateStore(b.CreateSelect(b.CreateICmpEQ(fz, I64(b, 0)), b.CreateAdd(j, I64(b, 1)), fz), first_zero);
        return Status::Ok();
      }));
      RETURN_IF_ERROR(IfThen(b, b.CreateNot(zero), [&]() -> Status {
        // Rows j and p swapped across the matrix, then the multipliers.
        RETURN_IF_ERROR(IfThen(b, b.CreateICmpNE(p, j), [&]() -> Status {
          return ForLoop(b, I64(b, 0), I64(b, cols), I64(b, 1), [&](Value* c) -> Status {
            Value* x = ee.Load(out, at(j, c));
            Value* y = ee.Load(out, at(p, c));
            ee.Store(out, at(j, c), y);
            ee.Store(out, at(p, c), x);
            return Status::Ok();
          });
        }));
        return ForLoop(b, b.CreateAdd(j, I64(b, 1)), I64(b, rows), I64(b, 1), [&](Value* i) -> Status {
          ASSIGN_OR_RETURN(ComplexParts v, load(i, j));
          if (!complex) return store(i, j, {b.CreateFDiv(v.re, pivot.re), nullptr});
          return store(i, j, EmitComplexDivide(b, v, pivot));  // Smith's, in f64
        });
      }));
      // The trailing matrix: a(i, c) -= l(i, j)·u(j, c).
      return ForLoop(b, b.CreateAdd(j, I64(b, 1)), I64(b, rows), I64(b, 1), [&](Value* i) -> Status {
        ASSIGN_OR_RETURN(ComplexParts l, load(i, j));
        return ForLoop(b, b.CreateAdd(j, I64(b, 1)), I64(b, cols), I64(b, 1), [&](Value* c) -> Status {
          ASSIGN_OR_RETURN(ComplexParts x, load(i, c));
          ASSIGN_OR_RETURN(ComplexParts u, load(j, c));
          if (!complex) return store(i, c, {b.CreateFSub(x.re, b.CreateFMul(l.re, u.re)), nullptr});
          Value* pr = b.CreateFSub(b.CreateFMul(l.re, u.re), b.CreateFMul(l.im, u.im));
          Value* pi = b.CreateFAdd(b.CreateFMul(l.re, u.im), b.CreateFMul(l.im, u.re));
          return store(i, c, {b.CreateFSub(x.re, pr), b.CreateFSub(x.im, pi)});
        });
      });
    }));
    ASSIGN_OR_RETURN(Value * code, EmitConvert(b, b.CreateLoad(i64, first_zero), PrimitiveType::kS64, info.element_type()));
    ee.Store(out + 2, a.BatchIndex(), code);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return result;
}

// cu_lu_pivots_to_permutation (custom_calls.h): one thread per matrix, the
// identity permutation of m written, then perm[i] ↔ perm[pivots[i]] in order,
// a pivot outside [0, m) skipped, as jaxlib's CUDA kernel and the interpreter do.
StatusOr<EmittedKernel> EmitLuPivotsToPermutationKernel(llvm::Module& m, const KernelSpec& spec) {
  std::vector<const Instruction*> roots = KernelRoots(*spec.instr);
  if (roots.size() != 1 || !IsLuPivotsToPermutationCall(*roots[0]))
    return Status::Error(spec.instr->name() + ": needs a cu_lu_pivots_to_permutation call at the kernel root");
  const Instruction* call = roots[0];
  const Shape& piv = call->operand(0)->shape();
  const Shape& out_shape = call->shape();
  const int r = piv.rank();
  const int64_t k = piv.dim(r - 1), n = out_shape.dim(r - 1);
  std::vector<int64_t> batch_dims = LeadingDims(r - 1);
  const int64_t batches = Product(piv, batch_dims);

  ThreadPerItemKernel frame(m, spec, "lu-permutation", batches);
  llvm::IRBuilder<>& b = frame.b;
  ElementalEmitter& ee = frame.ee;
  const int out = frame.out;
  EmittedKernel& result = frame.kernel;
  llvm::Type* i32 = b.getInt32Ty();
  RETURN_IF_ERROR(GridStrideLoop(b, batches, [&](Value* batch) -> Status {
    Index base(static_cast<size_t>(r));
    DelinearizeInto(b, batch, piv, batch_dims, base);
    auto at = [&](Value* i) {
      Index idx = base;
      idx[static_cast<size_t>(r - 1)] = i;
      return idx;
    };
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, n), I64(b, 1), [&](Value* i) -> Status {
      ee.Store(out, at(i), b.CreateTrunc(i, i32));
      return Status::Ok();
    }));
    return ForLoop(b, I64(b, 0), I64(b, std::min(k, n)), I64(b, 1), [&](Value* i) -> Status {
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * p, EmitOperand(ee, call, 0, at(i)));
      ee.ClearCache();
      Value* j = b.CreateSExt(p, b.getInt64Ty());
      Value* inside = b.CreateAnd(b.CreateICmpSGE(j, I64(b, 0)), b.CreateICmpSLT(j, I64(b, n)));
      return IfThen(b, inside, [&]() -> Status {
        Value* x = ee.Load(out, at(i));
        Value* y = ee.Load(out, at(j));
        ee.Store(out, at(i), y);
        ee.Store(out, at(j), x);
        return Status::Ok();
      });
    });
  }));
  b.CreateRetVoid();
  return result;
}

}  // namespace hloscope::codegen
