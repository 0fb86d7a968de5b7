// The CPU's tensor cores (cpu_runtime.h): one warp's mma.sync m16n8k16 from
// the 32 lanes' fragments. Fragment layouts as the PTX ISA gives them for
// .bf16/.f16 m16n8k16 (groupID g = lane / 4, threadID_in_group t = lane % 4):
//   A (16×16, row): register r holds a(2r), a(2r+1) at row g + 8·(r & 1),
//                   columns 2t + {0,1} + 8·(r ≥ 2);
//   B (16×8, col):  register r holds b(2r), b(2r+1) at rows 2t + {0,1} + 8·r,
//                   column g;
//   C, D (16×8 f32): c(i) at row g + 8·(i ≥ 2), column 2t + (i & 1).
// In each register the lower-numbered element is in the low 16 bits.
// Also ldmatrix m8n8.x4 .b16, the fragments' loads from shared memory.
#include <bit>
#include <cstdint>
#include <cstring>

#include "core/codegen/cpu_runtime.h"

namespace hloscope::codegen::cpu {
namespace {

float Element(MmaKind kind, uint32_t reg, int half) {
  const uint16_t bits = static_cast<uint16_t>(half ? reg >> 16 : reg & 0xffffu);
  if (kind == kMmaBf16) return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
  return HalfBitsToFloat(bits);
}

}  // namespace

void WarpMmaM16N8K16(MmaKind kind, uint32_t* const frags[32]) {
  float a[16][16], b[16][8], c[16][8];
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    const uint32_t* f = frags[lane];
    for (int r = 0; r < 4; ++r)
      for (int h = 0; h < 2; ++h) a[g + 8 * (r & 1)][2 * t + h + 8 * (r >= 2)] = Element(kind, f[r], h);
    for (int r = 0; r < 2; ++r)
      for (int h = 0; h < 2; ++h) b[2 * t + h + 8 * r][g] = Element(kind, f[4 + r], h);
    for (int i = 0; i < 4; ++i) c[g + 8 * (i >= 2)][2 * t + (i & 1)] = std::bit_cast<float>(f[6 + i]);
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float d = c[i][j];
      for (int k = 0; k < 16; ++k) {
        // The interpreter's f32 multiply, then add (volatile: no fused
        // multiply-add). Two bf16 (8-bit) or f16 (11-bit) significands
        // multiply exactly in f32's 24 bits, f32 range permitting.
        const volatile float p = a[i][k] * b[k][j];
        d = d + p;
      }
      c[i][j] = d;
    }
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; ++i) frags[lane][6 + i] = std::bit_cast<uint32_t>(c[g + 8 * (i >= 2)][2 * t + (i & 1)]);
  }
}

void WarpLdmatrixX4(const uint8_t* const rows[32], uint32_t* const out[32]) {
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j) {
      const uint8_t* row = rows[8 * j + lane / 4];
      uint32_t word;
      std::memcpy(&word, row + 4 * (lane % 4), sizeof word);
      out[lane][j] = word;
    }
}

void WarpLdmatrixX4Trans(const uint8_t* const rows[32], uint32_t* const out[32]) {
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j) {
      uint16_t lo, hi;  // rows 2·(lane % 4) and the next of matrix j, column lane / 4
      std::memcpy(&lo, rows[8 * j + 2 * (lane % 4)] + 2 * (lane / 4), 2);
      std::memcpy(&hi, rows[8 * j + 2 * (lane % 4) + 1] + 2 * (lane / 4), 2);
      out[lane][j] = uint32_t{lo} | (uint32_t{hi} << 16);
    }
}

}  // namespace hloscope::codegen::cpu
