// Per-op tests of the elemental emitter through loop kernels: small modules
// (one unfused kernel per op), PTX validated by ptxas where it exists, the
// kernels run on the CPU and compared with the interpreter (which defines
// the semantics: XLA's integer division/shift rules, NaN-propagating
// max/min, saturating float→int converts, f16/bf16 rounding after every op).
#include <gtest/gtest.h>

#include "tests/codegen/codegen_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::CompileRunCompare;

// A module with parameters `params` ("f32[37]", ...) and one output per op
// line ("f32[37] add(p0, p1)"), the root a tuple of them.
std::string ModuleOf(const std::vector<std::string>& params, const std::vector<std::string>& ops,
                     const std::string& extra_computations = "") {
  std::string s = "HloModule m\n\n" + extra_computations + "ENTRY e {\n";
  for (size_t i = 0; i < params.size(); ++i)
    s += "  p" + std::to_string(i) + " = " + params[i] + " parameter(" + std::to_string(i) + ")\n";
  std::string shapes, names;
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string name = "o" + std::to_string(i);
    s += "  " + name + " = " + ops[i] + "\n";
    std::string shape = ops[i].substr(0, ops[i].find(' '));
    shapes += (i ? ", " : "") + shape;
    names += (i ? ", " : "") + name;
  }
  s += "  ROOT t = (" + shapes + ") tuple(" + names + ")\n}\n";
  return s;
}

void ExpectAgrees(const std::string& hlo, const std::string& pipeline = "") {
  auto r = CompileRunCompare(hlo, pipeline);
  EXPECT_EQ(r.error, "") << hlo;
  EXPECT_GT(r.kernels, 0u);
}

class FloatOps : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatOps, UnaryAgreeWithInterpreter) {
  std::string t = GetParam() + "[37]";
  std::vector<std::string> ops;
  for (const char* op : {"abs", "negate", "sign", "exponential", "exponential-minus-one", "log", "log-plus-one",
                         "sqrt", "rsqrt", "cbrt", "tanh", "logistic", "sine", "cosine", "tan", "erf", "floor",
                         "ceil", "round-nearest-afz", "round-nearest-even", "acos", "asin", "atanh", "cosh", "sinh"})
    ops.push_back(t + " " + op + "(p0)");
  ops.push_back("pred[37] is-finite(p0)");
  ExpectAgrees(ModuleOf({t}, ops));
}

TEST_P(FloatOps, BinaryAgreeWithInterpreter) {
  std::string t = GetParam() + "[37]";
  std::vector<std::string> ops;
  for (const char* op : {"add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2"})
    ops.push_back(t + " " + op + "(p0, p1)");
  ops.push_back(t + " clamp(p0, p1, p2)");
  ops.push_back(t + " select(p3, p0, p1)");
  ExpectAgrees(ModuleOf({t, t, t, "pred[37]"}, ops));
}

TEST_P(FloatOps, CompareEveryDirectionAndTotalOrder) {
  std::string t = GetParam() + "[37]";
  std::vector<std::string> ops;
  for (const char* d : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    ops.push_back(std::string("pred[37] compare(p0, p1), direction=") + d);
    ops.push_back(std::string("pred[37] compare(p0, p1), direction=") + d + ", type=TOTALORDER");
  }
  ExpectAgrees(ModuleOf({t, t}, ops));
}

INSTANTIATE_TEST_SUITE_P(Types, FloatOps, ::testing::Values("f32", "f64", "f16", "bf16"));

class IntOps : public ::testing::TestWithParam<std::string> {};

TEST_P(IntOps, ArithmeticBitwiseAndShiftsAgreeWithInterpreter) {
  std::string t = GetParam() + "[41]";
  std::vector<std::string> ops;
  for (const char* op : {"add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "and",
                         "or", "xor", "shift-left", "shift-right-logical", "shift-right-arithmetic"})
    ops.push_back(t + " " + op + "(p0, p1)");
  for (const char* op : {"negate", "not", "popcnt", "count-leading-zeros"}) ops.push_back(t + " " + op + "(p0)");
  if (GetParam()[0] == 's')  // abs and sign need signed operands
    for (const char* op : {"abs", "sign"}) ops.push_back(t + " " + op + "(p0)");
  ops.push_back(t + " clamp(p0, p1, p2)");
  for (const char* d : {"EQ", "NE", "LT", "LE", "GT", "GE"})
    ops.push_back(std::string("pred[41] compare(p0, p1), direction=") + d);
  ExpectAgrees(ModuleOf({t, t, t}, ops));
}

