// copy_insertion and the input_output_alias rules of buffer assignment: one
// test per rule. Each module runs through the pass with the verifier and the
// differential checker (pass_test_util.h), then through buffer assignment
// and the independent clobber checker.
#include "core/memory/assignment_checker.h"
#include "core/memory/buffer_assignment.h"
#include "core/memory/io_alias.h"
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

struct Assigned {
  std::shared_ptr<const BufferAssignment> ba;
  int64_t clobbered = -1;
};

Assigned Assign(const Module& m) {
  Assigned a;
  auto ba = AssignBuffers(m);
  EXPECT_TRUE(ba.ok()) << ba.status().message();
  if (!ba.ok()) return a;
  a.ba = *ba;
  a.clobbered = FindClobbers(m, **ba).clobbered_values;
  return a;
}

std::string Reasons(const BufferAssignment& ba) {
  std::string s;
  for (const IoAliasOutcome& io : ba.io_aliases) s += io.alias + ": " + io.reason + "\n";
  return s;
}

TEST(IoAliasTest, ParsesEveryFormXlaWrites) {
  auto m = ParseOrDie(R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {1}, must-alias), {2}: (2, {}) }
ENTRY e {
  a = f32[2] parameter(0)
  b = (f32[2], f32[3]) parameter(1)
  c = f32[4] parameter(2)
  b1 = f32[3] get-tuple-element(b), index=1
  ROOT t = (f32[2], f32[3], f32[4]) tuple(a, b1, c)
}
)hlo");
  ASSERT_TRUE(m);
  std::vector<IoAlias> al = ParseInputOutputAlias(*m);
  ASSERT_EQ(al.size(), 3u);
  EXPECT_EQ(al[0].ToString(), "{0}: (0, {}, may-alias)");
  EXPECT_EQ(al[1].ToString(), "{1}: (1, {1}, must-alias)");
  EXPECT_EQ(al[2].ToString(), "{2}: (2, {}, may-alias)");
  auto whole = ParseOrDie("HloModule m, input_output_alias={{}: (0, {}, must-alias)}\n"
                          "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p)\n}\n");
  ASSERT_TRUE(whole);
  al = ParseInputOutputAlias(*whole);
  ASSERT_EQ(al.size(), 1u);
  EXPECT_TRUE(al[0].output_index.empty());
  EXPECT_TRUE(al[0].must_alias);
}

// The train-step shape: w is read (norm) after its update is computed.
constexpr const char* kReadAfterUpdate = R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, must-alias) }
ENTRY e {
  w = f32[64] parameter(0)
  g = f32[64] parameter(1)
  m1 = f32[64] multiply(g, g)
  upd = f32[64] subtract(w, m1)
  norm = f32[64] multiply(w, upd)
  ROOT t = (f32[64], f32[64]) tuple(upd, norm)
}
)hlo";

TEST(CopyInsertionTest, CopiesAnOutputWhoseParameterIsReadAfterIt) {
  PassRun r = RunPass("copy_insertion", kReadAfterUpdate);
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0]->stats.at("copies inserted"), 1);
  ASSERT_EQ(r.rules.size(), 1u);
  EXPECT_NE(r.rules[0].find("copy of %upd for output {0}"), std::string::npos) << r.rules[0];
  EXPECT_NE(r.rules[0].find("%norm reads it"), std::string::npos) << r.rules[0];
  const Instruction* copy = r.root()->operand(0);
  ASSERT_EQ(copy->opcode(), Opcode::kCopy);
  EXPECT_EQ(copy->operand(0)->name(), "upd");
  ASSERT_EQ(copy->control_predecessors().size(), 1u);
  EXPECT_EQ(copy->control_predecessors()[0]->name(), "norm");
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  ASSERT_EQ(a.ba->io_aliases.size(), 1u);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
  EXPECT_EQ(a.ba->io_aliases[0].copy, copy->name());
  // A second run finds nothing left to do.
  PassRun again = RunPass("copy_insertion", PrintModule(*r.module));
  EXPECT_FALSE(again.changed) << ::testing::PrintToString(again.rules);
}

