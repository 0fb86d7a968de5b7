// The graph to draw for one module snapshot (Qt-free): which nodes, edges and
// clusters the GUI's graph view, the DOT export and the picture exports show.
//
// One node per visible instruction, labelled "name = opcode shape" and
// coloured by OpCategory (palette.h). Fusions are one collapsed node, or a
// cluster holding their fused computation when expanded. Called computations
// (while body/condition, reducers, branches, calls) are not drawn inline; they
// are listed in Graph::computations and drawn on their own when
// GraphOptions::computation names them. Small constants and broadcasts of
// scalar constants are drawn inside their users' labels, as XLA's dumper does
// (high fan-out constants make dot explode; see ../shared/FACTS.md).
//
// Large graphs are grouped: by the metadata op_name namespace
// ("jit(f)/transformer/layer_3/attention/dot") into collapsible group nodes
// (edges between groups aggregated), and, for modules without op_name, into
// chunks of consecutive instructions; so no layout call sees more than
// GraphOptions::max_nodes nodes. See docs/graph-view.md.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"
#include "core/ir/opcode.h"
#include "core/passes/step_recorder.h"
#include "core/support/status.h"

namespace hloscope::layout {

struct GraphOptions {
  std::string computation;         // "" = entry
  bool expand_fusions = false;     // open every fusion as a cluster
  std::set<int64_t> expanded;      // fusion or group ids opened by the user
  std::set<int64_t> collapsed;     // fusion or group ids closed by the user (wins over
                                   // expand_fusions and automatic opening)
  bool group_by_namespace = true;  // group when the graph exceeds max_nodes
  int neighbourhood_hops = 0;      // 0 = off; else only nodes within N hops of center_id
  int64_t center_id = -1;
  // "What changed in this step": when not empty, only these instructions
  // (the step's added and rewritten ones) and their operands and users are
  // drawn (an instruction inside a fusion counts as its fusion).
  std::vector<int64_t> focus;
  // Parameters and constants (any size) drawn inside their users' labels,
  // like small constants, instead of as boxes of their own.
  bool fold_inputs = false;
  size_t max_nodes = 800;          // no layout call sees more than this
  // A first view that reads (docs/graph-view.md, "The first view"): when
  // fit_width and fit_height (the view's size in pixels, 1 px = 1 pt at zoom
  // 1) are set, the graph is grouped whenever drawing it whole would not fit
  // that size with labels of at least min_label_px, and groups open, largest
  // first, while at most max_boxes boxes are visible and the estimated
  // layout still fits at that label size.
  double fit_width = 0, fit_height = 0;
  double min_label_px = 9;
  size_t max_boxes = 80;
  bool inline_small_constants = true;
};

struct GraphNode {
  int64_t id = -1;  // stable instruction id (ModuleSnapshot), or a synthetic (negative) group id
  std::string name, opcode, shape;
  std::string label;  // "name = opcode shape" (groups: "namespace (N)")
  // Groups: summary lines under the label (ops and kernels, the commonest
  // opcodes, bytes in and out); "≡ block 1" marks a repeat of another group.
  std::vector<std::string> details;
  int64_t identical_to = 0;  // a group repeating another: that group's id (0 = none)
  OpCategory category = OpCategory::kOther;
  std::string op_name;  // metadata op_name ("" if none)
  int64_t cluster = -1;  // id of the innermost GraphCluster holding it, -1 = top level
  bool is_group = false;
  int64_t group_size = 0;  // instructions inside a group node
  bool is_fusion = false;  // a collapsed fusion node (can be expanded)
  std::vector<std::string> inlined_constants;  // "operand 1: constant 0.5" lines
  std::vector<std::string> called;  // computations it calls (not fusions), for the UI
};

struct GraphEdge {
  int64_t from = -1, to = -1;  // node ids; the data flows from → to
  int operand_index = -1;      // -1 for an aggregated edge between groups
  std::string shape;           // the operand's shape
  int64_t count = 1;           // edges aggregated into this one
};

struct GraphCluster {
  int64_t id = -1;  // the fusion instruction's id, or the group's synthetic id
  std::string label;
  int64_t parent = -1;  // enclosing cluster, -1 = top level
  bool is_fusion = false;
};

struct Graph {
  std::string computation;  // the computation drawn
  std::vector<std::string> computations;  // drawable computations (non-fused), entry first
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  std::vector<GraphCluster> clusters;
  int64_t hidden_instructions = 0;  // instructions inside closed groups
  bool grouped = false;             // automatic grouping was applied
  // instruction id -> id of the node showing it (itself, its collapsed
  // fusion, its closed group, the user showing an inlined constant), or of
  // the cluster of an expanded fusion; for every instruction of the computation.
  std::unordered_map<int64_t, int64_t> shown_by;

  const GraphNode* FindNode(int64_t id) const;
};

// Builds the graph of one computation of `snap`. `m` is the snapshot's text
// parsed again; instructions are matched to the snapshot's stable ids by
// name. Errors: unknown computation, module and snapshot that disagree.
StatusOr<Graph> BuildGraph(const Module& m, const ModuleSnapshot& snap, const GraphOptions& options);

// The id of the node that shows instruction `id` in `g`: itself, the
// collapsed fusion holding it, or the closed group holding it (an expanded
// fusion: its cluster's id); -1 if absent.
int64_t VisibleNodeFor(const Graph& g, int64_t id);

}  // namespace hloscope::layout
