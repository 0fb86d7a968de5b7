#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(CseTest, MergesIdenticalInstructionsAndRecordsTheFold) {
  PassRun r = RunPass("cse", R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] exponential(p)
  b = f32[4] exponential(p)
  ROOT s = f32[4] add(a, b)
}
)hlo");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(FindInstruction(*r.module, "b"), nullptr);
  Instruction* s = FindInstruction(*r.module, "s");
  EXPECT_EQ(s->operand(0), s->operand(1));
  const StepDiff& d = r.steps[0]->diff;
  ASSERT_EQ(d.folded_into.size(), 1u);
  EXPECT_EQ(d.folded_into[0].new_id, FindInstruction(*r.module, "a")->id());
  EXPECT_TRUE(r.Applied("merged into an identical instruction"));
}

TEST(CseTest, CommutativeOperandsAndConstantsByValue) {
  PassRun r = RunPass("cse", R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  c1 = f32[] constant(2)
  c2 = f32[] constant(2)
  b1 = f32[4] broadcast(c1), dimensions={}
  b2 = f32[4] broadcast(c2), dimensions={}
  x = f32[4] add(p, q)
  y = f32[4] add(q, p)
  m1 = f32[4] multiply(x, b1)
  m2 = f32[4] multiply(y, b2)
  ROOT t = (f32[4], f32[4]) tuple(m1, m2)
}
)hlo");
  EXPECT_TRUE(r.changed);
  Instruction* t = r.root();
  EXPECT_EQ(t->operand(0), t->operand(1));
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kConstant), 1);
}

TEST(CseTest, AttributesAndCalledComputationsMustMatch) {
  PassRun r = RunPass("cse", R"hlo(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
mul {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] multiply(a, b)
}
ENTRY e {
  p = f32[4,8] parameter(0)
  z = f32[] constant(0)
  r0 = f32[4] reduce(p, z), dimensions={1}, to_apply=add
  r1 = f32[8] reduce(p, z), dimensions={0}, to_apply=add
  r2 = f32[4] reduce(p, z), dimensions={1}, to_apply=mul
  ROOT t = (f32[4], f32[8], f32[4]) tuple(r0, r1, r2)
}
)hlo");
  EXPECT_FALSE(r.changed);
}

TEST(CseTest, NeverMergesSideEffects) {
  PassRun r = RunPass("cse", R"hlo(
HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  r1 = f32[4] rng(a, b), distribution=rng_uniform
  r2 = f32[4] rng(a, b), distribution=rng_uniform
  ROOT t = (f32[4], f32[4]) tuple(r1, r2)
}
)hlo");
  EXPECT_FALSE(r.changed);
}

TEST(CseTest, NoChange) {
  PassRun r = RunPass("cse", R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] exponential(p)
  b = f32[4] log(p)
  ROOT s = f32[4] add(a, b)
}
)hlo");
  EXPECT_FALSE(r.changed);
}

}  // namespace
}  // namespace hloscope::testing
