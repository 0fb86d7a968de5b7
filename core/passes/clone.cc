#include "core/passes/clone.h"

#include "core/passes/traversal.h"

namespace hloscope {

std::unique_ptr<Instruction> CloneInstruction(const Instruction& instr,
                                              const std::vector<Instruction*>& operands, Module& module) {
  auto c = std::make_unique<Instruction>(instr.opcode(), instr.shape(), module.UniqueName(instr.name()));
  for (Instruction* o : operands) c->AppendOperand(o);
  c->attrs() = instr.attrs();
  c->metadata() = instr.metadata();
  c->raw_attrs() = instr.raw_attrs();
  c->set_parameter_number(instr.parameter_number());
  c->set_loc(instr.loc());
  c->set_implicit_tuple_element(instr.implicit_tuple_element());
  if (instr.literal()) c->set_literal(std::make_unique<Literal>(*instr.literal()));
  c->mutable_called_refs() = instr.called_refs();
  if (instr.opcode() == Opcode::kFusion) {
    for (CalledRef& r : c->mutable_called_refs()) {
      if (r.attr != "calls") continue;
      for (Computation*& callee : r.comps) {
        Computation* copy = CloneComputation(*callee, module, module.UniqueComputationName(callee->name()));
        copy->fusion_instruction = c.get();
        callee = copy;
      }
    }
  }
  return c;
}

Computation* CloneComputation(const Computation& comp, Module& module, const std::string& new_name) {
  auto copy = std::make_unique<Computation>(new_name);
  copy->trailing_attrs = comp.trailing_attrs;
  copy->set_loc(comp.loc());
  Computation* before = const_cast<Computation*>(&comp);
  Computation* added = module.AddComputationBefore(std::move(copy), before);
  std::unordered_map<const Instruction*, Instruction*> map;
  for (const Instruction* i : PostOrder().Of(comp)) {
    std::vector<Instruction*> ops;
    ops.reserve(i->operands().size());
    for (const Instruction* o : i->operands()) ops.push_back(map.at(o));
    map[i] = added->AddInstruction(CloneInstruction(*i, ops, module));
  }
  // The clone follows the post order (the input order when that is already
  // def-before-use).
  for (const Instruction* i : PostOrder().Of(comp))
    for (const Instruction* s : i->control_successors()) map.at(i)->AddControlDependencyTo(map.at(s));
  if (comp.root()) added->set_root(map.at(comp.root()));
  added->RebuildParameters();
  return added;
}

}  // namespace hloscope
