// What-if fusion (issue 30): forced and forbidden producer→consumer pairs
// as data the fusion passes read (core/fusion/fusion_overrides.h). Every
// run goes through RunFusion: verifier, print/parse round trip and the
// interpreter against the input after each pass.
#include "core/fusion/fusion_overrides.h"
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

FusionOverrides Force(const std::string& pair) {
  FusionOverrides o;
  auto p = ParseOverridePair(pair);
  EXPECT_TRUE(p.ok()) << p.status().message();
  if (p.ok()) o.force.push_back(*p);
  return o;
}

FusionOverrides Forbid(const std::string& pair) {
  FusionOverrides o;
  auto p = ParseOverridePair(pair);
  EXPECT_TRUE(p.ok()) << p.status().message();
  if (p.ok()) o.forbid.push_back(*p);
  return o;
}

FusionRun RunWith(const FusionOverrides& o, const std::vector<std::string>& passes, const std::string& text) {
  ScopedFusionOverrides scope(o);
  return RunFusion(passes, text);
}

const FusionDecision* WithReason(const FusionRun& r, const std::string& start) {
  for (const auto& d : r.decisions)
    if (d.reason.rfind(start, 0) == 0) return &d;
  return nullptr;
}

bool Together(const FusionRun& r, const std::string& pair) {
  auto p = ParseOverridePair(pair);
  return p.ok() && InOneKernel(*r.module, *p);
}

// exp feeds the output tuple too: priority fusion fuses a producer into all
// its consumers or none, and a tuple takes none, so exp stays alone.
constexpr const char* kSharedWithTuple = R"(
HloModule m
ENTRY main {
  p0 = f32[64] parameter(0)
  e = f32[64] exponential(p0)
  n = f32[64] negate(e)
  ROOT t = (f32[64], f32[64]) tuple(e, n)
})";

TEST(WhatIfOverrides, ForcedFusionIsPerformedWhereThePassWouldNot) {
  FusionRun base = RunFusion("priority_fusion", kSharedWithTuple);
  EXPECT_FALSE(Together(base, "e:n")) << base.Text();

  FusionRun r = RunWith(Force("e:n"), {"priority_fusion"}, kSharedWithTuple);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(Together(r, "e:n")) << r.Text();
  const FusionDecision* d = WithReason(r, kForcedReason);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_EQ(d->producer, "e");
  EXPECT_EQ(d->verdict, FusionVerdict::kFusedWithDuplication);  // e stays for the tuple
  EXPECT_NE(d->reason.find("(--force e:n)"), std::string::npos) << d->reason;
  EXPECT_NE(r.Find("e"), nullptr);
}

constexpr const char* kChain = R"(
HloModule m
ENTRY main {
  p0 = f32[64] parameter(0)
  a = f32[64] negate(p0)
  b = f32[64] exponential(a)
  ROOT c = f32[64] add(b, p0)
})";

TEST(WhatIfOverrides, ForbiddenPairStaysInTwoKernels) {
  FusionRun base = RunFusion("priority_fusion", kChain);
  EXPECT_TRUE(Together(base, "a:b")) << base.Text();

  FusionRun r = RunWith(Forbid("a:b"), {"priority_fusion"}, kChain);
  EXPECT_FALSE(Together(r, "a:b")) << r.Text();
  EXPECT_TRUE(Together(r, "b:c")) << r.Text();  // the rest still fuses
  const FusionDecision* d = WithReason(r, kForbiddenReason);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_EQ(d->verdict, FusionVerdict::kNotFused);
  EXPECT_NE(d->reason.find("(--forbid a:b)"), std::string::npos) << d->reason;
}

TEST(WhatIfOverrides, ForbidHoldsForFusionsHoldingThePair) {
  // Forbidding a:c also keeps a out of the fusion that holds b and c.
  FusionRun r = RunWith(Forbid("a:c"), {"priority_fusion"}, kChain);
  EXPECT_FALSE(Together(r, "a:c")) << r.Text();
}

// a reaches c only through the dot, which stays a kernel of its own.
constexpr const char* kThroughDot = R"(
HloModule m
ENTRY main {
  p0 = f32[8,8] parameter(0)
  p1 = f32[8,8] parameter(1)
  a = f32[8,8] exponential(p0)
  d = f32[8,8] dot(a, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT c = f32[8,8] negate(d)
})";

