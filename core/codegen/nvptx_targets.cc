#include "core/codegen/nvptx_targets.h"

namespace hloscope::codegen {

const std::vector<NvptxTarget>& NvptxTargets() {
  // PTX ISA versions: the lowest each architecture needs that LLVM 19 supports
  // (PTX 6.3 introduced sm_75, 7.0 sm_80, 7.1 sm_86, 7.4 sm_87/sm_89,
  // 7.8 sm_90/sm_90a).
  static const std::vector<NvptxTarget> targets = {
      {"sm_75", 75, "+ptx63", "Turing (T4, RTX 20xx)"},
      {"sm_80", 80, "+ptx70", "Ampere (A100)"},
      {"sm_86", 86, "+ptx71", "Ampere (RTX 30xx, A40)"},
      {"sm_87", 87, "+ptx74", "Ampere (Jetson Orin)"},
      {"sm_89", 89, "+ptx78", "Ada (RTX 40xx, L4)"},
      {"sm_90", 90, "+ptx78", "Hopper (H100, H200)"},
      {"sm_90a", 90, "+ptx80", "Hopper, arch-specific features (wgmma)"},
  };
  return targets;
}

std::optional<NvptxTarget> FindNvptxTarget(std::string_view name) {
  std::string n(name);
  if (n.rfind("sm_", 0) != 0) n = "sm_" + n;
  for (const NvptxTarget& t : NvptxTargets()) {
    if (t.sm == n) return t;
  }
  return std::nullopt;
}

std::string NvptxTargetList() {
  std::string out;
  for (const NvptxTarget& t : NvptxTargets()) {
    if (!out.empty()) out += ", ";
    out += t.sm;
  }
  return out;
}

}  // namespace hloscope::codegen
