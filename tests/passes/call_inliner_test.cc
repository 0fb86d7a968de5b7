#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(CallInlinerTest, InlinesNestedCallsAndRemovesCallees) {
  PassRun r = RunPass("call_inliner", R"hlo(
HloModule m
inner {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
outer {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  c = f32[4] call(a), to_apply=inner
  ROOT s = f32[4] add(c, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT r = f32[4] call(p, q), to_apply=outer
}
)hlo");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.module->computations().size(), 1u);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kCall), 0);
  EXPECT_EQ(r.root()->opcode(), Opcode::kAdd);
  EXPECT_EQ(r.root()->operand(0)->opcode(), Opcode::kNegate);
  EXPECT_EQ(r.root()->operand(0)->operand(0)->name(), "p");
  EXPECT_TRUE(r.Applied("call inlined"));
}

TEST(CallInlinerTest, CalleeReturningAParameter) {
  PassRun r = RunPass("call_inliner", R"hlo(
HloModule m
id {
  ROOT x = f32[4] parameter(0)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] call(p), to_apply=id
}
)hlo");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.root()->name(), "p");
}

TEST(CallInlinerTest, NoChange) {
  CheckNoChange(Module1("  p = f32[4] parameter(0)\n  ROOT n = f32[4] negate(p)"), "call_inliner");
}

}  // namespace
}  // namespace hloscope::testing
