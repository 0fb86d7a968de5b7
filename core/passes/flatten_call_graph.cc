// flatten_call_graph: XLA's FlattenCallGraph. After it, every computation
// called from a sequential call site (while condition/body, call,
// conditional branch) has exactly one caller: a computation called from
// several places is cloned once per extra call site. Passes that rewrite a
// loop body (while_loop_simplifier) rely on this.
#include <deque>
#include <unordered_map>

#include "core/passes/clone.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool Sequential(Opcode op) { return op == Opcode::kWhile || op == Opcode::kCall || op == Opcode::kConditional; }

class FlattenCallGraphPass : public Pass {
 public:
  std::string_view name() const override { return "flatten_call_graph"; }
  std::string_view description() const override {
    return "Clones computations that several while loops, calls or conditionals share, so each call site "
           "has its own copy.";
  }

  StatusOr<bool> Run(Module& module) override {
    std::vector<Computation*> order = ComputationsCalleesFirst(module);
    std::unordered_map<const Computation*, int64_t> refs;
    for (Computation* c : order)
      for (const auto& i : c->instructions())
        ForEachCallee(*i, [&](Computation* callee) { ++refs[callee]; });
    std::deque<Computation*> work(order.rbegin(), order.rend());  // callers first
    bool changed = false;
    while (!work.empty()) {
      Computation* comp = work.front();
      work.pop_front();
      for (const auto& instr : comp->instructions()) {
        if (!Sequential(instr->opcode())) continue;
        for (CalledRef& ref : instr->mutable_called_refs()) {
          for (Computation*& callee : ref.comps) {
            if (!callee || refs[callee] <= 1) continue;
            Computation* copy = CloneComputation(*callee, module, module.UniqueComputationName(callee->name()));
            --refs[callee];
            refs[copy] = 1;
            for (const auto& i : copy->instructions())
              ForEachCallee(*i, [&](Computation* c) { ++refs[c]; });
            callee = copy;
            work.push_back(copy);
            mutable_log().Record("shared computation cloned for this call site", *instr);
            changed = true;
          }
        }
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeFlattenCallGraphPass() { return std::make_unique<FlattenCallGraphPass>(); }

}  // namespace hloscope
