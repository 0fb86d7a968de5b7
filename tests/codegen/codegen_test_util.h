// Test helpers for codegen: compile an HLO text (optionally through a
// pipeline), validate every kernel's PTX with ptxas when it exists, run the
// kernels on the CPU and compare with the interpreter.
#pragma once

#include <string>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/codegen/nvptx_backend.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/ir/computation.h"
#include "core/runtime/plan_io.h"

namespace hloscope::codegen::testing {

inline bool HavePtxas() { return !PtxasPath().empty(); }

struct CheckResult {
  std::string error;  // "" when everything agreed
  size_t kernels = 0;
  std::vector<std::string> kinds;
};

// Compiles `hlo` (pipeline "" = as written), ptxas-validates the PTX when
// `ptx` and ptxas exists, runs it on the CPU with random inputs of `seed`
// and compares with the interpreter.
inline CheckResult CompileRunCompare(const std::string& hlo, const std::string& pipeline = "", bool ptx = true,
                                     uint64_t seed = 1) {
  CheckResult r;
  CodegenOptions opts;
  opts.sm = "sm_90";
  opts.emit_ptx = ptx;
  opts.validate = ptx && HavePtxas();
  auto compiled = CompileText(hlo, "test.hlo", pipeline, opts);
  if (!compiled.ok()) {
    r.error = "compile: " + compiled.status().message();
    return r;
  }
  r.kernels = compiled->codegen.kernels.size();
  for (const auto& k : compiled->codegen.kernels) r.kinds.push_back(k.kind);
  std::vector<Literal> inputs = MakeRandomInputs(*compiled->module->entry(), seed);
  auto want = EvaluateModule(*compiled->module, inputs);
  if (!want.ok()) {
    r.error = "interpreter: " + want.status().message();
    return r;
  }
  auto got = RunOnCpu(compiled->codegen, inputs);
  if (!got.ok()) {
    r.error = "cpu run: " + got.status().message();
    return r;
  }
  r.error = runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs);
  return r;
}

}  // namespace hloscope::codegen::testing
