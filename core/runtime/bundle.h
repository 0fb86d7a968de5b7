// A kernel bundle: a directory that holds everything needed to run a module's
// kernels without hloscope's compiler (docs/bundle-format.md):
//   manifest.json           the ThunkPlan (manifest.h)
//   <kernel>.ll, .ptx       per kernel: LLVM IR (NVPTX-flavoured) and PTX
//   constants/alloc<N>.bin  initial bytes of constant allocations
//   inputs.data.json        hloscope-data-v1: the inputs
//   expected.data.json      hloscope-data-v1: the interpreter's outputs (optional)
#pragma once

#include <string>
#include <vector>

#include "core/eval/data_file.h"
#include "core/runtime/thunk_plan.h"
#include "core/support/status.h"

namespace hloscope::runtime {

struct BundleKernel {
  std::string name;  // = KernelThunk::name
  std::string ll;    // file contents (may be empty when not loaded)
  std::string ptx;
};

struct Bundle {
  ThunkPlan plan;
  std::vector<BundleKernel> kernels;  // one per distinct kernel name in the plan
  std::vector<Literal> inputs;        // one per entry parameter (tuples as tuple literals)
  std::vector<Literal> expected;      // flattened entry outputs; empty = none recorded
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
