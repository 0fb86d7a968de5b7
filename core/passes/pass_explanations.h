// The teaching text of every registered pass, in one place: a paragraph on
// what the pass does (in this implementation, not only in XLA), why
// compilers do it, and what to look for in the graph after it. The pass's
// own one-line description() stays the short form; `hloscope-cli
// list-passes --long`, the GUI's pipeline panel and the HTML report read
// the paragraph from here.
#pragma once

#include <string_view>
#include <vector>

namespace hloscope {

// The paragraph for a registered pass name; "" for a name without one.
std::string_view PassExplanation(std::string_view pass);

// Every pass name that has a paragraph, in table order (tests compare it
// with the registry, so a new pass without a paragraph fails them).
std::vector<std::string_view> ExplainedPasses();

// Passes that decide which instructions share a kernel; their paragraphs
// use the warehouse picture (an unfused result goes to HBM and back, a
// fused one is handed over in registers).
bool IsFusionPass(std::string_view pass);

}  // namespace hloscope
