// The tensor-core GEMM (mma.sync m16n8k16): which dots take it, its tile
// table, and its kernels run on the CPU (the same IR, mma emulated with the
// PTX ISA's fragment layouts) against the interpreter, exactly, for sm_80 and
// sm_90 (ptxas checks each PTX where it is installed).
#include "core/codegen/gemm_fusion_emitter.h"

#include <bit>

#include "core/codegen/cpu_runtime.h"
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

std::string Dot(const std::string& a, const std::string& b, const std::string& out, const std::string& dn) {
  return testing::DotModule(a, b, out, dn);
}
const char* kMatmul = "lhs_contracting_dims={1}, rhs_contracting_dims={0}";
const char* kMatmul_3d = "lhs_contracting_dims={2}, rhs_contracting_dims={0}";

TEST(GemmMma, Bf16DotTakesTheTensorCores) {
  auto e = EmitFor(Dot("bf16[64,80]{1,0}", "bf16[80,64]{1,0}", "bf16[64,64]{1,0}", kMatmul), "d", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "gemm-mma");
  EXPECT_NE(e.ir.find("@llvm.nvvm.mma.m16n8k16.row.col.bf16"), std::string::npos);
  EXPECT_EQ(e.kernel.dims.block[0], 128u);  // 64×64 tile: 2×2 warps
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);
}

TEST(GemmMma, F16OperandsWithAnF32Result) {
  auto e = EmitFor(Dot("f16[200,64]{1,0}", "f16[64,300]{1,0}", "f32[200,300]{1,0}", kMatmul), "d", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "gemm-mma");
  EXPECT_NE(e.ir.find("@llvm.nvvm.mma.m16n8k16.row.col.f32.f32"), std::string::npos);
  EXPECT_EQ(e.kernel.dims.block[0], 256u);        // 128×128 tile: 2×4 warps
  EXPECT_EQ(e.kernel.dims.grid[0], 2u * 3);       // m tiles × n tiles
}

