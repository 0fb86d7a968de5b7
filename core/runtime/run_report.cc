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

// Cost-model flops (KernelThunk::flops) per second, in TFLOP/s.
double Tflops(const KernelTiming& t) {
  double us = t.MedianUs();
  return us > 0 ? double(t.kernel->flops) / (us * 1e-6) / 1e12 : 0;
}

}  // namespace

bool IsCpuEmulation(const RunResult& r) { return r.device.rfind("cpu", 0) == 0; }

std::string RunReportText(const RunResult& r) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "device: %s\n", r.device.c_str());
  out += line;
  if (IsCpuEmulation(r)) {
    // The GPU kernels' own IR, run by emulated threads: times say how long
    // the emulation took, nothing about a GPU, so no bandwidth or ratio to
    // the cost model's GPU estimate is shown.
    out += "CPU emulation of the GPU kernels: times are emulation times (GB/s and measured/estimated do not "
           "apply; run with --device cuda on a GPU for those)\n";
    std::snprintf(line, sizeof line, "%-36s %-20s %10s %6s %7s %12s %10s\n", "kernel", "kind", "grid", "block",
                  "launches", "emulated_us", "est_gpu_us");
    out += line;
    double total = 0;
    for (const KernelTiming& t : r.kernels) {
      const KernelThunk& k = *t.kernel;
      total += t.TotalUs();
      std::snprintf(line, sizeof line, "%-36s %-20s %10s %6s %7zu %12.2f %10.2f\n", k.name.c_str(), k.kind.c_str(),
                    Dims(k.dims.grid).c_str(), Dims(k.dims.block).c_str(), t.us.size(), t.MedianUs(),
                    k.estimated_us);
      out += line;
    }
    std::snprintf(line, sizeof line, "%zu kernels, emulated kernel time %.2f us, plan wall time %.3f ms\n",
                  r.kernels.size(), total, r.total_ms);
    out += line;
    return out;
  }
  if (r.copy_gbps > 0) {
    std::snprintf(line, sizeof line, "measured copy bandwidth: %.1f GB/s (device-to-device, read + write)\n", r.copy_gbps);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-36s %-20s %10s %6s %7s %10s %9s %7s %8s %10s %7s\n", "kernel", "kind", "grid",
                "block", "launches", "median_us", "GB/s", "%copy", "TFLOP/s", "est_us", "meas/est");
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
    std::snprintf(line, sizeof line, "%-36s %-20s %10s %6s %7zu %10.2f %9.1f %7s %8.2f %10.2f %7s\n", k.name.c_str(),
                  k.kind.c_str(), Dims(k.dims.grid).c_str(), Dims(k.dims.block).c_str(), t.us.size(), us, gb,
                  pct.c_str(), Tflops(t), k.estimated_us, ratio.c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%zu kernels, kernel time %.2f us (estimated %.2f us), plan wall time %.3f ms\n",
                r.kernels.size(), total, est, r.total_ms);
  out += line;
  return out;
}

nlohmann::ordered_json RunReportJson(const RunResult& r) {
  nlohmann::ordered_json j;
  const bool emulated = IsCpuEmulation(r);
  j["device"] = r.device;
  // On the CPU the times are those of the emulation: the GPU figures
  // (bandwidth, share of the copy bandwidth) are null there.
  j["cpu_emulation"] = emulated;
  j["copy_gbps"] = r.copy_gbps;
  j["total_ms"] = r.total_ms;
  j["kernels"] = nlohmann::ordered_json::array();
  for (const KernelTiming& t : r.kernels) {
    const KernelThunk& k = *t.kernel;
    double gb = Gbps(t);
    nlohmann::ordered_json e = {{"name", k.name},
                                {"kind", k.kind},
                                {"instruction", k.instruction},
                                {"grid", {k.dims.grid[0], k.dims.grid[1], k.dims.grid[2]}},
                                {"block", {k.dims.block[0], k.dims.block[1], k.dims.block[2]}},
                                {"launches", t.us.size()},
                                {"median_us", t.MedianUs()},
                                {"bytes", k.bytes},
                                {"gbps", nullptr},
                                {"pct_of_copy", nullptr},
                                {"flops", k.flops},
                                {"tflops", nullptr},
                                {"estimated_us", k.estimated_us}};
    if (!emulated) {
      e["gbps"] = gb;
      e["tflops"] = Tflops(t);
      e["pct_of_copy"] = r.copy_gbps > 0 ? 100.0 * gb / r.copy_gbps : 0.0;
    }
    j["kernels"].push_back(std::move(e));
  }
  return j;
}

}  // namespace hloscope::runtime
