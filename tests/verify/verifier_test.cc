// The verifier on inline HLO: valid modules per opcode family pass; each
// kind of defect gives a located message naming the instruction.
#include "tests/verify/verify_test_util.h"

namespace hloscope::testing {
namespace {

// --- Valid modules ---------------------------------------------------------------

TEST(Verifier, ElementwiseAndDataMovement) {
  EXPECT_EQ(VerifyText(R"hlo(
HloModule m, entry_computation_layout={(f32[2,3]{1,0}, bf16[2,3]{1,0}, s32[])->(f32[3,2]{1,0}, pred[2,3]{1,0})}
ENTRY e {
  x = f32[2,3]{1,0} parameter(0)
  h = bf16[2,3]{1,0} parameter(1)
  i = s32[] parameter(2)
  z = f32[] constant(0)
  hx = f32[2,3] convert(h)
  m = f32[2,3] multiply(x, hx)
  mixed = f32[2,3] add(x, h)
  c = pred[2,3] compare(m, mixed), direction=GT, type=TOTALORDER
  s = f32[2,3] select(c, m, x)
  b = f32[2,3] broadcast(z), dimensions={}
  mx = f32[2,3] maximum(s, b)
  ds = f32[1,3] dynamic-slice(mx, i, i), dynamic_slice_sizes={1,3}
  dus = f32[2,3] dynamic-update-slice(mx, ds, i, i)
  p = f32[3,5] pad(dus, z), padding=0_1x1_1
  sl = f32[3,3] slice(p), slice={[0:3], [1:4]}
  cc = f32[3,6] concatenate(sl, sl), dimensions={1}
  r = f32[2,9] reshape(cc)
  t = f32[9,2] transpose(r), dimensions={1,0}
  sl2 = f32[3,2] slice(t), slice={[0:9:3], [0:2]}
  ROOT out = (f32[3,2], pred[2,3]) tuple(sl2, c)
}
)hlo"),
            "OK");
}

TEST(Verifier, ReductionsCallsAndControlFlow) {
  EXPECT_EQ(VerifyText(R"hlo(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[4] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[4] add(v, v)
  ROOT t = (s32[], f32[4]) tuple(j, w)
}
fused {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT m = f32[4] multiply(a, b)
}
ENTRY e {
  x = f32[4,8] parameter(0)
  z = f32[] constant(0)
  r = f32[4] reduce(x, z), dimensions={1}, to_apply=add
  rw = f32[4,4] reduce-window(x, z), window={size=1x2 stride=1x2}, to_apply=add
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, r)
  w = (s32[], f32[4]) while(init), condition=cond, body=body
  v = f32[4] get-tuple-element(w), index=1
  f = f32[4] fusion(v, r), kind=kLoop, calls=fused
  ROOT c = f32[] call(z, z), to_apply=add
}
)hlo"),
            "OK");
}

TEST(Verifier, ConvolutionGatherScatterSortMap) {
  EXPECT_EQ(VerifyText(R"hlo(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
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
  img = bf16[2,16,16,3] parameter(0)
  k = bf16[3,3,3,8] parameter(1)
  conv = f32[2,8,8,8] convolution(img, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  table = f32[50,8] parameter(2)
  ids = s32[4] parameter(3)
  g = f32[4,8] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  sc = f32[50,8] scatter(table, ids, g), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  z = f32[] constant(0)
  src = f32[25,4] parameter(4)
  sas = f32[50,8] select-and-scatter(sc, src, z), window={size=2x2 stride=2x2}, select=ge, scatter=add
  io = s32[50,8] iota(), iota_dimension=0
  st = (f32[50,8], s32[50,8]) sort(sas, io), dimensions={0}, is_stable=true, to_apply=less
  sv = f32[50,8] get-tuple-element(st), index=0
  mp = f32[50,8] map(sv, table), dimensions={0,1}, to_apply=add
  ROOT out = (f32[2,8,8,8], f32[50,8]) tuple(conv, mp)
}
)hlo"),
            "OK");
}

