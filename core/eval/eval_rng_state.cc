// The stateful random ops, on the run's state (rng_state.h):
//  * rng-get-and-update-state: the current state as u64[2] {lo, hi}, then
//    state += delta.
//  * rng: evaluated as the rng_expander pass expands it (rng_expander.h):
//    state-get-and-update by the 32-bit values it draws, Philox bits with
//    key kRngExpanderKey (the rng-bit-generator of eval_rng.cc on
//    {key, lo, hi}), then the same elementwise arithmetic in the same order
//    and type, so the expanded module gives the same values bit for bit.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <type_traits>

#include "core/eval/eval_internal.h"

namespace hloscope::eval {
namespace {

// Uniform [0, 1): the top mantissa-width bits, scaled by 2^-mantissa.
template <class F, class U>
F Unit(U bits) {
  constexpr int kMantissa = sizeof(F) == 8 ? 52 : 23;
  F v = static_cast<F>(bits >> (8 * sizeof(U) - kMantissa));
  return v * static_cast<F>(std::ldexp(1.0, -kMantissa));
}

template <class F, class U>
void Uniform(const Literal& bits, F a, F b, Literal& out) {
  const F range = b - a;
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    const F scaled = Unit<F>(bits.Get<U>(i)) * range;  // two roundings, as two HLO ops
    out.Set<F>(i, scaled + a);
  }
}

template <class T>
void UniformInt(const Literal& bits, T a, T b, Literal& out) {
  using U = std::make_unsigned_t<T>;
  const U range = static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    const U x = bits.Get<U>(i);
    const U dist = range == 0 ? x : static_cast<U>(x % range);  // HLO remainder: x % 0 = x
    const U half = dist >> 1;
    const U rest = static_cast<U>(dist - half);
    out.Set<T>(i, static_cast<T>(static_cast<U>(static_cast<U>(a) + half) + rest));
  }
}

// The uniform values are drawn in pairs over `pairs` (XLA's
// SplitShapeIntoHalves: split dimension s halved, a dimension of 2 after it).
struct Split {
  int dim = 0;                  // s (0 for scalars)
  std::vector<int64_t> pairs;   // the drawn shape
};
Split SplitInHalves(const std::vector<int64_t>& dims) {
  Split s;
  const int rank = static_cast<int>(dims.size());
  if (rank == 0) {
    s.pairs = {2};
    return s;
  }
  s.dim = -1;
  for (int i = 0; i < rank && s.dim < 0; ++i)
    if (dims[i] % 2 == 0) s.dim = i;
  if (s.dim < 0)
    for (int i = 0; i < rank; ++i)
      if (s.dim < 0 || dims[i] > dims[s.dim]) s.dim = i;
  for (int i = 0; i < rank; ++i) {
    s.pairs.push_back(i == s.dim ? (dims[i] + 1) / 2 : dims[i]);
    if (i == s.dim) s.pairs.push_back(2);
  }
  return s;
}

template <class F, class U>
void Normal(const Literal& bits, const Split& split, F mean, F sigma, Literal& out) {
  const std::vector<int64_t>& dims = out.shape().dims();
  int64_t outer = 1, inner = 1, n_s = 1, k_s = 1;
  if (!dims.empty()) {
    for (int i = 0; i < split.dim; ++i) outer *= dims[i];
    for (size_t i = split.dim + 1; i < dims.size(); ++i) inner *= dims[i];
    n_s = dims[split.dim];
    k_s = split.pairs[split.dim];
  }
  const F tiny = static_cast<F>(1.0e-7f);
  const F two_pi = static_cast<F>(2.0 * std::numbers::pi);
  const F minus_two = static_cast<F>(-2.0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t s = 0; s < n_s; ++s)
      for (int64_t in = 0; in < inner; ++in) {
        const int64_t k = s / 2, j = s % 2;
        const int64_t p0 = ((o * k_s + k) * 2) * inner + in;
        const F x0 = Unit<F>(bits.Get<U>(p0));
        const F x1 = Unit<F>(bits.Get<U>(p0 + inner));
        const F u1 = std::max(x0, tiny);
        const F v1 = two_pi * x1;
        const F m2 = minus_two * std::log(u1);
        const F u2 = std::sqrt(m2);
        const F trig = j == 0 ? std::sin(v1) : std::cos(v1);
        const F z = trig * u2;
        const F scaled = sigma * z;
        out.Set<F>((o * n_s + s) * inner + in, mean + scaled);
      }
}

StatusOr<Literal> ScalarAs(const Literal& l, PrimitiveType t) {
  if (l.shape().element_type() == t) return l;
  return ConvertLiteral(l, t);
}

}  // namespace

