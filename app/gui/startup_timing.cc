#include "app/gui/startup_timing.h"

#include <QEvent>
#include <QTimer>
#include <cstdio>

#include "app/gui/main_window.h"
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
  if (exit_when_ready_) emit ready(0);
}

void StartupTiming::heartbeat() {
  const qint64 now = clock_.nsecsElapsed();
  const double gap = (now - last_beat_ns_) / 1e6 - kBeatMs;
  last_beat_ns_ = now;
  if (gap > stalls_.max_ms) stalls_.max_ms = gap;
  if (gap >= 100) ++stalls_.over_100ms;
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
  return QString("timing: UI thread: longest block %1 ms, %2 blocks ≥100 ms, %3 blocks ≥50 ms")
      .arg(stalls_.max_ms, 0, 'f', 1)
      .arg(stalls_.over_100ms)
      .arg(stalls_.over_50ms);
}

}  // namespace hloscope::gui
