// Rules of today's XLA GPU fusion that shape the `gpu` pipeline's loop and
// input (reduction) kernels: reductions too small for the reduction emitter
// are recomputed in their consumers (gpu_fusible.cc's
// IsLoopFusibleAsProducer / IsUnnestedReductionFasterThanElemental);
// reductions too long to run without atomics are split in two
// (TreeReductionRewriter); priority fusion's limits (code size, consumers,
// basic-block splits); and multi-output fusion of siblings (disjoint slices
// stay apart, at most 8 reductions a kernel, custom fusions skipped, the
// preferred candidate). Changed and no-change cases; RunFusion checks every
// result against the interpreter. Convolutions and Triton fusions:
// xla_gpu_cudnn_triton_rules_test.cc.
#include <algorithm>

#include "core/fusion/fusibility.h"
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

// --- reductions the elemental emitter takes ---------------------------------

// A batch-norm-style column sum over 32 rows of 8 columns prefers the
// elemental emitter: the consumer recomputes it and one loop kernel remains.
TEST(XlaGpuRules, SmallColumnReductionIsRecomputedInItsConsumer) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[2,4,4,8] parameter(0)
  c0 = f32[] constant(0)
  s = f32[8] reduce(x, c0), dimensions={0,1,2}, to_apply=scalar_add
  sb = f32[2,4,4,8] broadcast(s), dimensions={3}
  ROOT d = f32[2,4,4,8] subtract(x, sb)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.Group("s"), r.Group("d")) << r.Text();
  EXPECT_EQ(r.KindOf("d"), "kLoop");
  EXPECT_EQ(r.CountFusions(), 1);
  EXPECT_TRUE(ReductionPrefersElemental(*Parse(std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[2,4,4,8] parameter(0)
  c0 = f32[] constant(0)
  ROOT s = f32[8] reduce(x, c0), dimensions={0,1,2}, to_apply=scalar_add
})")->entry()->root()));
}

// No change: a row reduction of 64 (a warp's worth) is a real reduction; it
// ends its kernel and the subtract stays out.
TEST(XlaGpuRules, RealReductionIsNotRecomputed) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[16,64] parameter(0)
  c0 = f32[] constant(0)
  s = f32[16] reduce(x, c0), dimensions={1}, to_apply=scalar_add
  sb = f32[16,64] broadcast(s), dimensions={0}
  ROOT d = f32[16,64] subtract(x, sb)
})");
  EXPECT_NE(r.Group("s"), r.Group("d")) << r.Text();
}

// No change: a small reduction is not recomputed inside another reduction
// (each reduced value would redo it).
TEST(XlaGpuRules, NoNestedReductions) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[2,4,4,8] parameter(0)
  c0 = f32[] constant(0)
  mean = f32[8] reduce(x, c0), dimensions={0,1,2}, to_apply=scalar_add
  mb = f32[2,4,4,8] broadcast(mean), dimensions={3}
  d = f32[2,4,4,8] subtract(x, mb)
  sq = f32[2,4,4,8] multiply(d, d)
  ROOT var = f32[8] reduce(sq, c0), dimensions={0,1,2}, to_apply=scalar_add
})");
  EXPECT_NE(r.Group("mean"), r.Group("var")) << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions)
    explained |= d.reason.find("nested reductions") != std::string::npos;
  EXPECT_TRUE(explained);
}

// A small reduction joins a consumer that holds another, unrelated small
// reduction: only a reduction of the producer's own value would recompute it
// (XLA's CreatesHeavyComputation walks the producer's users inside the
// consumer). resnet_block's shortcut variance joins the kernel that also
// recomputes bn2's, as in XLA GPU's loop_maximum_fusion.
TEST(XlaGpuRules, SmallReductionJoinsAConsumerWithAnUnrelatedReduction) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[2,4,4,8] parameter(0)
  y = f32[2,4,4,8] parameter(1)
  c0 = f32[] constant(0)
  s = f32[8] reduce(x, c0), dimensions={0,1,2}, to_apply=scalar_add
  t = f32[8] reduce(y, c0), dimensions={0,1,2}, to_apply=scalar_add
  ROOT a = f32[8] add(s, t)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("a"), "") << r.Text();
  EXPECT_EQ(r.Group("s"), r.Group("a")) << r.Text();
  EXPECT_EQ(r.Group("t"), r.Group("a")) << r.Text();
}

