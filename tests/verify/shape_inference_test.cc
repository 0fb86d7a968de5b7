// InferShape per opcode family: the shape it computes from operands,
// attributes and called computations, and its messages for bad input.
#include "tests/verify/verify_test_util.h"

namespace hloscope::testing {
namespace {

TEST(ShapeInference, ElementwiseUnaryAndBinary) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  a = f32[2,<=3] parameter(0)
  b = f32[2,3] parameter(1)
  h = bf16[2,3] parameter(2)
  c = c64[4] parameter(3)
  i = s32[4] parameter(4)
  neg = f32[2,3] negate(b)
  add = f32[2,<=3] add(a, b)
  mixed = f32[2,3] multiply(h, b)
  cmp = pred[2,3] compare(b, b), direction=LT
  re = f32[4] real(c)
  ab = f32[4] abs(c)
  fin = pred[2,3] is-finite(b)
  cl = s32[4] count-leading-zeros(i)
  cx = c64[2,3] complex(b, b)
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "neg"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "add"), "f32[2,<=3]");
  EXPECT_EQ(Inferred(*m, "mixed"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "cmp"), "pred[2,3]");
  EXPECT_EQ(Inferred(*m, "re"), "f32[4]");
  EXPECT_EQ(Inferred(*m, "ab"), "f32[4]");
  EXPECT_EQ(Inferred(*m, "fin"), "pred[2,3]");
  EXPECT_EQ(Inferred(*m, "cl"), "s32[4]");
  EXPECT_EQ(Inferred(*m, "cx"), "c64[2,3]");
}

TEST(ShapeInference, ElementwiseErrors) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  x = f32[2] parameter(0)
  y = f32[3] parameter(1)
  i = s32[2] parameter(2)
  p = pred[2] parameter(3)
  bad_add = f32[2] add(x, y)
  bad_type = f32[2] add(x, i)
  bad_exp = s32[2] exponential(i)
  bad_sub = pred[2] subtract(p, p)
  bad_sel = f32[2] select(i, x, x)
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(
      Inferred(*m, "bad_add"),
      "error: operand 1 ('y') has shape f32[3] but f32[2] was expected (add needs operands of identical "
      "shape; HLO has no implicit broadcast)");
  EXPECT_EQ(
      Inferred(*m, "bad_type"),
      "error: operand 1 ('i') has shape s32[2] but element type f32 was expected (add needs operands of "
      "the same element type; operand 0 ('x') is f32[2])");
  EXPECT_EQ(Inferred(*m, "bad_exp"),
            "error: exponential needs floating-point or complex operands, but operand 0 ('i') is s32[2]");
  EXPECT_EQ(Inferred(*m, "bad_sub"),
            "error: subtract needs arithmetic (non-pred) operands, but operand 0 ('p') is pred[2]");
  EXPECT_EQ(Inferred(*m, "bad_sel"),
            "error: operand 0 ('i'), the predicate, has shape s32[2] but must be of type pred");
}

TEST(ShapeInference, ConvertsSelectClamp) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  x = f32[2,3] parameter(0)
  p = pred[] parameter(1)
  lo = f32[] parameter(2)
  w = u32[2] parameter(3)
  cv = s8[2,3] convert(x)
  narrow = u8[2,4] bitcast-convert(w)
  wide = u64[] bitcast-convert(w)
  sel = f32[2,3] select(p, x, x)
  cl = f32[2,3] clamp(lo, x, lo)
  rp = f32[2,3] reduce-precision(x), exponent_bits=5, mantissa_bits=10
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "cv"), "s8[2,3]");
  EXPECT_EQ(Inferred(*m, "narrow"), "u8[2,4]");
  EXPECT_EQ(Inferred(*m, "wide"), "u64[]");
  EXPECT_EQ(Inferred(*m, "sel"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "cl"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "rp"), "f32[2,3]");
}

