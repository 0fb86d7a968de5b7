// Acceptance: every sample, after the gpu pipeline and buffer assignment,
// compiles to one kernel per fusion/remaining instruction whose PTX passes
// `ptxas` for sm_80 and sm_90 (skipped where ptxas is missing).
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/nvptx_backend.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

class SamplesPtx : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SamplesPtx, EveryKernelPassesPtxas) {
  if (PtxasPath().empty()) GTEST_SKIP() << "ptxas not found";
  CodegenOptions opts;
  opts.sm = std::get<1>(GetParam());
  opts.validate = true;
  auto r = CompileFile(hloscope::testing::SamplesDir() + "/" + std::get<0>(GetParam()) + ".hlo", "gpu", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->codegen.kernels.empty());
  for (size_t i = 0; i < r->codegen.kernels.size(); ++i) {
    const KernelCode& k = r->codegen.CodeOf(i);  // a launch that shares a kernel: the kernel's code
    EXPECT_EQ(k.kernel, r->codegen.kernels[i].kernel) << r->codegen.kernels[i].name;
    EXPECT_NE(k.ptx.find(".entry " + k.kernel), std::string::npos) << k.name;
    EXPECT_FALSE(k.ir.empty());
  }
}


INSTANTIATE_TEST_SUITE_P(All, SamplesPtx,
                         ::testing::Combine(::testing::ValuesIn(hloscope::testing::SampleStems()),
                                            ::testing::Values("sm_80", "sm_90")),
                         [](const auto& i) { return std::get<0>(i.param) + "_" + std::get<1>(i.param); });

}  // namespace
}  // namespace hloscope::codegen
