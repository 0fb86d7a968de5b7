// Paths for tests: the source tree, the shared corpus (may be absent).
#pragma once

#include <filesystem>
#include <string>

namespace hloscope::testing {

inline std::string SourceDir() { return HLOSCOPE_SOURCE_DIR; }
inline std::string SamplesDir() { return SourceDir() + "/samples"; }
// "" when ../shared is absent (tests then GTEST_SKIP()).
inline std::string SharedDir() {
  std::string d = HLOSCOPE_SHARED_DIR;
  return std::filesystem::exists(d + "/corpus/INDEX.tsv") ? d : "";
}

}  // namespace hloscope::testing
