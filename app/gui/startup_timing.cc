#include "app/gui/startup_timing.h"

#include <QEvent>
#include <QTimer>
#include <algorithm>
#include <cstdio>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "views/compare/compare_view.h"
#include "views/graph/graph_view.h"

namespace hloscope::gui {

namespace {
constexpr int kBeatMs = 10;
}

StartupTiming::StartupTiming(MainWindow* window, bool exit_when_ready, QObject* parent)
    : QObject(parent), window_(window), exit_when_ready_(exit_when_ready), beat_(new QTimer(this)) {
  clock_.start();
  window_->installEventFilter(this);
  beat_->setInterval(kBeatMs);
  beat_->setTimerType(Qt::PreciseTimer);
  connect(beat_, &QTimer::timeout, this, &StartupTiming::heartbeat);
  last_beat_ns_ = clock_.nsecsElapsed();
  beat_->start();
  // Every 10 s of waiting, say what the window is still busy with.
  auto* waiting = new QTimer(this);
  connect(waiting, &QTimer::timeout, this, [this] {
    if (!done_ && window_->busy()) mark("still waiting: " + window_->busyReason());
  });
  waiting->start(10000);
  // Done = the run finished and its last step fully shown (graph, text,
  // timeline); polled, since the last of these can finish in any order.
  auto* done = new QTimer(this);
  connect(done, &QTimer::timeout, this, &StartupTiming::checkDone);
  done->start(50);

  connect(window_, &MainWindow::fileLoaded, this, [this] { mark("file loaded"); });
  connect(window_, &MainWindow::loadFailed, this, [this] {
    mark("load failed");
    if (exit_when_ready_) emit ready(1);
  });
  connect(window_->graph(), &views::GraphView::layoutFinished, this, [this](double layout_ms, int nodes) {
    if (!interactive_) {
      interactive_ = true;
      mark(QString("first interactive frame (step %1 drawn: %2 graph nodes, layout %3 ms)")
               .arg(window_->shownStep())
               .arg(nodes)
               .arg(layout_ms, 0, 'f', 0));
      if (finished_ && exit_when_ready_) window_->selectStep(window_->run()->size() - 1);
    }
    QTimer::singleShot(0, this, [this] { checkDone(); });
  });
  connect(window_, &MainWindow::runFinished, this, [this](bool ok) {
    finished_ = true;
    mark(ok ? "pipeline finished" : "pipeline failed");
    if (!ok && exit_when_ready_) emit ready(1);
    // The last step is shown once the first one has been drawn (so that
    // "first interactive frame" measures the input, as a user sees it).
    if (ok && exit_when_ready_ && interactive_) window_->selectStep(window_->run()->size() - 1);
  });
}

bool StartupTiming::eventFilter(QObject* watched, QEvent* event) {
  if (!painted_ && watched == window_ && event->type() == QEvent::UpdateRequest) {
    painted_ = true;
    // The paint happens right after this event is delivered.
    QTimer::singleShot(0, this, [this] { mark("first frame painted"); });
  }
  return QObject::eventFilter(watched, event);
}

void StartupTiming::checkDone() {
  if (!finished_ || done_ || !window_->run() || window_->busy()) return;
  if (window_->shownStep() != window_->run()->size() - 1) return;
  done_ = true;
  mark(QString("last step drawn (step %1)").arg(window_->shownStep()));
  if (whatif_) {
    QTimer::singleShot(300, this, [this] { startWhatIf(); });
    return;
  }
  if (tour_stage_ >= 0) {
    QTimer::singleShot(300, this, [this] { startTour(); });
    return;
  }
  if (exit_when_ready_) emit ready(0);
}

void StartupTiming::setLesson(int stage) { tour_stage_ = std::max(stage, 0); }

void StartupTiming::startTour() {
  mark(QString("guided tour opened at stage %1").arg(tour_stage_ + 1));
  window_->openLesson(tour_stage_);
  auto* poll = new QTimer(this);
  connect(poll, &QTimer::timeout, this, [this, poll] {
    if (window_->busy()) return;
    const auto& lesson = window_->lesson();
    const int n = lesson ? static_cast<int>(lesson->stages.size()) : 0;
    if (tour_stage_ >= n) {  // no tour, or fewer stages
      poll->stop();
      mark(lesson ? QString("guided tour: %1 stages, none numbered %2").arg(n).arg(tour_stage_ + 1)
                  : QString("guided tour failed"));
      if (exit_when_ready_) emit ready(1);
      return;
    }
    if (window_->lessonStage() != tour_stage_) return;
    const LessonStage& s = lesson->stages[tour_stage_];
    mark(QString("tour stage %1 of %2 shown (%3: step %4, %5)")
             .arg(tour_stage_ + 1)
             .arg(n)
             .arg(QString::fromStdString(s.id))
             .arg(window_->shownStep())
             .arg(QString::fromStdString(s.panel)));
    if (++tour_stage_ < n) return window_->showLessonStage(tour_stage_);
    poll->stop();
    if (exit_when_ready_) emit ready(0);
  });
  poll->start(50);
}

void StartupTiming::setWhatIf(const QStringList& force, const QStringList& forbid) {
  whatif_force_ = force;
  whatif_forbid_ = forbid;
  whatif_ = !force.isEmpty() || !forbid.isEmpty();
  connect(window_, &MainWindow::whatIfFinished, this, [this](bool ok) {
    QString what = "what-if failed";
    if (ok && window_->whatIf() && window_->whatIf()->result) {
      const WhatIfResult& r = *window_->whatIf()->result;
      const WhatIfTotals d = r.delta();
      what = QString("what-if finished (result shown: kernels %1 → %2, Δkernels %3, ΔHBM bytes %4, Δest. µs %5, "
                     "Δpeak bytes %6)")
                 .arg(r.base.kernels)
                 .arg(r.whatif.kernels)
                 .arg(d.kernels)
                 .arg(d.hbm_bytes)
                 .arg(d.est_us, 0, 'f', 3)
                 .arg(d.peak_bytes);
    }
    mark(what);
    if (!ok || !window_->whatIf() || !window_->whatIf()->compare || !window_->compareView()) return whatIfShown();
    // The what-if run is shown once both compare graphs are laid out.
    whatif_layouts_ = 0;
    for (views::GraphView* g : {window_->compareView()->left(), window_->compareView()->right()})
      connect(g, &views::GraphView::layoutFinished, this, [this](double ms, int nodes) {
        mark(QString("what-if compare graph laid out (%1 nodes, %2 ms)").arg(nodes).arg(ms, 0, 'f', 0));
        if (++whatif_layouts_ == 2) whatIfShown();
      });
    QTimer::singleShot(120000, this, [this] {
      if (whatif_measuring_) whatIfShown();
    });
  });
}

void StartupTiming::startWhatIf() {
  mark("what-if requested: " + QStringList({whatif_force_.isEmpty() ? "" : "force " + whatif_force_.join(','),
                                            whatif_forbid_.isEmpty() ? "" : "forbid " + whatif_forbid_.join(',')})
                                   .join(' ')
                                   .trimmed());
  whatif_measuring_ = true;
  window_->runWhatIf(whatif_force_, whatif_forbid_);
}

void StartupTiming::whatIfShown() {
  if (!whatif_measuring_) return;
  // A moment more, for what the result's arrival queued.
  QTimer::singleShot(500, this, [this] {
    if (!whatif_measuring_) return;
    whatif_measuring_ = false;
    mark(QString("what-if: UI thread longest block %1 ms, %2 blocks ≥100 ms, %3 blocks ≥50 ms")
             .arg(whatif_stalls_.max_ms, 0, 'f', 1)
             .arg(whatif_stalls_.over_100ms)
             .arg(whatif_stalls_.over_50ms));
    if (exit_when_ready_) emit ready(window_->whatIf() ? 0 : 1);
  });
}

void StartupTiming::heartbeat() {
  const qint64 now = clock_.nsecsElapsed();
  const double gap = (now - last_beat_ns_) / 1e6 - kBeatMs;
  last_beat_ns_ = now;
  if (gap > stalls_.max_ms) stalls_.max_ms = gap;
  if (gap >= 100) ++stalls_.over_100ms;
  if (whatif_measuring_) {
    whatif_stalls_.max_ms = std::max(whatif_stalls_.max_ms, gap);
    if (gap >= 100) ++whatif_stalls_.over_100ms;
    if (gap >= 50) ++whatif_stalls_.over_50ms, whatif_stalls_.total_over_50ms += gap;
  }
  if (gap >= 50) {
    ++stalls_.over_50ms;
    stalls_.total_over_50ms += gap;
    // When it happened (after which event) helps to find who blocked it.
    mark(QString("UI thread blocked %1 ms").arg(gap, 0, 'f', 0));
  }
}

void StartupTiming::mark(const QString& event) {
  const double ms = clock_.nsecsElapsed() / 1e6;
  events_.emplace_back(event, ms);
  std::fprintf(stderr, "timing: %8.1f ms  %s\n", ms, qPrintable(event));
}

QString StartupTiming::summary() const {
  QString s = QString("timing: UI thread: longest block %1 ms, %2 blocks ≥100 ms, %3 blocks ≥50 ms")
                  .arg(stalls_.max_ms, 0, 'f', 1)
                  .arg(stalls_.over_100ms)
                  .arg(stalls_.over_50ms);
  if (whatif_)
    s += QString("\ntiming: UI thread during the what-if: longest block %1 ms, %2 blocks ≥100 ms, %3 blocks ≥50 ms")
             .arg(whatif_stalls_.max_ms, 0, 'f', 1)
             .arg(whatif_stalls_.over_100ms)
             .arg(whatif_stalls_.over_50ms);
  return s;
}

}  // namespace hloscope::gui
