// The warpgroup GEMM of sm_90a (wgmma m64n128k16 from swizzled shared
// memory): which dots take it, the CPU's wgmma against the PTX ISA's
// layouts, its kernels run on the CPU (the same IR; wgmma provided by
// cpu_wgmma.cc) against the interpreter exactly (ptxas checks each PTX for
// sm_90a where it is installed), and the in-flight checks catching a
// pipeline that overwrites what a wgmma still reads.
#include <bit>
#include <cstring>
#include <regex>
#include <vector>

#include "core/codegen/cpu_runtime.h"
#include "core/codegen/gemm_fusion_emitter.h"
#include "tests/codegen/codegen_test_util.h"
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

std::string Dot(const std::string& a, const std::string& b, const std::string& out, const std::string& dn) {
  return testing::DotModule(a, b, out, dn);
}
const char* kMatmul = "lhs_contracting_dims={1}, rhs_contracting_dims={0}";

uint16_t Bf16(float f) { return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16); }

// The 128-byte swizzle as the PTX ISA draws it: 1024-byte atoms of 8 rows
// of 128 bytes, the 16-byte chunk c of row r stored at chunk c ^ r.
size_t Swizzled(size_t atom, size_t row, size_t byte_in_row) {
  return atom * 1024 + row * 128 + (((byte_in_row / 16) ^ row) * 16) + byte_in_row % 16;
}

