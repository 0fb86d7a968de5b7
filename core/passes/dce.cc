// dce: XLA's HloDCE. Removes instructions nobody uses — unless they have a
// side effect (seen through called computations), are parameters or roots,
// or order something through a control dependency — and then computations
// that nothing reachable from the entry calls.
#include <unordered_set>

#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

class DcePass : public Pass {
 public:
  std::string_view name() const override { return "dce"; }
  std::string_view description() const override {
    return "Dead code elimination: deletes instructions whose results nobody uses (side effects are kept) "
           "and computations nobody calls.";
  }

  StatusOr<bool> Run(Module& module) override {
    if (!module.entry()) return Status::Error("dce: module has no entry computation");
    SideEffectAnalysis effects;
    int64_t removed = 0;
    PostOrder post_order;
    for (const auto& comp : module.computations()) {
      std::vector<Instruction*> order = post_order.Of(*comp);
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        Instruction* instr = *it;
        if (instr->user_count() > 0 || instr->IsRoot() || instr->opcode() == Opcode::kParameter ||
            !instr->control_successors().empty() || effects.Has(*instr))
          continue;
        comp->RemoveInstruction(instr);
        ++removed;
      }
    }
    std::vector<Computation*> live = ComputationsCalleesFirst(module);
    std::unordered_set<Computation*> live_set(live.begin(), live.end());
    std::vector<Computation*> dead;
    for (const auto& comp : module.computations())
      if (!live_set.count(comp.get())) dead.push_back(comp.get());
    for (Computation* c : dead) module.RemoveComputation(c);
    if (removed) mutable_log().Count("instructions removed", removed);
    if (!dead.empty()) mutable_log().Count("computations removed", static_cast<int64_t>(dead.size()));
    return removed > 0 || !dead.empty();
  }
};

}  // namespace

std::unique_ptr<Pass> MakeDcePass() { return std::make_unique<DcePass>(); }

}  // namespace hloscope
