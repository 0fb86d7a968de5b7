#include "core/cost/device.h"

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/parser/parser.h"

namespace hloscope {

const std::map<std::string, std::string>& EmbeddedDevicePresets();  // generated

double DeviceSpec::MatrixFlopsPerSecond(PrimitiveType t) const {
  double tflops;
  switch (t) {
    case PrimitiveType::kBF16: tflops = bf16_tflops; break;
    case PrimitiveType::kF16: tflops = f16_tflops; break;
    case PrimitiveType::kF32: tflops = tf32_tflops; break;  // XLA's default precision allows TF32
    case PrimitiveType::kF64: tflops = fp32_tflops / 2; break;
    default:
      tflops = IsF8OrSmaller(t) ? (fp8_tflops > 0 ? fp8_tflops : bf16_tflops) : fp32_tflops;
      break;
  }
  return (tflops > 0 ? tflops : fp32_tflops) * 1e12;
}

StatusOr<DeviceSpec> ParseDeviceJson(const std::string& text, const std::string& origin) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::Error(origin + ": error: not a JSON object");
  DeviceSpec d;
  auto num = [&](const char* key, auto* out) -> bool {
    if (!j.contains(key) || !j[key].is_number()) return false;
    *out = j[key].get<std::remove_pointer_t<decltype(out)>>();
    return true;
  };
  const char* required[] = {"hbm_bandwidth_gbs", "sm_count", "fp32_tflops", "launch_overhead_us"};
  for (const char* k : required)
    if (!j.contains(k) || !j[k].is_number())
      return Status::Error(origin + ": error: device preset needs a number for '" + k + "'");
  d.id = j.value("id", origin);
  d.name = j.value("name", d.id);
  num("hbm_bandwidth_gbs", &d.hbm_bandwidth_gbs);
  num("hbm_bytes", &d.hbm_bytes);
  num("sm_count", &d.sm_count);
  num("clock_ghz", &d.clock_ghz);
  num("fp32_tflops", &d.fp32_tflops);
  num("tf32_tflops", &d.tf32_tflops);
  num("bf16_tflops", &d.bf16_tflops);
  num("f16_tflops", &d.f16_tflops);
  num("fp8_tflops", &d.fp8_tflops);
  num("l2_bytes", &d.l2_bytes);
  num("smem_per_sm_bytes", &d.smem_per_sm_bytes);
  num("smem_per_block_bytes", &d.smem_per_block_bytes);
  num("registers_per_sm", &d.registers_per_sm);
  num("max_threads_per_block", &d.max_threads_per_block);
  num("max_threads_per_sm", &d.max_threads_per_sm);
  num("max_blocks_per_sm", &d.max_blocks_per_sm);
  num("warp_size", &d.warp_size);
  num("launch_overhead_us", &d.launch_overhead_us);
  num("sm_version", &d.sm_version);
  if (j.contains("sources") && j["sources"].is_array())
    for (const auto& s : j["sources"])
      if (s.is_string()) d.sources.push_back(s.get<std::string>());
  if (d.hbm_bandwidth_gbs <= 0 || d.fp32_tflops <= 0)
    return Status::Error(origin + ": error: bandwidth and fp32_tflops must be positive");
  return d;
}

std::vector<std::string> DevicePresetIds() {
  std::vector<std::string> ids;
  for (const auto& [id, text] : EmbeddedDevicePresets()) ids.push_back(id);
  return ids;
}

StatusOr<DeviceSpec> LoadDevice(const std::string& id_or_path) {
  const auto& presets = EmbeddedDevicePresets();
  auto it = presets.find(id_or_path);
  if (it != presets.end()) return ParseDeviceJson(it->second, "resources/devices/" + it->first + ".json");
  if (id_or_path.find('/') != std::string::npos || id_or_path.find(".json") != std::string::npos) {
    auto text = ReadFileToString(id_or_path);
    if (!text.ok()) return text.status();
    return ParseDeviceJson(*text, id_or_path);
  }
  std::string known;
  for (const auto& [id, t] : presets) known += (known.empty() ? "" : ", ") + id;
  return Status::Error("unknown device '" + id_or_path + "' (presets: " + known + ", or a JSON file path)");
}

}  // namespace hloscope

namespace hloscope {
namespace {
std::mutex& DeviceMutex() {
  static std::mutex mu;
  return mu;
}
DeviceSpec& DeviceSlot() {
  static DeviceSpec d = [] {
    auto loaded = LoadDevice(kDefaultDevice);
    return loaded.ok() ? *loaded : DeviceSpec{};
  }();
  return d;
}
}  // namespace

DeviceSpec CurrentDevice() {
  std::lock_guard<std::mutex> lock(DeviceMutex());
  return DeviceSlot();
}

void SetCurrentDevice(const DeviceSpec& d) {
  std::lock_guard<std::mutex> lock(DeviceMutex());
  DeviceSlot() = d;
}

}  // namespace hloscope
