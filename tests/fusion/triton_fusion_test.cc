// Today's XLA GPU fusions: `triton-gemm-rewriter` (XLA's GemmFusion),
// `triton-softmax-rewriter` (SoftmaxRewriterTriton) and priority fusion's
// rules around the Triton fusions they make. Cases follow XLA's
// gemm_fusion_test.cc and softmax_rewriter_triton_test.cc (shapes shrunk);
// every run is verified and checked against the interpreter after each pass.
#include "core/fusion/triton_fusibility.h"
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

std::string BackendKindOf(const FusionRun& r, const std::string& member) {
  const Instruction* f = r.Find(r.Group(member));
  return f ? FusionBackendKind(*f) : "";
}

// XLA: a dot with a bias-add epilogue and a convert prologue is one GEMM
// fusion, kind=kCustom, __triton_gemm.
TEST(GemmFusion, PrologueAndEpilogue) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = bf16[16,32] parameter(0)
  w = f32[32,24] parameter(1)
  b = f32[24] parameter(2)
  xc = f32[16,32] convert(x)
  dot = f32[16,24] dot(xc, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[16,24] broadcast(b), dimensions={1}
  ROOT add = f32[16,24] add(dot, bb)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("dot"), "");
  EXPECT_EQ(r.Group("xc"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("add"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("bb"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.KindOf("dot"), "kCustom");
  EXPECT_EQ(BackendKindOf(r, "dot"), "__triton_gemm");
  EXPECT_EQ(r.Group("dot").rfind("gemm_fusion_dot", 0), 0u) << r.Group("dot");
  EXPECT_EQ(r.CountFusions(), 1);
}

// A layer norm's scale and bias (binary ops with a broadcast parameter) join
// the GEMM's prologue; the normalization itself (computed from reductions)
// stays outside.
TEST(GemmFusion, ScaleAndBiasPrologueStopsAtComputedValues) {
  FusionRun r = RunFusion("triton-gemm-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[16,32] parameter(0)
  g = f32[32] parameter(1)
  b = f32[32] parameter(2)
  w = f32[32,24] parameter(3)
  c0 = f32[] constant(0)
  s = f32[16] reduce(x, c0), dimensions={1}, to_apply=scalar_add
  sb = f32[16,32] broadcast(s), dimensions={0}
  n = f32[16,32] subtract(x, sb)
  gb = f32[16,32] broadcast(g), dimensions={1}
  scaled = f32[16,32] multiply(n, gb)
  bb = f32[16,32] broadcast(b), dimensions={1}
  shifted = f32[16,32] add(scaled, bb)
  ROOT dot = f32[16,24] dot(shifted, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("scaled"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("shifted"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("n"), "") << r.Text();
  EXPECT_EQ(r.Group("s"), "") << r.Text();
}

// XLA's IsInputWorthFusing: on tensors of at most 1 KiB every elementwise op
// adds at most 1 KiB of input traffic, so a whole activation (a bf16 tanh
// GELU, as XLA GPU fuses mlp_gelu_bf16's) joins the second GEMM's prologue,
// even ops with several users.
TEST(GemmFusion, SmallActivationJoinsThePrologue) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  h = bf16[4,32] parameter(0)
  w = bf16[32,8] parameter(1)
  sq = bf16[4,32] multiply(h, h)
  cu = bf16[4,32] multiply(sq, h)
  c = bf16[] constant(0.04468)
  cb = bf16[4,32] broadcast(c), dimensions={}
  k = bf16[4,32] multiply(cu, cb)
  a = bf16[4,32] add(h, k)
  f = f32[4,32] convert(a)
  t = f32[4,32] tanh(f)
  tb = bf16[4,32] convert(t)
  g = bf16[4,32] multiply(h, tb)
  ROOT dot = bf16[4,8] dot(g, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_TRUE(r.changed);
  for (const char* x : {"sq", "cu", "k", "a", "f", "t", "tb", "g"}) EXPECT_EQ(r.Group(x), r.Group("dot")) << x << r.Text();
  EXPECT_EQ(r.CountFusions(), 1);
}

// The same activation on 8 KiB f32 tensors: a binary op of two computed
// values adds 8 KiB of input traffic, so it stays outside (XLA GPU keeps
// mlp_gelu's f32 GELU as a loop fusion); unary ops next to the dot join.
TEST(GemmFusion, LargeBinaryOpsOfComputedValuesStayOutside) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  h = f32[32,64] parameter(0)
  w = f32[64,8] parameter(1)
  t = f32[32,64] tanh(h)
  g = f32[32,64] multiply(h, t)
  e = f32[32,64] exponential(g)
  ROOT dot = f32[32,8] dot(e, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("e"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("g"), "") << r.Text();
  EXPECT_EQ(r.Group("t"), "") << r.Text();
}

// A transpose whose result a reshape merges (attention's [b, s, h, d] →
// [b, s, h·d] before the output projection) stays out of the prologue: the
// merged dimension is not contiguous in the transpose's input.
TEST(GemmFusion, TransposeMergedByAReshapeStaysOutside) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  a = f32[2,4,8,8] parameter(0)
  w = f32[32,16] parameter(1)
  n = f32[2,4,8,8] negate(a)
  t = f32[2,8,4,8] transpose(n), dimensions={0,2,1,3}
  r = f32[16,32] reshape(t)
  ROOT dot = f32[16,16] dot(r, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("r"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("t"), "") << r.Text();
}

// The dot decomposer's weight-gradient operand: [b, s, d] → [d, b, s] →
// [d, b·s]. The merged b and s stay adjacent and in order, so Triton's tiling
// follows the transpose and it joins the prologue.
TEST(GemmFusion, TransposeKeepingMergedDimsAdjacentJoins) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  g = f32[2,8,32] parameter(0)
  x = f32[16,8] parameter(1)
  n = f32[2,8,32] negate(g)
  t = f32[32,2,8] transpose(n), dimensions={2,0,1}
  r = f32[32,16] reshape(t)
  ROOT dot = f32[32,8] dot(r, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("t"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("n"), r.Group("dot")) << r.Text();
}

// XLA computes a GEMM fusion's prologue in the dot's [16,8] shape and reads
// the [2,8,8] residual through a bitcast (HoistFusedBitcasts). Priority
// fusion therefore counts the GEMM as a bitcast user of the residual add:
// the add is computed again inside the layer-norm reduction that reads it,
// and kept for the GEMM.
TEST(GemmFusion, GemmReadingThroughAHoistedBitcastLetsTheProducerDuplicate) {
  const std::string hlo = std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  h = f32[4,16,32] parameter(0)
  y = f32[4,16,32] parameter(1)
  w = f32[32,16] parameter(2)
  res = f32[4,16,32] add(h, y)
  c0 = f32[] constant(0)
  s = f32[4,16] reduce(res, c0), dimensions={2}, to_apply=scalar_add
  e = f32[4,16,32] exponential(res)
  r = f32[64,32] reshape(e)
  dot = f32[64,16] dot(r, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[4,16], f32[64,16]) tuple(s, dot)
})";
  FusionRun r = RunFusion({"triton-gemm-rewriter", "priority_fusion"}, hlo);
  ASSERT_TRUE(r.module);
  const std::string gemm = r.Group("dot");
  ASSERT_NE(gemm, "") << r.Text();
  EXPECT_EQ(r.Group("e"), gemm) << r.Text();
  const Instruction* g = r.Find(gemm);
  ASSERT_NE(g, nullptr);
  // The GEMM reads `res` through the prologue's reshape.
  int64_t res_operand = -1;
  for (int64_t k = 0; k < g->operand_count(); ++k)
    if (g->operand(static_cast<int>(k))->name() == "res") res_operand = k;
  ASSERT_GE(res_operand, 0) << r.Text();
  EXPECT_TRUE(GemmReadsThroughHoistedBitcast(*g, res_operand));
  // The reduction's fusion computes its own copy of the add.
  const std::string red = r.Group("s");
  ASSERT_NE(red, "") << r.Text();
  const Instruction* f = r.Find(red);
  bool has_add = false;
  for (const auto& i : f->fused_computation()->instructions()) has_add |= i->opcode() == Opcode::kAdd;
  EXPECT_TRUE(has_add) << r.Text();
  const FusionDecision* d = r.DecisionFor("res", FusionVerdict::kFusedWithDuplication);
  ASSERT_NE(d, nullptr) << r.Text();
  EXPECT_NE(d->reason.find("kept for its bitcast users"), std::string::npos) << d->reason;
}

// No change: a GEMM whose prologue is in the residual's own shape reads it
// directly; the residual add then cannot be fused into the reduction (the
// GEMM takes no producers) and stays a kernel of its own.
TEST(GemmFusion, GemmReadingDirectlyKeepsTheProducerOut) {
  const std::string hlo = std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  h = f32[64,32] parameter(0)
  y = f32[64,32] parameter(1)
  w = f32[32,16] parameter(2)
  res = f32[64,32] add(h, y)
  c0 = f32[] constant(0)
  s = f32[64] reduce(res, c0), dimensions={1}, to_apply=scalar_add
  e = f32[64,32] exponential(res)
  dot = f32[64,16] dot(e, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[64], f32[64,16]) tuple(s, dot)
})";
  FusionRun r = RunFusion({"triton-gemm-rewriter", "priority_fusion"}, hlo);
  ASSERT_TRUE(r.module);
  const Instruction* g = r.Find(r.Group("dot"));
  ASSERT_NE(g, nullptr) << r.Text();
  for (int64_t k = 0; k < g->operand_count(); ++k) EXPECT_FALSE(GemmReadsThroughHoistedBitcast(*g, k));
  EXPECT_EQ(r.DecisionFor("res", FusionVerdict::kFusedWithDuplication), nullptr) << r.Text();
  EXPECT_NE(r.Group("s"), "") << r.Text();
  const Instruction* f = r.Find(r.Group("s"));
  for (const auto& i : f->fused_computation()->instructions()) EXPECT_NE(i->opcode(), Opcode::kAdd) << r.Text();
}

// The epilogue ends where the result has several users (GELU reads the dot
// three times): the activation stays outside.
TEST(GemmFusion, EpilogueStopsAtSeveralUsers) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[16,32] parameter(0)
  w = f32[32,24] parameter(1)
  dot = f32[16,24] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[16,24] tanh(dot)
  ROOT m = f32[16,24] multiply(t, dot)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("t"), "") << r.Text();
  EXPECT_EQ(r.Group("m"), "") << r.Text();
  EXPECT_EQ(BackendKindOf(r, "dot"), "__triton_gemm");
}

