// More conformance cases for `multi_output_fusion` taken from XLA's GPU
// MultiOutputFusion tests (xla/service/gpu/transforms/multi_output_fusion_test.cc;
// shapes shrunk so the interpreter checks every case).
#include <algorithm>

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

// Sorted opcode names of the outputs of the fusion `name` ended in ("" when
// it is not in a fusion; one name when the fusion has a single output).
std::string Outputs(const FusionRun& r, const std::string& name) {
  const Instruction* f = r.Find(r.Group(name));
  if (!f) return "";
  const Instruction* root = f->fused_computation()->root();
  std::vector<std::string> ops;
  if (root->opcode() == Opcode::kTuple)
    for (const Instruction* o : root->operands()) ops.emplace_back(OpcodeName(o->opcode()));
  else
    ops.emplace_back(OpcodeName(root->opcode()));
  std::sort(ops.begin(), ops.end());
  std::string s;
  for (const auto& o : ops) s += (s.empty() ? "" : ",") + o;
  return s;
}

// XLA: MultiOutputFusionSiblingReduceAndReduceFusion — an unfused reduce
// joins a sibling reduction fusion reading the same parameter.
TEST(XlaMultiOutputFusion, SiblingReduceAndReduceFusion) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation {
  p1.1 = f32[4,8,2,2]{3,2,1,0} parameter(1)
  mul = f32[4,8,2,2]{3,2,1,0} multiply(p1.1, p1.1)
  const.1 = f32[] parameter(0)
  ROOT reduce.1 = f32[8]{0} reduce(mul, const.1), dimensions={0,2,3}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[] parameter(0)
  p1 = f32[4,8,2,2]{3,2,1,0} parameter(1)
  const.2 = f32[] constant(1)
  fusion = f32[8] fusion(p0, p1), kind=kInput, calls=fused_computation
  reduce.2 = f32[8]{0} reduce(p1, const.2), dimensions={0,2,3}, to_apply=scalar_add
  ROOT root = (f32[8]{0}, f32[8]{0}) tuple(fusion, reduce.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce.1"), "");
  EXPECT_EQ(r.Group("reduce.1"), r.Group("reduce.2")) << r.Text();
  EXPECT_EQ(Outputs(r, "reduce.1"), "reduce,reduce");
}

// XLA: ReduceMofDifferentTypes — an f16 and an f32 reduction of the same
// input share one kernel.
TEST(XlaMultiOutputFusion, ReduceMofDifferentTypes) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
scalar_add_f16 {
  a0 = f16[] parameter(0)
  b0 = f16[] parameter(1)
  ROOT s0 = f16[] add(a0, b0)
}
fused_computation {
  param_0.2 = f32[4,8,2,2]{3,2,1,0} parameter(0)
  c.1 = f16[4,8,2,2]{3,2,1,0} convert(param_0.2)
  const.0 = f16[] constant(0)
  ROOT reduce.0 = f16[8]{0} reduce(c.1, const.0), dimensions={0,2,3}, to_apply=scalar_add_f16
}
ENTRY entry {
  p0 = f32[] parameter(0)
  p1 = f32[4,8,2,2]{3,2,1,0} parameter(1)
  const.2 = f32[] constant(0)
  reduce.1 = f32[8]{0} reduce(p1, const.2), dimensions={0,2,3}, to_apply=scalar_add
  fusion = f16[8]{0} fusion(p1), kind=kInput, calls=fused_computation
  ROOT root = (f32[8]{0}, f16[8]{0}) tuple(reduce.1, fusion)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce.0"), "");
  EXPECT_EQ(r.Group("reduce.0"), r.Group("reduce.1")) << r.Text();
  EXPECT_EQ(r.KindOf("reduce.0"), "kInput");
  EXPECT_EQ(Outputs(r, "reduce.0"), "reduce,reduce");
}

// XLA: MultiOutputFusionNoSiblingFusionForCommonScalar — siblings that share
// only a scalar operand are not merged.
TEST(XlaMultiOutputFusion, NoSiblingFusionForCommonScalar) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  param_0.87 = bf16[4,8,16]{2,1,0} parameter(0)
  param_1.4620 = s32[] parameter(1)
  constant_3949 = s32[] constant(0)
  compare.1026 = pred[] compare(param_1.4620, constant_3949), direction=LT
  constant_5437 = s32[] constant(4)
  add.6859 = s32[] add(param_1.4620, constant_5437)
  select.1599 = s32[] select(compare.1026, add.6859, param_1.4620)
  dynamic-slice.59 = bf16[1,8,16]{2,1,0} dynamic-slice(param_0.87, select.1599, constant_3949, constant_3949), dynamic_slice_sizes={1,8,16}
  ROOT bitcast.41089 = bf16[8,16]{1,0} bitcast(dynamic-slice.59)
}
fused_computation_2 {
  param_0 = bf16[4,8,16]{2,1,0} parameter(0)
  param_1 = s32[] parameter(1)
  constant = s32[] constant(0)
  compare = pred[] compare(param_1, constant), direction=LT
  constant.32 = s32[] constant(4)
  add = s32[] add(param_1, constant.32)
  select = s32[] select(compare, add, param_1)
  dynamic-slice = bf16[1,8,16]{2,1,0} dynamic-slice(param_0, select, constant, constant), dynamic_slice_sizes={1,8,16}
  ROOT bitcast.41087 = bf16[8,16]{1,0} bitcast(dynamic-slice)
}
ENTRY entry {
  p0 = s32[] parameter(0)
  p1 = bf16[4,8,16]{2,1,0} parameter(1)
  p2 = bf16[4,8,16]{2,1,0} parameter(2)
  fusion.1 = bf16[8,16]{1,0} fusion(p1, p0), kind=kLoop, calls=fused_computation_1
  fusion.2 = bf16[8,16]{1,0} fusion(p2, p0), kind=kLoop, calls=fused_computation_2
  ROOT root = (bf16[8,16]{1,0}, bf16[8,16]{1,0}) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Group("bitcast.41089"), r.Group("bitcast.41087"));
}

