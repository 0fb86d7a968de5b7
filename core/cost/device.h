// GPU device presets for the cost model (resources/devices/*.json, compiled
// into the library; a path to another JSON file works too). Default: h200.
#pragma once

#include <string>
#include <vector>

#include "core/ir/primitive_type.h"
#include "core/support/status.h"

namespace hloscope {

struct DeviceSpec {
  std::string id, name;
  double hbm_bandwidth_gbs = 0;  // GB/s (1e9 bytes)
  int64_t hbm_bytes = 0;
  int sm_count = 0;
  double clock_ghz = 0;
  double fp32_tflops = 0, tf32_tflops = 0, bf16_tflops = 0, f16_tflops = 0, fp8_tflops = 0;
  int64_t l2_bytes = 0, smem_per_sm_bytes = 0, smem_per_block_bytes = 0;
  int registers_per_sm = 0, max_threads_per_block = 0, warp_size = 32;
  // Occupancy limits (CUDA programming guide, compute capabilities table):
  // 2048 threads and 32 blocks per SM on sm_80/sm_90, 1536 and 24 on sm_89.
  int max_threads_per_sm = 2048, max_blocks_per_sm = 32;
  double launch_overhead_us = 0;
  int sm_version = 0;
  std::vector<std::string> sources;

  // Dense throughput (FLOP/s) for matrix work in `t` (tensor cores) and for
  // scalar (CUDA-core) work.
  double MatrixFlopsPerSecond(PrimitiveType t) const;
  double ScalarFlopsPerSecond() const { return fp32_tflops * 1e12; }
  double BytesPerSecond() const { return hbm_bandwidth_gbs * 1e9; }
};

inline constexpr const char* kDefaultDevice = "h200";

// A preset id (h200, h100_sxm, a100_80gb, rtx4090, l4) or a JSON file path.
StatusOr<DeviceSpec> LoadDevice(const std::string& id_or_path);
std::vector<std::string> DevicePresetIds();
StatusOr<DeviceSpec> ParseDeviceJson(const std::string& json, const std::string& origin);

// The device fusion passes and step statistics use (set by --device or the
// GUI's device chooser; thread-safe copy). Defaults to kDefaultDevice.
DeviceSpec CurrentDevice();
void SetCurrentDevice(const DeviceSpec& d);

}  // namespace hloscope
