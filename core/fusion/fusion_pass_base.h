// Shared plumbing of the fusion passes: which computations they run on, the
// device they cost against, and recording decisions into the pass log.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/cost/cost_model.h"
#include "core/fusion/fusion_cost.h"
#include "core/fusion/fusion_overrides.h"
#include "core/passes/pass.h"

namespace hloscope {

class FusionPassBase : public Pass {
 protected:
  // Entry and control-flow bodies (while, conditional, call); never fused
  // computations or reducers.
  static std::vector<Computation*> FusibleComputations(Module& m);
  // Call at the start of Run: picks up the current device and forgets the
  // decisions of the previous run.
  void BeginRun();
  // Records a decision about `producer` and `consumers` with costs, once per
  // run: a pass that revisits a candidate (multi-output fusion rescans the
  // computation after every merge) and reaches the same verdict for the same
  // reason does not log it again. Returns the index of the decision's record
  // in the log (the earlier one for such a repeat), where the caller may
  // then note the result.
  size_t Decide(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                FusionVerdict v, std::string reason, const Cost& before, const Cost& after);
  DeviceSpec device_ = CurrentDevice();
  // What-if overrides in force for this run (fusion_overrides.h): read at
  // BeginRun like the device.
  const FusionOverrides* overrides_ = &CurrentFusionOverrides();
  // The forbid pair that keeps `p` and `c` apart (nullptr: none).
  const FusionOverridePair* Forbidden(const Instruction& p, const Instruction& c) const {
    return overrides_->forbid.empty() ? nullptr : ForbiddenPair(*overrides_, p, c);
  }
  // The force pair asking to fuse `p` into `c` (nullptr: none).
  const FusionOverridePair* Forced(const Instruction& p, const Instruction& c) const;
  // For each forced pair whose producer or consumer no kernel of `m` holds
  // any more: a "not fused" record saying so (the override is refused).
  void RecordMissingForced(const Module& m);

 private:
  // Decisions logged this run, by a hash of (producer, consumers, verdict,
  // reason) → their indices in the log (compared in full on a hash match).
  std::unordered_multimap<uint64_t, size_t> logged_;
};

// Sets a decision's costs before or after the fusion (bytes, µs and the
// breakdown behind them: kernels, bytes read, the device's bandwidth and
// launch overhead), for Decide and for passes that measure the result after.
void SetDecisionCostBefore(FusionDecision& d, const Cost& c, const DeviceSpec& device);
void SetDecisionCostAfter(FusionDecision& d, const Cost& c, const DeviceSpec& device);

// Registers fusion, fusion_merger, multi_output_fusion, priority_fusion,
// horizontal_loop_fusion and the gpu / gpu-classic pipelines.
class PassRegistry;
void RegisterFusionPasses(PassRegistry& r);

}  // namespace hloscope
