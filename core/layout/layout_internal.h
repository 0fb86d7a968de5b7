// Internal to core/layout: the stable layout path and edge geometry helpers.
#pragma once

#include <optional>

#include "core/layout/graph_layout.h"

namespace hloscope::layout::internal {

// Positions from `previous` for surviving ids; new nodes placed at the
// centroid of what they replaced or of their placed neighbours. nullopt when
// too much changed (the caller then makes a fresh layout).
std::optional<LaidOutGraph> StableLayout(const Graph& g, const LayoutOptions& options,
                                         const LaidOutGraph& previous);

// Our own layered layout (core/layout/layered_layout.cc) for graphs above
// LayoutOptions::layered_threshold nodes, where dot is not interactive.
StatusOr<LaidOutGraph> LayeredLayout(const Graph& g);

// Gives every edge without points a cubic from the bottom of its source to
// the top of its target.
void FillMissingEdges(LaidOutGraph& out, const Graph& g);

// Cluster boxes fitted around their members (deepest first).
void FitClusters(LaidOutGraph& out, const Graph& g);

}  // namespace hloscope::layout::internal
