#include "core/ir/instruction.h"

#include <algorithm>

#include "core/ir/computation.h"

namespace hloscope {

Instruction::~Instruction() { delete attrs_.load(std::memory_order_acquire); }

Attrs& Instruction::CreateAttrs() {
  Attrs* fresh = new Attrs();
  Attrs* expected = nullptr;
  if (attrs_.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return *fresh;
  delete fresh;  // another thread created it first
  return *expected;
}

const Attrs& Instruction::DefaultAttrs() {
  static const Attrs kDefault;
  return kDefault;
}

const std::vector<Instruction*>& Instruction::EmptyInstructionList() {
  static const std::vector<Instruction*> kEmpty;
  return kEmpty;
}

const std::vector<CalledRef>& Instruction::EmptyCalledRefs() {
  static const std::vector<CalledRef> kEmpty;
  return kEmpty;
}

void Instruction::AppendOperand(Instruction* op) {
  // Users mirror operands: `this` is already among op's users exactly when op
  // already is among this instruction's operands. Searching our own (short)
  // operand list instead of op's user list keeps this O(operands), not
  // O(users) — a constant feeding 50k users made parsing quadratic.
  if (!HasOperand(op)) AddUserTo(op, /*sorted=*/false);
  operands_.push_back(op);
}

void Instruction::AddUserTo(Instruction* op, bool sorted) {
  InstrList& users = op->users_;
  auto it = users.end();
  if (sorted && id_ >= 0)
    while (it != users.begin() && (*(it - 1))->id() > id_) --it;
  users.insert(it, this);
}

void Instruction::FillOperand(int i, Instruction* op) {
  if (!HasOperand(op)) AddUserTo(op, /*sorted=*/true);
  operands_[i] = op;
}

void Instruction::AppendOperandSorted(Instruction* op) {
  if (!HasOperand(op)) AddUserTo(op, /*sorted=*/true);
  operands_.push_back(op);
}

void Instruction::RemoveUser(Instruction* u) {
  auto it = std::find(users_.begin(), users_.end(), u);
  if (it != users_.end()) users_.erase(it);
}

void Instruction::ReplaceOperand(int i, Instruction* op) {
  Instruction* old = operands_[i];
  if (old == op) return;
  bool already_user = std::find(operands_.begin(), operands_.end(), op) != operands_.end();
  operands_[i] = op;
  if (std::find(operands_.begin(), operands_.end(), old) == operands_.end()) old->RemoveUser(this);
  if (!already_user) op->users_.push_back(this);
}

void Instruction::ReplaceAllUsesWith(Instruction* other) {
  if (other == this) return;
  const std::vector<Instruction*> users(users_.begin(), users_.end());
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
  auto& succs = Extra().control_succs;
  if (std::find(succs.begin(), succs.end(), successor) != succs.end()) return;
  succs.push_back(successor);
  successor->Extra().control_preds.push_back(this);
}

void Instruction::DropAllControlDeps() {
  if (!extra_) return;
  for (Instruction* p : extra_->control_preds) {
    auto& v = p->Extra().control_succs;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
  for (Instruction* s : extra_->control_succs) {
    auto& v = s->Extra().control_preds;
    v.erase(std::remove(v.begin(), v.end(), this), v.end());
  }
  extra_->control_preds.clear();
  extra_->control_succs.clear();
}

std::vector<Computation*> Instruction::called_computations() const {
  std::vector<Computation*> out;
  for (const auto& r : called_refs())
    for (Computation* c : r.comps) out.push_back(c);
  return out;
}

Computation* Instruction::called(std::string_view attr) const {
  for (const auto& r : called_refs())
    if (r.attr == attr && !r.comps.empty()) return r.comps[0];
  return nullptr;
}

void Instruction::SetCalled(std::string attr, Computation* c) {
  auto& called = Extra().called;
  for (auto& r : called) {
    if (r.attr == attr) {
      r.comps = {c};
      return;
    }
  }
  called.push_back(CalledRef{std::move(attr), {c}, false});
}

std::string Instruction::MetadataValue(std::string_view key) const {
  for (const MetadataField& m : metadata_) {
    if (m.name != key) continue;
    const std::string_view v = m.value;
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
      std::string out;
      for (size_t i = 1; i + 1 < v.size(); ++i) {
        if (v[i] == '\\' && i + 2 < v.size()) ++i;
        out += v[i];
      }
      return out;
    }
    return std::string(v);
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
