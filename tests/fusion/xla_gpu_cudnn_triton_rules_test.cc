// Rules of today's XLA GPU for the kernels it does not write as loop or
// reduction fusions: convolutions become cuDNN library calls in the layout
// XLA gives them (ConvRewriter, HeuristicLayoutAssignment; checked against
// modules XLA GPU itself compiled), GEMM fusions take XLA's epilogues and
// prologues (GemmFusion, triton_tiling_propagation.cc), and priority fusion
// recomputes a Triton softmax fusion in consumers it can tile by rows.
// Changed and no-change cases; RunFusion checks every result against the
// interpreter. Reductions, priority fusion's limits and multi-output
// fusion: xla_gpu_loop_fusion_rules_test.cc.
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/ir/custom_calls.h"
#include "tests/fusion/fusion_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::fusion_testing {
namespace {

// --- convolutions as cuDNN calls (conv-rewriter) ----------------------------

const Instruction* OnlyCudnnCall(const FusionRun& r) {
  const Instruction* call = nullptr;
  for (const auto& i : r.module->entry()->instructions())
    if (i->opcode() == Opcode::kCustomCall) {
      EXPECT_EQ(call, nullptr) << r.Text();
      call = i.get();
    }
  return call;
}

int Count(const FusionRun& r, Opcode op) {
  int n = 0;
  for (const auto& i : r.module->entry()->instructions()) n += i->opcode() == op;
  return n;
}

// JAX's NHWC convolution with an HWIO filter (resnet_block's): on Hopper the
// call takes NHWC as it is, and the filter is transposed to OHWI (o01i).
TEST(XlaGpuRules, ConvolutionBecomesACudnnCallWithItsFilterTransposed) {
  FusionRun r = RunFusion("conv-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[2,8,8,4] parameter(0)
  w = f32[3,3,4,8] parameter(1)
  ROOT c = f32[2,4,4,8] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})");
  EXPECT_TRUE(r.changed);
  const Instruction* call = OnlyCudnnCall(r);
  ASSERT_NE(call, nullptr) << r.Text();
  EXPECT_EQ(call->attrs().custom_call_target, "__cudnn$convForward");
  EXPECT_EQ(ConvDnumsToString(*call->attrs().conv), "b01f_o01i->b01f");
  EXPECT_EQ(call->operand(0)->name(), "x");
  EXPECT_EQ(call->operand(1)->opcode(), Opcode::kTranspose);
  EXPECT_EQ(call->operand(1)->dimensions(), (std::vector<int64_t>{3, 0, 1, 2}));
  EXPECT_EQ(call->shape().ToString(false), "(f32[2,4,4,8], u8[0])");
  EXPECT_EQ(r.module->entry()->root()->opcode(), Opcode::kGetTupleElement) << r.Text();
  EXPECT_EQ(Count(r, Opcode::kTranspose), 1) << r.Text();
  const FusionDecision* d = r.DecisionFor("c", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("NHWC"), std::string::npos) << d->reason;
}

// An NCHW convolution goes to cuDNN in NHWC on Hopper: the input is
// transposed in, the result transposed back to the module's order.
TEST(XlaGpuRules, NchwConvolutionIsTransposedToNhwcAndBack) {
  FusionRun r = RunFusion("conv-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[2,3,9,7] parameter(0)
  w = f32[5,3,2,2] parameter(1)
  ROOT c = f32[2,5,8,6] convolution(x, w), window={size=2x2}, dim_labels=bf01_oi01->bf01
})");
  EXPECT_TRUE(r.changed);
  const Instruction* call = OnlyCudnnCall(r);
  ASSERT_NE(call, nullptr) << r.Text();
  EXPECT_EQ(ConvDnumsToString(*call->attrs().conv), "b01f_o01i->b01f");
  EXPECT_EQ(Count(r, Opcode::kTranspose), 3) << r.Text();  // input, filter, result
  EXPECT_EQ(r.module->entry()->root()->opcode(), Opcode::kTranspose);
}

