#include "views/graph/graph_canvas.h"

#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/layout/palette.h"
#include "views/common/qt_palette.h"
#include "views/common/ui_timer.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_view.h"

namespace hloscope::views {

// ------------------------------------------------------------- GraphCanvas

GraphCanvas::GraphCanvas(GraphView* owner, QGraphicsScene* scene) : QGraphicsView(scene, owner), owner_(owner) {
  setDragMode(QGraphicsView::ScrollHandDrag);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  setBackgroundBrush(Qt::white);
  setFocusPolicy(Qt::StrongFocus);
  connect(scene, &QGraphicsScene::sceneRectChanged, this, [this] { updateScrollArea(); });
  // fitInView() and other scale() calls change the zoom behind our back:
  // the margins follow once the event loop runs.
  connect(
      this, &GraphCanvas::viewportChanged, this, [this] {
        if (zoom() != area_zoom_) updateScrollArea();
      },
      Qt::QueuedConnection);
}

QPointF GraphCanvas::viewportCenter() const {
  return viewportTransform().inverted().map(QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}

void GraphCanvas::updateScrollArea() {
  if (!scene()) return;
  const QRectF content = scene()->sceneRect();
  const double z = std::max(zoom(), 1e-6);
  const double mx = viewport()->width() / (2 * z), my = viewport()->height() / (2 * z);
  const QRectF area = content.adjusted(-mx, -my, mx, my);
  area_zoom_ = zoom();
  if (area == sceneRect()) return;
  const bool keep = !sceneRect().isEmpty() && !content.isEmpty();
  const QPointF center = viewportCenter();
  setSceneRect(area);
  if (keep) centerOn(center);
}

void GraphCanvas::zoomAt(double factor, const QPointF& at) {
  const double z0 = zoom();
  if (!(z0 > 0) || !(factor > 0)) return;
  const double z = std::clamp(z0 * factor, kMinZoom, kMaxZoom);
  if (std::abs(z - z0) < 1e-9 * z0) return;
  const QPointF scene_at = viewportTransform().inverted().map(at);
  const ViewportAnchor anchor = transformationAnchor();
  setTransformationAnchor(QGraphicsView::NoAnchor);
  scale(z / z0, z / z0);
  setTransformationAnchor(anchor);
  updateScrollArea();
  const QPointF off = viewportTransform().map(scene_at) - at;
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(off.x()));
  verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(off.y()));
  emit viewportChanged();
}

void GraphCanvas::zoomBy(double factor) {
  zoomAt(factor, QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}

void GraphCanvas::panBy(double dx, double dy) {
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() - qRound(dx));
  verticalScrollBar()->setValue(verticalScrollBar()->value() - qRound(dy));
}

void GraphCanvas::wheelEvent(QWheelEvent* e) {
  // Pixel deltas (touchpads) are what moved on screen; angle deltas are
  // eighths of a degree, 120 a notch, taken as 60 pixels.
  const QPointF d = !e->pixelDelta().isNull() ? QPointF(e->pixelDelta()) : QPointF(e->angleDelta()) / 2.0;
  e->accept();
  if (e->modifiers() & Qt::ShiftModifier) return panBy(d.y() != 0 ? d.y() : d.x(), 0);
  if (e->modifiers() & Qt::AltModifier) return panBy(d.x(), d.y());
  if (std::abs(d.x()) > std::abs(d.y())) return panBy(d.x(), 0);  // a sideways swipe or tilt
  if (d.y() == 0) return;
  // 2x per 240 pixels: a notch is 1.19x, a touchpad's few pixels a small step.
  zoomAt(std::pow(2.0, std::clamp(d.y(), -240.0, 240.0) / 240.0), e->position());
}

bool GraphCanvas::viewportEvent(QEvent* e) {
  if (e->type() == QEvent::NativeGesture) {  // a touchpad's pinch
    auto* g = static_cast<QNativeGestureEvent*>(e);
    if (g->gestureType() == Qt::ZoomNativeGesture) {
      zoomAt(1 + std::clamp(g->value(), -0.5, 1.0), viewport()->mapFromGlobal(g->globalPosition()));
      e->accept();
      return true;
    }
  }
  return QGraphicsView::viewportEvent(e);
}