// No change: a dot too small for a GEMM kernel ((M + N) × K < 100) stays,
// with XLA's threshold in the reason.
TEST(GemmFusion, TinyDotStays) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[4,8,4] parameter(0)
  y = f32[4,8,4] parameter(1)
  ROOT dot = f32[4,8,8] dot(x, y), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}
})");
  EXPECT_FALSE(r.changed);
  const FusionDecision* d = r.DecisionFor("dot", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("< 100"), std::string::npos) << d->reason;
}

// No change: f64 dots and dots with HIGHEST precision are not Triton's.
TEST(GemmFusion, UnsupportedDotsStay) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f64[16,32] parameter(0)
  w = f64[32,24] parameter(1)
  a = f32[16,32] parameter(2)
  v = f32[32,24] parameter(3)
  d64 = f64[16,24] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  dhi = f32[16,24] dot(a, v), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={highest,highest}
  ROOT t = (f64[16,24], f32[16,24]) tuple(d64, dhi)
})");
  EXPECT_FALSE(r.changed);
  EXPECT_NE(r.DecisionFor("d64", FusionVerdict::kNotFused), nullptr);
  EXPECT_NE(r.DecisionFor("dhi", FusionVerdict::kNotFused), nullptr);
}

// XLA merges several batch dimensions into one with bitcasts the GEMM fusion
// does not cross: attention scores over [batch, heads] are a pure matmul and
// the scale stays outside; with one batch dimension the scale is an epilogue.
TEST(GemmFusion, MergedBatchDimensionsMakeAPureMatmul) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  q = f32[2,3,8,16] parameter(0)
  k = f32[2,3,8,16] parameter(1)
  dot = f32[2,3,8,8] dot(q, k), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={3}
  s = f32[] constant(0.25)
  sb = f32[2,3,8,8] broadcast(s), dimensions={}
  ROOT scaled = f32[2,3,8,8] multiply(dot, sb)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(BackendKindOf(r, "dot"), "__triton_gemm");
  EXPECT_EQ(r.Group("scaled"), "") << r.Text();

  FusionRun one = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  q = f32[6,8,16] parameter(0)
  k = f32[6,8,16] parameter(1)
  dot = f32[6,8,8] dot(q, k), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}
  s = f32[] constant(0.25)
  sb = f32[6,8,8] broadcast(s), dimensions={}
  ROOT scaled = f32[6,8,8] multiply(dot, sb)
})");
  EXPECT_EQ(one.Group("scaled"), one.Group("dot")) << one.Text();
}

