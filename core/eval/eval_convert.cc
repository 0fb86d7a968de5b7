// Element type changes: convert (float->int saturates with NaN->0,
// int->int wraps, f16/bf16 round to nearest even from f32 as XLA's
// evaluator does), bitcast-convert (raw bytes), reduce-precision, and iota.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"

namespace hloscope::eval {
namespace {

bool IsNarrowFloat(PrimitiveType t) {
  return IsFloat(t) && t != PrimitiveType::kF32 && t != PrimitiveType::kF64;
}

// Native storage types a conversion loop can read or write.
template <class F>
bool VisitNative(PrimitiveType t, F&& f) {
  switch (t) {
    case PrimitiveType::kF32: f(Plain<float>{}); return true;
    case PrimitiveType::kF64: f(Plain<double>{}); return true;
    case PrimitiveType::kC64: f(Plain<std::complex<float>>{}); return true;
    case PrimitiveType::kC128: f(Plain<std::complex<double>>{}); return true;
    default:
      if (!IsInteger(t) && t != PrimitiveType::kPred) return false;
      VisitInt(t, f);
      return true;
  }
}

template <class DTr, class STr>
void ConvLoop(const typename STr::S* s, typename DTr::S* d, int64_t n) {
  using SS = typename STr::S;
  using DS = typename DTr::S;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<DTr, PredTr>) {
      d[i] = s[i] != SS(0);
    } else if constexpr (std::is_same_v<STr, PredTr>) {
      d[i] = s[i] ? DS(1) : DS(0);
    } else if constexpr (kIsComplex<DS>) {
      using V = typename DS::value_type;
      if constexpr (kIsComplex<SS>) d[i] = DS(static_cast<V>(s[i].real()), static_cast<V>(s[i].imag()));
      else d[i] = DS(static_cast<V>(s[i]), V(0));
    } else if constexpr (kIsComplex<SS>) {
      d[i] = static_cast<DS>(s[i].real());  // not reached: rejected before
    } else if constexpr (std::is_integral_v<DS> && std::is_floating_point_v<SS>) {
      SS v = s[i];
      if (v != v) d[i] = 0;
      else if (v >= static_cast<SS>(std::numeric_limits<DS>::max())) d[i] = std::numeric_limits<DS>::max();
      else if (v <= static_cast<SS>(std::numeric_limits<DS>::lowest())) d[i] = std::numeric_limits<DS>::lowest();
      else d[i] = static_cast<DS>(v);
    } else {
      d[i] = static_cast<DS>(s[i]);
    }
  }
}