// s4/u4/s2/u2 compute in i4/i2 registers and travel packed (41 elements:
// a partly used last byte).
INSTANTIATE_TEST_SUITE_P(Types, IntOps,
                         ::testing::Values("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "s4", "u4",
                                           "s2", "u2"));

TEST(PredOps, LogicAgreesWithInterpreter) {
  std::string t = "pred[33]";
  ExpectAgrees(ModuleOf({t, t}, {t + " and(p0, p1)", t + " or(p0, p1)", t + " xor(p0, p1)", t + " not(p0)",
                                 t + " select(p0, p1, p0)"}));
}

TEST(Convert, EveryPairOfCommonTypes) {
  const std::vector<std::string> types = {"pred", "s8", "s32", "s64", "u8", "u32", "f16", "bf16", "f32", "f64"};
  for (const std::string& from : types) {
    std::vector<std::string> ops;
    for (const std::string& to : types)
      if (to != from) ops.push_back(to + "[29] convert(p0)");
    // Scale floats up so that saturation and rounding are exercised.
    std::string hlo = ModuleOf({from + "[29]"}, ops);
    SCOPED_TRACE("from " + from);
    ExpectAgrees(hlo);
  }
}

TEST(Convert, SubByteAndNarrowFloatTypesToAndFromCommonTypes) {
  const std::vector<std::string> narrow = {"s4", "u4", "s2", "u2", "f4e2m1fn", "f8e8m0fnu", "f8e4m3fn"};
  const std::vector<std::string> common = {"pred", "s8",  "s32",  "s64", "u8",
                                           "u32",  "f16", "bf16", "f32", "f64"};
  for (const std::string& t : narrow) {
    std::vector<std::string> params = {t + "[29]"}, ops;
    for (const std::string& to : common) ops.push_back(to + "[29] convert(p0)");
    for (const std::string& to : narrow)
      if (to != t) ops.push_back(to + "[29] convert(p0)");
    for (const std::string& from : common) {
      ops.push_back(t + "[29] convert(p" + std::to_string(params.size()) + ")");
      params.push_back(from + "[29]");
    }
    SCOPED_TRACE("type " + t);
    ExpectAgrees(ModuleOf(params, ops));
  }
}

TEST(Convert, FloatToSubByteSaturatesToAByteThenWraps) {
  // The interpreter converts into its one-byte storage (saturating there)
  // and then wraps to the type's bits; the kernels do the same.
  ExpectAgrees(R"(HloModule m
ENTRY e {
  c = f32[8] constant({nan, inf, -inf, 300, -300, 7.9, -8.5, 100})
  p = f32[8] parameter(0)
  a = f32[8] add(c, p)
  s4 = s4[8] convert(a)
  u4 = u4[8] convert(a)
  s2 = s2[8] convert(a)
  u2 = u2[8] convert(a)
  ROOT t = (s4[8], u4[8], s2[8], u2[8]) tuple(s4, u4, s2, u2)
})");
}

TEST(SubByte, ConstantsLayoutsAndPackedEdges) {
  // Constants (an array and a scalar), a column-major packed layout, an odd
  // element count so the last byte is half used.
  ExpectAgrees(R"(HloModule m
ENTRY e {
  p0 = s4[5,7]{1,0:E(4)} parameter(0)
  p1 = u4[5,7]{0,1:E(4)} parameter(1)
  c = s4[7] constant({-8, -1, 0, 1, 7, 3, -5})
  cb = s4[5,7] broadcast(c), dimensions={1}
  k = s4[] constant(-3)
  kb = s4[5,7] broadcast(k), dimensions={}
  a = s4[5,7]{1,0:E(4)} add(p0, cb)
  m = s4[5,7]{0,1:E(4)} multiply(a, kb)
  u = u4[5,7]{1,0:E(4)} add(p1, p1)
  w = s8[5,7] convert(p1)
  ROOT t = (s4[5,7]{1,0:E(4)}, s4[5,7]{0,1:E(4)}, u4[5,7]{1,0:E(4)}, s8[5,7]) tuple(a, m, u, w)
})");
}

