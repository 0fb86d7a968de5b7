// The widgets around the graph scene: the zoomable/pannable canvas, the
// minimap (the same scene small, with the viewport rectangle; click to move)
// and the legend overlay (the shared palette and the change colours).
#pragma once

#include <QGraphicsView>
#include <QPixmap>
#include <QStringList>
#include <QWidget>

namespace hloscope::views {

class GraphView;

class GraphCanvas : public QGraphicsView {
  Q_OBJECT

 public:
  GraphCanvas(GraphView* owner, QGraphicsScene* scene);
  void zoomBy(double factor);
  double zoom() const { return transform().m11(); }

 signals:
  void viewportChanged();

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void scrollContentsBy(int dx, int dy) override;
  void resizeEvent(QResizeEvent* e) override;
  void paintEvent(QPaintEvent* e) override;

 private:
  GraphView* owner_;
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
  QSize sizeHint() const override;
  // Relabels the highlight rows (added, removed, folded, rewritten); an
  // empty label hides its row. The compare view uses its own meanings.
  void setChangeLabels(const QStringList& labels);
  // Shows the kernel-plan rows: "kernel missing" (red dashed, "!") and
  // "external call" (dash-dot, "ext"), each while the graph has such marks.
  void setKernelMarks(bool missing, bool external);
  // Shows the "XLA refused" row (orange, "XLA") while the graph has such marks.
  void setRefusalMarks(bool refused);

 protected:
  void paintEvent(QPaintEvent* e) override;

 private:
  QStringList labels_;
  bool missing_ = false, external_ = false, refused_ = false;
};

}  // namespace hloscope::views
