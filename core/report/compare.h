// Compare two optimized modules — typically ours (a sample through the `gpu`
// pipeline) and XLA's after_optimizations module of the same program.
// Ops (entry instructions and the instructions of its fusions) are matched
// across the two, in order of trust, by exact name, by the entry outputs,
// by op_name metadata (XLA keeps the source op through its renames), by
// scheduling_name/deduplicated_name, by the contents of linked fusions and
// by structure (signature, operands and users of matches); each match
// records how it was made (core/report/compare_match.h, docs/compare.md).
// Then every fusion on one side is checked against
// the kernels its matched members landed in on the other side: groups one
// side fused and the other split. Totals (kernels, HBM bytes, estimated
// time) come from the cost model on one device for both. See docs/compare.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/cost/device.h"
#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope::report {

struct CompareSide {
  std::string label;  // file (and pipeline)
  std::string module;
  int64_t instructions = 0;  // all computations
  int64_t ops = 0;           // matchable ops (entry + its fusions)
  int64_t matched = 0;
  int64_t kernels = 0, fusions = 0, hbm_bytes = 0;
  double est_us = 0;
};

struct GroupDifference {
  std::string fusion;                 // the fusion on the side that fused
  std::vector<std::string> members;   // its matched members (names on that side)
  // The kernels the matched counterparts are in on the other side, each
  // with the counterparts' names there.
  std::vector<std::pair<std::string, std::vector<std::string>>> other_kernels;
};

struct CompareResult {
  CompareSide a, b;
  // How many matches each way made: name, output, op_name, scheduling_name,
  // fused_contents, structure, operand, neighbour.
  std::map<std::string, int64_t> matched_by;
  // (a name, b name): one to one in A's post order, then B's many-to-one
  // matches (duplicate, expansion) in B's post order.
  std::vector<std::pair<std::string, std::string>> matches;
  std::vector<std::string> match_how;  // per entry of `matches`: the matched_by key that made it
  std::vector<std::string> unmatched_a, unmatched_b;  // ops without a counterpart, in post order
  std::vector<GroupDifference> fused_only_in_b;  // B fused together, A did not
  std::vector<GroupDifference> fused_only_in_a;  // A fused together, B did not
  // Fusions of B reproduced with the same members by A: their matched ops are
  // exactly the matched ops of one kernel of A (single-op fusions included).
  int64_t same_groups = 0;
  // The pairs behind same_groups: (B fusion, A kernel), in B's name order.
  std::vector<std::pair<std::string, std::string>> same_fusions;
  // Every other fusion of B, beside the kernel of A that computes most of
  // its ops, with the ops only B's fusion computes there and the ops only
  // that kernel of A computes (names on each side; one name per op).
  struct NearMiss {
    std::string fusion, nearest;
    std::vector<std::string> only_in_b, only_in_a;
  };
  std::vector<NearMiss> differing_b;
};

CompareResult CompareModules(const Module& a, const Module& b, const DeviceSpec& device);

std::string CompareToText(const CompareResult& r);
std::string CompareToJson(const CompareResult& r);  // documented in docs/compare.md

}  // namespace hloscope::report
