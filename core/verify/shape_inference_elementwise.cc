// Elementwise ops: unary math, binary arithmetic and logic, compare, complex,
// convert, bitcast-convert, stochastic-convert, reduce-precision, select and
// clamp. As in XLA's HloVerifier, operands must have identical dimensions
// (HLO has no implicit broadcast); real floating types may mix, the result
// taking the wider one.
#include <algorithm>

#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {
namespace {

std::string TypeName(PrimitiveType t) { return std::string(PrimitiveTypeName(t)); }

Status WrongType(const Instruction& instr, int i, std::string_view needs) {
  return Fail(Op(instr) + " needs " + std::string(needs) + " operands, but " + Operand(instr, i) + " is " +
              Str(instr.operand(i)->shape()));
}

StatusOr<Shape> InferUnary(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  const Shape& s = instr.operand(0)->shape();
  if (instr.opcode() == Opcode::kCopy) return NoLayout(s);
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const PrimitiveType t = s.element_type();
  const bool fp = IsFloat(t), cplx = IsComplex(t), integral = IsInteger(t);
  switch (instr.opcode()) {
    case Opcode::kFloor:
    case Opcode::kCeil:
    case Opcode::kErf:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
      if (!fp) return WrongType(instr, 0, "floating-point");
      return NoLayout(s);
    case Opcode::kAcos:
    case Opcode::kAcosh:
    case Opcode::kAsin:
    case Opcode::kAsinh:
    case Opcode::kAtanh:
    case Opcode::kCosh:
    case Opcode::kSinh:
    case Opcode::kCbrt:
    case Opcode::kCos:
    case Opcode::kSin:
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kLogistic:
    case Opcode::kRsqrt:
    case Opcode::kSqrt:
    case Opcode::kTan:
    case Opcode::kTanh:
      if (!fp && !cplx) return WrongType(instr, 0, "floating-point or complex");
      return NoLayout(s);
    case Opcode::kReal:
    case Opcode::kImag:
      if (cplx) return WithType(s, ComplexComponentType(t));
      if (!fp) return WrongType(instr, 0, "floating-point or complex");
      return NoLayout(s);
    case Opcode::kAbs:
      if (cplx) return WithType(s, ComplexComponentType(t));
      if (!fp && !IsSignedInt(t)) return WrongType(instr, 0, "signed, floating-point or complex");
      return NoLayout(s);
    case Opcode::kSign:
      if (!fp && !cplx && !IsSignedInt(t)) return WrongType(instr, 0, "signed, floating-point or complex");
      return NoLayout(s);
    case Opcode::kClz:
    case Opcode::kPopulationCount:
      if (!integral) return WrongType(instr, 0, "integer");
      return NoLayout(s);
    case Opcode::kNegate:
      if (!integral && !fp && !cplx) return WrongType(instr, 0, "integer, floating-point or complex");
      return NoLayout(s);
    case Opcode::kNot:
      if (!integral && t != PrimitiveType::kPred) return WrongType(instr, 0, "pred or integer");
      return NoLayout(s);
    case Opcode::kIsFinite:
      if (!fp) return WrongType(instr, 0, "floating-point");
      return WithType(s, PrimitiveType::kPred);
    case Opcode::kReducePrecision:
      if (!fp) return WrongType(instr, 0, "floating-point");
      if (instr.attrs().exponent_bits < 1)
        return Fail("exponent_bits=" + std::to_string(instr.attrs().exponent_bits) + " must be at least 1");
      if (instr.attrs().mantissa_bits < 0)
        return Fail("mantissa_bits=" + std::to_string(instr.attrs().mantissa_bits) + " must not be negative");
      return NoLayout(s);
    default:
      return Fail("no unary shape rule for " + Op(instr));
  }
}

StatusOr<Shape> InferConvert(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  const Shape& s = instr.operand(0)->shape();
  if (!HasDeclaredShape(instr))
    return Fail("cannot infer the shape of " + Op(instr) + ": the target element type must be written");
  const PrimitiveType to = instr.shape().element_type();
  if (!s.IsArray() || !IsArrayType(to))
    return Fail(Op(instr) + " converts arrays only, but " + Operand(instr, 0) + " is " + Str(s) +
                " and the result type is " + TypeName(to));
  if (instr.opcode() == Opcode::kConvert) return WithType(s, to);
  // bitcast-convert: equal widths keep the shape; narrowing appends a minor
  // dimension of size ratio; widening consumes a minor dimension of that size.
  const PrimitiveType from = s.element_type();
  if (IsComplex(from) != IsComplex(to))
    return Fail("bitcast-convert cannot convert between complex and real types (" + TypeName(from) + " to " +
                TypeName(to) + ")");
  int in_bits = BitWidth(from), out_bits = BitWidth(to);
  if (in_bits <= 0 || out_bits <= 0 || std::max(in_bits, out_bits) % std::min(in_bits, out_bits) != 0)
    return Fail("bitcast-convert between " + TypeName(from) + " and " + TypeName(to) +
                " needs bit widths that divide each other");
  Shape r = WithType(s, to);
  int64_t ratio = std::max(in_bits, out_bits) / std::min(in_bits, out_bits);
  if (in_bits > out_bits) {
    r.mutable_dims().push_back(ratio);
    if (s.IsDynamic()) r.SetDynamicDim(r.rank() - 1, false);
  } else if (in_bits < out_bits) {
    if (s.rank() == 0 || s.dim(s.rank() - 1) != ratio)
      return Fail("bitcast-convert from " + Str(s) + " to " + TypeName(to) +
                  " needs a last dimension of size " + std::to_string(ratio));
    Shape shorter = MakeArray(to, std::vector<int64_t>(s.dims().begin(), s.dims().end() - 1));
    for (int i = 0; i + 1 < s.rank(); ++i)
      if (s.IsDynamicDim(i)) shorter.SetDynamicDim(i, true);
    r = shorter;
  }
  return r;
}

StatusOr<Shape> InferStochasticConvert(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 1));
  if (!HasDeclaredShape(instr))
    return Fail("cannot infer the shape of stochastic-convert: the target element type must be written");
  const Shape& x = instr.operand(0)->shape();
  const Shape& r = instr.operand(1)->shape();
  if (!IsUnsignedInt(r.element_type()))
    return Fail("stochastic-convert needs unsigned random bits, but " + Operand(instr, 1) + " is " + Str(r));
  if (!IsFloat(x.element_type()))
    return Fail("stochastic-convert converts floating-point values, but " + Operand(instr, 0) + " is " +
                Str(x));
  if (BitWidth(x.element_type()) != BitWidth(r.element_type()))
    return Fail("stochastic-convert needs random bits as wide as the operand: " + Str(x) + " and " + Str(r));
  if (x.dims() != r.dims())
    return Fail("stochastic-convert needs random bits of the operand's shape: " + Str(x) + " and " + Str(r));
  return WithType(x, instr.shape().element_type());
}