// Every tile stages 16-byte chunks through two shared stages: by cp.async
// for an operand read straight from a 16-bit argument in its memory's order
// (zero-filled past the problem's edges: the src-size form), computed 8 k
// at a time into one 16-byte shared store for an operand with something to
// compute.
TEST(GemmMma, StagingMovesSixteenByteChunks) {
  struct Ir {
    bool copies, zero_fill, computed;
  };
  auto ir = [](const std::string& text) {
    auto e = EmitFor(text, "d", &EmitDotKernel);
    EXPECT_EQ(e.error, "") << text;
    EXPECT_EQ(e.kernel.kind, "gemm-mma") << text;
    return Ir{e.ir.find("llvm.nvvm.cp.async.cg.shared.global.16(") != std::string::npos,
              e.ir.find("llvm.nvvm.cp.async.cg.shared.global.16.s(") != std::string::npos,
              e.ir.find("%computed_chunk =") != std::string::npos};
  };
  // How each operand travels: A [m][k] row-major is contiguous along k and
  // B [k][n] along n; both go by cp.async (waited for a group a slice), B
  // kept [k][n] and read transposed by ldmatrix.
  {
    auto e = EmitFor(Dot("bf16[128,64]{1,0}", "bf16[64,256]{1,0}", "bf16[128,256]{1,0}", kMatmul), "d", &EmitDotKernel);
    EXPECT_NE(e.ir.find("llvm.nvvm.cp.async.cg.shared.global.16("), std::string::npos);
    EXPECT_NE(e.ir.find("llvm.nvvm.cp.async.commit.group"), std::string::npos);
    EXPECT_NE(e.ir.find("llvm.nvvm.cp.async.wait.group(i32 1)"), std::string::npos);
    EXPECT_NE(e.ir.find("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16"), std::string::npos);
    EXPECT_EQ(e.ir.find("load <8 x i16>"), std::string::npos);
    EXPECT_EQ(e.ir.find("global.16.s("), std::string::npos);  // full tiles: no edge to fill
    // What a user reads of it (the Kernels tab, the manifest's "strategy").
    EXPECT_EQ(e.kernel.strategy,
              "mma.sync m16n8k16 bf16, tile 128x128x32, 8 warps, 2 shared stages; lhs by cp.async along k; rhs by "
              "cp.async along n into [k][n] (ldmatrix.trans)");
  }
  {  // A contiguous along m: by cp.async too, kept [k][m], read transposed.
    auto e = EmitFor(Dot("bf16[128,64]{0,1}", "bf16[64,256]{0,1}", "f32[128,256]{1,0}", kMatmul), "d", &EmitDotKernel);
    EXPECT_NE(e.ir.find("llvm.nvvm.cp.async.cg.shared.global.16("), std::string::npos);
    EXPECT_NE(e.ir.find("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16"), std::string::npos);
    EXPECT_EQ(e.ir.find("load <8 x i16>"), std::string::npos);
  }
  {  // Both contiguous along k: no operand passes through registers.
    auto e = EmitFor("HloModule m\nENTRY e {\n  a = bf16[128,64]{1,0} parameter(0)\n  b = bf16[256,64]{1,0} parameter(1)\n"
                     "  ROOT d = f32[128,256]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
                     "d", &EmitDotKernel);
    EXPECT_EQ(e.error, "");
    EXPECT_NE(e.ir.find("llvm.nvvm.cp.async.cg.shared.global.16("), std::string::npos);
    EXPECT_EQ(e.ir.find("load <8 x i16>"), std::string::npos);
  }
  // Tiles past the edges of m, n or k: the same copies, zero-filled.
  for (const std::string& text : {Dot("bf16[130,64]{1,0}", "bf16[64,256]{1,0}", "bf16[130,256]{1,0}", kMatmul),
                                  Dot("bf16[128,48]{1,0}", "bf16[48,256]{1,0}", "bf16[128,256]{1,0}", kMatmul),
                                  Dot("bf16[100,64]{1,0}", "bf16[64,200]{1,0}", "f32[100,200]{1,0}", kMatmul)}) {
    const Ir i = ir(text);
    EXPECT_TRUE(i.zero_fill) << text;
    EXPECT_FALSE(i.copies) << text;
  }
  EXPECT_TRUE(ir(Dot("bf16[72,40]{0,1}", "bf16[40,136]{1,0}", "f32[72,136]{1,0}", kMatmul)).zero_fill);
  // Several free or contracting dims (Llama's [2, 8192, 4096] activations).
  EXPECT_TRUE(ir(Dot("bf16[2,64,64]{2,1,0}", "bf16[64,4,32]{2,1,0}", "bf16[2,64,4,32]{3,2,1,0}", kMatmul_3d)).copies);
  EXPECT_TRUE(ir(Dot("bf16[128,2,32]{2,1,0}", "bf16[2,32,128]{2,1,0}", "f32[128,128]{1,0}",
                     "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}"))
                  .copies);
  // Computed: the minor dim is neither the last free nor the last
  // contracting one; f32 operands rounded to bf16 first (a conversion on
  // the way in); a minor dim that is not a multiple of 8.
  for (const std::string& text : {Dot("bf16[128,2,32]{1,2,0}", "bf16[2,32,128]{1,2,0}", "f32[128,128]{1,0}",
                                      "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}"),
                                  Dot("f32[128,64]{1,0}", "f32[64,256]{1,0}", "bf16[128,256]{1,0}", kMatmul),
                                  Dot("bf16[33,47]{1,0}", "bf16[47,18]{1,0}", "bf16[33,18]{1,0}", kMatmul)}) {
    const Ir i = ir(text);
    EXPECT_TRUE(i.computed) << text;
    EXPECT_NE(EmitFor(text, "d", &EmitDotKernel).kernel.strategy.find("computed (its prologue or conversion)"),
              std::string::npos);
  }
}

TEST(GemmMma, WhatStaysOnTheFmaPath) {
  // f32 operands (no exact tensor-core type), mixed bf16×f16 into f32,
  // integers, and targets without m16n8k16 bf16 (sm_75).
  for (const std::string& text :
       {Dot("f32[32,32]{1,0}", "f32[32,32]{1,0}", "f32[32,32]{1,0}", kMatmul),
        Dot("bf16[32,32]{1,0}", "f16[32,32]{1,0}", "f32[32,32]{1,0}", kMatmul),
        Dot("s32[32,32]{1,0}", "s32[32,32]{1,0}", "s32[32,32]{1,0}", kMatmul)}) {
    auto e = EmitFor(text, "d", &EmitDotKernel);
    ASSERT_EQ(e.error, "") << text;
    EXPECT_EQ(e.kernel.kind, "dot") << text;
  }
  auto e = EmitFor(Dot("bf16[32,32]{1,0}", "bf16[32,32]{1,0}", "bf16[32,32]{1,0}", kMatmul), "d", &EmitDotKernel, -1,
                   "sm_75");
  ASSERT_EQ(e.error, "");
  EXPECT_EQ(e.kernel.kind, "dot");
  // f32 operands into a bf16 result are rounded to bf16 first (as the
  // interpreter does), so the tensor cores take them.
  auto rounded = EmitFor(Dot("f32[32,32]{1,0}", "f32[32,32]{1,0}", "bf16[32,32]{1,0}", kMatmul), "d", &EmitDotKernel);
  ASSERT_EQ(rounded.error, "");
  EXPECT_EQ(rounded.kernel.kind, "gemm-mma");
}

