// Rules of today's XLA GPU fusion that the `gpu` pipeline follows beyond the
// Triton fusions: reductions too small for the reduction emitter are
// recomputed in their consumers (gpu_fusible.cc's IsLoopFusibleAsProducer /
// IsUnnestedReductionFasterThanElemental), and siblings reading disjoint
// slices are not merged (multi_output_fusion.cc's
// ParameterSlicesAreNonOverlapping). Changed and no-change cases.
#include "core/fusion/fusibility.h"
#include "tests/fusion/fusion_test_util.h"

namespace hloscope::fusion_testing {
namespace {

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

}  // namespace
}  // namespace hloscope::fusion_testing
