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
  int64_t recomputed_ = 0;
};

}  // namespace hloscope