// An Adam moment update that recomputes a small bias-gradient reduction is
// taken by the parameter update as an extra output (XLA GPU's
// loop_add_subtract_fusion: the new parameter and moment in one kernel).
TEST(XlaGpuRules, LoopFusionWithASmallReductionBecomesAnExtraOutput) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  g = f32[16,32] parameter(0)
  m = f32[32] parameter(1)
  p = f32[32] parameter(2)
  c0 = f32[] constant(0)
  gb = f32[32] reduce(g, c0), dimensions={0}, to_apply=scalar_add
  k9 = f32[] constant(0.9)
  k9b = f32[32] broadcast(k9), dimensions={}
  k1 = f32[] constant(0.1)
  k1b = f32[32] broadcast(k1), dimensions={}
  mm = f32[32] multiply(m, k9b)
  gm = f32[32] multiply(gb, k1b)
  m2 = f32[32] add(mm, gm)
  lr = f32[] constant(0.01)
  lrb = f32[32] broadcast(lr), dimensions={}
  step = f32[32] multiply(m2, lrb)
  u = f32[32] subtract(p, step)
  ROOT t = (f32[32], f32[32]) tuple(u, m2)
})");
  EXPECT_TRUE(r.changed);
  EXPECT_NE(r.Group("u"), "") << r.Text();
  EXPECT_EQ(r.Group("m2"), r.Group("u")) << r.Text();
  EXPECT_EQ(r.Group("gb"), r.Group("u")) << r.Text();
}

// No change: a batch-norm mean stays its own kernel when a sibling of its
// consumer reduces its value (the variance): XLA merges the running-mean
// and variance siblings first, and the mean would then be recomputed for
// every value the variance sums (resnet_block's loop_multiply_fusion).
TEST(XlaGpuRules, SmallReductionIsNoExtraOutputWhenASiblingReducesIt) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[4,8] parameter(0)
  rm = f32[8] parameter(1)
  c0 = f32[] constant(0)
  s = f32[8] reduce(x, c0), dimensions={0}, to_apply=scalar_add
  q = f32[] constant(0.25)
  qb = f32[8] broadcast(q), dimensions={}
  mean = f32[8] multiply(s, qb)
  k9 = f32[] constant(0.9)
  k9b = f32[8] broadcast(k9), dimensions={}
  run = f32[8] add(mean, k9b)
  mb = f32[4,8] broadcast(mean), dimensions={1}
  d = f32[4,8] subtract(x, mb)
  sq = f32[4,8] multiply(d, d)
  var = f32[8] reduce(sq, c0), dimensions={0}, to_apply=scalar_add
  mb2 = f32[4,8] broadcast(mean), dimensions={1}
  norm = f32[4,8] subtract(x, mb2)
  ROOT t = (f32[8], f32[8], f32[4,8]) tuple(run, var, norm)
})");
  EXPECT_NE(r.Group("mean"), "") << r.Text();
  EXPECT_NE(r.Group("mean"), r.Group("run")) << r.Text();
  EXPECT_NE(r.Group("mean"), r.Group("var")) << r.Text();
}

// --- long reductions split in two (tree-reduction-rewriter) -----------------

