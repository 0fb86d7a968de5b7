// Transpose: an unfused transpose, or a fusion whose root is a transpose (its
// operand computed elementally), through shared memory. A 32×32 tile of the
// plane spanned by the result's physical minor dim (A) and the result dim that
// is the operand's physical minor dim (B) is read with consecutive threads
// along B (coalesced in the operand), kept in a 32×33 shared array, and after
// a barrier written with consecutive threads along A (coalesced in the
// result). 256 threads (32×8) per tile, four rows each; the remaining result
// dims index the tile's batch. When A and B coincide (the transpose keeps the
// minor dim in place) it is a plain copy: one thread per element, kind "loop".
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
constexpr int64_t kTile = 32, kRows = 8;

}  // namespace

StatusOr<EmittedKernel> EmitTransposeKernel(llvm::Module& m, const KernelSpec& spec) {
  auto roots = KernelRoots(*spec.instr);
  const Instruction* tr = roots[0];
  if (roots.size() != 1 || tr->opcode() != Opcode::kTranspose || tr->operand_count() != 1)
    return Status::Error(spec.instr->name() + ": the transpose emitter needs a transpose at the kernel root");
  const Shape& in = tr->operand(0)->shape();
  const Shape& out = tr->shape();
  const auto& perm = tr->dimensions();
  bool ok = out.IsArray() && static_cast<int>(perm.size()) == in.rank() && out.rank() == in.rank();
  for (size_t i = 0; ok && i < perm.size(); ++i)
    ok = perm[i] >= 0 && perm[i] < in.rank() && out.dim(static_cast<int>(i)) == in.dim(static_cast<int>(perm[i]));
  if (!ok) return Status::Error(tr->name() + ": dimensions are not a permutation matching the result shape");
  RETURN_IF_ERROR(CheckSupportedType(out.element_type(), tr->name()));
  int rank = out.rank();
  auto out_order = MajorToMinor(out);
  int64_t a = rank ? out_order.back() : -1, bdim = -1;
  if (rank) {
    int64_t in_minor = MajorToMinor(in).back();
    for (int i = 0; i < rank; ++i)
      if (perm[i] == in_minor) bdim = i;
  }
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args;
  for (llvm::Argument& arg : f->args()) args.push_back(&arg);
  ElementalEmitter ee(b, spec, args);
  int out0 = FirstOutputArg(spec);
  auto in_index = [&](const std::vector<Value*>& oidx) {
    std::vector<Value*> idx(rank);
    for (int i = 0; i < rank; ++i) idx[perm[i]] = oidx[i];
    return idx;
  };
  EmittedKernel k;
  int64_t total = out.num_elements();
  bool tiled = rank >= 2 && a != bdim && out.dim(static_cast<int>(a)) > 1 && out.dim(static_cast<int>(bdim)) > 1;
  if (!tiled) {
    const int64_t block = 256;
    Value* g = b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, block)), ThreadId64(b));
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(g, I64(b, total)), [&]() -> Status {
      std::vector<Value*> oidx(rank);
      DelinearizeInto(b, g, out, out_order, oidx);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, tr, 0, in_index(oidx)));
      ee.Store(out0, oidx, v);
      return Status::Ok();
    }));
    b.CreateRetVoid();
    MarkKernel(f, block);
    k.kind = "loop";
    k.dims.block[0] = block;
    k.dims.grid[0] = BlocksFor(total, block);
    return k;
  }
  std::vector<int64_t> batch_dims;
  for (int64_t d : out_order)
    if (d != a && d != bdim) batch_dims.push_back(d);
  int64_t na = out.dim(static_cast<int>(a)), nb = out.dim(static_cast<int>(bdim));
  int64_t tiles_a = (na + kTile - 1) / kTile, tiles_b = (nb + kTile - 1) / kTile;
  int64_t batch = Product(out, batch_dims);
  llvm::Type* et = RegisterType(out.element_type(), m.getContext());
  llvm::Type* mt = et->isIntegerTy(1) ? b.getInt8Ty() : et;
  Value* tid = ThreadId64(b);
  Value* tx = b.CreateURem(tid, I64(b, kTile));
  Value* ty = b.CreateUDiv(tid, I64(b, kTile));
  Value* blk = BlockId64(b);
  Value* tb = b.CreateURem(blk, I64(b, tiles_b));
  Value* rest = b.CreateUDiv(blk, I64(b, tiles_b));
  Value* ta = b.CreateURem(rest, I64(b, tiles_a));
  Value* bt = b.CreateUDiv(rest, I64(b, tiles_a));
  std::vector<Value*> base(rank);
  DelinearizeInto(b, bt, out, batch_dims, base);
  Value* a0 = b.CreateMul(ta, I64(b, kTile));
  Value* b0 = b.CreateMul(tb, I64(b, kTile));
  Value* tile = SharedArray(b, mt, kTile * (kTile + 1), spec.name + "_tile");
  // Read: thread (tx, ty) loads a = a0 + r, b = b0 + tx for r = ty, ty+8, …
  for (int64_t k0 = 0; k0 < kTile; k0 += kRows) {
    Value* r = b.CreateAdd(ty, I64(b, k0));
    Value* av = b.CreateAdd(a0, r);
    Value* bv = b.CreateAdd(b0, tx);
    Value* inside = b.CreateAnd(b.CreateICmpSLT(av, I64(b, na)), b.CreateICmpSLT(bv, I64(b, nb)));
    RETURN_IF_ERROR(IfThen(b, inside, [&]() -> Status {
      ee.ClearCache();
      std::vector<Value*> oidx = base;
      oidx[a] = av;
      oidx[bdim] = bv;
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, tr, 0, in_index(oidx)));
      if (et != mt) v = b.CreateZExt(v, mt);
      b.CreateStore(v, b.CreateInBoundsGEP(mt, tile, b.CreateAdd(b.CreateMul(r, I64(b, kTile + 1)), tx)));
      ee.ClearCache();
      return Status::Ok();
    }));
  }
  SyncThreads(b);
  // Write: thread (tx, ty) stores a = a0 + tx, b = b0 + r.
  for (int64_t k0 = 0; k0 < kTile; k0 += kRows) {
    Value* r = b.CreateAdd(ty, I64(b, k0));
    Value* av = b.CreateAdd(a0, tx);
    Value* bv = b.CreateAdd(b0, r);
    Value* inside = b.CreateAnd(b.CreateICmpSLT(av, I64(b, na)), b.CreateICmpSLT(bv, I64(b, nb)));
    RETURN_IF_ERROR(IfThen(b, inside, [&]() -> Status {
      std::vector<Value*> oidx = base;
      oidx[a] = av;
      oidx[bdim] = bv;
      Value* v = b.CreateLoad(mt, b.CreateInBoundsGEP(mt, tile, b.CreateAdd(b.CreateMul(tx, I64(b, kTile + 1)), r)));
      if (et != mt) v = b.CreateTrunc(v, et);
      ee.Store(out0, oidx, v);
      return Status::Ok();
    }));
  }
  b.CreateRetVoid();
  MarkKernel(f, kTile * kRows);
  k.kind = "transpose";
  k.strategy = "through a padded shared-memory tile: coalesced reads and writes";
  k.dims.block[0] = kTile * kRows;
  k.dims.grid[0] = BlocksFor(batch * tiles_a * tiles_b, 1);
  return k;
}

}  // namespace hloscope::codegen
