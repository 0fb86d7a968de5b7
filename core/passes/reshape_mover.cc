// reshape_mover: XLA's ReshapeMover. An elementwise op whose operands are
// all the same reshape (or the same transpose) of equally shaped values —
// or scalar broadcasts, which can take any shape — is computed on the
// values before the reshape, and the single reshape moves after it:
//   add(reshape(a), reshape(b)) → reshape(add(a, b))
// Elementwise ops commute with data movement, so this is exact. It only
// fires when at least one moved reshape has no other user (so the number of
// reshapes never grows), and it moves reshapes towards the users, so a
// fixed point is reached.
#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool Movable(Opcode op) { return op == Opcode::kReshape || op == Opcode::kTranspose; }

bool Candidate(const Instruction& i) {
  if (!IsReshapeableElementwise(i)) return false;
  for (const Instruction* o : i.operands())
    if (!IsStaticArray(o->shape()) || o->shape().dims() != i.shape().dims()) return false;
  return true;
}

// A value that is the same everywhere: broadcast of a scalar.
bool ScalarBroadcast(const Instruction& o) {
  return o.opcode() == Opcode::kBroadcast && o.operand(0)->shape().rank() == 0;
}

class ReshapeMoverPass : public Pass {
 public:
  std::string_view name() const override { return "reshape_mover"; }
  std::string_view description() const override {
    return "Moves identical reshapes/transposes from the operands of an elementwise op to its result, "
           "so one reshape is left instead of several.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module)) {
      for (Instruction* instr : post_order.Of(*comp)) {
        if (Candidate(*instr)) changed |= TryMove(comp, instr);
      }
    }
    return changed;
  }

 private:
  bool TryMove(Computation* comp, Instruction* instr) {
    const Instruction* first = nullptr;
    bool single_user = false;
    for (const Instruction* o : instr->operands()) {
      if (!Movable(o->opcode())) continue;
      if (!first) first = o;
      if (o->opcode() != first->opcode() || o->operand(0)->shape().dims() != first->operand(0)->shape().dims() ||
          (o->opcode() == Opcode::kTranspose && o->dimensions() != first->dimensions()) ||
          !IsStaticArray(o->operand(0)->shape()))
        return false;
      if (o->user_count() == 1) single_user = true;
    }
    if (!first || !single_user) return false;
    for (const Instruction* o : instr->operands())
      if (!Movable(o->opcode()) && !ScalarBroadcast(*o)) return false;

    const std::vector<int64_t>& in_dims = first->operand(0)->shape().dims();
    std::vector<Instruction*> ops;
    for (Instruction* o : instr->operands()) {
      if (Movable(o->opcode())) {
        ops.push_back(o->operand(0));
      } else {
        Shape s = ShapeLike(o->shape(), o->shape().element_type(), in_dims);
        ops.push_back(AddBroadcastScalar(comp, instr, o->operand(0), s));
      }
    }
    Shape inner_shape = ShapeLike(instr->shape(), instr->shape().element_type(), in_dims);
    Instruction* inner = AddNew(comp, instr, instr->opcode(), inner_shape, ops);
    inner->attrs() = instr->attrs();
    CopyMetadataIfMissing(*instr, *inner);
    Instruction* outer = AddNew(comp, instr, first->opcode(), instr->shape(), {inner});
    if (first->opcode() == Opcode::kTranspose) outer->set_dimensions(first->dimensions());
    ReplaceInstruction(instr, outer, mutable_log(),
                       first->opcode() == Opcode::kReshape ? "elementwise(reshape) → reshape(elementwise)"
                                                           : "elementwise(transpose) → transpose(elementwise)");
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeReshapeMoverPass() { return std::make_unique<ReshapeMoverPass>(); }

}  // namespace hloscope
