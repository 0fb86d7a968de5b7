// HBM traffic per step (the warehouse trips) in the pipeline panel: one
// stacked bar per step — bytes read from HBM below, bytes written on top,
// on the left axis — and kernel launches as a line on the right axis. The
// numbers are core/report/traffic.h's series (the step recorder's cost
// totals, computed on the pipeline's thread), so adding a step costs the UI
// thread one point and a repaint. The current step is shaded, hovering a
// step shows its numbers (header line and tooltip), clicking one emits
// stepClicked.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "core/passes/step_recorder.h"
#include "core/report/traffic.h"

namespace hloscope::views {

class TrafficChart : public QWidget {
  Q_OBJECT

 public:
  explicit TrafficChart(QWidget* parent = nullptr);

  // steps[0] is the input, as the steps table holds them.
  void setSteps(const std::vector<std::shared_ptr<const Step>>& steps);
  void appendStep(const Step& step);
  const std::vector<report::TrafficPoint>& series() const { return series_; }
  int currentStep() const { return current_; }
  int hoveredStep() const { return hovered_; }

  // The step (index into series()) whose column holds `pos`, or -1.
  int stepAt(const QPointF& pos) const;
  // The column of step k (the whole plot height), empty when k is out of range.
  QRectF stepRect(int k) const;
  // The header line for step k: its pass and numbers.
  QString describe(int k) const;

  QSize sizeHint() const override { return {420, 210}; }
  QSize minimumSizeHint() const override { return {200, 96}; }

 public slots:
  void setCurrentStep(int k);

 signals:
  void stepClicked(int k);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void leaveEvent(QEvent*) override;

 private:
  QRectF plotRect() const;
  void rescale();

  std::vector<report::TrafficPoint> series_;
  double bytes_axis_ = 1, kernel_axis_ = 1;
  int current_ = -1;
  int hovered_ = -1;
};

}  // namespace hloscope::views