// f64 is NCHW in XLA (cuDNN has no NHWC f64): an NCHW f64 convolution needs
// no transpose; and grouped (depthwise) convolutions are cuDNN calls too.
TEST(XlaGpuRules, F64ConvolutionStaysNchwAndGroupsAreKept) {
  FusionRun r = RunFusion("conv-rewriter", R"(
HloModule m
ENTRY main {
  x = f64[1,4,6,6] parameter(0)
  w = f64[4,2,3,3] parameter(1)
  ROOT c = f64[1,4,4,4] convolution(x, w), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2
})");
  EXPECT_TRUE(r.changed);
  const Instruction* call = OnlyCudnnCall(r);
  ASSERT_NE(call, nullptr) << r.Text();
  EXPECT_EQ(ConvDnumsToString(*call->attrs().conv), "bf01_oi01->bf01");
  EXPECT_EQ(call->attrs().feature_group_count, 2);
  EXPECT_EQ(Count(r, Opcode::kTranspose), 0) << r.Text();
}

// No change: batch groups (a filter-gradient pattern), lhs dilation (an
// input-gradient pattern) and integer convolutions stay our convolution
// kernels, each decision naming why.
TEST(XlaGpuRules, ConvolutionsCudnnCannotTakeStay) {
  FusionRun r = RunFusion("conv-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[4,5,5,2] parameter(0)
  w = f32[3,3,2,4] parameter(1)
  bg = f32[2,3,3,4] convolution(x, w), window={size=3x3}, dim_labels=b01f_01io->b01f, batch_group_count=2
  xd = f32[4,5,5,2] parameter(2)
  wd = f32[2,2,2,3] parameter(3)
  ld = f32[4,8,8,3] convolution(xd, wd), window={size=2x2 lhs_dilate=2x2}, dim_labels=b01f_01io->b01f
  xi = s32[1,4,4,1] parameter(4)
  wi = s32[2,2,1,1] parameter(5)
  ic = s32[1,3,3,1] convolution(xi, wi), window={size=2x2}, dim_labels=b01f_01io->b01f
  ROOT t = (f32[2,3,3,4], f32[4,8,8,3], s32[1,3,3,1]) tuple(bg, ld, ic)
})");
  EXPECT_FALSE(r.changed) << r.Text();
  std::map<std::string, std::string> why = {{"bg", "batch_group_count"}, {"ld", "lhs (base) dilation"}, {"ic", "s32"}};
  for (const auto& [conv, reason] : why) {
    const FusionDecision* d = r.DecisionFor(conv, FusionVerdict::kNotFused);
    ASSERT_NE(d, nullptr) << conv;
    EXPECT_NE(d->reason.find(reason), std::string::npos) << d->reason;
  }
}

// XLA GPU itself is the referee: tests/fusion/data/xla_gpu_conv/ holds
// inputs and the after_optimizations XLA GPU 0.12 wrote for them (H100).
// Our conv-rewriter makes the same cuDNN calls (dim_labels, feature groups)
// with the same transposes (shapes and permutations) around them.
std::string ConvLayouts(const Module& m) {
  std::multiset<std::string> parts;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) {
      if (i->opcode() == Opcode::kTranspose)
        parts.insert("transpose " + i->shape().ToString(false) + " dims=" + IntListBraced(i->dimensions()));
      if (IsCudnnConvCustomCall(*i))
        parts.insert("cudnn " + ConvDnumsToString(*i->attrs().conv) + " groups=" +
                     std::to_string(i->attrs().feature_group_count) + " " + i->shape().ToString(false));
    }
  std::string out;
  for (const std::string& p : parts) out += p + "\n";
  return out;
}

TEST(XlaGpuRules, ConvRewriterAgreesWithXlaGpu) {
  const std::string dir = hloscope::testing::SourceDir() + "/tests/fusion/data/xla_gpu_conv/";
  for (const char* stem : {"nchw", "f64"}) {
    SCOPED_TRACE(stem);
    auto read = [](const std::string& path) {
      std::ifstream f(path);
      std::stringstream ss;
      ss << f.rdbuf();
      return ss.str();
    };
    FusionRun r = RunFusion("conv-rewriter", read(dir + stem + ".hlo"));
    ASSERT_NE(r.module, nullptr);
    auto xla = ParseHloModule(read(dir + stem + ".xla_gpu_h100.txt"), std::string(stem) + ".xla_gpu_h100.txt");
    ASSERT_TRUE(xla.ok()) << xla.status().message();
    EXPECT_NE(ConvLayouts(**xla).find("cudnn"), std::string::npos);
    EXPECT_EQ(ConvLayouts(*r.module), ConvLayouts(**xla));
  }
}

