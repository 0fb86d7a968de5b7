// Stable layout across steps. Rule (docs/graph-view.md):
//  1. a node whose id was in the previous layout keeps its centre exactly;
//  2. a new node that replaced removed ones (LayoutOptions::replaced) goes to
//     the centroid of their old centres;
//  3. other new nodes go to the centroid of their placed neighbours (one rank
//     below their operands / above their users), repeated while it helps;
//  4. new nodes are then pushed right until they overlap nothing;
//  5. if more than max(8, a quarter of the nodes) could not be placed by 1-3,
//     or nothing survived, the caller makes a fresh dot layout instead;
//  6. so does a picture left sparse by a large step (a fusion step that
//     removed most nodes): boxes covering under 60% of the share of the
//     picture they covered before.
// Edges are re-routed as single cubics; clusters are re-fitted.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/layout/layout_internal.h"

namespace hloscope::layout::internal {
namespace {

constexpr double kGap = 12.0;
constexpr double kRankStep = 48.0;

struct Centre {
  double x = 0, y = 0;
};

// Share of the picture the boxes (with their spacing) cover.
double Density(const LaidOutGraph& l) {
  double area = 0;
  for (const NodeBox& b : l.nodes) area += (b.w + kGap) * (b.h + kRankStep / 2);
  return area / std::max(1.0, (l.width + kGap) * (l.height + kRankStep / 2));
}

bool Overlaps(const NodeBox& a, const NodeBox& b) {
  return a.x < b.x + b.w + kGap && b.x < a.x + a.w + kGap && a.y < b.y + b.h + kGap &&
         b.y < a.y + a.h + kGap;
}

}  // namespace

void FillMissingEdges(LaidOutGraph& out, const Graph& g) {
  std::unordered_map<int64_t, const NodeBox*> box;
  for (const NodeBox& b : out.nodes) box[b.id] = &b;
  out.edges.resize(g.edges.size());
  for (size_t i = 0; i < g.edges.size(); ++i) {
    EdgePath& p = out.edges[i];
    p.from = g.edges[i].from;
    p.to = g.edges[i].to;
    if (!p.points.empty()) continue;
    auto f = box.find(p.from);
    auto t = box.find(p.to);
    if (f == box.end() || t == box.end()) continue;
    const NodeBox& a = *f->second;
    const NodeBox& b = *t->second;
    double x0 = a.x + a.w / 2, y0 = a.y + a.h, x1 = b.x + b.w / 2, y1 = b.y;
    double dy = std::max(24.0, std::abs(y1 - y0) / 2);
    p.points = {{x0, y0}, {x0, y0 + dy}, {x1, y1 - dy}, {x1, y1}};
  }
}

void FitClusters(LaidOutGraph& out, const Graph& g) {
  std::unordered_map<int64_t, size_t> index;
  for (size_t i = 0; i < g.clusters.size(); ++i) index[g.clusters[i].id] = i;
  auto depth = [&](size_t i) {
    int d = 0;
    for (int64_t p = g.clusters[i].parent; p != -1 && index.count(p) && d < 64; p = g.clusters[index[p]].parent)
      ++d;
    return d;
  };
  std::vector<size_t> order(g.clusters.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return depth(a) > depth(b); });
  std::vector<ClusterBox> boxes(g.clusters.size());
  std::vector<bool> set(g.clusters.size(), false);
  auto grow = [&](size_t c, double x0, double y0, double x1, double y1) {
    ClusterBox& b = boxes[c];
    if (!set[c]) {
      b = {g.clusters[c].id, x0, y0, x1 - x0, y1 - y0};
      set[c] = true;
      return;
    }
    double nx0 = std::min(b.x, x0), ny0 = std::min(b.y, y0);
    double nx1 = std::max(b.x + b.w, x1), ny1 = std::max(b.y + b.h, y1);
    b = {b.id, nx0, ny0, nx1 - nx0, ny1 - ny0};
  };
  for (size_t i = 0; i < g.nodes.size() && i < out.nodes.size(); ++i) {
    auto it = index.find(g.nodes[i].cluster);
    if (it == index.end()) continue;
    const NodeBox& n = out.nodes[i];
    grow(it->second, n.x - 8, n.y - 8 - kLineHeightPt - 4, n.x + n.w + 8, n.y + n.h + 8);
  }
  for (size_t c : order) {
    if (!set[c]) continue;
    auto p = index.find(g.clusters[c].parent);
    if (p == index.end()) continue;
    const ClusterBox& b = boxes[c];
    grow(p->second, b.x - 8, b.y - 8 - kLineHeightPt - 4, b.x + b.w + 8, b.y + b.h + 8);
  }
  out.clusters.clear();
  for (size_t c = 0; c < boxes.size(); ++c)
    if (set[c]) out.clusters.push_back(boxes[c]);
}

