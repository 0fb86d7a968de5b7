// call_inliner: XLA's CallInliner. Every `call` is replaced by a copy of the
// computation it calls (parameters become the call's operands); callees that
// nothing calls afterwards are removed. Runs callee-first, so nested calls
// end up fully inlined. Calls with control dependencies, composite calls and
// calls into another execution thread are left alone.
#include <unordered_map>
#include <unordered_set>

#include "core/passes/clone.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool Inlinable(const Instruction& call) {
  const Computation* callee = call.to_apply();
  if (!callee || !callee->root() || callee == call.parent()) return false;
  if (!call.control_predecessors().empty() || !call.control_successors().empty()) return false;
  if (!callee->trailing_attrs.empty()) return false;
  const RawAttr* composite = call.FindRaw("is_composite");
  if (composite && composite->value == "true") return false;
  if (callee->num_parameters() != call.operand_count()) return false;
  for (const Instruction* p : callee->parameters())
    if (!p) return false;
  return ShapesInterchangeable(callee->root()->shape(), call.shape());
}

class CallInlinerPass : public Pass {
 public:
  std::string_view name() const override { return "call_inliner"; }
  std::string_view description() const override {
    return "Replaces each `call` by a copy of the body of the computation it calls.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    std::unordered_set<Computation*> callees;
    for (Computation* comp : ComputationsCalleesFirst(module)) {
      if (comp->fusion_instruction) continue;
      std::vector<Instruction*> calls;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kCall && Inlinable(*i)) calls.push_back(i.get());
      for (Instruction* call : calls) {
        callees.insert(call->to_apply());
        Inline(module, call);
        changed = true;
      }
    }
    // Remove callees nothing refers to any more.
    std::unordered_set<const Computation*> referenced;
    for (const auto& c : module.computations())
      for (const auto& i : c->instructions())
        ForEachCallee(*i, [&](Computation* callee) { referenced.insert(callee); });
    for (Computation* c : callees) {
      if (referenced.count(c) || c == module.entry()) continue;
      module.RemoveComputation(c);
      mutable_log().Count("computations removed");
    }
    return changed;
  }

 private:
  void Inline(Module& module, Instruction* call) {
    Computation* caller = call->parent();
    const Computation* callee = call->to_apply();
    std::unordered_map<const Instruction*, Instruction*> map;
    for (int i = 0; i < callee->num_parameters(); ++i) map[callee->parameter(i)] = call->operand(i);
    std::vector<Instruction*> order = PostOrder().Of(*callee);
    for (const Instruction* src : order) {
      if (src->opcode() == Opcode::kParameter) continue;
      std::vector<Instruction*> ops;
      for (const Instruction* o : src->operands()) ops.push_back(map.at(o));
      Instruction* copy = caller->AddInstructionBefore(CloneInstruction(*src, ops, module), call);
      CopyMetadataIfMissing(*call, *copy);
      map[src] = copy;
    }
    for (const Instruction* src : order)
      for (const Instruction* s : src->control_successors())
        if (map.count(src) && map.count(s)) map[src]->AddControlDependencyTo(map[s]);
    ReplaceInstruction(call, map.at(callee->root()), mutable_log(), "call inlined");
  }
};

}  // namespace

std::unique_ptr<Pass> MakeCallInlinerPass() { return std::make_unique<CallInlinerPass>(); }

}  // namespace hloscope
