// The small runtime that stands in for the GPU when the kernels run on the
// CPU (cpu_executor.h). cpu_retarget.cc rewrites each GPU feature of a kernel
// into a use of what is declared here:
//   sreg reads (tid/ctaid/ntid/nctaid .x/.y/.z) → loads from kStateSymbol
//   llvm.nvvm.barrier0                           → call kBarrierSymbol()
//   llvm.nvvm.shfl.sync.{down,bfly,idx}.{i32,f32} → call kShuffleSymbol(mode, mask, value, b, c)
//   __nv_* math                                 → host functions (cpu_libdevice.cc)
// Emulated threads: a kernel without barriers or shuffles runs its threads as
// a plain loop; one with them runs each block's threads as coroutines, so a
// barrier waits for the whole block and a shuffle for the whole warp.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::codegen::cpu {

// The emulated special registers: tid[3], ctaid[3], ntid[3], nctaid[3].
struct ThreadState {
  uint32_t tid[3], ctaid[3], ntid[3], nctaid[3];
};
inline constexpr const char* kStateSymbol = "__hloscope_cpu_state";
inline constexpr const char* kBarrierSymbol = "__hloscope_cpu_barrier";
inline constexpr const char* kShuffleSymbol = "__hloscope_cpu_shfl";
enum ShuffleMode : int32_t { kShflDown = 0, kShflBfly = 1, kShflIdx = 2, kShflUp = 3 };

// The entry every kernel gets (made by cpu_retarget.cc): arguments as an
// array of pointers.
using KernelEntry = void (*)(void* const* args);

// Host symbols the JIT'd kernels may call: the state, barrier and shuffle,
// the libdevice functions this runtime provides, and half/bfloat
// conversion helpers.
std::vector<std::pair<std::string, void*>> RuntimeSymbols();
// Is `name` (a `__nv_*` function) provided?
bool HasLibdeviceFunction(const std::string& name);

// Runs every thread of every block of a launch. `needs_sync`: the kernel uses
// barriers or shuffles (coroutines), else a plain loop. Errors: a deadlock
// (threads of a block waiting at different barriers/shuffles forever).
Status RunGrid(KernelEntry entry, void* const* args, const runtime::LaunchDims& dims, bool needs_sync,
               const std::string& kernel_name);

}  // namespace hloscope::codegen::cpu
