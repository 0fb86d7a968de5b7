// Scene items of the graph view: instruction/group nodes (rounded boxes in
// the category's colours), edges (the layout's splines with an arrowhead) and
// clusters (fusions, open namespace groups).
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QStringList>
#include <cstdint>

#include "core/layout/graph_layout.h"

namespace hloscope::views {

class GraphView;

// Change highlight of a node in the current step.
enum class ChangeKind { kNone, kAdded, kRemoved, kFolded, kRewritten };
QColor ChangeColor(ChangeKind k);

// A mark from the step's kernel plan (after Step → Generate kernels): the
// instruction's kernel is missing (no emitter implements it), or it is a
// custom-call into an external target (no kernel of ours).
enum class KernelMark { kNone, kMissing, kExternal };
QColor KernelMarkColor(KernelMark m);
// Draws the mark's outline around `r` (and its badge at the top-left).
void PaintKernelMark(QPainter* p, const QRectF& r, KernelMark m);

// XLA's refusal of a producer (its priority fusion log, on an XLA dump
// run's priority fusion step): a solid orange outline and an "XLA" badge at
// the top-right.
QColor RefusalMarkColor();
void PaintRefusalMark(QPainter* p, const QRectF& r);

class NodeItem : public QGraphicsItem {
 public:
  NodeItem(GraphView* view, const layout::GraphNode& node, const layout::NodeBox& box, bool ghost);
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  int64_t id() const { return id_; }
  bool ghost() const { return ghost_; }
  QRectF labelRect() const { return rect_; }  // the box its label fills
  const QString& searchText() const { return search_; }
  void setChange(ChangeKind k);
  ChangeKind change() const { return change_; }
  void setSelectedNode(bool s);
  bool selectedNode() const { return selected_; }
  // `text` (the reason, the target) is added to the tooltip.
  void setKernelMark(KernelMark m, const QString& text);
  KernelMark kernelMark() const { return mark_; }
  // XLA refused to fuse it as a producer; `reason` (XLA's) in the tooltip.
  void setRefusalMark(bool on, const QString& reason);
  bool refusalMark() const { return refused_; }

 protected:
  void hoverEnterEvent(QGraphicsSceneHoverEvent* e) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* e) override;
  void mousePressEvent(QGraphicsSceneMouseEvent* e) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) override;

 private:
  GraphView* view_;
  int64_t id_;
  QRectF rect_;  // local, origin at the box's top-left
  QStringList lines_;
  QString search_;
  OpCategory category_;
  bool is_group_, is_fusion_, ghost_;
  bool hovered_ = false, selected_ = false;
  ChangeKind change_ = ChangeKind::kNone;
  KernelMark mark_ = KernelMark::kNone;
  bool refused_ = false;
  QString tip_;  // the tooltip without the marks' texts
  QString mark_text_, refusal_text_;
  void updateToolTip();
};

// An aggregated edge between groups (count > 1) is drawn thicker, with its
// count ("×200") in a small box at the middle of the curve; the box is left
// out below 0.35x, where it would not be readable.
class EdgeItem : public QGraphicsPathItem {
 public:
  EdgeItem(const layout::GraphEdge& edge, const layout::EdgePath& path);
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  int64_t from() const { return from_; }
  int64_t to() const { return to_; }
  void setEmphasis(bool on);
  const QString& countLabel() const { return count_label_; }  // "" unless aggregated
  QRectF countLabelRect() const { return count_rect_; }        // scene = item coordinates

 private:
  int64_t from_, to_;
  QPolygonF arrow_;
  bool emphasis_ = false;
  QString count_label_;
  QRectF count_rect_;
};

class ClusterItem : public QGraphicsItem {
 public:
  ClusterItem(GraphView* view, const layout::GraphCluster& cluster, const layout::ClusterBox& box);
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  int64_t id() const { return id_; }
  // Where its title is drawn (top-left, one line).
  QRectF labelRect() const {
    return QRectF(rect_.left() + 8, rect_.top() + 2, label_.size() * layout::kCharWidthPt, layout::kLineHeightPt);
  }
  void setKernelMark(KernelMark m, const QString& text);  // an expanded fusion

 protected:
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) override;

 private:
  GraphView* view_;
  int64_t id_;
  QRectF rect_;
  QString label_;
  bool is_fusion_;
  KernelMark mark_ = KernelMark::kNone;
};

}  // namespace hloscope::views
