// reduce (variadic, general reducers), reduce-window, select-and-scatter, sort.
#include <cmath>

#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

constexpr char kAdd[] = R"(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
)";

TEST(EvalReduce, SumRowsAndColumns) {
  std::string hlo = std::string("HloModule t\n") + kAdd + R"(
ENTRY e {
  a = f32[2,3] parameter(0)
  z = f32[] constant(0)
  r0 = f32[3] reduce(a, z), dimensions={0}, to_apply=add
  r1 = f32[2] reduce(a, z), dimensions={1}, to_apply=add
  all = f32[] reduce(a, z), dimensions={0,1}, to_apply=add
  ROOT t = (f32[3], f32[2], f32[]) tuple(r0, r1, all)
})";
  Literal r = MustRun(hlo, {Lit("f32[2,3]", {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(Vals(r.tuple_elements()[1]), (std::vector<double>{6, 15}));
  EXPECT_EQ(Vals(r.tuple_elements()[2]), (std::vector<double>{21}));
}

TEST(EvalReduce, EmptyReductionGivesInit) {
  std::string hlo = std::string("HloModule t\n") + kAdd + R"(
ENTRY e {
  a = f32[0,2] parameter(0)
  z = f32[] constant(5)
  ROOT r = f32[2] reduce(a, z), dimensions={0}, to_apply=add
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("f32[0,2]", {})})), (std::vector<double>{5, 5}));
}

TEST(EvalReduce, VariadicArgmax) {
  const char* hlo = R"(HloModule t
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v1, v0), direction=GT
  v = f32[] select(gt, v1, v0)
  i = s32[] select(gt, i1, i0)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  a = f32[2,4] parameter(0)
  idx = s32[2,4] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[2], s32[2]) reduce(a, idx, ninf, zero), dimensions={1}, to_apply=argmax
})";
  Literal r = MustRun(hlo, {Lit("f32[2,4]", {1, 9, 3, 9, -1, -5, -0.5, -2})});
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{9, -0.5}));
  EXPECT_EQ(Ints(r.tuple_elements()[1]), (std::vector<int64_t>{1, 2}));
}

TEST(EvalReduce, GeneralReducerRunsInOrder) {
  // f(acc, x) = acc * 2 + x is not associative: the order is observable.
  const char* hlo = R"(HloModule t
f {
  a = s32[] parameter(0)
  x = s32[] parameter(1)
  two = s32[] constant(2)
  m = s32[] multiply(a, two)
  ROOT r = s32[] add(m, x)
}
ENTRY e {
  a = s32[4] parameter(0)
  z = s32[] constant(0)
  ROOT r = s32[] reduce(a, z), dimensions={0}, to_apply=f
})";
  EXPECT_EQ(Ints(MustRun(hlo, {Lit("s32[4]", {1, 0, 1, 1})})), (std::vector<int64_t>{11}));
}

TEST(EvalReduce, BF16SumRoundsEachStep) {
  const char* hlo = R"(HloModule t
add {
  x = bf16[] parameter(0)
  y = bf16[] parameter(1)
  ROOT s = bf16[] add(x, y)
}
ENTRY e {
  a = bf16[3] parameter(0)
  z = bf16[] constant(256)
  ROOT r = bf16[] reduce(a, z), dimensions={0}, to_apply=add
})";
  // 256+1 -> 256 (tie to even), three times.
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("bf16[3]", {1, 1, 1})})), (std::vector<double>{256}));
}

TEST(EvalReduceWindow, MaxPoolWithPaddingAndStride) {
  const char* hlo = R"(HloModule t
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}
ENTRY e {
  a = f32[4] parameter(0)
  ninf = f32[] constant(-inf)
  ROOT r = f32[3] reduce-window(a, ninf), window={size=2 stride=2 pad=1_1}, to_apply=max
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("f32[4]", {1, 5, 2, 3})})), (std::vector<double>{1, 5, 3}));
}

TEST(EvalReduceWindow, DilationsAndSum2D) {
  std::string hlo = std::string("HloModule t\n") + kAdd + R"(
ENTRY e {
  a = f32[3,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[1,1] reduce-window(a, z), window={size=2x2 rhs_dilate=2x2}, to_apply=add
})";
  // corners: 0 + 2 + 6 + 8
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("f32[3,3]", {0, 1, 2, 3, 4, 5, 6, 7, 8})})), (std::vector<double>{16}));
  std::string base = std::string("HloModule t\n") + kAdd + R"(
ENTRY e {
  a = f32[2] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2] reduce-window(a, z), window={size=2 lhs_dilate=2}, to_apply=add
})";
  // base-dilated input: 1 _ 2 ; windows [1,_] [_,2]
  EXPECT_EQ(Vals(MustRun(base, {Lit("f32[2]", {1, 2})})), (std::vector<double>{1, 2}));
}

