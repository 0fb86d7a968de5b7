// Typed element access for the interpreter's tight loops: each storage type
// has a compute type (f16/bf16 compute in f32 and round to nearest even on
// store, as XLA's evaluator does) and visitors switch once per op, never
// per element.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "core/ir/float_types.h"
#include "core/ir/primitive_type.h"

namespace hloscope::eval {

template <class S_, class C_ = S_>
struct Plain {
  using S = S_;
  using C = C_;
  static C Load(S v) { return static_cast<C>(v); }
  static S Store(C v) { return static_cast<S>(v); }
};

struct PredTr {
  using S = uint8_t;
  using C = bool;
  static C Load(S v) { return v != 0; }
  static S Store(C v) { return v ? 1 : 0; }
};

struct BF16Tr {
  using S = uint16_t;
  using C = float;
  static C Load(S v) { return BF16ToFloat(v); }
  static S Store(C v) { return FloatToBF16(v); }
};

struct F16Tr {
  using S = uint16_t;
  using C = float;
  static C Load(S v) { return F16ToFloat(v); }
  static S Store(C v) { return FloatToF16(v); }
};

template <class T>
inline constexpr bool kIsComplex = false;
template <class T>
inline constexpr bool kIsComplex<std::complex<T>> = true;

// Integer types (sub-byte ones as their 8-bit container) and pred.
template <class F>
decltype(auto) VisitInt(PrimitiveType t, F&& f) {
  switch (t) {
    case PrimitiveType::kPred: return f(PredTr{});
    case PrimitiveType::kS1:
    case PrimitiveType::kS2:
    case PrimitiveType::kS4:
    case PrimitiveType::kS8: return f(Plain<int8_t>{});
    case PrimitiveType::kS16: return f(Plain<int16_t>{});
    case PrimitiveType::kS32: return f(Plain<int32_t>{});
    case PrimitiveType::kS64: return f(Plain<int64_t>{});
    case PrimitiveType::kU1:
    case PrimitiveType::kU2:
    case PrimitiveType::kU4:
    case PrimitiveType::kU8: return f(Plain<uint8_t>{});
    case PrimitiveType::kU16: return f(Plain<uint16_t>{});
    case PrimitiveType::kU32: return f(Plain<uint32_t>{});
    default: return f(Plain<uint64_t>{});
  }
}

// Every real type with a native loop: ints, pred, f16, bf16, f32, f64.
// Returns false (without calling f) for f8/f4 and complex types.
template <class F>
bool VisitReal(PrimitiveType t, F&& f) {
  switch (t) {
    case PrimitiveType::kF16: f(F16Tr{}); return true;
    case PrimitiveType::kBF16: f(BF16Tr{}); return true;
    case PrimitiveType::kF32: f(Plain<float>{}); return true;
    case PrimitiveType::kF64: f(Plain<double>{}); return true;
    default:
      if (!IsInteger(t) && t != PrimitiveType::kPred) return false;
      VisitInt(t, f);
      return true;
  }
}

// Shifts a value's raw bits of a given storage size.
template <int kBytes>
struct RawOf;
template <>
struct RawOf<1> { using T = uint8_t; };
template <>
struct RawOf<2> { using T = uint16_t; };
template <>
struct RawOf<4> { using T = uint32_t; };
template <>
struct RawOf<8> { using T = uint64_t; };
struct Raw16 {
  uint64_t lo, hi;
};
template <>
struct RawOf<16> { using T = Raw16; };

template <class F>
void VisitBytes(int bytes, F&& f) {
  switch (bytes) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    case 8: f(uint64_t{}); break;
    default: f(Raw16{}); break;
  }
}

}  // namespace hloscope::eval
