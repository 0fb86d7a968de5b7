// Fresh layouts with Graphviz dot through the C API (gvc/cgraph), the stable
// path (stable_layout.cc), label metrics and the layout cache.
#include "core/layout/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <unordered_map>

#include "core/layout/layout_internal.h"

namespace hloscope::layout {
namespace {

std::mutex& GraphvizMutex() {
  static std::mutex mu;
  return mu;
}

// Graphviz wants char*; keeps the strings alive for one layout.
class Attr {
 public:
  static void Set(void* obj, const char* name, const std::string& value) {
    agsafeset(obj, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
  }
};

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

std::string GvName(const char* prefix, int64_t id) {
  return std::string(prefix) + (id < 0 ? "m" + std::to_string(-id) : std::to_string(id));
}

StatusOr<LaidOutGraph> DotLayout(const Graph& graph, const LayoutOptions& options) {
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  static GVC_t* gvc = gvContext();
  if (!gvc) return Status::Error("layout: Graphviz context could not be created");
  Agraph_t* g = agopen(const_cast<char*>("g"), Agdirected, nullptr);
  bool tuned = options.tuned || (options.auto_tune && (graph.nodes.size() > options.tune_threshold ||
                                                        graph.edges.size() > 2 * options.tune_threshold));
  Attr::Set(g, "rankdir", "TB");
  Attr::Set(g, "nodesep", "0.25");
  Attr::Set(g, "ranksep", "0.35");
  if (tuned) {
    Attr::Set(g, "searchsize", "10");
    Attr::Set(g, "nslimit", "1");
    Attr::Set(g, "nslimit1", "1");
    Attr::Set(g, "mclimit", "0.1");
    Attr::Set(g, "remincross", "false");
    Attr::Set(g, "splines", "false");
  }
  // Clusters (parents before children: sort by depth).
  std::unordered_map<int64_t, Agraph_t*> sub;
  std::unordered_map<int64_t, size_t> cluster_index;
  for (size_t i = 0; i < graph.clusters.size(); ++i) cluster_index[graph.clusters[i].id] = i;
  std::function<Agraph_t*(int64_t)> subgraph = [&](int64_t id) -> Agraph_t* {
    if (id == -1) return g;
    if (auto it = sub.find(id); it != sub.end()) return it->second;
    auto ci = cluster_index.find(id);
    if (ci == cluster_index.end()) return g;
    const GraphCluster& c = graph.clusters[ci->second];
    Agraph_t* parent = c.parent == id ? g : subgraph(c.parent);
    std::string name = GvName("cluster_", id);
    Agraph_t* s = agsubg(parent, const_cast<char*>(name.c_str()), 1);
    Attr::Set(s, "label", std::string(c.label.size(), 'x'));  // metrics only; drawn by us
    Attr::Set(s, "fontname", "monospace");
    Attr::Set(s, "fontsize", Num(kFontPt));
    Attr::Set(s, "margin", "8");
    sub[id] = s;
    return s;
  };
  for (const GraphCluster& c : graph.clusters) subgraph(c.id);

  std::unordered_map<int64_t, Agnode_t*> nodes;
  std::vector<Agnode_t*> order;
  for (const GraphNode& n : graph.nodes) {
    std::string name = GvName("n", n.id);
    Agraph_t* s = subgraph(n.cluster);
    Agnode_t* an = agnode(s, const_cast<char*>(name.c_str()), 1);
    if (s != g) agsubnode(g, an, 1);
    auto [w, h] = NodeSize(n);
    Attr::Set(an, "shape", "box");
    Attr::Set(an, "fixedsize", "true");
    Attr::Set(an, "label", "");
    Attr::Set(an, "width", Num(w / 72.0));
    Attr::Set(an, "height", Num(h / 72.0));
    nodes[n.id] = an;
    order.push_back(an);
  }
  std::vector<Agedge_t*> edges;
  for (const GraphEdge& e : graph.edges) {
    auto f = nodes.find(e.from);
    auto t = nodes.find(e.to);
    if (f == nodes.end() || t == nodes.end()) {
      agclose(g);
      return Status::Error("layout: edge " + std::to_string(e.from) + " -> " + std::to_string(e.to) +
                           " names a node that is not in the graph");
    }
    edges.push_back(agedge(g, f->second, t->second, nullptr, 1));
  }
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    return Status::Error("layout: Graphviz dot failed");
  }
  LaidOutGraph out;
  boxf bb = GD_bb(g);
  double top = bb.UR.y;
  auto Y = [&](double y) { return top - y; };
  out.width = bb.UR.x - bb.LL.x;
  out.height = bb.UR.y - bb.LL.y;
  double left = bb.LL.x;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    Agnode_t* an = order[i];
    double w = ND_width(an) * 72.0, h = ND_height(an) * 72.0;
    out.nodes.push_back({graph.nodes[i].id, ND_coord(an).x - left - w / 2, Y(ND_coord(an).y) - h / 2, w, h});
  }
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    EdgePath p{graph.edges[i].from, graph.edges[i].to, {}};
    Agedge_t* e = edges[i];
    const splines* spl = e ? ED_spl(e) : nullptr;
    if (spl && spl->size > 0 && spl->list[0].size > 0) {
      const bezier& bz = spl->list[0];
      for (int k = 0; k < bz.size; ++k) p.points.push_back({bz.list[k].x - left, Y(bz.list[k].y)});
      if (bz.eflag) {  // continue straight to the arrow tip
        std::pair<double, double> tip{bz.ep.x - left, Y(bz.ep.y)};
        p.points.push_back(p.points.back());
        p.points.push_back(tip);
        p.points.push_back(tip);
      }
    }
    out.edges.push_back(std::move(p));
  }
  for (const GraphCluster& c : graph.clusters) {
    Agraph_t* s = sub.count(c.id) ? sub[c.id] : nullptr;
    if (!s) continue;
    boxf cb = GD_bb(s);
    out.clusters.push_back({c.id, cb.LL.x - left, Y(cb.UR.y), cb.UR.x - cb.LL.x, cb.UR.y - cb.LL.y});
  }
  gvFreeLayout(gvc, g);
  agclose(g);
  internal::FillMissingEdges(out, graph);
  return out;
}

}  // namespace

