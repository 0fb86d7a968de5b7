// The corpus through every stage and back (issue 23, acceptance 2): each
// module of ../shared/corpus whose kernels are all generated, whose plan runs
// on one device and which the interpreter evaluates (parameters and outputs
// ≤ 64 MB, and small enough to interpret in CI time) is compiled with the
// `gpu` pipeline, run on the CPU and compared with the interpreter. Eight
// shards, so that ctest runs them side by side. Skips cleanly without the
// corpus; prints what it ran and what it skipped, and why.
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>

#include <gtest/gtest.h>

#include "core/parser/parser.h"
#include "core/verify/verifier.h"
#include "tests/codegen/codegen_test_util.h"
#include "tests/support/corpus_index.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

constexpr int kShards = 8;

// Modules whose outputs depend on the order of a reduction, so that a
// kernel's tree of partial sums and the interpreter's element-by-element
// order legitimately differ (docs/codegen.md, "CPU run of the corpus").
// They still run; a difference is reported, not failed.
const std::map<std::string, std::string>& OrderDependent() {
  static const std::map<std::string, std::string> m = {
      {"xla/tools/hlo_opt/tests/gpu_hlo_buffers.hlo", "1M-element f16 sum"},
      {"xla/tools/hlo_opt/tests/gpu_hlo_llvm-1.hlo", "1M-element f16 sum"},
      {"xla/backends/gpu/codegen/emitters/tests/reduce_multirow/f16_v4.hlo", "f16 row sums"},
      {"_deleted_upstream/xla/service/gpu/tests/reduce_nested-1.hlo", "a variadic reducer that is not associative"},
      {"_deleted_upstream/xla/service/gpu/tests/reduce_column_layout_change.hlo", "f32 column sums that cancel"},
      {"_deleted_upstream/xla/service/gpu/tests/reduce_unnested-1.hlo", "f32 row sums that cancel"},
      {"xla/backends/cpu/benchmarks/hlo/xnn.parallel_dots.optimized.hlo", "f32 dots of length 1024 that cancel"},
  };
  return m;
}

int64_t EntryBytes(const Module& m) {
  int64_t bytes = m.entry()->root()->shape().byte_size();
  for (int k = 0; k < m.entry()->num_parameters(); ++k) bytes += m.entry()->parameter(k)->shape().byte_size();
  return bytes;
}

class CorpusCpuRun : public ::testing::TestWithParam<int> {};

TEST_P(CorpusCpuRun, KernelsOnTheCpuMatchTheInterpreter) {
  const std::vector<hloscope::testing::CorpusEntry> files = hloscope::testing::CorpusEntries();
  if (files.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  std::map<std::string, int> skipped;
  int matched = 0, order_dependent = 0, on_devices = 0;
  for (size_t n = static_cast<size_t>(GetParam()); n < files.size(); n += kShards) {
    const std::string& file = files[n].file;
    const auto t0 = std::chrono::steady_clock::now();
    struct Timer {
      const std::string& f;
      std::chrono::steady_clock::time_point t0;
      ~Timer() {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s > 2) std::cout << "[ slow     ] " << f << ": " << s << " s\n";
      }
    } timer{file, t0};
    auto text = ReadFileToString(hloscope::testing::SharedDir() + "/corpus/" + file);
    if (!text.ok()) continue;
    auto m = ParseHloModule(*text, file);
    if (!m.ok() || !VerifyModule(**m).ok()) {
      ++skipped["rejected by the parser or verifier"];
      continue;
    }
    bool dynamic = false;
    for (int k = 0; k < (*m)->entry()->num_parameters(); ++k) dynamic |= (*m)->entry()->parameter(k)->shape().IsDynamic();
    if (dynamic || (*m)->entry()->root()->shape().IsDynamic()) {
      ++skipped["dynamic shapes"];
      continue;
    }
    if (EntryBytes(**m) > (int64_t{64} << 20)) {
      ++skipped["parameters and outputs over 64 MB"];
      continue;
    }
    if (hloscope::testing::EvalWork(**m) > 3e7) {
      ++skipped["too large to interpret in CI time"];
      continue;
    }
    CodegenOptions opts;
    opts.emit_ptx = false;  // the CPU runs the emitted IR
    auto compiled = CompileText(*text, file, "gpu", opts);
    if (!compiled.ok()) {
      ADD_FAILURE() << file << ": " << compiled.status().message();
      continue;
    }
    if (!runtime::MissingKernels(compiled->codegen.plan).empty()) {
      ++skipped["kernels missing (docs/codegen.md)"];
      continue;
    }
    // A module whose collectives exchange data runs on every device, each on
    // inputs of its own, and each device is compared with its evaluation.
    const int64_t devices = DevicesToEvaluate(*compiled->module);
    const runtime::ThunkPlan& plan = compiled->codegen.plan;
    if (!(devices > 1 ? runtime::ValidatePlanForDevices(plan) : runtime::ValidatePlanForRun(plan)).ok()) {
      ++skipped[devices > 1 ? "collectives the run on devices does not take" : "needs a host or an external library"];
      continue;
    }
    std::vector<std::vector<Literal>> inputs = MakeRandomDeviceInputs(*compiled->module->entry(), 0, devices);
    EvalOptions eo;
    eo.max_while_iterations = 2000;
    auto want = EvaluateOnDevices(*compiled->module, devices, inputs, eo);
    if (!want.ok()) {
      ++skipped[want.status().message().find("max_while_iterations") != std::string::npos
                    ? "while loops too long for CI time"
                    : "the interpreter cannot evaluate it"];
      continue;
    }
    CpuRunOptions ro;
    ro.limits.max_while_iterations = 2000;
    StatusOr<std::vector<runtime::RunResult>> got = Status::Error("not run");
    if (devices > 1) {
      got = RunOnCpuDevices(compiled->codegen, inputs, ro);
    } else if (auto one = RunOnCpu(compiled->codegen, inputs[0], ro); one.ok()) {
      got = std::vector<runtime::RunResult>{std::move(*one)};
    } else {
      got = one.status();
    }
    if (!got.ok()) {
      if (got.status().message().find("not supported by the runtime") != std::string::npos) {
        ++skipped["layouts the runtime refuses (tiled)"];
        continue;
      }
      ADD_FAILURE() << file << ": cpu run: " << got.status().message();
      continue;
    }
    std::string diff;
    for (size_t d = 0; d < got->size() && diff.empty(); ++d) {
      diff = runtime::CompareOutputs(plan, FlattenTuple((*want)[d]), (*got)[d].outputs);
      if (!diff.empty() && devices > 1) diff = "device " + std::to_string(d) + ": " + diff;
    }
    if (diff.empty()) {
      ++matched;
      on_devices += devices > 1;
    } else if (auto it = OrderDependent().find(file); it != OrderDependent().end()) {
      ++order_dependent;
      std::cout << "[ order    ] " << file << " (" << it->second << "): " << diff << "\n";
    } else {
      ADD_FAILURE() << file << ": " << diff;
    }
  }
  std::cout << "[ corpus   ] shard " << GetParam() << ": " << matched << " match the interpreter (" << on_devices
            << " of them run on several devices), " << order_dependent
            << " differ by summation order";
  for (const auto& [why, count] : skipped) std::cout << ", " << count << " skipped (" << why << ")";
  std::cout << "\n";
}

INSTANTIATE_TEST_SUITE_P(Shards, CorpusCpuRun, ::testing::Range(0, kShards));

}  // namespace
}  // namespace hloscope::codegen