// XLA: MultiOutputFusionSiblingReduceAndReduceMultiOutputFusion — a third
// sibling reduce joins an existing two-reduce multi-output fusion.
TEST(XlaMultiOutputFusion, SiblingReduceAndReduceMultiOutputFusion) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation {
  const.1 = f32[] constant(1)
  p0.1 = f32[4,8,2,2]{3,2,1,0} parameter(0)
  mul = f32[4,8,2,2]{3,2,1,0} multiply(p0.1, p0.1)
  reduce.1 = f32[8]{0} reduce(mul, const.1), dimensions={0,2,3}, to_apply=scalar_add
  reduce.2 = f32[8]{0} reduce(p0.1, const.1), dimensions={0,2,3}, to_apply=scalar_add
  ROOT tuple = (f32[8]{0}, f32[8]{0}) tuple(reduce.1, reduce.2)
}
ENTRY entry {
  p0 = f32[4,8,2,2]{3,2,1,0} parameter(0)
  const = f32[] constant(1)
  fusion = (f32[8]{0}, f32[8]{0}) fusion(p0), kind=kInput, calls=fused_computation
  get-tuple-element = f32[8]{0} get-tuple-element(fusion), index=0
  get-tuple-element.1 = f32[8]{0} get-tuple-element(fusion), index=1
  reduce.3 = f32[8]{0} reduce(p0, const), dimensions={0,2,3}, to_apply=scalar_add
  ROOT root = (f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(get-tuple-element, get-tuple-element.1, reduce.3)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce.3"), "");
  EXPECT_EQ(r.Group("reduce.1"), r.Group("reduce.3")) << r.Text();
  EXPECT_EQ(Outputs(r, "reduce.1"), "reduce,reduce,reduce");
}

// XLA: MultiOutputFusionSiblingFusionCheckAgainstReduceOperand — the
// existing multi-output fusion's reduce (to f32[]) decides compatibility, and
// the sibling reduces to f32[10]: not merged.
TEST(XlaMultiOutputFusion, SiblingFusionCheckAgainstReduceOperand) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p1.1 = f32[10,10]{1,0} parameter(1)
  mul = f32[10,10]{1,0} multiply(p1.1, p1.1)
  const.1 = f32[] parameter(0)
  reduce.1 = f32[] reduce(p1.1, const.1), dimensions={0,1}, to_apply=scalar_add
  ROOT tuple = (f32[10,10], f32[]) tuple(mul, reduce.1)
}
fused_computation_2 {
  p1.2 = f32[10,10]{1,0} parameter(1)
  const.2 = f32[] parameter(0)
  ROOT reduce.2 = f32[10] reduce(p1.2, const.2), dimensions={0}, to_apply=scalar_mul
}
ENTRY entry {
  p0 = f32[] parameter(0)
  p1 = f32[10,10]{1,0} parameter(1)
  p2 = f32[] parameter(2)
  fusion.1 = (f32[10,10], f32[]) fusion(p0, p1), kind=kInput, calls=fused_computation_1
  get-tuple-element.1 = f32[10,10] get-tuple-element(fusion.1), index=0
  get-tuple-element.2 = f32[] get-tuple-element(fusion.1), index=1
  fusion.2 = f32[10] fusion(p2, p1), kind=kInput, calls=fused_computation_2
  ROOT root = (f32[10,10], f32[], f32[10]) tuple(get-tuple-element.1, get-tuple-element.2, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Group("reduce.1"), r.Group("reduce.2"));
}

