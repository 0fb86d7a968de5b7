// The cost model: flops, HBM bytes read and written, and an estimated time
//   time = max(bytes / bandwidth, flops / throughput) + launch overhead
// for one kernel (an unfused instruction or a fusion), for a candidate group
// of instructions (what a fusion would be), and for a whole module.
// Formulas and the flop weights are documented in docs/cost-model.md.
#pragma once

#include <cstdint>
#include <vector>

#include "core/cost/device.h"
#include "core/ir/module.h"

namespace hloscope {

struct Cost {
  double flops = 0;
  // XLA's cost of the non-matrix work: clock cycles per element of each op
  // from its measured profile of the GPU (GpuHloCostAnalysis with
  // HloOpProfiles: f32 add 7, multiply 3, divide 19, exp 79, tanh 467,
  // power 510, ...; 3 for an op it has not measured), times each op's
  // utilization. Its time is what `time` charges for arithmetic.
  double cycles = 0;
  int64_t bytes_read = 0, bytes_written = 0;
  double memory_us = 0, compute_us = 0, launch_us = 0, time_us = 0;
  int64_t kernels = 0;
  // Bytes read again after the first read (a broadcast reads each element of
  // its operand once per output element; a scalar constant once per use), as
  // XLA's GPU cost analysis counts them: from L1 (inputs under 2 kB per SM,
  // 20x HBM bandwidth) or L2 (2.5x). Time only, not HBM traffic.
  int64_t bytes_reread_l1 = 0, bytes_reread_l2 = 0;
  // Bytes XLA's estimate reads again at HBM speed: an unfused elementwise op
  // that takes one operand twice (x·x) is charged a read per operand.
  int64_t bytes_reread_hbm = 0;
  // Thread blocks of a kernel (0: not known, the whole device). XLA's
  // estimate lets one block read 32 bytes per clock.
  int64_t blocks = 0;
  // Threads per block (0: not known, 128). XLA's compute time counts
  // min(threads, 128) busy lanes per block: a 16-element kernel computes on
  // 16 lanes.
  int64_t threads = 0;
  int64_t bytes() const { return bytes_read + bytes_written; }
  Cost& operator+=(const Cost& o);
};

// Flops of one instruction as an unfused op (fusions: their members).
double InstructionFlops(const Instruction& i);
// XLA's op-profile cycles of one instruction (fusions: their members, each
// times its utilization); see Cost::cycles.
double InstructionCycles(const Instruction& i);
// True if the instruction becomes a kernel of its own on a GPU (false for
// parameters, constants, tuples, get-tuple-element, bitcasts, control flow
// whose work is in nested computations, ...).
bool LaunchesKernel(const Instruction& i);
// Ops that are costly to recompute (XLA's "expensive" set for fusion).
bool IsExpensive(const Instruction& i);

// Bytes a kernel reads of `operand` when `users` are its readers inside the
// kernel: everything, unless all of them only select (slice, dynamic-slice,
// gather's operand), then what they select.
int64_t OperandReadBytes(const Instruction* operand, const std::vector<const Instruction*>& users);

// What a kernel reads of one input, as XLA's GPU cost analysis counts it
// (GpuHloCostAnalysis utilization): `net` bytes from HBM the first time and
// `total` in all, the rest re-read from cache. Inputs are the kernel's
// operands and, for a fusion, the constants inside it (XLA's fusions take
// constants as operands until after fusion).
struct InputRead {
  const Instruction* input = nullptr;
  int64_t net = 0, total = 0;
  bool constant = false;  // a constant inside the fusion
  bool operator==(const InputRead& o) const {
    return input == o.input && net == o.net && total == o.total && constant == o.constant;
  }
};
// The inputs of `kernel` (a fusion: by parameter number, then its constants;
// otherwise its distinct operands).
std::vector<InputRead> KernelReads(const Instruction& kernel);
// Adds `r` to the kernel cost `c`: net bytes to bytes_read (constants: to
// the re-reads), the rest to the re-reads of its cache level.
void AddRead(Cost& c, const InputRead& r, const DeviceSpec& d);

// Cost of `i` as one kernel (a fusion counts its fused computation; its
// parameters are read once each).
Cost KernelCost(const Instruction& i, const DeviceSpec& d);

// Cost of a candidate kernel made of `members` (all in one computation): an
// operand from outside is read once however many members use it (a slice
// or gather reads only what it selects); members used outside the group
// (or the root) are written.
Cost GroupCost(const std::vector<const Instruction*>& members, const DeviceSpec& d);

// Turns flops and bytes into times on the device.
void FinishCost(Cost& c, const DeviceSpec& d, bool matrix, PrimitiveType matrix_type);
// XLA's fallback launch: one thread per element of the (largest) output,
// 128 threads per block.
int64_t KernelBlocks(const Shape& out);
// Thread blocks of `kernel` (an instruction or a fusion): KernelBlocks of
// its output, but a reduction is launched over what it reads (XLA's
// reduction emitter gives each block a few rows or a tile of its input), at
// least one block per 8 x 128 elements read.
int64_t KernelLaunchBlocks(const Instruction& kernel);
// Threads per block of `kernel`, as XLA GPU launches it: a loop kernel one
// per element of its (largest) output up to 128; a reduction one per kept
// element, times the length of the contiguous reduced row when the minor
// dimension is reduced, up to 1024.
int64_t KernelLaunchThreads(const Instruction& kernel);
// XLA's !IsUnnestedReductionFasterThanElemental: a row reduction of rows
// shorter than a warp (32) that do not divide it, or a small column
// reduction (reduced extent < 32, or < 64 with < 32 columns, < 128 with < 8,
// < 256 with < 3), is emitted elementally by the loop emitter.
bool ReductionPrefersElemental(const Instruction& reduce);
// How XLA GPU launches `kernel`: blocks and threads per block (as
// KernelLaunchBlocks and KernelLaunchThreads), and whether as a reduction
// (LaunchesAsReduction). One walk for all three.
struct KernelLaunch {
  int64_t blocks = 1, threads = 1;
  bool reduction = false;
};
KernelLaunch LaunchOf(const Instruction& kernel);
// True if `kernel` is launched as a reduction (a reduce, or an input fusion
// whose root or one of whose outputs is a reduce), not elementally.
bool LaunchesAsReduction(const Instruction& kernel);

struct ModuleCost {
  int64_t kernels = 0;
  int64_t hbm_bytes = 0;  // bytes_read + bytes_written
  double est_us = 0;
  double flops = 0;
  int64_t bytes_read = 0, bytes_written = 0;  // HBM traffic split (core/report/traffic.h)
};
// Sum over the kernels of the entry (nested while/conditional/call bodies
// counted once).
ModuleCost EstimateModule(const Module& m, const DeviceSpec& d);

}  // namespace hloscope
