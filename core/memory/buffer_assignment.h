// Buffer assignment: schedule the entry (best of several schedulers), find
// logical buffers and their live ranges, pack temporaries into one heap, and
// lay out allocations as XLA reports them. The result is plain immutable
// data: the GUI timeline, reports and the GPU runner's arena read it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/memory/logical_buffers.h"
#include "core/support/status.h"

namespace hloscope {

enum class SchedulerChoice { kAuto, kDfs, kList, kPostorder, kKeep };

struct MemoryOptions {
  SchedulerChoice scheduler = SchedulerChoice::kAuto;
  bool keep_schedule = false;  // use the text order of an is_scheduled module
  int64_t alignment = 64;
  bool allow_sharing = true;
};

struct AssignedBuffer {
  int id = 0;
  int64_t instruction_id = -1;
  std::string instruction;       // defining instruction's name
  std::vector<int64_t> index;    // tuple leaf index
  std::string shape;
  int64_t bytes = 0;
  int64_t offset = 0;            // within its allocation
  int allocation = 0;
  BufferKind kind = BufferKind::kTemp;
  int64_t start = 0, end = 0;    // live range (schedule positions)
  std::vector<int> aliases;      // other buffers sharing the same storage
  std::string share_reason;
};

struct AllocationInfo {
  int index = 0;
  BufferKind kind = BufferKind::kTemp;
  int64_t size = 0;
  bool maybe_live_out = false;
  int64_t parameter_number = -1;
  std::vector<int64_t> parameter_index;
  std::vector<int> buffers;
};

struct BufferAssignment {
  std::string module;
  std::string scheduler;                       // the one used
  std::map<std::string, int64_t> scheduler_peaks;  // lower bound per candidate
  std::vector<std::string> sequence;           // entry schedule (names)
  std::vector<int64_t> sequence_ids;           // entry schedule (instruction ids)
  std::vector<AssignedBuffer> buffers;
  std::vector<AllocationInfo> allocations;
  std::vector<int64_t> live_bytes;             // temp heap bytes live per position
  int64_t peak_bytes = 0;                      // size of the packed temp heap
  int64_t lower_bound_bytes = 0;               // max bytes live at once (temps)
  int64_t peak_position = 0;                   // where the lower bound is reached
  int64_t parameter_bytes = 0, constant_bytes = 0, output_bytes = 0, total_bytes = 0;
  // Each input_output_alias entry: taken or not, and why; the copy
  // copy_insertion added for it (buffer ids as in `buffers`).
  std::vector<IoAliasOutcome> io_aliases;
  std::string packing;                         // "size" or "area"
  int64_t alignment = 64;
  // The input_output_alias outcome whose output leaf is buffer `id`, or null.
  const IoAliasOutcome* AliasOf(int id) const {
    for (const IoAliasOutcome& io : io_aliases)
      if (io.output_buffer == id) return &io;
    return nullptr;
  }
  double ratio() const { return lower_bound_bytes ? double(peak_bytes) / double(lower_bound_bytes) : 1.0; }
  double fragmentation() const { return peak_bytes ? double(peak_bytes - lower_bound_bytes) / double(peak_bytes) : 0.0; }
};

StatusOr<std::shared_ptr<const BufferAssignment>> AssignBuffers(const Module& m, const MemoryOptions& opts = {});

// XLA *-buffer-assignment.txt style text, ending in the summary line
// `peak=… lower_bound=… ratio=…`.
std::string BufferAssignmentToText(const BufferAssignment& ba);
// {"peak_bytes","lower_bound_bytes","scheduler","buffers":[...],"live_bytes":[...], ...}
std::string BufferAssignmentToJson(const BufferAssignment& ba);

// Checks that no two buffers whose live ranges overlap share a byte of the
// same allocation (aliases excepted), offsets are aligned and every value
// has a buffer. "" when the property holds, else the first violation.
std::string CheckBufferAssignment(const BufferAssignment& ba);

}  // namespace hloscope
