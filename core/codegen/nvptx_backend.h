// The NVPTX backend: a module per kernel set up for a target (triple, data
// layout), then verify → (keep the emitted IR) → link libdevice → O3 → PTX
// in memory; optional `ptxas` validation.
#pragma once

#include <memory>
#include <string>

#include "core/codegen/nvptx_targets.h"
#include "core/support/status.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace hloscope::codegen {

// A module for one kernel: triple nvptx64-nvidia-cuda, the target's data
// layout, and the nvvm-reflect-ftz flag (0: no flush to zero, as XLA).
StatusOr<std::unique_ptr<llvm::Module>> CreateNvptxModule(llvm::LLVMContext& ctx, const std::string& name,
                                                          const NvptxTarget& target);

struct PtxCode {
  std::string ir;            // the emitted module, before libdevice and O3
  std::string optimized_ir;  // after O3
  std::string ptx;
};

// Verifies the module, keeps its text, links the libdevice functions it calls
// (only those, internalized), runs the O3 pipeline and emits PTX. The module
// is consumed (changed in place).
StatusOr<PtxCode> CompileToPtx(llvm::Module& module, const NvptxTarget& target);

// libdevice.10.bc: $HLOSCOPE_LIBDEVICE, then next to ptxas, then the usual
// CUDA locations; "" when absent.
std::string LibdevicePath();
// The ptxas to validate with: $HLOSCOPE_PTXAS, the one CMake found, or PATH;
// "" when absent.
std::string PtxasPath();

// Runs `ptxas -arch=<sm>` on `ptx`; the error carries ptxas's log.
Status ValidatePtx(const std::string& ptx, const NvptxTarget& target);

}  // namespace hloscope::codegen
