// Grouping of large graphs: top-level items go into a tree of namespaces
// (metadata op_name without its last component) or, for modules without
// op_name, into chunks of consecutive instructions. Groups open top-down while
// the visible node count stays under GraphOptions::max_nodes; a closed group
// is one node and the edges crossing it are aggregated.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/layout/graph_model_internal.h"

namespace hloscope::layout::internal {
namespace {

struct TNode {
  std::string name, path;
  int parent = -1;
  std::vector<int> children;
  std::vector<int> items;  // direct items
  int64_t instructions = 0;  // in the subtree
  bool open = false;
};

std::vector<std::string> Namespace(const std::string& op_name) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t slash = op_name.find('/', start);
    if (slash == std::string::npos) break;  // the last component is the op itself
    if (slash > start) parts.push_back(op_name.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

class Grouper {
 public:
  Grouper(Graph& g, const std::vector<TopItem>& items, const std::vector<int>& item_of_node,
          const std::vector<int>& item_of_cluster, const GraphOptions& o)
      : g_(g), items_(items), item_of_node_(item_of_node), item_of_cluster_(item_of_cluster), o_(o) {
    max_ = std::max<size_t>(o.max_nodes, 8);
    weight_.assign(items.size(), 0);
    for (int it : item_of_node) ++weight_[it];
  }

  void Run() {
    BuildTree();
    Open();
    Emit();
  }

 private:
  int Child(int parent, const std::string& name) {
    for (int c : tree_[parent].children)
      if (tree_[c].name == name) return c;
    TNode t;
    t.name = name;
    t.path = tree_[parent].path.empty() ? name : tree_[parent].path + "/" + name;
    t.parent = parent;
    tree_.push_back(std::move(t));
    int id = static_cast<int>(tree_.size()) - 1;
    tree_[parent].children.push_back(id);
    return id;
  }

  // Puts `list` under `parent`, in chunks when there are too many.
  void ChunkItems(int parent, const std::vector<int>& list) {
    size_t half = max_ / 2, quarter = std::max<size_t>(max_ / 4, 1);
    if (list.size() <= half) {
      for (int it : list) tree_[parent].items.push_back(it);
      return;
    }
    size_t chunks = std::min(half, (list.size() + quarter - 1) / quarter);
    size_t size = (list.size() + chunks - 1) / chunks;
    for (size_t b = 0; b < list.size(); b += size) {
      size_t e = std::min(list.size(), b + size);
      int c = Child(parent, "ops " + std::to_string(list[b]) + "-" + std::to_string(list[e - 1]));
      ChunkItems(c, std::vector<int>(list.begin() + b, list.begin() + e));
    }
  }

  void BuildTree() {
    tree_.push_back(TNode{});  // root
    home_.assign(items_.size(), 0);
    size_t named = 0;
    for (const TopItem& it : items_) named += !Namespace(it.op_name).empty();
    bool by_namespace = o_.group_by_namespace && named * 2 >= items_.size() && named > 0;
    std::vector<std::vector<int>> direct(1);
    for (size_t i = 0; i < items_.size(); ++i) {
      int t = 0;
      if (by_namespace)
        for (const std::string& part : Namespace(items_[i].op_name)) t = Child(t, part);
      if (direct.size() < tree_.size()) direct.resize(tree_.size());
      direct[t].push_back(static_cast<int>(i));
    }
    direct.resize(tree_.size());
    size_t n = tree_.size();
    for (size_t t = 0; t < n; ++t) ChunkItems(static_cast<int>(t), direct[t]);
    for (size_t t = 0; t < tree_.size(); ++t)
      for (int it : tree_[t].items) {
        home_[it] = static_cast<int>(t);
        for (int a = static_cast<int>(t); a >= 0; a = tree_[a].parent)
          tree_[a].instructions += items_[it].instructions;
      }
  }

  int64_t Cost(int t) const {  // visible nodes when t is open and its children closed
    int64_t c = static_cast<int64_t>(tree_[t].children.size());
    for (int it : tree_[t].items) c += weight_[it];
    return c;
  }

  bool TryOpen(int t, int64_t limit) {
    if (tree_[t].open) return true;
    if (t != 0 && o_.collapsed.count(GroupId(tree_[t].path))) return false;
    if (tree_[t].parent >= 0 && !TryOpen(tree_[t].parent, limit)) return false;
    int64_t after = visible_ - 1 + Cost(t);
    if (after > limit) return false;
    tree_[t].open = true;
    visible_ = after;
    return true;
  }

  void Open() {
    tree_[0].open = true;
    visible_ = Cost(0);
    int64_t limit = static_cast<int64_t>(max_);
    // Chains of single groups open by themselves.
    for (int t = 0; tree_[t].children.size() == 1 && tree_[t].items.empty();) {
      t = tree_[t].children[0];
      if (!TryOpen(t, limit)) break;
    }
    for (int64_t id : o_.expanded)
      for (size_t t = 1; t < tree_.size(); ++t)
        if (GroupId(tree_[t].path) == id) TryOpen(static_cast<int>(t), limit);
    // Breadth-first while half the budget is left (leaves room to open more).
    std::vector<int> queue{0};
    for (size_t q = 0; q < queue.size(); ++q) {
      for (int c : tree_[queue[q]].children) {
        if (tree_[c].name.rfind("ops ", 0) == 0) continue;  // chunks open on request only
        if (tree_[c].open || TryOpen(c, limit / 2)) queue.push_back(c);
      }
    }
  }

  int64_t ClusterOf(int t) const {  // the cluster an open tree node's contents go in
    return t == 0 ? -1 : GroupId(tree_[t].path);
  }

  // The outermost closed tree node on the way from the root to t, or -1.
  int ClosedAncestor(int t) const {
    int closed = -1;
    for (int a = t; a >= 0; a = tree_[a].parent)
      if (!tree_[a].open) closed = a;
    return closed;
  }

  OpCategory Dominant(int t) const {
    std::map<OpCategory, int64_t> count;
    std::vector<int> stack{t};
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      for (int it : tree_[x].items) count[items_[it].category] += items_[it].instructions;
      for (int c : tree_[x].children) stack.push_back(c);
    }
    OpCategory best = OpCategory::kOther;
    int64_t n = -1;
    for (auto [c, k] : count)
      if (k > n) best = c, n = k;
    return best;
  }

  void Emit() {
    std::vector<GraphNode> nodes;
    std::vector<GraphCluster> clusters;
    std::unordered_map<int64_t, int64_t> rep;  // hidden node id -> group id
    // Clusters of open groups, then group nodes of closed ones under open parents.
    for (size_t t = 1; t < tree_.size(); ++t) {
      const TNode& tn = tree_[t];
      if (!tree_[tn.parent].open) continue;
      if (tn.open) {
        clusters.push_back({GroupId(tn.path), tn.name, ClusterOf(tn.parent), false});
        continue;
      }
      GraphNode n;
      n.id = GroupId(tn.path);
      n.name = tn.name;
      n.opcode = "group";
      n.shape = "";
      n.label = tn.name + " (" + std::to_string(tn.instructions) + " ops)";
      n.category = Dominant(static_cast<int>(t));
      n.op_name = tn.path;
      n.cluster = ClusterOf(tn.parent);
      n.is_group = true;
      n.group_size = tn.instructions;
      nodes.push_back(std::move(n));
    }
    int64_t hidden = 0;
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      int item = item_of_node_[i];
      int t = home_[item];
      int closed = ClosedAncestor(t);
      GraphNode& n = g_.nodes[i];
      if (closed >= 0) {
        rep[n.id] = GroupId(tree_[closed].path);
        continue;
      }
      if (n.cluster == -1) n.cluster = ClusterOf(t);
      nodes.push_back(std::move(n));
    }
    for (size_t c = 0; c < g_.clusters.size(); ++c) {
      int t = home_[item_of_cluster_[c]];
      if (ClosedAncestor(t) >= 0) continue;
      GraphCluster cl = g_.clusters[c];
      if (cl.parent == -1) cl.parent = ClusterOf(t);
      clusters.push_back(cl);
    }
    for (size_t it = 0; it < items_.size(); ++it) {
      int closed = ClosedAncestor(home_[it]);
      if (closed < 0) continue;
      hidden += items_[it].instructions;
      for (int64_t id : items_[it].instruction_ids) g_.shown_by[id] = GroupId(tree_[closed].path);
    }
    for (auto& [id, shown] : g_.shown_by)
      if (auto r = rep.find(shown); r != rep.end()) shown = r->second;
    // Edges: endpoints through rep, aggregated when an end is a group.
    std::vector<GraphEdge> edges;
    std::map<std::pair<int64_t, int64_t>, size_t> agg;
    for (GraphEdge& e : g_.edges) {
      auto f = rep.find(e.from);
      auto t = rep.find(e.to);
      if (f == rep.end() && t == rep.end()) {
        edges.push_back(std::move(e));
        continue;
      }
      int64_t from = f == rep.end() ? e.from : f->second;
      int64_t to = t == rep.end() ? e.to : t->second;
      if (from == to) continue;
      auto [pos, fresh] = agg.emplace(std::make_pair(from, to), edges.size());
      if (fresh) {
        edges.push_back({from, to, -1, e.shape, 1});
      } else {
        ++edges[pos->second].count;
      }
    }
    g_.nodes = std::move(nodes);
    g_.clusters = std::move(clusters);
    g_.edges = std::move(edges);
    g_.hidden_instructions = hidden;
    g_.grouped = true;
  }

  Graph& g_;
  const std::vector<TopItem>& items_;
  const std::vector<int>& item_of_node_;
  const std::vector<int>& item_of_cluster_;
  const GraphOptions& o_;
  size_t max_ = 800;
  std::vector<int64_t> weight_;
  std::vector<TNode> tree_;
  std::vector<int> home_;
  int64_t visible_ = 0;
};

}  // namespace

int64_t GroupId(const std::string& path) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : path) h = (h ^ c) * 1099511628211ull;
  return -static_cast<int64_t>(h >> 2) - 2;
}

bool ApplyGrouping(Graph& g, const std::vector<TopItem>& items, const std::vector<int>& item_of_node,
                   const std::vector<int>& item_of_cluster, const GraphOptions& options, bool force) {
  if (g.nodes.size() <= options.max_nodes && !force) return false;
  Grouper(g, items, item_of_node, item_of_cluster, options).Run();
  return true;
}

}  // namespace hloscope::layout::internal
