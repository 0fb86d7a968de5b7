// The matrices of a one-thread-per-matrix kernel (LAPACK-style: JAX's getrf
// and geqrf/orgqr calls, lu_emitter.cc, qr_emitter.cc): each thread takes one
// matrix of the batch, kept in the kernel's output argument, and computes in
// f64 from the stored values, storing in the element type, as the
// interpreter does (core/eval/eval_linalg.cc).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "core/codegen/complex_math_ir.h"
#include "core/codegen/emitters.h"

namespace hloscope::codegen {

// A value of element type `t` as f64 parts ({re, im}; im null for real
// types), and back (rounded to `t`).
StatusOr<ComplexParts> ElementToParts(llvm::IRBuilderBase& b, PrimitiveType t, llvm::Value* v);
StatusOr<llvm::Value*> PartsToElement(llvm::IRBuilderBase& b, PrimitiveType t, ComplexParts c);

// The start of a kernel that runs one thread per item (a matrix of a batch,
// a right-hand side, a row): its function with the builder in its entry
// block, an elemental emitter over its arguments, its first output
// argument, and the EmittedKernel of `kind` launched over `items` threads
// (LoopLaunchDims). The linear-algebra emitters begin with it.
struct ThreadPerItemKernel {
  ThreadPerItemKernel(llvm::Module& m, const KernelSpec& spec, const std::string& kind, int64_t items);
  llvm::IRBuilder<> b;
  llvm::Function* f;
  std::vector<llvm::Value*> args;
  ElementalEmitter ee;
  int out;
  EmittedKernel kernel;
};
// The dims 0 … n-1 (a batch's leading dims).
std::vector<int64_t> LeadingDims(int n);
class OutputMatrix {
 public:
  // Matrix `batch` (a linear index over the leading dims of `shape`, whose
  // last two dims are the matrix's) in output argument `out` of element type `t`.
  OutputMatrix(llvm::IRBuilderBase& b, ElementalEmitter& ee, int out, PrimitiveType t, const Shape& shape,
               llvm::Value* batch);

  // The index of element (i, j), and of position i of a per-matrix vector
  // (pivots, tau) whose leading dims are the batch's.
  std::vector<llvm::Value*> At(llvm::Value* i, llvm::Value* j) const;
  std::vector<llvm::Value*> VectorAt(llvm::Value* i) const;
  // The matrix's index in the batch (of a per-matrix scalar: info).
  std::vector<llvm::Value*> BatchIndex() const { return {base_.begin(), base_.end() - 2}; }
  // Element (i, j) as stored, in f64; an f64 value stored in the element type.
  StatusOr<llvm::Value*> Load(llvm::Value* i, llvm::Value* j);
  Status Store(llvm::Value* i, llvm::Value* j, llvm::Value* v);
  // The same by parts for complex types ({re, im} in f64; im is null for a
  // real element type, and ignored when storing one).
  StatusOr<ComplexParts> LoadParts(llvm::Value* i, llvm::Value* j);
  Status StoreParts(llvm::Value* i, llvm::Value* j, ComplexParts v);
  // Operand `k` of `instr` (a matrix of the output's shape) copied into the
  // output; nothing to do when buffer assignment made them share storage, but
  // nothing is lost either.
  Status CopyOperand(const Instruction* instr, int k, int64_t rows, int64_t cols);

 private:
  llvm::IRBuilderBase& b_;
  ElementalEmitter& ee_;
  int out_;
  PrimitiveType t_;
  std::vector<llvm::Value*> base_;
};

// The columns of a matrix a one-thread-per-matrix kernel keeps somewhere
// (an output, read by (row, column) as the layout of its call needs), in f64.
struct KernelColumns {
  int64_t rows = 0;
  std::function<StatusOr<llvm::Value*>(llvm::Value* row, llvm::Value* col)> get;
  std::function<Status(llvm::Value* row, llvm::Value* col, llvm::Value* v)> set;
};

// Σ_row c(row, i)·c(row, j), in row order, in f64.
StatusOr<llvm::Value*> EmitColumnDot(llvm::IRBuilderBase& b, const KernelColumns& c, llvm::Value* i, llvm::Value* j);

// The one-sided Jacobi sweeps of syevd and gesvd (custom_calls.h: at most
// kEighSweeps, until a sweep rotates no pair), on the first `q` columns of
// `l`, each rotation applied to the columns of `r` too when it is given.
Status EmitJacobiSweeps(llvm::IRBuilderBase& b, const KernelColumns& l, int64_t q, const KernelColumns* r, double tol);

// Complex columns ({re, im} in f64), as KernelColumns.
struct ComplexKernelColumns {
  int64_t rows = 0;
  std::function<StatusOr<ComplexParts>(llvm::Value* row, llvm::Value* col)> get;
  std::function<Status(llvm::Value* row, llvm::Value* col, ComplexParts v)> set;
  // The real (imag = false) or imaginary part alone, as real columns (for
  // EmitSortColumnsByValue: swapping both swaps the complex columns).
  KernelColumns Part(bool imag) const;
};

// Σ_row conj(c(row, i))·c(row, j), in row order, in f64.
StatusOr<ComplexParts> EmitComplexColumnDot(llvm::IRBuilderBase& b, const ComplexKernelColumns& c, llvm::Value* i,
                                            llvm::Value* j);

// The one-sided Jacobi sweeps of heevd and the complex SVDs (custom_calls.h:
// each pair's column j turned by the phase of γ = g_iᴴ·g_j, then the real
// rotation with |γ|), on the first `q` columns of `l`, each rotation applied
// to the columns of `r` too when it is given.
Status EmitComplexJacobiSweeps(llvm::IRBuilderBase& b, const ComplexKernelColumns& l, int64_t q,
                               const ComplexKernelColumns* r, double tol);

// A selection sort of the values of a vector (`values`: value i at
// get(i, 0), `rows` of them), ascending or descending: the first smallest
// (largest) of those left is swapped into place, and with it the same
// columns of each of `with`. (syevd's eigenvalues and gesvd's singular
// values; the interpreter's SortColumnsByValue.)
Status EmitSortColumnsByValue(llvm::IRBuilderBase& b, const KernelColumns& values, bool descending,
                              const std::vector<const KernelColumns*>& with);

}  // namespace hloscope::codegen
