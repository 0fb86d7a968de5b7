// Matching the ops of two modules for compare (core/report/compare.h):
// which instruction of A computes what an instruction of B computes, and
// how each match was made. The order of trust is in docs/compare.md ("How
// instructions are matched"); the names of the ways are the keys of
// CompareResult::matched_by.
//
// Side and how two ops compare are in compare_match_ops.cc; the matching
// passes (the Matcher, compare_matcher.h) in compare_match.cc (one to one)
// and compare_match_copies.cc (many to one).
#pragma once

#include <cstdint>
#include <map>
#include <set>
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

// How two ops compare, for the matching passes.

// A cuDNN convolution's value is the first element of its (result, scratch).
std::string ShapeKey(const Instruction* i);

// The same operation on both sides: the same opcode, XLA GPU's cuDNN call
// for a convolution, or a division by a constant for the multiplication by
// its reciprocal.
bool SameOp(const Instruction* x, const Instruction* y);

// How well two ops' shapes agree: 2 the same element type and dimensions,
// 1 the same element type and element count (XLA GPU flattens batch
// dimensions and picks other physical shapes for dots), 0 not at all.
// With `any_type`, another element type counts as 1 too (XLA GPU computes
// some bf16 ops in f32 between converts).
int ShapeFit(const Instruction* x, const Instruction* y, bool any_type = false);

// The attributes that change what an op computes (dimensions, directions,
// slices...), without computation names, metadata or backend configs.
std::string AttrKey(const Instruction* i);

// Opcode + shape + operand classes ("" when an operand is not matched yet);
// `leaf_values`: see Side::ClassOf.
std::string Signature(const Side& s, const Instruction* i, bool leaf_values = false);

// The classes of an op's operands that are known (matched, parameters, constants).
std::multiset<std::string> KnownOperandClasses(const Side& s, const Instruction* i);

// How many classes x and y have in common, counting repeats.
int CommonCount(const std::multiset<std::string>& x, const std::multiset<std::string>& y);

// A rematerializable leaf: an iota, or a broadcast of a constant or of a
// scalar. Fusion duplicates these into every consumer kernel, on both sides,
// so their names and op_names are no identities: an op of that name in
// another kernel is another copy.
bool RematLeaf(const Side& s, const Instruction* i);

}  // namespace hloscope::report::compare_detail