TEST(Verifier, TokensAsyncDynamicAndOpaqueOps) {
  EXPECT_EQ(VerifyText(R"hlo(
HloModule m
branch0 {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
branch1 {
  p = f32[4] parameter(0)
  ROOT a = f32[4] abs(p)
}
wrapped {
  p = f32[4] parameter(0)
  ROOT e = f32[4] exponential(p)
}
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  i = s32[] parameter(1)
  v = f32[<=8] parameter(2)
  c = f32[4] conditional(i, x, x), branch_computations={branch0, branch1}
  tok = token[] after-all()
  inf = ((f32[4]), token[]) infeed(tok)
  sd = (f32[4], u32[], token[]) send(c, tok), channel_id=1
  sdd = token[] send-done(sd), channel_id=1
  rv = (f32[4], u32[], token[]) recv(sdd), channel_id=2
  rvd = (f32[4], token[]) recv-done(rv), channel_id=2
  of = token[] outfeed(x, tok)
  st = ((f32[4]), f32[4]) async-start(x), calls=wrapped
  dn = f32[4] async-done(st)
  bits = u32[4] bitcast-convert(dn)
  rs = (u64[2], u32[4,4]) rng-bit-generator(u64[2] constant({1, 2})), algorithm=rng_default
  size = s32[] get-dimension-size(v), dimensions={0}
  dv = f32[<=8] add(v, v)
  cc = f32[4] custom-call(x), custom_call_target="foo"
  ar = f32[4] all-reduce(cc), replica_groups={}, to_apply=sum
  pid = u32[] partition-id()
  ROOT out = (f32[4], u32[4], f32[<=8], s32[]) tuple(ar, bits, dv, size)
}
)hlo"),
            "OK");
}

TEST(Verifier, DynamicDimensionsCompareBounds) {
  auto m = ParseOrDie(R"hlo(
ENTRY e {
  a = f32[?,3] parameter(0)
  b = f32[<=4,3] parameter(1)
  c = f32[<=4,3] add(a, b)
  d = f32[4,3] add(b, b)
  ROOT t = (f32[<=4,3], f32[4,3]) tuple(c, d)
}
)hlo");
  ASSERT_TRUE(m);
  EXPECT_EQ(Inferred(*m, "c"), "f32[<=4,3]");
  EXPECT_EQ(Verify(*m), "OK");  // dynamism is not compared, bounds are
  EXPECT_EQ(VerifyText("ENTRY e {\n  b = f32[<=4,3] parameter(0)\n  ROOT d = f32[5,3] negate(b)\n}\n"),
            "t.hlo:3:8: error: d: has shape f32[5,3] but its operands and attributes give f32[<=4,3]");
}

TEST(Verifier, CollectiveShapesAreTheirOperands) {
  // As XLA's InferAllReduceShape and kin: one operand gives its shape, several
  // a tuple; all-to-all without a split dimension is a tuple even of one;
  // all-reduce-done forwards its operand.
  const std::string head = "HloModule m, num_partitions=2\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                           "  ROOT s = f32[] add(a, b)\n}\n";
  EXPECT_EQ(VerifyText(head + R"hlo(ENTRY e {
  x = f32[4] parameter(0)
  y = f32[2] parameter(1)
  r = (f32[4], f32[2]) all-reduce(x, y), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  st = f32[4] all-reduce-start(x), channel_id=2, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  dn = f32[4] all-reduce-done(st)
  a = (f32[4]) all-to-all(x), channel_id=3, replica_groups={{0,1}}
  c = f32[2] collective-broadcast(y), channel_id=4, replica_groups={{0,1}}
  p = f32[4] collective-permute(x), channel_id=5, source_target_pairs={{0,1}}
  ROOT t = ((f32[4], f32[2]), f32[4], (f32[4]), f32[2], f32[4]) tuple(r, dn, a, c, p)
}
)hlo"),
            "OK");
  // The older pair form of all-reduce-start that XLA's verifier rejects too.
  EXPECT_EQ(VerifyText(head + R"hlo(ENTRY e {
  x = f32[4] parameter(0)
  st = (f32[4], f32[4]) all-reduce-start(x), channel_id=2, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  ROOT dn = f32[4] get-tuple-element(st), index=1
}
)hlo"),
            "t.hlo:9:3: error: st: has shape (f32[4], f32[4]) but its operands and attributes give f32[4]");
}

