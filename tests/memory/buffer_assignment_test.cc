// Scheduling, aliasing, liveness and heap packing; the non-overlap property
// on every sample and corpus module.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/memory/buffer_assignment.h"
#include "core/memory/heap_packing.h"
#include "core/memory/schedule.h"
#include "core/parser/parser.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

std::unique_ptr<Module> Parse(const char* text) {
  auto m = ParseHloModule(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

const AssignedBuffer* BufferOf(const BufferAssignment& ba, const std::string& instr) {
  for (const auto& b : ba.buffers)
    if (b.instruction == instr) return &b;
  return nullptr;
}

TEST(HeapPacking, BestFitReusesGaps) {
  // a [0,1] 100B, b [2,3] 100B can share; c [0,3] 64B sits beside them.
  std::vector<HeapItem> items = {{0, 1, 100}, {2, 3, 100}, {0, 3, 64}};
  HeapResult r = PackHeap(items, 64);
  EXPECT_EQ(r.heap_bytes, 128 + 64);
  EXPECT_EQ(r.offsets[0], r.offsets[1]);
  EXPECT_EQ(HeapLowerBound(items, 64), 192);
}

TEST(HeapPacking, LowerBoundIsMaxLive) {
  std::vector<HeapItem> items = {{0, 5, 64}, {1, 2, 128}, {2, 3, 64}, {4, 5, 256}};
  EXPECT_EQ(HeapLowerBound(items, 64), 64 + 256);
  EXPECT_EQ(HeapLowerBound(items, 1), 320);
  HeapResult r = PackHeap(items, 64);
  EXPECT_GE(r.heap_bytes, 320);
}

TEST(Schedule, RespectsDependenciesAndControlEdges) {
  auto m = Parse(R"hlo(ENTRY e {
  p = f32[4] parameter(0)
  a = f32[4] exponential(p)
  b = f32[4] negate(p), control-predecessors={a}
  ROOT c = f32[4] add(a, b)
})hlo");
  for (auto seq : {DfsSchedule(*m->entry()), ListSchedule(*m->entry()), PostorderBySizeSchedule(*m->entry())}) {
    ASSERT_EQ(seq.size(), 4u);
    std::map<std::string, int> pos;
    for (size_t k = 0; k < seq.size(); ++k) pos[seq[k]->name()] = static_cast<int>(k);
    EXPECT_LT(pos["p"], pos["a"]);
    EXPECT_LT(pos["a"], pos["b"]);  // control edge
    EXPECT_LT(pos["b"], pos["c"]);
  }
}

TEST(BufferAssignment, AliasesAndInPlaceReuse) {
  auto m = Parse(R"hlo(ENTRY e {
  p = f32[16] parameter(0)
  i = s32[] parameter(1)
  u = f32[2] parameter(2)
  a = f32[16] exponential(p)
  b = f32[16] negate(a)
  c = f32[4,4] bitcast(b)
  d = f32[16] reshape(c)
  e = f32[16] dynamic-update-slice(d, u, i)
  t = (f32[16], f32[16]) tuple(e, p)
  g = f32[16] get-tuple-element(t), index=0
  ROOT r = f32[16] tanh(g)
})hlo");
  auto ba = AssignBuffers(*m);
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  const BufferAssignment& x = **ba;
  EXPECT_EQ(CheckBufferAssignment(x), "");
  // bitcast, reshape-as-bitcast, tuple and get-tuple-element define nothing.
  EXPECT_EQ(BufferOf(x, "c"), nullptr);
  EXPECT_EQ(BufferOf(x, "d"), nullptr);
  EXPECT_EQ(BufferOf(x, "t"), nullptr);
  EXPECT_EQ(BufferOf(x, "g"), nullptr);
  // negate reuses exponential's dying buffer; the dus updates it in place.
  const AssignedBuffer* a = BufferOf(x, "a");
  const AssignedBuffer* b = BufferOf(x, "b");
  const AssignedBuffer* e = BufferOf(x, "e");
  ASSERT_TRUE(a && b && e);
  EXPECT_EQ(a->allocation, b->allocation);
  EXPECT_EQ(a->offset, b->offset);
  EXPECT_EQ(b->offset, e->offset);
  EXPECT_NE(e->share_reason.find("dynamic-update-slice"), std::string::npos) << e->share_reason;
  // Parameters live for the whole program; the output is live-out.
  const AssignedBuffer* p = BufferOf(x, "p");
  EXPECT_EQ(p->kind, BufferKind::kParameter);
  EXPECT_EQ(p->start, 0);
  EXPECT_EQ(p->end, static_cast<int64_t>(x.sequence.size()) - 1);
  EXPECT_EQ(BufferOf(x, "r")->kind, BufferKind::kOutput);
  EXPECT_TRUE(x.allocations[BufferOf(x, "r")->allocation].maybe_live_out);
}

TEST(BufferAssignment, NoSharingWhenOperandStillLive) {
  auto m = Parse(R"hlo(ENTRY e {
  p = f32[16] parameter(0)
  a = f32[16] exponential(p)
  b = f32[16] negate(a)
  ROOT c = f32[16] add(a, b)
})hlo");
  auto ba = AssignBuffers(*m);
  ASSERT_TRUE(ba.ok());
  EXPECT_EQ(CheckBufferAssignment(**ba), "");
  EXPECT_TRUE(BufferOf(**ba, "b")->share_reason.empty());
}

