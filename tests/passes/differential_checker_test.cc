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

// A wrong collective rewrite: every all-reduce sums pairs of devices where
// it summed them all (as a combiner that mixed up two collectives' groups would).
class WrongGroupsPass : public Pass {
 public:
  std::string_view name() const override { return "wrong-groups"; }
  std::string_view description() const override { return "test pass"; }
  StatusOr<bool> Run(Module& m) override {
    bool changed = false;
    for (const auto& c : m.computations())
      for (const auto& i : c->instructions())
        if (i->opcode() == Opcode::kAllReduce) {
          i->SetRaw("replica_groups", "[2,2]<=[4]");
          changed = true;
        }
    return changed;
  }
};

constexpr const char* kShardedSum = R"(HloModule t, num_partitions=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8,3] parameter(0)
  r = f32[8,3] all-reduce(x), channel_id=1, replica_groups=[1,4]<=[4], use_global_device_ids=true, to_apply=add
  p = u32[] partition-id()
  ps = s32[] convert(p)
  two = s32[] constant(2)
  o = s32[] multiply(ps, two)
  z = s32[] constant(0)
  ROOT d = f32[2,3] dynamic-slice(r, o, z), dynamic_slice_sizes={2,3}
})";

TEST(DifferentialCheckerTest, CollectivesAreCheckedOnEveryDevice) {
  // SPMD's sharded sum: reduce-scatter-creator makes it one reduce-scatter,
  // which the interpreter evaluates on the 4 devices like the original.
  auto m = ParseOrDie(kShardedSum);
  auto p = PassRegistry::Global().BuildPassList({"reduce-scatter-creator", "dce"});
  ASSERT_TRUE(p.ok()) << p.status().message();
  DifferentialChecker checker;
  (*p)->AddInstrumentation(&checker);
  auto r = (*p)->Run(*m);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(*r);
  EXPECT_TRUE(checker.evaluable()) << checker.not_evaluable_reason();
  EXPECT_EQ(checker.devices(), 4);
  EXPECT_GE(checker.comparisons(), 1);
  bool scattered = false;
  for (const auto& c : m->computations())
    for (const auto& i : c->instructions()) scattered |= i->opcode() == Opcode::kReduceScatter;
  EXPECT_TRUE(scattered);
}

TEST(DifferentialCheckerTest, AWrongCollectiveRewriteIsCaughtOnTheDeviceItChanges) {
  auto m = ParseOrDie(kShardedSum);
  Pipeline p("test");
  p.AddPass(std::make_unique<WrongGroupsPass>());
  DifferentialChecker checker;
  p.AddInstrumentation(&checker);
  auto r = p.Run(*m);
  ASSERT_FALSE(r.ok());
  ASSERT_TRUE(checker.mismatch().has_value());
  EXPECT_EQ(checker.mismatch()->pass, "wrong-groups");
  EXPECT_NE(checker.mismatch()->detail.find("device 0: "), std::string::npos) << checker.mismatch()->detail;
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
