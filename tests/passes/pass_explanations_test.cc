// The teaching paragraphs (pass_explanations.h): every registered pass has
// one of a reasonable length, no paragraph names a pass that does not
// exist, the fusion paragraphs use the warehouse picture, and the one-line
// descriptions are unchanged by it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/passes/pass_explanations.h"
#include "core/passes/pass_registry.h"

namespace hloscope {
namespace {

TEST(PassExplanations, EveryRegisteredPassHasAParagraph) {
  const PassRegistry& reg = PassRegistry::Global();
  ASSERT_FALSE(reg.passes().empty());
  for (const PassInfo& p : reg.passes()) {
    SCOPED_TRACE(p.name);
    const std::string_view text = PassExplanation(p.name);
    // A paragraph, not a line: what, why and what to look for.
    EXPECT_GE(text.size(), 350u);
    EXPECT_LE(text.size(), 1500u);
    EXPECT_NE(text.find("look for"), std::string_view::npos) << "says what to look for in the graph";
    // Longer than the one-line description and not a copy of it.
    EXPECT_GT(text.size(), p.description.size());
    EXPECT_EQ(text.find(p.description), std::string_view::npos);
  }
}

TEST(PassExplanations, EveryParagraphIsForARegisteredPass) {
  const PassRegistry& reg = PassRegistry::Global();
  std::set<std::string_view> names;
  for (std::string_view n : ExplainedPasses()) {
    EXPECT_TRUE(names.insert(n).second) << "twice: " << n;
    EXPECT_NE(reg.FindPass(n), nullptr) << "no pass named " << n;
  }
  EXPECT_EQ(names.size(), reg.passes().size());
  EXPECT_EQ(PassExplanation("no-such-pass"), "");
}

TEST(PassExplanations, FusionParagraphsUseTheWarehousePicture) {
  int fusion = 0;
  for (const PassInfo& p : PassRegistry::Global().passes()) {
    if (!IsFusionPass(p.name)) continue;
    ++fusion;
    SCOPED_TRACE(p.name);
    const std::string_view text = PassExplanation(p.name);
    EXPECT_NE(text.find("HBM"), std::string_view::npos);
    EXPECT_NE(text.find("warehouse"), std::string_view::npos);
  }
  // fusion, fusion_dup, fusion_merger, multi_output_fusion, priority_fusion,
  // horizontal_loop_fusion, the two Triton rewriters, tree-reduction-rewriter,
  // conv-rewriter.
  EXPECT_EQ(fusion, 10);
  for (const char* name : {"fusion", "fusion_dup", "fusion_merger", "multi_output_fusion", "priority_fusion"})
    EXPECT_NE(PassExplanation(name).find("registers"), std::string_view::npos) << name;
  EXPECT_FALSE(IsFusionPass("dce"));
}

TEST(PassExplanations, OneLineDescriptionsStayAsTheyWere) {
  // Scripts read list-passes' descriptions; the paragraph is additional.
  const PassInfo* dce = PassRegistry::Global().FindPass("dce");
  ASSERT_NE(dce, nullptr);
  EXPECT_EQ(dce->description,
            "Dead code elimination: deletes instructions whose results nobody uses (side effects are kept) and "
            "computations nobody calls.");
  for (const PassInfo& p : PassRegistry::Global().passes()) {
    auto pass = p.create();
    EXPECT_EQ(p.description, pass->description()) << p.name;
  }
}

}  // namespace
}  // namespace hloscope
