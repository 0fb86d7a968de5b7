// Sort: one block per row (a row = all elements along the sort dimension for
// one position of the other dims), sorted in shared memory by a bitonic
// network in ONE kernel with block barriers between its steps. The row length
// L is padded to a power of two P without sentinels: the network is the
// variant whose merge stages all sort ascending (first step of each stage
// compares i with its mirror in the 2s-block, later steps i with i+s), so a
// compare-exchange whose upper partner is ≥ L can simply be skipped (an
// absent element behaves as a largest one that never moves).
//
// Multiple operands are permuted together; the comparator gets (a0, b0, a1,
// b1, …) through EmitScalarComputation. Ties are broken by the original
// position, so the result is always the stable order — the interpreter's, for
// is_stable=false too. Rows must fit in static shared memory (48 KiB for all
// operands plus a 32-bit position each); longer rows are rejected by name.
#include <algorithm>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
constexpr int64_t kMaxSharedBytes = 48 * 1024;

}  // namespace

StatusOr<EmittedKernel> EmitSortKernel(llvm::Module& m, const KernelSpec& spec) {
  auto roots = KernelRoots(*spec.instr);
  const Instruction* sort = roots[0];
  if (roots.size() != 1 || sort->opcode() != Opcode::kSort)
    return Status::Error(spec.instr->name() + ": the sort emitter needs a sort at the kernel root");
  const Computation* cmp = sort->to_apply();
  if (!cmp || sort->operand_count() == 0 || sort->dimensions().size() != 1)
    return Status::Error(sort->name() + ": sort needs operands, dimensions={d} and to_apply");
  int n = sort->operand_count();
  const Shape& s0 = sort->operand(0)->shape();
  int64_t dim = sort->dimensions()[0];
  if (dim < 0 || dim >= s0.rank()) return Status::Error(sort->name() + ": sort dimension out of range");
  int64_t row_bytes = 4;
  for (int k = 0; k < n; ++k) {
    const Shape& s = sort->operand(k)->shape();
    if (!s.SameDims(s0)) return Status::Error(sort->name() + ": sort operands must have the same dimensions");
    RETURN_IF_ERROR(CheckSupportedType(s.element_type(), sort->name()));
    if (IsComplex(s.element_type())) return Status::Error(sort->name() + ": sorting complex values is not supported by the GPU emitter");
    row_bytes += StorageBytes(s.element_type());
  }
  int64_t len = s0.dim(static_cast<int>(dim));
  int64_t p2 = 1;
  while (p2 < len) p2 *= 2;
  if (p2 * row_bytes > kMaxSharedBytes)
    return Status::Error(sort->name() + ": rows of " + std::to_string(len) +
                         " elements do not fit the sort kernel's shared memory (at most " +
                         std::to_string(kMaxSharedBytes / row_bytes) + " for these operands)");
  std::vector<int64_t> other;
  for (int64_t d : MajorToMinor(s0))
    if (d != dim) other.push_back(d);
  int64_t rows = Product(s0, other);
  int64_t threads = std::clamp<int64_t>(p2 / 2, 1, 1024);

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  int out0 = FirstOutputArg(spec);
  std::vector<llvm::Type*> rt, mt;
  std::vector<Value*> sh;
  for (int k = 0; k < n; ++k) {
    rt.push_back(RegisterType(sort->operand(k)->shape().element_type(), ctx));
    mt.push_back(rt.back()->isIntegerTy(1) ? b.getInt8Ty() : rt.back());
    sh.push_back(SharedArray(b, mt.back(), std::max<int64_t>(p2, 1), spec.name + "_keys"));
  }
  Value* pos = SharedArray(b, b.getInt32Ty(), std::max<int64_t>(p2, 1), spec.name + "_pos");
  auto load = [&](int k, Value* e) {
    Value* v = b.CreateLoad(mt[k], b.CreateInBoundsGEP(mt[k], sh[k], e));
    return rt[k] != mt[k] ? b.CreateTrunc(v, rt[k]) : v;
  };
  auto store = [&](int k, Value* e, Value* v) {
    if (rt[k] != mt[k]) v = b.CreateZExt(v, mt[k]);
    b.CreateStore(v, b.CreateInBoundsGEP(mt[k], sh[k], e));
  };
  Value* tid = ThreadId64(b);
  Value* row = BlockId64(b);
  std::vector<Value*> base(s0.rank());
  DelinearizeInto(b, row, s0, other, base);
  auto index_at = [&](Value* e) {
    std::vector<Value*> idx = base;
    idx[dim] = e;
    return idx;
  };
  RETURN_IF_ERROR(ForLoop(b, tid, I64(b, len), I64(b, threads), [&](Value* e) -> Status {
    ee.ClearCache();
    for (int k = 0; k < n; ++k) {
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, sort, k, index_at(e)));
      store(k, e, v);
    }
    b.CreateStore(b.CreateTrunc(e, b.getInt32Ty()), b.CreateInBoundsGEP(b.getInt32Ty(), pos, e));
    ee.ClearCache();
    return Status::Ok();
  }));
  SyncThreads(b);
  // "x goes before y": cmp(x, y) || (!cmp(y, x) && pos(x) < pos(y)).
  auto before = [&](const std::vector<Value*>& x, Value* px, const std::vector<Value*>& y,
                    Value* py) -> StatusOr<Value*> {
    std::vector<Value*> xy, yx;
    for (int k = 0; k < n; ++k) {
      xy.push_back(x[k]);
      xy.push_back(y[k]);
      yx.push_back(y[k]);
      yx.push_back(x[k]);
    }
    ASSIGN_OR_RETURN(std::vector<Value*> c1, ee.EmitScalarComputation(*cmp, xy));
    ASSIGN_OR_RETURN(std::vector<Value*> c2, ee.EmitScalarComputation(*cmp, yx));
    if (c1.size() != 1 || !c1[0]->getType()->isIntegerTy(1))
      return Status::Error(sort->name() + ": comparator must return pred");
    return b.CreateOr(c1[0], b.CreateAnd(b.CreateNot(c2[0]), b.CreateICmpULT(px, py)));
  };
  for (int64_t size = 2; size <= p2; size *= 2) {
    for (int64_t s = size / 2; s >= 1; s /= 2) {
      bool mirror = s == size / 2;
      RETURN_IF_ERROR(ForLoop(b, tid, I64(b, p2 / 2), I64(b, threads), [&](Value* q) -> Status {
        Value* blk = b.CreateMul(b.CreateUDiv(q, I64(b, s)), I64(b, 2 * s));
        Value* off = b.CreateURem(q, I64(b, s));
        Value* i = b.CreateAdd(blk, off);
        Value* partner = mirror ? b.CreateAdd(blk, b.CreateSub(I64(b, 2 * s - 1), off)) : b.CreateAdd(i, I64(b, s));
        return IfThen(b, b.CreateICmpSLT(partner, I64(b, len)), [&]() -> Status {
          std::vector<Value*> x, y;
          for (int k = 0; k < n; ++k) {
            x.push_back(load(k, i));
            y.push_back(load(k, partner));
          }
          Value* px = b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), pos, i));
          Value* py = b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), pos, partner));
          ASSIGN_OR_RETURN(Value * swap, before(y, py, x, px));
          return IfThen(b, swap, [&]() -> Status {
            for (int k = 0; k < n; ++k) {
              store(k, i, y[k]);
              store(k, partner, x[k]);
            }
            b.CreateStore(py, b.CreateInBoundsGEP(b.getInt32Ty(), pos, i));
            b.CreateStore(px, b.CreateInBoundsGEP(b.getInt32Ty(), pos, partner));
            return Status::Ok();
          });
        });
      }));
      SyncThreads(b);
    }
  }
  RETURN_IF_ERROR(ForLoop(b, tid, I64(b, len), I64(b, threads), [&](Value* e) -> Status {
    for (int k = 0; k < n; ++k) ee.Store(out0 + k, index_at(e), load(k, e));
    return Status::Ok();
  }));
  b.CreateRetVoid();
  MarkKernel(f, threads);
  EmittedKernel k;
  k.kind = "sort";
  k.dims.block[0] = static_cast<uint32_t>(threads);
  k.dims.grid[0] = BlocksFor(rows, 1);
  return k;
}

}  // namespace hloscope::codegen
