// Scatter (one operand; unfused or at the root of a fusion) with XLA's
// semantics as the interpreter implements them: update_window_dims,
// inserted_window_dims, scatter_dims_to_operand_dims, index_vector_dim
// (implicit when equal to the indices' rank), batching dims; an update window
// that would reach outside the operand is skipped.
//
// One thread per update element combines it into the result element:
//   unique_indices        plain read-combine-write;
//   an order-dependent    (one that is not a commutative, associative op
//   update computation    of its two parameters, e.g. "take the update")
//                         one thread applies every update in row-major
//                         order, as the interpreter and XLA's CPU backend
//                         do, so repeated indices give a defined result;
//   f32 add               atomicrmw fadd;
//   other types           a compare-and-swap loop around the update
//                         computation (so duplicate indices combine): on
//                         the element itself for 32/64-bit types and c64
//                         (its two parts as one 64-bit word), on the
//                         aligned 32-bit word holding it for 8/16-bit types
//                         and pred (the neighbouring bytes are written back
//                         as they were read; a concurrent change to them
//                         fails the swap and the loop retries).
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

// Whether combining updates in any order gives one result (up to float
// rounding): add, multiply, min, max, and, or, xor of the two parameters.
bool OrderFree(const Computation& c) {
  const Instruction* r = c.root();
  if (r->operand_count() != 2 || r->operand(0)->opcode() != Opcode::kParameter ||
      r->operand(1)->opcode() != Opcode::kParameter || r->operand(0) == r->operand(1))
    return false;
  switch (r->opcode()) {
    case Opcode::kAdd: case Opcode::kMultiply: case Opcode::kMaximum: case Opcode::kMinimum:
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
      return true;
    default:
      return false;
  }
}

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
  if (!dn || !fn || sc->operand_count() < 3 || sc->operand_count() % 2 != 1)
    return Status::Error(sc->name() + ": the GPU scatter emitter needs operands, indices, as many updates, dimension numbers and to_apply");
  // N operands, the indices, N updates (variadic scatter: N > 1, the
  // update computation returns a tuple of N).
  const int n = (sc->operand_count() - 1) / 2;
  const Instruction* op = sc->operand(0);
  const Instruction* ind = sc->operand(n);
  const Instruction* upd = sc->operand(n + 1);
  for (int j = 1; j < n; ++j) {
    if (!sc->operand(j)->shape().SameDims(op->shape()) || !sc->operand(n + 1 + j)->shape().SameDims(upd->shape()))
      return Status::Error(sc->name() + ": the operands (and the updates) of a variadic scatter must have one shape");
    if (sc->operand(j)->shape().element_type() != sc->operand(n + 1 + j)->shape().element_type())
      return Status::Error(sc->name() + ": operand and updates must agree");
    RETURN_IF_ERROR(CheckSupportedType(sc->operand(j)->shape().element_type(), sc->name()));
  }
  const Shape& os = op->shape();
  const Shape& is = ind->shape();
  const Shape& us = upd->shape();
  PrimitiveType t = os.element_type();
  RETURN_IF_ERROR(CheckSupportedType(t, sc->name()));
  if (t == PrimitiveType::kC128 && !sc->attrs().unique_indices)
    return Status::Error(sc->name() + ": scatter of c128 with possibly repeated indices needs a 128-bit compare-and-swap");
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
  const int bits = t == PrimitiveType::kPred ? 8 : BitWidth(t);
  bool f32_add = IsF32Add(*fn, t);
  const bool serial = !sc->attrs().unique_indices && (n > 1 || !OrderFree(*fn));
  bool plain = sc->attrs().unique_indices || serial;
  if (!plain && !f32_add && bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return Status::Error(sc->name() + ": scatter of " + std::string(PrimitiveTypeName(t)) +
                         " with possibly repeated indices needs an 8-, 16-, 32- or 64-bit type (or unique_indices=true)");
  // Several outputs: the one-block form below (its copy of an operand onto
  // an output that shares its storage copies each element onto itself).
  bool in_place = n == 1 && WritesInPlace(spec, op);
  for (int j = 0; j < n; ++j)
    if (DependsOn(spec, ind, sc->operand(j)) || DependsOn(spec, sc->operand(n + 1 + j), sc->operand(j)))
      for (const KernelArg& a : spec.args)
        if (a.is_output && a.aliases >= 0)
          return Status::Error(sc->name() + ": an in-place scatter whose updates or indices read the operand");
  if (in_place && (DependsOn(spec, upd, op) || DependsOn(spec, ind, op)))
    return Status::Error(sc->name() + ": an in-place scatter whose updates or indices read the operand");

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  int out0 = FirstOutputArg(spec);
  llvm::Type* et = RegisterType(t, ctx);

  // Scatters update element `u` (linear in the updates' physical order).
  // Serially: updates in row-major (logical) order; else in physical order.
  std::vector<int64_t> update_order = MajorToMinor(us);
  if (serial)
    for (int d = 0; d < us.rank(); ++d) update_order[static_cast<size_t>(d)] = d;
  auto scatter_one = [&](Value* u) -> Status {
    ee.ClearCache();
    std::vector<Value*> uidx(us.rank());
    DelinearizeInto(b, u, us, update_order, uidx);
    std::vector<Value*> start(orank, I64(b, 0));
    for (int64_t k = 0; k < comps; ++k) {
      std::vector<Value*> iidx;
      size_t gi = 0;
      for (int d = 0; d < is.rank(); ++d)
        iidx.push_back(!g.implicit && d == dn->index_vector_dim ? I64(b, k) : uidx[g.scatter_dims[gi++]]);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, sc, n, iidx));
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
      if (n > 1) {  // plain or serial: read-combine-write every output
        std::vector<Value*> in;
        for (int j = 0; j < n; ++j) in.push_back(ee.Load(out0 + j, oidx));
        for (int j = 0; j < n; ++j) {
          ASSIGN_OR_RETURN(Value * x, EmitOperand(ee, sc, n + 1 + j, uidx));
          in.push_back(x);
        }
        ASSIGN_OR_RETURN(std::vector<Value*> r, ee.EmitScalarComputation(*fn, in));
        if (static_cast<int>(r.size()) != n) return Status::Error(sc->name() + ": the update computation must return one value per operand");
        for (int j = 0; j < n; ++j) ee.Store(out0 + j, oidx, r[static_cast<size_t>(j)]);
        return Status::Ok();
      }
      ASSIGN_OR_RETURN(Value * x, EmitOperand(ee, sc, n + 1, uidx));
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
      // The element's bits ↔ its register value.
      llvm::Type* it = b.getIntNTy(bits);
      auto to_bits = [&](Value* v) -> Value* {
        if (t == PrimitiveType::kPred) return b.CreateZExt(v, it);
        if (IsComplex(t)) {  // c64: re in the low half, im in the high half (memory order)
          Value* re = b.CreateZExt(b.CreateBitCast(b.CreateExtractValue(v, 0), b.getInt32Ty()), it);
          Value* im = b.CreateZExt(b.CreateBitCast(b.CreateExtractValue(v, 1), b.getInt32Ty()), it);
          return b.CreateOr(re, b.CreateShl(im, 32));
        }
        return et->isIntegerTy() ? v : b.CreateBitCast(v, it);
      };
      auto from_bits = [&](Value* w) -> Value* {
        if (t == PrimitiveType::kPred) return b.CreateICmpNE(w, llvm::ConstantInt::get(it, 0));
        if (IsComplex(t)) {
          Value* re = b.CreateBitCast(b.CreateTrunc(w, b.getInt32Ty()), b.getFloatTy());
          Value* im = b.CreateBitCast(b.CreateTrunc(b.CreateLShr(w, 32), b.getInt32Ty()), b.getFloatTy());
          return b.CreateInsertValue(b.CreateInsertValue(llvm::UndefValue::get(et), re, 0), im, 1);
        }
        return et->isIntegerTy() ? w : b.CreateBitCast(w, et);
      };
      // The swapped word: the element itself, or the aligned 32-bit word
      // holding an 8/16-bit element at bit `shift` (little-endian).
      const bool narrow = bits < 32;
      llvm::Type* wt = narrow ? b.getInt32Ty() : it;
      Value* word = ptr;
      Value* shift = nullptr;
      if (narrow) {
        Value* addr = b.CreatePtrToInt(ptr, b.getInt64Ty());
        word = b.CreateIntToPtr(b.CreateAnd(addr, I64(b, ~int64_t{3})), ptr->getType());
        shift = b.CreateTrunc(b.CreateShl(b.CreateAnd(addr, I64(b, 3)), I64(b, 3)), b.getInt32Ty());
      }
      Value* mask = narrow ? b.CreateShl(b.getInt32((1u << bits) - 1), shift) : nullptr;
      llvm::BasicBlock* pre = b.GetInsertBlock();
      Value* first = b.CreateLoad(wt, word);
      auto* loop = llvm::BasicBlock::Create(ctx, "cas.loop", f);
      auto* done = llvm::BasicBlock::Create(ctx, "cas.done", f);
      b.CreateBr(loop);
      b.SetInsertPoint(loop);
      llvm::PHINode* old = b.CreatePHI(wt, 2, "old");
      old->addIncoming(first, pre);
      Value* old_bits = narrow ? b.CreateTrunc(b.CreateLShr(old, shift), it) : static_cast<Value*>(old);
      ASSIGN_OR_RETURN(std::vector<Value*> r, ee.EmitScalarComputation(*fn, {from_bits(old_bits), x}));
      Value* nv = to_bits(r[0]);
      if (narrow) nv = b.CreateOr(b.CreateAnd(old, b.CreateNot(mask)), b.CreateShl(b.CreateZExt(nv, wt), shift));
      Value* pair = b.CreateAtomicCmpXchg(word, old, nv, llvm::MaybeAlign(narrow ? 4 : bits / 8), llvm::AtomicOrdering::Monotonic,
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
  if (in_place && serial) {
    // One thread, every update in order.
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(ThreadId64(b), I64(b, 0)), [&]() -> Status {
      return ForLoop(b, I64(b, 0), I64(b, nu), I64(b, 1), scatter_one);
    }));
    k.dims.block[0] = 32;
    k.dims.grid[0] = 1;
  } else if (in_place) {
    const int64_t block = 256;
    Value* u = b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, block)), ThreadId64(b));
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(u, I64(b, nu)), [&] { return scatter_one(u); }));
    k.dims.block[0] = block;
    k.dims.grid[0] = BlocksFor(nu, block);
  } else {
    const int64_t block = 1024;
    Value* tid = ThreadId64(b);
    const Shape& rs = spec.args[static_cast<size_t>(out0)].shape;
    RETURN_IF_ERROR(ForLoop(b, tid, I64(b, rs.num_elements()), I64(b, block), [&](Value* e) -> Status {
      ee.ClearCache();
      std::vector<Value*> idx(orank);
      DelinearizeInto(b, e, rs, MajorToMinor(rs), idx);
      for (int j = 0; j < n; ++j) {
        ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, sc, j, idx));
        ee.Store(out0 + j, idx, v);
      }
      ee.ClearCache();
      return Status::Ok();
    }));
    SyncThreads(b);
    if (serial) {
      RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(tid, I64(b, 0)), [&]() -> Status {
        return ForLoop(b, I64(b, 0), I64(b, nu), I64(b, 1), scatter_one);
      }));
    } else {
      RETURN_IF_ERROR(ForLoop(b, tid, I64(b, nu), I64(b, block), scatter_one));
    }
    k.dims.block[0] = block;
    k.dims.grid[0] = 1;
  }
  b.CreateRetVoid();
  MarkKernel(f, k.dims.block[0]);
  return k;
}

}  // namespace hloscope::codegen
