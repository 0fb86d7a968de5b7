// The step recorder: snapshots, diffs by stable id, folded-into, shared
// snapshots for unchanged steps.
#include "core/passes/step_recorder.h"
#include "core/printer/printer.h"

#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

const char* kModule = R"hlo(
HloModule m
ENTRY e {
  p = s32[] parameter(0)
  z = s32[] constant(0)
  a = s32[] add(p, z)
  b = s32[] negate(a)
  c = s32[] negate(a)
  ROOT t = (s32[], s32[]) tuple(b, c)
}
)hlo";

TEST(StepRecorderTest, RecordsEveryStepWithDiffsAndRewrites) {
  PassRun r = RunPasses({"algsimp", "cse", "dce", "dce"}, kModule);
  ASSERT_EQ(r.steps.size(), 4u);
  const Step& alg = *r.steps[0];
  EXPECT_EQ(alg.pass, "algsimp");
  EXPECT_TRUE(alg.changed);
  ASSERT_EQ(alg.rewrites.size(), 1u);
  EXPECT_EQ(alg.rewrites[0].ToString("algsimp"), "algsimp: x + 0 → x at %a");
  EXPECT_EQ(alg.stats.at("x + 0 → x"), 1);
  // a was folded into p; b and c now read p.
  int64_t p = FindInstruction(*r.module, "p")->id();
  ASSERT_EQ(alg.diff.folded_into.size(), 1u);
  EXPECT_EQ(alg.diff.folded_into[0].new_id, p);
  EXPECT_EQ(alg.diff.removed.size(), 1u);
  EXPECT_EQ(alg.diff.modified.size(), 2u);

  const Step& cse = *r.steps[1];
  EXPECT_TRUE(cse.changed);
  EXPECT_EQ(cse.diff.folded_into.size(), 1u);
  EXPECT_EQ(cse.instructions, 4);

  const Step& dce = *r.steps[2];
  EXPECT_TRUE(dce.changed);
  EXPECT_EQ(dce.instructions, 3);
  EXPECT_EQ(dce.module->computation_count(), 1);
  EXPECT_NE(dce.module->text.find("ROOT %t"), std::string::npos);

  const Step& again = *r.steps[3];
  EXPECT_FALSE(again.changed);
  EXPECT_EQ(again.module.get(), dce.module.get());  // shared snapshot
  EXPECT_TRUE(again.diff.empty());
}

TEST(StepRecorderTest, SnapshotLinesMatchInstructions) {
  auto m = ParseOrDie(kModule);
  auto snap = ModuleSnapshot::Capture(*m);
  ASSERT_EQ(snap->instruction_count(), 6);
  const InstructionRecord* t = snap->Find(FindInstruction(*m, "t")->id());
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->is_root);
  EXPECT_EQ(snap->line(*t), "  ROOT %t = (s32[], s32[]) tuple(%b, %c)");
  EXPECT_EQ(t->operands.size(), 2u);
}

// Large modules are printed on two threads: the text must be PrintModule's,
// byte for byte, and every line span must hold its own instruction, across
// the split (which may fall inside a computation or between two).
TEST(StepRecorderTest, SnapshotOfALargeModuleMatchesPrintModule) {
  std::string text = "HloModule big\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                     "  ROOT s = f32[] add(a, b)\n}\n\nENTRY main {\n  p = f32[8] parameter(0)\n"
                     "  z = f32[] constant(0)\n";
  std::string prev = "p";
  for (int k = 0; k < 25000; ++k) {
    std::string name = "v" + std::to_string(k);
    text += "  " + name + " = f32[8] " + (k % 2 ? "negate(" + prev + ")" : "add(" + prev + ", p)") + "\n";
    prev = name;
  }
  text += "  ROOT r = f32[] reduce(" + prev + ", z), dimensions={0}, to_apply=add\n}\n";
  auto m = ParseOrDie(text);
  auto snap = ModuleSnapshot::Capture(*m);
  EXPECT_EQ(snap->text, PrintModule(*m));
  ASSERT_EQ(snap->instruction_count(), m->instruction_count());
  size_t k = 0;
  for (const auto& c : m->computations())
    for (const auto& i : c->instructions()) {
      const InstructionRecord& r = snap->instructions[k++];
      ASSERT_EQ(r.id, i->id());
      std::string want = (i.get() == c->root() ? "  ROOT " : "  ") + PrintInstruction(*i);
      ASSERT_EQ(snap->line(r), want) << i->name();
    }
}

TEST(StepRecorderTest, ReplacementByANewInstruction) {
  PassRun r = RunPass("algsimp", Module1("  p = f32[] parameter(0)\n  m = f32[] constant(-1)\n"
                                         "  ROOT r = f32[] multiply(p, m)"));
  const StepDiff& d = r.steps[0]->diff;
  ASSERT_EQ(d.replaced.size(), 1u);
  EXPECT_EQ(d.added.size(), 1u);
  EXPECT_EQ(d.replaced[0].new_id, d.added[0]);
}

}  // namespace
}  // namespace hloscope::testing
