#include "core/layout/palette.h"

namespace hloscope::layout {

CategoryStyle StyleOf(OpCategory c) {
  switch (c) {
    case OpCategory::kElementwise: return {"#e3f2fd", "#1e88e5", "#0d2a4a"};
    case OpCategory::kDataMovement: return {"#e8f5e9", "#43a047", "#123d16"};
    case OpCategory::kReduction: return {"#fff3e0", "#fb8c00", "#4a2a00"};
    case OpCategory::kDotConv: return {"#ffebee", "#e53935", "#4a0f0f"};
    case OpCategory::kParameterConstant: return {"#f5f5f5", "#757575", "#212121"};
    case OpCategory::kControlFlow: return {"#fffde7", "#c0a000", "#3d3300"};
    case OpCategory::kCollective: return {"#e0f7fa", "#00acc1", "#00363d"};
    case OpCategory::kFusion: return {"#f3e5f5", "#8e24aa", "#2e0a3a"};
    case OpCategory::kCustomCall: return {"#efebe9", "#6d4c41", "#2b1d18"};
    case OpCategory::kOther: break;
  }
  return {"#ffffff", "#9e9e9e", "#212121"};
}

std::string_view BufferKindColor(std::string_view kind) {
  if (kind == "parameter") return "#78909c";
  if (kind == "constant") return "#a1887f";
  if (kind == "output") return "#66bb6a";
  return "#42a5f5";  // temp
}

}  // namespace hloscope::layout
