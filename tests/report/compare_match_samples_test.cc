// How compare matches ops across two modules (core/report/compare_match.h),
// on the committed references of every sample: our `gpu` pipeline's
// result against XLA GPU's after_optimizations (at least 90% of XLA's ops
// matched, or the recorded floor) and against XLA CPU's optimized module;
// none of the ops or same-member fusions matched so far may be lost. The
// inline cases for each way of matching: compare_match_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/report/compare.h"
#include "tests/support/test_paths.h"

namespace hloscope::report {
namespace {
namespace fs = std::filesystem;

std::unique_ptr<Module> LoadSample(const std::string& path, const std::string& pipeline) {
  auto m = ParseHloFile(path);
  EXPECT_TRUE(m.ok()) << path << ": " << m.status().message();
  if (!m.ok()) return nullptr;
  if (!pipeline.empty()) {
    auto p = PassRegistry::Global().BuildPipeline(pipeline);
    EXPECT_TRUE(p.ok());
    EXPECT_TRUE((*p)->Run(**m).ok());
  }
  return std::move(*m);
}

std::vector<std::string> XlaGpuSamples() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(testing::SamplesDir() + "/xla_gpu"))
    if (e.is_directory() && fs::exists(e.path() / "after_optimizations.txt")) out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CompareMatch, XlaGpuReferencesAtLeast90PercentOfXlaOpsMatched) {
  std::vector<std::string> samples = XlaGpuSamples();
  ASSERT_GE(samples.size(), 15u);
  // At real sizes XLA GPU rewrites more than our `gpu` pipeline does, and
  // those ops have no counterpart yet: layer_norm_large's means divide by
  // 768 where XLA multiplies (multiply.12/13); resnet_block_large's
  // batch-norm sums over 8x28x28 become two-stage reductions (reduce.N.1 in
  // a second input_reduce_fusion), its divisions multiplies and its
  // convolutions cuDNN calls between layout transposes. Until then these
  // hold the counts matched when the samples came (issue 24); none may be
  // lost.
  // scan_rnn: since compare looks into while bodies (2026-12-02), its 14
  // ops are the loop's work, not the entry's 2; XLA's body has two
  // wrapped_dots and asynchronous dynamic-slice fusions, 10 of 14 matched.
  // transformer_train_step: 1,529 of 1,691 until the GEMM prologue took XLA's
  // input-worth rule (2026-12-03), which makes our GEMM fusions closer to
  // XLA's (same members 40 -> 44 of 137, kernels 151 -> 150 against 137,
  // mlp_gelu_bf16 exact) but leaves 17 more of XLA's duplicated copies
  // (add.5.19, multiply.26.21.clone.1, ...) without a counterpart: 1,512
  // (89.4%). Under 90%, said so in docs/fusion.md; none more may be lost.
  const std::map<std::string, int64_t> known_gaps = {{"layer_norm_large", 14},
                                                     {"resnet_block_large", 99},
                                                     {"scan_rnn", 10},
                                                     {"transformer_train_step", 1512}};
  // transformer_train_step: 99 (2026-12-05): the cost model's re-reads moved
  // two small adds (wrapped_add, wrapped_add.3) onto duplicated copies (97);
  // multi-output fusion's choice among a producer's consumers as XLA's
  // SelectPreferredFusionCandidate brought the step counter's two (99).
  // 103 (2026-12-05, 75%): kernels costed on the lanes XLA launches (a
  // 16-element loop on 16 threads, a reduction on its kept elements) and
  // reductions at (in - out) reducer ops: each layer-norm gradient's row sums
  // take their negate as an epilogue before the negate joins the add.
  // 110 (80%, the same day): the queue keyed, as XLA's, by absl::Duration
  // (quarter nanoseconds) instead of whole nanoseconds: the residual
  // stream's producer is outbid until it has 32 consumers and no saving left
  // (XLA's: 40), so its reductions come out as XLA's.
  // 106 (77%, 2026-12-05): multi-output fusion walks the module once as
  // XLA's DoMultiOutputFusion does (siblings, then the producer as an extra
  // output, uses before definitions) instead of rounds of consumers: Llama
  // 3.1 8B 6,154 -> 5,504 kernels (XLA 5,348) at 79% same members, but the
  // four layer norms' rsqrt kernels, which priority fusion leaves with 7
  // consumers each where XLA's have 3 and are fused into them, are no longer
  // taken as extra outputs: their readers lose the rsqrt (docs/fusion.md).
  // 105 (77%, 2026-12-05, evening): priority fusion no longer refuses an
  // expensive producer that its consumer reads many times (XLA's
  // PriorityFusion::CanFuse has no such rule; the cost model decides, as for
  // a producer with other users): Llama 3.1 8B 5,504 -> 5,438 kernels (XLA
  // 5,348) and 3,803 -> 3,836 same members; here one log joins a kernel
  // whose reduce XLA had already fused elsewhere (docs/fusion.md).
  // resnet_block_large: 23 until the cost model took XLA's op-profile cycles
  // (2026-12-05): the batch norm's rsqrt(var + eps), broadcast over every
  // pixel, now costs its recomputation in the normalising kernel, and one
  // copy stays a small kernel of its own (XLA's loop_add_fusion has none):
  // 21 of 23, while Llama 3.1 8B / 70B gain 2,282 -> 2,415 and 143 -> 155.
  const std::map<std::string, int64_t> same_floor = {
      {"attention", 9},         {"attention_large", 9},   {"embedding_xent", 6},           {"layer_norm", 1},
      {"layer_norm_large", 1},  {"mlp_gelu", 3},          {"mlp_gelu_bf16", 2},            {"mlp_gelu_large", 3},
      {"resnet_block", 10},     {"resnet_block_large", 21}, {"scan_rnn", 8},               {"softmax", 1},
      {"transformer_block", 13}, {"transformer_block_large", 13}, {"transformer_train_step", 105}};
  for (const std::string& s : samples) {
    SCOPED_TRACE(s);
    auto ours = LoadSample(testing::SamplesDir() + "/" + s + ".hlo", "gpu");
    auto xla = LoadSample(testing::SamplesDir() + "/xla_gpu/" + s + "/after_optimizations.txt", "");
    ASSERT_TRUE(ours && xla);
    CompareResult r = CompareModules(*ours, *xla, CurrentDevice());
    EXPECT_GT(r.b.ops, 0);
    if (auto gap = known_gaps.find(s); gap != known_gaps.end())
      EXPECT_GE(r.b.matched, gap->second) << r.b.matched << "/" << r.b.ops << " of XLA's ops matched";
    else
      EXPECT_GE(10 * r.b.matched, 9 * r.b.ops) << r.b.matched << "/" << r.b.ops << " of XLA's ops matched";
    // XLA's fusions with exactly our ops, copies counted as their op
    // (docs/compare.md), as measured 2026-12-04: none may be lost, by the
    // fusion rules or by the matching. Under the rule before (the kernels of
    // the paired copies, unpaired ops ignored) resnet_block counted 11 and
    // the train step 91: that rule missed GEMM prologues whose copies were
    // paired with a neighbour's, and counted our fusion.2 holding two
    // batch-norm sums as XLA's loop_maximum_fusion.1 holding one.
    if (auto floor = same_floor.find(s); floor != same_floor.end())
      EXPECT_GE(r.same_groups, floor->second) << r.same_groups << " of XLA's fusions with the same members";
    EXPECT_EQ(CompareToJson(r), CompareToJson(CompareModules(*ours, *xla, CurrentDevice()))) << "not deterministic";
  }
}

