// The verifier: structural checks for every opcode and shape checks for
// every opcode with well-defined shape rules. Errors name the instruction
// and carry its source location (FILE:LINE:COL when the module has a file).
#pragma once

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope {

struct VerifyOptions {
  // Check result shapes against shape inference (in addition to structure).
  bool check_shapes = true;
};

Status VerifyModule(const Module& m, const VerifyOptions& opts = {});

}  // namespace hloscope
