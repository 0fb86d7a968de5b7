// The last stage of the pipeline: PTX → cubin (ptxas) → SASS (nvdisasm),
// with the kernel's resources (registers, spills, shared memory, barriers,
// constant bank) from `ptxas -v`, its occupancy per device preset, and
// instruction counts by class from the SASS. Runs without a GPU.
//
// The tools are located here and nowhere else: ptxas as PtxasPath()
// (nvptx_backend.h); nvdisasm from $HLOSCOPE_NVDISASM, PATH, next to ptxas
// (the CUDA toolkit), or the project-local folder tools/install_deps.sh
// fills from PyPI's nvidia-cuda-nvdisasm wheel (<source>/.tools/nvdisasm).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/codegen/nvptx_targets.h"
#include "core/cost/device.h"
#include "core/support/status.h"

namespace hloscope::codegen {

std::string NvdisasmPath();  // "" when absent
// "" when ptxas and nvdisasm are both found; otherwise one sentence saying
// which is missing and how to get it.
std::string MissingSassTools();

// What `ptxas -v` reports for one entry function.
struct KernelResources {
  int registers = 0;
  int64_t spill_stores = 0, spill_loads = 0;  // bytes
  int64_t stack_bytes = 0;                    // stack frame
  int64_t shared_bytes = 0;                   // static shared memory (smem)
  int barriers = 0;
  int64_t constant_bytes = 0;                 // cmem[0]: the kernel's parameters and constant bank 0
};

// Parses ptxas's -v log for `entry` (its "Compiling entry function" block).
// Error when the log does not mention it.
StatusOr<KernelResources> ParsePtxasInfo(const std::string& log, const std::string& entry);

// ptxas -v -arch=<target.sm> on one PTX module, without nvdisasm or a kept
// cubin: the resources of each entry function `entries` names (a module may
// hold several, as XLA's do). Error when ptxas is missing, rejects the PTX
// (with its log) or does not report an entry.
StatusOr<std::map<std::string, KernelResources>> PtxasResources(const std::string& ptx,
                                                                const std::vector<std::string>& entries,
                                                                const NvptxTarget& target);

// The size of each kernel's constant bank 0 in a cubin (its ELF section
// `.nv.constant0.<kernel>`), by kernel name. ptxas -v for sm_90 and newer no
// longer prints `bytes cmem[0]`; the section has the same number. Empty for
// a file that is not a 64-bit little-endian ELF or is truncated.
std::map<std::string, int64_t> ConstantBankSizes(const std::string& cubin_bytes);

// Active warps per SM for a launch of `block_threads` threads per block and
// `dynamic_shared` bytes of dynamic shared memory, and what limits them:
// "warps" (threads per SM), "blocks" (blocks per SM), "registers" or
// "shared memory". Registers are allocated per warp in units of 256,
// shared memory per block with 1 KiB reserved (sm_80 and newer).
struct Occupancy {
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  int blocks_per_sm = 0;
  std::string limited_by;
};
Occupancy ComputeOccupancy(const KernelResources& r, int64_t block_threads, int64_t dynamic_shared,
                           const DeviceSpec& device);

// SASS instructions by class: memory (LD/ST/ATOM/RED/LDG/STG/LDS/STS/LDC/...),
// tensor (HMMA/IMMA/HGMMA/...), control (BRA/EXIT/BAR/CALL/RET/...), fma_alu
// (FFMA/FADD/IMAD/IADD3/LOP3/MUFU/conversions/...), other (MOV/S2R/NOP/...).
struct SassStats {
  int64_t memory = 0, tensor = 0, control = 0, fma_alu = 0, other = 0, total = 0;
};
SassStats ClassifySass(const std::string& sass);

struct SassCode {
  std::string sm;          // the -arch it was assembled for
  std::string sass;        // nvdisasm's text of the code sections
  KernelResources resources;
  SassStats stats;
  std::string ptxas_log;   // ptxas -v, as printed
};

// ptxas -v -lineinfo -arch=<target.sm> on `ptx`, then nvdisasm -c -g -gp on
// the cubin (the SASS names each instruction's HLO and PTX lines:
// core/codegen/line_info.h); the resources are those of entry function
// `entry`.
StatusOr<SassCode> CompileToSass(const std::string& ptx, const std::string& entry, const NvptxTarget& target);

// Many kernels at once, each result as CompileToSass's would be: modules
// whose only module-scope lines are the PTX header are merged into one PTX
// module (ptxas compiles each entry on its own, so the code is the same; the
// .L_x_ labels are renumbered per kernel; the line-info .file tables become
// one, and the PTX lines nvdisasm names are mapped back to each kernel's own
// PTX), assembled once and disassembled once; the SASS is split by the
// kernels' .text sections, with the helper functions (__cuda_*) a kernel
// calls. Others, and a batch ptxas refuses, go one by one.
struct SassJob {
  std::string entry;
  const std::string* ptx = nullptr;
};
std::vector<StatusOr<SassCode>> CompileToSassBatch(const std::vector<SassJob>& jobs, const NvptxTarget& target);

}  // namespace hloscope::codegen
