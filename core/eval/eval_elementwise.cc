// Elementwise unary and binary arithmetic with XLA's rules: integer
// overflow wraps, x/0 = -1 (signed) or all ones (unsigned), INT_MIN/-1 =
// INT_MIN, x%0 = x, shifts past the bit width give 0 (or the sign for
// arithmetic right shifts), max/min propagate NaN, pow(x,0) = pow(1,y) = 1.
// f16/bf16/f8 compute in f32 and round to nearest even after every op.
#include <bit>
#include <cmath>
#include <limits>

#include "core/eval/eval_elementwise_impl.h"

namespace hloscope::eval {
namespace {

template <class T>
using Wide = std::make_unsigned_t<decltype(T{} + T{})>;

template <Opcode OP, class T>
inline T FloatUnary(T x) {
  if constexpr (OP == Opcode::kAbs) return std::fabs(x);
  else if constexpr (OP == Opcode::kNegate) return -x;
  else if constexpr (OP == Opcode::kSign) return std::isnan(x) ? x : std::copysign(static_cast<T>(x != 0), x);
  else if constexpr (OP == Opcode::kExp) return std::exp(x);
  else if constexpr (OP == Opcode::kExpm1) return std::expm1(x);
  else if constexpr (OP == Opcode::kLog) return std::log(x);
  else if constexpr (OP == Opcode::kLog1p) return std::log1p(x);
  else if constexpr (OP == Opcode::kSqrt) return std::sqrt(x);
  else if constexpr (OP == Opcode::kRsqrt) return static_cast<T>(1) / std::sqrt(x);
  else if constexpr (OP == Opcode::kCbrt) return std::cbrt(x);
  else if constexpr (OP == Opcode::kTanh) return std::tanh(x);
  else if constexpr (OP == Opcode::kLogistic) return static_cast<T>(1) / (static_cast<T>(1) + std::exp(-x));
  else if constexpr (OP == Opcode::kSin) return std::sin(x);
  else if constexpr (OP == Opcode::kCos) return std::cos(x);
  else if constexpr (OP == Opcode::kTan) return std::tan(x);
  else if constexpr (OP == Opcode::kErf) return std::erf(x);
  else if constexpr (OP == Opcode::kFloor) return std::floor(x);
  else if constexpr (OP == Opcode::kCeil) return std::ceil(x);
  else if constexpr (OP == Opcode::kRoundNearestAfz) return std::round(x);
  else if constexpr (OP == Opcode::kRoundNearestEven) return std::nearbyint(x);
  else if constexpr (OP == Opcode::kAcos) return std::acos(x);
  else if constexpr (OP == Opcode::kAcosh) return std::acosh(x);
  else if constexpr (OP == Opcode::kAsin) return std::asin(x);
  else if constexpr (OP == Opcode::kAsinh) return std::asinh(x);
  else if constexpr (OP == Opcode::kAtanh) return std::atanh(x);
  else if constexpr (OP == Opcode::kCosh) return std::cosh(x);
  else if constexpr (OP == Opcode::kSinh) return std::sinh(x);
  else static_assert(OP == Opcode::kAbs, "not a float unary op");
}

#define HLOSCOPE_FLOAT_UNARY(V)                                                                     \
  V(kAbs) V(kNegate) V(kSign) V(kExp) V(kExpm1) V(kLog) V(kLog1p) V(kSqrt) V(kRsqrt) V(kCbrt)      \
  V(kTanh) V(kLogistic) V(kSin) V(kCos) V(kTan) V(kErf) V(kFloor) V(kCeil) V(kRoundNearestAfz)    \
  V(kRoundNearestEven) V(kAcos) V(kAcosh) V(kAsin) V(kAsinh) V(kAtanh) V(kCosh) V(kSinh)

template <class T>
bool FloatUnaryLoop(Opcode op, const T* a, T* o, int64_t n) {
  switch (op) {
#define HLOSCOPE_CASE(OPC)                                              \
  case Opcode::OPC:                                                     \
    for (int64_t i = 0; i < n; ++i) o[i] = FloatUnary<Opcode::OPC>(a[i]); \
    return true;
    HLOSCOPE_FLOAT_UNARY(HLOSCOPE_CASE)
#undef HLOSCOPE_CASE
    default: return false;
  }
}

template <Opcode OP, class T>
inline T IntUnary(T x) {
  using U = std::make_unsigned_t<T>;
  if constexpr (OP == Opcode::kAbs) return x < 0 ? static_cast<T>(Wide<T>(0) - Wide<T>(x)) : x;
  else if constexpr (OP == Opcode::kNegate) return static_cast<T>(Wide<T>(0) - Wide<T>(x));
  else if constexpr (OP == Opcode::kSign) return static_cast<T>((T(0) < x) - (x < T(0)));
  else if constexpr (OP == Opcode::kNot) return static_cast<T>(~x);
  else if constexpr (OP == Opcode::kPopulationCount) return static_cast<T>(std::popcount(static_cast<U>(x)));
  else if constexpr (OP == Opcode::kClz) return static_cast<T>(std::countl_zero(static_cast<U>(x)));
  else static_assert(OP == Opcode::kAbs, "not an integer unary op");
}

template <class T>
bool IntUnaryLoop(Opcode op, const T* a, T* o, int64_t n) {
  switch (op) {
#define HLOSCOPE_CASE(OPC)                                            \
  case Opcode::OPC:                                                   \
    for (int64_t i = 0; i < n; ++i) o[i] = IntUnary<Opcode::OPC>(a[i]); \
    return true;
    HLOSCOPE_CASE(kAbs) HLOSCOPE_CASE(kNegate) HLOSCOPE_CASE(kSign) HLOSCOPE_CASE(kNot)
    HLOSCOPE_CASE(kPopulationCount) HLOSCOPE_CASE(kClz)
#undef HLOSCOPE_CASE
    default: return false;
  }
}

template <Opcode OP, class T>
inline T FloatBinary(T a, T b) {
  if constexpr (OP == Opcode::kAdd) return a + b;
  else if constexpr (OP == Opcode::kSubtract) return a - b;
  else if constexpr (OP == Opcode::kMultiply) return a * b;
  else if constexpr (OP == Opcode::kDivide) return a / b;
  else if constexpr (OP == Opcode::kRemainder) return std::fmod(a, b);
  else if constexpr (OP == Opcode::kPower) return (a == T(1) || b == T(0)) ? T(1) : std::pow(a, b);
  else if constexpr (OP == Opcode::kMaximum) return std::isnan(a) ? a : std::isnan(b) ? b : std::max(a, b);
  else if constexpr (OP == Opcode::kMinimum) return std::isnan(a) ? a : std::isnan(b) ? b : std::min(a, b);
  else if constexpr (OP == Opcode::kAtan2) return std::atan2(a, b);
  else static_assert(OP == Opcode::kAdd, "not a float binary op");
}

template <class T>
T IntPow(T a, T b) {
  if (a == T(1) || b == T(0)) return T(1);
  if constexpr (std::is_signed_v<T>)
    if (b < 0) return T(0);
  using W = Wide<T>;
  W result = 1, base = static_cast<W>(a);
  auto e = static_cast<std::make_unsigned_t<T>>(b);
  while (e) {
    if (e & 1) result = static_cast<W>(result * base);
    base = static_cast<W>(base * base);
    e >>= 1;
  }
  return static_cast<T>(result);
}

template <Opcode OP, class T>
inline T IntBinary(T a, T b) {
  using W = Wide<T>;
  using U = std::make_unsigned_t<T>;
  constexpr U kBits = sizeof(T) * 8;
  if constexpr (OP == Opcode::kAdd) return static_cast<T>(W(a) + W(b));
  else if constexpr (OP == Opcode::kSubtract) return static_cast<T>(W(a) - W(b));
  else if constexpr (OP == Opcode::kMultiply) return static_cast<T>(W(a) * W(b));
  else if constexpr (OP == Opcode::kDivide) {
    if (b == 0) return std::is_signed_v<T> ? static_cast<T>(-1) : std::numeric_limits<T>::max();
    if constexpr (std::is_signed_v<T>)
      if (b == -1 && a == std::numeric_limits<T>::min()) return a;
    return static_cast<T>(a / b);
  } else if constexpr (OP == Opcode::kRemainder) {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>)
      if (b == -1) return 0;
    return static_cast<T>(a % b);
  } else if constexpr (OP == Opcode::kPower) return IntPow(a, b);
  else if constexpr (OP == Opcode::kMaximum) return std::max(a, b);
  else if constexpr (OP == Opcode::kMinimum) return std::min(a, b);
  else if constexpr (OP == Opcode::kAnd) return static_cast<T>(a & b);
  else if constexpr (OP == Opcode::kOr) return static_cast<T>(a | b);
  else if constexpr (OP == Opcode::kXor) return static_cast<T>(a ^ b);
  else if constexpr (OP == Opcode::kShiftLeft) return U(b) >= kBits ? T(0) : static_cast<T>(W(U(a)) << U(b));
  else if constexpr (OP == Opcode::kShiftRightLogical) return U(b) >= kBits ? T(0) : static_cast<T>(U(a) >> U(b));
  else if constexpr (OP == Opcode::kShiftRightArithmetic) {
    using S = std::make_signed_t<T>;
    S sa = static_cast<S>(a);
    if (U(b) >= kBits) return static_cast<T>(sa < 0 ? S(-1) : S(0));
    return static_cast<T>(sa >> U(b));
  } else static_assert(OP == Opcode::kAdd, "not an integer binary op");
}

template <Opcode OP>
inline bool PredBinary(bool a, bool b) {
  if constexpr (OP == Opcode::kAnd || OP == Opcode::kMinimum || OP == Opcode::kMultiply) return a && b;
  else if constexpr (OP == Opcode::kOr || OP == Opcode::kMaximum || OP == Opcode::kAdd) return a || b;
  else if constexpr (OP == Opcode::kXor) return a != b;
  else if constexpr (OP == Opcode::kPower) return a || !b;
  else static_assert(OP == Opcode::kAnd, "not a pred binary op");
}

#define HLOSCOPE_BINARY_LOOP(FN, OPC)                                         \
  case Opcode::OPC:                                                           \
    for (int64_t i = 0; i < n; ++i) o[i] = FN<Opcode::OPC>(a[i], b[i]);      \
    return true;

template <class T>
bool FloatBinaryLoop(Opcode op, const T* a, const T* b, T* o, int64_t n) {
  switch (op) {
#define HLOSCOPE_CASE(OPC) HLOSCOPE_BINARY_LOOP(FloatBinary, OPC)
    HLOSCOPE_CASE(kAdd) HLOSCOPE_CASE(kSubtract) HLOSCOPE_CASE(kMultiply) HLOSCOPE_CASE(kDivide)
    HLOSCOPE_CASE(kRemainder) HLOSCOPE_CASE(kPower) HLOSCOPE_CASE(kMaximum) HLOSCOPE_CASE(kMinimum)
    HLOSCOPE_CASE(kAtan2)
#undef HLOSCOPE_CASE
    default: return false;
  }
}

template <class T>
bool IntBinaryLoop(Opcode op, const T* a, const T* b, T* o, int64_t n) {
  switch (op) {
#define HLOSCOPE_CASE(OPC) HLOSCOPE_BINARY_LOOP(IntBinary, OPC)
    HLOSCOPE_CASE(kAdd) HLOSCOPE_CASE(kSubtract) HLOSCOPE_CASE(kMultiply) HLOSCOPE_CASE(kDivide)
    HLOSCOPE_CASE(kRemainder) HLOSCOPE_CASE(kPower) HLOSCOPE_CASE(kMaximum) HLOSCOPE_CASE(kMinimum)
    HLOSCOPE_CASE(kAnd) HLOSCOPE_CASE(kOr) HLOSCOPE_CASE(kXor) HLOSCOPE_CASE(kShiftLeft)
    HLOSCOPE_CASE(kShiftRightLogical) HLOSCOPE_CASE(kShiftRightArithmetic)
#undef HLOSCOPE_CASE
    default: return false;
  }
}

bool PredBinaryLoop(Opcode op, const uint8_t* a, const uint8_t* b, uint8_t* o, int64_t n) {
  switch (op) {
#define HLOSCOPE_CASE(OPC)                                                          \
  case Opcode::OPC:                                                                 \
    for (int64_t i = 0; i < n; ++i) o[i] = PredBinary<Opcode::OPC>(a[i] != 0, b[i] != 0); \
    return true;
    HLOSCOPE_CASE(kAnd) HLOSCOPE_CASE(kOr) HLOSCOPE_CASE(kXor) HLOSCOPE_CASE(kMaximum)
    HLOSCOPE_CASE(kMinimum) HLOSCOPE_CASE(kAdd) HLOSCOPE_CASE(kMultiply) HLOSCOPE_CASE(kPower)
#undef HLOSCOPE_CASE
    default: return false;
  }
}

template <class T>
bool ComplexLoop(Opcode op, const T* a, const T* b, T* o, int64_t n) {
  switch (op) {
    case Opcode::kAdd: for (int64_t i = 0; i < n; ++i) o[i] = a[i] + b[i]; return true;
    case Opcode::kSubtract: for (int64_t i = 0; i < n; ++i) o[i] = a[i] - b[i]; return true;
    case Opcode::kMultiply: for (int64_t i = 0; i < n; ++i) o[i] = a[i] * b[i]; return true;
    case Opcode::kDivide: for (int64_t i = 0; i < n; ++i) o[i] = a[i] / b[i]; return true;
    case Opcode::kMaximum:  // lexicographic (real, then imaginary), as StableHLO defines it
    case Opcode::kMinimum:
      for (int64_t i = 0; i < n; ++i) {
        bool a_less = a[i].real() < b[i].real() || (a[i].real() == b[i].real() && a[i].imag() < b[i].imag());
        o[i] = (op == Opcode::kMaximum) != a_less ? a[i] : b[i];
      }
      return true;
    case Opcode::kPower:
      for (int64_t i = 0; i < n; ++i) o[i] = (a[i] == T(1) || b[i] == T(0)) ? T(1) : std::pow(a[i], b[i]);
      return true;
    case Opcode::kAtan2:  // XLA's definition: atan2(y, x) = -i log((x + iy) / sqrt(x² + y²))
      for (int64_t i = 0; i < n; ++i) {
        const T y = a[i], x = b[i], j(0, 1);
        o[i] = -j * std::log((x + j * y) / std::sqrt(x * x + y * y));
      }
      return true;
    default: return false;
  }
}

template <class T>
bool ComplexUnaryLoop(Opcode op, const T* a, T* o, int64_t n) {
  switch (op) {
    case Opcode::kNegate: for (int64_t i = 0; i < n; ++i) o[i] = -a[i]; return true;
    case Opcode::kExp: for (int64_t i = 0; i < n; ++i) o[i] = std::exp(a[i]); return true;
    case Opcode::kLog: for (int64_t i = 0; i < n; ++i) o[i] = std::log(a[i]); return true;
    case Opcode::kSqrt: for (int64_t i = 0; i < n; ++i) o[i] = std::sqrt(a[i]); return true;
    case Opcode::kRsqrt: for (int64_t i = 0; i < n; ++i) o[i] = T(1) / std::sqrt(a[i]); return true;
    case Opcode::kTanh: for (int64_t i = 0; i < n; ++i) o[i] = std::tanh(a[i]); return true;
    case Opcode::kSin: for (int64_t i = 0; i < n; ++i) o[i] = std::sin(a[i]); return true;
    case Opcode::kCos: for (int64_t i = 0; i < n; ++i) o[i] = std::cos(a[i]); return true;
    case Opcode::kTan: for (int64_t i = 0; i < n; ++i) o[i] = std::tan(a[i]); return true;
    case Opcode::kAcos: for (int64_t i = 0; i < n; ++i) o[i] = std::acos(a[i]); return true;
    case Opcode::kAcosh: for (int64_t i = 0; i < n; ++i) o[i] = std::acosh(a[i]); return true;
    case Opcode::kAsin: for (int64_t i = 0; i < n; ++i) o[i] = std::asin(a[i]); return true;
    case Opcode::kAsinh: for (int64_t i = 0; i < n; ++i) o[i] = std::asinh(a[i]); return true;
    case Opcode::kAtanh: for (int64_t i = 0; i < n; ++i) o[i] = std::atanh(a[i]); return true;
    case Opcode::kCosh: for (int64_t i = 0; i < n; ++i) o[i] = std::cosh(a[i]); return true;
    case Opcode::kSinh: for (int64_t i = 0; i < n; ++i) o[i] = std::sinh(a[i]); return true;
    case Opcode::kCbrt:  // the principal cube root
      for (int64_t i = 0; i < n; ++i) o[i] = a[i] == T(0) ? T(0) : std::pow(a[i], T(1) / T(3));
      return true;
    case Opcode::kExpm1:  // exp(x)cos(y) - 1 written without cancellation for small |z|
      for (int64_t i = 0; i < n; ++i) {
        using R = typename T::value_type;
        R x = a[i].real(), y = a[i].imag(), h = std::sin(y / 2);
        o[i] = T(std::expm1(x) * std::cos(y) - 2 * h * h, std::exp(x) * std::sin(y));
      }
      return true;
    case Opcode::kLog1p:  // log|1+z| = log1p(x(2+x) + y²)/2 unless |1+z| is small or large, arg(1+z)
      for (int64_t i = 0; i < n; ++i) {
        using R = typename T::value_type;
        R x = a[i].real(), y = a[i].imag();
        R m = std::max(std::abs(x + 1), std::abs(y));
        bool direct = m > R(1e4) || m < R(0.5);  // near z = -1, x(2+x) + y² cancels to -1
        R re = direct ? std::log(std::abs(a[i] + T(1))) : std::log1p(x * (2 + x) + y * y) / 2;
        o[i] = T(re, std::atan2(y, x + 1));
      }
      return true;
    case Opcode::kSign:
      for (int64_t i = 0; i < n; ++i) {
        auto m = std::abs(a[i]);
        o[i] = m == 0 ? T(0) : a[i] / m;
      }
      return true;
    default: return false;
  }
}

template <class T>
const T* Data(const Literal& l) {
  return reinterpret_cast<const T*>(l.raw());
}
template <class T>
T* Data(Literal& l) {
  return reinterpret_cast<T*>(l.raw());
}

}  // namespace

