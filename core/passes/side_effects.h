// Side effects seen through called computations: a while loop whose body
// does an outfeed has a side effect even though `while` itself does not.
// DCE and CSE must keep/not merge such instructions.
#pragma once

#include <unordered_map>

#include "core/ir/module.h"

namespace hloscope {

class SideEffectAnalysis {
 public:
  // True if `instr` or anything in the computations it calls (transitively)
  // has a side effect (Instruction::HasSideEffect).
  bool Has(const Instruction& instr);
  bool ComputationHas(const Computation& comp);

 private:
  std::unordered_map<const Computation*, bool> memo_;
};

}  // namespace hloscope
