#include "core/fusion/reachability.h"

#include <unordered_set>

namespace hloscope {

Reachability::Reachability(const Computation& c) {
  int k = 0;
  for (Instruction* i : c.MakePostOrder()) pos_[i] = k++;
}

bool Reachability::Reaches(const Instruction* from, const Instruction* to) const {
  auto pf = pos_.find(from), pt = pos_.find(to);
  if (pf == pos_.end() || pt == pos_.end()) return false;
  if (from == to) return true;
  if (pf->second > pt->second) return false;  // topological order
  int limit = pt->second;
  std::vector<const Instruction*> stack = {from};
  std::unordered_set<const Instruction*> seen = {from};
  while (!stack.empty()) {
    const Instruction* x = stack.back();
    stack.pop_back();
    auto visit = [&](const Instruction* u) {
      if (u == to) return true;
      auto pu = pos_.find(u);
      if (pu == pos_.end() || pu->second > limit || !seen.insert(u).second) return false;
      stack.push_back(u);
      return false;
    };
    for (const Instruction* u : x->users())
      if (visit(u)) return true;
    for (const Instruction* u : x->control_successors())
      if (visit(u)) return true;
  }
  return false;
}

}  // namespace hloscope
