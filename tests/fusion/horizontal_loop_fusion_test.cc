// Conformance of `horizontal_loop_fusion` with XLA's HorizontalLoopFusion
// (xla/service/gpu/transforms/horizontal_loop_fusion_test.cc; shapes shrunk).
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

// XLA: BasicTest — two independent small loop fusions share one launch.
TEST(HorizontalLoopFusionConformance, BasicTest) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fused_computation.1 {
  arg.1 = f16[128] parameter(0)
  arg.2 = f16[128] parameter(1)
  ROOT mul.1 = f16[128] multiply(arg.1, arg.2)
}
fused_computation.2 {
  arg.3 = f16[123] parameter(0)
  arg.4 = f16[123] parameter(1)
  ROOT add.1 = f16[123] add(arg.3, arg.4)
}
ENTRY entry {
  a = f16[128] parameter(0)
  b = f16[128] parameter(1)
  c = f16[123] parameter(2)
  d = f16[123] parameter(3)
  fusion.1 = f16[128] fusion(a, b), kind=kLoop, calls=fused_computation.1
  fusion.2 = f16[123] fusion(c, d), kind=kLoop, calls=fused_computation.2
  ROOT tuple.1 = (f16[128], f16[123]) tuple(fusion.1, fusion.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mul.1"), "");
  EXPECT_EQ(r.Group("mul.1"), r.Group("add.1")) << r.Text();
  EXPECT_EQ(r.KindOf("mul.1"), "kLoop");
  EXPECT_EQ(r.CountFusions(), 1);
  const FusionDecision* d = r.DecisionFor("fusion.1", FusionVerdict::kMerged);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->reason.empty());
}

// XLA: NegativeTestForCycle — a fusion that feeds another is not joined with it.
TEST(HorizontalLoopFusionConformance, NegativeTestForCycle) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fused_computation.1 {
  arg.1 = f16[123] parameter(0)
  arg.2 = f16[123] parameter(1)
  ROOT mul.1 = f16[123] multiply(arg.1, arg.2)
}
fused_computation.2 {
  arg.3 = f16[123] parameter(0)
  arg.4 = f16[123] parameter(1)
  ROOT add.1 = f16[123] add(arg.3, arg.4)
}
ENTRY entry {
  a = f16[123] parameter(0)
  b = f16[123] parameter(1)
  fusion.1 = f16[123] fusion(a, b), kind=kLoop, calls=fused_computation.1
  fusion.2 = f16[123] fusion(fusion.1, b), kind=kLoop, calls=fused_computation.2
  ROOT tuple.1 = (f16[123], f16[123]) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("mul.1"), "fusion.1");
  EXPECT_EQ(r.Group("add.1"), "fusion.2");
}

// XLA only joins kLoop fusions; a reduction (kInput) fusion is left alone.
TEST(HorizontalLoopFusionConformance, InputFusionsNotJoined) {
  FusionRun r = RunFusion("horizontal_loop_fusion", std::string("HloModule m\n") + kAdd + R"(
fused_computation.1 {
  arg.1 = f32[16] parameter(0)
  ROOT neg.1 = f32[16] negate(arg.1)
}
fused_reduce {
  arg.2 = f32[16] parameter(0)
  zero = f32[] constant(0)
  ROOT red = f32[] reduce(arg.2, zero), dimensions={0}, to_apply=scalar_add
}
ENTRY entry {
  a = f32[16] parameter(0)
  b = f32[16] parameter(1)
  fusion.1 = f32[16] fusion(a), kind=kLoop, calls=fused_computation.1
  fusion.2 = f32[] fusion(b), kind=kInput, calls=fused_reduce
  ROOT tuple.1 = (f32[16], f32[]) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("neg.1"), "fusion.1");
  EXPECT_EQ(r.Group("red"), "fusion.2");
}

TEST(HorizontalLoopFusionConformance, NoChange) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fused_computation.1 {
  arg.1 = f16[128] parameter(0)
  ROOT neg.1 = f16[128] negate(arg.1)
}
ENTRY entry {
  a = f16[128] parameter(0)
  ROOT fusion.1 = f16[128] fusion(a), kind=kLoop, calls=fused_computation.1
})");
  EXPECT_FALSE(r.changed);
}

}  // namespace
}  // namespace hloscope::fusion_testing

namespace hloscope::fusion_testing {
namespace {

// Regression (found on the Llama 3.1 corpus module): groups must be formed
// against the graph as it is after the previous merges. Here {x, a, b} merge
// first (c is left out: too many operands); c feeds a and b feeds d, so after
// that merge c reaches d through it, and joining c with d would form a cycle.
TEST(HorizontalLoopFusion, NoCycleThroughAnEarlierMerge) {
  const int k = 95;  // c's operands: with x's two slots the group would exceed 96
  std::string text = "HloModule m\nfc {\n";
  for (int i = 0; i < k; ++i) text += "  q" + std::to_string(i) + " = f32[8] parameter(" + std::to_string(i) + ")\n";
  std::string acc = "q0";
  for (int i = 1; i < k; ++i) {
    text += "  s" + std::to_string(i) + " = f32[8] add(" + acc + ", q" + std::to_string(i) + ")\n";
    acc = "s" + std::to_string(i);
  }
  text += "  ROOT r = f32[8] negate(" + acc + ")\n}\n";
  text += "f1 {\n  y = f32[8] parameter(0)\n  ROOT n = f32[8] negate(y)\n}\n";
  text += "f2 {\n  y = f32[8] parameter(0)\n  ROOT n = f32[8] abs(y)\n}\n";
  text += "f3 {\n  y = f32[8] parameter(0)\n  ROOT n = f32[8] exponential(y)\n}\n";
  text += "f4 {\n  y = f32[8] parameter(0)\n  ROOT n = f32[8] sqrt(y)\n}\n";
  text += "ENTRY e {\n";
  std::string cargs;
  for (int i = 0; i < k; ++i) {
    text += "  p" + std::to_string(i) + " = f32[8] parameter(" + std::to_string(i) + ")\n";
    cargs += (i ? ", p" : "p") + std::to_string(i);
  }
  text += "  x = f32[8] fusion(p0), kind=kLoop, calls=f1\n";
  text += "  c = f32[8] fusion(" + cargs + "), kind=kLoop, calls=fc\n";
  text += "  a = f32[8] fusion(c), kind=kLoop, calls=f2\n";
  text += "  b = f32[8] fusion(p1), kind=kLoop, calls=f3\n";
  text += "  d = f32[8] fusion(b), kind=kLoop, calls=f4\n";
  text += "  ROOT t = (f32[8], f32[8], f32[8]) tuple(x, a, d)\n}\n";
  FusionRun r = RunFusion("horizontal_loop_fusion", text);  // verifies: no cycle
  EXPECT_TRUE(r.changed);
  // x, a and b share a launch; c and d stay kernels of their own.
  EXPECT_NE(r.Find("c"), nullptr) << r.Text();
  EXPECT_NE(r.Find("d"), nullptr) << r.Text();
  EXPECT_EQ(r.CountFusions(), 3) << r.Text();
}

}  // namespace
}  // namespace hloscope::fusion_testing
