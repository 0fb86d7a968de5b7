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
  // Let real floating types differ between operands and results where XLA's
  // HloVerifier does with allow_mixed_precision (its HloTestBase default):
  // e.g. an f32 add of bf16 operands. Data-movement ops (tuple,
  // get-tuple-element, call, while, ...) never change types either way.
  bool allow_mixed_precision = true;
  // Stop after this many errors; the message lists them one per line.
  int max_errors = 20;
  // Threads for the per-instruction checks of a large module (at least
  // parallel_min_instructions): 0 = one per hardware thread (at most 8),
  // 1 = the calling thread only. Messages and their order do not depend on it.
  int threads = 0;
  int parallel_min_instructions = 8192;
};

// Errors read `FILE:LINE:COL: error: NAME: MESSAGE` where FILE is the
// module's source_path() ("<module>" when empty), LINE:COL the instruction's
// location (omitted when unknown) and NAME the instruction (or computation).
Status VerifyModule(const Module& m, const VerifyOptions& opts = {});

}  // namespace hloscope