TEST(GemmMma, TileTableIsConsistent) {
  for (const GemmTiles& t : GemmTileTable()) {
    const int64_t threads = t.warps_m * t.warps_n * 32;
    EXPECT_EQ(t.bm % (t.warps_m * 16), 0) << t.bm;
    EXPECT_EQ(t.bn % (t.warps_n * 8), 0) << t.bn;
    EXPECT_EQ(t.bn / t.warps_n / 8 % 2, 0) << t.bn;  // B fragments in pairs: one ldmatrix.x4 each
    EXPECT_EQ(t.bk % 16, 0);
    EXPECT_EQ(t.bm * t.bk % threads, 0);  // every thread stages the same count
    EXPECT_EQ(t.bn * t.bk % threads, 0);
    EXPECT_LE((t.bm + t.bn) * (t.bk + 8) * 2, 48 * 1024);  // static shared memory
    EXPECT_LE(t.bm / t.warps_m / 16 * (t.bn / t.warps_n / 8) * 4, 64);  // accumulators per thread
  }
  EXPECT_EQ(ChooseGemmTiles(4096, 4096).bm, 128);
  EXPECT_EQ(ChooseGemmTiles(4096, 4096).bn, 128);
  EXPECT_EQ(ChooseGemmTiles(100, 100).bm, 64);
  EXPECT_EQ(ChooseGemmTiles(8192, 40).bn, 32);
  EXPECT_EQ(ChooseGemmTiles(1, 1).bm, 32);
}

// The CPU's warp mma on its own: fragments filled per element index as the
// PTX ISA tabulates them ("Matrix fragments for mma.m16n8k16 with floating
// point type": a_i, b_i, c_i for i = 0.., groupID = lane >> 2,
// threadID_in_group = lane % 4), against a plain matrix product.
TEST(GemmMma, CpuWarpMmaFollowsThePtxFragmentLayout) {
  float a[16][16], b[16][8], c[16][8];
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 16; ++k) a[i][k] = static_cast<float>((i * 16 + k) % 13 - 6);  // small ints: exact in bf16
  for (int k = 0; k < 16; ++k)
    for (int j = 0; j < 8; ++j) b[k][j] = static_cast<float>((k * 8 + j) % 7 - 3);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) c[i][j] = static_cast<float>(i - j);
  auto bf16 = [](float f) { return static_cast<uint32_t>(std::bit_cast<uint32_t>(f) >> 16); };
  uint32_t words[32][cpu::kMmaFragWords] = {};
  uint32_t* frags[32];
  for (int lane = 0; lane < 32; ++lane) {
    const int group = lane >> 2, tig = lane % 4;
    frags[lane] = words[lane];
    for (int i = 0; i < 8; ++i) {  // a_i: register i / 2, half i % 2
      const int row = (i < 2 || (i >= 4 && i < 6)) ? group : group + 8;
      const int col = tig * 2 + (i & 1) + (i >= 4 ? 8 : 0);
      words[lane][i / 2] |= bf16(a[row][col]) << (16 * (i % 2));
    }
    for (int i = 0; i < 4; ++i) {  // b_i
      const int row = tig * 2 + (i & 1) + (i >= 2 ? 8 : 0);
      words[lane][4 + i / 2] |= bf16(b[row][group]) << (16 * (i % 2));
    }
    for (int i = 0; i < 4; ++i)  // c_i
      words[lane][6 + i] = std::bit_cast<uint32_t>(c[i < 2 ? group : group + 8][tig * 2 + (i & 1)]);
  }
  cpu::WarpMmaM16N8K16(cpu::kMmaBf16, frags);
  for (int lane = 0; lane < 32; ++lane) {
    const int group = lane >> 2, tig = lane % 4;
    for (int i = 0; i < 4; ++i) {
      const int row = i < 2 ? group : group + 8, col = tig * 2 + (i & 1);
      float want = c[row][col];
      for (int k = 0; k < 16; ++k) want += a[row][k] * b[k][col];
      EXPECT_EQ(std::bit_cast<float>(words[lane][6 + i]), want) << "lane " << lane << " d" << i;
    }
  }
}

