#include "core/passes/traversal.h"

#include <unordered_set>

namespace hloscope {

std::vector<Instruction*> PostOrder::Of(const Computation& comp) {
  // Computation::MakePostOrder keeps its state by id too (per thread).
  return comp.MakePostOrder();
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
