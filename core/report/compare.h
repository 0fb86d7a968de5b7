// Compare two optimized modules — typically ours (a sample through the `gpu`
// pipeline) and XLA's after_optimizations module of the same program.
// Instructions are matched across the two by name, by structure (opcode,
// element type and dimensions, and already-matched operands, looking
// through bitcast/copy/reshape; commutative operands in any order), by
// metadata op_name, and finally by a unique same-opcode/same-shape
// neighbour of a match. Then every fusion on one side is checked against
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
  std::map<std::string, int64_t> matched_by;  // name, structure, op_name, neighbour
  std::vector<std::pair<std::string, std::string>> matches;  // (a name, b name)
  std::vector<GroupDifference> fused_only_in_b;  // B fused together, A did not
  std::vector<GroupDifference> fused_only_in_a;  // A fused together, B did not
  int64_t same_groups = 0;  // fusions whose matched members form one kernel on both sides
};

CompareResult CompareModules(const Module& a, const Module& b, const DeviceSpec& device);

std::string CompareToText(const CompareResult& r);
std::string CompareToJson(const CompareResult& r);  // documented in docs/compare.md

}  // namespace hloscope::report
