// xla-gpu: XLA's own GPU compiler on a module, without a GPU, through
// tools/xla_gpu_reference.py (JAX's CUDA plugin in compile-only mode): the
// --xla_dump_to folder (per-pass dumps, after_optimizations, thunk
// sequence, PTX, buffer assignment, priority-fusion log) for comparison.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/cli_args.h"

extern char** environ;

namespace hloscope::cli {
namespace {

namespace fs = std::filesystem;

// tools/xla_gpu_reference.py: $HLOSCOPE_TOOLS_DIR, next to the executable's
// source tree (build/bin/.. /..), or the source tree it was built from.
std::string FindTool() {
  std::vector<fs::path> candidates;
  if (const char* d = std::getenv("HLOSCOPE_TOOLS_DIR")) candidates.push_back(fs::path(d) / "xla_gpu_reference.py");
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path().parent_path() / "tools" / "xla_gpu_reference.py");
#ifdef HLOSCOPE_SOURCE_DIR
  candidates.push_back(fs::path(HLOSCOPE_SOURCE_DIR) / "tools" / "xla_gpu_reference.py");
#endif
  for (const fs::path& p : candidates)
    if (fs::exists(p, ec)) return p.string();
  return "";
}

int RunXlaGpu(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--device", "--out", "--partitions"}, {"--force", "--setup"}, &err) ||
      (args.positional().size() != 1 && !args.Has("--setup")) || (!args.Has("--setup") && !args.Has("--out"))) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s\n", err.empty() ? "expected FILE and --out DIR" : err.c_str());
    return 2;
  }
  const std::string device = args.GetOr("--device", "h100_sxm");
  if (device != "h100_sxm" && device != "h200") {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: --device is h100_sxm or h200, not '%s'\n", device.c_str());
    return 2;
  }
  const std::string tool = FindTool();
  if (tool.empty()) {
    std::fprintf(stderr,
                 "hloscope-cli xla-gpu: error: tools/xla_gpu_reference.py not found (set HLOSCOPE_TOOLS_DIR to the "
                 "project's tools/ folder)\n");
    return 1;
  }
  // The tool re-executes itself under its own venv (Python >= 3.12 with
  // JAX 0.12); any python3 starts it.
  std::vector<std::string> cmd = {"python3", tool};
  if (args.Has("--setup")) {
    cmd.push_back("--setup");
  } else {
    cmd.push_back(args.positional()[0]);
    cmd.insert(cmd.end(), {"--device", device, "--out", args.GetOr("--out", "")});
    if (auto p = args.Get("--partitions")) cmd.insert(cmd.end(), {"--partitions", *p});
    if (args.Has("--force")) cmd.push_back("--force");
  }
  std::vector<char*> c_argv;
  for (std::string& s : cmd) c_argv.push_back(s.data());
  c_argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "python3", nullptr, nullptr, c_argv.data(), environ) != 0) {
    std::fprintf(stderr,
                 "hloscope-cli xla-gpu: error: cannot start python3 (XLA GPU references need Python; then run "
                 "`hloscope-cli xla-gpu --setup` once for JAX 0.12)\n");
    return 1;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
    std::fprintf(stderr, "hloscope-cli xla-gpu: error: %s did not finish\n", tool.c_str());
    return 1;
  }
  const int rc = WEXITSTATUS(status);
  if (rc != 0) {
    std::fprintf(stderr,
                 "hloscope-cli xla-gpu: error: %s exited with %d (without JAX 0.12 in its venv, run "
                 "`hloscope-cli xla-gpu --setup` once: it needs a Python >= 3.12)\n",
                 tool.c_str(), rc);
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
                     "       hloscope-cli xla-gpu --setup\n"
                     "Runs tools/xla_gpu_reference.py: XLA GPU (JAX 0.12's CUDA plugin in compile-only mode,\n"
                     "H100 SXM or H200 target config from ../shared/xla_gpu_specs) compiles FILE (.hlo or\n"
                     ".mlir) and DIR gets XLA's --xla_dump_to folder (xla_dump/: every pass, after_optimizations,\n"
                     "thunk sequence, PTX, buffer assignment, priority_fusion_dump) and stable-named copies.\n"
                     "--setup creates the tool's venv once (a Python >= 3.12 on PATH or under pyenv, ~300 MB).\n"
                     "Without Python or JAX it fails saying so. An existing DIR is refused unless --force.",
                     RunXlaGpu);

}  // namespace hloscope::cli
