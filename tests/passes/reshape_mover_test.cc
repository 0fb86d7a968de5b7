#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(ReshapeMoverTest, MovesReshapesPastElementwise) {
  CheckRewrite({"elementwise(reshape) → reshape(elementwise)",
                Module1("  p = f32[2,3] parameter(0)\n  q = f32[2,3] parameter(1)\n  a = f32[6] reshape(p)\n"
                        "  b = f32[6] reshape(q)\n  ROOT s = f32[6] add(a, b)"),
                "reshape(%s)"},  // the moved add keeps its name
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

// XLA GPU's reshape_of_1d_broadcast_is_cheap: a bias broadcast takes the
// shape before the reshape, so the bias add is computed on the dot's
// result (where GEMM fusion takes it as an epilogue).
TEST(ReshapeMoverTest, VectorBroadcastTakesTheShapeBeforeTheReshape) {
  PassRun r = RunPass("reshape_mover",
                      Module1("  h = f32[16,32] parameter(0)\n  w = f32[32,96] parameter(1)\n"
                              "  d = f32[16,96] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                              "  r = f32[2,8,96] reshape(d)\n  v = f32[96] parameter(2)\n"
                              "  b = f32[2,8,96] broadcast(v), dimensions={2}\n  ROOT a = f32[2,8,96] add(r, b)"));
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.root()->opcode(), Opcode::kReshape);
  const Instruction* add = r.root()->operand(0);
  ASSERT_EQ(add->opcode(), Opcode::kAdd);
  EXPECT_EQ(add->shape().dims(), (std::vector<int64_t>{16, 96}));
  EXPECT_EQ(add->name(), "a");
  EXPECT_EQ(add->operand(0)->opcode(), Opcode::kDot);
  // The bias broadcast in the dot's shape, under its old name.
  const Instruction* b = add->operand(1);
  ASSERT_EQ(b->opcode(), Opcode::kBroadcast);
  EXPECT_EQ(b->dimensions(), (std::vector<int64_t>{1}));
  EXPECT_EQ(b->name(), "b");
}

// A matrix broadcast whose dims the reshape merges cannot follow.
TEST(ReshapeMoverTest, MatrixBroadcastAcrossMergedDimsStays) {
  CheckNoChange(Module1("  d = f32[16,96] parameter(0)\n  r = f32[2,8,96] reshape(d)\n"
                        "  m = f32[8,96] parameter(1)\n  b = f32[2,8,96] broadcast(m), dimensions={1,2}\n"
                        "  ROOT a = f32[2,8,96] add(r, b)"),
                "reshape_mover");
}

// XLA moves a rearrange only with all its users: here the reshape is also
// an output, so the add stays.
TEST(ReshapeMoverTest, ReshapeWithAnotherUserStays) {
  CheckNoChange(Module1("  p = f32[2,3] parameter(0)\n  q = f32[2,3] parameter(1)\n  a = f32[6] reshape(p)\n"
                        "  b = f32[6] reshape(q)\n  s = f32[6] add(a, b)\n  ROOT t = (f32[6], f32[6]) tuple(s, a)"),
                "reshape_mover");
}

// A transpose keeps a broadcast a broadcast when its dims stay in order.
TEST(ReshapeMoverTest, TransposeWithBroadcastInOrder) {
  PassRun r = RunPass("reshape_mover",
                      Module1("  p = f32[2,3,4] parameter(0)\n  t = f32[3,2,4] transpose(p), dimensions={1,0,2}\n"
                              "  v = f32[4] parameter(1)\n  b = f32[3,2,4] broadcast(v), dimensions={2}\n"
                              "  ROOT m = f32[3,2,4] multiply(t, b)"));
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.root()->opcode(), Opcode::kTranspose);
  // Its dims {0,1} would become {1,0} before the transpose: a transpose itself.
  CheckNoChange(Module1("  p = f32[2,3,4] parameter(0)\n  t = f32[3,2,4] transpose(p), dimensions={1,0,2}\n"
                        "  v = f32[3,2] parameter(1)\n  b = f32[3,2,4] broadcast(v), dimensions={0,1}\n"
                        "  ROOT m = f32[3,2,4] multiply(t, b)"),
                "reshape_mover");
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
