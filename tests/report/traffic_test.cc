// HBM traffic per step (core/report/traffic.h): the series of a gpu run on
// the transformer block against the cost model, the fusion step's drop, and
// the SVG chart (one bar group per step, well-formed).
#include "core/report/traffic.h"

#include <gtest/gtest.h>

#include <regex>

#include "core/cost/cost_model.h"
#include "core/cost/device.h"
#include "core/session/session.h"
#include "tests/report/xml_check.h"
#include "tests/support/test_paths.h"

namespace hloscope::report {
namespace {

std::shared_ptr<const PipelineRun> TransformerGpu() {
  static std::shared_ptr<const PipelineRun> run = [] {
    auto s = Session::Load(testing::SamplesDir() + "/transformer_block.hlo");
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok()) return std::shared_ptr<const PipelineRun>();
    RunOptions o;
    o.pipeline = "gpu";
    o.device = "h200";
    auto r = (*s)->RunPipeline(o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : nullptr;
  }();
  return run;
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

TEST(TrafficTest, SeriesFollowsTheCostModel) {
  auto run = TransformerGpu();
  ASSERT_NE(run, nullptr);
  const std::vector<TrafficPoint> s = TrafficSeries(run->steps());
  ASSERT_EQ(static_cast<int>(s.size()), run->size());
  EXPECT_EQ(s.front().step, 0);
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].step, static_cast<int>(i));
    // The split adds up to the module's HBM bytes, both parts non-zero.
    EXPECT_EQ(s[i].bytes(), run->step(static_cast<int>(i)).cost.hbm_bytes) << i;
    EXPECT_GT(s[i].bytes_read, 0) << i;
    EXPECT_GT(s[i].bytes_written, 0) << i;
  }
  const DeviceSpec d = CurrentDevice();
  auto first = run->ModuleAt(0);
  ASSERT_TRUE(first.ok());
  const ModuleCost in = EstimateModule(**first, d);
  EXPECT_EQ(s.front().kernels, in.kernels);
  EXPECT_EQ(s.front().bytes_read, in.bytes_read);
  EXPECT_EQ(s.front().bytes_written, in.bytes_written);
  auto last = run->ModuleAt(run->size() - 1);
  ASSERT_TRUE(last.ok());
  const ModuleCost out = EstimateModule(**last, d);
  EXPECT_EQ(s.back().kernels, out.kernels);
  EXPECT_EQ(s.back().bytes(), out.hbm_bytes);
  EXPECT_LT(s.back().kernels, s.front().kernels);
}

TEST(TrafficTest, PriorityFusionCutsTheTraffic) {
  auto run = TransformerGpu();
  ASSERT_NE(run, nullptr);
  const std::vector<TrafficPoint> s = TrafficSeries(run->steps());
  size_t k = 0;
  for (size_t i = 1; i < s.size(); ++i)
    if (s[i].pass == "priority_fusion") k = i;
  ASSERT_GT(k, 0u) << "no priority_fusion step";
  EXPECT_EQ(s[k].step, 52);  // docs/gui.md: priority_fusion is step 52 of gpu on this sample
  EXPECT_LT(s[k].bytes(), s[k - 1].bytes());
  EXPECT_LT(s[k].bytes_read, s[k - 1].bytes_read);
  EXPECT_LT(s[k].bytes_written, s[k - 1].bytes_written);
  EXPECT_LT(s[k].kernels, s[k - 1].kernels);
}

TEST(TrafficTest, SvgHasOneBarPerStep) {
  auto run = TransformerGpu();
  ASSERT_NE(run, nullptr);
  const std::vector<TrafficPoint> s = TrafficSeries(run->steps());
  const std::string svg = RenderTrafficSvg(s);
  EXPECT_EQ(Count(svg, "<g class=\"traffic-step\">"), s.size());
  EXPECT_EQ(Count(svg, "class=\"read\""), s.size());
  EXPECT_EQ(Count(svg, "class=\"written\""), s.size());
  EXPECT_EQ(Count(svg, "<circle "), s.size());  // the kernel launches
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);         // inline: no XML declaration
  // The biggest change is named above its bar.
  EXPECT_NE(svg.find("class=\"annotation\">priority_fusion -"), std::string::npos);
  EXPECT_EQ(svg.find("http://", svg.find("xmlns") + 40), std::string::npos);
  EXPECT_EQ(CheckXml(svg), "");
  // Every tooltip names its step.
  EXPECT_NE(svg.find("<title>step 0 input: read "), std::string::npos);
}

TEST(TrafficTest, EmptyAndAxis) {
  const std::string svg = RenderTrafficSvg({});
  EXPECT_NE(svg.find("no steps"), std::string::npos);
  EXPECT_EQ(NiceAxisMax(0), 1);
  EXPECT_EQ(NiceAxisMax(7), 10);
  EXPECT_EQ(NiceAxisMax(2.2e9), 2.5e9);
  EXPECT_EQ(NiceAxisMax(100), 100);
  EXPECT_EQ(TrafficBytes(1'250'000'000), "1.25 GB");
  EXPECT_EQ(TrafficBytes(-2048), "-2.0 kB");
  EXPECT_EQ(AxisBytes(20e9), "20 GB");
  EXPECT_EQ(AxisBytes(2.5e6), "2.5 MB");
  EXPECT_EQ(AxisBytes(750e3), "750 kB");
  EXPECT_EQ(AxisBytes(0), "0 B");
}

}  // namespace
}  // namespace hloscope::report
