// Data-dependence queries inside one computation (for multi-output and
// horizontal fusion, which must not create cycles).
//
// Like XLA's HloReachabilityMap: every instruction gets a dense slot and a
// bitset of the slots it depends on (itself included, through operands and
// control predecessors), so a query is one bit test. Built once per
// computation in O(n · n/64) word operations; after a fusion only the
// changed instruction and the descendants whose sets actually grow are
// recomputed (Update), in topological order.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/computation.h"

namespace hloscope {

class Reachability {
 public:
  explicit Reachability(const Computation& c);
  // True if `to` depends (transitively, through operands or control edges)
  // on `from`; an instruction reaches itself. False when either is not an
  // instruction of the computation.
  bool Reaches(const Instruction* from, const Instruction* to) const;
  bool Independent(const Instruction* a, const Instruction* b) const {
    return !Reaches(a, b) && !Reaches(b, a);
  }
  // After a merge: `seeds` are the instructions whose operands or control
  // predecessors changed, or that are new; every instruction new since the
  // last update must be a seed or reachable from one through users (the
  // builders' get-tuple-elements are users of the merged fusion). Their sets
  // and those of their descendants are brought up to date; removed
  // instructions may be left in the map: they are never found again.
  void Update(const std::vector<Instruction*>& seeds);

  // A cheaper exact update for MergeSiblingFusions(a, b): take the ticket
  // before the merge (and before a or b is wrapped into a fusion), pass the
  // merged fusion after it. The merge only adds paths through the merged
  // kernel and its get-tuple-elements (tuples), so every former descendant
  // of a (b) gains the ancestors of a's (b's) replacement: one bit test per
  // row and one OR per descendant, with no recomputation in depth order.
  struct SiblingMerge {
    int slot_a = -1, slot_b = -1;
    int64_t outputs_a = 0;  // results of `a`: the first get-tuple-elements of the merged fusion
  };
  SiblingMerge BeforeSiblingMerge(const Instruction* a, const Instruction* b) const;
  void AfterSiblingMerge(const SiblingMerge& t, Instruction* merged);

  // The same for FuseAsExtraOutput(consumer, producer): ticket before the
  // merge (before either is wrapped), the consumer fusion after it. Former
  // descendants of the consumer gain its first get-tuple-element's set,
  // former descendants of the producer's other users the extra output's.
  struct ExtraOutput {
    int slot_c = -1;
    std::vector<int> other_users;  // slots of the producer's users but the consumer
  };
  ExtraOutput BeforeExtraOutput(const Instruction* producer, const Instruction* consumer) const;
  void AfterExtraOutput(const ExtraOutput& t, Instruction* consumer);

  // Instructions recomputed by the updates so far (for tests and benchmarks).
  int64_t recomputed() const { return recomputed_; }

 private:
  void Build();
  int SlotOf(const Instruction* i) const;
  int AddSlot(const Instruction* i);
  uint64_t* Row(int slot) { return bits_.data() + static_cast<size_t>(slot) * words_; }
  const uint64_t* Row(int slot) const { return bits_.data() + static_cast<size_t>(slot) * words_; }
  // Recomputes the row of `slot` from its operands; true if it changed.
  bool Recompute(int slot, const Instruction* i);

  const Computation* comp_;
  std::vector<int> slot_of_id_;           // instruction id → slot, -1 if none
  std::vector<const Instruction*> instr_;  // slot → instruction
  std::vector<uint64_t> bits_;             // capacity_ rows of words_ words
  std::vector<uint64_t> scratch_;
  std::vector<char> queued_;
  std::vector<int> depth_;  // slot → longest path from a source
  size_t words_ = 0;
  int capacity_ = 0;
  bool ids_unique_ = true;
  bool depths_stale_ = false;
  int64_t recomputed_ = 0;
};

}  // namespace hloscope
