// Every sample module (unoptimized and XLA:CPU-optimized) evaluated on its
// recorded inputs must match JAX's recorded outputs within the default
// tolerances of docs/eval-tolerances.md. The real-size samples (STEM_large)
// have no recorded values and are not evaluated.
#include <filesystem>

#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "tests/eval/eval_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {
namespace {

std::vector<std::string> SampleModules() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(SamplesDir())) {
    std::string p = e.path().string();
    if (p.size() > 4 && p.substr(p.size() - 4) == ".hlo" && !IsRealSizeSample(p)) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string DataFor(const std::string& hlo) {
  std::string stem = hlo.substr(0, hlo.size() - 4);
  const std::string opt = ".xla_cpu_optimized";
  if (stem.size() > opt.size() && stem.substr(stem.size() - opt.size()) == opt) stem.resize(stem.size() - opt.size());
  return stem + ".data.json";
}

TEST(EvalSamples, EverySampleMatchesJax) {
  auto modules = SampleModules();
  ASSERT_GE(modules.size(), 10u);
  for (const std::string& path : modules) {
    SCOPED_TRACE(path);
    auto m = ParseHloFile(path);
    ASSERT_TRUE(m.ok()) << m.status().message();
    auto data = ReadDataFile(DataFor(path));
    ASSERT_TRUE(data.ok()) << data.status().message();
    auto r = EvaluateModule(**m, data->inputs);
    ASSERT_TRUE(r.ok()) << r.status().message();
    std::vector<Literal> outs = FlattenTuple(*r);
    ASSERT_EQ(outs.size(), data->outputs.size());
    for (size_t i = 0; i < outs.size(); ++i) {
      std::string diff = CompareLiterals(data->outputs[i], outs[i]);
      EXPECT_EQ(diff, "") << "output " << i;
    }
  }
}

}  // namespace
}  // namespace hloscope::testing
