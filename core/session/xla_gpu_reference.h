// XLA's own GPU compiler on a module, without a GPU: where
// tools/xla_gpu_reference.py is, the command that runs it, the messages for
// its failures and where its output lands. Shared by `hloscope-cli xla-gpu`
// (app/cli/cmd_xla_gpu.cc, which spawns the command) and the GUI's File →
// Compile with XLA GPU… (app/gui/main_window_xla_gpu.cc, a QProcess).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hloscope {

// The target configs the tool has (../shared/xla_gpu_specs); the first is
// the default.
inline constexpr std::string_view kXlaGpuDevices[] = {"h100_sxm", "h200"};
bool IsXlaGpuDevice(std::string_view device);

// The log levels a compile asks XLA for by default: every candidate of its
// GEMM prologue and epilogue search, with its reason.
inline constexpr std::string_view kXlaGpuDefaultVlog = "gemm_fusion=6";

// tools/xla_gpu_reference.py: in $HLOSCOPE_TOOLS_DIR, in the source tree of
// the running executable (<exe>/../../tools: build/bin/..), or in
// `source_dir`/tools (the tree it was built from; "" to skip). "" when none
// exists.
std::string FindXlaGpuTool(const std::string& source_dir);

struct XlaGpuRequest {
  std::string input;  // .hlo / .txt / .mlir
  std::string device = std::string(kXlaGpuDevices[0]);
  std::string out;         // DIR; a non-empty one is refused by the tool unless `force`
  std::string partitions;  // "" = the tool's default (1)
  bool force = false;
  bool setup = false;  // create the tool's venv instead of compiling
  // XLA's own log while compiling (the tool's --vlog, TF_CPP_VMODULE), in
  // OUT/xla_vlog.txt; "" = none. By default its GEMM fusion search, which
  // `explain --xla-dump` sets beside ours.
  std::string vlog = std::string(kXlaGpuDefaultVlog);
  // XLA's cost estimate of every instruction before its priority fusion
  // (the tool's --costs, OUT/xla_costs.tsv), which decisions-diff sets
  // beside ours.
  bool costs = true;
};

// The interpreter the command starts; the tool re-executes itself under its
// own venv (Python >= 3.12 with JAX 0.12), so any python3 on PATH will do.
inline constexpr const char* kXlaGpuPython = "python3";
// The whole command line: {"python3", tool, ...}.
std::vector<std::string> XlaGpuCommand(const std::string& tool, const XlaGpuRequest& request);

// Messages (without a "hloscope-cli xla-gpu: error: " prefix).
std::string XlaGpuToolNotFoundMessage();
std::string XlaGpuNoPythonMessage();
std::string XlaGpuToolFailedMessage(const std::string& tool, int exit_code);
// The command that sets the tool up once, for the user to run in a shell.
std::string XlaGpuSetupCommand();

// Where a successful run left its output in `out`.
struct XlaGpuOutput {
  std::string dump_dir;             // OUT/xla_dump: XLA's --xla_dump_to folder
  std::string after_optimizations;  // OUT/after_optimizations.txt
  std::string
      module;  // the dump's module id ("module_0001", REFERENCE.json's xla_module_prefix); "" = unknown
};
XlaGpuOutput XlaGpuOutputIn(const std::string& out);

}  // namespace hloscope
