// What-if fusion in the GUI (issue 30): the right-click actions on a
// decision row and on a graph edge, a forbidden fusion run beside the
// original with its deltas, a refused force with its reason and no run.
#include <QAction>
#include <QGraphicsScene>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalSpy>
#include <gtest/gtest.h>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "tests/views/view_test_util.h"
#include "views/compare/compare_view.h"
#include "views/decisions/decisions_panel.h"
#include "views/graph/graph_canvas.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_view.h"

namespace hloscope::gui {
namespace {

using views_test::WaitUntil;

constexpr MainWindowOptions kTestOptions{.persist_settings = false, .dialogs = false, .auto_run = true};

QString Sample(const char* name) { return QString::fromStdString(hloscope::testing::SamplesDir()) + "/" + name; }

bool Idle(MainWindow& w) { return WaitUntil([&] { return !w.busy() && w.run() && w.shownStep() >= 0; }); }

void OpenGpu(MainWindow& w, const char* sample) {
  w.setPipelineChoice("gpu");
  QSignalSpy done(&w, &MainWindow::runFinished);
  w.openFile(Sample(sample));
  ASSERT_TRUE(WaitUntil([&] { return done.count() > 0; }));
  ASSERT_TRUE(done.front().front().toBool());
  ASSERT_TRUE(Idle(w));
}

QAction* ActionStartingWith(QMenu* menu, const QString& prefix) {
  for (QAction* a : menu->actions())
    if (a->text().startsWith(prefix)) return a;
  return nullptr;
}

// The visible row of the first fusion of `producer` into one consumer.
int RowOfProducer(MainWindow& w, const std::string& producer) {
  views::DecisionsPanel* p = w.decisionsPanel();
  for (int row = 0; row < p->visibleRows(); ++row) {
    const QModelIndex src = p->filter()->mapToSource(p->filter()->index(row, 0));
    const FusionDecision* d = p->model()->decision(src.row());
    if (d && d->producer == producer && d->consumers.size() == 1 && d->verdict == FusionVerdict::kFused) return row;
  }
  return -1;
}

TEST(WhatIfTest, ForbidFromADecisionRowRunsBesideTheOriginal) {
  MainWindow w(kTestOptions);
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "mlp_gelu.hlo"));
  w.decisionsPanel()->setAllSteps(true);
  // mul.6 fused into its consumer: forbidding it keeps one more kernel. The
  // override names the consumer by the instruction its fusion stands for.
  const int row = RowOfProducer(w, "mul.6");
  ASSERT_GE(row, 0);
  QMenu* menu = w.decisionMenu(row);
  QAction* force = ActionStartingWith(menu, "Force this fusion");
  QAction* forbid = ActionStartingWith(menu, "Forbid this fusion");
  ASSERT_NE(force, nullptr);
  ASSERT_NE(forbid, nullptr);
  const QString pair = forbid->data().toString();
  ASSERT_TRUE(pair.startsWith("mul.6:")) << pair.toStdString();
  const QString consumer = pair.mid(6);
  EXPECT_TRUE(forbid->text().startsWith("Forbid this fusion (mul.6 → ")) << forbid->text().toStdString();
  EXPECT_FALSE(consumer.isEmpty());
  EXPECT_TRUE(force->isEnabled());
  EXPECT_TRUE(forbid->isEnabled());

  QSignalSpy finished(&w, &MainWindow::whatIfFinished);
  forbid->trigger();
  EXPECT_TRUE(w.whatIfRunning());  // on a worker thread: the call returned at once
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }));
  ASSERT_TRUE(finished.front().front().toBool());
  delete menu;
  const auto& b = w.whatIf();
  ASSERT_TRUE(b && b->result);
  EXPECT_EQ(b->result->base.kernels, 3);
  EXPECT_EQ(b->result->whatif.kernels, 4);
  EXPECT_EQ(b->result->delta().kernels, 1);
  EXPECT_GT(b->result->delta().hbm_bytes, 0);
  ASSERT_EQ(b->result->outcomes.size(), 1u);
  EXPECT_TRUE(b->result->outcomes[0].applied);
  // The what-if run beside the original: the compare window, A = this run's
  // last step, B = the what-if run's.
  ASSERT_TRUE(b->run && b->compare);
  ASSERT_NE(w.compareView(), nullptr);
  EXPECT_EQ(w.compareView()->side(0).run, w.run());
  EXPECT_EQ(w.compareView()->side(1).run, b->run);
  EXPECT_EQ(w.compareView()->result()->a.kernels, 3);
  EXPECT_EQ(w.compareView()->result()->b.kernels, 4);
  // The summary: the four deltas, the override's outcome, the changed decisions.
  const QString text = w.whatIfText();
  EXPECT_TRUE(text.contains(QRegularExpression("kernels +3 +4 +\\+1"))) << text.toStdString();
  for (const QString& row : {QString("HBM bytes"), QString("est. us"), QString("peak bytes"),
                             "--forbid " + pair + ": kept apart", QString("changed decisions"),
                             "forbidden by what-if override (--forbid " + pair + ")"})
    EXPECT_TRUE(text.contains(row)) << row.toStdString() << "\n" << text.toStdString();
  // The base run is still the one shown.
  EXPECT_EQ(w.run()->steps().back()->cost.kernels, 3);
}

