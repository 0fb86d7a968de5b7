// Grouping of large graphs: top-level items go into a tree of namespaces
// (metadata op_name without its last component) or, for modules without
// op_name, into the structural segments of graph_structure.cc (repeated
// blocks, and chunks cut where the fewest values cross). Parameters and
// constants go with their first user. Groups open top-down: within
// GraphOptions::max_nodes, or, for a first view that fits a given size
// (GraphOptions::fit_width/height), largest first while the estimated layout
// keeps labels readable. A closed group is one node labelled with a summary
// of its contents, and the edges crossing it are aggregated.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/layout/graph_layout.h"
#include "core/layout/graph_model_internal.h"

namespace hloscope::layout::internal {
namespace {

struct TNode {
  std::string name;  // shown (first label line)
  std::string path;  // keys from the root, '/'-separated: the group's identity
  int parent = -1;
  std::vector<int> children;
  std::vector<int> items;  // direct items
  int64_t instructions = 0;  // in the subtree
  bool open = false;
  bool auto_open = true;     // false: opens only when the user asks (repeats of block 1)
  int identical_to = -1;     // tree node it repeats
  std::vector<std::string> details;
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

std::string Bytes(int64_t b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1000 && u < 4) v /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 || v >= 100 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

std::string Thousands(int64_t n) {
  std::string s = std::to_string(n), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

// Opcodes not worth naming in a group's summary.
bool Plumbing(const std::string& op) {
  return op == "parameter" || op == "constant" || op == "get-tuple-element" || op == "tuple" || op == "bitcast";
}

class Grouper {
 public:
  Grouper(Graph& g, const std::vector<TopItem>& items, const std::vector<int>& item_of_node,
          const std::vector<int>& item_of_cluster, const GraphOptions& o)
      : g_(g), items_(items), item_of_node_(item_of_node), item_of_cluster_(item_of_cluster), o_(o) {
    max_ = std::max<size_t>(o.max_nodes, 8);
    fit_ = o.fit_width > 0 && o.fit_height > 0;
    weight_.assign(items.size(), 0);
    for (int it : item_of_node) ++weight_[it];
    item_w_.assign(items.size(), 0);
    item_h_.assign(items.size(), 0);
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      auto [w, h] = NodeSize(g_.nodes[i]);
      size_t it = static_cast<size_t>(item_of_node[i]);
      item_w_[it] += w;  // an expanded fusion: its nodes side by side (rough)
      item_h_[it] = std::max(item_h_[it], h);
    }
  }

  void Run() {
    BuildTree();
    Summarize();
    if (fit_) {
      OpenToFit();
    } else {
      Open();
    }
    Emit();
  }

  // Whether the whole graph, ungrouped, fits the view (estimated).
  static bool WholeGraphFits(const Graph& g, const GraphOptions& o) {
    if (g.nodes.size() > o.max_boxes) return false;
    std::unordered_map<int64_t, size_t> index;
    std::vector<double> w, h;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      index[g.nodes[i].id] = i;
      auto [nw, nh] = NodeSize(g.nodes[i]);
      w.push_back(nw);
      h.push_back(nh);
    }
    std::vector<std::pair<size_t, size_t>> edges;
    for (const GraphEdge& e : g.edges) {
      auto f = index.find(e.from), t = index.find(e.to);
      if (f != index.end() && t != index.end()) edges.emplace_back(f->second, t->second);
    }
    int depth = 0;
    for (const GraphCluster& c : g.clusters) {
      int d = 1;
      for (int64_t p = c.parent; p != -1 && d < 8; ++d) {
        auto it = std::find_if(g.clusters.begin(), g.clusters.end(), [&](const GraphCluster& x) { return x.id == p; });
        p = it == g.clusters.end() ? -1 : it->parent;
      }
      depth = std::max(depth, d);
    }
    return EstimatedZoom(w, h, edges, depth, o) * kFontPt >= o.min_label_px / kEstimateSlack;
  }

 private:
  // The estimate is a lower bound of dot's size; ask for a little more.
  static constexpr double kEstimateSlack = 0.94;