// Narrow float (f16, bf16, f8, f4) to f32; exact.
Literal WidenToF32(const Literal& in) {
  PrimitiveType t = in.shape().element_type();
  Literal out(Shape(PrimitiveType::kF32, in.shape().dims()));
  float* o = reinterpret_cast<float*>(out.raw());
  int64_t n = in.num_elements();
  if (t == PrimitiveType::kBF16) {
    const uint16_t* s = reinterpret_cast<const uint16_t*>(in.raw());
    for (int64_t i = 0; i < n; ++i) o[i] = BF16ToFloat(s[i]);
  } else if (t == PrimitiveType::kF16) {
    const uint16_t* s = reinterpret_cast<const uint16_t*>(in.raw());
    for (int64_t i = 0; i < n; ++i) o[i] = F16ToFloat(s[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(MinifloatToDouble(t, in.raw()[i]));
  }
  return out;
}

}  // namespace

StatusOr<Literal> ConvertLiteral(const Literal& in, PrimitiveType to) {
  if (!in.shape().IsArray()) return Status::Error("convert needs an array, got " + in.shape().ToString(false));
  PrimitiveType from = in.shape().element_type();
  Shape shape(to, in.shape().dims());
  if (from == to) return WithShape(in, shape);
  if (IsComplex(from) && !IsComplex(to))
    return Status::Error("converting complex to " + std::string(PrimitiveTypeName(to)) + " is not defined");
  if (IsNarrowFloat(from)) {
    Literal w = WidenToF32(in);
    return to == PrimitiveType::kF32 ? StatusOr<Literal>(std::move(w)) : ConvertLiteral(w, to);
  }
  int64_t n = in.num_elements();
  if (to == PrimitiveType::kF16 || to == PrimitiveType::kBF16) {
    const Literal* f = &in;
    Literal tmp;
    if (from != PrimitiveType::kF32) {
      ASSIGN_OR_RETURN(tmp, ConvertLiteral(in, PrimitiveType::kF32));
      f = &tmp;
    }
    Literal out(shape);
    const float* s = reinterpret_cast<const float*>(f->raw());
    uint16_t* d = reinterpret_cast<uint16_t*>(out.raw());
    if (to == PrimitiveType::kBF16)
      for (int64_t i = 0; i < n; ++i) d[i] = FloatToBF16(s[i]);
    else
      for (int64_t i = 0; i < n; ++i) d[i] = FloatToF16(s[i]);
    return out;
  }
  if (IsNarrowFloat(to)) {
    const Literal* f = &in;
    Literal tmp;
    if (from != PrimitiveType::kF64) {
      ASSIGN_OR_RETURN(tmp, ConvertLiteral(in, PrimitiveType::kF64));
      f = &tmp;
    }
    Literal out(shape);
    const double* s = reinterpret_cast<const double*>(f->raw());
    for (int64_t i = 0; i < n; ++i) out.raw()[i] = DoubleToMinifloat(to, s[i]);
    return out;
  }
  Literal out(shape);
  bool ok = false;
  VisitNative(from, [&](auto str) {
    using STr = decltype(str);
    ok = VisitNative(to, [&](auto dtr) {
      using DTr = decltype(dtr);
      ConvLoop<DTr, STr>(reinterpret_cast<const typename STr::S*>(in.raw()),
                         reinterpret_cast<typename DTr::S*>(out.raw()), n);
    });
  });
  if (!ok)
    return Status::Error("cannot convert " + std::string(PrimitiveTypeName(from)) + " to " +
                         std::string(PrimitiveTypeName(to)));
  WrapSubByte(out);
  return out;
}

namespace {

template <class F, class U>
F ReducePrecisionOne(F value, int exp_bits, int man_bits) {
  constexpr int kSrcMan = std::numeric_limits<F>::digits - 1;
  constexpr int kSrcExp = static_cast<int>(8 * sizeof(F)) - kSrcMan - 1;
  U v;
  std::memcpy(&v, &value, sizeof v);
  if (man_bits < kSrcMan) {
    const U last = U{1} << (kSrcMan - man_bits);
    const U bias = (last >> 1) - 1 + ((v & last) >> (kSrcMan - man_bits));
    v = (v + bias) & ~(last - 1);
  }
  if (exp_bits < kSrcExp) {
    const U sign_mask = U{1} << (8 * sizeof(F) - 1);
    const U exp_mask = ((U{1} << kSrcExp) - 1) << kSrcMan;
    const U exp_bias = (U{1} << (kSrcExp - 1)) - 1;
    const U reduced_bias = (U{1} << (exp_bits - 1)) - 1;
    const U max_exp = exp_bias + reduced_bias, min_exp = exp_bias - reduced_bias;
    const U x_exp = v & exp_mask;
    const U zero = v & sign_mask, inf = zero | exp_mask;
    if (x_exp > (max_exp << kSrcMan)) v = inf;
    if (x_exp <= (min_exp << kSrcMan)) v = zero;
  }
  F r;
  std::memcpy(&r, &v, sizeof r);
  if (std::isnan(value)) r = man_bits > 0 ? value : std::numeric_limits<F>::infinity();
  return r;
}

StatusOr<Literal> ReducePrecision(const Instruction& instr, const Literal& a) {
  PrimitiveType t = a.shape().element_type();
  int e = static_cast<int>(instr.attrs().exponent_bits), m = static_cast<int>(instr.attrs().mantissa_bits);
  if (!IsFloat(t) || e < 1 || m < 0) return InstrError(instr, "needs a float operand, exponent_bits >= 1, mantissa_bits >= 0");
  if (t != PrimitiveType::kF64) {
    ASSIGN_OR_RETURN(Literal w, ConvertLiteral(a, PrimitiveType::kF32));
    float* p = reinterpret_cast<float*>(w.raw());
    for (int64_t i = 0; i < w.num_elements(); ++i) p[i] = ReducePrecisionOne<float, uint32_t>(p[i], e, m);
    return ConvertLiteral(w, t);
  }
  Literal w = a;
  double* p = reinterpret_cast<double*>(w.raw());
  for (int64_t i = 0; i < w.num_elements(); ++i) p[i] = ReducePrecisionOne<double, uint64_t>(p[i], e, m);
  return w;
}

}  // namespace

namespace {

// bitcast-convert where one side is narrower than a byte (the literal keeps
// those one per byte): the same bits, little-endian as for the wider types,
// so element k of the new minor dimension is bits [k·n, (k+1)·n) of the
// wide value (s8 → s4[..,2]: element 0 is the low nibble).
StatusOr<Literal> BitcastConvertSubByte(const Instruction& instr, const Literal& a, const Shape& shape) {
  PrimitiveType from = a.shape().element_type(), to = shape.element_type();
  const int fb = BitWidth(from), tb = BitWidth(to);
  if (from == PrimitiveType::kPred || to == PrimitiveType::kPred || IsComplex(from) || IsComplex(to) || fb > 64 ||
      tb > 64)
    return InstrError(instr, "bitcast-convert between " + std::string(PrimitiveTypeName(from)) + " and " +
                                 std::string(PrimitiveTypeName(to)) + " is not defined");
  Literal out(shape);
  const int64_t ratio = fb > tb ? fb / tb : tb / fb;
  if (ratio * std::min(fb, tb) != std::max(fb, tb) || out.num_elements() * tb != a.num_elements() * fb)
    return InstrError(instr, "operand " + a.shape().ToString(false) + " and result " + shape.ToString(false) +
                                 " have different bit sizes");
  auto raw = [](const Literal& l, int64_t i) {
    uint64_t v = 0;
    std::memcpy(&v, l.raw() + i * l.element_bytes(), static_cast<size_t>(l.element_bytes()));
    int bits = BitWidth(l.shape().element_type());
    return bits < 64 ? v & ((uint64_t{1} << bits) - 1) : v;
  };
  auto put = [&](int64_t i, uint64_t v) {
    if (tb < 8 && IsSignedInt(to) && ((v >> (tb - 1)) & 1))
      v |= ~((uint64_t{1} << tb) - 1);  // as Literal keeps s4
    std::memcpy(out.raw() + i * out.element_bytes(), &v, static_cast<size_t>(out.element_bytes()));
  };
  const uint64_t tmask = tb < 64 ? (uint64_t{1} << tb) - 1 : ~uint64_t{0};
  if (fb >= tb) {  // one wide element → `ratio` narrow ones
    for (int64_t i = 0; i < a.num_elements(); ++i)
      for (int64_t k = 0; k < ratio; ++k) put(i * ratio + k, (raw(a, i) >> (k * tb)) & tmask);
  } else {
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      uint64_t v = 0;
      for (int64_t k = 0; k < ratio; ++k) v |= raw(a, i * ratio + k) << (k * fb);
      put(i, v);
    }
  }
  return out;
}

}  // namespace

