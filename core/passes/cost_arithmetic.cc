#include "core/passes/cost_arithmetic.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>

namespace hloscope {
namespace {

std::string Printf(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "1", "2.5": a device's launch overhead as its preset gives it.
std::string Short(double v) { return Printf("%g", v); }

std::string Signed(double v, const std::string& text) { return (v < 0 ? "−" : "+") + text; }

bool SameSides(const FusionDecision& d) {
  return d.bytes_before == d.bytes_after && d.us_before == d.us_after && d.kernels_before == d.kernels_after &&
         d.read_before == d.read_after;
}

// "2 kernels read 4.19 MB from HBM and write 2.10 MB back; 6.29 MB at
// 4.8 TB/s ≈ 1.311 µs, plus 2 launches × 1 µs = 2 µs: ≈ 3.311 µs"
std::string Side(const FusionDecision& d, const CostSide& s) {
  if (s.kernels == 0 && s.read + s.written == 0) return "no kernel runs, nothing moves through HBM: 0 µs";
  const bool one = s.kernels == 1;
  std::string t = std::to_string(s.kernels) + (one ? " kernel reads " : " kernels read ") +
                  FormatDecimalBytes(s.read) + " from HBM and " + (one ? "writes " : "write ") +
                  FormatDecimalBytes(s.written) + " back; " + FormatDecimalBytes(s.read + s.written) + " at " +
                  FormatBandwidth(d.hbm_gbs) + " ≈ " + FormatMicros(s.memory_us) + " µs";
  if (s.compute_extra_us >= 0.0005)
    t += ", plus " + FormatMicros(s.compute_extra_us) +
         " µs of arithmetic, of re-reads, or of reads by too few thread blocks to draw that bandwidth (32 B per clock each)";
  if (s.kernels > 0)
    t += ", plus " + std::to_string(s.kernels) + (one ? " launch × " : " launches × ") + Short(d.launch_overhead_us) +
         " µs" + (one ? "" : " = " + Short(s.launch_us) + " µs");
  return t + ": ≈ " + FormatMicros(s.total_us) + " µs";
}

}  // namespace

std::string FormatDecimalBytes(int64_t bytes) {
  const double b = std::fabs(static_cast<double>(bytes));
  if (b < 1e3) return std::to_string(bytes) + " B";
  static const char* units[] = {"kB", "MB", "GB", "TB"};
  double v = b / 1e3;
  int u = 0;
  while (v >= 1e3 && u < 3) {
    v /= 1e3;
    ++u;
  }
  return Printf(v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v) + " " + units[u];
}

std::string FormatBandwidth(double gbs) {
  return gbs >= 1000 ? Printf("%g", std::round(gbs / 10) / 100) + " TB/s" : Printf("%g", gbs) + " GB/s";
}

std::string FormatMicros(double us) {
  const double a = std::fabs(us);
  return Printf(a < 10 ? "%.3f" : a < 100 ? "%.2f" : "%.1f", us);
}

bool HasCostBreakdown(const FusionDecision& d) { return d.hbm_gbs > 0; }

CostSide CostSideOf(const FusionDecision& d, bool after) {
  CostSide s;
  s.kernels = after ? d.kernels_after : d.kernels_before;
  s.read = after ? d.read_after : d.read_before;
  s.written = (after ? d.bytes_after : d.bytes_before) - s.read;
  s.total_us = after ? d.us_after : d.us_before;
  if (!HasCostBreakdown(d)) return s;
  // As FinishCost computes it: bytes / (GB/s × 1e9) s = bytes / (GB/s × 1e3) µs.
  s.memory_us = static_cast<double>(s.read + s.written) / (d.hbm_gbs * 1e9) * 1e6;
  s.launch_us = static_cast<double>(s.kernels) * d.launch_overhead_us;
  s.compute_extra_us = s.total_us - s.memory_us - s.launch_us;
  // Rounding of the sums the passes made, not a compute-bound kernel.
  if (std::fabs(s.compute_extra_us) < 1e-9 * std::max(1.0, s.total_us)) s.compute_extra_us = 0;
  return s;
}

std::string CostArithmetic(const FusionDecision& d) {
  if (!HasCostBreakdown(d)) return "";
  const CostSide before = CostSideOf(d, false);
  const bool merged = d.verdict == FusionVerdict::kMerged;
  const bool refused = d.verdict == FusionVerdict::kNotFused;
  if (SameSides(d)) return std::string(refused ? "As it stays, unfused: " : "Before and after: ") + Side(d, before) + ".";
  const CostSide after = CostSideOf(d, true);
  std::string t = std::string(merged ? "Apart: " : "Unfused: ") + Side(d, before) + ". " +
                  (merged ? "Merged: " : refused ? "Fused, had it been allowed: " : "Fused: ") + Side(d, after) + ". ";
  const int64_t db = d.bytes_after - d.bytes_before;
  const double dus = d.us_after - d.us_before;
  const int64_t dk = d.kernels_after - d.kernels_before;
  t += std::string(merged ? "Merged − apart: " : "Fused − unfused: ") +
       (db == 0 ? "the same HBM traffic" : Signed(static_cast<double>(db), FormatDecimalBytes(std::llabs(db))) +
                                               " of HBM traffic") +
       ", " + Signed(dus, FormatMicros(std::fabs(dus))) + " µs";
  if (dk != 0)
    t += " (" + Signed(static_cast<double>(dk), std::to_string(std::llabs(dk))) +
         (std::llabs(dk) == 1 ? " launch" : " launches") + ")";
  return t + ".";
}

}  // namespace hloscope