TEST(Verifier, TuplesAndTheirElementsKeepTheirLayouts) {
  // A tuple is its operands' buffers and a get-tuple-element a view of one:
  // neither may change a layout (the kernels would read the bytes in
  // another order; diffuzz seed 20262367 generated such a view).
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[2,3]{0,1} parameter(0)
  t = (f32[2,3]{0,1}) tuple(x)
  ROOT g = f32[2,3]{0,1} get-tuple-element(t), index=0
}
)hlo"),
            "OK");
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[2,3]{0,1} parameter(0)
  t = (f32[2,3]{0,1}) tuple(x)
  ROOT g = f32[2,3]{1,0} get-tuple-element(t), index=0
}
)hlo"),
            "t.hlo:5:8: error: g: is f32[2,3]{1,0} but element 0 of %t is f32[2,3]{0,1}: a get-tuple-element keeps "
            "its element's layout");
  EXPECT_NE(VerifyText(R"hlo(
ENTRY e {
  x = f32[2,3]{0,1} parameter(0)
  ROOT t = (f32[2,3]{1,0}) tuple(x)
}
)hlo").find("a tuple keeps its operands' layouts"),
            std::string::npos);
}

TEST(Verifier, MixedPrecisionOptionFollowsXla) {
  const char* text = R"hlo(
ENTRY e {
  x = f32[2] parameter(0)
  h = bf16[2] parameter(1)
  ROOT a = f32[2] add(x, h)
}
)hlo";
  EXPECT_EQ(VerifyText(text), "OK");
  VerifyOptions strict;
  strict.allow_mixed_precision = false;
  EXPECT_EQ(
      VerifyText(text, strict),
      "t.hlo:5:8: error: a: mixes floating-point precisions among its operands, and mixed precision is not "
      "allowed");
}

// --- Structural defects ------------------------------------------------------------

TEST(Verifier, WrongOperandCount) {
  auto m = ParseOrDie("ENTRY e {\n  x = f32[] parameter(0)\n  ROOT a = f32[] add(x, x)\n}\n");
  ASSERT_TRUE(m);
  FindInstr(*m, "a")->AppendOperand(FindInstr(*m, "x"));
  EXPECT_EQ(Verify(*m), "t.hlo:3:8: error: a: add takes 2 operand(s) but has 3");
}

TEST(Verifier, CycleThroughControlPredecessors) {
  EXPECT_EQ(
      VerifyText(R"hlo(
ENTRY e {
  x = f32[] parameter(0)
  a = f32[] negate(x), control-predecessors={b}
  ROOT b = f32[] negate(a)
}
)hlo"),
      "t.hlo:4:3: error: a: is part of a cycle: a -> b -> a (each arrow points to an operand or control "
      "predecessor)");
}

TEST(Verifier, DuplicateParameterNumbers) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[] parameter(0)
  y = f32[] parameter(0)
  ROOT a = f32[] add(x, y)
}
)hlo"),
            "t.hlo:4:3: error: y: parameter number 0 is already used by 'x' at 3:3");
}

TEST(Verifier, ParameterNumbersMustBeDense) {
  EXPECT_EQ(
      VerifyText(
          "ENTRY e {\n  x = f32[] parameter(0)\n  y = f32[] parameter(2)\n  ROOT a = f32[] add(x, y)\n}\n"),
      "t.hlo:3:3: error: y: parameter number 2 is out of range: computation 'e' has 2 parameter(s), numbered "
      "0..1");
}

