// while_loop_simplifier: the parts of XLA's WhileLoopSimplifier that keep
// exact semantics without trip-count analysis:
//   - a loop whose condition is the constant `false` never runs its body:
//     it becomes its initial value;
//   - loop-carried tuple elements that nothing observes (not used after the
//     loop, not read by the condition, and not needed to compute any live
//     element or any side effect in the body) are removed from the loop
//     state, the body, the condition and the initial value.
// Loops whose body or condition is shared with another call site are left
// alone (flatten_call_graph un-shares them).
#include <unordered_map>
#include <unordered_set>

#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool AllUsersAreGte(const Instruction& i) {
  for (const Instruction* u : i.users())
    if (u->opcode() != Opcode::kGetTupleElement) return false;
  return true;
}

bool IsConstantFalse(const Instruction* i) {
  const Literal* l = KnownLiteral(i);
  return l && l->shape().element_type() == PrimitiveType::kPred && l->num_elements() == 1 && l->GetInt(0) == 0;
}

bool HasControlDeps(const Computation& comp) {
  for (const auto& i : comp.instructions())
    if (!i->control_predecessors().empty() || !i->control_successors().empty()) return true;
  return false;
}

// Removes everything in `comp` that neither the root, a parameter nor an
// instruction with side effects needs.
void RemoveDeadCode(Computation& comp, SideEffectAnalysis& effects) {
  std::vector<Instruction*> order = PostOrder().Of(comp);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Instruction* i = *it;
    if (i->user_count() || i->IsRoot() || i->opcode() == Opcode::kParameter ||
        !i->control_successors().empty() || effects.Has(*i))
      continue;
    comp.RemoveInstruction(i);
  }
}

class WhileLoopSimplifierPass : public Pass {
 public:
  std::string_view name() const override { return "while_loop_simplifier"; }
  std::string_view description() const override {
    return "Removes while loops whose condition is constant false, and loop-carried tuple elements that "
           "nothing ever reads.";
  }

