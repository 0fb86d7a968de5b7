// Protocol-buffer text format, read without a schema: the form XLA writes
// its dumps in (FusionProcessDumpProto, GpuTargetConfigProto, ...). A field
// is `name: value` (a quoted string, a number or an enum identifier), `name
// { fields }` (also `name: { ... }` and `name < ... >`), or `name: [v, v]`.
// Comments run from '#' to the end of the line. Every field keeps where it
// starts, so readers built on it give FILE:LINE:COL errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/support/status.h"

namespace hloscope {

struct ProtoTextField {
  std::string name;
  int line = 0, col = 0;           // of the field's name, 1-based
  size_t begin = 0, end = 0;       // byte range of the whole field in the text
  bool is_message = false;
  bool is_string = false;          // a quoted value (scalar holds it unescaped)
  std::string scalar;              // a scalar value as written (strings unescaped)
  std::vector<ProtoTextField> fields;  // a message's fields, in order

  // The first field of a message named `name`, or nullptr.
  const ProtoTextField* Find(std::string_view name) const;
};

// Parses a whole text-format message (its top-level fields). `origin` names
// the input in errors: "ORIGIN:LINE:COL: error: ...". An unterminated
// message is an error at the brace that opened it.
StatusOr<std::vector<ProtoTextField>> ParseProtoText(std::string_view text, const std::string& origin);

}  // namespace hloscope
