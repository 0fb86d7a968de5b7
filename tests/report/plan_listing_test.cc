// The kernel plan as the GUI's kernel list and the report show it: a
// collective thunk names the devices that exchange data once XLA's group
// mode is applied, which its replica_groups text alone does not say.
#include "core/report/plan_listing.h"

#include <gtest/gtest.h>

#include "core/codegen/codegen.h"

namespace hloscope::report {
namespace {

TEST(PlanListing, CollectivesNameTheirDevices) {
  // replica_groups={} without a channel: every replica, once per partition
  // ({0,2} and {1,3}); the permute's pairs name partitions, once per replica.
  const char* hlo = R"(HloModule t, replica_count=2, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  r = f32[4] all-reduce(x), replica_groups={}, to_apply=add
  ROOT p = f32[4] collective-permute(r), channel_id=1, source_target_pairs={{0,1}}
})";
  codegen::CodegenOptions opts;
  opts.emit_ptx = false;
  auto compiled = codegen::CompileText(hlo, "t.hlo", "", opts);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  std::vector<std::string> whats;
  for (const PlanEntry& e : ListPlan(compiled->codegen))
    if (e.kind == PlanEntry::Kind::kCollective) whats.push_back(e.what);
  ASSERT_EQ(whats.size(), 2u);
  EXPECT_NE(whats[0].find("; devices {0,2} {1,3}"), std::string::npos) << whats[0];
  EXPECT_NE(whats[1].find("; devices 0→1 2→3"), std::string::npos) << whats[1];
}

}  // namespace
}  // namespace hloscope::report