TEST(CopyInsertionTest, WithoutTheCopyTheAliasIsDroppedNotClobbered) {
  auto m = ParseOrDie(kReadAfterUpdate);
  ASSERT_TRUE(m);
  Assigned a = Assign(*m);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  ASSERT_EQ(a.ba->io_aliases.size(), 1u);
  EXPECT_FALSE(a.ba->io_aliases[0].taken);
  EXPECT_NE(a.ba->io_aliases[0].reason.find("not taken"), std::string::npos) << Reasons(*a.ba);
  EXPECT_NE(a.ba->io_aliases[0].reason.find("copy_insertion"), std::string::npos) << Reasons(*a.ba);
}

TEST(CopyInsertionTest, NoCopyWhenEveryReadComesFirst) {
  // `out` reads w last; it writes straight into w's bytes. It must not take
  // over b's buffer (b's chain would land in w while w is still read).
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias) }
ENTRY e {
  w = f32[64] parameter(0)
  g = f32[64] parameter(1)
  a = f32[64] multiply(g, w)
  b = f32[64] add(a, g)
  out = f32[64] add(b, w)
  ROOT t = (f32[64]) tuple(out)
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.steps[0]->stats.at("aliases needing no copy"), 1);
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  ASSERT_EQ(a.ba->io_aliases.size(), 1u);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
  EXPECT_NE(a.ba->io_aliases[0].reason.find("every read of the parameter comes before %out"), std::string::npos)
      << Reasons(*a.ba);
  const AssignedBuffer& out = a.ba->buffers[static_cast<size_t>(a.ba->io_aliases[0].output_buffer)];
  EXPECT_EQ(out.instruction, "out");
  EXPECT_EQ(out.kind, BufferKind::kParameter);
  for (const AssignedBuffer& b : a.ba->buffers)
    if (b.instruction == "b") EXPECT_EQ(b.kind, BufferKind::kTemp) << "b joined the parameter's bytes";
}

TEST(CopyInsertionTest, CopiesWhenTheWriterReadsTheParameterOtherThanElementwise) {
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias) }
ENTRY e {
  w = f32[8,8]{1,0} parameter(0)
  tr = f32[8,8]{1,0} transpose(w), dimensions={1,0}
  ROOT t = (f32[8,8]{1,0}) tuple(tr)
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.rules.size(), 1u);
  EXPECT_NE(r.rules[0].find("other than element by element"), std::string::npos) << r.rules[0];
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
}

TEST(CopyInsertionTest, CopiesAnOutputThatIsAnotherParameter) {
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias) }
ENTRY e {
  w = f32[4] parameter(0)
  q = f32[4] parameter(1)
  n = f32[4] negate(w)
  ROOT t = (f32[4], f32[4]) tuple(q, n)
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.rules.size(), 1u);
  EXPECT_NE(r.rules[0].find("the output is parameter %q"), std::string::npos) << r.rules[0];
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
}

TEST(CopyInsertionTest, LeavesPassThroughAndTupleParameterLeaves) {
  // {0} is parameter 0 passed through; {1} updates leaf {1} of parameter 1,
  // read only by the update itself.
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {1}, may-alias) }
ENTRY e {
  w = f32[4] parameter(0)
  s = (f32[4], f32[4]) parameter(1)
  s0 = f32[4] get-tuple-element(s), index=0
  s1 = f32[4] get-tuple-element(s), index=1
  u = f32[4] add(s1, s0)
  ROOT t = (f32[4], f32[4]) tuple(w, u)
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_FALSE(r.changed) << ::testing::PrintToString(r.rules);
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  ASSERT_EQ(a.ba->io_aliases.size(), 2u);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
  EXPECT_NE(a.ba->io_aliases[0].reason.find("own value"), std::string::npos) << Reasons(*a.ba);
  EXPECT_TRUE(a.ba->io_aliases[1].taken) << Reasons(*a.ba);
}

