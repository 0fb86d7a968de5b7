#include "views/pipeline/traffic_chart.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/pipeline/steps_model.h"

namespace hloscope::views {
namespace {

const QColor kRead("#1e88e5");
const QColor kWritten("#fb8c00");
const QColor kKernels("#37474f");
constexpr double kLeft = 54, kRight = 38, kTop = 36, kBottom = 18;

}  // namespace

TrafficChart::TrafficChart(QWidget* parent) : QWidget(parent) {
  setObjectName("traffic_chart");
  setMouseTracking(true);
  setWhatsThis(tr("HBM traffic per step: bytes read (blue) and written (orange) by all kernels, and kernel "
                  "launches (line, right axis). Hover a step for its numbers, click it to select it."));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void TrafficChart::setSteps(const std::vector<std::shared_ptr<const Step>>& steps) {
  series_ = report::TrafficSeries(steps);
  current_ = -1;
  hovered_ = -1;
  rescale();
  update();
}

void TrafficChart::appendStep(const Step& step) {
  series_.push_back(report::TrafficPointOf(step));
  rescale();
  update();
}

void TrafficChart::rescale() {
  int64_t max_bytes = 0, max_kernels = 0;
  for (const report::TrafficPoint& p : series_) {
    max_bytes = std::max(max_bytes, p.bytes());
    max_kernels = std::max(max_kernels, p.kernels);
  }
  bytes_axis_ = report::NiceAxisMax(static_cast<double>(max_bytes));
  kernel_axis_ = report::NiceAxisMax(static_cast<double>(max_kernels));
}

void TrafficChart::setCurrentStep(int k) {
  if (k == current_) return;
  current_ = k;
  update();
}

QRectF TrafficChart::plotRect() const {
  return QRectF(kLeft, kTop, std::max(1.0, width() - kLeft - kRight), std::max(1.0, height() - kTop - kBottom));
}

QRectF TrafficChart::stepRect(int k) const {
  if (k < 0 || k >= static_cast<int>(series_.size())) return {};
  const QRectF p = plotRect();
  const double slot = p.width() / static_cast<double>(series_.size());
  return QRectF(p.left() + slot * k, p.top(), slot, p.height());
}

int TrafficChart::stepAt(const QPointF& pos) const {
  const QRectF p = plotRect();
  if (series_.empty() || pos.x() < p.left() || pos.x() >= p.right() || pos.y() < p.top() - 4 ||
      pos.y() > p.bottom() + kBottom)
    return -1;
  const double slot = p.width() / static_cast<double>(series_.size());
  const int k = static_cast<int>((pos.x() - p.left()) / slot);
  return std::clamp(k, 0, static_cast<int>(series_.size()) - 1);
}

QString TrafficChart::describe(int k) const {
  if (k < 0 || k >= static_cast<int>(series_.size())) return {};
  const report::TrafficPoint& s = series_[k];
  QString text = tr("step %1 %2: read %3, written %4, %5 kernels")
                     .arg(s.step)
                     .arg(QString::fromStdString(s.pass))
                     .arg(HumanBytes(s.bytes_read))
                     .arg(HumanBytes(s.bytes_written))
                     .arg(s.kernels);
  if (k > 0) {
    const report::TrafficPoint& prev = series_[k - 1];
    if (s.bytes() != prev.bytes() || s.kernels != prev.kernels)
      text += tr(" (%1, %2 kernels)").arg(SignedBytes(s.bytes() - prev.bytes())).arg(SignedCount(s.kernels - prev.kernels));
  }
  return text;
}

void TrafficChart::paintEvent(QPaintEvent*) {
  QPainter g(this);
  g.fillRect(rect(), palette().base());
  g.setRenderHint(QPainter::Antialiasing, false);
  QFont small = font();
  small.setPointSizeF(std::max(6.5, font().pointSizeF() - 1.5));
  g.setFont(small);
  const QFontMetricsF fm(small);
  const QColor text = palette().color(QPalette::Text), muted("#757575");
  // Header: the hovered (else the current) step's numbers, then the legend.
  const int shown = hovered_ >= 0 ? hovered_ : current_;
  QString head = series_.empty() ? tr("HBM traffic per step: no run yet")
                 : shown >= 0    ? describe(shown)
                                 : tr("HBM traffic per step (%1 steps)").arg(static_cast<int>(series_.size()));
  g.setPen(text);
  g.drawText(QRectF(4, 2, width() - 8, 16), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(head, Qt::ElideRight, width() - 8));
  double lx = 4;
  auto legend = [&](const QColor& c, const QString& label, bool line) {
    if (line) {
      g.setPen(QPen(c, 2));
      g.drawLine(QPointF(lx, 26), QPointF(lx + 12, 26));
    } else {
      g.fillRect(QRectF(lx + 2, 21, 9, 9), c);
    }
    g.setPen(muted);
    g.drawText(QPointF(lx + 15, 30), label);
    lx += 15 + fm.horizontalAdvance(label) + 12;
  };
  legend(kRead, tr("read"), false);
  legend(kWritten, tr("written"), false);
  legend(kKernels, tr("kernel launches (right axis)"), true);
  if (series_.empty()) return;

  const QRectF p = plotRect();
  const int n = static_cast<int>(series_.size());
  const double slot = p.width() / n;
  const double bar = std::max(1.0, slot * 0.7);
  auto yb = [&](double b) { return p.bottom() - p.height() * b / bytes_axis_; };
  auto yk = [&](double k) { return p.bottom() - p.height() * k / kernel_axis_; };
  // The current and the hovered step's columns.
  if (current_ >= 0 && current_ < n) g.fillRect(stepRect(current_), QColor("#fff3c4"));
  if (hovered_ >= 0 && hovered_ < n && hovered_ != current_) g.fillRect(stepRect(hovered_), QColor("#eceff1"));
  // Grid and axes.
  for (int t = 0; t <= 4; ++t) {
    const double f = t / 4.0, y = p.bottom() - p.height() * f;
    g.setPen(t == 0 ? QColor("#9e9e9e") : QColor("#eeeeee"));
    g.drawLine(QPointF(p.left(), y), QPointF(p.right(), y));
    g.setPen(muted);
    g.drawText(QRectF(0, y - 8, kLeft - 4, 16), Qt::AlignRight | Qt::AlignVCenter,
               QString::fromStdString(report::AxisBytes(bytes_axis_ * f)));
    g.setPen(kKernels);
    g.drawText(QRectF(p.right() + 4, y - 8, kRight - 4, 16), Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(static_cast<long long>(std::llround(kernel_axis_ * f))));
  }
  // Bars: read below, written on top; steps whose pass changed nothing faded.
  for (int i = 0; i < n; ++i) {
    const report::TrafficPoint& s = series_[i];
    const double cx = p.left() + slot * (i + 0.5);
    const double yr = yb(static_cast<double>(s.bytes_read)), yt = yb(static_cast<double>(s.bytes()));
    QColor r = kRead, w = kWritten;
    if (!s.changed) {
      r.setAlphaF(0.45);
      w.setAlphaF(0.45);
    }
    g.fillRect(QRectF(cx - bar / 2, yr, bar, p.bottom() - yr), r);
    g.fillRect(QRectF(cx - bar / 2, yt, bar, yr - yt), w);
  }
  // Kernel launches.
  g.setRenderHint(QPainter::Antialiasing, true);
  QPainterPath line;
  for (int i = 0; i < n; ++i) {
    const QPointF q(p.left() + slot * (i + 0.5), yk(static_cast<double>(series_[i].kernels)));
    if (i == 0) line.moveTo(q);
    else line.lineTo(q);
  }
  g.setPen(QPen(kKernels, 1.6));
  g.setBrush(Qt::NoBrush);
  g.drawPath(line);
  if (slot >= 5) {
    g.setBrush(kKernels);
    g.setPen(Qt::NoPen);
    for (int i = 0; i < n; ++i)
      g.drawEllipse(QPointF(p.left() + slot * (i + 0.5), yk(static_cast<double>(series_[i].kernels))), 2, 2);
  }
  g.setRenderHint(QPainter::Antialiasing, false);
  // Step numbers, as many as fit.
  g.setPen(muted);
  const int every = std::max(1, static_cast<int>(std::ceil(fm.horizontalAdvance("000") * 1.6 / slot)));
  for (int i = 0; i < n; i += every)
    g.drawText(QRectF(p.left() + slot * i - 20 + slot / 2, p.bottom() + 2, 40, kBottom - 2), Qt::AlignCenter,
               QString::number(series_[i].step));
}

void TrafficChart::mouseMoveEvent(QMouseEvent* e) {
  const int k = stepAt(e->position());
  if (k != hovered_) {
    hovered_ = k;
    update();
  }
  if (k >= 0)
    QToolTip::showText(e->globalPosition().toPoint(), QString::fromStdString(report::TrafficSummary(series_[k])), this,
                       stepRect(k).toAlignedRect());
  else
    QToolTip::hideText();
}

void TrafficChart::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
  const int k = stepAt(e->position());
  if (k < 0) return;
  emit stepClicked(k);
}

void TrafficChart::leaveEvent(QEvent*) {
  if (hovered_ < 0) return;
  hovered_ = -1;
  update();
}

}  // namespace hloscope::views
