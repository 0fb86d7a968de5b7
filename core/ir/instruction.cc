#include "core/ir/instruction.h"

#include <algorithm>

#include "core/ir/computation.h"

namespace hloscope {

void Instruction::AppendOperand(Instruction* op) {
  operands_.push_back(op);
  if (std::find(op->users_.begin(), op->users_.end(), this) == op->users_.end())
    op->users_.push_back(this);
}

void Instruction::RemoveUser(Instruction* u) {
  auto it = std::find(users_.begin(), users_.end(), u);
  if (it != users_.end()) users_.erase(it);
}

void Instruction::ReplaceOperand(int i, Instruction* op) {
  Instruction* old = operands_[i];
  if (old == op) return;
  operands_[i] = op;
  if (std::find(operands_.begin(), operands_.end(), old) == operands_.end()) old->RemoveUser(this);
  if (std::find(op->users_.begin(), op->users_.end(), this) == op->users_.end())
    op->users_.push_back(this);
}

void Instruction::ReplaceAllUsesWith(Instruction* other) {
  if (other == this) return;
  std::vector<Instruction*> users = users_;
  for (Instruction* u : users) {
    for (int i = 0; i < u->operand_count(); ++i)
      if (u->operands_[i] == this) u->ReplaceOperand(i, other);
  }
  if (parent_ && parent_->root() == this) parent_->set_root(other);
}

void Instruction::DetachOperands() {
  for (Instruction* op : operands_) op->RemoveUser(this);
  operands_.clear();
}

int Instruction::OperandIndex(const Instruction* op) const {
  for (int i = 0; i < operand_count(); ++i)
    if (operands_[i] == op) return i;
  return -1;
}

void Instruction::AddControlDependencyTo(Instruction* successor) {
  if (std::find(control_succs_.begin(), control_succs_.end(), successor) != control_succs_.end())
    return;
  control_succs_.push_back(successor);
  successor->control_preds_.push_back(this);
}

void Instruction::DropAllControlDeps() {
  for (Instruction* p : control_preds_) {
    auto& v = p->control_succs_;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
  for (Instruction* s : control_succs_) {
    auto& v = s->control_preds_;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
  control_preds_.clear();
  control_succs_.clear();
}

std::vector<Computation*> Instruction::called_computations() const {
  std::vector<Computation*> out;
  for (const auto& r : called_)
    for (Computation* c : r.comps) out.push_back(c);
  return out;
}

Computation* Instruction::called(std::string_view attr) const {
  for (const auto& r : called_)
    if (r.attr == attr && !r.comps.empty()) return r.comps[0];
  return nullptr;
}

void Instruction::SetCalled(std::string attr, Computation* c) {
  for (auto& r : called_) {
    if (r.attr == attr) {
      r.comps = {c};
      return;
    }
  }
  called_.push_back(CalledRef{std::move(attr), {c}, false});
}

std::string Instruction::MetadataValue(std::string_view key) const {
  for (const auto& m : metadata_) {
    if (m.name != key) continue;
    const std::string& v = m.value;
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
      std::string out;
      for (size_t i = 1; i + 1 < v.size(); ++i) {
        if (v[i] == '\\' && i + 2 < v.size()) ++i;
        out += v[i];
      }
      return out;
    }
    return v;
  }
  return "";
}

const RawAttr* Instruction::FindRaw(std::string_view name) const {
  for (const auto& r : raw_)
    if (r.name == name) return &r;
  return nullptr;
}

void Instruction::SetRaw(std::string name, std::string value) {
  for (auto& r : raw_) {
    if (r.name == name) {
      r.value = std::move(value);
      return;
    }
  }
  raw_.push_back({std::move(name), std::move(value)});
}

void Instruction::EraseRaw(std::string_view name) {
  raw_.erase(std::remove_if(raw_.begin(), raw_.end(), [&](const RawAttr& r) { return r.name == name; }),
             raw_.end());
}

bool Instruction::IsRoot() const { return parent_ && parent_->root() == this; }

bool Instruction::HasSideEffect() const {
  if (hloscope::HasSideEffect(opcode_)) return true;
  if (opcode_ == Opcode::kCustomCall) {
    const RawAttr* r = FindRaw("custom_call_has_side_effect");
    return r && r->value == "true";
  }
  return false;
}

}  // namespace hloscope
