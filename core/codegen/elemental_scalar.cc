// Scalar arithmetic of the elemental emitter (see elemental_scalar.h). Each
// op mirrors core/eval/eval_elementwise.cc, eval_select_compare.cc and
// eval_convert.cc, so that kernels and the interpreter agree bit for bit
// where the math library does.
#include "core/codegen/elemental_scalar.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "core/codegen/complex_math_ir.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/minifloat_ir.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

bool IsNarrowFloat(PrimitiveType t) { return t == PrimitiveType::kF16 || t == PrimitiveType::kBF16; }

Status OpError(const Instruction& instr, const std::string& why) {
  return Status::Error("codegen: " + std::string(OpcodeName(instr.opcode())) + " %" + instr.name() + ": " + why);
}

std::string TypeName(PrimitiveType t) { return std::string(PrimitiveTypeName(t)); }

Value* Intrinsic(llvm::IRBuilderBase& b, llvm::Intrinsic::ID id, std::vector<Value*> args) {
  llvm::Module* m = b.GetInsertBlock()->getModule();
  std::vector<llvm::Type*> types = {args[0]->getType()};
  return b.CreateCall(llvm::Intrinsic::getDeclaration(m, id, types), args);
}

Value* IsNan(llvm::IRBuilderBase& b, Value* x) { return b.CreateFCmpUNO(x, x); }

// libdevice name of a float function: `__nv_expf` (f32) or `__nv_exp` (f64).
Value* Libm(llvm::IRBuilderBase& b, const char* base, std::vector<Value*> args) {
  bool is_f32 = args[0]->getType()->isFloatTy();
  std::string name = std::string("__nv_") + base + (is_f32 ? "f" : "");
  return CallLibdevice(b, name, args, args[0]->getType());
}

// std::max / std::min after the NaN checks, as the interpreter writes them.
Value* FloatMax(llvm::IRBuilderBase& b, Value* x, Value* y) {
  Value* m = b.CreateSelect(b.CreateFCmpOLT(x, y), y, x);
  return b.CreateSelect(IsNan(b, x), x, b.CreateSelect(IsNan(b, y), y, m));
}
Value* FloatMin(llvm::IRBuilderBase& b, Value* x, Value* y) {
  Value* m = b.CreateSelect(b.CreateFCmpOLT(y, x), y, x);
  return b.CreateSelect(IsNan(b, x), x, b.CreateSelect(IsNan(b, y), y, m));
}

StatusOr<Value*> FloatUnary(llvm::IRBuilderBase& b, const Instruction& instr, Value* x) {
  llvm::Type* t = x->getType();
  auto one = llvm::ConstantFP::get(t, 1.0);
  switch (instr.opcode()) {
    case Opcode::kAbs: return Intrinsic(b, llvm::Intrinsic::fabs, {x});
    case Opcode::kNegate: return b.CreateFNeg(x);
    case Opcode::kSign: {
      Value* mag = b.CreateUIToFP(b.CreateFCmpUNE(x, llvm::ConstantFP::get(t, 0.0)), t);
      return b.CreateSelect(IsNan(b, x), x, Intrinsic(b, llvm::Intrinsic::copysign, {mag, x}));
    }
    case Opcode::kExp: return Libm(b, "exp", {x});
    case Opcode::kExpm1: return Libm(b, "expm1", {x});
    case Opcode::kLog: return Libm(b, "log", {x});
    case Opcode::kLog1p: return Libm(b, "log1p", {x});
    case Opcode::kSqrt: return Intrinsic(b, llvm::Intrinsic::sqrt, {x});
    case Opcode::kRsqrt: return b.CreateFDiv(one, Intrinsic(b, llvm::Intrinsic::sqrt, {x}));
    case Opcode::kCbrt: return Libm(b, "cbrt", {x});
    case Opcode::kTanh: return Libm(b, "tanh", {x});
    case Opcode::kLogistic: return b.CreateFDiv(one, b.CreateFAdd(one, Libm(b, "exp", {b.CreateFNeg(x)})));
    case Opcode::kSin: return Libm(b, "sin", {x});
    case Opcode::kCos: return Libm(b, "cos", {x});
    case Opcode::kTan: return Libm(b, "tan", {x});
    case Opcode::kErf: return Libm(b, "erf", {x});
    case Opcode::kFloor: return Intrinsic(b, llvm::Intrinsic::floor, {x});
    case Opcode::kCeil: return Intrinsic(b, llvm::Intrinsic::ceil, {x});
    case Opcode::kRoundNearestAfz: return Intrinsic(b, llvm::Intrinsic::round, {x});
    case Opcode::kRoundNearestEven: return Intrinsic(b, llvm::Intrinsic::roundeven, {x});
    case Opcode::kAcos: return Libm(b, "acos", {x});
    case Opcode::kAcosh: return Libm(b, "acosh", {x});
    case Opcode::kAsin: return Libm(b, "asin", {x});
    case Opcode::kAsinh: return Libm(b, "asinh", {x});
    case Opcode::kAtanh: return Libm(b, "atanh", {x});
    case Opcode::kCosh: return Libm(b, "cosh", {x});
    case Opcode::kSinh: return Libm(b, "sinh", {x});
    default: return OpError(instr, "not defined for floating-point operands");
  }
}

