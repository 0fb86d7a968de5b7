// rng_expander: rng(a, b) becomes rng-get-and-update-state (delta = the
// 32-bit values drawn) + rng-bit-generator(rng_philox) + elementwise ops;
// the verifier accepts every result and the interpreter gives the expanded
// module the same values, bit for bit, as the unexpanded one.
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

std::string RngModule(const std::string& type, const std::string& dist, const std::string& ab = "f32") {
  return Module1("  a = " + ab + "[] parameter(0)\n  b = " + ab + "[] parameter(1)\n  ROOT r = " + type +
                 " rng(a, b), distribution=" + dist);
}

std::string Delta(const Module& m) {
  for (const auto& i : m.entry()->instructions())
    if (i->opcode() == Opcode::kRngGetAndUpdateState) return i->FindRaw("delta") ? i->FindRaw("delta")->value : "";
  return "none";
}

struct Case {
  std::string type, dist, ab, rule, delta;
};

class RngExpanderTest : public ::testing::TestWithParam<Case> {};

TEST_P(RngExpanderTest, ExpandsAndKeepsTheValues) {
  const Case& c = GetParam();
  const std::string hlo = RngModule(c.type, c.dist, c.ab);
  PassRun r = RunPass("rng_expander", hlo);
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.Applied(c.rule)) << ::testing::PrintToString(r.rules);
  EXPECT_TRUE(r.evaluable);  // the differential checker compared both
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kRng), 0);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kRngGetAndUpdateState), 1);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kRngBitGenerator), 1);
  EXPECT_EQ(Delta(*r.module), c.delta);
  EXPECT_NE(r.text().find("algorithm=rng_philox"), std::string::npos) << r.text();

  // Bit for bit: the interpreter evaluates rng as its expansion.
  auto original = ParseOrDie(hlo);
  for (uint64_t seed : {1, 7}) {
    std::vector<Literal> in = MakeRandomInputs(*original->entry(), seed);
    auto want = EvaluateModule(*original, in);
    auto got = EvaluateModule(*r.module, in);
    ASSERT_TRUE(want.ok()) << want.status().message();
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_TRUE(*want == *got) << want->ToString() << "\nvs\n" << got->ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Types, RngExpanderTest,
    ::testing::Values(
        Case{"f32[2,3]", "rng_uniform", "f32", "rng_uniform (float) → state + Philox bits + scale", "6"},
        Case{"f64[7]", "rng_uniform", "f64", "rng_uniform (float) → state + Philox bits + scale", "14"},
        Case{"f16[5]", "rng_uniform", "f16", "rng_uniform (float) → state + Philox bits + scale", "5"},
        Case{"s32[4,5]", "rng_uniform", "s32", "rng_uniform (int) → state + Philox bits + remainder", "20"},
        Case{"u64[3]", "rng_uniform", "u64", "rng_uniform (int) → state + Philox bits + remainder", "6"},
        Case{"f32[]", "rng_normal", "f32", "rng_normal → state + Philox bits + Box–Muller", "1"},
        Case{"f32[2,3]", "rng_normal", "f32", "rng_normal → state + Philox bits + Box–Muller", "6"},
        Case{"f64[3,5]", "rng_normal", "f64", "rng_normal → state + Philox bits + Box–Muller", "30"},
        Case{"bf16[3,1,5]", "rng_normal", "bf16", "rng_normal → state + Philox bits + Box–Muller", "15"}));

// XLA's own rng_expander tests pass the output shape as a third operand.
TEST(RngExpanderPassTest, ThirdOperandIsIgnored) {
  PassRun r = RunPass("rng_expander", Module1("  a = u64[] constant(0)\n  b = u64[] constant(1)\n"
                                              "  s = u64[3] constant({8, 4, 2})\n"
                                              "  ROOT r = u64[] rng(a, b, s), distribution=rng_uniform"));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(Delta(*r.module), "2");
}

TEST(RngExpanderPassTest, ControlPredecessorsOrderTheStateRead) {
  PassRun r = RunPass("rng_expander", Module1("  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                                              "  n = f32[] negate(a)\n"
                                              "  ROOT r = f32[4] rng(a, b), distribution=rng_uniform, "
                                              "control-predecessors={n}"));
  ASSERT_TRUE(r.module);
  Instruction* n = FindInstruction(*r.module, "n");
  ASSERT_TRUE(n);
  bool ordered = false;
  for (Instruction* s : n->control_successors()) ordered |= s->opcode() == Opcode::kRngGetAndUpdateState;
  EXPECT_TRUE(ordered) << r.text();
}

TEST(RngExpanderPassTest, NoChange) {
  CheckNoChange(Module1("  a = f32[] parameter(0)\n  ROOT n = f32[] negate(a)"), "rng_expander");
  // Types XLA's expander does not take stay as they are.
  CheckNoChange(RngModule("pred[4]", "rng_uniform", "pred"), "rng_expander");
  CheckNoChange(RngModule("s8[4]", "rng_uniform", "s8"), "rng_expander");
}

TEST(RngExpanderPassTest, InTheGpuPipelines) {
  std::vector<std::string> p = PassRegistry::Global().PipelinesContaining("rng_expander");
  EXPECT_NE(std::find(p.begin(), p.end(), "gpu"), p.end());
  EXPECT_NE(std::find(p.begin(), p.end(), "gpu-classic"), p.end());
  PassRun r = RunPass("gpu", RngModule("f32[8,16]", "rng_normal"));
  ASSERT_TRUE(r.module);
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kRng), 0);
}

}  // namespace
}  // namespace hloscope::testing