// XLA: InputVariadicReductionFusions — two variadic (value, index)
// reductions of the same input become one kernel.
TEST(XlaMultiOutputFusion, InputVariadicReductionFusions) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
minmax {
  lhs_value = f32[] parameter(0)
  lhs_index = s32[] parameter(1)
  rhs_value = f32[] parameter(2)
  rhs_index = s32[] parameter(3)
  le = pred[] compare(lhs_value, rhs_value), direction=LE
  v = f32[] select(le, lhs_value, rhs_value)
  eq = pred[] compare(lhs_value, rhs_value), direction=EQ
  mn = s32[] minimum(lhs_index, rhs_index)
  sel = s32[] select(le, lhs_index, rhs_index)
  i = s32[] select(eq, mn, sel)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
fused_computation.73 {
  bitcast.86661 = f32[3,8,6]{2,1,0} parameter(0)
  iota.734 = s32[3,1,8,6]{3,2,1,0} iota(), iota_dimension=3
  bitcast.97555 = s32[3,8,6]{2,1,0} bitcast(iota.734)
  constant_3917 = f32[] constant(inf)
  constant_3918 = s32[] constant(0)
  ROOT reduce.1069 = (f32[3,8]{1,0}, s32[3,8]{1,0}) reduce(bitcast.86661, bitcast.97555, constant_3917, constant_3918), dimensions={2}, to_apply=minmax
}
fused_computation.84 {
  bitcast.86676 = f32[3,8,6]{2,1,0} parameter(0)
  iota.732 = s32[3,1,8,6]{3,2,1,0} iota(), iota_dimension=3
  bitcast.97553 = s32[3,8,6]{2,1,0} bitcast(iota.732)
  constant_3915 = f32[] constant(inf)
  constant_3916 = s32[] constant(0)
  ROOT reduce.1070 = (f32[3,8]{1,0}, s32[3,8]{1,0}) reduce(bitcast.86676, bitcast.97553, constant_3915, constant_3916), dimensions={2}, to_apply=minmax
}
ENTRY e {
  p0 = f32[3,8,6]{2,1,0} parameter(0)
  fusion.84 = (f32[3,8]{1,0}, s32[3,8]{1,0}) fusion(p0), kind=kInput, calls=fused_computation.84
  gte.391 = s32[3,8]{1,0} get-tuple-element(fusion.84), index=1
  fusion.73 = (f32[3,8]{1,0}, s32[3,8]{1,0}) fusion(p0), kind=kInput, calls=fused_computation.73
  gte.393 = s32[3,8]{1,0} get-tuple-element(fusion.73), index=1
  ROOT r = s32[3,8]{1,0} add(gte.391, gte.393)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce.1069"), "");
  EXPECT_EQ(r.Group("reduce.1069"), r.Group("reduce.1070")) << r.Text();
  // Our fused root lists the four outputs of the two variadic reduces.
  EXPECT_EQ(Outputs(r, "reduce.1069"), "get-tuple-element,get-tuple-element,get-tuple-element,get-tuple-element");
  int users = 0;
  for (const auto& i : r.module->entry()->instructions())
    for (const Instruction* o : i->operands()) users += o->opcode() == Opcode::kParameter;
  EXPECT_EQ(users, 1) << r.Text();
}

// XLA: MultiOutputFusionLoopElementwise — an unfused elementwise sibling
// joins a loop fusion reading the same parameter.
TEST(XlaMultiOutputFusion, LoopElementwise) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p0.1 = f32[64]{0} parameter(0)
  ROOT mul = f32[64]{0} multiply(p0.1, p0.1)
}
ENTRY entry {
  p0 = f32[64]{0} parameter(0)
  fusion.1 = f32[64]{0} fusion(p0), kind=kLoop, calls=fused_computation_1
  const.2 = f32[] constant(1)
  broadcast = f32[64]{0} broadcast(const.2), dimensions={}
  div = f32[64]{0} divide(p0, broadcast)
  ROOT root = (f32[64]{0}, f32[64]{0}) tuple(fusion.1, div)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mul"), "");
  EXPECT_EQ(r.Group("mul"), r.Group("div")) << r.Text();
  EXPECT_EQ(Outputs(r, "mul"), "divide,multiply");
}

