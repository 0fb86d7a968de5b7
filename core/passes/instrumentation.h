// Pass instrumentation (MLIR's PassInstrumentation): hooks around a pipeline
// and around every pass run. The pipeline calls them and knows nothing of
// who listens: the step recorder, the verifier, the differential checker and
// the dump writer are each one instrumentation. A hook that returns an error
// stops the pipeline with that error.
#pragma once

#include <string_view>

#include "core/ir/module.h"
#include "core/passes/pass.h"
#include "core/support/status.h"

namespace hloscope {

// Which pass is running, where.
struct PassRunInfo {
  std::string_view pipeline;  // name of the outermost pipeline
  std::string_view group;     // fixed-point group name ("" at top level)
  const Pass* pass = nullptr;
  int iteration = 1;  // 1-based iteration of the enclosing fixed-point group
  // The step number of this pass run: 1, 2, 3... in execution order over the
  // whole pipeline run; step 0 is the input module. The one numbering the
  // CLI (--step), the GUI's step table, reports and dumps use.
  int step = 0;
};

// What the run did.
struct PassRunResult {
  bool changed = false;
  double wall_ms = 0;
  const PassLog* log = nullptr;
};

class PassInstrumentation {
 public:
  virtual ~PassInstrumentation() = default;
  virtual Status BeforePipeline(const Module& m, std::string_view pipeline) { return Status::Ok(); }
  virtual Status BeforePass(const Module& m, const PassRunInfo& info) { return Status::Ok(); }
  virtual Status AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) {
    return Status::Ok();
  }
  virtual Status AfterPipeline(const Module& m, std::string_view pipeline, bool changed) {
    return Status::Ok();
  }
};

}  // namespace hloscope
