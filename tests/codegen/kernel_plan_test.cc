// The kernel plan: what becomes a kernel, copies, constants, while loops and
// conditionals, argument slices — checked on the plan and by running it on
// the CPU against the interpreter.
#include <gtest/gtest.h>

#include "core/codegen/kernel_plan.h"
#include "core/runtime/manifest.h"
#include "tests/codegen/codegen_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::CompileRunCompare;

StatusOr<CompiledFile> Compile(const std::string& hlo, const std::string& pipeline = "") {
  CodegenOptions opts;
  opts.emit_ptx = false;
  return CompileText(hlo, "test.hlo", pipeline, opts);
}

TEST(KernelPlan, AliasesGetNoKernels) {
  auto r = Compile(R"(HloModule m
ENTRY e {
  p0 = f32[4,6] parameter(0)
  p1 = f32[24] parameter(1)
  b = f32[24] bitcast(p0)
  a = f32[24] add(b, p1)
  t = (f32[24], f32[24]) tuple(a, p1)
  g = f32[24] get-tuple-element(t), index=0
  ROOT n = f32[24] negate(g)
})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->codegen.kernels.size(), 2u);
  EXPECT_EQ(r->codegen.kernels[0].instruction, "a");
  EXPECT_EQ(r->codegen.kernels[1].instruction, "n");
  const auto kernels = runtime::AllKernels(r->codegen.plan);
  // add reads p0 through the bitcast: the same slice as parameter 0.
  EXPECT_EQ(kernels[0]->args[0].allocation, r->codegen.plan.parameters[0].slice.allocation);
  EXPECT_EQ(kernels[0]->args.size(), 3u);
  EXPECT_EQ(kernels[0]->arg_written, (std::vector<bool>{false, false, true}));
  EXPECT_GT(kernels[0]->dims.threads(), 0);
  EXPECT_GT(kernels[0]->bytes, 0);
}

TEST(KernelPlan, ConstantsCarryTheirBytesInLayoutOrder) {
  auto r = Compile(R"(HloModule m
ENTRY e {
  c = s32[2,3]{0,1} constant({{1, 2, 3}, {4, 5, 6}})
  p = s32[2,3]{0,1} parameter(0)
  ROOT a = s32[2,3]{0,1} add(c, p)
})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const runtime::PlanAllocation* constant = nullptr;
  for (const auto& a : r->codegen.plan.allocations)
    if (a.kind == "constant") constant = &a;
  ASSERT_NE(constant, nullptr);
  ASSERT_GE(constant->init.size(), 24u);
  std::vector<int32_t> v(6);
  std::memcpy(v.data(), constant->init.data(), 24);
  EXPECT_EQ(v, (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));  // column-major
  EXPECT_EQ(CompileRunCompare(R"(HloModule m
ENTRY e {
  c = s32[2,3]{0,1} constant({{1, 2, 3}, {4, 5, 6}})
  p = s32[2,3]{0,1} parameter(0)
  ROOT a = s32[2,3]{0,1} add(c, p)
})").error, "");
}

constexpr const char* kWhile = R"(HloModule m
cond {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  x2 = f32[8] multiply(x, x)
  h = f32[] constant(0.5)
  hb = f32[8] broadcast(h), dimensions={}
  x3 = f32[8] add(x2, hb)
  ROOT t = (s32[], f32[8]) tuple(i2, x3)
}
ENTRY e {
  p = f32[8] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[8]) tuple(z, p)
  w = (s32[], f32[8]) while(init), condition=cond, body=body
  ROOT r = f32[8] get-tuple-element(w), index=1
})";

TEST(KernelPlan, WhileLoopIsHostDrivenAndRunsCorrectly) {
  auto r = Compile(kWhile);
  ASSERT_TRUE(r.ok()) << r.status().message();
  int whiles = 0;
  for (const auto& t : r->codegen.plan.thunks)
    if (std::holds_alternative<runtime::WhileThunk>(t.v)) ++whiles;
  EXPECT_EQ(whiles, 1);
  EXPECT_EQ(CompileRunCompare(kWhile).error, "");
  EXPECT_EQ(CompileRunCompare(kWhile, "gpu").error, "");
}

