// Paths for tests: the source tree, the shared corpus (may be absent).
#pragma once

#include <algorithm>
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

// Real-size samples (samples/STEM_large.*: GPT-2 small, ImageNet ResNet
// sizes; see samples/README.md) have no recorded values (no STEM.data.json)
// and must never go through the reference interpreter: their arrays are
// hundreds of MiB. `path` is a file name or path (any extension) or a stem.
inline bool IsRealSizeSample(const std::string& path) {
  std::string stem = std::filesystem::path(path).filename().string();
  stem = stem.substr(0, stem.find('.'));
  return stem.size() > 6 && stem.ends_with("_large");
}

// The stems of samples/*.hlo (XLA CPU's *.xla_cpu_optimized.hlo left out), sorted.
inline std::vector<std::string> SampleStems() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(SamplesDir())) {
    std::string n = e.path().filename().string();
    if (n.ends_with(".hlo") && n.find(".xla_cpu_optimized") == std::string::npos) out.push_back(n.substr(0, n.size() - 4));
  }
  std::sort(out.begin(), out.end());
  return out;
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
