#include "views/timeline/timeline_widget.h"
#include "views/common/release_off_thread.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPointer>
#include <QThreadPool>
#include <functional>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/layout/palette.h"
#include "core/memory/logical_buffers.h"
#include "views/common/qt_palette.h"
#include "views/common/ui_timer.h"
#include "views/pipeline/steps_model.h"

namespace hloscope::views {
namespace {
constexpr double kMargin = 6, kSummaryHeight = 18, kLeftAxis = 56;
constexpr double kBandRow = 16;  // a collapsed band: its label row

// Everything the worker needs to draw the buffers and the curve.
struct LayerInput {
  std::shared_ptr<const BufferAssignment> ba;
  std::vector<int> order;
  std::vector<double> alloc_base, alloc_scale;
  double total_height = 1;
  int64_t positions = 1;
  double zoom = 1, pan = 0;
  QRectF area, curve;  // plot and curve areas in widget coordinates
  QSize size;
  qreal dpr = 1;
  bool dimmed = false;
};

double XOf(const LayerInput& in, double position) {
  return in.area.left() + (position - in.pan) * in.zoom * in.area.width() / static_cast<double>(in.positions);
}

QRectF BufferRectOf(const AssignedBuffer& b, const QRectF& p, const std::vector<double>& alloc_base,
                    const std::vector<double>& alloc_scale, double total_height, const std::function<double(double)>& x_of) {
  const bool known = b.allocation >= 0 && b.allocation < static_cast<int>(alloc_base.size());
  const double base = known ? alloc_base[b.allocation] : 0;
  const double scale = known ? alloc_scale[b.allocation] : 0;
  const double y0 = p.top() + (base + static_cast<double>(b.offset) * scale) * p.height() / total_height;
  const double h = std::max(1.0, static_cast<double>(b.bytes) * scale * p.height() / total_height);
  const double x0 = x_of(static_cast<double>(b.start)), x1 = x_of(static_cast<double>(b.end + 1));
  return QRectF(x0, y0, std::max(1.0, x1 - x0), h);
}

// The buffers (big ones first so small ones stay visible on top) and the
// temp bytes live per position, on a transparent image of the widget's size.
QImage RenderLayer(const LayerInput& in) {
  if (in.size.isEmpty()) return QImage();
  QImage img(in.size * in.dpr, QImage::Format_ARGB32_Premultiplied);
  img.setDevicePixelRatio(in.dpr);
  img.fill(Qt::transparent);
  QPainter p(&img);
  p.setRenderHint(QPainter::Antialiasing, false);
  const BufferAssignment& ba = *in.ba;
  p.save();
  p.setClipRect(in.area.adjusted(0, 0, 1, 1));
  constexpr int kKinds = 4;  // one fill and one outline colour per buffer kind
  QColor fill[kKinds], outline[kKinds];
  for (int k = 0; k < kKinds; ++k) {
    fill[k] = ToQColor(layout::BufferKindColor(BufferKindName(static_cast<BufferKind>(k))));
    fill[k].setAlpha(in.dimmed ? 110 : 200);
    outline[k] = fill[k].darker(140);
  }
  auto x_of = [&](double pos) { return XOf(in, pos); };
  int pen_kind = -1;
  for (int i : in.order) {
    const AssignedBuffer& b = ba.buffers[static_cast<size_t>(i)];
    const int kind = std::clamp(static_cast<int>(b.kind), 0, kKinds - 1);
    const QRectF r = BufferRectOf(b, in.area, in.alloc_base, in.alloc_scale, in.total_height, x_of);
    if (r.right() < in.area.left() || r.left() > in.area.right()) continue;
    p.fillRect(r, fill[kind]);
    if (kind != pen_kind) p.setPen(QPen(outline[kind], 0));
    pen_kind = kind;
    p.drawRect(r);
  }
  // Copies that copy_insertion added for donated parameters: a dashed frame.
  for (const IoAliasOutcome& io : ba.io_aliases) {
    if (io.copy.empty() || io.output_buffer < 0 || io.output_buffer >= static_cast<int>(ba.buffers.size())) continue;
    const QRectF r = BufferRectOf(ba.buffers[static_cast<size_t>(io.output_buffer)], in.area, in.alloc_base,
                                  in.alloc_scale, in.total_height, x_of);
    p.setPen(QPen(QColor("#212121"), 2, Qt::DashLine));
    p.drawRect(r.adjusted(-1, -1, 1, 1));
  }
  p.restore();
  const QRectF& ca = in.curve;
  if (ca.height() > 10 && !ba.live_bytes.empty()) {
    int64_t top = std::max<int64_t>({ba.peak_bytes, ba.lower_bound_bytes, 1});
    for (int64_t v : ba.live_bytes) top = std::max(top, v);
    auto y_of = [&](double v) { return ca.bottom() - v * ca.height() / static_cast<double>(top); };
    p.setClipRect(ca.adjusted(0, -1, 1, 1));
    QPainterPath path;
    path.moveTo(x_of(0), ca.bottom());
    for (size_t i = 0; i < ba.live_bytes.size(); ++i) {
      const double y = y_of(static_cast<double>(ba.live_bytes[i]));
      path.lineTo(x_of(static_cast<double>(i)), y);
      path.lineTo(x_of(static_cast<double>(i + 1)), y);
    }
    path.lineTo(x_of(static_cast<double>(ba.live_bytes.size())), ca.bottom());
    path.closeSubpath();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillPath(path, QColor(21, 101, 192, 60));
    p.setPen(QPen(QColor("#1565c0"), 1));
    p.drawPath(path);
  }
  return img;
}

}  // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMessage(tr("No buffer assignment yet."));
}

