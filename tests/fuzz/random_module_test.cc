// The random module generator, the differential driver and the shrinker
// (core/fuzz): every generated module verifies and round-trips, the
// generator covers what issue 26 lists, the driver checks clean modules
// clean, and the shrinker keeps a failure while deleting the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/fuzz/diff_driver.h"
#include "core/fuzz/random_module.h"
#include "core/fuzz/shrink.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope::fuzz {
namespace {

TEST(RandomModule, SameSeedSameText) {
  EXPECT_EQ(GenerateModuleText(42), GenerateModuleText(42));
  EXPECT_NE(GenerateModuleText(42), GenerateModuleText(43));
}

// A seed names one module whatever compiled the generator: CI's sanitizer
// build (clang) printed a seed whose module the release build (gcc) did not
// make, because one call took two random draws as arguments, whose order C++
// leaves to the compiler. Both builds run this test against the committed
// digests; a deliberate change to the generator rewrites them with
// HLOSCOPE_REGEN_GOLDEN=1 (and changes what documented seeds print).
TEST(RandomModule, SameModuleWhateverTheCompiler) {
  const std::string path = std::string(HLOSCOPE_SOURCE_DIR) + "/tests/fuzz/generator_digests.txt";
  constexpr uint64_t kSeeds = 2000;
  auto digest = [](const std::string& text) {  // FNV-1a, 64 bits
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
  };
  std::ostringstream got;
  got << "# seed FNV-1a-64 of GenerateModuleText(seed) (tests/fuzz/random_module_test.cc)\n";
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    char line[64];
    std::snprintf(line, sizeof line, "%llu %016llx\n", static_cast<unsigned long long>(seed),
                  static_cast<unsigned long long>(digest(GenerateModuleText(seed))));
    got << line;
  }
  // And 200 with the larger caps of the large-tile campaigns ("L" lines).
  GenOptions large;
  large.max_dim = 256;
  large.max_elements = 65536;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    char line[64];
    std::snprintf(line, sizeof line, "L%llu %016llx\n", static_cast<unsigned long long>(seed),
                  static_cast<unsigned long long>(digest(GenerateModuleText(seed, large))));
    got << line;
  }
  if (const char* regen = std::getenv("HLOSCOPE_REGEN_GOLDEN"); regen && std::string(regen) == "1") {
    std::ofstream(path, std::ios::binary) << got.str();
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " is missing; run with HLOSCOPE_REGEN_GOLDEN=1";
  std::stringstream want;
  want << in.rdbuf();
  std::istringstream a(want.str()), b(got.str());
  std::string wl, gl;
  while (std::getline(a, wl) && std::getline(b, gl))
    ASSERT_EQ(wl, gl) << "the generator made another module for this seed; if the change is deliberate, "
                         "regenerate with HLOSCOPE_REGEN_GOLDEN=1, otherwise look for a call whose arguments "
                         "both draw random numbers";
  EXPECT_EQ(want.str().size(), got.str().size());
}

TEST(RandomModule, EveryModuleVerifiesAndRoundTrips) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const std::string text = GenerateModuleText(seed);
    auto m = ParseHloModule(text, "<generated>");
    ASSERT_TRUE(m.ok()) << "seed " << seed << ": " << m.status().message() << "\n" << text;
    ASSERT_TRUE(VerifyModule(**m).ok()) << "seed " << seed << ": " << VerifyModule(**m).message() << "\n" << text;
    const std::string printed = PrintModule(**m);
    auto again = ParseHloModule(printed, "<printed>");
    ASSERT_TRUE(again.ok()) << "seed " << seed << ": " << again.status().message();
    EXPECT_EQ(PrintModule(**again), printed) << "seed " << seed;
    int64_t n = (*m)->entry()->instruction_count();
    EXPECT_GE(n, 2) << "seed " << seed;
    // max_ops aims at 24; an op's exact-to-sum operands (batch norm's,
    // ~15 instructions each, two for batch-norm-grad) can take one past 80.
    EXPECT_LE(n, 100) << "seed " << seed;
  }
}

