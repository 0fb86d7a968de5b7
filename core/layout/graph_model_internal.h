// Internal to core/layout: the grouping step of BuildGraph (graph_grouping.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/layout/graph_model.h"

namespace hloscope::layout::internal {

// One top-level item of the drawn computation: an instruction node, or an
// expanded fusion (its cluster and every node inside it).
struct TopItem {
  std::string op_name;   // metadata op_name (namespace = all but the last component)
  OpCategory category = OpCategory::kOther;
  int64_t instructions = 1;  // instructions it stands for
  std::vector<int64_t> instruction_ids;  // every instruction id it shows (for shown_by)
};

// Replaces items by group nodes/clusters so that at most options.max_nodes
// nodes stay visible. `item_of_node[i]` is the TopItem of g.nodes[i];
// `item_of_cluster[i]` the TopItem of g.clusters[i]. Returns whether it grouped.
bool ApplyGrouping(Graph& g, const std::vector<TopItem>& items, const std::vector<int>& item_of_node,
                   const std::vector<int>& item_of_cluster, const GraphOptions& options,
                   bool force);

// A stable negative id for a group path.
int64_t GroupId(const std::string& path);

}  // namespace hloscope::layout::internal