TEST(CopyInsertionTest, NoCopyCanHelpAParameterReturnedTwice) {
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {1}: (0, {}, may-alias) }
ENTRY e {
  w = f32[4] parameter(0)
  n = f32[4] negate(w)
  ROOT t = (f32[4], f32[4]) tuple(w, n)
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_FALSE(r.changed);
  ASSERT_EQ(r.rules.size(), 1u);
  EXPECT_NE(r.rules[0].find("also returned as another output"), std::string::npos) << r.rules[0];
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  EXPECT_FALSE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
}

TEST(IoAliasTest, MultiOutputFusionSharesOnlyAnElementwiseReadParameter) {
  auto m = ParseOrDie(R"hlo(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
fused_reduce {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  one = f32[] constant(1)
  b = f32[8] broadcast(one), dimensions={}
  a = f32[8] add(p0, b)
  m = f32[8] multiply(p1, b)
  zero = f32[] constant(0)
  r = f32[] reduce(p1, zero), dimensions={0}, to_apply=add
  ROOT t = (f32[8], f32[8], f32[]) tuple(a, m, r)
}
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  ROOT f = (f32[8], f32[8], f32[]) fusion(x, y), kind=kInput, calls=fused_reduce
}
)hlo");
  ASSERT_TRUE(m);
  const Instruction* f = m->entry()->root();
  EXPECT_TRUE(FusedParameterReadElementwise(*f, 0, {0}));
  EXPECT_TRUE(WritesOverOperandInPlace(*f, {0}, {0}));
  // p1 is also reduced: the reduction emitter reads element i for the
  // reduce in the thread that then writes output element i, before it
  // stores (XLA's FusionCanShareBufferHint stops at the reduction hero).
  EXPECT_TRUE(WritesOverOperandInPlace(*f, {1}, {1}));
}

TEST(IoAliasTest, AReshapedReadOfTheParameterMayOnlyFeedTheReduction) {
  auto m = ParseOrDie(R"hlo(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
fused_reduce {
  p0 = f32[4,8]{1,0} parameter(0)
  p1 = f32[4,8]{1,0} parameter(1)
  u = f32[4,8]{1,0} subtract(p0, p1)
  v = f32[2,16]{1,0} reshape(u)
  sq = f32[2,16]{1,0} multiply(v, v)
  zero = f32[] constant(0)
  r = f32[2]{0} reduce(sq, zero), dimensions={1}, to_apply=add
  p1v = f32[32]{0} bitcast(p1)
  n = f32[32]{0} negate(p1v)
  ROOT t = (f32[4,8]{1,0}, f32[2]{0}, f32[32]{0}) tuple(u, r, n)
}
ENTRY e {
  x = f32[4,8]{1,0} parameter(0)
  y = f32[4,8]{1,0} parameter(1)
  ROOT f = (f32[4,8]{1,0}, f32[2]{0}, f32[32]{0}) fusion(x, y), kind=kInput, calls=fused_reduce
}
)hlo");
  ASSERT_TRUE(m);
  const Instruction* f = m->entry()->root();
  // p0 reaches output 0 elementwise and the reduction through a bitcast
  // reshape: the same places in memory, read before they are written.
  EXPECT_TRUE(WritesOverOperandInPlace(*f, {0}, {0}));
  // p1 also reaches output 2, of other dims: that output is written by
  // another loop, after output 0 would have overwritten p1.
  EXPECT_FALSE(WritesOverOperandInPlace(*f, {1}, {0}));
}

