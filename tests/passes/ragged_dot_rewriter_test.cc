// ragged_dot_rewriter and scaled-dot-rewriter: each mode of a ragged dot and
// each kind of scale becomes a plain dot, checked by the differential checker
// (random group sizes up to each group's share of the ragged dimension, so
// some rows fall in no group) and by the forms XLA GPU 0.12 writes for
// jax.lax.ragged_dot (its after_optimizations: a reduce-window cumulative
// sum, compares LE/LT, and, select, one dot).
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

void ExpectPlainDot(const PassRun& r, const std::vector<int64_t>& dims) {
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable) << "the differential checker could not run the module";
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kRaggedDot), 0) << r.text();
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kScaledDot), 0) << r.text();
  const Instruction* root = r.root();
  while (root->opcode() == Opcode::kConvert) root = root->operand(0);
  ASSERT_EQ(root->opcode(), Opcode::kDot) << r.text();
  EXPECT_EQ(root->shape().dims(), dims);
}

// jax.lax.ragged_dot(x [m,k], w [g,k,n], group_sizes [g]): as XLA, the lhs
// made dense [g,m,k] and contracted with w over (g, k).
TEST(RaggedDotRewriterTest, NonContractingModeContractsTheGroups) {
  PassRun r = RunPass("ragged_dot_rewriter",
                      Module1("  x = f32[37,5] parameter(0)\n  w = f32[3,5,7] parameter(1)\n  g = s32[3] parameter(2)\n"
                              "  ROOT d = f32[37,7] ragged-dot(x, w, g), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}"));
  ExpectPlainDot(r, {37, 7});
  EXPECT_TRUE(r.Applied("ragged non-contracting dimension → dot over the lhs masked per group, contracting the groups"));
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kReduceWindow), 1) << r.text();
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kCompare), 2);
  const Instruction* dense = r.root()->operand(0);
  ASSERT_EQ(dense->opcode(), Opcode::kSelect);
  EXPECT_EQ(dense->shape().dims(), (std::vector<int64_t>{3, 37, 5}));
  EXPECT_EQ(r.root()->attrs().dot->lhs_contracting, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(r.root()->attrs().dot->rhs_contracting, (std::vector<int64_t>{0, 1}));
}

// The weight gradient: ragged contracting dimension, both operands dense,
// the groups a batch dimension of the dot.
TEST(RaggedDotRewriterTest, ContractingModeBatchesTheGroups) {
  PassRun r = RunPass("ragged_dot_rewriter",
                      Module1("  x = bf16[40,6] parameter(0)\n  y = bf16[40,3] parameter(1)\n  g = s32[4] parameter(2)\n"
                              "  ROOT d = f32[4,6,3] ragged-dot(x, y, g), lhs_contracting_dims={0}, "
                              "rhs_contracting_dims={0}, lhs_ragged_dims={0}"));
  ExpectPlainDot(r, {4, 6, 3});
  EXPECT_EQ(r.root()->attrs().dot->lhs_batch, (std::vector<int64_t>{0}));
  EXPECT_EQ(r.root()->operand(1)->shape().dims(), (std::vector<int64_t>{4, 40, 3}));
}

// Batch mode: the batches past the total are masked (XLA's rewriter keeps
// them, its evaluator zeroes them, as we do).
TEST(RaggedDotRewriterTest, BatchModeMasksTheBatchesPastTheTotal) {
  PassRun r = RunPass("ragged_dot_rewriter",
                      Module1("  x = f32[9,4,5] parameter(0)\n  y = f32[9,5,2] parameter(1)\n  g = s64[3] parameter(2)\n"
                              "  ROOT d = f32[9,4,2] ragged-dot(x, y, g), lhs_batch_dims={0}, rhs_batch_dims={0}, "
                              "lhs_contracting_dims={2}, rhs_contracting_dims={1}, lhs_ragged_dims={0}"));
  ExpectPlainDot(r, {9, 4, 2});
  EXPECT_EQ(r.root()->operand(0)->opcode(), Opcode::kSelect) << r.text();
}

// Group sizes with leading dimensions, the corpus's two ragged-dot modules
// (hlo_to_mhlo tests): [19,3] indexes lhs dimension 0 (a free dimension
// before the ragged one), and, in the contracting mode, dimension 1 (a
// contracting dimension before the ragged one, which XLA's rewriter would
// broadcast along dimension 0, of another size).
TEST(RaggedDotRewriterTest, GroupSizesWithLeadingDimensions) {
  PassRun nc = RunPass("ragged_dot_rewriter",
                       Module1("  x = f32[19,11,5] parameter(0)\n  w = f32[3,5,7] parameter(1)\n"
                               "  g = s64[19,3] parameter(2)\n"
                               "  ROOT d = f32[19,11,7] ragged-dot(x, w, g), lhs_contracting_dims={2}, "
                               "rhs_contracting_dims={1}, lhs_ragged_dims={1}, rhs_group_dims={0}"));
  ExpectPlainDot(nc, {19, 11, 7});
  PassRun c = RunPass("ragged_dot_rewriter",
                      Module1("  x = f32[11,19,5] parameter(0)\n  y = f32[19,5,7] parameter(1)\n"
                              "  g = s64[19,3] parameter(2)\n"
                              "  ROOT d = f32[3,11,7] ragged-dot(x, y, g), lhs_contracting_dims={1,2}, "
                              "rhs_contracting_dims={0,1}, lhs_ragged_dims={2}"));
  ExpectPlainDot(c, {3, 11, 7});
}

