// dot with general dimension numbers, ragged-dot, scaled-dot and convolution variants.
#include <cmath>
#include <limits>

#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

TEST(EvalDot, MatMul) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})", {Lit("f32[2,3]", {1, 2, 3, 4, 5, 6}), Lit("f32[3,2]", {7, 8, 9, 10, 11, 12})});
  EXPECT_EQ(Vals(r), (std::vector<double>{58, 64, 139, 154}));
}

TEST(EvalDot, BatchAndTransposedContraction) {
  // out[b,i,j] = sum_k a[b,k,i] * c[j,b,k]
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,2,1] parameter(0)
  c = f32[1,2,2] parameter(1)
  ROOT d = f32[2,1,1] dot(a, c), lhs_batch_dims={0}, rhs_batch_dims={1}, lhs_contracting_dims={1}, rhs_contracting_dims={2}
})", {Lit("f32[2,2,1]", {1, 2, 3, 4}), Lit("f32[1,2,2]", {5, 6, 7, 8})});
  EXPECT_EQ(Vals(r), (std::vector<double>{1 * 5 + 2 * 6, 3 * 7 + 4 * 8}));
}

TEST(EvalDot, VectorAndMixedTypes) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = s8[3] parameter(0)
  b = s8[3] parameter(1)
  ROOT d = s32[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
})", {Lit("s8[3]", {100, 100, -128}), Lit("s8[3]", {100, 100, 1})});
  EXPECT_EQ(Ints(r), (std::vector<int64_t>{19872}));
  Literal o = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2] parameter(0)
  b = f32[3] parameter(1)
  ROOT d = f32[2,3] dot(a, b)
})", {Lit("f32[2]", {1, 2}), Lit("f32[3]", {3, 4, 5})});
  EXPECT_EQ(Vals(o), (std::vector<double>{3, 4, 5, 6, 8, 10}));
}

TEST(EvalDot, BF16AccumulatesInF32) {
  // 256 + 1 + 1 in f32 is 258, representable in bf16; per-step bf16
  // rounding would give 256.
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = bf16[1,3] parameter(0)
  b = bf16[3,1] parameter(1)
  ROOT d = bf16[1,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})", {Lit("bf16[1,3]", {256, 1, 1}), Lit("bf16[3,1]", {1, 1, 1})});
  EXPECT_EQ(Vals(r), (std::vector<double>{258}));
}

// A dot over one element sums its product from +0 (a -0 product gives +0),
// a multiply keeps -0; without signed zeros, both results read +0, and a
// later divide gives the same infinity (the differential checks' fallback).
TEST(EvalDot, SignedZerosOptionMakesMinusZeroPlusZero) {
  const char* kHlo = R"(HloModule t
ENTRY e {
  a = f32[1,1] parameter(0)
  b = f32[1,1] parameter(1)
  d = f32[1,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  m = f32[1,1] multiply(a, b)
  one = f32[1,1] constant({{1}})
  x = f32[1,1] divide(one, d)
  y = f32[1,1] divide(one, m)
  ROOT t = (f32[1,1], f32[1,1]) tuple(x, y)
})";
  std::vector<Literal> args = {Lit("f32[1,1]", {0}), Lit("f32[1,1]", {-1})};
  Literal r = MustRun(kHlo, args);
  ASSERT_EQ(r.tuple_elements().size(), 2u);
  EXPECT_EQ(r.tuple_elements()[0].GetDouble(0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.tuple_elements()[1].GetDouble(0), -std::numeric_limits<double>::infinity());
  EvalOptions nsz;
  nsz.signed_zeros = false;
  auto r2 = RunHlo(kHlo, args, nsz);
  ASSERT_TRUE(r2.ok()) << r2.status().message();
  EXPECT_EQ(r2->tuple_elements()[0].GetDouble(0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(r2->tuple_elements()[1].GetDouble(0), std::numeric_limits<double>::infinity());
}

// Constant folding evaluates one instruction at a time: inside an
// UnsignedZerosScope its default options read -0 as +0 too, and the scope
// ends with the default restored.
TEST(EvalDot, UnsignedZerosScopeSetsTheDefault) {
  auto m = ParseHloModule(R"(HloModule t
ENTRY e {
  a = f32[] constant(-0.75)
  b = f32[] constant(0)
  ROOT m = f32[] multiply(a, b)
})", "t.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const Instruction& mul = *(*m)->entry()->root();
  Literal a = Lit("f32[]", {-0.75}), b = Lit("f32[]", {0});
  EXPECT_TRUE(EvalOptions{}.signed_zeros);
  auto signed_r = EvaluateInstruction(mul, {&a, &b});
  ASSERT_TRUE(signed_r.ok());
  EXPECT_TRUE(std::signbit(signed_r->GetDouble(0)));
  {
    UnsignedZerosScope scope;
    EXPECT_FALSE(EvalOptions{}.signed_zeros);
    auto r = EvaluateInstruction(mul, {&a, &b});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->GetDouble(0), 0.0);
    EXPECT_FALSE(std::signbit(r->GetDouble(0)));
  }
  EXPECT_TRUE(EvalOptions{}.signed_zeros);
}

TEST(EvalConv, Simple1D) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[1,1,5] parameter(0)
  k = f32[1,1,3] parameter(1)
  ROOT c = f32[1,1,3] convolution(x, k), window={size=3}, dim_labels=bf0_oi0->bf0
})", {Lit("f32[1,1,5]", {1, 2, 3, 4, 5}), Lit("f32[1,1,3]", {1, 0, -1})});
  EXPECT_EQ(Vals(r), (std::vector<double>{-2, -2, -2}));
}