// ldmatrix .trans on a B kept [k][n] (the emitter's addresses: lane l at k
// row 8·(j & 1) + l % 8 and n 8·(j >> 1) of matrix j = l / 8) gives each lane
// the B fragments of mma.m16n8k16 as the PTX ISA lays them out: b0 holds
// k = 2·(l % 4) and the next at n = l / 4, b1 the same 8 k further.
TEST(GemmMma, CpuLdmatrixTransGivesTheBFragmentsOfAKnTile) {
  constexpr int kPitch = 24;  // elements: 48-byte rows, 16-byte aligned
  alignas(16) uint16_t bs[16 * kPitch];
  for (int i = 0; i < 16 * kPitch; ++i) bs[i] = static_cast<uint16_t>(7000 + i);
  auto b = [&](int k, int n) { return uint32_t{bs[k * kPitch + n]}; };
  uint32_t bw[32][4];
  const uint8_t* brows[32];
  uint32_t* bout[32];
  for (int lane = 0; lane < 32; ++lane) {
    const int j = lane / 8, r = lane % 8;
    brows[lane] = reinterpret_cast<const uint8_t*>(&bs[((j & 1) * 8 + r) * kPitch + (j >> 1) * 8]);
    bout[lane] = bw[lane];
  }
  cpu::WarpLdmatrixX4Trans(brows, bout);
  for (int lane = 0; lane < 32; ++lane) {
    const int group = lane >> 2, tig = lane % 4;
    for (int f = 0; f < 2; ++f)  // two 8-column B fragments: registers 2f (b0) and 2f + 1 (b1)
      for (int i = 0; i < 4; ++i) {
        const int k = tig * 2 + (i & 1) + (i >= 2 ? 8 : 0);
        EXPECT_EQ((bw[lane][2 * f + i / 2] >> (16 * (i % 2))) & 0xffffu, b(k, 8 * f + group))
            << "lane " << lane << " fragment " << f << " b" << i;
      }
  }
}

// The fragment loads: ldmatrix.x4 with the emitter's row addresses (lane l
// points at row l % 8 of matrix l / 8) gives each lane exactly the A and B
// fragments of mma.m16n8k16 (the layouts of the PTX ISA, as in the test
// above). A is [m][k] and B [n][k] in "shared memory" with padded rows.
TEST(GemmMma, CpuLdmatrixGivesTheMmaFragments) {
  constexpr int kPitch = 24;  // elements: 48-byte rows, 16-byte aligned
  alignas(16) uint16_t as[16 * kPitch], bs[16 * kPitch];
  for (int i = 0; i < 16 * kPitch; ++i) {
    as[i] = static_cast<uint16_t>(1000 + i);
    bs[i] = static_cast<uint16_t>(5000 + i);
  }
  auto a = [&](int row, int k) { return uint32_t{as[row * kPitch + k]}; };
  auto b = [&](int k, int n) { return uint32_t{bs[n * kPitch + k]}; };
  uint32_t aw[32][4], bw[32][4];
  const uint8_t* arows[32];
  const uint8_t* brows[32];
  uint32_t* aout[32];
  uint32_t* bout[32];
  for (int lane = 0; lane < 32; ++lane) {
    const int j = lane / 8, r = lane % 8;
    arows[lane] = reinterpret_cast<const uint8_t*>(&as[((j & 1) * 8 + r) * kPitch + (j >> 1) * 8]);
    brows[lane] = reinterpret_cast<const uint8_t*>(&bs[((j >> 1) * 8 + r) * kPitch + (j & 1) * 8]);
    aout[lane] = aw[lane];
    bout[lane] = bw[lane];
  }
  cpu::WarpLdmatrixX4(arows, aout);
  cpu::WarpLdmatrixX4(brows, bout);
  for (int lane = 0; lane < 32; ++lane) {
    const int group = lane >> 2, tig = lane % 4;
    for (int i = 0; i < 8; ++i) {  // a_i: register i / 2, half i % 2
      const int row = (i < 2 || (i >= 4 && i < 6)) ? group : group + 8;
      const int col = tig * 2 + (i & 1) + (i >= 4 ? 8 : 0);
      EXPECT_EQ((aw[lane][i / 2] >> (16 * (i % 2))) & 0xffffu, a(row, col)) << "lane " << lane << " a" << i;
    }
    for (int f = 0; f < 2; ++f)  // two 8-column B fragments: b_i, register i / 2
      for (int i = 0; i < 4; ++i) {
        const int k = tig * 2 + (i & 1) + (i >= 2 ? 8 : 0);
        EXPECT_EQ((bw[lane][2 * f + i / 2] >> (16 * (i % 2))) & 0xffffu, b(k, 8 * f + group))
            << "lane " << lane << " fragment " << f << " b" << i;
      }
  }
}