TEST(ShapeInference, DataMovement) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  x = f32[2,3] parameter(0)
  s = f32[] parameter(1)
  i = s32[] parameter(2)
  v = f32[4,<=5] parameter(3)
  bc = f32[4,2,3] broadcast(x), dimensions={1,2}
  rs = f32[3,2] reshape(x)
  tr = f32[3,2] transpose(x), dimensions={1,0}
  sl = f32[1,2] slice(x), slice={[1:2], [0:3:2]}
  ds = f32[2,2] dynamic-slice(x, i, i), dynamic_slice_sizes={2,2}
  dus = f32[2,3] dynamic-update-slice(x, ds, i, i)
  cc = f32[2,9] concatenate(x, x, x), dimensions={1}
  cd = f32[4,<=10] concatenate(v, v), dimensions={1}
  pd = f32[5,10] pad(x, s), padding=1_2x0_1_3
  rv = f32[2,3] reverse(x), dimensions={0}
  io = s32[4,5] iota(), iota_dimension=1
  tp = (f32[2,3], f32[]) tuple(x, s)
  gte = f32[] get-tuple-element(tp), index=1
  gds = s32[] get-dimension-size(v), dimensions={1}
  sds = f32[4,<=5] set-dimension-size(v, i), dimensions={1}
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "bc"), "f32[4,2,3]");
  EXPECT_EQ(Inferred(*m, "rs"), "f32[3,2]");
  EXPECT_EQ(Inferred(*m, "tr"), "f32[3,2]");
  EXPECT_EQ(Inferred(*m, "sl"), "f32[1,2]");
  EXPECT_EQ(Inferred(*m, "ds"), "f32[2,2]");
  EXPECT_EQ(Inferred(*m, "dus"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "cc"), "f32[2,9]");
  EXPECT_EQ(Inferred(*m, "cd"), "f32[4,<=10]");
  EXPECT_EQ(Inferred(*m, "pd"), "f32[5,10]");
  EXPECT_EQ(Inferred(*m, "rv"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "io"), "s32[4,5]");
  EXPECT_EQ(Inferred(*m, "tp"), "(f32[2,3], f32[])");
  EXPECT_EQ(Inferred(*m, "gte"), "f32[]");
  EXPECT_EQ(Inferred(*m, "gds"), "s32[]");
  EXPECT_EQ(Inferred(*m, "sds"), "f32[4,<=5]");
}

TEST(ShapeInference, DataMovementErrors) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  x = f32[2,3] parameter(0)
  tp = (f32[2,3]) tuple(x)
  bad_bc = f32[4,3] broadcast(x), dimensions={0,1}
  bad_rs = f32[7] reshape(x)
  bad_tr = f32[3,2] transpose(x), dimensions={0,0}
  bad_sl = f32[2,3] slice(x), slice={[0:2], [0:4]}
  bad_cc = f32[4,3] concatenate(x, tp), dimensions={0}
  bad_gte = f32[2,3] get-tuple-element(tp), index=3
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "bad_bc"),
            "error: operand dimension 0 of f32[2,3] has size 2 but result dimension 0 of f32[4,3] has size 4 "
            "(broadcast keeps mapped dimensions unchanged)");
  EXPECT_EQ(Inferred(*m, "bad_rs"),
            "error: reshape from f32[2,3] (6 elements) to f32[7] (7 elements) changes the element count");
  EXPECT_EQ(
      Inferred(*m, "bad_tr"),
      "error: dimensions={0, 0} is not a permutation of the 2 dimensions of operand 0 ('x') (f32[2,3])");
  EXPECT_EQ(Inferred(*m, "bad_sl"), "error: slice range 1 [0:4:1] ends past dimension 1 of f32[2,3]");
  EXPECT_EQ(Inferred(*m, "bad_cc"),
            "error: operand 1 ('tp') has shape (f32[2,3]) but concatenate needs an array");
  EXPECT_EQ(Inferred(*m, "bad_gte"),
            "error: index=3 is out of range: operand 0 ('tp') is a tuple of 1 element(s) (f32[2,3])");
}