// A K-major 64×64 A tile and an N-major 64(k)×128(n) B tile in a window;
// wgmma at the second k16 step (A's descriptor 32 bytes on, B's 2048), for
// every thread of the warpgroup, equals the matrix product over that step.
TEST(GemmWgmma, CpuWgmmaFollowsThePtxLayouts) {
  alignas(1024) static uint8_t window[16384 + 16384];
  std::memset(window, 0, sizeof(window));
  auto a = [](int m, int k) { return static_cast<float>((m * 7 + k * 3) % 17 - 8); };
  auto bv = [](int k, int n) { return static_cast<float>((k * 5 + n * 11) % 13 - 6); };
  auto put = [&](size_t off, float v) {
    const uint16_t bits = Bf16(v);
    std::memcpy(window + off, &bits, 2);
  };
  for (int m = 0; m < 64; ++m)  // A: row m is row m % 8 of atom m / 8, k at byte 2k
    for (int k = 0; k < 64; ++k) put(Swizzled(m / 8, m % 8, 2 * k), a(m, k));
  for (int k = 0; k < 64; ++k)  // B: 64-wide n atoms 8 KB apart; k row k % 8 of atom k / 8
    for (int n = 0; n < 128; ++n) put(16384 + (n / 64) * 8192 + Swizzled(k / 8, k % 8, 2 * (n % 64)), bv(k, n));
  const uint64_t base = reinterpret_cast<uintptr_t>(window) & 0x3FFFF;
  auto desc = [&](uint64_t off, uint64_t lbo, uint64_t sbo) {
    return (((base + off) & 0x3FFFF) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (uint64_t{1} << 62);
  };
  const uint64_t da = desc(32, 16, 1024), db = desc(16384 + 2048, 8192, 1024);
  for (int thread = 0; thread < 128; ++thread) {
    std::vector<float> acc(64, 0.5f);
    cpu::WgmmaReads reads;
    std::string error;
    ASSERT_TRUE(cpu::WgmmaM64K16Thread(cpu::kWgmmaTransB, 128, da, db, window, sizeof(window), thread, acc.data(),
                                       &reads, &error))
        << error;
    const int warp = thread / 32, lane = thread % 32;
    for (int q = 0; q < 64; ++q) {
      const int row = 16 * warp + lane / 4 + 8 * ((q % 4) / 2), col = 8 * (q / 4) + 2 * (lane % 4) + q % 2;
      float want = 0.5f;
      for (int k = 16; k < 32; ++k) want += a(row, k) * bv(k, col);
      ASSERT_EQ(acc[q], want) << "thread " << thread << " d" << q;
    }
  }
  // Another swizzle mode is refused by name, not misread.
  float acc[64] = {};
  cpu::WgmmaReads reads;
  std::string error;
  EXPECT_FALSE(cpu::WgmmaM64K16Thread(0, 128, da & ~(uint64_t{3} << 62), db, window, sizeof(window), 0, acc, &reads,
                                      &error));
  EXPECT_NE(error.find("swizzle mode 0"), std::string::npos) << error;
}

TEST(GemmWgmma, FullTilesOfPlainOperandsOnSm90aTakeIt) {
  const std::string nn = Dot("bf16[256,128]{1,0}", "bf16[128,384]{1,0}", "f32[256,384]{1,0}", kMatmul);
  auto e = EmitFor(nn, "d", &EmitDotKernel, -1, "sm_90a");
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "gemm-wgmma");
  EXPECT_NE(e.ir.find("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"), std::string::npos);
  EXPECT_NE(e.ir.find("p, 1, 1, 0, 1;"), std::string::npos);  // A K-major, B N-major
  EXPECT_NE(e.ir.find("fence.proxy.async.shared::cta;"), std::string::npos);
  EXPECT_EQ(e.kernel.dims.block[0], 256u);
  EXPECT_EQ(e.kernel.dims.grid[0], 2u * 3);
  EXPECT_EQ(e.kernel.dims.shared_bytes, 3u * 32768);
  // sm_90 (no arch-specific features) or fewer than 128 rows or columns: the
  // mma.sync kernel.
  EXPECT_EQ(EmitFor(nn, "d", &EmitDotKernel, -1, "sm_90").kernel.kind, "gemm-mma");
  EXPECT_EQ(EmitFor(Dot("bf16[96,128]{1,0}", "bf16[128,384]{1,0}", "f32[96,384]{1,0}", kMatmul), "d", &EmitDotKernel,
                    -1, "sm_90a")
                .kernel.kind,
            "gemm-mma");
  // f32 operands of a bf16 dot (rounded to bf16 first, as the interpreter
  // does) are computed on the way in: the warpgroup kernel still.
  EXPECT_EQ(EmitFor(Dot("f32[128,64]{1,0}", "f32[64,128]{1,0}", "bf16[128,128]{1,0}", kMatmul), "d", &EmitDotKernel,
                    -1, "sm_90a")
                .kernel.kind,
            "gemm-wgmma");
  // Partial tiles: zero-filling copies, the grid rounded up.
  auto partial = EmitFor(Dot("bf16[200,96]{1,0}", "bf16[96,136]{1,0}", "f32[200,136]{1,0}", kMatmul), "d",
                         &EmitDotKernel, -1, "sm_90a");
  EXPECT_EQ(partial.kernel.kind, "gemm-wgmma");
  EXPECT_NE(partial.ir.find("llvm.nvvm.cp.async.cg.shared.global.16.s"), std::string::npos);
  EXPECT_EQ(partial.kernel.dims.grid[0], 2u * 2);
  EXPECT_EQ(e.ir.find("llvm.nvvm.cp.async.cg.shared.global.16.s"), std::string::npos);  // full tiles: none
}

struct Case {
  const char* name;
  std::string text;
};

class GemmWgmmaRun : public ::testing::TestWithParam<Case> {};

