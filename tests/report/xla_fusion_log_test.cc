// XLA GPU's priority fusion log (core/report/xla_fusion_log.h) and the
// decision diff against ours (core/report/decisions_diff.h): inline logs for
// each step kind and each error, then every committed XLA GPU reference,
// whose step counts are checked against a plain line count of the file (not
// against the parser being tested) and whose names must all be instructions
// of the module XLA's priority fusion ran on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "core/report/decisions_diff.h"
#include "core/report/xla_dump.h"
#include "core/support/proto_text.h"
#include "core/report/xla_fusion_log.h"
#include "core/session/session.h"
#include "tests/support/test_paths.h"

namespace hloscope::report {
namespace {
namespace fs = std::filesystem;

constexpr const char* kLog = R"pb(fusion_steps {
  update_priority {
    producer_name: "iota.8.0"
    consumer_names: "ge.0.0"
    consumer_names: "ge.1.0"
    us_fused: 1.004
    us_unfused: 2.008
  }
}
fusion_steps {
  producer_ineligible {
    producer_name: "gemm_fusion_dot"
    reason: "not fusing because there are only bitcast users"
  }
}
fusion_steps {
  fusion {
    fusion_name: "fusion.18"
    producer_name: "iota.8.0"
    consumer_name: "ge.0.0"
  }
}
fusion_steps {
  producer_ineligible {
    producer_name: "fusion.18"
    reason: "No users to fuse"
  }
}
fusion_steps {
  some_future_step { producer_name: "x" weight: 3 }
}
# a comment
gpu_device_info {
  core_count: 132
  memory_bandwidth: 3352320000000
  cuda_compute_capability { major: 9 }
}
)pb";

TEST(XlaFusionLog, ReadsEveryStepKind) {
  auto log = ParseXlaFusionLog(kLog, "log.txt");
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_EQ(log->steps.size(), 5u);
  EXPECT_EQ(log->steps[0].kind, XlaFusionStep::Kind::kUpdatePriority);
  EXPECT_EQ(log->steps[0].consumers, (std::vector<std::string>{"ge.0.0", "ge.1.0"}));
  EXPECT_DOUBLE_EQ(log->steps[0].us_unfused, 2.008);
  EXPECT_EQ(log->steps[1].reason, "not fusing because there are only bitcast users");
  EXPECT_EQ(log->steps[2].kind, XlaFusionStep::Kind::kFusion);
  EXPECT_EQ(log->steps[2].fusion_name, "fusion.18");
  EXPECT_EQ(log->steps[2].line, 16);
  EXPECT_EQ(log->steps[4].kind, XlaFusionStep::Kind::kUnknown);
  EXPECT_EQ(log->steps[4].kind_name, "some_future_step");
  EXPECT_EQ(log->steps[4].producer, "x");
  EXPECT_NE(log->steps[4].raw.find("weight: 3"), std::string::npos);
  EXPECT_EQ(log->device.at("core_count"), "132");
  EXPECT_EQ(log->count(XlaFusionStep::Kind::kProducerIneligible), 2);

  auto producers = SummarizeXlaFusionLog(*log);
  ASSERT_EQ(producers.size(), 4u);
  EXPECT_EQ(producers[0].producer, "iota.8.0");
  EXPECT_TRUE(producers[0].fused);
  EXPECT_EQ(producers[0].fused_into, (std::vector<std::string>{"ge.0.0"}));
  EXPECT_TRUE(producers[0].has_priority);
  EXPECT_FALSE(producers[1].fused);
  EXPECT_EQ(producers[1].Explanation(), "not fusing because there are only bitcast users");
  EXPECT_EQ(producers[2].producer, "fusion.18");
}

