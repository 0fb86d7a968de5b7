// broadcast, reshape, bitcast (layout-aware), transpose, reverse, slice,
// concatenate, pad, dynamic-slice and dynamic-update-slice.
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

Literal Iota(std::string_view shape) {
  auto s = ParseShape(shape);
  std::vector<double> v(s->num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return Lit(shape, v);
}

TEST(EvalDataMovement, BroadcastTransposeReverse) {
  Literal b = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2] parameter(0)
  ROOT b = f32[2,3] broadcast(a), dimensions={0}
})", {Lit("f32[2]", {1, 2})});
  EXPECT_EQ(Vals(b), (std::vector<double>{1, 1, 1, 2, 2, 2}));
  Literal s = MustRun("HloModule t\nENTRY e {\n  c = s32[] constant(7)\n  ROOT b = s32[2,2] broadcast(c), dimensions={}\n}\n");
  EXPECT_EQ(Ints(s), (std::vector<int64_t>{7, 7, 7, 7}));
  Literal t = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,3] parameter(0)
  ROOT t = f32[3,2] transpose(a), dimensions={1,0}
})", {Iota("f32[2,3]")});
  EXPECT_EQ(Vals(t), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,3] parameter(0)
  ROOT r = f32[2,3] reverse(a), dimensions={1}
})", {Iota("f32[2,3]")});
  EXPECT_EQ(Vals(r), (std::vector<double>{2, 1, 0, 5, 4, 3}));
}

TEST(EvalDataMovement, SliceWithStrides) {
  Literal s = MustRun(R"(HloModule t
ENTRY e {
  a = f32[3,5] parameter(0)
  ROOT s = f32[2,2] slice(a), slice={[0:3:2], [1:5:3]}
})", {Iota("f32[3,5]")});
  EXPECT_EQ(Vals(s), (std::vector<double>{1, 4, 11, 14}));
}

TEST(EvalDataMovement, ConcatenateAndEmpty) {
  Literal c = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,1] parameter(0)
  b = f32[2,0] parameter(1)
  c = f32[2,2] parameter(2)
  ROOT r = f32[2,3] concatenate(a, b, c), dimensions={1}
})", {Lit("f32[2,1]", {1, 2}), Lit("f32[2,0]", {}), Lit("f32[2,2]", {3, 4, 5, 6})});
  EXPECT_EQ(Vals(c), (std::vector<double>{1, 3, 4, 2, 5, 6}));
}

TEST(EvalDataMovement, PadNegativeAndInterior) {
  Literal p = MustRun(R"(HloModule t
ENTRY e {
  a = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[6] pad(a, z), padding=1_0_1
})", {Lit("f32[3]", {1, 2, 3})});
  EXPECT_EQ(Vals(p), (std::vector<double>{0, 1, 0, 2, 0, 3}));
  Literal n = MustRun(R"(HloModule t
ENTRY e {
  a = f32[4] parameter(0)
  z = f32[] constant(9)
  ROOT p = f32[6] pad(a, z), padding=-2_1_1
})", {Lit("f32[4]", {1, 2, 3, 4})});
  // interior: 1 9 2 9 3 9 4 ; drop 2 low, add 1 high -> 2 9 3 9 4 9
  EXPECT_EQ(Vals(n), (std::vector<double>{2, 9, 3, 9, 4, 9}));
  Literal m = MustRun(R"(HloModule t
ENTRY e {
  a = s32[2,2] parameter(0)
  z = s32[] constant(-1)
  ROOT p = s32[3,1] pad(a, z), padding=1_0x0_-1
})", {Lit("s32[2,2]", {1, 2, 3, 4})});
  EXPECT_EQ(Ints(m), (std::vector<int64_t>{-1, 1, 3}));
}

TEST(EvalDataMovement, DynamicSliceClampsStarts) {
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[4,3] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  ROOT d = f32[2,2] dynamic-slice(a, i, j), dynamic_slice_sizes={2,2}
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Iota("f32[4,3]"), Lit("s32[]", {1}), Lit("s32[]", {0})})), (std::vector<double>{3, 4, 6, 7}));
  EXPECT_EQ(Vals(MustRun(hlo, {Iota("f32[4,3]"), Lit("s32[]", {10}), Lit("s32[]", {-5})})), (std::vector<double>{6, 7, 9, 10}));
}

TEST(EvalDataMovement, DynamicUpdateSliceClampsStarts) {
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[3,3] parameter(0)
  u = f32[2,2] parameter(1)
  i = u32[] parameter(2)
  j = u32[] parameter(3)
  ROOT d = f32[3,3] dynamic-update-slice(a, u, i, j)
})";
  Literal r = MustRun(hlo, {Lit("f32[3,3]", {0, 0, 0, 0, 0, 0, 0, 0, 0}), Lit("f32[2,2]", {1, 2, 3, 4}), Lit("u32[]", {5}),
                            Lit("u32[]", {0})});
  EXPECT_EQ(Vals(r), (std::vector<double>{0, 0, 0, 1, 2, 0, 3, 4, 0}));
}

TEST(EvalDataMovement, ReshapeAndLayoutFreeCopy) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,3]{0,1} parameter(0)
  c = f32[2,3]{1,0} copy(a)
  ROOT r = f32[3,2] reshape(c)
})", {Iota("f32[2,3]")});
  EXPECT_EQ(Vals(r), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST(EvalDataMovement, BitcastFollowsLayouts) {
  // f32[2,3]{0,1} stores column-major: 0 3 1 4 2 5. Reading those bytes as
  // f32[3,2]{1,0} gives the transpose.
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,3]{0,1} parameter(0)
  ROOT b = f32[3,2]{1,0} bitcast(a)
})", {Iota("f32[2,3]")});
  EXPECT_EQ(Vals(r), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  Literal same = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  ROOT b = f32[6]{0} bitcast(a)
})", {Iota("f32[2,3]")});
  EXPECT_EQ(Vals(same), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

}  // namespace
}  // namespace hloscope::testing
