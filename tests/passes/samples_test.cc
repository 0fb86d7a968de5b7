// The `simplify` pipeline on every sample: the verifier holds after every
// step and the interpreter gives the same outputs (3 random input sets)
// before and after every pass that changed something.
#include <filesystem>

#include "tests/passes/pass_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {
namespace {

std::vector<std::string> SampleFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(SamplesDir()))
    if (e.path().extension() == ".hlo") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SimplifySamples, VerifiedAndDifferentiallyCheckedAtEveryStep) {
  auto files = SampleFiles();
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto m = ParseHloFile(path);
    ASSERT_TRUE(m.ok()) << m.status().message();
    auto pipeline = PassRegistry::Global().BuildPipeline("simplify");
    ASSERT_TRUE(pipeline.ok());
    VerifierInstrumentation verifier;
    DifferentialOptions opts;
    opts.seeds = 3;
    DifferentialChecker checker(opts);
    StepRecorder recorder;
    (*pipeline)->AddInstrumentation(&recorder);
    (*pipeline)->AddInstrumentation(&verifier);
    (*pipeline)->AddInstrumentation(&checker);
    auto changed = (*pipeline)->Run(**m);
    ASSERT_TRUE(changed.ok()) << changed.status().message();
    EXPECT_TRUE(checker.evaluable()) << checker.not_evaluable_reason();
    // JAX's unoptimized modules always simplify; XLA's optimized ones have
    // their work inside fusions, which these passes leave alone.
    if (path.find("xla_cpu_optimized") == std::string::npos) {
      EXPECT_TRUE(*changed);
      EXPECT_GT(checker.comparisons(), 0);
      EXPECT_LT((*m)->instruction_count(), recorder.initial()->instruction_count());
    }
    // The final module prints and parses back to the same text.
    std::string text = PrintModule(**m);
    auto again = ParseHloModule(text, path);
    ASSERT_TRUE(again.ok()) << again.status().message();
    EXPECT_EQ(PrintModule(**again), text);
  }
}

}  // namespace
}  // namespace hloscope::testing
