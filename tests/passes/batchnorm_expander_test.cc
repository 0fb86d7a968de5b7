// batchnorm_expander: each batch-norm op becomes its arithmetic, checked by the
// differential checker against the interpreter's own reading of the
// definition (core/eval/eval_batch_norm.cc), for each op, feature dimension,
// element type and a non-default layout, and through the whole `gpu` pipeline.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

void ExpectExpanded(const PassRun& r, const char* rule) {
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable) << "the differential checker could not run the module";
  EXPECT_TRUE(r.Applied(rule)) << ::testing::PrintToString(r.rules);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kBatchNormTraining) + CountOpcode(*r.module, Opcode::kBatchNormInference) +
                CountOpcode(*r.module, Opcode::kBatchNormGrad),
            0)
      << r.text();
}

constexpr const char* kTraining =
    "batch-norm-training → per-feature mean and variance (E[x²] − E[x]²), normalize, scale, shift";

// A convolution's output in NCHW, features in dimension 1: two reductions
// per feature (Σx, Σx²).
TEST(BatchNormExpanderTest, TrainingReducesEachFeatureTwice) {
  PassRun r = RunPass("batchnorm_expander",
                      Module1("  x = f32[4,3,5,5] parameter(0)\n  s = f32[3] parameter(1)\n  o = f32[3] parameter(2)\n"
                              "  ROOT b = (f32[4,3,5,5], f32[3], f32[3]) batch-norm-training(x, s, o), "
                              "epsilon=0.001, feature_index=1"));
  ExpectExpanded(r, kTraining);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kReduce), 2) << r.text();
  EXPECT_EQ(r.root()->opcode(), Opcode::kTuple);
}

// NHWC in bf16 with a column-major layout: the result keeps the layout.
TEST(BatchNormExpanderTest, TrainingInBf16WithTheFeatureLastAndAnotherLayout) {
  PassRun r = RunPass("batchnorm_expander",
                      Module1("  x = bf16[2,3,4,8]{0,1,2,3} parameter(0)\n  s = bf16[8] parameter(1)\n"
                              "  o = bf16[8] parameter(2)\n"
                              "  ROOT b = (bf16[2,3,4,8]{0,1,2,3}, bf16[8], bf16[8]) batch-norm-training(x, s, o), "
                              "epsilon=1e-05, feature_index=3"));
  ExpectExpanded(r, kTraining);
  EXPECT_EQ(r.root()->operand(0)->shape().ToString(true), "bf16[2,3,4,8]{0,1,2,3}");
}

TEST(BatchNormExpanderTest, InferenceIsOneMultiplyAndOneAddPerElement) {
  PassRun r = RunPass("batchnorm_expander",
                      Module1("  x = f32[6,4] parameter(0)\n  s = f32[4] parameter(1)\n  o = f32[4] parameter(2)\n"
                              "  m = f32[4] parameter(3)\n  v = f32[4] parameter(4)\n"
                              "  a = f32[4] abs(v)\n"
                              "  ROOT b = f32[6,4] batch-norm-inference(x, s, o, m, a), epsilon=0.01, feature_index=1"));
  ExpectExpanded(r, "batch-norm-inference → x·scale·rsqrt(var + ε) + (offset − mean·scale·rsqrt(var + ε))");
  EXPECT_EQ(r.root()->opcode(), Opcode::kAdd);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kReduce), 0);
}

TEST(BatchNormExpanderTest, GradSumsDyAndDyTimesTheCenteredInput) {
  PassRun r = RunPass("batchnorm_expander",
                      Module1("  x = f32[5,3,7] parameter(0)\n  s = f32[3] parameter(1)\n  m = f32[3] parameter(2)\n"
                              "  v = f32[3] parameter(3)\n  dy = f32[5,3,7] parameter(4)\n  a = f32[3] abs(v)\n"
                              "  ROOT g = (f32[5,3,7], f32[3], f32[3]) batch-norm-grad(x, s, m, a, dy), "
                              "epsilon=0.1, feature_index=1"));
  ExpectExpanded(r, "batch-norm-grad → per-feature sums of dy and dy·(x − mean), and the gradients from them");
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kReduce), 2) << r.text();
}

TEST(BatchNormExpanderTest, NothingToDoWithoutBatchNorm) {
  EXPECT_FALSE(RunPass("batchnorm_expander", Module1("  x = f32[4] parameter(0)\n  ROOT y = f32[4] negate(x)")).changed);
}

// A ResNet-style block, TensorFlow's form: convolution, batch norm, relu,
// through all of `gpu` with the verifier and the differential check.
TEST(BatchNormExpanderTest, GpuPipelineOnAConvolutionBatchNormRelu) {
  PassRun r = RunPasses({"gpu"}, Module1("  x = f32[2,8,8,4] parameter(0)\n  k = f32[3,3,4,4] parameter(1)\n"
                                         "  s = f32[4] parameter(2)\n  o = f32[4] parameter(3)\n"
                                         "  c = f32[2,8,8,4] convolution(x, k), window={size=3x3 pad=1_1x1_1}, "
                                         "dim_labels=b01f_01io->b01f\n"
                                         "  b = (f32[2,8,8,4], f32[4], f32[4]) batch-norm-training(c, s, o), "
                                         "epsilon=0.001, feature_index=3\n"
                                         "  y = f32[2,8,8,4] get-tuple-element(b), index=0\n"
                                         "  z = f32[] constant(0)\n  zb = f32[2,8,8,4] broadcast(z), dimensions={}\n"
                                         "  ROOT r = f32[2,8,8,4] maximum(y, zb)"));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.evaluable);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kBatchNormTraining), 0);
}

}  // namespace
}  // namespace hloscope::testing
