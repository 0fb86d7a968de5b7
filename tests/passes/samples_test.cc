// The `simplify` pipeline on every sample: the verifier holds after every
// step and the interpreter gives the same outputs (3 random input sets)
// before and after every pass that changed something; no splat constant
// is left. After `gpu`, fused kernels take no constant operands. The
// real-size samples (STEM_large) get the verifier but not the interpreter.
#include <filesystem>

#include "core/passes/rewrite_helpers.h"
#include "tests/passes/pass_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {
namespace {

std::vector<std::string> SampleFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(SamplesDir()))
    if (e.path().extension() == ".hlo") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SimplifySamples, VerifiedAndDifferentiallyCheckedAtEveryStep) {
  auto files = SampleFiles();
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    const bool real_size = IsRealSizeSample(path);
    auto m = ParseHloFile(path);
    ASSERT_TRUE(m.ok()) << m.status().message();
    auto pipeline = PassRegistry::Global().BuildPipeline("simplify");
    ASSERT_TRUE(pipeline.ok());
    VerifierInstrumentation verifier;
    DifferentialOptions opts;
    opts.seeds = 3;
    DifferentialChecker checker(opts);
    StepRecorder recorder;
    (*pipeline)->AddInstrumentation(&recorder);
    (*pipeline)->AddInstrumentation(&verifier);
    if (!real_size) (*pipeline)->AddInstrumentation(&checker);
    auto changed = (*pipeline)->Run(**m);
    ASSERT_TRUE(changed.ok()) << changed.status().message();
    if (!real_size) EXPECT_TRUE(checker.evaluable()) << checker.not_evaluable_reason();
    // JAX's unoptimized modules always simplify; XLA's optimized ones have
    // their work inside fusions, which these passes leave alone.
    if (path.find("xla_cpu_optimized") == std::string::npos) {
      EXPECT_TRUE(*changed);
      if (!real_size) EXPECT_GT(checker.comparisons(), 0);
      EXPECT_LT((*m)->instruction_count(), recorder.initial()->instruction_count());
    }
    // Broadcasts of constants stay broadcasts (issue 20): no array constant
    // whose elements are all equal is left (JAX writes none; the old
    // algsimp made 142 of them on these samples).
    for (const auto& c : (*m)->computations())
      for (const auto& i : c->instructions())
        if (const Literal* l = KnownLiteral(i.get()); l && l->num_elements() > 1)
          EXPECT_FALSE(AllElementsEqual(*l)) << "splat constant: " << PrintInstruction(*i);
    // The final module prints and parses back to the same text.
    std::string text = PrintModule(**m);
    auto again = ParseHloModule(text, path);
    ASSERT_TRUE(again.ok()) << again.status().message();
    EXPECT_EQ(PrintModule(**again), text);
  }
}

// The GELU kernel of mlp_gelu after `gpu` computes its 30 constants inside
// (broadcasts of fused scalar constants): no fusion takes a constant operand.
TEST(GpuPipelineSamples, FusedKernelsTakeNoConstantOperands) {
  for (const char* name : {"mlp_gelu", "mlp_gelu_bf16", "transformer_block"}) {
    SCOPED_TRACE(name);
    auto m = ParseHloFile(SamplesDir() + "/" + name + ".hlo");
    ASSERT_TRUE(m.ok()) << m.status().message();
    auto pipeline = PassRegistry::Global().BuildPipeline("gpu");
    ASSERT_TRUE(pipeline.ok());
    ASSERT_TRUE((*pipeline)->Run(**m).ok());
    int fusions = 0;
    for (const auto& i : (*m)->entry()->instructions()) {
      if (i->opcode() != Opcode::kFusion) continue;
      ++fusions;
      for (const Instruction* o : i->operands())
        EXPECT_NE(o->opcode(), Opcode::kConstant) << PrintInstruction(*i);
    }
    EXPECT_GT(fusions, 0);
  }
}

}  // namespace
}  // namespace hloscope::testing
