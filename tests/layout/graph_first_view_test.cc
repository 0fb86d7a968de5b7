// The readable first view (GraphOptions::fit_width/height; issue 29):
// structural grouping of modules without op_name into repeated blocks and
// chunks, parameters with their first user, group summaries, and opening
// only while the estimated layout keeps labels readable.
#include <functional>
#include <map>
#include <sstream>

#include "core/layout/graph_layout.h"
#include "tests/layout/layout_test_util.h"

namespace hloscope::testing {
namespace {

using layout::Graph;
using layout::GraphOptions;

// `layers` identical residual blocks (7 ops each, own weights), then a head.
std::string Layers(int layers) {
  std::ostringstream s;
  s << "HloModule layers\n\nENTRY main {\n  x = f32[16,64]{1,0} parameter(0)\n";
  std::string h = "x";
  for (int l = 0; l < layers; ++l) {
    std::string p = "l" + std::to_string(l);
    s << "  " << p << ".w = f32[64,64]{1,0} parameter(" << l + 1 << ")\n"
      << "  " << p << ".d = f32[16,64]{1,0} dot(" << h << ", " << p << ".w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      << "  " << p << ".t = f32[16,64]{1,0} tanh(" << p << ".d)\n"
      << "  " << p << ".m = f32[16,64]{1,0} multiply(" << p << ".t, " << p << ".d)\n"
      << "  " << p << ".e = f32[16,64]{1,0} exponential(" << p << ".m)\n"
      << "  " << p << ".n = f32[16,64]{1,0} negate(" << p << ".e)\n"
      << "  " << p << ".s = f32[16,64]{1,0} subtract(" << p << ".n, " << p << ".t)\n"
      << "  " << p << ".r = f32[16,64]{1,0} add(" << p << ".s, " << h << ")\n";
    h = p + ".r";
  }
  s << "  ROOT out = f32[16,64]{1,0} sqrt(" << h << ")\n}\n";
  return s.str();
}

Graph BuildFit(const std::string& text, double w, double h, std::set<int64_t> expanded = {}) {
  auto m = ParseHloModule(text, "<test>");
  EXPECT_TRUE(m.ok()) << m.status().message();
  auto snap = ModuleSnapshot::Capture(**m);
  auto again = Reparse(*snap);
  GraphOptions o;
  o.fit_width = w;
  o.fit_height = h;
  o.expanded = std::move(expanded);
  auto g = layout::BuildGraph(*again, *snap, o);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? *g : Graph{};
}

const layout::GraphNode* Named(const Graph& g, const std::string& prefix) {
  for (const auto& n : g.nodes)
    if (n.name.rfind(prefix, 0) == 0) return &n;
  return nullptr;
}

TEST(GraphFirstView, RepeatedLayersBecomeIdenticalBlocks) {
  Graph g = BuildFit(Layers(24), 700, 540);
  ASSERT_TRUE(g.grouped);
  EXPECT_LE(g.nodes.size(), 80u);
  const layout::GraphNode* rep = Named(g, "24 identical blocks");
  if (!rep) rep = Named(g, "23 identical blocks");  // the cut may leave one layer outside
  ASSERT_NE(rep, nullptr) << "no repeat group; first node: " << g.nodes.front().label;
  ASSERT_GE(rep->details.size(), 2u);
  EXPECT_NE(rep->details[0].find(" ops · "), std::string::npos) << rep->details[0];
  EXPECT_NE(rep->details[0].find("kernels"), std::string::npos);
  EXPECT_NE(rep->details.back().find("in "), std::string::npos);
  // Opened: its blocks, every one but the first marked as repeating it.
  Graph open = BuildFit(Layers(24), 700, 540, {rep->id});
  int blocks = 0, repeats = 0;
  int64_t first = 0;
  for (const auto& n : open.nodes) {
    if (n.name == "block 1") first = n.id;
    if (n.name.rfind("block ", 0) == 0) ++blocks;
    repeats += n.identical_to != 0;
  }
  for (const auto& c : open.clusters)
    if (c.label == "block 1") first = c.id;
  ASSERT_NE(first, 0);
  EXPECT_GE(blocks, 20);
  EXPECT_EQ(repeats, blocks - (Named(open, "block 1") ? 1 : 0));
  for (const auto& n : open.nodes)
    if (n.identical_to != 0) {
      EXPECT_EQ(n.identical_to, first) << n.name;
      EXPECT_NE(n.label.find("≡ block 1"), std::string::npos) << n.label;
    }
  // A block is a layer: it starts at a dot (the cut with one value across).
  bool dot_first = false;
  for (const auto& n : open.nodes)
    if (n.name.rfind("block 2", 0) == 0) dot_first = n.details.size() > 1 && n.details[1].find("dot 1") == 0;
  EXPECT_TRUE(dot_first);
}

TEST(GraphFirstView, SmallGraphThatFitsIsNotGrouped) {
  Graph g = BuildFit(Layers(1), 700, 540);
  EXPECT_FALSE(g.grouped);
  for (const auto& n : g.nodes) {
    // Two lines: the name over "opcode shape".
    EXPECT_EQ(n.label, n.name);
    ASSERT_EQ(n.details.size(), 1u);
    EXPECT_EQ(n.details[0], n.opcode + " " + n.shape);
  }
  // The same graph in a view too small to read it whole is grouped.
  Graph tiny = BuildFit(Layers(1), 200, 150);
  EXPECT_TRUE(tiny.grouped);
}

TEST(GraphFirstView, ParametersGoWithTheirFirstUser) {
  Graph g = BuildFit(Layers(24), 700, 540);
  auto m = ParseHloModule(Layers(24), "<test>");
  ASSERT_TRUE(m.ok());
  auto snap = ModuleSnapshot::Capture(**m);
  // l5.w is read only by l5.d: both are shown by the same node.
  int64_t w = -1, d = -1;
  for (const auto& r : snap->instructions) {
    if (r.name == "l5.w") w = r.id;
    if (r.name == "l5.d") d = r.id;
  }
  ASSERT_GE(w, 0);
  ASSERT_GE(d, 0);
  EXPECT_EQ(layout::VisibleNodeFor(g, w), layout::VisibleNodeFor(g, d));
}

// The first view of `text` laid out for the GUI's graph at 1400x860
// (672x537), checked readable: at most 80 boxes, labels of at least 9 px.
StatusOr<layout::LaidOutGraph> ReadableFirstView(const std::string& text) {
  auto m = ParseHloModule(text, "<test>");
  if (!m.ok()) return m.status();
  auto snap = ModuleSnapshot::Capture(**m);
  auto again = Reparse(*snap);
  GraphOptions o;
  o.fit_width = 672;
  o.fit_height = 537;
  auto l = layout::BuildAndLayout(*again, *snap, o, {});
  if (l.ok()) {
    EXPECT_LE(l->nodes.size(), 80u);
    EXPECT_GE(layout::FittedZoom(*l, o.fit_width, o.fit_height) * layout::kFontPt, 9.0);
  }
  return l;
}

TEST(GraphFirstView, LaidOutFirstViewIsReadable) {
  auto l = ReadableFirstView(Layers(40));
  ASSERT_TRUE(l.ok()) << l.status().message();
}

TEST(GraphFirstView, LlamaCorpusModuleShowsItsRepeatedLayers) {
  if (SharedDir().empty()) GTEST_SKIP() << "../shared absent";
  const std::string path = SharedDir() + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo";
  auto text = ReadFileToString(path);
  if (!text.ok()) GTEST_SKIP() << path << " absent";
  auto l = ReadableFirstView(*text);
  ASSERT_TRUE(l.ok()) << l.status().message();
  // The forward and backward layer stacks (31 or 30 identical blocks each).
  int stacks = 0;
  for (const auto& n : l->graph.nodes) stacks += n.name.find("identical blocks") != std::string::npos;
  for (const auto& c : l->graph.clusters) stacks += c.label.find("identical blocks") != std::string::npos;
  EXPECT_GE(stacks, 2);
  for (const auto& n : l->graph.nodes) EXPECT_EQ(n.name.rfind("ops ", 0) == 0 && n.details.empty(), false) << n.label;
}

std::map<std::string, int64_t> Ids(const ModuleSnapshot& snap) {
  std::map<std::string, int64_t> out;
  for (const auto& r : snap.instructions) out[r.name] = r.id;
  return out;
}

TEST(GraphFocus, OnlyTheChangeAndItsOperandsAndUsers) {
  auto m = ParseHloModule(Layers(3), "<test>");
  ASSERT_TRUE(m.ok());
  auto snap = ModuleSnapshot::Capture(**m);
  auto ids = Ids(*snap);
  GraphOptions o;
  o.focus = {ids["l1.t"]};
  Graph g = MustBuild(*snap, o);
  std::set<std::string> names;
  for (const auto& n : g.nodes) names.insert(n.name);
  EXPECT_EQ(names, (std::set<std::string>{"l1.d", "l1.t", "l1.m", "l1.s"}));
  // Two changes: the union of their neighbourhoods.
  o.focus = {ids["l0.r"], ids["l2.n"]};
  names.clear();
  for (const auto& n : MustBuild(*snap, o).nodes) names.insert(n.name);
  EXPECT_EQ(names, (std::set<std::string>{"l0.s", "x", "l0.r", "l1.d", "l1.r", "l2.e", "l2.n", "l2.s"}));
}

TEST(GraphFocus, ParametersFoldIntoTheirUsers) {
  auto m = ParseHloModule(Layers(2), "<test>");
  ASSERT_TRUE(m.ok());
  auto snap = ModuleSnapshot::Capture(**m);
  auto ids = Ids(*snap);
  GraphOptions o;
  o.fold_inputs = true;
  Graph g = MustBuild(*snap, o);
  for (const auto& n : g.nodes) EXPECT_NE(n.opcode, "parameter") << n.name;
  const layout::GraphNode* d = g.FindNode(ids["l0.d"]);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->inlined_constants.size(), 2u);
  EXPECT_EQ(d->inlined_constants[0], "op0: param x f32[16,64]");
  EXPECT_EQ(d->inlined_constants[1], "op1: param l0.w f32[64,64]");
  EXPECT_EQ(layout::VisibleNodeFor(g, ids["l0.w"]), ids["l0.d"]);
  // Off: every parameter is a box.
  size_t params = 0;
  for (const auto& n : MustBuild(*snap).nodes) params += n.opcode == "parameter";
  EXPECT_EQ(params, 3u);
}

}  // namespace
}  // namespace hloscope::testing
