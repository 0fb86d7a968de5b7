// degenerate-dimension-rewriter against XLA GPU 0.12's own dumps of the same
// modules (tools/xla_gpu_reference.py, the `…after_degenerate-dimension-rewriter`
// file, present only where the pass changed the module): each case is one of
// those modules, or two of them put together, with XLA's outcome.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

constexpr const char* kRule = "elementwise on dimensions of size 1 → reshape(elementwise without them)";

// The root is reshape(op) with op computed on `dims`.
void ExpectSqueezed(const PassRun& r, Opcode op, const std::vector<int64_t>& dims) {
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.Applied(kRule));
  const Instruction* root = r.root();
  ASSERT_EQ(root->opcode(), Opcode::kReshape) << r.text();
  EXPECT_EQ(root->operand(0)->opcode(), op) << r.text();
  EXPECT_EQ(root->operand(0)->shape().dims(), dims) << r.text();
}

// XLA: exp(broadcast(a) -> [2,8,1]) becomes reshape(exp(a)).
TEST(DegenerateDimensionRewriterTest, ABroadcastThatOnlyAddsADimensionOfOne) {
  PassRun r = RunPasses({"degenerate-dimension-rewriter", "dce"},
                        Module1("  a = f32[2,8] parameter(0)\n  b = f32[2,8,1] broadcast(a), dimensions={0,1}\n"
                                "  ROOT x = f32[2,8,1] exponential(b)"));
  ExpectSqueezed(r, Opcode::kExp, {2, 8});
  EXPECT_EQ(r.root()->operand(0)->operand(0)->opcode(), Opcode::kParameter) << r.text();
}

// XLA: the dimension of one may sit anywhere ([2,1,8]).
TEST(DegenerateDimensionRewriterTest, ADimensionOfOneInTheMiddle) {
  PassRun r = RunPass("degenerate-dimension-rewriter",
                      Module1("  a = f32[2,8] parameter(0)\n  r = f32[2,1,8] reshape(a)\n"
                              "  ROOT x = f32[2,1,8] exponential(r)"));
  ExpectSqueezed(r, Opcode::kExp, {2, 8});
}

// XLA: a reshape and a broadcast of [2,8] values, and a broadcast of a
// scalar (broadcast again into [2,8]).
TEST(DegenerateDimensionRewriterTest, ReshapesAndBroadcastsTogether) {
  PassRun r = RunPasses({"degenerate-dimension-rewriter", "dce"},
                        Module1("  a = f32[2,8] parameter(0)\n  b = f32[2,8] parameter(1)\n"
                                "  r = f32[2,8,1] reshape(a)\n  c = f32[2,8,1] broadcast(b), dimensions={0,1}\n"
                                "  k = f32[] constant(2)\n  s = f32[2,8,1] broadcast(k), dimensions={}\n"
                                "  x = f32[2,8,1] add(r, c)\n  ROOT y = f32[2,8,1] multiply(x, s)"));
  ExpectSqueezed(r, Opcode::kMultiply, {2, 8});
  const Instruction* m = r.root()->operand(0);
  EXPECT_EQ(m->operand(0)->opcode(), Opcode::kAdd) << "the chain collapses: " << r.text();
  EXPECT_EQ(m->operand(1)->opcode(), Opcode::kBroadcast);
  EXPECT_EQ(m->operand(1)->shape().dims(), (std::vector<int64_t>{2, 8}));
}

// XLA: a reshape from another shape ([16]) is reshaped to [2,8] instead;
// and a reshape with another user stays for it (a layer norm's rsqrt and
// the divide by the same variance).
TEST(DegenerateDimensionRewriterTest, OtherReshapesAndOtherUsers) {
  PassRun r = RunPass("degenerate-dimension-rewriter",
                      Module1("  a = f32[16] parameter(0)\n  r = f32[2,8,1] reshape(a)\n"
                              "  ROOT x = f32[2,8,1] exponential(r)"));
  ExpectSqueezed(r, Opcode::kExp, {2, 8});
  EXPECT_EQ(r.root()->operand(0)->operand(0)->opcode(), Opcode::kReshape);
  PassRun n = RunPasses({"degenerate-dimension-rewriter", "dce"},
                        Module1("  a = f32[2,8] parameter(0)\n  r = f32[2,8,1] reshape(a)\n"
                                "  s = f32[2,8,1] rsqrt(r)\n  m = f32[2,8] reshape(s)\n"
                                "  b = f32[2,8,8] broadcast(m), dimensions={0,1}\n  d = f32[2,8,1] divide(s, r)\n"
                                "  ROOT t = (f32[2,8,8], f32[2,8,1]) tuple(b, d)"));
  ASSERT_TRUE(n.module);
  EXPECT_TRUE(n.changed);
  const Instruction* d = n.root()->operand(1);
  ASSERT_EQ(d->opcode(), Opcode::kReshape) << n.text();
  ASSERT_EQ(d->operand(0)->opcode(), Opcode::kDivide);
  EXPECT_EQ(d->operand(0)->operand(0)->opcode(), Opcode::kRsqrt);
  EXPECT_EQ(d->operand(0)->operand(0)->shape().dims(), (std::vector<int64_t>{2, 8}));
}

// XLA leaves these: an operand that is neither a reshape nor a broadcast (a
// parameter of the degenerate shape), an op already on the squeezed shape,
// and a reduce (not elementwise).
TEST(DegenerateDimensionRewriterTest, NoChange) {
  CheckNoChange(Module1("  a = f32[2,8] parameter(0)\n  p = f32[2,8,1] parameter(1)\n"
                        "  r = f32[2,8,1] reshape(a)\n  ROOT x = f32[2,8,1] add(r, p)"),
                "degenerate-dimension-rewriter");
  CheckNoChange(Module1("  p = f32[2,8,1] parameter(0)\n  r = f32[2,8] reshape(p)\n  ROOT e = f32[2,8] exponential(r)"),
                "degenerate-dimension-rewriter");
  CheckNoChange(Module1("  a = f32[2,8] parameter(0)\n  r = f32[2,8,1] reshape(a)\n  z = f32[] constant(0)\n"
                        "  ROOT x = f32[2,1] reduce(r, z), dimensions={1}, to_apply=add",
                        "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}"),
                "degenerate-dimension-rewriter");
}

}  // namespace
}  // namespace hloscope::testing
