// Complex elementary functions as real IR (see complex_math_ir.h). Each
// function is written for z = x + iy from the textbook identities; the
// comments name the identity and the numerical care taken.
#include "core/codegen/complex_math_ir.h"

#include <cfloat>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "core/codegen/ir_util.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

// Real arithmetic in the component type (float or double) of one complex op.
class Real {
 public:
  explicit Real(llvm::IRBuilderBase& b, llvm::Type* t) : b_(b), t_(t), f32_(t->isFloatTy()) {}

  Value* K(double v) const { return llvm::ConstantFP::get(t_, v); }
  Value* Add(Value* x, Value* y) { return b_.CreateFAdd(x, y); }
  Value* Sub(Value* x, Value* y) { return b_.CreateFSub(x, y); }
  Value* Mul(Value* x, Value* y) { return b_.CreateFMul(x, y); }
  Value* Div(Value* x, Value* y) { return b_.CreateFDiv(x, y); }
  Value* Neg(Value* x) { return b_.CreateFNeg(x); }
  Value* Sel(Value* c, Value* x, Value* y) { return b_.CreateSelect(c, x, y); }
  Value* And(Value* c, Value* d) { return b_.CreateAnd(c, d); }
  Value* Or(Value* c, Value* d) { return b_.CreateOr(c, d); }
  // Ordered comparisons: false when either side is NaN.
  Value* Lt(Value* x, Value* y) { return b_.CreateFCmpOLT(x, y); }
  Value* Le(Value* x, Value* y) { return b_.CreateFCmpOLE(x, y); }
  Value* Gt(Value* x, Value* y) { return b_.CreateFCmpOGT(x, y); }
  Value* Ge(Value* x, Value* y) { return b_.CreateFCmpOGE(x, y); }
  Value* Eq(Value* x, Value* y) { return b_.CreateFCmpOEQ(x, y); }
  Value* SignBit(Value* x) {
    unsigned bits = t_->getPrimitiveSizeInBits().getFixedValue();
    return b_.CreateICmpSLT(b_.CreateBitCast(x, b_.getIntNTy(bits)), b_.getIntN(bits, 0));
  }

  Value* Abs(Value* x) { return Intrinsic(llvm::Intrinsic::fabs, {x}); }
  Value* CopySign(Value* mag, Value* sign) { return Intrinsic(llvm::Intrinsic::copysign, {mag, sign}); }
  Value* Sqrt(Value* x) { return Intrinsic(llvm::Intrinsic::sqrt, {x}); }
  Value* Fma(Value* x, Value* y, Value* z) { return Intrinsic(llvm::Intrinsic::fma, {x, y, z}); }
  Value* Max(Value* x, Value* y) { return Sel(Lt(x, y), y, x); }
  // libdevice `__nv_<base>f` / `__nv_<base>`.
  Value* Fn(const char* base, std::vector<Value*> args) {
    return CallLibdevice(b_, std::string("__nv_") + base + (f32_ ? "f" : ""), args, t_);
  }

  // Limits of the component type.
  double Huge() const { return f32_ ? FLT_MAX : DBL_MAX; }
  double LogHuge() const { return std::log(Huge()); }
  double Eps() const { return f32_ ? FLT_EPSILON : DBL_EPSILON; }
  double Inf() const { return HUGE_VAL; }

 private:
  Value* Intrinsic(llvm::Intrinsic::ID id, std::vector<Value*> args) {
    llvm::Module* m = b_.GetInsertBlock()->getModule();
    return b_.CreateCall(llvm::Intrinsic::getDeclaration(m, id, {t_}), args);
  }

  llvm::IRBuilderBase& b_;
  llvm::Type* t_;
  bool f32_;
};

constexpr double kPi = std::numbers::pi;
constexpr double kLn2 = std::numbers::ln2;

// e^x · c without the spurious overflow of e^x where the product is finite:
// past log(max), (e^(x/2) · c) · e^(x/2).
Value* ExpTimes(Real& r, Value* x, Value* c) {
  Value* h = r.Fn("exp", {r.Mul(x, r.K(0.5))});
  return r.Sel(r.Gt(x, r.K(r.LogHuge())), r.Mul(r.Mul(h, c), h), r.Mul(r.Fn("exp", {x}), c));
}