TEST(CopyInsertionTest, SimplifyAndGpuEndWithIt) {
  for (const char* p : {"simplify", "gpu"}) {
    PassRun r = RunPasses({p}, kReadAfterUpdate);
    ASSERT_TRUE(r.module);
    ASSERT_FALSE(r.steps.empty());
    EXPECT_EQ(r.steps.back()->pass, "copy_insertion") << p;
    Assigned a = Assign(*r.module);
    ASSERT_TRUE(a.ba);
    EXPECT_EQ(a.clobbered, 0) << p;
    EXPECT_TRUE(a.ba->io_aliases[0].taken) << p << "\n" << Reasons(*a.ba);
  }
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

TEST(CopyInsertionTest, SplitsAMultiOutputRootToCopyOneElement) {
  // XLA's side_outputs_inplace: the fusion returns p0 bitcast as a side
  // output, so its first output cannot be written over p0 in place.
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}) }
fused {
  p0 = f32[4,8]{1,0} parameter(0)
  p1 = f32[4,8]{1,0} parameter(1)
  add = f32[4,8]{1,0} add(p0, p1)
  bc = f32[32]{0} bitcast(p0)
  ROOT res = (f32[4,8]{1,0}, f32[32]{0}) tuple(add, bc)
}
ENTRY e {
  a = f32[4,8]{1,0} parameter(0)
  b = f32[4,8]{1,0} parameter(1)
  ROOT f = (f32[4,8]{1,0}, f32[32]{0}) fusion(a, b), kind=kLoop, calls=fused
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.root()->opcode(), Opcode::kTuple);
  EXPECT_EQ(r.root()->operand(0)->opcode(), Opcode::kCopy);
  EXPECT_EQ(r.root()->operand(1)->opcode(), Opcode::kGetTupleElement);
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
}

TEST(CopyInsertionTest, InPlaceDynamicUpdateSliceFusionNeedsNoCopy) {
  // XLA's dynamic_update_slice_inplace: both outputs update their
  // parameter in place inside one fusion.
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}), {1}: (2, {}) }
fused {
  p0 = f32[10,4] parameter(0)
  p1 = f32[1,4] parameter(1)
  p2 = f32[8,4] parameter(2)
  i = s32[] parameter(3)
  c0 = s32[] constant(0)
  d0 = f32[10,4] dynamic-update-slice(p0, p1, i, c0)
  d1 = f32[8,4] dynamic-update-slice(p2, p1, i, c0)
  ROOT t = (f32[10,4], f32[8,4]) tuple(d0, d1)
}
ENTRY e {
  a = f32[10,4] parameter(0)
  u = f32[1,4] parameter(1)
  b = f32[8,4] parameter(2)
  i = s32[] parameter(3)
  ROOT f = (f32[10,4], f32[8,4]) fusion(a, u, b, i), kind=kLoop, calls=fused
}
)hlo");
  ASSERT_TRUE(r.module);
  EXPECT_FALSE(r.changed) << ::testing::PrintToString(r.rules);
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  ASSERT_EQ(a.ba->io_aliases.size(), 2u);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
  EXPECT_TRUE(a.ba->io_aliases[1].taken) << Reasons(*a.ba);
}

TEST(CopyInsertionTest, AWhileLoopUpdatesItsDonatedStateWithoutACopy) {
  // The loop reads its init before the first iteration and writes its
  // result after the last: the result may take the donated parameter.
  PassRun r = RunPass("copy_insertion", R"hlo(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias) }
cond {
  s = (f32[4], s32[]) parameter(0)
  k = s32[] get-tuple-element(s), index=1
  n = s32[] constant(3)
  ROOT lt = pred[] compare(k, n), direction=LT
}
body {
  s = (f32[4], s32[]) parameter(0)
  v = f32[4] get-tuple-element(s), index=0
  k = s32[] get-tuple-element(s), index=1
  v2 = f32[4] add(v, v)
  one = s32[] constant(1)
  k2 = s32[] add(k, one)
  ROOT t = (f32[4], s32[]) tuple(v2, k2)
}
ENTRY e {
  w = f32[4] parameter(0)
  zero = s32[] constant(0)
  init = (f32[4], s32[]) tuple(w, zero)
  loop = (f32[4], s32[]) while(init), condition=cond, body=body
  out = f32[4] get-tuple-element(loop), index=0
  ROOT r = (f32[4]) tuple(out)
}
)hlo");
  ASSERT_TRUE(r.module);
  // The donated w is the loop's to overwrite; the constant counter is not.
  ASSERT_EQ(r.rules.size(), 1u) << ::testing::PrintToString(r.rules);
  EXPECT_NE(r.rules[0].find("copy of %zero for state element 1 of while %loop: the loop changes it and it is a constant"),
            std::string::npos)
      << r.rules[0];
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  EXPECT_TRUE(a.ba->io_aliases[0].taken) << Reasons(*a.ba);
}