// Over a few hundred seeds every op, type and shape edge of the issue shows up.
TEST(RandomModule, CoversTheListedOpsTypesAndEdges) {
  std::set<std::string> seen;
  const std::regex shape(R"((f32|bf16|f16|s32|pred)\[([0-9,]*)\](\{[0-9,]*\})?)");
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    const std::string text = GenerateModuleText(seed);
    for (const char* op : {" add(", " multiply(", " broadcast(", " reduce(", " transpose(", " reshape(", " bitcast(",
                           " slice(", " concatenate(", " pad(", " dynamic-slice(", " dynamic-update-slice(",
                           " gather(", " scatter(", " dot(", " convolution(", " while(", " conditional(",
                           " select(", " compare(", " convert(", "input_output_alias", "lhs_batch_dims",
                           "lhs_contracting_dims={0}", "ROOT %tuple", "ROOT tuple", "argmax", "pair"})
      if (text.find(op) != std::string::npos) seen.insert(op);
    for (std::sregex_iterator it(text.begin(), text.end(), shape), end; it != end; ++it) {
      seen.insert((*it)[1].str());
      const std::string dims = "," + (*it)[2].str() + ",";
      if (dims.find(",0,") != std::string::npos) seen.insert("empty");
      if (dims.find(",1,") != std::string::npos) seen.insert("size 1");
      if (dims.find(",33,") != std::string::npos || dims.find(",17,") != std::string::npos) seen.insert("odd");
      const std::string l = (*it)[3].str();
      if (l == "{0,1}" || l == "{0,1,2}" || l == "{1,0,2}" || l == "{0,2,1}") seen.insert("layout");
    }
    // Row, column and full reductions.
    if (text.find("reduce(") != std::string::npos) {
      if (text.find("dimensions={0}, to_apply") != std::string::npos) seen.insert("column");
      if (std::regex_search(text, std::regex(R"(dimensions=\{0,1\}, to_apply)"))) seen.insert("full");
      if (std::regex_search(text, std::regex(R"(dimensions=\{[12]\}, to_apply)"))) seen.insert("row");
    }
  }
  for (const char* want : {" add(", " broadcast(", " reduce(", " transpose(", " reshape(", " bitcast(", " slice(",
                           " concatenate(", " pad(", " dynamic-slice(", " dynamic-update-slice(", " gather(",
                           " scatter(", " dot(", " convolution(", " while(", " conditional(", " select(",
                           "input_output_alias", "lhs_batch_dims", "lhs_contracting_dims={0}", "argmax", "pair",
                           "f32", "bf16", "f16", "s32", "pred", "empty", "size 1", "odd", "layout", "row", "column",
                           "full"})
    EXPECT_TRUE(seen.count(want)) << "never generated: " << want;
  EXPECT_TRUE(seen.count("ROOT tuple") || seen.count("ROOT %tuple"));
}

TEST(RandomModule, MaxDimCapsEveryDimension) {
  GenOptions g;
  g.max_dim = 2;
  const std::regex shape(R"(\[([0-9,]+)\])");
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const std::string text = GenerateModuleText(seed, g);
    ASSERT_TRUE(ParseHloModule(text).ok()) << text;
    // Dimensions come from the cap, or from ops that grow them (concatenate, pad, broadcast of a product).
    for (std::sregex_iterator it(text.begin(), text.end(), shape), end; it != end; ++it)
      for (const std::string& d : {(*it)[1].str()}) EXPECT_LT(d.size(), 12u) << text;
  }
}

// A larger cap (`--max-dim 256 --max-elements 65536`, for campaigns that
// reach the large GEMM tiles) makes dimensions past the default list's 65,
// and every module still verifies and keeps its arrays under the cap.
TEST(RandomModule, LargerCapsMakeLargerDimensions) {
  GenOptions g;
  g.max_dim = 256;
  g.max_elements = 65536;
  const std::regex shape(R"((?:pred|s32|f32|bf16|f16)\[([0-9,]*)\])");
  int64_t largest = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const std::string text = GenerateModuleText(seed, g);
    auto m = ParseHloModule(text);
    ASSERT_TRUE(m.ok()) << m.status().message();
    ASSERT_TRUE(VerifyModule(**m).ok()) << text;
    for (std::sregex_iterator it(text.begin(), text.end(), shape), end; it != end; ++it) {
      int64_t elements = 1;
      std::stringstream dims((*it)[1].str());
      for (std::string d; std::getline(dims, d, ',');)
        if (!d.empty()) {
          elements *= std::stoll(d);
          largest = std::max<int64_t>(largest, std::stoll(d));
        }
      // Collectives on several devices widen by the device count; stay well under.
      EXPECT_LE(elements, 8 * g.max_elements) << (*it)[0].str();
    }
  }
  EXPECT_GT(largest, 65);
}

