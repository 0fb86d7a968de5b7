#include "views/graph/graph_items.h"

#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>
#include <QtMath>

#include "views/common/qt_palette.h"
#include "views/graph/graph_view.h"

namespace hloscope::views {
namespace {

QFont NodeFont() {
  QFont f(QStringLiteral("monospace"));
  f.setStyleHint(QFont::TypeWriter);
  f.setPixelSize(static_cast<int>(layout::kFontPt));
  return f;
}

// The font of an aggregated edge's count, made once.
const QFont& CountFont() {
  static const QFont f = [] {
    QFont font(QStringLiteral("sans-serif"));
    font.setPixelSize(9);
    font.setBold(true);
    return font;
  }();
  return f;
}

}  // namespace

QColor ChangeColor(ChangeKind k) {
  switch (k) {
    case ChangeKind::kAdded: return ToQColor(layout::kAddedColor);
    case ChangeKind::kRemoved: return ToQColor(layout::kRemovedColor);
    case ChangeKind::kFolded: return ToQColor(layout::kFoldedColor);
    case ChangeKind::kRewritten: return ToQColor(layout::kRewrittenColor);
    case ChangeKind::kNone: break;
  }
  return {};
}

QColor KernelMarkColor(KernelMark m) {
  switch (m) {
    case KernelMark::kMissing: return ToQColor(layout::kMissingKernelColor);
    case KernelMark::kExternal: return ToQColor(layout::kExternalCallColor);
    case KernelMark::kNone: break;
  }
  return {};
}

void PaintKernelMark(QPainter* p, const QRectF& r, KernelMark m) {
  if (m == KernelMark::kNone) return;
  const QColor c = KernelMarkColor(m);
  p->save();
  p->setRenderHint(QPainter::Antialiasing);
  p->setBrush(Qt::NoBrush);
  p->setPen(QPen(c, 2.0, m == KernelMark::kMissing ? Qt::DashLine : Qt::DashDotLine));
  p->drawRoundedRect(r.adjusted(-4, -4, 4, 4), 7, 7);
  // The badge: "!" (missing) or "ext" (external call) on the top-left corner.
  const QString text = m == KernelMark::kMissing ? QStringLiteral("!") : QStringLiteral("ext");
  QFont f(QStringLiteral("sans-serif"));
  f.setPixelSize(9);
  f.setBold(true);
  const double w = m == KernelMark::kMissing ? 12 : 22;
  QRectF badge(r.left() - 8, r.top() - 9, w, 12);
  p->setPen(Qt::NoPen);
  p->setBrush(c);
  p->drawRoundedRect(badge, 6, 6);
  p->setPen(Qt::white);
  p->setFont(f);
  p->drawText(badge, Qt::AlignCenter, text);
  p->restore();
}

QColor RefusalMarkColor() { return QColor(0xef, 0x6c, 0x00); }

void PaintRefusalMark(QPainter* p, const QRectF& r) {
  const QColor c = RefusalMarkColor();
  p->save();
  p->setRenderHint(QPainter::Antialiasing);
  p->setBrush(Qt::NoBrush);
  p->setPen(QPen(c, 2.0));
  p->drawRoundedRect(r.adjusted(-2, -2, 2, 2), 6, 6);
  QFont f(QStringLiteral("sans-serif"));
  f.setPixelSize(9);
  f.setBold(true);
  QRectF badge(r.right() - 16, r.top() - 10, 26, 12);
  p->setPen(Qt::NoPen);
  p->setBrush(c);
  p->drawRoundedRect(badge, 6, 6);
  p->setPen(Qt::white);
  p->setFont(f);
  p->drawText(badge, Qt::AlignCenter, QStringLiteral("XLA"));
  p->restore();
}

// ---------------------------------------------------------------- NodeItem

NodeItem::NodeItem(GraphView* view, const layout::GraphNode& node, const layout::NodeBox& box, bool ghost)
    : view_(view),
      id_(node.id),
      rect_(0, 0, box.w, box.h),
      category_(node.category),
      is_group_(node.is_group),
      is_fusion_(node.is_fusion),
      ghost_(ghost) {
  setPos(box.x, box.y);
  for (const std::string& l : layout::NodeLabelLines(node)) lines_ << QString::fromStdString(l);
  search_ = QString::fromStdString(node.name + "\n" + node.opcode + "\n" + node.op_name);
  QString tip = QString::fromStdString(node.label);
  for (const std::string& d : node.details) tip += QStringLiteral("\n") + QString::fromStdString(d);
  if (!node.op_name.empty()) tip += QStringLiteral("\nop_name: ") + QString::fromStdString(node.op_name);
  if (node.is_group) tip += QStringLiteral("\n(double-click to open)");
  if (node.is_fusion) tip += QStringLiteral("\n(double-click to expand)");
  for (const std::string& c : node.called) tip += QStringLiteral("\ncalls ") + QString::fromStdString(c);
  tip_ = tip;
  setToolTip(tip);
  setAcceptHoverEvents(!ghost);
  setZValue(ghost ? 1 : 3);
  if (ghost) setOpacity(0.45);
}

QRectF NodeItem::boundingRect() const {
  if (mark_ == KernelMark::kNone && !refused_) return rect_.adjusted(-3, -3, 3, 3);
  return rect_.adjusted(-10, -11, refused_ ? 11 : 6, 6);
}

void NodeItem::setKernelMark(KernelMark m, const QString& text) {
  if (m != mark_) prepareGeometryChange();
  mark_ = m;
  mark_text_ = m == KernelMark::kNone ? QString() : text;
  updateToolTip();
  update();
}

void NodeItem::setRefusalMark(bool on, const QString& reason) {
  if (on != refused_) prepareGeometryChange();
  refused_ = on;
  refusal_text_ = on ? QStringLiteral("XLA did not fuse it: ") + reason : QString();
  updateToolTip();
  update();
}

void NodeItem::updateToolTip() {
  QString tip = tip_;
  for (const QString* t : {&mark_text_, &refusal_text_})
    if (!t->isEmpty()) tip += QStringLiteral("\n") + *t;
  setToolTip(tip);
}

void NodeItem::setChange(ChangeKind k) {
  change_ = k;
  update();
}

void NodeItem::setSelectedNode(bool s) {
  selected_ = s;
  setZValue(s ? 5 : (ghost_ ? 1 : 3));
  update();
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  QtCategoryStyle s = QtStyleOf(category_);
  QColor fill = ghost_ ? QColor(240, 240, 240) : s.fill;
  if (hovered_) fill = fill.darker(108);
  QColor border = ghost_ ? ChangeColor(ChangeKind::kRemoved) : s.border;
  double width = 1.0;
  Qt::PenStyle style = ghost_ ? Qt::DashLine : Qt::SolidLine;
  if (change_ != ChangeKind::kNone && !ghost_) border = ChangeColor(change_), width = 2.5;
  if (selected_) border = ToQColor(layout::kSelectedColor), width = 3.0;
  p->setRenderHint(QPainter::Antialiasing);
  p->setPen(QPen(border, width, style));
  p->setBrush(fill);
  p->drawRoundedRect(rect_, 5, 5);
  if (is_group_) {  // a second outline: a closed group
    p->setBrush(Qt::NoBrush);
    p->drawRoundedRect(rect_.adjusted(2.5, 2.5, -2.5, -2.5), 4, 4);
  }
  p->setFont(NodeFont());
  p->setPen(ghost_ ? QColor(120, 120, 120) : s.text);
  double y = layout::kNodePadPt / 2;
  for (int i = 0; i < lines_.size(); ++i) {
    QRectF line(0, y, rect_.width(), layout::kLineHeightPt);
    p->drawText(line, Qt::AlignCenter, lines_[i]);
    y += layout::kLineHeightPt;
    if (i == 0) p->setPen(ghost_ ? QColor(150, 150, 150) : s.text.lighter(160));
  }
  if (is_fusion_ || is_group_) {  // the expand badge
    QRectF badge(rect_.right() - 11, rect_.top() + 1, 10, 10);
    p->setPen(QPen(s.border, 1));
    p->setBrush(Qt::white);
    p->drawRect(badge);
    p->drawLine(QPointF(badge.left() + 2, badge.center().y()), QPointF(badge.right() - 2, badge.center().y()));
    p->drawLine(QPointF(badge.center().x(), badge.top() + 2), QPointF(badge.center().x(), badge.bottom() - 2));
  }
  if (!ghost_) PaintKernelMark(p, rect_, mark_);
  if (!ghost_ && refused_) PaintRefusalMark(p, rect_);
}

void NodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent*) {
  hovered_ = true;
  update();
}

void NodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {
  hovered_ = false;
  update();
}

void NodeItem::mousePressEvent(QGraphicsSceneMouseEvent* e) {
  if (ghost_ || e->button() != Qt::LeftButton) return QGraphicsItem::mousePressEvent(e);
  view_->nodeClicked(id_);
  e->accept();
}

void NodeItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) {
  if (ghost_) return;
  view_->nodeDoubleClicked(id_);
  e->accept();
}

// ---------------------------------------------------------------- EdgeItem

EdgeItem::EdgeItem(const layout::GraphEdge& edge, const layout::EdgePath& path)
    : from_(edge.from), to_(edge.to) {
  QPainterPath pp;
  const auto& pts = path.points;
  if (!pts.empty()) {
    pp.moveTo(pts[0].first, pts[0].second);
    for (size_t i = 1; i + 2 < pts.size(); i += 3)
      pp.cubicTo(pts[i].first, pts[i].second, pts[i + 1].first, pts[i + 1].second, pts[i + 2].first,
                 pts[i + 2].second);
    if (pts.size() < 4 && pts.size() > 1) pp.lineTo(pts.back().first, pts.back().second);
    // Arrowhead along the last segment direction.
    QPointF tip(pts.back().first, pts.back().second);
    QPointF from = tip;
    for (size_t k = pts.size(); k-- > 0;) {
      QPointF q(pts[k].first, pts[k].second);
      if (QLineF(q, tip).length() > 0.5) { from = q; break; }
    }
    QLineF dir(tip, from);
    if (dir.length() > 0) {
      dir.setLength(7);
      QLineF left = dir, right = dir;
      left.setAngle(dir.angle() + 25);
      right.setAngle(dir.angle() - 25);
      arrow_ << tip << left.p2() << right.p2();
    }
  }
  setPath(pp);
  QString tip = edge.operand_index >= 0
                    ? QStringLiteral("operand %1: %2").arg(edge.operand_index).arg(QString::fromStdString(edge.shape))
                    : QStringLiteral("%1 edges between groups").arg(edge.count);
  setToolTip(tip);
  setZValue(2);
  setPen(QPen(QColor(97, 97, 97), edge.count > 1 ? 1.0 + std::min(3.0, std::log2(double(edge.count))) : 1.0));
  if (edge.count > 1 && !pp.isEmpty()) {
    count_label_ = QStringLiteral("\u00d7%1").arg(edge.count);
    static const QFontMetricsF metrics(CountFont());
    const QSizeF size(metrics.horizontalAdvance(count_label_) + 6, metrics.height() + 1);
    count_rect_ = QRectF(pp.pointAtPercent(0.5) - QPointF(size.width() / 2, size.height() / 2), size);
  }
}