void TimelineWidget::setAssignment(std::shared_ptr<const BufferAssignment> ba,
                                   std::shared_ptr<const ModuleSnapshot> snapshot) {
  ReplaceOffThread(ba_, std::move(ba));
  ReplaceOffThread(snapshot_, std::move(snapshot));
  message_.clear();
  UiTimer ui_timer("timeline: setAssignment");
  id_of_name_.clear();
  names_indexed_ = false;
  hi_for_ = {nullptr, -2};  // no selection is -1: recomputed on next use
  order_.clear();
  for (Group& g : groups_) g = Group{};
  bands_for_ = {-1, 0};
  positions_ = 1;
  if (ba_) {
    // Big buffers first so small ones stay visible on top.
    order_.resize(ba_->buffers.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](int a, int b) { return ba_->buffers[a].bytes > ba_->buffers[b].bytes; });
    for (const AllocationInfo& a : ba_->allocations) {
      Group& g = groups_[std::clamp(static_cast<int>(a.kind), 0, 3)];
      g.allocations.push_back(a.index);
      g.buffers += static_cast<int>(a.buffers.size());
      g.bytes += a.size;
      g.weight += std::sqrt(static_cast<double>(std::max<int64_t>(a.size, 1)));
    }
    positions_ = std::max<int64_t>(static_cast<int64_t>(ba_->sequence.size()), 1);
    for (const AssignedBuffer& b : ba_->buffers) positions_ = std::max(positions_, b.end + 1);
  }
  layer_ = QImage();
  layer_key_ = pending_key_ = LayerKey{};
  startLayer();
  update();
  emit assignmentChanged();
}

void TimelineWidget::setMessage(const QString& message) {
  ReleaseOffThread(std::move(ba_));
  ba_.reset();
  message_ = message;
  update();
  emit assignmentChanged();
}

void TimelineWidget::selectInstruction(int64_t id) {
  selected_ = id;
  update();
  emit selectionChanged(id);
}

void TimelineWidget::activateInstruction(int64_t id) {
  if (id < 0) return;
  selectInstruction(id);
  emit instructionSelected(id);
}

void TimelineWidget::setBandExpanded(BufferKind kind, bool expanded) {
  const unsigned bit = 1u << static_cast<int>(kind);
  expanded_ = expanded ? expanded_ | bit : expanded_ & ~bit;
  update();
}

std::vector<TimelineWidget::Band> TimelineWidget::bands() const {
  layoutBands();
  return bands_;
}