StatusOr<Value*> FloatBinary(llvm::IRBuilderBase& b, const Instruction& instr, Value* x, Value* y) {
  llvm::Type* t = x->getType();
  switch (instr.opcode()) {
    case Opcode::kAdd: return b.CreateFAdd(x, y);
    case Opcode::kSubtract: return b.CreateFSub(x, y);
    case Opcode::kMultiply: return b.CreateFMul(x, y);
    case Opcode::kDivide: return b.CreateFDiv(x, y);
    case Opcode::kRemainder: return Libm(b, "fmod", {x, y});
    case Opcode::kPower: {
      auto one = llvm::ConstantFP::get(t, 1.0);
      Value* trivial = b.CreateOr(b.CreateFCmpOEQ(x, one), b.CreateFCmpOEQ(y, llvm::ConstantFP::get(t, 0.0)));
      return b.CreateSelect(trivial, one, Libm(b, "pow", {x, y}));
    }
    case Opcode::kMaximum: return FloatMax(b, x, y);
    case Opcode::kMinimum: return FloatMin(b, x, y);
    case Opcode::kAtan2: return Libm(b, "atan2", {x, y});
    default: return OpError(instr, "not defined for floating-point operands");
  }
}

StatusOr<Value*> IntUnary(llvm::IRBuilderBase& b, const Instruction& instr, Value* x, bool is_signed) {
  llvm::Type* t = x->getType();
  auto zero = llvm::ConstantInt::get(t, 0);
  switch (instr.opcode()) {
    case Opcode::kAbs: return is_signed ? b.CreateSelect(b.CreateICmpSLT(x, zero), b.CreateSub(zero, x), x) : x;
    case Opcode::kNegate: return b.CreateSub(zero, x);
    case Opcode::kSign:
      if (!is_signed) return b.CreateZExt(b.CreateICmpNE(x, zero), t);
      return b.CreateSub(b.CreateZExt(b.CreateICmpSGT(x, zero), t), b.CreateZExt(b.CreateICmpSLT(x, zero), t));
    case Opcode::kNot: return b.CreateNot(x);
    case Opcode::kPopulationCount: return Intrinsic(b, llvm::Intrinsic::ctpop, {x});
    case Opcode::kClz: return Intrinsic(b, llvm::Intrinsic::ctlz, {x, b.getFalse()});
    default: return OpError(instr, "not defined for integer operands");
  }
}

// Square-and-multiply over every bit (unrolled; O3 folds it), with XLA's
// pow(1,y) = pow(x,0) = 1 and pow(x, negative) = 0.
Value* IntPow(llvm::IRBuilderBase& b, Value* x, Value* y, bool is_signed) {
  llvm::Type* t = x->getType();
  unsigned bits = t->getIntegerBitWidth();
  auto zero = llvm::ConstantInt::get(t, 0), one = llvm::ConstantInt::get(t, 1);
  Value* result = one;
  Value* base = x;
  Value* e = y;
  for (unsigned i = 0; i < bits; ++i) {
    Value* odd = b.CreateICmpNE(b.CreateAnd(e, one), zero);
    result = b.CreateSelect(odd, b.CreateMul(result, base), result);
    base = b.CreateMul(base, base);
    e = b.CreateLShr(e, one);
  }
  Value* out = b.CreateSelect(b.CreateOr(b.CreateICmpEQ(x, one), b.CreateICmpEQ(y, zero)), one, result);
  if (is_signed) out = b.CreateSelect(b.CreateAnd(b.CreateICmpSLT(y, zero), b.CreateICmpNE(x, one)), zero, out);
  return out;
}