void GraphCanvas::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit viewportChanged();
}

void GraphCanvas::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  updateScrollArea();
  emit viewportChanged();
}

void GraphCanvas::paintEvent(QPaintEvent* e) {
  UiTimer ui_timer("graph: paint");
  QGraphicsView::paintEvent(e);
}

// ------------------------------------------------------------ GraphMinimap

GraphMinimap::GraphMinimap(GraphCanvas* canvas, QGraphicsScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), canvas_(canvas) {
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setInteractive(false);
  setFrameShape(QFrame::Box);
  setBackgroundBrush(QColor(255, 255, 255, 235));
  setRenderHints(QPainter::Antialiasing);
  setFixedSize(180, 140);
  connect(canvas, &GraphCanvas::viewportChanged, this, [this] { viewport()->update(); });
  connect(scene, &QGraphicsScene::changed, this, [this] {
    picture_valid_ = false;
    viewport()->update();
  });
}

void GraphMinimap::paintEvent(QPaintEvent*) {
  UiTimer ui_timer("graph: minimap paint");
  if (!picture_valid_ && !render_scheduled_) {
    render_scheduled_ = true;
    QTimer::singleShot(0, this, [this] {
      render_scheduled_ = false;
      renderPicture();
      viewport()->update();
    });
  }
  QPainter p(viewport());
  p.fillRect(viewport()->rect(), backgroundBrush());
  if (!picture_.isNull()) p.drawPixmap(0, 0, picture_);  // the last picture until the new one is drawn
  p.setTransform(viewportTransform());
  drawForeground(&p, mapToScene(viewport()->rect()).boundingRect());
}

void GraphMinimap::renderPicture() {
  UiTimer ui_timer("graph: minimap picture");
  picture_valid_ = true;
  const qreal dpr = devicePixelRatioF();
  picture_ = QPixmap(viewport()->size() * dpr);
  picture_.setDevicePixelRatio(dpr);
  picture_.fill(Qt::transparent);
  if (!scene()) return;
  QPainter p(&picture_);
  p.setRenderHints(renderHints());
  scene()->render(&p, QRectF(viewport()->rect()), mapToScene(viewport()->rect()).boundingRect(),
                  Qt::IgnoreAspectRatio);
}

void GraphMinimap::refit() {
  if (scene()) fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  picture_valid_ = false;
  viewport()->update();
}

void GraphMinimap::drawForeground(QPainter* p, const QRectF&) {
  QRectF visible = canvas_->mapToScene(canvas_->viewport()->rect()).boundingRect();
  p->setPen(QPen(ToQColor(layout::kSelectedColor), 0));
  p->setBrush(QColor(21, 101, 192, 40));
  p->drawRect(visible);
}

void GraphMinimap::mousePressEvent(QMouseEvent* e) {
  canvas_->centerOn(mapToScene(e->position().toPoint()));
  e->accept();
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* e) {
  if (e->buttons() & Qt::LeftButton) canvas_->centerOn(mapToScene(e->position().toPoint()));
  e->accept();
}

// ------------------------------------------------------------- GraphLegend

namespace {

constexpr OpCategory kLegendCategories[] = {
    OpCategory::kElementwise,       OpCategory::kDataMovement, OpCategory::kReduction,
    OpCategory::kDotConv,           OpCategory::kParameterConstant, OpCategory::kControlFlow,
    OpCategory::kCollective,        OpCategory::kFusion,       OpCategory::kCustomCall};
constexpr ChangeKind kLegendChanges[] = {ChangeKind::kAdded, ChangeKind::kRemoved, ChangeKind::kFolded,
                                         ChangeKind::kRewritten};
const char* ChangeName(ChangeKind k) {
  switch (k) {
    case ChangeKind::kAdded: return "added";
    case ChangeKind::kRemoved: return "removed";
    case ChangeKind::kFolded: return "folded into fusion";
    case ChangeKind::kRewritten: return "rewritten";
    case ChangeKind::kNone: break;
  }
  return "";
}
constexpr int kRow = 15;

}  // namespace

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("graphLegend"));
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Click to hide the legend"));
  for (ChangeKind k : kLegendChanges) labels_ << QString::fromLatin1(ChangeName(k));
  resize(sizeHint());
}