// --- GEMM fusion epilogues and prologues (triton-gemm-rewriter) -------------

// GemmFusion's epilogue (the search-space version, ShouldFuseUser): a user
// joins when its other operands are, in the region XLA searches around the
// dot, parameters or broadcasts of parameters or scalars. The bias add
// joins; the residual add, whose other operand is computed by an op of that
// region (a negate), ends the epilogue ("Has multiple inputs").
TEST(XlaGpuRules, GemmEpilogueTakesTheBiasNotAComputedResidual) {
  const char* hlo = R"(
HloModule m
ENTRY main {
  x = f32[16,8] parameter(0)
  w = f32[8,8] parameter(1)
  b = f32[8] parameter(2)
  r = f32[16,8] parameter(3)
  rn = f32[16,8] negate(r)
  dot = f32[16,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[16,8] broadcast(b), dimensions={1}
  bias = f32[16,8] add(dot, bb)
  ROOT res = f32[16,8] add(rn, bias)
})";
  FusionRun r = RunFusion("triton-gemm-rewriter", hlo);
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("bias"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("bb"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("res"), "") << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions) explained |= d.reason.find("rn is computed") != std::string::npos;
  EXPECT_TRUE(explained);
}

// A residual computed outside that region (a dynamic-slice of the layer's
// stacked input, as in Llama 3.1 70B's scan: XLA GPU's gemm_fusion_dot.17 is
// add(dynamic-slice, dot)) is a parameter of it: the residual add joins.
TEST(XlaGpuRules, GemmEpilogueTakesAResidualComputedOutsideItsRegion) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = bf16[16,8] parameter(0)
  w = bf16[8,8] parameter(1)
  stack = bf16[4,16,8] parameter(2)
  i = s32[] parameter(3)
  z = s32[] constant(0)
  ds = bf16[1,16,8] dynamic-slice(stack, i, z, z), dynamic_slice_sizes={1,16,8}
  res = bf16[16,8] bitcast(ds)
  dot = bf16[16,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT add = bf16[16,8] add(res, dot)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("add"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("ds"), "") << r.Text();
}

// After a reshape of the dot's result, XLA sinks the bitcast below each
// user it takes, so the bias broadcast is read through a bitcast and no
// longer counts as one: the epilogue ends there (XLA's log on the
// transformer block: "Not fusing user: add(fusion, bitcast) ... Has
// multiple inputs"). reshape_mover normally moves such a reshape first.
TEST(XlaGpuRules, GemmEpilogueEndsAtABroadcastReadThroughTheSunkBitcast) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[16,8] parameter(0)
  w = f32[8,8] parameter(1)
  b = f32[8] parameter(2)
  dot = f32[16,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  r3 = f32[2,8,8] reshape(dot)
  bb = f32[2,8,8] broadcast(b), dimensions={2}
  ROOT bias = f32[2,8,8] add(r3, bb)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("dot"), "") << r.Text();
  EXPECT_NE(r.Group("bias"), r.Group("dot")) << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions) explained |= d.reason.find("sinks below the dot") != std::string::npos;
  EXPECT_TRUE(explained) << r.Text();
}

// The same add with a parameter as its other operand is an output fusion
// XLA takes.
TEST(XlaGpuRules, GemmEpilogueTakesAnAddOfAParameter) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[16,8] parameter(0)
  w = f32[8,8] parameter(1)
  r = f32[16,8] parameter(2)
  dot = f32[16,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT res = f32[16,8] add(r, dot)
})");
  EXPECT_EQ(r.Group("res"), r.Group("dot")) << r.Text();
}

