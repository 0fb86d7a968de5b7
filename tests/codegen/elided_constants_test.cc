// Constants whose values were elided in the text ({...}) are filled with
// deterministic values for codegen, named in the plan, and the interpreter
// filling the same module from the same seed computes what the kernels do
// (issue 23, item 3).
#include <gtest/gtest.h>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/runtime/manifest.h"
#include "core/runtime/plan_io.h"

namespace hloscope::codegen {
namespace {

constexpr char kElided[] = R"(HloModule elided
ENTRY e {
  x = f32[4,16] parameter(0)
  w = f32[16] constant({...})
  k = s32[4] constant({...})
  b = f32[4,16] broadcast(w), dimensions={1}
  a = f32[4,16] add(x, b)
  kf = f32[4] convert(k)
  kb = f32[4,16] broadcast(kf), dimensions={0}
  ROOT m = f32[4,16] multiply(a, kb)
}
)";

TEST(ElidedConstants, FilledNamedAndComputedAlikeByKernelsAndInterpreter) {
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileText(kElided, "elided.hlo", "gpu", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  EXPECT_EQ(compiled->synthesized_constants, (std::vector<std::string>{"e/w", "e/k"}));
  EXPECT_EQ(compiled->codegen.plan.synthesized_constants, compiled->synthesized_constants);
  // The manifest keeps the mark.
  auto back = runtime::ManifestFromString(runtime::ManifestToString(compiled->codegen.plan), "manifest.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->synthesized_constants, compiled->synthesized_constants);

  auto original = ParseHloModule(kElided, "elided.hlo");
  ASSERT_TRUE(original.ok());
  EXPECT_FALSE(EvaluateModule(**original, MakeRandomInputs(*(*original)->entry(), 1)).ok())
      << "elided constants are not evaluable before they are filled";
  EXPECT_EQ(FillElidedConstants(**original, 0).size(), 2u);
  auto inputs = MakeRandomInputs(*(*original)->entry(), 1);
  auto want = EvaluateModule(**original, inputs);
  ASSERT_TRUE(want.ok()) << want.status().message();
  auto got = RunOnCpu(compiled->codegen, inputs);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs), "");
  // Deterministic: the same seed fills the same values, another seed others.
  auto again = ParseHloModule(kElided, "elided.hlo");
  auto other = ParseHloModule(kElided, "elided.hlo");
  FillElidedConstants(**again, 0);
  FillElidedConstants(**other, 1);
  auto value = [](const Module& m) {
    for (const auto& i : m.entry()->instructions())
      if (i->name() == "w") return i->literal()->GetDouble(3);
    return 0.0;
  };
  EXPECT_EQ(value(**again), value(**original));
  EXPECT_NE(value(**other), value(**original));
}

}  // namespace
}  // namespace hloscope::codegen