// The storage (allocation and offset) of `instr`'s leaf `index`.
std::pair<int, int64_t> StorageOf(const BufferAssignment& ba, const std::string& instr, std::vector<int64_t> index) {
  for (const AssignedBuffer& b : ba.buffers)
    if (b.instruction == instr && b.index == index) return {b.allocation, b.offset};
  ADD_FAILURE() << "no buffer " << instr;
  return {-1, -1};
}

// scan_rnn's loop, as XLA GPU compiles it: the counter (a constant) and h
// (a parameter) change in the loop and get copies; xs and w pass through
// unchanged and ys starts from a value made for the loop alone: no copies.
constexpr const char* kScanLoop = R"hlo(
HloModule m
cond {
  s = (s32[], f32[2,8], f32[6,2,8], f32[6,2,4], f32[4,8]) parameter(0)
  k = s32[] get-tuple-element(s), index=0
  n = s32[] constant(6)
  ROOT lt = pred[] compare(k, n), direction=LT
}
body {
  s = (s32[], f32[2,8], f32[6,2,8], f32[6,2,4], f32[4,8]) parameter(0)
  k = s32[] get-tuple-element(s), index=0
  h = f32[2,8] get-tuple-element(s), index=1
  ys = f32[6,2,8] get-tuple-element(s), index=2
  xs = f32[6,2,4] get-tuple-element(s), index=3
  w = f32[4,8] get-tuple-element(s), index=4
  zero = s32[] constant(0)
  x3 = f32[1,2,4] dynamic-slice(xs, k, zero, zero), dynamic_slice_sizes={1,2,4}
  x = f32[2,4] reshape(x3)
  xw = f32[2,8] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  hx = f32[2,8] add(h, xw)
  h2 = f32[2,8] tanh(hx)
  h3 = f32[1,2,8] reshape(h2)
  ys2 = f32[6,2,8] dynamic-update-slice(ys, h3, k, zero, zero)
  one = s32[] constant(1)
  k2 = s32[] add(k, one)
  ROOT t = (s32[], f32[2,8], f32[6,2,8], f32[6,2,4], f32[4,8]) tuple(k2, h2, ys2, xs, w)
}
ENTRY e {
  h0 = f32[2,8] parameter(0)
  xs = f32[6,2,4] parameter(1)
  w = f32[4,8] parameter(2)
  c0 = s32[] constant(0)
  z = f32[] constant(0)
  ys0 = f32[6,2,8] broadcast(z), dimensions={}
  init = (s32[], f32[2,8], f32[6,2,8], f32[6,2,4], f32[4,8]) tuple(c0, h0, ys0, xs, w)
  loop = (s32[], f32[2,8], f32[6,2,8], f32[6,2,4], f32[4,8]) while(init), condition=cond, body=body
  h = f32[2,8] get-tuple-element(loop), index=1
  ys = f32[6,2,8] get-tuple-element(loop), index=2
  ROOT r = (f32[2,8], f32[6,2,8]) tuple(h, ys)
}
)hlo";

