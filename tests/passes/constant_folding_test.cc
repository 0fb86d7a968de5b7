#include "core/passes/simplify_passes.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(ConstantFoldingTest, FoldsInstructionsOfConstants) {
  PassRun r = RunPass("constant_folding", Module1(R"(
  a = f32[3] constant({1, 2, 3})
  b = f32[3] constant({10, 20, 30})
  s = f32[3] add(a, b)
  ROOT n = f32[3] negate(s))"));
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.root()->opcode(), Opcode::kConstant);
  EXPECT_EQ(r.root()->literal()->ToString(), "{-11, -22, -33}");
  EXPECT_TRUE(r.Applied("add of constants → constant"));
  EXPECT_TRUE(r.Applied("negate of constants → constant"));
}

TEST(ConstantFoldingTest, UniformResultsBecomeSplats) {
  PassRun r = RunPass("constant_folding", Module1(R"(
  a = f32[64] constant(2)
  ROOT m = f32[64] multiply(a, a))"));
  EXPECT_TRUE(r.changed);
  EXPECT_NE(PrintInstruction(*r.root()).find("constant(4)"), std::string::npos);
}

TEST(ConstantFoldingTest, KeepsBroadcastsIotasParametersAndElidedConstants) {
  CheckNoChange(Module1(R"(
  c = f32[] constant(1)
  b = f32[1000] broadcast(c), dimensions={}
  i = s32[8] iota(), iota_dimension=0
  e = f32[4] constant({...})
  n = f32[4] negate(e)
  p = f32[1000] parameter(0)
  a = f32[1000] add(p, b)
  ROOT t = (f32[1000], s32[8], f32[4]) tuple(a, i, n))"),
                "constant_folding");
}

// As in XLA: an op of a constant and broadcasts of constants (or iotas) is
// folded; the broadcast is absorbed into an array no larger than the
// constant operand.
TEST(ConstantFoldingTest, FoldsAConstantWithBroadcastsOfConstants) {
  PassRun r = RunPass("constant_folding", Module1(R"(
  a = f32[3] constant({1, 2, 3})
  c = f32[] constant(10)
  b = f32[3] broadcast(c), dimensions={}
  i = f32[3] iota(), iota_dimension=0
  s = f32[3] add(a, b)
  ROOT m = f32[3] multiply(s, i))"));
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.root()->opcode(), Opcode::kConstant);
  EXPECT_EQ(r.root()->literal()->ToString(), "{0, 12, 26}");
}

// A broadcast of a constant is never spelled out: not on its own, not under
// an op whose operands are all broadcasts (algsimp computes those on the
// scalar), not into a result larger than every constant operand, and not
// as pad(broadcast, constant) (XLA skips that one too).
TEST(ConstantFoldingTest, NeverSpellsOutABroadcast) {
  CheckNoChange(Module1(R"(
  c = f32[] constant(2)
  b = f32[2,17,64] broadcast(c), dimensions={}
  n = f32[2,17,64] negate(b)
  d = f32[] constant(3)
  e = f32[2,17,64] broadcast(d), dimensions={}
  m = f32[2,17,64] multiply(b, e)
  h = f16[2,17,64] convert(b)
  t = f32[2] constant({1, 2})
  u = f32[100] broadcast(c), dimensions={}
  cat = f32[102] concatenate(t, u), dimensions={0}
  z = f32[] constant(0)
  pad = f32[2,17,80] pad(b, z), padding=0_0x0_0x0_16
  ROOT r = (f32[2,17,64], f32[2,17,64], f16[2,17,64], f32[102], f32[2,17,80]) tuple(n, m, h, cat, pad))"),
                "constant_folding");
}

TEST(ConstantFoldingTest, RespectsTheSizeCap) {
  auto m = ParseOrDie(Module1(R"(
  a = s32[4,4] constant({{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4}})
  ROOT t = s32[4,4] transpose(a), dimensions={1,0})"));
  ConstantFoldingOptions opts;
  opts.max_result_elements = 8;
  auto pass = MakeConstantFoldingPass(opts);
  auto changed = pass->Run(*m);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
}

TEST(ConstantFoldingTest, NoChange) {
  CheckNoChange(Module1("  p = f32[4] parameter(0)\n  c = f32[4] constant({1,2,3,4})\n  ROOT a = f32[4] add(p, c)"),
                "constant_folding");
}

}  // namespace
}  // namespace hloscope::testing