  StatusOr<bool> Run(Module& module) override {
    std::unordered_map<const Computation*, int> refs;
    for (const auto& c : module.computations())
      for (const auto& i : c->instructions())
        ForEachCallee(*i, [&](Computation* callee) { ++refs[callee]; });
    SideEffectAnalysis effects;
    bool changed = false;
    for (Computation* comp : ComputationsCalleesFirst(module)) {
      if (comp->fusion_instruction) continue;
      std::vector<Instruction*> loops;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kWhile) loops.push_back(i.get());
      for (Instruction* loop : loops) {
        Computation* cond = loop->called("condition");
        Computation* body = loop->called("body");
        if (!cond || !body || !cond->root() || !body->root() || loop->operand_count() != 1) continue;
        if (!loop->control_predecessors().empty() || !loop->control_successors().empty()) continue;
        if (IsConstantFalse(cond->root()) && !effects.ComputationHas(*cond) &&
            ShapesInterchangeable(loop->operand(0)->shape(), loop->shape())) {
          ReplaceInstruction(loop, loop->operand(0), mutable_log(), "while with constant false condition → init");
          changed = true;
          continue;
        }
        if (refs[cond] != 1 || refs[body] != 1 || cond == body) continue;
        if (HasControlDeps(*body) || HasControlDeps(*cond)) continue;
        changed |= RemoveDeadElements(loop, cond, body, effects);
      }
    }
    return changed;
  }

 private:
  bool RemoveDeadElements(Instruction* loop, Computation* cond, Computation* body,
                          SideEffectAnalysis& effects) {
    const Shape& shape = loop->shape();
    if (!shape.IsTuple() || shape.tuple_size() == 0) return false;
    const int n = shape.tuple_size();
    Instruction* root = body->root();
    Instruction* body_param = body->num_parameters() == 1 ? body->parameter(0) : nullptr;
    Instruction* cond_param = cond->num_parameters() == 1 ? cond->parameter(0) : nullptr;
    if (!body_param || !cond_param || root->opcode() != Opcode::kTuple || root->operand_count() != n ||
        root->user_count() != 0 || !AllUsersAreGte(*body_param) || !AllUsersAreGte(*cond_param) ||
        !AllUsersAreGte(*loop) || loop->IsRoot())
      return false;

    std::vector<bool> live(n, false);
    for (const Instruction* u : loop->users()) live[u->tuple_index()] = true;
    for (const Instruction* u : cond_param->users()) live[u->tuple_index()] = true;
    // Grow the live set with the elements that live elements and side
    // effects in the body read, until it is stable.
    std::unordered_set<const Instruction*> visited;
    std::vector<const Instruction*> stack;
    for (const auto& i : body->instructions())
      if (i.get() != root && effects.Has(*i)) stack.push_back(i.get());
    std::vector<bool> queued(n, false);
    for (bool grew = true; grew;) {
      grew = false;
      for (int k = 0; k < n; ++k) {
        if (live[k] && !queued[k]) {
          queued[k] = true;
          stack.push_back(root->operand(k));
        }
      }
      while (!stack.empty()) {
        const Instruction* i = stack.back();
        stack.pop_back();
        if (!visited.insert(i).second) continue;
        if (i->opcode() == Opcode::kGetTupleElement && i->operand(0) == body_param) {
          int64_t k = i->tuple_index();
          if (!live[k]) {
            live[k] = true;
            grew = true;
          }
        }
        for (const Instruction* o : i->operands()) stack.push_back(o);
        for (const Instruction* p : i->control_predecessors()) stack.push_back(p);
      }
    }
    std::vector<int64_t> new_index(n, -1);
    std::vector<Shape> elems;
    for (int k = 0; k < n; ++k) {
      if (!live[k]) continue;
      new_index[k] = static_cast<int64_t>(elems.size());
      elems.push_back(shape.tuple_shapes()[k]);
    }
    const int removed = n - static_cast<int>(elems.size());
    if (removed == 0) return false;
    Shape new_shape = Shape::Tuple(elems);

    // Initial value: a tuple of the live elements.
    Instruction* init = loop->operand(0);
    std::vector<Instruction*> init_elems;
    for (int k = 0; k < n; ++k) {
      if (!live[k]) continue;
      if (init->opcode() == Opcode::kTuple) {
        init_elems.push_back(init->operand(k));
      } else {
        Instruction* g = AddNew(loop->parent(), loop, Opcode::kGetTupleElement, shape.tuple_shapes()[k], {init});
        g->attrs().index = k;
        g->attrs().mark(Attr::kIndex);
        init_elems.push_back(g);
      }
    }
    Instruction* new_init = AddNew(loop->parent(), loop, Opcode::kTuple, new_shape, init_elems);
    CopyMetadataIfMissing(*init, *new_init);
    loop->ReplaceOperand(0, new_init);
    *loop->mutable_shape() = new_shape;
    for (Instruction* u : loop->users()) u->attrs().index = new_index[u->tuple_index()];

    // Condition and body read the new state.
    *cond_param->mutable_shape() = new_shape;
    for (Instruction* u : cond_param->users()) u->attrs().index = new_index[u->tuple_index()];
    std::vector<Instruction*> root_ops;
    for (int k = 0; k < n; ++k)
      if (live[k]) root_ops.push_back(root->operand(k));
    root->DetachOperands();
    for (Instruction* o : root_ops) root->AppendOperand(o);
    *root->mutable_shape() = new_shape;
    *body_param->mutable_shape() = new_shape;
    RemoveDeadCode(*body, effects);
    for (Instruction* u : body_param->users()) u->attrs().index = new_index[u->tuple_index()];

    mutable_log().Record("while: dead loop-carried elements removed", *loop);
    mutable_log().Count("loop-carried elements removed", removed);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeWhileLoopSimplifierPass() { return std::make_unique<WhileLoopSimplifierPass>(); }

}  // namespace hloscope
