// manifest.json: a ThunkPlan as JSON (docs/bundle-format.md describes every
// field). Versioned ("format": "hloscope-bundle", "version": kManifestVersion);
// reading checks the whole plan (allocation indices, slices in bounds, argument
// lists) and refuses a bad manifest with an error located by its JSON path,
// e.g. "b/manifest.json: /thunks/3/args/1: slice [0, 64) is outside allocation 2 (48 bytes)".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::runtime {

// The plan as manifest JSON. Kernel thunks name their files "<name>.ll" and
// "<name>.ptx"; constant allocations name "constants/alloc<N>.bin" (their
// bytes are not in the JSON: WriteBundle writes them).
nlohmann::ordered_json ManifestToJson(const ThunkPlan& plan);
std::string ManifestToString(const ThunkPlan& plan);

// Parses manifest text. `where` prefixes error messages (the file name).
// Constant allocations come back with `init` empty; ReadBundle fills it.
StatusOr<ThunkPlan> ManifestFromString(const std::string& text, const std::string& where);

// Checks a plan's internal consistency (what ManifestFromString checks after
// parsing): allocation indices, slices inside their allocations, one
// arg_written flag per argument, launch dimensions ≥ 1 and within CUDA's
// limits, kernel names unique C identifiers, parameters/outputs present.
Status ValidatePlan(const ThunkPlan& plan, const std::string& where);

}  // namespace hloscope::runtime
