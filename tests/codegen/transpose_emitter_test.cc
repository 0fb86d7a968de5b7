#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

TEST(TransposeEmitter, MinorDimSwapIsTiled) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  p = f32[3,70,45]{2,1,0} parameter(0)
  ROOT t = f32[3,45,70]{2,1,0} transpose(p), dimensions={0,2,1}
})hlo";
  auto e = EmitFor(text, "t", &EmitTransposeKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "transpose");
  EXPECT_EQ(e.kernel.dims.grid[0], 3u * 2 * 3);
  EXPECT_NE(e.ir.find("barrier"), std::string::npos);
}

TEST(TransposeEmitter, LayoutChangingTransposeThatKeepsTheMinorDimIsACopy) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  p = f32[4,8,16]{2,1,0} parameter(0)
  ROOT t = f32[8,4,16]{2,1,0} transpose(p), dimensions={1,0,2}
})hlo";
  auto e = EmitFor(text, "t", &EmitTransposeKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "loop");
}


// --- executed on the CPU against the interpreter -------------------------

class TransposeRun : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(TransposeRun, MatchesTheInterpreterOnTheCpu) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().second, 2, &kinds), "");
}

std::string Tr(const std::string& in, const std::string& out, const std::string& perm) {
  return "HloModule m\nENTRY e {\n  p = " + in + " parameter(0)\n  ROOT t = " + out + " transpose(p), dimensions={" +
         perm + "}\n}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TransposeRun,
    ::testing::Values(std::make_pair("rank3", Tr("f32[3,70,45]{2,1,0}", "f32[3,45,70]{2,1,0}", "0,2,1")),
                      std::make_pair("rank2_bf16", Tr("bf16[33,65]{1,0}", "bf16[65,33]{1,0}", "1,0")),
                      std::make_pair("rank4", Tr("f32[2,40,3,36]{3,2,1,0}", "f32[36,3,2,40]{3,2,1,0}", "3,2,0,1")),
                      std::make_pair("layout_copy", Tr("f32[40,48]{1,0}", "f32[48,40]{0,1}", "1,0"))),
    [](const auto& i) { return std::string(i.param.first); });

}  // namespace
}  // namespace hloscope::codegen