TEST(Verifier, OperandFromAnotherComputation) {
  auto m = ParseOrDie(R"hlo(
f {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
ENTRY e {
  x = f32[] parameter(0)
  ROOT c = f32[] call(x), to_apply=f
}
)hlo");
  ASSERT_TRUE(m);
  FindInstr(*m, "n")->ReplaceOperand(0, FindInstr(*m, "x"));
  EXPECT_EQ(Verify(*m), "t.hlo:4:8: error: n: operand 0 ('x') belongs to computation 'e', not 'f'");
}

TEST(Verifier, DuplicateInstructionNameAfterRename) {
  auto m = ParseOrDie("ENTRY e {\n  x = f32[] parameter(0)\n  ROOT a = f32[] negate(x)\n}\n");
  ASSERT_TRUE(m);
  FindInstr(*m, "a")->set_name("x");
  EXPECT_EQ(Verify(*m), "t.hlo:3:8: error: x: the name is already used in computation 'e' at 2:3");
}

TEST(Verifier, FusedComputationHasNoDeadCode) {
  EXPECT_EQ(
      VerifyText(R"hlo(
fused {
  a = f32[4] parameter(0)
  dead = f32[4] negate(a)
  ROOT e = f32[4] exponential(a)
}
ENTRY e {
  x = f32[4] parameter(0)
  ROOT f = f32[4] fusion(x), kind=kLoop, calls=fused
}
)hlo"),
      "t.hlo:4:3: error: dead: is unused, but every non-root instruction of fused computation 'fused' must "
      "have users");
}

TEST(Verifier, RecursiveCall) {
  EXPECT_EQ(
      VerifyText(R"hlo(
f {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=f
}
ENTRY e {
  x = f32[] parameter(0)
  ROOT c = f32[] call(x), to_apply=f
}
)hlo"),
      "t.hlo:4:8: error: c: calls 'f', which is already being called: f -> f (computations cannot recurse)");
}

TEST(Verifier, CalledComputationOnNonCaller) {
  EXPECT_EQ(VerifyText(R"hlo(
f {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
ENTRY e {
  x = f32[] parameter(0)
  ROOT a = f32[] negate(x), to_apply=f
}
)hlo"),
            "t.hlo:8:8: error: a: negate does not call computations, but has to_apply=");
}

// --- Shape defects -----------------------------------------------------------------

TEST(Verifier, BinaryShapeMismatch) {
  EXPECT_EQ(
      VerifyText("ENTRY e {\n  x = f32[2] parameter(0)\n  y = f32[3] parameter(1)\n"
                 "  ROOT add.3 = f32[2] add(x, y)\n}\n"),
      "t.hlo:4:8: error: add.3: operand 1 ('y') has shape f32[3] but f32[2] was expected (add needs operands "
      "of identical shape; HLO has no implicit broadcast)");
}

TEST(Verifier, DeclaredShapeDiffersFromInferred) {
  EXPECT_EQ(VerifyText("ENTRY e {\n  x = f32[2] parameter(0)\n  ROOT n = f32[3] negate(x)\n}\n"),
            "t.hlo:3:8: error: n: has shape f32[3] but its operands and attributes give f32[2]");
}

TEST(Verifier, DataMovementMayNotChangePrecision) {
  EXPECT_EQ(VerifyText("ENTRY e {\n  x = f32[2] parameter(0)\n  ROOT t = (bf16[2]) tuple(x)\n}\n"),
            "t.hlo:3:8: error: t: has shape (bf16[2]) but its operands and attributes give (f32[2])");
}

TEST(Verifier, DotDimensionMismatch) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[4,5] parameter(1)
  ROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)hlo"),
            "t.hlo:5:8: error: d: contracting dimension 1 of the lhs f32[2,3] has size 3 but contracting "
            "dimension 0 "
            "of the rhs f32[4,5] has size 4");
}

TEST(Verifier, DotResultShapeWrong) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  a = f32[1,3,4] parameter(0)
  b = f32[1,4,5] parameter(1)
  ROOT d = f32[1,4,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
}
)hlo"),
            "t.hlo:5:8: error: d: has shape f32[1,4,5] but its operands and attributes give f32[1,3,5]");
}

TEST(Verifier, BadGatherDimensions) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  t = f32[10,4] parameter(0)
  i = s32[3,2] parameter(1)
  ROOT g = f32[3,4] gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
}
)hlo"),
            "t.hlo:5:8: error: g: start_index_map={0} has 1 entries but dimension index_vector_dim=1 of the "
            "indices "
            "s32[3,2] has size 2");
}

TEST(Verifier, ReducerSignatureWrong) {
  EXPECT_EQ(VerifyText(R"hlo(
add3 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  z = f32[] parameter(2)
  s = f32[] add(x, y)
  ROOT t = f32[] add(s, z)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add3
}
)hlo"),
            "t.hlo:12:8: error: r: reduce computation 'add3' takes 3 parameter(s) but 2 are needed (1 "
            "accumulator(s) then 1 input(s))");
}

TEST(Verifier, ReducerTypeWrong) {
  EXPECT_EQ(
      VerifyText(R"hlo(
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add
}
)hlo"),
      "t.hlo:10:8: error: r: reduce computation 'add': init value 0 has shape f32[] but the accumulator is "
      "s32[]");
}

TEST(Verifier, WhileConditionMustReturnPred) {
  EXPECT_EQ(VerifyText(R"hlo(
cond {
  p = s32[] parameter(0)
  ROOT c = s32[] add(p, p)
}
body {
  p = s32[] parameter(0)
  ROOT n = s32[] negate(p)
}
ENTRY e {
  x = s32[] parameter(0)
  ROOT w = s32[] while(x), condition=cond, body=body
}
)hlo"),
            "t.hlo:12:8: error: w: condition 'cond' returns s32[] but must return pred[]");
}

