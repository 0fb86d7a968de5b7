// On a GPU: every sample's kernels (PTX through the CUDA driver) agree with
// the reference interpreter. Skips when there is no driver or device.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/parser/parser.h"
#include "core/runtime/cuda_driver.h"
#include "core/runtime/cuda_executor.h"
#include "core/runtime/plan_io.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

class GpuSamples : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuSamples, KernelsOnTheGpuMatchTheInterpreter) {
  auto driver = runtime::LoadCudaDriver();
  if (!driver.ok()) GTEST_SKIP() << driver.status().message();
  std::string base = hloscope::testing::SamplesDir() + "/" + GetParam();
  auto original = ParseHloFile(base + ".hlo");
  ASSERT_TRUE(original.ok()) << original.status().message();
  auto compiled = codegen::CompileFile(base + ".hlo", "gpu", {});
  // Every sample compiles today; a regression must fail here, not skip.
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto data = ReadDataFile(base + ".data.json");
  ASSERT_TRUE(data.ok()) << data.status().message();
  auto want = EvaluateModule(**original, data->inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  std::vector<runtime::BundleKernel> ks;
  for (const codegen::KernelCode& k : compiled->codegen.kernels)
    if (k.same_as < 0) ks.push_back({k.kernel, "", k.ptx, ""});
  runtime::CudaRunOptions opts;
  opts.copy_probe_bytes = 0;
  auto got = runtime::RunOnCuda(compiled->codegen.plan, ks, data->inputs, opts);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs), "");
}

std::vector<std::string> Samples() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(hloscope::testing::SamplesDir())) {
    std::string n = e.path().filename().string();
    // Not the real-size samples: no recorded inputs, no interpreter run at their sizes.
    if (n.ends_with(".hlo") && n.find(".xla_cpu_optimized") == std::string::npos && !hloscope::testing::IsRealSizeSample(n))
      out.push_back(n.substr(0, n.size() - 4));
  }
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, GpuSamples, ::testing::ValuesIn(Samples()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace hloscope