TEST(CompareMatch, XlaCpuReferencesMatchAtLeastWhatTheyDidBefore) {
  // XLA:CPU ops matched before op_name, scheduling_name and fused-contents
  // matching came (issue 24); none may be lost. Two floors moved when `gpu`
  // started making XLA GPU's fusions (2026-12-02): our layer norm is one
  // Triton kernel computing x - mean once, where XLA:CPU computes it in two
  // fusions (layer_norm 20 -> 18, its two copies unmatched); resnet_block's
  // small batch-norm sums are recomputed in their consumers (103 -> 102).
  // resnet_block 102 -> 100 when the Hopper presets' launch overhead went
  // from 2 to 1 us (XLA GPU's, docs/cost-model.md): priority fusion takes its
  // batch-norm producers in another order and two of XLA:CPU's ops lose
  // their counterpart (against XLA GPU nothing changed: 101/108).
  const std::map<std::string, int64_t> before = {
      {"attention", 24},     {"embedding_xent", 46}, {"layer_norm", 18},       {"mlp_gelu", 100},
      {"mlp_gelu_bf16", 1},  {"resnet_block", 100},  {"scan_rnn", 2},          {"softmax", 6},
      {"transformer_block", 88}, {"transformer_train_step", 1291}};
  for (const auto& [s, floor] : before) {
    SCOPED_TRACE(s);
    auto ours = LoadSample(testing::SamplesDir() + "/" + s + ".hlo", "gpu");
    auto xla = LoadSample(testing::SamplesDir() + "/" + s + ".xla_cpu_optimized.hlo", "");
    ASSERT_TRUE(ours && xla);
    CompareResult r = CompareModules(*ours, *xla, CurrentDevice());
    EXPECT_GE(r.b.matched, floor) << CompareToText(r);
  }
}

}  // namespace
}  // namespace hloscope::report
