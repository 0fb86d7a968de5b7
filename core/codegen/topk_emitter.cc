// topk(x), k=K, largest=true|false: the K largest (smallest) elements of every
// row of the last dimension, sorted, ties in index order, with their s32
// indices — the interpreter's order exactly: floats by value with -0 == +0
// and NaNs beyond the infinities (-NaN first, +NaN last), integers by value.
//
// One block per row, K selection rounds. In round r every thread scans its
// strided share of the row for the element that comes first among those the
// previous round's pick comes before (the pick's successor in the order);
// thread 0 then takes the first of the block's candidates, writes output r
// and publishes it as the next round's bound. O(K·L/T + K·T) per row: good
// for the small K of real models (MoE routing, beam search, logits); a K
// near L would rather be a sort.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

// A comparable key of one element: for floats the value as f64 and its NaN
// class (-1, 0, +1); for integers the value widened to i64.
struct Key {
  Value* v = nullptr;
  Value* nan_class = nullptr;  // floats only
};

class Order {
 public:
  Order(llvm::IRBuilderBase& b, PrimitiveType t, bool largest) : b_(b), t_(t), largest_(largest) {}

  StatusOr<Key> KeyOf(Value* raw) {
    Key k;
    if (IsFloat(t_)) {
      ASSIGN_OR_RETURN(k.v, EmitConvert(b_, raw, t_, PrimitiveType::kF64));
      Value* nan = b_.CreateFCmpUNO(k.v, k.v);
      Value* neg = b_.CreateICmpSLT(b_.CreateBitCast(k.v, b_.getInt64Ty()), b_.getInt64(0));
      k.nan_class =
          b_.CreateSelect(nan, b_.CreateSelect(neg, b_.getInt32(-1), b_.getInt32(1)), b_.getInt32(0));
      return k;
    }
    k.v = raw->getType()->isIntegerTy(64)                   ? raw
          : IsUnsignedInt(t_) || t_ == PrimitiveType::kPred ? b_.CreateZExt(raw, b_.getInt64Ty())
                                                            : b_.CreateSExt(raw, b_.getInt64Ty());
    return k;
  }

  // Whether x (at position ix) comes before y (at iy) in the output order.
  Value* Before(const Key& x, Value* ix, const Key& y, Value* iy) {
    Value *first, *same;
    if (IsFloat(t_)) {
      Value* cx = x.nan_class;
      Value* cy = y.nan_class;
      Value* same_class = b_.CreateICmpEQ(cx, cy);
      Value* finite = b_.CreateICmpEQ(cx, b_.getInt32(0));
      Value* cmp = largest_ ? b_.CreateFCmpOGT(x.v, y.v) : b_.CreateFCmpOLT(x.v, y.v);
      Value* class_first = largest_ ? b_.CreateICmpSGT(cx, cy) : b_.CreateICmpSLT(cx, cy);
      first = b_.CreateOr(class_first, b_.CreateAnd(same_class, b_.CreateAnd(finite, cmp)));
      same = b_.CreateAnd(same_class, b_.CreateOr(b_.CreateNot(finite), b_.CreateFCmpOEQ(x.v, y.v)));
    } else {
      const bool u = t_ == PrimitiveType::kU64;
      first = largest_ ? (u ? b_.CreateICmpUGT(x.v, y.v) : b_.CreateICmpSGT(x.v, y.v))
                       : (u ? b_.CreateICmpULT(x.v, y.v) : b_.CreateICmpSLT(x.v, y.v));
      same = b_.CreateICmpEQ(x.v, y.v);
    }
    return b_.CreateOr(first, b_.CreateAnd(same, b_.CreateICmpSLT(ix, iy)));
  }

 private:
  llvm::IRBuilderBase& b_;
  PrimitiveType t_;
  bool largest_;
};

}  // namespace

