// XLA GPU's collective passes: reduce-scatter creation before fusion, and
// after fusion the combiners (many small independent collectives of one
// kind become one over a tuple) and all-reduce-contiguous (a combined
// all-reduce reduces one flat buffer). Registered with the fusion passes and
// run by the `gpu` pipeline.
#pragma once

#include <cstdint>
#include <memory>

#include "core/passes/pass.h"

namespace hloscope {

// XLA GPU's default thresholds: 30 MiB + 7 bytes of results
// (xla_gpu_*_combine_threshold_bytes) and 2,048 collectives
// (xla_gpu_collective_combine_threshold_count) per combined op.
inline constexpr int64_t kCombineThresholdBytes = 30 * 1024 * 1024 + 7;
inline constexpr int64_t kCombineThresholdCount = 2048;

std::unique_ptr<Pass> MakeReduceScatterCreatorPass();
std::unique_ptr<Pass> MakeAllGatherCombinerPass();
std::unique_ptr<Pass> MakeAllReduceCombinerPass();
std::unique_ptr<Pass> MakeReduceScatterCombinerPass();
std::unique_ptr<Pass> MakeAllReduceContiguousPass();

}  // namespace hloscope
