// The buffer timeline dock's contents: the timeline and, beside it, the
// buffers live at the peak. The list follows the timeline's assignment and
// selection; a click on a row selects the instruction through the timeline
// (its instructionSelected signal), so whoever listens to the timeline hears
// both.
#pragma once

#include <QWidget>

class QSplitter;

namespace hloscope::views {

class PeakList;
class TimelineWidget;

class TimelinePanel : public QWidget {
  Q_OBJECT

 public:
  explicit TimelinePanel(QWidget* parent = nullptr);

  TimelineWidget* timeline() const { return timeline_; }
  PeakList* peakList() const { return peaks_; }
  QSplitter* splitter() const { return splitter_; }

 private:
  TimelineWidget* timeline_;
  PeakList* peaks_;
  QSplitter* splitter_;
};

}  // namespace hloscope::views