StatusOr<Literal> EvalUnary(const Instruction& instr, const Literal& a) {
  PrimitiveType t = a.shape().element_type();
  Opcode op = instr.opcode();
  Shape out_shape = NoLayout(instr.shape());
  int64_t n = a.num_elements();
  if (op == Opcode::kIsFinite) {
    if (!IsFloat(t)) return InstrError(instr, "is-finite needs a floating-point operand");
    Literal out(out_shape);
    if (t == PrimitiveType::kF64) {
      for (int64_t i = 0; i < n; ++i) Data<uint8_t>(out)[i] = std::isfinite(Data<double>(a)[i]);
    } else {
      ASSIGN_OR_RETURN(Literal w, t == PrimitiveType::kF32 ? StatusOr<Literal>(a) : ConvertLiteral(a, PrimitiveType::kF32));
      for (int64_t i = 0; i < n; ++i) Data<uint8_t>(out)[i] = std::isfinite(Data<float>(w)[i]);
    }
    return out;
  }
  if (IsComplex(t)) {
    if (op == Opcode::kAbs) {
      Literal out(out_shape);
      for (int64_t i = 0; i < n; ++i) out.SetDouble(i, std::abs(a.GetComplex(i)));
      return out;
    }
    Literal out(out_shape);
    bool ok = t == PrimitiveType::kC64
                  ? ComplexUnaryLoop(op, Data<std::complex<float>>(a), Data<std::complex<float>>(out), n)
                  : ComplexUnaryLoop(op, Data<std::complex<double>>(a), Data<std::complex<double>>(out), n);
    if (!ok) return InstrError(instr, "not defined for complex operands");
    return out;
  }
  if (IsFloat(t) && t != PrimitiveType::kF32 && t != PrimitiveType::kF64) {
    ASSIGN_OR_RETURN(Literal w, ConvertLiteral(a, PrimitiveType::kF32));
    Literal o(Shape(PrimitiveType::kF32, out_shape.dims()));
    if (!FloatUnaryLoop(op, Data<float>(w), Data<float>(o), n))
      return InstrError(instr, "not defined for floating-point operands");
    return ConvertLiteral(o, t);
  }
  Literal out(out_shape);
  if (out.shape().element_type() != t || out.num_elements() != n)
    return InstrError(instr, "result shape " + instr.shape().ToString(false) + " does not match the operand " +
                                 a.shape().ToString(false));
  if (t == PrimitiveType::kF32) {
    if (FloatUnaryLoop(op, Data<float>(a), Data<float>(out), n)) return out;
    return InstrError(instr, "not defined for floating-point operands");
  }
  if (t == PrimitiveType::kF64) {
    if (FloatUnaryLoop(op, Data<double>(a), Data<double>(out), n)) return out;
    return InstrError(instr, "not defined for floating-point operands");
  }
  if (t == PrimitiveType::kPred) {
    if (op != Opcode::kNot) return InstrError(instr, "not defined for pred operands");
    for (int64_t i = 0; i < n; ++i) Data<uint8_t>(out)[i] = Data<uint8_t>(a)[i] == 0;
    return out;
  }
  if (!IsInteger(t)) return InstrError(instr, "unsupported element type " + std::string(PrimitiveTypeName(t)));
  int bits = BitWidth(t);
  const Literal* src = &a;
  Literal masked;
  bool sub_byte = bits < 8;
  if (sub_byte && (op == Opcode::kPopulationCount || op == Opcode::kClz)) {
    masked = a;
    for (int64_t i = 0; i < n; ++i) masked.raw()[i] &= static_cast<uint8_t>((1u << bits) - 1);
    src = &masked;
  }
  bool ok = false;
  VisitInt(t, [&](auto tr) {
    using T = typename decltype(tr)::S;
    if constexpr (!std::is_same_v<decltype(tr), PredTr>) ok = IntUnaryLoop(op, Data<T>(*src), Data<T>(out), n);
  });
  if (!ok) return InstrError(instr, "not defined for integer operands");
  if (sub_byte) {
    if (op == Opcode::kClz)
      for (int64_t i = 0; i < n; ++i) out.raw()[i] = static_cast<uint8_t>(out.raw()[i] - (8 - bits));
    WrapSubByte(out);
  }
  return out;
}