// One group and a bf16 result: the exclusive sums are a zero, no slice.
TEST(RaggedDotRewriterTest, OneGroup) {
  PassRun r = RunPass("ragged_dot_rewriter",
                      Module1("  x = bf16[8,4] parameter(0)\n  w = bf16[1,4,2] parameter(1)\n  g = s32[1] parameter(2)\n"
                              "  ROOT d = bf16[8,2] ragged-dot(x, w, g), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}"));
  ExpectPlainDot(r, {8, 2});
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kSlice), 0) << r.text();
}

TEST(RaggedDotRewriterTest, NothingToDoWithoutRaggedOrScaledDots) {
  const std::string m = Module1("  a = f32[4,5] parameter(0)\n  b = f32[5,3] parameter(1)\n"
                                "  ROOT d = f32[4,3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  EXPECT_FALSE(RunPass("ragged_dot_rewriter", m).changed);
  EXPECT_FALSE(RunPass("scaled-dot-rewriter", m).changed);
}

// The MX GEMM of the corpus (triton/tests/scaled_dot): f8e4m3fn operands,
// f8e8m0fnu scales in blocks of 32 along k, both dequantized in bf16.
TEST(ScaledDotRewriterTest, BlockScalesBecomeMultipliesBeforeTheDot) {
  PassRun r = RunPass("scaled-dot-rewriter",
                      Module1("  x = f8e4m3fn[4,64] parameter(0)\n  y = f8e4m3fn[64,8] parameter(1)\n"
                              "  xs = f8e8m0fnu[4,2] parameter(2)\n  ys = f8e8m0fnu[2,8] parameter(3)\n"
                              "  ROOT d = bf16[4,8] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={0}"));
  ExpectPlainDot(r, {4, 8});
  const Instruction* dot = r.root();
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(dot->operand(i)->opcode(), Opcode::kMultiply) << r.text();
    EXPECT_EQ(dot->operand(i)->shape().element_type(), PrimitiveType::kBF16);
  }
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kReshape), 2);
}

// A scalar scale is none; an f32 result is computed by an f32 dot; inside a
// fused computation (XLA's Triton GEMM fusion of the corpus module) too.
TEST(ScaledDotRewriterTest, ScalarScalesWiderResultsAndFusedScaledDots) {
  PassRun r = RunPass("scaled-dot-rewriter",
                      Module1("  x = bf16[3,16] parameter(0)\n  y = bf16[5,16] parameter(1)\n"
                              "  xs = bf16[] parameter(2)\n  ys = f32[5,4] parameter(3)\n"
                              "  ROOT d = f32[3,5] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={1}"));
  ExpectPlainDot(r, {3, 5});
  EXPECT_EQ(r.root()->shape().element_type(), PrimitiveType::kF32);
  EXPECT_EQ(r.root()->operand(0)->opcode(), Opcode::kConvert) << "the unscaled lhs, to f32: " << r.text();
  PassRun f = RunPass("scaled-dot-rewriter", R"(HloModule m
gemm {
  x = f8e4m3fn[16,32] parameter(0)
  y = f8e4m3fn[32,16] parameter(1)
  xs = f8e8m0fnu[16,1] parameter(2)
  ys = f8e8m0fnu[1,16] parameter(3)
  ROOT d = bf16[16,16] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}

ENTRY e {
  x = f8e4m3fn[16,32] parameter(0)
  y = f8e4m3fn[32,16] parameter(1)
  xs = f8e8m0fnu[16,1] parameter(2)
  ys = f8e8m0fnu[1,16] parameter(3)
  ROOT f = bf16[16,16] fusion(x, y, xs, ys), kind=kCustom, calls=gemm
})");
  ASSERT_TRUE(f.module);
  EXPECT_TRUE(f.changed);
  EXPECT_TRUE(f.evaluable);
  EXPECT_EQ(CountOpcode(*f.module, Opcode::kScaledDot), 0) << f.text();
}

// The whole `gpu` pipeline on a mixture-of-experts layer: verifier and
// differential check after every pass.
TEST(RaggedDotRewriterTest, GpuPipelineOnAMixtureOfExpertsLayer) {
  PassRun r = RunPasses({"gpu"}, Module1("  x = bf16[64,32] parameter(0)\n  w = bf16[4,32,16] parameter(1)\n"
                                         "  g = s32[4] parameter(2)\n"
                                         "  d = bf16[64,16] ragged-dot(x, w, g), lhs_contracting_dims={1}, "
                                         "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}\n"
                                         "  ROOT t = bf16[64,16] tanh(d)"));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kRaggedDot), 0);
}

}  // namespace
}  // namespace hloscope::testing