TEST_P(GemmWgmmaRun, MatchesTheInterpreterExactly) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().text, 23, &kinds, "sm_90a", Tolerance{}), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"gemm-wgmma"});
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GemmWgmmaRun,
    ::testing::Values(
        // k = 320: five slices through three stages (the ring wraps).
        Case{"row_major_b_n_major", Dot("bf16[128,320]{1,0}", "bf16[320,256]{1,0}", "f32[128,256]{1,0}", kMatmul)},
        Case{"both_k_major_bf16_result",
             Dot("bf16[256,192]{1,0}", "bf16[128,192]{1,0}", "bf16[256,128]{1,0}",
                 "lhs_contracting_dims={1}, rhs_contracting_dims={1}")},
        Case{"a_m_major_batched_f16",
             Dot("f16[2,128,128]{2,1,0}", "f16[2,128,128]{2,1,0}", "f32[2,128,128]{2,1,0}",
                 "lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0}, rhs_contracting_dims={1}")},
        Case{"column_major_layouts", Dot("bf16[128,64]{0,1}", "bf16[64,128]{0,1}", "f32[128,128]{0,1}", kMatmul)},
        Case{"partial_tiles_and_a_k_tail",  // 200 × 136, k 104: 2 × 2 tiles, the second slice 40 wide
             Dot("bf16[200,104]{1,0}", "bf16[104,136]{1,0}", "f32[200,136]{1,0}", kMatmul)},
        Case{"partial_m_major_a_n_major_b",
             Dot("f16[24,136]{1,0}", "f16[24,160]{1,0}", "f16[136,160]{1,0}",
                 "lhs_contracting_dims={0}, rhs_contracting_dims={0}")},
        Case{"f32_operands_rounded_to_bf16",
             Dot("f32[136,72]{1,0}", "f32[72,128]{0,1}", "bf16[136,128]{1,0}", kMatmul)},
        Case{"two_contracting_dims",
             Dot("f16[128,2,64]{2,1,0}", "f16[2,64,128]{2,1,0}", "f16[128,128]{1,0}",
                 "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}")}),
    [](const auto& i) { return std::string(i.param.name); });

// A GEMM fusion whose operands are plain parameters: the dot on wgmma, the
// epilogue (bias, tanh, residual, convert) at the store.
TEST(GemmWgmma, GemmFusionWithAnEpilogue) {
  const std::string text = R"hlo(
HloModule m
fused {
  x = bf16[128,128]{1,0} parameter(0)
  w = bf16[128,256]{1,0} parameter(1)
  bias = f32[256]{0} parameter(2)
  d = f32[128,256]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[128,256]{1,0} broadcast(bias), dimensions={1}
  a = f32[128,256]{1,0} add(d, bb)
  t = f32[128,256]{1,0} tanh(a)
  ROOT o = bf16[128,256]{1,0} convert(t)
}
ENTRY main {
  x = bf16[128,128]{1,0} parameter(0)
  w = bf16[128,256]{1,0} parameter(1)
  b = f32[256]{0} parameter(2)
  ROOT f = bf16[128,256]{1,0} fusion(x, w, b), kind=kCustom, calls=fused,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 5, &kinds, "sm_90a"), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"gemm-wgmma"});
}

// A GEMM fusion with a prologue (a layer-norm-like scale broadcast along k
// and a one-hot operand built from an iota, as the embedding gradient's):
// both operands computed on the way in, the dot on wgmma.
TEST(GemmWgmma, GemmFusionWithPrologues) {
  const std::string text = R"hlo(
HloModule m
fused {
  x = bf16[160,96]{1,0} parameter(0)
  g = bf16[96]{0} parameter(1)
  ids = s32[128]{0} parameter(2)
  gb = bf16[160,96]{1,0} broadcast(g), dimensions={1}
  xs = bf16[160,96]{1,0} multiply(x, gb)
  idb = s32[128,160]{1,0} broadcast(ids), dimensions={0}
  io = s32[128,160]{1,0} iota(), iota_dimension=1
  eq = pred[128,160]{1,0} compare(idb, io), direction=EQ
  oh = bf16[128,160]{1,0} convert(eq)
  ROOT d = f32[128,96]{1,0} dot(oh, xs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
ENTRY main {
  x = bf16[160,96]{1,0} parameter(0)
  g = bf16[96]{0} parameter(1)
  ids = s32[128]{0} parameter(2)
  ROOT f = f32[128,96]{1,0} fusion(x, g, ids), kind=kCustom, calls=fused,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 6, &kinds, "sm_90a", Tolerance{}), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"gemm-mma"});  // n = 96 < 128
  const std::string wide = std::regex_replace(text, std::regex("96"), "136");  // n = 136
  kinds.clear();
  EXPECT_EQ(testing::RunAndCompare(wide, 6, &kinds, "sm_90a", Tolerance{}), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"gemm-wgmma"});
}