TEST(KernelPlan, ConditionalRunsTheSelectedBranch) {
  const char* hlo = R"(HloModule m
neg {
  x = f32[5] parameter(0)
  ROOT n = f32[5] negate(x)
}
sq {
  x = f32[5] parameter(0)
  ROOT m = f32[5] multiply(x, x)
}
ENTRY e {
  i = s32[] parameter(0)
  p = f32[5] parameter(1)
  ROOT c = f32[5] conditional(i, p, p), branch_computations={neg, sq}
})";
  auto r = Compile(hlo);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (uint64_t seed = 1; seed <= 4; ++seed) EXPECT_EQ(CompileRunCompare(hlo, "", false, seed).error, "") << seed;
}

TEST(KernelPlan, UnknownGpuTargetIsRefused) {
  CodegenOptions opts;
  opts.sm = "sm_70";
  auto r = CompileText("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n", "t.hlo", "", opts);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("sm_70"), std::string::npos);
}

TEST(KernelPlan, ParameterPassThroughNeedsNoKernel) {
  auto r = Compile("HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->codegen.kernels.empty());
  ASSERT_EQ(r->codegen.plan.outputs.size(), 1u);
  EXPECT_EQ(r->codegen.plan.outputs[0].slice.allocation, r->codegen.plan.parameters[0].slice.allocation);
}

}  // namespace
}  // namespace hloscope::codegen

namespace hloscope::codegen {
namespace {

constexpr const char* kCollectives = R"(HloModule m%s
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[8] parameter(0)
  ar = f32[8] all-reduce(p), replica_groups=%s, to_apply=add, channel_id=3
  ag = f32[8] all-gather(ar), replica_groups=%s, dimensions={0}
  id = u32[] partition-id()
  n = f32[8] negate(ag)
  ROOT t = (f32[8], u32[]) tuple(n, id)
})";

std::string Collectives(const char* header, const char* groups) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, kCollectives, header, groups, groups);
  return buf;
}

TEST(KernelPlan, CollectivesAreThunksThatRunOnOneDevice) {
  auto r = Compile(Collectives("", "{}"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto cs = runtime::AllCollectives(r->codegen.plan);
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0]->op, "all-reduce");
  EXPECT_EQ(cs[0]->participants, 1);
  EXPECT_EQ(cs[0]->reduction, "add");
  EXPECT_EQ(cs[0]->channel_id, 3);
  EXPECT_EQ(cs[1]->dimensions, std::vector<int64_t>{0});
  EXPECT_EQ(cs[2]->op, "partition-id");
  EXPECT_TRUE(runtime::MissingKernels(r->codegen.plan).empty());
  // The manifest keeps them.
  auto back = runtime::ManifestFromString(runtime::ManifestToString(r->codegen.plan), "manifest.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(runtime::AllCollectives(*back).size(), 3u);
  EXPECT_EQ(runtime::AllCollectives(*back)[0]->replica_groups, "{}");
  // One device: the collectives are the identity and the id is 0.
  Literal in(Shape(PrimitiveType::kF32, {8}));
  for (int64_t k = 0; k < 8; ++k) in.SetDouble(k, static_cast<double>(k) - 3.5);
  auto got = RunOnCpu(r->codegen, {in});
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->outputs.size(), 2u);
  for (int64_t k = 0; k < 8; ++k) EXPECT_EQ(got->outputs[0].GetDouble(k), 3.5 - static_cast<double>(k));
  EXPECT_EQ(got->outputs[1].GetDouble(0), 0.0);
}

