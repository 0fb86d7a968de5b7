// algsimp, slice rewrites: slice, concatenate, pad, dynamic-slice,
// dynamic-update-slice.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

class AlgsimpSlices : public ::testing::TestWithParam<RewriteCase> {};
TEST_P(AlgsimpSlices, Applies) { CheckRewrite(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Rewrites, AlgsimpSlices,
    ::testing::Values(
        RewriteCase{"slice of the full operand → x",
                    Module1("  p = f32[4,3] parameter(0)\n  ROOT r = f32[4,3] slice(p), slice={[0:4], [0:3]}"),
                    "parameter(0)"},
        RewriteCase{"slice(slice(x)) → slice(x)",
                    Module1("  p = f32[20] parameter(0)\n  a = f32[8] slice(p), slice={[2:18:2]}\n"
                            "  ROOT r = f32[3] slice(a), slice={[1:7:2]}"),
                    "slice={[4:13:4]}"},
        RewriteCase{"slice(concatenate) → slice(operand)",
                    Module1("  p = f32[4] parameter(0)\n  q = f32[6] parameter(1)\n"
                            "  c = f32[10] concatenate(p, q), dimensions={0}\n  ROOT r = f32[3] slice(c), slice={[5:8]}"),
                    "slice(%q), slice={[1:4]}"},
        RewriteCase{"slice(pad) inside the operand → slice(operand)",
                    Module1("  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
                            "  d = f32[10] pad(p, z), padding=3_3\n  ROOT r = f32[2] slice(d), slice={[4:6]}"),
                    "slice(%p), slice={[1:3]}"},
        RewriteCase{"slice of padding only → broadcast(pad value)",
                    Module1("  p = f32[4] parameter(0)\n  z = f32[] parameter(1)\n"
                            "  d = f32[10] pad(p, z), padding=3_3\n  ROOT r = f32[2] slice(d), slice={[0:2]}"),
                    "broadcast(%z)"},
        RewriteCase{"slice(broadcast(scalar)) → broadcast(scalar)",
                    Module1("  s = f32[] parameter(0)\n  b = f32[8] broadcast(s), dimensions={}\n"
                            "  ROOT r = f32[3] slice(b), slice={[1:4]}"),
                    "broadcast(%s)"},
        RewriteCase{"iota folding: slice(iota) → iota",
                    Module1("  i = s32[8,4] iota(), iota_dimension=0\n  ROOT r = s32[5,2] slice(i), slice={[0:5], [1:3]}"),
                    "iota(), iota_dimension=0"},
        RewriteCase{"concatenate of one operand → x",
                    Module1("  p = f32[4] parameter(0)\n  ROOT r = f32[4] concatenate(p), dimensions={0}"),
                    "parameter(0)"},
        RewriteCase{"concatenate: zero-element operands dropped",
                    Module1("  p = f32[4] parameter(0)\n  q = f32[0] parameter(1)\n  s = f32[3] parameter(2)\n"
                            "  ROOT r = f32[7] concatenate(p, q, s), dimensions={0}"),
                    "concatenate(%p, %s)"},
        RewriteCase{"concatenate of adjacent slices → slice",
                    Module1("  p = f32[10,2] parameter(0)\n  a = f32[3,2] slice(p), slice={[1:4], [0:2]}\n"
                            "  b = f32[4,2] slice(p), slice={[4:8], [0:2]}\n"
                            "  ROOT r = f32[7,2] concatenate(a, b), dimensions={0}"),
                    "slice={[1:8], [0:2]}"},
        RewriteCase{"pad with zero padding → x",
                    Module1("  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[4] pad(p, z), padding=0_0"),
                    "parameter(0)"},
        RewriteCase{"dynamic-slice with constant indices → slice",
                    Module1("  p = f32[8,4] parameter(0)\n  i = s32[] constant(6)\n  j = s32[] constant(1)\n"
                            "  ROOT r = f32[3,2] dynamic-slice(p, i, j), dynamic_slice_sizes={3,2}"),
                    "slice={[5:8], [1:3]}"},
        RewriteCase{"dynamic-update-slice of full size → update",
                    Module1("  p = f32[4] parameter(0)\n  u = f32[4] parameter(1)\n  i = s32[] parameter(2)\n"
                            "  ROOT r = f32[4] dynamic-update-slice(p, u, i)"),
                    "parameter(1)"}));

TEST(AlgsimpSlices, SliceStraddlingConcatOperandsStays) {
  CheckNoChange(Module1("  p = f32[4] parameter(0)\n  q = f32[6] parameter(1)\n"
                        "  c = f32[10] concatenate(p, q), dimensions={0}\n  ROOT r = f32[3] slice(c), slice={[3:6]}"));
}

TEST(AlgsimpSlices, NoChange) {
  CheckNoChange(Module1("  p = f32[8] parameter(0)\n  ROOT r = f32[3] slice(p), slice={[1:4]}"));
}

}  // namespace
}  // namespace hloscope::testing
