// The interpreter's module-run random-number state (core/eval/rng_state.h):
// rng-get-and-update-state returns it and advances it by delta; it starts
// from the documented seed in every evaluation; rng draws from it.
#include <cmath>

#include "core/eval/rng_state.h"
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

std::vector<uint64_t> U64s(const Literal& l) {
  std::vector<uint64_t> v;
  for (int64_t i = 0; i < l.num_elements(); ++i) v.push_back(l.Get<uint64_t>(i));
  return v;
}

TEST(EvalRngStateTest, StartsFromTheSeedAndAdvancesByDelta) {
  const char* hlo = R"hlo(
HloModule m
ENTRY e {
  s1 = u64[2] rng-get-and-update-state(), delta=5
  s2 = u64[2] rng-get-and-update-state(), delta=3, control-predecessors={s1}
  s3 = u64[2] rng-get-and-update-state(), delta=1, control-predecessors={s2}
  ROOT t = (u64[2], u64[2], u64[2]) tuple(s1, s2, s3)
})hlo";
  Literal r = MustRun(hlo);
  ASSERT_EQ(r.tuple_elements().size(), 3u);
  EXPECT_EQ(U64s(r.tuple_elements()[0]), (std::vector<uint64_t>{kRngStateSeedLo, kRngStateSeedHi}));
  EXPECT_EQ(U64s(r.tuple_elements()[1]), (std::vector<uint64_t>{kRngStateSeedLo + 5, 0}));
  EXPECT_EQ(U64s(r.tuple_elements()[2]), (std::vector<uint64_t>{kRngStateSeedLo + 8, 0}));
  // Every evaluation starts again from the seed: runs are reproducible.
  EXPECT_TRUE(MustRun(hlo) == r);
}

TEST(EvalRngStateTest, CarriesInto128Bits) {
  RngState s{~uint64_t{0} - 1, 7};
  RngState old = s.GetAndUpdate(3);
  EXPECT_EQ(old.lo, ~uint64_t{0} - 1);
  EXPECT_EQ(old.hi, 7u);
  EXPECT_EQ(s.lo, 1u);
  EXPECT_EQ(s.hi, 8u);
}

TEST(EvalRngStateTest, AdvancesInEveryLoopIteration) {
  Literal r = MustRun(R"hlo(
HloModule m
cond {
  p = (s32[], u64[2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], u64[2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  s = u64[2] rng-get-and-update-state(), delta=10
  ROOT t = (s32[], u64[2]) tuple(j, s)
}
ENTRY e {
  z = s32[] constant(0)
  s0 = u64[2] constant({0, 0})
  init = (s32[], u64[2]) tuple(z, s0)
  w = (s32[], u64[2]) while(init), condition=cond, body=body
  ROOT last = u64[2] get-tuple-element(w), index=1
})hlo");
  EXPECT_EQ(U64s(r), (std::vector<uint64_t>{kRngStateSeedLo + 30, 0}));
}

TEST(EvalRngStateTest, UniformAndNormalValues) {
  Literal u = MustRun(R"hlo(
HloModule m
ENTRY e {
  a = f32[] constant(-2)
  b = f32[] constant(3)
  ROOT r = f32[4096] rng(a, b), distribution=rng_uniform
})hlo");
  double sum = 0;
  for (double v : Vals(u)) {
    EXPECT_GE(v, -2.0);
    EXPECT_LT(v, 3.0);
    sum += v;
  }
  EXPECT_NEAR(sum / 4096, 0.5, 0.1);

  Literal n = MustRun(R"hlo(
HloModule m
ENTRY e {
  mean = f64[] constant(10)
  sigma = f64[] constant(2)
  ROOT r = f64[64,65] rng(mean, sigma), distribution=rng_normal
})hlo");
  double s = 0, s2 = 0;
  for (double v : Vals(n)) {
    s += v;
    s2 += v * v;
  }
  double mean = s / n.num_elements(), var = s2 / n.num_elements() - mean * mean;
  EXPECT_NEAR(mean, 10.0, 0.1);
  EXPECT_NEAR(std::sqrt(var), 2.0, 0.1);

  Literal i = MustRun(R"hlo(
HloModule m
ENTRY e {
  a = s32[] constant(-3)
  b = s32[] constant(4)
  ROOT r = s32[1000] rng(a, b), distribution=rng_uniform
})hlo");
  std::vector<int> seen(7, 0);
  for (int64_t v : Ints(i)) {
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    ++seen[v + 3];
  }
  for (int c : seen) EXPECT_GT(c, 0);
}

TEST(EvalRngStateTest, TwoRngsDrawDifferentValues) {
  Literal r = MustRun(R"hlo(
HloModule m
ENTRY e {
  a = f32[] constant(0)
  b = f32[] constant(1)
  r1 = f32[8] rng(a, b), distribution=rng_uniform
  r2 = f32[8] rng(a, b), distribution=rng_uniform
  ROOT t = (f32[8], f32[8]) tuple(r1, r2)
})hlo");
  EXPECT_FALSE(r.tuple_elements()[0] == r.tuple_elements()[1]);
}

TEST(EvalRngStateTest, Errors) {
  auto r = RunHlo("HloModule m\nENTRY e {\n  a = pred[] constant(false)\n  b = pred[] constant(true)\n"
                  "  ROOT r = pred[4] rng(a, b), distribution=rng_uniform\n}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rng_uniform of pred"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace hloscope::testing
