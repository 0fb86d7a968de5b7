// Issue 28, item 3: XLA GPU's own fusions as it formed them (the committed
// after_optimizations modules of samples/xla_gpu/, compiled by XLA GPU 0.12
// for H100) become our kernels with `--pipeline none`: every kernel is
// generated (cuDNN's convolutions by our convolution kernel, other library
// calls stay custom-call thunks), its PTX passes ptxas for sm_80 and sm_90,
// and on the small samples the kernels run on the CPU and match the
// interpreter on XLA's module. The real-size references are not run (the
// interpreter at their sizes takes minutes).
//
// The check that trusts neither our interpreter's reading of XLA's module
// nor our kernels: on the samples whose data file records JAX's own outputs
// (samples/STEM.data.json), XLA's optimized module, cuDNN calls included,
// reproduces them in the interpreter and in our kernels on the CPU.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/codegen/nvptx_backend.h"
#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/runtime/plan_io.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

std::vector<std::string> References() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(hloscope::testing::SamplesDir() + "/xla_gpu"))
    if (std::filesystem::exists(e.path() / "after_optimizations.txt")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReferencePath(const std::string& name) {
  return hloscope::testing::SamplesDir() + "/xla_gpu/" + name + "/after_optimizations.txt";
}

class XlaGpuReferencePtx : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(XlaGpuReferencePtx, EveryFusionBecomesAKernelThatPassesPtxas) {
  CodegenOptions opts;
  opts.sm = std::get<1>(GetParam());
  opts.validate = !PtxasPath().empty();
  opts.emit_ptx = opts.validate;
  auto r = CompileFile(ReferencePath(std::get<0>(GetParam())), "none", opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_FALSE(r->codegen.kernels.empty());
  for (const auto& k : r->codegen.kernels) EXPECT_NE(k.kind, "missing") << k.name;
}

INSTANTIATE_TEST_SUITE_P(All, XlaGpuReferencePtx,
                         ::testing::Combine(::testing::ValuesIn(References()), ::testing::Values("sm_80", "sm_90")),
                         [](const auto& i) { return std::get<0>(i.param) + "_" + std::get<1>(i.param); });

class XlaGpuReferenceCpuRun : public ::testing::TestWithParam<std::string> {};

// XLA's module as given, its kernels for the CPU run; `skip` says why it
// cannot run here (a library call no runner provides), else "".
StatusOr<CompiledFile> CompileForCpuRun(const std::string& name, std::string* skip) {
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto r = CompileFile(ReferencePath(name), "none", opts);
  if (r.ok() && !runtime::AllCustomCalls(r->codegen.plan).empty())
    *skip = "calls into a library (" + runtime::AllCustomCalls(r->codegen.plan)[0]->target +
            ") that neither the interpreter nor the CPU run provides";
  return r;
}

TEST_P(XlaGpuReferenceCpuRun, KernelsMatchTheInterpreterOnXlasModule) {
  std::string skip;
  auto r = CompileForCpuRun(GetParam(), &skip);
  ASSERT_TRUE(r.ok()) << r.status().message();
  if (!skip.empty()) GTEST_SKIP() << skip;
  std::vector<Literal> inputs = MakeRandomInputs(*r->module->entry(), 28);
  auto want = EvaluateModule(*r->module, inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  auto got = RunOnCpu(r->codegen, inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(runtime::CompareOutputs(r->codegen.plan, FlattenTuple(*want), got->outputs), "");
}

std::vector<std::string> SmallReferences() {
  std::vector<std::string> out;
  for (const std::string& n : References())
    if (!hloscope::testing::IsRealSizeSample(n + ".hlo")) out.push_back(n);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Small, XlaGpuReferenceCpuRun, ::testing::ValuesIn(SmallReferences()),
                         [](const auto& i) { return i.param; });

class XlaGpuReferenceRecorded : public ::testing::TestWithParam<std::string> {};

TEST_P(XlaGpuReferenceRecorded, XlasModuleReproducesJaxsRecordedOutputs) {
  auto data = ReadDataFile(hloscope::testing::SamplesDir() + "/" + GetParam() + ".data.json");
  ASSERT_TRUE(data.ok()) << data.status().message();
  std::string skip;
  auto r = CompileForCpuRun(GetParam(), &skip);
  ASSERT_TRUE(r.ok()) << r.status().message();
  if (!skip.empty()) GTEST_SKIP() << skip;
  auto want = EvaluateModule(*r->module, data->inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  std::vector<Literal> interpreted = FlattenTuple(*want);
  ASSERT_EQ(interpreted.size(), data->outputs.size());
  for (size_t k = 0; k < interpreted.size(); ++k)
    EXPECT_EQ(CompareLiterals(data->outputs[k], interpreted[k]), "") << "interpreter, output " << k;
  auto got = RunOnCpu(r->codegen, data->inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(runtime::CompareOutputs(r->codegen.plan, data->outputs, got->outputs), "") << "kernels on the CPU";
}

std::vector<std::string> RecordedReferences() {
  std::vector<std::string> out;
  for (const std::string& n : References())
    if (std::filesystem::exists(hloscope::testing::SamplesDir() + "/" + n + ".data.json")) out.push_back(n);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Recorded, XlaGpuReferenceRecorded, ::testing::ValuesIn(RecordedReferences()),
                         [](const auto& i) { return i.param; });

}  // namespace
}  // namespace hloscope::codegen
