#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(ZeroSizedHloEliminationTest, EmptyArraysBecomeConstants) {
  CheckRewrite({"zero-element array → empty constant",
                Module1("  p = f32[0,3] parameter(0)\n  ROOT n = f32[0,3] negate(p)"), "constant({})"},
               "zero_sized_hlo_elimination");
}

TEST(ZeroSizedHloEliminationTest, NoChange) {
  CheckNoChange(Module1("  p = f32[0,3] parameter(0)\n  q = f32[2] parameter(1)\n"
                        "  ROOT t = (f32[0,3], f32[2]) tuple(p, q)"),
                "zero_sized_hlo_elimination");
}

}  // namespace
}  // namespace hloscope::testing
