// libdevice on the CPU: every `__nv_*` math function kernels may call, mapped
// to the host's libm or, for the few libdevice-only ones, implemented here;
// plus the half/bfloat conversion helpers LLVM's x86 backend calls.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/codegen/cpu_runtime.h"

namespace hloscope::codegen::cpu {

float HalfBitsToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (man << 13);
  } else if (exp == 0) {
    if (man == 0) return std::bit_cast<float>(sign);
    float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (man << 13);
  }
  return std::bit_cast<float>(x);
}

namespace {

float Rsqrtf(float x) { return 1.0f / std::sqrt(x); }
double Rsqrt(double x) { return 1.0 / std::sqrt(x); }
float Saturatef(float x) { return std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f); }
int32_t Isnanf(float x) { return std::isnan(x); }
int32_t Isnand(double x) { return std::isnan(x); }
int32_t Isinff(float x) { return std::isinf(x); }
int32_t Isinfd(double x) { return std::isinf(x); }
int32_t Finitef(float x) { return std::isfinite(x); }
int32_t Isfinited(double x) { return std::isfinite(x); }
int32_t Signbitf(float x) { return std::signbit(x); }
int32_t Signbitd(double x) { return std::signbit(x); }
float Powif(float x, int32_t n) { return std::pow(x, static_cast<float>(n)); }
double Powi(double x, int32_t n) { return std::pow(x, static_cast<double>(n)); }
float Exp10f(float x) { return std::pow(10.0f, x); }
double Exp10(double x) { return std::pow(10.0, x); }
float Fdividef(float a, float b) { return a / b; }
float Frcp(float a) { return 1.0f / a; }
int32_t Popc(uint32_t x) { return std::popcount(x); }
int32_t Popcll(uint64_t x) { return std::popcount(x); }
int32_t Clz(uint32_t x) { return std::countl_zero(x); }
int32_t Clzll(uint64_t x) { return std::countl_zero(x); }
// Rounds to nearest-even like the GPU's cvt.rni.
float Rintf(float x) { return std::nearbyint(x); }
double Rint(double x) { return std::nearbyint(x); }

// --- half / bfloat ------------------------------------------------------------
// x86-64 passes half and bfloat in the low 16 bits of an XMM register; these
// take/return a float whose low 16 bits are the value.
uint16_t FloatToHalfBits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {  // subnormal half (or zero)
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;  // may carry into the exponent: correct
  return static_cast<uint16_t>(sign | half);
}
uint16_t FloatToBf16Bits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}
float Packed(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
uint16_t Unpacked(float f) { return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) & 0xffffu); }

float TruncSfHf2(float f) { return Packed(FloatToHalfBits(f)); }
float TruncDfHf2(double d) {
  // Round once: through float is exact enough except for double-rounding
  // ties, which a kernel computing in double and storing half accepts.
  return Packed(FloatToHalfBits(static_cast<float>(d)));
}
float ExtendHfSf2(float h) { return HalfBitsToFloat(Unpacked(h)); }
float TruncSfBf2(float f) { return Packed(FloatToBf16Bits(f)); }
float TruncDfBf2(double d) { return Packed(FloatToBf16Bits(static_cast<float>(d))); }
uint16_t GnuF2hIeee(float f) { return FloatToHalfBits(f); }
float GnuH2fIeee(uint16_t h) { return HalfBitsToFloat(h); }

template <typename F>
void* Fn(F* f) {
  return reinterpret_cast<void*>(f);
}

