// Dot and GEMM fusions (gemm_fusion_emitter.h): the shared analysis
// (AnalyzeGemm: the epilogue chain, the dot viewed as [batch, m, k] ×
// [batch, k, n]), the store through the epilogue (StoreGemmElement), the
// dispatch to the tensor-core kernel where it applies, and the FMA kernel for
// everything else. Any batch/contracting dimension numbers: the lhs is viewed
// as [batch, m, k] and the rhs as [batch, k, n] through
// index mapping (free dims in operand order, contracting dims in the order of
// the dimension numbers), so operand and result layouts are whatever the
// elemental loads/stores make of them. f32 GEMMs of at least 64×64 take the
// register-blocked kernel (EmitBlockedFmaGemm, below). FMA kernel: one 16×16 output tile per
// block (256 threads, one element each); the K loop stages 16×16 tiles of
// both operands in shared memory (17-wide rows), with a barrier after loading
// and after use. Out-of-range tile entries are zero in both operands, so the
// padded products add exactly zero.
//
// Numerics as the interpreter (core/eval/eval_dot_conv.cc): each operand is
// converted to the result type, then to the compute type (f32 for f32/f16/
// bf16 results, f64 for f64, wrapping i64 for integers); every output sums
// its products in ascending contracting order; one rounding to the result
// type at the end.
#include <algorithm>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/gemm_fusion_emitter.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/line_info.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
constexpr int64_t kTile = 16;

bool Has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

StatusOr<PrimitiveType> ComputeType(const Instruction& dot, PrimitiveType rt) {
  if (rt == PrimitiveType::kF64) return rt;
  if (IsComplex(rt)) return Status::Error(dot.name() + ": complex dot is not supported by the GPU emitter");
  if (IsFloat(rt)) return PrimitiveType::kF32;
  if (IsInteger(rt)) return PrimitiveType::kS64;
  return Status::Error(dot.name() + ": dot with result type " + std::string(PrimitiveTypeName(rt)));
}

}  // namespace

// Operand value converted as the interpreter's Prepare does (shared with the
// convolution emitter).
StatusOr<Value*> ToComputeType(llvm::IRBuilderBase& b, Value* v, PrimitiveType from, PrimitiveType rt,
                               PrimitiveType ct) {
  if (from != rt) {
    ASSIGN_OR_RETURN(v, EmitConvert(b, v, from, rt));
  }
  if (rt != ct) {
    ASSIGN_OR_RETURN(v, EmitConvert(b, v, rt, ct));
  }
  return v;
}

