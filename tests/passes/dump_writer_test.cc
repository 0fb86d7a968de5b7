// --dump-dir naming (XLA's), files parse back, existing files are refused.
#include "core/passes/dump_writer.h"

#include <filesystem>
#include <fstream>
#include <sstream>

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
                       "module_0000.jit_f.0000.simplify.after_algsimp.txt",
                       "module_0000.jit_f.0001.simplify.after_dce.txt",
                       "module_0000.jit_f.after_optimizations.txt",
                       "module_0000.jit_f.before_optimizations.txt",
                   }));
  for (const std::string& n : names) {
    auto m = ParseHloFile((dir / n).string());
    EXPECT_TRUE(m.ok()) << n << ": " << m.status().message();
  }
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
