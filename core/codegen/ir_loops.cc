#include "core/codegen/ir_loops.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Function.h>

#include "core/codegen/ir_util.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {

llvm::Value* I64(llvm::IRBuilderBase& b, int64_t v) { return b.getInt64(static_cast<uint64_t>(v)); }

Status ForLoop(llvm::IRBuilderBase& b, llvm::Value* start, llvm::Value* end, llvm::Value* step,
               const BodyFn& body) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::LLVMContext& ctx = f->getContext();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(ctx, "loop.header", f);
  auto* bodyb = llvm::BasicBlock::Create(ctx, "loop.body", f);
  auto* exit = llvm::BasicBlock::Create(ctx, "loop.exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode* iv = b.CreatePHI(b.getInt64Ty(), 2, "iv");
  iv->addIncoming(start, pre);
  b.CreateCondBr(b.CreateICmpSLT(iv, end), bodyb, exit);
  b.SetInsertPoint(bodyb);
  RETURN_IF_ERROR(body(iv));
  llvm::Value* next = b.CreateAdd(iv, step, "iv.next", /*HasNUW=*/false, /*HasNSW=*/true);
  iv->addIncoming(next, b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  return Status::Ok();
}

StatusOr<const Instruction*> SingleRootOfKind(const KernelSpec& spec, Opcode op) {
  std::vector<const Instruction*> roots = KernelRoots(*spec.instr);
  if (roots.size() != 1 || roots[0]->opcode() != op)
    return Status::Error(spec.instr->name() + ": the " + std::string(OpcodeName(op)) + " emitter needs a " +
                         std::string(OpcodeName(op)) + " at the kernel root");
  return roots[0];
}

std::optional<RootLinalgCall> FindRootLinalgCall(const KernelSpec& spec) {
  std::vector<const Instruction*> roots = KernelRoots(*spec.instr);
  if (roots.size() != 1) return std::nullopt;
  std::optional<LinalgCall> call = LinalgCustomCall(*roots[0]);
  if (!call) return std::nullopt;
  return RootLinalgCall{roots[0], *call};
}

StatusOr<RootLinalgCall> RootLinalgCallOfKind(const KernelSpec& spec, std::initializer_list<LinalgCall::Kind> kinds,
                                              const std::string& needs) {
  std::optional<RootLinalgCall> root = FindRootLinalgCall(spec);
  if (root)
    for (LinalgCall::Kind k : kinds)
      if (root->call.kind == k) return *root;
  return Status::Error(spec.instr->name() + ": " + needs + " at the kernel root");
}

Status GridStrideLoop(llvm::IRBuilderBase& b, int64_t n, const BodyFn& body) {
  llvm::Value* ntid = b.CreateZExt(BlockDim(b, Dim::kX), b.getInt64Ty());
  llvm::Value* start = b.CreateAdd(b.CreateMul(BlockId64(b), ntid), ThreadId64(b));
  llvm::Value* stride = b.CreateMul(b.CreateZExt(GridDim(b, Dim::kX), b.getInt64Ty()), ntid);
  return ForLoop(b, start, b.getInt64(n), stride, body);
}

Status IfThen(llvm::IRBuilderBase& b, llvm::Value* cond, const std::function<Status()>& then) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::LLVMContext& ctx = f->getContext();
  auto* tb = llvm::BasicBlock::Create(ctx, "if.then", f);
  auto* after = llvm::BasicBlock::Create(ctx, "if.end", f);
  b.CreateCondBr(cond, tb, after);
  b.SetInsertPoint(tb);
  RETURN_IF_ERROR(then());
  b.CreateBr(after);
  b.SetInsertPoint(after);
  return Status::Ok();
}

llvm::Value* EntryAlloca(llvm::IRBuilderBase& b, llvm::Type* t, const std::string& name) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock& entry = f->getEntryBlock();
  llvm::IRBuilder<> eb(&entry, entry.getFirstInsertionPt());
  return eb.CreateAlloca(t, nullptr, name);
}

