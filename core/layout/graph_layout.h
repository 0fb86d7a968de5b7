// Layout of a Graph, Qt-free: Graphviz's dot (gvc/cgraph) for graphs up to
// LayoutOptions::layered_threshold, our own layered layout above it (see
// layout_internal.h); boxes, edge splines and cluster boxes in points,
// origin top-left, y pointing down.
//
// Stable layout across steps: given the previous step's layout, nodes whose
// id survives keep their position exactly; new nodes are placed at the
// centroid of what they replaced (LayoutOptions::replaced, from StepDiff) or
// of their already placed neighbours, then pushed right until they overlap
// nothing; edges are re-routed and clusters re-fitted. When too much changed
// (more than a quarter of the nodes, and more than 8, could not be placed from
// the previous layout) a fresh dot layout is made. Rule in docs/graph-view.md.
//
// Graphviz contexts are not thread-safe: layout calls are serialised with a
// mutex; call from a worker thread. LayoutCache memoises results.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/layout/graph_model.h"
#include "core/support/status.h"

namespace hloscope::layout {

struct LayoutOptions {
  // Use FACTS.md's tuned attributes (searchsize=10 nslimit=1 nslimit1=1
  // mclimit=0.1 remincross=false splines=false). `auto_tune` turns them on
  // above tune_threshold nodes or twice as many edges.
  bool tuned = false;
  bool auto_tune = true;
  size_t tune_threshold = 250;
  // Above this many nodes, or half as many edges, a fresh layout is our own
  // layered layout, not dot (FACTS.md: dot is not interactive past ~1,000
  // nodes even tuned; the Llama overview's 116 groups with 696 aggregated
  // edges took dot 2.4 s). 0 = always dot.
  size_t layered_threshold = 900;
  // removed id -> id that replaced it (StepDiff::replaced/folded_into), for
  // placing new nodes where their members were.
  std::vector<std::pair<int64_t, int64_t>> replaced;
  bool allow_stable = true;  // false: always a fresh layout
};

struct NodeBox {
  int64_t id = -1;
  double x = 0, y = 0, w = 0, h = 0;  // top-left origin, y down, points
};

struct EdgePath {
  int64_t from = -1, to = -1;
  // Cubic Bezier control points as Graphviz gives them: p0, then triples
  // (c1, c2, p) — 3n+1 points; the arrowhead is at the last point.
  std::vector<std::pair<double, double>> points;
};

struct ClusterBox {
  int64_t id = -1;
  double x = 0, y = 0, w = 0, h = 0;
};

struct LaidOutGraph {
  Graph graph;
  std::vector<NodeBox> nodes;  // same order as graph.nodes
  std::vector<EdgePath> edges;  // same order as graph.edges
  std::vector<ClusterBox> clusters;  // same order as graph.clusters
  double width = 0, height = 0;
  double ms = 0;        // time the layout took
  bool stable = false;  // positions came from the previous layout
  std::string engine;   // "dot", "layered" or "stable"

  const NodeBox* FindBox(int64_t id) const;
};

// Label metrics shared by the GUI and the exports (monospace approximation).
inline constexpr double kFontPt = 10.0;
inline constexpr double kCharWidthPt = 6.2;
inline constexpr double kLineHeightPt = 13.0;
inline constexpr double kNodePadPt = 8.0;
// Lines of a node's label: the label, then inlined constants.
std::vector<std::string> NodeLabelLines(const GraphNode& n);
std::pair<double, double> NodeSize(const GraphNode& n);  // w, h in points

StatusOr<LaidOutGraph> LayoutGraph(const Graph& g, const LayoutOptions& options,
                                   const LaidOutGraph* previous = nullptr);

// The readable first view (GraphOptions::fit_width/height set): builds the
// graph and lays it out; when the laid-out picture would not fit the view at
// min_label_px (the grouping's estimate was short), builds it again for a
// smaller view, up to three times. Without fit sizes: BuildGraph + LayoutGraph.
StatusOr<LaidOutGraph> BuildAndLayout(const Module& m, const ModuleSnapshot& snap, const GraphOptions& options,
                                      const LayoutOptions& layout_options, const LaidOutGraph* previous = nullptr);
// The zoom at which `g` fits a w x h view (GraphView::fitView's margins).
double FittedZoom(const LaidOutGraph& g, double w, double h);

// DOT text for `g` with the shared palette; clusters as subgraph cluster_*.
// Graphviz's `dot` renders it.
std::string ToDot(const Graph& g);

// Layouts memoised per key (e.g. step module fingerprint + options); thread-safe.
class LayoutCache {
 public:
  explicit LayoutCache(size_t capacity = 64) : capacity_(capacity) {}
  std::shared_ptr<const LaidOutGraph> Find(const std::string& key) const;
  void Insert(const std::string& key, std::shared_ptr<const LaidOutGraph> value);

 private:
  size_t capacity_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const LaidOutGraph>> map_;
  std::vector<std::string> order_;
};

// A cache key for a graph's options (append the snapshot's fingerprint).
std::string OptionsKey(const GraphOptions& g, const LayoutOptions& l);

}  // namespace hloscope::layout
