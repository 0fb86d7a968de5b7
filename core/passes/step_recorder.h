// The step recorder: an instrumentation that turns a pipeline run into
// immutable snapshots — one Step per pass run — for the GUI, `opt --json`
// and reports. A Step says which pass ran (and in which fixed-point
// iteration), whether it changed the module, how long it took, the module
// after it (printed text + per-instruction structure), a diff against the
// previous step by stable instruction id, and the pass's statistics and
// named rewrites. Steps whose pass changed nothing share the previous
// module snapshot (MLIR's print-after-change idea).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"
#include "core/cost/cost_model.h"
#include "core/passes/fusion_decision.h"
#include "core/passes/instrumentation.h"

namespace hloscope {

// One instruction of a module snapshot.
struct InstructionRecord {
  int64_t id = -1;                // stable across steps
  std::string name;               // without '%'
  Opcode opcode = Opcode::kParameter;
  int32_t computation = -1;       // index into ModuleSnapshot::computations
  bool is_root = false;
  // Ids, in operand order: a view into the snapshot's operand_ids (one
  // allocation per snapshot, not one per instruction).
  std::span<const int64_t> operands;
  uint64_t fingerprint = 0;       // hash of the printed line
  size_t line_offset = 0;         // the printed line is ModuleSnapshot::line(*this)
  size_t line_length = 0;
};

struct ComputationRecord {
  std::string name;
  bool is_entry = false;
  int64_t root_id = -1;
  size_t first_instruction = 0;  // range in ModuleSnapshot::instructions
  size_t instruction_count = 0;
};

// The module as it was after one step. Immutable once built.
struct ModuleSnapshot {
  std::string text;  // PrintModule() output
  std::vector<ComputationRecord> computations;
  std::vector<InstructionRecord> instructions;  // in printed order
  // Position in `instructions` by stable id (kNoInstruction: none), a flat
  // table: ids are dense, and a hash map's 60k nodes per step cost more
  // than the whole table on the Llama modules.
  static constexpr uint32_t kNoInstruction = 0xffffffffu;
  std::vector<uint32_t> index_of_id;
  std::vector<int64_t> operand_ids;  // every record's operands, in record order

  ModuleSnapshot() = default;
  // Records view operand_ids: a copy would view the original's.
  ModuleSnapshot(const ModuleSnapshot&) = delete;
  ModuleSnapshot& operator=(const ModuleSnapshot&) = delete;

  int64_t instruction_count() const { return static_cast<int64_t>(instructions.size()); }
  int64_t computation_count() const { return static_cast<int64_t>(computations.size()); }
  const InstructionRecord* Find(int64_t id) const;
  // The printed line of `r` ("  ROOT %x = f32[] add(...)" without newline).
  std::string_view line(const InstructionRecord& r) const;

  static std::shared_ptr<const ModuleSnapshot> Capture(const Module& m);

};

// How a step changed the module, by stable instruction id.
struct StepDiff {
  std::vector<int64_t> added;     // ids that exist only after the step
  std::vector<int64_t> removed;   // ids that existed only before the step
  std::vector<int64_t> modified;  // same id, different printed line
  // Removed instructions whose uses now read another one: `replaced` when
  // that one is new in this step, `folded_into` when it existed before.
  std::vector<Replacement> replaced;
  std::vector<Replacement> folded_into;
  bool empty() const { return added.empty() && removed.empty() && modified.empty(); }
};

StepDiff DiffSnapshots(const ModuleSnapshot& before, const ModuleSnapshot& after,
                       const std::vector<Replacement>& replacements);

struct Step {
  int index = 0;  // the step number (PassRunInfo::step): 1, 2, 3...; 0 is the input
  std::string pipeline;
  std::string group;  // fixed-point group, "" at top level
  std::string pass;
  int iteration = 1;
  bool changed = false;
  double ms = 0;
  int64_t instructions = 0;
  int64_t computations = 0;
  std::shared_ptr<const ModuleSnapshot> module;  // after the pass
  StepDiff diff;                                 // against the previous step
  std::map<std::string, int64_t> stats;
  std::vector<Rewrite> rewrites;
  // Fusion passes: every candidate considered in this step.
  std::vector<FusionDecision> decisions;
  // Cost model totals of the module after the step (CurrentDevice()).
  ModuleCost cost;
};

class StepRecorder : public PassInstrumentation {
 public:
  Status BeforePipeline(const Module& m, std::string_view pipeline) override;
  Status AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) override;

  // The module before the first pass.
  const std::shared_ptr<const ModuleSnapshot>& initial() const { return initial_; }
  // Cost model totals of the module before the first pass.
  const ModuleCost& initial_cost() const { return initial_cost_; }
  const std::vector<std::shared_ptr<const Step>>& steps() const { return steps_; }
  // Called after each step is recorded (e.g. by the GUI's worker thread).
  std::function<void(const std::shared_ptr<const Step>&)> on_step;

 private:
  std::shared_ptr<const ModuleSnapshot> initial_;
  std::shared_ptr<const ModuleSnapshot> last_;
  int64_t last_next_id_ = 0;
  ModuleCost initial_cost_, last_cost_;
  DeviceSpec device_;
  std::vector<std::shared_ptr<const Step>> steps_;
};

}  // namespace hloscope
