// What running a plan gives back, whichever executor ran it.
#pragma once

#include <string>
#include <vector>

#include "core/ir/literal.h"
#include "core/runtime/thunk_plan.h"

namespace hloscope::runtime {

struct KernelTiming {
  const KernelThunk* kernel = nullptr;  // into the plan that ran
  std::vector<double> us;               // one per launch (loops launch more than once)
  double MedianUs() const;
  double TotalUs() const;
};

struct RunResult {
  std::string device;                   // "cpu (x86_64, 1 thread)" / "NVIDIA H200 (sm_90)"
  std::vector<Literal> outputs;         // flattened entry outputs (PlanValue order)
  std::vector<KernelTiming> kernels;    // one per kernel thunk, execution order of first launch
  double copy_gbps = 0;                 // measured device-to-device copy bandwidth (0 = not measured)
  double total_ms = 0;                  // wall time of the whole plan (last repeat)
};

}  // namespace hloscope::runtime