StatusOr<Shape> InferBinary(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 1));
  const Shape& a = instr.operand(0)->shape();
  const Shape& b = instr.operand(1)->shape();
  const PrimitiveType ta = a.element_type(), tb = b.element_type();
  const Opcode op = instr.opcode();
  switch (op) {
    case Opcode::kSubtract:
    case Opcode::kAtan2:
    case Opcode::kPower:
    case Opcode::kDivide:
    case Opcode::kRemainder:
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical:
      if (ta == PrimitiveType::kPred) return WrongType(instr, 0, "arithmetic (non-pred)");
      if (tb == PrimitiveType::kPred) return WrongType(instr, 1, "arithmetic (non-pred)");
      if (op == Opcode::kAtan2 && !IsFloat(ta) && !IsComplex(ta))
        return WrongType(instr, 0, "floating-point or complex");
      break;
    case Opcode::kComplex:
      if (!IsFloat(ta)) return WrongType(instr, 0, "floating-point");
      break;
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
      if (ta != PrimitiveType::kPred && !IsInteger(ta)) return WrongType(instr, 0, "pred or integer");
      break;
    default:
      break;
  }
  if (!SameTypeIgnoringFp(ta, tb))
    return Fail(Operand(instr, 1) + " has shape " + Str(b) + " but element type " + TypeName(ta) +
                " was expected (" + Op(instr) + " needs operands of the same element type; " +
                Operand(instr, 0) + " is " + Str(a) + ")");
  if (!SameDimsCompatible(a, b)) {
    Shape expected = WithType(a, tb);
    return Fail(Operand(instr, 1) + " has shape " + Str(b) + " but " + Str(expected) + " was expected (" +
                Op(instr) + " needs operands of identical shape; HLO has no implicit broadcast)");
  }
  Shape r = WithType(a, HigherPrecisionType(ta, tb));
  for (int i = 0; i < r.rank(); ++i) {
    if (IsUnbounded(a, i) && !IsUnbounded(b, i)) {
      r.mutable_dims()[i] = b.dim(i);
      r.SetDynamicDim(i, b.IsDynamicDim(i));
    } else if (b.IsDynamicDim(i) && !IsUnbounded(b, i)) {
      r.SetDynamicDim(i, true);
    }
  }
  if (op == Opcode::kCompare) return WithType(r, PrimitiveType::kPred);
  if (op == Opcode::kComplex) {
    if (ta == PrimitiveType::kF32 && tb == PrimitiveType::kF32) return WithType(r, PrimitiveType::kC64);
    if (ta == PrimitiveType::kF64 && tb == PrimitiveType::kF64) return WithType(r, PrimitiveType::kC128);
    return Fail("complex needs two f32 or two f64 operands, got " + Str(a) + " and " + Str(b));
  }
  return r;
}

