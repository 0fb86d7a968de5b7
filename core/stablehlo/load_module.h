// Opens what a user may hand any command: HLO text, or StableHLO MLIR (by
// the `.mlir` extension), which is converted to HLO on the way in.
#pragma once

#include <memory>
#include <string>

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope {

StatusOr<std::unique_ptr<Module>> LoadModuleFile(const std::string& path);

}  // namespace hloscope
