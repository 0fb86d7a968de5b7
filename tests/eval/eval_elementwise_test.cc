// Elementwise ops: hand-computed results and XLA's edge-case rules.
#include <limits>

#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(EvalElementwise, FloatArithmetic) {
  Literal a = Lit("f32[4]", {1.5, -2, 0.25, 3});
  Literal b = Lit("f32[4]", {2, 4, -0.5, 0});
  EXPECT_EQ(Vals(Binary("f32[4]", "add", a, b)), (std::vector<double>{3.5, 2, -0.25, 3}));
  EXPECT_EQ(Vals(Binary("f32[4]", "subtract", a, b)), (std::vector<double>{-0.5, -6, 0.75, 3}));
  EXPECT_EQ(Vals(Binary("f32[4]", "multiply", a, b)), (std::vector<double>{3, -8, -0.125, 0}));
  auto d = Vals(Binary("f32[4]", "divide", a, b));
  EXPECT_EQ(d[0], 0.75);
  EXPECT_EQ(d[2], -0.5);
  EXPECT_EQ(d[3], kInf);
  EXPECT_EQ(Vals(Binary("f32[4]", "remainder", Lit("f32[4]", {7, -7, 7.5, 1}), Lit("f32[4]", {3, 3, 2, 0.25}))),
            (std::vector<double>{1, -1, 1.5, 0}));
}

TEST(EvalElementwise, MaxMinPropagateNaN) {
  Literal a = Lit("f32[4]", {kNaN, 1, 2, -0.0});
  Literal b = Lit("f32[4]", {1, kNaN, 3, 0.0});
  auto mx = Vals(Binary("f32[4]", "maximum", a, b));
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 3);
  auto mn = Vals(Binary("f32[4]", "minimum", a, b));
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_EQ(mn[2], 2);
}

TEST(EvalElementwise, InfNaNAndSignedZero) {
  Literal a = Lit("f32[5]", {kInf, -kInf, kNaN, -0.0, 0.0});
  auto neg = Vals(Unary("f32[5]", "negate", a));
  EXPECT_EQ(neg[0], -kInf);
  EXPECT_EQ(neg[1], kInf);
  EXPECT_TRUE(std::isnan(neg[2]));
  EXPECT_FALSE(std::signbit(neg[3]));
  EXPECT_TRUE(std::signbit(neg[4]));
  auto sg = Vals(Unary("f32[5]", "sign", a));
  EXPECT_EQ(sg[0], 1);
  EXPECT_EQ(sg[1], -1);
  EXPECT_TRUE(std::isnan(sg[2]));
  EXPECT_EQ(sg[3], 0);
  EXPECT_TRUE(std::signbit(sg[3]));
  auto fin = Ints(Unary("pred[5]", "is-finite", a));
  EXPECT_EQ(fin, (std::vector<int64_t>{0, 0, 0, 1, 1}));
  auto sum = Vals(Binary("f32[5]", "add", a, Lit("f32[5]", {-kInf, kInf, 1, -0.0, -0.0})));
  EXPECT_TRUE(std::isnan(sum[0]));
  EXPECT_TRUE(std::signbit(sum[3]));   // -0 + -0 = -0
  EXPECT_FALSE(std::signbit(sum[4]));  // +0 + -0 = +0
}

TEST(EvalElementwise, SubnormalF32KeptExactly) {
  double tiny = std::ldexp(1.0, -149);  // smallest f32 subnormal
  Literal a = Lit("f32[2]", {tiny, std::ldexp(1.0, -127)});
  auto r = Vals(Binary("f32[2]", "add", a, a));
  EXPECT_EQ(r[0], 2 * tiny);
  EXPECT_EQ(r[1], std::ldexp(1.0, -126));
  auto h = Vals(Binary("f32[2]", "multiply", a, Lit("f32[2]", {0.5, 0.5})));
  EXPECT_EQ(h[0], 0);  // halfway to zero rounds to even (zero)
}

