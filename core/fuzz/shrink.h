// Test-case reduction for HLO modules (C-Reduce's idea on the IR): try one
// small edit at a time on the module text and keep it when the failure
// persists. Edits, each kept only if the module still verifies:
//   - drop the input_output_alias header;
//   - drop one element of a tuple root;
//   - replace an instruction by one of its operands of the same shape;
//   - replace an instruction by a new entry parameter of its shape;
//   - a get-tuple-element of a tuple by the element; an earlier
//     instruction of the root's shape as the root;
//   - (after each) remove dead instructions, unused parameters and
//     computations nothing calls.
// Works on any module text (generated or not).
#pragma once

#include <functional>
#include <string>

namespace hloscope::fuzz {

// `still_fails(text)`: true when `text` shows the failure being reduced.
// Returns the smallest text found (the input when no edit kept failing).
std::string ShrinkModuleText(const std::string& text, const std::function<bool(const std::string&)>& still_fails,
                             int max_tries = 300);

}  // namespace hloscope::fuzz
