// The entry's input_output_alias header, and whether an aliased output may
// be written straight into its parameter's bytes.
//
// `input_output_alias={ {0}: (0, {}, may-alias), {1}: (2, {1}, must-alias) }`
// says output leaf {0} may share parameter 0's bytes, output {1} must share
// leaf {1} of parameter 2. Sharing is safe only if the instruction that
// writes the output's bytes runs after every read of the parameter's old
// value under every schedule: each reader is the writer itself (reading the
// element it then overwrites) or an ancestor of it. Where that fails,
// copy_insertion (core/passes/copy_insertion.cc) adds a copy of the output,
// ordered after the last reader by control edges, as XLA's copy insertion
// does for aliased inputs and outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/module.h"

namespace hloscope {

struct IoAlias {
  std::vector<int64_t> output_index;
  int64_t parameter = -1;
  std::vector<int64_t> parameter_index;
  bool must_alias = false;
  // "{0}: (0, {}, may-alias)"
  std::string ToString() const;
};

// The entries of the module's input_output_alias header (none when absent;
// malformed entries are skipped).
std::vector<IoAlias> ParseInputOutputAlias(const Module& m);

// What writing an aliased output into its parameter's bytes involves.
struct AliasHazard {
  // The instruction whose result holds the output leaf's bytes (the root's
  // leaf seen through tuples, bitcasts, get-tuple-elements of tuples and
  // identity custom-calls), and the parameter leaf. Null when the indices
  // do not name a leaf.
  const Instruction* writer = nullptr;
  const Instruction* parameter = nullptr;
  // The root's operand that is the output leaf (what a copy would copy),
  // with the tuple holding it (null when the root itself is the leaf).
  Instruction* leaf_value = nullptr;
  Instruction* leaf_tuple = nullptr;
  int leaf_operand = -1;
  // The output is the parameter's own value (passed through): nothing to do.
  bool passthrough = false;
  // Empty when the writer may overwrite the parameter under every schedule;
  // else why not (for the pass log and the memory view).
  std::string why_not;
  // Readers of the parameter's value that may run after the writer (a copy
  // of the output must come after them).
  std::vector<Instruction*> late_readers;
  // A copy of the output leaf fixes the hazard (false when the parameter is
  // also returned as another output, or the root's tuples are shared).
  bool copy_fixes = false;
};

AliasHazard AnalyzeAliasHazard(const Module& m, const IoAlias& alias);
// All at once (one pass over the entry decides the order for every alias).
std::vector<AliasHazard> AnalyzeAliasHazards(const Module& m, const std::vector<IoAlias>& aliases);

// True when `writer` may write its (single-leaf) result over operand values
// that are the parameter's bytes: every element it writes is computed only
// from the same element of those operands (elementwise ops of the result's
// shape; loop fusions whose fused parameter reaches the root only through
// such ops; dynamic-update-slice/scatter through operand 0 only).
// `leaf`: the written output within a multi-output fusion's tuple.
bool WritesOverOperandInPlace(const Instruction& writer, const std::vector<int>& operand_slots,
                              const std::vector<int64_t>& leaf = {});

// True when fused parameter `k` of `fusion` reaches the fusion's root only
// through elementwise instructions whose shape equals the output's (output
// leaf `leaf` of a multi-output fusion), so each output element depends on
// the same operand element alone: XLA's CanShareBuffer. In a multi-output
// fusion every use must be so (a reduce of it in a sibling output would
// read elements already overwritten), and unless `siblings_may_read` (the
// loop emitter computes all outputs of an element before storing any) no
// other output may read it.
bool FusedParameterReadElementwise(const Instruction& fusion, int k, const std::vector<int64_t>& leaf = {},
                                   bool siblings_may_read = false);

// A reshape that only reinterprets its operand's bytes (same element type,
// default layouts, static shapes).
bool ReshapeIsBitcast(const Instruction& i);

// bitcast, a bitcast-like reshape or an identity custom-call: a view of its
// operand's bytes that defines no buffer.
bool IsBufferView(const Instruction& i);

}  // namespace hloscope
