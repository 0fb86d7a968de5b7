// More conformance cases for `priority_fusion` taken from XLA's
// PriorityFusion tests (xla/service/gpu/transforms/priority_fusion_test.cc;
// shapes shrunk so the interpreter checks every case).
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

const Instruction* Root(const FusionRun& r) { return r.module->entry()->root(); }

// XLA: FusionFusionWithDuplication — the cheap square fusion is duplicated
// into both its consumers; two kernels remain, both reading the parameter.
TEST(XlaPriorityFusion, FusionFusionWithDuplication) {
  FusionRun r = RunFusion("priority_fusion", R"(
HloModule m
square {
  p = f32[64]{0} parameter(0)
  ROOT m = f32[64]{0} multiply(p, p)
}
exp {
  p = f32[64]{0} parameter(0)
  ROOT e = f32[64]{0} exponential(p)
}
log {
  p = f32[64]{0} parameter(0)
  ROOT l = f32[64]{0} log(p)
}
ENTRY main {
  p = f32[64]{0} parameter(0)
  s = f32[64]{0} fusion(p), kind=kLoop, calls=square
  e = f32[64]{0} fusion(s), kind=kLoop, calls=exp
  l = f32[64]{0} fusion(s), kind=kInput, calls=log
  ROOT t = (f32[64], f32[64]) tuple(l, e)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
  const Instruction* t = Root(r);
  ASSERT_EQ(t->opcode(), Opcode::kTuple);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(t->operand(i)->opcode(), Opcode::kFusion) << r.Text();
    ASSERT_EQ(t->operand(i)->operand_count(), 1);
    EXPECT_EQ(t->operand(i)->operand(0)->opcode(), Opcode::kParameter) << r.Text();
  }
}

// XLA: FuseBroadcastIntoBitcastConsumers — broadcast, bitcast and transpose
// become one fusion reading only the parameter.
TEST(XlaPriorityFusion, FuseBroadcastIntoBitcastConsumers) {
  FusionRun r = RunFusion("priority_fusion", R"(
HloModule m
ENTRY main {
  param_0 = f32[8]{0} parameter(0)
  broadcast = f32[2,8,4,3]{3,2,1,0} broadcast(param_0), dimensions={1}
  bitcast.1 = f32[2,2,4,4,3]{4,3,2,1,0} bitcast(broadcast)
  ROOT transpose.1 = f32[2,2,4,3,4]{4,3,2,1,0} transpose(bitcast.1), dimensions={0,1,3,4,2}
})");
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(Root(r)->opcode(), Opcode::kFusion) << r.Text();
  ASSERT_EQ(Root(r)->operand_count(), 1);
  EXPECT_EQ(Root(r)->operand(0)->opcode(), Opcode::kParameter);
  for (const char* n : {"broadcast", "bitcast.1", "transpose.1"}) EXPECT_EQ(r.Group(n), Root(r)->name()) << n;
}

// XLA: FuseWideningConvertIntoConsumers — add+convert are duplicated into
// the multiply's fusion and into their own fusion that feeds the bitcast;
// the bitcast stays unfused (CanFuseWithAllNonBitcastUsers).
TEST(XlaPriorityFusion, FuseWideningConvertIntoConsumers) {
  FusionRun r = RunFusion("priority_fusion", R"(
HloModule m
ENTRY main {
  p = f16[512]{0} parameter(0)
  a = f16[512]{0} add(p, p)
  c = f32[512]{0} convert(a)
  s = f32[512]{0} multiply(c, c)
  bc = s32[512]{0} bitcast(c)
  ROOT t = (f32[512], s32[512]) tuple(s, bc)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
  const Instruction* bc = r.Find("bc");
  ASSERT_NE(bc, nullptr);
  EXPECT_EQ(bc->parent(), r.module->entry()) << r.Text();  // the bitcast stays unfused
  ASSERT_EQ(bc->operand(0)->opcode(), Opcode::kFusion) << r.Text();
  EXPECT_EQ(bc->operand(0)->fused_computation()->root()->opcode(), Opcode::kConvert) << r.Text();
  EXPECT_NE(r.Group("s"), "");
  EXPECT_NE(r.Group("s"), r.Group("bc"));
  // add and convert are computed in both fusions.
  EXPECT_NE(r.Group("c").find(","), std::string::npos) << r.Text();
  EXPECT_NE(r.Group("a").find(","), std::string::npos) << r.Text();
}

// XLA: DoNotChangeReductionFusionToLoopFusion — a slice consumer of a
// reduction fusion (even one marked kLoop) is not fused: no change.
TEST(XlaPriorityFusion, DoNotChangeReductionFusionToLoopFusion) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
fused_computation {
  p0 = f32[16,64]{1,0} parameter(0)
  zero = f32[] constant(0.0)
  ROOT reduce = f32[16]{0} reduce(p0, zero), dimensions={1}, to_apply=scalar_add
}
ENTRY main {
  param0 = f32[16,64]{1,0} parameter(0)
  fusion = f32[16]{0} fusion(param0), kind=kLoop, calls=fused_computation
  ROOT slice = f32[8]{0} slice(fusion), slice={[0:8]}
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(Root(r)->opcode(), Opcode::kSlice);
}

// XLA: DontFuseIntoFirstOperandOfScatter — indices and updates fuse into the
// scatter (kInput), the scattered-into operand does not.
TEST(XlaPriorityFusion, DontFuseIntoFirstOperandOfScatter) {
  FusionRun r = RunFusion("priority_fusion", R"(
HloModule m
add {
  lhs = s32[] parameter(0)
  rhs = s32[] parameter(1)
  ROOT add = s32[] add(lhs, rhs)
}
ENTRY e {
  p0 = s32[3,3] parameter(0)
  operand = s32[3,3] add(p0, p0)
  p1 = s32[2,1] parameter(1)
  indices = s32[2,1] add(p1, p1)
  p2 = s32[2,3] parameter(2)
  updates = s32[2,3] add(p2, p2)
  scatter = s32[3,3] scatter(operand, indices, updates), to_apply=add, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1
  ROOT add = s32[3,3] add(scatter, scatter)
})");
  ASSERT_NE(r.Group("scatter"), "") << r.Text();
  EXPECT_EQ(r.KindOf("scatter"), "kInput");
  EXPECT_EQ(r.Group("indices"), r.Group("scatter"));
  EXPECT_EQ(r.Group("updates"), r.Group("scatter"));
  EXPECT_NE(r.Group("operand"), r.Group("scatter"));
  EXPECT_EQ(r.Group("add"), "");  // nothing fuses into the output of a scatter
  const FusionDecision* d = r.DecisionFor("operand", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("in place"), std::string::npos) << d->reason;
}

// XLA: DontFuseConstantIntoFirstOperandOfScatter — not even a constant; the
// broadcast updates (with their constant) join the scatter's kInput fusion.
TEST(XlaPriorityFusion, DontFuseConstantIntoFirstOperandOfScatter) {
  FusionRun r = RunFusion("priority_fusion", R"(
HloModule m
add {
  lhs = s32[] parameter(0)
  rhs = s32[] parameter(1)
  ROOT add = s32[] add(lhs, rhs)
}
ENTRY e {
  operand = s32[1] constant({0})
  indices = s32[24,1] parameter(0)
  constant = s32[] constant(1)
  updates = s32[24,1] broadcast(constant), dimensions={}
  ROOT scatter = s32[1] scatter(operand, indices, updates), to_apply=add, update_window_dims={1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1
})");
  ASSERT_EQ(Root(r)->opcode(), Opcode::kFusion) << r.Text();
  EXPECT_EQ(r.Kind(Root(r)->name()), "kInput");
  EXPECT_EQ(r.Group("scatter"), Root(r)->name());
  EXPECT_EQ(r.Group("operand"), "");
  EXPECT_EQ(r.Group("updates"), Root(r)->name());
  EXPECT_EQ(r.Group("constant"), Root(r)->name());
}

// XLA: FuseOnlySmallConstant — the scalar constant fuses, the f32[4,4]
// constant stays an operand.
TEST(XlaPriorityFusion, FuseOnlySmallConstant) {
  FusionRun r = RunFusion("priority_fusion", R"(
HloModule m
ENTRY main {
  param_0 = f32[4,4]{1,0} parameter(0)
  c_1 = f32[] constant(1)
  c_2 = f32[4,4] constant({{1,2,3,4},{5,6,7,8},{9,10,11,12},{13,14,15,16}})
  broadcast = f32[4,4]{1,0} broadcast(c_1), dimensions={}
  add = f32[4,4]{1,0} add(param_0, broadcast)
  ROOT mul = f32[4,4]{1,0} multiply(c_2, add)
})");
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(Root(r)->opcode(), Opcode::kFusion) << r.Text();
  ASSERT_EQ(Root(r)->operand_count(), 2);
  EXPECT_EQ(Root(r)->operand(0)->opcode(), Opcode::kConstant);
  EXPECT_EQ(Root(r)->operand(1)->opcode(), Opcode::kParameter);
  for (const char* n : {"c_1", "broadcast", "add", "mul"}) EXPECT_EQ(r.Group(n), Root(r)->name()) << n;
  EXPECT_EQ(r.Group("c_2"), "");
}

// XLA: DoNotFuseReduceIntoReduceEvenIfOccupancyIsHigh — each reduce stays
// the root of its own fusion.
TEST(XlaPriorityFusion, DoNotFuseReduceIntoReduceEvenIfOccupancyIsHigh) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  p0 = f32[4,6,8,3]{3,2,1,0} parameter(0)
  c = f32[] constant(0)
  r1 = f32[4,6,8]{2,1,0} reduce(p0, c), dimensions={3}, to_apply=scalar_add
  ROOT r2 = f32[4,6]{1,0} reduce(r1, c), dimensions={2}, to_apply=scalar_add
})");
  EXPECT_NE(r.Group("r1"), r.Group("r2")) << r.Text();
  EXPECT_TRUE(r.Group("r1") == "" || r.Find(r.Group("r1"))->fused_computation()->root()->name() == "r1");
}

// XLA: EpilogueFusion — the loop fusion computing log(log(reduce)) is fused
// into the reduction fusion, which stays kInput.
TEST(XlaPriorityFusion, EpilogueFusion) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
fused_computation.1 {
  p0 = f32[2,4,8,6]{3,2,1,0} parameter(0)
  c0 = f32[] constant(0)
  ROOT r0 = f32[2,4,8]{2,1,0} reduce(p0, c0), dimensions={3}, to_apply=scalar_add
}
fused_computation.2 {
  p0 = f32[2,4,8]{2,1,0} parameter(0)
  r1 = f32[2,4,8]{2,1,0} log(p0)
  ROOT r2 = f32[2,4,8]{2,1,0} log(r1)
}
ENTRY main {
  p0 = f32[2,4,8,6]{3,2,1,0} parameter(0)
  f1 = f32[2,4,8]{2,1,0} fusion(p0), kind=kInput, calls=fused_computation.1
  ROOT fusion = f32[2,4,8]{2,1,0} fusion(f1), kind=kLoop, calls=fused_computation.2
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("r0"), "") << r.Text();
  EXPECT_EQ(r.Group("r0"), r.Group("r2")) << r.Text();
  EXPECT_EQ(r.Group("r0"), r.Group("r1")) << r.Text();
  EXPECT_EQ(r.KindOf("r0"), "kInput");
  EXPECT_EQ(r.CountFusions(), 1);
}

}  // namespace
}  // namespace hloscope::fusion_testing
