#include "core/passes/verifier_instrumentation.h"

namespace hloscope {

Status VerifierInstrumentation::BeforePipeline(const Module& m, std::string_view pipeline) {
  if (!verify_input_) return Status::Ok();
  ++verifications_;
  Status s = VerifyModule(m, opts_);
  if (!s.ok()) return Status::Error("input of pipeline '" + std::string(pipeline) + "' does not verify:\n" + s.message());
  return Status::Ok();
}

Status VerifierInstrumentation::AfterPass(const Module& m, const PassRunInfo& info, const PassRunResult& result) {
  if (!result.changed && only_changed_) return Status::Ok();
  ++verifications_;
  Status s = VerifyModule(m, opts_);
  if (!s.ok()) {
    return Status::Error("verifier failed after pass '" + std::string(info.pass->name()) + "' (step " +
                         std::to_string(info.step) + ", iteration " + std::to_string(info.iteration) + "):\n" +
                         s.message());
  }
  return Status::Ok();
}

}  // namespace hloscope
