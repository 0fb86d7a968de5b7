#include "core/session/xla_gpu_reference.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace hloscope {

namespace fs = std::filesystem;

bool IsXlaGpuDevice(std::string_view device) {
  for (std::string_view d : kXlaGpuDevices)
    if (d == device) return true;
  return false;
}

std::string FindXlaGpuTool(const std::string& source_dir) {
  std::vector<fs::path> candidates;
  if (const char* d = std::getenv("HLOSCOPE_TOOLS_DIR"))
    candidates.push_back(fs::path(d) / "xla_gpu_reference.py");
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    candidates.push_back(exe.parent_path().parent_path().parent_path() / "tools" / "xla_gpu_reference.py");
  if (!source_dir.empty()) candidates.push_back(fs::path(source_dir) / "tools" / "xla_gpu_reference.py");
  for (const fs::path& p : candidates)
    if (fs::exists(p, ec)) return p.string();
  return "";
}

std::vector<std::string> XlaGpuCommand(const std::string& tool, const XlaGpuRequest& r) {
  std::vector<std::string> cmd = {kXlaGpuPython, tool};
  if (r.setup) {
    cmd.push_back("--setup");
    return cmd;
  }
  cmd.push_back(r.input);
  cmd.insert(cmd.end(), {"--device", r.device, "--out", r.out});
  if (!r.partitions.empty()) cmd.insert(cmd.end(), {"--partitions", r.partitions});
  if (r.force) cmd.push_back("--force");
  if (!r.vlog.empty()) cmd.insert(cmd.end(), {"--vlog", r.vlog});
  if (r.costs) cmd.push_back("--costs");
  return cmd;
}

std::string XlaGpuToolNotFoundMessage() {
  return "tools/xla_gpu_reference.py not found (set HLOSCOPE_TOOLS_DIR to the project's tools/ folder)";
}

std::string XlaGpuNoPythonMessage() {
  return "cannot start python3 (XLA GPU references need Python; then run `" + XlaGpuSetupCommand() +
         "` once for JAX 0.12)";
}

std::string XlaGpuToolFailedMessage(const std::string& tool, int exit_code) {
  return tool + " exited with " + std::to_string(exit_code) + " (without JAX 0.12 in its venv, run `" +
         XlaGpuSetupCommand() + "` once: it needs a Python >= 3.12)";
}

std::string XlaGpuSetupCommand() { return "hloscope-cli xla-gpu --setup"; }

XlaGpuOutput XlaGpuOutputIn(const std::string& out) {
  XlaGpuOutput o;
  o.dump_dir = (fs::path(out) / "xla_dump").string();
  o.after_optimizations = (fs::path(out) / "after_optimizations.txt").string();
  std::ifstream f(fs::path(out) / "REFERENCE.json");
  if (!f) return o;
  auto j = nlohmann::json::parse(f, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("xla_module_prefix") && j["xla_module_prefix"].is_string()) {
    const std::string prefix = j["xla_module_prefix"].get<std::string>();
    o.module = prefix.substr(0, prefix.find('.'));
  }
  return o;
}

}  // namespace hloscope