// A prefix window (a cumulative sum: the window covers the whole dimension,
// padded by its size less one before it) is evaluated as a running value; it
// must give, bit for bit, what the window walk gives. The walk is forced by a
// reducer the interpreter cannot classify (its root reads a copy), over the
// same f32 values, whose sums round differently in any other order.
TEST(EvalReduceWindow, PrefixWindowsAsRunningValuesMatchTheWalk) {
  auto module = [](const std::string& reducer_root, const std::string& window) {
    return "HloModule t\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  c = f32[] copy(y)\n  "
           "ROOT s = f32[] " +
           reducer_root +
           "\n}\nENTRY e {\n  a = f32[3,50,4] parameter(0)\n  z = f32[] constant(0.25)\n"
           "  ROOT r = f32[3,50,4] reduce-window(a, z), window={" +
           window + "}, to_apply=add\n}\n";
  };
  std::vector<double> v;
  for (int i = 0; i < 3 * 50 * 4; ++i) v.push_back(std::sin(i * 0.37) * (1 + i % 7) * 1e3 + 1.0 / (1 + i));
  const Literal a = Lit("f32[3,50,4]", v);
  for (const char* window : {"size=1x50x1 pad=0_0x49_0x0_0", "size=1x64x1 pad=0_0x63_0x0_0"}) {
    const std::vector<double> fast = Vals(MustRun(module("add(x, y)", window), {a}));
    const std::vector<double> walk = Vals(MustRun(module("add(x, c)", window), {a}));
    ASSERT_EQ(fast.size(), walk.size());
    for (size_t i = 0; i < fast.size(); ++i) ASSERT_EQ(fast[i], walk[i]) << window << " element " << i;
    // Element [0,49,0] holds the whole column's sum, [0,0,0] the init plus the first.
    EXPECT_EQ(fast[0], static_cast<double>(0.25f + static_cast<float>(v[0])));
  }
}

TEST(EvalSelectAndScatter, MaxPoolGradient) {
  const char* hlo = R"(HloModule t
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  g = f32[2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(x, g, z), window={size=2 stride=2}, select=ge, scatter=add
})";
  EXPECT_EQ(Vals(MustRun(hlo, {Lit("f32[4]", {1, 3, 4, 4}), Lit("f32[2]", {10, 20})})),
            (std::vector<double>{0, 10, 20, 0}));
}

TEST(EvalSort, KeyValueStableAndTotalOrder) {
  const char* hlo = R"(HloModule t
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
ENTRY e {
  k = f32[6] parameter(0)
  v = s32[6] parameter(1)
  ROOT s = (f32[6], s32[6]) sort(k, v), dimensions={0}, is_stable=true, to_apply=lt
})";
  double nan = std::numeric_limits<double>::quiet_NaN();
  Literal r = MustRun(hlo, {Lit("f32[6]", {3, nan, 1, -0.0, 1, 0.0}), Lit("s32[6]", {0, 1, 2, 3, 4, 5})});
  EXPECT_EQ(Ints(r.tuple_elements()[1]), (std::vector<int64_t>{3, 5, 2, 4, 0, 1}));
}

TEST(EvalSort, GeneralComparatorDescendingRows) {
  const char* hlo = R"(HloModule t
gt {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  n = s32[] negate(a)
  m = s32[] negate(b)
  ROOT r = pred[] compare(n, m), direction=LT
}
ENTRY e {
  k = s32[2,3] parameter(0)
  ROOT s = s32[2,3] sort(k), dimensions={1}, to_apply=gt
})";
  EXPECT_EQ(Ints(MustRun(hlo, {Lit("s32[2,3]", {1, 3, 2, 5, 4, 6})})), (std::vector<int64_t>{3, 2, 1, 6, 5, 4}));
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

TEST(EvalReduce, MiddleDimensionAndMax) {
  const char* hlo = R"(HloModule t
max {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT m = s32[] maximum(x, y)
}
ENTRY e {
  a = s32[2,3,2] parameter(0)
  lo = s32[] constant(-100)
  ROOT r = s32[2,2] reduce(a, lo), dimensions={1}, to_apply=max
})";
  EXPECT_EQ(Ints(MustRun(hlo, {Lit("s32[2,3,2]", {1, 8, 5, 2, 3, 4, -1, -2, -3, -4, -5, 0})})),
            (std::vector<int64_t>{5, 8, -1, 0}));
}

TEST(EvalSort, DescendingIntKeysFastPath) {
  const char* hlo = R"(HloModule t
gt {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=GT
}
ENTRY e {
  k = s32[5] parameter(0)
  ROOT s = s32[5] sort(k), dimensions={0}, to_apply=gt
})";
  EXPECT_EQ(Ints(MustRun(hlo, {Lit("s32[5]", {3, -1, 7, 3, 0})})), (std::vector<int64_t>{7, 3, 3, 0, -1}));
}

}  // namespace
}  // namespace hloscope::testing