StatusOr<Value*> IntBinary(llvm::IRBuilderBase& b, const Instruction& instr, Value* x, Value* y, bool is_signed) {
  llvm::Type* t = x->getType();
  unsigned bits = t->getIntegerBitWidth();
  auto zero = llvm::ConstantInt::get(t, 0), one = llvm::ConstantInt::get(t, 1);
  auto all_ones = llvm::ConstantInt::get(t, -1, true);
  auto width = llvm::ConstantInt::get(t, bits);
  auto int_min = llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(bits));
  switch (instr.opcode()) {
    case Opcode::kAdd: return b.CreateAdd(x, y);
    case Opcode::kSubtract: return b.CreateSub(x, y);
    case Opcode::kMultiply: return b.CreateMul(x, y);
    case Opcode::kDivide:
    case Opcode::kRemainder: {
      bool div = instr.opcode() == Opcode::kDivide;
      Value* by_zero = b.CreateICmpEQ(y, zero);
      Value* overflow =
          is_signed ? b.CreateAnd(b.CreateICmpEQ(x, int_min), b.CreateICmpEQ(y, all_ones)) : b.getFalse();
      Value* safe = b.CreateSelect(b.CreateOr(by_zero, overflow), one, y);
      Value* q = div ? (is_signed ? b.CreateSDiv(x, safe) : b.CreateUDiv(x, safe))
                     : (is_signed ? b.CreateSRem(x, safe) : b.CreateURem(x, safe));
      // x/0 = -1 (all ones when unsigned), x%0 = x; INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0.
      q = b.CreateSelect(overflow, div ? static_cast<Value*>(int_min) : zero, q);
      return b.CreateSelect(by_zero, div ? static_cast<Value*>(all_ones) : x, q);
    }
    case Opcode::kPower: return IntPow(b, x, y, is_signed);
    case Opcode::kMaximum: return b.CreateSelect(is_signed ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y), y, x);
    case Opcode::kMinimum: return b.CreateSelect(is_signed ? b.CreateICmpSLT(y, x) : b.CreateICmpULT(y, x), y, x);
    case Opcode::kAnd: return b.CreateAnd(x, y);
    case Opcode::kOr: return b.CreateOr(x, y);
    case Opcode::kXor: return b.CreateXor(x, y);
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightLogical:
    case Opcode::kShiftRightArithmetic: {
      Value* too_far = b.CreateICmpUGE(y, width);
      Value* amount = b.CreateAnd(y, llvm::ConstantInt::get(t, bits - 1));
      if (instr.opcode() == Opcode::kShiftLeft) return b.CreateSelect(too_far, zero, b.CreateShl(x, amount));
      if (instr.opcode() == Opcode::kShiftRightLogical) return b.CreateSelect(too_far, zero, b.CreateLShr(x, amount));
      Value* sign = b.CreateAShr(x, llvm::ConstantInt::get(t, bits - 1));
      return b.CreateSelect(too_far, sign, b.CreateAShr(x, amount));
    }
    default: return OpError(instr, "not defined for integer operands");
  }
}

StatusOr<Value*> PredOp(llvm::IRBuilderBase& b, const Instruction& instr, const std::vector<Value*>& v) {
  switch (instr.opcode()) {
    case Opcode::kNot: return b.CreateNot(v[0]);
    case Opcode::kAnd:
    case Opcode::kMinimum:
    case Opcode::kMultiply: return b.CreateAnd(v[0], v[1]);
    case Opcode::kOr:
    case Opcode::kMaximum:
    case Opcode::kAdd: return b.CreateOr(v[0], v[1]);
    case Opcode::kXor: return b.CreateXor(v[0], v[1]);
    case Opcode::kPower: return b.CreateOr(v[0], b.CreateNot(v[1]));
    default: return OpError(instr, "not defined for pred operands");
  }
}

// IEEE totalOrder keys: negative values get their magnitude bits flipped.
Value* TotalOrderKey(llvm::IRBuilderBase& b, Value* f) {
  unsigned bits = f->getType()->getPrimitiveSizeInBits().getFixedValue();
  llvm::Type* it = b.getIntNTy(bits);
  Value* i = b.CreateBitCast(f, it);
  Value* flipped = b.CreateXor(i, llvm::ConstantInt::get(it, llvm::APInt::getSignedMaxValue(bits)));
  return b.CreateSelect(b.CreateICmpSLT(i, llvm::ConstantInt::get(it, 0)), flipped, i);
}

