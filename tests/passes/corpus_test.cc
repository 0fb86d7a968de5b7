// The `simplify` pipeline on every corpus module (../shared/corpus): the
// verifier holds after every step, and on the modules the interpreter can
// evaluate in reasonable time, outputs are unchanged by every pass. Counts
// are printed. Skips cleanly when the corpus is absent.
#include <fstream>
#include <iostream>

#include "tests/passes/pass_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {
namespace {

struct Entry {
  std::string file;
  int64_t instructions = 0;
};

std::vector<Entry> CorpusEntries() {
  std::vector<Entry> out;
  std::string shared = SharedDir();
  if (shared.empty()) return out;
  std::ifstream index(shared + "/corpus/INDEX.tsv");
  std::string line;
  std::getline(index, line);  // header
  while (std::getline(index, line)) {
    std::vector<std::string> cols;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      cols.push_back(line.substr(start, tab - start));
    cols.push_back(line.substr(start));
    if (cols.size() >= 3) out.push_back({cols[0], std::atoll(cols[2].c_str())});
  }
  return out;
}

// A rough count of the element operations one evaluation of `m` does
// (loop bodies counted 100 times), to keep the differential part fast.
double EvalWork(const Module& m) {
  double total = 0;
  for (const auto& c : m.computations()) {
    double factor = 1;
    for (const auto& other : m.computations())
      for (const auto& i : other->instructions())
        if (i->opcode() == Opcode::kWhile)
          for (Computation* callee : i->called_computations())
            if (callee == c.get()) factor = 100;
    for (const auto& i : c->instructions()) {
      const Shape& s = i->shape();
      double n = s.IsArray() && !s.IsDynamic() ? static_cast<double>(s.num_elements()) : 1;
      if (i->opcode() == Opcode::kDot || i->opcode() == Opcode::kConvolution)
        n *= i->operand_count() > 1 && i->operand(1)->shape().IsArray() ? i->operand(1)->shape().num_elements() : 1;
      if (i->opcode() == Opcode::kSort) n *= 64;
      total += n * factor;
    }
  }
  return total;
}

TEST(SimplifyCorpus, VerifierHoldsAndEvaluableModulesKeepTheirMeaning) {
  auto entries = CorpusEntries();
  if (entries.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  int parse_failed = 0, invalid_input = 0, ran = 0, changed = 0, checked = 0, evaluable = 0, too_big = 0;
  int comparisons = 0;
  std::vector<std::string> failures;
  for (const Entry& e : entries) {
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
