// Our kernels against XLA GPU's, statically (issue 28 item 5): for each
// kernel XLA compiled (an `.entry` of its PTX, named for its fusion with `.`
// and `-` as `_`), the kernel of ours that computes the same ops — the ops
// are matched as `compare` matches them (compare_match.h): our kernel is the
// one holding the counterpart of the fusion's dot or convolution, else the
// one holding most of its matched ops; "same members" when the two hold
// exactly each other's matched ops. Per kernel: instructions by
// class and global load/store widths (ptx_stats.h), ptxas -v's registers,
// spills and shared memory on one architecture for both sides (sm_90a:
// XLA's PTX targets it), and the launch's dynamic shared memory and block.
// Shown by `codegen --compare-xla DIR` (docs/codegen.md, "Our PTX against
// XLA's").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/codegen/sass.h"
#include "core/ir/module.h"
#include "core/report/ptx_stats.h"
#include "core/support/status.h"

namespace hloscope::report {

// XLA's side as read from a folder: a reference folder (samples/xla_gpu/X:
// after_optimizations.txt, kernels.ptx, thunk_sequence.txt) or an
// --xla_dump_to folder (module_NNNN.NAME.*after_optimizations.txt,
// module_NNNN.NAME*.ptx, module_NNNN.NAME.thunk_sequence.txt).
struct XlaKernelFiles {
  std::string module_path;            // XLA's optimized module
  std::vector<std::string> ptx_paths;
  std::string ptx;                    // the PTX files, concatenated
  std::string thunk_sequence_path;    // "" when absent
  std::string thunk_sequence;
};
// `module` picks a module of a dump folder (id or name; "" = the largest,
// as PickXlaDumpModule). Errors name the folder and what is missing.
StatusOr<XlaKernelFiles> ReadXlaKernelFiles(const std::string& dir, const std::string& module = "");

struct KernelSide {
  std::string kernel;       // the PTX entry
  std::string instruction;  // the HLO instruction it implements
  int ops = 0;              // matchable ops in it (the instruction, or a fusion's fused ops)
  PtxStats ptx;
  std::optional<codegen::KernelResources> resources;  // ptxas -v; empty without ptxas
  std::string resources_error;                        // why not, when ptxas ran and failed
  int64_t launch_shared = -1;  // dynamic shared memory at launch (-1: unknown)
  int64_t block_threads = 0;   // threads per block (0: unknown)
};

struct KernelPair {
  KernelSide ours, xla;
  int matched = 0;            // XLA's matched ops that sit in our kernel
  bool same_members = false;  // the two kernels hold exactly each other's matched ops
  bool inside_ours = false;   // all of XLA's matched ops are in our kernel, which holds more (we fused more)
};

struct PtxComparison {
  std::string arch;                    // ptxas -arch for both sides ("sm_90a")
  std::string ptxas_missing;           // why there are no resources ("" when ptxas ran)
  std::vector<KernelPair> pairs;       // in XLA's PTX order
  // XLA kernels with no matched op in any kernel of ours, and ours with none
  // paired: "kernel (instruction)".
  std::vector<std::string> xla_unpaired, ours_unpaired;
  // XLA fusions that launch a kernel but have no entry of their own in the
  // PTX (XLA launches an identical fusion's kernel, or it is a library call).
  std::vector<std::string> xla_without_ptx;
};

struct PtxCompareOptions {
  bool run_ptxas = true;
  std::string arch = "sm_90a";
};

// `ours` is the optimized module `cg` was generated from; `xla` XLA's
// optimized module, `files` its PTX and thunk sequence.
PtxComparison ComparePtx(const Module& ours, const codegen::CodegenResult& cg, const Module& xla,
                         const XlaKernelFiles& files, const PtxCompareOptions& options = {});

// A Markdown table, one row per pair (what docs/codegen.md shows), then a
// table of instruction classes per pair and the unpaired kernels.
std::string PtxComparisonToText(const PtxComparison& c);
std::string PtxComparisonToJson(const PtxComparison& c);  // schema in docs/codegen.md

}  // namespace hloscope::report