QRectF EdgeItem::boundingRect() const {
  QRectF r = QGraphicsPathItem::boundingRect().united(arrow_.boundingRect()).adjusted(-2, -2, 2, 2);
  return count_label_.isEmpty() ? r : r.united(count_rect_.adjusted(-1, -1, 1, 1));
}

void EdgeItem::setEmphasis(bool on) {
  emphasis_ = on;
  update();
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  p->setRenderHint(QPainter::Antialiasing);
  QPen pen = this->pen();
  if (emphasis_) pen.setColor(ToQColor(layout::kSelectedColor)), pen.setWidthF(pen.widthF() + 1);
  p->setPen(pen);
  p->setBrush(Qt::NoBrush);
  p->drawPath(path());
  p->setBrush(pen.color());
  p->drawPolygon(arrow_);
  if (count_label_.isEmpty() ||
      QStyleOptionGraphicsItem::levelOfDetailFromTransform(p->worldTransform()) < 0.35)
    return;
  p->setPen(QPen(pen.color(), 1));
  p->setBrush(QColor(255, 255, 255, 235));
  p->drawRoundedRect(count_rect_, 3, 3);
  p->setFont(CountFont());
  p->drawText(count_rect_, Qt::AlignCenter, count_label_);
}

// ------------------------------------------------------------- ClusterItem

ClusterItem::ClusterItem(GraphView* view, const layout::GraphCluster& cluster, const layout::ClusterBox& box)
    : view_(view), id_(cluster.id), rect_(0, 0, box.w, box.h), label_(QString::fromStdString(cluster.label)),
      is_fusion_(cluster.is_fusion) {
  setPos(box.x, box.y);
  setZValue(0);
  setToolTip(label_ + QStringLiteral("\n(double-click to collapse)"));
}

QRectF ClusterItem::boundingRect() const {
  return mark_ == KernelMark::kNone ? rect_.adjusted(-2, -2, 2, 2) : rect_.adjusted(-10, -11, 6, 6);
}

void ClusterItem::setKernelMark(KernelMark m, const QString& text) {
  if (m != mark_) prepareGeometryChange();
  mark_ = m;
  setToolTip(label_ + (m == KernelMark::kNone || text.isEmpty() ? QString() : QStringLiteral("\n") + text) +
             QStringLiteral("\n(double-click to collapse)"));
  update();
}

void ClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  p->setRenderHint(QPainter::Antialiasing);
  if (is_fusion_) {
    p->setPen(QPen(ToQColor(layout::kFusionClusterBorder), 1.5));
    p->setBrush(ToQColor(layout::kFusionClusterFill));
  } else {
    p->setPen(QPen(QColor(0x90, 0xa4, 0xae), 1.2, Qt::DashLine));
    p->setBrush(QColor(250, 250, 250, 120));
  }
  p->drawRoundedRect(rect_, 8, 8);
  p->setFont(NodeFont());
  p->setPen(is_fusion_ ? ToQColor(layout::kFusionClusterBorder) : QColor(0x54, 0x6e, 0x7a));
  p->drawText(rect_.adjusted(8, 2, -16, 0), Qt::AlignLeft | Qt::AlignTop, label_);
  QRectF badge(rect_.right() - 13, rect_.top() + 3, 10, 10);  // the collapse badge
  p->setBrush(Qt::white);
  p->drawRect(badge);
  p->drawLine(QPointF(badge.left() + 2, badge.center().y()), QPointF(badge.right() - 2, badge.center().y()));
  PaintKernelMark(p, rect_, mark_);
}

void ClusterItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) {
  view_->toggleExpanded(id_);
  e->accept();
}

}  // namespace hloscope::views