namespace {

// The epilogue of a GEMM fusion: the ops from the dot up to the (single)
// root, each the only user of the one below, so that the root's element at
// the dot's index mapped up the chain depends on that one dot element only
// (bias, residual, activation, convert, bitcast). Empty when the dot is the
// root; an error when the fusion is no such chain.
struct Gemm {
  const Instruction* dot = nullptr;
  std::vector<const Instruction*> epilogue;  // the dot's user first, the root last
};

StatusOr<Gemm> EpilogueChain(const KernelSpec& spec) {
  const std::vector<const Instruction*> roots = KernelRoots(*spec.instr);
  if (roots.size() != 1) return Status::Error(spec.instr->name() + ": the dot emitter writes one output");
  if (roots[0]->opcode() == Opcode::kDot) return Gemm{roots[0], {}};
  const Computation* c = spec.instr->fused_computation();
  const Instruction* dot = nullptr;
  if (c)
    for (const auto& i : c->instructions())
      if (i->opcode() == Opcode::kDot) {
        if (dot) return Status::Error(spec.instr->name() + ": more than one dot");
        dot = i.get();
      }
  if (!dot) return Status::Error(spec.instr->name() + ": the dot emitter needs a dot at the kernel root");
  std::vector<const Instruction*> chain;
  for (const Instruction* x = dot; x != roots[0];) {
    if (x->users().size() != 1)
      return Status::Error(spec.instr->name() + ": %" + x->name() + " has several users (not a GEMM epilogue)");
    const Instruction* u = x->users()[0];
    const Opcode op = u->opcode();
    const bool elementwise = IsElementwise(op) && u->shape().IsArray() && u->shape().SameDims(x->shape());
    const bool view = (op == Opcode::kBitcast || op == Opcode::kReshape || op == Opcode::kTranspose) &&
                      u->shape().IsArray() && u->shape().num_elements() == x->shape().num_elements();
    if (!elementwise && !view)
      return Status::Error(spec.instr->name() + ": " + std::string(OpcodeName(op)) + " %" + u->name() +
                           " is not a GEMM epilogue op");
    if (elementwise)
      for (const Instruction* o : u->operands())
        if (o != x && !(o->shape().IsArray() && (o->shape().SameDims(u->shape()) || o->shape().rank() == 0)))
          return Status::Error(spec.instr->name() + ": %" + u->name() + " broadcasts an operand implicitly");
    chain.push_back(u);
    x = u;
  }
  return Gemm{dot, chain};
}

// The index of `u`'s element that operand element `in` becomes (one step of
// the epilogue chain, whose ops are elementwise or move whole elements).
std::vector<Value*> IndexUp(llvm::IRBuilderBase& b, const Instruction& u, const std::vector<Value*>& in) {
  const Shape& from = u.operand(0)->shape();
  const Shape& to = u.shape();
  switch (u.opcode()) {
    case Opcode::kTranspose: {
      std::vector<Value*> out(to.rank());
      for (int d = 0; d < to.rank(); ++d) out[d] = in[u.dimensions()[d]];
      return out;
    }
    case Opcode::kBitcast:
    case Opcode::kReshape: {
      const bool physical = u.opcode() == Opcode::kBitcast;
      std::vector<int64_t> in_order, out_order;
      if (physical) {
        in_order = MajorToMinor(from);
        out_order = MajorToMinor(to);
      } else {
        for (int d = 0; d < from.rank(); ++d) in_order.push_back(d);
        for (int d = 0; d < to.rank(); ++d) out_order.push_back(d);
      }
      Value* linear = I64(b, 0);
      for (int64_t d : in_order)
        linear = b.CreateAdd(b.CreateMul(linear, I64(b, from.dim(static_cast<int>(d)))), in[d]);
      std::vector<Value*> out(to.rank());
      DelinearizeInto(b, linear, to, out_order, out);
      return out;
    }
    default:
      return in;
  }
}

}  // namespace

StatusOr<GemmAnalysis> AnalyzeGemm(const KernelSpec& spec) {
  ASSIGN_OR_RETURN(Gemm gemm, EpilogueChain(spec));
  GemmAnalysis g;
  g.dot = gemm.dot;
  g.epilogue = gemm.epilogue;
  const Instruction* dot = g.dot;
  if (dot->operand_count() != 2) return Status::Error(dot->name() + ": dot with sparsity or extra operands");
  const Shape& ls = dot->operand(0)->shape();
  const Shape& rs = dot->operand(1)->shape();
  if (dot->attrs().dot) g.dn = *dot->attrs().dot;
  const DotDnums& dn = g.dn;
  if (dn.lhs_batch.size() != dn.rhs_batch.size() || dn.lhs_contracting.size() != dn.rhs_contracting.size())
    return Status::Error(dot->name() + ": batch and contracting dimension lists must pair up");
  for (const auto* v : {&dn.lhs_batch, &dn.lhs_contracting})
    for (int64_t d : *v)
      if (d < 0 || d >= ls.rank()) return Status::Error(dot->name() + ": dimension numbers out of range");
  for (const auto* v : {&dn.rhs_batch, &dn.rhs_contracting})
    for (int64_t d : *v)
      if (d < 0 || d >= rs.rank()) return Status::Error(dot->name() + ": dimension numbers out of range");
  for (int d = 0; d < ls.rank(); ++d)
    if (!Has(dn.lhs_batch, d) && !Has(dn.lhs_contracting, d)) g.lfree.push_back(d);
  for (int d = 0; d < rs.rank(); ++d)
    if (!Has(dn.rhs_batch, d) && !Has(dn.rhs_contracting, d)) g.rfree.push_back(d);
  for (size_t q = 0; q < dn.lhs_batch.size(); ++q)
    if (ls.dim(static_cast<int>(dn.lhs_batch[q])) != rs.dim(static_cast<int>(dn.rhs_batch[q])))
      return Status::Error(dot->name() + ": batch dimension sizes differ");
  for (size_t q = 0; q < dn.lhs_contracting.size(); ++q)
    if (ls.dim(static_cast<int>(dn.lhs_contracting[q])) != rs.dim(static_cast<int>(dn.rhs_contracting[q])))
      return Status::Error(dot->name() + ": contracting dimension sizes differ");
  g.nb = Product(ls, dn.lhs_batch);
  g.mm = Product(ls, g.lfree);
  g.nn = Product(rs, g.rfree);
  g.kk = Product(ls, dn.lhs_contracting);
  const Shape& os = dot->shape();
  if (!os.IsArray() || os.num_elements() != g.nb * g.mm * g.nn ||
      os.rank() != static_cast<int>(dn.lhs_batch.size() + g.lfree.size() + g.rfree.size()))
    return Status::Error(dot->name() + ": result shape does not match the dot");
  g.rt = os.element_type();
  g.lt = ls.element_type();
  g.rtt = rs.element_type();
  for (PrimitiveType t : {g.rt, g.lt, g.rtt}) RETURN_IF_ERROR(CheckSupportedType(t, dot->name()));
  ASSIGN_OR_RETURN(g.ct, ComputeType(*dot, g.rt));
  return g;
}

