// GraphView navigation offscreen (issue 29, items 2 and 5): the legend is a
// toggle, the wheel zooms around the cursor, +/- zoom around the selection,
// find centres its match and zooms it to readable, aggregated edges carry
// their count.
#include <QAction>
#include <QApplication>
#include <QGraphicsScene>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "app/gui/main_window.h"
#include "core/parser/parser.h"
#include "core/passes/step_recorder.h"
#include "views/graph/graph_canvas.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_view.h"

namespace hloscope::views {
namespace {

// A chain of 2n+3 instructions with one weight read by every other link: a
// tall graph whose fitted zoom makes labels unreadable.
std::shared_ptr<const Module> Chain(int n) {
  std::string t = "HloModule nav\n\nENTRY main {\n  x0 = f32[8,8] parameter(0)\n  w = f32[8,8] parameter(1)\n";
  std::string prev = "x0";
  for (int i = 0; i < n; ++i) {
    const std::string a = "a" + std::to_string(i), b = "b" + std::to_string(i);
    t += "  " + a + " = f32[8,8] add(" + prev + ", w)\n  " + b + " = f32[8,8] tanh(" + a + ")\n";
    prev = b;
  }
  t += "  ROOT out = f32[8,8] negate(" + prev + ")\n}\n";
  auto m = ParseHloModule(t);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::shared_ptr<const Module>(std::move(*m)) : nullptr;
}

// Shows `module` in `view` (900x600) and waits for the layout.
bool Show(GraphView& view, std::shared_ptr<const Module> module) {
  view.setReadableFirstView(false);  // every node drawn: these tests pick nodes
  view.resize(900, 600);
  view.show();
  QSignalSpy finished(&view, &GraphView::layoutFinished);
  view.showStep(module, ModuleSnapshot::Capture(*module), nullptr);
  for (int i = 0; i < 500 && finished.isEmpty(); ++i) QTest::qWait(20);
  QApplication::processEvents();
  return !finished.isEmpty() && !view.busy() && view.laidOut();
}

GraphCanvas* Canvas(GraphView& view) { return view.findChild<GraphCanvas*>(); }

QPointF ToViewport(GraphCanvas* c, QPointF scene) { return c->viewportTransform().map(scene); }
QPointF ToScene(GraphCanvas* c, QPointF at) { return c->viewportTransform().inverted().map(at); }

void Wheel(GraphCanvas* c, QPointF at, QPoint pixels, QPoint angle, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QWheelEvent e(at, c->viewport()->mapToGlobal(at), pixels, angle, Qt::NoButton, mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(c->viewport(), &e);
}

// The centre of the drawn node that shows the selection, in scene coordinates.
QPointF SelectedCenter(const GraphView& view) {
  const auto& g = view.laidOut()->graph;
  const int64_t id = g.FindNode(view.selectedInstruction()) ? view.selectedInstruction()
                                                            : layout::VisibleNodeFor(g, view.selectedInstruction());
  const layout::NodeBox* b = view.laidOut()->FindBox(id);
  EXPECT_NE(b, nullptr);
  return b ? QPointF(b->x + b->w / 2, b->y + b->h / 2) : QPointF();
}

double Distance(QPointF a, QPointF b) { return std::hypot(a.x() - b.x(), a.y() - b.y()); }

TEST(GraphViewNavigationTest, LegendIsHiddenUntilToggled) {
  GraphView view;
  view.resize(900, 600);
  view.show();
  QApplication::processEvents();
  auto* legend = view.findChild<GraphLegend*>();
  auto* button = view.findChild<QToolButton*>(QStringLiteral("graphLegendButton"));
  ASSERT_NE(legend, nullptr);
  ASSERT_NE(button, nullptr);
  EXPECT_FALSE(view.legendVisible());
  EXPECT_FALSE(legend->isVisible()) << "the legend does not cover the graph until asked for";
  EXPECT_TRUE(button->isVisible());
  EXPECT_FALSE(button->isChecked());
  // A small button in the top-right corner.
  EXPECT_LT(button->height(), 30);
  EXPECT_LT(button->width(), 100);
  EXPECT_GT(button->x(), view.width() / 2);
  EXPECT_LT(button->y(), 20);

  QSignalSpy changed(&view, &GraphView::legendVisibilityChanged);
  QTest::mouseClick(button, Qt::LeftButton);
  EXPECT_TRUE(view.legendVisible());
  EXPECT_TRUE(legend->isVisible());
  EXPECT_TRUE(button->isChecked());
  ASSERT_EQ(changed.count(), 1);
  EXPECT_TRUE(changed.last().at(0).toBool());
  EXPECT_GE(legend->y(), button->geometry().bottom()) << "below its button";
  // A click on the legend dismisses it.
  QTest::mouseClick(legend, Qt::LeftButton, Qt::NoModifier, QPoint(40, 30));
  EXPECT_FALSE(view.legendVisible());
  EXPECT_FALSE(button->isChecked());
  ASSERT_EQ(changed.count(), 2);
  // The compare view's labels still apply; they do not show the legend.
  view.setChangeLegend(QStringLiteral("only in A"), QStringLiteral("differs"));
  EXPECT_FALSE(view.legendVisible());
  view.setLegendVisible(true);
  EXPECT_TRUE(button->isChecked());
  QTest::mouseClick(button, Qt::LeftButton);
  EXPECT_FALSE(view.legendVisible());
}

TEST(GraphViewNavigationTest, ViewMenuShowsTheLegend) {
  gui::MainWindow w({.persist_settings = false, .dialogs = false, .auto_run = false});
  QAction* action = nullptr;
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text() == QStringLiteral("Show &legend")) action = a;
  ASSERT_NE(action, nullptr);
  EXPECT_TRUE(action->isCheckable());
  EXPECT_FALSE(action->isChecked());
  EXPECT_FALSE(w.graph()->legendVisible());
  action->trigger();
  EXPECT_TRUE(w.graph()->legendVisible());
  EXPECT_TRUE(action->isChecked());
  w.graph()->setLegendVisible(false);  // the graph's own button or a click on the legend
  EXPECT_FALSE(action->isChecked());
}

TEST(GraphViewNavigationTest, WheelZoomsAroundTheCursor) {
  GraphView view;
  ASSERT_TRUE(Show(view, Chain(40)));
  GraphCanvas* c = Canvas(view);
  ASSERT_NE(c, nullptr);
  const QPointF at(c->viewport()->width() * 0.3, c->viewport()->height() * 0.35);
  // A plain notch zooms in (not scrolls), keeping the scene point under the cursor.
  for (int notch : {120, 120, 120, -120, 120}) {
    const double z0 = view.zoom();
    const QPointF scene = ToScene(c, at);
    Wheel(c, at, {}, {0, notch});
    EXPECT_NEAR(view.zoom() / z0, std::pow(2.0, notch / 2 / 240.0), 1e-6) << notch;
    EXPECT_LT(Distance(ToViewport(c, scene), at), 1.5) << "notch " << notch << " at zoom " << view.zoom();
  }
  // A touchpad's few pixels zoom a little.
  {
    const double z0 = view.zoom();
    const QPointF scene = ToScene(c, at);
    Wheel(c, at, {0, 6}, {0, 12});
    EXPECT_GT(view.zoom(), z0);
    EXPECT_LT(view.zoom(), z0 * 1.05);
    EXPECT_LT(Distance(ToViewport(c, scene), at), 1.5);
  }
  // Shift+wheel pans sideways without zooming; Ctrl+wheel still zooms.
  {
    const double z0 = view.zoom();
    const int h = c->horizontalScrollBar()->value();
    Wheel(c, at, {}, {0, -120}, Qt::ShiftModifier);
    EXPECT_DOUBLE_EQ(view.zoom(), z0);
    EXPECT_GT(c->horizontalScrollBar()->value(), h);
    Wheel(c, at, {}, {0, 120}, Qt::ControlModifier);
    EXPECT_GT(view.zoom(), z0);
  }
  // The zoom stays within its bounds.
  for (int i = 0; i < 60; ++i) Wheel(c, at, {}, {0, 120});
  EXPECT_LE(view.zoom(), GraphCanvas::kMaxZoom + 1e-9);
  EXPECT_GT(view.zoom(), GraphCanvas::kMaxZoom / 1.2);
}

TEST(GraphViewNavigationTest, ZoomKeysKeepTheSelectionInPlace) {
  GraphView view;
  ASSERT_TRUE(Show(view, Chain(40)));
  GraphCanvas* c = Canvas(view);
  view.zoomIn();
  view.zoomIn();
  // The drawn node farthest from the viewport's centre that is still well inside it.
  const QRectF inside = QRectF(c->viewport()->rect()).adjusted(60, 60, -60, -60);
  const QPointF middle = QRectF(c->viewport()->rect()).center();
  int64_t pick = -1;
  double best = 0;
  const auto& g = view.laidOut()->graph;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const layout::NodeBox& b = view.laidOut()->nodes[i];
    const QPointF p = ToViewport(c, QPointF(b.x + b.w / 2, b.y + b.h / 2));
    if (g.nodes[i].id >= 0 && inside.contains(p) && Distance(p, middle) > best) best = Distance(p, middle), pick = g.nodes[i].id;
  }
  ASSERT_GE(pick, 0);
  ASSERT_GT(best, 80) << "an off-centre node, else the test proves nothing";
  view.selectInstruction(pick, false);
  const QPointF before = ToViewport(c, SelectedCenter(view));
  for (int i = 0; i < 3; ++i) {
    const double z0 = view.zoom();
    view.zoomIn();
    EXPECT_NEAR(view.zoom(), z0 * 1.25, 1e-9);
    EXPECT_LT(Distance(ToViewport(c, SelectedCenter(view)), before), 1.5) << "zoom in " << i;
  }
  view.zoomOut();
  EXPECT_LT(Distance(ToViewport(c, SelectedCenter(view)), before), 1.5) << "zoom out";
  // The key presses do the same.
  QTest::keyClick(&view, Qt::Key_Plus);
  EXPECT_LT(Distance(ToViewport(c, SelectedCenter(view)), before), 1.5) << "+";
  QTest::keyClick(&view, Qt::Key_Minus);
  EXPECT_LT(Distance(ToViewport(c, SelectedCenter(view)), before), 1.5) << "-";
  // Without a selection in sight: around the centre.
  view.selectInstruction(-1, false);
  const QPointF scene = c->viewportCenter();
  view.zoomIn();
  EXPECT_LT(Distance(ToViewport(c, scene), middle), 1.5);
}

TEST(GraphViewNavigationTest, FindCentresAndZoomsToReadable) {
  GraphView view;
  ASSERT_TRUE(Show(view, Chain(40)));
  GraphCanvas* c = Canvas(view);
  while (view.zoom() > 0.3) view.zoomOut();
  const QPointF middle = QRectF(c->viewport()->rect()).center();
  // The root is the last node of the chain: at the bottom edge of the graph.
  for (const char* regex : {"^out = ", "^a0 = ", "^b17 = "}) {
    ASSERT_TRUE(view.findNext(QString::fromLatin1(regex))) << regex;
    EXPECT_GE(view.zoom(), GraphView::kReadableZoom) << regex;
    EXPECT_LT(Distance(ToViewport(c, SelectedCenter(view)), middle), 2.0) << regex;
  }
  // A readable zoom is kept.
  view.zoomIn();
  view.zoomIn();
  const double z = view.zoom();
  ASSERT_TRUE(view.findNext(QStringLiteral("^a30 = ")));
  EXPECT_DOUBLE_EQ(view.zoom(), z);
  EXPECT_LT(Distance(ToViewport(c, SelectedCenter(view)), middle), 2.0);
}

TEST(GraphViewNavigationTest, AggregatedEdgeShowsItsCount) {
  auto g = std::make_shared<layout::LaidOutGraph>();
  for (int64_t id : {-10, -11, 5}) {
    layout::GraphNode n;
    n.id = id;
    n.name = n.label = "n" + std::to_string(id);
    n.is_group = id < 0;
    g->graph.nodes.push_back(n);
  }
  g->nodes = {{-10, 0, 0, 120, 40}, {-11, 0, 200, 120, 40}, {5, 200, 200, 120, 40}};
  layout::GraphEdge bundle;
  bundle.from = -10, bundle.to = -11, bundle.count = 200;
  layout::GraphEdge single;
  single.from = -10, single.to = 5, single.operand_index = 0, single.shape = "f32[8]";
  g->graph.edges = {bundle, single};
  g->edges = {{-10, -11, {{60, 40}, {60, 100}, {60, 140}, {60, 200}}},
              {-10, 5, {{60, 40}, {150, 100}, {200, 140}, {260, 200}}}};
  GraphView view;
  view.resize(600, 400);
  view.show();
  view.showGraph(g, nullptr, false);
  std::vector<EdgeItem*> edges;
  for (QGraphicsItem* i : Canvas(view)->scene()->items())
    if (auto* e = dynamic_cast<EdgeItem*>(i)) edges.push_back(e);
  ASSERT_EQ(edges.size(), 2u);
  for (EdgeItem* e : edges) {
    if (e->to() == -11) {
      EXPECT_EQ(e->countLabel(), QString::fromUtf8("×200"));
      EXPECT_LT(Distance(e->countLabelRect().center(), QPointF(60, 120)), 1.0) << "at the middle of the edge";
      EXPECT_TRUE(e->boundingRect().contains(e->countLabelRect()));
      EXPECT_GT(e->pen().widthF(), 2.0) << "and thick";
    } else {
      EXPECT_TRUE(e->countLabel().isEmpty());
    }
  }
  const QImage img = view.grabImage();
  EXPECT_FALSE(img.isNull());
  // HLOSCOPE_EDGE_TEST_PNG=out.png keeps the picture for a look.
  if (const char* out = std::getenv("HLOSCOPE_EDGE_TEST_PNG")) img.save(QString::fromLocal8Bit(out));
}

}  // namespace
}  // namespace hloscope::views
