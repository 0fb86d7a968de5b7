#include "core/ir/float_types.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace hloscope {

uint16_t FloatToBF16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  return static_cast<uint16_t>(u >> 16);
}

float BF16ToFloat(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t FloatToF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t man = x & 0x7fffff;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000;
    int shift = 14 - e;
    uint32_t half = 1u << (shift - 1);
    uint32_t rounded = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    if (rem > half || (rem == half && (rounded & 1))) ++rounded;
    return static_cast<uint16_t>(sign | rounded);
  }
  uint32_t rounded = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  uint32_t rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (rounded & 1))) ++rounded;  // may carry into inf
  return static_cast<uint16_t>(sign | rounded);
}

float F16ToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ff;
  uint32_t out;
  if (exp == 0) {
    if (man == 0) {
      out = sign;
    } else {
      float v = std::ldexp(static_cast<float>(man), -24);
      return sign ? -v : v;
    }
  } else if (exp == 31) {
    out = sign | 0x7f800000 | (man << 13);
  } else {
    out = sign | ((exp - 15 + 127) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

namespace {

using MiniFormat = MinifloatFormat;

MiniFormat FormatOf(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF8E5M2: return {5, 2, 15, true, true, MiniFormat::kIeee};
    case PrimitiveType::kF8E4M3: return {4, 3, 7, true, true, MiniFormat::kIeee};
    case PrimitiveType::kF8E4M3FN: return {4, 3, 7, false, true, MiniFormat::kAllOnes};
    case PrimitiveType::kF8E4M3B11FNUZ: return {4, 3, 11, false, true, MiniFormat::kNegZero};
    case PrimitiveType::kF8E5M2FNUZ: return {5, 2, 16, false, true, MiniFormat::kNegZero};
    case PrimitiveType::kF8E4M3FNUZ: return {4, 3, 8, false, true, MiniFormat::kNegZero};
    case PrimitiveType::kF8E3M4: return {3, 4, 3, true, true, MiniFormat::kIeee};
    case PrimitiveType::kF8E8M0FNU: return {8, 0, 127, false, false, MiniFormat::kAllOnesNoSign};
    case PrimitiveType::kF4E2M1FN: return {2, 1, 1, false, true, MiniFormat::kNone};
    default: return {5, 2, 15, true, true, MiniFormat::kIeee};
  }
}

// Decodes a magnitude code (sign stripped). NaN → quiet NaN.
double DecodeMagnitude(const MiniFormat& f, uint32_t code) {
  uint32_t exp = code >> f.man_bits;
  uint32_t man = code & ((1u << f.man_bits) - 1);
  uint32_t max_exp = (1u << f.exp_bits) - 1;
  if (f.nan == MiniFormat::kIeee && exp == max_exp)
    return man ? std::numeric_limits<double>::quiet_NaN()
               : std::numeric_limits<double>::infinity();
  if (f.nan == MiniFormat::kAllOnes && exp == max_exp && man == (1u << f.man_bits) - 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (f.nan == MiniFormat::kAllOnesNoSign && code == 0xff)
    return std::numeric_limits<double>::quiet_NaN();
  if (f.man_bits == 0) return std::ldexp(1.0, static_cast<int>(exp) - f.bias);
  if (exp == 0) return std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
  return std::ldexp(static_cast<double>(man | (1u << f.man_bits)),
                    static_cast<int>(exp) - f.bias - f.man_bits);
}

struct MiniTable {
  MiniFormat fmt;
  std::vector<std::pair<double, uint32_t>> finite;  // ascending positive magnitudes
};

const MiniTable& TableFor(PrimitiveType t) {
  // Built on first use; threads that race build one each and keep the first.
  static std::array<std::atomic<MiniTable*>, 64> tables{};
  int idx = static_cast<int>(t);
  if (MiniTable* have = tables[idx].load(std::memory_order_acquire)) return *have;
  auto* tab = new MiniTable{FormatOf(t), {}};
  int mag_bits = tab->fmt.exp_bits + tab->fmt.man_bits;
  for (uint32_t c = 0; c < (1u << mag_bits); ++c) {
    double v = DecodeMagnitude(tab->fmt, c);
    if (std::isfinite(v)) tab->finite.push_back({v, c});
  }
  std::sort(tab->finite.begin(), tab->finite.end());
  MiniTable* expected = nullptr;
  if (!tables[idx].compare_exchange_strong(expected, tab, std::memory_order_acq_rel)) {
    delete tab;
    return *expected;
  }
  return *tab;
}

}  // namespace

double MinifloatToDouble(PrimitiveType t, uint8_t code) {
  MiniFormat f = FormatOf(t);
  int mag_bits = f.exp_bits + f.man_bits;
  uint32_t mag = code & ((1u << mag_bits) - 1);
  bool neg = f.has_sign && ((code >> mag_bits) & 1);
  if (f.nan == MiniFormat::kNegZero && neg && mag == 0)
    return std::numeric_limits<double>::quiet_NaN();
  double v = DecodeMagnitude(f, mag);
  return neg ? -v : v;
}

uint8_t DoubleToMinifloat(PrimitiveType t, double v) {
  const MiniTable& tab = TableFor(t);
  const MiniFormat& f = tab.fmt;
  int mag_bits = f.exp_bits + f.man_bits;
  uint32_t sign_bit = f.has_sign ? (1u << mag_bits) : 0;
  auto nan_code = [&]() -> uint8_t {
    switch (f.nan) {
      case MiniFormat::kIeee: return static_cast<uint8_t>((((1u << f.exp_bits) - 1) << f.man_bits) | 1);
      case MiniFormat::kAllOnes: return static_cast<uint8_t>((1u << mag_bits) - 1);
      case MiniFormat::kNegZero: return static_cast<uint8_t>(sign_bit);
      case MiniFormat::kAllOnesNoSign: return 0xff;
      case MiniFormat::kNone: return static_cast<uint8_t>((1u << mag_bits) - 1);  // saturate
    }
    return 0;
  };
  if (std::isnan(v)) return nan_code();
  bool neg = std::signbit(v);
  double a = std::fabs(v);
  if (!f.has_sign && neg && a != 0) return nan_code();
  const auto& fin = tab.finite;
  double maxv = fin.back().first;
  uint32_t code;
  if (std::isinf(a) || a > maxv) {
    // Beyond the largest finite value: round to it unless past the half-ulp
    // boundary, in which case overflow to inf (or NaN / saturate).
    double prev = fin[fin.size() - 2].first;
    double boundary = maxv + (maxv - prev) / 2;
    // At the boundary itself the tie goes to the even neighbour: the largest
    // value when its code is even (…fn: 448 for e4m3fn), else overflow.
    if (std::isinf(a) || a > boundary || (a == boundary && (fin.back().second & 1))) {
      if (f.has_inf) code = ((1u << f.exp_bits) - 1) << f.man_bits;
      else if (f.nan == MiniFormat::kNone) code = fin.back().second;
      else return nan_code();
    } else {
      code = fin.back().second;
    }
  } else {
    auto it = std::lower_bound(fin.begin(), fin.end(), std::make_pair(a, 0u));
    if (it == fin.begin()) {
      code = it->second;
    } else {
      auto lo = std::prev(it);
      double dlo = a - lo->first, dhi = it->first - a;
      if (dlo < dhi) code = lo->second;
      else if (dhi < dlo) code = it->second;
      else code = (lo->second & 1) ? it->second : lo->second;
    }
  }
  if (neg && f.has_sign && !(f.nan == MiniFormat::kNegZero && code == 0)) code |= sign_bit;
  return static_cast<uint8_t>(code);
}

MinifloatFormat MinifloatFormatOf(PrimitiveType t) { return FormatOf(t); }

double MinifloatMax(PrimitiveType t) { return TableFor(t).finite.back().first; }

double NarrowFloatToDouble(PrimitiveType t, uint64_t bits) {
  switch (t) {
    case PrimitiveType::kF16: return F16ToFloat(static_cast<uint16_t>(bits));
    case PrimitiveType::kBF16: return BF16ToFloat(static_cast<uint16_t>(bits));
    default: return MinifloatToDouble(t, static_cast<uint8_t>(bits));
  }
}

uint64_t DoubleToNarrowFloat(PrimitiveType t, double v) {
  switch (t) {
    case PrimitiveType::kF16: {
      // Round once from double: go through float only when exact enough.
      float f = static_cast<float>(v);
      return FloatToF16(f);
    }
    case PrimitiveType::kBF16: return FloatToBF16(static_cast<float>(v));
    default: return DoubleToMinifloat(t, v);
  }
}

}  // namespace hloscope
