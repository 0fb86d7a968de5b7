// zero_sized_hlo_elimination: XLA's ZeroSizedHloElimination. An array
// instruction with no elements (a dimension of size 0) computes nothing; it
// becomes an empty constant of the same shape. Parameters, constants and
// instructions with side effects stay.
#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

class ZeroSizedHloEliminationPass : public Pass {
 public:
  std::string_view name() const override { return "zero_sized_hlo_elimination"; }
  std::string_view description() const override {
    return "Replaces instructions that produce arrays with zero elements by empty constants.";
  }

  StatusOr<bool> Run(Module& module) override {
    SideEffectAnalysis effects;
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module)) {
      for (Instruction* instr : post_order.Of(*comp)) {
        const Shape& s = instr->shape();
        if (!IsStaticArray(s) || ElementCount(s.dims()) != 0) continue;
        if (instr->opcode() == Opcode::kConstant || instr->opcode() == Opcode::kParameter) continue;
        if (!instr->control_successors().empty() || effects.Has(*instr)) continue;
        Instruction* c = AddConstant(comp, instr, Literal(s));
        *c->mutable_shape() = s;
        ReplaceInstruction(instr, c, mutable_log(), "zero-element array → empty constant");
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeZeroSizedHloEliminationPass() {
  return std::make_unique<ZeroSizedHloEliminationPass>();
}

}  // namespace hloscope