TEST(SubByte, TransposeLoopFusionAndReductionOverS4) {
  for (const char* pipeline : {"", "gpu"}) {
    SCOPED_TRACE(std::string("pipeline '") + pipeline + "'");
    auto r = CompileRunCompare(R"(HloModule m
add {
  a = s4[] parameter(0)
  b = s4[] parameter(1)
  ROOT s = s4[] add(a, b)
}
ENTRY e {
  p0 = s4[64,33]{1,0:E(4)} parameter(0)
  p1 = s4[64,33]{1,0:E(4)} parameter(1)
  t = s4[33,64]{1,0:E(4)} transpose(p0), dimensions={1,0}
  x = s4[64,33] xor(p0, p1)
  y = s4[64,33] shift-right-arithmetic(x, p1)
  f = f32[64,33] convert(y)
  z = s4[] constant(0)
  r = s4[64] reduce(p0, z), dimensions={1}, to_apply=add
  ROOT o = (s4[33,64]{1,0:E(4)}, f32[64,33], s4[64]) tuple(t, f, r)
})", pipeline);
    EXPECT_EQ(r.error, "");
    EXPECT_GT(r.kernels, 0u);
  }
}

TEST(SubByte, InPlaceDynamicUpdateSliceKeepsNeighbours) {
  // The update covers half bytes at both ends: the untouched nibbles of
  // those bytes must survive.
  ExpectAgrees(R"(HloModule m
ENTRY e {
  p0 = s4[4,9] parameter(0)
  u = s4[2,3] parameter(1)
  i = s32[] constant(1)
  ROOT d = s4[4,9] dynamic-update-slice(p0, u, i, i)
})", "gpu");
}

TEST(BitcastConvert, BetweenWidthsIsLittleEndian) {
  // s8 ↔ s4 pairs (element 0 the low nibble), u8 → u2 quads, f4 ↔ u4,
  // f8e8m0fnu ↔ u8, s16 ↔ s8 pairs, f16 → u4 quads.
  ExpectAgrees(R"(HloModule m
ENTRY e {
  a = s4[8,2]{1,0} parameter(0)
  b = s8[8] parameter(1)
  c = f4e2m1fn[6] parameter(2)
  d = s16[5] parameter(3)
  h = f16[3] parameter(4)
  w = s8[8] bitcast-convert(a)
  n = s4[8,2] bitcast-convert(b)
  q = u2[8,4] bitcast-convert(b)
  f = u4[6] bitcast-convert(c)
  e = f8e8m0fnu[8] bitcast-convert(b)
  s = s8[5,2] bitcast-convert(d)
  x = u4[3,4] bitcast-convert(h)
  back = s16[5] bitcast-convert(s)
  ROOT t = (s8[8], s4[8,2], u2[8,4], u4[6], f8e8m0fnu[8], s8[5,2], u4[3,4], s16[5]) tuple(w, n, q, f, e, s, x, back)
})");
}

TEST(Convert, FloatToIntSaturatesAndNanIsZero) {
  ExpectAgrees(R"(HloModule m
ENTRY e {
  c = f32[6] constant({nan, inf, -inf, 3e9, -3e9, 2.5})
  p = f32[6] parameter(0)
  a = f32[6] add(c, p)
  s = s32[6] convert(a)
  u = u8[6] convert(a)
  h = f16[6] convert(a)
  ROOT t = (s32[6], u8[6], f16[6]) tuple(s, u, h)
})");
}

TEST(ReducePrecision, MatchesInterpreter) {
  ExpectAgrees(ModuleOf({"f32[50]"}, {"f32[50] reduce-precision(p0), exponent_bits=5, mantissa_bits=10",
                                      "f32[50] reduce-precision(p0), exponent_bits=8, mantissa_bits=7",
                                      "f32[50] reduce-precision(p0), exponent_bits=2, mantissa_bits=0"}));
}