StatusOr<Value*> Compare(llvm::IRBuilderBase& b, const Instruction& instr, Value* x, Value* y, PrimitiveType t) {
  using P = llvm::CmpInst::Predicate;
  ComparisonDirection d = instr.attrs().direction;
  int di = static_cast<int>(d);  // Eq, Ne, Lt, Le, Gt, Ge
  if (IsFloat(t)) {
    if (IsNarrowFloat(t)) {
      x = b.CreateFPExt(x, b.getFloatTy());
      y = b.CreateFPExt(y, b.getFloatTy());
    }
    if (instr.attrs().compare_type == "TOTALORDER") {
      static const P kSigned[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE};
      return b.CreateICmp(kSigned[di], TotalOrderKey(b, x), TotalOrderKey(b, y));
    }
    static const P kFloat[] = {P::FCMP_OEQ, P::FCMP_UNE, P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE};
    return b.CreateFCmp(kFloat[di], x, y);
  }
  static const P kSigned[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE};
  static const P kUnsigned[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT, P::ICMP_UGE};
  return b.CreateICmp(IsSignedInt(t) ? kSigned[di] : kUnsigned[di], x, y);
}

Value* Clamp(llvm::IRBuilderBase& b, Value* lo, Value* x, Value* hi, PrimitiveType t) {
  if (IsFloat(t)) {
    Value* m = FloatMin(b, hi, FloatMax(b, x, lo));
    return b.CreateSelect(IsNan(b, lo), lo, b.CreateSelect(IsNan(b, x), x, b.CreateSelect(IsNan(b, hi), hi, m)));
  }
  bool s = IsSignedInt(t);
  Value* mx = b.CreateSelect(s ? b.CreateICmpSLT(x, lo) : b.CreateICmpULT(x, lo), lo, x);
  return b.CreateSelect(s ? b.CreateICmpSLT(hi, mx) : b.CreateICmpULT(hi, mx), hi, mx);
}

// XLA's reduce-precision on f32 (U = i32) or f64 (U = i64) bits.
Value* ReducePrecision(llvm::IRBuilderBase& b, Value* value, int exp_bits, int man_bits) {
  bool f32 = value->getType()->isFloatTy();
  int width = f32 ? 32 : 64, src_man = f32 ? 23 : 52, src_exp = f32 ? 8 : 11;
  llvm::Type* it = b.getIntNTy(width);
  auto c = [&](uint64_t v) { return llvm::ConstantInt::get(it, v); };
  Value* v = b.CreateBitCast(value, it);
  if (man_bits < src_man) {
    uint64_t last = uint64_t{1} << (src_man - man_bits);
    Value* bias = b.CreateAdd(c((last >> 1) - 1), b.CreateLShr(b.CreateAnd(v, c(last)), c(src_man - man_bits)));
    v = b.CreateAnd(b.CreateAdd(v, bias), c(~(last - 1)));
  }
  if (exp_bits < src_exp) {
    uint64_t sign_mask = uint64_t{1} << (width - 1);
    uint64_t exp_mask = ((uint64_t{1} << src_exp) - 1) << src_man;
    uint64_t exp_bias = (uint64_t{1} << (src_exp - 1)) - 1;
    uint64_t reduced_bias = (uint64_t{1} << (exp_bits - 1)) - 1;
    uint64_t max_exp = exp_bias + reduced_bias, min_exp = exp_bias - reduced_bias;
    Value* x_exp = b.CreateAnd(v, c(exp_mask));
    Value* zero = b.CreateAnd(v, c(sign_mask));
    Value* inf = b.CreateOr(zero, c(exp_mask));
    v = b.CreateSelect(b.CreateICmpUGT(x_exp, c(max_exp << src_man)), inf, v);
    v = b.CreateSelect(b.CreateICmpULE(x_exp, c(min_exp << src_man)), zero, v);
  }
  Value* r = b.CreateBitCast(v, value->getType());
  Value* nan_result = man_bits > 0 ? value : llvm::ConstantFP::getInfinity(value->getType());
  return b.CreateSelect(IsNan(b, value), nan_result, r);
}

}  // namespace

llvm::Type* RegisterType(PrimitiveType t, llvm::LLVMContext& ctx) {
  if (t == PrimitiveType::kPred) return llvm::Type::getInt1Ty(ctx);
  if (IsSubByte(t)) return llvm::Type::getIntNTy(ctx, static_cast<unsigned>(BitWidth(t)));  // s4/u4/f4 → i4
  return LlvmStorageType(t, ctx);  // complex: {re, im}
}

bool IsSubByte(PrimitiveType t) {
  return t == PrimitiveType::kS2 || t == PrimitiveType::kS4 || t == PrimitiveType::kU2 ||
         t == PrimitiveType::kU4 || t == PrimitiveType::kF4E2M1FN;
}

