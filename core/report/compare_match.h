// Matching the ops of two modules for compare (core/report/compare.h):
// which instruction of A computes what an instruction of B computes, and
// how each match was made. The order of trust is in docs/compare.md ("How
// instructions are matched"); the names of the ways are the keys of
// CompareResult::matched_by.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"

namespace hloscope::report::compare_detail {

// One matchable op: an instruction of the entry or inside one of its fusions.
struct Atom {
  const Instruction* instr = nullptr;
  const Instruction* kernel = nullptr;  // the entry instruction holding it (fusion or itself)
  int match = -1;                       // index into the other side's atoms
  const char* how = nullptr;            // how the match was made ("name", "op_name", ...)
};

// One module's matchable ops and the classes of the values already matched.
struct Side {
  const Module* m = nullptr;
  std::vector<Atom> atoms;
  std::unordered_map<const Instruction*, int> atom_of;
  std::unordered_map<const Instruction*, std::string> class_of;  // resolved value → class key
  // The async-start that runs each asynchronous computation (XLA GPU's
  // `fusion-start`/`fusion-done` around a dynamic-slice fusion): the wrapped
  // computation's ops are the kernel's ops, its parameters the
  // async-start's operands.
  std::unordered_map<const Computation*, const Instruction*> async_caller;

  // Collects the ops of `c`, descending into fusions (their fused
  // instructions are ops of the fusion's kernel).
  void Collect(const Computation& c, const Instruction* kernel);
  // Sets m and collects the entry, then the computations control flow calls
  // (while bodies and conditions, conditional branches, calls): the
  // computations that launch kernels.
  void CollectModule(const Module& module);
  // The instruction whose value `i` carries, looking through fused
  // parameters, fusions (their root), tuples and transparent ops.
  const Instruction* Resolve(const Instruction* i) const;
  // Entry parameters by number, small constants by value, matched ops by
  // their match; "" for an op not matched yet. With `leaf_values`,
  // rematerializable leaves (iotas, broadcasts of constants or scalars) by
  // their value too, whichever copy and whether matched or not.
  std::string ClassOf(const Instruction* operand, bool leaf_values = false) const;
  // The atom computing `i`'s value, or -1.
  int AtomIndex(const Instruction* i) const;
};

// Matches a's atoms with b's (Atom::match, Atom::how) and counts the
// matches by how they were made.
void MatchSides(Side& a, Side& b, std::map<std::string, int64_t>* matched_by);

// Whether an op_name reads as an instruction name ("div.230"), not as JAX's
// path of a source op ("jit(f)/add").
inline bool IsInstructionName(const std::string& op_name) {
  return !op_name.empty() && op_name.find_first_of("/ ()[]:") == std::string::npos;
}

}  // namespace hloscope::report::compare_detail
