// The differential checker: runs the interpreter on the module before the
// pipeline and after every pass that changed it, on the same random inputs
// (one set per seed), and stops the pipeline at the first pass whose
// outputs differ from the previous step's, naming the pass and the first
// differing output element. Float outputs are compared with a small
// tolerance by element type; integers, pred and bit-exact types exactly.
// A module whose collectives exchange data between devices is evaluated on
// all of them (EvaluateModuleOnDevices), each device on inputs of its own,
// and every device's outputs are compared. Modules the interpreter cannot
// evaluate (custom calls, elided constants...) are reported as not evaluable
// and not checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/compare.h"
#include "core/eval/evaluator.h"
#include "core/passes/instrumentation.h"

namespace hloscope {

struct DifferentialOptions {
  int seeds = 1;            // input sets per check
  uint64_t first_seed = 1;  // seeds first_seed, first_seed+1, ...
  EvalOptions eval;
  // One tolerance for every float output; unset: DefaultTolerance by type.
  std::optional<Tolerance> tolerance;
};

struct DifferentialMismatch {
  std::string pass;
  int step = 0;
  int iteration = 1;
  uint64_t seed = 0;
  std::string detail;  // the first differing element, as CompareLiterals says

  std::string ToString() const;
};

class DifferentialChecker : public PassInstrumentation {
 public:
  explicit DifferentialChecker(DifferentialOptions opts = {}) : opts_(opts) {}
  Status BeforePipeline(const Module& m, std::string_view pipeline) override;
  Status AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) override;

  // False when the input module could not be evaluated (then nothing is checked).
  bool evaluable() const { return evaluable_; }
  const std::string& not_evaluable_reason() const { return reason_; }
  // Number of (pass, seed) comparisons made.
  int comparisons() const { return comparisons_; }
  const std::optional<DifferentialMismatch>& mismatch() const { return mismatch_; }
  // Devices each evaluation runs on (1 unless the module's collectives
  // exchange data between devices).
  int64_t devices() const { return devices_; }

  // "" when equal; otherwise where and how `actual` differs from `expected`
  // (tuples are compared leaf by leaf with the tolerance of each leaf's type).
  static std::string Compare(const Literal& expected, const Literal& actual);

 private:
  DifferentialOptions opts_;
  bool evaluable_ = false;
  std::string reason_;
  int comparisons_ = 0;
  int64_t devices_ = 1;
  std::vector<uint64_t> seeds_;
  // Per seed, per device: the arguments, and the outputs of the last step.
  std::vector<std::vector<std::vector<Literal>>> inputs_;
  std::vector<std::vector<Literal>> previous_;
  std::optional<DifferentialMismatch> mismatch_;
};

}  // namespace hloscope
