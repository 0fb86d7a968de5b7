// Dense indices [0, size()) for the instructions of a computation or a
// module, so that schedulers and liveness use flat vectors instead of hash
// maps keyed by pointer. Instruction ids are the fast path (one table
// lookup); if ids are negative, repeated or too sparse, a hash map is used.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"

namespace hloscope {

class InstructionIndex {
 public:
  explicit InstructionIndex(const Computation& c) { Add(c); Finish(); }
  explicit InstructionIndex(const Module& m) {
    for (const auto& c : m.computations()) Add(*c);
    Finish();
  }

  int size() const { return static_cast<int>(instrs_.size()); }
  const Instruction* at(int k) const { return instrs_[k]; }
  // -1 for an instruction not indexed.
  int Of(const Instruction* i) const {
    if (by_id_ok_) {
      int64_t id = i->id();
      if (id < 0 || id >= static_cast<int64_t>(by_id_.size())) return -1;
      int k = by_id_[id];
      return k >= 0 && instrs_[k] == i ? k : -1;
    }
    auto it = map_.find(i);
    return it == map_.end() ? -1 : it->second;
  }

 private:
  void Add(const Computation& c) {
    for (const auto& i : c.instructions()) instrs_.push_back(i.get());
  }
  void Finish() {
    int64_t max_id = -1;
    bool ok = true;
    for (const Instruction* i : instrs_) {
      if (i->id() < 0) ok = false;
      max_id = std::max(max_id, i->id());
    }
    if (ok && max_id < 4 * static_cast<int64_t>(instrs_.size()) + 1024) {
      by_id_.assign(max_id + 1, -1);
      for (int k = 0; k < size() && ok; ++k) {
        int& slot = by_id_[instrs_[k]->id()];
        if (slot >= 0) ok = false;
        slot = k;
      }
    } else {
      ok = false;
    }
    by_id_ok_ = ok;
    if (!ok) {
      by_id_.clear();
      map_.reserve(instrs_.size());
      for (int k = 0; k < size(); ++k) map_.emplace(instrs_[k], k);
    }
  }

  std::vector<const Instruction*> instrs_;
  bool by_id_ok_ = false;
  std::vector<int> by_id_;
  std::unordered_map<const Instruction*, int> map_;
};

}  // namespace hloscope
