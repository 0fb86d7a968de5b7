// Runs a ThunkPlan on a CUDA GPU through the driver API (cuda_driver.h):
// primary context; one cuModuleLoadDataEx per kernel's PTX with the JIT's
// info and error logs captured; one cuMemAlloc per allocation; constants and
// inputs copied in; thunks launched in order (while/conditional driven from
// the host by reading the predicate back); every launch timed with a pair of
// events; outputs copied back. Every CUDA error names the call, the CUresult
// and the kernel.
#pragma once

#include <string>
#include <vector>

#include "core/ir/literal.h"
#include "core/runtime/bundle.h"
#include "core/runtime/plan_runner.h"
#include "core/runtime/run_result.h"
#include "core/support/status.h"

namespace hloscope::runtime {

struct CudaRunOptions {
  int device = 0;
  int repeat = 1;                       // whole-plan runs; each launch is timed every run
  std::string driver_path;              // "" = libcuda.so.1
  int64_t copy_probe_bytes = 256 << 20; // device-to-device copy measured once (0 = skip)
  // Keeps the GPU busy (memsets of a scratch buffer, ~0.2 ms) between
  // rewriting the inputs and each timed run, so that the run's first kernels
  // do not start on an idle GPU. Without it, a 64 MiB softmax alone timed at
  // 76.5 µs on an H200 where Nsight Compute measured 39.2 µs.
  bool warm_up = true;
  RunLimits limits;
};

// Whether kernels compiled for `target` ("sm_80", "sm_90a"; "" for older
// bundles: no check) run on a device of compute capability `cc` (10·major +
// minor) named `device`: a plain target on it and newer devices, an
// arch-specific one ("a") on exactly its architecture. The error says which
// --sm to regenerate with.
Status CheckTargetRunsOn(const std::string& target, int cc, const std::string& device);

// `kernels` must hold the PTX of every kernel of the plan.
StatusOr<RunResult> RunOnCuda(const ThunkPlan& plan, const std::vector<BundleKernel>& kernels,
                              const std::vector<Literal>& inputs, const CudaRunOptions& opts = {});

}  // namespace hloscope::runtime