void TimelineWidget::layoutBands() const {
  const QRectF area = plotArea();
  const double h = std::max(1.0, area.height());
  if (bands_for_ == std::make_pair(h, expanded_) || !ba_) return;
  bands_for_ = {h, expanded_};
  bands_.clear();
  int max_alloc = -1;
  for (const AllocationInfo& a : ba_->allocations) max_alloc = std::max(max_alloc, a.index);
  alloc_base_.assign(static_cast<size_t>(max_alloc + 1), 0);
  alloc_scale_.assign(static_cast<size_t>(max_alloc + 1), 0);
  total_height_ = h;
  // Heights: a collapsed band is one label row; expanded bands share what
  // the rows leave of half the plot (all of it when there is no heap); the
  // heap the rest, so never less than half.
  const BufferKind kinds[] = {BufferKind::kParameter, BufferKind::kConstant, BufferKind::kOutput};
  const Group& heap = groups_[static_cast<int>(BufferKind::kTemp)];
  const bool has_heap = !heap.allocations.empty();
  double rows = 0, weight = 0;
  for (BufferKind k : kinds) {
    const Group& g = groups_[static_cast<int>(k)];
    if (g.allocations.empty()) continue;
    rows += kBandRow;
    if (bandExpanded(k)) weight += std::max(g.weight, 1.0);
  }
  const double rest = std::max(0.0, h - rows);
  const double shared = weight > 0 ? (has_heap ? std::max(0.0, 0.5 * h - rows) : rest) : 0;
  double y = 0;
  auto name = [](BufferKind k) {
    switch (k) {
      case BufferKind::kParameter: return tr("parameters");
      case BufferKind::kConstant: return tr("constants");
      case BufferKind::kOutput: return tr("outputs");
      case BufferKind::kTemp: break;
    }
    return tr("temporaries (heap)");
  };
  auto count = [](int n) { return n == 1 ? tr("1 buffer") : tr("%1 buffers").arg(n); };
  QFontMetricsF fm(smallFont());
  for (BufferKind k : kinds) {
    const Group& g = groups_[static_cast<int>(k)];
    if (g.allocations.empty()) continue;
    Band b;
    b.kind = k;
    b.expanded = bandExpanded(k);
    b.buffers = g.buffers;
    b.allocations = static_cast<int>(g.allocations.size());
    b.bytes = g.bytes;
    b.label = tr("%1 %2 · %3 · %4")
                  .arg(b.expanded ? QStringLiteral("▾") : QStringLiteral("▸"), name(k), count(b.buffers))
                  .arg(HumanBytes(b.bytes));
    const double bh = kBandRow + (b.expanded ? shared * std::max(g.weight, 1.0) / weight : 0);
    b.rect = QRectF(area.left(), area.top() + y, area.width(), bh);
    b.header = QRectF(area.left() + 1, b.rect.top() + 1, std::min(area.width() - 2, fm.horizontalAdvance(b.label) + 10),
                      std::min(kBandRow, bh) - 2);
    // Strips of height ∝ √size, stacked in allocation order.
    double strip = y;
    for (int a : g.allocations) {
      const double size = static_cast<double>(std::max<int64_t>(ba_->allocations[a].size, 1));
      const double sh = bh * std::sqrt(size) / std::max(g.weight, 1.0);
      alloc_base_[a] = strip;
      alloc_scale_[a] = sh / size;
      strip += sh;
    }
    y += bh;
    bands_.push_back(std::move(b));
  }
  if (has_heap) {
    Band b;
    b.kind = BufferKind::kTemp;
    b.expanded = true;
    b.buffers = heap.buffers;
    b.allocations = static_cast<int>(heap.allocations.size());
    b.bytes = heap.bytes;
    b.label = tr("%1 · %2 · %3").arg(name(BufferKind::kTemp), count(b.buffers), HumanBytes(b.bytes));
    b.rect = QRectF(area.left(), area.top() + y, area.width(), std::max(0.0, h - y));
    // Offsets linear over the whole band (one temp allocation in practice).
    const double per_byte = b.rect.height() / static_cast<double>(std::max<int64_t>(heap.bytes, 1));
    double base = y;
    for (int a : heap.allocations) {
      alloc_base_[a] = base;
      alloc_scale_[a] = per_byte;
      base += static_cast<double>(ba_->allocations[a].size) * per_byte;
    }
    bands_.push_back(std::move(b));
  }
}

QFont TimelineWidget::smallFont() const {
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1));
  return small;
}

int TimelineWidget::bandHeaderAt(QPointF p) const {
  if (!ba_) return -1;
  layoutBands();
  for (size_t i = 0; i < bands_.size(); ++i)
    if (bands_[i].kind != BufferKind::kTemp && bands_[i].header.contains(p)) return static_cast<int>(i);
  return -1;
}

QString TimelineWidget::summary() const {
  if (!ba_) return message_;
  return tr("peak %1 · lower bound %2 · ratio %3 · scheduler %4 · %5 buffers · %6 positions")
      .arg(HumanBytes(ba_->peak_bytes))
      .arg(HumanBytes(ba_->lower_bound_bytes))
      .arg(ba_->ratio(), 0, 'f', 3)
      .arg(QString::fromStdString(ba_->scheduler))
      .arg(ba_->buffers.size())
      .arg(positions_);
}

