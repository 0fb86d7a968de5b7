#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(FlattenCallGraphTest, ClonesSharedComputations) {
  PassRun r = RunPass("flatten_call_graph", R"hlo(
HloModule m
f {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] call(p), to_apply=f
  ROOT b = f32[4] call(a), to_apply=f
}
)hlo");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.module->computations().size(), 3u);
  Instruction* a = FindInstruction(*r.module, "a");
  Instruction* b = FindInstruction(*r.module, "b");
  EXPECT_NE(a->to_apply(), b->to_apply());
  EXPECT_TRUE(r.Applied("shared computation cloned for this call site"));
}

TEST(FlattenCallGraphTest, ReduceComputationsAreNotCloned) {
  CheckNoChange(R"hlo(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[4,4] parameter(0)
  z = f32[] constant(0)
  r0 = f32[4] reduce(p, z), dimensions={0}, to_apply=add
  r1 = f32[4] reduce(p, z), dimensions={1}, to_apply=add
  ROOT t = (f32[4], f32[4]) tuple(r0, r1)
}
)hlo",
                "flatten_call_graph");
}

}  // namespace
}  // namespace hloscope::testing
