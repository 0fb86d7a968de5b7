// Paths for tests: the source tree, the shared corpus (may be absent).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace hloscope::testing {

inline std::string SourceDir() { return HLOSCOPE_SOURCE_DIR; }
inline std::string SamplesDir() { return SourceDir() + "/samples"; }
// "" when ../shared is absent (tests then GTEST_SKIP()).
inline std::string SharedDir() {
  std::string d = HLOSCOPE_SHARED_DIR;
  return std::filesystem::exists(d + "/corpus/INDEX.tsv") ? d : "";
}

// Every .hlo file of samples/, then of ../shared/corpus when present.
inline std::vector<std::string> SampleAndCorpusHloFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(SamplesDir()))
    if (e.path().extension() == ".hlo") files.push_back(e.path().string());
  if (!SharedDir().empty())
    for (const auto& e : std::filesystem::recursive_directory_iterator(SharedDir() + "/corpus"))
      if (e.path().extension() == ".hlo") files.push_back(e.path().string());
  return files;
}

}  // namespace hloscope::testing