// A column sum over 4,200 rows (more than 32 × 128) becomes two race-free
// reductions: 60 blocks of 70, then the 60 partial sums (no padding, 60 is
// the largest divisor of 4,200 up to its square root).
TEST(XlaGpuRules, LongColumnReductionIsSplitInTwo) {
  FusionRun r = RunFusion("tree-reduction-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[4200,2] parameter(0)
  c0 = f32[] constant(0)
  ROOT s = f32[2] reduce(x, c0), dimensions={0}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  int reduces = 0;
  bool partial = false;
  for (const auto& i : r.module->entry()->instructions()) {
    reduces += i->opcode() == Opcode::kReduce;
    partial |= i->opcode() == Opcode::kReduce && i->shape().dims() == std::vector<int64_t>{60, 2};
    EXPECT_NE(i->opcode(), Opcode::kPad) << r.Text();
  }
  EXPECT_EQ(reduces, 2) << r.Text();
  EXPECT_TRUE(partial) << r.Text();
}

// A column reduction with a major kept dimension ([batch, reduced, kept]:
// Llama's mask counts, s32[2,8192,8192] summed over the middle one) is split
// too, as XLA's [batch, reduced, kept] form has it: 64 blocks of 128 of the
// middle dimension, then the 64 partial sums.
TEST(XlaGpuRules, LongMiddleDimensionReductionIsSplitInTwo) {
  FusionRun r = RunFusion("tree-reduction-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[2,8192,3] parameter(0)
  c0 = f32[] constant(0)
  ROOT s = f32[2,3] reduce(x, c0), dimensions={1}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  int reduces = 0;
  bool partial = false;
  for (const auto& i : r.module->entry()->instructions()) {
    reduces += i->opcode() == Opcode::kReduce;
    partial |= i->opcode() == Opcode::kReduce && i->shape().dims() == std::vector<int64_t>{2, 64, 3} &&
               i->dimensions() == std::vector<int64_t>{2};
  }
  EXPECT_EQ(reduces, 2) << r.Text();
  EXPECT_TRUE(partial) << r.Text();
}

// A row of a prime length (16,411 > 1024 × 16) has no divisor near its square
// root: it is padded with the initial value to 67 blocks of 245, the split
// needing the least padding (4) among 65..128, the block the larger of the
// two (XLA GPU 0.12 on this module, 2026-12-05: pad to f32[2,16415], bitcast
// to [2,67,245], reduce dimension 2).
TEST(XlaGpuRules, LongPrimeRowIsPaddedThenSplit) {
  FusionRun r = RunFusion("tree-reduction-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[2,16411] parameter(0)
  c0 = f32[] constant(0)
  ROOT s = f32[2] reduce(x, c0), dimensions={1}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  bool padded = false;
  for (const auto& i : r.module->entry()->instructions())
    padded |= i->opcode() == Opcode::kPad && i->shape().dims() == std::vector<int64_t>{2, 67 * 245};
  EXPECT_TRUE(padded) << r.Text();
  bool blocks = false;
  for (const auto& i : r.module->entry()->instructions())
    blocks |= i->opcode() == Opcode::kReduce && i->shape().dims() == std::vector<int64_t>{2, 67};
  EXPECT_TRUE(blocks) << r.Text();
}

// A full reduction of 64,000 elements: of the sizes that divide it between
// √n / 2 and √n (250, 200, 160, 128) the power of two wins, and the
// larger part becomes the block (a row that can be vectorized and whose
// other part is more than twice as long): 128 blocks of 500, as XLA GPU
// 0.12 splits it (2026-12-05: bitcast to [128,500], reduce dimension 1).
// (The rule that splits Llama's 512 × 128,256 into 4,096 blocks of 16,032.)
TEST(XlaGpuRules, FullReductionSplitsAsXlaChoosesTheBlocks) {
  FusionRun r = RunFusion("tree-reduction-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[64,1000] parameter(0)
  c0 = f32[] constant(0)
  ROOT s = f32[] reduce(x, c0), dimensions={0,1}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  bool blocks = false;
  for (const auto& i : r.module->entry()->instructions())
    blocks |= i->opcode() == Opcode::kReduce && i->shape().dims() == std::vector<int64_t>{128} &&
              i->operand(0)->shape().dims() == std::vector<int64_t>{128, 500};
  EXPECT_TRUE(blocks) << r.Text();
}

// A full reduction in another layout reads its bytes as they lie: a
// bitcast to one dimension, then 128 blocks of 150 (XLA GPU 0.12 on this
// module, 2026-12-05: bitcast of the transposed parameter to [128,150]).
// Llama's sums of squares over [512,8,128]{0,2,1} are such reductions.
TEST(XlaGpuRules, FullReductionInAnotherLayoutIsSplitThroughABitcast) {
  FusionRun r = RunFusion("tree-reduction-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  p = f32[300,64] parameter(0)
  x = f32[64,300]{0,1} transpose(p), dimensions={1,0}
  c0 = f32[] constant(0)
  ROOT s = f32[] reduce(x, c0), dimensions={0,1}, to_apply=scalar_add
})");
  EXPECT_TRUE(r.changed);
  bool bitcast = false, blocks = false;
  for (const auto& i : r.module->entry()->instructions()) {
    bitcast |= i->opcode() == Opcode::kBitcast && i->shape().dims() == std::vector<int64_t>{19200};
    blocks |= i->opcode() == Opcode::kReduce && i->shape().dims() == std::vector<int64_t>{128};
  }
  EXPECT_TRUE(bitcast) << r.Text();
  EXPECT_TRUE(blocks) << r.Text();
}

// No change: a row of 1,000 and a column of 4,096 run without atomics.
TEST(XlaGpuRules, RaceFreeReductionsStay) {
  FusionRun r = RunFusion("tree-reduction-rewriter", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  x = f32[8,1000] parameter(0)
  y = f32[4096,4] parameter(1)
  c0 = f32[] constant(0)
  a = f32[8] reduce(x, c0), dimensions={1}, to_apply=scalar_add
  b = f32[4] reduce(y, c0), dimensions={0}, to_apply=scalar_add
  ROOT t = (f32[8], f32[4]) tuple(a, b)
})");
  EXPECT_FALSE(r.changed) << r.Text();
}

// --- priority fusion: what fuses and its limits -----------------------------

// A reduce-window (a cumulative sum: Llama's positions) is loop-fusible as
// producer and consumer, as XLA's IsUniversallyLoopFusible has it: the
// exponential before it and the multiply after it are one kernel with it.
TEST(XlaGpuRules, ReduceWindowFusesLikeALoopOp) {
  FusionRun r = RunFusion("priority_fusion", std::string("HloModule m\n") + kAdd + R"(
ENTRY main {
  p = f32[4,130] parameter(0)
  q = f32[4,130] parameter(1)
  e = f32[4,130] exponential(p)
  z = f32[] constant(0)
  w = f32[4,130] reduce-window(e, z), window={size=1x130 pad=0_0x129_0}, to_apply=scalar_add
  ROOT r = f32[4,130] multiply(w, q)
})");
  EXPECT_NE(r.Group("w"), "") << r.Text();
  EXPECT_EQ(r.Group("e"), r.Group("w")) << r.Text();
  EXPECT_EQ(r.Group("r"), r.Group("w")) << r.Text();
}

// A chain of `n` negates of exp(p), the last one the root.
std::string NegateChain(int n) {
  std::string hlo = "HloModule m\nENTRY main {\n  p = f32[64] parameter(0)\n  e = f32[64] exponential(p)\n";
  std::string prev = "e";
  for (int k = 1; k <= n; ++k) {
    std::string name = "n" + std::to_string(k);
    hlo += "  " + std::string(k == n ? "ROOT " : "") + name + " = f32[64] negate(" + prev + ")\n";
    prev = name;
  }
  return hlo + "}\n";
}

// Priority fusion's size limit is XLA's code-size one
// (ProducerConsumerMergedTooLarge, 10,000 emitted instructions), not the
// classic passes' 250: a 301-op elementwise chain is one kernel.
TEST(XlaGpuRules, PriorityFusionTakesFusionsLargerThanTheClassicLimit) {
  FusionRun r = RunFusion("priority_fusion", NegateChain(300));
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  EXPECT_EQ(r.Group("e"), r.Group("n300"));
}

// No change to the classic instruction fusion (`gpu-classic`): it stops at 250
// instructions per fusion, with the reason.
TEST(XlaGpuRules, ClassicFusionKeepsItsSizeLimit) {
  FusionRun r = RunFusion("fusion", NegateChain(300));
  EXPECT_GE(r.CountFusions(), 2) << r.Text();
  bool said = false;
  for (const auto& d : r.decisions) said |= d.reason.find("more than 250 instructions") != std::string::npos;
  EXPECT_TRUE(said);
}

// A producer read by `n` loop consumers, each also reading its own input.
std::string WideProducer(int n) {
  std::string hlo = "HloModule m\nENTRY main {\n  x = f32[64] parameter(0)\n  y = f32[64] parameter(1)\n"
                    "  w = f32[64] add(x, y)\n";
  std::string tuple;
  for (int k = 0; k < n; ++k) {
    std::string q = "q" + std::to_string(k), c = "c" + std::to_string(k);
    hlo += "  " + q + " = f32[64] parameter(" + std::to_string(k + 2) + ")\n";
    hlo += "  " + c + " = f32[64] multiply(w, " + q + ")\n";
    tuple += (k ? ", " : "") + c;
  }
  std::string shapes;
  for (int k = 0; k < n; ++k) shapes += (k ? ", " : "") + std::string("f32[64]");
  return hlo + "  ROOT t = (" + shapes + ") tuple(" + tuple + ")\n}\n";
}

// A producer with 40 consumers (the train step's residual stream has 39) is
// recomputed in each, as XLA's priority fusion does (it has no cap; ours
// stops at 64 consumers for speed).
TEST(XlaGpuRules, ProducerWithFortyConsumersIsFusedIntoEach) {
  FusionRun r = RunFusion("priority_fusion", WideProducer(40));
  EXPECT_TRUE(r.changed);
  const std::string in = r.Group("w");
  EXPECT_EQ(std::count(in.begin(), in.end(), ','), 39) << "w should be computed in each of its 40 consumers\n"
                                                      << r.Text();
  for (const auto& i : r.module->entry()->instructions()) EXPECT_NE(i->name(), "w");
  EXPECT_EQ(r.CountFusions(), 40);
}

// No change beyond the cap: 70 consumers are not considered, with the reason.
TEST(XlaGpuRules, ProducerWithMoreThanSixtyFourConsumersStays) {
  FusionRun r = RunFusion("priority_fusion", WideProducer(70));
  EXPECT_EQ(r.Group("w"), "") << r.Text();
  const FusionDecision* d = r.DecisionFor("w", FusionVerdict::kNotFused);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->reason.find("more than 64 at once"), std::string::npos) << d->reason;
}

// A chain of `n` pads, each growing f32[k] to f32[k+1] with a 0 at the end.
std::string PadChain(int n) {
  std::string hlo = "HloModule m\nENTRY main {\n  x0 = f32[4] parameter(0)\n  z = f32[] constant(0)\n";
  for (int k = 1; k <= n; ++k)
    hlo += "  " + std::string(k == n ? "ROOT " : "") + "x" + std::to_string(k) + " = f32[" + std::to_string(4 + k) +
           "] pad(x" + std::to_string(k - 1) + ", z), padding=0_1\n";
  return hlo + "}\n";
}

// XLA's ProducerConsumerMergedTooLarge also refuses a fusion with more than 10
// basic-block splits (ops the elemental emitter emits with branches: pads,
// reductions, concatenates...): a chain of 12 pads becomes two kernels.
TEST(XlaGpuRules, PriorityFusionStopsAtTenBasicBlockSplits) {
  FusionRun r = RunFusion("priority_fusion", PadChain(12));
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
  for (const auto& i : r.module->entry()->instructions())
    if (i->opcode() == Opcode::kFusion) EXPECT_LE(BasicBlockSplitCount(*i), 10) << r.Text();
  bool said = false;
  for (const auto& d : r.decisions) said |= d.reason.find("basic-block splits") != std::string::npos;
  EXPECT_TRUE(said);
}

// No change below it: ten pads are one kernel.
TEST(XlaGpuRules, TenBasicBlockSplitsAreOneKernel) {
  FusionRun r = RunFusion("priority_fusion", PadChain(10));
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
}

// --- multi-output fusion of siblings ----------------------------------------

// Siblings that read disjoint slices of one input (the q, k and v of a fused
// projection) stay separate kernels; overlapping reads still merge.
TEST(XlaGpuRules, SiblingsReadingDisjointSlicesStayApart) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, R"(
HloModule m
ENTRY main {
  x = f32[16,96] parameter(0)
  a = f32[16,32] slice(x), slice={[0:16], [0:32]}
  b = f32[16,32] slice(x), slice={[0:16], [32:64]}
  na = f32[16,32] negate(a)
  nb = f32[16,32] negate(b)
  ROOT t = (f32[16,32], f32[16,32]) tuple(na, nb)
})");
  EXPECT_NE(r.Group("na"), r.Group("nb")) << r.Text();
  bool explained = false;
  for (const auto& d : r.decisions)
    explained |= d.reason.find("slices do not overlap") != std::string::npos;
  EXPECT_TRUE(explained);

  FusionRun o = RunFusion({"priority_fusion", "multi_output_fusion"}, R"(
HloModule m
ENTRY main {
  x = f32[16,96] parameter(0)
  a = f32[16,32] slice(x), slice={[0:16], [0:32]}
  b = f32[16,32] slice(x), slice={[0:16], [16:48]}
  na = f32[16,32] negate(a)
  nb = f32[16,32] negate(b)
  ROOT t = (f32[16,32], f32[16,32]) tuple(na, nb)
})");
  EXPECT_EQ(o.Group("na"), o.Group("nb")) << o.Text();
}

