// ORC LLJIT for the CPU execution of kernels: parses each kernel's LLVM IR
// text, retargets it to the host (cpu_retarget.h), optimizes at O2 for the
// host and compiles it; the runtime's symbols (cpu_runtime.h) are defined in
// the JIT so kernels call straight into them.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/codegen/cpu_runtime.h"
#include "core/support/status.h"

namespace llvm::orc {
class LLJIT;
}

namespace hloscope::codegen::cpu {

struct CompiledKernel {
  KernelEntry entry = nullptr;
  bool needs_sync = false;
};

class CpuJit {
 public:
  static StatusOr<std::unique_ptr<CpuJit>> Create();
  ~CpuJit();
  // Adds and compiles the kernel `name` defined by `ir` (LLVM IR text).
  // Errors carry "kernel 'NAME': LINE:COL: ..." for IR that does not parse.
  Status AddKernel(const std::string& name, const std::string& ir);
  // Null when not added.
  const CompiledKernel* Find(const std::string& name) const;
  // Address of a global the kernels define (after retargeting: NAME.host),
  // or null when none does.
  void* FindGlobal(const std::string& name) const;
  std::string HostTriple() const;

 private:
  CpuJit() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::map<std::string, CompiledKernel> kernels_;
  struct Host;
  std::unique_ptr<Host> host_;
};

}  // namespace hloscope::codegen::cpu
