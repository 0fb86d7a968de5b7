// Dynamic-update-slice (unfused, or at the root of a fusion). In place when
// the result shares storage with the operand (KernelArg::aliases; the update
// and start indices must not read the operand then): one thread per update
// element writes it at the clamped start (clamped as the interpreter does:
// into [0, dim - update_dim]); the rest of the buffer is already there.
// Otherwise one thread per result element selects the update or the operand
// element.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {

namespace {

bool DependsWithin(const Instruction* i, const Instruction* target) {
  if (i == target) return true;
  if (i->opcode() == Opcode::kParameter) return false;
  for (const Instruction* o : i->operands())
    if (DependsWithin(o, target)) return true;
  return false;
}

}  // namespace

bool DependsOn(const KernelSpec& spec, const Instruction* i, const Instruction* target) {
  // An unfused instruction's operands are kernel arguments, already in
  // memory before the kernel starts: what they were computed from is not
  // read by this kernel (buffer assignment keeps another operand's storage
  // apart from an in-place output).
  if (spec.instr->opcode() != Opcode::kFusion || !spec.instr->fused_computation()) return i == target;
  return DependsWithin(i, target);
}

bool WritesInPlace(const KernelSpec& spec, const Instruction* base) {
  int operand = FusionParameterOperand(spec, base);
  if (operand < 0) return false;
  int arg = ArgOfOperand(spec, operand);
  int out = FirstOutputArg(spec);
  if (arg < 0 || out >= static_cast<int>(spec.args.size())) return false;
  return spec.args[out].aliases == arg || spec.args[arg].aliases == out;
}

namespace {

using llvm::Value;
constexpr int64_t kBlock = 256;

}  // namespace

StatusOr<EmittedKernel> EmitDynamicUpdateSliceKernel(llvm::Module& m, const KernelSpec& spec) {
  auto roots = KernelRoots(*spec.instr);
  const Instruction* dus = roots[0];
  if (roots.size() != 1 || dus->opcode() != Opcode::kDynamicUpdateSlice || dus->operand_count() < 3)
    return Status::Error(spec.instr->name() + ": the dynamic-update-slice emitter needs a dynamic-update-slice at the kernel root");
  const Instruction* base = dus->operand(0);
  const Instruction* upd = dus->operand(1);
  const Shape& bs = base->shape();
  const Shape& us = upd->shape();
  int rank = bs.rank();
  if (!dus->shape().IsArray() || us.rank() != rank || us.element_type() != bs.element_type())
    return Status::Error(dus->name() + ": update " + us.ToString(false) + " does not match the operand");
  for (int d = 0; d < rank; ++d)
    if (us.dim(d) > bs.dim(d)) return Status::Error(dus->name() + ": update larger than the operand");
  bool vector_starts = dus->operand_count() == 3 && dus->operand(2)->shape().rank() == 1 && rank != 1;
  if (!vector_starts && dus->operand_count() != 2 + rank)
    return Status::Error(dus->name() + ": needs one start index per operand dimension");
  for (int i = 2; i < dus->operand_count(); ++i)
    if (!IsInteger(dus->operand(i)->shape().element_type()))
      return Status::Error(dus->name() + ": start indices must be integers");
  RETURN_IF_ERROR(CheckSupportedType(bs.element_type(), dus->name()));
  bool in_place = WritesInPlace(spec, base);
  for (int i = 1; in_place && i < dus->operand_count(); ++i)
    if (DependsOn(spec, dus->operand(i), base))
      return Status::Error(dus->name() + ": an in-place dynamic-update-slice whose update or start indices read the operand");

  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  int out0 = FirstOutputArg(spec);
  const Shape& iter = in_place ? us : dus->shape();
  int64_t total = iter.num_elements();
  Value* g = b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, kBlock)), ThreadId64(b));
  RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(g, I64(b, total)), [&]() -> Status {
    std::vector<Value*> start(rank);
    for (int d = 0; d < rank; ++d) {
      const Instruction* si = vector_starts ? dus->operand(2) : dus->operand(2 + d);
      std::vector<Value*> sidx;
      if (vector_starts) sidx.push_back(I64(b, d));
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, dus, vector_starts ? 2 : 2 + d, sidx));
      v = IndexToI64(b, v, si->shape().element_type());
      Value* hi = I64(b, bs.dim(d) - us.dim(d));
      v = b.CreateSelect(b.CreateICmpSLT(v, I64(b, 0)), I64(b, 0), v);
      start[d] = b.CreateSelect(b.CreateICmpSGT(v, hi), hi, v);
    }
    std::vector<Value*> idx(rank);
    DelinearizeInto(b, g, iter, MajorToMinor(iter), idx);
    if (in_place) {
      std::vector<Value*> oidx(rank);
      for (int d = 0; d < rank; ++d) oidx[d] = b.CreateAdd(idx[d], start[d]);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, dus, 1, idx));
      ee.Store(out0, oidx, v);
      return Status::Ok();
    }
    Value* inside = b.getTrue();
    std::vector<Value*> uidx(rank);
    for (int d = 0; d < rank; ++d) {
      uidx[d] = b.CreateSub(idx[d], start[d]);
      inside = b.CreateAnd(inside, b.CreateICmpSGE(uidx[d], I64(b, 0)));
      inside = b.CreateAnd(inside, b.CreateICmpSLT(uidx[d], I64(b, us.dim(d))));
    }
    llvm::Type* et = RegisterType(bs.element_type(), m.getContext());
    Value* slot = EntryAlloca(b, et, "element");
    llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(m.getContext(), "dus.update", f);
    llvm::BasicBlock* else_bb = llvm::BasicBlock::Create(m.getContext(), "dus.operand", f);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(m.getContext(), "dus.store", f);
    b.CreateCondBr(inside, then_bb, else_bb);
    b.SetInsertPoint(then_bb);
    ee.ClearCache();
    ASSIGN_OR_RETURN(Value * uv, EmitOperand(ee, dus, 1, uidx));
    b.CreateStore(uv, slot);
    b.CreateBr(join);
    b.SetInsertPoint(else_bb);
    ee.ClearCache();
    ASSIGN_OR_RETURN(Value * bv, EmitOperand(ee, dus, 0, idx));
    b.CreateStore(bv, slot);
    b.CreateBr(join);
    b.SetInsertPoint(join);
    ee.ClearCache();
    ee.Store(out0, idx, b.CreateLoad(et, slot));
    return Status::Ok();
  }));
  b.CreateRetVoid();
  MarkKernel(f, kBlock);
  EmittedKernel k;
  k.kind = "dynamic-update-slice";
  k.dims.block[0] = kBlock;
  k.dims.grid[0] = BlocksFor(total, kBlock);
  return k;
}

}  // namespace hloscope::codegen
