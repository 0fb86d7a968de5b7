// rng_expander: XLA's RngExpander. `rng(a, b), distribution=...` draws from
// hidden state; it becomes explicit HLO: the state
// (`rng-get-and-update-state`, delta = the 32-bit values the op consumes),
// Philox bits from `rng-bit-generator` on (key, state), and elementwise ops
// that turn bits into values, as xla/hlo/builder/lib/prng.cc does:
//  * uniform floats in [a, b): the top mantissa-width bits, converted and
//    scaled by 2^-mantissa, times (b - a), plus a;
//  * uniform integers: a + (bits mod (b - a)), the remainder added in two
//    halves so that it cannot overflow the signed type;
//  * normal floats: uniform [0, 1) values in pairs over the shape split in
//    halves (XLA's SplitShapeIntoHalves), the Box–Muller transform, then
//    mean + sigma * z.
// f16/bf16 are computed in f32 and converted back (XLA's
// ConvertSmallFpRngToF32Rng). Other element types (pred, 8/16-bit integers,
// f8, complex) are left alone, as XLA rejects them. The key and the initial
// state are documented in core/eval/rng_state.h.
#pragma once

#include <memory>

#include "core/passes/pass.h"

namespace hloscope {

std::unique_ptr<Pass> MakeRngExpanderPass();

}  // namespace hloscope