// cosh(x) · c and sinh(x) · s; for large |x| both are e^|x|/2 (times the
// sign of x for sinh), formed as (e^(|x|/2) · c/2) · e^(|x|/2).
Value* CoshTimes(Real& r, Value* x, Value* c) {
  Value* ax = r.Abs(x);
  Value* h = r.Fn("exp", {r.Mul(ax, r.K(0.5))});
  Value* big = r.Mul(r.Mul(h, r.Mul(c, r.K(0.5))), h);
  return r.Sel(r.Gt(ax, r.K(r.LogHuge() - 1)), big, r.Mul(r.Fn("cosh", {x}), c));
}
Value* SinhTimes(Real& r, Value* x, Value* s) {
  Value* ax = r.Abs(x);
  Value* h = r.Fn("exp", {r.Mul(ax, r.K(0.5))});
  Value* big = r.Mul(r.Mul(h, r.Mul(r.CopySign(r.K(0.5), x), s)), h);
  return r.Sel(r.Gt(ax, r.K(r.LogHuge() - 1)), big, r.Mul(r.Fn("sinh", {x}), s));
}

// log|x + iy|. Near the unit circle (the larger part a in [1/2, 2]) as
// log1p((a-1)(a+1) + b²)/2, where a-1 is exact; elsewhere as
// log a + log1p((b/a)²)/2, which neither overflows nor underflows.
Value* LogAbs(Real& r, Value* x, Value* y) {
  Value* ax = r.Abs(x);
  Value* ay = r.Abs(y);
  Value* swap = r.Lt(ax, ay);
  Value* a = r.Sel(swap, ay, ax);
  Value* c = r.Sel(swap, ax, ay);
  Value* near1 = r.And(r.Ge(a, r.K(0.5)), r.Le(a, r.K(2)));
  Value* v_near = r.Mul(r.K(0.5), r.Fn("log1p", {r.Fma(c, c, r.Mul(r.Sub(a, r.K(1)), r.Add(a, r.K(1))))}));
  Value* q = r.Sel(r.Eq(a, c), r.K(1), r.Div(c, a));  // 0/0 and inf/inf as 1
  Value* v_far = r.Add(r.Fn("log", {a}), r.Mul(r.K(0.5), r.Fn("log1p", {r.Mul(q, q)})));
  return r.Sel(near1, v_near, v_far);
}

ComplexParts Exp(Real& r, ComplexParts z) {
  Value* re = ExpTimes(r, z.re, r.Fn("cos", {z.im}));
  Value* im = ExpTimes(r, z.re, r.Fn("sin", {z.im}));
  return {re, r.Sel(r.Eq(z.im, r.K(0)), z.im, im)};  // exp(x ± i0) = e^x ± i0, also for x = ∞
}

// exp(z) - 1: re = expm1(x) cos y - 2 sin²(y/2) (no cancellation for small
// |z|), e^x cos y past the overflow of expm1.
ComplexParts Expm1(Real& r, ComplexParts z) {
  Value* h = r.Fn("sin", {r.Mul(z.im, r.K(0.5))});
  Value* cos_y = r.Fn("cos", {z.im});
  Value* re = r.Sub(r.Mul(r.Fn("expm1", {z.re}), cos_y), r.Mul(r.Mul(r.K(2), h), h));
  re = r.Sel(r.Gt(z.re, r.K(r.LogHuge())), ExpTimes(r, z.re, cos_y), re);
  Value* im = ExpTimes(r, z.re, r.Fn("sin", {z.im}));
  return {re, r.Sel(r.Eq(z.im, r.K(0)), z.im, im)};
}

ComplexParts Log(Real& r, ComplexParts z) { return {LogAbs(r, z.re, z.im), r.Fn("atan2", {z.im, z.re})}; }

// log(1 + z): where |1 + z| is in [1/2, 2], log|1+z| = log1p(x(2+x) + y²)/2
// keeps a tiny z; elsewhere 1 + x loses nothing that matters.
ComplexParts Log1p(Real& r, ComplexParts z) {
  Value* u = r.Add(z.re, r.K(1));
  Value* m = r.Max(r.Abs(u), r.Abs(z.im));
  Value* mid = r.And(r.Ge(m, r.K(0.5)), r.Le(m, r.K(2)));
  Value* s = r.Fma(z.im, z.im, r.Mul(z.re, r.Add(r.K(2), z.re)));
  Value* re = r.Sel(mid, r.Mul(r.K(0.5), r.Fn("log1p", {s})), LogAbs(r, u, z.im));
  return {re, r.Fn("atan2", {z.im, u})};
}

