// Screenshot mode: `hloscope FILE [--pipeline P] [--step N|initial|last]
// [--select NAME] [--panel graph|timeline|decisions|text|kernels|...]
// [--kernels] [--compare B] [--vs-xla DIR] --screenshot OUT.png [--size WxH]
// [--force]` loads FILE, runs the pipeline, shows the step (a number, or
// with `--step pass:TEXT` the first whose pass name contains TEXT; with
// --kernels: generates its kernels, Ctrl+K), waits until every panel (graph
// layout included) is idle, saves the window as PNG and quits. With
// --compare it compares the step with module B and saves the compare window
// instead; with --vs-xla it opens the XLA dump or reference folder DIR
// beside (File → Compare decisions with XLA dump…) and shows the decisions
// panel's "vs XLA" rows; with --whatif-force / --whatif-forbid P:C it runs
// that what-if (right-click → Force / Forbid this fusion) once the step is
// shown, and saves the window when the result is in (--panel whatif: its
// summary); with --lesson-stage N it opens the guided tour at stage N
// (Help → Guided tour) and saves the window once that stage is shown.
#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>

namespace hloscope::gui {

class MainWindow;

struct ScreenshotOptions {
  QString file;
  QString pipeline = "gpu";
  QString step = "last";  // a step number (0 = the input, 1.. = pass runs, as the CLI's), "initial", "last"
                          // or "pass:TEXT" (the first step whose pass name contains TEXT)
  QString select;         // instruction name
  QString panel = "graph";
  QString compare;  // module B: screenshot the compare window
  QString vs_xla;   // an XLA dump or reference folder: the decisions panel's "vs XLA" rows
  QStringList whatif_force, whatif_forbid;  // "P:C": a what-if run before the picture
  QString output;
  QSize size{1600, 1000};
  double zoom = 1;  // graph zoom factor applied once the window settled
  bool kernels = false;  // Step → Generate kernels on the step before the picture
  // --lesson-stage N (1-based; 0 = no tour): Help → Guided tour at stage N
  // once the pipeline has run; the picture waits for the stage to be shown
  // (its step, subject and panel; its kernels for the kernels stage).
  // --step, --select and --panel are the stage's then.
  int lesson_stage = 0;
  bool force = false;
  int timeout_ms = 300000;
  // --layout-stats: instead of a picture, one JSON object on stdout with what
  // the graph view shows (GraphView::ViewStats) once the window settled.
  bool layout_stats = false;
};

// Checks the options (output exists without force, bad size/step/panel);
// "" when they are fine.
QString CheckScreenshotOptions(const ScreenshotOptions& o);

// Drives a window through the steps above; finished(exit code) at the end
// (the message says what failed).
class ScreenshotDriver : public QObject {
  Q_OBJECT

 public:
  ScreenshotDriver(MainWindow* window, ScreenshotOptions options, QObject* parent = nullptr);
  void start();

 signals:
  void finished(int code, QString message);

 private:
  void poll();
  void fail(const QString& message);

  MainWindow* window_;
  ScreenshotOptions o_;
  enum class Phase { kLoading, kRunning, kStepping, kComparing, kPairing, kWhatIf, kLesson, kSettling, kDone } phase_ = Phase::kLoading;
  int waited_ms_ = 0;
  int idle_polls_ = 0;
  bool compared_ = false;
  bool whatif_done_ = false;
  bool zoomed_ = false;
};

}  // namespace hloscope::gui
