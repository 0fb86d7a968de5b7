// Conformance of `fusion` / `fusion_dup` with XLA's GPU instruction fusion
// (xla/service/gpu/transforms/instruction_fusion_test.cc; shapes shrunk).
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

// XLA: CostlyProducerAndOperandElementReusingConsumerNotFused.
TEST(InstructionFusionConformance, CostlyProducerIntoReusingBroadcastNotFused) {
  FusionRun r = RunFusion("fusion_dup", R"(
HloModule m
ENTRY e {
  c0 = f32[] parameter(0)
  exp1 = f32[] log(c0)
  ROOT broadcast2 = f32[4] broadcast(exp1), dimensions={}
})");
  EXPECT_EQ(r.Group("exp1"), "") << r.Text();
  const FusionDecision* d = r.DecisionFor("exp1", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("expensive"), std::string::npos) << d->reason;
}

// XLA: NonCostlyProducerAndOperandElementReusingConsumerFused.
TEST(InstructionFusionConformance, CheapProducerIntoBroadcastFused) {
  FusionRun r = RunFusion("fusion", R"(
HloModule m
ENTRY e {
  c0 = f32[] parameter(0)
  negate1 = f32[] negate(c0)
  ROOT broadcast2 = f32[4] broadcast(negate1), dimensions={}
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("negate1"), "");
  EXPECT_EQ(r.Group("negate1"), r.Group("broadcast2"));
  EXPECT_EQ(r.KindOf("broadcast2"), "kLoop");
  EXPECT_EQ(r.module->entry()->root()->opcode(), Opcode::kFusion);
}

// XLA: CostlyProducerAndNonOperandElementReusingConsumerFused_Reshape / _Transpose.
TEST(InstructionFusionConformance, CostlyProducerIntoReshapeAndTransposeFused) {
  FusionRun r = RunFusion("fusion", R"(
HloModule m
ENTRY e {
  c0 = f32[2,3] parameter(0)
  exp1 = f32[2,3] exponential(c0)
  transpose2 = f32[3,2] transpose(exp1), dimensions={1,0}
  ROOT reshape3 = f32[6] reshape(transpose2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("exp1"), "");
  EXPECT_EQ(r.Group("exp1"), r.Group("transpose2"));
  EXPECT_EQ(r.Group("exp1"), r.Group("reshape3"));
  EXPECT_EQ(r.KindOf("exp1"), "kLoop");
}

// XLA: PotentialBitcastReshapeOfDotUnfused — the dot stays a library kernel.
TEST(InstructionFusionConformance, DotIsNotFusedIntoReshape) {
  FusionRun r = RunFusion("fusion_dup", R"(
HloModule m
ENTRY e {
  p0 = f32[1,2] parameter(0)
  p1 = f32[2,1] parameter(1)
  dot = f32[1,1] dot(p0, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT reshape = f32[1] reshape(dot)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("dot"), "");
  const FusionDecision* d = r.DecisionFor("dot", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->reason.empty());
}

// XLA: BroadcastIntoReduce — the reduce becomes the root of an input fusion.
TEST(InstructionFusionConformance, BroadcastIntoReduceIsInputFusion) {
  FusionRun r = RunFusion("fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  constant = f32[] constant(1)
  broadcast = f32[4,8,2] broadcast(constant), dimensions={}
  constant.1 = f32[] constant(0)
  ROOT reduce = f32[] reduce(broadcast, constant.1), dimensions={0,1,2}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce"), "");
  EXPECT_EQ(r.Group("broadcast"), r.Group("reduce"));
  EXPECT_EQ(r.Group("constant"), r.Group("reduce"));
  EXPECT_EQ(r.KindOf("reduce"), "kInput");
  const Instruction* root = r.module->entry()->root();
  ASSERT_EQ(root->opcode(), Opcode::kFusion);
  EXPECT_EQ(root->fused_computation()->root()->opcode(), Opcode::kReduce);
}

// XLA: BroadcastIntoAdd.
TEST(InstructionFusionConformance, BroadcastIntoAddIsLoopFusion) {
  FusionRun r = RunFusion("fusion", R"(
HloModule m
ENTRY e {
  p0 = f32[] parameter(0)
  p1 = f32[4,8] parameter(1)
  broadcast = f32[4,8] broadcast(p0), dimensions={}
  ROOT add = f32[4,8] add(broadcast, p1)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("add"), "");
  EXPECT_EQ(r.Group("broadcast"), r.Group("add"));
  EXPECT_EQ(r.KindOf("add"), "kLoop");
}

// XLA: FuseLayoutChangingOpWithElementwise / elementwise chains.
TEST(InstructionFusionConformance, ElementwiseChainIntoReduce) {
  FusionRun r = RunFusion("fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  p0 = f32[8,16] parameter(0)
  p1 = f32[8,16] parameter(1)
  mul = f32[8,16] multiply(p0, p1)
  tr = f32[16,8] transpose(mul), dimensions={1,0}
  zero = f32[] constant(0)
  ROOT reduce = f32[16] reduce(tr, zero), dimensions={1}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("mul"), r.Group("reduce"));
  EXPECT_EQ(r.Group("tr"), r.Group("reduce"));
  EXPECT_EQ(r.KindOf("reduce"), "kInput");
  EXPECT_EQ(r.CountFusions(), 1);
}

// XLA: IntegerDivIsNotCheap — integer division is emulated on GPUs, so an
// s32 divide with two users is never duplicated: a and b stay unfused and
// the divide (with its cheap operands) is its own kernel.
TEST(InstructionFusionConformance, IntegerDivIsNotCheap) {
  FusionRun r = RunFusion({"fusion", "fusion_dup"}, R"(
HloModule m
ENTRY e {
  p0 = s32[4] parameter(0)
  p1 = s32[4] parameter(1)
  one = s32[] constant(1)
  ones = s32[4] broadcast(one), dimensions={}
  safe = s32[4] maximum(p1, ones)
  div = s32[4] divide(p0, safe)
  a = s32[4] add(div, p0)
  b = s32[4] multiply(div, p1)
  ROOT t = (s32[4], s32[4]) tuple(a, b)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("div"), "") << r.Text();
  EXPECT_EQ(r.Group("safe"), r.Group("div"));
  EXPECT_EQ(r.Group("a"), "") << r.Text();
  EXPECT_EQ(r.Group("b"), "");
  EXPECT_EQ(r.CountFusions(), 1);
}

// XLA: FloatingPointDivIsCheap — XLA's GPU backend calls f32 divide cheap
// (a fast hardware approximation), so fusion_dup copies it into the kernels
// of both users.
TEST(InstructionFusionConformance, FloatingPointDivIsCheap) {
  FusionRun r = RunFusion({"fusion", "fusion_dup"}, R"(
HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  div = f32[4] divide(p0, p1)
  a = f32[4] add(div, p0)
  b = f32[4] multiply(div, p1)
  ROOT t = (f32[4], f32[4]) tuple(a, b)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("a"), "") << r.Text();
  EXPECT_NE(r.Group("b"), "");
  EXPECT_NE(r.Group("a"), r.Group("b"));
  EXPECT_NE(r.Group("div").find(","), std::string::npos) << "div should be in both fusions\n" << r.Text();
  EXPECT_NE(r.DecisionFor("div", FusionVerdict::kFusedWithDuplication), nullptr);
}

// Cheap producers with several users: `fusion` keeps them, `fusion_dup` copies them.
TEST(InstructionFusionConformance, CheapProducerDuplicatedOnlyByFusionDup) {
  const std::string hlo = R"(
HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  neg = f32[4] negate(p0)
  a = f32[4] add(neg, p1)
  b = f32[4] multiply(neg, p1)
  ROOT t = (f32[4], f32[4]) tuple(a, b)
})";
  FusionRun first = RunFusion("fusion", hlo);
  EXPECT_EQ(first.Group("neg"), "");
  const FusionDecision* d = first.DecisionFor("neg", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->reason.empty());
  FusionRun both = RunFusion({"fusion", "fusion_dup"}, hlo);
  std::string g = both.Group("neg");
  EXPECT_NE(g.find(","), std::string::npos) << "neg should be in both fusions: " << g << "\n" << both.Text();
  EXPECT_NE(both.DecisionFor("neg", FusionVerdict::kFusedWithDuplication), nullptr);
}

// XLA (gpu_fusible): a reduce is never fused into another reduce.
TEST(InstructionFusionConformance, ReduceNotFusedIntoReduce) {
  FusionRun r = RunFusion("fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY e {
  p0 = f32[4,8] parameter(0)
  zero = f32[] constant(0)
  r1 = f32[4] reduce(p0, zero), dimensions={1}, to_apply=scalar_add
  ROOT r2 = f32[] reduce(r1, zero), dimensions={0}, to_apply=scalar_add
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("r1"), "");
  EXPECT_EQ(r.Group("r2"), "");
  const FusionDecision* d = r.DecisionFor("r1", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("reduce"), std::string::npos) << d->reason;
}

// XLA: in-place dynamic-update-slice keeps its updated operand in its buffer.
TEST(InstructionFusionConformance, DynamicUpdateSliceOperandNotFused) {
  FusionRun r = RunFusion("fusion", R"(
HloModule m
ENTRY e {
  p0 = f32[8] parameter(0)
  p1 = f32[2] parameter(1)
  i = s32[] parameter(2)
  neg = f32[8] negate(p0)
  upd = f32[2] exponential(p1)
  ROOT dus = f32[8] dynamic-update-slice(neg, upd, i)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("neg"), "") << r.Text();
  EXPECT_EQ(r.Group("upd"), r.Group("dus"));
}

// No change: nothing but parameters feeds the consumers.
TEST(InstructionFusionConformance, NoChange) {
  FusionRun r = RunFusion("fusion", R"(
HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT add = f32[4] add(p0, p1)
})");
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.CountFusions(), 0);
}

}  // namespace
}  // namespace hloscope::fusion_testing
