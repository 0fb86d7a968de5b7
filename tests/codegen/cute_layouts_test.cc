// The CPU's tensor-core stand-ins (cpu_mma.cc, cpu_wgmma.cc) against a
// second source. They were written from the PTX ISA's tables, and so were
// the emitters that rely on them: a misreading shared by both would pass
// every CPU run and fail only on a GPU. NVIDIA's CUTLASS writes the same
// hardware facts another way, as CuTe layouts: functions from (thread,
// value) to a position in the operand, given as nested shapes and strides.
// The shapes and strides below are CuTe's, as its headers state them
// (cute/atom/mma_traits_sm80.hpp, copy_traits_sm75.hpp,
// mma_traits_sm90_gmma.hpp, and make_gmma_desc's canonical shared-memory
// layouts); a small evaluator of our own turns them into operands, and each
// instruction's emulation must put every value where CuTe says it goes.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/codegen/cpu_runtime.h"

namespace hloscope::codegen {
namespace {

// A CuTe layout flattened: modes of (size, stride), the first fastest (CuTe
// decomposes a coordinate colexicographically).
using Mode = std::vector<std::pair<int64_t, int64_t>>;

int64_t Apply(const Mode& mode, int64_t x) {
  int64_t at = 0;
  for (const auto& [size, stride] : mode) {
    at += (x % size) * stride;
    x /= size;
  }
  return at;
}

// A (thread, value) → index layout.
struct TvLayout {
  Mode thr, val;
  int64_t operator()(int64_t t, int64_t v) const { return Apply(thr, t) + Apply(val, v); }
};

uint16_t Bf16(float f) { return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16); }

// Small integers: exact in bf16, products and sums exact in f32.
float AValue(int64_t m, int64_t k) { return static_cast<float>((m * 7 + k * 3) % 11 - 5); }
float BValue(int64_t k, int64_t n) { return static_cast<float>((k * 5 + n * 2) % 9 - 4); }

// mma.sync m16n8k16 (CuTe's SM80_16x8x16_F32BF16BF16F32_TN): A is
// ((4,8),(2,2,2)):((32,1),(16,8,128)) into the column-major 16×16 (m + 16k),
// B ((4,8),(2,2)):((16,1),(8,64)) into n + 8k, C and D
// ((4,8),(2,2)):((32,1),(16,8)) into m + 16n; values in register order, two
// 16-bit values a register, the first in the low half.
TEST(CuteLayouts, MmaM16N8K16FragmentsAreCuTes) {
  const TvLayout a{{{4, 32}, {8, 1}}, {{2, 16}, {2, 8}, {2, 128}}};
  const TvLayout b{{{4, 16}, {8, 1}}, {{2, 8}, {2, 64}}};
  const TvLayout c{{{4, 32}, {8, 1}}, {{2, 16}, {2, 8}}};
  uint32_t words[32][cpu::kMmaFragWords] = {};
  uint32_t* frags[32];
  for (int lane = 0; lane < 32; ++lane) {
    frags[lane] = words[lane];
    for (int v = 0; v < 8; ++v) {
      const int64_t at = a(lane, v);
      words[lane][v / 2] |= static_cast<uint32_t>(Bf16(AValue(at % 16, at / 16))) << (16 * (v % 2));
    }
    for (int v = 0; v < 4; ++v) {
      const int64_t at = b(lane, v);
      words[lane][4 + v / 2] |= static_cast<uint32_t>(Bf16(BValue(at / 8, at % 8))) << (16 * (v % 2));
    }
    for (int v = 0; v < 4; ++v) {
      const int64_t at = c(lane, v);
      words[lane][6 + v] = std::bit_cast<uint32_t>(static_cast<float>(at % 16 - at / 16));  // C(m, n) = m - n
    }
  }
  cpu::WarpMmaM16N8K16(cpu::kMmaBf16, frags);
  for (int lane = 0; lane < 32; ++lane)
    for (int v = 0; v < 4; ++v) {
      const int64_t at = c(lane, v), m = at % 16, n = at / 16;
      float want = static_cast<float>(m - n);
      for (int k = 0; k < 16; ++k) want += AValue(m, k) * BValue(k, n);
      EXPECT_EQ(std::bit_cast<float>(words[lane][6 + v]), want) << "lane " << lane << " d" << v;
    }
}

// ldmatrix .x4 (CuTe's SM75_U32x4_LDSM_N and SM75_U16x8_LDSM_T, in bits):
// lane s gives the address of 128-bit row s (source (32,128):(128,1)); the
// destination is, without .trans, ((32),(32,4)):((32),(1,1024)) and, with
// .trans, ((4,8),(16,2,4)):((256,16),(1,128,1024)) over the same bits.
TEST(CuteLayouts, LdmatrixX4DeliversTheBitsCuTeNames) {
  // 32 rows of 8 distinct 16-bit values, 48 bytes apart (not contiguous:
  // each lane's address counts).
  std::vector<uint8_t> smem(32 * 48);
  uint16_t value[32][8];
  const uint8_t* rows[32];
  for (int s = 0; s < 32; ++s) {
    for (int e = 0; e < 8; ++e) {
      value[s][e] = static_cast<uint16_t>(0x100 * s + e + 1);
      std::memcpy(smem.data() + s * 48 + 2 * e, &value[s][e], 2);
    }
    rows[s] = smem.data() + s * 48;
  }
  // Bit i of the source: row i / 128, 16-bit element (i % 128) / 16, bit i % 16.
  auto source_bit = [&](int64_t i) { return (value[i / 128][(i % 128) / 16] >> (i % 16)) & 1u; };
  const TvLayout plain{{{32, 32}}, {{32, 1}, {4, 1024}}};
  const TvLayout trans{{{4, 256}, {8, 16}}, {{16, 1}, {2, 128}, {4, 1024}}};
  for (bool t : {false, true}) {
    uint32_t words[32][4] = {};
    uint32_t* out[32];
    for (int l = 0; l < 32; ++l) out[l] = words[l];
    if (t) cpu::WarpLdmatrixX4Trans(rows, out);
    else cpu::WarpLdmatrixX4(rows, out);
    const TvLayout& dst = t ? trans : plain;
    for (int l = 0; l < 32; ++l)
      for (int v = 0; v < 128; ++v) {  // register v / 32, bit v % 32
        const uint32_t got = (words[l][v / 32] >> (v % 32)) & 1u;
        ASSERT_EQ(got, source_bit(dst(l, v))) << (t ? "trans" : "plain") << " lane " << l << " bit " << v;
      }
  }
}

// wgmma m64n128k16 from shared memory (CuTe's SM90_64x128x16_F32BF16BF16_SS):
// the operands in make_gmma_desc's canonical 128-byte-swizzle layouts, in
// 16-byte units (T = 8 bf16): K-major ((8,m),(T,2)):((8T,SBO),(1,T)),
// MN-major ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)); the swizzle
// (Swizzle<3,4,3> on the address) XORs address bits 4-6 with bits 7-9; the
// descriptor holds the start address, LBO and SBO in 16-byte units at bits
// 0, 16 and 32, the layout type at bit 62 (1: 128-byte swizzle). D is
// CLayout_64x128: ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)) into m + 64n.
TEST(CuteLayouts, WgmmaOperandsAndAccumulatorsAreCuTes) {
  constexpr int64_t kN = 128, kSbo = 1024, kLbo = 2048;
  constexpr int64_t kBOffset = 16384;  // B after A in the window
  const TvLayout d{{{4, 128}, {8, 1}, {4, 16}}, {{2, 64}, {2, 8}, {16, 512}}};
  auto k_major = [&](int64_t i, int64_t k) {  // byte offset before the swizzle
    return 2 * Apply({{8, 64}, {kN, kSbo / 2}}, i) + 2 * Apply({{8, 1}, {2, 8}}, k);
  };
  auto mn_major = [&](int64_t i, int64_t k) {
    return 2 * Apply({{8, 1}, {8, 8}, {kN, kLbo / 2}}, i) + 2 * Apply({{8, 64}, {2, kSbo / 2}}, k);
  };
  auto swizzle = [](int64_t off) { return off ^ (((off >> 7) & 7) << 4); };
  for (const bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "M/N-major operands" : "K-major operands");
    alignas(1024) static uint8_t window[32768];
    std::memset(window, 0, sizeof window);
    auto put = [&](int64_t base, int64_t i, int64_t k, float f) {
      const uint16_t bits = Bf16(f);
      std::memcpy(window + base + swizzle(transposed ? mn_major(i, k) : k_major(i, k)), &bits, 2);
    };
    for (int64_t m = 0; m < 64; ++m)
      for (int64_t k = 0; k < 16; ++k) put(0, m, k, AValue(m, k));
    for (int64_t n = 0; n < kN; ++n)
      for (int64_t k = 0; k < 16; ++k) put(kBOffset, n, k, BValue(k, n));
    auto desc = [&](int64_t base) {
      const uint64_t start = (reinterpret_cast<uintptr_t>(window) + base) & 0x3FFFF;
      return (start >> 4) | (static_cast<uint64_t>((transposed ? kLbo : 16) >> 4) << 16) | (static_cast<uint64_t>(kSbo >> 4) << 32) |
             (uint64_t{1} << 62);
    };
    const int32_t flags = transposed ? cpu::kWgmmaTransA | cpu::kWgmmaTransB : 0;
    for (int thread = 0; thread < 128; ++thread) {
      std::vector<float> acc(kN / 2, 0.0f);
      cpu::WgmmaReads reads;
      std::string error;
      ASSERT_TRUE(cpu::WgmmaM64K16Thread(flags, kN, desc(0), desc(kBOffset), window, sizeof window, thread,
                                         acc.data(), &reads, &error))
          << error;
      for (int64_t v = 0; v < kN / 2; ++v) {
        const int64_t at = d(thread, v), m = at % 64, n = at / 64;
        float want = 0;
        for (int64_t k = 0; k < 16; ++k) want += AValue(m, k) * BValue(k, n);
        ASSERT_EQ(acc[static_cast<size_t>(v)], want) << "thread " << thread << " value " << v;
      }
    }
  }
}

}  // namespace
}  // namespace hloscope::codegen
