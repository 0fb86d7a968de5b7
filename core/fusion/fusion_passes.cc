// Registration of the GPU fusion passes and the `gpu` / `gpu-classic`
// pipelines.
#include "core/fusion/fusion_pass_base.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rng_expander.h"

namespace hloscope {

std::unique_ptr<Pass> MakeInstructionFusionPass(bool may_duplicate);
std::unique_ptr<Pass> MakePriorityFusionPass();
std::unique_ptr<Pass> MakeFusionMergerPass();
std::unique_ptr<Pass> MakeMultiOutputFusionPass();
std::unique_ptr<Pass> MakeHorizontalLoopFusionPass();

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
  using S = PipelineStage;
  (void)r.RegisterPipeline({"gpu",
                            "XLA's GPU pipeline, simplified: rng expansion, simplify, priority fusion, multi-output and horizontal "
                            "fusion, then CSE, DCE and copy insertion.",
                            {S::Pass("rng_expander"), S::Include("simplify"), S::Pass("priority_fusion"), S::Pass("multi_output_fusion"),
                             S::Pass("horizontal_loop_fusion"),
                             S::FixedPoint("gpu-cleanup", {S::Pass("cse"), S::Pass("dce")}, 4), S::Pass("copy_insertion")}});
  (void)r.RegisterPipeline({"gpu-classic",
                            "XLA's older GPU pipeline: rng expansion, simplify, instruction fusion (without, then with "
                            "duplication), fusion merger, multi-output fusion, then CSE, DCE and copy insertion.",
                            {S::Pass("rng_expander"), S::Include("simplify"), S::Pass("fusion"), S::Pass("fusion_dup"),
                             S::Pass("fusion_merger"), S::Pass("multi_output_fusion"),
                             S::FixedPoint("gpu-cleanup", {S::Pass("cse"), S::Pass("dce")}, 4), S::Pass("copy_insertion")}});
}

}  // namespace hloscope
