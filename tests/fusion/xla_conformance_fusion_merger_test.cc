// More conformance cases for `fusion_merger` taken from XLA's FusionMerger
// tests (xla/service/gpu/transforms/fusion_merger_test.cc; shapes shrunk so
// the interpreter checks every case, keeping the ratios the decisions hinge on).
#include "core/fusion/fusibility.h"
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

const Instruction* Root(const FusionRun& r) { return r.module->entry()->root(); }

// XLA: LessMemoryAccessIfFused — a loop fusion reading a tuple parameter is
// merged into both its consumers.
TEST(XlaFusionMerger, LessMemoryAccessIfFused) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
comp.2 {
  state.param_1.1 = (f32[4]{0}, f32[4]{0}, f32[4]{0}) parameter(0)
  get-tuple-element.5 = f32[4]{0} get-tuple-element(state.param_1.1), index=0
  get-tuple-element.6 = f32[4]{0} get-tuple-element(state.param_1.1), index=1
  add.7 = f32[4]{0} add(get-tuple-element.5, get-tuple-element.6)
  get-tuple-element.7 = f32[4]{0} get-tuple-element(state.param_1.1), index=2
  ROOT add.8 = f32[4]{0} add(add.7, get-tuple-element.7)
}
comp.1 {
  add.1.param_1.1 = f32[4]{0} parameter(1)
  constant.param_1.3 = f32[4]{0} parameter(0)
  add.5 = f32[4]{0} add(add.1.param_1.1, constant.param_1.3)
  ROOT multiply.3 = f32[4]{0} multiply(add.5, constant.param_1.3)
}
comp {
  add.1.param_1 = f32[4]{0} parameter(1)
  constant.param_1.1 = f32[4]{0} parameter(0)
  multiply.2 = f32[4]{0} multiply(add.1.param_1, constant.param_1.1)
  ROOT add.4 = f32[4]{0} add(multiply.2, constant.param_1.1)
}
ENTRY e {
  constant = f32[4]{0} constant({1, 1, 1, 1})
  state = (f32[4]{0}, f32[4]{0}, f32[4]{0}) parameter(0)
  fusion.2 = f32[4]{0} fusion(state), kind=kLoop, calls=comp.2
  fusion.3 = f32[4]{0} fusion(constant, fusion.2), kind=kLoop, calls=comp.1
  fusion.4 = f32[4]{0} fusion(constant, fusion.2), kind=kLoop, calls=comp
  ROOT tuple = (f32[4]{0}, f32[4]{0}) tuple(fusion.3, fusion.4)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Find("fusion.2"), nullptr) << r.Text();
  EXPECT_EQ(r.Group("add.8"), "fusion.3,fusion.4");
}

