// rng-bit-generator against values XLA:CPU (jaxlib 0.4.38) produced for the
// same HLO and state, and the generators against published known answers.
#include "core/eval/rng_kernels.h"
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

Literal State() {
  Literal s(Shape(PrimitiveType::kU64, {2}));
  s.Set<uint64_t>(0, 0x9abcdef012345678ull);
  s.Set<uint64_t>(1, 0x876543210fedcba9ull);
  return s;
}

Literal Gen(const std::string& alg, const std::string& shape) {
  std::string hlo = "HloModule t\nENTRY e {\n  s = u64[2] parameter(0)\n  ROOT r = (u64[2], " + shape +
                    ") rng-bit-generator(s), algorithm=" + alg + "\n}\n";
  return MustRun(hlo, {State()});
}

std::vector<uint64_t> U64s(const Literal& l) {
  std::vector<uint64_t> v;
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    uint64_t x = 0;
    std::memcpy(&x, l.raw() + i * l.element_bytes(), l.element_bytes());
    v.push_back(x);
  }
  return v;
}

TEST(EvalRng, ThreeFryKnownAnswers) {
  uint32_t a, b;
  eval::ThreeFry2x32(0, 0, 0, 0, &a, &b);
  EXPECT_EQ(a, 0x6b200159u);
  EXPECT_EQ(b, 0x99ba4efeu);
  eval::ThreeFry2x32(0x13198a2e, 0x03707344, 0x243f6a88, 0x85a308d3, &a, &b);
  EXPECT_EQ(a, 0xc4923a9cu);
  EXPECT_EQ(b, 0x483df7a0u);
}

TEST(EvalRng, PhiloxKnownAnswer) {
  uint32_t ctr[4] = {0, 0, 0, 0}, out[4];
  eval::Philox4x32(ctr, 0, 0, out);
  EXPECT_EQ(out[0], 0x6627e8d5u);
  EXPECT_EQ(out[1], 0xe169c58du);
  EXPECT_EQ(out[2], 0xbc57ac4cu);
  EXPECT_EQ(out[3], 0x9b00dbd8u);
}

TEST(EvalRng, ThreeFryMatchesXla) {
  Literal r = Gen("rng_three_fry", "u32[3,3]");
  EXPECT_EQ(U64s(r.tuple_elements()[1]), (std::vector<uint64_t>{2169010377, 3147263108, 3156348306, 4225298346, 1888803628,
                                                                1057216713, 1471483334, 922692033, 2238638228}));
  EXPECT_EQ(r.tuple_elements()[0].Get<uint64_t>(1), 0x876543210fedcba9ull + 6);
  Literal w = Gen("rng_three_fry", "u64[2,3]");
  EXPECT_EQ(U64s(w.tuple_elements()[1]),
            (std::vector<uint64_t>{18147518214081902793ull, 8112349813973412996ull, 4540711210275966354ull,
                                   8869740898078232006ull, 7151566688490564033ull, 12563058047761442964ull}));
  Literal h = Gen("rng_three_fry", "u16[4,6]");
  auto hv = U64s(h.tuple_elements()[1]);
  EXPECT_EQ(std::vector<uint64_t>(hv.begin(), hv.begin() + 6), (std::vector<uint64_t>{30921, 27780, 3474, 3526, 10689, 59540}));
  EXPECT_EQ(h.tuple_elements()[0].Get<uint64_t>(1), 0x876543210fedcba9ull + 12);
  Literal s = Gen("rng_three_fry", "u32[]");
  EXPECT_EQ(U64s(s.tuple_elements()[1]), (std::vector<uint64_t>{2169010377}));
}

TEST(EvalRng, PhiloxMatchesXla) {
  Literal r = Gen("rng_philox", "u32[5]");
  EXPECT_EQ(U64s(r.tuple_elements()[1]), (std::vector<uint64_t>{615903769, 1917516873, 1873322213, 661864336, 2819177401}));
  EXPECT_EQ(r.tuple_elements()[0].Get<uint64_t>(1), 0x876543210fedcba9ull + 2);
  Literal w = Gen("rng_philox", "u64[7]");
  EXPECT_EQ(U64s(w.tuple_elements()[1]),
            (std::vector<uint64_t>{8235672259679089177ull, 2842685679382077669ull, 17785809615389801401ull,
                                   13434075420886242409ull, 112715407142906043ull, 15239495695248110993ull,
                                   11714331695530606652ull}));
  Literal d = Gen("rng_default", "u8[3]");
  EXPECT_EQ(U64s(d.tuple_elements()[1]), (std::vector<uint64_t>{25, 73, 229}));
  EXPECT_EQ(d.tuple_elements()[0].Get<uint64_t>(1), 0x876543210fedcba9ull + 1);
}

}  // namespace
}  // namespace hloscope::testing
