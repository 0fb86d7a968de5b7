// Codegen coverage of the corpus (issue 23, item 1 and acceptance 1): every
// module of ../shared/corpus that the verifier accepts goes through `gpu`
// and `gpu-classic` and then the kernel plan and the emitters. No kernel may
// be missing except in the modules docs/codegen.md lists under "Refused on
// purpose", each with its reason; a listed module that now generates every
// kernel fails too, so that the list stays true. Eight shards, so that ctest
// runs them side by side; skips cleanly without the corpus.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/parser/parser.h"
#include "core/verify/verifier.h"
#include "tests/support/corpus_index.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

constexpr int kShards = 8;

// The table rows "| `path` | reason |" of docs/codegen.md's "Refused on
// purpose" section.
std::map<std::string, std::string> RefusedOnPurpose() {
  std::map<std::string, std::string> out;
  std::ifstream doc(std::string(HLOSCOPE_SOURCE_DIR) + "/docs/codegen.md");
  std::string line;
  bool in_section = false;
  while (std::getline(doc, line)) {
    if (line.rfind("#", 0) == 0) in_section = line.find("Refused on purpose") != std::string::npos;
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end == std::string::npos) continue;
    const size_t bar = line.find('|', end);
    out[line.substr(3, end - 3)] = bar == std::string::npos ? "" : line.substr(bar + 1);
  }
  return out;
}

class CorpusCodegen : public ::testing::TestWithParam<int> {};

TEST_P(CorpusCodegen, EveryKernelIsGeneratedOrRefusedOnPurpose) {
  const std::vector<hloscope::testing::CorpusEntry> files = hloscope::testing::CorpusEntries();
  if (files.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  const std::map<std::string, std::string> listed = RefusedOnPurpose();
  ASSERT_FALSE(listed.empty()) << "docs/codegen.md has no \"Refused on purpose\" table";
  int complete = 0, refused = 0, rejected = 0, custom_calls = 0;
  for (size_t n = static_cast<size_t>(GetParam()); n < files.size(); n += kShards) {
    const std::string& file = files[n].file;
    auto text = ReadFileToString(hloscope::testing::SharedDir() + "/corpus/" + file);
    if (!text.ok()) continue;
    auto m = ParseHloModule(*text, file);
    if (!m.ok() || !VerifyModule(**m).ok()) {
      ++rejected;
      continue;
    }
    std::set<std::string> missing;
    for (const char* pipeline : {"gpu", "gpu-classic"}) {
      CodegenOptions opts;
      opts.emit_ptx = false;
      auto compiled = CompileText(*text, file, pipeline, opts);
      if (!compiled.ok()) {
        ADD_FAILURE() << file << " (" << pipeline << "): " << compiled.status().message();
        missing.insert("(plan)");
        continue;
      }
      for (const runtime::KernelThunk* k : runtime::MissingKernels(compiled->codegen.plan))
        missing.insert(std::string(pipeline) + ": " + k->instruction + ": " + k->missing);
      if (std::string(pipeline) == "gpu")
        custom_calls += static_cast<int>(runtime::AllCustomCalls(compiled->codegen.plan).size());
    }
    const bool on_list = listed.count(file) > 0;
    if (missing.empty()) {
      ++complete;
      EXPECT_FALSE(on_list)
          << file << " generates every kernel now: take it off docs/codegen.md's \"Refused on purpose\"";
    } else {
      ++refused;
      if (!on_list) {
        std::string all;
        for (const std::string& s : missing) all += "\n  " + s;
        ADD_FAILURE() << file
                      << ": kernels missing, and docs/codegen.md does not list it as refused on purpose:"
                      << all;
      }
    }
  }
  std::cout << "[ corpus   ] shard " << GetParam() << ": " << complete << " complete, " << refused
            << " refused on purpose, " << rejected << " rejected by the parser or verifier, " << custom_calls
            << " external custom-call thunks\n";
}

INSTANTIATE_TEST_SUITE_P(Shards, CorpusCodegen, ::testing::Range(0, kShards));

}  // namespace
}  // namespace hloscope::codegen
