// The warpgroup GEMM of sm_90a (gemm_fusion_emitter.h): wgmma.mma_async
// m64n128k16 with bf16 or f16 operands from shared memory and f32
// accumulators, for plain dots and GEMM fusions (a prologue is computed on
// the way in, an epilogue of any kind applied at the store), with m and n of
// at least 128 (tiles past the edges are staged as zeros).
//
// A block of 256 threads (two warpgroups) computes a 128×128 tile of one
// batch: warpgroup w owns rows 64w … 64w + 63, each thread 64 accumulators.
// The K loop runs over 64-wide slices in three shared-memory stages (32 KB
// each, dynamic shared memory), each filled two slices ahead of the one being
// multiplied: an operand read straight from an argument by cp.async (16-byte
// chunks, no registers) as it lies in memory, any other computed through the
// elemental emitter, 8 k of a row into one 16-byte store, K-major. Shared
// tiles are in wgmma's 128-byte-swizzle layout:
//   - contiguous along k (K-major): row r of the tile (m or n) is 128 bytes
//     at r·128, its 16-byte chunk c (k 8c … 8c + 7) stored at chunk c ^ (r % 8);
//     descriptor SBO = 1024 (8-row groups), each k16 step 32 bytes on;
//   - contiguous along m or n (M/N-major, wgmma's transposed form): atoms of
//     64 rows × 64 k, k row j of an atom 128 bytes at j·128 holding 64
//     consecutive m or n, chunk c at c ^ (j % 8); LBO = 8192 (the next 64 m
//     or n), SBO = 1024 (8 k rows), each k16 step 2048 bytes on.
// One iteration: wait for this thread's copies of the slice, make them
// (and this thread's stores) visible to the async proxy (fence.proxy.async),
// barrier, four wgmma per warpgroup, commit; then the slice two ahead goes
// into the stage the previous slice used (every warpgroup retired its wgmma
// on it before this iteration's barrier), and the warpgroup waits for its
// wgmma.
//
// Numerics as the mma.sync kernel: exact products, f32 sums in ascending k;
// the CPU execution computes each wgmma from the same shared bytes
// (cpu_wgmma.cc) and checks that no operand changes while one is in flight.
#include <optional>

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/gemm_fusion_emitter.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/line_info.h"

