// Layout with Graphviz: boxes that do not overlap, splines in Graphviz's
// 3n+1 form, DOT that the real `dot` renders, stable layout across steps.
#include <set>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <unordered_map>

#include "core/layout/palette.h"
#include "tests/layout/layout_test_util.h"

namespace hloscope::testing {
namespace {

using layout::Graph;
using layout::GraphOptions;
using layout::LaidOutGraph;
using layout::LayoutOptions;

bool Overlap(const layout::NodeBox& a, const layout::NodeBox& b) {
  return a.x < b.x + b.w - 0.01 && b.x < a.x + a.w - 0.01 && a.y < b.y + b.h - 0.01 && b.y < a.y + a.h - 0.01;
}

void ExpectWellFormed(const LaidOutGraph& l) {
  ASSERT_EQ(l.nodes.size(), l.graph.nodes.size());
  ASSERT_EQ(l.edges.size(), l.graph.edges.size());
  for (size_t i = 0; i < l.nodes.size(); ++i) {
    const auto& b = l.nodes[i];
    EXPECT_EQ(b.id, l.graph.nodes[i].id);
    EXPECT_GT(b.w, 0);
    EXPECT_GT(b.h, 0);
    EXPECT_GE(b.x, -0.5);
    EXPECT_GE(b.y, -0.5);
    EXPECT_LE(b.x + b.w, l.width + 0.5);
    EXPECT_LE(b.y + b.h, l.height + 0.5);
    for (size_t j = i + 1; j < l.nodes.size(); ++j)
      EXPECT_FALSE(Overlap(b, l.nodes[j])) << l.graph.nodes[i].name << " / " << l.graph.nodes[j].name;
  }
  for (const auto& e : l.edges) {
    ASSERT_GE(e.points.size(), 4u);
    EXPECT_EQ((e.points.size() - 1) % 3, 0u);
  }
}

TEST(GraphLayout, DotLayoutOfSampleWithClusters) {
  PipelineRun run = RunPipeline("transformer_block.hlo", "gpu");
  ASSERT_FALSE(run.recorder->steps().empty());
  const ModuleSnapshot& snap = *run.recorder->steps().back()->module;
  GraphOptions o;
  o.expand_fusions = true;
  Graph g = MustBuild(snap, o);
  auto l = layout::LayoutGraph(g, {});
  ASSERT_TRUE(l.ok()) << l.status().message();
  EXPECT_FALSE(l->stable);
  ExpectWellFormed(*l);
  ASSERT_EQ(l->clusters.size(), g.clusters.size());
  // A cluster's box holds its members.
  std::unordered_map<int64_t, layout::ClusterBox> box;
  for (const auto& c : l->clusters) box[c.id] = c;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].cluster == -1) continue;
    const auto& c = box[g.nodes[i].cluster];
    const auto& n = l->nodes[i];
    EXPECT_GE(n.x, c.x - 0.5);
    EXPECT_GE(n.y, c.y - 0.5);
    EXPECT_LE(n.x + n.w, c.x + c.w + 0.5);
    EXPECT_LE(n.y + n.h, c.y + c.h + 0.5);
  }
  // Tuned attributes still give a valid picture.
  LayoutOptions tuned;
  tuned.tuned = true;
  auto t = layout::LayoutGraph(g, tuned);
  ASSERT_TRUE(t.ok());
  ExpectWellFormed(*t);
}

