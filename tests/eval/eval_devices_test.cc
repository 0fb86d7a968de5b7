// Evaluation on several devices (EvaluateModuleOnDevices): every collective
// against values worked out by hand from XLA's semantics, the four ways
// replica_groups name devices, async forms, loops, and devices that take
// different paths.
#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/ir/collectives.h"
#include "tests/eval/eval_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope::testing {
namespace {

// Runs `hlo` with device d's single argument `per_device(d)`.
StatusOr<std::vector<Literal>> RunOnDevices(std::string_view hlo, int devices,
                                            const std::function<Literal(int)>& per_device) {
  auto m = ParseHloModule(hlo, "test.hlo");
  if (!m.ok()) return m.status();
  std::vector<std::vector<Literal>> args;
  for (int d = 0; d < devices; ++d) args.push_back({per_device(d)});
  return EvaluateModuleOnDevices(**m, args);
}

std::vector<std::vector<double>> MustRunOnDevices(std::string_view hlo, int devices,
                                                  const std::function<Literal(int)>& per_device) {
  auto r = RunOnDevices(hlo, devices, per_device);
  EXPECT_TRUE(r.ok()) << r.status().message();
  std::vector<std::vector<double>> out;
  if (r.ok())
    for (const Literal& l : *r) out.push_back(Vals(l));
  return out;
}

// Device d holds [10d, 10d+1].
Literal Pair(int d) { return Lit("f32[2]", {10.0 * d, 10.0 * d + 1}); }

constexpr const char* kAdd = R"(add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

TEST(EvalDevices, AllReduceOverFlattenedIdGroups) {
  std::string hlo = std::string("HloModule t, num_partitions=4\n") + kAdd + R"(ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), channel_id=1, replica_groups={{0,1},{3,2}}, use_global_device_ids=true, to_apply=add
})";
  auto out = MustRunOnDevices(hlo, 4, Pair);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], (std::vector<double>{10, 12}));
  EXPECT_EQ(out[1], (std::vector<double>{10, 12}));
  EXPECT_EQ(out[2], (std::vector<double>{50, 52}));
  EXPECT_EQ(out[3], (std::vector<double>{50, 52}));
}

TEST(EvalDevices, CrossReplicaGroupsFormOncePerPartition) {
  // No channel_id: the groups name replicas; {} is every replica, on each
  // partition by itself: devices {0, 2} and {1, 3}.
  std::string hlo = std::string("HloModule t, replica_count=2, num_partitions=2\n") + kAdd + R"(ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), replica_groups={}, to_apply=add
})";
  auto out = MustRunOnDevices(hlo, 4, Pair);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], (std::vector<double>{20, 22}));
  EXPECT_EQ(out[2], (std::vector<double>{20, 22}));
  EXPECT_EQ(out[1], (std::vector<double>{40, 42}));
  EXPECT_EQ(out[3], (std::vector<double>{40, 42}));
}

TEST(EvalDevices, ChannelWithoutGlobalIdsTakesEveryPartitionOfTheReplicas) {
  // channel_id, use_global_device_ids=false: {{0},{1}} are replicas, each
  // group with all of its partitions: devices {0, 1} and {2, 3}.
  std::string hlo = std::string("HloModule t, replica_count=2, num_partitions=2\n") + kAdd + R"(ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), channel_id=3, replica_groups={{0},{1}}, to_apply=add
})";
  auto out = MustRunOnDevices(hlo, 4, Pair);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], (std::vector<double>{10, 12}));
  EXPECT_EQ(out[3], (std::vector<double>{50, 52}));
}

TEST(EvalDevices, AllGatherReduceScatterAndIds) {
  std::string hlo = std::string("HloModule t, num_partitions=4\n") + kAdd + R"(ENTRY e {
  x = f32[2] parameter(0)
  g = f32[8] all-gather(x), channel_id=1, replica_groups=[1,4]<=[4], dimensions={0}, use_global_device_ids=true
  s = f32[2] reduce-scatter(g), channel_id=2, replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true, to_apply=add
  p = u32[] partition-id()
  q = u32[] replica-id()
  pf = f32[] convert(p)
  qf = f32[] convert(q)
  ROOT t = (f32[8], f32[2], f32[], f32[]) tuple(g, s, pf, qf)
})";
  auto m = ParseHloModule(hlo, "test.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::vector<std::vector<Literal>> args;
  for (int d = 0; d < 4; ++d) args.push_back({Pair(d)});
  auto r = EvaluateModuleOnDevices(**m, args);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (int d = 0; d < 4; ++d) {
    const auto& t = (*r)[static_cast<size_t>(d)].tuple_elements();
    EXPECT_EQ(Vals(t[0]), (std::vector<double>{0, 1, 10, 11, 20, 21, 30, 31}));
    // Every device gathered the same 8 values; the sum over 4 devices of
    // piece d is 4 × piece d.
    EXPECT_EQ(Vals(t[1]), (std::vector<double>{40.0 * d, 40.0 * d + 4})) << d;
    EXPECT_EQ(Vals(t[2]), (std::vector<double>{static_cast<double>(d)}));
    EXPECT_EQ(Vals(t[3]), (std::vector<double>{0}));
  }
}

