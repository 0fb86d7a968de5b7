// The graph model on real samples: labels and ids, constants inlined, fusion
// clusters, called computations, neighbourhoods, grouping of large modules.
#include <set>
#include <unordered_set>

#include "tests/layout/layout_test_util.h"

namespace hloscope::testing {
namespace {

using layout::Graph;
using layout::GraphOptions;

void ExpectConsistent(const Graph& g, const ModuleSnapshot* snap) {
  std::unordered_set<int64_t> ids, clusters;
  for (const auto& c : g.clusters) clusters.insert(c.id);
  for (const auto& n : g.nodes) {
    EXPECT_TRUE(ids.insert(n.id).second) << "duplicate node " << n.id;
    if (n.cluster != -1) EXPECT_TRUE(clusters.count(n.cluster)) << n.name;
    if (!n.is_group && snap) {
      const InstructionRecord* r = snap->Find(n.id);
      ASSERT_NE(r, nullptr) << n.name;
      EXPECT_EQ(r->name, n.name);
      EXPECT_EQ(n.label, n.name + " = " + n.opcode + " " + n.shape);
    }
  }
  for (const auto& e : g.edges) {
    EXPECT_TRUE(ids.count(e.from)) << e.from;
    EXPECT_TRUE(ids.count(e.to)) << e.to;
  }
  for (const auto& [instr, shown] : g.shown_by) EXPECT_TRUE(ids.count(shown) || clusters.count(shown)) << instr << " -> " << shown;
}

TEST(GraphModel, EntryNodesLabelledAndConstantsInlined) {
  PipelineRun run = RunPipeline("transformer_block.hlo", "simplify");
  ASSERT_TRUE(run.recorder->initial());
  const ModuleSnapshot& snap = *run.recorder->initial();
  Graph g = MustBuild(snap);
  ASSERT_FALSE(g.nodes.empty());
  ExpectConsistent(g, &snap);
  EXPECT_FALSE(g.grouped);
  size_t with_constants = 0;
  for (const auto& n : g.nodes) {
    with_constants += !n.inlined_constants.empty();
    // No scalar constant with users is drawn as a node of its own.
    if (n.opcode == "constant") EXPECT_NE(n.shape.find('['), std::string::npos);
  }
  EXPECT_GT(with_constants, 0u);
  // Without inlining there are more nodes and the constants are nodes.
  GraphOptions o;
  o.inline_small_constants = false;
  Graph all = MustBuild(snap, o);
  EXPECT_GT(all.nodes.size(), g.nodes.size());
  for (const auto& n : all.nodes) EXPECT_TRUE(n.inlined_constants.empty());
  // Every instruction of the entry is shown by some node.
  for (const auto& r : snap.instructions)
    if (snap.computations[r.computation].is_entry) EXPECT_NE(layout::VisibleNodeFor(g, r.id), -1) << r.name;
}

TEST(GraphModel, FusionsCollapsedOrExpandedAsClusters) {
  PipelineRun run = RunPipeline("transformer_block.hlo", "gpu");
  ASSERT_FALSE(run.recorder->steps().empty());
  const ModuleSnapshot& snap = *run.recorder->steps().back()->module;
  Graph collapsed = MustBuild(snap);
  ExpectConsistent(collapsed, &snap);
  std::vector<int64_t> fusions;
  for (const auto& n : collapsed.nodes)
    if (n.is_fusion) fusions.push_back(n.id);
  ASSERT_GE(fusions.size(), 5u);
  EXPECT_TRUE(collapsed.clusters.empty());
  // The fused computations are not listed as drawable computations.
  for (const std::string& c : collapsed.computations) EXPECT_EQ(c.find("fused_computation"), std::string::npos) << c;

  GraphOptions o;
  o.expand_fusions = true;
  Graph expanded = MustBuild(snap, o);
  ExpectConsistent(expanded, &snap);
  EXPECT_EQ(expanded.clusters.size(), fusions.size());
  for (const auto& c : expanded.clusters) EXPECT_TRUE(c.is_fusion);
  EXPECT_GT(expanded.nodes.size(), collapsed.nodes.size());
  // Inside a cluster: its parameters, fed by edges from outside.
  int64_t first = fusions.front();
  size_t inside = 0, params = 0, edges_in = 0;
  std::set<int64_t> members;
  for (const auto& n : expanded.nodes)
    if (n.cluster == first) ++inside, params += n.opcode == "parameter", members.insert(n.id);
  for (const auto& e : expanded.edges) edges_in += members.count(e.to) && !members.count(e.from);
  EXPECT_GT(inside, 1u);
  EXPECT_GT(params, 0u);
  EXPECT_GT(edges_in, 0u);
  // Opening one fusion only, then closing it against expand_fusions.
  GraphOptions one;
  one.expanded = {first};
  EXPECT_EQ(MustBuild(snap, one).clusters.size(), 1u);
  o.collapsed = {first};
  EXPECT_EQ(MustBuild(snap, o).clusters.size(), fusions.size() - 1);
}

TEST(GraphModel, CalledComputationsListedAndDrawable) {
  PipelineRun run = RunPipeline("scan_rnn.hlo", "simplify");
  const ModuleSnapshot& snap = *run.recorder->initial();
  Graph g = MustBuild(snap);
  ASSERT_GE(g.computations.size(), 2u);
  bool calls = false;
  for (const auto& n : g.nodes) calls = calls || !n.called.empty();
  EXPECT_TRUE(calls);
  for (size_t i = 1; i < g.computations.size(); ++i) {
    GraphOptions o;
    o.computation = g.computations[i];
    Graph sub = MustBuild(snap, o);
    EXPECT_EQ(sub.computation, g.computations[i]);
    EXPECT_FALSE(sub.nodes.empty());
    ExpectConsistent(sub, &snap);
  }
  GraphOptions bad;
  bad.computation = "no_such_computation";
  auto m = Reparse(snap);
  auto r = layout::BuildGraph(*m, snap, bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no_such_computation"), std::string::npos);
}

TEST(GraphModel, NeighbourhoodKeepsNodesWithinHops) {
  PipelineRun run = RunPipeline("transformer_block.hlo", "simplify");
  const ModuleSnapshot& snap = *run.recorder->initial();
  Graph all = MustBuild(snap);
  // A centre with both operands and users.
  const layout::GraphNode* center = nullptr;
  for (const auto& n : all.nodes) {
    bool in = false, out = false;
    for (const auto& e : all.edges) in = in || e.to == n.id, out = out || e.from == n.id;
    if (in && out) { center = &n; break; }
  }
  ASSERT_NE(center, nullptr);
  std::set<int64_t> expected{center->id};
  for (const auto& e : all.edges) {
    if (e.to == center->id) expected.insert(e.from);
    if (e.from == center->id) expected.insert(e.to);
  }
  GraphOptions o;
  o.neighbourhood_hops = 1;
  o.center_id = center->id;
  Graph near = MustBuild(snap, o);
  std::set<int64_t> got;
  for (const auto& n : near.nodes) got.insert(n.id);
  EXPECT_EQ(got, expected);
  o.neighbourhood_hops = 3;
  Graph wider = MustBuild(snap, o);
  EXPECT_GT(wider.nodes.size(), near.nodes.size());
  EXPECT_LT(wider.nodes.size(), all.nodes.size());
}

TEST(GraphModel, SmallLimitGroupsIntoChunks) {
  PipelineRun run = RunPipeline("transformer_block.hlo", "simplify");
  const ModuleSnapshot& snap = *run.recorder->initial();
  GraphOptions o;
  o.max_nodes = 24;
  Graph g = MustBuild(snap, o);
  EXPECT_TRUE(g.grouped);
  EXPECT_LE(g.nodes.size(), 24u);
  ExpectConsistent(g, nullptr);
  size_t groups = 0;
  for (const auto& n : g.nodes) groups += n.is_group;
  EXPECT_GT(groups, 0u);
  EXPECT_GT(g.hidden_instructions, 0);
}

TEST(GraphModel, GroupsByOpNameNamespaceOnCorpusModule) {
  if (SharedDir().empty()) GTEST_SKIP() << "../shared absent";
  std::string path = SharedDir() +
      "/corpus/xla/tools/benchmarks/hlo/nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization.hlo";
  auto text = ReadFileToString(path);
  ASSERT_TRUE(text.ok());
  auto m = ParseHloModule(*text, path);
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto snap = ModuleSnapshot::Capture(**m);
  auto again = Reparse(*snap);
  GraphOptions o;
  o.max_nodes = 800;
  auto g = layout::BuildGraph(*again, *snap, o);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_TRUE(g->grouped);
  EXPECT_LE(g->nodes.size(), 800u);
  ExpectConsistent(*g, nullptr);
  const layout::GraphNode* group = nullptr;
  for (const auto& n : g->nodes)
    if (n.is_group && n.op_name.find("dense_layers") != std::string::npos && (!group || n.group_size > group->group_size))
      group = &n;
  ASSERT_NE(group, nullptr) << "a namespace group named after op_name";
  EXPECT_EQ(group->op_name.find("ops "), std::string::npos);
  // Opening it shows its contents in a cluster of the same id.
  o.expanded = {group->id};
  auto opened = layout::BuildGraph(*again, *snap, o);
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(opened->FindNode(group->id), nullptr);
  bool cluster = false;
  for (const auto& c : opened->clusters) cluster = cluster || c.id == group->id;
  EXPECT_TRUE(cluster);
  EXPECT_LE(opened->nodes.size(), 800u);
  ExpectConsistent(*opened, nullptr);
}

}  // namespace
}  // namespace hloscope::testing
