// cse: XLA's HloCSE. Two instructions of one computation that compute the
// same thing — same opcode, shape (with layout), operands (in either order
// for commutative ops), attributes and called computations; constants by
// value — are merged into the first one. Instructions with side effects
// (seen through called computations) or control dependencies, parameters
// and constants with elided values are never merged.
#include <algorithm>
#include <unordered_set>

#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool CommutativeBinary(const Instruction& i) {
  return IsCommutative(i.opcode()) && i.operand_count() == 2;
}

size_t HashInstruction(const Instruction& i) {
  size_t h = static_cast<size_t>(i.opcode()) * 0x9e3779b97f4a7c15ull;
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  if (CommutativeBinary(i)) {
    int64_t a = i.operand(0)->id(), b = i.operand(1)->id();
    mix(std::hash<int64_t>()(std::min(a, b)));
    mix(std::hash<int64_t>()(std::max(a, b)));
  } else {
    for (const Instruction* o : i.operands()) mix(std::hash<int64_t>()(o->id()));
  }
  for (int64_t d : i.shape().dims()) mix(std::hash<int64_t>()(d));
  mix(static_cast<size_t>(i.shape().element_type()));
  if (i.opcode() == Opcode::kConstant && i.literal()) {
    const Literal& l = *i.literal();
    // Splat and materialized literals hash differently; hash element 0
    // only so equal values land in one bucket.
    if (l.num_elements() > 0 && l.shape().IsArray()) mix(ScalarElement(l, 0).Hash());
  }
  for (int64_t d : i.dimensions()) mix(std::hash<int64_t>()(d));
  return h;
}

bool SameCalls(const Instruction& a, const Instruction& b) {
  const auto& ra = a.called_refs();
  const auto& rb = b.called_refs();
  if (ra.size() != rb.size()) return false;
  for (size_t k = 0; k < ra.size(); ++k)
    if (ra[k].attr != rb[k].attr || ra[k].comps != rb[k].comps) return false;
  return true;
}

bool SameRaw(const Instruction& a, const Instruction& b) {
  const auto& x = a.raw_attrs();
  const auto& y = b.raw_attrs();
  if (x.size() != y.size()) return false;
  for (size_t k = 0; k < x.size(); ++k)
    if (x[k].name != y[k].name || x[k].value != y[k].value) return false;
  return true;
}

bool Identical(const Instruction& a, const Instruction& b) {
  if (a.opcode() != b.opcode() || !(a.shape() == b.shape())) return false;
  if (a.operand_count() != b.operand_count()) return false;
  bool same_ops = a.operands() == b.operands();
  if (!same_ops && CommutativeBinary(a))
    same_ops = a.operand(0) == b.operand(1) && a.operand(1) == b.operand(0);
  if (!same_ops) return false;
  if (!(a.attrs() == b.attrs()) || !SameCalls(a, b) || !SameRaw(a, b)) return false;
  if (a.opcode() == Opcode::kConstant) {
    if (!a.literal() || !b.literal()) return false;
    const Literal& x = *a.literal();
    const Literal& y = *b.literal();
    if (x.is_splat() == y.is_splat()) return x == y;
    // Compare on a copy: comparing would expand the splat in place.
    return x.is_splat() ? Literal(x) == y : x == Literal(y);
  }
  return true;
}

struct Key {
  Instruction* instr;
  size_t hash;
};
struct KeyHash {
  size_t operator()(const Key& k) const { return k.hash; }
};
struct KeyEq {
  bool operator()(const Key& a, const Key& b) const { return Identical(*a.instr, *b.instr); }
};

class CsePass : public Pass {
 public:
  std::string_view name() const override { return "cse"; }
  std::string_view description() const override {
    return "Common subexpression elimination: merges instructions that compute exactly the same value "
           "(same op, operands and attributes; constants by value).";
  }

  StatusOr<bool> Run(Module& module) override {
    SideEffectAnalysis effects;
    int64_t merged = 0;
    for (Computation* comp : NonFusionComputations(module)) {
      std::unordered_set<Key, KeyHash, KeyEq> seen;
      seen.reserve(comp->instructions().size());
      std::vector<Instruction*> order;
      order.reserve(comp->instructions().size());
      for (const auto& i : comp->instructions()) order.push_back(i.get());
      for (Instruction* instr : order) {
        if (instr->opcode() == Opcode::kParameter) continue;
        if (!instr->control_predecessors().empty() || !instr->control_successors().empty()) continue;
        if (instr->opcode() == Opcode::kConstant && !KnownLiteral(instr)) continue;
        if (effects.Has(*instr)) continue;
        Key key{instr, HashInstruction(*instr)};
        auto [it, inserted] = seen.insert(key);
        if (inserted) continue;
        Instruction* keep = it->instr;
        ReplaceInstruction(instr, keep, mutable_log(), "merged into an identical instruction");
        ++merged;
      }
    }
    return merged > 0;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeCsePass() { return std::make_unique<CsePass>(); }

}  // namespace hloscope
