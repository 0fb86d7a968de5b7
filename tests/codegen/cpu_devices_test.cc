// The kernels of a module whose collectives exchange data, run on the CPU on
// every device (RunOnCpuDevices): each device's outputs against the
// interpreter's evaluation of that device (EvaluateModuleOnDevices), over
// every collective, non-default layouts, loops and async forms; and the
// errors of devices that part ways.
#include <gtest/gtest.h>

#include "core/codegen/cpu_executor.h"
#include "core/parser/parser.h"
#include "core/runtime/manifest.h"
#include "tests/codegen/codegen_test_util.h"

namespace hloscope::codegen {
namespace {

constexpr const char* kAdd = R"(add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// Compiles `hlo` with `gpu`, runs every device on the CPU and compares each
// with the interpreter; "" when all agree. `devices` is what the module must
// run on.
std::string RunAllDevices(const std::string& hlo, int64_t devices, uint64_t seed = 3) {
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileText(hlo, "test.hlo", "gpu", opts);
  if (!compiled.ok()) return "compile: " + compiled.status().message();
  if (DevicesToEvaluate(*compiled->module) != devices)
    return "runs on " + std::to_string(DevicesToEvaluate(*compiled->module)) + " devices";
  if (compiled->codegen.plan.devices() != devices) return "plan of " + std::to_string(compiled->codegen.plan.devices());
  auto inputs = MakeRandomDeviceInputs(*compiled->module->entry(), seed, devices);
  auto want = EvaluateModuleOnDevices(*compiled->module, inputs);
  if (!want.ok()) return "interpreter: " + want.status().message();
  auto got = RunOnCpuDevices(compiled->codegen, inputs);
  if (!got.ok()) return "cpu run: " + got.status().message();
  if (static_cast<int64_t>(got->size()) != devices) return "results of " + std::to_string(got->size()) + " devices";
  for (int64_t d = 0; d < devices; ++d) {
    std::string diff = runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple((*want)[static_cast<size_t>(d)]),
                                               (*got)[static_cast<size_t>(d)].outputs);
    if (!diff.empty()) return "device " + std::to_string(d) + ": " + diff;
  }
  return "";
}

TEST(CpuDevices, AllReduceGroupsAndLayouts) {
  // Groups by XLA's modes; a column-major operand; the reduction is read in
  // its logical order whatever the layout.
  std::string hlo = std::string("HloModule t, replica_count=2, num_partitions=2\n") + kAdd + R"(
max {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT m = bf16[] maximum(a, b)
}
ENTRY e {
  x = f32[3,5]{0,1} parameter(0)
  y = bf16[7] parameter(1)
  e = f32[3,5]{0,1} exponential(x)
  r = f32[3,5]{0,1} all-reduce(e), channel_id=1, replica_groups={{0,3},{1,2}}, use_global_device_ids=true, to_apply=add
  m = bf16[7] all-reduce(y), replica_groups={}, to_apply=max
  ROOT t = (f32[3,5]{0,1}, bf16[7]) tuple(r, m)
})";
  EXPECT_EQ(RunAllDevices(hlo, 4), "");
}

TEST(CpuDevices, GatherScatterAllToAllAlongTransposedDimensions) {
  std::string hlo = std::string("HloModule t, num_partitions=4\n") + kAdd + R"(ENTRY e {
  x = f32[4,6]{0,1} parameter(0)
  n = f32[4,6]{0,1} negate(x)
  g = f32[4,24]{0,1} all-gather(n), channel_id=1, replica_groups=[1,4]<=[4], dimensions={1}, use_global_device_ids=true
  s = f32[1,6]{0,1} reduce-scatter(x), channel_id=2, replica_groups={{3,1,2,0}}, dimensions={0}, use_global_device_ids=true, to_apply=add
  a = f32[4,6]{0,1} all-to-all(x), channel_id=3, replica_groups={{0,1,2,3}}, dimensions={0}
  ROOT t = (f32[4,24]{0,1}, f32[1,6]{0,1}, f32[4,6]{0,1}) tuple(g, s, a)
})";
  EXPECT_EQ(RunAllDevices(hlo, 4), "");
}

TEST(CpuDevices, TupleAllToAllPermuteBroadcastAndIds) {
  const char* hlo = R"(HloModule t, replica_count=2, num_partitions=2
ENTRY e {
  x = s32[3] parameter(0)
  y = s32[3] negate(x)
  b = (s32[3], s32[3]) all-to-all(x, y), replica_groups={{1,0}}
  b0 = s32[3] get-tuple-element(b), index=0
  b1 = s32[3] get-tuple-element(b), index=1
  p = s32[3] collective-permute(x), channel_id=2, source_target_pairs={{0,1},{1,0}}
  q = s32[3] collective-permute(x), source_target_pairs={{1,0}}
  c = s32[3] collective-broadcast(x), channel_id=3, replica_groups={{1,0}}
  pid = u32[] partition-id()
  rid = u32[] replica-id()
  ROOT t = (s32[3], s32[3], s32[3], s32[3], s32[3], u32[], u32[]) tuple(b0, b1, p, q, c, pid, rid)
})";
  EXPECT_EQ(RunAllDevices(hlo, 4), "");
}