// XLA: MultiOutputFusionSiblingLoopsDifferentShapes — a loop fusion and a
// reduce-to-smaller-shape loop fusion are not merged.
TEST(XlaMultiOutputFusion, SiblingLoopsDifferentShapes) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p0.1 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} parameter(0)
  ROOT mul = f32[4,1,5,6,1,2]{5,4,3,2,1,0} multiply(p0.1, p0.1)
}
fused_computation_2 {
  p0.2 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} parameter(0)
  const.2 = f32[] constant(0)
  ROOT reduce = f32[1,5,1,2]{3,2,1,0} reduce(p0.2, const.2), dimensions={0,3}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} parameter(0)
  fusion.1 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} fusion(p0), kind=kLoop, calls=fused_computation_1
  fusion.2 = f32[1,5,1,2]{3,2,1,0} fusion(p0), kind=kLoop, calls=fused_computation_2
  ROOT root = (f32[4,1,5,6,1,2]{5,4,3,2,1,0}, f32[1,5,1,2]{3,2,1,0}) tuple(fusion.1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
}

// XLA: MultiOutputFusionSiblingLoopAndMultiOutputLoop.
TEST(XlaMultiOutputFusion, SiblingLoopAndMultiOutputLoop) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p0.1 = f32[4,1,5,6,1,1]{5,4,3,2,1,0} parameter(0)
  mul = f32[4,1,5,6,1,1]{5,4,3,2,1,0} multiply(p0.1, p0.1)
  exp = f32[4,1,5,6,1,1]{5,4,3,2,1,0} exponential(p0.1)
  ROOT tuple = (f32[4,1,5,6,1,1]{5,4,3,2,1,0}, f32[4,1,5,6,1,1]{5,4,3,2,1,0}) tuple(mul, exp)
}
fused_computation_2 {
  p0.2 = f32[4,1,5,6,1,1]{5,4,3,2,1,0} parameter(0)
  const.2 = f32[] constant(0)
  broadcast = f32[4,1,5,6,1,1]{5,4,3,2,1,0} broadcast(const.2), dimensions={}
  ROOT add = f32[4,1,5,6,1,1]{5,4,3,2,1,0} add(p0.2, broadcast)
}
ENTRY entry {
  p0 = f32[4,1,5,6,1,1]{5,4,3,2,1,0} parameter(0)
  fusion.1 = (f32[4,1,5,6,1,1]{5,4,3,2,1,0}, f32[4,1,5,6,1,1]{5,4,3,2,1,0}) fusion(p0), kind=kLoop, calls=fused_computation_1
  fusion.2 = f32[4,1,5,6,1,1]{5,4,3,2,1,0} fusion(p0), kind=kLoop, calls=fused_computation_2
  gte0 = f32[4,1,5,6,1,1]{5,4,3,2,1,0} get-tuple-element(fusion.1), index=0
  gte1 = f32[4,1,5,6,1,1]{5,4,3,2,1,0} get-tuple-element(fusion.1), index=1
  ROOT root = (f32[4,1,5,6,1,1]{5,4,3,2,1,0}, f32[4,1,5,6,1,1]{5,4,3,2,1,0}, f32[4,1,5,6,1,1]{5,4,3,2,1,0}) tuple(gte0, gte1, fusion.2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mul"), "");
  EXPECT_EQ(r.Group("mul"), r.Group("add")) << r.Text();
  EXPECT_EQ(Outputs(r, "mul"), "add,exponential,multiply");
}

// XLA: MultiOutputFusionSiblingMultiOutputLoopAndMultiOutputLoop.
TEST(XlaMultiOutputFusion, SiblingMultiOutputLoopAndMultiOutputLoop) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p0.1 = f32[8,16]{1,0} parameter(0)
  mul = f32[8,16]{1,0} multiply(p0.1, p0.1)
  exp = f32[8,16]{1,0} exponential(p0.1)
  ROOT tuple = (f32[8,16]{1,0}, f32[8,16]{1,0}) tuple(mul, exp)
}
fused_computation_2 {
  p0.2 = f32[8,16]{1,0} parameter(0)
  const.2 = f32[] constant(0)
  broadcast = f32[8,16]{1,0} broadcast(const.2), dimensions={}
  add = f32[8,16]{1,0} add(p0.2, broadcast)
  ROOT tuple.1 = (f32[8,16]{1,0}, f32[8,16]{1,0}) tuple(add, broadcast)
}
ENTRY entry {
  p0 = f32[8,16]{1,0} parameter(0)
  fusion.1 = (f32[8,16]{1,0}, f32[8,16]{1,0}) fusion(p0), kind=kLoop, calls=fused_computation_1
  fusion.2 = (f32[8,16]{1,0}, f32[8,16]{1,0}) fusion(p0), kind=kLoop, calls=fused_computation_2
  gte0 = f32[8,16]{1,0} get-tuple-element(fusion.1), index=0
  gte1 = f32[8,16]{1,0} get-tuple-element(fusion.1), index=1
  gte2 = f32[8,16]{1,0} get-tuple-element(fusion.2), index=0
  gte3 = f32[8,16]{1,0} get-tuple-element(fusion.2), index=1
  ROOT root = (f32[8,16]{1,0}, f32[8,16]{1,0}, f32[8,16]{1,0}, f32[8,16]{1,0}) tuple(gte0, gte1, gte2, gte3)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mul"), "");
  EXPECT_EQ(r.Group("mul"), r.Group("add")) << r.Text();
  EXPECT_EQ(Outputs(r, "mul"), "add,broadcast,exponential,multiply");
}

