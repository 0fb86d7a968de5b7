// A fusion decision as data: every candidate a fusion pass considers is one
// record with a verdict, a plain-sentence reason and the cost numbers before
// and after. The step recorder attaches them to the step; the GUI's
// decisions panel, `explain` and the reports render the same records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hloscope {

enum class FusionVerdict { kFused, kNotFused, kFusedWithDuplication, kMerged };

inline const char* FusionVerdictName(FusionVerdict v) {
  switch (v) {
    case FusionVerdict::kFused: return "fused";
    case FusionVerdict::kNotFused: return "not fused";
    case FusionVerdict::kFusedWithDuplication: return "fused with duplication";
    case FusionVerdict::kMerged: return "merged";
  }
  return "not fused";
}

struct FusionDecision {
  std::string pass;
  std::string producer;                 // name at decision time
  int64_t producer_id = -1;             // stable id
  std::vector<std::string> consumers;
  std::vector<int64_t> consumer_ids;
  FusionVerdict verdict = FusionVerdict::kNotFused;
  std::string reason;                   // a plain sentence
  std::string result;                   // the fusion it ended in ("" if none)
  int64_t bytes_before = 0, bytes_after = 0;
  double us_before = 0, us_after = 0;
  // What the cost numbers above are made of (the fusion passes fill them
  // with the numbers; 0 on records without a breakdown, such as XLA's own
  // decisions): kernels launched, the part of bytes_* that is read (the rest
  // is written), and the device's HBM bandwidth (GB/s) and launch overhead
  // (µs) they were costed with. cost_arithmetic.h turns them into a sentence.
  int64_t kernels_before = 0, kernels_after = 0;
  int64_t read_before = 0, read_after = 0;
  double hbm_gbs = 0, launch_overhead_us = 0;
};

}  // namespace hloscope
