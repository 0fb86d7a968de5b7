// The differential checker catches a pass that changes the meaning, names
// the pass and the first differing element; modules it cannot run are
// reported as not evaluable.
#include "core/passes/differential_checker.h"

#include "core/passes/pipeline.h"
#include "core/passes/simplify_passes.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

// A wrong "optimization": turns every subtract into an add.
class BrokenPass : public Pass {
 public:
  std::string_view name() const override { return "broken"; }
  std::string_view description() const override { return "test pass"; }
  StatusOr<bool> Run(Module& m) override {
    bool changed = false;
    for (const auto& c : m.computations())
      for (const auto& i : c->instructions())
        if (i->opcode() == Opcode::kSubtract) {
          i->set_opcode(Opcode::kAdd);
          changed = true;
        }
    return changed;
  }
};

TEST(DifferentialCheckerTest, NamesThePassAndTheElement) {
  auto m = ParseOrDie(Module1("  p = f32[2,3] parameter(0)\n  q = f32[2,3] parameter(1)\n"
                              "  ROOT s = f32[2,3] subtract(p, q)"));
  Pipeline p("test");
  p.AddPass(MakeAlgebraicSimplifierPass());
  p.AddPass(std::make_unique<BrokenPass>());
  DifferentialChecker checker;
  p.AddInstrumentation(&checker);
  auto r = p.Run(*m);
  ASSERT_FALSE(r.ok());
  ASSERT_TRUE(checker.mismatch().has_value());
  EXPECT_EQ(checker.mismatch()->pass, "broken");
  EXPECT_NE(r.status().message().find("pass 'broken'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("element"), std::string::npos) << r.status().message();
}

TEST(DifferentialCheckerTest, NotEvaluableModulesAreSkipped) {
  auto m = ParseOrDie(Module1("  p = f32[4] parameter(0)\n  c = f32[4] constant({...})\n"
                              "  ROOT s = f32[4] subtract(p, c)"));
  Pipeline p("test");
  p.AddPass(std::make_unique<BrokenPass>());
  DifferentialChecker checker;
  p.AddInstrumentation(&checker);
  EXPECT_TRUE(p.Run(*m).ok());
  EXPECT_FALSE(checker.evaluable());
  EXPECT_FALSE(checker.not_evaluable_reason().empty());
}

TEST(DifferentialCheckerTest, ToleranceByType) {
  Literal a(Shape(PrimitiveType::kF32, {2})), b(Shape(PrimitiveType::kF32, {2}));
  a.SetDouble(0, 1.0);
  b.SetDouble(0, 1.0 + 1e-7);
  EXPECT_EQ(DifferentialChecker::Compare(a, b), "");
  b.SetDouble(1, 0.5);
  EXPECT_NE(DifferentialChecker::Compare(a, b), "");
  Literal i(Shape(PrimitiveType::kS32, {1})), j(Shape(PrimitiveType::kS32, {1}));
  j.SetInt(0, 1);
  EXPECT_NE(DifferentialChecker::Compare(i, j), "");
}

}  // namespace
}  // namespace hloscope::testing
