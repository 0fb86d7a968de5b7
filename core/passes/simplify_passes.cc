// Registers the simplification passes and the `simplify` pipeline.
#include "core/passes/simplify_passes.h"

#include "core/passes/pass_registry.h"

namespace hloscope {
namespace {

void Register(PassRegistry& r, std::unique_ptr<Pass> (*make)()) {
  std::unique_ptr<Pass> probe = make();
  Status s = r.RegisterPass({std::string(probe->name()), std::string(probe->description()), make});
  (void)s;  // built-in names are unique
}

std::unique_ptr<Pass> MakeDefaultConstantFolding() { return MakeConstantFoldingPass(); }

}  // namespace

void RegisterSimplifyPasses(PassRegistry& r) {
  Register(r, MakeDcePass);
  Register(r, MakeCsePass);
  Register(r, MakeAlgebraicSimplifierPass);
  Register(r, MakeDefaultConstantFolding);
  Register(r, MakeTupleSimplifierPass);
  Register(r, MakeCallInlinerPass);
  Register(r, MakeZeroSizedHloEliminationPass);
  Register(r, MakeReshapeMoverPass);
  Register(r, MakeDegenerateDimensionRewriterPass);
  Register(r, MakeDotDecomposerPass);
  Register(r, MakeBatchedGatherScatterNormalizerPass);
  Register(r, MakeRaggedDotRewriterPass);
  Register(r, MakeAssociativeScanRewriterPass);
  Register(r, MakeScaledDotRewriterPass);
  Register(r, MakeBatchNormExpanderPass);
  Register(r, MakeWhileLoopSimplifierPass);
  Register(r, MakeFlattenCallGraphPass);
  Register(r, MakeCopyInsertionPass);

  using S = PipelineStage;
  Status s = r.RegisterPipeline(
      {"simplify",
       "Target-independent cleanup: inline calls, un-share loop bodies, then algebraic simplification, "
       "constant folding, tuple/loop cleanup, CSE and DCE until nothing changes; then copies for donated "
       "parameters still read after their output is written.",
       {S::Pass("call_inliner"), S::Pass("flatten_call_graph"), S::Pass("zero_sized_hlo_elimination"),
        S::Pass("dce"),
        S::FixedPoint("simplify-fixed-point",
                      {S::Pass("algsimp"), S::Pass("constant_folding"), S::Pass("tuple_simplifier"),
                       S::Pass("reshape_mover"), S::Pass("while_loop_simplifier"), S::Pass("cse"),
                       S::Pass("dce")},
                      10),
        S::PassUnlessIncluded("copy_insertion")}});
  (void)s;
}

}  // namespace hloscope
