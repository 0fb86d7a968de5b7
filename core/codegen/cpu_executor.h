// CPU execution of the GPU kernels: the kernels' own LLVM IR, retargeted to
// the host and JIT-compiled (cpu_jit.h), run the ThunkPlan over one host
// buffer per buffer-assignment allocation, with emulated GPU threads
// (cpu_runtime.h). While loops and conditionals are driven on the host.
#pragma once

#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/ir/literal.h"
#include "core/runtime/plan_runner.h"
#include "core/runtime/run_result.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::codegen {

struct CpuKernelSource {
  std::string name;  // = KernelThunk::name
  std::string ir;    // LLVM IR text (NVPTX-flavoured, as emitted)
};

struct CpuRunOptions {
  int repeat = 1;  // runs of the whole plan; timings collect every run
  runtime::RunLimits limits;
};

// Compiles the kernels, loads `inputs` (one literal per entry parameter, or
// flattened leaves) and runs `plan`; the result's outputs are the flattened
// entry outputs. Kernel timings are wall-clock per launch.
StatusOr<runtime::RunResult> RunOnCpu(const runtime::ThunkPlan& plan, const std::vector<CpuKernelSource>& kernels,
                                      const std::vector<Literal>& inputs, const CpuRunOptions& opts = {});

// The same for a codegen result: its plan and each kernel's emitted IR.
StatusOr<runtime::RunResult> RunOnCpu(const CodegenResult& code, const std::vector<Literal>& inputs,
                                      const CpuRunOptions& opts = {});

// The most devices RunOnCpuDevices runs (one thread and one arena each).
inline constexpr int64_t kMaxCpuDevices = 256;

// A run of every device of the plan (plan.devices(): replicas ×
// partitions), each on a thread of its own over allocations of its own,
// meeting the others at the collectives, as the devices of an SPMD program
// do (core/runtime/collective_exchange.h; kernel launches take turns).
// `inputs[d]` are device d's entry inputs; the result holds each device's
// run, in device order. Refuses what ValidatePlanForDevices refuses.
StatusOr<std::vector<runtime::RunResult>> RunOnCpuDevices(const runtime::ThunkPlan& plan,
                                                          const std::vector<CpuKernelSource>& kernels,
                                                          const std::vector<std::vector<Literal>>& inputs,
                                                          const CpuRunOptions& opts = {});
StatusOr<std::vector<runtime::RunResult>> RunOnCpuDevices(const CodegenResult& code,
                                                          const std::vector<std::vector<Literal>>& inputs,
                                                          const CpuRunOptions& opts = {});

}  // namespace hloscope::codegen