TEST(EvalConv, PaddingStrideDilationReversal) {
  Literal p = MustRun(R"(HloModule t
ENTRY e {
  x = f32[1,1,4] parameter(0)
  k = f32[1,1,2] parameter(1)
  ROOT c = f32[1,1,3] convolution(x, k), window={size=2 stride=2 pad=1_1}, dim_labels=bf0_oi0->bf0
})", {Lit("f32[1,1,4]", {1, 2, 3, 4}), Lit("f32[1,1,2]", {10, 1})});
  // padded: 0 1 2 3 4 0 ; windows at 0,2,4: (0,1)->1 (2,3)->23 (4,0)->40
  EXPECT_EQ(Vals(p), (std::vector<double>{1, 23, 40}));
  Literal d = MustRun(R"(HloModule t
ENTRY e {
  x = f32[1,1,5] parameter(0)
  k = f32[1,1,2] parameter(1)
  ROOT c = f32[1,1,3] convolution(x, k), window={size=2 rhs_dilate=2}, dim_labels=bf0_oi0->bf0
})", {Lit("f32[1,1,5]", {1, 2, 3, 4, 5}), Lit("f32[1,1,2]", {1, 10})});
  EXPECT_EQ(Vals(d), (std::vector<double>{31, 42, 53}));
  Literal l = MustRun(R"(HloModule t
ENTRY e {
  x = f32[1,1,2] parameter(0)
  k = f32[1,1,2] parameter(1)
  ROOT c = f32[1,1,4] convolution(x, k), window={size=2 pad=1_1 lhs_dilate=2 rhs_reversal=1}, dim_labels=bf0_oi0->bf0
})", {Lit("f32[1,1,2]", {1, 2}), Lit("f32[1,1,2]", {10, 1})});
  // dilated+padded input: 0 1 0 2 0 ; reversed kernel (1,10)
  EXPECT_EQ(Vals(l), (std::vector<double>{10, 1, 20, 2}));
}

TEST(EvalConv, FeatureGroups2D) {
  // Depthwise: 2 input features, 2 groups, each output feature sees one.
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[1,2,2,2] parameter(0)
  k = f32[1,1,1,2] parameter(1)
  ROOT c = f32[1,2,2,2] convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=2
})", {Lit("f32[1,2,2,2]", {1, 2, 3, 4, 5, 6, 7, 8}), Lit("f32[1,1,1,2]", {10, 100})});
  EXPECT_EQ(Vals(r), (std::vector<double>{10, 200, 30, 400, 50, 600, 70, 800}));
}

TEST(EvalConv, BatchGroups) {
  // batch_group_count=2: output feature f uses input batch f (weight gradient form).
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[2,1,3] parameter(0)
  k = f32[2,1,3] parameter(1)
  ROOT c = f32[1,2,1] convolution(x, k), window={size=3}, dim_labels=bf0_oi0->bf0, batch_group_count=2
})", {Lit("f32[2,1,3]", {1, 2, 3, 4, 5, 6}), Lit("f32[2,1,3]", {1, 1, 1, 1, 0, 0})});
  EXPECT_EQ(Vals(r), (std::vector<double>{6, 4}));
}

TEST(EvalConv, NHWCInputHWIOKernel) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[1,3,3,1] parameter(0)
  k = f32[2,2,1,1] parameter(1)
  ROOT c = f32[1,2,2,1] convolution(x, k), window={size=2x2}, dim_labels=b01f_01io->b01f
})", {Lit("f32[1,3,3,1]", {1, 2, 3, 4, 5, 6, 7, 8, 9}), Lit("f32[2,2,1,1]", {1, 0, 0, 1})});
  EXPECT_EQ(Vals(r), (std::vector<double>{6, 8, 12, 14}));
}

}  // namespace
// ragged-dot, worked by hand. Non-contracting mode (a mixture-of-experts
// layer): rows 0 | 1–2 go to groups 0 | 1 (sizes {1,2}); group 0's matrix
// sums a row, group 1's takes the difference; row 3 is in no group: 0.
TEST(EvalRaggedDot, EachRowUsesItsGroupsMatrix) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[4,2] parameter(0)
  w = f32[2,2,1] parameter(1)
  g = s32[2] parameter(2)
  ROOT d = f32[4,1] ragged-dot(x, w, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
})", {Lit("f32[4,2]", {1, 2, 3, 4, 5, 6, 7, 8}), Lit("f32[2,2,1]", {1, 1, 1, -1}), Lit("s32[2]", {1, 2})});
  EXPECT_EQ(Vals(r), (std::vector<double>{3, -1, -1, 0}));
}

