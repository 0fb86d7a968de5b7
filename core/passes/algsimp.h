// Internals of the algebraic simplifier (algsimp). The pass (algsimp.cc)
// visits every instruction and hands it to the rewrite families, one file
// each: arithmetic and logic (algsimp_arith.cc), shapes and layouts
// (algsimp_shapes.cc), slicing/concatenation/padding (algsimp_slices.cc),
// reductions and dots (algsimp_reduce.cc). Every rewrite has a name, which
// the step recorder shows: "algsimp: reshape(reshape) → reshape at %r3".
//
// Every rewrite keeps the exact semantics (bit for bit, up to NaN payloads).
// Refused, although XLA does some of them:
//   x * 0 → 0 for floats          NaN * 0 = NaN, inf * 0 = NaN, -x * 0 = -0
//   x - x → 0 for floats          inf - inf = NaN
//   x + 0 → x for floats with +0  -0 + +0 = +0 (kept for -0.0: x + -0 = x)
//   0 - x → -x for floats with +0 0 - 0 = +0 but -(0) = -0 (kept for -0.0)
//   exp(log(x)) → x               log(x) is NaN for x < 0, -inf for 0; rounding
//   log(exp(x)) → x               exp overflows to inf for large x; rounding
//   x / c → x * (1/c) unless c is a power of two whose reciprocal is exact
//   compare(x, x) for floats      NaN compares unequal to itself
//   reduce-add of a broadcast for floats, dot of broadcasts for floats
//                                 n additions of x round differently from n * x
//   max(x, -inf) → x for floats   depends on NaN propagation; kept for ints
//   pow(x, 0) → 1                 only true if pow(NaN, 0) is 1 in every backend
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/passes/pass.h"
#include "core/passes/rewrite_helpers.h"

namespace hloscope::algsimp {

enum class Outcome {
  kNone,      // nothing applied
  kModified,  // the instruction was changed in place (try again)
  kReplaced,  // the instruction was replaced and removed
};

// What a rewrite family may do to the instruction it is given.
class Rewriter {
 public:
  Rewriter(Computation* comp, PassLog& log) : comp_(comp), log_(log) {}

  Computation* comp() const { return comp_; }

  // Starts an attempt at `instr` (forgets instructions added so far).
  void Begin(Instruction* instr) {
    current_ = instr;
    added_.clear();
  }
  // A new instruction before the current one (named <opcode>.N).
  Instruction* Add(Opcode op, Shape shape, const std::vector<Instruction*>& operands);
  Instruction* AddScalar(PrimitiveType type, double value);
  Instruction* AddScalarLiteral(Literal scalar);
  // Every element `value`: broadcast(scalar constant) to `shape` (the scalar
  // itself for a scalar shape). Never an array constant: a broadcast stays
  // cheap to fuse and to store, as in XLA.
  Instruction* Filled(PrimitiveType type, double value, const Shape& shape);
  // broadcast(scalar) to `shape`, or `scalar` itself when `shape` is a scalar.
  Instruction* Broadcast(Instruction* scalar, const Shape& shape);

  // Replaces the current instruction by `now` under `rule`. When the shapes
  // are not interchangeable nothing happens (instructions added in this
  // attempt are removed again) and kNone is returned.
  Outcome Replace(Instruction* now, std::string_view rule);
  // Records an in-place change of the current instruction.
  Outcome Modified(std::string_view rule);
  // Replaces all operands of the current instruction.
  void SetOperands(const std::vector<Instruction*>& operands);

 private:
  Computation* comp_;
  PassLog& log_;
  Instruction* current_ = nullptr;
  std::vector<Instruction*> added_;
};

// Rewrite families; each looks at one instruction.
Outcome SimplifyArithmetic(Rewriter& r, Instruction* instr);
Outcome SimplifyShapes(Rewriter& r, Instruction* instr);
Outcome SimplifySlices(Rewriter& r, Instruction* instr);
Outcome SimplifyReductions(Rewriter& r, Instruction* instr);

// Shared predicates.
bool IsIntegral(PrimitiveType t);  // integers and pred
// Every entry of `dims` is a dimension number in [0, rank) (attributes of
// unverified input are checked before they are used as indices).
bool DimsInRange(const std::vector<int64_t>& dims, int rank);
bool IsPermutation(const std::vector<int64_t>& perm);
// True if converting every value of `from` to `to` is exact.
bool LosslessConvert(PrimitiveType from, PrimitiveType to);
// The binary opcode a reduction computation applies to its two parameters
// (add, multiply, maximum, minimum, and, or), if it is exactly that.
std::optional<Opcode> ReducerOpcode(const Computation* comp);

}  // namespace hloscope::algsimp
