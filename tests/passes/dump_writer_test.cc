// --dump-dir naming (XLA's), files parse back, existing files are refused.
#include "core/passes/dump_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/passes/step_recorder.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("hloscope_dump_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

const char* kModule = R"hlo(
HloModule jit_f
ENTRY e {
  p = s32[4] parameter(0)
  z = s32[4] constant(0)
  a = s32[4] add(p, z)
  ROOT n = s32[4] negate(a)
}
)hlo";

Status RunWithDump(const fs::path& dir, bool force) {
  auto m = ParseOrDie(kModule);
  auto p = PassRegistry::Global().BuildPipeline("simplify");
  if (!p.ok()) return p.status();
  DumpWriter dump(DumpOptions{dir.string(), 0, force});
  (*p)->AddInstrumentation(&dump);
  auto r = (*p)->Run(*m);
  return r.ok() ? Status::Ok() : r.status();
}

TEST(DumpWriterTest, XlaNamingAndFilesParseBack) {
  fs::path dir = FreshDir("naming");
  ASSERT_TRUE(RunWithDump(dir, false).ok());
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{
                       // NNNN is the step number (1-based; 0 is the input): simplify runs call_inliner,
                       // flatten_call_graph, zero_sized_hlo_elimination, dce, then algsimp (step 5) ...
                       // cse, dce (step 11) in its fixed-point group.
                       "module_0000.jit_f.0005.simplify.after_algsimp.txt",
                       "module_0000.jit_f.0011.simplify.after_dce.txt",
                       "module_0000.jit_f.after_optimizations.txt",
                       "module_0000.jit_f.before_optimizations.txt",
                   }));
  for (const std::string& n : names) {
    auto m = ParseHloFile((dir / n).string());
    EXPECT_TRUE(m.ok()) << n << ": " << m.status().message();
  }
  fs::remove_all(dir);
}

// Each dump's NNNN is the number the step recorder (opt --json, explain,
// export-graph --step, the GUI) gives that pass run.
TEST(DumpWriterTest, FileNumbersAreStepNumbers) {
  fs::path dir = FreshDir("numbers");
  auto m = ParseOrDie(kModule);
  auto p = PassRegistry::Global().BuildPipeline("simplify");
  ASSERT_TRUE(p.ok());
  DumpWriter dump(DumpOptions{dir.string(), 0, false});
  StepRecorder recorder;
  (*p)->AddInstrumentation(&recorder);
  (*p)->AddInstrumentation(&dump);
  ASSERT_TRUE((*p)->Run(*m).ok());
  std::vector<std::string> want;
  for (size_t k = 0; k < recorder.steps().size(); ++k) {
    const Step& s = *recorder.steps()[k];
    EXPECT_EQ(s.index, static_cast<int>(k) + 1);
    if (!s.changed) continue;
    char num[8];
    std::snprintf(num, sizeof num, "%04d", s.index);
    want.push_back((dir / ("module_0000.jit_f." + std::string(num) + ".simplify.after_" + s.pass + ".txt")).string());
  }
  std::vector<std::string> got(dump.written().begin() + 1, dump.written().end() - 1);  // without before/after_optimizations
  EXPECT_EQ(got, want);
  fs::remove_all(dir);
}

TEST(DumpWriterTest, RefusesExistingFilesUnlessForced) {
  fs::path dir = FreshDir("refuse");
  ASSERT_TRUE(RunWithDump(dir, false).ok());
  Status again = RunWithDump(dir, false);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.message().find("--force"), std::string::npos);
  EXPECT_TRUE(RunWithDump(dir, true).ok());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hloscope::testing
