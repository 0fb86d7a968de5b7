// Walks a thunk sequence on some executor: kernels, copies and memsets are
// the executor's; while loops and conditionals are driven here, on the host
// (the predicate / branch index is read back after the condition ran), as
// XLA's GPU runtime does.
#pragma once

#include <cstdint>
#include <vector>

#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::runtime {

class PlanExecutor {
 public:
  virtual ~PlanExecutor() = default;
  virtual Status Launch(const KernelThunk& k) = 0;
  virtual Status Copy(const CopyThunk& c) = 0;
  virtual Status Memset(const MemsetThunk& m) = 0;
  // Reads a slice back to the host (waits for what was launched before).
  virtual Status Read(const Slice& s, std::vector<uint8_t>* out) = 0;
  // A collective or device id. By default the run of one device
  // (RunCollectiveOnOneDevice); an executor of one device among several
  // exchanges the data with the others.
  virtual Status Collective(const CollectiveThunk& c);
};

// A collective on a run of one device: each result is its operand (copied
// where it has its own buffer); a device id, or a permute that sends nothing
// to device 0, is 0. An error when more than one device takes part.
Status RunCollectiveOnOneDevice(const CollectiveThunk& c, PlanExecutor& exec);

struct RunLimits {
  int64_t max_while_iterations = 10'000'000;
};

Status RunThunks(const ThunkSequence& seq, PlanExecutor& exec, const RunLimits& limits = {});

}  // namespace hloscope::runtime
