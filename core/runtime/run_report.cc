#include "core/runtime/run_report.h"

#include <cstdio>

namespace hloscope::runtime {
namespace {

std::string Dims(const uint32_t (&d)[3]) {
  std::string s = std::to_string(d[0]);
  if (d[1] != 1 || d[2] != 1) s += "x" + std::to_string(d[1]);
  if (d[2] != 1) s += "x" + std::to_string(d[2]);
  return s;
}

double Gbps(const KernelTiming& t) {
  double us = t.MedianUs();
  return us > 0 ? double(t.kernel->bytes) / (us * 1e-6) / 1e9 : 0;
}

}  // namespace

std::string RunReportText(const RunResult& r) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "device: %s\n", r.device.c_str());
  out += line;
  if (r.copy_gbps > 0) {
    std::snprintf(line, sizeof line, "measured copy bandwidth: %.1f GB/s (device-to-device, read + write)\n", r.copy_gbps);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-36s %-20s %10s %6s %7s %10s %9s %7s %10s %7s\n", "kernel", "kind", "grid",
                "block", "launches", "median_us", "GB/s", "%copy", "est_us", "meas/est");
  out += line;
  double total = 0, est = 0;
  for (const KernelTiming& t : r.kernels) {
    const KernelThunk& k = *t.kernel;
    double us = t.MedianUs(), gb = Gbps(t);
    total += t.TotalUs();
    est += k.estimated_us * double(t.us.size());
    std::string pct = r.copy_gbps > 0 ? std::to_string(int(100.0 * gb / r.copy_gbps + 0.5)) + "%" : "-";
    std::string ratio = "-";
    if (k.estimated_us > 0) {
      char b[32];
      std::snprintf(b, sizeof b, "%.2f", us / k.estimated_us);
      ratio = b;
    }
    std::snprintf(line, sizeof line, "%-36s %-20s %10s %6s %7zu %10.2f %9.1f %7s %10.2f %7s\n", k.name.c_str(),
                  k.kind.c_str(), Dims(k.dims.grid).c_str(), Dims(k.dims.block).c_str(), t.us.size(), us, gb,
                  pct.c_str(), k.estimated_us, ratio.c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%zu kernels, kernel time %.2f us (estimated %.2f us), plan wall time %.3f ms\n",
                r.kernels.size(), total, est, r.total_ms);
  out += line;
  return out;
}

nlohmann::ordered_json RunReportJson(const RunResult& r) {
  nlohmann::ordered_json j;
  j["device"] = r.device;
  j["copy_gbps"] = r.copy_gbps;
  j["total_ms"] = r.total_ms;
  j["kernels"] = nlohmann::ordered_json::array();
  for (const KernelTiming& t : r.kernels) {
    const KernelThunk& k = *t.kernel;
    double gb = Gbps(t);
    j["kernels"].push_back({{"name", k.name},
                            {"kind", k.kind},
                            {"instruction", k.instruction},
                            {"grid", {k.dims.grid[0], k.dims.grid[1], k.dims.grid[2]}},
                            {"block", {k.dims.block[0], k.dims.block[1], k.dims.block[2]}},
                            {"launches", t.us.size()},
                            {"median_us", t.MedianUs()},
                            {"bytes", k.bytes},
                            {"gbps", gb},
                            {"pct_of_copy", r.copy_gbps > 0 ? 100.0 * gb / r.copy_gbps : 0.0},
                            {"estimated_us", k.estimated_us}});
  }
  return j;
}

}  // namespace hloscope::runtime
