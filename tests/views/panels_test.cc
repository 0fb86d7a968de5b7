// The panels on their own: pipeline stepping with hidden no-ops, details
// links, the timeline's hit testing, click and highlight, the text panel's
// selected line and diff.
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTextBrowser>
#include <gtest/gtest.h>

#include "core/session/session.h"
#include "tests/support/test_paths.h"
#include "tests/views/view_test_util.h"
#include "views/details/details_panel.h"
#include "views/pipeline/pipeline_panel.h"
#include "views/text/text_panel.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::views {
namespace {

std::shared_ptr<const PipelineRun> SoftmaxGpu() {
  static std::shared_ptr<const PipelineRun> run = views_test::SampleRun("softmax.hlo");
  return run;
}

int LastChanged(const PipelineRun& run) {
  int k = 0;
  for (int i = 1; i < run.size(); ++i)
    if (run.step(i).changed) k = i;
  return k;
}

TEST(PipelinePanelTest, SteppingSkipsHiddenNoOps) {
  auto run = SoftmaxGpu();
  PipelinePanel panel;
  QSignalSpy spy(&panel, &PipelinePanel::stepSelected);
  panel.setSteps(run->steps());
  panel.stepLast();
  EXPECT_EQ(panel.currentStep(), run->size() - 1);
  panel.setHideNoOps(true);
  // The last step may be a no-op: the selection moves to a visible one.
  EXPECT_EQ(panel.currentStep(), run->step(run->size() - 1).changed ? run->size() - 1 : LastChanged(*run));
  panel.stepFirst();
  EXPECT_EQ(panel.currentStep(), 0);
  panel.stepForward();
  int first_changed = 1;
  while (!run->step(first_changed).changed) ++first_changed;
  EXPECT_EQ(panel.currentStep(), first_changed);
  panel.stepBack();
  EXPECT_EQ(panel.currentStep(), 0);
  EXPECT_GE(spy.count(), 4);
  EXPECT_EQ(spy.last().at(0).toInt(), 0);
}

TEST(PipelinePanelTest, RunRequestCarriesChoices) {
  PipelinePanel panel;
  QSignalSpy spy(&panel, &PipelinePanel::runRequested);
  panel.setPipeline("custom");
  panel.setCustomPasses({"dce", "cse"});
  panel.setDevice("a100_80gb");
  panel.requestRun();
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).toString(), "custom");
  EXPECT_EQ(spy.at(0).at(1).toStringList(), panel.customPasses());
  EXPECT_EQ(panel.customPasses().size(), 2);
  EXPECT_EQ(spy.at(0).at(2).toString(), "a100_80gb");
  panel.setRunning(true);
  panel.requestRun();
  EXPECT_EQ(spy.count(), 1);  // not while running
}

TEST(DetailsPanelTest, ShowsInstructionAndLinksSelectOperands) {
  auto run = SoftmaxGpu();
  const int k = run->size() - 1;
  ASSERT_TRUE(run->ModuleAt(k).ok());
  const ModuleSnapshot& snap = *run->step(k).module;
  const InstructionRecord* with_operand = nullptr;
  for (const auto& r : snap.instructions)
    if (!r.operands.empty()) with_operand = &r;
  ASSERT_NE(with_operand, nullptr);
  DetailsPanel panel;
  panel.setStep(run, k);
  panel.setInstruction(with_operand->id);
  const QString text = panel.plainText();
  EXPECT_TRUE(text.contains(QString::fromStdString("%" + with_operand->name)));
  EXPECT_TRUE(text.contains("shape"));
  EXPECT_TRUE(text.contains("operands"));
  EXPECT_TRUE(panel.html().contains(QString("inst:%1").arg(with_operand->operands[0])));
  QSignalSpy spy(&panel, &DetailsPanel::instructionActivated);
  auto* browser = panel.findChild<QTextBrowser*>();
  ASSERT_NE(browser, nullptr);
  emit browser->anchorClicked(QUrl(QString("inst:%1").arg(with_operand->operands[0])));
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).toLongLong(), with_operand->operands[0]);
}