// XLA: MultiOutputFusionSiblingLoopAndMultiOutputLoopDifferentShapes.
TEST(XlaMultiOutputFusion, SiblingLoopAndMultiOutputLoopDifferentShapes) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
fused_computation_1 {
  p0.1 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} parameter(0)
  mul = f32[4,1,5,6,1,2]{5,4,3,2,1,0} multiply(p0.1, p0.1)
  exp = f32[4,1,5,6,1,2]{5,4,3,2,1,0} exponential(p0.1)
  ROOT tuple = (f32[4,1,5,6,1,2]{5,4,3,2,1,0}, f32[4,1,5,6,1,2]{5,4,3,2,1,0}) tuple(mul, exp)
}
fused_computation_2 {
  p0.2 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} parameter(0)
  const.2 = f32[] constant(0)
  ROOT reduce = f32[1,5,1,2]{3,2,1,0} reduce(p0.2, const.2), dimensions={0,3}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} parameter(0)
  fusion.1 = (f32[4,1,5,6,1,2]{5,4,3,2,1,0}, f32[4,1,5,6,1,2]{5,4,3,2,1,0}) fusion(p0), kind=kLoop, calls=fused_computation_1
  fusion.2 = f32[1,5,1,2]{3,2,1,0} fusion(p0), kind=kLoop, calls=fused_computation_2
  gte0 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} get-tuple-element(fusion.1), index=0
  gte1 = f32[4,1,5,6,1,2]{5,4,3,2,1,0} get-tuple-element(fusion.1), index=1
  ROOT root = (f32[4,1,5,6,1,2]{5,4,3,2,1,0}, f32[4,1,5,6,1,2]{5,4,3,2,1,0}, f32[1,5,1,2]{3,2,1,0}) tuple(gte0, gte1, fusion.2)
})");
  EXPECT_FALSE(r.changed) << r.Text();
}