StatusOr<Literal> EvalAtan(const Instruction& instr, const Literal& a) {
  PrimitiveType t = a.shape().element_type();
  int64_t n = a.num_elements();
  Shape out_shape = NoLayout(instr.shape());
  if (t == PrimitiveType::kC64 || t == PrimitiveType::kC128) {
    Literal out(out_shape);
    if (t == PrimitiveType::kC64)
      for (int64_t i = 0; i < n; ++i) Data<std::complex<float>>(out)[i] = std::atan(Data<std::complex<float>>(a)[i]);
    else
      for (int64_t i = 0; i < n; ++i) Data<std::complex<double>>(out)[i] = std::atan(Data<std::complex<double>>(a)[i]);
    return out;
  }
  if (!IsFloat(t)) return InstrError(instr, "atan needs a floating-point or complex operand");
  if (t == PrimitiveType::kF64) {
    Literal out(out_shape);
    for (int64_t i = 0; i < n; ++i) Data<double>(out)[i] = std::atan(Data<double>(a)[i]);
    return out;
  }
  // f32, and f16/bf16/f8 computed in f32 and rounded once
  ASSIGN_OR_RETURN(Literal w, t == PrimitiveType::kF32 ? StatusOr<Literal>(a) : ConvertLiteral(a, PrimitiveType::kF32));
  Literal o(Shape(PrimitiveType::kF32, out_shape.dims()));
  for (int64_t i = 0; i < n; ++i) Data<float>(o)[i] = std::atan(Data<float>(w)[i]);
  if (t == PrimitiveType::kF32) return o;
  return ConvertLiteral(o, t);
}

