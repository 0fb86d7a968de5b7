// A kernel bundle: a directory that holds everything needed to run a module's
// kernels without hloscope's compiler (docs/bundle-format.md):
//   manifest.json           the ThunkPlan (manifest.h)
//   <kernel>.ll, .ptx       per kernel: LLVM IR (NVPTX-flavoured) and PTX
//   constants/alloc<N>.bin  initial bytes of constant allocations
//   inputs.data.json        hloscope-data-v1: the inputs, or, for random inputs
//                           (the default), inputs.random.json + module.hlo: the
//                           seed and the module they are drawn for, regenerated
//                           on reading (MakeRandomInputs), so that a bundle at
//                           real sizes stays small
//   expected.data.json      hloscope-data-v1: the interpreter's outputs (optional)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/data_file.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::runtime {

struct BundleKernel {
  std::string name;  // = KernelFunction(thunk): one per kernel, however many launches share it
  std::string ll;    // file contents (may be empty when not loaded)
  std::string ptx;
  std::string sass;  // nvdisasm's text, <kernel>.sass ("" when not made)
};

struct Bundle {
  ThunkPlan plan;
  std::vector<BundleKernel> kernels;  // one per distinct kernel of the plan (and per launch without code)
  std::vector<Literal> inputs;        // one per entry parameter (tuples as tuple literals)
  std::vector<Literal> expected;      // flattened entry outputs; empty = none recorded
  // When set, `inputs` are MakeRandomInputs(entry of module_text, seed): the
  // bundle records the seed and the module instead of the values.
  std::optional<uint64_t> input_seed;
  std::string module_text;  // the optimized module (HLO text), with input_seed
};

// Writes the bundle into `dir` (created if missing). Refuses to write into a
// directory that already holds a manifest.json unless `force`; files are
// written through a temporary name and a rename.
Status WriteBundle(const std::string& dir, const Bundle& bundle, bool force);

struct BundleReadOptions {
  bool load_ll = false;   // read <kernel>.ll
  bool load_ptx = true;   // read <kernel>.ptx
};
// Reads and validates a bundle; every error names the file (and JSON path).
StatusOr<Bundle> ReadBundle(const std::string& dir, const BundleReadOptions& opts = {});

}  // namespace hloscope::runtime
