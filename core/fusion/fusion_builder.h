// Building fusions the way XLA's GPU backend writes them: a `fusion`
// instruction (kind=kLoop/kInput) calling a fused computation
// `fused_computation.N` whose parameters are the fusion's operands. Fused
// instructions keep the names they had, so a fusion's members read back.
#pragma once

#include <vector>

#include "core/ir/module.h"

namespace hloscope {

// Wraps `instr` into a new single-instruction fusion of `kind`; returns the
// fusion instruction (which takes over all uses of `instr`, now removed).
Instruction* WrapInFusion(Instruction* instr, FusionKind kind);

// Fuses `producer` (an instruction or a fusion, which is inlined) into the
// fusion `consumer` in place of every operand of `consumer` that is
// `producer`. The producer stays for its other users (duplication) and is
// removed when none is left. Returns the value inside the fused computation
// that now stands for the producer.
Instruction* FuseProducerInto(Instruction* consumer, Instruction* producer);

// Makes `producer` an extra output of the fusion `consumer` (multi-output):
// fuses it in and redirects its remaining users to a get-tuple-element of
// the (now tuple-shaped) consumer. Returns the consumer. A producer read by
// the consumer alone is fused in as by FuseProducerInto, no output added.
//
// Both this and MergeSiblingFusions leave the parent's list in the stable
// post order of Computation::SortTopologically. With `parent_sorted` (the
// list was topological before the call, as every merge leaves it) that
// costs one light walk instead of a pass over every operand.
Instruction* FuseAsExtraOutput(Instruction* consumer, Instruction* producer, bool parent_sorted = false);

// Merges two fusions that share no data dependency into one multi-output
// fusion (siblings / horizontal); users of both read get-tuple-elements.
// Returns the merged fusion.
Instruction* MergeSiblingFusions(Instruction* a, Instruction* b, bool parent_sorted = false);

// True if every instruction of `c` comes after its operands and control
// predecessors in the list.
bool ListIsTopological(const Computation& c);

// Names of the non-parameter instructions inside a fusion.
std::vector<std::string> FusionMembers(const Instruction& fusion);

// Root of the fused computation, looking through a tuple root.
std::vector<const Instruction*> FusionRoots(const Instruction& fusion);

// True if the fusion has a reduce among its roots (kInput).
bool FusionHasReduceRoot(const Instruction& fusion);

}  // namespace hloscope
