// What may fuse with what, following XLA's GPU rules, each refusal with a
// plain-sentence reason (XLA's FusionDecision).
#pragma once

#include <string>

#include "core/cost/cost_model.h"
#include "core/ir/instruction.h"

namespace hloscope {

// "" when allowed, else the reason.
using Refusal = std::string;

// Limits XLA's GPU backend applies to one fusion.
inline constexpr int kMaxOperandsAndOutputsPerFusion = 96;
inline constexpr int kMaxFusedInstructions = 250;

// Can `p` be computed inside a consumer's kernel at all?
Refusal ProducerFusible(const Instruction& p);
// Can `c` (or the fusion it is) take producers?
Refusal ConsumerFusible(const Instruction& c);
// Which of XLA's rule sets PairFusible follows beyond the common ones.
struct PairRules {
  // A reduction producer may take its consumer as a reduction epilogue
  // (EpilogueFusible) instead of being refused.
  bool epilogue = false;
  // Today's XLA GPU (the `gpu` pipeline): a reduction too small for the
  // reduction emitter (ReductionPrefersElemental) is an ordinary
  // loop-fusible producer that consumers recompute per element (XLA:
  // IsLoopFusibleAsProducer takes non-variadic reduces that are not
  // IsReductionFromOrToContiguousDimensions).
  bool elemental_reductions = false;
  // XLA's PriorityFusion: an expensive producer (transcendental, a non-f32
  // divide, a reduce-window) that stays for other users, or that its
  // consumer reads many times (a broadcast of it), may still be fused,
  // whether recomputing it pays being the cost model's call (its CanFuse has
  // no such rule; the classic InstructionFusion's ShouldFuse refuses both).
  bool cost_model_duplication = false;
  // XLA's size limit for the fusion passes of today's XLA GPU (PriorityFusion,
  // and the multi-output fusion both pipelines share): the code-size one
  // (ProducerConsumerMergedTooLarge: the producer's and the consumer's
  // instructions together at most kMaxIrSize, their basic-block splits at
  // most kMaxBasicBlockSplitsPerFusion) instead of our classic
  // kMaxFusedInstructions.
  bool ir_size_limit = false;
  // A reduction taking a consumer as its epilogue must have no other user:
  // the classic InstructionFusion's IsProducerConsumerFusible. XLA's
  // PriorityFusion (CanFuse) has no such rule: a reduction read by several
  // consumers is computed in each (the cost model's call), and it stays
  // for its bitcast users.
  bool epilogue_single_user = true;
};

// XLA's GpuHloCostAnalysis::kMaxIRSize.
inline constexpr int kMaxIrSize = 10000;
// XLA's GpuHloCostAnalysis::kMaxBasicBlockSplitsPerFusion: ops the elemental
// emitter emits with loops or branches of their own (concatenate, dot,
// dynamic-update-slice, pad, reduce, reduce-window: XLA's
// ElementalIrEmitter::OpInvalidatesCache) split the kernel's basic blocks, and
// a producer–consumer fusion may hold at most this many.
inline constexpr int kMaxBasicBlockSplitsPerFusion = 10;
// The basic-block splits of `i` (itself, or the members of its fusion).
int BasicBlockSplitCount(const Instruction& i);
// XLA's kMaxUnnestedReductionOutputsPerFusion (FusionFitsInBudget): a fusion
// holds at most this many real reductions (those the reduction emitter
// takes: not ReductionPrefersElemental), each needing many registers.
inline constexpr int kMaxUnnestedReductionsPerFusion = 8;
// The real reductions `i` holds (itself, or the members of its fusion).
int UnnestedReductionCount(const Instruction& i);

// The pair: every rule above plus the pair-specific ones (two reductions,
// in-place operands, expensive producers read many times, size limits).
// `duplicate` = the producer will stay for other users.
Refusal PairFusible(const Instruction& producer, const Instruction& consumer, bool duplicate,
                    const PairRules& rules = {});

// True for an array with no layout or the default (descending) one.
bool HasDefaultLayout(const Shape& s);

// XLA (ReductionIsRaceFree): a reduction is emitted without atomics when a
// row reduction's rows have at most 1024 threads × 16 elements and a column
// reduction's columns at most 32 × 128 elements.
bool ReductionRaceFree(const Instruction& reduce);

// ReductionPrefersElemental: core/cost/cost_model.h (it decides the launch too).
// A non-variadic reduce that prefers the elemental emitter, or a loop
// fusion whose reduces all do: a loop-fusible producer in `gpu`.
bool IsElementalReduceProducer(const Instruction& p);
// `consumer` reduces `producer`'s value, directly or through the ops of its
// fusion that read it (XLA's CreatesHeavyComputation).
bool ReducesValueOf(const Instruction& producer, const Instruction& consumer);

// True if the instruction (or fusion) contains a reduce / has one at its root.
bool ContainsReduce(const Instruction& i);

// The reduce a kernel output is built around: `root` itself when it is a
// reduce, or the reduce under a chain of one-operand elementwise ops of the
// reduce's output shape (a reduction epilogue, e.g. sqrt(reduce(x))); else
// nullptr.
const Instruction* ReductionHero(const Instruction* root);

// Reduction epilogue fusion (XLA priority fusion with
// xla_gpu_enable_reduction_epilogue_fusion): may the consumer of a reduction
// (an unfused reduce or a reduction fusion) be computed on the reduced values
// in the same kernel? Applies only when `producer` is such a reduction;
// "" when allowed, else the reason.
Refusal EpilogueFusible(const Instruction& producer, const Instruction& consumer, bool single_user = true);
// True if `p` is a single-output reduction (reduce or fusion whose root's
// hero is a reduce): the producer side of an epilogue fusion.
bool IsReductionProducer(const Instruction& p);
// How many times the consumer reads each element of operand `producer`
// (broadcasts and windows read the same element many times).
double ReuseFactor(const Instruction& producer, const Instruction& consumer);
// Operands + outputs of the fusion that fusing would produce.
int FusedOperandsAndOutputs(const Instruction& producer, const Instruction& consumer);
int FusedInstructionCount(const Instruction& i);

}  // namespace hloscope