// `n` row reductions of x·k (k = 1..n) over rows of 64: sibling input
// fusions that all read x.
std::string SiblingReductions(int n) {
  std::string hlo = std::string("HloModule m\n") + kAdd + "\nENTRY main {\n  x = f32[16,64] parameter(0)\n"
                    "  c0 = f32[] constant(0)\n";
  std::string tuple, shapes;
  for (int k = 1; k <= n; ++k) {
    std::string ks = std::to_string(k);
    hlo += "  k" + ks + " = f32[] constant(" + ks + ")\n";
    hlo += "  b" + ks + " = f32[16,64] broadcast(k" + ks + "), dimensions={}\n";
    hlo += "  m" + ks + " = f32[16,64] multiply(x, b" + ks + ")\n";
    hlo += "  r" + ks + " = f32[16] reduce(m" + ks + ", c0), dimensions={1}, to_apply=scalar_add\n";
    tuple += (k > 1 ? ", r" : "r") + ks;
    shapes += (k > 1 ? ", " : "") + std::string("f32[16]");
  }
  return hlo + "  ROOT t = (" + shapes + ") tuple(" + tuple + ")\n}\n";
}

// XLA's FusionFitsInBudget: a fusion holds at most 8 real reductions. Nine
// sibling reductions of one input become two kernels (ours pair siblings as
// they come: 5 and 4; XLA's first sibling takes the next ones: 8 and 1).
TEST(XlaGpuRules, MultiOutputFusionHoldsAtMostEightReductions) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, SiblingReductions(9));
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
  int most = 0, total = 0;
  for (const auto& i : r.module->entry()->instructions())
    if (i->opcode() == Opcode::kFusion) {
      most = std::max(most, UnnestedReductionCount(*i));
      total += UnnestedReductionCount(*i);
    }
  EXPECT_LE(most, 8) << r.Text();
  EXPECT_EQ(total, 9) << r.Text();
  bool said = false;
  for (const auto& d : r.decisions) said |= d.reason.find("more than 8 reductions") != std::string::npos;
  EXPECT_TRUE(said);
}

