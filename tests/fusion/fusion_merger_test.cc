// Conformance of `fusion_merger` with XLA's FusionMerger
// (xla/service/gpu/transforms/fusion_merger_test.cc; shapes shrunk).
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

// XLA: MergeSharedFusionInstruction — a loop fusion read by several consumer
// fusions is merged into each of them.
TEST(FusionMergerConformance, MergeSharedFusionInstruction) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
comp.3 {
  param.0 = f32[4] parameter(0)
  param.1 = f32[4] parameter(1)
  ROOT add.3 = f32[4] add(param.0, param.1)
}
comp.2 {
  param.2 = f32[4] parameter(0)
  ROOT negate.2 = f32[4] negate(param.2)
}
comp.1 {
  param.3 = f32[4] parameter(0)
  ROOT multiply.1 = f32[4] multiply(param.3, param.3)
}
comp {
  param.4 = f32[4] parameter(0)
  param.5 = f32[4] parameter(1)
  ROOT sub.0 = f32[4] subtract(param.4, param.5)
}
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  fusion.4 = f32[4] fusion(p0, p1), kind=kLoop, calls=comp.3
  fusion.3 = f32[4] fusion(fusion.4), kind=kLoop, calls=comp.2
  fusion.2 = f32[4] fusion(fusion.4), kind=kLoop, calls=comp.1
  fusion.1 = f32[4] fusion(fusion.4, p1), kind=kLoop, calls=comp
  ROOT t = (f32[4], f32[4], f32[4]) tuple(fusion.3, fusion.2, fusion.1)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Find("fusion.4"), nullptr) << r.Text();
  EXPECT_EQ(r.Group("add.3"), "fusion.1,fusion.2,fusion.3");
  EXPECT_EQ(r.Group("negate.2"), "fusion.3");
  EXPECT_NE(r.DecisionFor("fusion.4", FusionVerdict::kMerged), nullptr);
}

// XLA: WillMergeIntoInputFusion — a loop fusion into a reduction fusion.
TEST(FusionMergerConformance, WillMergeIntoInputFusion) {
  FusionRun r = RunFusion("fusion_merger", std::string("HloModule m\n") + kAdd + R"(
f1_computation {
  f1_p0 = f32[32] parameter(0)
  ROOT f1_root = f32[32] add(f1_p0, f1_p0)
}
f2_computation {
  f2_p0 = f32[32] parameter(0)
  f2_mul = f32[32] multiply(f2_p0, f2_p0)
  f2_zero = f32[] constant(0)
  ROOT f2_root = f32[] reduce(f2_mul, f2_zero), dimensions={0}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[32] parameter(0)
  f1 = f32[32] fusion(p0), kind=kLoop, calls=f1_computation
  ROOT f2 = f32[] fusion(f1), kind=kInput, calls=f2_computation
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("f1_root"), "f2") << r.Text();
  EXPECT_EQ(r.Group("f2_root"), "f2");
  EXPECT_EQ(r.Kind("f2"), "kInput");
}

// XLA: a producer fusion is only merged when every user is a fusion.
TEST(FusionMergerConformance, WillNotMergeIntoUnfusedConsumer) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f1_computation {
  f1_p0 = f32[32] parameter(0)
  ROOT f1_root = f32[32] add(f1_p0, f1_p0)
}
f2_computation {
  f2_p0 = f32[32] parameter(0)
  ROOT f2_root = f32[32] multiply(f2_p0, f2_p0)
}
ENTRY entry {
  p0 = f32[32] parameter(0)
  f1 = f32[32] fusion(p0), kind=kLoop, calls=f1_computation
  f2 = f32[32] fusion(f1), kind=kLoop, calls=f2_computation
  neg = f32[32] negate(f1)
  ROOT t = (f32[32], f32[32]) tuple(f2, neg)
})");
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.Group("f1_root"), "f1");
  const FusionDecision* d = r.DecisionFor("f1", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("not a fusion"), std::string::npos) << d->reason;
}

// XLA: MoreMemoryAccessIfFused — merging a producer that reads several
// large inputs into several consumers would read them all once per consumer.
TEST(FusionMergerConformance, MoreMemoryAccessIfFused) {
  FusionRun r = RunFusion("fusion_merger", std::string("HloModule m\n") + kAdd + R"(
add_computation {
  p0 = f32[64,64] parameter(0)
  p1 = f32[64,64] parameter(1)
  p2 = f32[64,64] parameter(2)
  add.0 = f32[64,64] add(p0, p1)
  ROOT add = f32[64,64] add(add.0, p2)
}
reduce_computation {
  p0.1 = f32[64,64] parameter(0)
  zero = f32[] constant(0)
  ROOT reduce = f32[64] reduce(p0.1, zero), dimensions={1}, to_apply=scalar_add
}
reduce_computation.2 {
  p0.2 = f32[64,64] parameter(0)
  zero.2 = f32[] constant(0)
  ROOT reduce.2 = f32[64] reduce(p0.2, zero.2), dimensions={0}, to_apply=scalar_add
}
reduce_computation.3 {
  p0.3 = f32[64,64] parameter(0)
  zero.3 = f32[] constant(0)
  ROOT reduce.3 = f32[] reduce(p0.3, zero.3), dimensions={0,1}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[64,64] parameter(0)
  p1 = f32[64,64] parameter(1)
  p2 = f32[64,64] parameter(2)
  fadd = f32[64,64] fusion(p0, p1, p2), kind=kLoop, calls=add_computation
  r1 = f32[64] fusion(fadd), kind=kInput, calls=reduce_computation
  r2 = f32[64] fusion(fadd), kind=kInput, calls=reduce_computation.2
  r3 = f32[] fusion(fadd), kind=kInput, calls=reduce_computation.3
  ROOT t = (f32[64], f32[64], f32[]) tuple(r1, r2, r3)
})");
  // Unfused: 3 x 16 KiB read + 16 KiB written + 3 x 16 KiB re-read = 112 KiB;
  // merged: every consumer reads the 3 inputs = 144 KiB.
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("add"), "fadd");
  const FusionDecision* d = r.DecisionFor("fadd", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("memory traffic"), std::string::npos) << d->reason;
}

// No change: the only loop fusion is the program's result.
TEST(FusionMergerConformance, NoChange) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f1_computation {
  f1_p0 = f32[32] parameter(0)
  ROOT f1_root = f32[32] add(f1_p0, f1_p0)
}
ENTRY entry {
  p0 = f32[32] parameter(0)
  ROOT f1 = f32[32] fusion(p0), kind=kLoop, calls=f1_computation
})");
  EXPECT_FALSE(r.changed);
}

}  // namespace
}  // namespace hloscope::fusion_testing