// JAX's LAPACK calls write their result over the aliased operand
// (output_to_operand_aliasing) where it dies there, and into a buffer of
// their own where it is read later.
TEST(BufferAssignment, LinalgCallsWriteOverTheirAliasedOperand) {
  auto m = Parse(R"hlo(ENTRY e {
  a = f32[8,8]{0,1} parameter(0)
  y = f32[8,2]{0,1} parameter(1)
  s = f32[8,8]{0,1} exponential(a)
  c = (f32[8,8]{0,1}, s32[]) custom-call(s), custom_call_target="lapack_spotrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}
  l = f32[8,8]{0,1} get-tuple-element(c), index=0
  b = f32[8,2]{0,1} negate(y)
  x = f32[8,2]{0,1} custom-call(l, b), custom_call_target="lapack_strsm_ffi", output_to_operand_aliasing={{}: (1, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}
  x2 = f32[8,2]{0,1} custom-call(l, x), custom_call_target="lapack_strsm_ffi", output_to_operand_aliasing={{}: (1, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}
  ROOT r = (f32[8,2]{0,1}, f32[8,2]{0,1}) tuple(x2, b)
})hlo");
  auto ba = AssignBuffers(*m);
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  EXPECT_EQ(CheckBufferAssignment(**ba), "");
  const AssignedBuffer* s = BufferOf(**ba, "s");
  const AssignedBuffer* c = BufferOf(**ba, "c");
  ASSERT_TRUE(s && c);
  EXPECT_EQ(s->allocation, c->allocation);
  EXPECT_EQ(s->offset, c->offset);
  EXPECT_NE(c->share_reason.find("lapack_spotrf_ffi"), std::string::npos) << c->share_reason;
  // b is an output too: x gets its own bytes; x2 then writes over x.
  const AssignedBuffer* b = BufferOf(**ba, "b");
  const AssignedBuffer* x = BufferOf(**ba, "x");
  const AssignedBuffer* x2 = BufferOf(**ba, "x2");
  ASSERT_TRUE(b && x && x2);
  EXPECT_TRUE(x->share_reason.empty()) << x->share_reason;
  EXPECT_FALSE(b->allocation == x->allocation && b->offset == x->offset);
  EXPECT_NE(x2->share_reason.find("lapack_strsm_ffi"), std::string::npos) << x2->share_reason;
}

TEST(BufferAssignment, InputOutputAliasSharesTheParameter) {
  auto m = Parse(R"hlo(HloModule m, input_output_alias={ {}: (0, {}, may-alias) }
ENTRY e {
  p = f32[16] parameter(0)
  ROOT a = f32[16] exponential(p)
})hlo");
  auto ba = AssignBuffers(*m);
  ASSERT_TRUE(ba.ok());
  EXPECT_EQ(BufferOf(**ba, "a")->allocation, BufferOf(**ba, "p")->allocation);
  EXPECT_EQ(CheckBufferAssignment(**ba), "");
}

TEST(BufferAssignment, WhileResultTakesOverItsInit) {
  auto m = Parse(R"hlo(
cond {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  x2 = f32[8] tanh(x)
  ROOT t = (s32[], f32[8]) tuple(i2, x2)
}
ENTRY e {
  p = f32[8] parameter(0)
  z = s32[] constant(0)
  x = f32[8] exponential(p)
  init = (s32[], f32[8]) tuple(z, x)
  w = (s32[], f32[8]) while(init), condition=cond, body=body
  ROOT r = f32[8] get-tuple-element(w), index=1
})hlo");
  auto ba = AssignBuffers(*m);
  ASSERT_TRUE(ba.ok()) << ba.status().message();
  EXPECT_EQ(CheckBufferAssignment(**ba), "");
}

void CheckFile(const std::string& path, int* checked) {
  auto m = ParseHloFile(path);
  if (!m.ok()) return;  // the parser tests own parse failures
  for (auto sched : {SchedulerChoice::kAuto, SchedulerChoice::kDfs}) {
    MemoryOptions opts;
    opts.scheduler = sched;
    auto ba = AssignBuffers(**m, opts);
    ASSERT_TRUE(ba.ok()) << path << ": " << ba.status().message();
    EXPECT_EQ(CheckBufferAssignment(**ba), "") << path;
    EXPECT_GE((*ba)->peak_bytes, (*ba)->lower_bound_bytes) << path;
    // Every array value of the entry has a buffer (directly or through an alias).
    EXPECT_EQ((*ba)->sequence.size(), static_cast<size_t>((**m).entry()->instruction_count())) << path;
  }
  ++*checked;
}

TEST(BufferAssignmentProperty, Samples) {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(testing::SamplesDir()))
    if (e.path().extension() == ".hlo") CheckFile(e.path().string(), &checked);
  EXPECT_GE(checked, 18);
}

TEST(BufferAssignmentProperty, Corpus) {
  std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared/corpus is absent";
  std::ifstream index(shared + "/corpus/INDEX.tsv");
  std::string line;
  std::getline(index, line);
  int checked = 0;
  while (std::getline(index, line)) CheckFile(shared + "/corpus/" + line.substr(0, line.find('\t')), &checked);
  std::printf("buffer assignment checked on %d corpus modules\n", checked);
  EXPECT_GE(checked, 590);
}

}  // namespace
}  // namespace hloscope
