// Codegen's public API: the optimized module + its buffer assignment → a
// ThunkPlan and, per kernel, LLVM IR (as emitted, and after O3) and PTX.
//
//   ASSIGN_OR_RETURN(CodegenResult r, GenerateKernels(module, *buffers, {}));
//   r.plan      → executors (CPU: cpu_executor.h, CUDA: core/runtime)
//   r.kernels   → one KernelCode per kernel thunk, AllKernels(plan) order
//
// Launches of identical fused computations (KernelKey) share one kernel, as
// XLA's do: the first holds the code, the others name it (KernelCode::kernel,
// same_as; KernelThunk::kernel). Distinct kernels compile on
// CodegenOptions::threads threads.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/codegen/sass.h"
#include "core/cost/device.h"
#include "core/ir/module.h"
#include "core/memory/buffer_assignment.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::codegen {

struct CodegenOptions {
  std::string sm = "sm_90";           // any of NvptxTargetList()
  std::optional<DeviceSpec> device;   // launch-dimension choices; default CurrentDevice()
  bool emit_ptx = true;               // false: IR only (no libdevice, O3 or PTX)
  bool validate = false;              // run ptxas on every PTX (error if ptxas is missing)
  // Assemble every PTX (ptxas -v) and disassemble the cubin (nvdisasm):
  // KernelCode::sass and resources, and the manifest's "sass"/"resources"
  // (core/codegen/sass.h). A kernel whose SASS cannot be made keeps its PTX
  // and says why (KernelCode::sass_error).
  bool sass = false;
  // CompileText/CompileFile fill constants elided in the text ({...}) from
  // this seed (FillElidedConstants) instead of refusing the module.
  uint64_t elided_seed = 0;
  int threads = 0;                    // kernels compiled at once; 0: one per core
  bool share_kernels = true;          // identical fused computations share one kernel
  // Line info (core/codegen/line_info.h): the IR's !dbg, the PTX's .loc and
  // the SASS's line comments name the line of the HLO instruction each came
  // from in PrintModule(optimized) (KernelCode::hlo_file). The code is the
  // same without.
  bool line_info = true;
  // Called now and then from the calling thread while kernels compile:
  // distinct kernels done, distinct kernels in all.
  std::function<void(size_t done, size_t total)> progress;
};

struct KernelCode {
  std::string name;          // = KernelThunk::name (the launch)
  std::string kernel;        // = KernelFunction(thunk): the LLVM function it launches
  int same_as = -1;          // >= 0: shares the code of kernels[same_as] (ir, ptx empty here)
  std::string kind;          // = KernelThunk::kind
  std::string strategy;      // = KernelThunk::strategy
  std::string instruction;   // the HLO instruction it implements
  std::string ir;            // the emitted module, before libdevice and O3 (the CPU path retargets this)
  std::string optimized_ir;  // after libdevice + O3
  std::string ptx;
  // The file name the line info of ir/ptx/sass refers to ("<module>.hlo":
  // PrintModule(optimized)); "" without CodegenOptions::line_info.
  std::string hlo_file;
  // With CodegenOptions::sass: nvdisasm's text, ptxas's resources and the
  // instruction classes (empty/zero where shared, as ir and ptx).
  std::string sass;
  KernelResources resources;
  SassStats sass_stats;
  std::string sass_error;    // why there is no SASS ("" when made or not asked)
  double ms = 0;             // wall time to emit and compile this kernel (0 where shared)
  std::string missing;       // non-empty: no code (= KernelThunk::missing), and why
};

struct CodegenResult {
  runtime::ThunkPlan plan;
  std::vector<KernelCode> kernels;
  size_t distinct = 0;  // kernels with code of their own
  double wall_ms = 0;   // emitting and compiling all of them (on `threads` threads)
  int threads = 1;
  // The code of kernels[k]: itself, or the kernel it shares.
  const KernelCode& CodeOf(size_t k) const {
    return kernels[k].same_as >= 0 ? kernels[static_cast<size_t>(kernels[k].same_as)] : kernels[k];
  }
};

StatusOr<CodegenResult> GenerateKernels(const Module& optimized, const BufferAssignment& buffers,
                                        const CodegenOptions& options = {});

// parse → pipeline (default "gpu") → AssignBuffers → GenerateKernels.
struct CompiledFile {
  std::unique_ptr<Module> module;  // the optimized module
  // Constants elided in the text ({...}) that were filled with
  // FillElidedConstants(module, CodegenOptions::elided_seed) before the
  // pipeline ("computation/name"); also in the plan's manifest.
  std::vector<std::string> synthesized_constants;
  std::shared_ptr<const BufferAssignment> buffers;
  CodegenResult codegen;
};
// "FILE:LINE:COL: error: REASON" for each kernel of `f` no code could be
// generated for (KernelThunk::missing), located at the instruction.
std::vector<std::string> MissingKernelMessages(const CompiledFile& f, const std::string& origin);
// HLO text or StableHLO MLIR (`.mlir`, converted as LoadModuleFile does).
StatusOr<CompiledFile> CompileFile(const std::string& path, const std::string& pipeline = "gpu",
                                   const CodegenOptions& options = {});
// The same from HLO text (`origin` names it in errors).
StatusOr<CompiledFile> CompileText(const std::string& text, const std::string& origin,
                                   const std::string& pipeline = "gpu", const CodegenOptions& options = {});

}  // namespace hloscope::codegen