StatusOr<Literal> EvalRngGetAndUpdateState(Interp& in, const Instruction& instr) {
  const RawAttr* d = instr.FindRaw("delta");
  if (!d) return InstrError(instr, "rng-get-and-update-state needs delta=N");
  uint64_t delta = 0;
  if (std::from_chars(d->value.data(), d->value.data() + d->value.size(), delta).ec != std::errc())
    return InstrError(instr, "delta=" + d->value + " is not a non-negative integer");
  const Shape& s = instr.shape();
  if (!s.IsArray() || s.element_type() != PrimitiveType::kU64 || s.dims() != std::vector<int64_t>{2})
    return InstrError(instr, "rng-get-and-update-state returns u64[2], not " + s.ToString(false));
  RngState old = in.rng_state().GetAndUpdate(delta);
  Literal out(Shape(PrimitiveType::kU64, {2}));
  out.Set<uint64_t>(0, old.lo);
  out.Set<uint64_t>(1, old.hi);
  return out;
}

StatusOr<Literal> EvalRng(Interp& in, const Instruction& instr, Operands ops) {
  const Shape& s = instr.shape();
  const RawAttr* dist = instr.FindRaw("distribution");
  const std::string d = dist ? dist->value : "";
  const bool normal = d == "rng_normal";
  if (!s.IsArray() || ops.size() < 2 || (!normal && d != "rng_uniform"))
    return InstrError(instr, "rng takes two scalar parameters and distribution=rng_uniform or rng_normal");
  const PrimitiveType r = s.element_type();
  PrimitiveType t = r == PrimitiveType::kF16 || r == PrimitiveType::kBF16 ? PrimitiveType::kF32 : r;
  const bool is_float = t == PrimitiveType::kF32 || t == PrimitiveType::kF64;
  const bool is_int = IsInteger(t) && (BitWidth(t) == 32 || BitWidth(t) == 64);
  if (!(is_float || (is_int && !normal)))
    return Unsupported(instr, d + " of " + std::string(PrimitiveTypeName(r)) +
                                  " (XLA's rng expansion takes f16, bf16, f32, f64 and 32/64-bit integers)");
  const int width = BitWidth(t);
  const int64_t n = s.num_elements();
  RngState st = in.rng_state().GetAndUpdate(static_cast<uint64_t>(n * (width / 32)));

  // The bits: rng-bit-generator(rng_philox) on {key, lo, hi}.
  const Split split = SplitInHalves(s.dims());
  const PrimitiveType u = width == 64 ? PrimitiveType::kU64 : PrimitiveType::kU32;
  Literal state3(Shape(PrimitiveType::kU64, {3}));
  state3.Set<uint64_t>(0, kRngExpanderKey);
  state3.Set<uint64_t>(1, st.lo);
  state3.Set<uint64_t>(2, st.hi);
  Instruction rbg(Opcode::kRngBitGenerator,
                  Shape::Tuple({state3.shape(), Shape(u, normal ? split.pairs : s.dims())}), instr.name());
  rbg.SetRaw("algorithm", "rng_philox");
  const Literal* rbg_ops[] = {&state3};
  ASSIGN_OR_RETURN(Literal drawn, EvalRngBitGenerator(rbg, rbg_ops));
  const Literal& bits = drawn.tuple_elements()[1];

  ASSIGN_OR_RETURN(Literal a, ScalarAs(*ops[0], t));
  ASSIGN_OR_RETURN(Literal b, ScalarAs(*ops[1], t));
  Literal out(Shape(t, s.dims()));
  switch (t) {
    case PrimitiveType::kF32:
      if (normal) Normal<float, uint32_t>(bits, split, a.Get<float>(0), b.Get<float>(0), out);
      else Uniform<float, uint32_t>(bits, a.Get<float>(0), b.Get<float>(0), out);
      break;
    case PrimitiveType::kF64:
      if (normal) Normal<double, uint64_t>(bits, split, a.Get<double>(0), b.Get<double>(0), out);
      else Uniform<double, uint64_t>(bits, a.Get<double>(0), b.Get<double>(0), out);
      break;
    case PrimitiveType::kS32: UniformInt<int32_t>(bits, a.Get<int32_t>(0), b.Get<int32_t>(0), out); break;
    case PrimitiveType::kU32: UniformInt<uint32_t>(bits, a.Get<uint32_t>(0), b.Get<uint32_t>(0), out); break;
    case PrimitiveType::kS64: UniformInt<int64_t>(bits, a.Get<int64_t>(0), b.Get<int64_t>(0), out); break;
    case PrimitiveType::kU64: UniformInt<uint64_t>(bits, a.Get<uint64_t>(0), b.Get<uint64_t>(0), out); break;
    default: return Unsupported(instr, "rng of " + std::string(PrimitiveTypeName(r)));
  }
  if (t != r) return ConvertLiteral(out, r);
  return out;
}

}  // namespace hloscope::eval
