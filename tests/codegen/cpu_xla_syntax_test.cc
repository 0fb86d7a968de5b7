// Today's XLA syntax and JAX 0.12's programs through codegen and the CPU run:
// `%x#N` operands of a multi-output fusion and of a while loop, and the
// jax.random dropout sample (its `Sharding` custom-call is an identity with
// no kernel), imported from StableHLO and from HLO.
#include <gtest/gtest.h>

#include <set>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/runtime/plan_io.h"
#include "core/stablehlo/load_module.h"
#include "core/verify/verifier.h"
#include "tests/support/test_paths.h"

namespace hloscope::codegen {
namespace {

constexpr char kImplicit[] = R"(HloModule implicit

%fused (p0: f32[8,32], p1: f32[8,32]) -> (f32[8,32], f32[8,32]) {
  %p0 = f32[8,32]{1,0} parameter(0)
  %p1 = f32[8,32]{1,0} parameter(1)
  %add = f32[8,32]{1,0} add(%p0, %p1)
  %mul = f32[8,32]{1,0} multiply(%p0, %p1)
  ROOT %t = (f32[8,32]{1,0}, f32[8,32]{1,0}) tuple(%add, %mul)
}

%cond (s: (s32[], f32[8,32])) -> pred[] {
  %s = (s32[], f32[8,32]{1,0}) parameter(0)
  %c = s32[] constant(3)
  ROOT %lt = pred[] compare(%s#0, %c), direction=LT
}

%body (s: (s32[], f32[8,32])) -> (s32[], f32[8,32]) {
  %s = (s32[], f32[8,32]{1,0}) parameter(0)
  %one = s32[] constant(1)
  %i = s32[] add(%s#0, %one)
  %x = f32[8,32]{1,0} tanh(%s#1)
  ROOT %r = (s32[], f32[8,32]{1,0}) tuple(%i, %x)
}

ENTRY %e (a: f32[8,32], b: f32[8,32]) -> (f32[8,32], f32[8,32]) {
  %a = f32[8,32]{1,0} parameter(0)
  %b = f32[8,32]{1,0} parameter(1)
  %f = (f32[8,32]{1,0}, f32[8,32]{1,0}) fusion(%a, %b), kind=kLoop, calls=%fused
  %zero = s32[] constant(0)
  %init = (s32[], f32[8,32]{1,0}) tuple(%zero, %f#1)
  %w = (s32[], f32[8,32]{1,0}) while(%init), condition=%cond, body=%body
  %s = f32[8,32]{1,0} subtract(%f#0, %w#1)
  ROOT %out = (f32[8,32]{1,0}, f32[8,32]{1,0}) tuple(%s, %f#1)
}
)";

TEST(CpuXlaSyntax, ImplicitTupleElementsCompileAndRunLikeTheInterpreter) {
  auto m = ParseHloModule(kImplicit, "implicit.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_TRUE(VerifyModule(**m).ok()) << VerifyModule(**m).message();
  auto inputs = MakeRandomInputs(*(*m)->entry(), 11);
  auto want = EvaluateModule(**m, inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  for (const char* pipeline : {"gpu", "simplify"}) {
    SCOPED_TRACE(pipeline);
    CodegenOptions opts;
    opts.emit_ptx = false;
    auto compiled = CompileText(kImplicit, "implicit.hlo", pipeline, opts);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    auto got = RunOnCpu(compiled->codegen, inputs);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs), "");
  }
}

std::string Dropout(const std::string& suffix) {
  return hloscope::testing::SamplesDir() + "/jax_random/dropout" + suffix;
}

TEST(CpuXlaSyntax, JaxRandomDropoutImportsEvaluatesAndRunsOnTheCpu) {
  auto data = ReadDataFile(Dropout(".data.json"));
  ASSERT_TRUE(data.ok()) << data.status().message();
  for (const char* suffix : {".stablehlo.mlir", ".hlo"}) {
    SCOPED_TRACE(suffix);
    auto m = LoadModuleFile(Dropout(suffix));
    ASSERT_TRUE(m.ok()) << m.status().message();
    ASSERT_TRUE(VerifyModule(**m).ok()) << VerifyModule(**m).message();
    bool sharding = false;
    for (const auto& c : (*m)->computations())
      for (const auto& i : c->instructions())
        sharding |= i->opcode() == Opcode::kCustomCall && i->attrs().custom_call_target == "Sharding";
    EXPECT_TRUE(sharding) << "JAX 0.12 wraps the key in a Sharding custom-call";
    // The interpreter against JAX's own outputs.
    auto got = EvaluateModule(**m, data->inputs);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_EQ(data->outputs.size(), 1u);
    EXPECT_EQ(CompareLiterals(data->outputs[0], *got), "");
    // Codegen and the kernels on the CPU: the Sharding custom-call needs no kernel.
    CodegenOptions opts;
    opts.emit_ptx = false;
    auto compiled = CompileText(PrintModule(**m), Dropout(suffix), "gpu", opts);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    std::set<std::string> identities;
    for (const auto& c : compiled->module->computations())
      for (const auto& i : c->instructions())
        if (i->opcode() == Opcode::kCustomCall) identities.insert(i->name());
    for (const auto& k : compiled->codegen.kernels) EXPECT_FALSE(identities.count(k.instruction)) << k.name;
    auto ran = RunOnCpu(compiled->codegen, data->inputs);
    ASSERT_TRUE(ran.ok()) << ran.status().message();
    EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, data->outputs, ran->outputs), "");
  }
}

}  // namespace
}  // namespace hloscope::codegen
