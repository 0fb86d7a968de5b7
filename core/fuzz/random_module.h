// Random, well-typed HLO modules from a seed (Csmith/NNSmith for HLO): the
// generator behind hloscope-diffuzz. The same seed and options give the
// same text on every machine (own splitmix64 stream, no std::
// distributions). Modules are small (a few to ~30 instructions, a few
// thousand elements at most) so that thousands run through every pipeline
// per minute, and cover elementwise chains with broadcasts and diamonds;
// reductions (row, column, full, variadic) with epilogues; transpose,
// reshape, bitcast, slice, concatenate, pad, reverse, dynamic-slice,
// dynamic-update-slice; gather, scatter; dot (batched, transposed), ragged-dot, scaled-dot,
// convolution, batch norms; JAX's potrf/trsm library calls; while loops with tuple state, conditionals; tuple roots;
// f32, bf16, f16, s32 and pred. Shapes lean to the edges (size 1, 0,
// non-multiples of 32), layouts are often not the default, and parameters
// are donated (input_output_alias) where an output has their shape.
#pragma once

#include <cstdint>
#include <string>

namespace hloscope::fuzz {

struct GenOptions {
  int max_dim = 40;    // every dimension is at most this (the shrinker lowers it)
  int max_ops = 24;    // instructions the entry's body aims for
  int64_t max_elements = 2048;  // no array larger than this
  bool control_flow = true;     // while loops and conditionals
};

// The module's text, as the parser reads it.
std::string GenerateModuleText(uint64_t seed, const GenOptions& opts = {});

// splitmix64: the generator's and the driver's random stream.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (one draw whatever the range).
  int64_t Range(int64_t lo, int64_t hi) {
    uint64_t v = Next();
    return hi <= lo ? lo : lo + static_cast<int64_t>(v % static_cast<uint64_t>(hi - lo + 1));
  }
  bool Chance(int percent) { return Range(0, 99) < percent; }

 private:
  uint64_t state_;
};

}  // namespace hloscope::fuzz