// --- executed on the CPU against the interpreter, exactly ------------------

struct Case {
  const char* name;
  std::string text;
};

class GemmMmaRun : public ::testing::TestWithParam<Case> {};

TEST_P(GemmMmaRun, MatchesTheInterpreterExactlyOnSm80AndSm90) {
  for (const char* sm : {"sm_80", "sm_90"}) {
    std::vector<std::string> kinds;
    EXPECT_EQ(testing::RunAndCompare(GetParam().text, 21, &kinds, sm, Tolerance{}), "") << sm;
    EXPECT_EQ(kinds, std::vector<std::string>{"gemm-mma"}) << sm;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GemmMmaRun,
    ::testing::Values(
        Case{"bf16_odd", Dot("bf16[33,47]{1,0}", "bf16[47,18]{1,0}", "bf16[33,18]{1,0}", kMatmul)},
        Case{"bf16_into_f32_128x128_tiles",
             Dot("bf16[130,100]{1,0}", "bf16[100,140]{1,0}", "f32[130,140]{1,0}", kMatmul)},
        Case{"f16_batched_nt",
             Dot("f16[2,3,17,40]{3,2,1,0}", "f16[2,3,19,40]{3,2,1,0}", "f16[2,3,17,19]{3,2,1,0}",
                 "lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={3}")},
        Case{"column_major_layouts", Dot("bf16[40,36]{0,1}", "bf16[36,50]{0,1}", "f32[40,50]{0,1}", kMatmul)},
        Case{"transposed_lhs", Dot("bf16[24,70]{1,0}", "bf16[24,9]{1,0}", "bf16[70,9]{1,0}",
                                   "lhs_contracting_dims={0}, rhs_contracting_dims={0}")},
        Case{"k_not_a_multiple_of_16", Dot("f16[20,7]{1,0}", "f16[7,9]{1,0}", "f16[20,9]{1,0}", kMatmul)},
        Case{"f32_operands_rounded_to_bf16", Dot("f32[20,24]{1,0}", "f32[24,9]{1,0}", "bf16[20,9]{1,0}", kMatmul)},
        Case{"matrix_vector", Dot("bf16[1,64]{1,0}", "bf16[64,3]{1,0}", "f32[1,3]{1,0}", kMatmul)},
        Case{"direct_staging_row_major", Dot("bf16[128,96]{1,0}", "bf16[96,256]{1,0}", "bf16[128,256]{1,0}", kMatmul)},
        Case{"direct_staging_k_minor_batched",
             Dot("f16[2,64,64]{2,1,0}", "f16[2,128,64]{2,1,0}", "f32[2,64,128]{2,1,0}",
                 "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}")},
        Case{"direct_staging_several_free_dims",
             Dot("bf16[2,64,96]{2,1,0}", "bf16[96,4,32]{2,1,0}", "bf16[2,64,4,32]{3,2,1,0}", kMatmul_3d)},
        Case{"direct_staging_two_contracting_dims",
             Dot("f16[128,2,32]{2,1,0}", "f16[2,32,128]{2,1,0}", "f32[128,128]{1,0}",
                 "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}")},
        Case{"direct_staging_column_major", Dot("bf16[128,64]{0,1}", "bf16[64,128]{0,1}", "f32[128,128]{0,1}", kMatmul)},
        Case{"zero_filled_edges_of_m_and_n", Dot("bf16[100,64]{1,0}", "bf16[64,200]{1,0}", "f32[100,200]{1,0}", kMatmul)},
        Case{"zero_filled_edge_of_k", Dot("f16[72,40]{1,0}", "f16[40,136]{1,0}", "f16[72,136]{1,0}", kMatmul)},
        Case{"lhs_along_m_past_the_edges", Dot("bf16[72,40]{0,1}", "bf16[40,136]{1,0}", "f32[72,136]{1,0}", kMatmul)},
        Case{"both_along_their_free_dims", Dot("bf16[64,128]{1,0}", "bf16[64,128]{1,0}", "f32[128,128]{1,0}",
                                           "lhs_contracting_dims={0}, rhs_contracting_dims={0}")},
        Case{"both_along_their_free_dims_past_the_edges",
             Dot("f16[40,72]{1,0}", "f16[40,136]{1,0}", "f16[72,136]{1,0}",
                 "lhs_contracting_dims={0}, rhs_contracting_dims={0}")},
        Case{"two_contracting_dims", Dot("bf16[2,8,16]{2,1,0}", "bf16[2,8,24]{2,1,0}", "f32[16,24]{1,0}",
                                         "lhs_contracting_dims={0,1}, rhs_contracting_dims={0,1}")}),
    [](const auto& i) { return std::string(i.param.name); });

// A GEMM fusion as XLA GPU forms them in bf16 models: a layer-norm-like scale
// in the prologue (bf16 multiply by a broadcast vector), bias, GELU-like tanh
// activation, residual and convert in the epilogue.
TEST(GemmMma, GemmFusionWithPrologueAndEpilogue) {
  std::string text = R"hlo(
HloModule m
fused {
  x = bf16[37,70]{1,0} parameter(0)
  w = bf16[70,45]{1,0} parameter(1)
  g = bf16[70]{0} parameter(2)
  bias = f32[45]{0} parameter(3)
  res = f32[37,45]{1,0} parameter(4)
  gb = bf16[37,70]{1,0} broadcast(g), dimensions={1}
  xs = bf16[37,70]{1,0} multiply(x, gb)
  wt = bf16[45,70]{0,1} transpose(w), dimensions={1,0}
  d = f32[37,45]{1,0} dot(xs, wt), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  bb = f32[37,45]{1,0} broadcast(bias), dimensions={1}
  a = f32[37,45]{1,0} add(bb, d)
  t = f32[37,45]{1,0} tanh(a)
  r = f32[37,45]{1,0} add(t, res)
  ROOT o = bf16[37,45]{1,0} convert(r)
}
ENTRY main {
  x = bf16[37,70]{1,0} parameter(0)
  w = bf16[70,45]{1,0} parameter(1)
  g = bf16[70]{0} parameter(2)
  b = f32[45]{0} parameter(3)
  res = f32[37,45]{1,0} parameter(4)
  ROOT f = bf16[37,45]{1,0} fusion(x, w, g, b, res), kind=kCustom, calls=fused,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
})hlo";
  auto e = EmitFor(text, "f", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "gemm-mma");
  EXPECT_NE(e.ir.find("tanh"), std::string::npos);
  for (const char* sm : {"sm_80", "sm_90"}) {
    std::vector<std::string> kinds;
    EXPECT_EQ(testing::RunAndCompare(text, 9, &kinds, sm), "") << sm;
    EXPECT_EQ(kinds, std::vector<std::string>{"gemm-mma"});
  }
}

// A batched bf16 GEMM fusion whose result is bitcast and transposed (as
// attention's score and context dots are): each element is stored where the
// chain moves it.
TEST(GemmMma, BatchedEpilogueThroughABitcastAndATranspose) {
  std::string text = R"hlo(
HloModule m
fused {
  a = bf16[2,3,17,40]{3,2,1,0} parameter(0)
  b = bf16[2,3,40,19]{3,2,1,0} parameter(1)
  d = bf16[2,3,17,19]{3,2,1,0} dot(a, b), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={2}
  bc = bf16[6,17,19]{2,1,0} bitcast(d)
  n = bf16[6,17,19]{2,1,0} negate(bc)
  ROOT t = bf16[19,6,17]{2,1,0} transpose(n), dimensions={2,0,1}
}
ENTRY main {
  a = bf16[2,3,17,40]{3,2,1,0} parameter(0)
  b = bf16[2,3,40,19]{3,2,1,0} parameter(1)
  ROOT f = bf16[19,6,17]{2,1,0} fusion(a, b), kind=kOutput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 10, &kinds, "sm_80", Tolerance{}), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"gemm-mma"});
}

}  // namespace
}  // namespace hloscope::codegen
