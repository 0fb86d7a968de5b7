// More conformance cases for `horizontal_loop_fusion` taken from XLA's
// HorizontalLoopFusion tests
// (xla/service/gpu/transforms/horizontal_loop_fusion_test.cc; shapes shrunk).
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

// XLA: NegativeTestForIncompatibleTypes — f16 and s32 outputs are not joined.
TEST(XlaHorizontalLoopFusion, NegativeTestForIncompatibleTypes) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fused_computation.1 {
  arg.1 = f16[128]{0} parameter(0)
  arg.2 = f16[128]{0} parameter(1)
  ROOT mul.1 = f16[128]{0} multiply(arg.1, arg.2)
}
fused_computation.2 {
  arg.3 = s32[123]{0} parameter(0)
  arg.4 = s32[123]{0} parameter(1)
  ROOT add.1 = s32[123]{0} add(arg.3, arg.4)
}
ENTRY entry_computation {
  arg.1 = f16[128]{0} parameter(0)
  arg.2 = f16[128]{0} parameter(1)
  arg.3 = s32[123]{0} parameter(2)
  arg.4 = s32[123]{0} parameter(3)
  fusion.1 = f16[128]{0} fusion(arg.1, arg.2), kind=kLoop, calls=fused_computation.1
  fusion.2 = s32[123]{0} fusion(arg.3, arg.4), kind=kLoop, calls=fused_computation.2
  ROOT tuple.1 = (f16[128]{0}, s32[123]{0}) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Group("mul.1"), r.Group("add.1"));
}

