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
  // For structural grouping and group summaries:
  std::string opcode;          // "dot", "fusion" (expanded or not), ...
  uint64_t shape_hash = 0;     // of the result shape's text
  int64_t out_bytes = 0;       // result bytes (tuples: their leaves)
  std::vector<int> operands;   // items it reads (top-level, not inlined constants)
  bool leaf_input = false;     // a parameter or constant: grouped with its first user
  int64_t kernels = 0;         // kernels it launches (LaunchesKernel; a fusion is one)
};

// Replaces items by group nodes/clusters so that at most options.max_nodes
// nodes stay visible. `item_of_node[i]` is the TopItem of g.nodes[i];
// `item_of_cluster[i]` the TopItem of g.clusters[i]. Returns whether it grouped.
bool ApplyGrouping(Graph& g, const std::vector<TopItem>& items, const std::vector<int>& item_of_node,
                   const std::vector<int>& item_of_cluster, const GraphOptions& options,
                   bool force);

// Structural grouping (graph_structure.cc) for modules without op_name:
// program order split into repeated blocks (maximal periodic runs of the
// items' structural signatures) and, between them, chunks cut where the
// fewest values cross. `seq` holds item indices in program order (no leaf
// inputs); the result is a tree of segments.
struct Segment {
  enum Kind { kItems, kRepeat, kBlock, kChunk } kind = kItems;
  std::string name;               // "12 identical blocks", "block 3", "ops 12-40"
  std::vector<int> items;         // kItems: items placed directly
  std::vector<Segment> children;  // kRepeat: its blocks; kBlock/kChunk: contents
  int identical_to = -1;          // kBlock: 1-based index of the block it repeats (1), else -1
  int repeats = 0;                // kRepeat: number of blocks
};
// Splits `seq` into at most `fanout` segments per level, recursively, until
// a segment holds at most `leaf` items.
std::vector<Segment> StructuralSegments(const std::vector<TopItem>& items, const std::vector<int>& seq,
                                        size_t fanout, size_t leaf);
// Signature of an item: opcode, shape and where its operands come from,
// relative to its own position in `seq` (see graph_structure.cc).
std::vector<uint64_t> Signatures(const std::vector<TopItem>& items, const std::vector<int>& seq);

// A stable negative id for a group path.
int64_t GroupId(const std::string& path);

}  // namespace hloscope::layout::internal
