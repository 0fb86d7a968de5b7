// StableHLO (as read by mlir_parser.h) to an HLO Module: functions become
// computations, func.call becomes call, regions become called computations,
// locations become metadata. What cannot be converted (quantized types,
// truly dynamic shapes, unknown ops) is refused with a message that starts
// with "UNSUPPORTED: " and names the op or type.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/stablehlo/mlir_ast.h"
#include "core/support/status.h"

namespace hloscope::mlir {

// One check.* op (or custom_call @check.*) of a conformance program.
struct CheckOp {
  std::string kind;  // expect_eq, expect_almost_eq, expect_close, ...
  Pos pos;
  // Index of the actual / expected value in the entry's result tuple.
  int actual = -1, expected = -1;
  double tolerance = -1;  // `{tolerance = 0.1 : f64}` when given
};

struct ConvertOptions {
  std::string entry = "main";  // function that becomes the entry computation
  // Conformance mode: check ops are collected; the entry returns a tuple of
  // (actual, expected) values, in check order.
  bool checks_as_outputs = false;
  // Conformance mode: the reference interpreter's `interpreter.run_parallel`
  // in the entry. Its results become parameters of the entry (after the
  // function's own), its operands more outputs after the checks' values;
  // the runner evaluates the programs on their devices in between
  // (ConvertResult::parallel).
  bool run_parallel_as_parameters = false;
};

// One `interpreter.run_parallel` of the entry.
struct ParallelRun {
  Pos pos;
  std::vector<std::vector<std::string>> programs;  // [replica][partition] → function name
  int first_operand_output = 0;  // its operands in the entry's result tuple
  int operands = 0;
  int first_parameter = 0;        // its results as the entry's parameters
  int results = 0;
};

struct ConvertResult {
  std::unique_ptr<Module> module;
  std::vector<CheckOp> checks;
  std::vector<ParallelRun> parallel;
};

StatusOr<ConvertResult> ConvertToHlo(const ModuleAst& ast, const ConvertOptions& opts = {});

// Convenience: parse + convert a file; the module's source_path is the file.
StatusOr<std::unique_ptr<Module>> ImportStablehloFile(const std::string& path);

}  // namespace hloscope::mlir