void GraphLegend::setChangeLabels(const QStringList& labels) {
  labels_ = labels;
  while (labels_.size() < static_cast<int>(std::size(kLegendChanges))) labels_ << QString();
  resize(sizeHint());
  update();
}

void GraphLegend::setKernelMarks(bool missing, bool external) {
  if (missing == missing_ && external == external_) return;
  missing_ = missing, external_ = external;
  resize(sizeHint());
  update();
}

void GraphLegend::setRefusalMarks(bool refused) {
  if (refused == refused_) return;
  refused_ = refused;
  resize(sizeHint());
  update();
}

QSize GraphLegend::sizeHint() const {
  int rows = static_cast<int>(std::size(kLegendCategories));
  for (const QString& l : labels_) rows += l.isEmpty() ? 0 : 1;
  rows += int(missing_) + int(external_) + int(refused_);
  return {150, rows * kRow + 12};
}

void GraphLegend::mousePressEvent(QMouseEvent* e) {
  e->accept();
  emit closeRequested();
}

void GraphLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(QColor(200, 200, 200));
  p.setBrush(QColor(255, 255, 255, 225));
  p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 4, 4);
  const QRectF close(width() - kCloseSize - 5, 5, kCloseSize, kCloseSize);
  p.setPen(QPen(QColor(120, 120, 120), 1.4));
  p.drawLine(close.topLeft() + QPointF(3, 3), close.bottomRight() - QPointF(3, 3));
  p.drawLine(close.topRight() + QPointF(-3, 3), close.bottomLeft() + QPointF(3, -3));
  QFont f = font();
  f.setPixelSize(10);
  p.setFont(f);
  int y = 6;
  for (OpCategory c : kLegendCategories) {
    QtCategoryStyle s = QtStyleOf(c);
    p.setPen(s.border);
    p.setBrush(s.fill);
    p.drawRoundedRect(QRectF(8, y + 2, 18, 10), 2, 2);
    p.setPen(Qt::black);
    p.drawText(QRect(32, y, 116, kRow), Qt::AlignVCenter | Qt::AlignLeft,
               QString::fromLatin1(CategoryName(c).data(), static_cast<int>(CategoryName(c).size())));
    y += kRow;
  }
  for (size_t i = 0; i < std::size(kLegendChanges); ++i) {
    const ChangeKind k = kLegendChanges[i];
    const QString label = i < static_cast<size_t>(labels_.size()) ? labels_[static_cast<int>(i)] : QString();
    if (label.isEmpty()) continue;
    p.setPen(QPen(ChangeColor(k), 2.5, k == ChangeKind::kRemoved ? Qt::DashLine : Qt::SolidLine));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(8, y + 2, 18, 10), 2, 2);
    p.setPen(Qt::black);
    p.drawText(QRect(32, y, 116, kRow), Qt::AlignVCenter | Qt::AlignLeft, label);
    y += kRow;
  }
  for (KernelMark m : {KernelMark::kMissing, KernelMark::kExternal}) {
    if (m == KernelMark::kMissing ? !missing_ : !external_) continue;
    p.setPen(QPen(KernelMarkColor(m), 1.8, m == KernelMark::kMissing ? Qt::DashLine : Qt::DashDotLine));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(8, y + 2, 18, 10), 2, 2);
    p.setPen(Qt::black);
    p.drawText(QRect(32, y, 116, kRow), Qt::AlignVCenter | Qt::AlignLeft,
               m == KernelMark::kMissing ? tr("kernel missing (!)") : tr("external call (ext)"));
    y += kRow;
  }
  if (refused_) {
    p.setPen(QPen(RefusalMarkColor(), 1.8));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(8, y + 2, 18, 10), 2, 2);
    p.setPen(Qt::black);
    p.drawText(QRect(32, y, 116, kRow), Qt::AlignVCenter | Qt::AlignLeft, tr("XLA did not fuse (XLA)"));
    y += kRow;
  }
}

}  // namespace hloscope::views