TEST(ShapeInference, DotWithBatchAndPreferredType) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  a = bf16[8,2,3] parameter(0)
  b = bf16[8,3,5] parameter(1)
  c = s8[4,6] parameter(2)
  d = s8[6] parameter(3)
  bmm = f32[8,2,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  mv = s32[4] dot(c, d), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  outer = s8[4,6,6] dot(c, d)
  bad = f32[8,2,5] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "bmm"), "f32[8,2,5]");
  EXPECT_EQ(Inferred(*m, "mv"), "s32[4]");
  EXPECT_EQ(Inferred(*m, "outer"), "s8[4,6,6]");
  EXPECT_EQ(
      Inferred(*m, "bad"),
      "error: contracting dimension 1 of the lhs bf16[8,2,3] has size 2 but contracting dimension 1 of the "
      "rhs bf16[8,3,5] has size 3");
}

TEST(ShapeInference, Convolution) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  in = f32[1,8,8,4] parameter(0)
  k = f32[3,3,4,16] parameter(1)
  dw = f32[3,3,1,4] parameter(2)
  conv = f32[1,4,4,16] convolution(in, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  dep = f32[1,8,8,4] convolution(in, dw), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=4
  dil = f32[1,11,11,16] convolution(in, k), window={size=3x3 lhs_dilate=2x2 rhs_dilate=2x2}, dim_labels=b01f_01io->b01f
  bad = f32[1,8,8,16] convolution(in, dw), window={size=3x3}, dim_labels=b01f_01io->b01f
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "conv"), "f32[1,4,4,16]");
  EXPECT_EQ(Inferred(*m, "dep"), "f32[1,8,8,4]");
  EXPECT_EQ(Inferred(*m, "dil"), "f32[1,11,11,16]");
  EXPECT_EQ(
      Inferred(*m, "bad"),
      "error: the input feature dimension (4 in f32[1,8,8,4]) divided by feature_group_count=1 must equal "
      "the kernel's input feature dimension (1 in f32[3,3,1,4])");
}

TEST(ShapeInference, GatherAndScatter) {
  auto m = ParseOrDie(R"hlo(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  table = f32[100,16] parameter(0)
  ids = s32[8,1] parameter(1)
  upd = f32[8,16] parameter(2)
  g = f32[8,16] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,16}
  sc = f32[100,16] scatter(table, ids, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  bad_g = f32[8,16] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={2,16}
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "g"), "f32[8,16]");
  EXPECT_EQ(Inferred(*m, "sc"), "f32[100,16]");
  EXPECT_EQ(Inferred(*m, "bad_g"),
            "error: collapsed slice dimension 0 has slice size 2 but only sizes 0 or 1 can be collapsed");
}

TEST(ShapeInference, ReductionsAndWindows) {
  auto m = ParseOrDie(R"hlo(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  v = f32[] select(gt, v0, v1)
  i = s32[] select(gt, i0, i1)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  x = f32[4,6] parameter(0)
  idx = s32[4,6] parameter(1)
  z = f32[] constant(0)
  iz = s32[] constant(0)
  src = f32[2,3] parameter(2)
  red = f32[4] reduce(x, z), dimensions={1}, to_apply=add
  vr = (f32[6], s32[6]) reduce(x, idx, z, iz), dimensions={0}, to_apply=argmax
  rw = f32[2,3] reduce-window(x, z), window={size=2x2 stride=2x2}, to_apply=add
  sas = f32[4,6] select-and-scatter(x, src, z), window={size=2x2 stride=2x2}, select=ge, scatter=add
  st = (f32[4,6], s32[4,6]) sort(x, idx), dimensions={1}, to_apply=less
  mp = f32[4,6] map(x, x), dimensions={0,1}, to_apply=add
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "red"), "f32[4]");
  EXPECT_EQ(Inferred(*m, "vr"), "(f32[6], s32[6])");
  EXPECT_EQ(Inferred(*m, "rw"), "f32[2,3]");
  EXPECT_EQ(Inferred(*m, "sas"), "f32[4,6]");
  EXPECT_EQ(Inferred(*m, "st"), "(f32[4,6], s32[4,6])");
  EXPECT_EQ(Inferred(*m, "mp"), "f32[4,6]");
}

