// algsimp, reductions and dots.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

const char* kAdd = R"(
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] maximum(a, b)
}
fadd {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

class AlgsimpReduce : public ::testing::TestWithParam<RewriteCase> {};
TEST_P(AlgsimpReduce, Applies) { CheckRewrite(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Rewrites, AlgsimpReduce,
    ::testing::Values(
        RewriteCase{"reduce over zero elements → init",
                    Module1("  p = f32[3,0] parameter(0)\n  z = f32[] parameter(1)\n"
                            "  ROOT r = f32[3] reduce(p, z), dimensions={1}, to_apply=max",
                            kAdd),
                    "broadcast(%z)"},
        RewriteCase{"reduce over no (or size-1) dimensions → op(init, x)",
                    Module1("  p = f32[3,1] parameter(0)\n  z = f32[] constant(0)\n"
                            "  ROOT r = f32[3] reduce(p, z), dimensions={1}, to_apply=fadd",
                            kAdd),
                    "add("},
        RewriteCase{"reduce(broadcast(scalar)) → op(init, scalar) (idempotent op)",
                    Module1("  s = f32[] parameter(0)\n  b = f32[3,5] broadcast(s), dimensions={}\n"
                            "  z = f32[] constant(-inf)\n  ROOT r = f32[3] reduce(b, z), dimensions={1}, to_apply=max",
                            kAdd),
                    "broadcast("},
        RewriteCase{"reduce-add(broadcast(scalar)) → init + n*scalar (integers)",
                    Module1("  s = s32[] parameter(0)\n  b = s32[3,5] broadcast(s), dimensions={}\n"
                            "  z = s32[] parameter(1)\n  ROOT r = s32[3] reduce(b, z), dimensions={1}, to_apply=add",
                            kAdd),
                    "broadcast("},
        RewriteCase{"reduce-add(negate(x)) → negate(reduce-add(x))",
                    Module1("  p = f32[3,5] parameter(0)\n  n = f32[3,5] negate(p)\n  z = f32[] constant(0)\n"
                            "  ROOT r = f32[3] reduce(n, z), dimensions={1}, to_apply=fadd",
                            kAdd),
                    "negate("},
        RewriteCase{"dot with degenerate contracting dimensions → multiply",
                    Module1("  a = f32[3,1] parameter(0)\n  b = f32[1,4] parameter(1)\n"
                            "  ROOT r = f32[3,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
                    "multiply("},
        RewriteCase{"dot with degenerate contracting dimensions → multiply",
                    Module1("  a = bf16[2,3,1] parameter(0)\n  b = bf16[2,1,4] parameter(1)\n"
                            "  ROOT r = f32[2,3,4] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                            "rhs_batch_dims={0}, rhs_contracting_dims={1}"),
                    "multiply("},
        RewriteCase{"dot(broadcast(a), broadcast(b)) → broadcast(a*b*K) (integers)",
                    Module1("  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n"
                            "  a = s32[3,5] broadcast(x), dimensions={}\n  b = s32[5,2] broadcast(y), dimensions={}\n"
                            "  ROOT r = s32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
                    "broadcast("}));

TEST(AlgsimpReduceRefused, FloatAddOfBroadcast) {
  CheckNoChange(Module1("  s = f32[] parameter(0)\n  b = f32[3,5] broadcast(s), dimensions={}\n"
                        "  z = f32[] constant(0)\n  ROOT r = f32[3] reduce(b, z), dimensions={1}, to_apply=fadd",
                        kAdd));
}

// No change: the negate has another user (moving it would compute it
// twice), the init is not zero, or the reducer is not an add.
TEST(AlgsimpReduceRefused, NegateOfASumOnlyForItsOnlyUserAZeroInitAndAnAdd) {
  CheckNoChange(Module1("  p = f32[3,5] parameter(0)\n  n = f32[3,5] negate(p)\n  z = f32[] constant(0)\n"
                        "  r = f32[3] reduce(n, z), dimensions={1}, to_apply=fadd\n"
                        "  ROOT t = (f32[3], f32[3,5]) tuple(r, n)",
                        kAdd));
  CheckNoChange(Module1("  p = f32[3,5] parameter(0)\n  n = f32[3,5] negate(p)\n  z = f32[] constant(1)\n"
                        "  ROOT r = f32[3] reduce(n, z), dimensions={1}, to_apply=fadd",
                        kAdd));
  CheckNoChange(Module1("  p = f32[3,5] parameter(0)\n  n = f32[3,5] negate(p)\n  z = f32[] constant(-inf)\n"
                        "  ROOT r = f32[3] reduce(n, z), dimensions={1}, to_apply=max",
                        kAdd));
}

// What a rewrite makes names what it replaced, as XLA's do (XLA gives the
// instructions of a module read from text their own name as op_name, and a
// replacement takes the metadata of what it replaces): the new reduce and
// negate say op_name="r"; an existing instruction that a rewrite returns
// keeps what it had.
TEST(AlgsimpReduce, WhatARewriteMakesNamesWhatItReplaced) {
  PassRun run = RunPass("algsimp", Module1("  p = f32[3,5] parameter(0)\n  n = f32[3,5] negate(p)\n"
                                           "  z = f32[] constant(0)\n"
                                           "  ROOT r = f32[3] reduce(n, z), dimensions={1}, to_apply=fadd",
                                           kAdd));
  ASSERT_TRUE(run.Applied("reduce-add(negate(x)) → negate(reduce-add(x))"));
  ASSERT_EQ(run.root()->opcode(), Opcode::kNegate);
  EXPECT_EQ(run.root()->MetadataValue("op_name"), "r");
  EXPECT_EQ(run.root()->operand(0)->MetadataValue("op_name"), "r");
  EXPECT_EQ(run.root()->operand(0)->operand(0)->MetadataValue("op_name"), "");  // p
}

TEST(AlgsimpReduce, NoChange) {
  CheckNoChange(Module1("  p = f32[3,5] parameter(0)\n  z = f32[] constant(0)\n"
                        "  ROOT r = f32[3] reduce(p, z), dimensions={1}, to_apply=fadd",
                        kAdd));
}

}  // namespace
}  // namespace hloscope::testing
