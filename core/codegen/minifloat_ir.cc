#include "core/codegen/minifloat_ir.h"

#include <cmath>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "core/ir/float_types.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

Value* Fabs(llvm::IRBuilderBase& b, Value* x) {
  llvm::Module* m = b.GetInsertBlock()->getModule();
  return b.CreateCall(llvm::Intrinsic::getDeclaration(m, llvm::Intrinsic::fabs, {x->getType()}), {x});
}

uint32_t NanCode(const MinifloatFormat& f) {
  const uint32_t mag_bits = static_cast<uint32_t>(f.exp_bits + f.man_bits);
  switch (f.nan) {
    case MinifloatFormat::kIeee: return (((1u << f.exp_bits) - 1) << f.man_bits) | 1;
    case MinifloatFormat::kAllOnes: return (1u << mag_bits) - 1;
    case MinifloatFormat::kNegZero: return 1u << mag_bits;
    case MinifloatFormat::kAllOnesNoSign: return 0xff;
    case MinifloatFormat::kNone: return (1u << mag_bits) - 1;
  }
  return 0;
}

}  // namespace

bool IsSignedMinifloat8(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF8E5M2:
    case PrimitiveType::kF8E4M3:
    case PrimitiveType::kF8E4M3FN:
    case PrimitiveType::kF8E4M3B11FNUZ:
    case PrimitiveType::kF8E5M2FNUZ:
    case PrimitiveType::kF8E4M3FNUZ:
    case PrimitiveType::kF8E3M4: return true;
    default: return false;
  }
}

bool IsMinifloat(PrimitiveType t) {
  return IsSignedMinifloat8(t) || t == PrimitiveType::kF8E8M0FNU || t == PrimitiveType::kF4E2M1FN;
}

namespace {

// f8e8m0fnu: code e is 2^(e - 127), the same exponent field as f32's (code 0
// is the f32 subnormal 2^-127); 0xff is NaN.
Value* DecodeE8M0(llvm::IRBuilderBase& b, Value* code) {
  Value* u = b.CreateZExt(code, b.getInt32Ty());
  Value* bits = b.CreateSelect(b.CreateICmpEQ(u, b.getInt32(0)), b.getInt32(0x00400000u),
                               b.CreateShl(u, b.getInt32(23)));
  Value* v = b.CreateBitCast(bits, b.getFloatTy());
  return b.CreateSelect(b.CreateICmpEQ(u, b.getInt32(0xff)), llvm::ConstantFP::getNaN(b.getFloatTy()), v);
}

// The interpreter's rule for f8e8m0fnu: the nearest power of two in
// [2^-127, 2^127] (ties to the even code; everything below 2^-127, zeros
// included, is code 0); past 2^127 plus half the gap below it, negative
// values and NaN: the NaN code 0xff.
Value* EncodeE8M0(llvm::IRBuilderBase& b, Value* x) {
  llvm::Type* i64 = b.getInt64Ty();
  auto c64 = [&](uint64_t v) { return b.getInt64(v); };
  Value* a = Fabs(b, x);
  Value* ai = b.CreateBitCast(a, i64);
  // Round the double to a power of two: a carry out of the mantissa bumps
  // the exponent; at the midpoint (mantissa exactly half) the exponent's low
  // bit decides, which is the code's parity (the biases differ by 896).
  Value* lsb = b.CreateAnd(b.CreateLShr(ai, c64(52)), c64(1));
  Value* up = b.CreateAdd(ai, b.CreateAdd(c64((uint64_t{1} << 51) - 1), lsb));
  Value* exp = b.CreateLShr(up, c64(52));
  const uint64_t kRebias = 1023 - 127;
  Value* code = b.CreateSelect(b.CreateICmpULT(exp, c64(kRebias)), c64(0), b.CreateSub(exp, c64(kRebias)));
  Value* nan = b.CreateFCmpUNO(x, x);
  nan = b.CreateOr(nan, b.CreateFCmpOGT(a, llvm::ConstantFP::get(b.getDoubleTy(), std::ldexp(1.25, 127))));
  Value* neg = b.CreateICmpSLT(b.CreateBitCast(x, i64), c64(0));
  nan = b.CreateOr(nan, b.CreateAnd(neg, b.CreateFCmpONE(a, llvm::ConstantFP::get(b.getDoubleTy(), 0.0))));
  code = b.CreateSelect(nan, c64(0xff), code);
  return b.CreateTrunc(code, b.getInt8Ty());
}

}  // namespace

