// `hloscope --timing`: measures what a user waits for and prints it to
// stderr — the first painted frame, the file loaded, the first step's graph
// laid out and drawn (the first interactive frame), the pipeline finished —
// and watches the UI thread: a 10 ms heartbeat timer whose late ticks are
// the time the event loop was blocked (each block of 50 ms or more is
// printed when it ends, between the events around it). With --exit-when-ready the program
// quits once the pipeline has finished and the last step's graph is drawn,
// so that scripts (tools/gui_timing.sh) can measure startup under Xvfb.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>
#include <vector>

class QTimer;

namespace hloscope::gui {

class MainWindow;

struct UiStallStats {
  double max_ms = 0;        // the longest time the event loop did not run
  int over_100ms = 0;       // how many times it was blocked 100 ms or more
  int over_50ms = 0;
  double total_over_50ms = 0;
};

class StartupTiming : public QObject {
  Q_OBJECT

 public:
  // Starts the clock now (call before the window is shown).
  StartupTiming(MainWindow* window, bool exit_when_ready, QObject* parent = nullptr);

  const UiStallStats& stalls() const { return stalls_; }
  // Once the last step is drawn, runs a what-if with these overrides
  // ("P:C", --whatif-force / --whatif-forbid) and measures the UI thread
  // from the request until the what-if run is shown (the compare window's
  // graphs laid out); --exit-when-ready then waits for it.
  void setWhatIf(const QStringList& force, const QStringList& forbid);
  const UiStallStats& whatIfStalls() const { return whatif_stalls_; }
  // `hloscope --lesson`: once the last step is drawn, opens the guided tour
  // at `stage` (0-based) and walks it to the last stage with Next, marking
  // when each stage is shown (its step, subject, panel, kernels); the UI
  // thread is measured throughout. --exit-when-ready then waits for it.
  void setLesson(int stage);
  // One line per event, "timing: <event> <ms> ms", plus a summary.
  QString summary() const;

 signals:
  void ready(int exit_code);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void mark(const QString& event);
  void heartbeat();
  void checkDone();

  MainWindow* window_;
  bool exit_when_ready_;
  QElapsedTimer clock_;
  QTimer* beat_;
  qint64 last_beat_ns_ = 0;
  void startWhatIf();
  void startTour();
  int tour_stage_ = -1;  // the stage to walk from (-1: no tour)
  void whatIfShown();
  UiStallStats stalls_, whatif_stalls_;
  QStringList whatif_force_, whatif_forbid_;
  bool whatif_ = false, whatif_measuring_ = false;
  int whatif_layouts_ = 0;
  bool painted_ = false, interactive_ = false, finished_ = false, done_ = false;
  std::vector<std::pair<QString, double>> events_;
};

}  // namespace hloscope::gui
