// Golden files for the LLVM IR (as emitted) and PTX of a few small kernels,
// so that refactors show zero diff. Regenerate with HLOSCOPE_REGEN_GOLDEN=1.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

std::string GoldenDir() { return hloscope::testing::SourceDir() + "/tests/codegen/golden"; }

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

// A short unified-style report of the first differing lines.
std::string Diff(const std::string& want, const std::string& got) {
  auto a = Lines(want), b = Lines(got);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  std::string out = "@@ line " + std::to_string(i + 1) + " @@\n";
  for (size_t k = i; k < a.size() && k < i + 5; ++k) out += "-" + a[k] + "\n";
  for (size_t k = i; k < b.size() && k < i + 5; ++k) out += "+" + b[k] + "\n";
  return out;
}

void CheckGolden(const std::string& file, const std::string& got) {
  std::string path = GoldenDir() + "/" + file;
  const char* regen = std::getenv("HLOSCOPE_REGEN_GOLDEN");
  if (regen && std::string(regen) == "1") {
    std::ofstream(path, std::ios::binary) << got;
    return;
  }
  std::string want = ReadAll(path);
  ASSERT_FALSE(want.empty()) << path << " is missing; run with HLOSCOPE_REGEN_GOLDEN=1";
  EXPECT_TRUE(want == got) << path << " differs (HLOSCOPE_REGEN_GOLDEN=1 to accept):\n" << Diff(want, got);
}

void CheckKernels(const std::string& stem, const std::string& hlo, const std::string& pipeline) {
  CodegenOptions opts;
  opts.sm = "sm_90";
  auto r = CompileText(hlo, stem + ".hlo", pipeline, opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->codegen.kernels.size(), 1u);
  const KernelCode& k = r->codegen.kernels[0];
  CheckGolden(stem + ".ll", k.ir);
  CheckGolden(stem + ".ptx", k.ptx);
}

TEST(Golden, ElementwiseAdd) {
  CheckKernels("add_f32", R"(HloModule add_f32
ENTRY e {
  a = f32[1000] parameter(0)
  b = f32[1000] parameter(1)
  ROOT r = f32[1000] add(a, b)
})", "");
}

TEST(Golden, Bf16TanhLoopFusion) {
  CheckKernels("tanh_bf16_fusion", R"(HloModule tanh_bf16
ENTRY e {
  a = bf16[16,32] parameter(0)
  b = bf16[32] parameter(1)
  bb = bf16[16,32] broadcast(b), dimensions={1}
  m = bf16[16,32] multiply(a, bb)
  ROOT t = bf16[16,32] tanh(m)
})", "gpu");
}

TEST(Golden, ConcatenateAndPad) {
  CheckKernels("concat_pad", R"(HloModule concat_pad
ENTRY e {
  a = f32[3,4] parameter(0)
  b = f32[2,4] parameter(1)
  z = f32[] constant(0)
  c = f32[5,4] concatenate(a, b), dimensions={0}
  ROOT p = f32[7,6] pad(c, z), padding=1_1x1_1
})", "gpu");
}

}  // namespace
}  // namespace hloscope::codegen
