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
  for (auto [r, c, block] : {std::tuple<int64_t, int64_t, uint32_t>{3, 2000, 256}, {2, 5000, 1024}}) {
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
  EXPECT_EQ(e.kernel.dims.grid[0], 2u);  // 4×3 rows, a warp each, 8 a block
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

// Softmax of bf16 rows computed in f32, as XLA's bf16 triton_softmax.
std::string Bf16SoftmaxText(int64_t r, int64_t c) {
  const std::string t = "[" + std::to_string(r) + "," + std::to_string(c) + "]{1,0}";
  return std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = bf16)hlo" + t + R"hlo( parameter(0)
  p = f32)hlo" + t + R"hlo( convert(x)
  ninf = f32[] constant(-inf)
  m = f32[)hlo" + std::to_string(r) + R"hlo(]{0} reduce(p, ninf), dimensions={1}, to_apply=mx
  mb = f32)hlo" + t + R"hlo( broadcast(m), dimensions={0}
  d = f32)hlo" + t + R"hlo( subtract(p, mb)
  e = f32)hlo" + t + R"hlo( exponential(d)
  z = f32[] constant(0)
  s = f32[)hlo" + std::to_string(r) + R"hlo(]{0} reduce(e, z), dimensions={1}, to_apply=add
  sb = f32)hlo" + t + R"hlo( broadcast(s), dimensions={0}
  o = f32)hlo" + t + R"hlo( divide(e, sb)
  ROOT ob = bf16)hlo" + t + R"hlo( convert(o)
}
ENTRY main {
  x = bf16)hlo" + t + R"hlo( parameter(0)
  ROOT f = bf16)hlo" + t + R"hlo( fusion(x), kind=kCustom, calls=fused, backend_config={"fusion_backend_config":{"kind":"__triton"}}
})hlo";
}