TEST(GraphLayout, DotTextRendersWithGraphvizDot) {
  if (std::system("dot -V > /dev/null 2>&1") != 0) GTEST_SKIP() << "Graphviz dot not installed";
  PipelineRun run = RunPipeline("transformer_block.hlo", "gpu");
  const ModuleSnapshot& snap = *run.recorder->steps().back()->module;
  GraphOptions o;
  o.expand_fusions = true;
  Graph g = MustBuild(snap, o);
  std::string dot = layout::ToDot(g);
  EXPECT_NE(dot.find("subgraph cluster_"), std::string::npos);
  EXPECT_NE(dot.find(std::string(layout::kFusionClusterFill)), std::string::npos);
  auto dir = std::filesystem::temp_directory_path() / ("hloscope_layout_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "g.dot") << dot;
  std::string cmd = "dot -Tplain " + (dir / "g.dot").string() + " > " + (dir / "g.plain").string() + " 2> " +
                    (dir / "g.err").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream plain(dir / "g.plain");
  std::string line;
  size_t nodes = 0, edges = 0;
  while (std::getline(plain, line)) {
    nodes += line.rfind("node ", 0) == 0;
    edges += line.rfind("edge ", 0) == 0;
  }
  std::stringstream err;
  err << std::ifstream(dir / "g.err").rdbuf();
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(nodes, g.nodes.size());
  EXPECT_EQ(edges, g.edges.size());
  std::filesystem::remove_all(dir);
}

TEST(GraphLayout, StableAcrossStepsKeepsSurvivors) {
  PipelineRun run = RunPipeline("transformer_block.hlo", "gpu");
  const auto& steps = run.recorder->steps();
  std::shared_ptr<const LaidOutGraph> prev;
  {
    auto l = layout::LayoutGraph(MustBuild(*run.recorder->initial()), {});
    ASSERT_TRUE(l.ok());
    prev = std::make_shared<LaidOutGraph>(std::move(*l));
  }
  int stable_steps = 0, checked = 0;
  for (const auto& step : steps) {
    if (!step->changed) continue;
    Graph g = MustBuild(*step->module);
    LayoutOptions lo;
    for (const auto& r : step->diff.replaced) lo.replaced.push_back({r.old_id, r.new_id});
    for (const auto& r : step->diff.folded_into) lo.replaced.push_back({r.old_id, r.new_id});
    auto l = layout::LayoutGraph(g, lo, prev.get());
    ASSERT_TRUE(l.ok()) << l.status().message();
    ExpectWellFormed(*l);
    if (l->stable) {
      ++stable_steps;
      for (const auto& b : l->nodes) {
        const layout::NodeBox* old = prev->FindBox(b.id);
        if (!old) continue;
        EXPECT_DOUBLE_EQ(b.x + b.w / 2, old->x + old->w / 2) << step->pass;
        EXPECT_DOUBLE_EQ(b.y + b.h / 2, old->y + old->h / 2) << step->pass;
        ++checked;
      }
    }
    prev = std::make_shared<LaidOutGraph>(std::move(*l));
  }
  EXPECT_GT(stable_steps, 0);
  EXPECT_GT(checked, 0);
}

TEST(GraphLayout, TooMuchChangeFallsBackToFreshLayout) {
  PipelineRun a = RunPipeline("softmax.hlo", "simplify");
  PipelineRun b = RunPipeline("layer_norm.hlo", "simplify");
  auto la = layout::LayoutGraph(MustBuild(*a.recorder->initial()), {});
  ASSERT_TRUE(la.ok());
  // Same graph again: every node survives.
  auto same = layout::LayoutGraph(la->graph, {}, &*la);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(same->stable);
  Graph other = MustBuild(*b.recorder->initial());
  // A different module: ids overlap by accident only; most nodes are new.
  Graph shifted = other;
  for (auto& n : shifted.nodes) n.id += 100000;
  for (auto& e : shifted.edges) e.from += 100000, e.to += 100000;
  auto lb = layout::LayoutGraph(shifted, {}, &*la);
  ASSERT_TRUE(lb.ok());
  EXPECT_FALSE(lb->stable);
  ExpectWellFormed(*lb);
}

// Rule 6: a step that leaves the picture sparse (most nodes gone, the
// survivors spread over the old area) gets a fresh, compact layout; a step
// that removes a few keeps the places.
TEST(GraphLayout, SparseAfterLargeStepCompacts) {
  PipelineRun a = RunPipeline("transformer_block.hlo", "simplify");
  auto full = layout::LayoutGraph(MustBuild(*a.recorder->initial()), {});
  ASSERT_TRUE(full.ok());
  ASSERT_GT(full->nodes.size(), 40u);
  auto keep_every = [&](size_t k) {
    Graph g = full->graph;
    std::set<int64_t> kept;
    std::vector<layout::GraphNode> nodes;
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (i % k == 0) nodes.push_back(g.nodes[i]), kept.insert(g.nodes[i].id);
    g.nodes = nodes;
    std::vector<layout::GraphEdge> edges;
    for (const auto& e : g.edges)
      if (kept.count(e.from) && kept.count(e.to)) edges.push_back(e);
    g.edges = edges;
    g.clusters.clear();
    for (auto& n : g.nodes) n.cluster = -1;
    return g;
  };
  auto sparse = layout::LayoutGraph(keep_every(6), {}, &*full);
  ASSERT_TRUE(sparse.ok());
  EXPECT_FALSE(sparse->stable) << "a sixth of the nodes left at their old places";
  EXPECT_LT(sparse->width * sparse->height, 0.5 * full->width * full->height);
  ExpectWellFormed(*sparse);
  Graph most = full->graph;  // one node gone: stable
  most.nodes.pop_back();
  std::vector<layout::GraphEdge> edges;
  for (const auto& e : most.edges)
    if (e.from != full->graph.nodes.back().id && e.to != full->graph.nodes.back().id) edges.push_back(e);
  most.edges = edges;
  auto kept = layout::LayoutGraph(most, {}, &*full);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(kept->stable);
}

// Above the threshold our own layered layout runs (dot would take minutes on
// 2,000 nodes with a few high fan-out nodes): well-formed, every edge points
// down, and nodes of a layer do not overlap.
TEST(GraphLayout, LargeGraphUsesLayeredLayout) {
  Graph g;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    layout::GraphNode node;
    node.id = i;
    node.name = "n" + std::to_string(i);
    node.label = node.name + " = add f32[64,64]";
    g.nodes.push_back(node);
  }
  g.nodes[0].label = "w = parameter f32[64,64]";  // a weight read by every 9th node
  for (int i = 1; i + 1 < n; ++i) g.edges.push_back({i, i + 1, 0, "f32[64,64]", 1});
  for (int i = 9; i < n; i += 9) g.edges.push_back({0, i, 1, "f32[64,64]", 1});
  for (int i = 1; i + 5 < n; i += 7) g.edges.push_back({i, i + 5, 1, "f32[64,64]", 1});  // residuals
  auto l = layout::LayoutGraph(g, {});
  ASSERT_TRUE(l.ok()) << l.status().message();
  EXPECT_EQ(l->engine, "layered");
  ExpectWellFormed(*l);
  for (const auto& e : l->edges) {
    const layout::NodeBox* a = l->FindBox(e.from);
    const layout::NodeBox* b = l->FindBox(e.to);
    ASSERT_TRUE(a && b);
    EXPECT_LT(a->y + a->h, b->y + 0.01) << e.from << " -> " << e.to;
  }
  // The same graph with the threshold off goes to dot (not run here: slow);
  // a small graph stays with dot.
  Graph small;
  small.nodes.assign(g.nodes.begin(), g.nodes.begin() + 20);
  for (int i = 1; i + 1 < 20; ++i) small.edges.push_back({i, i + 1, 0, "f32[64,64]", 1});
  auto s = layout::LayoutGraph(small, {});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->engine, "dot");
  // An edge to a missing node is an error here too.
  g.edges.push_back({1, n + 5, 0, "f32[]", 1});
  auto bad = layout::LayoutGraph(g, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(std::to_string(n + 5)), std::string::npos);
}

TEST(GraphLayout, EdgeToMissingNodeIsAnError) {
  Graph g;
  g.nodes.push_back({});
  g.nodes[0].id = 1;
  g.nodes[0].label = "a = add f32[]";
  g.edges.push_back({1, 7, 0, "f32[]", 1});
  auto l = layout::LayoutGraph(g, {});
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.status().message().find("7"), std::string::npos);
}

TEST(GraphLayout, CacheKeepsAndEvicts) {
  layout::LayoutCache cache(2);
  auto v = std::make_shared<LaidOutGraph>();
  cache.Insert("a", v);
  cache.Insert("b", v);
  EXPECT_EQ(cache.Find("a"), v);
  cache.Insert("c", v);
  EXPECT_EQ(cache.Find("a"), nullptr);
  EXPECT_EQ(cache.Find("c"), v);
  GraphOptions g1, g2;
  g2.expanded = {5};
  EXPECT_NE(layout::OptionsKey(g1, {}), layout::OptionsKey(g2, {}));
}

}  // namespace
}  // namespace hloscope::testing
