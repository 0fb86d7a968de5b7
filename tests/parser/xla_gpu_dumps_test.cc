// XLA GPU's own output for every sample (samples/xla_gpu/, made by
// tools/xla_gpu_reference.py with JAX 0.12 for H100): after_optimizations
// and every per-pass dump (passes.tar.xz) parse, verify and round-trip
// (print → parse → print is a fixed point), `%x#N` operands included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Samples() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(testing::SamplesDir())) {
    const std::string n = e.path().filename().string();
    if (n.ends_with(".hlo") && n.find(".xla_cpu_optimized") == std::string::npos) out.push_back(n.substr(0, n.size() - 4));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "" when `path` parses, verifies and round-trips; else what failed.
std::string Check(const std::string& path, int* implicit_uses) {
  auto m = ParseHloFile(path);
  if (!m.ok()) return m.status().message();
  if (Status v = VerifyModule(**m); !v.ok()) return v.message();
  for (const auto& c : (*m)->computations())
    for (const auto& i : c->instructions())
      if (i->implicit_tuple_element()) *implicit_uses += i->user_count();
  const std::string once = PrintModule(**m);
  auto again = ParseHloModule(once, path + " (printed)");
  if (!again.ok()) return "reparse: " + again.status().message();
  if (PrintModule(**again) != once) return path + ": print(parse(print(x))) differs from print(x)";
  return "";
}

class XlaGpuDumps : public ::testing::TestWithParam<std::string> {};

TEST_P(XlaGpuDumps, AfterOptimizationsParsesVerifiesAndRoundTrips) {
  const std::string dir = testing::SamplesDir() + "/xla_gpu/" + GetParam();
  ASSERT_TRUE(fs::exists(dir + "/after_optimizations.txt")) << "every sample has an XLA GPU reference: " << dir;
  int uses = 0;
  EXPECT_EQ(Check(dir + "/after_optimizations.txt", &uses), "");
  // The printed form keeps XLA's `%x#N` where XLA wrote it.
  std::ifstream in(dir + "/after_optimizations.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  const bool written = ss.str().find("#0") != std::string::npos || ss.str().find("#1") != std::string::npos;
  if (written) EXPECT_GT(uses, 0);
}

TEST_P(XlaGpuDumps, EveryPerPassDumpParsesVerifiesAndRoundTrips) {
  const std::string archive = testing::SamplesDir() + "/xla_gpu/" + GetParam() + "/passes.tar.xz";
  ASSERT_TRUE(fs::exists(archive)) << archive;
  if (std::system("command -v tar >/dev/null 2>&1 && command -v xz >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "tar with xz is needed to read " << archive;
  const fs::path tmp = fs::temp_directory_path() / ("hloscope_xla_gpu_" + GetParam() + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const std::string cmd = "tar -xJf '" + archive + "' -C '" + tmp.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(tmp))
    if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  EXPECT_GT(files.size(), 10u);
  int uses = 0, failed = 0;
  for (const std::string& f : files) {
    std::string why = Check(f, &uses);
    if (!why.empty() && ++failed <= 5) ADD_FAILURE() << why;
  }
  EXPECT_EQ(failed, 0) << failed << " of " << files.size() << " dumps fail";
  std::printf("%s: %zu per-pass dumps, %d uses of implicit tuple elements\n", GetParam().c_str(), files.size(), uses);
  fs::remove_all(tmp);
}

INSTANTIATE_TEST_SUITE_P(Samples, XlaGpuDumps, ::testing::ValuesIn(Samples()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace hloscope