int64_t TimelineWidget::instructionOf(int buffer) const {
  if (!ba_ || buffer < 0 || buffer >= static_cast<int>(ba_->buffers.size())) return -1;
  return idOfBuffer(buffer);
}

int64_t TimelineWidget::idOfBuffer(int buffer) const {
  const AssignedBuffer& b = ba_->buffers[buffer];
  if (!names_indexed_) {
    names_indexed_ = true;
    if (snapshot_) {
      id_of_name_.reserve(snapshot_->instructions.size());
      for (const InstructionRecord& r : snapshot_->instructions) id_of_name_.emplace(r.name, r.id);
    }
  }
  auto it = id_of_name_.find(b.instruction);
  return it == id_of_name_.end() ? -1 : it->second;
}

std::vector<int> TimelineWidget::highlightedBuffers() const {
  // Cached per assignment and selection (paint and rendering() ask often).
  if (hi_for_ == std::make_pair(ba_.get(), selected_)) return hi_;
  hi_.clear();
  hi_for_ = {ba_.get(), selected_};
  if (!ba_ || selected_ < 0) return hi_;
  for (int i = 0; i < static_cast<int>(ba_->buffers.size()); ++i)
    if (idOfBuffer(i) == selected_) hi_.push_back(i);
  return hi_;
}

QRectF TimelineWidget::plotArea() const {
  QRectF r = rect().adjusted(kMargin + kLeftAxis, kMargin + kSummaryHeight, -kMargin, -kMargin);
  r.setHeight(r.height() * 0.72);
  return r;
}

QRectF TimelineWidget::curveArea() const {
  QRectF p = plotArea();
  return QRectF(p.left(), p.bottom() + 8, p.width(), height() - kMargin - p.bottom() - 8);
}

double TimelineWidget::xOf(double position) const {
  QRectF p = plotArea();
  return p.left() + (position - pan_) * zoom_ * p.width() / static_cast<double>(positions_);
}

QRectF TimelineWidget::bufferRect(int buffer) const {
  layoutBands();
  return BufferRectOf(ba_->buffers[buffer], plotArea(), alloc_base_, alloc_scale_, total_height_,
                      [this](double pos) { return xOf(pos); });
}

TimelineWidget::LayerKey TimelineWidget::currentKey() const {
  return {ba_.get(), size(), zoom_, pan_, ba_ && selected_ >= 0 && !highlightedBuffers().empty(), expanded_};
}

bool TimelineWidget::rendering() const { return ba_ && pending_key_ == currentKey() && layer_key_ != pending_key_; }

void TimelineWidget::startLayer() {
  const LayerKey key = currentKey();
  if (!ba_ || key == layer_key_ || key == pending_key_) return;
  pending_key_ = key;
  layoutBands();
  const quint64 gen = ++layer_gen_;
  LayerInput in{ba_, order_, alloc_base_, alloc_scale_, total_height_, positions_, zoom_, pan_, plotArea(),
                curveArea(), size(), devicePixelRatioF(), key.dimmed};
  QPointer<TimelineWidget> self(this);
  QThreadPool::globalInstance()->start([self, gen, key, in = std::move(in)] {
    QImage img = RenderLayer(in);
    QMetaObject::invokeMethod(
        qApp,
        [self, gen, key, img = std::move(img)]() mutable {
          if (!self || gen != self->layer_gen_) return;
          self->layer_ = std::move(img);
          self->layer_key_ = key;
          self->update();
        },
        Qt::QueuedConnection);
  });
}

int TimelineWidget::bufferAt(QPointF pt) const {
  if (!ba_ || !plotArea().contains(pt) || bandHeaderAt(pt) >= 0) return -1;
  // Last drawn wins; small buffers are drawn after big ones.
  int best = -1;
  double best_area = 0;
  for (int i = 0; i < static_cast<int>(ba_->buffers.size()); ++i) {
    QRectF r = bufferRect(i);
    if (!r.contains(pt)) continue;
    double area = r.width() * r.height();
    if (best < 0 || area < best_area) best = i, best_area = area;
  }
  return best;
}

