// The matrices of a one-thread-per-matrix kernel (LAPACK-style: JAX's getrf
// and geqrf/orgqr calls, lu_emitter.cc, qr_emitter.cc): each thread takes one
// matrix of the batch, kept in the kernel's output argument, and computes in
// f64 from the stored values, storing in the element type, as the
// interpreter does (core/eval/eval_linalg.cc).
#pragma once

#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "core/codegen/emitters.h"

namespace hloscope::codegen {

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

}  // namespace hloscope::codegen