TEST(WhatIfTest, RefusedForceShowsTheReasonAndOpensNoRun) {
  MainWindow w(kTestOptions);
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "mlp_gelu.hlo"));
  QSignalSpy finished(&w, &MainWindow::whatIfFinished);
  w.runWhatIf({"dot_general.2:dot_general.3"}, {});
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }));
  ASSERT_TRUE(finished.front().front().toBool());
  const auto& b = w.whatIf();
  ASSERT_TRUE(b && b->result);
  ASSERT_EQ(b->result->outcomes.size(), 1u);
  EXPECT_FALSE(b->result->outcomes[0].applied);
  EXPECT_NE(b->result->outcomes[0].detail.find("would create a cycle"), std::string::npos)
      << b->result->outcomes[0].detail;
  EXPECT_EQ(b->result->delta().kernels, 0);
  EXPECT_FALSE(b->run);
  EXPECT_FALSE(b->compare);
  EXPECT_EQ(w.compareView(), nullptr);
  const QString text = w.whatIfText();
  EXPECT_TRUE(text.contains("--force dot_general.2:dot_general.3: REFUSED: ")) << text.toStdString();
  EXPECT_TRUE(text.contains("would create a cycle")) << text.toStdString();
}

TEST(WhatIfTest, GraphEdgeOffersForceAndForbid) {
  MainWindow w(kTestOptions);
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "mlp_gelu.hlo"));
  w.selectStep(0);
  ASSERT_TRUE(Idle(w));
  const auto edges = w.graph()->edges();
  ASSERT_FALSE(edges.empty());
  const ModuleSnapshot& m = *w.run()->step(0).module;
  int tried = 0;
  for (const auto& [from, to] : edges) {
    const InstructionRecord* p = m.Find(from);
    const InstructionRecord* c = m.Find(to);
    if (!p || !c) continue;
    ++tried;
    QMenu* menu = w.contextMenuFor("graph", from, to);
    QAction* forbid = ActionStartingWith(menu, "Forbid this fusion");
    ASSERT_NE(forbid, nullptr);
    EXPECT_NE(ActionStartingWith(menu, "Force this fusion"), nullptr);
    EXPECT_EQ(forbid->data().toString(), QString::fromStdString(p->name + ":" + c->name));
    delete menu;
    break;
  }
  EXPECT_EQ(tried, 1);
  // No edge: no what-if actions.
  QMenu* plain = w.contextMenuFor("graph");
  EXPECT_EQ(ActionStartingWith(plain, "Force this fusion"), nullptr);
  delete plain;
}

TEST(WhatIfTest, EdgeAtFindsTheEdgeUnderThePoint) {
  MainWindow w(kTestOptions);
  w.resize(1400, 900);
  w.show();
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "mlp_gelu.hlo"));
  w.selectStep(0);
  ASSERT_TRUE(Idle(w));
  auto* canvas = w.graph()->findChild<views::GraphCanvas*>();
  ASSERT_NE(canvas, nullptr);
  int found = 0;
  for (QGraphicsItem* item : canvas->scene()->items()) {
    auto* e = dynamic_cast<views::EdgeItem*>(item);
    if (!e) continue;
    // The middle of the edge's path, in the graph widget's coordinates.
    const QPointF scene = e->mapToScene(e->path().pointAtPercent(0.5));
    const QPoint at = canvas->viewport()->mapTo(w.graph(), canvas->mapFromScene(scene));
    int64_t from = -1, to = -1;
    if (!w.graph()->edgeAt(at, &from, &to)) continue;  // a node drawn over it
    EXPECT_EQ(from, e->from());
    EXPECT_EQ(to, e->to());
    ++found;
  }
  EXPECT_GT(found, 0);
  int64_t from = -1, to = -1;
  EXPECT_FALSE(w.graph()->edgeAt(QPoint(-50, -50), &from, &to));
}

TEST(WhatIfTest, OpeningAnotherFileDropsARunningWhatIf) {
  MainWindow w(kTestOptions);
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "mlp_gelu.hlo"));
  QSignalSpy finished(&w, &MainWindow::whatIfFinished);
  w.runWhatIf({}, {"mul.6:mul.7"});
  ASSERT_TRUE(w.whatIfRunning());
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "resnet_block.hlo"));
  EXPECT_FALSE(w.whatIfRunning());
  // Its result, if the worker got that far, is not shown for the new file.
  WaitUntil([] { return false; }, 300);
  EXPECT_EQ(finished.count(), 0);
  EXPECT_FALSE(w.whatIf());
}

TEST(WhatIfTest, UnknownNameFails) {
  MainWindow w(kTestOptions);
  ASSERT_NO_FATAL_FAILURE(OpenGpu(w, "mlp_gelu.hlo"));
  QSignalSpy finished(&w, &MainWindow::whatIfFinished);
  w.runWhatIf({}, {"no_such_op:mul.7"});
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }));
  EXPECT_FALSE(finished.front().front().toBool());
  EXPECT_TRUE(w.whatIfText().startsWith("What-if failed: ")) << w.whatIfText().toStdString();
  EXPECT_TRUE(w.whatIfText().contains("no_such_op")) << w.whatIfText().toStdString();
}

}  // namespace
}  // namespace hloscope::gui
