#include <algorithm>

#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

constexpr const char* kRow = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  p = f32[5,37]{1,0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[5]{0} reduce(p, z), dimensions={1}, to_apply=add
})hlo";

TEST(ReductionEmitter, RowReductionIsWarpPerRow) {
  auto e = EmitFor(kRow, "r", &EmitReductionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "row-reduction");
  EXPECT_EQ(e.kernel.dims.block[0], 256u);
  EXPECT_EQ(e.kernel.dims.grid[0], 1u);  // 8 rows a block
  EXPECT_NE(e.ir.find("shfl.sync.down"), std::string::npos);
}

TEST(ReductionEmitter, LongRowUsesABlockAndSharedMemory) {
  std::string text = R"hlo(
HloModule m
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] maximum(a, b) }
ENTRY e {
  p = f32[3,5000]{1,0} parameter(0)
  z = f32[] constant(-inf)
  ROOT r = f32[3]{0} reduce(p, z), dimensions={1}, to_apply=mx
})hlo";
  auto e = EmitFor(text, "r", &EmitReductionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "row-reduction");
  EXPECT_EQ(e.kernel.dims.grid[0], 3u);
  EXPECT_NE(e.ir.find("addrspace(3)"), std::string::npos);
  EXPECT_NE(e.ir.find("barrier"), std::string::npos);
}

TEST(ReductionEmitter, ColumnReductionByLayout) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  p = f32[70,45]{1,0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[45]{0} reduce(p, z), dimensions={0}, to_apply=add
})hlo";
  auto e = EmitFor(text, "r", &EmitReductionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "column-reduction");
  EXPECT_EQ(e.kernel.dims.grid[0], 2u);  // two 32-column tiles
  EXPECT_EQ(e.kernel.dims.block[0], 1024u);
}

TEST(ReductionEmitter, ReducingTheMajorDimOfAColumnMajorLayoutIsARow) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  p = f32[70,45]{0,1} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[45]{0} reduce(p, z), dimensions={0}, to_apply=add
})hlo";
  auto e = EmitFor(text, "r", &EmitReductionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "row-reduction");
}

TEST(ReductionEmitter, InterleavedDimsFallBackToOneThreadPerOutput) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  p = f32[4,6,8]{2,1,0} parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[6]{0} reduce(p, z), dimensions={0,2}, to_apply=add
})hlo";
  auto e = EmitFor(text, "r", &EmitReductionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "reduction");
}

TEST(ReductionEmitter, MultiOutputFusionWithSideOutputAndVariadicArgmax) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
argmax {
  av = f32[] parameter(0)  ai = s32[] parameter(1)  bv = f32[] parameter(2)  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT
  eq = pred[] compare(av, bv), direction=EQ
  lt = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lt)
  pick = pred[] or(gt, tie)
  v = f32[] select(pick, av, bv)
  i = s32[] select(pick, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
fused {
  p0 = f32[6,40]{1,0} parameter(0)
  e = f32[6,40]{1,0} exponential(p0)
  z = f32[] constant(0)
  s = f32[6]{0} reduce(e, z), dimensions={1}, to_apply=add
  io = s32[6,40]{1,0} iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zi = s32[] constant(0)
  am = (f32[6]{0}, s32[6]{0}) reduce(p0, io, ninf, zi), dimensions={1}, to_apply=argmax
  ROOT t = (f32[6]{0}, f32[6,40]{1,0}, (f32[6]{0}, s32[6]{0})) tuple(s, e, am)
}
ENTRY e {
  p = f32[6,40]{1,0} parameter(0)
  ROOT f = (f32[6]{0}, f32[6,40]{1,0}, (f32[6]{0}, s32[6]{0})) fusion(p), kind=kInput, calls=fused
})hlo";
  auto e = EmitFor(text, "f", &EmitReductionKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "row-reduction");
  EXPECT_EQ(e.spec.args.size(), 5u);
}

TEST(ReductionEmitter, MismatchedReducesAreNamed) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
fused {
  p0 = f32[6,40]{1,0} parameter(0)
  z = f32[] constant(0)
  a = f32[6]{0} reduce(p0, z), dimensions={1}, to_apply=add
  b = f32[40]{0} reduce(p0, z), dimensions={0}, to_apply=add
  ROOT t = (f32[6]{0}, f32[40]{0}) tuple(a, b)
}
ENTRY e {
  p = f32[6,40]{1,0} parameter(0)
  ROOT f = (f32[6]{0}, f32[40]{0}) fusion(p), kind=kInput, calls=fused
})hlo";
  auto e = EmitFor(text, "f", &EmitReductionKernel);
  EXPECT_NE(e.error.find("must share input shape and dimensions"), std::string::npos) << e.error;
}