TEST(DetailsPanelTest, FusionDecisionsOfAProducer) {
  auto run = SoftmaxGpu();
  const FusionDecision* d = nullptr;
  int step = -1;
  for (const auto& s : run->steps())
    if (!s->decisions.empty() && !d) d = &s->decisions[0], step = s->index;
  ASSERT_NE(d, nullptr);
  // The producer exists in the step before the decision.
  const int k = step - 1;
  ASSERT_TRUE(run->ModuleAt(k).ok());
  ASSERT_NE(run->step(k).module->Find(d->producer_id), nullptr);
  QString html = InstructionDetailsHtml(*run, k, d->producer_id);
  EXPECT_TRUE(html.contains(QString::fromStdString(d->reason).toHtmlEscaped())) << html.toStdString();
  EXPECT_TRUE(html.contains(FusionVerdictName(d->verdict)));
}

TEST(TimelineTest, HitTestClickAndHighlight) {
  auto run = SoftmaxGpu();
  const int k = run->size() - 1;
  auto ba = run->BuffersAt(k);
  ASSERT_TRUE(ba.ok());
  TimelineWidget w;
  w.resize(800, 400);
  w.setAssignment(*ba, run->step(k).module);
  EXPECT_TRUE(w.summary().contains("peak"));
  // Find a buffer whose centre hits it.
  int hit = -1;
  for (int i = 0; i < static_cast<int>((*ba)->buffers.size()) && hit < 0; ++i)
    if (w.bufferAt(w.bufferRect(i).center()) == i) hit = i;
  ASSERT_GE(hit, 0);
  QSignalSpy spy(&w, &TimelineWidget::instructionSelected);
  const QPointF c = w.bufferRect(hit).center();
  QMouseEvent press(QEvent::MouseButtonPress, c, w.mapToGlobal(c), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
  QMouseEvent release(QEvent::MouseButtonRelease, c, w.mapToGlobal(c), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &press);
  QApplication::sendEvent(&w, &release);
  ASSERT_EQ(spy.count(), 1);
  const int64_t id = spy.at(0).at(0).toLongLong();
  EXPECT_EQ(run->step(k).module->Find(id)->name, (*ba)->buffers[hit].instruction);
  auto hi = w.highlightedBuffers();
  EXPECT_NE(std::find(hi.begin(), hi.end(), hit), hi.end());
  for (int b : hi) EXPECT_EQ((*ba)->buffers[b].instruction, (*ba)->buffers[hit].instruction);
  // Zoom keeps the anchor and paints.
  w.zoomBy(4, 300);
  EXPECT_DOUBLE_EQ(w.zoom(), 4);
  EXPECT_FALSE(w.grab().isNull());
  w.setMessage("x");
  EXPECT_EQ(w.assignment(), nullptr);
}

TEST(TextPanelTest, SelectedLineAndDiff) {
  auto run = SoftmaxGpu();
  int k = 1;
  while (k < run->size() && !run->step(k).changed) ++k;
  ASSERT_LT(k, run->size());
  TextPanel panel;
  panel.setStep(run, k);
  EXPECT_EQ(panel.hloText().toStdString(), run->step(k).module->text);
  ASSERT_TRUE(views_test::WaitUntil([&] { return !panel.diffPending(); }));
  EXPECT_TRUE(panel.diffText().startsWith("--- step")) << panel.diffText().left(100).toStdString();
  EXPECT_TRUE(panel.diffText().contains("\n@@ "));
  const InstructionRecord& last = run->step(k).module->instructions.back();
  panel.setInstruction(last.id);
  ASSERT_GE(panel.selectedLine(), 0);
  const QString line = panel.hloText().split('\n').at(panel.selectedLine());
  EXPECT_TRUE(line.contains(QString::fromStdString(last.name))) << line.toStdString();
  panel.setStep(run, 0);
  ASSERT_TRUE(views_test::WaitUntil([&] { return !panel.diffPending(); }));
  EXPECT_TRUE(panel.diffText().contains("input"));
}

}  // namespace
}  // namespace hloscope::views
