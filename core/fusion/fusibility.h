// What may fuse with what, following XLA's GPU rules, each refusal with a
// plain-sentence reason (XLA's FusionDecision).
#pragma once

#include <string>

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
// The pair: every rule above plus the pair-specific ones (two reductions,
// in-place operands, expensive producers read many times, size limits).
// `duplicate` = the producer will stay for other users.
Refusal PairFusible(const Instruction& producer, const Instruction& consumer, bool duplicate);

// True if the instruction (or fusion) contains a reduce / has one at its root.
bool ContainsReduce(const Instruction& i);
// How many times the consumer reads each element of operand `producer`
// (broadcasts and windows read the same element many times).
double ReuseFactor(const Instruction& producer, const Instruction& consumer);
// Operands + outputs of the fusion that fusing would produce.
int FusedOperandsAndOutputs(const Instruction& producer, const Instruction& consumer);
int FusedInstructionCount(const Instruction& i);

}  // namespace hloscope