Status CheckSupportedType(PrimitiveType t, const std::string& what) {
  bool ok = t == PrimitiveType::kPred || IsFloat(t) || IsInteger(t) || IsComplex(t);
  ok = ok && (!IsFloat(t) || t == PrimitiveType::kF16 || t == PrimitiveType::kBF16 || t == PrimitiveType::kF32 ||
              t == PrimitiveType::kF64 || IsMinifloat(t));
  ok = ok && (!IsInteger(t) || BitWidth(t) >= 8 || IsSubByte(t));  // s1/u1: no kernels yet
  if (ok) return Status::Ok();
  return Status::Error("codegen: " + what + ": element type " + TypeName(t) + " is not supported by the kernel emitters");
}

Value* IndexToI64(llvm::IRBuilderBase& b, Value* v, PrimitiveType t) {
  if (v->getType()->isIntegerTy(1)) return b.CreateZExt(v, b.getInt64Ty());
  if (IsSignedInt(t)) return b.CreateSExtOrTrunc(v, b.getInt64Ty());
  Value* w = b.CreateZExtOrTrunc(v, b.getInt64Ty());
  if (v->getType()->getIntegerBitWidth() < 64) return w;
  return b.CreateSelect(b.CreateICmpSLT(w, b.getInt64(0)), b.getInt64(INT64_MAX), w);
}