TEST(Verifier, WhileBodyMustKeepLoopState) {
  EXPECT_EQ(
      VerifyText(R"hlo(
cond {
  p = s32[] parameter(0)
  ROOT c = pred[] compare(p, p), direction=LT
}
body {
  p = s32[] parameter(0)
  ROOT t = (s32[]) tuple(p)
}
ENTRY e {
  x = s32[] parameter(0)
  ROOT w = s32[] while(x), condition=cond, body=body
}
)hlo"),
      "t.hlo:12:8: error: w: body 'body' returns (s32[]) but its parameter is s32[] (the loop state must "
      "keep its shape)");
}

TEST(Verifier, ConditionalBranchParameterMismatch) {
  EXPECT_EQ(VerifyText(R"hlo(
t {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(p)
}
f {
  p = f32[3] parameter(0)
  ROOT s = f32[2] slice(p), slice={[0:2]}
}
ENTRY e {
  b = pred[] parameter(0)
  x = f32[2] parameter(1)
  ROOT c = f32[2] conditional(b, x, x), true_computation=t, false_computation=f
}
)hlo"),
            "t.hlo:13:8: error: c: operand 2 ('x') has shape f32[2] but branch 1 ('f') takes f32[3]");
}

TEST(Verifier, FusionParameterMismatch) {
  EXPECT_EQ(VerifyText(R"hlo(
fused {
  a = s32[8] parameter(0)
  b = s32[] parameter(1)
  bb = s32[8] broadcast(b), dimensions={}
  ROOT m = s32[8] multiply(a, bb)
}
ENTRY e {
  a = s32[8] parameter(0)
  b = s32[8] parameter(1)
  ROOT f = s32[8] fusion(a, b), kind=kLoop, calls=fused
}
)hlo"),
            "t.hlo:11:8: error: f: operand 1 ('b') has shape s32[8] but parameter 1 of fused computation "
            "'fused' is "
            "s32[]");
}

TEST(Verifier, SortComparatorWrong) {
  EXPECT_EQ(VerifyText(R"hlo(
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = f32[8] parameter(0)
  v = s32[8] parameter(1)
  ROOT s = (f32[8], s32[8]) sort(k, v), dimensions={0}, to_apply=less
}
)hlo"),
            "t.hlo:10:8: error: s: comparator 'less' takes 2 parameter(s) but sort of 2 operand(s) needs 4");
}

TEST(Verifier, GetTupleElementOutOfRange) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[] parameter(0)
  t = (f32[], f32[]) tuple(x, x)
  ROOT g = f32[] get-tuple-element(t), index=2
}
)hlo"),
            "t.hlo:5:8: error: g: index=2 is out of range: operand 0 ('t') is a tuple of 2 element(s) "
            "(f32[], f32[])");
}

TEST(Verifier, BroadcastDimensionsMustMatch) {
  EXPECT_EQ(
      VerifyText(
          "ENTRY e {\n  x = f32[1] parameter(0)\n  ROOT b = f32[10] broadcast(x), dimensions={0}\n}\n"),
      "t.hlo:3:8: error: b: operand dimension 0 of f32[1] has size 1 but result dimension 0 of f32[10] has "
      "size 10 (broadcast keeps mapped dimensions unchanged)");
}

// One bad instruction `ROOT r` per case, after shared parameters and helper
// computations; the message must name `r` at line 24 (the ROOT line).
struct BadCase {
  const char* body;
  const char* message;
};