// XLA logs an update_priority in full only when the producer is new or has
// changed; otherwise only the consumers that changed, as a difference (the
// train step's residual stream, fusion.93, goes from +0.915 us to -0.49 us
// that way). The priority is the running sum.
TEST(XlaFusionLog, IncrementalPrioritiesAddUp) {
  auto log = ParseXlaFusionLog(R"pb(
fusion_steps { update_priority { producer_name: "p" consumer_names: "a" us_fused: 5.0 us_unfused: 6.0 } }
fusion_steps { update_priority { producer_name: "p" consumer_names: "a" consumer_names: "b" us_fused: 2.7 us_unfused: 2.0 } }
fusion_steps { update_priority { producer_name: "p" consumer_names: "a" consumer_names: "c" us_fused: 1.5 us_unfused: 1.0 } }
fusion_steps { update_priority { producer_name: "q" consumer_names: "r" us_fused: 1.0 us_unfused: 1.5 } }
fusion_steps { fusion { fusion_name: "q" producer_name: "s" consumer_name: "q" } }
fusion_steps { update_priority { producer_name: "q" consumer_names: "r" us_fused: 2.0 us_unfused: 2.25 } }
fusion_steps { update_priority { producer_name: "t" consumer_names: "u" us_fused: 5.0 us_unfused: 6.0 } }
fusion_steps { update_priority { producer_name: "t" consumer_names: "v" us_fused: 2.2 us_unfused: 2.0 } }
)pb", "log");
  ASSERT_TRUE(log.ok()) << log.status().message();
  auto ds = SummarizeXlaFusionLog(*log);
  ASSERT_EQ(ds.size(), 4u);
  EXPECT_EQ(ds[0].producer, "p");
  EXPECT_NEAR(ds[0].priority_us, 1.0 - 0.7 - 0.5, 1e-9);  // full, then two differences
  EXPECT_NE(ds[0].Explanation().find("would not save time"), std::string::npos) << ds[0].Explanation();
  EXPECT_NE(ds[0].Explanation().find("-0.200"), std::string::npos) << ds[0].Explanation();
  EXPECT_EQ(ds[1].producer, "q");
  EXPECT_NEAR(ds[1].priority_us, 0.25, 1e-9);  // `s` was fused into it: estimated afresh
  EXPECT_EQ(ds[1].Explanation().find("would not save time"), std::string::npos) << ds[1].Explanation();
  // Its last (partial) estimate costs more fused, but the priority stays positive.
  EXPECT_EQ(ds[3].producer, "t");
  EXPECT_NEAR(ds[3].priority_us, 0.8, 1e-9);
  EXPECT_EQ(ds[3].Explanation().find("would not save time"), std::string::npos) << ds[3].Explanation();
}

TEST(XlaFusionLog, MalformedAndTruncatedLogsAreLocated) {
  struct Case {
    std::string text, where, what;
  };
  const std::vector<Case> cases = {
      {"fusion_steps {\n  fusion {\n    producer_name: \"a\"\n", "log:2:10", "unterminated message 'fusion'"},
      {"fusion_steps {\n  update_priority { producer_name: \"a\" us_fused: fast }\n}\n", "log:2:40",
       "expects a number"},
      {"fusion_steps {\n  producer_ineligible { reason: \"r\" }\n}\n", "log:2:3", "without a producer_name"},
      {"fusion_steps {\n  fusion { producer_name: \"a\" }\n}\n", "log:2:3", "without a consumer_name"},
      {"fusion_steps {\n  fusion { producer_name: \"a\n", "log:2:27", "unterminated string"},
      {"fusion_steps {\n  = }\n", "log:2:3", "expected a field name"},
      {"fusion_steps {\n  fusion producer_name: \"a\" }\n", "log:2:10", "expected ':' or '{'"},
  };
  for (const Case& c : cases) {
    auto log = ParseXlaFusionLog(c.text, "log");
    ASSERT_FALSE(log.ok()) << c.text;
    EXPECT_EQ(log.status().message().rfind(c.where + ": error: ", 0), 0u) << log.status().message();
    EXPECT_NE(log.status().message().find(c.what), std::string::npos) << log.status().message();
  }
}

TEST(ProtoText, NestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "a {";
  auto r = ParseProtoText(deep, "deep");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nested deeper"), std::string::npos);
}

// Steps counted without the parser: lines that open a top-level step.
int64_t CountStepLines(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  int64_t n = 0;
  while (std::getline(f, line))
    if (line == "fusion_steps {") ++n;
  return n;
}

std::vector<std::string> ReferenceStems() {
  std::vector<std::string> stems;
  for (const auto& e : fs::directory_iterator(testing::SamplesDir() + "/xla_gpu"))
    if (e.is_directory()) stems.push_back(e.path().filename().string());
  std::sort(stems.begin(), stems.end());
  return stems;
}

TEST(XlaFusionLog, EveryCommittedReferenceReadsAndResolves) {
  auto stems = ReferenceStems();
  ASSERT_GE(stems.size(), 15u);
  for (const std::string& stem : stems) {
    const std::string dir = testing::SamplesDir() + "/xla_gpu/" + stem;
    auto pf = LoadXlaPriorityFusion(dir);
    ASSERT_TRUE(pf.ok()) << stem << ": " << pf.status().message();
    EXPECT_EQ(static_cast<int64_t>(pf->log.steps.size()), CountStepLines(dir + "/priority_fusion_dump.txt")) << stem;
    EXPECT_TRUE(pf->unresolved.empty()) << stem << ": " << pf->unresolved.size() << " unresolved, first "
                                        << (pf->unresolved.empty() ? "" : pf->unresolved.front());
    EXPECT_GT(pf->names, 0) << stem;
    ASSERT_TRUE(pf->before && pf->before->entry()) << stem;
    // The module after it is the one named for priority fusion, unless it changed nothing.
    if (pf->log.count(XlaFusionStep::Kind::kFusion) > 0)
      EXPECT_NE(pf->after_label.find("after_priority-fusion"), std::string::npos) << pf->after_label;
    // Every fusion step's result is the consumer or a new fusion, and every
    // producer resolves to an instruction of the module priority fusion ran on.
    std::set<std::string> before;
    for (const auto& c : pf->before->computations())
      for (const auto& i : c->instructions()) before.insert(i->name());
    for (const auto& d : pf->producers) EXPECT_TRUE(before.count(d.origin)) << stem << ": " << d.producer;
  }
}