StatusOr<Value*> EmitConvert(llvm::IRBuilderBase& b, Value* v, PrimitiveType from, PrimitiveType to) {
  llvm::LLVMContext& ctx = b.getContext();
  if (from == to) return v;
  RETURN_IF_ERROR(CheckSupportedType(from, "convert from " + TypeName(from)));
  RETURN_IF_ERROR(CheckSupportedType(to, "convert to " + TypeName(to)));
  llvm::Type* dst = RegisterType(to, ctx);
  if (IsMinifloat(from)) {  // exactly to f32, then on from there
    v = DecodeMinifloat(b, v, from);
    from = PrimitiveType::kF32;
    if (to == PrimitiveType::kF32) return v;
  }
  if (to == PrimitiveType::kPred) {
    if (IsFloat(from)) return b.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    return b.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  if (IsComplex(from) || IsComplex(to)) {
    const PrimitiveType part = to == PrimitiveType::kC128 ? PrimitiveType::kF64 : PrimitiveType::kF32;
    if (!IsComplex(to)) return Status::Error("codegen: convert from " + TypeName(from) + " to " + TypeName(to) +
                                             " is not defined (take real or imag)");
    Value* re;
    Value* im;
    if (IsComplex(from)) {
      re = b.CreateFPCast(b.CreateExtractValue(v, 0), RegisterType(part, ctx));
      im = b.CreateFPCast(b.CreateExtractValue(v, 1), RegisterType(part, ctx));
    } else {
      ASSIGN_OR_RETURN(re, EmitConvert(b, v, from, part));
      im = llvm::ConstantFP::get(RegisterType(part, ctx), 0.0);
    }
    Value* z = llvm::UndefValue::get(dst);
    z = b.CreateInsertValue(z, re, 0);
    return b.CreateInsertValue(z, im, 1);
  }
  if (IsMinifloat(to)) {  // from the exact double, rounded once, as the interpreter does
    Value* d;
    if (from == PrimitiveType::kPred) d = b.CreateUIToFP(v, b.getDoubleTy());
    else if (IsFloat(from)) d = b.CreateFPExt(IsNarrowFloat(from) ? b.CreateFPExt(v, b.getFloatTy()) : v, b.getDoubleTy());
    else d = IsSignedInt(from) ? b.CreateSIToFP(v, b.getDoubleTy()) : b.CreateUIToFP(v, b.getDoubleTy());
    return EncodeMinifloat(b, d, to);
  }
  if (from == PrimitiveType::kPred) return IsFloat(to) ? b.CreateUIToFP(v, dst) : b.CreateZExt(v, dst);
  if (IsNarrowFloat(from)) {  // widen exactly, then go on from f32
    v = b.CreateFPExt(v, b.getFloatTy());
    from = PrimitiveType::kF32;
    if (to == PrimitiveType::kF32) return v;
  }
  if (IsNarrowFloat(to)) {  // everything reaches f16/bf16 through f32, as the interpreter does
    ASSIGN_OR_RETURN(Value * f, EmitConvert(b, v, from, PrimitiveType::kF32));
    return b.CreateFPTrunc(f, dst);
  }
  if (IsFloat(from) && IsFloat(to)) return b.CreateFPCast(v, dst);
  if (IsFloat(from)) {  // saturating, NaN → 0
    // Sub-byte results saturate to the 8-bit range and then wrap, as the
    // interpreter does (it converts into its one-byte storage, then wraps).
    llvm::Type* sat = IsSubByte(to) ? b.getInt8Ty() : dst;
    llvm::Intrinsic::ID id = IsSignedInt(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    llvm::Module* m = b.GetInsertBlock()->getModule();
    Value* r = b.CreateCall(llvm::Intrinsic::getDeclaration(m, id, {sat, v->getType()}), {v});
    return sat == dst ? r : b.CreateTrunc(r, dst);
  }
  if (IsFloat(to)) return IsSignedInt(from) ? b.CreateSIToFP(v, dst) : b.CreateUIToFP(v, dst);
  return b.CreateIntCast(v, dst, IsSignedInt(from));
}

namespace {

Value* MakeComplex(llvm::IRBuilderBase& b, llvm::Type* t, Value* re, Value* im) {
  Value* z = llvm::UndefValue::get(t);
  z = b.CreateInsertValue(z, re, 0);
  return b.CreateInsertValue(z, im, 1);
}

StatusOr<Value*> ComplexOp(llvm::IRBuilderBase& b, const Instruction& instr, const std::vector<Value*>& ops,
                           const std::vector<PrimitiveType>& types, PrimitiveType out) {
  const Opcode op = instr.opcode();
  auto re = [&](size_t k) { return b.CreateExtractValue(ops[k], 0); };
  auto im = [&](size_t k) { return b.CreateExtractValue(ops[k], 1); };
  llvm::Type* ct = RegisterType(out, b.getContext());
  switch (op) {
    case Opcode::kComplex:
      if (ops.size() != 2 || IsComplex(types[0])) break;
      return MakeComplex(b, ct, ops[0], ops[1]);
    case Opcode::kReal:
      if (ops.size() != 1) break;
      return re(0);
    case Opcode::kImag:
      if (ops.size() != 1) break;
      return im(0);
    case Opcode::kAbs:  // |z| = hypot(re, im), as cabs
      if (ops.size() != 1) break;
      return Libm(b, "hypot", {re(0), im(0)});
    case Opcode::kNegate:
      if (ops.size() != 1) break;
      return MakeComplex(b, ct, b.CreateFNeg(re(0)), b.CreateFNeg(im(0)));
    case Opcode::kAdd:
    case Opcode::kSubtract:
      if (ops.size() != 2) break;
      return op == Opcode::kAdd ? MakeComplex(b, ct, b.CreateFAdd(re(0), re(1)), b.CreateFAdd(im(0), im(1)))
                                : MakeComplex(b, ct, b.CreateFSub(re(0), re(1)), b.CreateFSub(im(0), im(1)));
    case Opcode::kMultiply:  // (ac - bd, ad + bc)
      if (ops.size() != 2) break;
      return MakeComplex(b, ct, b.CreateFSub(b.CreateFMul(re(0), re(1)), b.CreateFMul(im(0), im(1))),
                         b.CreateFAdd(b.CreateFMul(re(0), im(1)), b.CreateFMul(im(0), re(1))));
    case Opcode::kDivide:  // Smith's algorithm: scaled by the larger part of the divisor
    case Opcode::kPower: {  // exp(w log z), pow(1, w) = pow(z, 0) = 1
      if (ops.size() != 2 || !IsComplex(types[0]) || !IsComplex(types[1])) break;
      Value *a = re(0), *bb = im(0), *c = re(1), *d = im(1);
      ComplexParts r = op == Opcode::kDivide ? EmitComplexDivide(b, {a, bb}, {c, d}) : EmitComplexPower(b, {a, bb}, {c, d});
      return MakeComplex(b, ct, r.re, r.im);
    }
    case Opcode::kAtan2: {  // XLA's definition: atan2(y, x) = -i log((x + iy) / sqrt(x² + y²))
      if (ops.size() != 2 || !IsComplex(types[0]) || !IsComplex(types[1])) break;
      Value *yr = re(0), *yi = im(0), *xr = re(1), *xi = im(1);
      // x + iy = (xr - yi) + i(xi + yr); x² + y² = (xr² - xi² + yr² - yi²) + 2i(xr xi + yr yi)
      ComplexParts num{b.CreateFSub(xr, yi), b.CreateFAdd(xi, yr)};
      ComplexParts sq{b.CreateFAdd(b.CreateFSub(b.CreateFMul(xr, xr), b.CreateFMul(xi, xi)),
                                   b.CreateFSub(b.CreateFMul(yr, yr), b.CreateFMul(yi, yi))),
                      b.CreateFMul(llvm::ConstantFP::get(xr->getType(), 2.0),
                                   b.CreateFAdd(b.CreateFMul(xr, xi), b.CreateFMul(yr, yi)))};
      ComplexParts root, q, l;
      if (!EmitComplexUnary(b, Opcode::kSqrt, sq, &root)) break;
      q = EmitComplexDivide(b, num, root);
      if (!EmitComplexUnary(b, Opcode::kLog, q, &l)) break;
      return MakeComplex(b, ct, l.im, b.CreateFNeg(l.re));  // -i (a + ib) = b - ia
    }
    case Opcode::kMaximum:  // lexicographic (real, then imaginary), as StableHLO defines it
    case Opcode::kMinimum: {
      if (ops.size() != 2 || !IsComplex(types[0]) || !IsComplex(types[1])) break;
      Value* a_less =
          b.CreateOr(b.CreateFCmpOLT(re(0), re(1)), b.CreateAnd(b.CreateFCmpOEQ(re(0), re(1)), b.CreateFCmpOLT(im(0), im(1))));
      return op == Opcode::kMaximum ? b.CreateSelect(a_less, ops[1], ops[0]) : b.CreateSelect(a_less, ops[0], ops[1]);
    }
    case Opcode::kCompare: {
      if (ops.size() != 2) break;
      ComparisonDirection d = instr.attrs().direction;
      Value* eq = b.CreateAnd(b.CreateFCmpOEQ(re(0), re(1)), b.CreateFCmpOEQ(im(0), im(1)));
      if (d == ComparisonDirection::kEq) return eq;
      if (d == ComparisonDirection::kNe) return b.CreateNot(eq);
      return OpError(instr, "complex values compare only for equality");
    }
    default:  // the transcendental functions (complex_math_ir.h)
      if (ops.size() != 1 || !IsComplex(types[0]) || out != types[0]) break;
      if (ComplexParts r; EmitComplexUnary(b, op, {re(0), im(0)}, &r)) return MakeComplex(b, ct, r.re, r.im);
      break;
  }
  return OpError(instr, "is not implemented for complex values by the kernel emitters");
}

// EmitElementwiseOp with the result element type `out` (f32 where an f8
// result is computed in f32).
StatusOr<Value*> ElementwiseOpTo(llvm::IRBuilderBase& b, const Instruction& instr, const std::vector<Value*>& ops,
                                 const std::vector<PrimitiveType>& types, PrimitiveType out) {
  Opcode op = instr.opcode();
  for (size_t i = 0; i < types.size(); ++i)
    RETURN_IF_ERROR(CheckSupportedType(types[i], std::string(OpcodeName(op)) + " %" + instr.name()));
  RETURN_IF_ERROR(CheckSupportedType(out, std::string(OpcodeName(op)) + " %" + instr.name()));
  switch (op) {
    case Opcode::kConvert: return EmitConvert(b, ops[0], types[0], out);
    case Opcode::kBitcastConvert: {
      llvm::Type* dst = RegisterType(out, b.getContext());
      if (types[0] == PrimitiveType::kPred || out == PrimitiveType::kPred || BitWidth(types[0]) != BitWidth(out) ||
          IsComplex(types[0]) || IsComplex(out))
        return OpError(instr, "bitcast-convert between different bit widths is not supported");
      return b.CreateBitCast(ops[0], dst);
    }
    case Opcode::kSelect: return b.CreateSelect(ops[0], ops[1], ops[2]);
    default: break;
  }
  // complex: {re, im} arithmetic here, the transcendental functions in
  // complex_math_ir.cc (the interpreter computes with std::complex).
  bool any_complex = IsComplex(out);
  for (PrimitiveType t : types) any_complex = any_complex || IsComplex(t);
  if (any_complex) return ComplexOp(b, instr, ops, types, out);
  // f8/f4: computed in f32 (each operand exactly), the result rounded once.
  bool any_f8 = IsMinifloat(out);
  for (PrimitiveType t : types) any_f8 = any_f8 || IsMinifloat(t);
  if (any_f8) {
    std::vector<Value*> wide = ops;
    std::vector<PrimitiveType> wide_types = types;
    for (size_t i = 0; i < types.size(); ++i) {
      if (!IsMinifloat(types[i])) continue;
      wide[i] = DecodeMinifloat(b, ops[i], types[i]);
      wide_types[i] = PrimitiveType::kF32;
    }
    if (!IsMinifloat(out)) return ElementwiseOpTo(b, instr, wide, wide_types, out);  // compare, is-finite
    for (PrimitiveType t : wide_types)
      if (IsFloat(t) && t != PrimitiveType::kF32) return OpError(instr, "mixes f8 with " + TypeName(t));
    ASSIGN_OR_RETURN(Value * r, ElementwiseOpTo(b, instr, wide, wide_types, PrimitiveType::kF32));
    if (!r->getType()->isFloatTy()) return OpError(instr, "an f8 result of a non-float computation");
    return EncodeMinifloat(b, b.CreateFPExt(r, b.getDoubleTy()), out);
  }
  if (op == Opcode::kCompare) return Compare(b, instr, ops[0], ops[1], types[0]);
  PrimitiveType t = types.empty() ? out : types.back();
  if (op == Opcode::kIsFinite) {
    Value* x = IsNarrowFloat(t) ? b.CreateFPExt(ops[0], b.getFloatTy()) : ops[0];
    if (!IsFloat(t)) return OpError(instr, "is-finite needs a floating-point operand");
    return b.CreateFCmpOLT(Intrinsic(b, llvm::Intrinsic::fabs, {x}), llvm::ConstantFP::getInfinity(x->getType()));
  }
  if (t == PrimitiveType::kPred) {
    if (op == Opcode::kClamp)
      return b.CreateAnd(ops[2], b.CreateOr(ops[1], ops[0]));  // min(hi, max(x, lo))
    return PredOp(b, instr, ops);
  }
  if (IsFloat(t)) {
    std::vector<Value*> w = ops;
    if (IsNarrowFloat(t))
      for (Value*& v : w) v = b.CreateFPExt(v, b.getFloatTy());
    Value* r;
    if (op == Opcode::kClamp) {
      r = Clamp(b, w[0], w[1], w[2], t);
    } else if (op == Opcode::kReducePrecision) {
      int e = static_cast<int>(instr.attrs().exponent_bits), m = static_cast<int>(instr.attrs().mantissa_bits);
      if (e < 1 || m < 0) return OpError(instr, "needs exponent_bits >= 1 and mantissa_bits >= 0");
      r = ReducePrecision(b, w[0], e, m);
    } else if (w.size() == 1) {
      ASSIGN_OR_RETURN(r, FloatUnary(b, instr, w[0]));
    } else if (w.size() == 2) {
      ASSIGN_OR_RETURN(r, FloatBinary(b, instr, w[0], w[1]));
    } else {
      return OpError(instr, "is not an elementwise op the kernel emitters implement");
    }
    return IsNarrowFloat(t) ? b.CreateFPTrunc(r, ops[0]->getType()) : r;
  }
  bool is_signed = IsSignedInt(t);
  if (op == Opcode::kClamp) return Clamp(b, ops[0], ops[1], ops[2], t);
  if (ops.size() == 1) return IntUnary(b, instr, ops[0], is_signed);
  if (ops.size() == 2) return IntBinary(b, instr, ops[0], ops[1], is_signed);
  return OpError(instr, "is not an elementwise op the kernel emitters implement");
}

}  // namespace

StatusOr<Value*> EmitElementwiseOp(llvm::IRBuilderBase& b, const Instruction& instr, const std::vector<Value*>& ops,
                                   const std::vector<PrimitiveType>& types) {
  PrimitiveType out = instr.shape().IsArray() ? instr.shape().element_type() : PrimitiveType::kInvalid;
  return ElementwiseOpTo(b, instr, ops, types, out);
}

StatusOr<Value*> EmitAtan(llvm::IRBuilderBase& b, Value* v, PrimitiveType t) {
  RETURN_IF_ERROR(CheckSupportedType(t, "atan"));
  if (IsComplex(t)) {
    ComplexParts r = EmitComplexAtan(b, {b.CreateExtractValue(v, 0), b.CreateExtractValue(v, 1)});
    return MakeComplex(b, v->getType(), r.re, r.im);
  }
  if (!IsFloat(t)) return Status::Error("codegen: atan of " + TypeName(t) + ": needs a floating-point or complex operand");
  if (IsMinifloat(t))  // in f32, rounded once
    return EncodeMinifloat(b, b.CreateFPExt(Libm(b, "atan", {DecodeMinifloat(b, v, t)}), b.getDoubleTy()), t);
  if (IsNarrowFloat(t)) return b.CreateFPTrunc(Libm(b, "atan", {b.CreateFPExt(v, b.getFloatTy())}), v->getType());
  return Libm(b, "atan", {v});
}

}  // namespace hloscope::codegen
