// The verifier walks each computation once for structure and once for form
// and shapes together, and checks the commonest elementwise ops without
// building their inferred shape. These tests hold it to the results of
// separate walks: form errors hide shape errors wherever they occur, errors
// keep their order, and the fast path still reports every bad shape.
#include "tests/verify/verify_test_util.h"

namespace hloscope::testing {
namespace {

TEST(VerifierSingleWalk, FormErrorAfterAShapeErrorHidesShapes) {
  // `a` has a wrong shape, and a later instruction a wrong operand count:
  // only the form error is reported, as when forms were checked first.
  auto m = ParseOrDie(
      "ENTRY e {\n  x = f32[2] parameter(0)\n  a = f32[3] negate(x)\n  ROOT b = f32[2] add(x, x)\n}\n");
  ASSERT_TRUE(m);
  FindInstr(*m, "b")->AppendOperand(FindInstr(*m, "x"));
  EXPECT_EQ(Verify(*m), "t.hlo:4:8: error: b: add takes 2 operand(s) but has 3");
}

TEST(VerifierSingleWalk, ShapeErrorsKeepTheirOrderAcrossComputations) {
  EXPECT_EQ(VerifyText(R"hlo(
add {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT s = f32[2] add(p, q)
}

ENTRY e {
  x = f32[2] parameter(0)
  z = f32[] constant(0)
  r = f32[] reduce(x, z), dimensions={0}, to_apply=add
  ROOT n = f32[3] negate(x)
}
)hlo"),
            "t.hlo:5:8: error: s: has shape f32[2] but its operands and attributes give f32[]\n"
            "t.hlo:11:3: error: r: reduce computation 'add' returns f32[2] but must return scalars\n"
            "t.hlo:12:8: error: n: has shape f32[3] but its operands and attributes give f32[2]");
}

TEST(VerifierSingleWalk, FastPathOpcodesStillReportBadShapes) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[2] parameter(0)
  y = f32[3] parameter(1)
  i = s32[2] parameter(2)
  p = pred[2] parameter(3)
  h = bf16[2] parameter(4)
  a = f32[2] add(x, y)
  t = s32[2] tanh(i)
  s = pred[2] subtract(p, p)
  c = f32[3] convert(i)
  k = s32[2] copy(x)
  mm = f32[2] multiply(h, x)
  d = f32[2,1] divide(x, x)
  ROOT r = f32[2] exponential(i)
}
)hlo"),
            "t.hlo:8:3: error: a: operand 1 ('y') has shape f32[3] but f32[2] was expected (add needs operands "
            "of identical shape; HLO has no implicit broadcast)\n"
            "t.hlo:9:3: error: t: tanh needs floating-point or complex operands, but operand 0 ('i') is s32[2]\n"
            "t.hlo:10:3: error: s: subtract needs arithmetic (non-pred) operands, but operand 0 ('p') is "
            "pred[2]\n"
            "t.hlo:11:3: error: c: has shape f32[3] but its operands and attributes give f32[2]\n"
            "t.hlo:12:3: error: k: has shape s32[2] but its operands and attributes give f32[2] (the element "
            "type differs)\n"
            "t.hlo:14:3: error: d: has shape f32[2,1] but its operands and attributes give f32[2]\n"
            "t.hlo:15:8: error: r: exponential needs floating-point or complex operands, but operand 0 ('i') is "
            "s32[2]");
}

TEST(VerifierSingleWalk, FastPathOpcodesAcceptWhatInferenceAccepts) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[2,3]{1,0} parameter(0)
  i = s32[2,3]{0,1} parameter(1)
  p = pred[2,3] parameter(2)
  a = f32[2,3]{0,1} add(x, x)
  m = s32[2,3] multiply(i, i)
  o = pred[2,3] maximum(p, p)
  c = bf16[2,3] convert(i)
  k = f32[2,3] copy(x)
  l = f32[2,3] log(x)
  ROOT r = f32[2,3] rsqrt(x)
}
)hlo"),
            "OK");
}

TEST(VerifierSingleWalk, OutOfOrderIdsStillFindCycles) {
  // A pass may leave ids out of list order: the cycle search must then run.
  auto m = ParseOrDie("ENTRY e {\n  x = f32[] parameter(0)\n  a = f32[] negate(x)\n  ROOT b = f32[] negate(a)\n}\n");
  ASSERT_TRUE(m);
  Instruction* a = FindInstr(*m, "a");
  Instruction* b = FindInstr(*m, "b");
  a->ReplaceOperand(0, b);
  EXPECT_EQ(Verify(*m),
            "t.hlo:3:3: error: a: is part of a cycle: a -> b -> a (each arrow points to an operand or control "
            "predecessor)");
}

}  // namespace
}  // namespace hloscope::testing
