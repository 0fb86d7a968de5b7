// XLA's dumps as input: a `--xla_dump_to` folder (modules, their
// before/after/per-pass files as steps) and XLA's *buffer-assignment.txt
// (BufferAssignment::ToString + HloLiveRange) read into our
// BufferAssignment so XLA's own timeline can be drawn next to ours.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/memory/buffer_assignment.h"
#include "core/support/status.h"

namespace hloscope::report {

struct XlaDumpStep {
  std::string path;
  std::string label;  // "before_optimizations", "0004 simplification after_algsimp", "after_optimizations"
  enum class Kind { kBefore, kPass, kAfter } kind = Kind::kPass;
  int index = -1;     // NNNN of a pass file
};

struct XlaDumpModule {
  std::string id;    // "module_0005"
  std::string name;  // "jit_softmax"
  std::vector<XlaDumpStep> steps;  // before, passes in order, after
  std::string buffer_assignment;   // path of *buffer-assignment.txt ("" if none)
  std::string fusion_log;          // path of *priority_fusion_dump.txt ("" if none; core/report/xla_fusion_log.h)
  const XlaDumpStep* after() const;
  const XlaDumpStep* before() const;
};

// Lists the modules of a dump folder (sorted by id). Error if the folder
// cannot be read or holds no module_*.txt file. A folder written by
// tools/xla_gpu_reference.py (REFERENCE.json) is read as its raw xla_dump/
// when kept, else as one module whose only step is after_optimizations.txt
// (with its buffer_assignment.txt and priority_fusion_dump.txt).
StatusOr<std::vector<XlaDumpModule>> ListXlaDump(const std::string& dir);
// Picks a module by id ("module_0005", "5") or name ("jit_softmax"), or,
// with an empty selector, the one with the most instructions text (largest
// after_optimizations file).
StatusOr<XlaDumpModule> PickXlaDumpModule(const std::vector<XlaDumpModule>& modules, const std::string& selector);

// Parses XLA's buffer-assignment text. Thread-local allocations (nested
// computations' scalars) are left out; kinds: parameter, constant, output
// (output / maybe-live-out), temp. Live ranges come from the HloLiveRange
// section when present (else the whole program). `origin` names the file in
// errors ("FILE:LINE: error: ...").
StatusOr<BufferAssignment> ParseXlaBufferAssignment(std::string_view text, const std::string& origin);
// Reads the file with XLA's live ranges: from the file itself (XLA CPU), from
// the live-range file beside it (XLA GPU: X-live-range.txt, or live_range.txt
// in a reference folder), or, when neither has them, derived from the
// scheduled module beside it (XlaModuleOfBufferAssignment, DeriveXlaLiveRanges).
StatusOr<BufferAssignment> ReadXlaBufferAssignment(const std::string& path);
// The module a buffer assignment file belongs to: X-buffer-assignment.txt →
// X.txt in a dump folder, buffer_assignment.txt → after_optimizations.txt in
// a reference folder; "" when it is not there.
std::string XlaModuleOfBufferAssignment(const std::string& path);
// XLA's HloLiveRange file for a buffer assignment file: X-buffer-assignment.txt
// → X-live-range.txt, buffer_assignment.txt → live_range.txt; "" when absent.
std::string XlaLiveRangeOfBufferAssignment(const std::string& path);
// Live ranges of XLA's values from the scheduled module they belong to (its
// after_optimizations, printed in execution order): a value lives from the
// position of its defining instruction (0 for parameters and constants) to
// its last use, looking through the ops that alias it (bitcast, tuple,
// get-tuple-element of its element); values reaching the entry's root, the
// entry's parameters and constants live to position n, "after the program"
// (n = the entry's instruction count), as in XLA's HloLiveRange; values of
// nested computations live at their caller's position. Sets the sequence to
// the entry's instructions and recomputes live bytes, lower bound and totals.
Status DeriveXlaLiveRanges(const Module& scheduled, BufferAssignment* ba);
// Totals, live bytes per position, lower bound and its position, from the
// buffers' ranges and the allocations (temps only are live bytes).
void SummarizeXlaAssignment(int64_t positions, BufferAssignment* ba);

}  // namespace hloscope::report
