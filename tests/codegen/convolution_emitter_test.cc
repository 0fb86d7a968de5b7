#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

TEST(ConvolutionEmitter, StridedPaddedNhwc) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  x = f32[2,7,7,3]{3,2,1,0} parameter(0)
  w = f32[3,3,3,8]{3,2,1,0} parameter(1)
  ROOT c = f32[2,4,4,8]{3,2,1,0} convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})hlo";
  auto e = EmitFor(text, "c", &EmitConvolutionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "convolution");
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);  // 256 outputs, 256 threads a block
}

TEST(ConvolutionEmitter, GroupedDilatedConvolution) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  x = f32[1,4,9,9]{3,2,1,0} parameter(0)
  w = f32[6,2,3,3]{3,2,1,0} parameter(1)
  ROOT c = f32[1,6,9,9]{3,2,1,0} convolution(x, w), window={size=3x3 pad=2_2x2_2 rhs_dilate=2x2}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})hlo";
  auto e = EmitFor(text, "c", &EmitConvolutionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
}

TEST(ConvolutionEmitter, BadFeatureGroupCountIsAnError) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  x = f32[1,4,9,9]{3,2,1,0} parameter(0)
  w = f32[6,4,3,3]{3,2,1,0} parameter(1)
  ROOT c = f32[1,6,7,7]{3,2,1,0} convolution(x, w), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=4
})hlo";
  auto e = EmitFor(text, "c", &EmitConvolutionKernel);
  EXPECT_NE(e.error, "");
}


// --- executed on the CPU against the interpreter -------------------------

class ConvRun : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(ConvRun, MatchesTheInterpreterOnTheCpu) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().second, 9, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"convolution"});
}

std::string Conv(const std::string& x, const std::string& w, const std::string& out, const std::string& attrs) {
  return "HloModule m\nENTRY e {\n  x = " + x + " parameter(0)\n  w = " + w + " parameter(1)\n  ROOT c = " + out +
         " convolution(x, w), " + attrs + "\n}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvRun,
    ::testing::Values(
        std::make_pair("nhwc_strided", Conv("f32[2,7,7,3]{3,2,1,0}", "f32[3,3,3,8]{3,2,1,0}", "f32[2,4,4,8]{3,2,1,0}",
                                            "window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f")),
        std::make_pair("grouped_rhs_dilated",
                       Conv("f32[1,4,9,9]{3,2,1,0}", "f32[6,2,3,3]{3,2,1,0}", "f32[1,6,9,9]{3,2,1,0}",
                            "window={size=3x3 pad=2_2x2_2 rhs_dilate=2x2}, dim_labels=bf01_oi01->bf01, "
                            "feature_group_count=2")),
        std::make_pair("lhs_dilated_reversed", Conv("f32[1,5,2]{2,1,0}", "f32[3,2,4]{2,1,0}", "f32[1,11,4]{2,1,0}",
                                                     "window={size=3 pad=2_2 lhs_dilate=2 rhs_reversal=1}, dim_labels=b0f_0io->b0f")),
        std::make_pair("batch_group", Conv("f32[4,6,3]{2,1,0}", "f32[3,3,4]{2,1,0}", "f32[2,4,4]{2,1,0}",
                                           "window={size=3}, dim_labels=b0f_0io->b0f, batch_group_count=2")),
        std::make_pair("bf16_1x1", Conv("bf16[2,4,4,8]{3,2,1,0}", "bf16[1,1,8,5]{3,2,1,0}", "bf16[2,4,4,5]{3,2,1,0}",
                                        "window={size=1x1}, dim_labels=b01f_01io->b01f"))),
    [](const auto& i) { return std::string(i.param.first); });

}  // namespace
}  // namespace hloscope::codegen