// Principal square root: t = sqrt((|x| + |z|)/2); x >= 0: (t, y/2t), else
// (|y|/2t, ±t with the sign of y). sqrt(±0 ± i0) = +0 ± i0,
// sqrt(x ± i∞) = ∞ ± i∞.
ComplexParts Sqrt(Real& r, ComplexParts z) {
  Value* ax = r.Abs(z.re);
  Value* h = r.Fn("hypot", {z.re, z.im});
  Value* t_small = r.Mul(r.K(0.5), r.Sqrt(r.Mul(r.K(2), r.Add(ax, h))));  // exact scalings, no underflow
  Value* t_big = r.Sqrt(r.Add(r.Mul(r.K(0.5), ax), r.Mul(r.K(0.5), h)));  // no overflow
  Value* t = r.Sel(r.Gt(h, r.K(1)), t_big, t_small);
  Value* q = r.Div(z.im, r.Add(t, t));
  Value* neg = r.Lt(z.re, r.K(0));
  Value* re = r.Sel(neg, r.Abs(q), t);
  Value* im = r.Sel(neg, r.CopySign(t, z.im), q);
  Value* zero = r.Eq(t, r.K(0));
  Value* inf_y = r.Eq(r.Abs(z.im), r.K(r.Inf()));
  re = r.Sel(inf_y, r.K(r.Inf()), r.Sel(zero, t, re));
  im = r.Sel(r.Or(inf_y, zero), z.im, im);
  return {re, im};
}

ComplexParts Divide(Real& r, ComplexParts a, ComplexParts w) {
  Value *c = w.re, *d = w.im;
  Value* c_big = r.Ge(r.Abs(c), r.Abs(d));
  Value* r1 = r.Div(d, c);
  Value* den1 = r.Add(c, r.Mul(d, r1));
  Value* re1 = r.Div(r.Add(a.re, r.Mul(a.im, r1)), den1);
  Value* im1 = r.Div(r.Sub(a.im, r.Mul(a.re, r1)), den1);
  Value* r2 = r.Div(c, d);
  Value* den2 = r.Add(r.Mul(c, r2), d);
  Value* re2 = r.Div(r.Add(r.Mul(a.re, r2), a.im), den2);
  Value* im2 = r.Div(r.Sub(r.Mul(a.im, r2), a.re), den2);
  // a / 0 = ∞·a with the sign of c, as C's complex division (1/0 = ∞ + i NaN)
  Value* by_zero = r.And(r.Eq(c, r.K(0)), r.Eq(d, r.K(0)));
  Value* inf = r.CopySign(r.K(r.Inf()), c);
  return {r.Sel(by_zero, r.Mul(inf, a.re), r.Sel(c_big, re1, re2)),
          r.Sel(by_zero, r.Mul(inf, a.im), r.Sel(c_big, im1, im2))};
}

// The principal cube root: cbrt|z| · e^(i arg(z)/3); cbrt(0) = 0.
ComplexParts Cbrt(Real& r, ComplexParts z) {
  Value* h = r.Fn("hypot", {z.re, z.im});
  Value* h8 = r.Fn("hypot", {r.Mul(z.re, r.K(0.125)), r.Mul(z.im, r.K(0.125))});
  Value* m = r.Sel(r.Eq(h, r.K(r.Inf())), r.Mul(r.K(2), r.Fn("cbrt", {h8})), r.Fn("cbrt", {h}));
  Value* theta = r.Div(r.Fn("atan2", {z.im, z.re}), r.K(3));
  Value* zero = r.Eq(h, r.K(0));
  return {r.Sel(zero, r.K(0), r.Mul(m, r.Fn("cos", {theta}))),
          r.Sel(zero, r.K(0), r.Mul(m, r.Fn("sin", {theta})))};
}