// The gpu pipeline's GEMM fusions read their operands through bitcasts,
// transposes and reshapes that move no data (Llama's [2, 8192, 4096]
// activations as [16384, 4096]; the backward pass's weights and activations
// transposed): both tensor-core kernels copy them straight from the arguments
// (cp.async), the mma.sync one on sm_90 and the wgmma one on sm_90a. A
// reshape that would move data (merging dims that a transpose separated) is
// staged element by element, and every variant matches the interpreter.
std::string GemmFusion(const std::string& params, const std::string& body, const std::string& out) {
  return "HloModule m\nfused {\n" + params + body + "}\nENTRY main {\n" + params + "  ROOT f = " + out +
         " fusion(x, w), kind=kCustom, calls=fused,\n    backend_config={\"fusion_backend_config\":{\"kind\":\"__triton_gemm\"}}\n}\n";
}

TEST(GemmWgmma, OperandsSeenThroughMovesOfNoData) {
  struct View {
    const char* name;
    std::string text;
    bool direct;
  };
  const std::vector<View> views = {
      {"reshape_and_bitcast",
       GemmFusion("  x = bf16[2,128,256]{2,1,0} parameter(0)\n  w = bf16[256,4,64]{2,1,0} parameter(1)\n",
                  "  xr = bf16[256,256]{1,0} reshape(x)\n  wr = bf16[256,256]{1,0} bitcast(w)\n"
                  "  d = bf16[256,256]{1,0} dot(xr, wr), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                  "  ROOT r = bf16[2,128,4,64]{3,2,1,0} reshape(d)\n",
                  "bf16[2,128,4,64]{3,2,1,0}"),
       true},
      {"transposed_weight",  // Llama's dot.325: w [n][k] read as [k][n]
       GemmFusion("  x = bf16[2,128,256]{2,1,0} parameter(0)\n  w = bf16[384,256]{1,0} parameter(1)\n",
                  "  xr = bf16[256,256]{1,0} reshape(x)\n  wt = bf16[256,384]{1,0} transpose(w), dimensions={1,0}\n"
                  "  ROOT d = f32[256,384]{1,0} dot(xr, wt), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n",
                  "f32[256,384]{1,0}"),
       true},
      {"transpose_then_reshape",  // Llama's dot.724: the weight gradient
       GemmFusion("  x = bf16[2,64,128]{2,1,0} parameter(0)\n  w = bf16[2,64,256]{2,1,0} parameter(1)\n",
                  "  xt = bf16[128,2,64]{2,1,0} transpose(x), dimensions={2,0,1}\n"
                  "  xr = bf16[128,128]{1,0} reshape(xt)\n  wr = bf16[128,256]{1,0} reshape(w)\n"
                  "  ROOT d = bf16[128,256]{1,0} dot(xr, wr), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n",
                  "bf16[128,256]{1,0}"),
       true},
      {"bitcast_that_transposes",  // the same bytes as [384][256] column-major: w read N-major
       GemmFusion("  x = bf16[128,256]{1,0} parameter(0)\n  w = bf16[256,384]{1,0} parameter(1)\n",
                  "  wb = bf16[384,256]{0,1} bitcast(w)\n"
                  "  ROOT d = f32[128,384]{1,0} dot(x, wb), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n",
                  "f32[128,384]{1,0}"),
       true},
      {"reshape_that_moves_data",  // merges dims 1 and 2 of [128,4,32] laid out [4][128][32]
       GemmFusion("  x = bf16[4,128,32]{2,1,0} parameter(0)\n  w = bf16[128,128]{1,0} parameter(1)\n",
                  "  xt = bf16[128,4,32]{2,1,0} transpose(x), dimensions={1,0,2}\n"
                  "  xr = bf16[128,128]{1,0} reshape(xt)\n"
                  "  ROOT d = f32[128,128]{1,0} dot(xr, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n",
                  "f32[128,128]{1,0}"),
       false},
  };
  for (const View& v : views)
    for (const char* sm : {"sm_90", "sm_90a"}) {
      SCOPED_TRACE(std::string(v.name) + " " + sm);
      auto e = EmitFor(v.text, "f", &EmitDotKernel, -1, sm);
      ASSERT_EQ(e.error, "");
      const bool wgmma = std::string(sm) == "sm_90a";
      EXPECT_EQ(e.kernel.kind, wgmma ? "gemm-wgmma" : "gemm-mma");
      // An operand not read straight from memory is computed, 8 elements at
      // a time, and stored as one 16-byte vector (both kernels).
      EXPECT_EQ(e.ir.find("%computed_chunk =") != std::string::npos, !v.direct);
      std::vector<std::string> kinds;
      EXPECT_EQ(testing::RunAndCompare(v.text, 8, &kinds, sm, Tolerance{}), "");
    }
}