TEST(ShapeInference, ControlFlow) {
  auto m = ParseOrDie(R"hlo(
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[4] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[4]) tuple(j, v)
}
double {
  a = f32[4] parameter(0)
  ROOT d = f32[4] add(a, a)
}
neg {
  a = f32[4] parameter(0)
  ROOT n = f32[4] negate(a)
}
ENTRY e {
  x = f32[4] parameter(0)
  b = pred[] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x)
  w = (s32[], f32[4]) while(init), condition=cond, body=body
  c = f32[4] call(x), to_apply=double
  f = f32[4] fusion(x), kind=kLoop, calls=neg
  cd = f32[4] conditional(b, x, x), true_computation=double, false_computation=neg
  ROOT t = () tuple()
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "w"), "(s32[], f32[4])");
  EXPECT_EQ(Inferred(*m, "c"), "f32[4]");
  EXPECT_EQ(Inferred(*m, "f"), "f32[4]");
  EXPECT_EQ(Inferred(*m, "cd"), "f32[4]");
}

TEST(ShapeInference, OpsWithoutRulesSayWhy) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  x = f32[4] parameter(0)
  ROOT cc = f32[4] custom-call(x), custom_call_target="foo"
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_FALSE(HasShapeInferenceRule(*FindInstr(*m, "cc")));
  EXPECT_EQ(
      Inferred(*m, "cc"),
      "error: cannot infer the shape of custom-call: its result shape is not determined by its operands and "
      "must be written");
}

// The parser fills in shapes written without one through InferShape.
TEST(ShapeInference, ShapelessInstructionsGetInferredShapes) {
  auto m = ParseOrDie(R"hlo(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = add(x, y)
}
ENTRY e {
  a = f32[2,3] parameter(0)
  b = bf16[3,4] parameter(1)
  z = f32[] constant(0)
  sum = add(a, a)
  d = dot(sum, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  r = reduce(d, z), dimensions={0}, to_apply=add
  ROOT t = tuple(r, d)
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(FindInstr(*m, "sum")->shape().ToString(false), "f32[2,3]");
  EXPECT_EQ(FindInstr(*m, "d")->shape().ToString(false), "f32[2,4]");
  EXPECT_EQ(FindInstr(*m, "r")->shape().ToString(false), "f32[4]");
  EXPECT_EQ(FindInstr(*m, "t")->shape().ToString(false), "(f32[4], f32[2,4])");
  EXPECT_EQ(Verify(*m), "OK");
}

// Like XLA's parser, a broadcast written without a shape reads `dimensions`
// as the sizes of new major dimensions; convert needs its written type.
TEST(ShapeInference, ShapelessBroadcastAndConvert) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  x = f32[3] parameter(0)
  b = broadcast(x), dimensions={2,4}
  t = tuple(b, x)
  ROOT g = get-tuple-element(t), index=0
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(FindInstr(*m, "b")->shape().ToString(false), "f32[2,4,3]");
  EXPECT_EQ(FindInstr(*m, "g")->shape().ToString(false), "f32[2,4,3]");
  auto bad = ParseHloModule("ENTRY e {\n  x = f32[3] parameter(0)\n  ROOT c = convert(x)\n}\n", "t.hlo");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(
                "cannot infer the shape of convert: the target element type must be written"),
            std::string::npos)
      << bad.status().message();
}

TEST(ShapeInference, CompatibilityIgnoresLayoutAndDynamism) {
  Shape a(PrimitiveType::kF32, {2, 3});
  Shape b(PrimitiveType::kF32, {2, 3});
  b.set_layout(Shape::DefaultLayout(2));
  b.SetDynamicDim(1, true);
  EXPECT_TRUE(ShapesCompatible(a, b));
  Shape unbounded(PrimitiveType::kF32, {2, Shape::kUnboundedDim});
  unbounded.SetDynamicDim(1, true);
  EXPECT_TRUE(ShapesCompatible(a, unbounded));
  Shape h(PrimitiveType::kBF16, {2, 3});
  EXPECT_FALSE(ShapesCompatible(a, h));
  EXPECT_TRUE(ShapesCompatible(a, h, /*ignore_fp_precision=*/true));
  EXPECT_FALSE(ShapesCompatible(a, Shape(PrimitiveType::kF32, {3, 2})));
}

}  // namespace
}  // namespace hloscope::testing