TEST(EvalDevices, AllToAllArrayAndTupleForms) {
  const char* hlo = R"(HloModule t, num_partitions=2
ENTRY e {
  x = f32[2] parameter(0)
  a = f32[2] all-to-all(x), channel_id=1, replica_groups={{0,1}}, dimensions={0}
  y = f32[1] slice(x), slice={[0:1]}
  z = f32[1] slice(x), slice={[1:2]}
  b = (f32[1], f32[1]) all-to-all(y, z), channel_id=2, replica_groups={{0,1}}
  b0 = f32[1] get-tuple-element(b), index=0
  b1 = f32[1] get-tuple-element(b), index=1
  ROOT c = f32[4] concatenate(a, b0, b1), dimensions={0}
})";
  auto out = MustRunOnDevices(hlo, 2, Pair);
  ASSERT_EQ(out.size(), 2u);
  // Device 0 gets piece 0 of each: [0, 10]; device 1 piece 1: [1, 11]. The
  // tuple form: result j is member j's operand number (my position).
  EXPECT_EQ(out[0], (std::vector<double>{0, 10, 0, 10}));
  EXPECT_EQ(out[1], (std::vector<double>{1, 11, 1, 11}));
}

TEST(EvalDevices, CollectivePermuteAndBroadcast) {
  const char* hlo = R"(HloModule t, num_partitions=4
ENTRY e {
  x = f32[2] parameter(0)
  p = f32[2] collective-permute(x), channel_id=1, source_target_pairs={{0,1},{1,2},{2,3}}
  b = f32[2] collective-broadcast(x), channel_id=2, replica_groups={{2,0,1,3}}
  ROOT c = f32[4] concatenate(p, b), dimensions={0}
})";
  auto out = MustRunOnDevices(hlo, 4, Pair);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], (std::vector<double>{0, 0, 20, 21}));  // no source: zeros
  EXPECT_EQ(out[1], (std::vector<double>{0, 1, 20, 21}));
  EXPECT_EQ(out[3], (std::vector<double>{20, 21, 20, 21}));
}

TEST(EvalDevices, AsyncFormsAndWrappedCollectives) {
  std::string hlo = std::string("HloModule t, num_partitions=2\n") + kAdd + R"(wrapped {
  w = f32[2] parameter(0)
  ROOT ar = f32[2] all-reduce(w), channel_id=4, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
ENTRY e {
  x = f32[2] parameter(0)
  s = f32[2] all-reduce-start(x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  d = f32[2] all-reduce-done(s)
  gs = (f32[2], f32[4]) all-gather-start(x), channel_id=2, replica_groups={{0,1}}, dimensions={0}, use_global_device_ids=true
  gd = f32[4] all-gather-done(gs)
  ps = (f32[2], f32[2], u32[], u32[]) collective-permute-start(x), channel_id=3, source_target_pairs={{0,1},{1,0}}
  pd = f32[2] collective-permute-done(ps)
  as = ((f32[2]), f32[2], s32[]) async-start(x), calls=wrapped
  ad = f32[2] async-done(as), calls=wrapped
  ROOT c = f32[10] concatenate(d, gd, pd, ad), dimensions={0}
})";
  auto out = MustRunOnDevices(hlo, 2, Pair);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (std::vector<double>{10, 12, 0, 1, 10, 11, 10, 11, 10, 12}));
  EXPECT_EQ(out[1], (std::vector<double>{10, 12, 0, 1, 10, 11, 0, 1, 10, 12}));
}

TEST(EvalDevices, CollectivesInsideALoopMeetRunByRun) {
  std::string hlo = std::string("HloModule t, num_partitions=3\n") + kAdd + R"(cond {
  p = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[2] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  y = f32[2] all-reduce(x), channel_id=1, replica_groups={{0,1,2}}, use_global_device_ids=true, to_apply=add
  ROOT t = (s32[], f32[2]) tuple(j, y)
}
ENTRY e {
  z = s32[] constant(0)
  x = f32[2] parameter(0)
  t = (s32[], f32[2]) tuple(z, x)
  w = (s32[], f32[2]) while(t), condition=cond, body=body
  ROOT r = f32[2] get-tuple-element(w), index=1
})";
  // Sums 30, 33 after one run; each further run multiplies by 3.
  auto out = MustRunOnDevices(hlo, 3, Pair);
  ASSERT_EQ(out.size(), 3u);
  for (const auto& v : out) EXPECT_EQ(v, (std::vector<double>{270, 297}));
}

TEST(EvalDevices, DevicesOnDifferentPathsAreAnErrorNotAHang) {
  std::string hlo = std::string("HloModule t, num_partitions=2\n") + kAdd + R"(reduce_it {
  a = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(a), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
keep_it {
  ROOT a = f32[2] parameter(0)
}
ENTRY e {
  x = f32[2] parameter(0)
  p = u32[] partition-id()
  zero = u32[] constant(0)
  first = pred[] compare(p, zero), direction=EQ
  ROOT c = f32[2] conditional(first, x, x), true_computation=reduce_it, false_computation=keep_it
})";
  auto r = RunOnDevices(hlo, 2, Pair);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("different collectives"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("%r"), std::string::npos) << r.status().message();
}

