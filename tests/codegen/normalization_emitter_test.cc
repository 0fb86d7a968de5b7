// The normalization emitter (core/codegen/normalization_emitter.cc): softmax,
// layer norm and RMSNorm fusions as one kernel with a warp or block per row,
// run on the CPU against the interpreter; fusions it refuses keep the
// elemental fallback.
#include <regex>

#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;
using testing::RunAndCompare;

constexpr const char* kReducers = R"hlo(
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] maximum(a, b) }
imx { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT s = s32[] maximum(a, b) }
)hlo";

// Softmax over the rows of T (V: a row's values), as XLA's triton_softmax.
std::string SoftmaxTemplate() {
  return std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  p = T parameter(0)
  ninf = f32[] constant(-inf)
  m = V reduce(p, ninf), dimensions={1}, to_apply=mx
  mb = T broadcast(m), dimensions={0}
  d = T subtract(p, mb)
  e = T exponential(d)
  z = f32[] constant(0)
  s = V reduce(e, z), dimensions={1}, to_apply=add
  sb = T broadcast(s), dimensions={0}
  ROOT o = T divide(e, sb)
}
ENTRY main {
  x = T parameter(0)
  ROOT f = T fusion(x), kind=kCustom, calls=fused, backend_config={"fusion_backend_config":{"kind":"__triton"}}
})hlo";
}

std::string Fill(std::string text, const std::string& t, const std::string& v) {
  text = std::regex_replace(text, std::regex(R"(\bT\b)"), t);
  return std::regex_replace(text, std::regex(R"(\bV\b)"), v);
}

std::string SoftmaxText(int64_t r, int64_t c, const std::string& layout = "{1,0}") {
  return Fill(SoftmaxTemplate(), "f32[" + std::to_string(r) + "," + std::to_string(c) + "]" + layout,
              "f32[" + std::to_string(r) + "]{0}");
}

TEST(NormalizationEmitter, SoftmaxIsAWarpPerRow) {
  const std::string text = SoftmaxText(6, 100);
  auto e = EmitFor(text, "f", &EmitNormalizationKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "normalization");
  EXPECT_EQ(e.kernel.dims.block[0], 256u);
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);  // 8 rows a block
  EXPECT_NE(e.ir.find("shfl.sync.down"), std::string::npos);
  EXPECT_NE(e.ir.find("shfl.sync.idx"), std::string::npos);  // the row's value to every lane
  EXPECT_EQ(e.ir.find("barrier"), std::string::npos);
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 1, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"normalization"});
}

TEST(NormalizationEmitter, LongRowsUseABlockAndSharedMemory) {
  for (auto [r, c, block] : {std::tuple<int64_t, int64_t, uint32_t>{3, 1000, 256}, {2, 5000, 1024}}) {
    const std::string text = SoftmaxText(r, c);
    auto e = EmitFor(text, "f", &EmitNormalizationKernel);
    ASSERT_EQ(e.error, "") << e.ir;
    EXPECT_EQ(e.kernel.dims.block[0], block) << c;
    EXPECT_EQ(e.kernel.dims.grid[0], static_cast<uint32_t>(r));  // a block per row
    EXPECT_NE(e.ir.find("addrspace(3)"), std::string::npos);
    EXPECT_NE(e.ir.find("barrier"), std::string::npos);
    EXPECT_EQ(RunAndCompare(text, 2), "") << r << "x" << c;
  }
}

TEST(NormalizationEmitter, RowsAcrossAColumnMajorLayout) {
  // Rows along logical dim 1 of f32[70,40]{0,1}: the reduce over dim 1 reads
  // strided, still one row per warp.
  EXPECT_EQ(RunAndCompare(SoftmaxText(40, 70, "{0,1}"), 3), "");
}

TEST(NormalizationEmitter, LayerNormWithNestedReductions) {
  // Variance reads the mean inside its own reduction: the mean is computed
  // first, once per row, and read from a register in the variance's loop.
  std::string text = std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = f32[4,3,768]{2,1,0} parameter(0)
  g = f32[768]{0} parameter(1)
  bt = f32[768]{0} parameter(2)
  z = f32[] constant(0)
  n = f32[] constant(768)
  s = f32[4,3]{1,0} reduce(x, z), dimensions={2}, to_apply=add
  nb = f32[4,3]{1,0} broadcast(n), dimensions={}
  mean = f32[4,3]{1,0} divide(s, nb)
  mb = f32[4,3,768]{2,1,0} broadcast(mean), dimensions={0,1}
  c = f32[4,3,768]{2,1,0} subtract(x, mb)
  c2 = f32[4,3,768]{2,1,0} multiply(c, c)
  v = f32[4,3]{1,0} reduce(c2, z), dimensions={2}, to_apply=add
  var = f32[4,3]{1,0} divide(v, nb)
  eps = f32[] constant(1e-5)
  eb = f32[4,3]{1,0} broadcast(eps), dimensions={}
  ve = f32[4,3]{1,0} add(var, eb)
  rs = f32[4,3]{1,0} rsqrt(ve)
  rb = f32[4,3,768]{2,1,0} broadcast(rs), dimensions={0,1}
  y = f32[4,3,768]{2,1,0} multiply(c, rb)
  gb = f32[4,3,768]{2,1,0} broadcast(g), dimensions={2}
  bb = f32[4,3,768]{2,1,0} broadcast(bt), dimensions={2}
  yg = f32[4,3,768]{2,1,0} multiply(y, gb)
  ROOT o = f32[4,3,768]{2,1,0} add(yg, bb)
}
ENTRY main {
  x = f32[4,3,768]{2,1,0} parameter(0)
  g = f32[768]{0} parameter(1)
  b = f32[768]{0} parameter(2)
  ROOT f = f32[4,3,768]{2,1,0} fusion(x, g, b), kind=kLoop, calls=fused
})hlo";
  auto e = EmitFor(text, "f", &EmitNormalizationKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.dims.grid[0], 12u);  // 4×3 rows, a block each
  EXPECT_EQ(e.kernel.dims.block[0], 256u);
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 4, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"normalization"});
}

