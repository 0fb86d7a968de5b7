// Deep copies of instructions and computations, for passes that duplicate
// code (call_inliner, flatten_call_graph). Copies get fresh ids and names
// from Module::UniqueName; attributes, metadata and called computations are
// kept. Fused computations are cloned along with their fusion instruction.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"

namespace hloscope {

// A copy of `instr` (not yet in any computation) reading `operands`, named
// Module::UniqueName(instr.name()). Fusion instructions get their own clone
// of the fused computation (added to `module` before the original).
std::unique_ptr<Instruction> CloneInstruction(const Instruction& instr,
                                              const std::vector<Instruction*>& operands, Module& module);

// Adds a copy of `comp` named `new_name` to `module`, just before `comp`
// (so its callees still come first). Control dependencies are copied.
Computation* CloneComputation(const Computation& comp, Module& module, const std::string& new_name);

}  // namespace hloscope
