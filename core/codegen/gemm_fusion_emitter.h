// GEMM kernels: a dot, or a GEMM fusion (XLA's gemm_fusion_dot: the dot with
// its elementwise prologue generated in the operand loads and its epilogue
// applied at the store). Two implementations share one analysis:
//   - dot_emitter.cc: 16×16 shared-memory tiles, one output per thread, FMA
//     in the compute type (any element type, every target);
//   - gemm_fusion_emitter.cc: warp-level tensor-core tiles (mma.sync
//     m16n8k16, bf16 or f16 operands, f32 accumulation) on sm_80 and newer,
//     with the block tile chosen from a small table (GemmTileTable());
//   - gemm_wgmma_emitter.cc: warpgroup tiles (wgmma m64n128k16 from
//     swizzled shared memory) on sm_90a, for full tiles of plain operands.
// EmitDotKernel (emitters.h) picks the tensor-core path where it applies.
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/codegen/emitters.h"

namespace llvm {
class Type;
}  // namespace llvm

namespace hloscope::codegen {

// A dot seen as [batch, m, k] × [batch, k, n]: free dims in operand order,
// contracting dims in the order of the dimension numbers.
struct GemmAnalysis {
  const Instruction* dot = nullptr;
  // Ops from the dot up to the (single) root, each the only user of the one
  // below: the dot's user first, the root last; empty when the dot is the root.
  std::vector<const Instruction*> epilogue;
  DotDnums dn;
  std::vector<int64_t> lfree, rfree;
  int64_t nb = 1, mm = 1, nn = 1, kk = 1;  // batch, rows, columns, contraction
  PrimitiveType rt{}, lt{}, rtt{};         // result, lhs and rhs element types
  PrimitiveType ct{};                      // compute type (f32, f64 or s64)
};

// Checks the kernel is one GEMM (a dot at the root, or a dot under an
// epilogue chain) and analyses it; the error says why not.
StatusOr<GemmAnalysis> AnalyzeGemm(const KernelSpec& spec);

// The operand type the tensor cores multiply (bf16 or f16) when the dot can
// run on them with the interpreter's numerics: the result type is bf16/f16
// (operands are rounded to it first), or f32 with both operands of one of
// those types; and the target has mma.sync m16n8k16 (sm_80+).
std::optional<PrimitiveType> TensorCoreType(const GemmAnalysis& g, const NvptxTarget& target);

// Writes the dot element at `oidx` (batch, lhs free, rhs free coordinates of
// the dot's shape) whose accumulated value `acc` is in the compute type:
// converted to the result type, then through the epilogue to the root.
Status StoreGemmElement(ElementalEmitter& ee, const KernelSpec& spec, const GemmAnalysis& g,
                        const std::vector<llvm::Value*>& oidx, llvm::Value* acc);

// Where a block of a GEMM launch of bm × bn output tiles sits: block ids run
// over batches, then m tiles, then n tiles (fastest).
struct GemmBlock {
  llvm::Value* row0 = nullptr;  // the tile's first row (m) and column (n)
  llvm::Value* col0 = nullptr;
  std::vector<llvm::Value*> batch;         // batch coordinates
  std::vector<llvm::Value*> lbase, rbase;  // operand indices, batch dims set
};
GemmBlock LocateGemmBlock(llvm::IRBuilderBase& b, const GemmAnalysis& g, int64_t bm, int64_t bn);

// Stores a thread's accumulators (values of type `t` in `slots`) through the
// epilogue, in one loop so that the epilogue's code exists once: `place(q)`
// gives accumulator q's row and column in the whole problem; those out of
// range are skipped.
Status StoreGemmAccumulators(llvm::IRBuilderBase& b, ElementalEmitter& ee, const KernelSpec& spec,
                             const GemmAnalysis& g, const GemmBlock& blk, const std::vector<llvm::Value*>& slots,
                             llvm::Type* t,
                             const std::function<std::pair<llvm::Value*, llvm::Value*>(llvm::Value*)>& place);

// The block tile of the tensor-core GEMM. Rows are tried in order; the first
// whose minimums the problem meets is taken (docs/codegen.md, "GEMM tiles").
struct GemmTiles {
  int64_t min_m, min_n;  // the row applies when m ≥ min_m and n ≥ min_n
  int64_t bm, bn, bk;    // block tile
  int64_t warps_m, warps_n;  // warps per block along m and n
};
const std::vector<GemmTiles>& GemmTileTable();
const GemmTiles& ChooseGemmTiles(int64_t m, int64_t n);

// An operand element (of type `from`) as the tensor cores take it: its
// 16-bit pattern, converted to `tc` first where the interpreter rounds the
// operands to the result type.
StatusOr<llvm::Value*> ToTensorCoreBits(llvm::IRBuilderBase& b, llvm::Value* v, PrimitiveType from,
                                        const GemmAnalysis& g, PrimitiveType tc);

// An operand the staging reads straight from its kernel argument, 16 bytes
// (8 elements) at a time: a 16-bit argument of the tensor-core type whose
// most minor dim is the last of its contracting dims (8 consecutive k are
// adjacent in memory) or the last of its free dims (8 consecutive rows of
// the tile are), with a size that is a multiple of 8, so that every vector
// stays within one run of that dim and starts 16-byte aligned. Any number of
// free and contracting dims (Llama's [2, 8192, 4096] activations), in any
// other order. Inside a fusion the operand may be a parameter seen through
// bitcasts, transposes and reshapes that move no data (`view`: the dot
// operand's dims with the layout that makes them the parameter's bytes).
// `k` is the dot's operand (0 lhs, 1 rhs).
struct DirectOperand {
  int arg = -1;
  Shape view;            // how the dot operand's index reaches the argument's memory
  bool k_minor = false;  // contiguous along k, else along the free dims
};
std::optional<DirectOperand> FindDirectOperand(const KernelSpec& spec, const GemmAnalysis& g, int k,
                                               PrimitiveType tc);

// Staging helpers of both tensor-core kernels. A chunk is 8 operand
// elements moved as one 16-byte vector; `gr` is its first element's row in
// the whole problem (m for the lhs, n for the rhs: the free dims
// linearized), `gk` its first k; `base` holds the operand's batch
// coordinates (GemmBlock::lbase/rbase).
//
// 8 consecutive k (gk …) of row gr of dot operand k, each computed through
// the elemental emitter (the fused prologue included) and converted to the
// tensor-core type's bits, zero past the problem's edges: a <8 x i16>.
// `staged` is an i16 slot and `chunk` a <8 x i16> slot of the kernel's entry.
StatusOr<llvm::Value*> ComputeOperandChunk(llvm::IRBuilderBase& b, ElementalEmitter& ee, const GemmAnalysis& g, int k,
                                           PrimitiveType tc, const std::vector<llvm::Value*>& base, llvm::Value* gr,
                                           llvm::Value* gk, llvm::Value* staged, llvm::Value* chunk);
// The address of a direct operand's chunk (8 elements along its minor dim,
// which FindDirectOperand makes a multiple of 8, so that a chunk is wholly
// inside the problem or wholly outside). With `in` (whether it is inside),
// an outside chunk addresses the operand's first element instead, so that
// the address is always valid and a zero-filling copy reads nothing.
llvm::Value* DirectChunkAddress(llvm::IRBuilderBase& b, ElementalEmitter& ee, const GemmAnalysis& g,
                                const DirectOperand& d, int k, const std::vector<llvm::Value*>& base, llvm::Value* gr,
                                llvm::Value* gk, llvm::Value* in = nullptr);
// Whether element (gr, gk) of operand k lies inside the problem.
llvm::Value* InsideOperand(llvm::IRBuilderBase& b, const GemmAnalysis& g, int k, llvm::Value* gr, llvm::Value* gk);

// The tensor-core kernel (kind "gemm-mma"); `tc` from TensorCoreType.
StatusOr<EmittedKernel> EmitGemmMmaKernel(llvm::Module& m, const KernelSpec& spec, const GemmAnalysis& g,
                                          PrimitiveType tc);

// The warpgroup GEMM of sm_90a (gemm_wgmma_emitter.cc, kind "gemm-wgmma"):
// applies where the target is sm_90a and m and n are at least 128 (tiles
// past the edges are staged as zeros); the error says why not.
Status WgmmaGemmApplies(const KernelSpec& spec, const GemmAnalysis& g, PrimitiveType tc);
StatusOr<EmittedKernel> EmitGemmWgmmaKernel(llvm::Module& m, const KernelSpec& spec, const GemmAnalysis& g,
                                            PrimitiveType tc);

}  // namespace hloscope::codegen
