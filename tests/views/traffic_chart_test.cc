// The HBM traffic chart under the pipeline panel's steps table: one column
// per step, a click selects that step in the panel (and hidden no-op steps
// fall back to the visible one before), the panel's selection shades the
// chart's column, hovering names the step, and a live run grows it step by
// step.
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

#include "tests/views/view_test_util.h"
#include "views/pipeline/pipeline_panel.h"
#include "views/pipeline/traffic_chart.h"

namespace hloscope::views {
namespace {

std::shared_ptr<const PipelineRun> TransformerGpu() {
  static std::shared_ptr<const PipelineRun> run = views_test::SampleRun("transformer_block.hlo");
  return run;
}

int StepOfPass(const PipelineRun& run, const std::string& pass) {
  for (int k = 0; k < run.size(); ++k)
    if (run.step(k).pass == pass) return k;
  return -1;
}

TEST(TrafficChartTest, ClickSelectsTheStep) {
  auto run = TransformerGpu();
  ASSERT_NE(run, nullptr);
  PipelinePanel panel;
  panel.resize(420, 760);
  panel.setSteps(run->steps());
  panel.show();
  QApplication::processEvents();
  TrafficChart* chart = panel.trafficChart();
  ASSERT_NE(chart, nullptr);
  ASSERT_EQ(static_cast<int>(chart->series().size()), run->size());
  ASSERT_GT(chart->width(), 200);
  ASSERT_GE(chart->height(), 100);
  const int k = StepOfPass(*run, "priority_fusion");
  ASSERT_GT(k, 0);
  // Columns tile the plot in step order; each maps back to its own step.
  for (int i = 0; i < run->size(); ++i) EXPECT_EQ(chart->stepAt(chart->stepRect(i).center()), i) << i;
  EXPECT_EQ(chart->stepAt(QPointF(1, chart->height() / 2.0)), -1);  // the axis labels
  QSignalSpy spy(&panel, &PipelinePanel::stepSelected);
  QTest::mouseClick(chart, Qt::LeftButton, {}, chart->stepRect(k).center().toPoint());
  EXPECT_EQ(panel.currentStep(), k);
  EXPECT_EQ(chart->currentStep(), k);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.last().at(0).toInt(), k);
  // The other way: stepping in the panel moves the chart's shaded column.
  panel.stepLast();
  EXPECT_EQ(chart->currentStep(), run->size() - 1);
  // With no-op steps hidden, a click on one selects the visible step before it.
  int noop = -1;
  for (int i = 1; i < run->size() && noop < 0; ++i)
    if (!run->step(i).changed && run->step(i - 1).changed) noop = i;
  ASSERT_GT(noop, 0);
  panel.setHideNoOps(true);
  QTest::mouseClick(chart, Qt::LeftButton, {}, chart->stepRect(noop).center().toPoint());
  EXPECT_EQ(panel.currentStep(), noop - 1);
  EXPECT_EQ(chart->currentStep(), noop - 1);
}

TEST(TrafficChartTest, HoverNamesTheStepAndPaints) {
  auto run = TransformerGpu();
  ASSERT_NE(run, nullptr);
  TrafficChart chart;
  chart.resize(600, 220);
  chart.setSteps(run->steps());
  const int k = StepOfPass(*run, "priority_fusion");
  const QPointF at = chart.stepRect(k).center();
  QMouseEvent move(QEvent::MouseMove, at, chart.mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(&chart, &move);
  EXPECT_EQ(chart.hoveredStep(), k);
  const QString text = chart.describe(k);
  EXPECT_TRUE(text.contains("priority_fusion")) << text.toStdString();
  EXPECT_TRUE(text.contains("read")) << text.toStdString();
  EXPECT_TRUE(text.contains("kernels")) << text.toStdString();
  // The bars are drawn: the picture holds the read and written colours.
  QImage img = chart.grab().toImage();
  bool read = false, written = false;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      read |= c == QColor("#1e88e5");
      written |= c == QColor("#fb8c00");
    }
  EXPECT_TRUE(read);
  EXPECT_TRUE(written);
}

TEST(TrafficChartTest, LiveRunAppendsSteps) {
  auto run = TransformerGpu();
  ASSERT_NE(run, nullptr);
  PipelinePanel panel;
  panel.setSteps({});
  EXPECT_TRUE(panel.trafficChart()->series().empty());
  for (const auto& s : run->steps()) panel.appendStep(s);
  ASSERT_EQ(static_cast<int>(panel.trafficChart()->series().size()), run->size());
  EXPECT_EQ(panel.trafficChart()->series().back().kernels, run->steps().back()->cost.kernels);
  EXPECT_EQ(panel.trafficChart()->series().front().bytes(), run->step(0).cost.hbm_bytes);
}

// The Llama 3.1 8B corpus module (31k instructions, 28 steps of gpu): the
// series and a paint cost the UI thread next to nothing (the cost totals
// come from the step recorder on the pipeline's thread).
TEST(TrafficChartTest, LlamaCorpusModuleIsCheap) {
  const std::string shared = hloscope::testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "no ../shared corpus";
  auto s = Session::Load(shared + "/corpus/xla/tools/benchmarks/hlo/hlo_llama31_8b_bf16_1x8.hlo");
  ASSERT_TRUE(s.ok()) << s.status().message();
  RunOptions o;
  o.pipeline = "gpu";
  auto run = (*s)->RunPipeline(o);
  ASSERT_TRUE(run.ok()) << run.status().message();
  TrafficChart chart;
  chart.resize(420, 200);
  QElapsedTimer t;
  t.start();
  chart.setSteps((*run)->steps());
  const double series_ms = t.nsecsElapsed() / 1e6;
  t.restart();
  QImage img = chart.grab().toImage();
  const double paint_ms = t.nsecsElapsed() / 1e6;
  std::printf("Llama 8B: %d steps, series %.3f ms, paint %.2f ms; step 0 %lld kernels %lld B, last %lld kernels %lld B\n",
              (*run)->size(), series_ms, paint_ms, static_cast<long long>(chart.series().front().kernels),
              static_cast<long long>(chart.series().front().bytes()),
              static_cast<long long>(chart.series().back().kernels),
              static_cast<long long>(chart.series().back().bytes()));
  EXPECT_EQ(static_cast<int>(chart.series().size()), (*run)->size());
  EXPECT_LT(series_ms + paint_ms, 50);
}

}  // namespace
}  // namespace hloscope::views
