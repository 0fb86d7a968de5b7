#include "core/passes/traversal.h"

#include <unordered_set>

namespace hloscope {

std::vector<Instruction*> PostOrder::Of(const Computation& comp) {
  std::vector<Instruction*> order;
  order.reserve(comp.instructions().size());
  int64_t max_id = -1;
  for (const auto& i : comp.instructions()) {
    if (i->id() < 0) return comp.MakePostOrder();
    max_id = std::max(max_id, i->id());
  }
  if (static_cast<int64_t>(state_.size()) <= max_id) state_.resize(static_cast<size_t>(max_id) + 1, 0);
  std::vector<std::pair<Instruction*, size_t>> stack;
  for (const auto& start : comp.instructions()) {
    if (state_[start->id()] == 2) continue;
    stack.push_back({start.get(), 0});
    state_[start->id()] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const size_t nops = node->operands().size();
      const size_t total = nops + node->control_predecessors().size();
      if (next < total) {
        Instruction* dep = next < nops ? node->operand(static_cast<int>(next)) : node->control_predecessors()[next - nops];
        ++next;
        if (dep->parent() != &comp || dep->id() < 0 || dep->id() > max_id || state_[dep->id()] != 0) continue;
        state_[dep->id()] = 1;
        stack.push_back({dep, 0});
        continue;
      }
      state_[node->id()] = 2;
      order.push_back(node);
      stack.pop_back();
    }
  }
  for (Instruction* i : order) state_[i->id()] = 0;
  return order;
}

std::vector<Computation*> NonFusionComputations(const Module& m) {
  std::vector<Computation*> out;
  out.reserve(m.computations().size());
  for (const auto& c : m.computations())
    if (!c->fusion_instruction) out.push_back(c.get());
  return out;
}

std::vector<Computation*> ComputationsCalleesFirst(const Module& m) {
  std::vector<Computation*> order;
  if (!m.entry()) return order;
  std::unordered_set<const Computation*> seen;
  // Iterative DFS: (computation, next instruction, next callee slot).
  struct Frame {
    Computation* comp;
    std::list<std::unique_ptr<Instruction>>::const_iterator it;
    size_t ref = 0, slot = 0;
  };
  std::vector<Frame> stack;
  seen.insert(m.entry());
  stack.push_back({m.entry(), m.entry()->instructions().begin()});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.it == f.comp->instructions().end()) {
      order.push_back(f.comp);
      stack.pop_back();
      continue;
    }
    const auto& refs = (*f.it)->called_refs();
    if (f.ref >= refs.size()) {
      ++f.it;
      f.ref = f.slot = 0;
      continue;
    }
    if (f.slot >= refs[f.ref].comps.size()) {
      ++f.ref;
      f.slot = 0;
      continue;
    }
    Computation* callee = refs[f.ref].comps[f.slot++];
    if (callee && seen.insert(callee).second) stack.push_back({callee, callee->instructions().begin()});
  }
  return order;
}

}  // namespace hloscope