// XLA: HorizontalLoopFusionAfterVerticalFusion — priority fusion makes two
// loop fusions of different shapes, horizontal fusion joins them.
TEST(XlaHorizontalLoopFusion, HorizontalLoopFusionAfterVerticalFusion) {
  FusionRun r = RunFusion({"priority_fusion", "horizontal_loop_fusion"}, R"(
HloModule m
ENTRY e {
  param.1.1 = f32[4,1024]{1,0} parameter(0)
  param.1.2 = f32[4,1024]{1,0} parameter(1)
  param.1.3 = f32[4,1024]{1,0} parameter(2)
  param.2.1 = f32[321,5]{1,0} parameter(3)
  param.2.2 = f32[321,5]{1,0} parameter(4)
  param.2.3 = f32[321,5]{1,0} parameter(5)
  const.1 = f32[] constant(3)
  const.2 = f32[] constant(3)
  broadcast.1 = f32[4,1024]{1,0} broadcast(const.1), dimensions={}
  broadcast.2 = f32[321,5]{1,0} broadcast(const.2), dimensions={}
  mul.1.1 = f32[4,1024]{1,0} multiply(param.1.1, param.1.2)
  mul.1.2 = f32[4,1024]{1,0} multiply(param.1.3, broadcast.1)
  add.1 = f32[4,1024]{1,0} add(mul.1.1, mul.1.2)
  mul.2.1 = f32[321,5]{1,0} multiply(param.2.1, param.2.2)
  mul.2.2 = f32[321,5]{1,0} multiply(param.2.3, broadcast.2)
  add.2 = f32[321,5]{1,0} add(mul.2.1, mul.2.2)
  ROOT tuple = (f32[4,1024]{1,0}, f32[321,5]{1,0}) tuple(add.1, add.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("add.1"), "");
  EXPECT_EQ(r.Group("add.1"), r.Group("add.2")) << r.Text();
  EXPECT_EQ(r.Group("mul.1.1"), r.Group("add.2"));
  EXPECT_EQ(r.Group("mul.2.2"), r.Group("add.2"));
  EXPECT_EQ(r.CountFusions(), 1);
}

// XLA: FusingDifferentOutputs — two multi-output loop fusions are joined.
TEST(XlaHorizontalLoopFusion, FusingDifferentOutputs) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fused_computation.1 {
  arg.1 = f16[128]{0} parameter(0)
  arg.2 = f16[128]{0} parameter(1)
  arg.3 = f16[128]{0} parameter(2)
  arg.4 = f16[128]{0} parameter(3)
  mul.1 = f16[128]{0} multiply(arg.1, arg.2)
  mul.2 = f16[128]{0} multiply(arg.3, arg.4)
  add.1 = f16[128]{0} add(mul.1, mul.2)
  ROOT tuple.1 = (f16[128]{0}, f16[128]{0}) tuple(add.1, mul.1)
}
fused_computation.2 {
  arg.5 = f16[123]{0} parameter(0)
  arg.6 = f16[123]{0} parameter(1)
  arg.7 = f16[123]{0} parameter(2)
  arg.8 = f16[123]{0} parameter(3)
  add.2 = f16[123]{0} add(arg.5, arg.6)
  add.3 = f16[123]{0} add(arg.7, arg.8)
  mul.3 = f16[123]{0} multiply(add.2, add.3)
  ROOT tuple.2 = (f16[123]{0}, f16[123]{0}) tuple(mul.3, add.2)
}
ENTRY entry_computation {
  arg.1 = f16[128]{0} parameter(0)
  arg.2 = f16[128]{0} parameter(1)
  arg.3 = f16[128]{0} parameter(2)
  arg.4 = f16[128]{0} parameter(3)
  arg.5 = f16[123]{0} parameter(4)
  arg.6 = f16[123]{0} parameter(5)
  arg.7 = f16[123]{0} parameter(6)
  arg.8 = f16[123]{0} parameter(7)
  fusion.1 = (f16[128]{0}, f16[128]{0}) fusion(arg.1, arg.2, arg.3, arg.4), kind=kLoop, calls=fused_computation.1
  fusion.2 = (f16[123]{0}, f16[123]{0}) fusion(arg.5, arg.6, arg.7, arg.8), kind=kLoop, calls=fused_computation.2
  gte.1 = f16[128]{0} get-tuple-element(fusion.1), index=0
  gte.2 = f16[128]{0} get-tuple-element(fusion.1), index=1
  gte.3 = f16[123]{0} get-tuple-element(fusion.2), index=0
  gte.4 = f16[123]{0} get-tuple-element(fusion.2), index=1
  ROOT tuple.1 = (f16[128]{0}, f16[128]{0}, f16[123]{0}, f16[123]{0}) tuple(gte.1, gte.2, gte.3, gte.4)
})");
  EXPECT_TRUE(r.changed) << r.Text();
  EXPECT_NE(r.Group("add.1"), "");
  EXPECT_EQ(r.Group("add.1"), r.Group("mul.3"));
  EXPECT_EQ(r.CountFusions(), 1);
}

// XLA: DynamicUpdateSlice — two in-place dynamic-update-slice loop fusions
// are joined (and still evaluate correctly).
TEST(XlaHorizontalLoopFusion, DynamicUpdateSlice) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fusion.1 {
  p.0 = f16[5,9,10]{2,1,0} parameter(0)
  p.1 = s32[] parameter(1)
  p.2 = f16[1,9,10]{2,1,0} parameter(2)
  c.0 = s32[] constant(0)
  ROOT dus.1 = f16[5,9,10]{2,1,0} dynamic-update-slice(p.0, p.2, p.1, c.0, c.0)
}
fusion.2 {
  q.0 = f16[5,9,10]{2,1,0} parameter(0)
  q.1 = s32[] parameter(1)
  q.2 = f16[1,9,10]{2,1,0} parameter(2)
  d.0 = s32[] constant(0)
  ROOT dus.2 = f16[5,9,10]{2,1,0} dynamic-update-slice(q.0, q.2, q.1, d.0, d.0)
}
ENTRY entry {
  p.00 = f16[5,9,10]{2,1,0} parameter(0)
  p.01 = f16[5,9,10]{2,1,0} parameter(1)
  p.10 = s32[] parameter(2)
  p.11 = s32[] parameter(3)
  p.20 = f16[1,9,10]{2,1,0} parameter(4)
  p.21 = f16[1,9,10]{2,1,0} parameter(5)
  f1 = f16[5,9,10] fusion(p.00, p.10, p.20), kind=kLoop, calls=fusion.1
  f2 = f16[5,9,10] fusion(p.01, p.11, p.21), kind=kLoop, calls=fusion.2
  ROOT tuple = (f16[5,9,10], f16[5,9,10]) tuple(f1, f2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("dus.1"), "");
  EXPECT_EQ(r.Group("dus.1"), r.Group("dus.2")) << r.Text();
}

