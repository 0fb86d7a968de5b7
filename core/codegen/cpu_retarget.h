// Retargets one emitted kernel module (NVPTX-flavoured LLVM IR) to the host so
// the CPU can run the same kernel logic (cpu_runtime.h lists what each GPU
// feature becomes). Used by cpu_jit.cc.
#pragma once

#include <string>

#include "core/support/status.h"

namespace llvm {
class Module;
class DataLayout;
}  // namespace llvm

namespace hloscope::codegen::cpu {

struct RetargetInfo {
  std::string entry;        // "<kernel>__hs_entry": void(ptr args) calling the kernel
  bool needs_sync = false;  // barriers or shuffles: threads run as coroutines
};

// Rewrites `m` in place: host triple and data layout, no nvvm annotations or
// target attributes, no noalias (emulated threads of a block interleave at
// barriers), GPU features replaced, non-generic address-space globals moved
// to address space 0 (shared memory becomes one external global per array),
// plus the entry wrapper. Errors name any GPU intrinsic or libdevice function
// the CPU runtime does not provide.
StatusOr<RetargetInfo> RetargetForHost(llvm::Module& m, const std::string& kernel, const std::string& triple,
                                       const llvm::DataLayout& dl);

}  // namespace hloscope::codegen::cpu