// No change below the limit: eight siblings become one kernel.
TEST(XlaGpuRules, EightSiblingReductionsBecomeOneKernel) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, SiblingReductions(8));
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
}

// Two kernels reading the same `shared` ([16,32]): a GEMM's result (the
// dot, 16x16x32, becomes a Triton GEMM fusion) or a parameter.
std::string SiblingsReading(bool gemm) {
  std::string hlo = "HloModule m\nENTRY main {\n  a = f32[16,16] parameter(0)\n  w = f32[16,32] parameter(1)\n"
                    "  p1 = f32[16,32] parameter(2)\n  p2 = f32[16,32] parameter(3)\n";
  hlo += gemm ? "  shared = f32[16,32] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
              : "  shared = f32[16,32] parameter(4)\n";
  return hlo +
         "  e = f32[16,32] exponential(shared)\n  y1 = f32[16,32] multiply(e, p1)\n"
         "  l = f32[16,32] log(shared)\n  y2 = f32[16,32] add(l, p2)\n"
         "  ROOT t = (f32[16,32], f32[16,32]) tuple(y1, y2)\n}\n";
}

// XLA's multi-output fusion skips a custom fusion (a Triton GEMM fusion) as
// the operand siblings share (DoMultiOutputFusion: IsCustomFusion ->
// continue): the two loop kernels reading the GEMM's result stay two, as
// the train step's optimizer updates reading one weight gradient do.
TEST(XlaGpuRules, SiblingsReadingAGemmFusionStayApart) {
  FusionRun r = RunFusion({"triton-gemm-rewriter", "priority_fusion", "multi_output_fusion"}, SiblingsReading(true));
  EXPECT_NE(r.Group("y1"), "") << r.Text();
  EXPECT_NE(r.Group("y1"), r.Group("y2")) << r.Text();
  EXPECT_NE(r.Group("y1"), r.Group("shared")) << r.Text();
}

