// Pieces of the verifier shared by its files. Not part of the public API.
#pragma once

#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/verify/verifier.h"

namespace hloscope::verify {

// Collects located error messages up to a limit.
class Errors {
 public:
  Errors(const Module& m, int max_errors);
  void Add(const Instruction& instr, const std::string& message);
  void Add(const Computation& c, const std::string& message);
  void AddModule(const std::string& message);
  bool full() const { return static_cast<int>(lines_.size()) >= max_; }
  bool empty() const { return lines_.empty(); }
  Status ToStatus() const;
  // Adds `other`'s messages after ours, up to our limit.
  void Append(const Errors& other);

 private:
  void Push(SourceLoc loc, const std::string& name, const std::string& message);
  std::string file_;
  int max_;
  std::vector<std::string> lines_;
};

// Module, computation and graph structure (verifier_structure.cc): entry,
// unique names, parents, operands and control edges inside the computation,
// no cycles, dense parameter numbers, a root, called computations that exist
// and no recursion among computations. Each instruction is visited once;
// `order` receives every instruction in module order (for the later walks).
void CheckStructure(const Module& m, Errors& errors, std::vector<const Instruction*>& order);

// Per-instruction checks that do not need shape inference
// (verifier_instructions.cc): arity, which called computations an opcode
// takes, layouts that fit their shapes.
void CheckInstructionForm(const Instruction& instr, Errors& errors);

// Shape checks (verifier_shapes.cc): the inferred shape against the declared
// one, plus the rules XLA's ShapeVerifier applies to ops without a shape
// rule (constants, rng, infeed, recv, async ops, comparison types, mixed
// precision, the entry computation layout).
void CheckInstructionShapes(const Instruction& instr, const VerifyOptions& opts, Errors& errors);
void CheckEntryLayout(const Module& m, Errors& errors);

}  // namespace hloscope::verify