void TimelineWidget::zoomBy(double factor, double anchor_x) {
  QRectF p = plotArea();
  const double pos = pan_ + (anchor_x - p.left()) / (zoom_ * p.width()) * static_cast<double>(positions_);
  zoom_ = std::clamp(zoom_ * factor, 1.0, 1000.0);
  pan_ = pos - (anchor_x - p.left()) / (zoom_ * p.width()) * static_cast<double>(positions_);
  pan_ = std::clamp(pan_, 0.0, static_cast<double>(positions_) * (1.0 - 1.0 / zoom_));
  update();
}

void TimelineWidget::resetZoom() {
  zoom_ = 1.0;
  pan_ = 0.0;
  update();
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  UiTimer ui_timer("timeline: paint");
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  p.setRenderHint(QPainter::Antialiasing, false);
  if (!ba_) {
    p.setPen(QColor("#666666"));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, message_);
    return;
  }
  p.setFont(smallFont());
  p.setPen(QColor("#222222"));
  p.drawText(QRectF(kMargin, kMargin, width() - 2 * kMargin, kSummaryHeight), Qt::AlignLeft | Qt::AlignVCenter, summary());
  const QRectF area = plotArea();
  p.fillRect(area, QColor("#fafafa"));
  // The buffers and the curve: the worker-drawn layer (a stale one, stretched,
  // while the current one is drawn).
  startLayer();
  if (!layer_.isNull()) p.drawImage(QRectF(QPointF(0, 0), QSizeF(size())), layer_);
  std::vector<int> hi = highlightedBuffers();
  p.save();
  p.setClipRect(area.adjusted(0, 0, 1, 1));
  for (int i : hi) {
    p.setPen(QPen(ToQColor(layout::kSelectedColor), 2));
    p.fillRect(bufferRect(i), ToQColor(layout::kSelectedColor).lighter(150));
    p.drawRect(bufferRect(i));
  }
  // Peak position.
  const double px = xOf(static_cast<double>(ba_->peak_position) + 0.5);
  p.setPen(QPen(QColor("#c62828"), 1, Qt::DashLine));
  p.drawLine(QPointF(px, area.top()), QPointF(px, curveArea().bottom()));
  p.restore();
  p.setPen(QColor("#444444"));
  p.drawRect(area);
  // Bands: a rule between them, the label (a toggle, except the heap's), the
  // heap's size on the axis; ticks between the strips of an expanded band.
  layoutBands();
  for (const Band& b : bands_) {
    p.setPen(QColor("#9e9e9e"));
    if (b.rect.top() > area.top()) p.drawLine(QPointF(area.left() - 6, b.rect.top()), b.rect.topRight());
    if (b.kind == BufferKind::kTemp) {
      p.setPen(QColor("#444444"));
      p.drawText(QRectF(0, b.rect.top() + 2, kLeftAxis + kMargin - 2, std::min(b.rect.height(), 42.0)),
                 Qt::AlignRight | Qt::TextWordWrap, tr("heap\n%1\n%2 buf").arg(HumanBytes(b.bytes)).arg(b.buffers));
      continue;
    }
    if (b.expanded) {
      p.setPen(QColor("#bbbbbb"));
      for (int a : groups_[static_cast<int>(b.kind)].allocations) {
        const double top = area.top() + alloc_base_[a];
        p.drawLine(QPointF(area.left() - 4, top), QPointF(area.left(), top));
      }
    }
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 225));
    p.drawRect(b.header);
    p.setBrush(Qt::NoBrush);
    p.setPen(QColor("#9e9e9e"));
    p.drawRect(b.header);
    p.setPen(QColor("#212121"));
    p.drawText(b.header.adjusted(5, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, b.label);
  }
  // Memory over time: temp bytes live per position, the lower bound, the packed peak.
  const QRectF ca = curveArea();
  if (ca.height() > 10 && !ba_->live_bytes.empty()) {
    int64_t top = std::max<int64_t>({ba_->peak_bytes, ba_->lower_bound_bytes, 1});
    for (int64_t v : ba_->live_bytes) top = std::max(top, v);
    auto yOf = [&](double v) { return ca.bottom() - v * ca.height() / static_cast<double>(top); };
    p.save();
    p.setClipRect(ca.adjusted(0, -1, 1, 1));
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor("#2e7d32"), 1, Qt::DashLine));
    p.drawLine(QPointF(ca.left(), yOf(static_cast<double>(ba_->lower_bound_bytes))),
               QPointF(ca.right(), yOf(static_cast<double>(ba_->lower_bound_bytes))));
    p.setPen(QPen(QColor("#c62828"), 1, Qt::DotLine));
    p.drawLine(QPointF(ca.left(), yOf(static_cast<double>(ba_->peak_bytes))),
               QPointF(ca.right(), yOf(static_cast<double>(ba_->peak_bytes))));
    p.restore();
    p.setPen(QColor("#444444"));
    p.drawRect(ca);
    p.drawText(QRectF(0, ca.top(), kLeftAxis + kMargin - 2, 14), Qt::AlignRight, HumanBytes(top));
    p.setPen(QColor("#2e7d32"));
    p.drawText(QRectF(ca.left() + 4, ca.top() + 1, ca.width() - 8, 14), Qt::AlignRight,
               tr("live temp bytes · - - lower bound · ··· packed peak"));
  }
}

