// Explanations that teach, in the GUI (issue 30, item 2): the pipeline
// panel shows the selected step's pass paragraph under the steps table and
// in the pass cell's tooltip; the decisions model carries each decision's
// cost arithmetic in its tooltips and kArithmeticRole.
#include <QTextBrowser>
#include <gtest/gtest.h>

#include "core/passes/cost_arithmetic.h"
#include "core/passes/pass_explanations.h"
#include "tests/views/view_test_util.h"
#include "views/decisions/decisions_model.h"
#include "views/pipeline/pipeline_panel.h"

namespace hloscope::views {
namespace {

std::shared_ptr<const PipelineRun> SoftmaxGpu() {
  static std::shared_ptr<const PipelineRun> run = views_test::SampleRun("softmax.hlo");
  return run;
}

TEST(ExplanationsView, PipelinePanelExplainsTheSelectedStep) {
  auto run = SoftmaxGpu();
  ASSERT_NE(run, nullptr);
  PipelinePanel panel;
  panel.setSteps(run->steps());
  ASSERT_NE(panel.explanation(), nullptr);
  EXPECT_TRUE(panel.explanationShown());
  int fusion_step = -1;
  for (int k = 0; k < run->size(); ++k)
    if (run->step(k).pass == "priority_fusion") fusion_step = k;
  ASSERT_GT(fusion_step, 0);
  panel.setCurrentStep(fusion_step);
  const QString shown = panel.explanation()->toPlainText();
  EXPECT_TRUE(shown.startsWith("priority_fusion: ")) << shown.toStdString();
  EXPECT_TRUE(shown.contains("HBM is the warehouse")) << shown.toStdString();
  // The input step has its own sentence.
  panel.setCurrentStep(0);
  EXPECT_TRUE(panel.explanation()->toPlainText().contains("before any pass ran"));
  // The pass cell's tooltip has the paragraph too (rich text, so it wraps).
  const QModelIndex cell = panel.model()->index(fusion_step, StepsModel::kPass);
  const QString tip = panel.model()->data(cell, Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.startsWith("<p>")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("HBM is the warehouse")) << tip.toStdString();
  // Other cells keep the plain summary.
  EXPECT_FALSE(panel.model()->data(panel.model()->index(fusion_step, StepsModel::kMs), Qt::ToolTipRole)
                   .toString()
                   .contains("warehouse"));
  panel.setExplanationShown(false);
  EXPECT_FALSE(panel.explanationShown());
  EXPECT_TRUE(panel.explanation()->isHidden());
}

TEST(ExplanationsView, DecisionTooltipsCarryTheArithmetic) {
  auto run = SoftmaxGpu();
  ASSERT_NE(run, nullptr);
  DecisionsModel model;
  model.setSteps(run->steps(), -1);
  ASSERT_GT(model.rowCount(), 0);
  int with = 0;
  for (int r = 0; r < model.rowCount(); ++r) {
    const FusionDecision* d = model.decision(r);
    ASSERT_NE(d, nullptr);
    const QString a = model.data(model.index(r, 0), DecisionsModel::kArithmeticRole).toString();
    EXPECT_EQ(a.toStdString(), CostArithmetic(*d));
    if (a.isEmpty()) continue;
    ++with;
    const QString reason_tip = model.data(model.index(r, DecisionsModel::kReason), Qt::ToolTipRole).toString();
    EXPECT_TRUE(reason_tip.contains(a.toHtmlEscaped())) << reason_tip.toStdString();
    EXPECT_TRUE(reason_tip.contains(QString::fromStdString(d->reason).toHtmlEscaped()));
    const QString cost_tip = model.data(model.index(r, DecisionsModel::kUsBefore), Qt::ToolTipRole).toString();
    EXPECT_TRUE(cost_tip.contains(a.toHtmlEscaped())) << cost_tip.toStdString();
  }
  EXPECT_GT(with, 0);
}

}  // namespace
}  // namespace hloscope::views