TEST(DataMovement, BroadcastReshapeTransposeSliceReverse) {
  ExpectAgrees(ModuleOf({"f32[4,6]", "f32[6]"},
                        {"f32[3,4,6] broadcast(p0), dimensions={1,2}", "f32[4,6] broadcast(p1), dimensions={1}",
                         "f32[6,4] transpose(p0), dimensions={1,0}", "f32[2,3,4] reshape(p0)",
                         "f32[2,2] slice(p0), slice={[1:4:2], [0:6:3]}", "f32[4,6] reverse(p0), dimensions={0,1}",
                         "f32[4,6]{0,1} copy(p0)", "f32[24] reshape(p0)"}));
}

TEST(DataMovement, ConcatenatePadIota) {
  ExpectAgrees(ModuleOf({"f32[3,5]", "f32[2,5]", "f32[]"},
                        {"f32[5,5] concatenate(p0, p1), dimensions={0}",
                         "f32[3,10] concatenate(p0, p0), dimensions={1}",
                         "f32[6,12] pad(p0, p2), padding=1_2x0_-1_2", "f32[2,5] pad(p0, p2), padding=-1_0x0_0",
                         "s32[3,5] iota(), iota_dimension=1", "f32[3,5] iota(), iota_dimension=0",
                         "bf16[7] iota(), iota_dimension=0"}));
}

TEST(DataMovement, DynamicSliceClampsStarts) {
  // Random s32 starts are in range; constants push them outside so clamping shows.
  ExpectAgrees(R"(HloModule m
ENTRY e {
  p0 = f32[8,6] parameter(0)
  big = s32[] constant(100)
  neg = s32[] constant(-5)
  one = u32[] constant(1)
  a = f32[3,4] dynamic-slice(p0, big, neg), dynamic_slice_sizes={3,4}
  b = f32[2,2] dynamic-slice(p0, one, one), dynamic_slice_sizes={2,2}
  ROOT t = (f32[3,4], f32[2,2]) tuple(a, b)
})");
}

TEST(DataMovement, GatherRowsAndGeneralDims) {
  ExpectAgrees(R"(HloModule m
ENTRY e {
  table = f32[10,4] parameter(0)
  ids = s32[5] parameter(1)
  idx2 = s32[3,2] parameter(2)
  rows = f32[5,4] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  win = f32[3,2,2] gather(table, idx2), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,2}
  ROOT t = (f32[5,4], f32[3,2,2]) tuple(rows, win)
})");
}

TEST(DataMovement, BitcastFollowsLayouts) {
  ExpectAgrees(R"(HloModule m
ENTRY e {
  p0 = f32[4,6]{1,0} parameter(0)
  c = f32[4,6]{0,1} copy(p0)
  b = f32[6,4]{1,0} bitcast(c)
  ROOT n = f32[6,4]{1,0} negate(b)
})");
}

TEST(Map, AppliesScalarComputation) {
  ExpectAgrees(R"(HloModule m
f {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] multiply(x, y)
  ROOT a = f32[] add(m, x)
}
ENTRY e {
  p0 = f32[9] parameter(0)
  p1 = f32[9] parameter(1)
  ROOT r = f32[9] map(p0, p1), dimensions={0}, to_apply=f
})");
}

TEST(LoopFusion, FusedElementwiseChainsAndMultiOutput) {
  auto r = CompileRunCompare(R"(HloModule m
ENTRY e {
  p0 = f32[64,33] parameter(0)
  p1 = f32[33] parameter(1)
  b = f32[64,33] broadcast(p1), dimensions={1}
  a = f32[64,33] add(p0, b)
  t = f32[64,33] tanh(a)
  m = f32[64,33] multiply(t, p0)
  e = f32[64,33] exponential(m)
  ROOT r = (f32[64,33], f32[64,33]) tuple(m, e)
})", "gpu");
  EXPECT_EQ(r.error, "");
  EXPECT_GE(r.kernels, 1u);
}

