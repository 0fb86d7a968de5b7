// The counter-based generators behind rng-bit-generator, exposed for tests
// against published known-answer vectors.
#pragma once

#include <cstdint>

namespace hloscope::eval {

// Threefry2x32 with 20 rounds (Salmon et al., SC 2011), as XLA uses it.
void ThreeFry2x32(uint32_t key0, uint32_t key1, uint32_t in0, uint32_t in1, uint32_t* out0, uint32_t* out1);
// Philox4x32 with 10 rounds.
void Philox4x32(const uint32_t ctr[4], uint32_t key0, uint32_t key1, uint32_t out[4]);

}  // namespace hloscope::eval
