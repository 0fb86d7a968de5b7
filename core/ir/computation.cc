#include "core/ir/computation.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <unordered_map>

#include "core/ir/module.h"

namespace hloscope {

Instruction* Computation::AddInstruction(std::unique_ptr<Instruction> instr) {
  return AddInstructionBefore(std::move(instr), nullptr);
}

Instruction* Computation::AddInstructionBefore(std::unique_ptr<Instruction> instr,
                                               Instruction* before) {
  Instruction* raw = instr.get();
  raw->set_parent(this);
  if (raw->id() < 0 && parent_) raw->set_id(parent_->NewId());
  if (parent_) parent_->RegisterName(raw->name());
  auto pos = before ? before->self_it : instrs_.end();
  raw->self_it = instrs_.insert(pos, std::move(instr));
  AssignKey(raw->self_it);
  if (raw->opcode() == Opcode::kParameter) {
    int64_t n = raw->parameter_number();
    if (n >= 0 && n < (1 << 24)) {
      if (static_cast<int64_t>(params_.size()) <= n) params_.resize(n + 1, nullptr);
      params_[n] = raw;
    }
  }
  return raw;
}

namespace {
// Room between consecutive keys after a renumbering: about 32 insertions at
// one place before the list is renumbered again.
constexpr int64_t kKeyGap = int64_t{1} << 32;
}  // namespace

void Computation::RenumberKeys() {
  int64_t k = 0;
  for (auto& i : instrs_) {
    i->order_key_ = k;
    k += kKeyGap;
  }
}

void Computation::AssignKey(std::list<std::unique_ptr<Instruction>>::iterator it) {
  auto next = std::next(it);
  const bool first = it == instrs_.begin();
  if (next == instrs_.end()) {
    if (first) {
      (*it)->order_key_ = 0;
      return;
    }
    int64_t prev = (*std::prev(it))->order_key_;
    if (prev > std::numeric_limits<int64_t>::max() - kKeyGap) return RenumberKeys();
    (*it)->order_key_ = prev + kKeyGap;
    return;
  }
  int64_t hi = (*next)->order_key_;
  if (first) {
    if (hi < std::numeric_limits<int64_t>::min() + kKeyGap) return RenumberKeys();
    (*it)->order_key_ = hi - kKeyGap;
    return;
  }
  int64_t lo = (*std::prev(it))->order_key_;
  const uint64_t room = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);  // hi > lo
  if (hi <= lo || room < 2) return RenumberKeys();
  (*it)->order_key_ = static_cast<int64_t>(static_cast<uint64_t>(lo) + room / 2);
}

void Computation::MoveBefore(Instruction* instr, Instruction* before) {
  auto pos = before ? before->self_it : instrs_.end();
  instrs_.splice(pos, instrs_, instr->self_it);
  AssignKey(instr->self_it);
}

void Computation::RemoveInstruction(Instruction* instr) {
  instr->DetachOperands();
  instr->DropAllControlDeps();
  if (instr->opcode() == Opcode::kParameter) {
    for (auto& p : params_)
      if (p == instr) p = nullptr;
  }
  if (root_ == instr) root_ = nullptr;
  instrs_.erase(instr->self_it);
}

void Computation::RebuildParameters() {
  params_.clear();
  for (const auto& i : instrs_) {
    if (i->opcode() != Opcode::kParameter) continue;
    int64_t n = i->parameter_number();
    if (n < 0 || n >= (1 << 24)) continue;
    if (static_cast<int64_t>(params_.size()) <= n) params_.resize(n + 1, nullptr);
    params_[n] = i.get();
  }
}

void Computation::Reorder(const std::vector<Instruction*>& order) {
  if (order.size() != instrs_.size()) return;
  for (Instruction* i : order) instrs_.splice(instrs_.end(), instrs_, i->self_it);
  RenumberKeys();
}

std::vector<Instruction*> Computation::MakePostOrder() const {
  // The walk's state by instruction id in a buffer kept per thread (and left
  // all zero), when every instruction has one: fusion passes order small
  // fused computations many thousands of times, and a hash map per call was
  // most of their cost.
  thread_local std::vector<uint8_t> by_id;  // 0 new, 1 open, 2 done
  int64_t max_id = -1;
  for (const auto& i : instrs_) {
    if (i->id() < 0) {
      max_id = -2;
      break;
    }
    max_id = std::max(max_id, i->id());
  }
  if (max_id >= -1) {
    if (by_id.size() <= static_cast<size_t>(max_id + 1)) by_id.resize(static_cast<size_t>(max_id) + 2, 0);
    std::vector<Instruction*> order;
    order.reserve(instrs_.size());
    std::vector<std::pair<Instruction*, size_t>> stack;
    for (const auto& start : instrs_) {
      if (by_id[static_cast<size_t>(start->id())] == 2) continue;
      stack.push_back({start.get(), 0});
      by_id[static_cast<size_t>(start->id())] = 1;
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        const size_t nops = node->operands().size();
        const size_t total = nops + node->control_predecessors().size();
        if (next < total) {
          Instruction* dep = next < nops ? node->operand(static_cast<int>(next)) : node->control_predecessors()[next - nops];
          ++next;
          if (dep->parent() != this || by_id[static_cast<size_t>(dep->id())] != 0) continue;
          by_id[static_cast<size_t>(dep->id())] = 1;
          stack.push_back({dep, 0});
          continue;
        }
        by_id[static_cast<size_t>(node->id())] = 2;
        order.push_back(node);
        stack.pop_back();
      }
    }
    for (Instruction* i : order) by_id[static_cast<size_t>(i->id())] = 0;
    // Two instructions sharing an id would share a state (the second never
    // ordered): then order by address instead.
    if (order.size() == instrs_.size()) return order;
  }
  std::vector<Instruction*> order;
  order.reserve(instrs_.size());
  std::unordered_map<const Instruction*, char> state;  // 1 = visiting, 2 = done
  state.reserve(instrs_.size() * 2);
  std::vector<std::pair<Instruction*, size_t>> stack;
  auto visit = [&](Instruction* start) {
    if (state[start] == 2) return;
    stack.push_back({start, 0});
    state[start] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      size_t nops = node->operands().size();
      size_t total = nops + node->control_predecessors().size();
      if (next < total) {
        Instruction* dep = next < nops ? node->operand(static_cast<int>(next))
                                       : node->control_predecessors()[next - nops];
        ++next;
        if (dep->parent() != this) continue;
        char& st = state[dep];
        if (st == 0) {
          st = 1;
          stack.push_back({dep, 0});
        }
        continue;
      }
      state[node] = 2;
      order.push_back(node);
      stack.pop_back();
    }
  };
  for (const auto& i : instrs_) visit(i.get());
  return order;
}

}  // namespace hloscope