// A layer norm on a small residual stream (every tensor under 1 KiB): the
// GEMM's prologue recomputes the residual add and x − mean, as XLA's
// gemm_fusion_dot does in the train step. The input limit counts the whole
// fusion (8 = 2 × kMaxParameterPerDotOperand): here 7 inputs.
TEST(XlaGpuRules, GemmPrologueRecomputesASmallLayerNorm) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[16,8] parameter(0)
  e = f32[16,8] parameter(1)
  mean = f32[16] parameter(2)
  var = f32[16] parameter(3)
  g = f32[8] parameter(4)
  b = f32[8] parameter(5)
  w = f32[8,8] parameter(6)
  h = f32[16,8] add(x, e)
  mb = f32[16,8] broadcast(mean), dimensions={0}
  c = f32[16,8] subtract(h, mb)
  rs = f32[16] rsqrt(var)
  rb = f32[16,8] broadcast(rs), dimensions={0}
  n = f32[16,8] multiply(c, rb)
  gb = f32[16,8] broadcast(g), dimensions={1}
  ng = f32[16,8] multiply(n, gb)
  bb = f32[16,8] broadcast(b), dimensions={1}
  o = f32[16,8] add(ng, bb)
  ROOT dot = f32[16,8] dot(o, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_TRUE(r.changed);
  for (const char* x : {"h", "c", "rs", "n", "ng", "o"}) EXPECT_EQ(r.Group(x), r.Group("dot")) << x << r.Text();
  EXPECT_EQ(r.CountFusions(), 1);
}

// No change past the limit: two more residual adds would give the fusion 9
// inputs; the farthest add stays an input and the search goes on.
TEST(XlaGpuRules, GemmPrologueStopsAtEightInputs) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  x = f32[16,8] parameter(0)
  e = f32[16,8] parameter(1)
  e2 = f32[16,8] parameter(2)
  e3 = f32[16,8] parameter(3)
  mean = f32[16] parameter(4)
  var = f32[16] parameter(5)
  g = f32[8] parameter(6)
  b = f32[8] parameter(7)
  w = f32[8,8] parameter(8)
  h1 = f32[16,8] add(x, e)
  h2 = f32[16,8] add(h1, e2)
  h3 = f32[16,8] add(h2, e3)
  mb = f32[16,8] broadcast(mean), dimensions={0}
  c = f32[16,8] subtract(h3, mb)
  rs = f32[16] rsqrt(var)
  rb = f32[16,8] broadcast(rs), dimensions={0}
  n = f32[16,8] multiply(c, rb)
  gb = f32[16,8] broadcast(g), dimensions={1}
  ng = f32[16,8] multiply(n, gb)
  bb = f32[16,8] broadcast(b), dimensions={1}
  o = f32[16,8] add(ng, bb)
  ROOT dot = f32[16,8] dot(o, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_EQ(r.Group("h2"), r.Group("dot")) << r.Text();
  EXPECT_EQ(r.Group("h1"), "") << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions) explained |= d.reason.find("more than 8 inputs") != std::string::npos;
  EXPECT_TRUE(explained);
}

// The backward attention-output GEMM of the train step sample, as XLA GPU
// 0.12 traces it (TF_CPP_VMODULE=gemm_fusion=6: "Fusing operand" / "Not
// fusing operand ... Too many parameters"): each candidate is decided once,
// breadth first; a shared broadcast of a scalar counts once per path until
// its copies join, and a scalar constant joining lowers the count. So m41
// stays an input, then the constant joins and m40, one step later, fits.
// Before 2026-12-04 a refused candidate went back to the end of the queue
// and the shared broadcast counted once; m40 stayed out and a42 joined.
TEST(XlaGpuRules, GemmPrologueDecidesEachCandidateOnceAsXlaTracesIt) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  w = f32[8,8] parameter(0)
  n0 = f32[16] parameter(1)
  n1 = f32[16] parameter(2)
  n2 = f32[16] parameter(3)
  n3 = f32[16] parameter(4)
  m10 = f32[16] parameter(5)
  q0 = f32[16,8] parameter(6)
  q1 = f32[16,8] parameter(7)
  q2 = f32[16,8] parameter(8)
  q3 = f32[16,8] parameter(9)
  q4 = f32[16,8] parameter(10)
  q5 = f32[16,8] parameter(11)
  c = f32[] constant(0.125)
  bc = f32[16] broadcast(c), dimensions={}
  a4 = f32[16] add(n0, n1)
  m40 = f32[16] multiply(a4, bc)
  b62 = f32[16,8] broadcast(m40), dimensions={0}
  a42 = f32[16,8] add(q0, q1)
  a44 = f32[16,8] add(a42, b62)
  m364 = f32[16,8] multiply(q2, q3)
  a48 = f32[16,8] add(a44, m364)
  m41 = f32[16] multiply(m10, bc)
  b63 = f32[16,8] broadcast(m41), dimensions={0}
  m368 = f32[16,8] multiply(q4, q5)
  m369 = f32[16,8] multiply(b63, m368)
  a49 = f32[16,8] add(a48, m369)
  a5 = f32[16] add(n2, n3)
  m42 = f32[16] multiply(a5, bc)
  b64 = f32[16,8] broadcast(m42), dimensions={0}
  a51 = f32[16,8] add(a49, b64)
  ROOT dot = f32[16,8] dot(a51, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}
})");
  for (const char* x : {"a51", "a49", "b64", "a48", "m369", "m42", "a44", "b63", "b62", "m40", "bc"})
    EXPECT_EQ(r.Group(x), r.Group("dot")) << x << r.Text();
  for (const char* x : {"m364", "m368", "a5", "a42", "m41", "a4"}) EXPECT_EQ(r.Group(x), "") << x << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions)
    explained |= d.reason.find("m41 stays an input (taking it would give the fusion more than 8 inputs)") !=
                 std::string::npos;
  EXPECT_TRUE(explained);
}

