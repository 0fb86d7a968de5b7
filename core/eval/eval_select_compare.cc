// Elementwise ops beyond plain arithmetic: compare (every direction, FLOAT
// partial order or TOTALORDER), select, clamp (NaN-propagating), and the
// complex constructors/projections; plus the elementwise dispatcher.
#include <cmath>
#include <cstring>

#include "core/eval/eval_elementwise_impl.h"

namespace hloscope::eval {
namespace {

template <class T>
void CmpLoop(ComparisonDirection d, const T* a, const T* b, uint8_t* o, int64_t n) {
  switch (d) {
    case ComparisonDirection::kEq: for (int64_t i = 0; i < n; ++i) o[i] = a[i] == b[i]; break;
    case ComparisonDirection::kNe: for (int64_t i = 0; i < n; ++i) o[i] = a[i] != b[i]; break;
    case ComparisonDirection::kLt: for (int64_t i = 0; i < n; ++i) o[i] = a[i] < b[i]; break;
    case ComparisonDirection::kLe: for (int64_t i = 0; i < n; ++i) o[i] = a[i] <= b[i]; break;
    case ComparisonDirection::kGt: for (int64_t i = 0; i < n; ++i) o[i] = a[i] > b[i]; break;
    case ComparisonDirection::kGe: for (int64_t i = 0; i < n; ++i) o[i] = a[i] >= b[i]; break;
  }
}

// Maps float bits to integers whose order is IEEE totalOrder:
// -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
template <class I>
std::vector<I> TotalOrderKeys(const Literal& l) {
  std::vector<I> k(l.num_elements());
  std::memcpy(k.data(), l.raw(), k.size() * sizeof(I));
  for (I& v : k)
    if (v < 0) v ^= std::numeric_limits<I>::max();
  return k;
}

StatusOr<Literal> EvalCompare(const Instruction& instr, const Literal& a, const Literal& b) {
  PrimitiveType t = a.shape().element_type();
  if (b.shape().element_type() != t || a.num_elements() != b.num_elements())
    return InstrError(instr, "compare operands " + a.shape().ToString(false) + " and " + b.shape().ToString(false) +
                                 " differ in type or size");
  ComparisonDirection d = instr.attrs().direction;
  Literal out(NoLayout(instr.shape()));
  if (out.num_elements() != a.num_elements()) return InstrError(instr, "result size does not match the operands");
  uint8_t* o = out.raw();
  int64_t n = a.num_elements();
  bool total = instr.attrs().compare_type == "TOTALORDER";
  if (IsComplex(t)) {
    if (d != ComparisonDirection::kEq && d != ComparisonDirection::kNe)
      return InstrError(instr, "complex numbers only compare EQ or NE");
    for (int64_t i = 0; i < n; ++i)
      o[i] = (a.GetComplex(i) == b.GetComplex(i)) == (d == ComparisonDirection::kEq);
    return out;
  }
  if (IsFloat(t)) {
    if (t == PrimitiveType::kF64) {
      if (total) {
        auto ka = TotalOrderKeys<int64_t>(a), kb = TotalOrderKeys<int64_t>(b);
        CmpLoop(d, ka.data(), kb.data(), o, n);
      } else {
        CmpLoop(d, reinterpret_cast<const double*>(a.raw()), reinterpret_cast<const double*>(b.raw()), o, n);
      }
      return out;
    }
    // Every narrower float widens to f32 exactly (order and equality kept;
    // f8 NaN encodings all map to NaN).
    const Literal *wa = &a, *wb = &b;
    Literal ca, cb;
    if (t != PrimitiveType::kF32) {
      ASSIGN_OR_RETURN(ca, ConvertLiteral(a, PrimitiveType::kF32));
      ASSIGN_OR_RETURN(cb, ConvertLiteral(b, PrimitiveType::kF32));
      wa = &ca;
      wb = &cb;
    }
    if (total) {
      auto ka = TotalOrderKeys<int32_t>(*wa), kb = TotalOrderKeys<int32_t>(*wb);
      CmpLoop(d, ka.data(), kb.data(), o, n);
    } else {
      CmpLoop(d, reinterpret_cast<const float*>(wa->raw()), reinterpret_cast<const float*>(wb->raw()), o, n);
    }
    return out;
  }
  if (t == PrimitiveType::kPred || IsInteger(t)) {
    VisitInt(t, [&](auto tr) {
      using T = typename decltype(tr)::S;
      CmpLoop(d, reinterpret_cast<const T*>(a.raw()), reinterpret_cast<const T*>(b.raw()), o, n);
    });
    return out;
  }
  return InstrError(instr, "cannot compare " + std::string(PrimitiveTypeName(t)) + " values");
}

StatusOr<Literal> EvalSelect(const Instruction& instr, const Literal& p, const Literal& a, const Literal& b) {
  if (p.shape().element_type() != PrimitiveType::kPred) return InstrError(instr, "the predicate must be pred");
  if (p.shape().rank() == 0 && p.num_elements() == 1) return p.raw()[0] ? a : b;
  if (!a.shape().Compatible(b.shape()) || a.IsTuple() || p.num_elements() != a.num_elements())
    return InstrError(instr, "operand shapes " + p.shape().ToString(false) + ", " + a.shape().ToString(false) +
                                 ", " + b.shape().ToString(false) + " do not match");
  Literal out(NoLayout(instr.shape()));
  if (out.raw_size() != a.raw_size()) return InstrError(instr, "result shape does not match the operands");
  const uint8_t* pp = p.raw();
  int64_t n = a.num_elements();
  VisitBytes(a.element_bytes(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = reinterpret_cast<const T*>(a.raw());
    const T* y = reinterpret_cast<const T*>(b.raw());
    T* o = reinterpret_cast<T*>(out.raw());
    for (int64_t i = 0; i < n; ++i) o[i] = pp[i] ? x[i] : y[i];
  });
  return out;
}

template <class T>
T ClampOne(T lo, T x, T hi) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(lo)) return lo;
    if (std::isnan(x)) return x;
    if (std::isnan(hi)) return hi;
  }
  return std::min(hi, std::max(x, lo));
}