// --- executed on the CPU against the interpreter -------------------------

std::string Unfused(const std::string& in, const std::string& out, const std::string& dims,
                    const std::string& type = "f32", const std::string& init = "0",
                    const std::string& op = "add") {
  return "HloModule m\nr { a = " + type + "[] parameter(0)  b = " + type + "[] parameter(1)  ROOT s = " + type +
         "[] " + op + "(a, b) }\nENTRY e {\n  p = " + in + " parameter(0)\n  z = " + type + "[] constant(" + init +
         ")\n  ROOT red = " + out + " reduce(p, z), dimensions={" + dims + "}, to_apply=r\n}\n";
}

struct Case {
  const char* name;
  std::string hlo;
  const char* kind;
};

class ReductionRun : public ::testing::TestWithParam<Case> {};

TEST_P(ReductionRun, MatchesTheInterpreterOnTheCpu) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().hlo, 7, &kinds), "");
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), GetParam().kind), kinds.end());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ReductionRun,
    ::testing::Values(
        Case{"row_warp", Unfused("f32[5,37]{1,0}", "f32[5]{0}", "1"), "row-reduction"},
        Case{"row_block_max", Unfused("f32[3,5000]{1,0}", "f32[3]{0}", "1", "f32", "-inf", "maximum"), "row-reduction"},
        Case{"row_non_identity_init", Unfused("f32[9,70]{1,0}", "f32[9]{0}", "1", "f32", "1.5"), "row-reduction"},
        Case{"full_rank1", Unfused("f32[1000]{0}", "f32[]", "0"), "row-reduction"},
        Case{"full_rank3_long", Unfused("f32[4,30,50]{2,1,0}", "f32[]", "0,1,2"), "row-reduction"},
        Case{"column", Unfused("f32[70,45]{1,0}", "f32[45]{0}", "0"), "column-reduction"},
        Case{"column_batched", Unfused("f32[3,50,40]{2,1,0}", "f32[3,40]{1,0}", "1"), "column-reduction"},
        Case{"column_major_layout_row", Unfused("f32[70,45]{0,1}", "f32[45]{0}", "0"), "row-reduction"},
        Case{"rank4_layout_column", Unfused("f32[2,3,4,5]{0,1,2,3}", "f32[2,5]{1,0}", "1,2"), "column-reduction"},
        Case{"interleaved", Unfused("f32[4,6,8]{2,1,0}", "f32[6]{0}", "0,2"), "reduction"},
        Case{"bf16_row", Unfused("bf16[4,16]{1,0}", "bf16[4]{0}", "1", "bf16"), "row-reduction"},
        Case{"s32_column_max", Unfused("s32[33,7]{1,0}", "s32[7]{0}", "0", "s32", "-2147483648", "maximum"),
             "column-reduction"},
        Case{"pred_or", Unfused("pred[6,50]{1,0}", "pred[6]{0}", "1", "pred", "false", "or"), "row-reduction"},
        Case{"empty_reduced_dim", Unfused("f32[4,0]{1,0}", "f32[4]{0}", "1", "f32", "2"), "row-reduction"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

TEST(ReductionEmitter, MultiOutputFusionRunsOnTheCpu) {
  std::string variadic = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
argmax {
  av = f32[] parameter(0)  ai = s32[] parameter(1)  bv = f32[] parameter(2)  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT
  eq = pred[] compare(av, bv), direction=EQ
  lt = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lt)
  pick = pred[] or(gt, tie)
  v = f32[] select(pick, av, bv)
  i = s32[] select(pick, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
fused {
  p0 = f32[6,600]{1,0} parameter(0)
  e = f32[6,600]{1,0} exponential(p0)
  z = f32[] constant(0)
  s = f32[6]{0} reduce(e, z), dimensions={1}, to_apply=add
  io = s32[6,600]{1,0} iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zi = s32[] constant(0)
  am = (f32[6]{0}, s32[6]{0}) reduce(p0, io, ninf, zi), dimensions={1}, to_apply=argmax
  ROOT t = (f32[6]{0}, f32[6,600]{1,0}, (f32[6]{0}, s32[6]{0})) tuple(s, e, am)
}
ENTRY e {
  p = f32[6,600]{1,0} parameter(0)
  f = (f32[6]{0}, f32[6,600]{1,0}, (f32[6]{0}, s32[6]{0})) fusion(p), kind=kInput, calls=fused
  s = f32[6]{0} get-tuple-element(f), index=0
  x = f32[6,600]{1,0} get-tuple-element(f), index=1
  am = (f32[6]{0}, s32[6]{0}) get-tuple-element(f), index=2
  m = f32[6]{0} get-tuple-element(am), index=0
  i = s32[6]{0} get-tuple-element(am), index=1
  ROOT t = (f32[6]{0}, f32[6,600]{1,0}, f32[6]{0}, s32[6]{0}) tuple(s, x, m, i)
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(variadic, 3, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"row-reduction"});
}

TEST(ReductionEmitter, FlattenedVariadicOutputsThroughGetTupleElement) {
  std::string text = R"hlo(
HloModule m
argmax {
  av = f32[] parameter(0)  ai = s32[] parameter(1)  bv = f32[] parameter(2)  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT
  v = f32[] select(gt, av, bv)
  i = s32[] select(gt, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] maximum(a, b) }
fused {
  p0 = f32[2,8,50]{2,1,0} parameter(0)
  io = s32[2,8,50]{2,1,0} iota(), iota_dimension=2
  ninf = f32[] constant(-inf)
  zi = s32[] constant(0)
  am = (f32[2,8]{1,0}, s32[2,8]{1,0}) reduce(p0, io, ninf, zi), dimensions={2}, to_apply=argmax
  m = f32[2,8]{1,0} reduce(p0, ninf), dimensions={2}, to_apply=mx
  g0 = f32[2,8]{1,0} get-tuple-element(am), index=0
  g1 = s32[2,8]{1,0} get-tuple-element(am), index=1
  ROOT t = (f32[2,8]{1,0}, f32[2,8]{1,0}, s32[2,8]{1,0}) tuple(m, g0, g1)
}
ENTRY e {
  p = f32[2,8,50]{2,1,0} parameter(0)
  ROOT f = (f32[2,8]{1,0}, f32[2,8]{1,0}, s32[2,8]{1,0}) fusion(p), kind=kInput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 8, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"row-reduction"});
}

// Reduction epilogues (priority fusion's reduction epilogue fusion): one-
// operand elementwise ops applied to the reduced values in the same kernel,
// for row and column reductions, next to a plain reduce output.
TEST(ReductionEmitter, EpilogueRunsOnTheReducedValues) {
  for (const char* layout : {"{1,0}", "{0,1}"}) {
    std::string text = std::string(R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
fused {
  p0 = f32[40,70])hlo") + layout + R"hlo( parameter(0)
  z = f32[] constant(0)
  r = f32[40]{0} reduce(p0, z), dimensions={1}, to_apply=add
  a = f32[40]{0} abs(r)
  s = f32[40]{0} sqrt(a)
  r2 = f32[40]{0} reduce(p0, z), dimensions={1}, to_apply=add
  ROOT t = (f32[40]{0}, f32[40]{0}) tuple(s, r2)
}
ENTRY e {
  p = f32[40,70])hlo" + layout + R"hlo( parameter(0)
  ROOT f = (f32[40]{0}, f32[40]{0}) fusion(p), kind=kInput, calls=fused
})hlo";
    std::vector<std::string> kinds;
    EXPECT_EQ(testing::RunAndCompare(text, 9, &kinds), "") << layout;
    ASSERT_EQ(kinds.size(), 1u);
    EXPECT_EQ(kinds[0], std::string(layout) == "{1,0}" ? "row-reduction" : "column-reduction");
  }
}

// An epilogue through a bitcast to another shape and a convert: the
// reduced value lands at the same physical position of the root.
TEST(ReductionEmitter, EpilogueThroughABitcast) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
fused {
  p0 = f32[6,4,10]{2,1,0} parameter(0)
  z = f32[] constant(0)
  r = f32[6,4]{1,0} reduce(p0, z), dimensions={2}, to_apply=add
  bc = f32[3,8]{1,0} bitcast(r)
  ROOT cv = f16[3,8]{1,0} convert(bc)
}
ENTRY e {
  p = f32[6,4,10]{2,1,0} parameter(0)
  ROOT f = f16[3,8]{1,0} fusion(p), kind=kInput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 5, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"row-reduction"});
}

// The same through a reshape that keeps the bytes in place (XLA's
// IsIntermediate takes bitcast-like reshapes into a reduction epilogue).
TEST(ReductionEmitter, EpilogueThroughABitcastReshape) {
  std::string text = R"hlo(
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
fused {
  p0 = f32[6,4,10]{2,1,0} parameter(0)
  z = f32[] constant(0)
  r = f32[6,4]{1,0} reduce(p0, z), dimensions={2}, to_apply=add
  n = f32[6,4]{1,0} negate(r)
  rs = f32[2,3,4]{2,1,0} reshape(n)
  ROOT e = f32[2,3,4]{2,1,0} exponential(rs)
}
ENTRY e {
  p = f32[6,4,10]{2,1,0} parameter(0)
  ROOT f = f32[2,3,4]{2,1,0} fusion(p), kind=kInput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 6, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"row-reduction"});
}

}  // namespace
}  // namespace hloscope::codegen
