// hloscope-run: runs an exported kernel bundle (hloscope-cli codegen --out
// DIR) on a CUDA GPU, checks the outputs against the bundle's expected ones
// and prints per-kernel times. Depends only on the C++ runtime, dlopen and
// the JSON library: it starts on machines with nothing but the NVIDIA driver.
// Exit codes: 0 ok, 1 mismatch or error, 2 no GPU / driver, 3 bad usage.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/runtime/bundle.h"
#include "core/runtime/cuda_executor.h"
#include "core/runtime/plan_io.h"
#include "core/runtime/run_report.h"

namespace {

constexpr const char* kUsage =
    "usage: hloscope-run BUNDLE [--device cuda] [--repeat N] [--json] [--driver PATH] [--no-copy-probe]\n"
    "                    [--no-warm-up]\n"
    "Runs the kernels of a bundle written by `hloscope-cli codegen FILE --out BUNDLE` on the GPU\n"
    "(CUDA driver API, loaded at run time), compares the outputs with BUNDLE/expected.data.json\n"
    "and prints per kernel: name, kind, launch dimensions, median time over N runs, achieved GB/s,\n"
    "% of the device's measured copy bandwidth (one 256 MB device-to-device copy) and the cost\n"
    "model's estimate. Each run's inputs are rewritten first, then ~0.2 ms of memsets keep the GPU busy\n"
    "up to its first kernel (--no-warm-up: start on the idle GPU, as before 2026-12-04).\n"
    "--device cpu needs LLVM, so it lives in `hloscope-cli run FILE --device cpu`.\n"
    "Exit: 0 outputs match, 1 mismatch or error, 2 no GPU or driver, 3 usage.\n";

int Usage(const std::string& msg) {
  std::fprintf(stderr, "hloscope-run: error: %s\n%s", msg.c_str(), kUsage);
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  std::string bundle_dir, device = "cuda", driver;
  int repeat = 1;
  bool json = false, probe = true, warm_up = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--no-copy-probe") {
      probe = false;
    } else if (a == "--no-warm-up") {
      warm_up = false;
    } else if (a == "--device") {
      if (!value(&device)) return Usage("--device needs a value");
    } else if (a == "--driver") {
      if (!value(&driver)) return Usage("--driver needs a value");
    } else if (a == "--repeat") {
      if (!value(&v)) return Usage("--repeat needs a value");
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (*end || n < 1 || n > 100000) return Usage("--repeat takes a count from 1 to 100000");
      repeat = static_cast<int>(n);
    } else if (a.rfind("--", 0) == 0) {
      return Usage("unknown flag " + a);
    } else if (bundle_dir.empty()) {
      bundle_dir = a;
    } else {
      return Usage("one bundle directory expected");
    }
  }
  if (bundle_dir.empty()) return Usage("no bundle directory given");
  if (device == "cpu") {
    std::fprintf(stderr,
                 "hloscope-run: --device cpu is not available: the CPU execution JIT-compiles the kernels' LLVM IR and\n"
                 "needs LLVM, which hloscope-run does not link. Use `hloscope-cli run FILE.hlo --device cpu`.\n");
    return 3;
  }
  if (device != "cuda") return Usage("unknown device '" + device + "' (cuda)");
  auto bundle = hloscope::runtime::ReadBundle(bundle_dir);
  if (!bundle.ok()) {
    std::fprintf(stderr, "%s\n", bundle.status().message().c_str());
    return 1;
  }
  hloscope::runtime::CudaRunOptions opts;
  opts.repeat = repeat;
  opts.driver_path = driver;
  if (!probe) opts.copy_probe_bytes = 0;
  opts.warm_up = warm_up;
  auto result = hloscope::runtime::RunOnCuda(bundle->plan, bundle->kernels, bundle->inputs, opts);
  if (!result.ok()) {
    const std::string& m = result.status().message();
    bool no_gpu = m.rfind("no CUDA driver", 0) == 0 || m.rfind("no CUDA device", 0) == 0;
    std::fprintf(stderr, "hloscope-run: %s: %s\n", bundle_dir.c_str(), m.c_str());
    return no_gpu ? 2 : 1;
  }
  std::string mismatch;
  if (!bundle->expected.empty())
    mismatch = hloscope::runtime::CompareOutputs(bundle->plan, bundle->expected, result->outputs);
  if (json) {
    auto j = hloscope::runtime::RunReportJson(*result);
    j["bundle"] = bundle_dir;
    j["module"] = bundle->plan.module;
    j["checked"] = !bundle->expected.empty();
    j["match"] = mismatch.empty();
    if (!mismatch.empty()) j["mismatch"] = mismatch;
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    std::printf("bundle: %s (module %s, %zu kernels)\n%s", bundle_dir.c_str(), bundle->plan.module.c_str(),
                bundle->kernels.size(), hloscope::runtime::RunReportText(*result).c_str());
    if (bundle->expected.empty())
      std::printf("outputs: not checked (the bundle has no expected.data.json)\n");
    else if (mismatch.empty())
      std::printf("outputs: all %zu match the expected values\n", result->outputs.size());
  }
  if (!mismatch.empty()) {
    std::fprintf(stderr, "hloscope-run: %s: mismatch: %s\n", bundle_dir.c_str(), mismatch.c_str());
    return 1;
  }
  return 0;
}