constexpr const char* kMax = R"(
scalar_max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
)";

// XLA: a softmax is two diamonds (x − max, exp / sum): two Triton fusions.
TEST(SoftmaxRewriter, SoftmaxIsTwoDiamonds) {
  FusionRun r = RunFusion("triton-softmax-rewriter", std::string("HloModule m\n") + kAdd + kMax + R"(
ENTRY main {
  x = f32[8,16] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[8] reduce(x, ninf), dimensions={1}, to_apply=scalar_max
  mxb = f32[8,16] broadcast(mx), dimensions={0}
  sub = f32[8,16] subtract(x, mxb)
  e = f32[8,16] exponential(sub)
  c0 = f32[] constant(0)
  sum = f32[8] reduce(e, c0), dimensions={1}, to_apply=scalar_add
  sumb = f32[8,16] broadcast(sum), dimensions={0}
  ROOT div = f32[8,16] divide(e, sumb)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("mx"), r.Group("sub")) << r.Text();
  EXPECT_EQ(r.Group("sum"), r.Group("div")) << r.Text();
  EXPECT_NE(r.Group("sub"), r.Group("div"));
  EXPECT_EQ(r.Group("e"), "") << "exp has two users: it is the second diamond's producer\n" << r.Text();
  EXPECT_EQ(BackendKindOf(r, "div"), "__triton");
  EXPECT_EQ(r.Group("div").rfind("triton_softmax", 0), 0u);
}

// Then priority fusion joins the diamonds and the exp into one kernel.
TEST(SoftmaxRewriter, PriorityFusionJoinsTheDiamonds) {
  FusionRun r = RunFusion({"triton-softmax-rewriter", "priority_fusion"},
                          std::string("HloModule m\n") + kAdd + kMax + R"(
ENTRY main {
  x = f32[8,16] parameter(0)
  s = f32[] constant(0.125)
  sb = f32[8,16] broadcast(s), dimensions={}
  xs = f32[8,16] multiply(x, sb)
  ninf = f32[] constant(-inf)
  mx = f32[8] reduce(xs, ninf), dimensions={1}, to_apply=scalar_max
  mxb = f32[8,16] broadcast(mx), dimensions={0}
  sub = f32[8,16] subtract(xs, mxb)
  e = f32[8,16] exponential(sub)
  c0 = f32[] constant(0)
  sum = f32[8] reduce(e, c0), dimensions={1}, to_apply=scalar_add
  sumb = f32[8,16] broadcast(sum), dimensions={0}
  ROOT div = f32[8,16] divide(e, sumb)
})");
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  for (const char* n : {"xs", "mx", "sub", "e", "sum", "div"}) EXPECT_EQ(r.Group(n), r.Group("div")) << n;
  EXPECT_EQ(BackendKindOf(r, "div"), "__triton");
}

// A layer norm (mean and variance diamonds, then scale and bias) ends as one
// Triton kernel.
TEST(SoftmaxRewriter, LayerNormIsOneKernel) {
  FusionRun r = RunFusion({"triton-softmax-rewriter", "priority_fusion"}, std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[8,32] parameter(0)
  g = f32[32] parameter(1)
  b = f32[32] parameter(2)
  c0 = f32[] constant(0)
  inv = f32[] constant(0.03125)
  invb = f32[8] broadcast(inv), dimensions={}
  s = f32[8] reduce(x, c0), dimensions={1}, to_apply=scalar_add
  mean = f32[8] multiply(s, invb)
  meanb = f32[8,32] broadcast(mean), dimensions={0}
  d = f32[8,32] subtract(x, meanb)
  sq = f32[8,32] multiply(d, d)
  v = f32[8] reduce(sq, c0), dimensions={1}, to_apply=scalar_add
  var = f32[8] multiply(v, invb)
  eps = f32[] constant(1e-5)
  epsb = f32[8] broadcast(eps), dimensions={}
  ve = f32[8] add(var, epsb)
  rs = f32[8] rsqrt(ve)
  rsb = f32[8,32] broadcast(rs), dimensions={0}
  n = f32[8,32] multiply(d, rsb)
  gb = f32[8,32] broadcast(g), dimensions={1}
  ng = f32[8,32] multiply(n, gb)
  bb = f32[8,32] broadcast(b), dimensions={1}
  ROOT out = f32[8,32] add(ng, bb)
})");
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  for (const char* n : {"s", "d", "sq", "v", "rs", "n", "ng", "out"}) EXPECT_EQ(r.Group(n), r.Group("out")) << n;
  EXPECT_EQ(BackendKindOf(r, "out"), "__triton");
}