// XLA: WillNotMergeReduceUnfriendlyLayouts — the producer's copy turns a
// {0,1,2} layout into {2,1,0}; merging it into the reduction is refused.
TEST(XlaFusionMerger, WillNotMergeReduceUnfriendlyLayouts) {
  FusionRun r = RunFusion("fusion_merger", std::string("HloModule m\n") + kAdd + R"(
f1_computation {
  f1_p0 = f32[4,4,16]{0,1,2} parameter(0)
  add = f32[4,4,16]{0,1,2} add(f1_p0, f1_p0)
  ROOT f1_root = f32[4,4,16]{2,1,0} copy(add)
}
f2_computation {
  f2_p0 = f32[4,4,16]{2,1,0} parameter(0)
  f2_zero = f32[] constant(0)
  ROOT f2_root = f32[] reduce(f2_p0, f2_zero), dimensions={0,1,2}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[4,4,16]{0,1,2} parameter(0)
  f1 = f32[4,4,16]{2,1,0} fusion(p0), kind=kLoop, calls=f1_computation
  ROOT f2 = f32[] fusion(f1), kind=kInput, calls=f2_computation
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Group("f1_root"), r.Group("f2_root"));
}

// XLA: WillMergeReduceNotTooUnfriendlyLayouts — only part of the data
// changes layout (a slice copied, the rest bitcast): merged.
TEST(XlaFusionMerger, WillMergeReduceNotTooUnfriendlyLayouts) {
  FusionRun r = RunFusion("fusion_merger", std::string("HloModule m\n") + kAdd + R"(
f1_computation {
  f1_p0 = f32[16,2,8]{0,1,2} parameter(0)
  slice1 = f32[5,2,8]{0,1,2} slice(f1_p0), slice={[0:5], [0:2], [0:8]}
  f1_copy = f32[5,2,8]{2,1,0} copy(slice1)
  slice2 = f32[11,2,8]{0,1,2} slice(f1_p0), slice={[0:11], [0:2], [0:8]}
  bitcast = f32[11,2,8]{2,1,0} bitcast(slice2)
  ROOT f1_root = f32[16,2,8]{2,1,0} concatenate(f1_copy, bitcast), dimensions={0}
}
f2_computation {
  f2_p0 = f32[16,2,8]{2,1,0} parameter(0)
  f2_zero = f32[] constant(0)
  ROOT f2_root = f32[16,2] reduce(f2_p0, f2_zero), dimensions={2}, to_apply=scalar_add
}
ENTRY entry {
  p0 = f32[16,2,8]{0,1,2} parameter(0)
  f1 = f32[16,2,8]{2,1,0} fusion(p0), kind=kLoop, calls=f1_computation
  ROOT f2 = f32[16,2] fusion(f1), kind=kInput, calls=f2_computation
})");
  EXPECT_TRUE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("f1_root"), r.Group("f2_root"));
  EXPECT_EQ(r.KindOf("f2_root"), "kInput");
}

// XLA: AvoidsLargeFusion — a 96-operand fusion feeding a consumer that also
// reads a 97th parameter is not merged (the limit is 96 operands+outputs).
TEST(XlaFusionMerger, AvoidsLargeFusion) {
  const int n = kMaxOperandsAndOutputsPerFusion;
  std::string sub = "subcomp {\n  q0 = f32[3,2] parameter(0)\n", sum = "q0";
  for (int i = 1; i < n; ++i) {
    std::string q = "q" + std::to_string(i), s = "s" + std::to_string(i);
    sub += "  " + q + " = f32[3,2] parameter(" + std::to_string(i) + ")\n";
    sub += std::string(i + 1 == n ? "  ROOT " : "  ") + s + " = f32[3,2] add(" + sum + ", " + q + ")\n";
    sum = s;
  }
  sub += "}\n";
  std::string hlo = "HloModule m\n" + sub +
                    "last {\n  x = f32[3,2] parameter(0)\n  y = f32[3,2] parameter(1)\n"
                    "  ROOT z = f32[3,2] add(x, y)\n}\nENTRY e {\n";
  std::string args;
  for (int i = 0; i <= n; ++i) {
    hlo += "  p" + std::to_string(i) + " = f32[3,2] parameter(" + std::to_string(i) + ")\n";
    if (i < n) args += (i ? ", p" : "p") + std::to_string(i);
  }
  hlo += "  fusion = f32[3,2] fusion(" + args + "), kind=kLoop, calls=subcomp\n";
  hlo += "  ROOT fusion.2 = f32[3,2] fusion(p" + std::to_string(n) + ", fusion), kind=kLoop, calls=last\n}\n";
  FusionRun r = RunFusion("fusion_merger", hlo);
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Find("fusion"), nullptr);
}

