// The hidden random-number state of a module run, behind
// `rng-get-and-update-state` (and `rng`, which the rng_expander pass rewrites
// into it), shared by the interpreter, the rng_expander pass and the kernels.
//
//  * One 128-bit unsigned integer per run of a module, stored as u64[2]
//    (element 0 the low 64 bits), as XLA's GPU backend keeps it in the LLVM
//    global `rng_state`.
//  * Every run starts from kRngStateSeed, XLA's own initializer of that
//    global (llvm_util.cc: a non-zero 0x7012395), so runs are reproducible:
//    the interpreter resets it at the start of each EvaluateModule /
//    EvaluateComputation, the CPU executor before each run of the plan.
//  * `rng-get-and-update-state(), delta=D` returns the current state and
//    adds D (a 128-bit add).
//  * rng_expander draws Philox bits with key kRngExpanderKey and the 128-bit
//    counter from the state. XLA takes the key from the module's seed (and
//    mixes in the op's id); one fixed key is enough here because the counter
//    ranges of two rng ops never overlap (delta counts 32-bit values and a
//    Philox call yields four of them), and it lets the interpreter evaluate
//    an unexpanded `rng` exactly as its expansion.
#pragma once

#include <cstdint>

namespace hloscope {

inline constexpr uint64_t kRngStateSeedLo = 0x7012395;
inline constexpr uint64_t kRngStateSeedHi = 0;
// The kernels' LLVM global holding the state (core/codegen/rng_state_emitter.cc);
// the CPU executor resets it to the seed before every run of a plan.
inline constexpr char kRngStateGlobal[] = "hloscope_rng_state";
// Digits of pi: an arbitrary, nothing-up-the-sleeve Philox key.
inline constexpr uint64_t kRngExpanderKey = 0x3141592653589793ull;

// The 128-bit state as (lo, hi).
struct RngState {
  uint64_t lo = kRngStateSeedLo;
  uint64_t hi = kRngStateSeedHi;

  // Returns the current state and advances it by `delta`.
  RngState GetAndUpdate(uint64_t delta) {
    RngState old = *this;
    lo += delta;
    if (lo < old.lo) ++hi;
    return old;
  }
};

}  // namespace hloscope
