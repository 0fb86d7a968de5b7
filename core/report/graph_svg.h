// Pictures of a graph step: the SVG renderer of a LaidOutGraph (rounded
// boxes in the category colours of layout/palette.h, labels, fusion and
// group clusters, edges with arrowheads — the GUI's look), PNG through
// Graphviz's own renderer of the DOT, and the glue that builds and lays
// out the graph of one recorded step.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "core/layout/graph_layout.h"
#include "core/layout/graph_model.h"
#include "core/passes/step_recorder.h"
#include "core/support/status.h"

namespace hloscope::report {

struct GraphSvgOptions {
  std::string title;
  bool standalone = true;  // XML declaration (false: inline in HTML)
  double max_width = 0;    // > 0: scale the picture down to this width (viewBox keeps it sharp)
  // Node ids (stable instruction ids) drawn highlighted: a thick orange
  // border and class "node subject" (the lesson page's subjects).
  std::set<int64_t> highlight;
};

std::string RenderGraphSvg(const layout::LaidOutGraph& g, const GraphSvgOptions& opts = {});

// Builds the graph of `snap` (its text parsed again) with `options` and lays
// it out. Large computations come back grouped (GraphOptions::max_nodes).
StatusOr<layout::LaidOutGraph> LayOutSnapshot(const ModuleSnapshot& snap, const layout::GraphOptions& options);

// PNG bytes of a DOT text rendered by Graphviz (dot layout, cairo "png").
StatusOr<std::string> RenderDotPng(const std::string& dot);

}  // namespace hloscope::report
