// Canonical HLO text that XLA's parser (and ours) accepts. Printing a parsed
// module and parsing it back gives the same text (a fixed point).
#pragma once

#include <string>

#include "core/ir/module.h"

namespace hloscope {

struct PrintOptions {
  bool print_metadata = true;
  bool print_backend_config = true;
  bool print_operand_shapes = false;
};

std::string PrintModule(const Module& m, const PrintOptions& opts = {});
std::string PrintComputation(const Computation& c, const PrintOptions& opts = {});
// One instruction line without indentation or ROOT: `%a = f32[] add(%x, %y)`.
std::string PrintInstruction(const Instruction& i, const PrintOptions& opts = {});
// Attributes part only (", dimensions={0}, to_apply=%r ..."), used by the GUI.
std::string PrintAttributes(const Instruction& i, const PrintOptions& opts = {});

}  // namespace hloscope
