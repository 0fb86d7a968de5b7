// What today's XLA GPU hands to its Triton emitters, and the fusions made
// for them: GEMM fusions (a dot with its elementwise prologue and epilogue,
// XLA's GemmFusion, pass "triton-gemm-rewriter") and normalization fusions
// (row reductions with their elementwise diamonds: softmax, layer norm,
// RMSNorm; XLA's SoftmaxRewriterTriton, pass "triton-softmax-rewriter").
// Both are kind=kCustom fusions whose backend_config names the emitter, as
// XLA writes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fusion/fusibility.h"
#include "core/ir/instruction.h"

namespace hloscope {

// backend_config "fusion_backend_config" kinds, as XLA spells them.
inline constexpr std::string_view kTritonGemmKind = "__triton_gemm";
inline constexpr std::string_view kTritonNestedGemmKind = "__triton_nested_gemm_fusion";
inline constexpr std::string_view kTritonKind = "__triton";

// The "kind" of a fusion's backend_config ("" when there is none).
std::string FusionBackendKind(const Instruction& fusion);
// A kCustom fusion for the Triton GEMM emitter (ours or XLA's).
bool IsTritonGemmFusion(const Instruction& i);
// A kCustom fusion for Triton's generic (normalization) emitter.
bool IsTritonFusion(const Instruction& i);
// Makes `fusion` a kCustom fusion whose backend_config names `kind`.
void MarkAsTritonFusion(Instruction& fusion, std::string_view kind);

// Element types Triton's emitters take (f64 and complex stay with XLA's
// native emitters).
bool IsTritonSupportedType(PrimitiveType t);

// A dot XLA's GemmFusion would take: "" when it does, else the reason
// (Triton's types, default operand precision, batch dimensions, and XLA's
// size threshold below which a dot stays a loop-emitted `wrapped_dot`).
Refusal GemmFusible(const Instruction& dot);

// XLA's IsMatrixMultiplicationTooSmallForRewriting with
// xla_gpu_gemm_rewrite_size_threshold = 100:
// (lhs non-contracting + rhs non-contracting elements) × contracting < 100.
bool DotTooSmallForGemm(const Instruction& dot);

// May `producer` be fused into `consumer` when either is a Triton
// normalization fusion? The result must stay one Triton fusion: every
// reduction a row reduction of the same rows (the last dimension of one
// shape S), every other op elementwise, a broadcast, a bitcast/reshape that
// keeps rows, a scalar constant or an iota, on rows (S), on the reduced
// values (S without its last dimension) or on a vector along the row — what
// XLA's SymbolicTileAnalysis can tile with rows as its tiles. Whether the
// producer is copied into several consumers does not matter here (XLA's
// priority fusion leaves that to tiling and its cost model).
Refusal TritonPairFusible(const Instruction& producer, const Instruction& consumer);

// A reshape from dims `from` to dims `to` as groups: dims [from_begin,
// from_end) of `from` become dims [to_begin, to_end) of `to`, with equal
// products and each group as small as it can be. Size-1 dims left over at the
// end belong to no group. nullopt when the element counts differ or a zero
// dimension keeps the products from meeting.
struct ReshapeGroup {
  size_t from_begin, from_end, to_begin, to_end;
};
std::optional<std::vector<ReshapeGroup>> ReshapeDimGroups(const std::vector<int64_t>& from,
                                                         const std::vector<int64_t>& to);

// Does the Triton GEMM fusion `fusion` read its operand `operand_index`
// through a bitcast in XLA's form of it? XLA computes a GEMM fusion's
// prologue and epilogue in the dot's canonical shape: it hoists the
// reshapes and bitcasts between them and the dot onto the fusion's
// parameters (HoistFusedBitcasts), so an operand whose dims those reshapes
// merge, split or drop is read through a bitcast outside the fusion (a
// [2,8,8] residual read by a [16,8]·[8,32] GEMM). Priority fusion treats such
// a reader as a bitcast user of the operand's producer.
bool GemmReadsThroughHoistedBitcast(const Instruction& fusion, int64_t operand_index);

}  // namespace hloscope
