// core/session/whatif: the two ways to measure a what-if — two fresh runs
// of a file (the CLI) and two recorded PipelineRuns of a session (the GUI) —
// agree; names of fusions made on the way map back to what they wrapped.
#include "core/session/whatif.h"

#include <gtest/gtest.h>

#include "core/fusion/fusion_overrides.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

std::string Sample(const std::string& name) { return hloscope::testing::SamplesDir() + "/" + name; }

FusionOverrides Parse(std::vector<std::string> force, std::vector<std::string> forbid) {
  FusionOverrides o;
  for (const auto& f : force) o.force.push_back(*ParseOverridePair(f));
  for (const auto& f : forbid) o.forbid.push_back(*ParseOverridePair(f));
  return o;
}

// The GUI's way: the base run and a run under `o`, both recorded.
WhatIfResult FromRuns(const std::string& file, const FusionOverrides& o) {
  auto s = Session::Load(Sample(file));
  EXPECT_TRUE(s.ok());
  RunOptions opts;
  opts.pipeline = "gpu";
  auto base = (*s)->RunPipeline(opts);
  EXPECT_TRUE(base.ok());
  StatusOr<std::shared_ptr<const PipelineRun>> run = Status::Error("not run");
  {
    ScopedFusionOverrides scope(o);
    run = (*s)->RunPipeline(opts);
  }
  EXPECT_TRUE(run.ok());
  auto r = CompareWhatIfRuns(**base, **run, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

void ExpectSame(const WhatIfResult& a, const WhatIfResult& b) {
  EXPECT_EQ(a.base.kernels, b.base.kernels);
  EXPECT_EQ(a.base.hbm_bytes, b.base.hbm_bytes);
  EXPECT_EQ(a.base.peak_bytes, b.base.peak_bytes);
  EXPECT_DOUBLE_EQ(a.base.est_us, b.base.est_us);
  EXPECT_EQ(a.whatif.kernels, b.whatif.kernels);
  EXPECT_EQ(a.whatif.hbm_bytes, b.whatif.hbm_bytes);
  EXPECT_EQ(a.whatif.peak_bytes, b.whatif.peak_bytes);
  EXPECT_DOUBLE_EQ(a.whatif.est_us, b.whatif.est_us);
  ASSERT_EQ(a.outcomes.size(), b.outcomes.size());
  for (size_t i = 0; i < a.outcomes.size(); ++i) {
    EXPECT_EQ(a.outcomes[i].applied, b.outcomes[i].applied);
    EXPECT_EQ(a.outcomes[i].detail, b.outcomes[i].detail);
  }
  EXPECT_EQ(WhatIfReportText(a), WhatIfReportText(b));
}

TEST(WhatIfTest, ForbidFromRunsMatchesTheFileRuns) {
  const FusionOverrides o = Parse({}, {"mul.6:mul.7"});
  auto file = RunWhatIfOnFile(Sample("mlp_gelu.hlo"), "gpu", o);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->delta().kernels, 1);
  EXPECT_EQ(file->delta().hbm_bytes, 4096);
  EXPECT_EQ(file->delta().peak_bytes, 2048);
  EXPECT_FALSE(file->any_refused());
  ExpectSame(*file, FromRuns("mlp_gelu.hlo", o));
}

TEST(WhatIfTest, RefusedForceFromRunsMatchesTheFileRuns) {
  const FusionOverrides o = Parse({"dot_general.2:dot_general.3"}, {});
  auto file = RunWhatIfOnFile(Sample("mlp_gelu.hlo"), "gpu", o);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->delta().kernels, 0);
  ASSERT_TRUE(file->any_refused());
  EXPECT_NE(file->outcomes[0].detail.find("would create a cycle"), std::string::npos) << file->outcomes[0].detail;
  ExpectSame(*file, FromRuns("mlp_gelu.hlo", o));
}

TEST(WhatIfTest, UnknownNameFailsAtTheOverrides) {
  WhatIfStage failed = WhatIfStage::kBase;
  auto r = RunWhatIfOnFile(Sample("mlp_gelu.hlo"), "gpu", Parse({}, {"no_such_op:mul.7"}), &failed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failed, WhatIfStage::kOverrides);
  EXPECT_NE(r.status().message().find("no_such_op"), std::string::npos) << r.status().message();
}

TEST(WhatIfTest, FusionNamesMapBackToWhatTheyWrapped) {
  auto s = Session::Load(Sample("mlp_gelu.hlo"));
  ASSERT_TRUE(s.ok());
  RunOptions opts;
  opts.pipeline = "gpu";
  auto run = (*s)->RunPipeline(opts);
  ASSERT_TRUE(run.ok());
  // The first priority_fusion decision that fuses a producer into one
  // unfused instruction makes a fusion that stands for that instruction.
  const FusionDecision* made = nullptr;
  int step = -1;
  for (int k = 0; k < (*run)->size() && !made; ++k)
    for (const FusionDecision& d : (*run)->step(k).decisions)
      if (!made && d.pass == "priority_fusion" && d.verdict == FusionVerdict::kFused && d.consumers.size() == 1 &&
          d.consumers[0].rfind("fusion", 0) != 0 && !d.result.empty() && d.result != d.consumers[0]) {
        made = &d;
        step = k;
      }
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(OverrideNameIn(**run, step, made->result), made->consumers[0]);
  // Before that decision the name meant nothing yet; plain names stay.
  EXPECT_EQ(OverrideNameIn(**run, step, made->result, made), made->result);
  EXPECT_EQ(OverrideNameIn(**run, step, made->producer), made->producer);
}

}  // namespace
}  // namespace hloscope