// XLA: WillNotMergeIfFusionEmitterIsInefficient — a chain of strided slices
// (each element of the consumer needs 64 producer elements, each of which
// needs 64 inputs) is not merged.
TEST(XlaFusionMerger, WillNotMergeIfFusionEmitterIsInefficient) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f1 {
  Arg_0.5 = f32[200000] parameter(0)
  slice.7 = f32[100000] slice(Arg_0.5), slice={[0:199999:2]}
  slice.8 = f32[100000] slice(Arg_0.5), slice={[1:200000:2]}
  add.9 = f32[100000] add(slice.7, slice.8)
  slice.10 = f32[50000] slice(add.9), slice={[0:99999:2]}
  slice.11 = f32[50000] slice(add.9), slice={[1:100000:2]}
  add.12 = f32[50000] add(slice.10, slice.11)
  slice.13 = f32[25000] slice(add.12), slice={[0:49999:2]}
  slice.14 = f32[25000] slice(add.12), slice={[1:50000:2]}
  add.15 = f32[25000] add(slice.13, slice.14)
  slice.16 = f32[12500] slice(add.15), slice={[0:24999:2]}
  slice.17 = f32[12500] slice(add.15), slice={[1:25000:2]}
  add.18 = f32[12500] add(slice.16, slice.17)
  slice.19 = f32[6250] slice(add.18), slice={[0:12499:2]}
  slice.20 = f32[6250] slice(add.18), slice={[1:12500:2]}
  add.21 = f32[6250] add(slice.19, slice.20)
  slice.22 = f32[3125] slice(add.21), slice={[0:6249:2]}
  slice.23 = f32[3125] slice(add.21), slice={[1:6250:2]}
  ROOT add.24 = f32[3125] add(slice.22, slice.23)
}
f2 {
  Arg_0 = f32[3125] parameter(0)
  slice.25 = f32[1562] slice(Arg_0), slice={[0:3124:2]}
  slice.26 = f32[1562] slice(Arg_0), slice={[1:3125:2]}
  add.27 = f32[1562] add(slice.25, slice.26)
  slice.28 = f32[781] slice(add.27), slice={[0:1561:2]}
  slice.29 = f32[781] slice(add.27), slice={[1:1562:2]}
  add.30 = f32[781] add(slice.28, slice.29)
  slice.31 = f32[390] slice(add.30), slice={[0:780:2]}
  slice.32 = f32[390] slice(add.30), slice={[1:781:2]}
  add.33 = f32[390] add(slice.31, slice.32)
  slice.34 = f32[195] slice(add.33), slice={[0:389:2]}
  slice.35 = f32[195] slice(add.33), slice={[1:390:2]}
  add.36 = f32[195] add(slice.34, slice.35)
  slice.37 = f32[97] slice(add.36), slice={[0:194:2]}
  slice.38 = f32[97] slice(add.36), slice={[1:195:2]}
  add.39 = f32[97] add(slice.37, slice.38)
  slice.40 = f32[48] slice(add.39), slice={[0:96:2]}
  slice.41 = f32[48] slice(add.39), slice={[1:97:2]}
  ROOT add.42 = f32[48] add(slice.40, slice.41)
}
ENTRY e {
  p0 = f32[200000] parameter(0)
  f1 = f32[3125] fusion(p0), kind=kLoop, calls=f1
  ROOT r = f32[48] fusion(f1), kind=kLoop, calls=f2
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Group("add.24"), r.Group("add.42"));
  const FusionDecision* d = r.DecisionFor("f1", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("times per element"), std::string::npos) << d->reason;
}

// XLA: WillMergeSliceIntoReusingConsumer — a cheap slice is merged even into
// a consumer that reads each element many times.
TEST(XlaFusionMerger, WillMergeSliceIntoReusingConsumer) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f1 {
  p01 = s8[1000] parameter(0)
  ROOT s0 = s8[10] slice(p01), slice={[0:10]}
}
f2 {
  p02 = s8[10] parameter(0)
  ROOT b0 = s8[10,1000] broadcast(p02), dimensions={0}
}
ENTRY e {
  p0 = s8[1000] parameter(0)
  f1 = s8[10] fusion(p0), kind=kLoop, calls=f1
  ROOT r = s8[10,1000] fusion(f1), kind=kLoop, calls=f2
})");
  EXPECT_TRUE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("s0"), r.Group("b0"));
}

