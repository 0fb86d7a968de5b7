#include "views/timeline/timeline_panel.h"

#include <QHBoxLayout>
#include <QSplitter>

#include "views/timeline/peak_list.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::views {

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
  timeline_ = new TimelineWidget;
  peaks_ = new PeakList;
  splitter_ = new QSplitter(Qt::Horizontal, this);
  splitter_->addWidget(timeline_);
  splitter_->addWidget(peaks_);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 2);
  splitter_->setSizes({600, 400});  // the list wide enough for its shapes
  splitter_->setChildrenCollapsible(true);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter_);
  connect(timeline_, &TimelineWidget::assignmentChanged, this, [this] {
    peaks_->setAssignment(timeline_->sharedAssignment(), [this](int b) { return timeline_->instructionOf(b); });
    peaks_->selectInstruction(timeline_->selectedInstruction());
  });
  connect(timeline_, &TimelineWidget::selectionChanged, peaks_, &PeakList::selectInstruction);
  connect(peaks_, &PeakList::instructionSelected, timeline_, &TimelineWidget::activateInstruction);
}

}  // namespace hloscope::views
