// rng-get-and-update-state kernels (rng_state_emitter.cc): the state global
// with the interpreter's seed, one thread reading and advancing it; on the
// CPU, kernels of one run share the state, and every run (also with
// --repeat) starts from the seed. Whole rng modules through the gpu pipeline
// (rng_expander) match the interpreter on the unexpanded module.
#include <gtest/gtest.h>

#include "core/eval/rng_state.h"
#include "core/parser/parser.h"
#include "tests/codegen/codegen_test_util.h"

namespace hloscope::codegen {
namespace {

// Compiles `hlo` through `pipeline`, runs it on the CPU `repeat` times and
// compares with the interpreter on the module as written.
std::string RunVsInterpreter(const std::string& hlo, const std::string& pipeline, int repeat = 1,
                             std::vector<std::string>* kinds = nullptr) {
  auto original = ParseHloModule(hlo, "test.hlo");
  if (!original.ok()) return "parse: " + original.status().message();
  CodegenOptions opts;
  opts.emit_ptx = testing::HavePtxas();
  opts.validate = opts.emit_ptx;
  auto compiled = CompileText(hlo, "test.hlo", pipeline, opts);
  if (!compiled.ok()) return "codegen: " + compiled.status().message();
  for (const auto& k : compiled->codegen.kernels) {
    if (!k.missing.empty()) return "missing kernel " + k.name + ": " + k.missing;
    if (kinds) kinds->push_back(k.kind);
  }
  std::vector<Literal> inputs = MakeRandomInputs(*(*original)->entry(), 3);
  auto want = EvaluateModule(**original, inputs);
  if (!want.ok()) return "interpreter: " + want.status().message();
  CpuRunOptions o;
  o.repeat = repeat;
  auto got = RunOnCpu(compiled->codegen, inputs, o);
  if (!got.ok()) return "cpu run: " + got.status().message();
  return runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs);
}

TEST(RngStateEmitterTest, KernelReadsAndAdvancesTheGlobal) {
  const std::string hlo = "HloModule m\nENTRY e {\n  ROOT s = u64[2] rng-get-and-update-state(), delta=7\n}\n";
  CodegenOptions opts;
  opts.emit_ptx = testing::HavePtxas();
  opts.validate = opts.emit_ptx;
  auto compiled = CompileText(hlo, "test.hlo", "", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  ASSERT_EQ(compiled->codegen.kernels.size(), 1u);
  const KernelCode& k = compiled->codegen.kernels[0];
  EXPECT_EQ(k.kind, "rng-get-and-update-state");
  EXPECT_NE(k.ir.find("@hloscope_rng_state = weak addrspace(1) global i128 " + std::to_string(kRngStateSeedLo)),
            std::string::npos)
      << k.ir;
  EXPECT_NE(k.ir.find("add i128"), std::string::npos) << k.ir;
  auto got = RunOnCpu(compiled->codegen, {});
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->outputs.size(), 1u);
  EXPECT_EQ(got->outputs[0].Get<uint64_t>(0), kRngStateSeedLo);
  EXPECT_EQ(got->outputs[0].Get<uint64_t>(1), kRngStateSeedHi);
}

// Three launches of two kernels (deltas 5 and 3) in one run: one state.
TEST(RngStateEmitterTest, KernelsOfOneRunShareTheState) {
  EXPECT_EQ(RunVsInterpreter(R"hlo(
HloModule m
ENTRY e {
  s1 = u64[2] rng-get-and-update-state(), delta=5
  s2 = u64[2] rng-get-and-update-state(), delta=3, control-predecessors={s1}
  s3 = u64[2] rng-get-and-update-state(), delta=5, control-predecessors={s2}
  ROOT t = (u64[2], u64[2], u64[2]) tuple(s1, s2, s3)
})hlo",
                             ""),
            "");
}

// A loop launches the kernel once per iteration; --repeat runs start again.
TEST(RngStateEmitterTest, LoopAdvancesAndRepeatRestarts) {
  const std::string hlo = R"hlo(
HloModule m
cond {
  p = (s32[], u64[2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], u64[2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  s = u64[2] rng-get-and-update-state(), delta=4
  ROOT t = (s32[], u64[2]) tuple(j, s)
}
ENTRY e {
  z = s32[] constant(0)
  s0 = u64[2] constant({0, 0})
  init = (s32[], u64[2]) tuple(z, s0)
  w = (s32[], u64[2]) while(init), condition=cond, body=body
  ROOT last = u64[2] get-tuple-element(w), index=1
})hlo";
  EXPECT_EQ(RunVsInterpreter(hlo, "none"), "");
  EXPECT_EQ(RunVsInterpreter(hlo, "none", /*repeat=*/3), "");
}

struct RngCase {
  const char* name;
  std::string hlo;
};

class RngModuleTest : public ::testing::TestWithParam<RngCase> {};

TEST_P(RngModuleTest, GpuPipelineMatchesTheInterpreter) {
  for (const char* pipeline : {"gpu", "gpu-classic"}) {
    SCOPED_TRACE(pipeline);
    std::vector<std::string> kinds;
    EXPECT_EQ(RunVsInterpreter(GetParam().hlo, pipeline, /*repeat=*/2, &kinds), "");
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), "rng-get-and-update-state"), kinds.end());
  }
}

std::string Rng(const std::string& type, const std::string& dist, const std::string& ab) {
  return "HloModule m\nENTRY e {\n  a = " + ab + "[] parameter(0)\n  b = " + ab + "[] parameter(1)\n  ROOT r = " +
         type + " rng(a, b), distribution=" + dist + "\n}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Modules, RngModuleTest,
    ::testing::Values(RngCase{"uniform_f32", Rng("f32[2,3,5]", "rng_uniform", "f32")},
                      RngCase{"uniform_f64", Rng("f64[9]", "rng_uniform", "f64")},
                      RngCase{"uniform_f16", Rng("f16[4,4]", "rng_uniform", "f16")},
                      RngCase{"uniform_s32", Rng("s32[33]", "rng_uniform", "s32")},
                      RngCase{"uniform_u64", Rng("u64[5]", "rng_uniform", "u64")},
                      RngCase{"normal_f32", Rng("f32[2,3]", "rng_normal", "f32")},
                      RngCase{"normal_f32_scalar", Rng("f32[]", "rng_normal", "f32")},
                      RngCase{"normal_f64_odd", Rng("f64[3,5]", "rng_normal", "f64")},
                      RngCase{"two_rngs", R"hlo(
HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  r1 = f32[16] rng(a, b), distribution=rng_uniform
  r2 = f32[3,4] rng(a, b), distribution=rng_normal, control-predecessors={r1}
  ROOT t = (f32[16], f32[3,4]) tuple(r1, r2)
})hlo"}),
    [](const ::testing::TestParamInfo<RngCase>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace hloscope::codegen