TEST(XlaFusionLog, AFolderWithoutALogSaysSo) {
  fs::path dir = fs::temp_directory_path() / "hloscope_no_fusion_log";
  fs::create_directories(dir);
  std::ofstream(dir / "module_0001.m.before_optimizations.txt") << "HloModule m\nENTRY e { ROOT p = f32[] parameter(0) }\n";
  auto pf = LoadXlaPriorityFusion(dir.string());
  ASSERT_FALSE(pf.ok());
  EXPECT_NE(pf.status().message().find("no priority_fusion_dump.txt"), std::string::npos) << pf.status().message();
  fs::remove_all(dir);
}

StatusOr<DecisionsDiff> DiffSample(const std::string& stem) {
  auto spec = LoadDevice("h100_sxm");
  if (!spec.ok()) return spec.status();
  SetCurrentDevice(*spec);
  ASSIGN_OR_RETURN(auto session, Session::Load(testing::SamplesDir() + "/" + stem + ".hlo"));
  RunOptions opts;
  opts.pipeline = "gpu";
  opts.device = "h100_sxm";
  ASSIGN_OR_RETURN(auto run, session->RunPipeline(opts));
  ASSIGN_OR_RETURN(auto xla, LoadXlaPriorityFusion(testing::SamplesDir() + "/xla_gpu/" + stem));
  return DiffDecisions(*run, xla);
}

TEST(DecisionsDiff, TotalsAddUpAndDisagreementsComeFirst) {
  for (const char* stem : {"softmax", "layer_norm", "transformer_block", "attention"}) {
    auto d = DiffSample(stem);
    ASSERT_TRUE(d.ok()) << stem << ": " << d.status().message();
    const auto& t = d->totals;
    EXPECT_EQ(t.producers, t.agree + t.disagree + t.only_ours + t.only_xla) << stem;
    EXPECT_EQ(t.producers, static_cast<int64_t>(d->producers.size())) << stem;
    EXPECT_GT(t.agree + t.disagree, 0) << stem << ": no producer matched across the two sides";
    EXPECT_EQ(d->xla_steps, CountStepLines(testing::SamplesDir() + "/xla_gpu/" + stem + "/priority_fusion_dump.txt"));
    bool seen_other = false;
    for (const auto& p : d->producers) {
      bool disagree = p.ours.present && p.xla.present && !p.agree;
      if (!disagree) seen_other = true;
      EXPECT_FALSE(disagree && seen_other) << stem << ": disagreement " << p.producer << " after other rows";
    }
    auto j = nlohmann::json::parse(DecisionsDiffToJson(*d));
    EXPECT_EQ(j["totals"]["producers"], t.producers);
    EXPECT_EQ(j["xla_steps"], d->xla_steps);
    ASSERT_FALSE(j["producers"].empty());
    for (const auto& p : j["producers"]) {
      ASSERT_TRUE(p.contains("ours") && p.contains("xla") && p.contains("agree"));
      if (!p["xla"].is_null()) EXPECT_TRUE(p["xla"].contains("us_unfused"));
    }
  }
}

}  // namespace
}  // namespace hloscope::report

