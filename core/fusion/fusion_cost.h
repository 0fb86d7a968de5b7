// Cost estimates for fusion decisions without changing the module: what the
// kernels would cost if `producer` were fused into `consumers`.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
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
  // What identifies a kernel's state within one run of a fusion pass: its
  // instruction count and operand count (see above); -1 without an id.
  static int64_t StateOf(const Instruction& k);
  // The one kernel `consumer` becomes with `producer` computed inside it
  // (CostFused's part for one consumer), remembered for the pair in the
  // states both are in: priority fusion evaluates the same pair again
  // whenever a neighbour of the producer changes (on Llama 3.1 8B, 410k
  // estimates of 72k distinct pairs). `compute` makes it when not known.
  template <typename F>
  Cost FusedOf(const Instruction& producer, const Instruction& consumer, F compute);
  // A fusibility verdict for the pair (the empty string: fusible), the same
  // way, under the caller's `flags` (the rules it asked with).
  template <typename F>
  std::string FusibleOf(const Instruction& producer, const Instruction& consumer, int flags, F compute);

 private:
  struct Entry {
    int64_t size = -1;
    bool has_cost = false, has_flops = false, has_reads = false, has_cycles = false;
    Cost cost;
    double flops = 0, cycles = 0;
    // By operand number (fusions; then the fused constants) or distinct
    // operand (others); the operands themselves are read afresh.
    std::vector<InputRead> reads;
    // Its pairs as a consumer (few: about one per operand), with the
    // producer in the state it was in.
    struct FusedMemo {
      int64_t producer, producer_state;
      Cost cost;
    };
    struct FusibleMemo {
      int64_t producer, producer_state;
      int flags;
      std::string refusal;
    };
    std::vector<FusedMemo> fused;
    std::vector<FusibleMemo> fusible;
  };
  // The entry of `k` (reset when `k` has changed); null for an instruction
  // without an id, which is not remembered.
  Entry* Find(const Instruction& k);
  const DeviceSpec& device_;
  // Entries in the order kernels are first asked about, found by id through
  // slot_of_ (-1: none). Ids run far past the instruction count (fusions
  // renumber what they take in), so an entry per id would mostly be empty.
  std::vector<int32_t> slot_of_;
  std::deque<Entry> entries_;  // a deque: entries stay where they are as it grows
};

template <typename F>
Cost KernelCostCache::FusedOf(const Instruction& producer, const Instruction& consumer, F compute) {
  Entry* e = Find(consumer);
  const int64_t state = StateOf(producer);
  if (!e || state < 0) return compute();
  for (const Entry::FusedMemo& m : e->fused)
    if (m.producer == producer.id() && m.producer_state == state) return m.cost;
  const Cost c = compute();
  e = Find(consumer);  // the same entry: `compute` changes no kernel
  e->fused.push_back({producer.id(), state, c});
  return c;
}

template <typename F>
std::string KernelCostCache::FusibleOf(const Instruction& producer, const Instruction& consumer, int flags,
                                       F compute) {
  Entry* e = Find(consumer);
  const int64_t state = StateOf(producer);
  if (!e || state < 0) return compute();
  for (const Entry::FusibleMemo& m : e->fusible)
    if (m.producer == producer.id() && m.producer_state == state && m.flags == flags) return m.refusal;
  std::string r = compute();
  e = Find(consumer);
  e->fusible.push_back({producer.id(), state, flags, r});
  return r;
}

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
