// Decompositions of chlo's special functions into HLO ops: lgamma, digamma,
// erf_inv, next_after and bessel_i1e. HLO has no opcode for them; like XLA's
// chlo legalization we build them from elementwise ops. Floating-point inputs
// narrower than f64 are computed in f64 and rounded back (at least as accurate
// as XLA's f32 formulas).
#include <cmath>
#include <limits>

#include "core/stablehlo/convert_internal.h"

namespace hloscope::mlir {
namespace {

// Builds elementwise HLO over one shape (dims fixed, element type per call).
class Ex {
 public:
  Ex(Converter& c, Converter::Scope& s, const Op& op, std::vector<int64_t> dims)
      : c_(c), s_(s), op_(op), dims_(std::move(dims)) {}

  Shape Of(PrimitiveType t) const { return Shape(t, dims_); }
  Instruction* K(double v, PrimitiveType t = PrimitiveType::kF64) {
    Literal l(Shape::Scalar(t));
    if (IsFloat(t)) l.SetDouble(0, v);
    else l.SetInt(0, static_cast<int64_t>(v));
    return Splat(std::move(l));
  }
  Instruction* KInt(int64_t v, PrimitiveType t) {
    Literal l(Shape::Scalar(t));
    l.SetInt(0, v);
    return Splat(std::move(l));
  }
  Instruction* B(Opcode o, Instruction* a, Instruction* b) {
    return c_.Add(s_, o, Of(a->shape().element_type()), {a, b}, &op_);
  }
  Instruction* U(Opcode o, Instruction* a) { return c_.Add(s_, o, Of(a->shape().element_type()), {a}, &op_); }
  Instruction* Add(Instruction* a, Instruction* b) { return B(Opcode::kAdd, a, b); }
  Instruction* Sub(Instruction* a, Instruction* b) { return B(Opcode::kSubtract, a, b); }
  Instruction* Mul(Instruction* a, Instruction* b) { return B(Opcode::kMultiply, a, b); }
  Instruction* Div(Instruction* a, Instruction* b) { return B(Opcode::kDivide, a, b); }
  Instruction* Cmp(ComparisonDirection d, Instruction* a, Instruction* b) {
    Instruction* i = c_.Add(s_, Opcode::kCompare, Of(PrimitiveType::kPred), {a, b}, &op_);
    i->attrs().direction = d;
    i->attrs().mark(::hloscope::Attr::kDirection);
    return i;
  }
  Instruction* Sel(Instruction* p, Instruction* a, Instruction* b) {
    return c_.Add(s_, Opcode::kSelect, Of(a->shape().element_type()), {p, a, b}, &op_);
  }
  Instruction* Convert(Instruction* a, PrimitiveType t) {
    if (a->shape().element_type() == t) return a;
    return c_.Add(s_, Opcode::kConvert, Of(t), {a}, &op_);
  }
  Instruction* Bitcast(Instruction* a, PrimitiveType t) {
    return c_.Add(s_, Opcode::kBitcastConvert, Of(t), {a}, &op_);
  }
  Instruction* IsNan(Instruction* a) { return Cmp(ComparisonDirection::kNe, a, a); }
  // c0 + c1·x + c2·x² + … (Horner).
  Instruction* Poly(Instruction* x, const std::vector<double>& c) {
    Instruction* p = K(c.back());
    for (size_t i = c.size() - 1; i-- > 0;) p = Add(Mul(p, x), K(c[i]));
    return p;
  }

