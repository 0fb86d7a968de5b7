// The colours of the op categories: one palette for the GUI's graph, the
// legend, and every exported picture (SVG/PNG/DOT), so that they look alike.
#pragma once

#include <string_view>

#include "core/ir/opcode.h"

namespace hloscope::layout {

struct CategoryStyle {
  std::string_view fill;    // "#rrggbb"
  std::string_view border;  // "#rrggbb"
  std::string_view text;    // "#rrggbb"
};

CategoryStyle StyleOf(OpCategory c);

// Colours for highlighting a step's changes and buffer kinds.
inline constexpr std::string_view kAddedColor = "#2e7d32";
inline constexpr std::string_view kRemovedColor = "#9e9e9e";
inline constexpr std::string_view kFoldedColor = "#6a1b9a";
inline constexpr std::string_view kRewrittenColor = "#ef6c00";
inline constexpr std::string_view kSelectedColor = "#1565c0";
inline constexpr std::string_view kFusionClusterFill = "#f3e5f5";
inline constexpr std::string_view kFusionClusterBorder = "#8e24aa";
// Marks from the kernel plan (after Step → Generate kernels): an instruction
// whose kernel no emitter implements (red dashed outline and a "!" badge) and
// a custom-call into an external target (deep pink dash-dot outline and an
// "ext" badge); the kernel tab colours their rows alike.
inline constexpr std::string_view kMissingKernelColor = "#c62828";
inline constexpr std::string_view kExternalCallColor = "#ad1457";

// Buffer kinds in the timeline (index = BufferKind's value order:
// parameter, constant, temp, output).
std::string_view BufferKindColor(std::string_view kind_name);

}  // namespace hloscope::layout