StatusOr<Shape> InferSelect(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 3));
  for (int i = 0; i < 3; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& p = instr.operand(0)->shape();
  const Shape& t = instr.operand(1)->shape();
  const Shape& f = instr.operand(2)->shape();
  if (!SameTypeIgnoringFp(t.element_type(), f.element_type()) || !SameDimsCompatible(t, f))
    return Fail(Operand(instr, 2) + " has shape " + Str(f) + " but " + Str(t) +
                " was expected (select's two choices must have the same shape)");
  if (p.element_type() != PrimitiveType::kPred)
    return Fail(Operand(instr, 0) + ", the predicate, has shape " + Str(p) + " but must be of type pred");
  if (p.rank() != 0 && !SameDimsCompatible(p, t))
    return Fail(Operand(instr, 0) + ", the predicate, has shape " + Str(p) + " but " +
                Str(WithType(t, PrimitiveType::kPred)) + " or pred[] was expected");
  Shape r = WithType(t, HigherPrecisionType(t.element_type(), f.element_type()));
  for (int i = 0; i < r.rank(); ++i) {
    if (IsUnbounded(t, i) && !IsUnbounded(f, i)) r.mutable_dims()[i] = f.dim(i);
    bool dyn = (p.rank() != 0 && p.IsDynamicDim(i)) || t.IsDynamicDim(i) || f.IsDynamicDim(i);
    if (IsUnbounded(t, i) || IsUnbounded(f, i)) dyn = t.IsDynamicDim(i) && f.IsDynamicDim(i);
    r.SetDynamicDim(i, dyn);
  }
  return r;
}

StatusOr<Shape> InferClamp(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 3));
  for (int i = 0; i < 3; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& lo = instr.operand(0)->shape();
  const Shape& x = instr.operand(1)->shape();
  const Shape& hi = instr.operand(2)->shape();
  for (int i : {0, 2}) {
    const Shape& bound = instr.operand(i)->shape();
    if (!SameTypeIgnoringFp(bound.element_type(), x.element_type()))
      return Fail(Operand(instr, i) + " has shape " + Str(bound) + " but element type " +
                  TypeName(x.element_type()) + " was expected (clamp's bounds must have the operand's type)");
    if (bound.rank() != 0 && !SameDimsCompatible(bound, x))
      return Fail(Operand(instr, i) + " has shape " + Str(bound) + " but " +
                  Str(WithType(x, bound.element_type())) +
                  " or a scalar was expected (clamp's bounds are scalars or match the operand)");
  }
  if (lo.rank() != 0 && hi.rank() != 0 && !SameDimsCompatible(lo, hi))
    return Fail("clamp bounds " + Str(lo) + " and " + Str(hi) + " differ");
  return NoLayout(x);
}

}  // namespace

StatusOr<Shape> InferElementwise(const Instruction& instr) {
  switch (instr.opcode()) {
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
      return InferConvert(instr);
    case Opcode::kStochasticConvert:
      return InferStochasticConvert(instr);
    case Opcode::kSelect:
      return InferSelect(instr);
    case Opcode::kClamp:
      return InferClamp(instr);
    default:
      break;
  }
  if (IsElementwiseBinary(instr.opcode())) return InferBinary(instr);
  return InferUnary(instr);
}

}  // namespace hloscope::infer