TEST(WhatIfOverrides, ForceThatWouldCreateACycleIsRefused) {
  FusionRun r = RunWith(Force("a:c"), {"priority_fusion"}, kThroughDot);
  EXPECT_FALSE(Together(r, "a:c")) << r.Text();
  const FusionDecision* d = WithReason(r, kRefusedReason);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_EQ(d->verdict, FusionVerdict::kNotFused);
  EXPECT_NE(d->reason.find("(--force a:c)"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("would create a cycle"), std::string::npos) << d->reason;
  EXPECT_NE(d->reason.find("through d"), std::string::npos) << d->reason;
}

TEST(WhatIfOverrides, ForceOfOpsThatCannotFuseIsRefusedWithTheRule) {
  FusionRun r = RunWith(Force("a:d"), {"priority_fusion"}, kThroughDot);
  EXPECT_FALSE(Together(r, "a:d")) << r.Text();
  const FusionDecision* d = WithReason(r, kRefusedReason);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_NE(d->reason.find("dot"), std::string::npos) << d->reason;  // the consumer dot stays unfused
}

TEST(WhatIfOverrides, ForceOfAMissingInstructionIsRefused) {
  // algsimp-free: `gone` is named but the pass never sees it.
  FusionOverrides o = Force("gone:c");
  FusionRun r = RunWith(o, {"priority_fusion"}, kChain);
  const FusionDecision* d = WithReason(r, kRefusedReason);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_NE(d->reason.find("gone no longer exists"), std::string::npos) << d->reason;
}

TEST(WhatIfOverrides, NoOverridesAndIrrelevantOverridesChangeNothing) {
  FusionRun base = RunFusion("priority_fusion", kThroughDot);
  FusionRun none = RunWith(FusionOverrides{}, {"priority_fusion"}, kThroughDot);
  EXPECT_EQ(none.Text(), base.Text());
  // p0 and p1 are parameters: never fused, so forbidding them is a no-op.
  FusionRun irrelevant = RunWith(Forbid("p0:p1"), {"priority_fusion"}, kThroughDot);
  EXPECT_EQ(irrelevant.Text(), base.Text());
  EXPECT_EQ(irrelevant.decisions.size(), base.decisions.size());
}

// Instruction fusion's first round does not duplicate: a, read by b and by
// the output tuple, stays. Forced, it is copied into b.
constexpr const char* kTwoUsers = R"(
HloModule m
ENTRY main {
  p0 = f32[64] parameter(0)
  a = f32[64] negate(p0)
  b = f32[64] exponential(a)
  ROOT t = (f32[64], f32[64]) tuple(a, b)
})";

TEST(WhatIfOverrides, InstructionFusionTakesForcedAndForbiddenPairs) {
  FusionRun base = RunFusion("fusion", kTwoUsers);
  EXPECT_FALSE(Together(base, "a:b")) << base.Text();
  FusionRun forced = RunWith(Force("a:b"), {"fusion"}, kTwoUsers);
  EXPECT_TRUE(Together(forced, "a:b")) << forced.Text();
  const FusionDecision* d = WithReason(forced, kForcedReason);
  ASSERT_NE(d, nullptr) << forced.Text();
  EXPECT_EQ(d->verdict, FusionVerdict::kFusedWithDuplication);

  FusionRun chain = RunFusion({"fusion", "fusion_dup"}, kChain);
  EXPECT_TRUE(Together(chain, "b:c")) << chain.Text();
  FusionRun forbidden = RunWith(Forbid("b:c"), {"fusion", "fusion_dup"}, kChain);
  EXPECT_FALSE(Together(forbidden, "b:c")) << forbidden.Text();
  EXPECT_NE(WithReason(forbidden, kForbiddenReason), nullptr);
}

TEST(WhatIfOverrides, MultiOutputFusionKeepsForbiddenSiblingsApart) {
  const std::string text = std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  p0 = f32[16,32] parameter(0)
  c0 = f32[] constant(0)
  e = f32[16,32] exponential(p0)
  r1 = f32[16] reduce(e, c0), dimensions={1}, to_apply=scalar_add
  n = f32[16,32] negate(p0)
  r2 = f32[16] reduce(n, c0), dimensions={1}, to_apply=scalar_add
  ROOT t = (f32[16], f32[16]) tuple(r1, r2)
})";
  FusionRun base = RunFusion({"priority_fusion", "multi_output_fusion"}, text);
  ASSERT_TRUE(Together(base, "r1:r2")) << base.Text();
  FusionRun r = RunWith(Forbid("r1:r2"), {"priority_fusion", "multi_output_fusion"}, text);
  EXPECT_FALSE(Together(r, "r1:r2")) << r.Text();
}

TEST(WhatIfOverrides, PairsParseAndBadOnesSayWhy) {
  auto ok = ParseOverridePair("%add.1:#42");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->producer.name, "add.1");
  EXPECT_EQ(ok->consumer.id, 42);
  EXPECT_EQ(ok->ToString(), "add.1:#42");
  EXPECT_EQ(ParseOverridePair("add.1").status().message(), "'add.1' is not PRODUCER:CONSUMER (no ':')");
  EXPECT_NE(ParseOverridePair("a:b:c").status().message().find("more than one ':'"), std::string::npos);
  EXPECT_NE(ParseOverridePair(":b").status().message().find("the producer is empty"), std::string::npos);
  EXPECT_NE(ParseOverridePair("a:#x").status().message().find("not a stable id"), std::string::npos);
}

TEST(WhatIfOverrides, UnknownNamesAndContradictionsAreErrors) {
  auto m = Parse(kChain);
  ASSERT_NE(m, nullptr);
  Status unknown = ValidateOverrides(*m, Forbid("a:zz"));
  EXPECT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("--forbid a:zz: no instruction named 'zz'"), std::string::npos)
      << unknown.message();
  FusionOverrides both = Force("a:b");
  both.forbid = Forbid("a:b").forbid;
  Status contradiction = ValidateOverrides(*m, both);
  EXPECT_FALSE(contradiction.ok());
  EXPECT_NE(contradiction.message().find("opposite"), std::string::npos);
  EXPECT_TRUE(ValidateOverrides(*m, Force("a:c")).ok());
}

}  // namespace
}  // namespace hloscope::fusion_testing