Value* DecodeMinifloat(llvm::IRBuilderBase& b, Value* code, PrimitiveType t) {
  if (t == PrimitiveType::kF8E8M0FNU) return DecodeE8M0(b, code);
  const MinifloatFormat f = MinifloatFormatOf(t);
  const int m = f.man_bits, e = f.exp_bits;
  const uint32_t mag_mask = (1u << (e + m)) - 1, sign_bit = mag_mask + 1;
  auto c32 = [&](uint64_t v) { return b.getInt32(static_cast<uint32_t>(v)); };
  Value* u = b.CreateZExt(code, b.getInt32Ty());
  Value* neg = b.CreateICmpNE(b.CreateAnd(u, c32(sign_bit)), c32(0));
  Value* mag = b.CreateAnd(u, c32(mag_mask));
  Value* exp = b.CreateLShr(mag, c32(m));
  Value* man = b.CreateAnd(mag, c32((1u << m) - 1));
  // Normal: the f32 with the same mantissa bits and the exponent rebased.
  Value* bits = b.CreateOr(b.CreateShl(b.CreateZExt(neg, b.getInt32Ty()), c32(31)),
                           b.CreateOr(b.CreateShl(b.CreateAdd(exp, c32(127 - f.bias)), c32(23)),
                                      b.CreateShl(man, c32(23 - m))));
  Value* normal = b.CreateBitCast(bits, b.getFloatTy());
  // Subnormal (exponent 0): mantissa × 2^(1 - bias - m), exactly.
  Value* sub = b.CreateFMul(b.CreateUIToFP(man, b.getFloatTy()),
                            llvm::ConstantFP::get(b.getFloatTy(), std::ldexp(1.0, 1 - f.bias - m)));
  sub = b.CreateSelect(neg, b.CreateFNeg(sub), sub);
  Value* v = b.CreateSelect(b.CreateICmpEQ(exp, c32(0)), sub, normal);
  Value* nan = llvm::ConstantFP::getNaN(b.getFloatTy());
  const uint32_t max_exp = (1u << e) - 1;
  switch (f.nan) {
    case MinifloatFormat::kIeee: {
      Value* special = b.CreateICmpEQ(exp, c32(max_exp));
      Value* inf = b.CreateSelect(neg, llvm::ConstantFP::getInfinity(b.getFloatTy(), true),
                                  llvm::ConstantFP::getInfinity(b.getFloatTy()));
      v = b.CreateSelect(special, b.CreateSelect(b.CreateICmpEQ(man, c32(0)), inf, nan), v);
      break;
    }
    case MinifloatFormat::kAllOnes: v = b.CreateSelect(b.CreateICmpEQ(mag, c32(mag_mask)), nan, v); break;
    case MinifloatFormat::kNegZero: v = b.CreateSelect(b.CreateICmpEQ(u, c32(sign_bit)), nan, v); break;
    default: break;  // f4e2m1fn has no NaN
  }
  return v;
}

Value* EncodeMinifloat(llvm::IRBuilderBase& b, Value* x, PrimitiveType t) {
  if (t == PrimitiveType::kF8E8M0FNU) return EncodeE8M0(b, x);
  const MinifloatFormat f = MinifloatFormatOf(t);
  const int m = f.man_bits;
  const uint64_t sign_bit = uint64_t{1} << (f.exp_bits + m);
  const int emin = 1 - f.bias;  // exponent of the smallest normal
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* i64 = b.getInt64Ty();
  auto c64 = [&](uint64_t v) { return b.getInt64(v); };
  auto d = [&](double v) { return llvm::ConstantFP::get(f64, v); };
  Value* xi = b.CreateBitCast(x, i64);
  Value* neg = b.CreateICmpSLT(xi, c64(0));
  Value* a = Fabs(b, x);
  // Normal range: round the double's mantissa to m bits, ties to even (a
  // carry moves into the exponent, as it should).
  const int shift = 52 - m;
  Value* ai = b.CreateBitCast(a, i64);
  Value* lsb = b.CreateAnd(b.CreateLShr(ai, c64(static_cast<uint64_t>(shift))), c64(1));
  Value* up = b.CreateAdd(ai, b.CreateAdd(c64((uint64_t{1} << (shift - 1)) - 1), lsb));
  Value* rounded_normal = b.CreateBitCast(b.CreateAnd(up, c64(~((uint64_t{1} << shift) - 1))), f64);
  // Subnormal range: adding 2^(emin - m + 52) rounds at the subnormal quantum.
  Value* magic = d(std::ldexp(1.0, emin - m + 52));
  Value* rounded_sub = b.CreateFSub(b.CreateFAdd(a, magic), magic);
  Value* small = b.CreateFCmpOLT(a, d(std::ldexp(1.0, emin)));
  Value* r = b.CreateSelect(small, rounded_sub, rounded_normal);
  // r is now a value of the type (or past its largest): its code.
  Value* r_small = b.CreateFCmpOLT(r, d(std::ldexp(1.0, emin)));
  Value* sub_code = b.CreateFPToUI(b.CreateFMul(r, d(std::ldexp(1.0, m - emin))), i64);
  Value* ri = b.CreateBitCast(r, i64);
  Value* biased = b.CreateSub(b.CreateLShr(ri, c64(52)), c64(static_cast<uint64_t>(1023 - f.bias)));
  Value* norm_code = b.CreateOr(b.CreateShl(biased, c64(static_cast<uint64_t>(m))),
                                b.CreateAnd(b.CreateLShr(ri, c64(static_cast<uint64_t>(shift))), c64((1u << m) - 1)));
  Value* code = b.CreateSelect(r_small, sub_code, norm_code);
  Value* over = b.CreateFCmpOGT(r, d(MinifloatMax(t)));  // inf is over too
  uint64_t over_code;
  if (f.has_inf) over_code = ((uint64_t{1} << f.exp_bits) - 1) << m;
  else if (f.nan == MinifloatFormat::kNone) over_code = sign_bit - 1;  // saturate (f4e2m1fn)
  else over_code = NanCode(f);
  const bool over_is_nan = !f.has_inf && f.nan != MinifloatFormat::kNone;
  code = b.CreateSelect(over, c64(over_code), code);
  // The sign, except on NaN codes that carry none and on fnuz's zero.
  Value* signed_code = b.CreateOr(code, c64(sign_bit));
  Value* keep_unsigned = b.CreateICmpEQ(code, c64(0));
  if (f.nan != MinifloatFormat::kNegZero) keep_unsigned = b.getFalse();
  if (over_is_nan) keep_unsigned = b.CreateOr(keep_unsigned, over);
  code = b.CreateSelect(b.CreateAnd(neg, b.CreateNot(keep_unsigned)), signed_code, code);
  code = b.CreateSelect(b.CreateFCmpUNO(x, x), c64(NanCode(f)), code);
  return b.CreateTrunc(code, b.getIntNTy(static_cast<unsigned>(f.bits())));
}

}  // namespace hloscope::codegen
