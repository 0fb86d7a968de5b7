// Registration of the GPU fusion passes and the `gpu` / `gpu-classic`
// pipelines.
#include "core/fusion/fusion_pass_base.h"
#include "core/passes/collective_passes.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rng_expander.h"

namespace hloscope {

std::unique_ptr<Pass> MakeInstructionFusionPass(bool may_duplicate);
std::unique_ptr<Pass> MakePriorityFusionPass();
std::unique_ptr<Pass> MakeFusionMergerPass();
std::unique_ptr<Pass> MakeMultiOutputFusionPass();
std::unique_ptr<Pass> MakeHorizontalLoopFusionPass();
std::unique_ptr<Pass> MakeGemmFusionPass();
std::unique_ptr<Pass> MakeSoftmaxRewriterPass();
std::unique_ptr<Pass> MakeTreeReductionRewriterPass();
std::unique_ptr<Pass> MakeConvRewriterPass();

namespace {
template <typename F>
void Add(PassRegistry& r, F make) {
  std::unique_ptr<Pass> probe = make();
  (void)r.RegisterPass({std::string(probe->name()), std::string(probe->description()), make});
}
}  // namespace

void RegisterFusionPasses(PassRegistry& r) {
  Add(r, [] { return MakeInstructionFusionPass(false); });
  Add(r, [] { return MakeInstructionFusionPass(true); });
  Add(r, [] { return MakeFusionMergerPass(); });
  Add(r, [] { return MakeMultiOutputFusionPass(); });
  Add(r, [] { return MakePriorityFusionPass(); });
  Add(r, [] { return MakeHorizontalLoopFusionPass(); });
  Add(r, [] { return MakeRngExpanderPass(); });
  Add(r, [] { return MakeGemmFusionPass(); });
  Add(r, [] { return MakeSoftmaxRewriterPass(); });
  Add(r, [] { return MakeTreeReductionRewriterPass(); });
  Add(r, [] { return MakeConvRewriterPass(); });
  Add(r, [] { return MakeReduceScatterCreatorPass(); });
  Add(r, [] { return MakeAllGatherCombinerPass(); });
  Add(r, [] { return MakeAllReduceCombinerPass(); });
  Add(r, [] { return MakeReduceScatterCombinerPass(); });
  Add(r, [] { return MakeAllReduceContiguousPass(); });
  using S = PipelineStage;
  (void)r.RegisterPipeline({"gpu",
                            "Today's XLA GPU pipeline, simplified: rng expansion, ragged and block-scaled dots as plain dots (ragged_dot_rewriter, scaled-dot-rewriter), cumulative scans as reduce-windows (associative-scan-rewriter), batch normalization as its arithmetic (batchnorm_expander), gathers and scatters without batching dimensions (batched_gather_scatter_normalizer), dots in canonical form (dot_decomposer), simplify, "
                            "all-reduces whose result each device slices to its shard as reduce-scatters (reduce-scatter-creator), convolutions as cuDNN calls (conv-rewriter), GEMM fusion (triton-gemm-rewriter), "
                            "normalization fusion (triton-softmax-rewriter), long reductions split in two (tree-reduction-rewriter), priority fusion, multi-output fusion, "
                            "independent collectives combined (gpu-all-gather-combiner, gpu-all-reduce-combiner, gpu-reduce-scatter-combiner) and combined all-reduces made contiguous (all-reduce-contiguous), then CSE, DCE and "
                            "copy insertion. (Horizontal loop fusion is not in it: XLA GPU 0.12 changed nothing with "
                            "it on any sample; run it by name to see what it would merge.)",
                            {S::Pass("rng_expander"), S::Pass("ragged_dot_rewriter"), S::Pass("scaled-dot-rewriter"), S::Pass("associative-scan-rewriter"), S::Pass("batchnorm_expander"), S::Pass("batched_gather_scatter_normalizer"), S::Pass("dot_decomposer"), S::Include("simplify"), S::Pass("reduce-scatter-creator"),
                             S::Pass("conv-rewriter"), S::Pass("triton-gemm-rewriter"),
                             S::Pass("triton-softmax-rewriter"), S::Pass("tree-reduction-rewriter"), S::Pass("priority_fusion"), S::Pass("multi_output_fusion"),
                             S::Pass("gpu-all-gather-combiner"), S::Pass("gpu-all-reduce-combiner"), S::Pass("gpu-reduce-scatter-combiner"), S::Pass("all-reduce-contiguous"),
                             S::FixedPoint("gpu-cleanup", {S::Pass("cse"), S::Pass("dce")}, 4), S::Pass("copy_insertion")}});
  (void)r.RegisterPipeline({"gpu-classic",
                            "XLA's older GPU pipeline: rng expansion, ragged and block-scaled dots as plain dots (as every XLA GPU "
                            "compile now does first), cumulative scans as reduce-windows, batch normalization expanded, simplify, instruction fusion (without, then with "
                            "duplication), fusion merger, multi-output fusion, then CSE, DCE and copy insertion.",
                            {S::Pass("rng_expander"), S::Pass("ragged_dot_rewriter"), S::Pass("scaled-dot-rewriter"), S::Pass("associative-scan-rewriter"), S::Pass("batchnorm_expander"), S::Include("simplify"), S::Pass("fusion"), S::Pass("fusion_dup"),
                             S::Pass("fusion_merger"), S::Pass("multi_output_fusion"),
                             S::FixedPoint("gpu-cleanup", {S::Pass("cse"), S::Pass("dce")}, 4), S::Pass("copy_insertion")}});
}

}  // namespace hloscope
