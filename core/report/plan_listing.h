// What a kernel plan does, as the user reads it: every kernel launch (with
// code, or missing and why) and every thunk that is not a kernel of ours —
// custom-calls into external targets, collectives, host transfers — in
// execution order. Never all or nothing: a module with a kernel no emitter
// implements still lists all the others. The GUI's kernel tab and the
// report's kernels section render these same entries (Qt-free).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"

namespace hloscope::report {

struct PlanEntry {
  enum class Kind { kKernel, kMissing, kCustomCall, kCollective, kHostTransfer };
  Kind kind = Kind::kKernel;
  std::string instruction;  // the HLO instruction it implements
  std::string name;         // the launch name (kernels), else the instruction
  std::string what;         // one line: "loop kernel, grid 4x1x1, block 256x1x1", "all-reduce over 4 …"
  std::string reason;       // kMissing: why no code (KernelThunk::missing)
  std::string target;       // kCustomCall: custom_call_target; kCollective/kHostTransfer: the opcode
  int kernel = -1;          // kKernel/kMissing: index into CodegenResult::kernels
};

// "kernel", "missing", "custom-call", "collective", "host-transfer".
const char* PlanEntryKindName(PlanEntry::Kind k);

// Every entry of `cg`'s plan in execution (pre-)order: loop conditions
// before bodies, branches in order (AllKernels' order).
std::vector<PlanEntry> ListPlan(const codegen::CodegenResult& cg);

struct PlanCounts {
  size_t kernels = 0;  // launches with code
  size_t missing = 0;
  size_t custom_calls = 0;
  size_t collectives = 0;
  size_t host_transfers = 0;
};
PlanCounts CountPlan(const std::vector<PlanEntry>& entries);
// "3 kernels generated, 1 missing, 1 custom-call thunk, 2 collectives, 0 host
// transfers" — kernels and missing always, the others where present.
std::string PlanSummaryLine(const PlanCounts& c);

// The sentence shown for a missing kernel: "missing — no kernel emitter
// for …" (the reason without a leading "%instr: " it may repeat).
std::string MissingText(const PlanEntry& e);

// What ptxas and nvdisasm say about an entry's kernel (CodegenOptions::sass),
// as the details panel and the report's kernels section show it. Every field
// is "" when the entry has no SASS (not asked, shared code is in its first
// launch's entry, or `sass_error` says why).
struct KernelResourceText {
  // "40 registers, no spills, 0 B shared memory, 1 barrier" (spills as
  // "spills 8 B stored / 8 B loaded"; shared as "static S + dynamic D").
  std::string resources;
  // "48 of 64 warps per SM (6 blocks of 256 threads) on NVIDIA H200 — limited
  // by registers".
  std::string occupancy;
  // "212 instructions: 40 memory, 120 FMA/ALU, 0 tensor, 30 control, 22 other".
  std::string sass;
  std::string sass_error;  // why there is no SASS (KernelCode::sass_error)
  int registers = 0;
  int64_t spill_bytes = 0;  // stores + loads
  int active_warps = 0, max_warps = 0;
  std::string limited_by;
};
// `thunks`: runtime::AllKernels(cg.plan), which describing many entries can
// walk once; omitted, it is walked for this entry.
KernelResourceText DescribeResources(const codegen::CodegenResult& cg, const PlanEntry& e, const DeviceSpec& device,
                                     const std::vector<const runtime::KernelThunk*>* thunks = nullptr);

}  // namespace hloscope::report