std::string BadCaseModule(const char* body) {
  return std::string(R"hlo(
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY e {
  x = f32[4,6] parameter(0)
  k = f32[3,3,6,2] parameter(1)
  i = s32[] parameter(2)
  z = f32[] parameter(3)
  ids = s32[3,1] parameter(4)
  u = f32[3,6] parameter(5)
  p = pred[4,6] parameter(6)
  img = f32[1,8,8,6] parameter(7)
  v = f32[6] parameter(8)
  src = f32[2,3] parameter(9)
  h = s32[4,6] parameter(10)
)hlo") +
         "  ROOT r = " + body + "\n}\n";
}

TEST(Verifier, ShapeErrorsOfMajorOps) {
  const BadCase cases[] = {
      {"f32[1,8,8,2] convolution(img, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01oi->b01f",
       "the input feature dimension (6 in f32[1,8,8,6]) divided by feature_group_count=1 must equal the "
       "kernel's "
       "input feature dimension (2 in f32[3,3,6,2])"},
      {"f32[1,7,7,2] convolution(img, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
       "has shape f32[1,7,7,2] but its operands and attributes give f32[1,8,8,2]"},
      {"f32[4,6] scatter(x, ids, u), update_window_dims={1}, inserted_window_dims={0}, "
       "scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=ge",
       "scatter's update computation 'ge': parameter 0 has shape f32[] but the result is pred[] (the "
       "accumulator "
       "goes in and out unchanged in type)"},
      {"f32[8,6] concatenate(x, v), dimensions={0}",
       "operand 1 ('v') has shape f32[6] but concatenate needs operands of the rank and element type of "
       "operand 0 "
       "('x') (f32[4,6])"},
      {"f32[2,6] slice(x), slice={[3:1], [0:6]}", "slice range 0 [3:1:1] starts after its limit"},
      {"f32[4,6] select(p, x, h)",
       "operand 2 ('h') has shape s32[4,6] but f32[4,6] was expected (select's two choices must have the "
       "same "
       "shape)"},
      {"f32[6,4] transpose(x), dimensions={1,2}",
       "dimensions={1, 2} is not a permutation of the 2 dimensions of operand 0 ('x') (f32[4,6])"},
      {"f32[4,5] reshape(x)",
       "reshape from f32[4,6] (24 elements) to f32[4,5] (20 elements) changes the element count"},
      {"f32[2,7] dynamic-slice(x, i, i), dynamic_slice_sizes={2,7}",
       "dynamic slice size 7 exceeds dimension 1 of f32[4,6]"},
      {"f32[4,6] dynamic-update-slice(x, u, i)",
       "dynamic-update-slice has 1 start index operand(s) but the operand f32[4,6] has rank 2 (one scalar "
       "index "
       "per dimension is needed)"},
      {"f32[4,6] pad(x, v), padding=0_0x0_0",
       "operand 1 ('v'), the padding value, has shape f32[6] but must be a scalar"},
      {"f32[2,3] reduce-window(x, z), window={size=2x2 stride=2x2}, to_apply=ge",
       "reduce-window computation 'ge': parameter 0 has shape f32[] but the result is pred[] (the "
       "accumulator goes "
       "in and out unchanged in type)"},
      {"f32[4,6] select-and-scatter(x, src, z), window={size=2x2 stride=2x2}, select=add, scatter=add",
       "select computation 'add' returns f32[] but must return pred[]"},
      {"f32[4,6] map(x, h), dimensions={0,1}, to_apply=add",
       "mapped computation 'add': parameter 1 has shape f32[] but operand 1 ('h') has elements of type s32"},
      {"f32[] call(x, z), to_apply=add",
       "operand 0 ('x') has shape f32[4,6] but parameter 0 of called computation "
       "'add' is f32[]"},
      {"f32[4,6] iota(), iota_dimension=2", "iota_dimension=2 is out of range for f32[4,6]"},
      {"f32[4,6] exponential(h)",
       "exponential needs floating-point or complex operands, but operand 0 ('h') is "
       "s32[4,6]"},
      {"s32[4,6] bitcast-convert(p)",
       "bitcast-convert from pred[4,6] to s32 needs a last dimension of size 4"},
  };
  for (const BadCase& c : cases) {
    EXPECT_EQ(VerifyText(BadCaseModule(c.body)), std::string("t.hlo:24:8: error: r: ") + c.message) << c.body;
  }
}

TEST(Verifier, ComparisonTypeMustSuitOperands) {
  EXPECT_EQ(VerifyText(R"hlo(
ENTRY e {
  x = f32[2] parameter(0)
  ROOT c = pred[2] compare(x, x), direction=LT, type=SIGNED
}
)hlo"),
            "t.hlo:4:8: error: c: type=SIGNED does not suit f32 operands; expected FLOAT or TOTALORDER");
}

TEST(Verifier, EntryLayoutMustMatchEntry) {
  EXPECT_EQ(VerifyText(R"hlo(
HloModule m, entry_computation_layout={(f32[3]{0})->f32[3]{0}}
ENTRY e {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}
)hlo"),
            "t.hlo:4:3: error: x: has shape f32[2] but the module header's entry_computation_layout gives "
            "parameter "
            "0 f32[3]\n"
            "t.hlo:5:8: error: n: the entry computation returns f32[2] but the module header's "
            "entry_computation_layout gives f32[3]");
}

TEST(Verifier, ReportsEveryErrorUpToTheLimit) {
  const char* text = R"hlo(
ENTRY e {
  x = f32[2] parameter(0)
  a = f32[3] negate(x)
  b = f32[4] negate(x)
  ROOT c = f32[5] negate(x)
}
)hlo";
  EXPECT_EQ(VerifyText(text),
            "t.hlo:4:3: error: a: has shape f32[3] but its operands and attributes give f32[2]\n"
            "t.hlo:5:3: error: b: has shape f32[4] but its operands and attributes give f32[2]\n"
            "t.hlo:6:8: error: c: has shape f32[5] but its operands and attributes give f32[2]");
  VerifyOptions two;
  two.max_errors = 2;
  EXPECT_EQ(VerifyText(text, two),
            "t.hlo:4:3: error: a: has shape f32[3] but its operands and attributes give f32[2]\n"
            "t.hlo:5:3: error: b: has shape f32[4] but its operands and attributes give f32[2]\n"
            "(verification stopped at the limit of 2 errors)");
}