  // Zoom at which a layered drawing of boxes (w, h) with `edges` (from, to
  // as indices in program order; edges against it are ignored) fits the
  // view: ranks by longest path, dot's default separations.
  static double EstimatedZoom(const std::vector<double>& w, const std::vector<double>& h,
                              const std::vector<std::pair<size_t, size_t>>& edges, int cluster_depth,
                              const GraphOptions& o) {
    const size_t n = w.size();
    if (n == 0) return 10;
    std::vector<std::vector<size_t>> in(n);
    for (auto [f, t] : edges)
      if (f < t) in[t].push_back(f);
    std::vector<int> rank(n, 0);
    int ranks = 1;
    for (size_t v = 0; v < n; ++v)
      for (size_t u : in[v]) rank[v] = std::max(rank[v], rank[u] + 1);
    // Sources (parameters, constants) sit just above their first user, as
    // dot's network simplex and our layered layout place them.
    std::vector<int> above(n, INT32_MAX);
    for (auto [f, t] : edges)
      if (f < t && in[f].empty()) above[f] = std::min(above[f], rank[t] - 1);
    for (size_t v = 0; v < n; ++v) {
      if (in[v].empty() && above[v] != INT32_MAX) rank[v] = std::max(0, above[v]);
      ranks = std::max(ranks, rank[v] + 1);
    }
    std::vector<double> row_w(static_cast<size_t>(ranks), 0), row_h(static_cast<size_t>(ranks), 0);
    std::vector<int> row_n(static_cast<size_t>(ranks), 0);
    for (size_t v = 0; v < n; ++v) {
      size_t r = static_cast<size_t>(rank[v]);
      row_w[r] += w[v];
      row_h[r] = std::max(row_h[r], h[v]);
      ++row_n[r];
    }
    // Edges that skip ranks pass through the ranks between as dot's virtual
    // nodes, which take room too.
    for (auto [f, t] : edges)
      if (f < t)
        for (int r = rank[f] + 1; r < rank[t]; ++r) {
          row_w[static_cast<size_t>(r)] += 10;
          ++row_n[static_cast<size_t>(r)];
        }
    // graph_layout.cc's ranksep and nodesep; GraphView::fitView's margins.
    constexpr double kRankSep = 25, kNodeSep = 18, kClusterW = 20, kClusterH = 30, kMargin = 56;
    double width = 0, height = 0;
    for (size_t r = 0; r < row_w.size(); ++r) {
      width = std::max(width, row_w[r] + kNodeSep * std::max(0, row_n[r] - 1));
      height += row_h[r];
    }
    height += kRankSep * (ranks - 1);
    width += kClusterW * cluster_depth;
    height += kClusterH * cluster_depth;
    return std::min(o.fit_width / (width + kMargin), o.fit_height / (height + kMargin));
  }

  int Child(int parent, const std::string& key, const std::string& name) {
    for (int c : tree_[parent].children)
      if (tree_[c].path == Join(tree_[parent].path, key)) return c;
    TNode t;
    t.name = name;
    t.path = Join(tree_[parent].path, key);
    t.parent = parent;
    tree_.push_back(std::move(t));
    int id = static_cast<int>(tree_.size()) - 1;
    tree_[parent].children.push_back(id);
    return id;
  }

  static std::string Join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

  // Puts `list` under `parent`, in chunks when there are too many (the
  // max_nodes mode inside a namespace).
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
      std::string name = "ops " + std::to_string(list[b]) + "-" + std::to_string(list[e - 1]);
      int c = Child(parent, name, name);
      ChunkItems(c, std::vector<int>(list.begin() + b, list.begin() + e));
    }
  }

  // Attaches structural segments under `parent`.
  void Attach(int parent, const std::vector<Segment>& segs) {
    for (const Segment& s : segs) {
      if (s.kind == Segment::kItems) {
        for (int it : s.items) tree_[parent].items.push_back(it);
        continue;
      }
      std::string key = s.name;
      if (s.kind == Segment::kRepeat) key = "repeat@" + std::to_string(FirstItem(s));
      int c = Child(parent, key, s.name);
      for (int it : s.items) tree_[c].items.push_back(it);
      Attach(c, s.children);
      if (s.kind == Segment::kBlock && s.identical_to > 0) {
        tree_[c].auto_open = false;
        // The first block is the parent's first child.
        tree_[c].identical_to = tree_[parent].children.front();
      }
    }
  }