TEST(EvalElementwise, UnaryMath) {
  Literal a = Lit("f32[4]", {0, 1, 4, -1});
  EXPECT_EQ(Vals(Unary("f32[4]", "abs", a)), (std::vector<double>{0, 1, 4, 1}));
  auto sq = Vals(Unary("f32[4]", "sqrt", a));
  EXPECT_EQ(sq[2], 2);
  EXPECT_TRUE(std::isnan(sq[3]));
  auto rs = Vals(Unary("f32[4]", "rsqrt", a));
  EXPECT_EQ(rs[0], kInf);
  EXPECT_EQ(rs[2], 0.5);
  EXPECT_EQ(Vals(Unary("f32[4]", "exponential", Lit("f32[4]", {0, 0, 0, 0}))), (std::vector<double>{1, 1, 1, 1}));
  auto lg = Vals(Unary("f32[4]", "log", a));
  EXPECT_EQ(lg[0], -kInf);
  EXPECT_EQ(lg[1], 0);
  EXPECT_TRUE(std::isnan(lg[3]));
  EXPECT_FLOAT_EQ(static_cast<float>(Vals(Unary("f32[4]", "logistic", a))[0]), 0.5f);
  EXPECT_EQ(Vals(Unary("f32[4]", "cbrt", Lit("f32[4]", {8, -27, 0, 1}))), (std::vector<double>{2, -3, 0, 1}));
  EXPECT_EQ(Vals(Unary("f32[4]", "tanh", Lit("f32[4]", {0, kInf, -kInf, 0})))[1], 1);
  EXPECT_FLOAT_EQ(static_cast<float>(Vals(Unary("f32[4]", "erf", Lit("f32[4]", {1, 0, 0, 0})))[0]), std::erf(1.0f));
  EXPECT_FLOAT_EQ(static_cast<float>(Vals(Binary("f32[4]", "atan2", Lit("f32[4]", {1, 0, 0, 0}), Lit("f32[4]", {1, 1, 1, 1})))[0]),
                  std::atan2(1.0f, 1.0f));
}

TEST(EvalElementwise, Rounding) {
  Literal a = Lit("f32[6]", {0.5, 1.5, 2.5, -0.5, -2.5, 2.4});
  EXPECT_EQ(Vals(Unary("f32[6]", "round-nearest-afz", a)), (std::vector<double>{1, 2, 3, -1, -3, 2}));
  EXPECT_EQ(Vals(Unary("f32[6]", "round-nearest-even", a)), (std::vector<double>{0, 2, 2, -0.0, -2, 2}));
  EXPECT_EQ(Vals(Unary("f32[6]", "floor", a)), (std::vector<double>{0, 1, 2, -1, -3, 2}));
  EXPECT_EQ(Vals(Unary("f32[6]", "ceil", a)), (std::vector<double>{1, 2, 3, -0.0, -2, 3}));
}

TEST(EvalElementwise, PowerSpecialCases) {
  auto p = Vals(Binary("f32[4]", "power", Lit("f32[4]", {kNaN, 1, 2, 0}), Lit("f32[4]", {0, kNaN, 10, 0})));
  EXPECT_EQ(p, (std::vector<double>{1, 1, 1024, 1}));
  auto ip = Ints(Binary("s32[5]", "power", Lit("s32[5]", {2, 3, 2, 1, -2}), Lit("s32[5]", {10, 0, -1, -5, 3})));
  EXPECT_EQ(ip, (std::vector<int64_t>{1024, 1, 0, 1, -8}));
  auto wrap = Ints(Binary("s32[1]", "power", Lit("s32[1]", {2}), Lit("s32[1]", {33})));
  EXPECT_EQ(wrap[0], 0);
}

TEST(EvalElementwise, IntegerDivisionRules) {
  Literal a = Lit("s32[5]", {7, -7, 7, -2147483648.0, 5});
  Literal b = Lit("s32[5]", {2, 2, 0, -1, -3});
  EXPECT_EQ(Ints(Binary("s32[5]", "divide", a, b)), (std::vector<int64_t>{3, -3, -1, -2147483648LL, -1}));
  EXPECT_EQ(Ints(Binary("s32[5]", "remainder", a, b)), (std::vector<int64_t>{1, -1, 7, 0, 2}));
  Literal ua = Lit("u32[2]", {7, 9});
  Literal ub = Lit("u32[2]", {0, 2});
  EXPECT_EQ(Ints(Binary("u32[2]", "divide", ua, ub)), (std::vector<int64_t>{4294967295LL, 4}));
  EXPECT_EQ(Ints(Binary("u32[2]", "remainder", ua, ub)), (std::vector<int64_t>{7, 1}));
  EXPECT_EQ(Ints(Binary("s8[2]", "divide", Lit("s8[2]", {-128, 1}), Lit("s8[2]", {-1, 0}))), (std::vector<int64_t>{-128, -1}));
}