Status StoreGemmElement(ElementalEmitter& ee, const KernelSpec& spec, const GemmAnalysis& g,
                        const std::vector<Value*>& oidx, Value* acc) {
  llvm::IRBuilderBase& b = ee.builder();
  ASSIGN_OR_RETURN(Value * v, EmitConvert(b, acc, g.ct, g.rt));
  if (g.epilogue.empty()) {
    ee.Store(FirstOutputArg(spec), oidx, v);
    return Status::Ok();
  }
  // The epilogue at the root element this dot element becomes; the dot
  // reads as the accumulated value (the chain reaches it only there).
  std::vector<Value*> root_idx = oidx;
  for (const Instruction* u : g.epilogue) root_idx = IndexUp(b, *u, root_idx);
  ee.ClearCache();
  ee.Override(g.dot, [v](const std::vector<Value*>&) -> StatusOr<Value*> { return v; });
  ASSIGN_OR_RETURN(Value * out, ee.Emit(g.epilogue.back(), root_idx));
  ee.Store(FirstOutputArg(spec), root_idx, out);
  ee.ClearCache();
  return Status::Ok();
}

GemmBlock LocateGemmBlock(llvm::IRBuilderBase& b, const GemmAnalysis& g, int64_t bm, int64_t bn) {
  const Shape& ls = g.dot->operand(0)->shape();
  const Shape& rs = g.dot->operand(1)->shape();
  const int64_t tiles_m = (g.mm + bm - 1) / bm, tiles_n = (g.nn + bn - 1) / bn;
  GemmBlock out;
  Value* blk = BlockId64(b);
  Value* tn = b.CreateURem(blk, I64(b, tiles_n));
  Value* rest = b.CreateUDiv(blk, I64(b, tiles_n));
  Value* tm = b.CreateURem(rest, I64(b, tiles_m));
  Value* tb = b.CreateUDiv(rest, I64(b, tiles_m));
  out.row0 = b.CreateMul(tm, I64(b, bm));
  out.col0 = b.CreateMul(tn, I64(b, bn));
  out.lbase.resize(ls.rank());
  out.rbase.resize(rs.rank());
  std::vector<int64_t> bsizes;
  for (int64_t d : g.dn.lhs_batch) bsizes.push_back(ls.dim(static_cast<int>(d)));
  out.batch = Delinearize(b, tb, bsizes);
  for (size_t q = 0; q < out.batch.size(); ++q) {
    out.lbase[g.dn.lhs_batch[q]] = out.batch[q];
    out.rbase[g.dn.rhs_batch[q]] = out.batch[q];
  }
  return out;
}