// The PTX of the module's single kernel for `sm` (checked by ptxas when it is
// installed), or an error in `kind`.
struct Ptx {
  std::string kind, ptx;
};
Ptx PtxFor(const std::string& text, const std::string& sm) {
  CodegenOptions opts;
  opts.sm = sm;
  opts.validate = !PtxasPath().empty();
  auto compiled = CompileText(text, "test.hlo", "", opts);
  if (!compiled.ok()) return {"error: " + compiled.status().message(), ""};
  if (compiled->codegen.kernels.size() != 1) return {"error: not one kernel", ""};
  return {compiled->codegen.kernels[0].kind, compiled->codegen.kernels[0].ptx};
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool Has(const std::string& ptx, const std::string& re) { return std::regex_search(ptx, std::regex(re)); }

TEST(NormalizationEmitter, RowsMoveAsSixteenByteVectors) {
  // f32 rows of 768 (a block of 256 per row): each thread loads and stores 4
  // floats at once (the parameter is read-only: ld.global.nc.v4.f32). bf16
  // rows of 1024: 8 bf16 at once, 16 bytes as four 32-bit words
  // (ld.global.nc.v4.u32, st.global.v4.b32).
  for (const char* sm : {"sm_80", "sm_90"}) {
    Ptx f32 = PtxFor(SoftmaxText(4, 768), sm);
    ASSERT_EQ(f32.kind, "normalization") << sm;
    EXPECT_TRUE(Has(f32.ptx, R"(ld\.global(\.nc)?\.v4\.f32)")) << sm << f32.ptx;
    EXPECT_TRUE(Has(f32.ptx, R"(st\.global\.v4\.f32)")) << sm;
    Ptx bf16 = PtxFor(Bf16SoftmaxText(3, 1024), sm);
    ASSERT_EQ(bf16.kind, "normalization") << sm;
    EXPECT_TRUE(Has(bf16.ptx, R"(ld\.global(\.nc)?\.v4\.[ub]32)")) << sm << "\n" << bf16.ptx;
    EXPECT_TRUE(Has(bf16.ptx, R"(st\.global\.v4\.[ub]32)")) << sm;
  }
  EXPECT_EQ(RunAndCompare(SoftmaxText(4, 768), 9), "");
  EXPECT_EQ(RunAndCompare(Bf16SoftmaxText(3, 1024), 10), "");
}

TEST(NormalizationEmitter, ShortRowsAreLoadedOnceForAllPasses) {
  // 768 per row, a warp: 24 elements a lane in 6 vectors, loaded once (six
  // vector loads in the IR) for the max, the sum and the outputs. 40000 per
  // row, 1024 threads: 40 a thread, over the register budget; each pass
  // reloads.
  auto e = EmitFor(SoftmaxText(2, 768), "f", &EmitNormalizationKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(Count(e.ir, "load <4 x float>"), 6u) << e.ir;
  EXPECT_EQ(Count(e.ir, "store <4 x float>"), 6u);
  auto l = EmitFor(SoftmaxText(2, 40000), "f", &EmitNormalizationKernel);
  ASSERT_EQ(l.error, "") << l.ir;
  EXPECT_EQ(l.kernel.dims.block[0], 1024u);
  EXPECT_EQ(Count(l.ir, "load <4 x float>"), 3u);
  EXPECT_EQ(RunAndCompare(SoftmaxText(2, 40000), 11), "");
}

TEST(NormalizationEmitter, OddRowsFallBackToScalarAccesses) {
  // Rows of 33 and 1001: no dim a vector divides, scalar loads and stores
  // (ld.global.nc.f32); 34: pairs (v2). Rows of 1
  // are the reduction's shape, not a normalization (the elemental fallback).
  for (int64_t c : {33, 1001}) {
    Ptx p = PtxFor(SoftmaxText(5, c), "sm_90");
    ASSERT_EQ(p.kind, "normalization") << c;
    EXPECT_EQ(p.ptx.find("ld.global.v"), std::string::npos) << c;
    EXPECT_EQ(p.ptx.find("st.global.v"), std::string::npos) << c;
    EXPECT_EQ(RunAndCompare(SoftmaxText(5, c), 12), "") << c;
  }
  Ptx pairs = PtxFor(SoftmaxText(5, 34), "sm_90");
  ASSERT_EQ(pairs.kind, "normalization");
  EXPECT_TRUE(Has(pairs.ptx, R"(ld\.global(\.nc)?\.v2\.f32)")) << pairs.ptx;
  EXPECT_EQ(RunAndCompare(SoftmaxText(5, 34), 13), "");
  EXPECT_EQ(RunAndCompare(SoftmaxText(7, 1000), 14), "");  // 250 chunks of 4 for 256 threads
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(SoftmaxText(40, 1), 15, &kinds), "");
  EXPECT_NE(kinds, std::vector<std::string>{"normalization"});
}

TEST(NormalizationEmitter, Bf16LayerNormWithVectorScaleAndBias) {
  // Gamma and beta are read along the row: vector loads too. A warp per row
  // of 512, 8 bf16 a chunk, 2 chunks a thread: x's loaded once for both
  // reductions and the outputs, gamma's and beta's: six <8 x bfloat> loads.
  std::string text = std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  xb = bf16[6,512]{1,0} parameter(0)
  g = bf16[512]{0} parameter(1)
  bt = bf16[512]{0} parameter(2)
  x = f32[6,512]{1,0} convert(xb)
  z = f32[] constant(0)
  n = f32[] constant(512)
  s = f32[6]{0} reduce(x, z), dimensions={1}, to_apply=add
  nb = f32[6]{0} broadcast(n), dimensions={}
  mean = f32[6]{0} divide(s, nb)
  mb = f32[6,512]{1,0} broadcast(mean), dimensions={0}
  c = f32[6,512]{1,0} subtract(x, mb)
  c2 = f32[6,512]{1,0} multiply(c, c)
  v = f32[6]{0} reduce(c2, z), dimensions={1}, to_apply=add
  var = f32[6]{0} divide(v, nb)
  eps = f32[] constant(1e-5)
  eb = f32[6]{0} broadcast(eps), dimensions={}
  ve = f32[6]{0} add(var, eb)
  rs = f32[6]{0} rsqrt(ve)
  rb = f32[6,512]{1,0} broadcast(rs), dimensions={0}
  y = f32[6,512]{1,0} multiply(c, rb)
  gf = f32[512]{0} convert(g)
  bf = f32[512]{0} convert(bt)
  gb = f32[6,512]{1,0} broadcast(gf), dimensions={1}
  bb = f32[6,512]{1,0} broadcast(bf), dimensions={1}
  yg = f32[6,512]{1,0} multiply(y, gb)
  o = f32[6,512]{1,0} add(yg, bb)
  ROOT ob = bf16[6,512]{1,0} convert(o)
}
ENTRY main {
  x = bf16[6,512]{1,0} parameter(0)
  g = bf16[512]{0} parameter(1)
  b = bf16[512]{0} parameter(2)
  ROOT f = bf16[6,512]{1,0} fusion(x, g, b), kind=kLoop, calls=fused
})hlo";
  auto e = EmitFor(text, "f", &EmitNormalizationKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(Count(e.ir, "load <8 x bfloat>"), 6u) << e.ir;
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 16, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"normalization"});
}

TEST(NormalizationEmitter, ParametersReadAtTwoIndicesStayScalar) {
  // x is read along the row and, transposed, across it: both reads go
  // through the elemental emitter's scalar loads; the result is unchanged.
  std::string text = std::string("HloModule m\n") + kReducers + R"hlo(
fused {
  x = f32[64,64]{1,0} parameter(0)
  xt = f32[64,64]{1,0} transpose(x), dimensions={1,0}
  y = f32[64,64]{1,0} add(x, xt)
  z = f32[] constant(0)
  s = f32[64]{0} reduce(y, z), dimensions={1}, to_apply=add
  sb = f32[64,64]{1,0} broadcast(s), dimensions={0}
  ROOT o = f32[64,64]{1,0} divide(x, sb)
}
ENTRY main {
  x = f32[64,64]{1,0} parameter(0)
  ROOT f = f32[64,64]{1,0} fusion(x), kind=kLoop, calls=fused
})hlo";
  auto e = EmitFor(text, "f", &EmitNormalizationKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(Count(e.ir, "load <4 x float>"), 1u) << e.ir;  // the outputs' pass reads x at one index
  std::vector<std::string> kinds;
  EXPECT_EQ(RunAndCompare(text, 17, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"normalization"});
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
