// The kernel plan: what the entry computation becomes after `gpu` fusion and
// buffer assignment, as XLA's GPU backend lowers it — a sequence of thunks over
// allocations. Codegen (core/codegen) builds it; the executors (CPU in
// core/codegen, CUDA in core/runtime) run it; a bundle stores it as
// manifest.json (see docs/bundle-format.md). No LLVM, no Qt in here: the
// standalone `hloscope-run` reads and runs it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace hloscope::runtime {

inline constexpr int kManifestVersion = 1;

// One buffer-assignment allocation = one device allocation.
struct PlanAllocation {
  int index = 0;
  std::string kind;               // "parameter" | "constant" | "temp" | "output"
  int64_t size = 0;               // bytes
  int64_t parameter_number = -1;  // kind == parameter
  std::vector<int64_t> parameter_index;  // tuple index inside that parameter
  bool maybe_live_out = false;
  // kind == constant: the initial contents (size bytes), written by the host
  // before the first thunk. In a bundle: a file under constants/.
  std::vector<uint8_t> init;
};

// A byte range of an allocation (XLA's BufferAllocation::Slice).
struct Slice {
  int allocation = -1;
  int64_t offset = 0;
  int64_t size = 0;
};

struct LaunchDims {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t shared_bytes = 0;  // dynamic shared memory (static shared is in the kernel)
  int64_t threads() const {
    return int64_t(grid[0]) * grid[1] * grid[2] * block[0] * block[1] * block[2];
  }
};

// A kernel launch. Arguments are passed as one pointer each, in `args` order
// (kernel signature: `void name(ptr noalias %arg0, ...)`).
struct KernelThunk {
  std::string name;          // launch name, unique in the plan
  // The kernel it launches (LLVM function, <kernel>.ll/.ptx in a bundle).
  // Launches of identical fused computations share one kernel, as XLA's do:
  // the name of the first such launch. Empty: `name` (KernelFunction).
  std::string kernel;
  std::string kind;          // "loop" | "row-reduction" | "column-reduction" | "normalization" | "transpose" |
                             // "dot" | "dot-blocked" | "gemm-mma" | "gemm-wgmma" | "dynamic-update-slice" | "scatter" | "concatenate" |
                             // "copy" | "sort" | "convolution" | "library-convolution" | "topk" | "fft" | "cholesky" |
                             // "select-and-scatter" | "rng-bit-generator" | "elemental" | ...
                             // (docs/bundle-format.md)
  std::string instruction;   // the HLO instruction (usually a fusion) it implements
  // How the kernel does its work, in one line for people ("mma.sync m16n8k16
  // bf16, tile 128×128×32, …; lhs by cp.async …"): the choices its emitter
  // made for this shape, or "" where the kind says it all.
  std::string strategy;
  LaunchDims dims;
  std::vector<Slice> args;
  std::vector<bool> arg_written;  // per arg: does the kernel write it
  // Non-empty: no kernel could be generated for the instruction, and why
  // (the bundle is complete otherwise; runners refuse it, naming these).
  std::string missing;
  // Cost-model numbers for the same instruction (for measured vs estimated).
  int64_t bytes = 0;
  int64_t flops = 0;
  double estimated_us = 0;
  // From ptxas and nvdisasm when codegen ran them (core/codegen/sass.h):
  // "<kernel>.sass" and the manifest's "resources" object as JSON text
  // (docs/bundle-format.md); empty when not made.
  std::string sass;
  std::string resources_json;
};

struct CopyThunk {  // device-to-device copy
  std::string instruction;
  Slice src, dst;
};

struct MemsetThunk {  // fill dst with a 32-bit pattern (e.g. reduction init)
  std::string instruction;
  Slice dst;
  uint32_t pattern = 0;
};

// A collective (all-reduce, all-gather, reduce-scatter, all-to-all,
// collective-permute, collective-broadcast, their -start/-done forms) or a
// device id (partition-id, replica-id): not a kernel but an exchange between
// devices, as XLA's collective thunks. `participants` is the size of each
// replica group (empty groups: every device of the module). A run on one
// device does it as copies (an id is 0), and ValidatePlanForRun refuses a
// plan where more participate, naming these thunks; a run on every device
// of the plan (RunOnCpuDevices, core/runtime/collective_exchange.h) moves
// the data between the devices by the fields below the line.
struct CollectiveThunk {
  std::string instruction;
  std::string op;                // the HLO opcode
  int64_t participants = 1;
  std::string replica_groups;    // as written ("{{0,1,2,3}}", "[2,4]<=[8]", "{}")
  int64_t channel_id = -1;
  std::vector<int64_t> dimensions;  // all-gather / reduce-scatter / all-to-all
  std::string reduction;         // to_apply's name (all-reduce, reduce-scatter)
  std::string source_target_pairs;  // collective-permute, as written
  std::vector<Slice> operands;   // array leaves read
  std::vector<Slice> results;    // array leaves written
  // ---- what a run on several devices needs (empty where it could not be read)
  // The groups of devices (flattened ids: replica × partitions + partition)
  // that exchange data, each in the order it combines its members (a
  // group's first device is collective-broadcast's root).
  std::vector<std::vector<int64_t>> device_groups;
  // collective-permute: per device, the device whose operand it receives,
  // or -1 (it receives zeros).
  std::vector<int64_t> permute_sources;
  // all-reduce / reduce-scatter: the reducer when it is one elementwise op
  // of its two parameters: add, multiply, maximum, minimum, and, or, xor;
  // or one of them: first (the accumulated value), last (the new one).
  std::string reduction_kind;
  // One HLO shape (with layout) per leaf of `operands` and `results`.
  std::vector<std::string> operand_shapes, result_shapes;
};

