// A computation: an ordered list of instructions with one root. The order
// is the input order (for scheduled modules, the schedule).
#pragma once

#include <list>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/instruction.h"

namespace hloscope {

class Module;

class Computation {
 public:
  explicit Computation(std::string name) : name_(std::move(name)) {}
  Computation(const Computation&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  Module* parent() const { return parent_; }
  void set_parent(Module* m) { parent_ = m; }
  bool is_entry() const { return is_entry_; }
  void set_is_entry(bool e) { is_entry_ = e; }
  SourceLoc loc() const { return loc_; }
  void set_loc(SourceLoc l) { loc_ = l; }

  Instruction* root() const { return root_; }
  void set_root(Instruction* r) { root_ = r; }

  const std::list<std::unique_ptr<Instruction>>& instructions() const { return instrs_; }
  int64_t instruction_count() const { return static_cast<int64_t>(instrs_.size()); }
  // Parameters by parameter number.
  const std::vector<Instruction*>& parameters() const { return params_; }
  Instruction* parameter(int i) const { return params_[i]; }
  int num_parameters() const { return static_cast<int>(params_.size()); }

  // Takes ownership; assigns a fresh id from the module if it has none.
  Instruction* AddInstruction(std::unique_ptr<Instruction> instr);
  // Inserts before `before` (or at the end when null).
  Instruction* AddInstructionBefore(std::unique_ptr<Instruction> instr, Instruction* before);
  // Moves `instr` (of this computation) to just before `before` (or to the
  // end when null).
  void MoveBefore(Instruction* instr, Instruction* before);
  // True when `a` comes before `b` in the list (both of this computation);
  // O(1) through the instructions' order keys.
  bool Precedes(const Instruction* a, const Instruction* b) const { return a->order_key() < b->order_key(); }
  // Removes an instruction that has no users (operands detached here).
  void RemoveInstruction(Instruction* instr);
  // Rebuilds the parameter table from parameter instructions.
  void RebuildParameters();
  // Puts the instructions in `order` (a permutation of all of them).
  void Reorder(const std::vector<Instruction*>& order);
  // Sorts the list so every instruction follows its operands (stable where
  // the list already was topological).
  void SortTopologically() { Reorder(MakePostOrder()); }

  // Instructions in an order where operands (and control predecessors)
  // come before users. Unreachable instructions are included.
  std::vector<Instruction*> MakePostOrder() const;

  // Raw text after the closing brace, e.g. `, execution_thread="host"`.
  std::string trailing_attrs;
  // Computations that call this one as a fused computation (non-null for fused).
  Instruction* fusion_instruction = nullptr;

 private:
  std::string name_;
  Module* parent_ = nullptr;
  bool is_entry_ = false;
  SourceLoc loc_;
  Instruction* root_ = nullptr;
  std::list<std::unique_ptr<Instruction>> instrs_;
  std::vector<Instruction*> params_;

  // Gives the instruction at `it` (just inserted or moved) an order key
  // between its neighbours' keys, renumbering the list when there is no room.
  void AssignKey(std::list<std::unique_ptr<Instruction>>::iterator it);
  void RenumberKeys();
};

}  // namespace hloscope
