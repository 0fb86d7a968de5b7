// XLA GPU's own fusion decisions in the GUI: a committed XLA GPU reference
// folder (samples/xla_gpu/transformer_block) opened as an XLA dump run shows
// XLA's priority fusion decisions at its priority fusion step (the decisions
// panel, the graph's refusal marks, the details' log lines); a dump without
// the log says so in one line; our `gpu` run of the same module paired with
// it lists our decisions against XLA's, disagreements first.
#include <QAbstractItemModelTester>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QSortFilterProxyModel>
#include <gtest/gtest.h>

#include "app/gui/main_window.h"
#include "core/report/decisions_diff.h"
#include "core/report/xla_fusion_log.h"
#include "tests/support/test_paths.h"
#include "tests/views/view_test_util.h"
#include "views/decisions/decisions_panel.h"
#include "views/decisions/xla_decisions.h"
#include "views/details/details_panel.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_view.h"

namespace hloscope::gui {
namespace {

using views_test::WaitUntil;

constexpr MainWindowOptions kOptions{.persist_settings = false, .dialogs = false, .auto_run = true};
constexpr const char* kBitcastRefusal = "not fusing because there are only bitcast users";

QString Sample(const char* name) { return QString::fromStdString(hloscope::testing::SamplesDir()) + "/" + name; }

bool Idle(MainWindow& w) { return WaitUntil([&] { return !w.busy() && w.run() && w.shownStep() >= 0; }); }

const report::XlaPriorityFusion& Reference() {
  static const auto* pf = [] {
    auto r = report::LoadXlaPriorityFusion(Sample("xla_gpu/transformer_block").toStdString());
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? new report::XlaPriorityFusion(std::move(*r)) : nullptr;
  }();
  return *pf;
}

// A producer XLA refused with kBitcastRefusal.
std::string BitcastRefused() {
  for (const auto& p : Reference().producers)
    if (!p.fused && p.reason == kBitcastRefusal) return p.producer;
  return {};
}

// The graph's node items (not ghosts) by instruction id.
std::vector<views::NodeItem*> Nodes(views::GraphView* g) {
  std::vector<views::NodeItem*> out;
  auto* view = g->findChild<QGraphicsView*>();
  if (!view || !view->scene()) return out;
  for (QGraphicsItem* i : view->scene()->items())
    if (auto* n = dynamic_cast<views::NodeItem*>(i); n && !n->ghost()) out.push_back(n);
  return out;
}

TEST(XlaDecisionsTest, ReferenceFolderShowsXlaDecisionsAtPriorityFusion) {
  const report::XlaPriorityFusion& pf = Reference();
  ASSERT_FALSE(pf.producers.empty());
  const std::string refused = BitcastRefused();
  ASSERT_FALSE(refused.empty()) << "the reference's log has no \"" << kBitcastRefusal << "\"";

  MainWindow w(kOptions);
  w.graph()->setReadableFirstView(false);  // every node drawn, so the marked ones are items
  w.resize(1400, 900);
  w.show();
  w.openFile(Sample("xla_gpu/transformer_block"));  // a folder: opened as an XLA dump
  ASSERT_TRUE(Idle(w)) << w.busyReason().toStdString();
  ASSERT_TRUE(w.lastError().isEmpty()) << w.lastError().toStdString();
  const auto run = w.run();
  EXPECT_EQ(run->name(), "xla-dump");
  EXPECT_EQ(run->step(0).pass, "before_optimizations");
  EXPECT_EQ(run->steps().back()->pass, "after_optimizations");
  ASSERT_TRUE(w.xlaDecisions()) << w.xlaDecisionsError().toStdString();
  const views::XlaDecisions& xla = *w.xlaDecisions();
  ASSERT_GT(xla.step, 0);
  EXPECT_NE(run->step(xla.step).pass.find("after_priority-fusion"), std::string::npos) << run->step(xla.step).pass;
  EXPECT_EQ(xla.decisions.size(), pf.producers.size());

  // At another step: no rows (XLA's files carry no decisions), a note saying where they are.
  views::DecisionsPanel* panel = w.decisionsPanel();
  QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(w.shownStep(), run->size() - 1);
  EXPECT_EQ(panel->model()->rowCount(), 0);
  EXPECT_TRUE(panel->noteText().contains(QString("are at step %1").arg(xla.step))) << panel->noteText().toStdString();
  EXPECT_TRUE(w.graph()->highlighted("refused").empty());

  // At the priority fusion step: one row per producer of XLA's log, in XLA's words.
  w.selectStep(xla.step);
  ASSERT_TRUE(Idle(w));
  ASSERT_EQ(panel->model()->rowCount(), static_cast<int>(pf.producers.size()));
  EXPECT_TRUE(panel->noteText().startsWith("XLA's own priority fusion decisions")) << panel->noteText().toStdString();
  int refusal_row = -1, fused = 0;
  for (int r = 0; r < panel->model()->rowCount(); ++r) {
    auto cell = [&](int c) { return panel->model()->data(panel->model()->index(r, c)).toString(); };
    EXPECT_EQ(cell(views::DecisionsModel::kPass), views::kXlaPriorityFusionPass);
    EXPECT_EQ(cell(views::DecisionsModel::kProducer).toStdString(), pf.producers[r].producer);
    fused += cell(views::DecisionsModel::kVerdict) == "fused";
    if (cell(views::DecisionsModel::kProducer).toStdString() == refused) {
      refusal_row = r;
      EXPECT_EQ(cell(views::DecisionsModel::kVerdict), "not fused");
      EXPECT_EQ(cell(views::DecisionsModel::kReason), kBitcastRefusal);
    }
    if (pf.producers[r].has_priority) {
      EXPECT_EQ(cell(views::DecisionsModel::kUsBefore), QString::number(pf.producers[r].us_unfused, 'f', 3));
      EXPECT_EQ(cell(views::DecisionsModel::kUsAfter), QString::number(pf.producers[r].us_fused, 'f', 3));
    } else {
      EXPECT_EQ(cell(views::DecisionsModel::kUsAfter), "–");
    }
  }
  ASSERT_GE(refusal_row, 0);
  EXPECT_EQ(fused, xla.fused);
  panel->setTextFilter(kBitcastRefusal);
  EXPECT_GT(panel->visibleRows(), 0);
  panel->setTextFilter({});

  // The graph marks XLA's refusals, XLA's reason in the tooltip.
  const int64_t id = run->IdOfName(xla.step, refused);
  ASSERT_GE(id, 0);
  ASSERT_TRUE(WaitUntil([&] { return !w.graph()->busy() && !w.graph()->highlighted("refused").empty(); }));
  const auto marked = w.graph()->highlighted("refused");
  EXPECT_NE(std::find(marked.begin(), marked.end(), id), marked.end());
  bool tooltip = false;
  for (views::NodeItem* n : Nodes(w.graph()))
    if (n->id() == id) tooltip = n->refusalMark() && n->toolTip().contains(kBitcastRefusal);
  EXPECT_TRUE(tooltip);

  // Activating XLA's row selects the producer; the details quote XLA's log.
  panel->activateRow(refusal_row);
  EXPECT_EQ(w.selectedInstruction(), id);
  const QString details = w.detailsPanel()->plainText();
  EXPECT_TRUE(details.contains("XLA's priority fusion log naming it")) << details.toStdString();
  EXPECT_TRUE(details.contains(QString::fromStdString("producer_ineligible: " + refused + ": " + kBitcastRefusal)))
      << details.toStdString();
  const std::vector<int> naming = report::XlaStepsNaming(pf, refused);
  EXPECT_TRUE(details.contains(QString("XLA's priority fusion log naming it (%1)").arg(naming.size())));

  // Leaving the step drops the marks.
  w.selectStep(run->size() - 1);
  ASSERT_TRUE(Idle(w));
  ASSERT_TRUE(WaitUntil([&] { return !w.graph()->busy(); }));
  EXPECT_TRUE(w.graph()->highlighted("refused").empty());
}

// A dump without priority_fusion_dump.txt (here XLA CPU's): a one-line note,
// no error.
TEST(XlaDecisionsTest, DumpWithoutTheLogShowsANote) {
  MainWindow w(kOptions);
  w.show();
  w.openXlaDump(QString(HLOSCOPE_SOURCE_DIR) + "/tests/report/data/xla_dump_softmax", "jit_softmax");
  ASSERT_TRUE(Idle(w));
  EXPECT_FALSE(w.xlaDecisions());
  EXPECT_TRUE(w.xlaDecisionsError().contains("priority_fusion_dump")) << w.xlaDecisionsError().toStdString();
  const QString note = w.decisionsPanel()->noteText();
  EXPECT_TRUE(note.startsWith("No XLA decisions: ")) << note.toStdString();
  EXPECT_FALSE(note.contains('\n'));
  EXPECT_TRUE(w.lastError().isEmpty()) << w.lastError().toStdString();
  // Opening a module file drops the note.
  w.openFile(Sample("softmax.hlo"));
  ASSERT_TRUE(Idle(w));
  EXPECT_TRUE(w.decisionsPanel()->noteText().isEmpty()) << w.decisionsPanel()->noteText().toStdString();
}

int Rank(const QString& agreement) {
  if (agreement == "disagree") return 0;
  if (agreement == "only ours") return 1;
  if (agreement == "only XLA") return 2;
  return 3;
}

// Our `gpu` run of samples/transformer_train_step.hlo beside XLA's
// reference: the "vs XLA" rows are DiffDecisions', disagreements first.
// (On the transformer block no producer is decided differently since
// 2026-12-05.)
TEST(XlaDecisionsTest, VsXlaListsDisagreementsFirst) {
  MainWindow w(kOptions);
  w.setPipelineChoice("gpu");
  w.resize(1400, 900);
  w.show();
  views::DecisionsPanel* panel = w.decisionsPanel();
  views::DecisionsDiffModel* model = panel->diffModel();
  // Watches the model (and its filter) through every reset below.
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester ftester(panel->diffFilter(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_FALSE(panel->vsXlaAvailable());
  w.openFile(Sample("transformer_train_step.hlo"));
  ASSERT_TRUE(Idle(w));
  ASSERT_EQ(w.run()->name(), "gpu");
  w.openXlaBeside(Sample("xla_gpu/transformer_train_step"));
  ASSERT_TRUE(WaitUntil([&] { return panel->vsXlaAvailable() && !w.busy(); })) << panel->noteText().toStdString();
  ASSERT_NE(w.xlaGpuWindow(), nullptr);

  auto expected = report::DiffDecisions(*w.run(), *w.xlaGpuWindow()->xlaDecisions()->pf);
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  ASSERT_EQ(model->rowCount(), static_cast<int>(expected->producers.size()));
  ASSERT_GT(expected->totals.disagree, 0);
  int last = 0;
  for (int r = 0; r < model->rowCount(); ++r) {
    const QString a = model->data(model->index(r, views::DecisionsDiffModel::kAgreement)).toString();
    EXPECT_GE(Rank(a), last) << "row " << r << ": " << a.toStdString();
    last = Rank(a);
    EXPECT_EQ(model->data(model->index(r, views::DecisionsDiffModel::kProducer)).toString().toStdString(),
              expected->producers[r].producer);
  }
  const auto& first = expected->producers.front();
  EXPECT_EQ(model->data(model->index(0, views::DecisionsDiffModel::kAgreement)).toString(), "disagree");
  EXPECT_EQ(model->data(model->index(0, views::DecisionsDiffModel::kOurVerdict)).toString().toStdString(),
            first.ours.verdict);
  EXPECT_EQ(model->data(model->index(0, views::DecisionsDiffModel::kXlaVerdict)).toString().toStdString(),
            first.xla.verdict);
  EXPECT_EQ(model->data(model->index(0, views::DecisionsDiffModel::kXlaReason)).toString().toStdString(),
            first.xla.reason);
  EXPECT_NE(first.ours.verdict, first.xla.verdict);

  // Shown in the panel: the table, the note, the text filter, activation.
  panel->setVsXlaShown(true);
  EXPECT_TRUE(panel->vsXlaShown());
  EXPECT_EQ(panel->visibleRows(), model->rowCount());
  EXPECT_TRUE(panel->noteText().contains(QString("%1 disagree").arg(expected->totals.disagree)))
      << panel->noteText().toStdString();
  panel->setTextFilter(QString::fromStdString(first.producer));
  EXPECT_GE(panel->visibleRows(), 1);
  EXPECT_LT(panel->visibleRows(), model->rowCount());
  QSortFilterProxyModel* shown = panel->diffFilter();
  const int64_t id = shown->data(shown->index(0, 0), views::DecisionsDiffModel::kProducerIdRole).toLongLong();
  panel->activateRow(0);
  if (id >= 0) EXPECT_EQ(w.selectedInstruction(), id);
  panel->setTextFilter({});
  panel->setVsXlaShown(false);
  EXPECT_EQ(panel->visibleRows(), panel->filter()->rowCount());

  // Another module here ends the pairing.
  w.openFile(Sample("softmax.hlo"));
  ASSERT_TRUE(Idle(w));
  EXPECT_FALSE(panel->vsXlaAvailable());
}

}  // namespace
}  // namespace hloscope::gui
