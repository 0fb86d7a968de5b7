// Logical buffers of a scheduled computation: one per array leaf an
// instruction defines, with XLA's aliasing (bitcast, tuple,
// get-tuple-element and bitcast-like reshapes define nothing new;
// dynamic-update-slice/scatter and elementwise/loop-fusion outputs reuse an
// operand buffer whose last use they are; while results reuse their init;
// input_output_alias). Each buffer has a live range in schedule positions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/memory/schedule.h"
#include "core/ir/module.h"

namespace hloscope {

enum class BufferKind { kParameter, kConstant, kTemp, kOutput };
std::string_view BufferKindName(BufferKind k);

struct LogicalBuffer {
  int id = 0;
  const Instruction* instr = nullptr;  // defining instruction
  std::vector<int64_t> index;          // tuple index of the leaf ({} for arrays)
  Shape shape;
  int64_t bytes = 0;
  BufferKind kind = BufferKind::kTemp;
  int64_t start = 0, end = 0;          // live range [start, end] in positions
  int storage = 0;                     // id of the buffer whose storage it shares (itself if none)
  std::string share_reason;            // why it shares ("in-place dynamic-update-slice", ...)
};

// One input_output_alias entry and what the assignment made of it.
struct IoAliasOutcome {
  std::string alias;          // "{0}: (1, {}, may-alias)"
  int output_buffer = -1;     // buffer id of the output leaf
  int parameter_buffer = -1;  // buffer id of the parameter leaf
  bool taken = false;         // the output lives in the parameter's bytes
  std::string copy;           // name of the copy copy_insertion added for it, if any
  std::string reason;         // why it was taken or not
};

struct BufferAnalysis {
  std::vector<LogicalBuffer> buffers;
  int64_t positions = 0;               // schedule length
  std::vector<const Instruction*> sequence;
  // Buffer ids of the entry root's output leaves.
  std::vector<int> root_leaves;
  std::vector<IoAliasOutcome> io_aliases;
};

struct BufferOptions {
  bool allow_sharing = true;  // in-place reuse of dying operand buffers
};

BufferAnalysis AnalyzeBuffers(const Module& m, const Sequence& entry_sequence, const BufferOptions& opts = {});

// Bytes simultaneously live at each position, counting each storage once,
// over buffers of the given kinds (temps and outputs by default).
std::vector<int64_t> LiveBytes(const BufferAnalysis& a, int64_t alignment, bool include_outputs = true);

}  // namespace hloscope
