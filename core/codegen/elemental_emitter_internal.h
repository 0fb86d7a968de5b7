// Internal: the state and per-op generators of ElementalEmitter (its Impl),
// shared by elemental_emitter.cc (operand access, constants, data-movement
// ops, the per-opcode dispatch) and elemental_emitter_reductions.cc (reduce,
// reduce-window and dot, whose element is a loop over operand elements).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/codegen/emitters.h"
#include "core/codegen/kernel_emitter.h"
#include "core/ir/instruction.h"
#include "core/support/status.h"

namespace llvm {
class GlobalVariable;
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace hloscope::codegen {

// One i64 per dimension of an instruction's shape, logical order.
using Index = std::vector<llvm::Value*>;

namespace elemental_internal {

// "codegen: <opcode> %<name>: <why>".
Status OpError(const Instruction& instr, const std::string& why);

}  // namespace elemental_internal

struct ElementalEmitter::Impl {
  llvm::IRBuilderBase& b;
  const KernelSpec& spec;
  std::vector<llvm::Value*> args;
  std::vector<int> operand_first_arg;  // per operand of spec.instr
  std::map<std::pair<const Instruction*, Index>, llvm::Value*> cache;
  std::map<const Instruction*, llvm::GlobalVariable*> constants;
  std::map<const Instruction*, ElementalEmitter::Generator> overrides;
  ElementalEmitter* self;

  Impl(llvm::IRBuilderBase& b, const KernelSpec& s, std::vector<llvm::Value*> a, ElementalEmitter* e);

  // Operand access and constants (elemental_emitter.cc).
  bool IsKernelInstr(const Instruction* instr) const;
  StatusOr<int> ArgOfOperand(const Instruction& user, int operand) const;
  StatusOr<llvm::Value*> Operand(const Instruction* instr, int k, const Index& index);
  StatusOr<llvm::Value*> ScalarOperandI64(const Instruction* instr, int k);
  llvm::Value* Clamp(llvm::Value* v, int64_t lo, int64_t hi);
  StatusOr<llvm::Value*> Constant(const Instruction* instr, const Index& index);
  // Defined in elemental_emitter.cc, its only user.
  template <class F>
  StatusOr<llvm::Value*> Guarded(llvm::Value* cond, F&& then_fn, llvm::Value* else_value);

  // Reduce, reduce-window and dot, one output element each
  // (elemental_emitter_reductions.cc).
  StatusOr<llvm::Value*> ReduceWindow(const Instruction* instr, const Index& index);
  StatusOr<std::vector<llvm::Value*>> VariadicReduction(const Instruction* instr, const Index& index);
  StatusOr<llvm::Value*> ElementalReduce(const Instruction* instr, const Index& index);
  StatusOr<llvm::Value*> ElementalDot(const Instruction* instr, const Index& index);

  // Data movement and the per-opcode dispatch (elemental_emitter.cc).
  StatusOr<llvm::Value*> Concatenate(const Instruction* instr, const Index& index);
  StatusOr<llvm::Value*> Pad(const Instruction* instr, const Index& index);
  StatusOr<llvm::Value*> Gather(const Instruction* instr, const Index& index);
  StatusOr<llvm::Value*> BitcastConvertWidths(const Instruction* instr, const Index& index);

  // Nested fusions inside the kernel's fused computation: their parameters
  // read the nested fusion's operands.
  std::map<const Computation*, const Instruction*> nested;

  StatusOr<llvm::Value*> Emit(const Instruction* instr, const Index& index);
};

}  // namespace hloscope::codegen
