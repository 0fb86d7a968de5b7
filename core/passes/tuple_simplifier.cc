// tuple_simplifier: XLA's TupleSimplifier. Two rewrites:
//   get-tuple-element(tuple(a0, ..., an), i) → ai
//   tuple(gte(t, 0), ..., gte(t, n-1)) → t   (t has exactly n elements)
#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

// The tuple `instr` rebuilds unchanged, or null.
Instruction* RebuiltTuple(const Instruction& instr) {
  if (instr.operand_count() == 0) return nullptr;
  Instruction* source = nullptr;
  for (int i = 0; i < instr.operand_count(); ++i) {
    const Instruction* op = instr.operand(i);
    if (op->opcode() != Opcode::kGetTupleElement || op->tuple_index() != i) return nullptr;
    if (source && op->operand(0) != source) return nullptr;
    source = op->operand(0);
  }
  if (source->shape().tuple_size() != instr.operand_count()) return nullptr;
  if (!ShapesInterchangeable(source->shape(), instr.shape())) return nullptr;
  return source;
}

class TupleSimplifierPass : public Pass {
 public:
  std::string_view name() const override { return "tuple_simplifier"; }
  std::string_view description() const override {
    return "Removes tuples that are built only to be taken apart: gte(tuple(a, b), 0) becomes a, and a "
           "tuple rebuilt from all elements of another tuple becomes that tuple.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module)) {
      for (Instruction* instr : post_order.Of(*comp)) {
        if (!instr->control_predecessors().empty() || !instr->control_successors().empty()) continue;
        if (instr->opcode() == Opcode::kGetTupleElement) {
          Instruction* t = instr->operand(0);
          int64_t idx = instr->tuple_index();
          if (t->opcode() != Opcode::kTuple || idx < 0 || idx >= t->operand_count()) continue;
          Instruction* elem = t->operand(static_cast<int>(idx));
          if (!ShapesInterchangeable(elem->shape(), instr->shape())) continue;
          ReplaceInstruction(instr, elem, mutable_log(), "gte(tuple) → element");
          changed = true;
        } else if (instr->opcode() == Opcode::kTuple) {
          Instruction* source = RebuiltTuple(*instr);
          if (!source) continue;
          ReplaceInstruction(instr, source, mutable_log(), "tuple(gte(t, 0..n-1)) → t");
          changed = true;
        }
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeTupleSimplifierPass() { return std::make_unique<TupleSimplifierPass>(); }

}  // namespace hloscope
