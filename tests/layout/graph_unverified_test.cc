// Modules that parse but do not verify still draw: the corpus modules XLA's
// parser accepts and its verifier rejects open in the GUI and in
// export-graph at their input step, so their graph must build and lay out.
#include <fstream>

#include "core/verify/verifier.h"
#include "tests/layout/layout_test_util.h"

namespace hloscope::testing {
namespace {

TEST(GraphUnverified, CorpusModulesThatDoNotVerifyStillDraw) {
  const std::string shared = SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  std::ifstream index(shared + "/corpus/INDEX.tsv");
  std::string line;
  std::getline(index, line);
  int drawn = 0;
  while (std::getline(index, line)) {
    const std::string file = line.substr(0, line.find('\t'));
    const std::string path = shared + "/corpus/" + file;
    auto m = ParseHloFile(path);
    if (!m.ok() || VerifyModule(**m).ok()) continue;
    auto snap = ModuleSnapshot::Capture(**m);
    auto again = Reparse(*snap);
    ASSERT_TRUE(again) << file;
    layout::GraphOptions o;
    auto g = layout::BuildGraph(*again, *snap, o);
    ASSERT_TRUE(g.ok()) << file << ": " << g.status().message();
    EXPECT_FALSE(g->nodes.empty()) << file;
    auto laid = layout::LayoutGraph(*g, layout::LayoutOptions{});
    EXPECT_TRUE(laid.ok()) << file << ": " << (laid.ok() ? "" : laid.status().message());
    ++drawn;
  }
  EXPECT_GE(drawn, 6) << "the corpus modules XLA's parser accepts but its verifier rejects";
}

}  // namespace
}  // namespace hloscope::testing