// An iota joins a GEMM prologue as in XLA (Llama's causal masks: XLA's
// logged search fuses them; `decisions-diff` on Llama 3.1 8B).
TEST(XlaGpuRules, GemmPrologueTakesAnIota) {
  FusionRun r = RunFusion("triton-gemm-rewriter", R"(
HloModule m
ENTRY main {
  p = f32[16,16] parameter(0)
  w = f32[16,32] parameter(1)
  i = f32[16,16] iota(), iota_dimension=1
  a = f32[16,16] add(p, i)
  ROOT d = f32[16,32] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_NE(r.Group("d"), "") << r.Text();
  EXPECT_EQ(r.Group("i"), r.Group("d")) << r.Text();
  EXPECT_EQ(r.Group("a"), r.Group("d")) << r.Text();
}

// --- Triton softmax fusions as producers ------------------------------------

// XLA's priority fusion recomputes a Triton fusion holding a reduction in
// each of its consumers when the result stays tileable by rows (the
// attention softmax: the x − max diamond with its exp joins the sum, the
// division and the backward pass's products, one Triton kernel each).
TEST(XlaGpuRules, TritonProducerWithAReductionJoinsEachConsumer) {
  FusionRun r = RunFusion({"triton-softmax-rewriter", "priority_fusion"}, std::string("HloModule m\n") + kAdd + R"(
scalar_max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[8,16] parameter(0)
  y = f32[8,16] parameter(1)
  ninf = f32[] constant(-inf)
  mx = f32[8] reduce(x, ninf), dimensions={1}, to_apply=scalar_max
  mxb = f32[8,16] broadcast(mx), dimensions={0}
  d = f32[8,16] subtract(x, mxb)
  e = f32[8,16] exponential(d)
  c0 = f32[] constant(0)
  s = f32[8] reduce(e, c0), dimensions={1}, to_apply=scalar_add
  sb = f32[8,16] broadcast(s), dimensions={0}
  p = f32[8,16] divide(e, sb)
  q = f32[8,16] multiply(e, y)
  ROOT t = (f32[8,16], f32[8,16]) tuple(p, q)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("mx").find(','), std::string::npos) << r.Text();  // recomputed in several kernels
  EXPECT_NE(r.Group("s"), "") << r.Text();
  EXPECT_NE(r.Group("mx").find(r.Group("s")), std::string::npos) << r.Text();
}

// No change: a consumer reducing columns cannot be tiled by rows; the Triton
// fusion stays apart from it.
TEST(XlaGpuRules, TritonProducerStaysOutOfAColumnReduction) {
  FusionRun r = RunFusion({"triton-softmax-rewriter", "priority_fusion"}, std::string("HloModule m\n") + kAdd + R"(
scalar_max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[8,16] parameter(0)
  ninf = f32[] constant(-inf)
  mx = f32[8] reduce(x, ninf), dimensions={1}, to_apply=scalar_max
  mxb = f32[8,16] broadcast(mx), dimensions={0}
  d = f32[8,16] subtract(x, mxb)
  c0 = f32[] constant(0)
  col = f32[16] reduce(d, c0), dimensions={0}, to_apply=scalar_add
  ROOT t = (f32[8,16], f32[16]) tuple(d, col)
})");
  EXPECT_EQ(r.Group("col").find(r.Group("mx")), std::string::npos) << r.Text();
}

}  // namespace
}  // namespace hloscope::fusion_testing