  static int FirstItem(const Segment& s) {
    if (!s.items.empty()) return s.items.front();
    for (const Segment& c : s.children)
      if (int f = FirstItem(c); f >= 0) return f;
    return -1;
  }

  // Fit mode: the most boxes one level may show, and how few items a
  // segment may hold before it is shown item by item.
  size_t Fanout() const { return fit_ ? 6 : 12; }
  size_t Leaf() const { return fit_ ? 6 : std::max<size_t>(max_ / 4, 12); }

  void BuildTree() {
    tree_.push_back(TNode{});  // root
    home_.assign(items_.size(), 0);
    size_t named = 0, computing = 0;
    for (const TopItem& it : items_) {
      if (it.leaf_input) continue;
      ++computing;
      named += !Namespace(it.op_name).empty();
    }
    bool by_namespace = o_.group_by_namespace && named * 2 >= computing && named > 0;
    std::vector<int> seq;  // items that compute, in program order
    for (size_t i = 0; i < items_.size(); ++i)
      if (!items_[i].leaf_input || (by_namespace && !Namespace(items_[i].op_name).empty()))
        seq.push_back(static_cast<int>(i));
    if (by_namespace) {
      std::vector<std::vector<int>> direct(1);
      for (int i : seq) {
        int t = 0;
        for (const std::string& part : Namespace(items_[static_cast<size_t>(i)].op_name)) t = Child(t, part, part);
        if (direct.size() < tree_.size()) direct.resize(tree_.size());
        direct[static_cast<size_t>(t)].push_back(i);
      }
      direct.resize(tree_.size());
      size_t n = tree_.size();
      for (size_t t = 0; t < n; ++t) {
        if (fit_ && t == 0 && direct[t].size() > Leaf()) {
          // Ops without op_name beside the namespaces: one group of their
          // own, not a row of chunks beside the namespaces.
          int other = Child(0, "(no op_name)", "ops without op_name");
          Attach(other, StructuralSegments(items_, direct[t], Fanout(), Leaf()));
        } else if (fit_ && direct[t].size() > Leaf()) {
          Attach(static_cast<int>(t), StructuralSegments(items_, direct[t], Fanout(), Leaf()));
        } else if (fit_) {
          for (int it : direct[t]) tree_[t].items.push_back(it);
        } else {
          ChunkItems(static_cast<int>(t), direct[t]);
        }
      }
    } else {
      Attach(0, StructuralSegments(items_, seq, Fanout(), Leaf()));
    }
    for (size_t t = 0; t < tree_.size(); ++t)
      for (int it : tree_[t].items) home_[static_cast<size_t>(it)] = static_cast<int>(t);
    // Parameters and constants go with their first user.
    std::vector<int> first_user(items_.size(), -1);
    for (size_t i = 0; i < items_.size(); ++i)
      for (int o : items_[i].operands)
        if (first_user[static_cast<size_t>(o)] < 0) first_user[static_cast<size_t>(o)] = static_cast<int>(i);
    std::vector<char> placed(items_.size(), 0);
    for (int i : seq) placed[static_cast<size_t>(i)] = 1;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (placed[i]) continue;
      int u = first_user[i];
      int t = u >= 0 && placed[static_cast<size_t>(u)] ? home_[static_cast<size_t>(u)] : 0;
      tree_[static_cast<size_t>(t)].items.push_back(static_cast<int>(i));
      home_[i] = t;
    }
    for (size_t t = 0; t < tree_.size(); ++t)
      for (int it : tree_[t].items)
        for (int a = static_cast<int>(t); a >= 0; a = tree_[static_cast<size_t>(a)].parent)
          tree_[static_cast<size_t>(a)].instructions += items_[static_cast<size_t>(it)].instructions;
  }

  // Summary lines of every group: ops and kernels, commonest opcodes, bytes
  // entering and leaving.
  void Summarize() {
    const size_t T = tree_.size();
    std::vector<int64_t> kernels(T, 0);
    std::vector<std::map<std::string, int64_t>> ops(T);
    for (size_t i = 0; i < items_.size(); ++i)
      for (int a = home_[i]; a > 0; a = tree_[static_cast<size_t>(a)].parent) {
        kernels[static_cast<size_t>(a)] += items_[i].kernels;
        if (!Plumbing(items_[i].opcode)) ++ops[static_cast<size_t>(a)][items_[i].opcode];
      }
    // Bytes in: distinct producers outside a group (and every parameter or
    // constant) read inside it; out: producers inside read outside.
    std::vector<std::unordered_set<int>> in(T), out(T);
    std::vector<int> stamp(T, -1);
    int now = 0;
    for (size_t v = 0; v < items_.size(); ++v) {
      for (int u : items_[v].operands) {
        const size_t su = static_cast<size_t>(u);
        const bool leaf = items_[su].leaf_input;
        if (home_[su] == home_[v] && !leaf) continue;
        ++now;
        for (int a = home_[su]; a > 0; a = tree_[static_cast<size_t>(a)].parent) stamp[static_cast<size_t>(a)] = now;
        int shared = -1;  // the innermost group holding both
        for (int a = home_[v]; a > 0; a = tree_[static_cast<size_t>(a)].parent) {
          if (!leaf && stamp[static_cast<size_t>(a)] == now) {
            shared = a;
            break;
          }
          in[static_cast<size_t>(a)].insert(u);
        }
        if (leaf) continue;
        for (int a = home_[su]; a > 0 && a != shared; a = tree_[static_cast<size_t>(a)].parent)
          out[static_cast<size_t>(a)].insert(u);
      }
    }
    for (size_t t = 1; t < T; ++t) {
      TNode& tn = tree_[t];
      tn.details.push_back(Thousands(tn.instructions) + " ops · " + Thousands(kernels[t]) + " kernels");
      std::vector<std::pair<int64_t, std::string>> top;
      for (const auto& [op, k] : ops[t]) top.emplace_back(k, op);
      std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
        auto heavy = [](const std::string& op) {
          return op == "dot" || op == "convolution" || op == "fusion" || op == "while" || op == "custom-call";
        };
        if (heavy(a.second) != heavy(b.second)) return heavy(a.second);
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      std::string line;
      for (size_t k = 0; k < top.size() && k < 3; ++k) {
        std::string part = top[k].second + " " + std::to_string(top[k].first);
        if (!line.empty() && line.size() + part.size() > 34) break;
        line += (line.empty() ? "" : " · ") + part;
      }
      if (!line.empty()) tn.details.push_back(line);
      int64_t bi = 0, bo = 0;
      for (int u : in[t]) bi += items_[static_cast<size_t>(u)].out_bytes;
      for (int u : out[t]) bo += items_[static_cast<size_t>(u)].out_bytes;
      tn.details.push_back("in " + Bytes(bi) + " · out " + Bytes(bo));
    }
    for (size_t t = 1; t < T; ++t)
      if (tree_[t].identical_to >= 0) tree_[t].name += " ≡ " + tree_[static_cast<size_t>(tree_[t].identical_to)].name;
  }

  int64_t Cost(int t) const {  // visible nodes when t is open and its children closed
    int64_t c = static_cast<int64_t>(tree_[static_cast<size_t>(t)].children.size());
    for (int it : tree_[static_cast<size_t>(t)].items) c += weight_[static_cast<size_t>(it)];
    return c;
  }

  bool TryOpen(int t, int64_t limit) {
    TNode& tn = tree_[static_cast<size_t>(t)];
    if (tn.open) return true;
    if (t != 0 && o_.collapsed.count(GroupId(tn.path))) return false;
    if (tn.parent >= 0 && !TryOpen(tn.parent, limit)) return false;
    int64_t after = visible_ - 1 + Cost(t);
    if (after > limit) return false;
    tn.open = true;
    visible_ = after;
    return true;
  }

  void OpenUserExpanded() {
    for (int64_t id : o_.expanded)
      for (size_t t = 1; t < tree_.size(); ++t)
        if (GroupId(tree_[t].path) == id) TryOpen(static_cast<int>(t), static_cast<int64_t>(max_));
  }

  void Open() {
    tree_[0].open = true;
    visible_ = Cost(0);
    int64_t limit = static_cast<int64_t>(max_);
    // Chains of single groups open by themselves.
    for (int t = 0; tree_[static_cast<size_t>(t)].children.size() == 1 && tree_[static_cast<size_t>(t)].items.empty();) {
      t = tree_[static_cast<size_t>(t)].children[0];
      if (!TryOpen(t, limit)) break;
    }
    OpenUserExpanded();
    // Breadth-first while half the budget is left (leaves room to open more).
    std::vector<int> queue{0};
    for (size_t q = 0; q < queue.size(); ++q) {
      for (int c : tree_[static_cast<size_t>(queue[q])].children) {
        const TNode& tn = tree_[static_cast<size_t>(c)];
        if (!tn.auto_open || tn.name.rfind("ops ", 0) == 0) continue;  // open on request only
        if (tn.open || TryOpen(c, limit / 2)) queue.push_back(c);
      }
    }
  }

  // The estimated zoom of the view with the current open set.
  double FitZoom() const {
    // Visible boxes: closed groups under open parents, items in open groups.
    std::vector<int> rep(items_.size(), -1);  // item -> box index
    std::vector<double> w, h;
    std::vector<int64_t> first;  // smallest item index per box (program order)
    int depth = 0;
    std::vector<int> box_of_tree(tree_.size(), -1);
    for (size_t t = 1; t < tree_.size(); ++t) {
      const TNode& tn = tree_[t];
      if (!tree_[static_cast<size_t>(tn.parent)].open || tn.open) continue;
      box_of_tree[t] = static_cast<int>(w.size());
      auto [bw, bh] = GroupBoxSize(tn);
      w.push_back(bw);
      h.push_back(bh);
      first.push_back(INT64_MAX);
    }
    for (size_t i = 0; i < items_.size(); ++i) {
      int t = home_[i], closed = -1, open_depth = 0;
      for (int a = t; a >= 0; a = tree_[static_cast<size_t>(a)].parent) {
        if (!tree_[static_cast<size_t>(a)].open) closed = a;
        else if (a > 0) ++open_depth;
      }
      if (closed >= 0) {
        rep[i] = box_of_tree[static_cast<size_t>(closed)];
      } else {
        if (weight_[i] == 0) continue;
        rep[i] = static_cast<int>(w.size());
        w.push_back(item_w_[i]);
        h.push_back(item_h_[i]);
        first.push_back(static_cast<int64_t>(i));
        depth = std::max(depth, open_depth);
      }
      if (rep[i] >= 0) first[static_cast<size_t>(rep[i])] = std::min<int64_t>(first[static_cast<size_t>(rep[i])], static_cast<int64_t>(i));
    }
    // Boxes in program order of their first item.
    std::vector<size_t> order(w.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return first[a] < first[b]; });
    std::vector<size_t> position(w.size());
    std::vector<double> ow(w.size()), oh(w.size());
    for (size_t k = 0; k < order.size(); ++k) {
      position[order[k]] = k;
      ow[k] = w[order[k]];
      oh[k] = h[order[k]];
    }
    std::set<std::pair<size_t, size_t>> edges;
    for (size_t v = 0; v < items_.size(); ++v) {
      if (rep[v] < 0) continue;
      for (int u : items_[v].operands) {
        int ru = rep[static_cast<size_t>(u)];
        if (ru < 0 || ru == rep[v]) continue;
        edges.emplace(position[static_cast<size_t>(ru)], position[static_cast<size_t>(rep[v])]);
      }
    }
    return EstimatedZoom(ow, oh, std::vector<std::pair<size_t, size_t>>(edges.begin(), edges.end()), depth, o_);
  }

  static std::pair<double, double> GroupBoxSize(const TNode& tn) {
    GraphNode n;
    n.label = tn.name;
    n.details = tn.details;
    return NodeSize(n);
  }

  void OpenToFit() {
    tree_[0].open = true;
    visible_ = Cost(0);
    OpenUserExpanded();
    const double want = o_.min_label_px / kFontPt / kEstimateSlack;
    const int64_t boxes = static_cast<int64_t>(std::min(o_.max_boxes, max_));
    // Largest closed group under an open parent first.
    auto by_size = [&](int a, int b) {
      return tree_[static_cast<size_t>(a)].instructions < tree_[static_cast<size_t>(b)].instructions;
    };
    std::vector<int> heap;
    auto push_children = [&](int t) {
      for (int c : tree_[static_cast<size_t>(t)].children) {
        const TNode& tn = tree_[static_cast<size_t>(c)];
        if (tn.open) continue;
        heap.push_back(c);
        std::push_heap(heap.begin(), heap.end(), by_size);
      }
    };
    for (size_t t = 0; t < tree_.size(); ++t)
      if (tree_[t].open) push_children(static_cast<int>(t));
    int tries = 0;
    while (!heap.empty() && tries < 64) {
      std::pop_heap(heap.begin(), heap.end(), by_size);
      int t = heap.back();
      heap.pop_back();
      TNode& tn = tree_[static_cast<size_t>(t)];
      if (tn.open || !tn.auto_open || o_.collapsed.count(GroupId(tn.path))) continue;
      int64_t after = visible_ - 1 + Cost(t);
      if (after > boxes) continue;
      ++tries;
      tn.open = true;
      int64_t before = visible_;
      visible_ = after;
      if (FitZoom() < want) {
        tn.open = false;
        visible_ = before;
        continue;
      }
      push_children(t);
    }
  }

  int64_t ClusterOf(int t) const {  // the cluster an open tree node's contents go in
    return t == 0 ? -1 : GroupId(tree_[static_cast<size_t>(t)].path);
  }

  // The outermost closed tree node on the way from the root to t, or -1.
  int ClosedAncestor(int t) const {
    int closed = -1;
    for (int a = t; a >= 0; a = tree_[static_cast<size_t>(a)].parent)
      if (!tree_[static_cast<size_t>(a)].open) closed = a;
    return closed;
  }

  OpCategory Dominant(int t) const {
    std::map<OpCategory, int64_t> count;
    std::vector<int> stack{t};
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      for (int it : tree_[static_cast<size_t>(x)].items) {
        const TopItem& item = items_[static_cast<size_t>(it)];
        if (!item.leaf_input) count[item.category] += item.instructions;
      }
      for (int c : tree_[static_cast<size_t>(x)].children) stack.push_back(c);
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
      if (!tree_[static_cast<size_t>(tn.parent)].open) continue;
      if (tn.open) {
        clusters.push_back({GroupId(tn.path), tn.name, ClusterOf(tn.parent), false});
        continue;
      }
      GraphNode n;
      n.id = GroupId(tn.path);
      n.name = tn.name;
      n.opcode = "group";
      n.shape = "";
      n.label = fit_ ? tn.name : tn.name + " (" + std::to_string(tn.instructions) + " ops)";
      if (fit_) n.details = tn.details;
      if (tn.identical_to >= 0) n.identical_to = GroupId(tree_[static_cast<size_t>(tn.identical_to)].path);
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
      int t = home_[static_cast<size_t>(item)];
      int closed = ClosedAncestor(t);
      GraphNode& n = g_.nodes[i];
      if (closed >= 0) {
        rep[n.id] = GroupId(tree_[static_cast<size_t>(closed)].path);
        continue;
      }
      if (n.cluster == -1) n.cluster = ClusterOf(t);
      nodes.push_back(std::move(n));
    }
    for (size_t c = 0; c < g_.clusters.size(); ++c) {
      int t = home_[static_cast<size_t>(item_of_cluster_[c])];
      if (ClosedAncestor(t) >= 0) continue;
      GraphCluster cl = g_.clusters[c];
      if (cl.parent == -1) cl.parent = ClusterOf(t);
      clusters.push_back(cl);
    }
    for (size_t it = 0; it < items_.size(); ++it) {
      int closed = ClosedAncestor(home_[it]);
      if (closed < 0) continue;
      hidden += items_[it].instructions;
      for (int64_t id : items_[it].instruction_ids) g_.shown_by[id] = GroupId(tree_[static_cast<size_t>(closed)].path);
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
  bool fit_ = false;
  std::vector<int64_t> weight_;
  std::vector<double> item_w_, item_h_;
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
  const bool fit = options.fit_width > 0 && options.fit_height > 0;
  if (fit) {
    if (!force && Grouper::WholeGraphFits(g, options)) return false;
  } else if (g.nodes.size() <= options.max_nodes && !force) {
    return false;
  }
  Grouper(g, items, item_of_node, item_of_cluster, options).Run();
  return true;
}

}  // namespace hloscope::layout::internal