TEST(CopyInsertionTest, AWhileLoopCopiesTheInitialStateItChangesButCannotOverwrite) {
  PassRun r = RunPass("copy_insertion", kScanLoop);
  ASSERT_TRUE(r.module);
  ASSERT_EQ(r.rules.size(), 2u) << ::testing::PrintToString(r.rules);
  EXPECT_NE(r.rules[0].find("copy of %c0 for state element 0 of while %loop: the loop changes it and it is a constant"),
            std::string::npos) << r.rules[0];
  EXPECT_NE(r.rules[1].find("copy of %h0 for state element 1 of while %loop: the loop changes it and it is a parameter"),
            std::string::npos) << r.rules[1];
  const Instruction* init = r.module->entry()->root()->operand(0)->operand(0)->operand(0);
  ASSERT_EQ(init->opcode(), Opcode::kTuple);
  EXPECT_EQ(init->operand(0)->opcode(), Opcode::kCopy);
  EXPECT_EQ(init->operand(1)->opcode(), Opcode::kCopy);
  EXPECT_EQ(init->operand(2)->name(), "ys0");
  EXPECT_EQ(init->operand(3)->name(), "xs");
  EXPECT_EQ(init->operand(4)->name(), "w");
  // Once copied, nothing more to copy.
  PassRun again = RunPass("copy_insertion", PrintModule(*r.module));
  EXPECT_FALSE(again.changed) << ::testing::PrintToString(again.rules);

  // Buffer assignment: the body's and condition's parameters are the loop's
  // result buffers, and the copies and ys0 are too (they die at the loop),
  // so the runtime copies only the pass-through parameters in.
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  for (int64_t k = 0; k < 5; ++k) {
    auto result = StorageOf(*a.ba, "loop", {k});
    EXPECT_EQ(StorageOf(*a.ba, "s", {k}), result) << "element " << k;
  }
  EXPECT_EQ(StorageOf(*a.ba, init->operand(0)->name(), {}), StorageOf(*a.ba, "loop", {0}));
  EXPECT_EQ(StorageOf(*a.ba, init->operand(1)->name(), {}), StorageOf(*a.ba, "loop", {1}));
  EXPECT_EQ(StorageOf(*a.ba, "ys0", {}), StorageOf(*a.ba, "loop", {2}));
  EXPECT_NE(StorageOf(*a.ba, "xs", {}), StorageOf(*a.ba, "loop", {3}));
}

TEST(CopyInsertionTest, AWhileLoopCopiesAValueThatIsReadAfterIt) {
  // ys0 is read again after the loop: the loop may not write over it.
  std::string text = kScanLoop;
  const std::string old_root = "ROOT r = (f32[2,8], f32[6,2,8]) tuple(h, ys)";
  text.replace(text.find(old_root), old_root.size(),
               "ys1 = f32[6,2,8] add(ys, ys0)\n  ROOT r = (f32[2,8], f32[6,2,8]) tuple(h, ys1)");
  PassRun r = RunPass("copy_insertion", text);
  ASSERT_TRUE(r.module);
  ASSERT_EQ(r.rules.size(), 3u) << ::testing::PrintToString(r.rules);
  EXPECT_NE(r.rules[2].find("copy of %ys0 for state element 2 of while %loop: the loop changes it and %ys1 reads it too"),
            std::string::npos) << r.rules[2];
  Assigned a = Assign(*r.module);
  ASSERT_TRUE(a.ba);
  EXPECT_EQ(a.clobbered, 0);
  EXPECT_NE(StorageOf(*a.ba, "ys0", {}), StorageOf(*a.ba, "loop", {2}));
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

TEST(IoAliasTest, AMultiOutputFusionMayNotOverwriteWhatASiblingOutputReads) {
  auto m = ParseOrDie(R"hlo(
HloModule m
fused {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  x = f32[4] add(a, b)
  y = f32[4] multiply(a, a)
  ROOT t = (f32[4], f32[4]) tuple(x, y)
}
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT f = (f32[4], f32[4]) fusion(a, b), kind=kLoop, calls=fused
}
)hlo");
  ASSERT_TRUE(m);
  const Instruction* f = m->entry()->root();
  // b feeds output 0 alone; a feeds both.
  EXPECT_TRUE(FusedParameterReadElementwise(*f, 1, {0}));
  EXPECT_FALSE(FusedParameterReadElementwise(*f, 0, {0}));
  EXPECT_FALSE(FusedParameterReadElementwise(*f, 0, {1}));
  // The loop emitter computes both outputs of an element before storing
  // either, so there a sibling's read is fine.
  EXPECT_TRUE(FusedParameterReadElementwise(*f, 0, {0}, /*siblings_may_read=*/true));
  EXPECT_TRUE(WritesOverOperandInPlace(*f, {0}, {0}));
}

}  // namespace
}  // namespace hloscope::testing
