#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(DceTest, RemovesDeadInstructionsAndKeepsLiveOnes) {
  PassRun r = RunPass("dce", R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  dead1 = f32[4] negate(p)
  dead2 = f32[4] add(dead1, p)
  ROOT live = f32[4] exponential(p)
}
)hlo");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(FindInstruction(*r.module, "dead1"), nullptr);
  EXPECT_EQ(FindInstruction(*r.module, "dead2"), nullptr);
  EXPECT_NE(FindInstruction(*r.module, "live"), nullptr);
  EXPECT_EQ(r.module->entry()->instruction_count(), 2);
  EXPECT_EQ(r.steps[0]->stats.at("instructions removed"), 2);
  EXPECT_EQ(r.steps[0]->diff.removed.size(), 2u);
}

TEST(DceTest, KeepsSideEffectsAndParameters) {
  PassRun r = RunPass("dce", R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  unused = f32[4] parameter(1)
  tok = token[] after-all()
  out = token[] outfeed(p, tok), outfeed_shape=f32[4]
  ROOT c = f32[4] copy(p)
}
)hlo");
  EXPECT_FALSE(r.changed);
  EXPECT_NE(FindInstruction(*r.module, "out"), nullptr);
  EXPECT_NE(FindInstruction(*r.module, "unused"), nullptr);
}

TEST(DceTest, KeepsWhileWhoseBodyHasSideEffects) {
  PassRun r = RunPass("dce", R"hlo(
HloModule m
body {
  s = (s32[], token[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  t = token[] get-tuple-element(s), index=1
  o = token[] outfeed(i, t), outfeed_shape=s32[]
  one = s32[] constant(1)
  n = s32[] add(i, one)
  ROOT r = (s32[], token[]) tuple(n, o)
}
cond {
  s = (s32[], token[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(i, ten), direction=LT
}
ENTRY e {
  z = s32[] constant(0)
  tok = token[] after-all()
  init = (s32[], token[]) tuple(z, tok)
  loop = (s32[], token[]) while(init), condition=cond, body=body
  ROOT r = s32[] constant(7)
}
)hlo");
  EXPECT_FALSE(r.changed);
  EXPECT_NE(FindInstruction(*r.module, "loop"), nullptr);
}

TEST(DceTest, RemovesUncalledComputations) {
  PassRun r = RunPass("dce", R"hlo(
HloModule m
unused_add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  ROOT p = f32[4] parameter(0)
}
)hlo");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.module->computations().size(), 1u);
  EXPECT_EQ(r.steps[0]->stats.at("computations removed"), 1);
}

TEST(DceTest, NoChange) {
  PassRun r = RunPass("dce", R"hlo(
HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
)hlo");
  EXPECT_FALSE(r.changed);
  EXPECT_TRUE(r.steps[0]->diff.empty());
}

}  // namespace
}  // namespace hloscope::testing