// Contracting mode (the weight gradient): group g sums its own range of k,
// k ∈ [0,1) and [1,3); k = 3 is in no group.
TEST(EvalRaggedDot, EachGroupContractsItsOwnRange) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[2,4] parameter(0)
  y = f32[4,1] parameter(1)
  g = s64[2] parameter(2)
  ROOT d = f32[2,2,1] ragged-dot(x, y, g), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1}
})", {Lit("f32[2,4]", {1, 2, 3, 4, 5, 6, 7, 8}), Lit("f32[4,1]", {1, 1, 1, 1}), Lit("s64[2]", {1, 2})});
  EXPECT_EQ(Vals(r), (std::vector<double>{1, 5, 2 + 3, 6 + 7}));
}

// Batch mode: batches at or past the groups' total (2) are zero.
TEST(EvalRaggedDot, BatchesPastTheTotalAreZero) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[3,1,2] parameter(0)
  y = f32[3,2,1] parameter(1)
  g = s32[2] parameter(2)
  ROOT d = f32[3,1,1] ragged-dot(x, y, g), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}, lhs_ragged_dims={0}
})", {Lit("f32[3,1,2]", {1, 1, 1, 1, 1, 1}), Lit("f32[3,2,1]", {1, 1, 2, 2, 3, 3}), Lit("s32[2]", {1, 1})});
  EXPECT_EQ(Vals(r), (std::vector<double>{2, 4, 0}));
}

// Group sizes per index of the lhs dimension before the ragged one (the
// corpus's ragged_dot-1.hlo has s64[19,3] for lhs [19,11,5]): for x's row 0
// the groups are {1,2}, for row 1 {3,0}.
TEST(EvalRaggedDot, GroupSizesIndexedByTheDimensionsBeforeTheRaggedOne) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[2,3,1] parameter(0)
  w = f32[2,1,1] parameter(1)
  g = s64[2,2] parameter(2)
  ROOT d = f32[2,3,1] ragged-dot(x, w, g), lhs_contracting_dims={2}, rhs_contracting_dims={1}, lhs_ragged_dims={1}, rhs_group_dims={0}
})", {Lit("f32[2,3,1]", {1, 1, 1, 1, 1, 1}), Lit("f32[2,1,1]", {10, 100}), Lit("s64[2,2]", {1, 2, 3, 0})});
  EXPECT_EQ(Vals(r), (std::vector<double>{10, 100, 100, 10, 10, 10}));
}

// scaled-dot: each scale element covers a block of its operand (the lhs's
// [1,4] in blocks of 2, scales 2 and 3); a bf16 scale of rank 0 is no scale.
TEST(EvalScaledDot, BlocksOfAnOperandShareOneScale) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = bf16[1,4] parameter(0)
  y = bf16[4,1] parameter(1)
  xs = f32[1,2] parameter(2)
  ys = bf16[] parameter(3)
  ROOT d = f32[1,1] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})", {Lit("bf16[1,4]", {1, 1, 1, 1}), Lit("bf16[4,1]", {1, 2, 1, 1}), Lit("f32[1,2]", {2, 3}), Lit("bf16[]", {7})});
  EXPECT_EQ(Vals(r), (std::vector<double>{2 * 1 + 2 * 2 + 3 + 3}));
}

// MX-style operands: f8e4m3fn values, f8e8m0fnu (power-of-two) scales.
TEST(EvalScaledDot, Float8ValuesAndPowerOfTwoScales) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f8e4m3fn[1,2] parameter(0)
  y = f8e4m3fn[2,1] parameter(1)
  xs = f8e8m0fnu[1,1] parameter(2)
  ys = f8e8m0fnu[1,1] parameter(3)
  ROOT d = bf16[1,1] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})", {Lit("f8e4m3fn[1,2]", {1.5, -2}), Lit("f8e4m3fn[2,1]", {1, 3}), Lit("f8e8m0fnu[1,1]", {4}),
      Lit("f8e8m0fnu[1,1]", {0.5})});
  EXPECT_EQ(Vals(r), (std::vector<double>{1.5 * 4 * 0.5 + -2 * 4 * 3 * 0.5}));
}

}  // namespace hloscope::testing
