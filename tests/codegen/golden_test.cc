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

// `with_ir`: the IR as emitted too (the wgmma kernel's, 64 accumulators
// through each of four inline-asm ops, is kept as PTX only).
void CheckKernels(const std::string& stem, const std::string& hlo, const std::string& pipeline,
                  const char* sm = "sm_90", bool with_ir = true) {
  CodegenOptions opts;
  opts.sm = sm;
  auto r = CompileText(hlo, stem + ".hlo", pipeline, opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->codegen.kernels.size(), 1u);
  const KernelCode& k = r->codegen.kernels[0];
  if (with_ir) CheckGolden(stem + ".ll", k.ir);
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

TEST(Golden, SoftmaxNormalizationFusion) {
  // `gpu` makes one triton_softmax fusion of it; the normalization emitter
  // takes it (a warp per row of 128).
  CheckKernels("softmax_normalization", R"(HloModule softmax
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT m = f32[] maximum(a, b) }
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[16,128] parameter(0)
  ninf = f32[] constant(-inf)
  m = f32[16] reduce(x, ninf), dimensions={1}, to_apply=mx
  mb = f32[16,128] broadcast(m), dimensions={0}
  d = f32[16,128] subtract(x, mb)
  e = f32[16,128] exponential(d)
  z = f32[] constant(0)
  s = f32[16] reduce(e, z), dimensions={1}, to_apply=add
  sb = f32[16,128] broadcast(s), dimensions={0}
  ROOT o = f32[16,128] divide(e, sb)
})", "gpu");
}

TEST(Golden, GemmFusionWithEpilogue) {
  // `gpu` makes one gemm_fusion_dot (kind=kCustom) of the dot and its
  // epilogue (bias, negate); the dot emitter applies them at the store.
  CheckKernels("gemm_fusion_epilogue", R"(HloModule gemm
ENTRY e {
  x = f32[32,64] parameter(0)
  w = f32[64,48] parameter(1)
  b = f32[48] parameter(2)
  d = f32[32,48] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[32,48] broadcast(b), dimensions={1}
  a = f32[32,48] add(d, bb)
  ROOT n = f32[32,48] negate(a)
})", "gpu");
}

TEST(Golden, Bf16GemmFusionOnTensorCores) {
  // A bf16 GEMM fusion with a bias epilogue: the tensor-core kernel
  // (mma.sync m16n8k16, gemm_fusion_emitter.cc).
  CheckKernels("gemm_fusion_bf16_mma", R"(HloModule gemm_bf16
ENTRY e {
  x = bf16[64,96] parameter(0)
  w = bf16[96,80] parameter(1)
  b = bf16[80] parameter(2)
  d = bf16[64,80] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = bf16[64,80] broadcast(b), dimensions={1}
  ROOT a = bf16[64,80] add(d, bb)
})", "gpu");
}

TEST(Golden, Bf16GemmFusionOnWarpgroupTensorCores) {
  // The same with full 128×128 tiles on sm_90a: the warpgroup kernel (wgmma
  // m64n128k16 from swizzled shared memory, gemm_wgmma_emitter.cc).
  CheckKernels("gemm_fusion_bf16_wgmma", R"(HloModule gemm_bf16_wgmma
ENTRY e {
  x = bf16[128,128] parameter(0)
  w = bf16[128,256] parameter(1)
  b = bf16[256] parameter(2)
  d = bf16[128,256] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = bf16[128,256] broadcast(b), dimensions={1}
  ROOT a = bf16[128,256] add(d, bb)
})", "gpu", "sm_90a", /*with_ir=*/false);
}

}  // namespace
}  // namespace hloscope::codegen
