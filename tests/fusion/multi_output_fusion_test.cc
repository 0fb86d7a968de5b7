// Conformance of `multi_output_fusion` with XLA's GPU MultiOutputFusion
// (xla/service/gpu/transforms/multi_output_fusion_test.cc; shapes shrunk).
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

const std::string kPrefix = std::string("HloModule m\n") + kAdd + R"(
scalar_mul {
  c = f32[] parameter(0)
  d = f32[] parameter(1)
  ROOT m = f32[] multiply(c, d)
}
)";

// XLA: MultiOutputFusionSiblingReduceFusions — two reduction fusions reading
// the same input become one kernel with a tuple of two reduces.
TEST(MultiOutputFusionConformance, SiblingReduceFusions) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p1.1 = f32[4,8,2,2] parameter(1)
  mul = f32[4,8,2,2] multiply(p1.1, p1.1)
  const.1 = f32[] parameter(0)
  ROOT reduce.1 = f32[8] reduce(mul, const.1), dimensions={0,2,3}, to_apply=scalar_add
}
fused_computation_2 {
  p1.2 = f32[4,8,2,2] parameter(1)
  const.2 = f32[] parameter(0)
  ROOT reduce.2 = f32[8] reduce(p1.2, const.2), dimensions={0,2,3}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[] parameter(0)
  p1 = f32[4,8,2,2] parameter(1)
  fusion.1 = f32[8] fusion(p0, p1), kind=kInput, calls=fused_computation_1
  fusion.2 = f32[8] fusion(p0, p1), kind=kInput, calls=fused_computation_2
  ROOT root = (f32[8], f32[8]) tuple(fusion.1, fusion.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce.1"), "");
  EXPECT_EQ(r.Group("reduce.1"), r.Group("reduce.2")) << r.Text();
  EXPECT_EQ(r.KindOf("reduce.1"), "kInput");
  const Instruction* f = r.Find(r.Group("reduce.1"));
  ASSERT_NE(f, nullptr);
  const Instruction* root = f->fused_computation()->root();
  ASSERT_EQ(root->opcode(), Opcode::kTuple);
  EXPECT_EQ(root->operand_count(), 2);
  EXPECT_NE(r.DecisionFor("fusion.1", FusionVerdict::kMerged), nullptr);
}

// XLA: MultiOutputFusionDifferentReduceInputShapes — not merged.
TEST(MultiOutputFusionConformance, DifferentReduceInputShapes) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p1.1 = f32[64] parameter(1)
  mul = f32[64] multiply(p1.1, p1.1)
  const.1 = f32[] parameter(0)
  ROOT reduce.1 = f32[] reduce(mul, const.1), dimensions={0}, to_apply=scalar_add
}
fused_computation_2 {
  p1.2 = f32[64] parameter(1)
  r1 = f32[8,8] reshape(p1.2)
  const.2 = f32[] parameter(0)
  ROOT reduce.2 = f32[] reduce(r1, const.2), dimensions={1,0}, to_apply=scalar_mul
}
ENTRY entry {
  p0 = f32[] parameter(0)
  p1 = f32[64] parameter(1)
  fusion.1 = f32[] fusion(p0, p1), kind=kInput, calls=fused_computation_1
  fusion.2 = f32[] fusion(p0, p1), kind=kInput, calls=fused_computation_2
  ROOT root = (f32[], f32[]) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("reduce.1"), "fusion.1");
  EXPECT_EQ(r.Group("reduce.2"), "fusion.2");
  bool explained = false;
  for (const auto& d : r.decisions) explained |= d.verdict == FusionVerdict::kNotFused && !d.reason.empty();
  EXPECT_TRUE(explained);
}

// XLA: MultiOutputFusionDifferentReduceOutputShapes — same input shape but
// different reduced dimensions: not merged.
TEST(MultiOutputFusionConformance, DifferentReduceOutputShapes) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p1.1 = f32[10,10] parameter(1)
  mul = f32[10,10] multiply(p1.1, p1.1)
  const.1 = f32[] parameter(0)
  ROOT reduce.1 = f32[] reduce(mul, const.1), dimensions={0,1}, to_apply=scalar_add
}
fused_computation_2 {
  p1.2 = f32[10,10] parameter(1)
  const.2 = f32[] parameter(0)
  ROOT reduce.2 = f32[10] reduce(p1.2, const.2), dimensions={0}, to_apply=scalar_mul
}
ENTRY entry {
  p0 = f32[] parameter(0)
  p1.3 = f32[10,10] parameter(1)
  fusion.1 = f32[] fusion(p0, p1.3), kind=kInput, calls=fused_computation_1
  p2 = f32[] parameter(2)
  fusion.2 = f32[10] fusion(p2, p1.3), kind=kInput, calls=fused_computation_2
  ROOT root = (f32[], f32[10]) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("reduce.1"), "fusion.1");
  EXPECT_EQ(r.Group("reduce.2"), "fusion.2");
}