TEST(Errors, UnsupportedOpIsNamed) {
  auto r = CompileRunCompare(R"(HloModule m
ENTRY e {
  p0 = f32[4] parameter(0)
  ROOT r = f32[4] cholesky(p0), lower=true
})");
  EXPECT_NE(r.error.find("cholesky"), std::string::npos) << r.error;
}

TEST(Errors, UnsupportedElementTypeIsNamed) {
  auto r = CompileRunCompare(R"(HloModule m
ENTRY e {
  p0 = s1[4] parameter(0)
  ROOT r = s1[4] negate(p0)
})");
  EXPECT_NE(r.error.find("s1"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace hloscope::codegen

namespace hloscope::codegen {
namespace {

constexpr const char* kAddMax = R"(add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
)";

// reduce-window as JAX writes it: max pooling with padding and stride, an
// average pool's sum, jnp.cumsum (a window as long as the axis, padded on
// the left), and base/window dilation.
TEST(ReduceWindow, PoolingCumsumAndDilationAgreeWithInterpreter) {
  ExpectAgrees(ModuleOf(
      {"f32[2,9,9,3]", "f32[37]", "f32[6,5]"},
      {"f32[] constant(-inf)", "f32[] constant(0)",
       "f32[2,5,5,3] reduce-window(p0, o0), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, to_apply=max",
       "f32[2,4,4,3] reduce-window(p0, o1), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=add",
       "f32[37] reduce-window(p1, o1), window={size=37 pad=36_0}, to_apply=add",
       "f32[11,4] reduce-window(p2, o1), window={size=3x2 pad=1_1x1_0 lhs_dilate=2x1 rhs_dilate=1x2}, to_apply=add"},
      kAddMax));
}

// XLA's emitters/tests/loop/bitcast_add.hlo: a bitcast that reinterprets
// f16 bits as s16 (it gave invalid LLVM IR: an integer add of halves).
TEST(Bitcast, ReinterpretsTheElementType) {
  ExpectAgrees(ModuleOf({"f16[20]"}, {"s16[4,5] bitcast(p0)", "s16[4,5] add(o0, o0)", "f16[20] bitcast(o1)"}));
}

TEST(ReduceWindow, FusedWithItsNeighboursUnderGpu) {
  ExpectAgrees(ModuleOf({"f32[4,16]"},
                        {"f32[] constant(0)", "f32[4,16] negate(p0)",
                         "f32[4,16] reduce-window(o1, o0), window={size=1x16 pad=0_0x15_0}, to_apply=add",
                         "f32[4,16] exponential(o2)"},
                        kAddMax),
               "gpu");
}

}  // namespace
}  // namespace hloscope::codegen

namespace hloscope::codegen {
namespace {

// A dynamic-update-slice that is not a fusion's only root is computed
// elementally (XLA's elemental emitter): under another op, and as one of
// several outputs of different shapes, with start indices that need clamping.
TEST(ElementalOps, DynamicUpdateSliceInsideLoopFusions) {
  ExpectAgrees(R"(HloModule m

%under (p0: f32[8,6], p1: f32[3,2], p2: s32[], p3: s32[]) -> f32[8,6] {
  %p0 = f32[8,6] parameter(0)
  %p1 = f32[3,2] parameter(1)
  %p2 = s32[] parameter(2)
  %p3 = s32[] parameter(3)
  %d = f32[8,6] dynamic-update-slice(%p0, %p1, %p2, %p3)
  ROOT %n = f32[8,6] negate(%d)
}

%several (q0: f32[2,1], q1: f32[1,1], q2: s32[], q3: f32[5], q4: f32[2]) -> (f32[2,1], f32[5]) {
  %q0 = f32[2,1] parameter(0)
  %q1 = f32[1,1] parameter(1)
  %q2 = s32[] parameter(2)
  %z = s32[] constant(0)
  %a = f32[2,1] dynamic-update-slice(%q0, %q1, %q2, %z)
  %q3 = f32[5] parameter(3)
  %q4 = f32[2] parameter(4)
  %b = f32[5] dynamic-update-slice(%q3, %q4, %q2)
  ROOT %t = (f32[2,1], f32[5]) tuple(%a, %b)
}

ENTRY %e (x: f32[8,6], u: f32[3,2], i: s32[], j: s32[], s: f32[2,1], v: f32[1,1], w: f32[5], y: f32[2]) -> (f32[8,6], (f32[2,1], f32[5]), (f32[2,1], f32[5])) {
  %x = f32[8,6] parameter(0)
  %u = f32[3,2] parameter(1)
  %i = s32[] parameter(2)
  %j = s32[] parameter(3)
  %s = f32[2,1] parameter(4)
  %v = f32[1,1] parameter(5)
  %w = f32[5] parameter(6)
  %y = f32[2] parameter(7)
  %f = f32[8,6] fusion(%x, %u, %i, %j), kind=kLoop, calls=%under
  %g = (f32[2,1], f32[5]) fusion(%s, %v, %i, %w, %y), kind=kLoop, calls=%several
  %big = s32[] constant(1000)
  %h = (f32[2,1], f32[5]) fusion(%s, %v, %big, %w, %y), kind=kLoop, calls=%several
  ROOT %r = (f32[8,6], (f32[2,1], f32[5]), (f32[2,1], f32[5])) tuple(%f, %g, %h)
}
)");
}

}  // namespace
}  // namespace hloscope::codegen

namespace hloscope::codegen {
namespace {

// XLA's client-library math written as custom-calls (xla_builder.math.*):
// the interpreter and the kernels compute them as the HLO op of that name.
TEST(ElementalOps, BuilderMathCustomCallsAreTheirOps) {
  ExpectAgrees(ModuleOf({"f32[33]"}, {
      "f32[33] custom-call(p0), custom_call_target=\"xla_builder.math.Asinh\"",
      "f32[33] custom-call(p0), custom_call_target=\"xla_builder.math.Cosh\"",
      "f32[33] custom-call(p0), custom_call_target=\"xla_builder.math.Atanh\"",
  }));
  auto unknown = CompileRunCompare(ModuleOf({"f32[4]"}, {"f32[4] custom-call(p0), custom_call_target=\"xla_builder.math.Polygamma\""}));
  EXPECT_NE(unknown.error.find("custom-call"), std::string::npos) << unknown.error;
}

}  // namespace
}  // namespace hloscope::codegen

namespace hloscope::codegen {
namespace {

// Complex values in kernels ({re, im} in registers): construction, parts,
// |z|, arithmetic, equality, converts and data movement, c64 and c128.
TEST(ElementalOps, ComplexValues) {
  ExpectAgrees(ModuleOf({"f32[37]", "f32[37]", "f64[37]"}, {
      "c64[37] complex(p0, p1)",
      "f32[37] real(o0)",
      "f32[37] imag(o0)",
      "f32[37] abs(o0)",
      "c64[37] negate(o0)",
      "c64[37] add(o0, o4)",
      "c64[37] multiply(o0, o5)",
      "c64[37] subtract(o6, o0)",
      "c64[37] divide(o6, o0)",
      "pred[37] compare(o0, o4), direction=NE",
      "c128[37] convert(p2)",
      "c128[37] convert(o0)",
      "c64[37] constant({(1, 2), (3, -4), (0.5, 0), (-1, -1), (2, 2), (1, 2), (3, -4), (0.5, 0), (-1, -1), (2, 2), "
      "(1, 2), (3, -4), (0.5, 0), (-1, -1), (2, 2), (1, 2), (3, -4), (0.5, 0), (-1, -1), (2, 2), (1, 2), (3, -4), "
      "(0.5, 0), (-1, -1), (2, 2), (1, 2), (3, -4), (0.5, 0), (-1, -1), (2, 2), (1, 2), (3, -4), (0.5, 0), (-1, -1), "
      "(2, 2), (7, 7), (8, 8)})",
      "c64[37] multiply(o12, o0)",
      "c64[37] reverse(o13), dimensions={0}",
  }), "gpu");
}

}  // namespace
}  // namespace hloscope::codegen
