// reshape_mover: XLA's ReshapeMover. An elementwise op is computed before a
// reshape (or transpose) instead of after it:
//   add(reshape(a), reshape(b)) → reshape(add(a, b))
//   add(reshape(dot), broadcast(bias)) → reshape(add(dot, broadcast'(bias)))
// when one operand is a "nontrivial" rearrange (a reshape or transpose of a
// value that is not itself trivially rearranged), every other rearrange
// operand is the same rearrange of equally shaped values, and every other
// operand can take the pre-rearrange shape for free: a constant, an rng with
// one user, a broadcast of a scalar, of a vector (GPU's
// reshape_of_1d_broadcast_is_cheap) or whose broadcast dims the reshape
// leaves whole, or a broadcast whose dims a transpose keeps in order. Those
// operands get the inverse rearrange: a broadcast in the new shape (under
// the old one's name once that is unused; XLA writes reshape(broadcast) and
// lets algsimp fold it), reshape(constant) for constant folding. Every user of a moved rearrange must move too: the candidates whose
// rearrange operands have users outside the set are dropped until none has,
// and the rest move at once. Elementwise ops commute with data movement, so
// this is exact; the rearranges move towards the users, so a fixed point is
// reached.
#include <algorithm>
#include <set>

#include "core/passes/algsimp.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool IsRearrange(const Instruction& i) {
  return (i.opcode() == Opcode::kReshape || i.opcode() == Opcode::kTranspose) && i.operand_count() == 1 &&
         IsStaticArray(i.shape()) && IsStaticArray(i.operand(0)->shape());
}

bool Equivalent(const Instruction& a, const Instruction& b) {
  if (a.opcode() != b.opcode() || a.shape().dims() != b.shape().dims()) return false;
  if (a.opcode() == Opcode::kTranspose) return a.dimensions() == b.dimensions();
  return a.operand(0)->shape().dims() == b.operand(0)->shape().dims();
}

std::vector<int64_t> InversePermutation(const std::vector<int64_t>& p) {
  std::vector<int64_t> inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
  return inv;
}

// Can `x` take the shape before `rearrange` for free (XLA's
// CanTriviallyRearrange, with reshape_of_1d_broadcast_is_cheap as XLA GPU
// sets it)?
bool CanTriviallyRearrange(const Instruction& x, const Instruction& rearrange) {
  if (rearrange.opcode() == Opcode::kReshape && rearrange.shape().dims() == rearrange.operand(0)->shape().dims())
    return true;
  if (rearrange.opcode() == Opcode::kTranspose) {
    const std::vector<int64_t>& p = rearrange.dimensions();
    bool identity = true;
    for (size_t i = 0; i < p.size(); ++i) identity &= p[i] == static_cast<int64_t>(i);
    if (identity) return true;
  }
  if (x.opcode() == Opcode::kConstant) return true;
  if (x.opcode() == Opcode::kRng && x.user_count() == 1) return true;
  if (x.opcode() != Opcode::kBroadcast || x.operand_count() != 1) return false;
  const std::vector<int64_t>& dims = x.dimensions();
  if (!std::is_sorted(dims.begin(), dims.end())) return false;
  const Shape& in = x.operand(0)->shape();
  if (rearrange.opcode() == Opcode::kReshape) {
    int64_t true_rank = 0;
    for (int64_t d : in.dims()) true_rank += d != 1;
    return true_rank <= 1 ||
           ReshapeLeavesDimensionsUnmodified(rearrange.shape().dims(), rearrange.operand(0)->shape().dims(), dims)
               .has_value();
  }
  // A transpose keeps the broadcast a broadcast when the dims stay in order.
  const std::vector<int64_t>& p = rearrange.dimensions();
  if (!algsimp::IsPermutation(p) || p.size() != static_cast<size_t>(x.shape().rank())) return false;
  std::vector<int64_t> moved;
  for (int64_t d : dims) moved.push_back(p[static_cast<size_t>(d)]);
  return std::is_sorted(moved.begin(), moved.end());
}

const Instruction* FirstNontrivialRearrange(const Instruction& i) {
  for (const Instruction* o : i.operands())
    if (IsRearrange(*o) && !CanTriviallyRearrange(*o->operand(0), *o)) return o;
  return nullptr;
}

bool IsCandidate(const Instruction& i) {
  if (!IsReshapeableElementwise(i)) return false;
  const Instruction* r = FirstNontrivialRearrange(i);
  if (!r) return false;
  for (const Instruction* o : i.operands()) {
    if (!IsStaticArray(o->shape())) return false;
    const bool ok = IsRearrange(*o) ? Equivalent(*o, *r) : CanTriviallyRearrange(*o, *r);
    if (!ok) return false;
  }
  return true;
}

