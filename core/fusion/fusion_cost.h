// Cost estimates for fusion decisions without changing the module: what the
// kernels would cost if `producer` were fused into `consumers`.
#pragma once

#include <vector>

#include "core/cost/cost_model.h"

namespace hloscope {

// The inputs a kernel reads from outside itself, with the bytes read
// (KernelReads).
std::vector<InputRead> KernelInputs(const Instruction& kernel);

// The numbers of one kernel that the estimates below read again and again
// while a fusion pass evaluates the same consumers for many producers: its
// cost as it stands, its flops, and the bytes it reads through each operand.
// Remembered by instruction id (never reused) and the number of
// instructions it computes: within one run of a fusion pass a kernel only
// changes by taking more instructions, so the same id, instruction count and
// operand count are the same kernel (fusing a producer always moves one of
// the counts). Operands are not remembered (they may be replaced by a fusion of
// the same shape); they are read from the kernel each time.
class KernelCostCache {
 public:
  explicit KernelCostCache(const DeviceSpec& d) : device_(d) {}
  Cost CostOf(const Instruction& k);
  double FlopsOf(const Instruction& k);
  double CyclesOf(const Instruction& k);
  // KernelInputs(k), the bytes remembered.
  std::vector<InputRead> InputsOf(const Instruction& k);

 private:
  struct Entry {
    int64_t size = -1;
    bool has_cost = false, has_flops = false, has_reads = false, has_cycles = false;
    Cost cost;
    double flops = 0, cycles = 0;
    // By operand number (fusions; then the fused constants) or distinct
    // operand (others); the operands themselves are read afresh.
    std::vector<InputRead> reads;
  };
  // The entry of `k` (reset when `k` has changed); null for an instruction
  // without an id, which is not remembered.
  Entry* Find(const Instruction& k);
  const DeviceSpec& device_;
  std::vector<Entry> by_id_;
};

// Cost of the kernels `producer` and `consumers` as they are now.
Cost CostUnfused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                 const DeviceSpec& d, KernelCostCache* cache = nullptr);
// Cost after fusing `producer` into every consumer in `consumers` (the
// producer's own kernel stays if it has other users).
Cost CostFused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
               const DeviceSpec& d, KernelCostCache* cache = nullptr);
// Cost of the one kernel `consumer` becomes when `producer` is an extra
// output of it (multi-output fusion: computed inside, its value written too;
// XLA's EstimateRunTimesForMultiOutputFusion).
Cost CostExtraOutput(const Instruction& producer, const Instruction& consumer, const DeviceSpec& d,
                     KernelCostCache* cache = nullptr);

}  // namespace hloscope
