#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

// A counting loop carrying (i, x, dead): `dead` is updated every iteration
// but nothing reads it after the loop or in the condition.
const char* kLoop = R"hlo(
HloModule m
body {
  s = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[4] get-tuple-element(s), index=1
  d = f32[4] get-tuple-element(s), index=2
  one = s32[] constant(1)
  n = s32[] add(i, one)
  e = f32[4] exponential(x)
  d2 = f32[4] add(d, x)
  ROOT r = (s32[], f32[4], f32[4]) tuple(n, e, d2)
}
cond {
  s = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
ENTRY e {
  p = f32[4] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[4], f32[4]) tuple(z, p, p)
  w = (s32[], f32[4], f32[4]) while(init), condition=cond, body=body
  ROOT out = f32[4] get-tuple-element(w), index=1
}
)hlo";

TEST(WhileLoopSimplifierTest, RemovesDeadLoopCarriedElements) {
  PassRun r = RunPass("while_loop_simplifier", kLoop);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  Instruction* w = FindInstruction(*r.module, "w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->shape().tuple_size(), 2);
  EXPECT_EQ(r.root()->tuple_index(), 1);
  EXPECT_EQ(FindInstruction(*r.module, "d2"), nullptr);
  EXPECT_EQ(r.steps[0]->stats.at("loop-carried elements removed"), 1);
  EXPECT_TRUE(r.Applied("while: dead loop-carried elements removed"));
}

TEST(WhileLoopSimplifierTest, ConstantFalseCondition) {
  CheckRewrite({"while with constant false condition → init", R"hlo(
HloModule m
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[4] get-tuple-element(s), index=1
  e = f32[4] exponential(x)
  ROOT r = (s32[], f32[4]) tuple(i, e)
}
cond {
  s = (s32[], f32[4]) parameter(0)
  ROOT f = pred[] constant(false)
}
ENTRY e {
  p = f32[4] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[4]) tuple(z, p)
  ROOT w = (s32[], f32[4]) while(init), condition=cond, body=body
}
)hlo",
                "tuple(%z, %p)"},
               "while_loop_simplifier");
}

TEST(WhileLoopSimplifierTest, ElementsReadByTheConditionStay) {
  CheckNoChange(R"hlo(
HloModule m
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  n = s32[] add(i, one)
  x = f32[4] get-tuple-element(s), index=1
  ROOT r = (s32[], f32[4]) tuple(n, x)
}
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
ENTRY e {
  p = f32[4] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[4]) tuple(z, p)
  w = (s32[], f32[4]) while(init), condition=cond, body=body
  ROOT out = f32[4] get-tuple-element(w), index=1
}
)hlo",
                "while_loop_simplifier");
}

}  // namespace
}  // namespace hloscope::testing
