// Control flow and index arithmetic shared by the tiled kernel emitters
// (reduction, transpose, dot, convolution, sort, scatter, dynamic-update-slice):
// counted loops, guarded blocks, entry-block allocas, row-major
// (de)linearisation, physical dimension orders, and the kernel's roots and
// output arguments.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "core/codegen/emitters.h"
#include "core/codegen/kernel_emitter.h"
#include "core/ir/custom_calls.h"
#include "core/support/status.h"

namespace llvm {
class IRBuilderBase;
class Value;
class Type;
}  // namespace llvm

namespace hloscope::codegen {

using BodyFn = std::function<Status(llvm::Value* iv)>;

llvm::Value* I64(llvm::IRBuilderBase& b, int64_t v);

// for (iv = start; iv < end; iv += step) body(iv);  i64 values, signed compare.
Status ForLoop(llvm::IRBuilderBase& b, llvm::Value* start, llvm::Value* end, llvm::Value* step,
               const BodyFn& body);
// for (i = global thread id; i < n; i += threads in the grid) body(i): the
// grid-stride loop of one-thread-per-element kernels (1-D grid and blocks).
Status GridStrideLoop(llvm::IRBuilderBase& b, int64_t n, const BodyFn& body);
// if (cond) then();  the builder continues after the block.
Status IfThen(llvm::IRBuilderBase& b, llvm::Value* cond, const std::function<Status()>& then);

// A stack slot in the function's entry block (promoted to a register by SROA).
llvm::Value* EntryAlloca(llvm::IRBuilderBase& b, llvm::Type* t, const std::string& name);

// Row-major coordinates of `linear` over `sizes` (i64 values; size-1 dims get 0).
std::vector<llvm::Value*> Delinearize(llvm::IRBuilderBase& b, llvm::Value* linear,
                                      const std::vector<int64_t>& sizes);
// Writes the coordinates of `linear` over dims `dims` of `shape` (row-major in
// the order given) into `index[dims[i]]`.
void DelinearizeInto(llvm::IRBuilderBase& b, llvm::Value* linear, const Shape& shape,
                     const std::vector<int64_t>& dims, std::vector<llvm::Value*>& index);

// Logical dimensions from the most major to the most minor in memory.
std::vector<int64_t> MajorToMinor(const Shape& s);
int64_t Product(const Shape& s, const std::vector<int64_t>& dims);

// Thread index inside the block and block index (x only: our kernels use 1-D
// blocks and grids), as i64.
llvm::Value* ThreadId64(llvm::IRBuilderBase& b);
llvm::Value* BlockId64(llvm::IRBuilderBase& b);

// The instructions whose values are the kernel's outputs: the fused root (or
// the elements of a root tuple) for a fusion, the instruction itself otherwise.
std::vector<const Instruction*> KernelRoots(const Instruction& instr);
// Operand `k` of `hero` at `index`: loaded from its kernel argument when
// `hero` is the (unfused) kernel instruction, else generated elementally.
StatusOr<llvm::Value*> EmitOperand(ElementalEmitter& ee, const Instruction* hero, int k,
                                   const std::vector<llvm::Value*>& index);
// The kernel's single root when it is an `op` (the hero of the emitters for
// topk, cholesky, fft, select-and-scatter, triangular-solve: unfused, or at
// the root of a fusion of its producers); else an error naming both.
StatusOr<const Instruction*> SingleRootOfKind(const KernelSpec& spec, Opcode op);
// The kernel's single root as a linalg custom-call (custom_calls.h: JAX's
// LAPACK-style calls, the heroes of the matrix emitters), or nullopt.
struct RootLinalgCall {
  const Instruction* instr = nullptr;
  LinalgCall call;
};
std::optional<RootLinalgCall> FindRootLinalgCall(const KernelSpec& spec);
// The same, required to be one of `kinds`; else an error naming the kernel
// and what the emitter needs ("<kernel>: <needs> at the kernel root").
StatusOr<RootLinalgCall> RootLinalgCallOfKind(const KernelSpec& spec, std::initializer_list<LinalgCall::Kind> kinds,
                                              const std::string& needs);
// Index of the first output argument of the kernel.
int FirstOutputArg(const KernelSpec& spec);
// The argument holding operand `operand` (first leaf), or -1.
int ArgOfOperand(const KernelSpec& spec, int operand);
// The instruction inside the kernel that a fused parameter stands for: for a
// fusion, parameter p ↔ operand p of the fusion; -1 when `i` is no parameter.
int FusionParameterOperand(const KernelSpec& spec, const Instruction* i);

// Whether `i` reads `target` inside the kernel: within a fused computation,
// through its instructions down to the fused parameters; for an unfused
// instruction (whose operands are arguments, computed by earlier kernels),
// only when `i` is `target` (defined in dynamic_update_slice_emitter.cc,
// with WritesInPlace).
bool DependsOn(const KernelSpec& spec, const Instruction* i, const Instruction* target);
// Whether the kernel's (single) output shares storage with the argument that
// `base` (a fused parameter or an operand of the unfused instruction) reads.
bool WritesInPlace(const KernelSpec& spec, const Instruction* base);

// Warp shuffle of any register value (i1 is widened for the transfer).
llvm::Value* ShuffleDownAny(llvm::IRBuilderBase& b, llvm::Value* v, int delta);

// A dot/convolution operand element of type `from` converted as the
// interpreter prepares operands: to the result type `rt`, then to the compute
// type `ct` (defined in dot_emitter.cc).
StatusOr<llvm::Value*> ToComputeType(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType from,
                                     PrimitiveType rt, PrimitiveType ct);

// Number of blocks for `n` items at `per_block` each (at least 1).
uint32_t BlocksFor(int64_t n, int64_t per_block);

}  // namespace hloscope::codegen
