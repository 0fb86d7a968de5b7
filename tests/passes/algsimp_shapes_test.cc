// algsimp, shape rewrites: reshape, transpose, broadcast, copy, bitcast,
// reverse, iota folding.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

class AlgsimpShapes : public ::testing::TestWithParam<RewriteCase> {};
TEST_P(AlgsimpShapes, Applies) { CheckRewrite(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Rewrites, AlgsimpShapes,
    ::testing::Values(
        RewriteCase{"reshape to the same shape → x",
                    Module1("  p = f32[2,3] parameter(0)\n  ROOT r = f32[2,3] reshape(p)"), "parameter(0)"},
        RewriteCase{"reshape(reshape(x)) → reshape(x)",
                    Module1("  p = f32[2,3] parameter(0)\n  a = f32[6] reshape(p)\n  ROOT r = f32[3,2] reshape(a)"),
                    "reshape(%p)"},
        RewriteCase{"reshape(broadcast(scalar)) → broadcast(scalar)",
                    Module1("  s = f32[] parameter(0)\n  b = f32[6] broadcast(s), dimensions={}\n"
                            "  ROOT r = f32[2,3] reshape(b)"),
                    "broadcast(%s)"},
        RewriteCase{"reshape(broadcast(x)) → broadcast(x): the reshape leaves x's dims whole",
                    Module1("  x = f32[96] parameter(0)\n  b = f32[2,8,96] broadcast(x), dimensions={2}\n"
                            "  ROOT r = f32[16,96] reshape(b)"),
                    "broadcast(%x), dimensions={1}"},
        RewriteCase{"iota folding: reshape(iota) → iota",
                    Module1("  i = s32[5] iota(), iota_dimension=0\n  ROOT r = s32[1,5] reshape(i)"),
                    "iota(), iota_dimension=1"},
        RewriteCase{"identity transpose → x",
                    Module1("  p = f32[2,3] parameter(0)\n  ROOT r = f32[2,3] transpose(p), dimensions={0,1}"),
                    "parameter(0)"},
        RewriteCase{"transpose(transpose(x)) → transpose(x)",
                    Module1("  p = f32[2,3,4] parameter(0)\n  a = f32[3,4,2] transpose(p), dimensions={1,2,0}\n"
                            "  ROOT r = f32[4,2,3] transpose(a), dimensions={1,2,0}"),
                    "transpose(%p), dimensions={2,0,1}"},
        RewriteCase{"transpose(broadcast(x)) → broadcast(x)",
                    Module1("  p = f32[3] parameter(0)\n  b = f32[3,5] broadcast(p), dimensions={0}\n"
                            "  ROOT r = f32[5,3] transpose(b), dimensions={1,0}"),
                    "broadcast(%p), dimensions={1}"},
        RewriteCase{"iota folding: transpose(iota) → iota",
                    Module1("  i = s32[3,5] iota(), iota_dimension=0\n"
                            "  ROOT r = s32[5,3] transpose(i), dimensions={1,0}"),
                    "iota(), iota_dimension=1"},
        RewriteCase{"broadcast to the same shape → x",
                    Module1("  p = f32[2,3] parameter(0)\n  ROOT r = f32[2,3] broadcast(p), dimensions={0,1}"),
                    "parameter(0)"},
        RewriteCase{"broadcast(broadcast(x)) → broadcast(x)",
                    Module1("  p = f32[3] parameter(0)\n  a = f32[3,4] broadcast(p), dimensions={0}\n"
                            "  ROOT r = f32[2,3,4] broadcast(a), dimensions={1,2}"),
                    "broadcast(%p), dimensions={1}"},
        RewriteCase{"constant with equal elements → broadcast(scalar)",
                    Module1("  ROOT c = f32[2,3] constant({{1.5, 1.5, 1.5}, {1.5, 1.5, 1.5}})"),
                    "broadcast(%constant"},
        RewriteCase{"iota folding: broadcast(iota) → iota",
                    Module1("  i = s32[4] iota(), iota_dimension=0\n  ROOT r = s32[3,4] broadcast(i), dimensions={1}"),
                    "iota(), iota_dimension=1"},
        RewriteCase{"iota folding: iota over a size-1 dimension → zeros",
                    Module1("  ROOT i = s32[1,4] iota(), iota_dimension=0"), "broadcast(%constant"},
        RewriteCase{"reverse of size-1 dimensions → x",
                    Module1("  p = f32[1,4] parameter(0)\n  ROOT r = f32[1,4] reverse(p), dimensions={0}"),
                    "parameter(0)"},
        RewriteCase{"reverse(reverse(x)) → x",
                    Module1("  p = f32[2,4] parameter(0)\n  a = f32[2,4] reverse(p), dimensions={0,1}\n"
                            "  ROOT r = f32[2,4] reverse(a), dimensions={1,0}"),
                    "parameter(0)"},
        RewriteCase{"reverse(broadcast(scalar)) → broadcast(scalar)",
                    Module1("  s = f32[] parameter(0)\n  b = f32[2,4] broadcast(s), dimensions={}\n"
                            "  ROOT r = f32[2,4] reverse(b), dimensions={1}"),
                    "broadcast(%s)"},
        RewriteCase{"copy with identical layout → x",
                    Module1("  p = f32[2,3]{1,0} parameter(0)\n  ROOT r = f32[2,3]{1,0} copy(p)"), "parameter(0)"},
        RewriteCase{"bitcast to the same shape → x",
                    Module1("  p = f32[2,3]{1,0} parameter(0)\n  ROOT r = f32[2,3]{1,0} bitcast(p)"), "parameter(0)"},
        RewriteCase{"bitcast(bitcast(x)) → bitcast(x)",
                    Module1("  p = f32[2,3]{1,0} parameter(0)\n  a = f32[6]{0} bitcast(p)\n"
                            "  ROOT r = f32[3,2]{1,0} bitcast(a)"),
                    "bitcast(%p)"}));

TEST(AlgsimpShapes, CopyThatChangesLayoutStays) {
  CheckNoChange(Module1("  p = f32[2,3]{1,0} parameter(0)\n  ROOT r = f32[2,3]{0,1} copy(p)"));
}

TEST(AlgsimpShapes, NoChange) {
  CheckNoChange(Module1("  p = f32[2,3] parameter(0)\n  t = f32[3,2] transpose(p), dimensions={1,0}\n"
                        "  ROOT r = f32[6] reshape(t)"));
}

}  // namespace
}  // namespace hloscope::testing