StatusOr<Literal> EvalConvert(const Instruction& instr, Operands ops) {
  if (ops.size() != 1 || !ops[0]->shape().IsArray()) return InstrError(instr, "needs one array operand");
  const Literal& a = *ops[0];
  Shape shape = NoLayout(instr.shape());
  if (!shape.IsArray()) return InstrError(instr, "result must be an array");
  if (instr.opcode() == Opcode::kReducePrecision) return ReducePrecision(instr, a);
  if (instr.opcode() == Opcode::kConvert) {
    if (shape.num_elements() != a.num_elements()) return InstrError(instr, "result size does not match the operand");
    StatusOr<Literal> r = ConvertLiteral(a, shape.element_type());
    if (!r.ok()) return InstrError(instr, r.status().message());
    return WithShape(*r, shape);
  }
  // bitcast-convert: same bytes, reinterpreted (little-endian).
  PrimitiveType from = a.shape().element_type(), to = shape.element_type();
  if ((BitWidth(from) < 8 && from != PrimitiveType::kPred) || (BitWidth(to) < 8 && to != PrimitiveType::kPred))
    return BitcastConvertSubByte(instr, a, shape);
  Literal out(shape);
  if (out.raw_size() != a.raw_size())
    return InstrError(instr, "operand " + a.shape().ToString(false) + " and result " + shape.ToString(false) +
                                 " have different byte sizes");
  if (a.raw_size()) std::memcpy(out.raw(), a.raw(), a.raw_size());
  return out;
}

StatusOr<Literal> EvalIota(const Instruction& instr) {
  Shape shape = NoLayout(instr.shape());
  int64_t dim = instr.attrs().iota_dimension;
  if (!shape.IsArray() || dim < 0 || dim >= shape.rank())
    return InstrError(instr, "iota_dimension " + std::to_string(dim) + " is not a dimension of " + shape.ToString(false));
  Literal out(shape);
  auto strides = RowMajorStrides(shape.dims());
  int64_t st = strides[dim], size = shape.dim(static_cast<int>(dim)), n = out.num_elements();
  PrimitiveType t = shape.element_type();
  bool done = VisitNative(t, [&](auto tr) {
    using T = typename decltype(tr)::S;
    T* o = reinterpret_cast<T*>(out.raw());
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = (i / st) % size;
      if constexpr (std::is_same_v<decltype(tr), PredTr>) o[i] = v != 0;
      else if constexpr (kIsComplex<T>) o[i] = T(static_cast<typename T::value_type>(v), 0);
      else o[i] = static_cast<T>(v);
    }
  });
  if (!done)
    for (int64_t i = 0; i < n; ++i) out.SetDouble(i, static_cast<double>((i / st) % size));
  WrapSubByte(out);
  return out;
}

}  // namespace hloscope::eval