// No change: a column reduction, and a row reduction whose result is also
// an output (a Triton fusion has one output), are no diamonds.
TEST(SoftmaxRewriter, NoDiamond) {
  FusionRun r = RunFusion("triton-softmax-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[8,16] parameter(0)
  c0 = f32[] constant(0)
  col = f32[16] reduce(x, c0), dimensions={0}, to_apply=scalar_add
  colb = f32[8,16] broadcast(col), dimensions={1}
  a = f32[8,16] subtract(x, colb)
  row = f32[8] reduce(x, c0), dimensions={1}, to_apply=scalar_add
  rowb = f32[8,16] broadcast(row), dimensions={0}
  b = f32[8,16] subtract(x, rowb)
  ROOT t = (f32[8,16], f32[8,16], f32[8]) tuple(a, b, row)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  const FusionDecision* d = r.DecisionFor("col", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("row reduction"), std::string::npos) << d->reason;
}

// Priority fusion: a Triton fusion does not take a transpose (rows would be
// broken), and a GEMM fusion takes no consumers.
TEST(SoftmaxRewriter, TritonRefusesTransposeAndGemmTakesNoConsumers) {
  FusionRun r = RunFusion({"triton-gemm-rewriter", "triton-softmax-rewriter", "priority_fusion"},
                          std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[16,32] parameter(0)
  w = f32[32,16] parameter(1)
  dot = f32[16,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  tr = f32[16,16] transpose(dot), dimensions={1,0}
  c0 = f32[] constant(0)
  s = f32[16] reduce(tr, c0), dimensions={1}, to_apply=scalar_add
  sb = f32[16,16] broadcast(s), dimensions={0}
  ROOT d = f32[16,16] subtract(tr, sb)
})");
  EXPECT_NE(r.Group("tr"), r.Group("d")) << r.Text();
  EXPECT_NE(r.Group("tr"), r.Group("dot")) << r.Text();
  EXPECT_EQ(BackendKindOf(r, "d"), "__triton");
  EXPECT_EQ(BackendKindOf(r, "dot"), "__triton_gemm");
}

}  // namespace
}  // namespace hloscope::fusion_testing
