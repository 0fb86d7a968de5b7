// `multi_output_fusion` as XLA GPU's DoMultiOutputFusion walks a module:
// uses before definitions, at each instruction its users merged as siblings
// first, then the instruction made an extra output of the user it prefers,
// unless XLA's cost model says the merged kernel runs slower. And priority
// fusion's cap on consumers, which spares a broadcast of one value.
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

// A producer read by two kernels: they become one (siblings) before the
// producer is looked at as a producer, so it joins that one kernel as an
// extra output (XLA: multi-output fusions are preferred consumers).
TEST(MultiOutputWalk, SiblingsMergeBeforeTheirProducerJoinsThem) {
  FusionRun r = RunFusion("multi_output_fusion", R"(
HloModule m
produce {
  a = f32[1024] parameter(0)
  ROOT e = f32[1024] exponential(a)
}
scale {
  a = f32[1024] parameter(0)
  b = f32[1024] parameter(1)
  ROOT m = f32[1024] multiply(a, b)
}
shift {
  a = f32[1024] parameter(0)
  b = f32[1024] parameter(1)
  ROOT s = f32[1024] subtract(a, b)
}
ENTRY e {
  p0 = f32[1024] parameter(0)
  p1 = f32[1024] parameter(1)
  fp = f32[1024] fusion(p0), kind=kLoop, calls=produce
  k1 = f32[1024] fusion(fp, p1), kind=kLoop, calls=scale
  k2 = f32[1024] fusion(fp, p1), kind=kLoop, calls=shift
  ROOT t = (f32[1024], f32[1024], f32[1024]) tuple(fp, k1, k2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  EXPECT_NE(r.Group("e"), "");
  EXPECT_EQ(r.Group("e"), r.Group("m"));
  EXPECT_EQ(r.Group("e"), r.Group("s"));
  // The siblings first (both read fp), then fp into what they became.
  ASSERT_GE(r.decisions.size(), 2u);
  size_t merged = r.decisions.size(), fused = r.decisions.size();
  for (size_t k = 0; k < r.decisions.size(); ++k) {
    if (r.decisions[k].verdict == FusionVerdict::kMerged && merged == r.decisions.size()) merged = k;
    if (r.decisions[k].verdict == FusionVerdict::kFused && r.decisions[k].producer == "fp") fused = k;
  }
  ASSERT_LT(merged, r.decisions.size());
  ASSERT_LT(fused, r.decisions.size());
  EXPECT_LT(merged, fused);
}

// An optimizer update over `n` elements whose new weights a full reduction
// squares and sums. Made an extra output, the update would run in the
// reduction's one thread block of 256 threads (XLA's row-reduction emitter:
// one row of n <= 16,384 elements), whose reads draw at most 32 bytes per
// clock: over 6 x 16 kB that costs more than the launch it saves; over
// 6 x 4 kB it does not. XLA GPU (JAX 0.12, h100_sxm) on the same module
// unfused: loop_subtract_fusion and input_reduce_fusion at 4,096, one
// input_reduce_subtract_fusion at 1,024.
std::string UpdateThenNorm(int n) {
  const std::string s = "f32[" + std::to_string(n) + "]";
  std::string text = std::string("HloModule m\n") + kAdd + "update {\n";
  for (int k = 0; k < 6; ++k) text += "  a" + std::to_string(k) + " = " + s + " parameter(" + std::to_string(k) + ")\n";
  text += "  m0 = " + s + " multiply(a0, a1)\n  m1 = " + s + " multiply(a2, a3)\n  d = " + s + " divide(m0, a4)\n";
  text += "  s = " + s + " sqrt(a5)\n  x = " + s + " add(d, s)\n  ROOT u = " + s + " subtract(x, m1)\n}\n";
  text += "norm {\n  w = " + s + " parameter(0)\n  sq = " + s + " multiply(w, w)\n  z = f32[] constant(0)\n";
  text += "  ROOT r = f32[] reduce(sq, z), dimensions={0}, to_apply=scalar_add\n}\n";
  text += "ENTRY e {\n";
  for (int k = 0; k < 6; ++k) text += "  p" + std::to_string(k) + " = " + s + " parameter(" + std::to_string(k) + ")\n";
  text += "  upd = " + s + " fusion(p0, p1, p2, p3, p4, p5), kind=kLoop, calls=update\n";
  text += "  nrm = f32[] fusion(upd), kind=kInput, calls=norm\n";
  text += "  ROOT t = (" + s + ", f32[]) tuple(upd, nrm)\n}\n";
  return text;
}

TEST(MultiOutputWalk, AnUpdateStaysOutOfAFullReductionsOneBlock) {
  FusionRun r = RunFusion("multi_output_fusion", UpdateThenNorm(4096));
  EXPECT_FALSE(r.changed) << r.Text();
  EXPECT_EQ(r.CountFusions(), 2);
  const FusionDecision* d = r.DecisionFor("upd", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("would run slower"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("1 thread block"), std::string::npos) << d->reason;
}

TEST(MultiOutputWalk, ASmallUpdateJoinsItsNorm) {
  FusionRun r = RunFusion("multi_output_fusion", UpdateThenNorm(1024));
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  EXPECT_EQ(r.Group("u"), r.Group("r"));
  EXPECT_NE(r.DecisionFor("upd", FusionVerdict::kFused), nullptr);
}

// A producer whose one user already writes several outputs: XLA's walk takes
// it in (priority fusion weighed the pair before the user had several
// outputs). Nothing else reads it, so no output is added.
TEST(MultiOutputWalk, AProducerReadOnlyByAMultiOutputFusionIsTakenIn) {
  FusionRun r = RunFusion("multi_output_fusion", R"(
HloModule m
negate_it {
  a = f32[64] parameter(0)
  ROOT n = f32[64] negate(a)
}
both {
  a = f32[64] parameter(0)
  b = f32[64] parameter(1)
  x = f32[64] add(a, b)
  y = f32[64] multiply(a, b)
  ROOT t = (f32[64], f32[64]) tuple(x, y)
}
ENTRY e {
  p0 = f32[64] parameter(0)
  p1 = f32[64] parameter(1)
  neg = f32[64] fusion(p0), kind=kLoop, calls=negate_it
  mof = (f32[64], f32[64]) fusion(neg, p1), kind=kLoop, calls=both
  g0 = f32[64] get-tuple-element(mof), index=0
  g1 = f32[64] get-tuple-element(mof), index=1
  ROOT t = (f32[64], f32[64]) tuple(g0, g1)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  EXPECT_EQ(r.Group("n"), r.Group("x"));
  const Instruction* f = r.Find(r.Group("n"));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->shape().tuple_shapes().size(), 2u) << "no output added for a value nobody else reads";
  const FusionDecision* d = r.DecisionFor("neg", FusionVerdict::kFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("one user is a multi-output fusion"), std::string::npos) << d->reason;
}

// XLA (LegalToFuse): a kernel whose root updates a buffer in place takes no
// sibling; the same pair without the update merges.
std::string TwoReadersOf(bool in_place) {
  const std::string second = in_place ? R"(
second {
  a = f32[64] parameter(0)
  u = f32[8] parameter(1)
  i = s32[] parameter(2)
  ROOT d = f32[64] dynamic-update-slice(a, u, i)
}
)"
                                      : R"(
second {
  a = f32[64] parameter(0)
  ROOT d = f32[64] negate(a)
}
)";
  return std::string("HloModule m\nfirst {\n  a = f32[64] parameter(0)\n  ROOT e = f32[64] exponential(a)\n}\n") +
         second + R"(
ENTRY e {
  p0 = f32[64] parameter(0)
  p1 = f32[8] parameter(1)
  p2 = s32[] parameter(2)
  k1 = f32[64] fusion(p0), kind=kLoop, calls=first
  k2 = f32[64] fusion()" +
         (in_place ? "p0, p1, p2" : "p0") + R"(), kind=kLoop, calls=second
  ROOT t = (f32[64], f32[64], f32[8], s32[]) tuple(k1, k2, p1, p2)
})";
}

TEST(MultiOutputWalk, SiblingsWithAnInPlaceUpdateStayApart) {
  FusionRun r = RunFusion("multi_output_fusion", TwoReadersOf(/*in_place=*/true));
  EXPECT_FALSE(r.changed) << r.Text();
  bool refused = false;
  for (const FusionDecision& d : r.decisions)
    refused |= d.verdict == FusionVerdict::kNotFused && d.reason.find("dynamic-update-slice") != std::string::npos;
  EXPECT_TRUE(refused);
  FusionRun plain = RunFusion("multi_output_fusion", TwoReadersOf(/*in_place=*/false));
  EXPECT_TRUE(plain.changed);
  EXPECT_EQ(plain.CountFusions(), 1) << plain.Text();
}

// Priority fusion leaves a producer with more than 64 consumers alone (the
// cost of weighing them all, again whenever one changes), except a
// broadcast of one value: fusing it always pays, and left alone it would be
// a shared input making siblings of otherwise unrelated kernels.
std::string ReadBy70(const std::string& producer) {
  std::string text = "HloModule m\nENTRY e {\n  s = f32[] parameter(0)\n  v = f32[256] parameter(1)\n";
  text += "  x = f32[256] " + producer + "\n";
  std::string outs, shapes;
  for (int k = 0; k < 70; ++k) {
    const std::string n = std::to_string(k);
    text += "  q" + n + " = f32[256] parameter(" + std::to_string(k + 2) + ")\n";
    text += "  y" + n + " = f32[256] multiply(x, q" + n + ")\n";
    outs += (k ? ", y" : "y") + n;
    shapes += k ? ", f32[256]" : "f32[256]";
  }
  text += "  ROOT t = (" + shapes + ") tuple(" + outs + ")\n}\n";
  return text;
}

TEST(PriorityFusionCap, ABroadcastOfOneValueIsFusedIntoEveryConsumer) {
  FusionRun r = RunFusion("priority_fusion", ReadBy70("broadcast(s), dimensions={}"));
  EXPECT_TRUE(r.changed);
  for (const auto& i : r.module->entry()->instructions())
    EXPECT_NE(i->opcode(), Opcode::kBroadcast) << "the broadcast stayed a kernel of its own";
  EXPECT_EQ(r.CountFusions(), 70);
  EXPECT_NE(r.DecisionFor("x", FusionVerdict::kFusedWithDuplication), nullptr);
}

TEST(PriorityFusionCap, OtherProducersWithMoreThan64ConsumersStay) {
  FusionRun r = RunFusion("priority_fusion", ReadBy70("exponential(v)"));
  const FusionDecision* d = r.DecisionFor("x", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_NE(d->reason.find("more than 64"), std::string::npos) << d->reason;
}

}  // namespace
}  // namespace hloscope::fusion_testing