// XLA: AllowSharedParametersWhenNotUsingConcatenation — same-shape fusions
// sharing a parameter are joined into tuple(multiply, add).
TEST(XlaHorizontalLoopFusion, AllowSharedParametersWhenNotUsingConcatenation) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
fused_computation.1 {
  arg.1 = f16[123]{0} parameter(0)
  arg.2 = f16[123]{0} parameter(1)
  ROOT mul.1 = f16[123]{0} multiply(arg.1, arg.2)
}
fused_computation.2 {
  arg.3 = f16[123]{0} parameter(0)
  arg.4 = f16[123]{0} parameter(1)
  ROOT add.1 = f16[123]{0} add(arg.3, arg.4)
}
ENTRY entry_computation {
  arg.1 = f16[123]{0} parameter(0)
  arg.2 = f16[123]{0} parameter(1)
  arg.3 = f16[123]{0} parameter(2)
  fusion.1 = f16[123]{0} fusion(arg.1, arg.2), kind=kLoop, calls=fused_computation.1
  fusion.2 = f16[123]{0} fusion(arg.3, arg.2), kind=kLoop, calls=fused_computation.2
  ROOT tuple.1 = (f16[123]{0}, f16[123]{0}) tuple(fusion.1, fusion.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mul.1"), "");
  EXPECT_EQ(r.Group("mul.1"), r.Group("add.1")) << r.Text();
}

// XLA: ForbidSharedParametersWhenUsingConcatenation — f16[] and f16[1]
// outputs would need concatenation, and the two fusions share their input.
TEST(XlaHorizontalLoopFusion, ForbidSharedParametersWhenUsingConcatenation) {
  FusionRun r = RunFusion("horizontal_loop_fusion", R"(
HloModule m
f {
  p.1 = f16[] parameter(0)
  ROOT n.1 = f16[] negate(p.1)
}
g {
  p.2 = f16[] parameter(0)
  ROOT b.2 = f16[1] bitcast(p.2)
}
ENTRY e {
  p = f16[] parameter(0)
  a = f16[] fusion(p), kind=kLoop, calls=f
  b = f16[1] fusion(p), kind=kLoop, calls=g
  ROOT t = (f16[], f16[1]) tuple(a, b)
})");
  EXPECT_FALSE(r.changed) << r.Text();
}

// XLA: IterativeHorizontalFusion — run to a fixed point (with dce): the two
// sqrt instructions and the two loop fusions each end in one kernel, two
// fusions in all.
TEST(XlaHorizontalLoopFusion, IterativeHorizontalFusion) {
  FusionRun r = RunFusion({"horizontal_loop_fusion", "dce", "horizontal_loop_fusion", "dce",
                           "horizontal_loop_fusion", "dce"},
                          R"(
HloModule m
fused_computation.0 {
  arg.0 = f16[] parameter(0)
  arg.1 = f16[123]{0} parameter(1)
  broadcast.0 = f16[123]{0} broadcast(arg.0), dimensions={}
  ROOT mul.1 = f16[123]{0} multiply(broadcast.0, arg.1)
}
fused_computation.1 {
  arg.2 = f16[] parameter(0)
  arg.3 = f16[456]{0} parameter(1)
  broadcast.1 = f16[456]{0} broadcast(arg.2), dimensions={}
  ROOT add.1 = f16[456]{0} add(broadcast.1, arg.3)
}
ENTRY entry_computation {
  arg.0 = f16[] parameter(0)
  arg.1 = f16[] parameter(1)
  arg.2 = f16[123]{0} parameter(2)
  arg.3 = f16[456]{0} parameter(3)
  sqrt.0 = f16[] sqrt(arg.0)
  sqrt.1 = f16[] sqrt(arg.1)
  fusion.0 = f16[123]{0} fusion(sqrt.0, arg.2), kind=kLoop, calls=fused_computation.0
  fusion.1 = f16[456]{0} fusion(sqrt.1, arg.3), kind=kLoop, calls=fused_computation.1
  ROOT tuple.1 = (f16[123]{0}, f16[456]{0}) tuple(fusion.0, fusion.1)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mul.1"), "");
  EXPECT_EQ(r.Group("mul.1"), r.Group("add.1")) << r.Text();
  EXPECT_NE(r.Group("sqrt.0"), "") << r.Text();
  EXPECT_EQ(r.Group("sqrt.0"), r.Group("sqrt.1")) << r.Text();
  EXPECT_NE(r.Group("sqrt.0"), r.Group("mul.1"));
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
}

// XLA: TraversalOrder — visiting consumers before producers puts all four
// sqrt instructions in one kernel and the two loop fusions in another.
TEST(XlaHorizontalLoopFusion, TraversalOrder) {
  FusionRun r = RunFusion({"horizontal_loop_fusion", "horizontal_loop_fusion", "horizontal_loop_fusion"}, R"(
HloModule m
fused_computation {
  param_0 = f32[16,16]{1,0} parameter(0)
  param_1 = f32[] parameter(1)
  param_2 = f32[] parameter(2)
  multiply.0 = f32[] multiply(param_1, param_2)
  broadcast.0 = f32[16,16]{1,0} broadcast(multiply.0), dimensions={}
  ROOT multiply.1 = f32[16,16]{1,0} multiply(param_0, broadcast.0)
}
fused_computation.1 {
  param_0.1 = f32[16,16]{1,0} parameter(0)
  param_1.1 = f32[] parameter(1)
  param_2.1 = f32[] parameter(2)
  multiply.2 = f32[] multiply(param_1.1, param_2.1)
  broadcast.2 = f32[16,16]{1,0} broadcast(multiply.2), dimensions={}
  ROOT multiply.3 = f32[16,16]{1,0} multiply(param_0.1, broadcast.2)
}
ENTRY entry_computation {
  arg0 = f32[16,16]{1,0} parameter(0)
  arg1 = f32[16,16]{1,0} parameter(1)
  arg2 = f32[] parameter(2)
  arg3 = f32[] parameter(3)
  arg4 = f32[] parameter(4)
  arg5 = f32[] parameter(5)
  sqrt = f32[] sqrt(arg2)
  sqrt.1 = f32[] sqrt(arg3)
  fusion = f32[16,16]{1,0} fusion(arg0, sqrt, sqrt.1), kind=kLoop, calls=fused_computation
  sqrt.2 = f32[] sqrt(arg4)
  sqrt.3 = f32[] sqrt(arg5)
  fusion.1 = f32[16,16]{1,0} fusion(arg1, sqrt.2, sqrt.3), kind=kLoop, calls=fused_computation.1
  ROOT tuple.163 = (f32[16,16]{1,0}, f32[16,16]{1,0}) tuple(fusion.1, fusion)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
  EXPECT_EQ(r.Group("multiply.1"), r.Group("multiply.3"));
  EXPECT_NE(r.Group("sqrt"), "");
  for (const char* n : {"sqrt.1", "sqrt.2", "sqrt.3"}) EXPECT_EQ(r.Group(n), r.Group("sqrt")) << n;
  EXPECT_NE(r.Group("sqrt"), r.Group("multiply.1"));
}

}  // namespace
}  // namespace hloscope::fusion_testing
