// f8 and f4 in kernels, checked bit for bit on the CPU: every code of every
// f8 type (f8e8m0fnu included) and of f4e2m1fn decodes to the interpreter's
// value (MinifloatToDouble), and f32 values at and around every rounding
// boundary (each value, each midpoint and its neighbours, the overflow
// boundary, subnormals, inf, NaN) encode to the interpreter's code
// (DoubleToMinifloat, which agrees with ml_dtypes). f4e2m1fn travels packed
// two to a byte, so these also check the packed loads and stores.
#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/ir/float_types.h"
#include "core/parser/parser.h"
#include "tests/codegen/codegen_test_util.h"

namespace hloscope::codegen {
namespace {

const PrimitiveType kTypes[] = {PrimitiveType::kF8E5M2,      PrimitiveType::kF8E4M3,     PrimitiveType::kF8E4M3FN,
                                PrimitiveType::kF8E4M3B11FNUZ, PrimitiveType::kF8E5M2FNUZ, PrimitiveType::kF8E4M3FNUZ,
                                PrimitiveType::kF8E3M4,        PrimitiveType::kF8E8M0FNU,  PrimitiveType::kF4E2M1FN};

StatusOr<std::vector<Literal>> CompileAndRun(const std::string& hlo, const std::vector<Literal>& inputs) {
  CodegenOptions opts;
  opts.emit_ptx = false;
  ASSIGN_OR_RETURN(CompiledFile f, CompileText(hlo, "f8.hlo", "", opts));
  ASSIGN_OR_RETURN(runtime::RunResult r, RunOnCpu(f.codegen, inputs));
  return r.outputs;
}

TEST(Minifloat, EveryCodeDecodesAsTheInterpreter) {
  for (PrimitiveType t : kTypes) {
    const std::string tn = std::string(PrimitiveTypeName(t));
    const int n = 1 << BitWidth(t);
    const std::string ns = std::to_string(n);
    Literal codes(*ParseShape(tn + "[" + ns + "]"));
    for (int c = 0; c < n; ++c) codes.raw()[c] = static_cast<uint8_t>(c);
    auto out = CompileAndRun("HloModule m\nENTRY e {\n  p = " + tn + "[" + ns +
                                 "] parameter(0)\n  ROOT f = f32[" + ns + "] convert(p)\n}\n",
                             {codes});
    ASSERT_TRUE(out.ok()) << tn << ": " << out.status().message();
    for (int c = 0; c < n; ++c) {
      double want = MinifloatToDouble(t, static_cast<uint8_t>(c));
      float got = (*out)[0].Get<float>(c);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << tn << " code " << c;
      } else {
        EXPECT_EQ(got, static_cast<float>(want)) << tn << " code " << c;
        EXPECT_EQ(std::signbit(got), std::signbit(want)) << tn << " code " << c;
      }
    }
  }
}

TEST(Minifloat, RoundingAtEveryBoundaryMatchesTheInterpreter) {
  for (PrimitiveType t : kTypes) {
    const std::string tn = std::string(PrimitiveTypeName(t));
    std::vector<float> v;
    std::vector<double> finite;
    const MinifloatFormat fmt = MinifloatFormatOf(t);
    for (int c = 0; c < (1 << (fmt.exp_bits + fmt.man_bits)); ++c) {  // the non-negative codes
      double d = MinifloatToDouble(t, static_cast<uint8_t>(c));
      if (std::isfinite(d)) finite.push_back(d);
    }
    std::sort(finite.begin(), finite.end());
    auto add = [&](double d) {
      float f = static_cast<float>(d);
      for (float x : {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e30f)}) {
        v.push_back(x);
        v.push_back(-x);
      }
    };
    for (size_t i = 0; i < finite.size(); ++i) {
      add(finite[i]);
      if (i + 1 < finite.size()) add((finite[i] + finite[i + 1]) / 2);
    }
    const double maxv = finite.back(), gap = finite.back() - finite[finite.size() - 2];
    for (double d : {maxv + gap / 2, maxv + gap, maxv * 4, 1e30, finite[1] / 4, finite[1] / 2, finite[1] * 0.75}) add(d);
    for (float x : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN(), 0.0f, -0.0f})
      v.push_back(x);
    const int64_t n = static_cast<int64_t>(v.size());
    Literal in(*ParseShape("f32[" + std::to_string(n) + "]"));
    for (int64_t i = 0; i < n; ++i) in.Set<float>(i, v[static_cast<size_t>(i)]);
    const std::string ns = std::to_string(n);
    // The codes themselves come back (the literal keeps one code per byte).
    auto out = CompileAndRun("HloModule m\nENTRY e {\n  p = f32[" + ns + "] parameter(0)\n  ROOT c = " + tn +
                                 "[" + ns + "] convert(p)\n}\n",
                             {in});
    ASSERT_TRUE(out.ok()) << tn << ": " << out.status().message();
    int wrong = 0;
    for (int64_t i = 0; i < n && wrong < 5; ++i) {
      uint8_t want = DoubleToMinifloat(t, v[static_cast<size_t>(i)]);
      uint8_t got = (*out)[0].raw()[i];
      if (got != want) ++wrong;
      EXPECT_EQ(int(got), int(want)) << tn << " of " << v[static_cast<size_t>(i)];
    }
  }
}

