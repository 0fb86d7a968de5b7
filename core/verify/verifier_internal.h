// Pieces of the verifier shared by its files. Not part of the public API.
#pragma once

#include <string>
#include <unordered_map>
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
// With threads > 1 the checks run on that many threads first
// (verifier_structure_parallel.cc); only when they find something wrong does
// the serial walk run, so the messages are always the serial walk's.
void CheckStructure(const Module& m, Errors& errors, std::vector<const Instruction*>& order, int threads = 1);

// Pieces of CheckStructure shared with its parallel form.
// The module-level checks (an entry, no missing computation, unique
// computation names); false when the rest cannot be checked.
bool CheckModuleHeader(const Module& m, Errors& errors);
// A computation's own checks (module, non-empty, root); false when it has no
// instructions to walk.
bool CheckComputationHeader(const Module& m, const Computation& c, Errors& errors);
// Answers "is x among u's operands" for CheckEdges: a scan for short operand
// lists, a sorted copy (made once) for long ones — every operand of a tuple
// of 500 elements asks about it, and scanning made that quadratic.
class OperandLookup {
 public:
  bool Has(const Instruction& u, const Instruction* x);

 private:
  std::unordered_map<const Instruction*, std::vector<const Instruction*>> sorted_;
};
// The edges of `instr` in `c`; returns whether its operands and control
// predecessors all have smaller ids (else CheckAcyclic must decide).
bool CheckEdges(const Computation& c, const Instruction& instr, OperandLookup& lookup, Errors& errors);
// Depth-first search for a cycle in `c`; reports the first one.
void CheckAcyclic(const Computation& c, Errors& errors);
// Whether fused computation `c` breaks XLA's rule (non-root instructions
// used, root unused) at `i`.
bool FusedRuleBroken(const Computation& c, const Instruction& i);
// The calls instructions make, in module order: one entry per computation
// a called-computation reference names (gathered where each instruction is
// visited anyway, so that the call-graph check does not chase the
// references again); calls_begin[k] is where computation k's calls start
// (calls_begin.back() = calls.size()).
struct CallWalk {
  struct Call {
    const Instruction* caller;
    const CalledRef* ref;
    const Computation* callee;
  };
  std::vector<Call> calls;
  std::vector<size_t> calls_begin;
  // Appends the calls of `i` to `out`.
  static void CallsOf(const Instruction& i, std::vector<Call>& out) {
    for (const CalledRef& r : i.called_refs())
      for (const Computation* c : r.comps) out.push_back({&i, &r, c});
  }
};
// Called computations are in the module and nothing recurses.
void CheckCalls(const Module& m, const CallWalk& walk, Errors& errors);
// The checks above on `threads` threads; true when everything holds (then
// `order` holds every instruction in module order). False as soon as
// anything does not: the caller then runs the serial walk for the messages.
bool CheckStructureParallel(const Module& m, std::vector<const Instruction*>& order, int threads);

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

// Buffer shapes b(...) (verifier_buffers.cc): where they may appear, Pin,
// Unpin and CreateBuffer, output_to_operand_aliasing of buffers, and at most
// one writer per buffer value, as XLA's verifier has them.
void CheckBuffers(const Instruction& instr, Errors& errors);

}  // namespace hloscope::verify