// No change for other shared operands: the same two kernels reading a
// parameter become one multi-output kernel.
TEST(XlaGpuRules, SiblingsReadingAParameterBecomeOneKernel) {
  FusionRun r = RunFusion({"triton-gemm-rewriter", "priority_fusion", "multi_output_fusion"}, SiblingsReading(false));
  EXPECT_NE(r.Group("y1"), "") << r.Text();
  EXPECT_EQ(r.Group("y1"), r.Group("y2")) << r.Text();
}

// XLA's FuseSiblings merges into a fusion only (multi-output fusions first,
// then fusions, then unfused ops): two unfused ops reading one parameter
// stay two kernels. XLA GPU compiled this module into 2 kernels.
TEST(XlaGpuRules, UnfusedSiblingsStayTwoKernels) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, R"(
HloModule m
ENTRY main {
  p0 = f32[128] parameter(0)
  n2 = f32[128] sqrt(p0)
  n3 = f32[128] abs(p0)
  ROOT t = (f32[128], f32[128]) tuple(n2, n3)
})");
  EXPECT_EQ(r.Group("n2"), "") << r.Text();
  EXPECT_EQ(r.Group("n3"), "") << r.Text();
  EXPECT_EQ(r.CountFusions(), 0) << r.Text();
}

// A fusion among the siblings takes the unfused ones as extra outputs:
// XLA GPU compiled this module into one kernel.
TEST(XlaGpuRules, AFusionTakesItsUnfusedSiblings) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, R"(
HloModule m
ENTRY main {
  p0 = f32[128] parameter(0)
  a = f32[128] negate(p0)
  b = f32[128] exponential(a)
  n2 = f32[128] sqrt(p0)
  n3 = f32[128] abs(p0)
  ROOT t = (f32[128], f32[128], f32[128]) tuple(b, n2, n3)
})");
  EXPECT_NE(r.Group("b"), "") << r.Text();
  EXPECT_EQ(r.Group("n2"), r.Group("b")) << r.Text();
  EXPECT_EQ(r.Group("n3"), r.Group("b")) << r.Text();
}