Status StoreGemmAccumulators(llvm::IRBuilderBase& b, ElementalEmitter& ee, const KernelSpec& spec,
                             const GemmAnalysis& g, const GemmBlock& blk, const std::vector<Value*>& slots,
                             llvm::Type* t, const std::function<std::pair<Value*, Value*>(Value*)>& place) {
  const Shape& ls = g.dot->operand(0)->shape();
  const Shape& rs = g.dot->operand(1)->shape();
  const int64_t count = static_cast<int64_t>(slots.size());
  llvm::Type* arr_ty = llvm::ArrayType::get(t, static_cast<uint64_t>(count));
  Value* out = EntryAlloca(b, arr_ty, "accumulators");
  for (int64_t q = 0; q < count; ++q)
    b.CreateStore(b.CreateLoad(t, slots[static_cast<size_t>(q)]), b.CreateConstInBoundsGEP2_64(arr_ty, out, 0, q));
  return ForLoop(b, I64(b, 0), I64(b, count), I64(b, 1), [&](Value* q) -> Status {
    const std::pair<Value*, Value*> ij = place(q);
    Value* i = ij.first;
    Value* j = ij.second;
    Value* ok = b.CreateAnd(b.CreateICmpSLT(i, I64(b, g.mm)), b.CreateICmpSLT(j, I64(b, g.nn)));
    return IfThen(b, ok, [&]() -> Status {
      std::vector<Value*> lidx = blk.lbase, ridx = blk.rbase;
      DelinearizeInto(b, i, ls, g.lfree, lidx);
      DelinearizeInto(b, j, rs, g.rfree, ridx);
      std::vector<Value*> oidx = blk.batch;
      for (int64_t d : g.lfree) oidx.push_back(lidx[d]);
      for (int64_t d : g.rfree) oidx.push_back(ridx[d]);
      Value* v = b.CreateLoad(t, b.CreateInBoundsGEP(arr_ty, out, {I64(b, 0), q}));
      return StoreGemmElement(ee, spec, g, oidx, v);
    });
  });
}