TEST(EvalElementwise, IntegerOverflowWraps) {
  EXPECT_EQ(Ints(Binary("s32[2]", "add", Lit("s32[2]", {2147483647, -2147483648.0}), Lit("s32[2]", {1, -1}))),
            (std::vector<int64_t>{-2147483648LL, 2147483647}));
  EXPECT_EQ(Ints(Binary("s8[2]", "multiply", Lit("s8[2]", {64, -128}), Lit("s8[2]", {4, -1}))), (std::vector<int64_t>{0, -128}));
  EXPECT_EQ(Ints(Binary("u8[1]", "subtract", Lit("u8[1]", {0}), Lit("u8[1]", {1}))), (std::vector<int64_t>{255}));
  EXPECT_EQ(Ints(Binary("u16[1]", "multiply", Lit("u16[1]", {65535}), Lit("u16[1]", {65535}))), (std::vector<int64_t>{1}));
  EXPECT_EQ(Ints(Unary("s32[2]", "negate", Lit("s32[2]", {-2147483648.0, 5}))), (std::vector<int64_t>{-2147483648LL, -5}));
  EXPECT_EQ(Ints(Unary("s32[2]", "abs", Lit("s32[2]", {-2147483648.0, -5}))), (std::vector<int64_t>{-2147483648LL, 5}));
  EXPECT_EQ(Ints(Unary("s32[3]", "sign", Lit("s32[3]", {-9, 0, 4}))), (std::vector<int64_t>{-1, 0, 1}));
}

TEST(EvalElementwise, Shifts) {
  Literal a = Lit("s32[4]", {1, -8, -8, 5});
  Literal s = Lit("s32[4]", {31, 1, 32, -1});
  EXPECT_EQ(Ints(Binary("s32[4]", "shift-left", a, s)), (std::vector<int64_t>{-2147483648LL, -16, 0, 0}));
  EXPECT_EQ(Ints(Binary("s32[4]", "shift-right-arithmetic", a, s)), (std::vector<int64_t>{0, -4, -1, 0}));
  EXPECT_EQ(Ints(Binary("s32[4]", "shift-right-logical", a, s)), (std::vector<int64_t>{0, 2147483644, 0, 0}));
  EXPECT_EQ(Ints(Binary("s8[2]", "shift-right-logical", Lit("s8[2]", {-1, -128}), Lit("s8[2]", {1, 7}))),
            (std::vector<int64_t>{127, 1}));
  EXPECT_EQ(Ints(Binary("u8[2]", "shift-right-arithmetic", Lit("u8[2]", {128, 128}), Lit("u8[2]", {1, 8}))),
            (std::vector<int64_t>{192, 255}));
}

TEST(EvalElementwise, BitOps) {
  Literal a = Lit("u8[3]", {0, 1, 255});
  EXPECT_EQ(Ints(Unary("u8[3]", "popcnt", a)), (std::vector<int64_t>{0, 1, 8}));
  EXPECT_EQ(Ints(Unary("u8[3]", "count-leading-zeros", a)), (std::vector<int64_t>{8, 7, 0}));
  EXPECT_EQ(Ints(Unary("u8[3]", "not", a)), (std::vector<int64_t>{255, 254, 0}));
  EXPECT_EQ(Ints(Binary("s32[2]", "xor", Lit("s32[2]", {12, -1}), Lit("s32[2]", {10, 0}))), (std::vector<int64_t>{6, -1}));
  EXPECT_EQ(Ints(Binary("pred[4]", "and", Lit("pred[4]", {0, 0, 1, 1}), Lit("pred[4]", {0, 1, 0, 1}))),
            (std::vector<int64_t>{0, 0, 0, 1}));
  EXPECT_EQ(Ints(Binary("pred[4]", "or", Lit("pred[4]", {0, 0, 1, 1}), Lit("pred[4]", {0, 1, 0, 1}))),
            (std::vector<int64_t>{0, 1, 1, 1}));
  EXPECT_EQ(Ints(Unary("pred[2]", "not", Lit("pred[2]", {0, 1}))), (std::vector<int64_t>{1, 0}));
}