TEST(NormalizationEmitter, Bf16RmsNormThroughDegenerateBitcasts) {
  // RMSNorm in bf16 with f32 sums, the row value reshaped to [R,1] and back
  // (size-1 dims added and dropped keep the row).
  std::string text = std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = bf16[5,300]{1,0} parameter(0)
  xf = f32[5,300]{1,0} convert(x)
  sq = f32[5,300]{1,0} multiply(xf, xf)
  z = f32[] constant(0)
  s = f32[5]{0} reduce(sq, z), dimensions={1}, to_apply=add
  s1 = f32[5,1]{1,0} bitcast(s)
  s2 = f32[1,5]{1,0} reshape(s1)
  s3 = f32[5]{0} reshape(s2)
  inv = f32[] constant(0.00333333)
  ib = f32[5]{0} broadcast(inv), dimensions={}
  ms = f32[5]{0} multiply(s3, ib)
  r = f32[5]{0} rsqrt(ms)
  rb = f32[5,300]{1,0} broadcast(r), dimensions={0}
  y = f32[5,300]{1,0} multiply(xf, rb)
  ROOT o = bf16[5,300]{1,0} convert(y)
}
ENTRY main {
  x = bf16[5,300]{1,0} parameter(0)
  ROOT f = bf16[5,300]{1,0} fusion(x), kind=kLoop, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 5, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"normalization"});
}

TEST(NormalizationEmitter, IntegerMaxAndPredicateOutputsInOneKernel) {
  // Two outputs of the row's shape: which elements equal their row's max
  // (s32), and the max broadcast back.
  std::string text = std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = s32[7,64]{1,0} parameter(0)
  lo = s32[] constant(-2147483648)
  m = s32[7]{0} reduce(x, lo), dimensions={1}, to_apply=imx
  mb = s32[7,64]{1,0} broadcast(m), dimensions={0}
  eq = pred[7,64]{1,0} compare(x, mb), direction=EQ
  ROOT t = (pred[7,64]{1,0}, s32[7,64]{1,0}) tuple(eq, mb)
}
ENTRY main {
  x = s32[7,64]{1,0} parameter(0)
  ROOT f = (pred[7,64]{1,0}, s32[7,64]{1,0}) fusion(x), kind=kLoop, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 6, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"normalization"});
}

TEST(NormalizationEmitter, RefusalsKeepTheElementalFallback) {
  struct Case {
    std::string text, why;
  };
  std::vector<Case> cases;
  // Rows of 16: too short to be worth it.
  cases.push_back({SoftmaxText(4, 16), "reduces fewer than 32 elements"});
  // A reshape that merges the row dims: the reduce's rows are not the root's.
  cases.push_back({std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = f32[2,3,50]{2,1,0} parameter(0)
  z = f32[] constant(0)
  s = f32[2,3]{1,0} reduce(x, z), dimensions={2}, to_apply=add
  r = f32[6]{0} reshape(s)
  ROOT o = f32[6,50]{1,0} broadcast(r), dimensions={0}
}
ENTRY main {
  x = f32[2,3,50]{2,1,0} parameter(0)
  ROOT f = f32[6,50]{1,0} fusion(x), kind=kLoop, calls=fused
})hlo",
                   "splits or merges dimensions"});
  // A slice between the reduce and the output.
  cases.push_back({std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = f32[8,64]{1,0} parameter(0)
  z = f32[] constant(0)
  s = f32[8]{0} reduce(x, z), dimensions={1}, to_apply=add
  sl = f32[4]{0} slice(s), slice={[2:6]}
  ROOT o = f32[4,64]{1,0} broadcast(sl), dimensions={0}
}
ENTRY main {
  x = f32[8,64]{1,0} parameter(0)
  ROOT f = f32[4,64]{1,0} fusion(x), kind=kLoop, calls=fused
})hlo",
                   "slice %sl lies between a reduce and the outputs"});
  for (const Case& c : cases) {
    auto parsed = ParseHloModule(c.text, "t.hlo");
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    const Instruction* f = testing::FindInstr(**parsed, "f");
    Status why = CheckNormalization(*f);
    ASSERT_FALSE(why.ok()) << c.why;
    EXPECT_NE(why.message().find(c.why), std::string::npos) << why.message();
    std::vector<std::string> kinds;
    EXPECT_EQ(RunAndCompare(c.text, 7, &kinds), "") << c.why;
    EXPECT_EQ(kinds, std::vector<std::string>{"elemental"}) << c.why;
  }
}

TEST(NormalizationEmitter, AReduceAtTheRootStaysWithTheReductionEmitter) {
  std::string text = std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = f32[8,64]{1,0} parameter(0)
  z = f32[] constant(0)
  s = f32[8]{0} reduce(x, z), dimensions={1}, to_apply=add
  ROOT q = f32[8]{0} sqrt(s)
}
ENTRY main {
  x = f32[8,64]{1,0} parameter(0)
  ROOT f = f32[8]{0} fusion(x), kind=kInput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 8, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"row-reduction"});
}

}  // namespace
}  // namespace hloscope::codegen
