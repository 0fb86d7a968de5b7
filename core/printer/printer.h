// Canonical HLO text that XLA's parser (and ours) accepts. Printing a parsed
// module and parsing it back gives the same text (a fixed point).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/module.h"

namespace hloscope {

struct PrintOptions {
  bool print_metadata = true;
  bool print_backend_config = true;
  bool print_operand_shapes = false;
};

std::string PrintModule(const Module& m, const PrintOptions& opts = {});
// Where an instruction's line is in a printed module: "  [ROOT ]%name = ..."
// without the newline.
struct InstructionLine {
  size_t offset = 0;
  size_t length = 0;
};
// PrintModule's text (the same bytes) and, for every instruction in module
// order (computations in order, each in list order), its line. Large modules
// are printed on two threads.
std::string PrintModuleWithLines(const Module& m, std::vector<InstructionLine>* lines,
                                 const PrintOptions& opts = {});
std::string PrintComputation(const Computation& c, const PrintOptions& opts = {});
// One instruction line without indentation or ROOT: `%a = f32[] add(%x, %y)`.
std::string PrintInstruction(const Instruction& i, const PrintOptions& opts = {});
// Attributes part only (", dimensions={0}, to_apply=%r ..."), used by the GUI.
std::string PrintAttributes(const Instruction& i, const PrintOptions& opts = {});

}  // namespace hloscope