namespace {

// 16×16 shared-memory tiles, one output element per thread, multiply-adds in
// the compute type.
StatusOr<EmittedKernel> EmitFmaGemm(llvm::Module& m, const KernelSpec& spec, const GemmAnalysis& g) {
  const Instruction* dot = g.dot;
  const Shape& ls = dot->operand(0)->shape();
  const Shape& rs = dot->operand(1)->shape();
  const DotDnums& dn = g.dn;
  const std::vector<int64_t>&lfree = g.lfree, &rfree = g.rfree;
  const int64_t nb = g.nb, mm = g.mm, nn = g.nn, kk = g.kk;
  const PrimitiveType rt = g.rt, lt = g.lt, rtt = g.rtt, ct = g.ct;
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  llvm::Type* cty = RegisterType(ct, m.getContext());
  Value* zero = llvm::Constant::getNullValue(cty);
  int64_t tiles_m = (mm + kTile - 1) / kTile, tiles_n = (nn + kTile - 1) / kTile;

  Value* tid = ThreadId64(b);
  Value* ty = b.CreateUDiv(tid, I64(b, kTile));
  Value* tx = b.CreateURem(tid, I64(b, kTile));
  Value* blk = BlockId64(b);
  Value* bn = b.CreateURem(blk, I64(b, tiles_n));
  Value* rest = b.CreateUDiv(blk, I64(b, tiles_n));
  Value* bm = b.CreateURem(rest, I64(b, tiles_m));
  Value* bb = b.CreateUDiv(rest, I64(b, tiles_m));
  Value* i = b.CreateAdd(b.CreateMul(bm, I64(b, kTile)), ty);
  Value* j = b.CreateAdd(b.CreateMul(bn, I64(b, kTile)), tx);
  Value* i_ok = b.CreateICmpSLT(i, I64(b, mm));
  Value* j_ok = b.CreateICmpSLT(j, I64(b, nn));
  // Index parts that do not change along K.
  std::vector<Value*> lidx(ls.rank()), ridx(rs.rank());
  {
    std::vector<int64_t> bsizes;
    for (int64_t d : dn.lhs_batch) bsizes.push_back(ls.dim(static_cast<int>(d)));
    auto bc = Delinearize(b, bb, bsizes);
    for (size_t q = 0; q < bc.size(); ++q) {
      lidx[dn.lhs_batch[q]] = bc[q];
      ridx[dn.rhs_batch[q]] = bc[q];
    }
    DelinearizeInto(b, b.CreateSelect(i_ok, i, I64(b, 0)), ls, lfree, lidx);
    // The rhs tile row is loaded by thread (ty, tx) at column j.
    DelinearizeInto(b, b.CreateSelect(j_ok, j, I64(b, 0)), rs, rfree, ridx);
  }
  const int64_t pitch = kTile + 1;
  Value* as = SharedArray(b, cty, kTile * pitch, spec.name + "_lhs_tile");
  Value* bs = SharedArray(b, cty, kTile * pitch, spec.name + "_rhs_tile");
  Value* acc = EntryAlloca(b, cty, "acc");
  Value* tmp = EntryAlloca(b, cty, "tile_value");
  b.CreateStore(zero, acc);
  Status st = ForLoop(b, I64(b, 0), I64(b, kk), I64(b, kTile), [&](Value* k0) -> Status {
    // lhs tile: row ty (i), column tx (k0 + tx).
    Value* kl = b.CreateAdd(k0, tx);
    b.CreateStore(zero, tmp);
    RETURN_IF_ERROR(IfThen(b, b.CreateAnd(i_ok, b.CreateICmpSLT(kl, I64(b, kk))), [&]() -> Status {
      ee.ClearCache();
      std::vector<Value*> idx = lidx;
      DelinearizeInto(b, kl, ls, dn.lhs_contracting, idx);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, dot, 0, idx));
      ASSIGN_OR_RETURN(v, ToComputeType(b, v, lt, rt, ct));
      b.CreateStore(v, tmp);
      ee.ClearCache();
      return Status::Ok();
    }));
    b.CreateStore(b.CreateLoad(cty, tmp), b.CreateInBoundsGEP(cty, as, b.CreateAdd(b.CreateMul(ty, I64(b, pitch)), tx)));
    // rhs tile: row ty (k0 + ty), column tx (j).
    Value* kr = b.CreateAdd(k0, ty);
    b.CreateStore(zero, tmp);
    RETURN_IF_ERROR(IfThen(b, b.CreateAnd(j_ok, b.CreateICmpSLT(kr, I64(b, kk))), [&]() -> Status {
      ee.ClearCache();
      std::vector<Value*> idx = ridx;
      DelinearizeInto(b, kr, rs, dn.rhs_contracting, idx);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, dot, 1, idx));
      ASSIGN_OR_RETURN(v, ToComputeType(b, v, rtt, rt, ct));
      b.CreateStore(v, tmp);
      ee.ClearCache();
      return Status::Ok();
    }));
    b.CreateStore(b.CreateLoad(cty, tmp), b.CreateInBoundsGEP(cty, bs, b.CreateAdd(b.CreateMul(ty, I64(b, pitch)), tx)));
    SyncThreads(b);
    ScopedHloLocation at(b, spec, dot);  // the tile's multiply-adds
    Value* sum = b.CreateLoad(cty, acc);
    for (int64_t q = 0; q < kTile; ++q) {
      Value* a = b.CreateLoad(cty, b.CreateInBoundsGEP(cty, as, b.CreateAdd(b.CreateMul(ty, I64(b, pitch)), I64(b, q))));
      Value* c = b.CreateLoad(cty, b.CreateInBoundsGEP(cty, bs, b.CreateAdd(I64(b, q * pitch), tx)));
      sum = cty->isFloatingPointTy() ? b.CreateFAdd(sum, b.CreateFMul(a, c)) : b.CreateAdd(sum, b.CreateMul(a, c));
    }
    b.CreateStore(sum, acc);
    SyncThreads(b);
    return Status::Ok();
  });
  RETURN_IF_ERROR(st);
  RETURN_IF_ERROR(IfThen(b, b.CreateAnd(i_ok, j_ok), [&]() -> Status {
    std::vector<Value*> oidx;
    size_t nbd = dn.lhs_batch.size();
    for (size_t q = 0; q < nbd; ++q) oidx.push_back(lidx[dn.lhs_batch[q]]);
    for (int64_t d : lfree) oidx.push_back(lidx[d]);
    for (int64_t d : rfree) oidx.push_back(ridx[d]);
    return StoreGemmElement(ee, spec, g, oidx, b.CreateLoad(cty, acc));
  }));
  b.CreateRetVoid();
  MarkKernel(f, kTile * kTile);
  EmittedKernel k;
  k.kind = "dot";
  k.strategy = "FMA in " + std::string(PrimitiveTypeName(ct)) + ", 16x16 shared-memory tiles, one output a thread";
  k.dims.block[0] = kTile * kTile;
  k.dims.grid[0] = BlocksFor(nb * tiles_m * tiles_n, 1);
  return k;
}