std::vector<std::pair<std::string, void*>> Table() {
  using F1 = float (*)(float);
  using D1 = double (*)(double);
  using F2 = float (*)(float, float);
  using D2 = double (*)(double, double);
  std::vector<std::pair<std::string, void*>> t;
  auto f1 = [&](const char* nv, F1 f) { t.emplace_back(nv, Fn(f)); };
  auto d1 = [&](const char* nv, D1 f) { t.emplace_back(nv, Fn(f)); };
  auto f2 = [&](const char* nv, F2 f) { t.emplace_back(nv, Fn(f)); };
  auto d2 = [&](const char* nv, D2 f) { t.emplace_back(nv, Fn(f)); };
  // float
  f1("__nv_expf", ::expf); f1("__nv_fast_expf", ::expf); f1("__nv_exp2f", ::exp2f); f1("__nv_expm1f", ::expm1f);
  f1("__nv_exp10f", Exp10f); f1("__nv_fast_exp10f", Exp10f);
  f1("__nv_logf", ::logf); f1("__nv_fast_logf", ::logf); f1("__nv_log2f", ::log2f); f1("__nv_fast_log2f", ::log2f);
  f1("__nv_log10f", ::log10f); f1("__nv_fast_log10f", ::log10f); f1("__nv_log1pf", ::log1pf);
  f1("__nv_sinf", ::sinf); f1("__nv_fast_sinf", ::sinf); f1("__nv_cosf", ::cosf); f1("__nv_fast_cosf", ::cosf);
  f1("__nv_tanf", ::tanf); f1("__nv_fast_tanf", ::tanf);
  f1("__nv_asinf", ::asinf); f1("__nv_acosf", ::acosf); f1("__nv_atanf", ::atanf);
  f1("__nv_sinhf", ::sinhf); f1("__nv_coshf", ::coshf); f1("__nv_tanhf", ::tanhf);
  f1("__nv_asinhf", ::asinhf); f1("__nv_acoshf", ::acoshf); f1("__nv_atanhf", ::atanhf);
  f1("__nv_sqrtf", ::sqrtf); f1("__nv_cbrtf", ::cbrtf); f1("__nv_rsqrtf", Rsqrtf);
  f1("__nv_fabsf", ::fabsf); f1("__nv_floorf", ::floorf); f1("__nv_ceilf", ::ceilf); f1("__nv_truncf", ::truncf);
  f1("__nv_roundf", ::roundf); f1("__nv_rintf", Rintf); f1("__nv_nearbyintf", Rintf);
  f1("__nv_erff", ::erff); f1("__nv_erfcf", ::erfcf); f1("__nv_lgammaf", ::lgammaf); f1("__nv_tgammaf", ::tgammaf);
  f1("__nv_saturatef", Saturatef); f1("__nv_frcp_rn", Frcp); f1("__nv_logbf", ::logbf);
  f2("__nv_powf", ::powf); f2("__nv_fast_powf", ::powf); f2("__nv_atan2f", ::atan2f); f2("__nv_fmodf", ::fmodf);
  f2("__nv_remainderf", ::remainderf); f2("__nv_fminf", ::fminf); f2("__nv_fmaxf", ::fmaxf);
  f2("__nv_hypotf", ::hypotf); f2("__nv_copysignf", ::copysignf); f2("__nv_nextafterf", ::nextafterf);
  f2("__nv_fdividef", Fdividef); f2("__nv_fast_fdividef", Fdividef);
  t.emplace_back("__nv_fmaf", Fn(static_cast<float (*)(float, float, float)>(::fmaf)));
  t.emplace_back("__nv_powif", Fn(Powif));
  t.emplace_back("__nv_ldexpf", Fn(static_cast<float (*)(float, int)>(::ldexpf)));
  t.emplace_back("__nv_isnanf", Fn(Isnanf));
  t.emplace_back("__nv_isinff", Fn(Isinff));
  t.emplace_back("__nv_finitef", Fn(Finitef));
  t.emplace_back("__nv_signbitf", Fn(Signbitf));
  // double
  d1("__nv_exp", ::exp); d1("__nv_exp2", ::exp2); d1("__nv_expm1", ::expm1); d1("__nv_exp10", Exp10);
  d1("__nv_log", ::log); d1("__nv_log2", ::log2); d1("__nv_log10", ::log10); d1("__nv_log1p", ::log1p);
  d1("__nv_sin", ::sin); d1("__nv_cos", ::cos); d1("__nv_tan", ::tan);
  d1("__nv_asin", ::asin); d1("__nv_acos", ::acos); d1("__nv_atan", ::atan);
  d1("__nv_sinh", ::sinh); d1("__nv_cosh", ::cosh); d1("__nv_tanh", ::tanh);
  d1("__nv_asinh", ::asinh); d1("__nv_acosh", ::acosh); d1("__nv_atanh", ::atanh);
  d1("__nv_sqrt", ::sqrt); d1("__nv_cbrt", ::cbrt); d1("__nv_rsqrt", Rsqrt);
  d1("__nv_fabs", ::fabs); d1("__nv_floor", ::floor); d1("__nv_ceil", ::ceil); d1("__nv_trunc", ::trunc);
  d1("__nv_round", ::round); d1("__nv_rint", Rint); d1("__nv_nearbyint", Rint);
  d1("__nv_erf", ::erf); d1("__nv_erfc", ::erfc); d1("__nv_lgamma", ::lgamma); d1("__nv_tgamma", ::tgamma);
  d1("__nv_logb", ::logb);
  d2("__nv_pow", ::pow); d2("__nv_atan2", ::atan2); d2("__nv_fmod", ::fmod); d2("__nv_remainder", ::remainder);
  d2("__nv_fmin", ::fmin); d2("__nv_fmax", ::fmax); d2("__nv_hypot", ::hypot); d2("__nv_copysign", ::copysign);
  d2("__nv_nextafter", ::nextafter);
  t.emplace_back("__nv_fma", Fn(static_cast<double (*)(double, double, double)>(::fma)));
  t.emplace_back("__nv_powi", Fn(Powi));
  t.emplace_back("__nv_ldexp", Fn(static_cast<double (*)(double, int)>(::ldexp)));
  t.emplace_back("__nv_isnand", Fn(Isnand));
  t.emplace_back("__nv_isinfd", Fn(Isinfd));
  t.emplace_back("__nv_isfinited", Fn(Isfinited));
  t.emplace_back("__nv_signbitd", Fn(Signbitd));
  // integer
  t.emplace_back("__nv_popc", Fn(Popc));
  t.emplace_back("__nv_popcll", Fn(Popcll));
  t.emplace_back("__nv_clz", Fn(Clz));
  t.emplace_back("__nv_clzll", Fn(Clzll));
  return t;
}

}  // namespace

std::vector<std::pair<std::string, void*>> LibdeviceSymbols() {
  std::vector<std::pair<std::string, void*>> t = Table();
  t.emplace_back("__truncsfhf2", Fn(TruncSfHf2));
  t.emplace_back("__truncdfhf2", Fn(TruncDfHf2));
  t.emplace_back("__extendhfsf2", Fn(ExtendHfSf2));
  t.emplace_back("__truncsfbf2", Fn(TruncSfBf2));
  t.emplace_back("__truncdfbf2", Fn(TruncDfBf2));
  t.emplace_back("__gnu_f2h_ieee", Fn(GnuF2hIeee));
  t.emplace_back("__gnu_h2f_ieee", Fn(GnuH2fIeee));
  return t;
}

bool HasLibdeviceFunction(const std::string& name) {
  static const std::set<std::string> names = [] {
    std::set<std::string> s;
    for (auto& [n, p] : Table()) s.insert(n);
    return s;
  }();
  return names.count(name) > 0;
}

}  // namespace hloscope::codegen::cpu