// The checks can fail. `text`'s one kernel on sm_90a runs on the CPU as
// made, then with its wgmma.wait_group 0 turned into 1 (waiting for all but
// the last group): the error of that second run ("" if it ran).
std::string ErrorWithWaitGroupOne(const std::string& text, uint64_t seed, bool computed_operands) {
  CodegenOptions opts;
  opts.sm = "sm_90a";
  opts.emit_ptx = false;
  auto compiled = CompileText(text, "t.hlo", "", opts);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  if (!compiled.ok() || compiled->codegen.kernels.size() != 1) return "no single kernel";
  EXPECT_EQ(compiled->codegen.kernels[0].kind, "gemm-wgmma");
  std::string& ir = compiled->codegen.kernels[0].ir;
  if (computed_operands) EXPECT_EQ(ir.find("llvm.nvvm.cp.async.cg.shared.global"), std::string::npos);
  auto inputs = MakeRandomInputs(*compiled->module->entry(), seed);
  EXPECT_TRUE(RunOnCpu(compiled->codegen, inputs).ok());
  const std::string wait0 = "wgmma.wait_group.sync.aligned 0;";
  const size_t at = ir.find(wait0);
  if (at == std::string::npos) return "no wait_group 0";
  ir.replace(at, wait0.size(), "wgmma.wait_group.sync.aligned 1;");
  auto got = RunOnCpu(compiled->codegen, inputs);
  return got.ok() ? "" : got.status().message();
}

// Refilled by cp.async: the stage that the previous slice's wgmma may still
// be reading, which the CPU run reports.
TEST(GemmWgmma, TheCpuRunCatchesAStageRefilledWhileAWgmmaReadsIt) {
  const std::string error = ErrorWithWaitGroupOne(
      Dot("bf16[128,256]{1,0}", "bf16[256,128]{1,0}", "f32[128,128]{1,0}", kMatmul), 3, /*computed_operands=*/false);
  EXPECT_NE(error.find("a cp.async writes shared memory that a wgmma in flight reads"), std::string::npos) << error;
}

// The other check: operands computed on the way in (f32 rounded to bf16)
// are plain shared stores, which no cp.async check sees. With the same
// wait_group 1 they overwrite the stage of a wgmma still in flight, and the
// wait that retires it finds its operands changed (k = 256: four slices, so
// the refill of the fourth lands on the first's stage while its wgmma is
// pending).
TEST(GemmWgmma, TheCpuRunCatchesComputedOperandsChangedUnderAWgmma) {
  const std::string error = ErrorWithWaitGroupOne(
      Dot("f32[128,256]{1,0}", "f32[256,128]{1,0}", "bf16[128,128]{1,0}", kMatmul), 4, /*computed_operands=*/true);
  EXPECT_NE(error.find("the shared memory a wgmma reads changed before the wgmma.wait_group"), std::string::npos)
      << error;
}

}  // namespace
}  // namespace hloscope::codegen
