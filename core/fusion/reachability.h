// Data-dependence queries inside one computation (for multi-output and
// horizontal fusion, which must not create cycles).
#pragma once

#include <unordered_map>
#include <vector>

#include "core/ir/computation.h"

namespace hloscope {

class Reachability {
 public:
  explicit Reachability(const Computation& c);
  // True if `to` depends (transitively, through operands or control edges)
  // on `from`.
  bool Reaches(const Instruction* from, const Instruction* to) const;
  bool Independent(const Instruction* a, const Instruction* b) const {
    return !Reaches(a, b) && !Reaches(b, a);
  }

 private:
  std::unordered_map<const Instruction*, int> pos_;
};

}  // namespace hloscope
