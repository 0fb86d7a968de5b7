// XLA GPU's own cost-model estimate of every instruction its priority fusion
// starts from (tools/xla_gpu_reference.py --costs: xla_costs.tsv, distilled
// from what gpu_performance_model logs at level 10), set beside our cost
// model's estimate of the same instruction. The instructions are XLA's own:
// the module in its priority_fusion_dump.txt (hlo_module_before_fusion),
// parsed by our parser, so both models cost exactly the same HLO.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cost/device.h"
#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope::report {

struct XlaInstructionCost {
  std::string name;
  int64_t blocks = 0, threads = 0;  // XLA's launch: blocks, threads per block
  double flops = 0;                 // XLA's op-profile cycles
  int64_t bytes_read = 0, bytes_written = 0;
  double read_ns = 0, write_ns = 0, compute_ns = 0, exec_ns = 0;
  int line = 0;  // in the file
};

struct XlaCostTable {
  std::string origin;  // the file
  std::vector<XlaInstructionCost> rows;
};

// Parses xla_costs.tsv (a "#" comment, a header line, one tab-separated
// line per instruction); errors name file:line:column.
StatusOr<XlaCostTable> ParseXlaCosts(std::string_view text, std::string_view filename);
// `dir_or_file`: the tool's folder (its xla_costs.tsv) or the file.
StatusOr<XlaCostTable> ReadXlaCosts(const std::string& dir_or_file);

// The module XLA's priority fusion started from, from the text of its
// priority_fusion_dump.txt (the C-escaped hlo_module_before_fusion string).
StatusOr<std::unique_ptr<Module>> XlaModuleBeforeFusion(std::string_view dump_text, std::string_view filename);

// One instruction costed by both models; times of the kernel without its
// launch overhead, in ns.
struct InstructionCostPair {
  std::string name, opcode;
  XlaInstructionCost xla;
  int64_t blocks = 0, threads = 0;
  double cycles = 0, exec_ns = 0;
  bool within = false;  // |ours − XLA's| ≤ max(kAbsNs, kRel × XLA's)
};

struct InstructionCostComparison {
  static constexpr double kAbsNs = 0.3, kRel = 0.05;
  int64_t compared = 0, within = 0;
  int64_t same_launch = 0;  // blocks and threads per block as XLA's
  // Every pair, the farthest from XLA's (relative) first.
  std::vector<InstructionCostPair> pairs;
};

// Our kernel cost (core/cost/cost_model.h) of every instruction of
// `before_fusion` that launches a kernel and that the table names.
InstructionCostComparison CompareInstructionCosts(const Module& before_fusion, const XlaCostTable& xla,
                                                  const DeviceSpec& device);

// For a priority_fusion_dump.txt at `log_path`: the xla_costs.tsv beside it
// (a reference folder) or one folder up (the tool's folder, whose raw dump
// is xla_dump/), compared on the log's module before fusion. nullopt when
// there is no table; an error when there is one that cannot be read.
struct InstructionCostsFound {
  InstructionCostComparison comparison;
  std::string table;  // the file read
};
StatusOr<std::optional<InstructionCostsFound>> InstructionCostsBesideLog(const std::string& log_path,
                                                                        const DeviceSpec& device);

}  // namespace hloscope::report