// tanh by Kahan's formula: t = tan y, β = 1 + t², s = sinh x, ρ = √(1+s²):
// tanh z = (βρs + it) / (1 + βs²). Past |x| = 22 (double) / 9 (float)
// tanh z = ±1 + i·4 sin y cos y e^(-2|x|) to the last bit.
ComplexParts Tanh(Real& r, ComplexParts z, bool f32) {
  Value* t = r.Fn("tan", {z.im});
  Value* beta = r.Fma(t, t, r.K(1));
  Value* s = r.Fn("sinh", {z.re});
  Value* rho = r.Sqrt(r.Fma(s, s, r.K(1)));
  Value* den = r.Fma(r.Mul(beta, s), s, r.K(1));
  Value* re = r.Div(r.Mul(r.Mul(beta, rho), s), den);
  Value* im = r.Div(t, den);
  Value* ax = r.Abs(z.re);
  Value* big = r.Gt(ax, r.K(f32 ? 9 : 22));
  Value* sc = r.Mul(r.K(4), r.Mul(r.Fn("sin", {z.im}), r.Fn("cos", {z.im})));
  Value* im_big = r.Mul(sc, r.Fn("exp", {r.Mul(r.K(-2), ax)}));
  return {r.Sel(big, r.CopySign(r.K(1), z.re), re), r.Sel(big, im_big, im)};
}

// The arcsine/arccosine core of Hull, Fairgrieve and Tang (ACM TOMS 23(3),
// 1997) on X = |x|, Y = |y|: with r = |z+1|, s = |z-1|, A = (r+s)/2 >= 1,
// B = X/A, asin = asin B + i log(A + √(A²-1)), acos = acos B - i(...).
// A - 1 and A² - X² are formed without cancellation; B near 1 goes through
// atan; huge |z| uses asin z ≈ -i log(2iz); tiny Y below X < 1 uses
// Im = Y/√(1-X²) (A - 1 underflows there).
struct AsinCore {
  Value* asin_re;  // in [0, π/2]
  Value* acos_re;  // in [0, π/2]
  Value* im;       // >= 0
};
AsinCore AsinAcos(Real& r, Value* x, Value* y) {
  Value* one = r.K(1);
  Value* xp1 = r.Add(x, one);
  Value* xm1 = r.Sub(x, one);
  Value* omx = r.Sub(one, x);
  Value* rr = r.Fn("hypot", {xp1, y});
  Value* s = r.Fn("hypot", {xm1, y});
  Value* a = r.Mul(r.K(0.5), r.Add(rr, s));
  Value* bq = r.Div(x, a);
  Value* y2 = r.Mul(y, y);
  Value* fr = r.Div(y2, r.Add(rr, xp1));  // r - (x+1)
  Value* x_lt1 = r.Lt(x, one);
  // A - 1
  Value* am1_lt = r.Mul(r.K(0.5), r.Add(fr, r.Div(y2, r.Add(s, omx))));
  Value* am1_ge = r.Mul(r.K(0.5), r.Add(fr, r.Add(s, xm1)));
  Value* am1 = r.Sel(x_lt1, am1_lt, am1_ge);
  Value* im_near = r.Fn("log1p", {r.Add(am1, r.Sqrt(r.Mul(am1, r.Add(a, one))))});
  Value* im = r.Sel(r.Le(a, r.K(1.5)), im_near, r.Fn("acosh", {a}));
  Value* tiny_y = r.And(x_lt1, r.Lt(y, r.Mul(r.K(r.Eps()), omx)));
  im = r.Sel(tiny_y, r.Div(y, r.Sqrt(r.Mul(omx, xp1))), im);
  // √(A² - X²) = √((A+X)(A-X))
  Value* apx = r.Add(a, x);
  Value* d_le = r.Sqrt(r.Mul(r.Mul(r.K(0.5), apx), r.Add(fr, r.Add(s, omx))));
  Value* d_gt = r.Mul(y, r.Sqrt(r.Mul(r.K(0.5), r.Add(r.Div(apx, r.Add(rr, xp1)), r.Div(apx, r.Add(s, xm1))))));
  Value* d = r.Sel(r.Le(x, one), d_le, d_gt);
  Value* small_b = r.Le(bq, r.K(0.6417));
  Value* asin_re = r.Sel(small_b, r.Fn("asin", {bq}), r.Fn("atan", {r.Div(x, d)}));
  Value* acos_re = r.Sel(small_b, r.Fn("acos", {bq}), r.Fn("atan", {r.Div(d, x)}));
  // |z| past √max/8: A ≈ |z|, asin z ≈ -i log(2iz)
  Value* huge = r.Gt(r.Max(x, y), r.K(std::sqrt(r.Huge()) / 8));
  asin_re = r.Sel(huge, r.Fn("atan2", {x, y}), asin_re);
  acos_re = r.Sel(huge, r.Fn("atan2", {y, x}), acos_re);
  im = r.Sel(huge, r.Add(LogAbs(r, x, y), r.K(kLn2)), im);
  return {asin_re, acos_re, im};
}

