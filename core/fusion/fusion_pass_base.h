// Shared plumbing of the fusion passes: which computations they run on, the
// device they cost against, and recording decisions into the pass log.
#pragma once

#include <string>
#include <vector>

#include "core/cost/cost_model.h"
#include "core/fusion/fusion_cost.h"
#include "core/passes/pass.h"

namespace hloscope {

class FusionPassBase : public Pass {
 protected:
  // Entry and control-flow bodies (while, conditional, call); never fused
  // computations or reducers.
  static std::vector<Computation*> FusibleComputations(Module& m);
  // Records a decision about `producer` and `consumers` with costs.
  void Decide(const Instruction& producer, const std::vector<const Instruction*>& consumers, FusionVerdict v,
              std::string reason, const Cost& before, const Cost& after);
  DeviceSpec device_ = CurrentDevice();
};

// Registers fusion, fusion_merger, multi_output_fusion, priority_fusion,
// horizontal_loop_fusion and the gpu / gpu-classic pipelines.
class PassRegistry;
void RegisterFusionPasses(PassRegistry& r);

}  // namespace hloscope