 private:
  Instruction* Splat(Literal l) {
    PrimitiveType t = l.shape().element_type();
    Instruction* k = c_.Add(s_, Opcode::kConstant, Shape::Scalar(t), {}, &op_);
    k->set_literal(std::make_unique<Literal>(std::move(l)));
    Instruction* b = c_.Add(s_, Opcode::kBroadcast, Of(t), {k}, &op_);
    b->set_dimensions({});
    return b;
  }
  Converter& c_;
  Converter::Scope& s_;
  const Op& op_;
  std::vector<int64_t> dims_;
};

constexpr double kPi = 3.14159265358979323846;

// log Γ(x), x ≥ 0.5, by Lanczos (g = 7, 9 terms): accurate to ~1e-15.
Instruction* LgammaPositive(Ex& e, Instruction* x) {
  static const double c[] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                             771.32342877765313,   -176.61502916214059,   12.507343278686905,
                             -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  const double g = 7;
  Instruction* z = e.Sub(x, e.K(1));
  Instruction* a = e.K(c[0]);
  for (int i = 1; i < 9; ++i) a = e.Add(a, e.Div(e.K(c[i]), e.Add(z, e.K(i))));
  Instruction* t = e.Add(z, e.K(g + 0.5));
  // log t = log(g + ½) + log1p(z / (g + ½)), more accurate for small z.
  Instruction* log_t = e.Add(e.K(std::log(g + 0.5)), e.U(Opcode::kLog1p, e.Div(z, e.K(g + 0.5))));
  Instruction* r = e.Sub(e.Mul(e.Add(z, e.K(0.5)), log_t), t);
  return e.Add(e.Add(e.K(0.5 * std::log(2 * kPi)), r), e.U(Opcode::kLog, a));
}

// The fractional distance of |x| to the nearest integer-or-half, for sin(πx).
Instruction* ReducedFraction(Ex& e, Instruction* x) {
  Instruction* ax = e.U(Opcode::kAbs, x);
  Instruction* frac = e.Sub(ax, e.U(Opcode::kFloor, ax));
  return e.Sel(e.Cmp(ComparisonDirection::kGt, frac, e.K(0.5)), e.Sub(e.K(1), frac), frac);
}

Instruction* Lgamma(Ex& e, Instruction* x) {
  Instruction* reflect = e.Cmp(ComparisonDirection::kLt, x, e.K(0.5));
  Instruction* arg = e.Sel(reflect, e.Sub(e.K(1), x), x);
  Instruction* lg = LgammaPositive(e, arg);
  // Γ(x)Γ(1-x) = π / sin(πx).
  Instruction* log_sin = e.U(Opcode::kLog, e.U(Opcode::kSin, e.Mul(e.K(kPi), ReducedFraction(e, x))));
  Instruction* reflected = e.Sub(e.Sub(e.K(std::log(kPi)), log_sin), lg);
  Instruction* r = e.Sel(reflect, reflected, lg);
  const double inf = std::numeric_limits<double>::infinity();
  // Poles (non-positive integers, where sin(πx) = 0) and ±inf give +inf.
  Instruction* pole = e.B(Opcode::kAnd, e.Cmp(ComparisonDirection::kLe, x, e.K(0)),
                          e.Cmp(ComparisonDirection::kEq, log_sin, e.K(-inf)));
  Instruction* is_inf = e.Cmp(ComparisonDirection::kEq, e.U(Opcode::kAbs, x), e.K(inf));
  r = e.Sel(pole, e.K(inf), r);
  return e.Sel(is_inf, e.K(inf), r);
}

Instruction* Digamma(Ex& e, Instruction* x) {
  Instruction* reflect = e.Cmp(ComparisonDirection::kLt, x, e.K(0.5));
  Instruction* y = e.Sel(reflect, e.Sub(e.K(1), x), x);
  // ψ(y) = ψ(y + 6) − Σ_{k<6} 1/(y + k); asymptotic series for ψ(w), w ≥ 6.5.
  Instruction* acc = e.K(0);
  for (int k = 0; k < 6; ++k) acc = e.Add(acc, e.Div(e.K(1), e.Add(y, e.K(k))));
  Instruction* w = e.Add(y, e.K(6));
  Instruction* inv2 = e.Div(e.K(1), e.Mul(w, w));
  Instruction* series = e.Mul(inv2, e.Poly(inv2, {-1.0 / 12, 1.0 / 120, -1.0 / 252, 1.0 / 240, -1.0 / 132,
                                                  691.0 / 32760, -1.0 / 12}));
  Instruction* psi = e.Sub(e.Add(e.Sub(e.U(Opcode::kLog, w), e.Div(e.K(0.5), w)), series), acc);
  // ψ(1 − x) − ψ(x) = π / tan(πx); tan has period π, so use x − floor(x).
  Instruction* frac = e.Sub(x, e.U(Opcode::kFloor, x));
  Instruction* cot_term = e.Div(e.K(kPi), e.U(Opcode::kTan, e.Mul(e.K(kPi), frac)));
  Instruction* r = e.Sel(reflect, e.Sub(psi, cot_term), psi);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Instruction* nonpos_int = e.B(Opcode::kAnd, e.Cmp(ComparisonDirection::kLe, x, e.K(0)),
                                e.Cmp(ComparisonDirection::kEq, x, e.U(Opcode::kFloor, x)));
  r = e.Sel(nonpos_int, e.K(nan), r);
  const double inf = std::numeric_limits<double>::infinity();
  return e.Sel(e.Cmp(ComparisonDirection::kEq, x, e.K(inf)), e.K(inf), r);
}

// erf⁻¹(y): Giles' single-precision approximation, then Newton steps on erf.
Instruction* ErfInv(Ex& e, Instruction* y) {
  Instruction* w = e.U(Opcode::kNegate,
                       e.U(Opcode::kLog, e.Mul(e.Sub(e.K(1), y), e.Add(e.K(1), y))));
  Instruction* small = e.Cmp(ComparisonDirection::kLt, w, e.K(5));
  Instruction* ws = e.Sub(w, e.K(2.5));
  Instruction* ps = e.Poly(ws, {1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
                                -4.39150654e-06, -3.5233877e-06, 3.43273939e-07, 2.81022636e-08});
  Instruction* wl = e.Sub(e.U(Opcode::kSqrt, w), e.K(3));
  Instruction* pl = e.Poly(wl, {2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
                                -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257});
  Instruction* x = e.Mul(e.Sel(small, ps, pl), y);
  const double k = 2.0 / std::sqrt(kPi);
  for (int i = 0; i < 3; ++i) {
    Instruction* err = e.Sub(e.U(Opcode::kErf, x), y);
    Instruction* deriv = e.Mul(e.K(k), e.U(Opcode::kExp, e.U(Opcode::kNegate, e.Mul(x, x))));
    x = e.Sub(x, e.Div(err, deriv));
  }
  const double inf = std::numeric_limits<double>::infinity();
  Instruction* at_one = e.Cmp(ComparisonDirection::kEq, e.U(Opcode::kAbs, y), e.K(1));
  return e.Sel(at_one, e.Mul(y, e.K(inf)), x);
}

// exp(−|x|)·I₁(x): power series for |x| ≤ 50, Hankel's asymptotic series beyond.
Instruction* BesselI1e(Ex& e, Instruction* x) {
  Instruction* ax = e.U(Opcode::kAbs, x);
  Instruction* half = e.Mul(x, e.K(0.5));
  Instruction* q = e.Mul(half, half);
  // I₁(x) = (x/2) Σ_k q^k / (k!(k+1)!), in Horner form.
  Instruction* s = e.K(1);
  for (int k = 90; k >= 1; --k) s = e.Add(e.K(1), e.Mul(e.Mul(q, e.K(1.0 / (double(k) * (k + 1)))), s));
  Instruction* series = e.Mul(e.Mul(half, s), e.U(Opcode::kExp, e.U(Opcode::kNegate, ax)));
  // I₁e(x) ≈ sign(x)/√(2π|x|) Σ_k (−1)^k a_k / |x|^k, a_k = Π_{j≤k} (4 − (2j−1)²) / (k! 8^k).
  std::vector<double> coef = {1.0};
  double a = 1.0;
  for (int k = 1; k <= 10; ++k) {
    a *= (4.0 - double(2 * k - 1) * (2 * k - 1)) / (double(k) * 8.0);
    coef.push_back((k % 2 ? -1.0 : 1.0) * a);
  }
  Instruction* inv = e.Div(e.K(1), ax);
  Instruction* asym = e.Div(e.Poly(inv, coef), e.U(Opcode::kSqrt, e.Mul(e.K(2 * kPi), ax)));
  asym = e.Mul(asym, e.U(Opcode::kSign, x));
  return e.Sel(e.Cmp(ComparisonDirection::kLe, ax, e.K(50)), series, asym);
}

// nextafter(x, y) on the bit patterns of the input type.
StatusOr<Instruction*> NextAfter(Ex& e, Instruction* x, Instruction* y) {
  PrimitiveType t = x->shape().element_type();
  PrimitiveType it;
  switch (BitWidth(t)) {
    case 16: it = PrimitiveType::kS16; break;
    case 32: it = PrimitiveType::kS32; break;
    case 64: it = PrimitiveType::kS64; break;
    default: return Unsupported(std::string("chlo.next_after of ") + std::string(PrimitiveTypeName(t)));
  }
  const int bits = BitWidth(t);
  Instruction* xi = e.Bitcast(x, it);
  Instruction* yi = e.Bitcast(y, it);
  Instruction* zero = e.K(0, t);
  // Away from zero (magnitude + 1) when x < y has the same truth as x > 0.
  Instruction* up = e.Cmp(ComparisonDirection::kEq, e.Cmp(ComparisonDirection::kLt, x, y),
                          e.Cmp(ComparisonDirection::kGt, x, zero));
  Instruction* stepped = e.Sel(up, e.Add(xi, e.KInt(1, it)), e.Sub(xi, e.KInt(1, it)));
  // From ±0: the smallest subnormal with y's sign.
  Instruction* sign_y = e.B(Opcode::kAnd, yi, e.KInt(bits == 64 ? std::numeric_limits<int64_t>::min()
                                                                 : -(int64_t{1} << (bits - 1)), it));
  Instruction* from_zero = e.B(Opcode::kOr, sign_y, e.KInt(1, it));
  Instruction* r = e.Sel(e.Cmp(ComparisonDirection::kEq, x, zero), from_zero, stepped);
  Instruction* rf = e.Bitcast(r, t);
  rf = e.Sel(e.Cmp(ComparisonDirection::kEq, x, y), y, rf);
  Instruction* nan = e.B(Opcode::kOr, e.IsNan(x), e.IsNan(y));
  return e.Sel(nan, e.Add(x, y), rf);
}

}  // namespace

Status DecomposeSpecialChlo(Converter& c, const Op& op, Converter::Scope& s, const std::vector<Instruction*>& in,
                            const Shape& out, Instruction** result, bool* handled) {
  std::string n = op.name.substr(5);
  *handled = false;
  if (n != "lgamma" && n != "digamma" && n != "erf_inv" && n != "bessel_i1e" && n != "next_after") return Status::Ok();
  *handled = true;
  if (!out.IsArray() || !IsFloat(out.element_type()) || in.empty())
    return Unsupported(op.name + " of a non-real type");
  Ex e(c, s, op, out.dims());
  const PrimitiveType t = out.element_type();
  if (n == "next_after") {
    if (in.size() != 2) return Error(op.name + " needs two operands");
    ASSIGN_OR_RETURN(*result, NextAfter(e, in[0], in[1]));
    return Status::Ok();
  }
  Instruction* x = e.Convert(in[0], PrimitiveType::kF64);
  Instruction* r = n == "lgamma" ? Lgamma(e, x) : n == "digamma" ? Digamma(e, x)
                 : n == "erf_inv" ? ErfInv(e, x) : BesselI1e(e, x);
  *result = e.Convert(r, t);
  return Status::Ok();
}

}  // namespace hloscope::mlir