TEST(Verifier, StructureOnlyWhenShapesAreNotChecked) {
  VerifyOptions structure_only;
  structure_only.check_shapes = false;
  EXPECT_EQ(
      VerifyText("ENTRY e {\n  x = f32[2] parameter(0)\n  ROOT n = f32[3] negate(x)\n}\n", structure_only),
      "OK");
}

TEST(Verifier, ModulesWithoutAFileSayModule) {
  auto m = ParseHloModule("ENTRY e {\n  x = f32[2] parameter(0)\n  ROOT n = f32[3] negate(x)\n}\n");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(Verify(**m),
            "<module>:3:8: error: n: has shape f32[3] but its operands and attributes give f32[2]");
}

// A tuple keeps its operands' buffers: an element in another layout than its
// operand would be read transposed (the scaled-dot rewrite that dropped a
// {0,1} layout, diffuzz seed 645, passed the verifier before this check).
TEST(Verifier, TupleElementsKeepTheirOperandsLayouts) {
  EXPECT_EQ(VerifyText("HloModule t\nENTRY e {\n  x = f32[2,3]{1,0} parameter(0)\n"
                       "  ROOT t = (f32[2,3]{0,1}) tuple(x)\n}\n"),
            "t.hlo:4:8: error: t: element 0 is f32[2,3]{0,1} but its operand %x is f32[2,3]{1,0}: a tuple keeps "
            "its operands' layouts");
  EXPECT_EQ(VerifyText("HloModule t\nENTRY e {\n  x = f32[2,3]{0,1} parameter(0)\n  v = f32[3]{0} parameter(1)\n"
                       "  ROOT t = (f32[2,3]{0,1}, f32[3]) tuple(x, v)\n}\n"),
            "OK");
}

// XLA's ScalesShapeVerifier: a scale has its operand's rank and divides it.
TEST(Verifier, ScaledDotScales) {
  const char* head = "HloModule t\nENTRY e {\n  x = f8e4m3fn[4,64] parameter(0)\n  y = f8e4m3fn[64,8] parameter(1)\n";
  EXPECT_EQ(VerifyText(std::string(head) + "  xs = f8e8m0fnu[4,2] parameter(2)\n  ys = f8e8m0fnu[2,8] parameter(3)\n"
                       "  ROOT d = bf16[4,8] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n"),
            "OK");
  EXPECT_NE(VerifyText(std::string(head) + "  xs = f8e8m0fnu[4,3] parameter(2)\n  ys = f8e8m0fnu[2,8] parameter(3)\n"
                       "  ROOT d = bf16[4,8] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n")
                .find("is not a multiple of the same dimension of its scale"),
            std::string::npos);
  EXPECT_NE(VerifyText(std::string(head) + "  xs = f8e8m0fnu[] parameter(2)\n  ys = f8e8m0fnu[2,8] parameter(3)\n"
                       "  ROOT d = bf16[4,8] scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n")
                .find("a scale has its operand's rank"),
            std::string::npos);
}

}  // namespace
}  // namespace hloscope::testing
