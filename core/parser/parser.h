// HLO text parser. Reads what XLA prints (before/after optimization, fused,
// scheduled; with or without the HloModule header and ENTRY). Errors are
// `FILE:LINE:COL: error: MESSAGE` pointing at the offending token.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/ir/module.h"
#include "core/support/status.h"

namespace hloscope {

// Parses a module. `filename` is used in error messages only.
StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text,
                                                 std::string_view filename = "<input>");
// Reads and parses a file (errors for unreadable files too).
StatusOr<std::unique_ptr<Module>> ParseHloFile(const std::string& path);
// Parses a shape such as `f32[2,3]{1,0}` or `(f32[], s32[4])`.
StatusOr<Shape> ParseShape(std::string_view text);

// Reads a whole file into a string.
StatusOr<std::string> ReadFileToString(const std::string& path);

}  // namespace hloscope
