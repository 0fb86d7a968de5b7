// Runs the verifier after every pass (by default only those that changed
// the module), as XLA's HloPassPipeline runs its invariant checkers. A failure stops the pipeline with an
// error naming the pass and iteration. Always on in tests; optional in the CLI.
#pragma once

#include "core/passes/instrumentation.h"
#include "core/verify/verifier.h"

namespace hloscope {

class VerifierInstrumentation : public PassInstrumentation {
 public:
  // `verify_input`: also verify the module before the first pass.
  // `only_changed`: skip passes that report no change (tests verify every pass).
  explicit VerifierInstrumentation(VerifyOptions opts = {}, bool verify_input = true, bool only_changed = true)
      : opts_(opts), verify_input_(verify_input), only_changed_(only_changed) {}
  Status BeforePipeline(const Module& m, std::string_view pipeline) override;
  Status AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) override;
  int verifications() const { return verifications_; }

 private:
  VerifyOptions opts_;
  bool verify_input_;
  bool only_changed_;
  int verifications_ = 0;
};

}  // namespace hloscope
