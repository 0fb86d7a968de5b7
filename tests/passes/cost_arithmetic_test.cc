// The arithmetic behind a fusion decision (cost_arithmetic.h): a golden
// sentence for hand-made numbers, and on a real run (the gpu pipeline on
// samples/transformer_block.hlo) every decision's sentence agrees with the
// numbers the decision recorded.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "core/cost/device.h"
#include "core/passes/cost_arithmetic.h"
#include "tests/passes/pass_test_util.h"
#include "tests/support/test_paths.h"

namespace hloscope {
namespace {

FusionDecision MadeUp() {
  FusionDecision d;
  d.verdict = FusionVerdict::kFused;
  d.hbm_gbs = 4800;
  d.launch_overhead_us = 1;
  d.kernels_before = 2;
  d.read_before = 4'000'000;
  d.bytes_before = 6'000'000;
  d.us_before = 6e6 / 4.8e12 * 1e6 + 2;  // 1.25 + 2
  d.kernels_after = 1;
  d.read_after = 2'000'000;
  d.bytes_after = 4'000'000;
  d.us_after = 4e6 / 4.8e12 * 1e6 + 1;  // 0.833 + 1
  return d;
}

TEST(CostArithmetic, SpellsOutTheCostModel) {
  EXPECT_EQ(CostArithmetic(MadeUp()),
            "Unfused: 2 kernels read 4.00 MB from HBM and write 2.00 MB back; 6.00 MB at 4.8 TB/s ≈ 1.250 µs, plus "
            "2 launches × 1 µs = 2 µs: ≈ 3.250 µs. Fused: 1 kernel reads 2.00 MB from HBM and writes 2.00 MB back; "
            "4.00 MB at 4.8 TB/s ≈ 0.833 µs, plus 1 launch × 1 µs: ≈ 1.833 µs. Fused − unfused: −2.00 MB of HBM "
            "traffic, −1.417 µs (−1 launch).");
}

TEST(CostArithmetic, ComputeBoundTimeAndRefusals) {
  FusionDecision d = MadeUp();
  d.us_before += 0.5;  // a kernel whose arithmetic outlasts its memory traffic
  EXPECT_NE(CostArithmetic(d).find("1.250 µs, plus 0.500 µs of arithmetic, of re-reads, or of reads by too few thread blocks to draw that bandwidth (32 B per clock each), plus 2 "
                                   "launches"),
            std::string::npos)
      << CostArithmetic(d);
  // A refusal that kept things as they were: one side only.
  d = MadeUp();
  d.verdict = FusionVerdict::kNotFused;
  d.kernels_after = d.kernels_before;
  d.read_after = d.read_before;
  d.bytes_after = d.bytes_before;
  d.us_after = d.us_before;
  EXPECT_EQ(CostArithmetic(d),
            "As it stays, unfused: 2 kernels read 4.00 MB from HBM and write 2.00 MB back; 6.00 MB at 4.8 TB/s ≈ "
            "1.250 µs, plus 2 launches × 1 µs = 2 µs: ≈ 3.250 µs.");
  // No breakdown (XLA's own decisions): nothing to spell out.
  EXPECT_EQ(CostArithmetic(FusionDecision{}), "");
  EXPECT_FALSE(HasCostBreakdown(FusionDecision{}));
}

TEST(CostArithmetic, Formats) {
  EXPECT_EQ(FormatDecimalBytes(512), "512 B");
  EXPECT_EQ(FormatDecimalBytes(3072), "3.07 kB");
  EXPECT_EQ(FormatDecimalBytes(25'165'824), "25.2 MB");
  EXPECT_EQ(FormatDecimalBytes(1'200'000'000), "1.20 GB");
  EXPECT_EQ(FormatBandwidth(4800), "4.8 TB/s");
  EXPECT_EQ(FormatBandwidth(3350), "3.35 TB/s");
  EXPECT_EQ(FormatBandwidth(300), "300 GB/s");
  EXPECT_EQ(FormatMicros(0.8744), "0.874");
  EXPECT_EQ(FormatMicros(431.23), "431.2");
}

// Numbers "≈ X µs" closing each side ("…: ≈ 3.250 µs"), in order.
std::vector<double> SideTotals(const std::string& s) {
  std::vector<double> out;
  static const std::regex total(": ≈ ([0-9.]+) µs");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), total); it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1].str()));
  return out;
}

TEST(CostArithmetic, AgreesWithTheRecordedNumbersOnTransformerBlock) {
  SetCurrentDevice(*LoadDevice("h200"));
  const DeviceSpec device = CurrentDevice();
  auto m = ParseHloFile(testing::SamplesDir() + "/transformer_block.hlo");
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto pipeline = PassRegistry::Global().BuildPipeline("gpu");
  ASSERT_TRUE(pipeline.ok());
  StepRecorder recorder;
  (*pipeline)->AddInstrumentation(&recorder);
  ASSERT_TRUE((*pipeline)->Run(**m).ok());
  int checked = 0, fused = 0;
  for (const auto& step : recorder.steps()) {
    for (const FusionDecision& d : step->decisions) {
      if (!HasCostBreakdown(d)) continue;  // e.g. a refused --force without costs
      SCOPED_TRACE(d.pass + " " + d.producer + ": " + d.reason);
      EXPECT_EQ(d.hbm_gbs, device.hbm_bandwidth_gbs);
      EXPECT_EQ(d.launch_overhead_us, device.launch_overhead_us);
      for (bool after : {false, true}) {
        const CostSide s = CostSideOf(d, after);
        EXPECT_EQ(s.read + s.written, after ? d.bytes_after : d.bytes_before);
        EXPECT_GE(s.read, 0);
        EXPECT_GE(s.written, 0);
        EXPECT_DOUBLE_EQ(s.launch_us, static_cast<double>(s.kernels) * device.launch_overhead_us);
        // The recorded µs is memory + launches + what compute-bound kernels
        // add, and that addition is never negative: the breakdown is the
        // cost model's own.
        EXPECT_GE(s.compute_extra_us, -1e-9);
        EXPECT_NEAR(s.memory_us + s.launch_us + s.compute_extra_us, s.total_us, 1e-9);
      }
      const std::string text = CostArithmetic(d);
      ASSERT_FALSE(text.empty());
      // The sentence states the recorded bytes and totals.
      EXPECT_NE(text.find(FormatDecimalBytes(d.bytes_before)), std::string::npos) << text;
      EXPECT_NE(text.find(FormatBandwidth(device.hbm_bandwidth_gbs)), std::string::npos) << text;
      const std::vector<double> totals = SideTotals(text);
      ASSERT_FALSE(totals.empty()) << text;
      EXPECT_NEAR(totals[0], d.us_before, 0.0051 + 0.001 * d.us_before) << text;
      if (totals.size() > 1) {
        EXPECT_NEAR(totals[1], d.us_after, 0.0051 + 0.001 * d.us_after) << text;
        EXPECT_NE(text.find(FormatDecimalBytes(d.bytes_after)), std::string::npos) << text;
      }
      if (d.verdict != FusionVerdict::kNotFused && d.bytes_after != d.bytes_before) ++fused;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
  EXPECT_GT(fused, 5);
}

}  // namespace
}  // namespace hloscope