std::optional<LaidOutGraph> StableLayout(const Graph& g, const LayoutOptions& options,
                                         const LaidOutGraph& previous) {
  std::unordered_map<int64_t, Centre> old;
  for (const NodeBox& b : previous.nodes) old[b.id] = {b.x + b.w / 2, b.y + b.h / 2};
  std::unordered_map<int64_t, std::vector<int64_t>> replaced_by;  // new id -> old ids
  for (auto [from, to] : options.replaced) replaced_by[to].push_back(from);

  size_t n = g.nodes.size();
  std::unordered_map<int64_t, size_t> index;
  for (size_t i = 0; i < n; ++i) index[g.nodes[i].id] = i;
  std::vector<std::optional<Centre>> pos(n);
  std::vector<bool> survivor(n, false);
  size_t survivors = 0;
  for (size_t i = 0; i < n; ++i) {
    int64_t id = g.nodes[i].id;
    if (auto it = old.find(id); it != old.end()) {
      pos[i] = it->second;
      survivor[i] = true;
      ++survivors;
      continue;
    }
    if (auto r = replaced_by.find(id); r != replaced_by.end()) {
      double sx = 0, sy = 0;
      int k = 0;
      for (int64_t o : r->second)
        if (auto it = old.find(o); it != old.end()) sx += it->second.x, sy += it->second.y, ++k;
      if (k > 0) pos[i] = Centre{sx / k, sy / k};
    }
  }
  if (survivors == 0 && n > 0) return std::nullopt;
  // Neighbour centroids, a few rounds.
  std::vector<std::vector<std::pair<size_t, double>>> adj(n);  // neighbour, dy to apply
  for (const GraphEdge& e : g.edges) {
    auto f = index.find(e.from);
    auto t = index.find(e.to);
    if (f == index.end() || t == index.end()) continue;
    adj[t->second].push_back({f->second, +kRankStep});  // below operands
    adj[f->second].push_back({t->second, -kRankStep});  // above users
  }
  for (int round = 0; round < 4; ++round) {
    bool progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (pos[i]) continue;
      double sx = 0, sy = 0;
      int k = 0;
      for (auto [j, dy] : adj[i])
        if (pos[j]) sx += pos[j]->x, sy += pos[j]->y + dy, ++k;
      if (k > 0) {
        pos[i] = Centre{sx / k, std::max(0.0, sy / k)};
        progress = true;
      }
    }
    if (!progress) break;
  }
  size_t unplaced = 0;
  for (size_t i = 0; i < n; ++i) unplaced += !pos[i];
  if (unplaced > std::max<size_t>(8, n / 4)) return std::nullopt;

  LaidOutGraph out;
  out.stable = true;
  out.nodes.resize(n);
  // Unplaced leftovers go under everything.
  double bottom = 0;
  for (size_t i = 0; i < n; ++i)
    if (pos[i]) bottom = std::max(bottom, pos[i]->y);
  double next_x = 0;
  for (size_t i = 0; i < n; ++i) {
    auto [w, h] = NodeSize(g.nodes[i]);
    if (!pos[i]) {
      pos[i] = Centre{next_x + w / 2, bottom + 2 * kRankStep};
      next_x += w + kGap;
    }
    out.nodes[i] = {g.nodes[i].id, pos[i]->x - w / 2, pos[i]->y - h / 2, w, h};
  }
  // Push new nodes right until they overlap nothing placed before them.
  std::vector<size_t> fixed;
  for (size_t i = 0; i < n; ++i)
    if (survivor[i]) fixed.push_back(i);
  for (size_t i = 0; i < n; ++i) {
    if (survivor[i]) continue;
    NodeBox& b = out.nodes[i];
    b.x = std::max(0.0, b.x);
    b.y = std::max(0.0, b.y);
    for (int guard = 0; guard < 10000; ++guard) {
      const NodeBox* hit = nullptr;
      for (size_t j : fixed)
        if (Overlaps(b, out.nodes[j])) { hit = &out.nodes[j]; break; }
      if (!hit) break;
      b.x = hit->x + hit->w + kGap + 0.5;
    }
    fixed.push_back(i);
  }
  for (const NodeBox& b : out.nodes) {
    out.width = std::max(out.width, b.x + b.w);
    out.height = std::max(out.height, b.y + b.h);
  }
  FillMissingEdges(out, g);
  FitClusters(out, g);
  for (const ClusterBox& c : out.clusters) {
    out.width = std::max(out.width, c.x + c.w);
    out.height = std::max(out.height, c.y + c.h);
  }
  if (previous.nodes.size() >= 8 && Density(out) < 0.6 * Density(previous)) return std::nullopt;  // rule 6
  return out;
}

}  // namespace hloscope::layout::internal
