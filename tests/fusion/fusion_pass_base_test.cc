// FusionPassBase::Decide logs a decision once per run and tells the caller
// which record holds it, so that a pass filling in the result of a repeated
// decision writes into that record and never into the last one logged.
#include <gtest/gtest.h>

#include "core/fusion/fusion_pass_base.h"
#include "core/parser/parser.h"

namespace hloscope {
namespace {

class Recorder : public FusionPassBase {
 public:
  std::string_view name() const override { return "recorder"; }
  std::string_view description() const override { return "records decisions for the test"; }
  StatusOr<bool> Run(Module&) override { return false; }
  using FusionPassBase::BeginRun;
  using FusionPassBase::Decide;
  using Pass::mutable_log;
};

TEST(FusionPassBase, DecideReturnsTheRecordOfARepeatedDecision) {
  auto m = ParseHloModule("ENTRY e {\n  p = f32[4] parameter(0)\n  a = f32[4] negate(p)\n  b = f32[4] abs(a)\n"
                          "  ROOT c = f32[4] add(a, b)\n}\n");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const Computation& c = *(*m)->entry();
  std::vector<const Instruction*> i;
  for (const auto& x : c.instructions()) i.push_back(x.get());
  Recorder r;
  r.BeginRun();
  const Cost none;
  EXPECT_EQ(r.Decide(*i[1], {i[2]}, FusionVerdict::kFused, "first", none, none), 0u);
  EXPECT_EQ(r.Decide(*i[1], {i[3]}, FusionVerdict::kNotFused, "other consumer", none, none), 1u);
  EXPECT_EQ(r.Decide(*i[2], {i[3]}, FusionVerdict::kFused, "first", none, none), 2u);
  // The first decision again: its own record, not the last one logged.
  EXPECT_EQ(r.Decide(*i[1], {i[2]}, FusionVerdict::kFused, "first", none, none), 0u);
  // A different verdict or reason is a new decision.
  EXPECT_EQ(r.Decide(*i[1], {i[2]}, FusionVerdict::kNotFused, "first", none, none), 3u);
  EXPECT_EQ(r.Decide(*i[1], {i[2]}, FusionVerdict::kFused, "second", none, none), 4u);
  EXPECT_EQ(r.log().decisions.size(), 5u);
  // A new run forgets the earlier decisions.
  r.mutable_log().decisions.clear();
  r.BeginRun();
  EXPECT_EQ(r.Decide(*i[1], {i[2]}, FusionVerdict::kFused, "first", none, none), 0u);
}

}  // namespace
}  // namespace hloscope
