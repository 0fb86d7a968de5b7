// Factories of the simplification passes (each class lives in its own .cc,
// named for the pass) and the `simplify` pipeline.
#pragma once

#include <cstdint>
#include <memory>

#include "core/passes/pass.h"

namespace hloscope {

std::unique_ptr<Pass> MakeDcePass();
std::unique_ptr<Pass> MakeCsePass();
std::unique_ptr<Pass> MakeAlgebraicSimplifierPass();
std::unique_ptr<Pass> MakeTupleSimplifierPass();
std::unique_ptr<Pass> MakeCallInlinerPass();
std::unique_ptr<Pass> MakeZeroSizedHloEliminationPass();
std::unique_ptr<Pass> MakeReshapeMoverPass();
std::unique_ptr<Pass> MakeDegenerateDimensionRewriterPass();
// dot_decomposer (dot_decomposer.cc): XLA's DotDecomposer, in the `gpu` pipeline only.
std::unique_ptr<Pass> MakeDotDecomposerPass();
// batched_gather_scatter_normalizer (batched_gather_scatter_normalizer.cc):
// XLA's BatchedGatherScatterNormalizer, in the `gpu` pipeline only.
std::unique_ptr<Pass> MakeBatchedGatherScatterNormalizerPass();
// ragged_dot_rewriter / scaled-dot-rewriter (ragged_dot_rewriter.cc,
// scaled_dot_rewriter.cc): XLA GPU's RaggedDotRewriter and ScaledDotRewriter,
// ragged and block-scaled dots as plain dots, in `gpu` and `gpu-classic`.
std::unique_ptr<Pass> MakeRaggedDotRewriterPass();
std::unique_ptr<Pass> MakeAssociativeScanRewriterPass();
std::unique_ptr<Pass> MakeScaledDotRewriterPass();
// batchnorm_expander (batchnorm_expander.cc): XLA's BatchNormExpander, in
// `gpu` and `gpu-classic`.
std::unique_ptr<Pass> MakeBatchNormExpanderPass();
std::unique_ptr<Pass> MakeWhileLoopSimplifierPass();
// copy_insertion (copy_insertion.cc): copies for input_output_alias
// outputs whose parameter may still be read after they are computed.
std::unique_ptr<Pass> MakeCopyInsertionPass();
std::unique_ptr<Pass> MakeFlattenCallGraphPass();

struct ConstantFoldingOptions {
  // Results with more elements are not folded (XLA caps folded constants
  // at 45M elements, on the result and on the operands together; ours is
  // lower because every step's module is printed and diffed). Operands are
  // capped at 4M elements.
  int64_t max_result_elements = 1 << 16;
  // Iteration cap for while loops evaluated while folding.
  int64_t max_while_iterations = 1 << 16;
};
std::unique_ptr<Pass> MakeConstantFoldingPass(const ConstantFoldingOptions& opts = {});

}  // namespace hloscope