ComplexParts Asin(Real& r, ComplexParts z) {
  AsinCore c = AsinAcos(r, r.Abs(z.re), r.Abs(z.im));
  return {r.CopySign(c.asin_re, z.re), r.CopySign(c.im, z.im)};
}

// acos z: real part π - acos B left of the imaginary axis (-0 included);
// the imaginary part has the opposite sign of y.
ComplexParts Acos(Real& r, ComplexParts z) {
  AsinCore c = AsinAcos(r, r.Abs(z.re), r.Abs(z.im));
  Value* re = r.Sel(r.SignBit(z.re), r.Sub(r.K(kPi), c.acos_re), c.acos_re);
  return {re, r.CopySign(c.im, r.Neg(z.im))};
}

// asinh z = -i asin(iz).
ComplexParts Asinh(Real& r, ComplexParts z) {
  AsinCore c = AsinAcos(r, r.Abs(z.im), r.Abs(z.re));
  return {r.CopySign(c.im, z.re), r.CopySign(c.asin_re, z.im)};
}

// acosh z = ±i acos z with a non-negative real part: (|Im acos|, ±Re acos
// with the sign of y).
ComplexParts Acosh(Real& r, ComplexParts z) {
  AsinCore c = AsinAcos(r, r.Abs(z.re), r.Abs(z.im));
  Value* re_acos = r.Sel(r.SignBit(z.re), r.Sub(r.K(kPi), c.acos_re), c.acos_re);
  return {c.im, r.CopySign(re_acos, z.im)};
}

// atanh z = log((1+z)/(1-z))/2: Re = sign(x) log1p(4|x| / ((1-|x|)² + y²))/4,
// Im = atan2(2y, (1-|x|)(1+|x|) - y²)/2. Past |z| = √max/4:
// atanh z ≈ 1/z + i(±π/2), formed with scaled parts.
ComplexParts Atanh(Real& r, ComplexParts z) {
  Value* one = r.K(1);
  Value* ax = r.Abs(z.re);
  Value* ay = r.Abs(z.im);
  Value* omx = r.Sub(one, ax);
  Value* den = r.Fma(z.im, z.im, r.Mul(omx, omx));
  Value* re = r.Mul(r.K(0.25), r.Fn("log1p", {r.Div(r.Mul(r.K(4), ax), den)}));
  Value* im = r.Mul(r.K(0.5), r.Fn("atan2", {r.Mul(r.K(2), z.im), r.Fma(r.Neg(z.im), z.im, r.Mul(omx, r.Add(one, ax)))}));
  Value* m = r.Max(ax, ay);
  Value* xs = r.Div(ax, m);
  Value* ys = r.Div(ay, m);
  Value* re_huge = r.Div(r.Div(xs, r.Fma(xs, xs, r.Mul(ys, ys))), m);
  re_huge = r.Sel(r.Eq(m, r.K(r.Inf())), r.K(0), re_huge);
  Value* huge = r.Gt(m, r.K(std::sqrt(r.Huge()) / 4));
  return {r.CopySign(r.Sel(huge, re_huge, re), z.re), r.Sel(huge, r.CopySign(r.K(kPi / 2), z.im), im)};
}

// -i f(iz) for f = tanh, atanh: iz = (-y, x), -i(u + iv) = (v, -u).
ComplexParts RotatedBack(Real& r, ComplexParts w) { return {w.im, r.Neg(w.re)}; }
ComplexParts TimesI(Real& r, ComplexParts z) { return {r.Neg(z.im), z.re}; }

Real RealOf(llvm::IRBuilderBase& b, ComplexParts z) { return Real(b, z.re->getType()); }

}  // namespace