bool TimelineWidget::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && ba_) {
    auto* he = static_cast<QHelpEvent*>(e);
    if (const int h = bandHeaderAt(he->pos()); h >= 0) {
      const Band& b = bands_[static_cast<size_t>(h)];
      QToolTip::showText(he->globalPos(),
                         tr("<b>%1</b>: %2 buffers in %3 allocations, %4<br>Click to %5 the band.")
                             .arg(QString::fromUtf8(BufferKindName(b.kind).data(),
                                                    static_cast<qsizetype>(BufferKindName(b.kind).size())))
                             .arg(b.buffers)
                             .arg(b.allocations)
                             .arg(HumanBytes(b.bytes))
                             .arg(b.expanded ? tr("collapse") : tr("expand")),
                         this);
      return true;
    }
    int i = bufferAt(he->pos());
    if (i < 0) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    const AssignedBuffer& b = ba_->buffers[i];
    QString index;
    for (int64_t x : b.index) index += (index.isEmpty() ? "" : ",") + QString::number(x);
    QString extra;
    if (!b.share_reason.empty()) extra += "<br>shares: " + QString::fromStdString(b.share_reason).toHtmlEscaped();
    if (const IoAliasOutcome* io = ba_->AliasOf(b.id); io && !io->copy.empty())
      extra += tr("<br><b>copy inserted</b> by copy_insertion so that the donated parameter is not overwritten "
                  "while still read");
    QToolTip::showText(he->globalPos(),
                       tr("<b>buffer %1</b> (%2)<br>%3%4<br><code>%5</code><br>%6 at offset %7 of allocation %8<br>"
                          "live %9 – %10<br>defined by %%11")
                           .arg(b.id)
                           .arg(QString::fromUtf8(BufferKindName(b.kind).data(),
                                                  static_cast<qsizetype>(BufferKindName(b.kind).size())))
                           .arg(QString::fromStdString(b.instruction))
                           .arg(index.isEmpty() ? QString() : " {" + index + "}")
                           .arg(QString::fromStdString(b.shape).toHtmlEscaped())
                           .arg(HumanBytes(b.bytes))
                           .arg(b.offset)
                           .arg(b.allocation)
                           .arg(b.start)
                           .arg(b.end)
                           .arg(QString::fromStdString(b.instruction)) +
                           extra,
                       this);
    return true;
  }
  return QWidget::event(e);
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  dragging_ = true;
  moved_ = false;
  drag_x_ = e->position().x();
  drag_pan_ = pan_;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
  if (!dragging_) {
    setCursor(bandHeaderAt(e->position()) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    return;
  }
  const double dx = e->position().x() - drag_x_;
  if (std::abs(dx) > 3) moved_ = true;
  if (!moved_) return;
  const double per_px = static_cast<double>(positions_) / (zoom_ * std::max(1.0, plotArea().width()));
  pan_ = std::clamp(drag_pan_ - dx * per_px, 0.0, static_cast<double>(positions_) * (1.0 - 1.0 / zoom_));
  update();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (!dragging_) return;
  dragging_ = false;
  if (moved_ || !ba_) return;
  if (const int h = bandHeaderAt(e->position()); h >= 0) {
    const BufferKind kind = bands_[static_cast<size_t>(h)].kind;
    setBandExpanded(kind, !bandExpanded(kind));
    return;
  }
  int i = bufferAt(e->position());
  if (i < 0) return;
  int64_t id = idOfBuffer(i);
  if (id < 0) return;
  selectInstruction(id);
  emit instructionSelected(id);
}

void TimelineWidget::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoomBy(std::pow(1.25, steps), e->position().x());
}

}  // namespace hloscope::views