TEST(DiffDriver, CleanModulesCheckClean) {
  CheckOptions opts;
  int64_t passes = 0, kernels = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    CheckResult r = CheckModuleText(GenerateModuleText(seed), opts);
    EXPECT_FALSE(r.finding) << "seed " << seed << ": " << r.finding->kind << " " << r.finding->stage << ": "
                            << r.finding->message;
    passes += r.passes;
    kernels += r.kernels;
  }
  EXPECT_GT(passes, 12 * 20);  // three pipelines each
  EXPECT_GT(kernels, 0);
}

TEST(DiffDriver, ForkedChildGivesTheSameResult) {
  const std::string text = GenerateModuleText(7);
  CheckResult a = CheckModuleText(text), b = CheckIsolated(text);
  EXPECT_EQ(a.passes, b.passes);
  EXPECT_EQ(a.kernels, b.kernels);
  EXPECT_EQ(a.finding.has_value(), b.finding.has_value());
}

TEST(DiffDriver, BrokenModulesAreFindingsNotCrashes) {
  CheckResult r = CheckModuleText("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n  q = f32[3] add(p, p)\n}\n");
  ASSERT_TRUE(r.finding);
  EXPECT_EQ(r.finding->kind, "verify");
  r = CheckModuleText("HloModule m\nENTRY e {\n  ROOT p = f32[2 parameter(0)\n}\n");
  ASSERT_TRUE(r.finding);
  EXPECT_EQ(r.finding->kind, "parse");
}

TEST(DiffDriver, DocumentedRefusalsAreNotFindings) {
  EXPECT_TRUE(IsDocumentedRefusal("t.hlo:3:5: error: cannot evaluate custom-call 'foo'"));
  EXPECT_TRUE(IsDocumentedRefusal("fft.1: fft of c128 is not supported by the kernel emitters"));
  EXPECT_FALSE(IsDocumentedRefusal("scatter.2: an in-place scatter whose updates or indices read the operand"));
  EXPECT_FALSE(IsDocumentedRefusal("output 0 element [1]: expected 1, got 2"));
}

TEST(DiffDriver, SummaryLine) {
  DriverOptions o;
  o.seed = 11;
  o.count = 6;
  o.isolate = false;
  std::vector<std::string> lines;
  o.print = [&](const std::string& l) { lines.push_back(l); };
  DriverStats st = RunDriver(o);
  EXPECT_EQ(st.modules, 6);
  EXPECT_EQ(st.findings, 0) << (lines.empty() ? "" : lines[0]);
  EXPECT_TRUE(std::regex_match(st.Summary(), std::regex(R"(modules=6 passes=[1-9][0-9]* kernels=[0-9]+ findings=0)")))
      << st.Summary();
}

// A made-up failure ("the module has a dot") shrinks to the dot alone.
TEST(Shrink, KeepsTheFailureDeletesTheRest) {
  std::string text;
  uint64_t seed = 1;
  for (; seed < 500; ++seed) {
    text = GenerateModuleText(seed);
    if (text.find(" dot(") != std::string::npos && text.find(" while(") != std::string::npos) break;
  }
  auto has_dot = [](const std::string& t) { return t.find(" dot(") != std::string::npos; };
  const std::string small = ShrinkModuleText(text, has_dot);
  ASSERT_TRUE(has_dot(small));
  auto before = ParseHloModule(text), after = ParseHloModule(small);
  ASSERT_TRUE(after.ok()) << small;
  EXPECT_TRUE(VerifyModule(**after).ok()) << small;
  EXPECT_LE((*after)->entry()->instruction_count(), 4) << small;
  EXPECT_LT((*after)->instruction_count(), (*before)->instruction_count());
  EXPECT_EQ(small.find(" while("), std::string::npos) << small;
}

TEST(Shrink, NothingToDoKeepsTheText) {
  const std::string text = GenerateModuleText(3);
  EXPECT_EQ(ShrinkModuleText(text, [](const std::string&) { return false; }), text);
}

}  // namespace
}  // namespace hloscope::fuzz