// XLA: WillMergeExpensiveFusionsIfSavesMemory — tanh(broadcast) is merged
// into both tanh consumers: it saves writing and reading a large buffer.
TEST(XlaFusionMerger, WillMergeExpensiveFusionsIfSavesMemory) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f_a {
  p = f32[] parameter(0)
  b = f32[8,8,16] broadcast(p), dimensions={}
  ROOT t = f32[8,8,16] tanh(b)
}
f_b {
  p.1 = f32[8,8,16] parameter(0)
  ROOT t.1 = f32[8,8,16] tanh(p.1)
}
f_c {
  p.2 = f32[8,8,16] parameter(0)
  ROOT t.2 = f32[8,8,16] tanh(p.2)
}
ENTRY entry {
  p0 = f32[] parameter(0)
  f1 = f32[8,8,16] fusion(p0), kind=kLoop, calls=f_a
  f2 = f32[8,8,16] fusion(f1), kind=kLoop, calls=f_b
  f3 = f32[8,8,16] fusion(f1), kind=kLoop, calls=f_c
  ROOT f4 = f32[8,8,16] add(f2, f3)
})");
  EXPECT_TRUE(r.changed) << r.Text();
  EXPECT_EQ(r.Find("f1"), nullptr);
  EXPECT_EQ(r.Group("t"), "f2,f3");
}

// XLA: WillMergeExpensiveFusionsWithSingleConsumer.
TEST(XlaFusionMerger, WillMergeExpensiveFusionsWithSingleConsumer) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f_b {
  p.1 = f32[8,8,16] parameter(0)
  ROOT t.1 = f32[8,8,16] tanh(p.1)
}
f_c {
  p.2 = f32[8,8,16] parameter(0)
  ROOT t.2 = f32[8,8,16] add(p.2, p.2)
}
ENTRY entry {
  p0 = f32[8,8,16] parameter(0)
  f1 = f32[8,8,16] fusion(p0), kind=kLoop, calls=f_b
  ROOT f2 = f32[8,8,16] fusion(f1), kind=kLoop, calls=f_c
})");
  EXPECT_TRUE(r.changed) << r.Text();
  EXPECT_EQ(r.Group("t.1"), r.Group("t.2"));
}

// XLA: WillNotMergeExpensiveFusionsWithReusingConsumer — nine tanh per
// element, read 256 times by a broadcast: not merged.
TEST(XlaFusionMerger, WillNotMergeExpensiveFusionsWithReusingConsumer) {
  FusionRun r = RunFusion("fusion_merger", R"(
HloModule m
f_b {
  p = f32[4,4,4] parameter(0)
  t1 = f32[4,4,4] tanh(p)
  t2 = f32[4,4,4] tanh(t1)
  t3 = f32[4,4,4] tanh(t2)
  t4 = f32[4,4,4] tanh(t3)
  t5 = f32[4,4,4] tanh(t4)
  t6 = f32[4,4,4] tanh(t5)
  t7 = f32[4,4,4] tanh(t6)
  t8 = f32[4,4,4] tanh(t7)
  ROOT t9 = f32[4,4,4] tanh(t8)
}
f_c {
  p.1 = f32[4,4,4] parameter(0)
  ROOT t = f32[4,4,4,256] broadcast(p.1), dimensions={0,1,2}
}
ENTRY entry {
  p0 = f32[4,4,4] parameter(0)
  f1 = f32[4,4,4] fusion(p0), kind=kLoop, calls=f_b
  ROOT f2 = f32[4,4,4,256] fusion(f1), kind=kLoop, calls=f_c
})");
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_NE(r.Group("t9"), r.Group("t"));
}

}  // namespace
}  // namespace hloscope::fusion_testing