TEST(Minifloat, TiesAtTheOverflowBoundaryGoToEven) {
  // ml_dtypes: e4m3fn(464) = 448 (the largest value's code is even), e5m2's
  // boundary 61440 overflows to inf, e4m3fnuz(248) is NaN.
  EXPECT_EQ(MinifloatToDouble(PrimitiveType::kF8E4M3FN, DoubleToMinifloat(PrimitiveType::kF8E4M3FN, 464)), 448);
  EXPECT_TRUE(std::isnan(MinifloatToDouble(PrimitiveType::kF8E4M3FN, DoubleToMinifloat(PrimitiveType::kF8E4M3FN, 465))));
  EXPECT_TRUE(std::isinf(MinifloatToDouble(PrimitiveType::kF8E5M2, DoubleToMinifloat(PrimitiveType::kF8E5M2, 61440))));
  EXPECT_TRUE(std::isnan(MinifloatToDouble(PrimitiveType::kF8E4M3FNUZ, DoubleToMinifloat(PrimitiveType::kF8E4M3FNUZ, 248))));
}

TEST(Minifloat, E8M0AndF4BoundariesAreTheInterpreters) {
  // f8e8m0fnu: powers of two 2^-127..2^127, no zero (0 → 2^-127), NaN 0xff
  // for negative values and past 2^127 + 2^125; f4e2m1fn saturates at ±6.
  const PrimitiveType e8 = PrimitiveType::kF8E8M0FNU, f4 = PrimitiveType::kF4E2M1FN;
  EXPECT_EQ(DoubleToMinifloat(e8, 0.0), 0);
  EXPECT_EQ(DoubleToMinifloat(e8, 1.0), 127);
  EXPECT_EQ(DoubleToMinifloat(e8, 1.5), 128);  // tie: to the even code
  EXPECT_EQ(DoubleToMinifloat(e8, 3.0), 128);
  EXPECT_EQ(DoubleToMinifloat(e8, std::ldexp(1.25, 127)), 254);
  EXPECT_EQ(DoubleToMinifloat(e8, std::ldexp(1.26, 127)), 255);
  EXPECT_EQ(DoubleToMinifloat(e8, -1.0), 255);
  EXPECT_EQ(MinifloatToDouble(e8, 0), std::ldexp(1.0, -127));
  EXPECT_EQ(DoubleToMinifloat(f4, 100.0), 0x7);
  EXPECT_EQ(DoubleToMinifloat(f4, -100.0), 0xf);
  EXPECT_EQ(DoubleToMinifloat(f4, 0.25), 0x0);  // tie: to the even code
  EXPECT_EQ(DoubleToMinifloat(f4, 0.75), 0x2);
  EXPECT_EQ(MinifloatToDouble(f4, 0x9), -0.5);
}

TEST(Minifloat, E8M0AndF4ArithmeticAgree) {
  // Scales as MX formats use them (e8m0 × value), f4 arithmetic, converts
  // between the narrow types, packed f4 outputs of odd length.
  auto r = testing::CompileRunCompare(R"(HloModule m
ENTRY e {
  x = f32[33,7] parameter(0)
  s = f8e8m0fnu[33,7] parameter(1)
  q = f4e2m1fn[33,7] parameter(2)
  k = f32[] constant(9)
  kb = f32[33,7] broadcast(k), dimensions={}
  xs = f32[33,7] multiply(x, kb)
  x4 = f4e2m1fn[33,7] convert(xs)
  sum4 = f4e2m1fn[33,7] add(x4, q)
  prod4 = f4e2m1fn[33,7] multiply(x4, q)
  sf = f32[33,7] convert(s)
  scaled = f32[33,7] multiply(sf, xs)
  e8 = f8e8m0fnu[33,7] convert(xs)
  ss = f8e8m0fnu[33,7] multiply(s, s)
  ee = f8e4m3fn[33,7] convert(q)
  back = f4e2m1fn[33,7] convert(ee)
  cmp = pred[33,7] compare(x4, q), direction=LT
  ROOT o = (f4e2m1fn[33,7], f4e2m1fn[33,7], f32[33,7], f8e8m0fnu[33,7], f8e8m0fnu[33,7], f4e2m1fn[33,7], pred[33,7]) tuple(sum4, prod4, scaled, e8, ss, back, cmp)
})", "gpu");
  EXPECT_EQ(r.error, "");
}

TEST(Minifloat, ArithmeticAndQuantizationFusionsAgree) {
  // What fp8 training steps contain: scale, clamp, convert to f8, back to bf16.
  auto r = testing::CompileRunCompare(R"(HloModule m
ENTRY e {
  x = bf16[64,96] parameter(0)
  s = f32[] parameter(1)
  xf = f32[64,96] convert(x)
  sb = f32[64,96] broadcast(s), dimensions={}
  y = f32[64,96] multiply(xf, sb)
  lo = f32[] constant(-448)
  hi = f32[] constant(448)
  c = f32[64,96] clamp(lo, y, hi)
  q = f8e4m3fn[64,96] convert(c)
  q2 = f8e4m3fn[64,96] multiply(q, q)
  t = f8e4m3fn[96,64] transpose(q2), dimensions={1,0}
  w = f8e5m2[64,96] convert(y)
  back = bf16[64,96] convert(w)
  ROOT o = (f8e4m3fn[96,64], bf16[64,96], f8e4m3fn[64,96]) tuple(t, back, q)
})", "gpu");
  EXPECT_EQ(r.error, "");
}

}  // namespace
}  // namespace hloscope::codegen
