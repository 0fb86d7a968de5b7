#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

TEST(TupleSimplifierTest, GteOfTuple) {
  CheckRewrite({"gte(tuple) → element",
                Module1("  p = f32[4] parameter(0)\n  q = s32[] parameter(1)\n  t = (f32[4], s32[]) tuple(p, q)\n"
                        "  ROOT g = s32[] get-tuple-element(t), index=1"),
                "parameter(1)"},
               "tuple_simplifier");
}

TEST(TupleSimplifierTest, TupleRebuiltFromAllElements) {
  CheckRewrite({"tuple(gte(t, 0..n-1)) → t",
                Module1("  p = (f32[4], s32[]) parameter(0)\n  a = f32[4] get-tuple-element(p), index=0\n"
                        "  b = s32[] get-tuple-element(p), index=1\n  ROOT t = (f32[4], s32[]) tuple(a, b)"),
                "parameter(0)"},
               "tuple_simplifier");
}

TEST(TupleSimplifierTest, PartialOrReorderedTuplesStay) {
  CheckNoChange(Module1("  p = (f32[4], f32[4]) parameter(0)\n  a = f32[4] get-tuple-element(p), index=0\n"
                        "  b = f32[4] get-tuple-element(p), index=1\n  ROOT t = (f32[4], f32[4]) tuple(b, a)"),
                "tuple_simplifier");
}

}  // namespace
}  // namespace hloscope::testing