TEST(CpuDevices, BroadcastGivesZerosOutsideItsGroups) {
  // Devices 2 and 3 are in no group: zeros, as StableHLO defines it and the
  // interpreter evaluates it.
  const char* hlo = R"(HloModule t, num_partitions=4
ENTRY e {
  x = f32[3] parameter(0)
  ROOT b = f32[3] collective-broadcast(x), channel_id=1, replica_groups={{1,0}}
})";
  EXPECT_EQ(RunAllDevices(hlo, 4), "");
}

TEST(CpuDevices, CollectivesInALoopAndAsyncForms) {
  std::string hlo = std::string("HloModule t, num_partitions=2\n") + kAdd + R"(
wrapped {
  w = f32[4] parameter(0)
  ROOT ar = f32[4] all-reduce(w), channel_id=9, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[4] get-tuple-element(s), index=1
  h = f32[] constant(0.5)
  hb = f32[4] broadcast(h), dimensions={}
  m = f32[4] multiply(v, hb)
  r = f32[4] all-reduce(m), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[4]) tuple(j, r)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = s32[] constant(0)
  t0 = (s32[], f32[4]) tuple(z, x)
  w = (s32[], f32[4]) while(t0), condition=cond, body=body
  v = f32[4] get-tuple-element(w), index=1
  st = f32[4] all-reduce-start(v), channel_id=2, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  dn = f32[4] all-reduce-done(st)
  gs = (f32[4], f32[8]) all-gather-start(dn), channel_id=3, replica_groups={{0,1}}, dimensions={0}, use_global_device_ids=true
  gd = f32[8] all-gather-done(gs)
  as = ((f32[4]), f32[4]) async-start(x), calls=wrapped
  ad = f32[4] async-done(as)
  ROOT t = (f32[8], f32[4]) tuple(gd, ad)
})";
  EXPECT_EQ(RunAllDevices(hlo, 2), "");
}

TEST(CpuDevices, DevicesThatPartWaysFailInsteadOfHanging) {
  // Device 0 takes the branch with the all-reduce, device 1 the other: the
  // run ends with an error naming the collective, as the interpreter's does.
  std::string hlo = std::string("HloModule t, num_partitions=2\n") + kAdd + R"(
with {
  a = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(a), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
without {
  ROOT a = f32[2] parameter(0)
}
ENTRY e {
  x = f32[2] parameter(0)
  p = u32[] partition-id()
  i = s32[] convert(p)
  ROOT c = f32[2] conditional(i, x, x), branch_computations={with, without}
})";
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileText(hlo, "test.hlo", "gpu", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto inputs = MakeRandomDeviceInputs(*compiled->module->entry(), 1, 2);
  auto got = RunOnCpuDevices(compiled->codegen, inputs);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("all-reduce"), std::string::npos) << got.status().message();
  EXPECT_NE(got.status().message().find("did not come"), std::string::npos) << got.status().message();
}

TEST(CpuDevices, PlanCarriesWhatTheDevicesNeedThroughTheManifest) {
  std::string hlo = std::string("HloModule t, replica_count=2, num_partitions=2\n") + kAdd + R"(ENTRY e {
  x = f32[2,3]{0,1} parameter(0)
  r = f32[2,3]{0,1} all-reduce(x), replica_groups={}, to_apply=add
  ROOT p = f32[2,3]{0,1} collective-permute(r), channel_id=1, source_target_pairs={{0,1}}
})";
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileText(hlo, "test.hlo", "gpu", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const runtime::ThunkPlan& plan = compiled->codegen.plan;
  EXPECT_EQ(plan.replicas, 2);
  EXPECT_EQ(plan.partitions, 2);
  auto back = runtime::ManifestFromString(runtime::ManifestToString(plan), "manifest.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->devices(), 4);
  auto collectives = runtime::AllCollectives(*back);
  ASSERT_EQ(collectives.size(), 2u);
  const runtime::CollectiveThunk& ar = *collectives[0];
  // No channel_id, {}: every replica, once per partition: {0,2} and {1,3}.
  EXPECT_EQ(ar.device_groups, (std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(ar.reduction_kind, "add");
  EXPECT_EQ(ar.operand_shapes, (std::vector<std::string>{"f32[2,3]{0,1}"}));
  // A channel: partitions, once per replica: 0→1 and 2→3.
  EXPECT_EQ(collectives[1]->permute_sources, (std::vector<int64_t>{-1, 0, -1, 2}));
  EXPECT_TRUE(runtime::ValidatePlanForDevices(*back).ok());
  EXPECT_FALSE(runtime::ValidatePlanForRun(*back).ok());
  // A manifest that names a device outside the plan is refused, located.
  std::string text = runtime::ManifestToString(plan);
  text.replace(text.find("\"partitions\": 2"), 15, "\"partitions\": 1");
  auto bad = runtime::ManifestFromString(text, "manifest.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("device_groups"), std::string::npos) << bad.status().message();
}

TEST(CpuDevices, ReducersThatAreNotOneOpAreRefusedByName) {
  const char* hlo = R"(HloModule t, num_partitions=2
addmul {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  s = f32[] add(a, b)
  ROOT m = f32[] multiply(s, b)
}
ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=addmul
})";
  CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = CompileText(hlo, "test.hlo", "", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  Status s = runtime::ValidatePlanForDevices(compiled->codegen.plan);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("reducer 'addmul'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace hloscope::codegen
