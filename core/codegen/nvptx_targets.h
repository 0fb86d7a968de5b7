// The GPU targets codegen can emit for: one table, sm_75 … sm_90a, with the
// PTX ISA version LLVM 19's NVPTX backend writes for each.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hloscope::codegen {

struct NvptxTarget {
  std::string_view sm;        // "sm_90a" (the -arch for ptxas, the LLVM CPU name)
  int compute_capability;     // 90
  std::string_view features;  // LLVM target features, e.g. "+ptx78"
  std::string_view gpu;       // a GPU of this generation, for the reader
};

const std::vector<NvptxTarget>& NvptxTargets();
// Accepts "90", "sm_90", "sm_90a", "90a".
std::optional<NvptxTarget> FindNvptxTarget(std::string_view name);
// "sm_75, sm_80, ..." for error messages and --help.
std::string NvptxTargetList();

}  // namespace hloscope::codegen