StatusOr<Literal> EvalBinary(const Instruction& instr, const Literal& a, const Literal& b) {
  PrimitiveType t = a.shape().element_type();
  Opcode op = instr.opcode();
  if (b.shape().element_type() != t || a.num_elements() != b.num_elements())
    return InstrError(instr, "operands " + a.shape().ToString(false) + " and " + b.shape().ToString(false) +
                                 " differ in type or size");
  int64_t n = a.num_elements();
  Shape out_shape = NoLayout(instr.shape());
  if (IsComplex(t)) {
    Literal out(out_shape);
    bool ok = t == PrimitiveType::kC64
                  ? ComplexLoop(op, Data<std::complex<float>>(a), Data<std::complex<float>>(b),
                                Data<std::complex<float>>(out), n)
                  : ComplexLoop(op, Data<std::complex<double>>(a), Data<std::complex<double>>(b),
                                Data<std::complex<double>>(out), n);
    if (!ok) return InstrError(instr, "not defined for complex operands");
    return out;
  }
  if (IsFloat(t) && t != PrimitiveType::kF32 && t != PrimitiveType::kF64) {
    ASSIGN_OR_RETURN(Literal wa, ConvertLiteral(a, PrimitiveType::kF32));
    ASSIGN_OR_RETURN(Literal wb, ConvertLiteral(b, PrimitiveType::kF32));
    Literal o(Shape(PrimitiveType::kF32, out_shape.dims()));
    if (!FloatBinaryLoop(op, Data<float>(wa), Data<float>(wb), Data<float>(o), n))
      return InstrError(instr, "not defined for floating-point operands");
    return ConvertLiteral(o, t);
  }
  Literal out(out_shape);
  if (out.shape().element_type() != t || out.num_elements() != n)
    return InstrError(instr, "result shape " + instr.shape().ToString(false) + " does not match the operands");
  if (t == PrimitiveType::kF32) {
    if (FloatBinaryLoop(op, Data<float>(a), Data<float>(b), Data<float>(out), n)) return out;
    return InstrError(instr, "not defined for floating-point operands");
  }
  if (t == PrimitiveType::kF64) {
    if (FloatBinaryLoop(op, Data<double>(a), Data<double>(b), Data<double>(out), n)) return out;
    return InstrError(instr, "not defined for floating-point operands");
  }
  if (t == PrimitiveType::kPred) {
    if (PredBinaryLoop(op, Data<uint8_t>(a), Data<uint8_t>(b), Data<uint8_t>(out), n)) return out;
    return InstrError(instr, "not defined for pred operands");
  }
  if (!IsInteger(t)) return InstrError(instr, "unsupported element type " + std::string(PrimitiveTypeName(t)));
  int bits = BitWidth(t);
  const Literal* lhs = &a;
  Literal masked;
  if (bits < 8 && op == Opcode::kShiftRightLogical && IsSignedInt(t)) {
    masked = a;
    for (int64_t i = 0; i < n; ++i) masked.raw()[i] &= static_cast<uint8_t>((1u << bits) - 1);
    lhs = &masked;
  }
  if (bits < 8 && op == Opcode::kShiftRightArithmetic && IsUnsignedInt(t)) {
    // Arithmetic on the type's bits (as for u8, whose bit 7 shifts in): the
    // top bit of the u4/u2 pattern is the one to repeat.
    masked = a;
    for (int64_t i = 0; i < n; ++i)
      if ((masked.raw()[i] >> (bits - 1)) & 1) masked.raw()[i] |= static_cast<uint8_t>(~((1u << bits) - 1));
    lhs = &masked;
  }
  bool ok = false;
  VisitInt(t, [&](auto tr) {
    using T = typename decltype(tr)::S;
    if constexpr (!std::is_same_v<decltype(tr), PredTr>)
      ok = IntBinaryLoop(op, Data<T>(*lhs), Data<T>(b), Data<T>(out), n);
  });
  if (!ok) return InstrError(instr, "not defined for integer operands");
  if (bits < 8) WrapSubByte(out);
  return out;
}

}  // namespace hloscope::eval
