// The pass contract (XLA's HloPassInterface): a name, a one-line description
// written for a student, and Run(module) -> changed. Besides `changed`, a run
// leaves a PassLog: counters, the named rewrites it applied, and which
// instructions were replaced by which (the step recorder reads all three).
#pragma once

#include "core/passes/fusion_decision.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope {

// One named rewrite applied at one instruction, e.g. rule
// "reshape(reshape) → reshape" at instruction "r3".
struct Rewrite {
  std::string rule;
  std::string instruction;  // name of the instruction rewritten (no '%')
  int64_t id = -1;          // its stable id

  // "reshape(reshape) → reshape at %r3", or with the pass name in front.
  std::string ToString(std::string_view pass = "") const;
};

// `old_id` disappeared and its uses now read `new_id`.
struct Replacement {
  int64_t old_id = -1;
  int64_t new_id = -1;
};

// What one run of a pass reports besides `changed`.
struct PassLog {
  std::map<std::string, int64_t> stats;
  std::vector<Rewrite> rewrites;
  std::vector<Replacement> replacements;
  // Fusion passes: every candidate considered (see fusion_decision.h).
  std::vector<FusionDecision> decisions;

  void Count(std::string_view stat, int64_t n = 1) { stats[std::string(stat)] += n; }
  // Records a rewrite (and counts it under its rule name).
  void Record(std::string_view rule, const Instruction& at) {
    rewrites.push_back({std::string(rule), at.name(), at.id()});
    Count(rule);
  }
  void Replaced(const Instruction& old, const Instruction& now) {
    replacements.push_back({old.id(), now.id()});
  }
  void Clear() {
    stats.clear();
    rewrites.clear();
    replacements.clear();
    decisions.clear();
  }
};

class Pass {
 public:
  virtual ~Pass() = default;
  // XLA's name where the pass is XLA's (dce, cse, algsimp, ...).
  virtual std::string_view name() const = 0;
  // One sentence for the pass list and the GUI.
  virtual std::string_view description() const = 0;
  // Transforms `module`; true if anything changed. The log of this run is
  // in log() afterwards (the pipeline clears it before each run).
  virtual StatusOr<bool> Run(Module& module) = 0;

  const PassLog& log() const { return log_; }
  void ClearLog() { log_.Clear(); }

 protected:
  PassLog& mutable_log() { return log_; }

 private:
  PassLog log_;
};

inline std::string Rewrite::ToString(std::string_view pass) const {
  std::string s;
  if (!pass.empty()) {
    s += pass;
    s += ": ";
  }
  s += rule;
  s += " at %";
  s += instruction;
  return s;
}

}  // namespace hloscope
