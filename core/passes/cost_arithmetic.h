// The arithmetic behind a fusion decision's cost numbers, as a sentence:
//   "Unfused: 2 kernels read 4.19 MB from HBM and write 2.10 MB back;
//    6.29 MB at 4.8 TB/s ≈ 1.311 µs, plus 2 launches × 1 µs = 2 µs: ≈ 3.311 µs.
//    Fused: 1 kernel reads 2.10 MB and writes 2.10 MB; ... Saves 2.10 MB of
//    HBM traffic and ≈ 1.437 µs."
// It is the cost model's formula (cost_model.h) spelled out with the numbers
// the decision recorded: per side, memory time = bytes / bandwidth, launch
// time = kernels × overhead, and what compute-bound kernels add on top (the
// recorded µs minus the two); the totals are the recorded us_before and
// us_after. The decisions panel, `hloscope-cli explain` and the report show it.
#pragma once

#include <cstdint>
#include <string>

#include "core/passes/fusion_decision.h"

namespace hloscope {

// One side of a decision (before or after), taken apart.
struct CostSide {
  int64_t kernels = 0;
  int64_t read = 0, written = 0;  // bytes
  double memory_us = 0;           // (read + written) / bandwidth
  double launch_us = 0;           // kernels × launch overhead
  double compute_extra_us = 0;    // total − memory − launch: compute-bound kernels' excess
  double total_us = 0;            // the recorded us_before / us_after
};

// False when the decision carries no breakdown (hbm_gbs == 0: XLA's own
// decisions, refusals recorded without costs).
bool HasCostBreakdown(const FusionDecision& d);
CostSide CostSideOf(const FusionDecision& d, bool after);

// The sentence; "" without a breakdown. Only the unfused side when the
// decision's costs after equal those before (a refusal that kept things as
// they are).
std::string CostArithmetic(const FusionDecision& d);

// "512 B", "3.07 kB", "2.10 MB", "1.20 GB" (decimal units, as GB/s);
// "4.8 TB/s", "300 GB/s"; "0.874 µs", "12.35 µs", "431.2 µs".
std::string FormatDecimalBytes(int64_t bytes);
std::string FormatBandwidth(double gbs);
std::string FormatMicros(double us);

}  // namespace hloscope
