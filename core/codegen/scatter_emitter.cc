// Scatter (one operand; unfused or at the root of a fusion) with XLA's
// semantics as the interpreter implements them: update_window_dims,
// inserted_window_dims, scatter_dims_to_operand_dims, index_vector_dim
// (implicit when equal to the indices' rank), batching dims; an update window
// that would reach outside the operand is skipped.
//
// One thread per update element combines it into the result element:
//   unique_indices        plain read-combine-write;
//   f32 add               atomicrmw fadd;
//   other 32/64-bit types a compare-and-swap loop around the update
//                         computation (so duplicate indices combine).
// In place when the result shares storage with operand 0 (many blocks; the
// updates and indices must not read the operand then). Otherwise the kernel first copies the
// operand to the result and then scatters, both in ONE block (1024 threads) with
// a barrier between, since no grid-wide barrier exists: correct, not fast.
#include <algorithm>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

bool Has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool IsF32Add(const Computation& c, PrimitiveType t) {
  const Instruction* r = c.root();
  if (t != PrimitiveType::kF32 || r->opcode() != Opcode::kAdd || r->operand_count() != 2) return false;
  const Instruction* a = r->operand(0);
  const Instruction* b = r->operand(1);
  return a->opcode() == Opcode::kParameter && b->opcode() == Opcode::kParameter && a != b;
}

struct Geometry {
  std::vector<int64_t> uwd, window_op, scatter_dims, wsize;
  bool implicit = false;
};

}  // namespace

