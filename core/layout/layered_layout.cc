// A layered (Sugiyama-style) layout of our own for graphs too large for
// Graphviz's dot to lay out interactively (FACTS.md: tuned dot needs ~3 s at
// 1,500 nodes and minutes when a few nodes have hundreds of users). Linear
// passes only: longest-path layers (every node then pulled down next to its
// first user), a few barycenter sweeps to order each layer, greedy x placement
// towards the neighbours' centres, straight edges. Quality is below dot's
// but 2,000 nodes take milliseconds.
#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>

#include "core/layout/layout_internal.h"

namespace hloscope::layout::internal {

namespace {

constexpr double kNodeSep = 18;  // points between boxes in a layer
constexpr double kRankSep = 28;  // points between layers
constexpr double kMargin = 8;
constexpr int kSweeps = 4;

}  // namespace

StatusOr<LaidOutGraph> LayeredLayout(const Graph& g) {
  const size_t n = g.nodes.size();
  LaidOutGraph out;
  out.nodes.resize(n);
  std::unordered_map<int64_t, size_t> index;
  index.reserve(n);
  for (size_t i = 0; i < n; ++i) index.emplace(g.nodes[i].id, i);
  for (const GraphEdge& e : g.edges)
    if (!index.count(e.from) || !index.count(e.to))
      return Status::Error("layout: edge " + std::to_string(e.from) + " -> " + std::to_string(e.to) +
                           " names a node that is not in the graph");
  std::vector<std::vector<size_t>> preds(n), succs(n);
  for (const GraphEdge& e : g.edges) {
    auto a = index.find(e.from), b = index.find(e.to);
    if (a == index.end() || b == index.end() || a->second == b->second) continue;
    succs[a->second].push_back(b->second);
    preds[b->second].push_back(a->second);
  }
  for (auto* lists : {&preds, &succs})
    for (auto& l : *lists) {
      std::sort(l.begin(), l.end());
      l.erase(std::unique(l.begin(), l.end()), l.end());
    }

  // Topological order (Kahn; a cycle, which HLO does not have, is broken by
  // taking the lowest-index remaining node).
  std::vector<size_t> order;
  order.reserve(n);
  {
    std::vector<size_t> indeg(n);
    for (size_t v = 0; v < n; ++v) indeg[v] = preds[v].size();
    std::vector<char> done(n, 0);
    std::vector<size_t> ready;
    for (size_t v = n; v-- > 0;)
      if (indeg[v] == 0) ready.push_back(v);
    size_t next_forced = 0;
    while (order.size() < n) {
      if (ready.empty()) {
        while (done[next_forced]) ++next_forced;
        ready.push_back(next_forced);
      }
      size_t v = ready.back();
      ready.pop_back();
      if (done[v]) continue;
      done[v] = 1;
      order.push_back(v);
      for (size_t w : succs[v])
        if (!done[w] && --indeg[w] == 0) ready.push_back(w);
    }
  }

  // Layers: longest path from the sources; then, in reverse topological
  // order, every node moves down to just above its first user (a broadcast
  // of a weight read by the last layer sits there, not at the top).
  std::vector<int> layer(n, 0);
  for (size_t v : order)
    for (size_t u : preds[v]) layer[v] = std::max(layer[v], layer[u] + 1);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const size_t v = *it;
    if (succs[v].empty()) continue;
    int first = layer[succs[v][0]];
    for (size_t w : succs[v]) first = std::min(first, layer[w]);
    layer[v] = std::max(layer[v], first - 1);
  }
  const int layers = n ? *std::max_element(layer.begin(), layer.end()) + 1 : 0;
  std::vector<std::vector<size_t>> rows(static_cast<size_t>(layers));
  for (size_t v : order) rows[static_cast<size_t>(layer[v])].push_back(v);

  // Order within layers: barycenter sweeps, down (by predecessors) and up
  // (by successors), positions normalised to [0,1) per layer.
  std::vector<double> pos(n, 0);
  auto number = [&] {
    for (const auto& r : rows)
      for (size_t i = 0; i < r.size(); ++i) pos[r[i]] = (i + 0.5) / static_cast<double>(r.size());
  };
  number();
  std::vector<double> key(n);
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    const bool down = sweep % 2 == 0;
    for (int li = 0; li < layers; ++li) {
      auto& r = rows[static_cast<size_t>(down ? li : layers - 1 - li)];
      for (size_t v : r) {
        const auto& nb = down ? preds[v] : succs[v];
        if (nb.empty()) {
          key[v] = pos[v];
          continue;
        }
        double s = 0;
        for (size_t u : nb) s += pos[u];
        key[v] = s / static_cast<double>(nb.size());
      }
      std::stable_sort(r.begin(), r.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
      for (size_t i = 0; i < r.size(); ++i) pos[r[i]] = (i + 0.5) / static_cast<double>(r.size());
    }
  }

  // Sizes, y per layer.
  for (size_t v = 0; v < n; ++v) {
    auto [w, h] = NodeSize(g.nodes[v]);
    out.nodes[v] = {g.nodes[v].id, 0, 0, w, h};
  }
  double y = kMargin;
  for (const auto& r : rows) {
    double h = 0;
    for (size_t v : r) h = std::max(h, out.nodes[v].h);
    for (size_t v : r) out.nodes[v].y = y + (h - out.nodes[v].h) / 2;
    y += h + kRankSep;
  }

  // x: packed left to right first; then passes that move each node towards
  // the mean centre of its neighbours in the previous layer (down, then up),
  // keeping the order and the separation.
  auto centre = [&](size_t v) { return out.nodes[v].x + out.nodes[v].w / 2; };
  for (const auto& r : rows) {
    double x = kMargin;
    for (size_t v : r) {
      out.nodes[v].x = x;
      x += out.nodes[v].w + kNodeSep;
    }
  }
  for (int pass = 0; pass < 4; ++pass) {
    const bool down = pass % 2 == 0;
    for (int li = 0; li < layers; ++li) {
      const auto& r = rows[static_cast<size_t>(down ? li : layers - 1 - li)];
      double right = kMargin - kNodeSep;
      for (size_t v : r) {
        const auto& nb = down ? preds[v] : succs[v];
        double want = out.nodes[v].x;
        if (!nb.empty()) {
          double s = 0;
          for (size_t u : nb) s += centre(u);
          want = s / static_cast<double>(nb.size()) - out.nodes[v].w / 2;
        }
        out.nodes[v].x = std::max(want, right + kNodeSep);
        right = out.nodes[v].x + out.nodes[v].w;
      }
    }
  }
  double min_x = kMargin;
  for (const NodeBox& b : out.nodes) min_x = std::min(min_x, b.x);
  double width = 0, height = 0;
  for (NodeBox& b : out.nodes) {
    b.x += kMargin - min_x;
    width = std::max(width, b.x + b.w + kMargin);
    height = std::max(height, b.y + b.h + kMargin);
  }
  out.width = width;
  out.height = height;
  out.edges.resize(g.edges.size());
  for (size_t i = 0; i < g.edges.size(); ++i) out.edges[i] = {g.edges[i].from, g.edges[i].to, {}};
  out.graph = g;
  FillMissingEdges(out, g);
  FitClusters(out, g);
  return out;
}

}  // namespace hloscope::layout::internal
