// algsimp, arithmetic and logic rewrites (one case per named rewrite) and
// the rewrites it refuses because they are not exact.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

const char* kP = "  p = f32[4] parameter(0)\n";
const char* kI = "  p = s32[4] parameter(0)\n";

std::string F(const std::string& s) { return Module1(kP + s); }
std::string I(const std::string& s) { return Module1(kI + s); }
// A splat constant `name = type[4] constant(value)`.
std::string Splat(const std::string& name, const std::string& type, const std::string& value) {
  return "  " + name + " = " + type + "[4] constant(" + value + ")\n";
}

class AlgsimpArith : public ::testing::TestWithParam<RewriteCase> {};
TEST_P(AlgsimpArith, Applies) { CheckRewrite(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Rewrites, AlgsimpArith,
    ::testing::Values(
        RewriteCase{"x + 0 → x", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] add(p, z)"), "parameter(0)"},
        RewriteCase{"0 + x → x", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] add(z, p)"), "parameter(0)"},
        RewriteCase{"x + 0 → x", F(Splat("z", "f32", "-0") + "  ROOT r = f32[4] add(p, z)"), "parameter(0)"},
        // +0 too, as XLA (the sign of a zero result aside).
        RewriteCase{"x + 0 → x", F(Splat("z", "f32", "0") + "  ROOT r = f32[4] add(p, z)"), "parameter(0)"},
        RewriteCase{"x - 0 → x", F(Splat("z", "f32", "0") + "  ROOT r = f32[4] subtract(p, z)"), "parameter(0)"},
        RewriteCase{"x - x → 0 (integers)", I("  ROOT r = s32[4] subtract(p, p)"), "broadcast(%constant"},
        RewriteCase{"0 - x → negate(x)", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] subtract(z, p)"), "negate(%p)"},
        RewriteCase{"x * 1 → x", F(Splat("o", "f32", "1") + "  ROOT r = f32[4] multiply(p, o)"), "parameter(0)"},
        RewriteCase{"1 * x → x", F(Splat("o", "f32", "1") + "  ROOT r = f32[4] multiply(o, p)"), "parameter(0)"},
        RewriteCase{"x * 0 → 0 (integers)", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] multiply(p, z)"), "broadcast(%constant"},
        RewriteCase{"0 * x → 0 (integers)", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] multiply(z, p)"), "broadcast(%constant"},
        RewriteCase{"x * -1 → negate(x)", F(Splat("m", "f32", "-1") + "  ROOT r = f32[4] multiply(p, m)"), "negate(%p)"},
        RewriteCase{"-1 * x → negate(x)", I(Splat("m", "s32", "-1") + "  ROOT r = s32[4] multiply(m, p)"), "negate(%p)"},
        RewriteCase{"x / 1 → x", F(Splat("o", "f32", "1") + "  ROOT r = f32[4] divide(p, o)"), "parameter(0)"},
        RewriteCase{"x / 2^k → x * 2^-k", F(Splat("c", "f32", "4") + "  ROOT r = f32[4] divide(p, c)"), "multiply(%p"},
        RewriteCase{"x / 2^k → x >> k (unsigned)",
                    Module1("  p = u32[4] parameter(0)\n" + Splat("c", "u32", "8") + "  ROOT r = u32[4] divide(p, c)"),
                    "shift-right-logical(%p"},
        RewriteCase{"max(x, x) → x", F("  ROOT r = f32[4] maximum(p, p)"), "parameter(0)"},
        RewriteCase{"min(x, x) → x", F("  ROOT r = f32[4] minimum(p, p)"), "parameter(0)"},
        RewriteCase{"max(x, lowest) → x (integers)",
                    I(Splat("l", "s32", "-2147483648") + "  ROOT r = s32[4] maximum(p, l)"), "parameter(0)"},
        RewriteCase{"min(x, highest) → x (integers)",
                    Module1("  p = u8[4] parameter(0)\n" + Splat("h", "u8", "255") + "  ROOT r = u8[4] minimum(p, h)"),
                    "parameter(0)"},
        RewriteCase{"and(x, x) → x", I("  ROOT r = s32[4] and(p, p)"), "parameter(0)"},
        RewriteCase{"and(x, all ones) → x", I(Splat("a", "s32", "-1") + "  ROOT r = s32[4] and(p, a)"), "parameter(0)"},
        RewriteCase{"and(x, 0) → 0", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] and(p, z)"), "broadcast(%constant"},
        RewriteCase{"or(x, x) → x", I("  ROOT r = s32[4] or(p, p)"), "parameter(0)"},
        RewriteCase{"or(x, 0) → x", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] or(p, z)"), "parameter(0)"},
        RewriteCase{"or(x, all ones) → all ones",
                    Module1("  p = pred[4] parameter(0)\n" + Splat("t", "pred", "true") + "  ROOT r = pred[4] or(p, t)"),
                    "broadcast(%constant"},
        RewriteCase{"xor(x, x) → 0", I("  ROOT r = s32[4] xor(p, p)"), "broadcast(%constant"},
        RewriteCase{"xor(x, 0) → x", I(Splat("z", "s32", "0") + "  ROOT r = s32[4] xor(p, z)"), "parameter(0)"},
        RewriteCase{"pow(x, 1) → x", F(Splat("o", "f32", "1") + "  ROOT r = f32[4] power(p, o)"), "parameter(0)"},
        RewriteCase{"compare(x, x) → constant (integers)",
                    I("  ROOT r = pred[4] compare(p, p), direction=LE"), "broadcast(%constant"},
        RewriteCase{"negate(negate(x)) → x", F("  n = f32[4] negate(p)\n  ROOT r = f32[4] negate(n)"), "parameter(0)"},
        RewriteCase{"not(not(x)) → x",
                    Module1("  p = pred[4] parameter(0)\n  n = pred[4] not(p)\n  ROOT r = pred[4] not(n)"), "parameter(0)"},
        RewriteCase{"abs(abs(x)) → abs(x)", F("  a = f32[4] abs(p)\n  ROOT r = f32[4] abs(a)"), "abs(%p)"},
        RewriteCase{"floor(floor(x)) → floor(x)", F("  a = f32[4] floor(p)\n  ROOT r = f32[4] floor(a)"), "floor(%p)"},
        RewriteCase{"sign(sign(x)) → sign(x)", F("  a = f32[4] sign(p)\n  ROOT r = f32[4] sign(a)"), "sign(%p)"},
        RewriteCase{"abs(negate(x)) → abs(x)", F("  n = f32[4] negate(p)\n  ROOT r = f32[4] abs(n)"), "abs(%p)"},
        RewriteCase{"real(complex(a, b)) → a",
                    F("  q = f32[4] parameter(1)\n  c = c64[4] complex(p, q)\n  ROOT r = f32[4] real(c)"), "parameter(0)"},
        RewriteCase{"imag(complex(a, b)) → b",
                    F("  q = f32[4] parameter(1)\n  c = c64[4] complex(p, q)\n  ROOT r = f32[4] imag(c)"), "parameter(1)"},
        RewriteCase{"reduce-precision to the type's own precision → x",
                    F("  ROOT r = f32[4] reduce-precision(p), exponent_bits=8, mantissa_bits=23"), "parameter(0)"},
        RewriteCase{"convert to the same type → x", F("  ROOT r = f32[4] convert(p)"), "parameter(0)"},
        RewriteCase{"convert(convert(x)) through a lossless type → x",
                    F("  w = f64[4] convert(p)\n  ROOT r = f32[4] convert(w)"), "parameter(0)"},
        RewriteCase{"convert(convert(x)) through a lossless type → convert(x)",
                    Module1("  p = f16[4] parameter(0)\n  w = f32[4] convert(p)\n  ROOT r = f64[4] convert(w)"),
                    "convert(%p)"},
        RewriteCase{"op(broadcast(scalar)) → broadcast(op(scalar))",
                    Module1("  s = f32[] parameter(0)\n  b = f32[4] broadcast(s), dimensions={}\n"
                            "  ROOT r = f32[4] exponential(b)"),
                    "broadcast("},
        RewriteCase{"select(true, a, b) → a",
                    F("  q = f32[4] parameter(1)\n  t = pred[] constant(true)\n  ROOT r = f32[4] select(t, p, q)"),
                    "parameter(0)"},
        RewriteCase{"select(false, a, b) → b",
                    F("  q = f32[4] parameter(1)\n" + Splat("t", "pred", "false") + "  ROOT r = f32[4] select(t, p, q)"),
                    "parameter(1)"},
        RewriteCase{"select(p, x, x) → x",
                    F("  c = pred[4] parameter(1)\n  ROOT r = f32[4] select(c, p, p)"), "parameter(0)"},
        RewriteCase{"select(not(p), a, b) → select(p, b, a)",
                    F("  q = f32[4] parameter(1)\n  c = pred[4] parameter(2)\n  n = pred[4] not(c)\n"
                      "  ROOT r = f32[4] select(n, p, q)"),
                    "select(%c, %q, %p)"}));

// broadcast(scalar constant) named `name`.
std::string Bcast(const std::string& name, const std::string& type, const std::string& value) {
  return "  " + name + "_s = " + type + "[] constant(" + value + ")\n  " + name + " = " + type + "[4] broadcast(" +
         name + "_s), dimensions={}\n";
}

// Rewrites that would not keep exact semantics are refused (on the
// broadcast form; the splat form only becomes that broadcast).
TEST(AlgsimpArithRefused, FloatTimesZero) {
  CheckNoChange(F(Bcast("z", "f32", "0") + "  ROOT r = f32[4] multiply(p, z)"));
  PassRun r = RunPass("algsimp", F(Splat("z", "f32", "0") + "  ROOT r = f32[4] multiply(p, z)"));
  EXPECT_EQ(r.rules, std::vector<std::string>{"constant with equal elements → broadcast(scalar)"});
}
TEST(AlgsimpArithRefused, FloatMinusItself) { CheckNoChange(F("  ROOT r = f32[4] subtract(p, p)")); }
TEST(AlgsimpArithRefused, ExpOfLog) { CheckNoChange(F("  l = f32[4] log(p)\n  ROOT r = f32[4] exponential(l)")); }
TEST(AlgsimpArithRefused, FloatCompareWithItself) {
  CheckNoChange(F("  ROOT r = pred[4] compare(p, p), direction=EQ"));
}
TEST(AlgsimpArithRefused, DivideByNonPowerOfTwo) {
  CheckNoChange(F(Bcast("c", "f32", "3") + "  ROOT r = f32[4] divide(p, c)"));
}
TEST(AlgsimpArithRefused, LossyConvertChain) {
  CheckNoChange(F("  h = f16[4] convert(p)\n  ROOT r = f32[4] convert(h)"));
}

TEST(AlgsimpArith, NoChange) {
  CheckNoChange(F("  q = f32[4] parameter(1)\n  a = f32[4] add(p, q)\n  ROOT r = f32[4] multiply(a, p)"));
}

}  // namespace
}  // namespace hloscope::testing