// Two copies of one op in one kernel (a reduction computed in two epilogues,
// the two then merged as siblings): the second is renamed and names the op
// it copies in op_name, as XLA's copies keep theirs.
TEST(XlaGpuRules, ARenamedCopyNamesTheOpItCopies) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, ReductionReadByTwoEpilogues());
  EXPECT_EQ(r.CountFusions(), 1) << r.Text();
  int reduces = 0, named = 0;
  for (const auto& c : r.module->computations()) {
    if (!c->fusion_instruction) continue;
    for (const auto& i : c->instructions()) {
      if (i->opcode() != Opcode::kReduce) continue;
      ++reduces;
      named += i->name() == "r2" || i->MetadataValue("op_name") == "r2";
    }
  }
  EXPECT_EQ(reduces, 2) << r.Text();
  EXPECT_EQ(named, 2) << r.Text();
}

// A producer read by two fusions becomes an extra output of the one XLA
// prefers (SelectPreferredFusionCandidate): the earlier of two plain
// fusions. XLA GPU compiled this (the train step's Adam step counter) into
// two kernels, the counter computed with the 0.999 bias correction, which
// priority fusion formed first (ties go to the newer instruction).
TEST(XlaGpuRules, AnExtraOutputGoesToTheEarlierFusion) {
  FusionRun r = RunFusion({"priority_fusion", "multi_output_fusion"}, R"(
HloModule m
ENTRY main {
  step = s32[] parameter(0)
  one = s32[] constant(1)
  add.234 = s32[] add(step, one)
  cv = f32[] convert(add.234)
  c9 = f32[] constant(0.9)
  c999 = f32[] constant(0.999)
  c1 = f32[] constant(1)
  pow.2 = f32[] power(c9, cv)
  sub.146 = f32[] subtract(c1, pow.2)
  pow.3 = f32[] power(c999, cv)
  sub.147 = f32[] subtract(c1, pow.3)
  ROOT t = (f32[], f32[], s32[]) tuple(sub.146, sub.147, add.234)
})");
  EXPECT_EQ(r.CountFusions(), 2) << r.Text();
  EXPECT_NE(r.Group("add.234"), "") << r.Text();
  EXPECT_EQ(r.Group("add.234"), r.Group("sub.147")) << r.Text();
  EXPECT_NE(r.Group("add.234"), r.Group("sub.146")) << r.Text();
}

}  // namespace
}  // namespace hloscope::fusion_testing