// Register-blocked FMA kernel for f32 GEMMs of at least 64×64 (kind
// "dot-blocked"): a 64×64 output tile per block of 256 threads, each thread
// 4×4 outputs (rows ty + 16a, columns tx + 16c, a, c < 4, so that a warp's
// shared reads are broadcasts or consecutive), K in slices of 16 staged in
// shared memory: the lhs k-major ([k][m], rows of 65 so that the staging's
// transposed stores spread over the banks), the rhs [k][n]. Per k a thread
// reads 4 + 4 values and does 16 multiply-adds (one per 1 shared load before:
// the 16×16 kernel's), each output in ascending k with the same f32 multiply
// then add as the interpreter, so results are bit-identical to it.
constexpr int64_t kBlockedTile = 64, kBlockedK = 16, kBlockedThreads = 256;

StatusOr<EmittedKernel> EmitBlockedFmaGemm(llvm::Module& m, const KernelSpec& spec, const GemmAnalysis& g) {
  const Instruction* dot = g.dot;
  const Shape& ls = dot->operand(0)->shape();
  const Shape& rs = dot->operand(1)->shape();
  const DotDnums& dn = g.dn;
  const int64_t nb = g.nb, mm = g.mm, nn = g.nn, kk = g.kk;
  const PrimitiveType rt = g.rt, lt = g.lt, rtt = g.rtt, ct = g.ct;
  constexpr int64_t T = kBlockedTile, K = kBlockedK, N = kBlockedThreads, R = T / 16;
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  llvm::Type* cty = RegisterType(ct, m.getContext());
  Value* zero = llvm::Constant::getNullValue(cty);
  const int64_t tiles_m = (mm + T - 1) / T, tiles_n = (nn + T - 1) / T;

  Value* tid = ThreadId64(b);
  Value* ty = b.CreateUDiv(tid, I64(b, 16));
  Value* tx = b.CreateURem(tid, I64(b, 16));
  const GemmBlock blk = LocateGemmBlock(b, g, T, T);
  Value* row0 = blk.row0;
  Value* col0 = blk.col0;
  const int64_t apitch = T + 1;
  Value* as = SharedArray(b, cty, K * apitch, spec.name + "_lhs_tile");
  Value* bs = SharedArray(b, cty, K * T, spec.name + "_rhs_tile");
  Value* tmp = EntryAlloca(b, cty, "tile_value");
  std::vector<Value*> acc(R * R);
  for (Value*& a : acc) {
    a = EntryAlloca(b, cty, "acc");
    b.CreateStore(zero, a);
  }

  // Element e of a slice: lhs (row e / K, k e % K) → as[k][row]; rhs (k e / T,
  // column e % T) → bs[k][column]. Out of range: zero.
  auto stage = [&](int k, Value* k0) -> Status {
    return ForLoop(b, I64(b, 0), I64(b, T * K / N), I64(b, 1), [&](Value* r) -> Status {
      Value* e = b.CreateAdd(b.CreateMul(r, I64(b, N)), tid);
      Value* x = k == 0 ? b.CreateUDiv(e, I64(b, K)) : b.CreateURem(e, I64(b, T));  // row or column
      Value* kx = k == 0 ? b.CreateURem(e, I64(b, K)) : b.CreateUDiv(e, I64(b, T));
      Value* gx = b.CreateAdd(k == 0 ? row0 : col0, x);
      Value* gk = b.CreateAdd(k0, kx);
      Value* ok = b.CreateAnd(b.CreateICmpSLT(gx, I64(b, k == 0 ? mm : nn)), b.CreateICmpSLT(gk, I64(b, kk)));
      b.CreateStore(zero, tmp);
      RETURN_IF_ERROR(IfThen(b, ok, [&]() -> Status {
        ee.ClearCache();
        std::vector<Value*> idx = k == 0 ? blk.lbase : blk.rbase;
        DelinearizeInto(b, gx, k == 0 ? ls : rs, k == 0 ? g.lfree : g.rfree, idx);
        DelinearizeInto(b, gk, k == 0 ? ls : rs, k == 0 ? dn.lhs_contracting : dn.rhs_contracting, idx);
        ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, dot, k, idx));
        ASSIGN_OR_RETURN(v, ToComputeType(b, v, k == 0 ? lt : rtt, rt, ct));
        b.CreateStore(v, tmp);
        ee.ClearCache();
        return Status::Ok();
      }));
      Value* at = k == 0 ? b.CreateAdd(b.CreateMul(kx, I64(b, apitch)), x) : b.CreateAdd(b.CreateMul(kx, I64(b, T)), x);
      b.CreateStore(b.CreateLoad(cty, tmp), b.CreateInBoundsGEP(cty, k == 0 ? as : bs, at));
      return Status::Ok();
    });
  };

  Status st = ForLoop(b, I64(b, 0), I64(b, kk), I64(b, K), [&](Value* k0) -> Status {
    RETURN_IF_ERROR(stage(0, k0));
    RETURN_IF_ERROR(stage(1, k0));
    SyncThreads(b);
    ScopedHloLocation at(b, spec, dot);  // the tile's multiply-adds
    // A loop over the slice's k (not unrolled here: LLVM unrolls what pays,
    // and the kernel compiles in a third of the time of a 16-step unroll).
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, K), I64(b, 1), [&](Value* q) -> Status {
      std::vector<Value*> av(R), bv(R);
      Value* arow = b.CreateAdd(b.CreateMul(q, I64(b, apitch)), ty);
      Value* brow = b.CreateAdd(b.CreateMul(q, I64(b, T)), tx);
      for (int64_t a = 0; a < R; ++a)
        av[a] = b.CreateLoad(cty, b.CreateInBoundsGEP(cty, as, b.CreateAdd(arow, I64(b, 16 * a))));
      for (int64_t c = 0; c < R; ++c)
        bv[c] = b.CreateLoad(cty, b.CreateInBoundsGEP(cty, bs, b.CreateAdd(brow, I64(b, 16 * c))));
      for (int64_t a = 0; a < R; ++a)
        for (int64_t c = 0; c < R; ++c) {
          Value* slot = acc[a * R + c];
          b.CreateStore(b.CreateFAdd(b.CreateLoad(cty, slot), b.CreateFMul(av[a], bv[c])), slot);
        }
      return Status::Ok();
    }));
    SyncThreads(b);
    return Status::Ok();
  });
  RETURN_IF_ERROR(st);

  // The epilogue once, in a loop over the thread's 16 outputs.
  st = StoreGemmAccumulators(b, ee, spec, g, blk, acc, cty, [&](Value* q) -> std::pair<Value*, Value*> {
    return {b.CreateAdd(row0, b.CreateAdd(ty, b.CreateMul(b.CreateUDiv(q, I64(b, R)), I64(b, 16)))),
            b.CreateAdd(col0, b.CreateAdd(tx, b.CreateMul(b.CreateURem(q, I64(b, R)), I64(b, 16))))};
  });
  RETURN_IF_ERROR(st);
  b.CreateRetVoid();
  MarkKernel(f, N);
  EmittedKernel k;
  k.kind = "dot-blocked";
  k.strategy = "FMA in " + std::string(PrimitiveTypeName(ct)) +
               ", tile 64x64, 256 threads of 4x4 outputs each, k in slices of 16 through shared memory";
  k.dims.block[0] = static_cast<uint32_t>(N);
  k.dims.grid[0] = BlocksFor(nb * tiles_m * tiles_n, 1);
  return k;
}

}  // namespace

StatusOr<EmittedKernel> EmitDotKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(GemmAnalysis g, AnalyzeGemm(spec));
  if (std::optional<PrimitiveType> tc = TensorCoreType(g, spec.target)) {
    if (WgmmaGemmApplies(spec, g, *tc).ok()) return EmitGemmWgmmaKernel(m, spec, g, *tc);
    return EmitGemmMmaKernel(m, spec, g, *tc);
  }
  if (g.ct == PrimitiveType::kF32 && g.mm >= kBlockedTile && g.nn >= kBlockedTile) return EmitBlockedFmaGemm(m, spec, g);
  return EmitFmaGemm(m, spec, g);
}

}  // namespace hloscope::codegen
