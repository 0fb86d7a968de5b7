// Acceptance: every sample, after the gpu pipeline and buffer assignment,
// compiles to one kernel per fusion/remaining instruction whose PTX passes
// `ptxas -arch=sm_90` (skipped where ptxas is missing).
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/nvptx_backend.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

class SamplesPtx : public ::testing::TestWithParam<std::string> {};

TEST_P(SamplesPtx, EveryKernelPassesPtxas) {
  if (PtxasPath().empty()) GTEST_SKIP() << "ptxas not found";
  CodegenOptions opts;
  opts.sm = "sm_90";
  opts.validate = true;
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/" + GetParam() + ".hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->codegen.kernels.empty());
  for (size_t i = 0; i < r->codegen.kernels.size(); ++i) {
    const KernelCode& k = r->codegen.CodeOf(i);  // a launch that shares a kernel: the kernel's code
    EXPECT_EQ(k.kernel, r->codegen.kernels[i].kernel) << r->codegen.kernels[i].name;
    EXPECT_NE(k.ptx.find(".entry " + k.kernel), std::string::npos) << k.name;
    EXPECT_FALSE(k.ir.empty());
  }
}


INSTANTIATE_TEST_SUITE_P(All, SamplesPtx, ::testing::ValuesIn(hloscope::testing::SampleStems()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace hloscope::codegen
