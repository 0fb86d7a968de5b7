// f8 in kernels, checked bit for bit on the CPU: every code of every signed
// f8 type decodes to the interpreter's value (MinifloatToDouble), and f32
// values at and around every rounding boundary (each value, each midpoint
// and its neighbours, the overflow boundary, subnormals, inf, NaN) encode to
// the interpreter's code (DoubleToMinifloat, which agrees with ml_dtypes).
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
                                PrimitiveType::kF8E3M4};

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
    Literal codes(*ParseShape("s8[256]"));
    for (int c = 0; c < 256; ++c) codes.Set<int8_t>(c, static_cast<int8_t>(c));
    auto out = CompileAndRun("HloModule m\nENTRY e {\n  p = s8[256] parameter(0)\n  b = " + tn +
                                 "[256] bitcast-convert(p)\n  ROOT f = f32[256] convert(b)\n}\n",
                             {codes});
    ASSERT_TRUE(out.ok()) << tn << ": " << out.status().message();
    for (int c = 0; c < 256; ++c) {
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
    for (int c = 0; c < 128; ++c) {
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
    auto out = CompileAndRun("HloModule m\nENTRY e {\n  p = f32[" + ns + "] parameter(0)\n  c = " + tn + "[" + ns +
                                 "] convert(p)\n  ROOT b = s8[" + ns + "] bitcast-convert(c)\n}\n",
                             {in});
    ASSERT_TRUE(out.ok()) << tn << ": " << out.status().message();
    int wrong = 0;
    for (int64_t i = 0; i < n && wrong < 5; ++i) {
      uint8_t want = DoubleToMinifloat(t, v[static_cast<size_t>(i)]);
      uint8_t got = static_cast<uint8_t>((*out)[0].Get<int8_t>(i));
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
