// xla-gpu: XLA's own GPU compiler on a module, without a GPU, through
// tools/xla_gpu_reference.py (JAX's CUDA plugin in compile-only mode): the
// --xla_dump_to folder (per-pass dumps, after_optimizations, thunk
// sequence, PTX, buffer assignment, priority-fusion log) for comparison.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/cli_args.h"
#include "core/session/xla_gpu_reference.h"

extern char** environ;

namespace hloscope::cli {
namespace {

int RunXlaGpu(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--device", "--out", "--partitions", "--vlog"}, {"--force", "--setup"}, &err) ||
      (args.positional().size() != 1 && !args.Has("--setup")) || (!args.Has("--setup") && !args.Has("--out"))) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s\n", err.empty() ? "expected FILE and --out DIR" : err.c_str());
    return 2;
  }
  const std::string device = args.GetOr("--device", "h100_sxm");
  if (!IsXlaGpuDevice(device)) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: --device is h100_sxm or h200, not '%s'\n", device.c_str());
    return 2;
  }
#ifdef HLOSCOPE_SOURCE_DIR
  const std::string tool = FindXlaGpuTool(HLOSCOPE_SOURCE_DIR);
#else
  const std::string tool = FindXlaGpuTool("");
#endif
  if (tool.empty()) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s\n", XlaGpuToolNotFoundMessage().c_str());
    return 1;
  }
  XlaGpuRequest request;
  request.setup = args.Has("--setup");
  if (!request.setup) {
    request.input = args.positional()[0];
    request.device = device;
    request.out = args.GetOr("--out", "");
    if (auto p = args.Get("--partitions")) request.partitions = *p;
    request.force = args.Has("--force");
    if (auto v = args.Get("--vlog")) request.vlog = *v == "none" ? "" : *v;
  }
  std::vector<std::string> cmd = XlaGpuCommand(tool, request);
  std::vector<char*> c_argv;
  for (std::string& s : cmd) c_argv.push_back(s.data());
  c_argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, kXlaGpuPython, nullptr, nullptr, c_argv.data(), environ) != 0) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s\n", XlaGpuNoPythonMessage().c_str());
    return 1;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s did not finish\n", tool.c_str());
    return 1;
  }
  const int rc = WEXITSTATUS(status);
  if (rc != 0) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s\n", XlaGpuToolFailedMessage(tool, rc).c_str());
    return 1;
  }
  if (!args.Has("--setup")) {
    const std::string out = args.GetOr("--out", "");
    std::printf("XLA GPU (%s) dump in %s/xla_dump; after_optimizations in %s/after_optimizations.txt\n"
                "open it as a run: hloscope %s/xla_dump   compare: hloscope-cli compare %s %s/after_optimizations.txt "
                "--pipeline-a gpu\n",
                device.c_str(), out.c_str(), out.c_str(), out.c_str(), args.positional()[0].c_str(), out.c_str());
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(xla_gpu, "xla-gpu", "compile a module with XLA's own GPU compiler, without a GPU",
                     "usage: hloscope-cli xla-gpu FILE --out DIR [--device h100_sxm|h200] [--partitions N] [--force]\n"
                     "                            [--vlog MODULE=LEVEL[,...]|none]\n"
                     "       hloscope-cli xla-gpu --setup\n"
                     "Runs tools/xla_gpu_reference.py: XLA GPU (JAX 0.12's CUDA plugin in compile-only mode,\n"
                     "H100 SXM or H200 target config from ../shared/xla_gpu_specs) compiles FILE (.hlo or\n"
                     ".mlir) and DIR gets XLA's --xla_dump_to folder (xla_dump/: every pass, after_optimizations,\n"
                     "thunk sequence, PTX, buffer assignment, priority_fusion_dump) and stable-named copies.\n"
                     "--setup creates the tool's venv once (a Python >= 3.12 on PATH or under pyenv, ~300 MB).\n"
                     "Without Python or JAX it fails saying so. An existing DIR is refused unless --force.\n"
                     "--vlog: what XLA's passes log while compiling, in DIR/xla_vlog.txt (TF_CPP_VMODULE;\n"
                     "default gemm_fusion=6: every GEMM prologue/epilogue candidate XLA took or left out and why,\n"
                     "which `explain --xla-dump DIR` shows beside our decisions; none: no log). DIR also gets\n"
                     "xla_costs.tsv, XLA's cost estimate of every instruction its priority fusion started from,\n"
                     "which `decisions-diff --xla-dump DIR` sets beside our cost model's.",
                     RunXlaGpu);

}  // namespace hloscope::cli