StatusOr<EmittedKernel> EmitTopKKernel(llvm::Module& m, const KernelSpec& spec) {
  auto roots = KernelRoots(*spec.instr);
  const Instruction* topk = roots.size() == 1 ? roots[0] : nullptr;
  if (!topk || (topk->opcode() != Opcode::kTopK && !IsTopKCustomCall(*topk)) || !topk->shape().IsTuple() ||
      topk->shape().tuple_size() != 2)
    return Status::Error(spec.instr->name() +
                         ": the topk emitter needs a topk (values, indices) at the kernel root");
  const Shape& in = topk->operand(0)->shape();
  const PrimitiveType t = in.element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, topk->name()));
  if (IsComplex(t)) return Status::Error(topk->name() + ": topk of a complex type");
  if (in.rank() < 1) return Status::Error(topk->name() + ": topk needs a rank >= 1 operand");
  const int dim = in.rank() - 1;
  const int64_t len = in.dim(dim);
  const int64_t k = topk->shape().tuple_shapes()[0].dim(dim);
  if (k > len)
    return Status::Error(topk->name() + ": k=" + std::to_string(k) + " exceeds the row length " +
                         std::to_string(len));
  const RawAttr* largest_attr = topk->FindRaw("largest");
  const bool largest = !largest_attr || largest_attr->value != "false";
  std::vector<int64_t> other;
  for (int64_t d : MajorToMinor(in))
    if (d != dim) other.push_back(d);
  const int64_t rows = Product(in, other);
  const int64_t threads = std::clamp<int64_t>((len + 31) / 32 * 32, 32, 256);

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  const int out_values = FirstOutputArg(spec), out_indices = out_values + 1;
  Order order(b, t, largest);

  // Per thread: its candidate's position (-1: none). Thread 0's pick of the
  // round: `bound` (-1 before the first round).
  Value* cand = SharedArray(b, b.getInt64Ty(), threads, spec.name + "_candidates");
  Value* bound = SharedArray(b, b.getInt64Ty(), 1, spec.name + "_bound");
  Value* tid = ThreadId64(b);
  Value* row = BlockId64(b);
  std::vector<Value*> base(in.rank());
  DelinearizeInto(b, row, in, other, base);
  auto at = [&](Value* e) {
    std::vector<Value*> idx = base;
    idx[dim] = e;
    return idx;
  };
  auto key_at = [&](Value* e) -> StatusOr<Key> {
    ee.ClearCache();
    ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, topk, 0, at(e)));
    ee.ClearCache();
    return order.KeyOf(v);
  };
  Value* best = EntryAlloca(b, b.getInt64Ty(), "best");
  RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(tid, I64(b, 0)), [&]() -> Status {
    b.CreateStore(I64(b, -1), bound);
    return Status::Ok();
  }));
  SyncThreads(b);
  // best = pos when there is none yet or pos (key kp) comes before it.
  auto consider = [&](Value* pos, const Key& kp) -> Status {
    Value* cur = b.CreateLoad(b.getInt64Ty(), best);
    llvm::BasicBlock* cmp = llvm::BasicBlock::Create(ctx, "against_best", f);
    llvm::BasicBlock* take = llvm::BasicBlock::Create(ctx, "take", f);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "taken", f);
    b.CreateCondBr(b.CreateICmpSLT(cur, I64(b, 0)), take, cmp);
    b.SetInsertPoint(cmp);
    ASSIGN_OR_RETURN(Key kc, key_at(cur));
    b.CreateCondBr(order.Before(kp, pos, kc, cur), take, done);
    b.SetInsertPoint(take);
    b.CreateStore(pos, best);
    b.CreateBr(done);
    b.SetInsertPoint(done);
    return Status::Ok();
  };
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, k), I64(b, 1), [&](Value* r) -> Status {
    Value* bp = b.CreateLoad(b.getInt64Ty(), bound);
    Value* first_round = b.CreateICmpSLT(bp, I64(b, 0));
    ASSIGN_OR_RETURN(Key kb, key_at(b.CreateSelect(first_round, I64(b, 0), bp)));
    b.CreateStore(I64(b, -1), best);
    RETURN_IF_ERROR(ForLoop(b, tid, I64(b, len), I64(b, threads), [&](Value* e) -> Status {
      ASSIGN_OR_RETURN(Key ke, key_at(e));
      // Eligible: the first round, or the previous pick comes before e.
      Value* ok = b.CreateOr(first_round, order.Before(kb, bp, ke, e));
      return IfThen(b, ok, [&]() -> Status { return consider(e, ke); });
    }));
    b.CreateStore(b.CreateLoad(b.getInt64Ty(), best), b.CreateInBoundsGEP(b.getInt64Ty(), cand, tid));
    SyncThreads(b);
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(tid, I64(b, 0)), [&]() -> Status {
      b.CreateStore(I64(b, -1), best);
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, threads), I64(b, 1), [&](Value* j) -> Status {
        Value* c = b.CreateLoad(b.getInt64Ty(), b.CreateInBoundsGEP(b.getInt64Ty(), cand, j));
        return IfThen(b, b.CreateICmpSGE(c, I64(b, 0)), [&]() -> Status {
          ASSIGN_OR_RETURN(Key kc, key_at(c));
          return consider(c, kc);
        });
      }));
      Value* pick = b.CreateLoad(b.getInt64Ty(), best);
      b.CreateStore(pick, bound);
      ee.ClearCache();
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, topk, 0, at(pick)));
      ee.ClearCache();
      ee.Store(out_values, at(r), v);
      ee.Store(out_indices, at(r), b.CreateTrunc(pick, b.getInt32Ty()));
      return Status::Ok();
    }));
    // Everyone has read this round's bound before thread 0 replaces it
    // (the barrier after the candidates), and sees the new one after this.
    SyncThreads(b);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  MarkKernel(f, threads);
  EmittedKernel out;
  out.kind = "topk";
  out.dims.block[0] = static_cast<uint32_t>(threads);
  out.dims.grid[0] = BlocksFor(rows, 1);
  return out;
}

}  // namespace hloscope::codegen
