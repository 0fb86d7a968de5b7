// algsimp, arithmetic and logic: identities of elementwise ops (x+0, x*1,
// x-x for integers, neg(neg x), not(not x), min/max/and/or of x with itself,
// max/min with the integer type's lowest/highest or a float -inf/+inf on
// either side, select
// with a constant predicate or equal branches, convert to the same type or
// through a lossless type, exact power-of-two division, and elementwise ops
// on scalar broadcasts computed once on the scalar). A constant operand is
// recognized in every form XLA's IsAll accepts (SplatScalar: a scalar, a
// broadcast of one, an array constant with equal elements).
#include <cmath>

#include "core/passes/algsimp.h"

namespace hloscope::algsimp {
namespace {

bool SameValue(const Instruction* a, const Instruction* b) { return a == b; }

// Value of the scalar splat as a double for floats (for power-of-two tests).
bool IsExactPowerOfTwoDivisor(const Literal& c, Literal* reciprocal) {
  PrimitiveType t = c.shape().element_type();
  if (!IsFloat(t) || IsF8OrSmaller(t)) return false;
  double v = c.GetDouble(0);
  if (!std::isfinite(v) || v == 0) return false;
  int exp = 0;
  double mant = std::frexp(std::fabs(v), &exp);
  if (mant != 0.5) return false;
  double inv = 1.0 / v;  // exact in double for powers of two in range
  Literal r(Shape::Scalar(t));
  r.SetDouble(0, inv);
  if (r.GetDouble(0) != inv) return false;  // not representable exactly
  *reciprocal = std::move(r);
  return true;
}

int Log2IfPowerOfTwo(const Literal& c) {
  PrimitiveType t = c.shape().element_type();
  if (!IsUnsignedInt(t)) return -1;
  uint64_t v = static_cast<uint64_t>(c.GetInt(0));
  int bits = BitWidth(t);
  if (bits < 64) v &= (1ull << bits) - 1;
  if (v == 0 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((v >> k) != 1) ++k;
  return k;
}

// True when the scalar literal `c` is -inf (negative) or +inf.
bool IsInfinity(const Literal& c, bool negative) {
  const double v = c.GetDouble(0);
  return std::isinf(v) && (v < 0) == negative;
}

// The lowest or highest value of an integer type, as a scalar literal.
Literal IntegerLimit(PrimitiveType t, bool highest) {
  Literal l(Shape::Scalar(t));
  const int bits = BitWidth(t);
  if (highest) {
    l.SetInt(0, IsSignedInt(t) ? static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1) : -1);
  } else {
    l.SetInt(0, IsSignedInt(t) ? (int64_t{-1} << (bits - 1)) : 0);
  }
  return l;
}

// A scalar broadcast's scalar, or null.
Instruction* BroadcastScalar(Instruction* i) {
  if (i->opcode() == Opcode::kBroadcast && i->operand(0)->shape().rank() == 0) return i->operand(0);
  return nullptr;
}

Outcome Binary(Rewriter& r, Instruction* instr) {
  Instruction* a = instr->operand(0);
  Instruction* b = instr->operand(1);
  const PrimitiveType t = instr->shape().element_type();
  const PrimitiveType in_t = a->shape().element_type();
  const bool integral = IsIntegral(in_t);
  std::optional<Literal> ca = SplatScalar(a), cb = SplatScalar(b);
  const Shape& shape = instr->shape();
  auto zero_like = [&]() { return r.Filled(t, 0, shape); };

  // A zero of either sign, as XLA's AlgebraicSimplifier takes it for
  // A + 0 → A and A - 0 → A (IsAll(rhs, 0)): XLA ignores the sign of a zero
  // result there (−0 + +0 is +0, A is −0), and so do we, to make the module
  // XLA GPU's fusion passes see; the values compare equal.
  auto zero = [&](const Literal& c) { return integral ? IsZeroValue(c) : IsPositiveZero(c) || IsNegativeZero(c); };
  switch (instr->opcode()) {
    case Opcode::kAdd:
      if (cb && zero(*cb)) return r.Replace(a, "x + 0 → x");
      if (ca && zero(*ca)) return r.Replace(b, "0 + x → x");
      break;
    case Opcode::kSubtract:
      if (cb && zero(*cb)) return r.Replace(a, "x - 0 → x");
      if (integral && SameValue(a, b)) return r.Replace(zero_like(), "x - x → 0 (integers)");
      if (ca && (integral ? IsZeroValue(*ca) : IsNegativeZero(*ca)) && in_t != PrimitiveType::kPred &&
          !IsUnsignedInt(in_t))
        return r.Replace(r.Add(Opcode::kNegate, shape, {b}), "0 - x → negate(x)");
      break;
    case Opcode::kMultiply:
      if (cb && IsOneValue(*cb) && in_t != PrimitiveType::kPred) return r.Replace(a, "x * 1 → x");
      if (ca && IsOneValue(*ca) && in_t != PrimitiveType::kPred) return r.Replace(b, "1 * x → x");
      if (integral && in_t != PrimitiveType::kPred) {
        if (cb && IsZeroValue(*cb)) return r.Replace(zero_like(), "x * 0 → 0 (integers)");
        if (ca && IsZeroValue(*ca)) return r.Replace(zero_like(), "0 * x → 0 (integers)");
      }
      if (cb && IsMinusOneValue(*cb)) return r.Replace(r.Add(Opcode::kNegate, shape, {a}), "x * -1 → negate(x)");
      if (ca && IsMinusOneValue(*ca)) return r.Replace(r.Add(Opcode::kNegate, shape, {b}), "-1 * x → negate(x)");
      break;
    case Opcode::kDivide: {
      if (cb && IsOneValue(*cb) && in_t != PrimitiveType::kPred) return r.Replace(a, "x / 1 → x");
      Literal recip;
      if (cb && IsExactPowerOfTwoDivisor(*cb, &recip)) {
        Instruction* c = r.Broadcast(r.AddScalarLiteral(std::move(recip)), b->shape());
        return r.Replace(r.Add(Opcode::kMultiply, shape, {a, c}), "x / 2^k → x * 2^-k");
      }
      int k = cb ? Log2IfPowerOfTwo(*cb) : -1;
      if (k > 0) {
        Instruction* s = r.Broadcast(r.AddScalar(t, k), b->shape());
        return r.Replace(r.Add(Opcode::kShiftRightLogical, shape, {a, s}),
                         "x / 2^k → x >> k (unsigned)");
      }
      break;
    }
    case Opcode::kMaximum:
      if (SameValue(a, b)) return r.Replace(a, "max(x, x) → x");
      if (integral && in_t != PrimitiveType::kPred) {
        Literal lo = IntegerLimit(in_t, /*highest=*/false);
        if (cb && lo == *cb) return r.Replace(a, "max(x, lowest) → x (integers)");
        if (ca && lo == *ca) return r.Replace(b, "max(lowest, x) → x (integers)");
      }
      // Exact: max propagates NaN, and nothing is below -inf (XLA's rule with
      // minmax_propagate_nan, its default).
      if (IsFloat(in_t)) {
        if (cb && IsInfinity(*cb, /*negative=*/true)) return r.Replace(a, "max(x, -inf) → x (floats)");
        if (ca && IsInfinity(*ca, /*negative=*/true)) return r.Replace(b, "max(-inf, x) → x (floats)");
      }
      break;
    case Opcode::kMinimum:
      if (SameValue(a, b)) return r.Replace(a, "min(x, x) → x");
      if (integral && in_t != PrimitiveType::kPred) {
        Literal hi = IntegerLimit(in_t, /*highest=*/true);
        if (cb && hi == *cb) return r.Replace(a, "min(x, highest) → x (integers)");
        if (ca && hi == *ca) return r.Replace(b, "min(highest, x) → x (integers)");
      }
      if (IsFloat(in_t)) {
        if (cb && IsInfinity(*cb, /*negative=*/false)) return r.Replace(a, "min(x, +inf) → x (floats)");
        if (ca && IsInfinity(*ca, /*negative=*/false)) return r.Replace(b, "min(+inf, x) → x (floats)");
      }
      break;
    case Opcode::kAnd:
      if (SameValue(a, b)) return r.Replace(a, "and(x, x) → x");
      if (cb && IsAllOnesValue(*cb)) return r.Replace(a, "and(x, all ones) → x");
      if (ca && IsAllOnesValue(*ca)) return r.Replace(b, "and(all ones, x) → x");
      if ((cb && IsPositiveZero(*cb)) || (ca && IsPositiveZero(*ca)))
        return r.Replace(zero_like(), "and(x, 0) → 0");
      break;
    case Opcode::kOr:
      if (SameValue(a, b)) return r.Replace(a, "or(x, x) → x");
      if (cb && IsPositiveZero(*cb)) return r.Replace(a, "or(x, 0) → x");
      if (ca && IsPositiveZero(*ca)) return r.Replace(b, "or(0, x) → x");
      if (cb && IsAllOnesValue(*cb)) return r.Replace(b, "or(x, all ones) → all ones");
      if (ca && IsAllOnesValue(*ca)) return r.Replace(a, "or(all ones, x) → all ones");
      break;
    case Opcode::kXor:
      if (SameValue(a, b)) return r.Replace(zero_like(), "xor(x, x) → 0");
      if (cb && IsPositiveZero(*cb)) return r.Replace(a, "xor(x, 0) → x");
      if (ca && IsPositiveZero(*ca)) return r.Replace(b, "xor(0, x) → x");
      break;
    case Opcode::kPower:
      if (cb && IsOneValue(*cb) && in_t != PrimitiveType::kPred) return r.Replace(a, "pow(x, 1) → x");
      break;
    case Opcode::kCompare:
      if (SameValue(a, b) && integral) {
        bool v = false;
        switch (instr->attrs().direction) {
          case ComparisonDirection::kEq: case ComparisonDirection::kLe: case ComparisonDirection::kGe:
            v = true;
            break;
          default:
            v = false;
        }
        return r.Replace(r.Filled(PrimitiveType::kPred, v ? 1 : 0, shape),
                         "compare(x, x) → constant (integers)");
      }
      break;
    default:
      break;
  }
  return Outcome::kNone;
}

bool IdempotentUnary(Opcode op) {
  switch (op) {
    case Opcode::kAbs: case Opcode::kFloor: case Opcode::kCeil: case Opcode::kSign:
    case Opcode::kRoundNearestEven: case Opcode::kRoundNearestAfz:
      return true;
    default:
      return false;
  }
}

bool ReducePrecisionIsIdentity(const Instruction& i) {
  int e = 0, m = 0;
  switch (i.shape().element_type()) {
    case PrimitiveType::kF16: e = 5, m = 10; break;
    case PrimitiveType::kBF16: e = 8, m = 7; break;
    case PrimitiveType::kF32: e = 8, m = 23; break;
    case PrimitiveType::kF64: e = 11, m = 52; break;
    default: return false;
  }
  return i.attrs().exponent_bits >= e && i.attrs().mantissa_bits >= m;
}

Outcome Unary(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  const Opcode op = instr->opcode();
  if (op == Opcode::kNegate && x->opcode() == Opcode::kNegate) return r.Replace(x->operand(0), "negate(negate(x)) → x");
  if (op == Opcode::kNot && x->opcode() == Opcode::kNot) return r.Replace(x->operand(0), "not(not(x)) → x");
  if (IdempotentUnary(op) && x->opcode() == op) {
    std::string rule = std::string(OpcodeName(op)) + "(" + std::string(OpcodeName(op)) + "(x)) → " +
                       std::string(OpcodeName(op)) + "(x)";
    return r.Replace(x, rule);
  }
  if (op == Opcode::kAbs && x->opcode() == Opcode::kNegate) {
    instr->ReplaceOperand(0, x->operand(0));
    return r.Modified("abs(negate(x)) → abs(x)");
  }
  if (op == Opcode::kReal && x->opcode() == Opcode::kComplex) return r.Replace(x->operand(0), "real(complex(a, b)) → a");
  if (op == Opcode::kImag && x->opcode() == Opcode::kComplex) return r.Replace(x->operand(1), "imag(complex(a, b)) → b");
  if (op == Opcode::kReducePrecision && ReducePrecisionIsIdentity(*instr))
    return r.Replace(x, "reduce-precision to the type's own precision → x");
  if (op == Opcode::kConvert) {
    PrimitiveType from = x->shape().element_type(), to = instr->shape().element_type();
    if (from == to) return r.Replace(x, "convert to the same type → x");
    if (x->opcode() == Opcode::kConvert) {
      Instruction* src = x->operand(0);
      PrimitiveType orig = src->shape().element_type();
      if (LosslessConvert(orig, from)) {
        if (orig == to) return r.Replace(src, "convert(convert(x)) through a lossless type → x");
        instr->ReplaceOperand(0, src);
        return r.Modified("convert(convert(x)) through a lossless type → convert(x)");
      }
    }
  }
  return Outcome::kNone;
}

// op(broadcast(s), ...) → broadcast(op(s, ...)) when every operand is a
// scalar broadcast: the op runs once.
Outcome OnScalarBroadcasts(Rewriter& r, Instruction* instr) {
  const Opcode op = instr->opcode();
  if (!IsElementwise(op) || op == Opcode::kCopy || op == Opcode::kBitcastConvert || instr->shape().rank() == 0)
    return Outcome::kNone;
  if (!instr->called_refs().empty() || !instr->raw_attrs().empty()) return Outcome::kNone;
  std::vector<Instruction*> scalars;
  for (Instruction* o : instr->operands()) {
    Instruction* s = BroadcastScalar(o);
    if (!s) return Outcome::kNone;
    scalars.push_back(s);
  }
  Instruction* scalar_op =
      r.Add(op, ShapeLike(instr->shape(), instr->shape().element_type(), {}), scalars);
  scalar_op->attrs() = instr->attrs();
  return r.Replace(r.Broadcast(scalar_op, instr->shape()), "op(broadcast(scalar)) → broadcast(op(scalar))");
}

Outcome Select(Rewriter& r, Instruction* instr) {
  Instruction* p = instr->operand(0);
  Instruction* a = instr->operand(1);
  Instruction* b = instr->operand(2);
  if (a == b) return r.Replace(a, "select(p, x, x) → x");
  if (std::optional<Literal> c = SplatScalar(p)) {
    return c->GetInt(0) ? r.Replace(a, "select(true, a, b) → a") : r.Replace(b, "select(false, a, b) → b");
  }
  if (p->opcode() == Opcode::kNot) {
    r.SetOperands({p->operand(0), b, a});
    return r.Modified("select(not(p), a, b) → select(p, b, a)");
  }
  return Outcome::kNone;
}

}  // namespace

Outcome SimplifyArithmetic(Rewriter& r, Instruction* instr) {
  const Opcode op = instr->opcode();
  if (op == Opcode::kSelect) {
    if (Outcome o = Select(r, instr); o != Outcome::kNone) return o;
  } else if (IsElementwiseBinary(op) && instr->operand_count() == 2) {
    if (Outcome o = Binary(r, instr); o != Outcome::kNone) return o;
  } else if (IsElementwiseUnary(op) && instr->operand_count() == 1) {
    if (Outcome o = Unary(r, instr); o != Outcome::kNone) return o;
  }
  return OnScalarBroadcasts(r, instr);
}

}  // namespace hloscope::algsimp