// XLA: SiblingFusionBitcastAndLoopFusionNotFused — a bare bitcast sibling
// is free; it does not join the loop fusion.
TEST(XlaMultiOutputFusion, SiblingFusionBitcastAndLoopFusionNotFused) {
  FusionRun r = RunFusion("multi_output_fusion", R"(
HloModule m
fused_computation_1 {
  p0.1 = f32[16,20]{1,0} parameter(0)
  bitcast = f32[16,1,20]{2,1,0} bitcast(p0.1)
  ROOT exp = f32[16,1,20]{2,1,0} exponential(bitcast)
}
ENTRY main {
  param_0 = f32[16,20]{1,0} parameter(0)
  fusion = f32[16,1,20]{2,1,0} fusion(param_0), kind=kLoop, calls=fused_computation_1
  bitcast = f32[20,1,16]{2,1,0} bitcast(param_0)
  ROOT tuple.143 = (f32[20,1,16]{2,1,0}, f32[16,1,20]{2,1,0}) tuple(bitcast, fusion)
})");
  EXPECT_FALSE(r.changed) << r.Text();
}

// XLA: ProducerConsumerFusionBitcastAndElementwiseNotFused.
TEST(XlaMultiOutputFusion, ProducerConsumerFusionBitcastAndElementwiseNotFused) {
  FusionRun r = RunFusion("multi_output_fusion", R"(
HloModule m
ENTRY main {
  param_0 = f32[16,20]{1,0} parameter(0)
  convert = bf16[16,20]{1,0} convert(param_0)
  bitcast = bf16[20,1,16]{2,1,0} bitcast(convert)
  ROOT tuple.143 = (bf16[20,1,16]{2,1,0}, bf16[16,20]{1,0}) tuple(bitcast, convert)
})");
  EXPECT_FALSE(r.changed) << r.Text();
}

// XLA: ProducerConsumerFusionElementwiseAndReduce — the exp that is also an
// output becomes a second output of the reduction kernel.
TEST(XlaMultiOutputFusion, ProducerConsumerFusionElementwiseAndReduce) {
  FusionRun r = RunFusion("multi_output_fusion", kPrefix + R"(
ENTRY reduce {
  p0 = f32[4,6,8]{2,1,0} parameter(0)
  c0 = f32[] constant(0)
  exp = f32[4,6,8]{2,1,0} exponential(p0)
  reduce = f32[4,6]{1,0} reduce(exp, c0), dimensions={2}, to_apply=scalar_add
  ROOT root = (f32[4,6]{1,0}, f32[4,6,8]{2,1,0}) tuple(reduce, exp)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("reduce"), "");
  EXPECT_EQ(r.Group("exp"), r.Group("reduce")) << r.Text();
  EXPECT_EQ(Outputs(r, "reduce"), "exponential,reduce");
  const Instruction* root = r.module->entry()->root();
  EXPECT_EQ(root->operand(0)->opcode(), Opcode::kGetTupleElement);
  EXPECT_EQ(root->operand(1)->opcode(), Opcode::kGetTupleElement);
}

}  // namespace
}  // namespace hloscope::fusion_testing
