// The CPU's warpgroup MMA (cpu_runtime.h): one thread's share of
// wgmma.mma_async m64nNk16 with f32 accumulators and bf16/f16 operands read
// from shared memory through their matrix descriptors.
//
// What the PTX ISA defines and this file follows ("Asynchronous Warpgroup
// Level Matrix Shared Memory Layout", "Matrix Descriptor Format",
// "Register Fragments" of wgmma .m64nNk16):
//   - the descriptor: bits 0-13 start address >> 4, 16-29 leading byte
//     offset >> 4, 32-45 stride byte offset >> 4, 49-51 base offset, 62-63
//     swizzle mode (1 = 128-byte);
//   - the 128-byte swizzle: rows of 128 bytes in atoms of 8 rows (1024
//     bytes), the 16-byte chunk c of row r stored at chunk c ^ (r % 8),
//     computed on the shared-memory address bits (4-6 ^= 7-9);
//   - K-major operands: an atom is 8 rows (m or n) of 64 k values, the 8-row
//     groups SBO apart; M/N-major: an atom is 8 k rows of 64 m or n values,
//     the 8-k groups SBO apart and the 64-wide atoms along m/n LBO apart;
//   - D: warp w of the warpgroup owns rows 16w … 16w + 15, laid out in each
//     8-column block as mma.m16n8's C fragment.
// Only the 128-byte swizzle with base offset 0 is provided (the one mode the
// emitter writes, gemm_wgmma_emitter.cc); anything else is refused by name.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/codegen/cpu_runtime.h"

namespace hloscope::codegen::cpu {
namespace {

struct Descriptor {
  uint64_t start = 0, lbo = 0, sbo = 0;
};

bool Decode(uint64_t d, const char* which, Descriptor* out, std::string* error) {
  const uint64_t mode = d >> 62, base_offset = (d >> 49) & 7;
  if (mode != 1 || base_offset != 0) {
    *error = std::string("wgmma: the ") + which + " descriptor's swizzle mode " + std::to_string(mode) +
             " / base offset " + std::to_string(base_offset) +
             " is not provided on the CPU (only the 128-byte swizzle with base offset 0)";
    return false;
  }
  out->start = (d & 0x3FFF) << 4;
  out->lbo = ((d >> 16) & 0x3FFF) << 4;
  out->sbo = ((d >> 32) & 0x3FFF) << 4;
  return true;
}

// Operand element (i, k) of a descriptor: its byte offset in the window, or
// -1 outside it.
int64_t ElementOffset(const Descriptor& d, bool mn_major, int64_t i, int64_t k, uint64_t window_base18,
                      uint64_t window_bytes) {
  uint64_t logical = mn_major ? d.start + (i / 64) * d.lbo + (k / 8) * d.sbo + (k % 8) * 128 + 2 * (i % 64)
                              : d.start + (i / 8) * d.sbo + (i % 8) * 128 + 2 * k;
  logical &= 0x3FFFF;  // the shared window is 256 KiB
  const uint64_t swizzled = logical ^ (((logical >> 7) & 7) << 4);
  const uint64_t off = (swizzled - window_base18) & 0x3FFFF;
  return off + 2 <= window_bytes ? static_cast<int64_t>(off) : -1;
}

float Value(bool f16, const uint8_t* p) {
  uint16_t bits;
  std::memcpy(&bits, p, 2);
  if (!f16) return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
  return HalfBitsToFloat(bits);
}

struct Operands {
  Descriptor a, b;
  bool f16 = false, ta = false, tb = false;
  uint64_t base18 = 0;
};

bool Prepare(int32_t flags, int32_t n, uint64_t da, uint64_t db, const uint8_t* window, Operands* o,
             std::string* error) {
  if (n < 8 || n > 256 || n % 8 != 0) {
    *error = "wgmma: n = " + std::to_string(n) + " is not a shape of m64nNk16";
    return false;
  }
  if (!Decode(da, "A", &o->a, error) || !Decode(db, "B", &o->b, error)) return false;
  o->f16 = flags & kWgmmaF16;
  o->ta = flags & kWgmmaTransA;
  o->tb = flags & kWgmmaTransB;
  o->base18 = reinterpret_cast<uintptr_t>(window) & 0x3FFFF;
  return true;
}

std::string OutOfWindow(const char* which, int64_t i, int64_t k, uint64_t window_bytes) {
  return std::string("wgmma: operand ") + which + " element (" + std::to_string(i) + ", k " + std::to_string(k) +
         ") lies outside the kernel's " + std::to_string(window_bytes) + " bytes of shared memory";
}

}  // namespace

bool WgmmaOperandReads(int32_t flags, int32_t n, uint64_t da, uint64_t db, const uint8_t* window,
                       uint64_t window_bytes, WgmmaReads* reads, std::string* error) {
  Operands o;
  if (!Prepare(flags, n, da, db, window, &o, error)) return false;
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the elements, A then B
  uint64_t lo[2] = {~uint64_t{0}, ~uint64_t{0}}, hi[2] = {0, 0};
  auto mix = [&](int which, int64_t off) {
    for (int i = 0; i < 2; ++i) h = (h ^ window[off + i]) * 1099511628211ull;
    lo[which] = std::min<uint64_t>(lo[which], off);
    hi[which] = std::max<uint64_t>(hi[which], off + 2);
  };
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t k = 0; k < 16; ++k) {
      const int64_t off = ElementOffset(o.a, o.ta, i, k, o.base18, window_bytes);
      if (off < 0) {
        *error = OutOfWindow("A", i, k, window_bytes);
        return false;
      }
      mix(0, off);
    }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < 16; ++k) {
      const int64_t off = ElementOffset(o.b, o.tb, i, k, o.base18, window_bytes);
      if (off < 0) {
        *error = OutOfWindow("B", i, k, window_bytes);
        return false;
      }
      mix(1, off);
    }
  *reads = WgmmaReads{h, lo[0], hi[0], lo[1], hi[1]};
  return true;
}

bool WgmmaM64K16Thread(int32_t flags, int32_t n, uint64_t da, uint64_t db, const uint8_t* window,
                       uint64_t window_bytes, int thread, float* acc, WgmmaReads* reads, std::string* error) {
  if (!WgmmaOperandReads(flags, n, da, db, window, window_bytes, reads, error)) return false;  // also bounds
  Operands o;
  Prepare(flags, n, da, db, window, &o, error);
  const int64_t warp = thread / 32, lane = thread % 32;
  for (int64_t q = 0; q < n / 2; ++q) {
    const int64_t row = 16 * warp + lane / 4 + 8 * ((q % 4) / 2);
    const int64_t col = 8 * (q / 4) + 2 * (lane % 4) + q % 2;
    float sum = acc[q];
    for (int64_t k = 0; k < 16; ++k) {
      const float x = Value(o.f16, window + ElementOffset(o.a, o.ta, row, k, o.base18, window_bytes));
      const float y = Value(o.f16, window + ElementOffset(o.b, o.tb, col, k, o.base18, window_bytes));
      sum += x * y;
    }
    acc[q] = sum;
  }
  return true;
}

}  // namespace hloscope::codegen::cpu
