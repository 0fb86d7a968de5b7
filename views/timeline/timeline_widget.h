// The buffer timeline: one step's buffer assignment drawn with x = schedule
// position and y = offset, one rectangle per buffer coloured by kind, the
// peak position marked, and below it the temp bytes live over time with the
// lower-bound line. The temp heap (what buffer assignment packs) is the main
// band; parameters, constants and outputs are one labelled band each above
// it, collapsed to a thin row until their label is clicked (then their
// allocations stack with height √size). Hover shows a buffer's name,
// shape, bytes, live range and defining instruction; a click selects the
// instruction; the selected instruction's buffers are highlighted. The
// wheel zooms horizontally around the cursor, dragging pans.
#pragma once

#include <QFont>
#include <QImage>
#include <QWidget>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/memory/buffer_assignment.h"
#include "core/passes/step_recorder.h"

namespace hloscope::views {

class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineWidget(QWidget* parent = nullptr);

  // `snapshot` maps buffer names to stable instruction ids; either may be null.
  void setAssignment(std::shared_ptr<const BufferAssignment> ba, std::shared_ptr<const ModuleSnapshot> snapshot);
  void setMessage(const QString& message);  // shown instead (errors, "computing…")
  void selectInstruction(int64_t id);
  int64_t selectedInstruction() const { return selected_; }

  const BufferAssignment* assignment() const { return ba_.get(); }
  std::shared_ptr<const BufferAssignment> sharedAssignment() const { return ba_; }
  // The stable id of buffer's defining instruction, or -1.
  int64_t instructionOf(int buffer) const;
  // Selects `id` and emits instructionSelected, as a click on its buffer does
  // (the peak list uses it).
  void activateInstruction(int64_t id);

  // The plot's bands, top to bottom: parameters, constants, outputs (those
  // the step has), then the temp heap (kind kTemp, always last when present).
  struct Band {
    BufferKind kind = BufferKind::kTemp;
    QRectF rect;    // widget coordinates
    QRectF header;  // the clickable label that toggles expansion (empty for the heap)
    int buffers = 0, allocations = 0;
    int64_t bytes = 0;
    bool expanded = false;
    QString label;  // "parameters · 412 buffers · 15.2 GB"
  };
  std::vector<Band> bands() const;
  void setBandExpanded(BufferKind kind, bool expanded);
  bool bandExpanded(BufferKind kind) const { return (expanded_ >> static_cast<int>(kind)) & 1u; }
  QString summary() const;
  // Indices into assignment()->buffers drawn highlighted.
  std::vector<int> highlightedBuffers() const;
  // The buffer drawn at a widget point, or -1 (tests use it with bufferRect).
  int bufferAt(QPointF p) const;
  QRectF bufferRect(int buffer) const;
  void zoomBy(double factor, double anchor_x);
  double zoom() const { return zoom_; }
  void resetZoom();

  // The buffers and the live-bytes curve are drawn into an image on a worker
  // thread (tens of thousands of rectangles on large modules); true while
  // the image for the current assignment, size, zoom and highlight is not
  // ready yet.
  bool rendering() const;

  QSize sizeHint() const override { return {600, 260}; }
  QSize minimumSizeHint() const override { return {200, 120}; }

 signals:
  void instructionSelected(qint64 id);
  // After setAssignment/setMessage, and after selectInstruction (from here
  // or from elsewhere): the peak list follows both.
  void assignmentChanged();
  void selectionChanged(qint64 id);

 protected:
  void paintEvent(QPaintEvent* e) override;
  bool event(QEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;

 private:
  QRectF plotArea() const;   // the buffers
  QRectF curveArea() const;  // live bytes over time
  double xOf(double position) const;
  int64_t idOfBuffer(int buffer) const;

  std::shared_ptr<const BufferAssignment> ba_;
  std::shared_ptr<const ModuleSnapshot> snapshot_;
  // Instruction id per name, built on first use (clicks, highlights): large
  // modules have tens of thousands, and most steps are never clicked.
  mutable std::unordered_map<std::string_view, int64_t> id_of_name_;
  mutable bool names_indexed_ = false;
  mutable std::vector<int> hi_;  // highlightedBuffers() for hi_for_
  mutable std::pair<const BufferAssignment*, int64_t> hi_for_{nullptr, -1};
  std::vector<int> order_;  // buffers by decreasing size (the drawing order)
  // What the worker-drawn layer shows; the layer is redrawn when it changes.
  struct LayerKey {
    const BufferAssignment* ba = nullptr;
    QSize size;
    double zoom = 0, pan = 0;
    bool dimmed = false;  // buffers drawn fainter while some are highlighted
    unsigned expanded = 0;
    bool operator==(const LayerKey&) const = default;
  };
  LayerKey currentKey() const;
  void startLayer();
  QImage layer_;
  LayerKey layer_key_, pending_key_;
  quint64 layer_gen_ = 0;
  // y of every allocation, in pixels from the plot's top: the temp heap's
  // offsets are linear over its band; in the other bands each allocation is
  // a strip of height ∝ √size (so one large parameter does not flatten the
  // rest); offsets are linear within a strip. Recomputed for the plot's
  // height and the expanded bands (layoutBands()).
  void layoutBands() const;
  QFont smallFont() const;
  int bandHeaderAt(QPointF p) const;  // index into bands_ whose header holds p, or -1
  mutable std::vector<double> alloc_base_;   // strip top per allocation index
  mutable std::vector<double> alloc_scale_;  // pixels per byte
  mutable double total_height_ = 1;
  mutable std::vector<Band> bands_;
  mutable std::pair<double, unsigned> bands_for_{-1, 0};  // plot height, expanded_
  struct Group {
    std::vector<int> allocations;
    int buffers = 0;
    int64_t bytes = 0;
    double weight = 0;  // Σ√size
  };
  Group groups_[4];    // per BufferKind, from setAssignment
  unsigned expanded_ = 0;  // bit per BufferKind
  int64_t positions_ = 1;
  QString message_;
  int64_t selected_ = -1;
  double zoom_ = 1.0, pan_ = 0.0;  // pan in positions
  bool dragging_ = false;
  double drag_x_ = 0, drag_pan_ = 0;
  bool moved_ = false;
};

}  // namespace hloscope::views