namespace hloscope::codegen {

using llvm::Value;

namespace {

constexpr int64_t kBm = 128, kBn = 128, kBk = 64;  // block tile
constexpr int64_t kStages = 3;
constexpr int64_t kThreads = 256;                    // two warpgroups
constexpr int64_t kTileBytes = 128 * kBk * 2;        // one operand's slice: 16 KB
constexpr int64_t kStageBytes = 2 * kTileBytes;      // A then B
constexpr int64_t kAtomStride = kBk * 128;           // M/N-major: the next 64 rows

}  // namespace

Status WgmmaGemmApplies(const KernelSpec& spec, const GemmAnalysis& g, PrimitiveType tc) {
  if (spec.target.sm != "sm_90a") return Status::Error("wgmma needs sm_90a");
  // Partial tiles are staged as zeros (the copies' src-size form) and their
  // outputs skipped at the store; below 128 rows or columns the mma.sync
  // kernel's smaller tiles waste less.
  if (g.mm < kBm || g.nn < kBn) return Status::Error("m or n is below 128");
  return Status::Ok();
}

StatusOr<EmittedKernel> EmitGemmWgmmaKernel(llvm::Module& m, const KernelSpec& spec, const GemmAnalysis& g,
                                            PrimitiveType tc) {
  RETURN_IF_ERROR(WgmmaGemmApplies(spec, g, tc));
  const Instruction* dot = g.dot;
  // Operands read straight from an argument go by cp.async as they lie in
  // memory; the others (a prologue to compute, an operand of another type)
  // are computed through the elemental emitter and stored K-major.
  const std::optional<DirectOperand> direct[2] = {FindDirectOperand(spec, g, 0, tc), FindDirectOperand(spec, g, 1, tc)};
  auto k_major = [&](int k) { return !direct[k] || direct[k]->k_minor; };

  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* f32 = b.getFloatTy();
  const int64_t tiles_m = (g.mm + kBm - 1) / kBm, tiles_n = (g.nn + kBn - 1) / kBn, slices = (g.kk + kBk - 1) / kBk;
  const bool full = g.mm % kBm == 0 && g.nn % kBn == 0 && g.kk % kBk == 0;

  Value* tid = ThreadId64(b);
  Value* wg = b.CreateUDiv(tid, I64(b, 128));
  Value* tw = b.CreateURem(tid, I64(b, 128));
  Value* warp = b.CreateUDiv(tw, I64(b, 32));
  Value* lane = b.CreateURem(tw, I64(b, 32));
  const GemmBlock blk = LocateGemmBlock(b, g, kBm, kBn);
  Value* smem = DynamicSharedArray(b, kStages * kStageBytes, spec.name + "_stages");
  auto* v8 = llvm::FixedVectorType::get(b.getInt16Ty(), 8);
  Value* staged = EntryAlloca(b, b.getInt16Ty(), "staged");
  Value* chunk = EntryAlloca(b, v8, "chunk");
  std::vector<Value*> acc(64);
  for (Value*& a : acc) {
    a = EntryAlloca(b, f32, "acc");
    b.CreateStore(llvm::ConstantFP::get(f32, 0.0), a);
  }

  // Operand k's tile in stage s.
  auto tile = [&](int k, Value* s) {
    return b.CreateInBoundsGEP(i8, smem, b.CreateAdd(b.CreateMul(s, I64(b, kStageBytes)), I64(b, k * kTileBytes)));
  };
  // Copies slice `k0` of both operands into stage s: 1024 chunks of 16 bytes
  // per operand, four per thread, consecutive threads on consecutive chunks
  // of memory (coalesced), each chunk to its swizzled place.
  auto issue = [&](Value* k0, Value* s) -> Status {
    for (int k = 0; k < 2; ++k)
      for (int64_t v = 0; v < 1024 / kThreads; ++v) {
        Value* e = b.CreateAdd(I64(b, v * kThreads), tid);
        Value *row, *kc, *to;  // tile row (m or n) and k of the chunk's first element
        if (k_major(k)) {
          Value* c = b.CreateURem(e, I64(b, 8));
          row = b.CreateUDiv(e, I64(b, 8));
          kc = b.CreateMul(c, I64(b, 8));
          Value* at = b.CreateAdd(b.CreateMul(row, I64(b, 128)),
                                  b.CreateMul(b.CreateXor(c, b.CreateURem(row, I64(b, 8))), I64(b, 16)));
          to = b.CreateInBoundsGEP(i8, tile(k, s), at);
        } else {
          Value* c = b.CreateURem(e, I64(b, 16));  // 8 rows of the tile
          kc = b.CreateUDiv(e, I64(b, 16));
          row = b.CreateMul(c, I64(b, 8));
          Value* at = b.CreateAdd(
              b.CreateAdd(b.CreateMul(b.CreateUDiv(c, I64(b, 8)), I64(b, kAtomStride)), b.CreateMul(kc, I64(b, 128))),
              b.CreateMul(b.CreateXor(b.CreateURem(c, I64(b, 8)), b.CreateURem(kc, I64(b, 8))), I64(b, 16)));
          to = b.CreateInBoundsGEP(i8, tile(k, s), at);
        }
        const std::vector<Value*>& base = k == 0 ? blk.lbase : blk.rbase;
        Value* gr = b.CreateAdd(k == 0 ? blk.row0 : blk.col0, row);
        Value* gk = b.CreateAdd(k0, kc);
        if (!direct[k]) {
          // 8 consecutive k of one row, each computed (zero past the edges),
          // then one 16-byte shared store.
          ASSIGN_OR_RETURN(Value * val, ComputeOperandChunk(b, ee, g, k, tc, base, gr, gk, staged, chunk));
          b.CreateAlignedStore(val, to, llvm::Align(16));
          continue;
        }
        // A chunk past the edges copies 0 bytes (zeros) from the operand's
        // first element.
        Value* in = full ? nullptr : InsideOperand(b, g, k, gr, gk);
        Value* from = DirectChunkAddress(b, ee, g, *direct[k], k, base, gr, gk, in);
        if (in) CpAsync16ZeroFill(b, to, from, b.CreateSelect(in, b.getInt32(16), b.getInt32(0)));
        else CpAsync16(b, to, from);
      }
    return Status::Ok();
  };
  // The descriptor of operand k's part for this warpgroup at k16 step ks.
  auto descriptor = [&](int k, Value* s, int64_t ks) {
    Value* base = tile(k, s);
    if (k_major(k)) {
      Value* at = I64(b, ks * 32);
      if (k == 0) at = b.CreateAdd(at, b.CreateMul(wg, I64(b, 64 * 128)));
      return WgmmaDescriptor128B(b, b.CreateInBoundsGEP(i8, base, at), 16, 1024);
    }
    Value* at = I64(b, ks * 16 * 128);
    if (k == 0) at = b.CreateAdd(at, b.CreateMul(wg, I64(b, kAtomStride)));
    return WgmmaDescriptor128B(b, b.CreateInBoundsGEP(i8, base, at), kAtomStride, 1024);
  };

  ScopedHloLocation loc(b, spec, dot);
  for (int64_t s = 0; s + 1 < kStages; ++s) {
    if (s < slices) RETURN_IF_ERROR(issue(I64(b, s * kBk), I64(b, s)));
    CpAsyncCommit(b);
  }
  Status st = ForLoop(b, I64(b, 0), I64(b, slices), I64(b, 1), [&](Value* kt) -> Status {
    Value* s = b.CreateURem(kt, I64(b, kStages));
    CpAsyncWait(b, static_cast<int>(kStages - 2));
    FenceProxyAsyncShared(b);
    SyncThreads(b);
    WgmmaFence(b);
    // The accumulators flow from one wgmma to the next as values (one load
    // and one store of each a slice).
    std::vector<Value*> d;
    for (Value* a : acc) d.push_back(b.CreateLoad(f32, a));
    for (int64_t ks = 0; ks < kBk / 16; ++ks)
      d = WgmmaM64K16(b, tc == PrimitiveType::kBF16, 128, descriptor(0, s, ks), descriptor(1, s, ks),
                      !k_major(0), !k_major(1), d);
    for (size_t q = 0; q < acc.size(); ++q) b.CreateStore(d[q], acc[q]);
    WgmmaCommit(b);
    Value* ahead = b.CreateAdd(kt, I64(b, kStages - 1));
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpSLT(ahead, I64(b, slices)), [&]() -> Status {
      return issue(b.CreateMul(ahead, I64(b, kBk)), b.CreateURem(ahead, I64(b, kStages)));
    }));
    CpAsyncCommit(b);  // every iteration commits one group, empty or not
    WgmmaWait(b, 0);
    return Status::Ok();
  });
  RETURN_IF_ERROR(st);

  // The epilogue once, in a loop over the thread's 64 accumulators.
  st = StoreGemmAccumulators(b, ee, spec, g, blk, acc, f32, [&](Value* q) -> std::pair<Value*, Value*> {
    Value* r = b.CreateURem(q, I64(b, 4));
    Value* i = b.CreateAdd(
        b.CreateAdd(blk.row0, b.CreateAdd(b.CreateMul(wg, I64(b, 64)), b.CreateMul(warp, I64(b, 16)))),
        b.CreateAdd(b.CreateUDiv(lane, I64(b, 4)), b.CreateMul(b.CreateUDiv(r, I64(b, 2)), I64(b, 8))));
    Value* j = b.CreateAdd(blk.col0, b.CreateAdd(b.CreateMul(b.CreateUDiv(q, I64(b, 4)), I64(b, 8)),
                                                 b.CreateAdd(b.CreateMul(b.CreateURem(lane, I64(b, 4)), I64(b, 2)),
                                                             b.CreateURem(r, I64(b, 2)))));
    return {i, j};
  });
  RETURN_IF_ERROR(st);
  b.CreateRetVoid();
  MarkKernel(f, kThreads);
  EmittedKernel k;
  k.kind = "gemm-wgmma";
  auto travel = [&](int o) -> std::string {
    if (!direct[o]) return "computed (its prologue or conversion), K-major";
    return direct[o]->k_minor ? "K-major by cp.async" : std::string(o == 0 ? "M" : "N") + "-major by cp.async";
  };
  k.strategy = std::string("wgmma m64n128k16 ") + (tc == PrimitiveType::kBF16 ? "bf16" : "f16") +
               ", tile 128x128x64, 2 warpgroups, 3 shared stages of 32 KB (128-byte swizzle); lhs " + travel(0) +
               "; rhs " + travel(1) + (full ? "" : "; tiles past the edges zero-filled");
  k.dims.block[0] = static_cast<uint32_t>(kThreads);
  k.dims.grid[0] = BlocksFor(g.nb * tiles_m * tiles_n, 1);
  k.dims.shared_bytes = static_cast<uint32_t>(kStages * kStageBytes);
  return k;
}

}  // namespace hloscope::codegen