std::vector<llvm::Value*> Delinearize(llvm::IRBuilderBase& b, llvm::Value* linear,
                                      const std::vector<int64_t>& sizes) {
  std::vector<llvm::Value*> out(sizes.size());
  llvm::Value* rest = linear;
  for (int i = static_cast<int>(sizes.size()) - 1; i >= 0; --i) {
    if (sizes[i] == 1) {
      out[i] = I64(b, 0);
      continue;
    }
    if (i == 0) {
      out[i] = rest;
      break;
    }
    out[i] = b.CreateURem(rest, I64(b, sizes[i]));
    rest = b.CreateUDiv(rest, I64(b, sizes[i]));
  }
  return out;
}

void DelinearizeInto(llvm::IRBuilderBase& b, llvm::Value* linear, const Shape& shape,
                     const std::vector<int64_t>& dims, std::vector<llvm::Value*>& index) {
  std::vector<int64_t> sizes;
  for (int64_t d : dims) sizes.push_back(shape.dim(static_cast<int>(d)));
  auto coords = Delinearize(b, linear, sizes);
  for (size_t i = 0; i < dims.size(); ++i) index[dims[i]] = coords[i];
}

std::vector<int64_t> MajorToMinor(const Shape& s) {
  std::vector<int64_t> m2m;
  if (s.has_layout() && static_cast<int>(s.layout().minor_to_major.size()) == s.rank()) {
    m2m = s.layout().minor_to_major;
  } else {
    for (int d = s.rank() - 1; d >= 0; --d) m2m.push_back(d);
  }
  return std::vector<int64_t>(m2m.rbegin(), m2m.rend());
}

int64_t Product(const Shape& s, const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= s.dim(static_cast<int>(d));
  return p;
}

llvm::Value* ThreadId64(llvm::IRBuilderBase& b) { return b.CreateZExt(ThreadIdx(b, Dim::kX), b.getInt64Ty()); }
llvm::Value* BlockId64(llvm::IRBuilderBase& b) { return b.CreateZExt(BlockIdx(b, Dim::kX), b.getInt64Ty()); }

std::vector<const Instruction*> KernelRoots(const Instruction& instr) {
  if (instr.opcode() != Opcode::kFusion || !instr.fused_computation()) return {&instr};
  const Instruction* root = instr.fused_computation()->root();
  if (root->opcode() == Opcode::kTuple) return {root->operands().begin(), root->operands().end()};
  return {root};
}

StatusOr<llvm::Value*> EmitOperand(ElementalEmitter& ee, const Instruction* hero, int k,
                                   const std::vector<llvm::Value*>& index) {
  if (hero != ee.spec().instr) return ee.Emit(hero->operand(k), index);
  int arg = ArgOfOperand(ee.spec(), k);
  if (arg < 0 || !hero->operand(k)->shape().IsArray())
    return Status::Error(hero->name() + ": operand " + std::to_string(k) + " has no array kernel argument");
  return ee.Load(arg, index);
}

int FirstOutputArg(const KernelSpec& spec) {
  for (size_t i = 0; i < spec.args.size(); ++i)
    if (spec.args[i].is_output) return static_cast<int>(i);
  return static_cast<int>(spec.args.size());
}

int ArgOfOperand(const KernelSpec& spec, int operand) {
  for (size_t i = 0; i < spec.args.size(); ++i)
    if (!spec.args[i].is_output && spec.args[i].operand == operand) return static_cast<int>(i);
  return -1;
}

int FusionParameterOperand(const KernelSpec& spec, const Instruction* i) {
  if (spec.instr->opcode() == Opcode::kFusion) {
    if (i->opcode() != Opcode::kParameter || i->parent() != spec.instr->fused_computation()) return -1;
    return static_cast<int>(i->parameter_number());
  }
  for (int k = 0; k < spec.instr->operand_count(); ++k)
    if (spec.instr->operand(k) == i) return k;
  return -1;
}

llvm::Value* ShuffleDownAny(llvm::IRBuilderBase& b, llvm::Value* v, int delta) {
  if (v->getType()->isIntegerTy(1)) {
    llvm::Value* w = ShuffleDown(b, b.CreateZExt(v, b.getInt32Ty()), delta);
    return b.CreateTrunc(w, b.getInt1Ty());
  }
  return ShuffleDown(b, v, delta);
}

uint32_t BlocksFor(int64_t n, int64_t per_block) {
  int64_t blocks = (n + per_block - 1) / per_block;
  return static_cast<uint32_t>(blocks < 1 ? 1 : blocks);
}

}  // namespace hloscope::codegen
