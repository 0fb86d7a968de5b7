#include "views/graph/graph_canvas.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>

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
}

void GraphCanvas::zoomBy(double factor) {
  double z = zoom() * factor;
  if (z < 0.02 || z > 8) return;
  scale(factor, factor);
  emit viewportChanged();
}

void GraphCanvas::wheelEvent(QWheelEvent* e) {
  if (e->modifiers() & Qt::ControlModifier) {
    zoomBy(e->angleDelta().y() > 0 ? 1.15 : 1 / 1.15);
    e->accept();
    return;
  }
  QGraphicsView::wheelEvent(e);
}

void GraphCanvas::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit viewportChanged();
}

void GraphCanvas::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
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
  setAttribute(Qt::WA_TransparentForMouseEvents);
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

void GraphLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(QColor(200, 200, 200));
  p.setBrush(QColor(255, 255, 255, 225));
  p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 4, 4);
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
