// The contract between the kernel plan and the per-kind LLVM IR emitters.
//
// A kernel implements one HLO instruction of the optimized entry computation
// (usually a fusion). Its LLVM function is `void @<name>(ptr noalias %arg0, …)`
// with one generic-address-space pointer per argument, in this order:
//   1. one per operand of the instruction (operand order; a tuple-shaped
//      operand contributes one pointer per array leaf, leaf order);
//   2. one per array leaf of the instruction's result (leaf order).
// KernelSpec::args describes each. Arguments that share storage (in-place
// dynamic-update-slice/scatter: operand 0 and the output) are marked by
// `aliases`; they must not be `noalias` and the emitter must not assume they
// differ.
//
// What a kernel may use from the GPU, and only through core/codegen/ir_util.h
// (so that the CPU execution can provide each one): thread/block indices and
// sizes (llvm.nvvm.read.ptx.sreg.*), __syncthreads (llvm.nvvm.barrier0), warp
// shuffles (llvm.nvvm.shfl.sync.*), tensor-core mma.sync m16n8k16 with bf16 or
// f16 operands (llvm.nvvm.mma.*, sm_80+), static shared memory (addrspace(3)
// globals), atomics (atomicrmw/cmpxchg on generic pointers), and math through
// libdevice names (`__nv_expf`, …), which the GPU path links from the CUDA
// toolkit's libdevice and the CPU path maps to the host's libm.
#pragma once

#include <string>
#include <vector>

#include "core/cost/device.h"
#include "core/codegen/nvptx_targets.h"
#include "core/ir/instruction.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace llvm {
class Module;
}

namespace hloscope::codegen {

struct KernelArg {
  Shape shape;             // array shape (with layout) of this argument
  bool is_output = false;  // part 2 of the signature
  int operand = -1;        // operand number (part 1), -1 for outputs
  int aliases = -1;        // index of another arg with the same storage, or -1
  // The alignment the kernel may assume for the argument's address: 16
  // (allocations and buffer offsets are 16-byte aligned), less for an
  // argument that starts inside a buffer (a contiguous slice's run).
  int64_t align = 16;
};

struct HloLineTable;

struct KernelSpec {
  const Instruction* instr = nullptr;  // fusion or unfused instruction
  std::string name;                    // LLVM function name (a valid C identifier)
  std::vector<KernelArg> args;
  NvptxTarget target;
  const DeviceSpec* device = nullptr;  // for launch-dimension choices
  // Line info (core/codegen/line_info.h): where each instruction is in the
  // printed module; null: no debug locations.
  const HloLineTable* lines = nullptr;
};

struct EmittedKernel {
  std::string kind;  // see KernelThunk::kind
  runtime::LaunchDims dims;
  std::string strategy;  // see KernelThunk::strategy; "" where the kind says it all
};

// Emits the function `spec.name` into `module` (already set up for NVPTX by
// the backend: triple, data layout). Errors name the op no emitter handles.
using KernelEmitterFn = StatusOr<EmittedKernel> (*)(llvm::Module& module, const KernelSpec& spec);

// Picks the emitter for an instruction (the dispatch table lives in
// kernel_emitter.cc): fusion kinds, reductions, dot, convolution, …
StatusOr<KernelEmitterFn> SelectEmitter(const Instruction& instr);

}  // namespace hloscope::codegen