TEST(KernelPlan, HostTransfersAreThunksAndOnlyDataFreeOnesRun) {
  // A send of data and an outfeed of nothing: both thunks, no kernels.
  auto r = Compile(R"(HloModule m
ENTRY e {
  p = s32[3,4] parameter(0)
  t = token[] parameter(1)
  s = (s32[3,4], u32[], token[]) send(p, t), channel_id=5, is_host_transfer=true
  sd = token[] send-done(s), channel_id=5, is_host_transfer=true
  e = () tuple()
  o = token[] outfeed(e, sd), outfeed_shape=(), outfeed_config="cfg"
  n = s32[3,4] negate(p)
  ROOT r = (s32[3,4], token[]) tuple(n, o)
})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto hs = runtime::AllHostTransfers(r->codegen.plan);
  ASSERT_EQ(hs.size(), 3u);
  EXPECT_EQ(hs[0]->op, "send");
  EXPECT_EQ(hs[0]->channel_id, 5);
  ASSERT_EQ(hs[0]->operands.size(), 1u);
  EXPECT_EQ(hs[0]->operands[0].size, 48);
  EXPECT_FALSE(hs[1]->MovesData());  // send-done
  EXPECT_EQ(hs[2]->config, "\"cfg\"");
  EXPECT_FALSE(hs[2]->MovesData());
  EXPECT_EQ(runtime::AllKernels(r->codegen.plan).size(), 1u);
  auto back = runtime::ManifestFromString(runtime::ManifestToString(r->codegen.plan), "manifest.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(runtime::ManifestToString(*back), runtime::ManifestToString(r->codegen.plan));
  Status refused = runtime::ValidatePlanForRun(r->codegen.plan);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("send %s"), std::string::npos) << refused.message();

  // Tokens only: nothing moves, and a plan with no array output is valid.
  auto quiet = Compile(R"(HloModule m
ENTRY e {
  t = token[] parameter(0)
  i = ((), token[]) infeed(t), infeed_config="x"
  ROOT g = token[] get-tuple-element(i), index=1
})");
  ASSERT_TRUE(quiet.ok()) << quiet.status().message();
  EXPECT_TRUE(runtime::ValidatePlanForRun(quiet->codegen.plan).ok());
  ASSERT_EQ(runtime::AllHostTransfers(quiet->codegen.plan).size(), 1u);
  EXPECT_FALSE(runtime::AllHostTransfers(quiet->codegen.plan)[0]->MovesData());
}

TEST(KernelPlan, CollectivesOverSeveralDevicesAreRefusedByName) {
  auto r = Compile(Collectives(", num_partitions=4", "{{0,1,2,3}}"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(runtime::AllCollectives(r->codegen.plan)[0]->participants, 4);
  Literal in(Shape(PrimitiveType::kF32, {8}));
  auto got = RunOnCpu(r->codegen, {in});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("needs 4 devices"), std::string::npos) << got.status().message();
  EXPECT_NE(got.status().message().find("all-reduce %ar"), std::string::npos) << got.status().message();
  auto iota = Compile(Collectives("", "[2,4]<=[8]"));
  ASSERT_TRUE(iota.ok()) << iota.status().message();
  EXPECT_EQ(runtime::AllCollectives(iota->codegen.plan)[0]->participants, 4);
}

TEST(KernelPlan, ACrossReplicaAllReduceOnOneReplicaRunsOnOneDevice) {
  // No channel_id: the groups name replicas, and there is one; each of the 8
  // partitions reduces alone (XLA's cross-replica mode), so the plan runs.
  auto r = Compile(R"(HloModule m, num_partitions=8
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[8] parameter(0)
  ROOT ar = f32[8] all-reduce(p), replica_groups={}, to_apply=add
})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(runtime::AllCollectives(r->codegen.plan)[0]->participants, 1);
  Literal in(Shape(PrimitiveType::kF32, {8}));
  for (int i = 0; i < 8; ++i) in.SetDouble(i, i);
  auto got = RunOnCpu(r->codegen, {in});
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->outputs.size(), 1u);
  EXPECT_EQ(got->outputs[0].GetDouble(7), 7.0);
}

}  // namespace
}  // namespace hloscope::codegen