const NodeBox* LaidOutGraph::FindBox(int64_t id) const {
  for (const NodeBox& b : nodes)
    if (b.id == id) return &b;
  return nullptr;
}

std::vector<std::string> NodeLabelLines(const GraphNode& n) {
  std::vector<std::string> lines{n.label};
  for (const std::string& d : n.details) lines.push_back(d);
  for (const std::string& c : n.inlined_constants) lines.push_back(c);
  return lines;
}

std::pair<double, double> NodeSize(const GraphNode& n) {
  size_t chars = 0;
  std::vector<std::string> lines = NodeLabelLines(n);
  for (const std::string& l : lines) {  // characters, not UTF-8 bytes ("≡", "·")
    size_t n = 0;
    for (unsigned char c : l) n += (c & 0xC0) != 0x80;
    chars = std::max(chars, n);
  }
  double w = std::max<double>(40.0, static_cast<double>(chars) * kCharWidthPt + 2 * kNodePadPt);
  double h = static_cast<double>(lines.size()) * kLineHeightPt + kNodePadPt;
  return {w, h};
}

StatusOr<LaidOutGraph> LayoutGraph(const Graph& g, const LayoutOptions& options, const LaidOutGraph* previous) {
  auto start = std::chrono::steady_clock::now();
  StatusOr<LaidOutGraph> out = Status::Error("layout: not run");
  if (previous && options.allow_stable) {
    std::optional<LaidOutGraph> stable = internal::StableLayout(g, options, *previous);
    if (stable) out = std::move(*stable);
  }
  if (out.ok()) {
    out->engine = "stable";
  } else if (options.layered_threshold > 0 && (g.nodes.size() > options.layered_threshold ||
                                               g.edges.size() > options.layered_threshold / 2)) {
    out = internal::LayeredLayout(g);
    if (out.ok()) out->engine = "layered";
  } else {
    out = DotLayout(g, options);
    if (out.ok()) out->engine = "dot";
  }
  if (!out.ok()) return out;
  out->graph = g;
  out->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

double FittedZoom(const LaidOutGraph& g, double w, double h) {
  constexpr double kMargin = 56;  // GraphView::fitView: 20 around the items, which reach 3 past the boxes
  return std::min(w / (g.width + kMargin), h / (g.height + kMargin));
}

StatusOr<LaidOutGraph> BuildAndLayout(const Module& m, const ModuleSnapshot& snap, const GraphOptions& options,
                                      const LayoutOptions& layout_options, const LaidOutGraph* previous) {
  GraphOptions o = options;
  const bool fit = o.fit_width > 0 && o.fit_height > 0;
  for (int attempt = 0;; ++attempt) {
    ASSIGN_OR_RETURN(Graph g, BuildGraph(m, snap, o));
    ASSIGN_OR_RETURN(LaidOutGraph l, LayoutGraph(g, layout_options, previous));
    if (!fit || attempt == 3 || !g.grouped) return l;
    const double zoom = FittedZoom(l, options.fit_width, options.fit_height);
    const double want = o.min_label_px / kFontPt;
    if (zoom >= want) return l;
    // Ask the grouping for a view as much smaller as the picture was too large.
    const double shrink = std::max(0.5, zoom / want * 0.97);
    o.fit_width *= shrink;
    o.fit_height *= shrink;
    o.min_label_px = options.min_label_px;
  }
}

std::shared_ptr<const LaidOutGraph> LayoutCache::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : it->second;
}

void LayoutCache::Insert(const std::string& key, std::shared_ptr<const LaidOutGraph> value) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!map_.count(key)) order_.push_back(key);
  map_[key] = std::move(value);
  while (order_.size() > capacity_) {
    map_.erase(order_.front());
    order_.erase(order_.begin());
  }
}

std::string OptionsKey(const GraphOptions& g, const LayoutOptions& l) {
  std::string k = g.computation + "|" + std::to_string(g.expand_fusions) + "|" +
                  std::to_string(g.group_by_namespace) + "|" + std::to_string(g.neighbourhood_hops) +
                  "|" + std::to_string(g.center_id) + "|" + std::to_string(g.max_nodes) + "|" +
                  std::to_string(g.inline_small_constants) + "|" + std::to_string(l.tuned) + "|" +
                  std::to_string(l.layered_threshold) + "|f" + std::to_string(static_cast<int>(g.fit_width)) + "x" +
                  std::to_string(static_cast<int>(g.fit_height)) + "/" + std::to_string(g.min_label_px) + "/" +
                  std::to_string(g.max_boxes) + "|" + std::to_string(g.fold_inputs) + "|F";
  for (int64_t id : g.focus) k += std::to_string(id) + ",";
  k += "|e";
  for (int64_t id : g.expanded) k += std::to_string(id) + ",";
  k += "|c";
  for (int64_t id : g.collapsed) k += std::to_string(id) + ",";
  return k;
}

}  // namespace hloscope::layout