StatusOr<EmittedKernel> EmitScatterKernel(llvm::Module& m, const KernelSpec& spec) {
  auto roots = KernelRoots(*spec.instr);
  const Instruction* sc = roots[0];
  if (roots.size() != 1 || sc->opcode() != Opcode::kScatter)
    return Status::Error(spec.instr->name() + ": the scatter emitter needs a scatter at the kernel root");
  const ScatterDnums* dn = sc->attrs().scatter.get();
  const Computation* fn = sc->to_apply();
  if (!dn || !fn || sc->operand_count() != 3)
    return Status::Error(sc->name() + ": the GPU scatter emitter handles one operand, indices, updates, dimension numbers and to_apply");
  const Instruction* op = sc->operand(0);
  const Instruction* ind = sc->operand(1);
  const Instruction* upd = sc->operand(2);
  const Shape& os = op->shape();
  const Shape& is = ind->shape();
  const Shape& us = upd->shape();
  PrimitiveType t = os.element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, sc->name()));
  if (IsComplex(t)) return Status::Error(sc->name() + ": scatter of complex values is not supported by the GPU emitter");
  if (!IsInteger(is.element_type())) return Status::Error(sc->name() + ": scatter indices must be integers");
  if (us.element_type() != t) return Status::Error(sc->name() + ": operand and updates must agree");
  if (dn->index_vector_dim < 0 || dn->index_vector_dim > is.rank())
    return Status::Error(sc->name() + ": index_vector_dim out of range");
  Geometry g;
  g.implicit = dn->index_vector_dim == is.rank();
  int64_t comps = g.implicit ? 1 : is.dim(static_cast<int>(dn->index_vector_dim));
  if (comps != static_cast<int64_t>(dn->scatter_dims_to_operand_dims.size()))
    return Status::Error(sc->name() + ": scatter_dims_to_operand_dims size does not match the index vector length");
  int orank = os.rank();
  for (int d = 0; d < orank; ++d)
    if (!Has(dn->inserted_window_dims, d) && !Has(dn->input_batching_dims, d)) g.window_op.push_back(d);
  g.uwd = dn->update_window_dims;
  std::sort(g.uwd.begin(), g.uwd.end());
  if (g.window_op.size() != g.uwd.size()) return Status::Error(sc->name() + ": update_window_dims do not match the operand");
  for (int d = 0; d < us.rank(); ++d)
    if (!Has(g.uwd, d)) g.scatter_dims.push_back(d);
  if (static_cast<int>(g.scatter_dims.size()) != is.rank() - (g.implicit ? 0 : 1))
    return Status::Error(sc->name() + ": update scatter dimensions do not match the indices");
  for (int64_t x : dn->scatter_dims_to_operand_dims)
    if (x < 0 || x >= orank) return Status::Error(sc->name() + ": scatter_dims_to_operand_dims entry out of range");
  if (dn->input_batching_dims.size() != dn->scatter_indices_batching_dims.size())
    return Status::Error(sc->name() + ": batching dims do not pair up");
  g.wsize.assign(orank, 1);
  for (size_t j = 0; j < g.window_op.size(); ++j) g.wsize[g.window_op[j]] = us.dim(static_cast<int>(g.uwd[j]));
  int bits = BitWidth(t);
  bool f32_add = IsF32Add(*fn, t);
  bool plain = sc->attrs().unique_indices;
  if (!plain && !f32_add && bits != 32 && bits != 64)
    return Status::Error(sc->name() + ": scatter of " + std::string(PrimitiveTypeName(t)) +
                         " with possibly repeated indices needs a 32- or 64-bit type (or unique_indices=true)");
  bool in_place = WritesInPlace(spec, op);
  if (in_place && (DependsOn(upd, op) || DependsOn(ind, op)))
    return Status::Error(sc->name() + ": an in-place scatter whose updates or indices read the operand");

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args;
  for (llvm::Argument& a : f->args()) args.push_back(&a);
  ElementalEmitter ee(b, spec, args);
  int out0 = FirstOutputArg(spec);
  llvm::Type* et = RegisterType(t, ctx);

  // Scatters update element `u` (linear in the updates' physical order).
  auto scatter_one = [&](Value* u) -> Status {
    ee.ClearCache();
    std::vector<Value*> uidx(us.rank());
    DelinearizeInto(b, u, us, MajorToMinor(us), uidx);
    std::vector<Value*> start(orank, I64(b, 0));
    for (int64_t k = 0; k < comps; ++k) {
      std::vector<Value*> iidx;
      size_t gi = 0;
      for (int d = 0; d < is.rank(); ++d)
        iidx.push_back(!g.implicit && d == dn->index_vector_dim ? I64(b, k) : uidx[g.scatter_dims[gi++]]);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, sc, 1, iidx));
      start[dn->scatter_dims_to_operand_dims[k]] = IndexToI64(b, v, is.element_type());
    }
    for (size_t i = 0; i < dn->input_batching_dims.size(); ++i) {
      int64_t s = dn->scatter_indices_batching_dims[i];
      int64_t pos = (!g.implicit && s > dn->index_vector_dim) ? s - 1 : s;
      if (pos < 0 || pos >= static_cast<int64_t>(g.scatter_dims.size()))
        return Status::Error(sc->name() + ": scatter_indices_batching_dims out of range");
      start[dn->input_batching_dims[i]] = uidx[g.scatter_dims[pos]];
    }
    Value* inside = b.getTrue();
    std::vector<Value*> oidx(orank);
    for (int d = 0; d < orank; ++d) {
      inside = b.CreateAnd(inside, b.CreateICmpSGE(start[d], I64(b, 0)));
      inside = b.CreateAnd(inside, b.CreateICmpSLE(start[d], I64(b, os.dim(d) - g.wsize[d])));
      oidx[d] = start[d];
    }
    for (size_t j = 0; j < g.window_op.size(); ++j)
      oidx[g.window_op[j]] = b.CreateAdd(start[g.window_op[j]], uidx[g.uwd[j]]);
    RETURN_IF_ERROR(IfThen(b, inside, [&]() -> Status {
      ASSIGN_OR_RETURN(Value * x, EmitOperand(ee, sc, 2, uidx));
      Value* ptr = ee.ElementAddress(out0, oidx);
      if (plain) {
        Value* old = ee.Load(out0, oidx);
        ASSIGN_OR_RETURN(std::vector<Value*> r, ee.EmitScalarComputation(*fn, {old, x}));
        ee.Store(out0, oidx, r[0]);
        return Status::Ok();
      }
      if (f32_add) {
        b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, ptr, x, llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
        return Status::Ok();
      }
      llvm::Type* it = b.getIntNTy(bits);
      llvm::BasicBlock* pre = b.GetInsertBlock();
      Value* first = b.CreateLoad(it, ptr);
      auto* loop = llvm::BasicBlock::Create(ctx, "cas.loop", f);
      auto* done = llvm::BasicBlock::Create(ctx, "cas.done", f);
      b.CreateBr(loop);
      b.SetInsertPoint(loop);
      llvm::PHINode* old = b.CreatePHI(it, 2, "old");
      old->addIncoming(first, pre);
      Value* ov = et->isIntegerTy() ? static_cast<Value*>(old) : b.CreateBitCast(old, et);
      ASSIGN_OR_RETURN(std::vector<Value*> r, ee.EmitScalarComputation(*fn, {ov, x}));
      Value* nv = et->isIntegerTy() ? r[0] : b.CreateBitCast(r[0], it);
      Value* pair = b.CreateAtomicCmpXchg(ptr, old, nv, llvm::MaybeAlign(bits / 8), llvm::AtomicOrdering::Monotonic,
                                          llvm::AtomicOrdering::Monotonic);
      old->addIncoming(b.CreateExtractValue(pair, 0), b.GetInsertBlock());
      b.CreateCondBr(b.CreateExtractValue(pair, 1), done, loop);
      b.SetInsertPoint(done);
      return Status::Ok();
    }));
    ee.ClearCache();
    return Status::Ok();
  };

  EmittedKernel k;
  k.kind = "scatter";
  int64_t nu = us.num_elements();
  if (in_place) {
    const int64_t block = 256;
    Value* u = b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, block)), ThreadId64(b));
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(u, I64(b, nu)), [&] { return scatter_one(u); }));
    k.dims.block[0] = block;
    k.dims.grid[0] = BlocksFor(nu, block);
  } else {
    const int64_t block = 1024;
    Value* tid = ThreadId64(b);
    const Shape& rs = sc->shape();
    RETURN_IF_ERROR(ForLoop(b, tid, I64(b, rs.num_elements()), I64(b, block), [&](Value* e) -> Status {
      ee.ClearCache();
      std::vector<Value*> idx(orank);
      DelinearizeInto(b, e, rs, MajorToMinor(rs), idx);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, sc, 0, idx));
      ee.Store(out0, idx, v);
      ee.ClearCache();
      return Status::Ok();
    }));
    SyncThreads(b);
    RETURN_IF_ERROR(ForLoop(b, tid, I64(b, nu), I64(b, block), scatter_one));
    k.dims.block[0] = block;
    k.dims.grid[0] = 1;
  }
  b.CreateRetVoid();
  MarkKernel(f, k.dims.block[0]);
  return k;
}

}  // namespace hloscope::codegen
