// Cost estimates for fusion decisions without changing the module: what the
// kernels would cost if `producer` were fused into `consumers`.
#pragma once

#include <vector>

#include "core/cost/cost_model.h"

namespace hloscope {

// The inputs a kernel reads from outside itself, with the bytes read.
std::vector<std::pair<const Instruction*, int64_t>> KernelInputs(const Instruction& kernel);

// Cost of the kernels `producer` and `consumers` as they are now.
Cost CostUnfused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                 const DeviceSpec& d);
// Cost after fusing `producer` into every consumer in `consumers` (the
// producer's own kernel stays if it has other users).
Cost CostFused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
               const DeviceSpec& d);

}  // namespace hloscope
