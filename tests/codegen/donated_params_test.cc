// A parameter donated to an output (input_output_alias) and still read after
// the update: the kernels on the CPU must compute what the interpreter does
// (they overwrote the parameter before its last read).
#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/runtime/plan_io.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

class DonatedParameters : public ::testing::TestWithParam<const char*> {};

TEST_P(DonatedParameters, ReadAfterTheUpdateRunsLikeTheInterpreter) {
  const std::string path = hloscope::testing::SourceDir() + "/tests/memory/data/" + GetParam() + ".hlo";
  auto m = ParseHloFile(path);
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto inputs = MakeRandomInputs(*(*m)->entry(), 5);
  auto want = EvaluateModule(**m, inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  for (const char* pipeline : {"", "simplify", "gpu"}) {
    SCOPED_TRACE(pipeline);
    CodegenOptions opts;
    opts.emit_ptx = false;
    auto compiled = CompileFile(path, pipeline, opts);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    auto got = RunOnCpu(compiled->codegen, inputs);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs), "");
  }
}

// donated_train_step: a parameter read, updated, read again.
// donated_multi_output_fusion: one kernel writes a donated output while a
// sibling output still reads the parameter (dlrm's train step).
// donated_reduction_side_outputs: the same in a reduction's side outputs.
// donated_reshaped_reduction_side_output: a side output one bitcast reshape
// away from the reduction input it is written beside.
INSTANTIATE_TEST_SUITE_P(Modules, DonatedParameters,
                         ::testing::Values("donated_train_step", "donated_multi_output_fusion",
                                           "donated_reduction_side_outputs", "donated_reshaped_reduction_side_output"));

}  // namespace
}  // namespace hloscope::codegen
