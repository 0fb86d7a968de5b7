// Placeholder replaced by the full verifier (structural checks only for now).
#include "core/verify/verifier.h"

namespace hloscope {
Status VerifyModule(const Module& m, const VerifyOptions&) {
  if (!m.entry()) return Status::Error("module has no entry computation");
  return Status::Ok();
}
}  // namespace hloscope
