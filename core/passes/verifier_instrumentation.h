// Runs the verifier after every pass that changed the module (XLA's
// HloPassPipeline invariant checker). A failure stops the pipeline with an
// error naming the pass and iteration. Always on in tests; optional in the CLI.
#pragma once

#include "core/passes/instrumentation.h"
#include "core/verify/verifier.h"

namespace hloscope {

class VerifierInstrumentation : public PassInstrumentation {
 public:
  explicit VerifierInstrumentation(VerifyOptions opts = {}, bool verify_input = true)
      : opts_(opts), verify_input_(verify_input) {}
  Status BeforePipeline(const Module& m, std::string_view pipeline) override;
  Status AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) override;
  int verifications() const { return verifications_; }

 private:
  VerifyOptions opts_;
  bool verify_input_;
  int verifications_ = 0;
};

}  // namespace hloscope
