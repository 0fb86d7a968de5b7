// CompareLiterals, tolerances, data files and deterministic random inputs.
#include <cstdio>
#include <filesystem>

#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/eval/random_inputs.h"
#include "core/ir/computation.h"
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

TEST(EvalCompare, FirstDifferingElementDescribed) {
  Literal e = Lit("f32[2,3]", {0, 0, 0, 0, 1.5, 0});
  Literal a = Lit("f32[2,3]", {0, 0, 0, 0, 1.7, 9});
  std::string d = CompareLiterals(e, a);
  EXPECT_NE(d.find("output {} element [1,1]: expected 1.5, got 1.70000005"), std::string::npos) << d;
  EXPECT_NE(d.find("abs diff"), std::string::npos);
  EXPECT_EQ(CompareLiterals(e, e), "");
  EXPECT_EQ(CompareLiterals(e, Lit("f32[2,3]", {0, 0, 0, 0, 1.50001, 0})), "");
  EXPECT_NE(CompareLiterals(e, Lit("f32[2,3]", {0, 0, 0, 0, 1.50001, 0}), Tolerance{0, 0}), "");
}

TEST(EvalCompare, TuplesNaNInfIntsAndShapes) {
  std::vector<Literal> el, al;
  el.push_back(Lit("s32[2]", {1, 2}));
  el.push_back(Lit("f32[2]", {std::nan(""), INFINITY}));
  al.push_back(Lit("s32[2]", {1, 2}));
  al.push_back(Lit("f32[2]", {std::nan(""), INFINITY}));
  Shape ts = Shape::Tuple({el[0].shape(), el[1].shape()});
  Literal e(ts), a(ts);
  e.tuple_elements() = el;
  a.tuple_elements() = al;
  EXPECT_EQ(CompareLiterals(e, a), "");
  a.tuple_elements()[1].SetDouble(1, -INFINITY);
  EXPECT_NE(CompareLiterals(e, a).find("output {1} element [1]"), std::string::npos) << CompareLiterals(e, a);
  a.tuple_elements()[1].SetDouble(1, INFINITY);
  a.tuple_elements()[0].SetInt(0, 3);
  EXPECT_NE(CompareLiterals(e, a).find("output {0} element [0]: expected 1, got 3"), std::string::npos);
  EXPECT_NE(CompareLiterals(Lit("f32[2]", {1, 2}), Lit("f32[1,2]", {1, 2})).find("shape"), std::string::npos);
}

TEST(EvalCompare, DefaultTolerances) {
  EXPECT_EQ(DefaultTolerance(PrimitiveType::kS32).abs, 0);
  EXPECT_EQ(DefaultTolerance(PrimitiveType::kPred).rel, 0);
  EXPECT_GT(DefaultTolerance(PrimitiveType::kBF16).rel, DefaultTolerance(PrimitiveType::kF16).rel);
  EXPECT_GT(DefaultTolerance(PrimitiveType::kF16).rel, DefaultTolerance(PrimitiveType::kF32).rel);
  EXPECT_GT(DefaultTolerance(PrimitiveType::kF32).rel, DefaultTolerance(PrimitiveType::kF64).rel);
}

TEST(EvalDataFile, RoundTrip) {
  DataFile d;
  d.inputs.push_back(Lit("f32[3]", {0.1, std::nan(""), -INFINITY}));
  d.inputs.push_back(Lit("bf16[2]", {1.5, -0.0078125}));
  d.inputs.push_back(Lit("pred[2]", {1, 0}));
  Literal u(Shape(PrimitiveType::kU64, {1}));
  u.Set<uint64_t>(0, 18446744073709551615ull);
  d.outputs.push_back(u);
  d.outputs.push_back(Lit("s8[2]", {-128, 127}));
  std::string path = (std::filesystem::temp_directory_path() / "hloscope_eval_io_test.json").string();
  ASSERT_TRUE(WriteDataFile(path, d).ok());
  auto r = ReadDataFile(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->inputs.size(), 3u);
  ASSERT_EQ(r->outputs.size(), 2u);
  EXPECT_EQ(CompareLiterals(d.inputs[0], r->inputs[0], Tolerance{0, 0}), "");
  EXPECT_TRUE(r->inputs[1] == d.inputs[1]);
  EXPECT_TRUE(r->inputs[2] == d.inputs[2]);
  EXPECT_TRUE(r->outputs[0] == d.outputs[0]);
  EXPECT_TRUE(r->outputs[1] == d.outputs[1]);
  std::remove(path.c_str());
}

TEST(EvalDataFile, ErrorsNameTheEntry) {
  std::string path = (std::filesystem::temp_directory_path() / "hloscope_eval_bad.json").string();
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(R"({"format":"hloscope-data-v1","inputs":[{"shape":"f32[2]","values":[1]}]})", f);
  std::fclose(f);
  auto r = ReadDataFile(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("inputs[0]"), std::string::npos) << r.status().message();
  std::remove(path.c_str());
}

TEST(EvalRandomInputs, DeterministicTypedAndIndexSafe) {
  auto m = ParseHloModule(R"(HloModule t
ENTRY e {
  t = f32[5,3] parameter(0)
  i = s32[7] parameter(1)
  d = s64[] parameter(2)
  b = bf16[4] parameter(3)
  p = pred[4] parameter(4)
  g = f32[7,3] gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  z = s64[] constant(0)
  ds = f32[2,3] dynamic-slice(t, d, z), dynamic_slice_sizes={2,3}
  ROOT r = (f32[7,3], f32[2,3], bf16[4], pred[4]) tuple(g, ds, b, p)
})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto a = MakeRandomInputs(*(*m)->entry(), 42);
  auto b = MakeRandomInputs(*(*m)->entry(), 42);
  auto c = MakeRandomInputs(*(*m)->entry(), 43);
  ASSERT_EQ(a.size(), 5u);
  for (size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(a[k] == b[k]);
  EXPECT_FALSE(a[0] == c[0]);
  for (double v : Vals(a[0])) {
    EXPECT_GE(v, -1);
    EXPECT_LT(v, 1);
  }
  for (int64_t v : Ints(a[1])) {
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 4);
  }
  EXPECT_GE(a[2].GetInt(0), 0);
  EXPECT_LE(a[2].GetInt(0), 3);
  EXPECT_EQ(a[3].shape().element_type(), PrimitiveType::kBF16);
  // Stable across machines: the first f32 value of seed 42 is fixed.
  EXPECT_EQ(F32Bits(a[0].GetDouble(0)), F32Bits(MakeRandomInputs(*(*m)->entry(), 42)[0].GetDouble(0)));
  auto r = EvaluateModule(**m, a);
  EXPECT_TRUE(r.ok()) << r.status().message();
}

}  // namespace
}  // namespace hloscope::testing
