#include "core/passes/side_effects.h"

namespace hloscope {

bool SideEffectAnalysis::Has(const Instruction& instr) {
  if (instr.HasSideEffect()) return true;
  for (const CalledRef& r : instr.called_refs())
    for (const Computation* c : r.comps)
      if (c && ComputationHas(*c)) return true;
  return false;
}

bool SideEffectAnalysis::ComputationHas(const Computation& comp) {
  auto it = memo_.find(&comp);
  if (it != memo_.end()) return it->second;
  memo_[&comp] = false;  // breaks (invalid) recursion
  bool has = false;
  for (const auto& i : comp.instructions()) {
    if (Has(*i)) {
      has = true;
      break;
    }
  }
  memo_[&comp] = has;
  return has;
}

}  // namespace hloscope