// infeed, outfeed, send, recv and their -done forms: data to or from the
// host or another program, as XLA's host-transfer thunks. One that moves no
// data (a token, an empty tuple) does nothing; the runners refuse a plan
// with any that moves data, naming them (ValidatePlanForRun): nothing here
// feeds or drains them.
struct HostTransferThunk {
  std::string instruction;
  std::string op;              // the HLO opcode
  int64_t channel_id = -1;
  std::string config;          // infeed_config / outfeed_config, as written
  std::vector<Slice> operands;  // array leaves sent
  std::vector<Slice> results;   // array leaves received
  bool MovesData() const { return !operands.empty() || !results.empty(); }
};

// A custom-call no kernel of ours implements: a call into a library or a
// framework (Transformer Engine's fused attention, a cuBLAS GEMM, a JAX
// callback, a test target), as XLA's CustomCallThunk, which looks the target
// up in its registry when the program runs. The plan keeps its place, target
// and slices so the rest of the module still exports; the runners provide no
// targets and refuse a plan with any (ValidatePlanForRun), naming them.
struct CustomCallThunk {
  std::string instruction;
  std::string target;          // custom_call_target
  std::string api_version;     // as written (empty: the original API)
  std::string backend_config;  // as written
  std::vector<Slice> operands;  // array leaves read
  std::vector<Slice> results;   // array leaves written
};

struct Thunk;
using ThunkSequence = std::vector<Thunk>;

// while: run `condition`, read the pred (1 byte) at `pred` back to the host,
// stop when false, else run `body` and repeat.
struct WhileThunk {
  std::string instruction;
  ThunkSequence condition;
  Slice pred;
  ThunkSequence body;
};

// conditional: read the branch index (s32) or pred at `index`; out of range
// selects the last branch (as XLA does); pred true → branch 0.
struct ConditionalThunk {
  std::string instruction;
  Slice index;
  bool index_is_pred = false;
  std::vector<ThunkSequence> branches;
};

struct Thunk {
  std::variant<KernelThunk, CopyThunk, MemsetThunk, WhileThunk, ConditionalThunk, CollectiveThunk, HostTransferThunk,
               CustomCallThunk>
      v;
};

// How an entry parameter/output maps onto allocations.
struct PlanValue {
  std::string shape;               // HLO shape text of this array (leaf)
  std::vector<int64_t> index;      // tuple index (outputs: in the entry result)
  int64_t parameter_number = -1;   // parameters only
  Slice slice;
};

struct ThunkPlan {
  std::string module;
  std::string target;              // e.g. "sm_90"
  // The devices the module runs on (its header's num_partitions and
  // replica_count, or what its collectives imply); every device runs the
  // same plan over allocations of its own.
  int64_t replicas = 1, partitions = 1;
  int64_t devices() const { return replicas * partitions; }
  std::vector<PlanAllocation> allocations;
  ThunkSequence thunks;
  std::vector<PlanValue> parameters;  // every array leaf of every entry parameter
  std::vector<PlanValue> outputs;     // every array leaf of the entry result
  // Constants whose values were elided in the text ({...}) and were filled
  // with deterministic values (FillElidedConstants) to be runnable.
  std::vector<std::string> synthesized_constants;
};

// Every kernel thunk in execution (pre-)order, including those inside loops
// and branches.
std::vector<const KernelThunk*> AllKernels(const ThunkPlan& plan);
// The kernel (function) a launch runs: `kernel`, or `name` where it is empty.
inline const std::string& KernelFunction(const KernelThunk& k) { return k.kernel.empty() ? k.name : k.kernel; }
// The distinct kernels of `plan`: one launch per kernel function (the first),
// AllKernels order; launches with no code (`missing`) are left out.
std::vector<const KernelThunk*> DistinctKernels(const ThunkPlan& plan);
// The kernels no code could be generated for (KernelThunk::missing).
std::vector<const KernelThunk*> MissingKernels(const ThunkPlan& plan);
// Every collective thunk, in execution (pre-)order.
std::vector<const CollectiveThunk*> AllCollectives(const ThunkPlan& plan);
std::vector<const HostTransferThunk*> AllHostTransfers(const ThunkPlan& plan);
std::vector<const CustomCallThunk*> AllCustomCalls(const ThunkPlan& plan);

}  // namespace hloscope::runtime
