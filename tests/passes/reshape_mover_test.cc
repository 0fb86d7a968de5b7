#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(ReshapeMoverTest, MovesReshapesPastElementwise) {
  CheckRewrite({"elementwise(reshape) → reshape(elementwise)",
                Module1("  p = f32[2,3] parameter(0)\n  q = f32[2,3] parameter(1)\n  a = f32[6] reshape(p)\n"
                        "  b = f32[6] reshape(q)\n  ROOT s = f32[6] add(a, b)"),
                "reshape(%add"},
               "reshape_mover");
}

TEST(ReshapeMoverTest, TransposeWithScalarBroadcast) {
  PassRun r = RunPass("reshape_mover",
                      Module1("  p = f32[2,3] parameter(0)\n  t = f32[3,2] transpose(p), dimensions={1,0}\n"
                              "  s = f32[] parameter(1)\n  b = f32[3,2] broadcast(s), dimensions={}\n"
                              "  ROOT m = f32[3,2] multiply(t, b)"));
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.root()->opcode(), Opcode::kTranspose);
  EXPECT_EQ(r.root()->operand(0)->opcode(), Opcode::kMultiply);
  EXPECT_TRUE(r.Applied("elementwise(transpose) → transpose(elementwise)"));
}

TEST(ReshapeMoverTest, DifferentReshapesStay) {
  CheckNoChange(Module1("  p = f32[2,3] parameter(0)\n  q = f32[3,2] parameter(1)\n  a = f32[6] reshape(p)\n"
                        "  b = f32[6] reshape(q)\n  ROOT s = f32[6] add(a, b)"),
                "reshape_mover");
}

TEST(ReshapeMoverTest, NoChange) {
  CheckNoChange(Module1("  p = f32[6] parameter(0)\n  q = f32[6] parameter(1)\n  ROOT s = f32[6] add(p, q)"),
                "reshape_mover");
}

}  // namespace
}  // namespace hloscope::testing