class ReshapeMoverPass : public Pass {
 public:
  std::string_view name() const override { return "reshape_mover"; }
  std::string_view description() const override {
    return "Moves identical reshapes/transposes from the operands of an elementwise op to its result (its "
           "broadcast and constant operands take the shape before them), so one reshape is left instead of "
           "several.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module)) {
      std::vector<Instruction*> order = post_order.Of(*comp);
      std::set<const Instruction*> candidates;
      for (Instruction* instr : order)
        if (IsCandidate(*instr)) candidates.insert(instr);
      // Every user of a rearrange that moves must move with it.
      for (bool removed = true; removed && !candidates.empty();) {
        removed = false;
        std::set<const Instruction*> rearranges;
        for (const Instruction* c : candidates)
          for (const Instruction* o : c->operands())
            if (IsRearrange(*o)) rearranges.insert(o);
        for (const Instruction* r : rearranges) {
          bool outside = false;
          for (const Instruction* u : r->users()) outside |= candidates.count(u) == 0;
          if (!outside) continue;
          for (const Instruction* u : r->users()) removed |= candidates.erase(u) > 0;
        }
      }
      for (Instruction* instr : order)
        if (candidates.count(instr)) {
          Sink(comp, instr);
          changed = true;
        }
    }
    return changed;
  }

 private:
  // `o` in the shape before `rearrange` (XLA's ApplyInverseRearrange). A
  // broadcast whose dims the rearrange keeps whole becomes that broadcast
  // at once (XLA writes reshape(broadcast) and leaves it to algsimp; the
  // result is the same), recorded in `renamed` to take over the old one's
  // name when the old one dies.
  Instruction* Inverse(Computation* comp, Instruction* before, const Instruction& rearrange, Instruction* o) {
    Shape s = rearrange.operand(0)->shape();
    s.set_element_type(o->shape().element_type());
    if (o->opcode() == Opcode::kBroadcast && o->operand_count() == 1) {
      std::optional<std::vector<int64_t>> dims;
      if (o->operand(0)->shape().rank() == 0) {
        dims = std::vector<int64_t>{};
      } else if (rearrange.opcode() == Opcode::kReshape) {
        dims = ReshapeLeavesDimensionsUnmodified(rearrange.shape().dims(), s.dims(), o->dimensions());
      } else {
        std::vector<int64_t> moved;
        for (int64_t d : o->dimensions()) moved.push_back(rearrange.dimensions()[static_cast<size_t>(d)]);
        if (std::is_sorted(moved.begin(), moved.end())) dims = moved;
      }
      if (dims) {
        Instruction* b = AddNew(comp, before, Opcode::kBroadcast, s, {o->operand(0)});
        b->set_dimensions(*dims);
        CopyMetadataIfMissing(*o, *b);
        renamed_.push_back({o, b});
        return b;
      }
    }
    if (rearrange.opcode() == Opcode::kReshape) {
      if (o->shape().dims() == s.dims()) return o;
      if (o->opcode() == Opcode::kReshape && o->operand(0)->shape().dims() == s.dims()) return o->operand(0);
      Instruction* r = AddNew(comp, before, Opcode::kReshape, s, {o});
      CopyMetadataIfMissing(*o, *r);
      return r;
    }
    const std::vector<int64_t>& p = rearrange.dimensions();
    if (o->opcode() == Opcode::kTranspose && o->dimensions() == p) return o->operand(0);
    Instruction* t = AddNew(comp, before, Opcode::kTranspose, s, {o});
    t->set_dimensions(InversePermutation(p));
    CopyMetadataIfMissing(*o, *t);
    return t;
  }

  void Sink(Computation* comp, Instruction* instr) {
    const Instruction* first = FirstNontrivialRearrange(*instr);
    std::vector<Instruction*> ops;
    for (Instruction* o : instr->operands()) ops.push_back(Inverse(comp, instr, *first, o));
    Shape inner_shape = first->operand(0)->shape();
    inner_shape.set_element_type(instr->shape().element_type());
    Instruction* inner = AddNew(comp, instr, instr->opcode(), inner_shape, ops);
    inner->attrs() = instr->attrs();
    CopyMetadataIfMissing(*instr, *inner);
    Instruction* outer = AddNew(comp, instr, first->opcode(), instr->shape(), {inner});
    if (first->opcode() == Opcode::kTranspose) outer->set_dimensions(first->dimensions());
    CopyMetadataIfMissing(*instr, *outer);
    const std::string name = instr->name();
    ReplaceInstruction(instr, outer, mutable_log(),
                       first->opcode() == Opcode::kReshape ? "elementwise(reshape) → reshape(elementwise)"
                                                           : "elementwise(transpose) → transpose(elementwise)");
    // The moved op keeps its name (as XLA's keeps its op_name), so that
    // explain, compare and the graph follow it through the pass; so does a
    // broadcast rebuilt in the new shape once the old one is unused.
    inner->set_name(name);
    std::set<Instruction*> removed;
    for (auto [old, now] : renamed_)
      if (!removed.count(old) && old->user_count() == 0 && !old->IsRoot() && old->control_successors().empty()) {
        std::string old_name = old->name();
        removed.insert(old);
        comp->RemoveInstruction(old);
        now->set_name(old_name);
      }
    renamed_.clear();
  }

  std::vector<std::pair<Instruction*, Instruction*>> renamed_;
};

}  // namespace

std::unique_ptr<Pass> MakeReshapeMoverPass() { return std::make_unique<ReshapeMoverPass>(); }

}  // namespace hloscope
