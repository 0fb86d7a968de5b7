// The widgets around the graph scene: the zoomable/pannable canvas, the
// minimap (the same scene small, with the viewport rectangle; click to move)
// and the legend (the shared palette and the change colours; an overlay the
// view shows on request and a click on it hides).
#pragma once

#include <QGraphicsView>
#include <QPixmap>
#include <QStringList>
#include <QWidget>

namespace hloscope::views {

class GraphView;

// Map-like navigation: the wheel zooms around the cursor (a touchpad's
// pixel deltas in small steps), Shift+wheel pans sideways, Alt+wheel pans,
// a sideways wheel or swipe pans sideways, drag pans. The scrollable area is
// the scene plus half a viewport on every side, so that any point of the
// graph can be centred and a zoom keeps the point under the cursor.
class GraphCanvas : public QGraphicsView {
  Q_OBJECT

 public:
  static constexpr double kMinZoom = 0.02, kMaxZoom = 8;
  GraphCanvas(GraphView* owner, QGraphicsScene* scene);
  // Zooms by `factor` (clamped to [kMinZoom, kMaxZoom]) keeping the scene
  // point under `at` (viewport coordinates) where it is.
  void zoomAt(double factor, const QPointF& at);
  void zoomBy(double factor);  // around the viewport's centre
  double zoom() const { return transform().m11(); }
  QPointF viewportCenter() const;

 signals:
  void viewportChanged();

 protected:
  void wheelEvent(QWheelEvent* e) override;
  bool viewportEvent(QEvent* e) override;
  void scrollContentsBy(int dx, int dy) override;
  void resizeEvent(QResizeEvent* e) override;
  void paintEvent(QPaintEvent* e) override;

 private:
  // The scene's rect plus half a viewport (at the current zoom) around it,
  // keeping the scene point at the viewport's centre.
  void updateScrollArea();
  void panBy(double dx, double dy);

  GraphView* owner_;
  double area_zoom_ = 0;  // the zoom updateScrollArea() last sized for
};

class GraphMinimap : public QGraphicsView {
  Q_OBJECT

 public:
  GraphMinimap(GraphCanvas* canvas, QGraphicsScene* scene, QWidget* parent);
  void refit();

 protected:
  void drawForeground(QPainter* p, const QRectF& rect) override;
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;

 private:
  // The scene is drawn into a picture once per change (not on every pan of
  // the canvas), in an event-loop pass of its own so that it does not add to
  // the canvas's first paint of a large scene.
  void renderPicture();

  GraphCanvas* canvas_;
  QPixmap picture_;
  bool picture_valid_ = false;
  bool render_scheduled_ = false;
};

class GraphLegend : public QWidget {
  Q_OBJECT

 public:
  explicit GraphLegend(QWidget* parent);
  static constexpr int kCloseSize = 12;  // the "×" in the top-right corner
  QSize sizeHint() const override;
  // Relabels the highlight rows (added, removed, folded, rewritten); an
  // empty label hides its row. The compare view uses its own meanings.
  void setChangeLabels(const QStringList& labels);
  // Shows the kernel-plan rows: "kernel missing" (red dashed, "!") and
  // "external call" (dash-dot, "ext"), each while the graph has such marks.
  void setKernelMarks(bool missing, bool external);
  // Shows the "XLA refused" row (orange, "XLA") while the graph has such marks.
  void setRefusalMarks(bool refused);

 signals:
  void closeRequested();  // a click on it

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  QStringList labels_;
  bool missing_ = false, external_ = false, refused_ = false;
};

}  // namespace hloscope::views