// XLA: sibling loop fusions reading the same input with the same shape.
TEST(MultiOutputFusionConformance, SiblingLoopFusions) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p.1 = f32[6,4] parameter(0)
  ROOT neg.1 = f32[6,4] negate(p.1)
}
fused_computation_2 {
  p.2 = f32[6,4] parameter(0)
  ROOT exp.2 = f32[6,4] exponential(p.2)
}
ENTRY entry {
  p0 = f32[6,4] parameter(0)
  fusion.1 = f32[6,4] fusion(p0), kind=kLoop, calls=fused_computation_1
  fusion.2 = f32[6,4] fusion(p0), kind=kLoop, calls=fused_computation_2
  ROOT root = (f32[6,4], f32[6,4]) tuple(fusion.1, fusion.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("neg.1"), r.Group("exp.2")) << r.Text();
  EXPECT_EQ(r.KindOf("neg.1"), "kLoop");
}

// XLA: ProducerConsumerFusionLoopFusionAndReduceFusion — a loop fusion whose
// result is also a program output becomes an extra output of the reduction
// fusion that consumes it.
TEST(MultiOutputFusionConformance, ProducerConsumerLoopAndReduce) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_add {
  p0.1 = f32[4,8] parameter(0)
  p1.1 = f32[4,8] parameter(1)
  ROOT add = f32[4,8] add(p0.1, p1.1)
}
fused_reduce {
  p0.2 = f32[4,8] parameter(0)
  mul = f32[4,8] multiply(p0.2, p0.2)
  c0 = f32[] constant(0)
  ROOT reduce = f32[4] reduce(mul, c0), dimensions={1}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[4,8] parameter(0)
  p1 = f32[4,8] parameter(1)
  fusion = f32[4,8] fusion(p0, p1), kind=kLoop, calls=fused_add
  reduce_fusion = f32[4] fusion(fusion), kind=kInput, calls=fused_reduce
  ROOT root = (f32[4], f32[4,8]) tuple(reduce_fusion, fusion)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("add"), r.Group("reduce")) << r.Text();
  EXPECT_EQ(r.KindOf("reduce"), "kInput");
  EXPECT_TRUE(r.Find(r.Group("reduce"))->shape().IsTuple());
}

// XLA: ProducerConsumerFusionDoNotFuseIfCycle-style — an extra output that
// would form a cycle is refused.
TEST(MultiOutputFusionConformance, ProducerConsumerWouldCreateCycle) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_neg {
  q0 = f32[16] parameter(0)
  ROOT neg = f32[16] negate(q0)
}
fused_mul {
  q1 = f32[16] parameter(0)
  q2 = f32[16] parameter(1)
  ROOT mul = f32[16] multiply(q1, q2)
}
ENTRY entry {
  p0 = f32[16] parameter(0)
  f1 = f32[16] fusion(p0), kind=kLoop, calls=fused_neg
  other = f32[16] exponential(f1)
  f2 = f32[16] fusion(f1, other), kind=kLoop, calls=fused_mul
  ROOT root = (f32[16], f32[16]) tuple(f2, f1)
})");
  EXPECT_NE(r.Group("neg"), r.Group("mul")) << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions)
    explained |= d.producer == "f1" && d.verdict == FusionVerdict::kNotFused &&
                 d.reason.find("cycle") != std::string::npos;
  EXPECT_TRUE(explained);
}

TEST(MultiOutputFusionConformance, NoChange) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p.1 = f32[6,4] parameter(0)
  ROOT neg.1 = f32[6,4] negate(p.1)
}
ENTRY entry {
  p0 = f32[6,4] parameter(0)
  ROOT fusion.1 = f32[6,4] fusion(p0), kind=kLoop, calls=fused_computation_1
})");
  EXPECT_FALSE(r.changed);
}

// A reduction with an epilogue (sqrt(reduce)) is still a reduction over its
// input: it joins a sibling reduction of the same input and reduce shape,
// and the merged kernel is an input (reduction) fusion, not a loop fusion.
TEST(MultiOutputFusionConformance, EpilogueReductionJoinsSiblingReduction) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] maximum(a, b)
}
ENTRY e {
  p0 = f32[8,16] parameter(0)
  z = f32[] constant(0)
  ninf = f32[] constant(-inf)
  r1 = f32[8] reduce(p0, z), dimensions={1}, to_apply=add
  s1 = f32[8] sqrt(r1)
  r2 = f32[8] reduce(p0, ninf), dimensions={1}, to_apply=mx
  ROOT t = (f32[8], f32[8]) tuple(s1, r2)
})");
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  EXPECT_NE(r.Group("s1"), "");
  EXPECT_EQ(r.Group("s1"), r.Group("r1"));
  EXPECT_EQ(r.Group("s1"), r.Group("r2"));
  EXPECT_EQ(r.KindOf("r2"), "kInput");
}

}  // namespace
}  // namespace hloscope::fusion_testing