StatusOr<Literal> EvalClamp(const Instruction& instr, const Literal& lo, const Literal& x, const Literal& hi) {
  PrimitiveType t = x.shape().element_type();
  if (lo.shape().element_type() != t || hi.shape().element_type() != t)
    return InstrError(instr, "clamp operands must have one element type");
  int64_t n = x.num_elements();
  auto size_ok = [&](const Literal& l) { return l.num_elements() == n || l.shape().rank() == 0; };
  if (!size_ok(lo) || !size_ok(hi)) return InstrError(instr, "clamp bounds must be scalars or match the operand");
  if (IsFloat(t) && t != PrimitiveType::kF32 && t != PrimitiveType::kF64) {
    ASSIGN_OR_RETURN(Literal wl, ConvertLiteral(lo, PrimitiveType::kF32));
    ASSIGN_OR_RETURN(Literal wx, ConvertLiteral(x, PrimitiveType::kF32));
    ASSIGN_OR_RETURN(Literal wh, ConvertLiteral(hi, PrimitiveType::kF32));
    ASSIGN_OR_RETURN(Literal r, EvalClamp(instr, wl, wx, wh));
    return ConvertLiteral(r, t);
  }
  Literal out(Shape(t, x.shape().dims()));
  bool ok = VisitReal(t, [&](auto tr) {
    using T = typename decltype(tr)::S;
    if constexpr (std::is_same_v<decltype(tr), Plain<T>>) {
      const T* l = reinterpret_cast<const T*>(lo.raw());
      const T* v = reinterpret_cast<const T*>(x.raw());
      const T* h = reinterpret_cast<const T*>(hi.raw());
      T* o = reinterpret_cast<T*>(out.raw());
      int64_t ls = lo.num_elements() == n && lo.shape().rank() > 0 ? 1 : 0;
      int64_t hs = hi.num_elements() == n && hi.shape().rank() > 0 ? 1 : 0;
      for (int64_t i = 0; i < n; ++i) o[i] = ClampOne(l[i * ls], v[i], h[i * hs]);
    } else {
      const uint8_t* l = lo.raw();
      int64_t ls = lo.num_elements() == n && lo.shape().rank() > 0 ? 1 : 0;
      int64_t hs = hi.num_elements() == n && hi.shape().rank() > 0 ? 1 : 0;
      for (int64_t i = 0; i < n; ++i) {
        bool v = x.raw()[i] != 0, a = l[i * ls] != 0, b = hi.raw()[i * hs] != 0;
        out.raw()[i] = std::min(b, std::max(v, a));
      }
    }
  });
  if (!ok) return InstrError(instr, "clamp is not defined for " + std::string(PrimitiveTypeName(t)));
  return out;
}

StatusOr<Literal> EvalComplexParts(const Instruction& instr, Operands ops) {
  Literal out(NoLayout(instr.shape()));
  const Literal& a = *ops[0];
  int64_t n = a.num_elements();
  if (out.num_elements() != n) return InstrError(instr, "result size does not match the operand");
  switch (instr.opcode()) {
    case Opcode::kComplex: {
      const Literal& b = *ops[1];
      if (!IsComplex(out.shape().element_type()) || b.num_elements() != n)
        return InstrError(instr, "complex needs two same-sized real operands and a complex result");
      for (int64_t i = 0; i < n; ++i) out.SetComplex(i, {a.GetDouble(i), b.GetDouble(i)});
      return out;
    }
    case Opcode::kReal:
      for (int64_t i = 0; i < n; ++i) out.SetDouble(i, a.GetComplex(i).real());
      return out;
    default:
      for (int64_t i = 0; i < n; ++i) out.SetDouble(i, IsComplex(a.shape().element_type()) ? a.GetComplex(i).imag() : 0.0);
      return out;
  }
}

}  // namespace

StatusOr<Literal> EvalElementwise(const Instruction& instr, Operands ops) {
  for (const Literal* o : ops)
    if (!o->shape().IsArray()) return InstrError(instr, "operands must be arrays");
  switch (instr.opcode()) {
    case Opcode::kCompare:
      if (ops.size() != 2) break;
      return EvalCompare(instr, *ops[0], *ops[1]);
    case Opcode::kSelect:
      if (ops.size() != 3) break;
      return EvalSelect(instr, *ops[0], *ops[1], *ops[2]);
    case Opcode::kClamp:
      if (ops.size() != 3) break;
      return EvalClamp(instr, *ops[0], *ops[1], *ops[2]);
    case Opcode::kComplex:
    case Opcode::kReal:
    case Opcode::kImag:
      if (ops.size() != (instr.opcode() == Opcode::kComplex ? 2u : 1u)) break;
      return EvalComplexParts(instr, ops);
    default:
      if (ops.size() == 1) return EvalUnary(instr, *ops[0]);
      if (ops.size() == 2) return EvalBinary(instr, *ops[0], *ops[1]);
      break;
  }
  return InstrError(instr, "wrong number of operands (" + std::to_string(ops.size()) + ")");
}

}  // namespace hloscope::eval
