#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

TEST(SortEmitter, KeyValueRowsInOneBlockEach) {
  std::string text = R"hlo(
HloModule m
cmp {
  a = f32[] parameter(0)  b = f32[] parameter(1)  c = s32[] parameter(2)  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = f32[5,37]{1,0} parameter(0)
  v = s32[5,37]{1,0} parameter(1)
  ROOT s = (f32[5,37]{1,0}, s32[5,37]{1,0}) sort(k, v), dimensions={1}, is_stable=true, to_apply=cmp
})hlo";
  auto e = EmitFor(text, "s", &EmitSortKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "sort");
  EXPECT_EQ(e.kernel.dims.grid[0], 5u);
  EXPECT_EQ(e.kernel.dims.block[0], 32u);  // 64 padded / 2
}

TEST(SortEmitter, RowsTooLongForSharedMemoryAreNamed) {
  std::string text = R"hlo(
HloModule m
cmp { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT lt = pred[] compare(a, b), direction=LT }
ENTRY e {
  k = f32[100000]{0} parameter(0)
  ROOT s = f32[100000]{0} sort(k), dimensions={0}, to_apply=cmp
})hlo";
  auto e = EmitFor(text, "s", &EmitSortKernel);
  EXPECT_NE(e.error.find("do not fit"), std::string::npos) << e.error;
}


// --- executed on the CPU against the interpreter -------------------------

class SortRun : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(SortRun, MatchesTheInterpreterOnTheCpu) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().second, 4, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"sort"});
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SortRun,
    ::testing::Values(
        std::make_pair("key_value_stable", std::string(R"hlo(
HloModule m
cmp {
  a = s32[] parameter(0)  b = s32[] parameter(1)  c = f32[] parameter(2)  d = f32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = s32[5,37]{1,0} parameter(0)
  v = f32[5,37]{1,0} parameter(1)
  ROOT s = (s32[5,37]{1,0}, f32[5,37]{1,0}) sort(k, v), dimensions={1}, is_stable=true, to_apply=cmp
})hlo")),
        std::make_pair("descending_dim0", std::string(R"hlo(
HloModule m
cmp { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT gt = pred[] compare(a, b), direction=GT }
ENTRY e {
  k = f32[300,3]{1,0} parameter(0)
  ROOT s = f32[300,3]{1,0} sort(k), dimensions={0}, to_apply=cmp
})hlo")),
        std::make_pair("long_row", std::string(R"hlo(
HloModule m
cmp { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT lt = pred[] compare(a, b), direction=LT }
ENTRY e {
  k = f32[2,3000]{1,0} parameter(0)
  ROOT s = f32[2,3000]{1,0} sort(k), dimensions={1}, to_apply=cmp
})hlo"))),
    [](const auto& i) { return std::string(i.param.first); });

}  // namespace
}  // namespace hloscope::codegen