bool EmitComplexUnary(llvm::IRBuilderBase& b, Opcode op, ComplexParts z, ComplexParts* out) {
  Real r = RealOf(b, z);
  const bool f32 = z.re->getType()->isFloatTy();
  Value *x = z.re, *y = z.im;
  switch (op) {
    case Opcode::kExp: *out = Exp(r, z); return true;
    case Opcode::kExpm1: *out = Expm1(r, z); return true;
    case Opcode::kLog: *out = Log(r, z); return true;
    case Opcode::kLog1p: *out = Log1p(r, z); return true;
    case Opcode::kSqrt: *out = Sqrt(r, z); return true;
    case Opcode::kRsqrt: *out = Divide(r, {r.K(1), r.K(0)}, Sqrt(r, z)); return true;
    case Opcode::kCbrt: *out = Cbrt(r, z); return true;
    case Opcode::kSin:  // sin x cosh y + i cos x sinh y
      *out = {CoshTimes(r, y, r.Fn("sin", {x})), SinhTimes(r, y, r.Fn("cos", {x}))};
      return true;
    case Opcode::kCos:  // cos x cosh y - i sin x sinh y
      *out = {CoshTimes(r, y, r.Fn("cos", {x})), r.Neg(SinhTimes(r, y, r.Fn("sin", {x})))};
      return true;
    case Opcode::kSinh:  // sinh x cos y + i cosh x sin y
      *out = {SinhTimes(r, x, r.Fn("cos", {y})), CoshTimes(r, x, r.Fn("sin", {y}))};
      return true;
    case Opcode::kCosh:  // cosh x cos y + i sinh x sin y
      *out = {CoshTimes(r, x, r.Fn("cos", {y})), SinhTimes(r, x, r.Fn("sin", {y}))};
      return true;
    case Opcode::kTanh: *out = Tanh(r, z, f32); return true;
    case Opcode::kTan: *out = RotatedBack(r, Tanh(r, TimesI(r, z), f32)); return true;  // -i tanh(iz)
    case Opcode::kAsin: *out = Asin(r, z); return true;
    case Opcode::kAcos: *out = Acos(r, z); return true;
    case Opcode::kAsinh: *out = Asinh(r, z); return true;
    case Opcode::kAcosh: *out = Acosh(r, z); return true;
    case Opcode::kAtanh: *out = Atanh(r, z); return true;
    case Opcode::kSign: {  // z / |z|, 0 at 0
      Value* m = r.Fn("hypot", {x, y});
      Value* zero = r.Eq(m, r.K(0));
      *out = {r.Sel(zero, r.K(0), r.Div(x, m)), r.Sel(zero, r.K(0), r.Div(y, m))};
      return true;
    }
    default: return false;
  }
}

ComplexParts EmitComplexAtan(llvm::IRBuilderBase& b, ComplexParts z) {
  Real r = RealOf(b, z);
  return RotatedBack(r, Atanh(r, TimesI(r, z)));
}

ComplexParts EmitComplexDivide(llvm::IRBuilderBase& b, ComplexParts a, ComplexParts w) {
  Real r = RealOf(b, a);
  return Divide(r, a, w);
}

ComplexParts EmitComplexPower(llvm::IRBuilderBase& b, ComplexParts a, ComplexParts w) {
  Real r = RealOf(b, a);
  ComplexParts l = Log(r, a);
  ComplexParts p = {r.Sub(r.Mul(w.re, l.re), r.Mul(w.im, l.im)), r.Add(r.Mul(w.re, l.im), r.Mul(w.im, l.re))};
  ComplexParts e = Exp(r, p);
  Value* zero = r.K(0);
  Value* a_zero = r.And(r.Eq(a.re, zero), r.Eq(a.im, zero));
  Value* to_zero = r.And(a_zero, r.Gt(w.re, zero));  // 0^w = 0 for re(w) > 0
  Value* trivial = r.Or(r.And(r.Eq(a.re, r.K(1)), r.Eq(a.im, zero)), r.And(r.Eq(w.re, zero), r.Eq(w.im, zero)));
  Value* re = r.Sel(trivial, r.K(1), r.Sel(to_zero, zero, e.re));
  Value* im = r.Sel(trivial, zero, r.Sel(to_zero, zero, e.im));
  return {re, im};
}

}  // namespace hloscope::codegen
