// A pass pipeline (XLA's HloPassPipeline + HloPassFix): an ordered list of
// passes and fixed-point groups. A group runs its passes in order, again and
// again, until one whole iteration changes nothing or its iteration cap is
// reached. Instrumentations are called around the pipeline and around every
// pass run, in the order they were added.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/passes/instrumentation.h"
#include "core/passes/pass.h"

namespace hloscope {

class Pipeline {
 public:
  explicit Pipeline(std::string name) : name_(std::move(name)) {}
  Pipeline(const Pipeline&) = delete;

  const std::string& name() const { return name_; }

  void AddPass(std::unique_ptr<Pass> pass);
  // Appends a fixed-point group and returns it so passes can be added.
  Pipeline& AddFixedPoint(std::string name, int max_iterations);
  // Not owned; must outlive Run().
  void AddInstrumentation(PassInstrumentation* instrumentation);

  // Runs every pass; true if any changed the module. Stops at the first
  // pass or instrumentation error.
  StatusOr<bool> Run(Module& module);

  // "call_inliner, dce, fixed-point simplify-loop ×10 (algsimp, cse, dce)".
  std::string Describe() const;
  // Number of top-level items (passes and groups).
  size_t size() const { return items_.size(); }
  // Iterations each fixed-point group ran in the last Run(), by group name.
  const std::vector<std::pair<std::string, int>>& group_iterations() const { return group_iterations_; }

 private:
  struct Item {
    std::unique_ptr<Pass> pass;       // either a pass...
    std::unique_ptr<Pipeline> group;  // ...or a fixed-point group
    int max_iterations = 1;
  };
  struct RunState {
    std::string_view pipeline;
    std::vector<PassInstrumentation*>* instrumentations;
    std::vector<std::pair<std::string, int>>* group_iterations;
    int step = 0;
  };
  StatusOr<bool> RunItems(Module& module, RunState& state, std::string_view group, int iteration);
  StatusOr<bool> RunPass(Pass& pass, Module& module, RunState& state, std::string_view group,
                         int iteration);

  std::string name_;
  std::vector<Item> items_;
  std::vector<PassInstrumentation*> instrumentations_;
  std::vector<std::pair<std::string, int>> group_iterations_;
};

}  // namespace hloscope
