// The per-kind kernel emitters (one file each: loop_emitter.cc,
// reduction_emitter.cc, transpose_emitter.cc, dot_emitter.cc,
// convolution_emitter.cc, sort_emitter.cc, scatter_emitter.cc), and the
// elemental generator they share. kernel_emitter.cc dispatches to them.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "core/codegen/kernel_emitter.h"

namespace llvm {
class IRBuilderBase;
class Value;
class Function;
}  // namespace llvm

namespace hloscope::codegen {

// Generates the value of an instruction at a multi-dimensional index, as XLA's
// elemental IR emitter does: for a fusion kernel, instructions of the fused
// computation (parameters read the kernel's operand arguments); for an
// unfused kernel, the instruction's operands are read from their arguments.
// Index: one i64 per dimension of the instruction's shape, logical order.
// Values are cached per (instruction, index) within one basic block scope.
class ElementalEmitter {
 public:
  // `args`: the kernel function's arguments, in KernelSpec::args order.
  ElementalEmitter(llvm::IRBuilderBase& b, const KernelSpec& spec, std::vector<llvm::Value*> args);
  ~ElementalEmitter();

  StatusOr<llvm::Value*> Emit(const Instruction* instr, const std::vector<llvm::Value*>& index);
  // Every array leaf of `instr` at `index`: one value, or for a variadic
  // reduce / reduce-window (a tuple of N results) its N values.
  StatusOr<std::vector<llvm::Value*>> EmitLeaves(const Instruction* instr, const std::vector<llvm::Value*>& index);
  // Address of element `index` of kernel argument `arg` (layout-aware); for
  // the packed sub-byte types (IsSubByte), the address of its byte.
  llvm::Value* ElementAddress(int arg, const std::vector<llvm::Value*>& index);
  // The same with the argument's memory seen as `view` (an array of its
  // element type and element count: a bitcast of it), `index` into `view`.
  llvm::Value* ElementAddressAs(int arg, const Shape& view, const std::vector<llvm::Value*>& index);
  // Loads/stores an element in its storage type (pred as i8 ↔ i1 value;
  // sub-byte types packed in their byte, stored with atomic and/or).
  llvm::Value* Load(int arg, const std::vector<llvm::Value*>& index);
  void Store(int arg, const std::vector<llvm::Value*>& index, llvm::Value* v);
  // Applies a scalar computation (reducer, comparator) to scalar values;
  // returns one value per root leaf.
  StatusOr<std::vector<llvm::Value*>> EmitScalarComputation(const Computation& c,
                                                           const std::vector<llvm::Value*>& params);
  // Forgets cached values (call when leaving the scope they were made in).
  void ClearCache();
  // Generates `instr` with `gen` instead of from its operands (the
  // normalization emitter's per-row reduction results). Cached like any value.
  using Generator = std::function<StatusOr<llvm::Value*>(const std::vector<llvm::Value*>& index)>;
  void Override(const Instruction* instr, Generator gen);

  llvm::IRBuilderBase& builder() { return b_; }
  const KernelSpec& spec() const { return spec_; }

 private:
  struct Impl;
  llvm::IRBuilderBase& b_;
  const KernelSpec& spec_;
  Impl* impl_;
};

// Creates `void @spec.name(ptr %arg0, …)` with noalias on non-aliased args and
// an entry block; the builder is positioned there.
llvm::Function* CreateKernelFunction(llvm::Module& module, const KernelSpec& spec,
                                     llvm::IRBuilderBase& b);

// Launch dimensions of a one-thread-per-element kernel over `elements`
// (block 256 or less for tiny kernels; grid capped, the kernel's grid-stride
// loop covers the rest).
runtime::LaunchDims LoopLaunchDims(int64_t elements, const DeviceSpec* device);

// Emitters (signature: KernelEmitterFn).
StatusOr<EmittedKernel> EmitLoopKernel(llvm::Module& m, const KernelSpec& spec);        // loop fusions, elementwise, copy, concatenate, data movement
StatusOr<EmittedKernel> EmitReductionKernel(llvm::Module& m, const KernelSpec& spec);   // reduce / input fusions: row, column, full, variadic, multi-output
StatusOr<EmittedKernel> EmitNormalizationKernel(llvm::Module& m, const KernelSpec& spec);  // reductions under elementwise ops (softmax, layer norm): a warp or block per row
// Whether EmitNormalizationKernel takes the fusion, else why not.
Status CheckNormalization(const Instruction& fusion);
StatusOr<EmittedKernel> EmitTransposeKernel(llvm::Module& m, const KernelSpec& spec);   // tiled through shared memory
StatusOr<EmittedKernel> EmitDotKernel(llvm::Module& m, const KernelSpec& spec);         // tiled shared-memory GEMM, batch dims
StatusOr<EmittedKernel> EmitConvolutionKernel(llvm::Module& m, const KernelSpec& spec);
StatusOr<EmittedKernel> EmitSortKernel(llvm::Module& m, const KernelSpec& spec);
StatusOr<EmittedKernel> EmitSelectAndScatterKernel(llvm::Module& m, const KernelSpec& spec);  // gathered per output element
StatusOr<EmittedKernel> EmitFftKernel(llvm::Module& m, const KernelSpec& spec);         // direct DFT per output element
StatusOr<EmittedKernel> EmitTriangularSolveKernel(llvm::Module& m, const KernelSpec& spec);  // one thread per vector
StatusOr<EmittedKernel> EmitCholeskyKernel(llvm::Module& m, const KernelSpec& spec);    // one thread per matrix
StatusOr<EmittedKernel> EmitLuKernel(llvm::Module& m, const KernelSpec& spec);          // getrf calls, one thread per matrix
StatusOr<EmittedKernel> EmitEighKernel(llvm::Module& m, const KernelSpec& spec);        // syevd calls (jnp.linalg.eigh), one thread per matrix
StatusOr<EmittedKernel> EmitSvdKernel(llvm::Module& m, const KernelSpec& spec);         // gesdd / gesvdj calls (jnp.linalg.svd), one thread per matrix
StatusOr<EmittedKernel> EmitQrKernel(llvm::Module& m, const KernelSpec& spec);          // geqrf / orgqr calls, one thread per matrix
StatusOr<EmittedKernel> EmitCondensedFormKernel(llvm::Module& m, const KernelSpec& spec);  // sytrd / gehrd / gtsv calls, one thread per matrix
StatusOr<EmittedKernel> EmitGeevKernel(llvm::Module& m, const KernelSpec& spec);  // geev calls, one thread per matrix
StatusOr<EmittedKernel> EmitComplexGeevKernel(llvm::Module& m, const KernelSpec& spec);  // complex geev calls
StatusOr<EmittedKernel> EmitLuPivotsToPermutationKernel(llvm::Module& m, const KernelSpec& spec);  // cu_lu_pivots_to_permutation
StatusOr<EmittedKernel> EmitTopKKernel(llvm::Module& m, const KernelSpec& spec);        // selection rounds, one block per row
StatusOr<EmittedKernel> EmitScatterKernel(llvm::Module& m, const KernelSpec& spec);     // in place
StatusOr<EmittedKernel> EmitDynamicUpdateSliceKernel(llvm::Module& m, const KernelSpec& spec);  // in place
StatusOr<EmittedKernel> EmitRngBitGeneratorKernel(llvm::Module& m, const KernelSpec& spec);    // bits + new state (rng_emitter.cc)
StatusOr<EmittedKernel> EmitRngGetAndUpdateStateKernel(llvm::Module& m, const KernelSpec& spec);  // the module's rng state global (rng_state_emitter.cc)

}  // namespace hloscope::codegen
