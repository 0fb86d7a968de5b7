// The `simplify` pipeline on every corpus module (../shared/corpus): the
// verifier holds after every step, and on the modules the interpreter can
// evaluate in reasonable time, outputs are unchanged by every pass. Counts
// are printed. Skips cleanly when the corpus is absent.
#include <fstream>
#include <iostream>

#include "tests/passes/pass_test_util.h"
#include "tests/support/corpus_index.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {
namespace {

TEST(SimplifyCorpus, VerifierHoldsAndEvaluableModulesKeepTheirMeaning) {
  auto entries = CorpusEntries();
  if (entries.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  int parse_failed = 0, invalid_input = 0, ran = 0, changed = 0, checked = 0, evaluable = 0, too_big = 0;
  int comparisons = 0;
  std::vector<std::string> failures;
  for (const CorpusEntry& e : entries) {
    auto m = ParseHloFile(SharedDir() + "/corpus/" + e.file);
    if (!m.ok()) {
      ++parse_failed;
      continue;
    }
    if (!VerifyModule(**m).ok()) {
      ++invalid_input;
      continue;
    }
    auto pipeline = PassRegistry::Global().BuildPipeline("simplify");
    ASSERT_TRUE(pipeline.ok());
    VerifierInstrumentation verifier(VerifyOptions{}, /*verify_input=*/false, /*only_changed=*/true);
    DifferentialOptions opts;
    opts.eval.max_while_iterations = 10000;
    DifferentialChecker checker(opts);
    (*pipeline)->AddInstrumentation(&verifier);
    const bool check = e.instructions <= 3000 && EvalWork(**m) <= 4e6;
    if (check) {
      (*pipeline)->AddInstrumentation(&checker);
      ++checked;
    } else {
      ++too_big;
    }
    auto r = (*pipeline)->Run(**m);
    ++ran;
    if (!r.ok()) {
      failures.push_back(e.file + ": " + r.status().message());
      continue;
    }
    changed += *r;
    if (check && checker.evaluable()) {
      ++evaluable;
      comparisons += checker.comparisons();
    }
  }
  std::cout << "[ corpus   ] " << entries.size() << " modules: " << parse_failed << " do not parse, "
            << invalid_input << " fail the verifier as input, " << ran << " ran `simplify` with the verifier ("
            << changed << " changed); differential check on " << checked << " (" << too_big
            << " too big to interpret quickly): " << evaluable << " evaluable, " << comparisons
            << " before/after comparisons, " << failures.size() << " failures\n";
  for (const std::string& f : failures) ADD_FAILURE() << f;
}

}  // namespace
}  // namespace hloscope::testing