TEST(EvalElementwise, SubByteIntegers) {
  EXPECT_EQ(Ints(Binary("s4[3]", "add", Lit("s4[3]", {7, -8, 3}), Lit("s4[3]", {1, -1, 2}))),
            (std::vector<int64_t>{-8, 7, 5}));
  EXPECT_EQ(Ints(Binary("s4[1]", "shift-right-logical", Lit("s4[1]", {-1}), Lit("s4[1]", {1}))), (std::vector<int64_t>{7}));
  EXPECT_EQ(Ints(Unary("s4[2]", "popcnt", Lit("s4[2]", {-1, 3}))), (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(Ints(Unary("u4[2]", "count-leading-zeros", Lit("u4[2]", {1, 0}))), (std::vector<int64_t>{3, 4}));
  // Arithmetic shift repeats the type's top bit, as for u8.
  EXPECT_EQ(Ints(Binary("u4[3]", "shift-right-arithmetic", Lit("u4[3]", {8, 8, 7}), Lit("u4[3]", {1, 4, 1}))),
            (std::vector<int64_t>{12, 15, 3}));
}

TEST(EvalElementwise, Compare) {
  Literal a = Lit("f32[4]", {1, kNaN, -0.0, 2});
  Literal b = Lit("f32[4]", {2, kNaN, 0.0, 2});
  EXPECT_EQ(Ints(Binary("pred[4]", "compare", a, b, ", direction=LT")), (std::vector<int64_t>{1, 0, 0, 0}));
  EXPECT_EQ(Ints(Binary("pred[4]", "compare", a, b, ", direction=EQ")), (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(Ints(Binary("pred[4]", "compare", a, b, ", direction=NE")), (std::vector<int64_t>{1, 1, 0, 0}));
  EXPECT_EQ(Ints(Binary("pred[4]", "compare", a, b, ", direction=GE")), (std::vector<int64_t>{0, 0, 1, 1}));
  // Total order: -0 < +0, NaN == NaN (same bits), NaN above everything.
  EXPECT_EQ(Ints(Binary("pred[4]", "compare", a, b, ", direction=LT, type=TOTALORDER")), (std::vector<int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(Ints(Binary("pred[4]", "compare", a, b, ", direction=EQ, type=TOTALORDER")), (std::vector<int64_t>{0, 1, 0, 1}));
  EXPECT_EQ(Ints(Binary("pred[2]", "compare", Lit("f32[2]", {kNaN, -kNaN}), Lit("f32[2]", {kInf, -kInf}), ", direction=GT, type=TOTALORDER")),
            (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(Ints(Binary("pred[2]", "compare", Lit("u32[2]", {4294967295.0, 1}), Lit("u32[2]", {1, 2}), ", direction=GT")),
            (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(Ints(Binary("pred[2]", "compare", Lit("s32[2]", {-1, 1}), Lit("s32[2]", {1, 2}), ", direction=LE")),
            (std::vector<int64_t>{1, 1}));
}

TEST(EvalElementwise, SelectAndClamp) {
  Literal out = MustRun(R"(HloModule t
ENTRY e {
  p = pred[3] parameter(0)
  a = f32[3] parameter(1)
  b = f32[3] parameter(2)
  ROOT s = f32[3] select(p, a, b)
})", {Lit("pred[3]", {1, 0, 1}), Lit("f32[3]", {1, 2, 3}), Lit("f32[3]", {4, 5, 6})});
  EXPECT_EQ(Vals(out), (std::vector<double>{1, 5, 3}));
  Literal c = MustRun(R"(HloModule t
ENTRY e {
  lo = f32[] constant(0)
  x = f32[5] parameter(0)
  hi = f32[] constant(1)
  ROOT c = f32[5] clamp(lo, x, hi)
})", {Lit("f32[5]", {-1, 0.5, 2, kNaN, 1})});
  auto v = Vals(c);
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(v[1], 0.5);
  EXPECT_EQ(v[2], 1);
  EXPECT_TRUE(std::isnan(v[3]));
  Literal ci = MustRun(R"(HloModule t
ENTRY e {
  lo = s32[3] parameter(0)
  x = s32[3] parameter(1)
  hi = s32[3] parameter(2)
  ROOT c = s32[3] clamp(lo, x, hi)
})", {Lit("s32[3]", {0, 0, 5}), Lit("s32[3]", {-3, 3, 9}), Lit("s32[3]", {2, 2, 7})});
  EXPECT_EQ(Ints(ci), (std::vector<int64_t>{0, 2, 7}));
}

TEST(EvalElementwise, BF16RoundsEveryOp) {
  // 1 + 2^-8 is not a bf16: 256 + 1 rounds to 256 (ties to even), then
  // 256 + 1 again gives 256; f32 would give 258.
  Literal a = Lit("bf16[2]", {256, 1});
  Literal b = Lit("bf16[2]", {1, 0.00390625});
  auto r = Vals(Binary("bf16[2]", "add", a, b));
  EXPECT_EQ(r[0], 256);
  EXPECT_EQ(r[1], 1);  // 1 + 2^-8 ties to even -> 1
  auto m = Vals(Binary("bf16[1]", "multiply", Lit("bf16[1]", {3}), Lit("bf16[1]", {1.0078125})));
  EXPECT_EQ(m[0], 3.03125);  // 3.0234375 -> nearest even bf16
  auto h = Vals(Binary("f16[1]", "add", Lit("f16[1]", {2048}), Lit("f16[1]", {1})));
  EXPECT_EQ(h[0], 2048);
  auto e = Vals(Unary("bf16[1]", "exponential", Lit("bf16[1]", {1})));
  EXPECT_EQ(e[0], 2.71875);
}

TEST(EvalElementwise, ConvertRules) {
  Literal f = Lit("f32[6]", {kNaN, kInf, -kInf, 3e9, -2.7, 2.7});
  EXPECT_EQ(Ints(Unary("s32[6]", "convert", f)),
            (std::vector<int64_t>{0, 2147483647, -2147483648LL, 2147483647, -2, 2}));
  EXPECT_EQ(Ints(Unary("u8[6]", "convert", f)), (std::vector<int64_t>{0, 255, 0, 255, 0, 2}));
  EXPECT_EQ(Ints(Unary("pred[6]", "convert", f)), (std::vector<int64_t>{1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(Ints(Unary("s8[2]", "convert", Lit("s32[2]", {300, -129}))), (std::vector<int64_t>{44, 127}));
  EXPECT_EQ(Vals(Unary("bf16[3]", "convert", Lit("f32[3]", {1.00390625, 1.01171875, 3.4e38}))),
            (std::vector<double>{1, 1.015625, kInf}));
  EXPECT_EQ(Vals(Unary("f32[2]", "convert", Lit("pred[2]", {1, 0}))), (std::vector<double>{1, 0}));
  EXPECT_EQ(Vals(Unary("f16[1]", "convert", Lit("f32[1]", {65520})))[0], kInf);
  EXPECT_EQ(Vals(Unary("f32[1]", "convert", Lit("s64[1]", {16777217})))[0], 16777216);
}

TEST(EvalElementwise, BitcastConvert) {
  Literal r = Unary("s32[2]", "bitcast-convert", Lit("f32[2]", {1, -0.0}));
  EXPECT_EQ(Ints(r), (std::vector<int64_t>{0x3f800000, -2147483648LL}));
  Literal w = Unary("u8[1,4]", "bitcast-convert", Lit("f32[1]", {1}));
  EXPECT_EQ(Ints(w), (std::vector<int64_t>{0, 0, 128, 63}));
  // Sub-byte: little-endian too, element 0 the low bits; signed pieces
  // sign-extended.
  EXPECT_EQ(Ints(Unary("s4[2,2]", "bitcast-convert", Lit("s8[2]", {0x1f, -128}))),
            (std::vector<int64_t>{-1, 1, 0, -8}));
  EXPECT_EQ(Ints(Unary("u8[2]", "bitcast-convert", Lit("s4[2,2]", {-1, 1, 0, -8}))),
            (std::vector<int64_t>{0x1f, 0x80}));
  EXPECT_EQ(Ints(Unary("u2[1,4]", "bitcast-convert", Lit("u8[1]", {0xe4}))),
            (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(Ints(Unary("s4[2]", "bitcast-convert", Lit("u4[2]", {15, 7}))), (std::vector<int64_t>{-1, 7}));
}

TEST(EvalElementwise, ReducePrecision) {
  Literal r = Unary("f32[2]", "reduce-precision", Lit("f32[2]", {1.00390625, 1.01171875}),
                    ", exponent_bits=8, mantissa_bits=7");
  EXPECT_EQ(Vals(r), (std::vector<double>{1, 1.015625}));  // rounds like bf16
  Literal u = Unary("f32[1]", "reduce-precision", Lit("f32[1]", {1e-6}), ", exponent_bits=5, mantissa_bits=10");
  EXPECT_EQ(Vals(u)[0], 0);  // below the f16 normal range: flushed
  Literal h = Unary("f32[1]", "reduce-precision", Lit("f32[1]", {1e5}), ", exponent_bits=5, mantissa_bits=10");
  EXPECT_EQ(Vals(h)[0], kInf);
}

TEST(EvalElementwise, EmptyAndScalarShapes) {
  Literal e = Binary("f32[0,3]", "add", Lit("f32[0,3]", {}), Lit("f32[0,3]", {}));
  EXPECT_EQ(e.num_elements(), 0);
  Literal s = Binary("f32[]", "multiply", Lit("f32[]", {3}), Lit("f32[]", {4}));
  EXPECT_EQ(Vals(s), (std::vector<double>{12}));
  Literal one = Unary("f32[1,1,1]", "negate", Lit("f32[1,1,1]", {2}));
  EXPECT_EQ(Vals(one), (std::vector<double>{-2}));
}

TEST(EvalElementwise, Iota) {
  Literal r = MustRun("HloModule t\nENTRY e {\n  ROOT i = s32[2,3] iota(), iota_dimension=1\n}\n");
  EXPECT_EQ(Ints(r), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  Literal f = MustRun("HloModule t\nENTRY e {\n  ROOT i = bf16[3,2] iota(), iota_dimension=0\n}\n");
  EXPECT_EQ(Vals(f), (std::vector<double>{0, 0, 1, 1, 2, 2}));
}

TEST(EvalElementwise, Complex) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  c = c64[2] complex(a, b)
  m = c64[2] multiply(c, c)
  re = f32[2] real(m)
  im = f32[2] imag(m)
  ab = f32[2] abs(c)
  ROOT t = (f32[2], f32[2], f32[2]) tuple(re, im, ab)
})", {Lit("f32[2]", {1, 3}), Lit("f32[2]", {2, 4})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{-3, -7}));
  EXPECT_EQ(Vals(r.tuple_elements()[1]), (std::vector<double>{4, 24}));
  EXPECT_FLOAT_EQ(static_cast<float>(Vals(r.tuple_elements()[2])[1]), 5.0f);
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

TEST(EvalElementwise, F8ConvertRoundsToNearestEven) {
  // f8e4m3fn has 3 mantissa bits: 1.0625 is halfway between 1 and 1.125.
  Literal r = Unary("f8e4m3fn[3]", "convert", Lit("f32[3]", {1.0625, 1.1875, 448}));
  EXPECT_EQ(Vals(r), (std::vector<double>{1, 1.25, 448}));
  Literal back = Unary("f32[3]", "convert", r);
  EXPECT_EQ(Vals(back), (std::vector<double>{1, 1.25, 448}));
}

TEST(EvalElementwise, ShapeMismatchIsAnError) {
  auto r = RunHlo(R"(HloModule t
ENTRY e {
  a = f32[2] parameter(0)
  b = f32[3] parameter(1)
  ROOT c = f32[2] add(a, b)
})", {Lit("f32[2]", {1, 2}), Lit("f32[3]", {1, 2, 3})});
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

// xla_builder.math.Atan has no HLO opcode: atan(x) of real and complex x.
TEST(EvalElementwise, BuilderAtanCustomCall) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  x = f32[3] constant({1, -0, 1e30})
  a = f32[3] custom-call(x), custom_call_target="xla_builder.math.Atan"
  z = c128[3] constant({(0, 0.5), (1, 0), (0, 2)})
  c = c128[3] custom-call(z), custom_call_target="xla_builder.math.Atan"
  re = f64[3] real(c)
  im = f64[3] imag(c)
  ROOT t = (f32[3], f64[3], f64[3]) tuple(a, re, im)
})");
  ASSERT_TRUE(r.IsTuple());
  std::vector<double> a = Vals(r.tuple_elements()[0]);
  EXPECT_FLOAT_EQ(static_cast<float>(a[0]), static_cast<float>(M_PI / 4));
  EXPECT_TRUE(a[1] == 0 && std::signbit(a[1]));
  EXPECT_FLOAT_EQ(static_cast<float>(a[2]), static_cast<float>(M_PI / 2));
  std::vector<double> re = Vals(r.tuple_elements()[1]), im = Vals(r.tuple_elements()[2]);
  EXPECT_DOUBLE_EQ(im[0], std::atanh(0.5));  // atan(iy) = i atanh(y)
  EXPECT_DOUBLE_EQ(re[1], M_PI / 4);
  EXPECT_DOUBLE_EQ(re[2], M_PI / 2);  // the cut beyond ±i, approached from the right
  EXPECT_DOUBLE_EQ(im[2], std::atanh(0.5));  // Im atan(2i) = atanh(1/2)
}

}  // namespace
}  // namespace hloscope::testing