namespace hloscope::report {
namespace {

std::string ReadAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// XLA GPU's buffer assignment has no live ranges; they are derived from the
// scheduled after_optimizations beside it. Checked against what XLA itself
// decided: two values XLA put at overlapping bytes of one allocation must
// not be live at the same time (touching at one position is an in-place
// hand-over), and the lower bound never exceeds XLA's temp heap.
TEST(XlaBufferTimeline, LiveRangesFromTheScheduleAgreeWithXlasPacking) {
  for (const auto& e : fs::directory_iterator(testing::SamplesDir() + "/xla_gpu")) {
    if (!e.is_directory()) continue;
    const std::string stem = e.path().filename().string();
    SCOPED_TRACE(stem);
    // The derived ranges (the file alone, as a dump without live_range.txt).
    auto ba = ParseXlaBufferAssignment(ReadAll(e.path() / "buffer_assignment.txt"), "ba");
    ASSERT_TRUE(ba.ok()) << ba.status().message();
    auto m = ParseHloFile((e.path() / "after_optimizations.txt").string());
    ASSERT_TRUE(m.ok()) << m.status().message();
    ASSERT_TRUE(DeriveXlaLiveRanges(**m, &*ba).ok());
    EXPECT_EQ(ba->sequence.size(), (*m)->entry()->instructions().size());
    EXPECT_EQ(ba->live_bytes.size(), ba->sequence.size() + 1);  // and "after the program"
    EXPECT_LE(ba->lower_bound_bytes, ba->peak_bytes);
    bool temps = false;
    for (const auto& b : ba->buffers) temps |= b.kind == BufferKind::kTemp;
    if (temps) EXPECT_GT(ba->lower_bound_bytes, 0);
    int64_t spanning = 0, clashes = 0;
    for (const auto& b : ba->buffers)
      if (b.kind == BufferKind::kTemp && b.start == 0 && b.end >= static_cast<int64_t>(ba->sequence.size()) - 1) ++spanning;
    for (const auto& a : ba->allocations)
      for (size_t x = 0; x < a.buffers.size(); ++x)
        for (size_t y = x + 1; y < a.buffers.size(); ++y) {
          const AssignedBuffer& p = ba->buffers[a.buffers[x]];
          const AssignedBuffer& q = ba->buffers[a.buffers[y]];
          const bool bytes = p.offset < q.offset + q.bytes && q.offset < p.offset + p.bytes;
          const bool time = p.start < q.end && q.start < p.end;
          if (bytes && time) ++clashes;
        }
    EXPECT_EQ(clashes, 0) << "values XLA packed into the same bytes are live at once";
    EXPECT_EQ(spanning, 0) << "temporaries spanning the whole program: live ranges not derived";
  }
}

}  // namespace
}  // namespace hloscope::report

namespace hloscope::report {
namespace {

// The derivation against XLA's own HloLiveRange (live_range.txt, which the
// references keep and which is what the timeline shows when present). The
// text does not say where XLA scheduled the get-tuple-elements it elides
// (`%x#N`) nor how it flattens while bodies into the sequence, so the
// derivation is exact only without those; with elided elements the lower
// bound stays within 5%; with while loops it is not compared.
TEST(XlaBufferTimeline, DerivedLiveRangesAgainstXlasOwn) {
  int compared = 0, exact = 0;
  for (const auto& e : fs::directory_iterator(testing::SamplesDir() + "/xla_gpu")) {
    if (!e.is_directory() || !fs::exists(e.path() / "live_range.txt")) continue;
    SCOPED_TRACE(e.path().filename().string());
    auto xla = ReadXlaBufferAssignment((e.path() / "buffer_assignment.txt").string());  // with live_range.txt
    auto derived = ParseXlaBufferAssignment(ReadAll(e.path() / "buffer_assignment.txt"), "ba");
    auto m = ParseHloFile((e.path() / "after_optimizations.txt").string());
    ASSERT_TRUE(xla.ok() && derived.ok() && m.ok());
    ASSERT_FALSE(xla->sequence.empty()) << "XLA's live_range.txt was not read";
    ASSERT_TRUE(DeriveXlaLiveRanges(**m, &*derived).ok());
    ++compared;
    bool elided = false, loops = false;
    for (const auto& c : (*m)->computations())
      for (const auto& i : c->instructions()) {
        elided |= i->implicit_tuple_element();
        loops |= i->opcode() == Opcode::kWhile;
      }
    if (loops) continue;
    if (elided) {
      EXPECT_NEAR(static_cast<double>(derived->lower_bound_bytes), static_cast<double>(xla->lower_bound_bytes),
                  0.05 * static_cast<double>(xla->lower_bound_bytes));
      continue;
    }
    ++exact;
    EXPECT_EQ(derived->sequence, xla->sequence);
    ASSERT_EQ(derived->buffers.size(), xla->buffers.size());
    for (size_t i = 0; i < xla->buffers.size(); ++i) {
      const auto& x = xla->buffers[i];
      if (x.kind != BufferKind::kTemp) continue;
      EXPECT_EQ(derived->buffers[i].start, x.start) << x.instruction;
      EXPECT_EQ(derived->buffers[i].end, x.end) << x.instruction;
    }
    EXPECT_EQ(derived->lower_bound_bytes, xla->lower_bound_bytes);
  }
  EXPECT_GE(compared, 15) << "references without live_range.txt";
  EXPECT_GE(exact, 10);
}

}  // namespace
}  // namespace hloscope::report
