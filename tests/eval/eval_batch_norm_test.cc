// batch-norm-training, -inference and -grad, against values worked by hand
// and, for the gradient, against the textbook formula in double.
#include <cmath>

#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

// Features in dimension 1: feature 0 holds 1, 3 (mean 2, variance 1),
// feature 1 holds 2, 6 (mean 4, variance 4).
TEST(EvalBatchNorm, TrainingGivesTheOutputMeanAndVariance) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[2,2] parameter(0)
  s = f32[2] parameter(1)
  o = f32[2] parameter(2)
  ROOT b = (f32[2,2], f32[2], f32[2]) batch-norm-training(x, s, o), epsilon=0, feature_index=1
})", {Lit("f32[2,2]", {1, 2, 3, 6}), Lit("f32[2]", {1, 2}), Lit("f32[2]", {0, 1})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{-1, -1, 1, 3}));
  EXPECT_EQ(Vals(r.tuple_elements()[1]), (std::vector<double>{2, 4}));
  EXPECT_EQ(Vals(r.tuple_elements()[2]), (std::vector<double>{1, 4}));
}

TEST(EvalBatchNorm, InferenceUsesTheGivenMeanAndVariance) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[2,2] parameter(0)
  s = f32[2] parameter(1)
  o = f32[2] parameter(2)
  m = f32[2] parameter(3)
  v = f32[2] parameter(4)
  ROOT b = f32[2,2] batch-norm-inference(x, s, o, m, v), epsilon=0, feature_index=1
})", {Lit("f32[2,2]", {1, 2, 3, 6}), Lit("f32[2]", {1, 2}), Lit("f32[2]", {0, 1}), Lit("f32[2]", {2, 4}),
      Lit("f32[2]", {1, 4})});
  EXPECT_EQ(Vals(r), (std::vector<double>{-1, -1, 1, 3}));
}

// dx = scale / sqrt(var + ε) · (dy − mean(dy) − (x − mean)·mean(dy·(x − mean)) / (var + ε)),
// dscale = Σ dy·(x − mean) / sqrt(var + ε), doffset = Σ dy.
TEST(EvalBatchNorm, GradMatchesTheTextbookFormula) {
  const std::vector<double> x = {1, 2, 4}, dy = {1, -1, 0.5};
  const double scale = 2, eps = 0.25, mean = 7.0 / 3, var = 21.0 / 3 - mean * mean;
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[3,1] parameter(0)
  s = f32[1] parameter(1)
  m = f32[1] parameter(2)
  v = f32[1] parameter(3)
  dy = f32[3,1] parameter(4)
  ROOT g = (f32[3,1], f32[1], f32[1]) batch-norm-grad(x, s, m, v, dy), epsilon=0.25, feature_index=1
})", {Lit("f32[3,1]", x), Lit("f32[1]", {scale}), Lit("f32[1]", {mean}), Lit("f32[1]", {var}), Lit("f32[3,1]", dy)});
  ASSERT_TRUE(r.IsTuple());
  double mean_dy = 0, mean_dyc = 0;
  for (int i = 0; i < 3; ++i) {
    mean_dy += dy[i] / 3;
    mean_dyc += dy[i] * (x[i] - mean) / 3;
  }
  const double inv = 1 / std::sqrt(var + eps);
  for (int i = 0; i < 3; ++i) {
    const double want = scale * inv * (dy[i] - mean_dy - (x[i] - mean) * mean_dyc / (var + eps));
    EXPECT_NEAR(r.tuple_elements()[0].GetDouble(i), want, 1e-5) << i;
  }
  EXPECT_NEAR(r.tuple_elements()[1].GetDouble(0), 3 * mean_dyc * inv, 1e-5);
  EXPECT_NEAR(r.tuple_elements()[2].GetDouble(0), 0.5, 1e-6);
}

TEST(EvalBatchNorm, IntegerOperandsAreRefusedWithAReason) {
  auto r = RunHlo(R"(HloModule t
ENTRY e {
  x = s32[2,2] parameter(0)
  s = s32[2] parameter(1)
  o = s32[2] parameter(2)
  ROOT b = (s32[2,2], s32[2], s32[2]) batch-norm-training(x, s, o), epsilon=0, feature_index=1
})", {Lit("s32[2,2]", {1, 2, 3, 4}), Lit("s32[2]", {1, 1}), Lit("s32[2]", {0, 0})});
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace hloscope::testing
