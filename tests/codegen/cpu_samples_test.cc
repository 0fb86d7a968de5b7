// Acceptance: every sample's kernels, run on the CPU (their own LLVM IR,
// retargeted, emulated GPU threads), agree with the reference interpreter on
// the sample's inputs. Not the real-size samples (STEM_large): they have no
// recorded inputs, and the interpreter is not run at their sizes.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/runtime/plan_io.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

class CpuSamples : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuSamples, KernelsOnTheCpuMatchTheInterpreter) {
  std::string base = hloscope::testing::SamplesDir() + "/" + GetParam();
  auto original = ParseHloFile(base + ".hlo");
  ASSERT_TRUE(original.ok()) << original.status().message();
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileFile(base + ".hlo", "gpu", opts);
  // Codegen coverage is checked by codegen's own sample tests; this test is
  // about running what codegen produced.
  // Every sample compiles today; a regression must fail here, not skip.
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto data = ReadDataFile(base + ".data.json");
  ASSERT_TRUE(data.ok()) << data.status().message();
  auto want = EvaluateModule(**original, data->inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  auto got = RunOnCpu(compiled->codegen, data->inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs), "");
  EXPECT_FALSE(got->kernels.empty());
}

std::vector<std::string> Samples() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(hloscope::testing::SamplesDir())) {
    std::string n = e.path().filename().string();
    const std::string suffix = ".hlo";
    if (n.size() > suffix.size() && n.ends_with(suffix) && n.find(".xla_cpu_optimized") == std::string::npos &&
        !hloscope::testing::IsRealSizeSample(n))
      out.push_back(n.substr(0, n.size() - suffix.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, CpuSamples, ::testing::ValuesIn(Samples()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The GPU check's modules (benchmarks/gpu/checked/: the throughput kernels'
// paths, GEMM direct staging and warp-per-row normalization, at sizes the
// interpreter finishes) on random inputs, as tools/gpu_check.sh stages them.
class CpuGpuCheckModules : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuGpuCheckModules, KernelsOnTheCpuMatchTheInterpreter) {
  const std::string path = hloscope::testing::SourceDir() + "/benchmarks/gpu/checked/" + GetParam() + ".hlo";
  auto original = ParseHloFile(path);
  ASSERT_TRUE(original.ok()) << original.status().message();
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileFile(path, "gpu", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  std::vector<Literal> inputs = MakeRandomInputs(*(*original)->entry(), 1);
  auto want = EvaluateModule(**original, inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  auto got = RunOnCpu(compiled->codegen, inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs), "");
}

std::vector<std::string> GpuCheckModules() {
  std::vector<std::string> out;
  for (const auto& e :
       std::filesystem::directory_iterator(hloscope::testing::SourceDir() + "/benchmarks/gpu/checked"))
    if (e.path().extension() == ".hlo") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, CpuGpuCheckModules, ::testing::ValuesIn(GpuCheckModules()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace hloscope::codegen