TEST(EvalDevices, AFailingDeviceStopsTheOthers) {
  // A while loop that exceeds the limit on device 1 only (its all-reduce
  // reads the loop's result, so the loop runs first); device 0 waits at its
  // all-reduce, and the error is device 1's.
  std::string hlo = std::string("HloModule t, num_partitions=2\n") + kAdd + R"(cond {
  p = u32[] parameter(0)
  ROOT c = pred[] compare(p, p), direction=EQ
}
body {
  ROOT p = u32[] parameter(0)
}
spin {
  a = f32[2] parameter(0)
  z = u32[] constant(0)
  w = u32[] while(z), condition=cond, body=body
  wf = f32[] convert(w)
  wb = f32[2] broadcast(wf), dimensions={}
  a2 = f32[2] add(a, wb)
  ROOT r2 = f32[2] all-reduce(a2), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
}
ENTRY e {
  x = f32[2] parameter(0)
  p = u32[] partition-id()
  zero = u32[] constant(0)
  first = pred[] compare(p, zero), direction=EQ
  ROOT c = f32[2] conditional(first, x, x), true_computation=reduce_it, false_computation=spin
}
reduce_it {
  a = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(a), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
})";
  auto m = ParseHloModule(hlo, "test.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EvalOptions opts;
  opts.max_while_iterations = 50;
  auto r = EvaluateModuleOnDevices(**m, {{Pair(0)}, {Pair(1)}}, opts);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("device 1"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("max_while_iterations"), std::string::npos) << r.status().message();
}

TEST(EvalDevices, MalformedGroupsAreLocatedErrors) {
  std::string hlo = std::string("HloModule t, num_partitions=2\n") + kAdd + R"(ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), channel_id=1, replica_groups={{0,1,2}}, use_global_device_ids=true, to_apply=add
})";
  auto m = ParseHloModule(hlo, "test.hlo");
  ASSERT_TRUE(m.ok());
  Status s = ModuleEvaluableOnDevices(**m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("9:8: error: cannot evaluate %r (all-reduce)"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("id 2"), std::string::npos) << s.message();
  auto r = EvaluateModuleOnDevices(**m, {{Pair(0)}});
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

TEST(EvalDevices, ModulesWithoutADeviceCountRunOnTheDevicesTheirGroupsName) {
  // As in XLA's tests: no replica_count, the runner sets it; the groups name 8.
  std::string hlo = std::string("HloModule t\n") + kAdd + R"(ENTRY e {
  x = f32[2] parameter(0)
  ROOT r = f32[2] all-reduce(x), channel_id=5, replica_groups={{0,2,4,6},{1,3,5,7}}, use_global_device_ids=true, to_apply=add
})";
  auto m = ParseHloModule(hlo, "test.hlo");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(ModuleDeviceGrid(**m).devices(), 8);
  auto out = MustRunOnDevices(hlo, 8, Pair);
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out[0], (std::vector<double>{120, 124}));  // 0 + 20 + 40 + 60
  EXPECT_EQ(out[7], (std::vector<double>{160, 164}));  // 10 + 30 + 50 + 70
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

// A JAX shard_map program on a 2x2 mesh (psum, all_gather, psum_scatter,
// ppermute, all_to_all, axis_index), as XLA CPU compiled it, with the input
// and output shards JAX gave each device (tools/gen_shard_map_reference.py):
// our evaluation of XLA's own module against XLA's own run.
TEST(EvalDevices, JaxShardMapAsXlaCompiledIt) {
  const std::string dir = SourceDir() + "/tests/eval/data/";
  auto m = ParseHloFile(dir + "shard_map.xla_cpu.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(ModuleDeviceGrid(**m).devices(), 4);
  std::vector<std::vector<Literal>> args;
  std::vector<DataFile> data;
  for (int p = 0; p < 4; ++p) {
    auto d = ReadDataFile(dir + "shard_map.partition" + std::to_string(p) + ".data.json");
    ASSERT_TRUE(d.ok()) << d.status().message();
    args.push_back(d->inputs);
    data.push_back(std::move(*d));
  }
  auto r = EvaluateModuleOnDevices(**m, args);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (int p = 0; p < 4; ++p) {
    std::vector<Literal> got = FlattenTuple((*r)[static_cast<size_t>(p)]);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(CompareLiterals(data[static_cast<size_t>(p)].outputs[0], got[0], std::nullopt), "") << "partition " << p;
  }
  // The same module, its inputs on every device but one swapped, differs:
  // the comparison is not empty.
  std::swap(args[0], args[3]);
  auto swapped = EvaluateModuleOnDevices(**m, args);
  ASSERT_TRUE(swapped.ok());
  EXPECT_NE(CompareLiterals(data[0].outputs[0], FlattenTuple((*swapped)[0])[0], std::nullopt), "");
}

}  // namespace
}  // namespace hloscope::testing
