// What-if fusion flags (issue 30): `--force P:C` / `--forbid P:C`, any number
// of each, for whatif, opt and check (core/fusion/fusion_overrides.h).
#pragma once

#include <string>
#include <vector>

#include "core/fusion/fusion_overrides.h"

namespace hloscope::cli {

// Takes every `FLAG P:C` and `FLAG=P:C` of `force_flags` / `forbid_flags` out
// of *argv (the rest goes on to Args::Parse) into *out. False with *error
// naming the flag and its value when a value is missing or not P:C.
bool TakeOverrideFlags(std::vector<std::string>* argv, const std::vector<std::string>& force_flags,
                       const std::vector<std::string>& forbid_flags, FusionOverrides* out, std::string* error);

// "--force a:b --forbid c:d" (for messages).
std::string DescribeOverrides(const FusionOverrides& o);

}  // namespace hloscope::cli
