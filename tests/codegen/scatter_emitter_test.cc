#include <algorithm>
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

constexpr const char* kScatterAdd = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  op = f32[50,8]{1,0} parameter(0)
  idx = s32[12,1]{1,0} parameter(1)
  upd = f32[12,8]{1,0} parameter(2)
  ROOT sc = f32[50,8]{1,0} scatter(op, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})hlo";

TEST(ScatterEmitter, InPlaceF32AddUsesAtomicAdd) {
  auto e = EmitFor(kScatterAdd, "sc", &EmitScatterKernel, /*alias_output_to=*/0);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "scatter");
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);
  EXPECT_NE(e.ir.find("atomicrmw fadd"), std::string::npos);
}

TEST(ScatterEmitter, NotAliasedCopiesThenScattersInOneBlock) {
  auto e = EmitFor(kScatterAdd, "sc", &EmitScatterKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);
  EXPECT_EQ(e.kernel.dims.block[0], 1024u);
  EXPECT_NE(e.ir.find("barrier"), std::string::npos);
}

TEST(ScatterEmitter, GeneralCombinerUsesCompareAndSwap) {
  std::string text = R"hlo(
HloModule m
mul { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT s = s32[] multiply(a, b) }
ENTRY e {
  op = s32[10]{0} parameter(0)
  idx = s32[6]{0} parameter(1)
  upd = s32[6]{0} parameter(2)
  ROOT sc = s32[10]{0} scatter(op, idx, upd), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=mul
})hlo";
  auto e = EmitFor(text, "sc", &EmitScatterKernel, 0);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_NE(e.ir.find("cmpxchg"), std::string::npos);
}

TEST(DynamicUpdateSliceEmitter, InPlaceWritesOnlyTheUpdate) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  op = f32[6,2,8]{2,1,0} parameter(0)
  u = f32[1,2,8]{2,1,0} parameter(1)
  i = s32[] parameter(2)
  z = s32[] constant(0)
  ROOT d = f32[6,2,8]{2,1,0} dynamic-update-slice(op, u, i, z, z)
})hlo";
  auto e = EmitFor(text, "d", &EmitDynamicUpdateSliceKernel, 0);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "dynamic-update-slice");
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);  // 16 update elements
  auto copy = EmitFor(text, "d", &EmitDynamicUpdateSliceKernel);
  ASSERT_EQ(copy.error, "") << copy.ir;
  EXPECT_NE(copy.ir.find("dus.operand"), std::string::npos);
}


// --- executed on the CPU against the interpreter -------------------------

class ScatterRun : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(ScatterRun, MatchesTheInterpreterOnTheCpu) {
  EXPECT_EQ(testing::RunAndCompare(GetParam().second, 6), "");
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ScatterRun,
    ::testing::Values(
        std::make_pair("add_rows", std::string(kScatterAdd)),
        std::make_pair("mul_s32_duplicates", std::string(R"hlo(
HloModule m
mul { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT s = s32[] multiply(a, b) }
ENTRY e {
  op = s32[10]{0} parameter(0)
  idx = s32[30]{0} parameter(1)
  upd = s32[30]{0} parameter(2)
  ROOT sc = s32[10]{0} scatter(op, idx, upd), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=mul
})hlo")),
        std::make_pair("window_2d", std::string(R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  op = f32[9,10,4]{2,1,0} parameter(0)
  idx = s32[2,5]{1,0} parameter(1)
  upd = f32[5,3,4]{2,1,0} parameter(2)
  ROOT sc = f32[9,10,4]{2,1,0} scatter(op, idx, upd), update_window_dims={1,2}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=0, to_apply=add
})hlo")),
        std::make_pair("dus", std::string(R"hlo(
HloModule m
ENTRY e {
  op = f32[6,2,8]{2,1,0} parameter(0)
  u = f32[1,2,8]{2,1,0} parameter(1)
  i = s32[] parameter(2)
  z = s32[] constant(0)
  ROOT d = f32[6,2,8]{2,1,0} dynamic-update-slice(op, u, i, z, z)
})hlo")),
        std::make_pair("dus_clamped", std::string(R"hlo(
HloModule m
ENTRY e {
  op = bf16[6,40]{1,0} parameter(0)
  u = bf16[2,33]{1,0} parameter(1)
  i = s32[] constant(100)
  j = s32[] constant(-3)
  ROOT d = bf16[6,40]{1,0} dynamic-update-slice(op, u, i, j)
})hlo"))),
    [](const auto& i) { return std::string(i.param.first); });

// A scatter input fusion (priority fusion puts the producers of indices and
// updates into the scatter's kernel; the operand stays outside, in place).
TEST(ScatterEmitter, FusedIndicesAndUpdates) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
fused {
  op = f32[12,5]{1,0} parameter(0)
  i0 = s32[20]{0} parameter(1)
  u0 = f32[20,5]{1,0} parameter(2)
  c = s32[] constant(3)
  cb = s32[20]{0} broadcast(c), dimensions={}
  idx = s32[20]{0} remainder(i0, cb)
  upd = f32[20,5]{1,0} multiply(u0, u0)
  ROOT sc = f32[12,5]{1,0} scatter(op, idx, upd), to_apply=add, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1
}
ENTRY e {
  p0 = f32[12,5]{1,0} parameter(0)
  op = f32[12,5]{1,0} negate(p0)
  p1 = s32[20]{0} parameter(1)
  p2 = f32[20,5]{1,0} parameter(2)
  ROOT f = f32[12,5]{1,0} fusion(op, p1, p2), kind=kInput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 4, &kinds), "");
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "scatter"), kinds.end());
}

}  // namespace
}  // namespace hloscope::codegen
