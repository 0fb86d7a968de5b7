#include "app/gui/screenshot.h"

#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>

#include "app/gui/main_window.h"
#include "views/compare/compare_view.h"
#include "views/decisions/decisions_panel.h"
#include "views/graph/graph_view.h"
#include "views/lesson/lesson_panel.h"

namespace hloscope::gui {
namespace {
constexpr int kPollMs = 50;
}

QString CheckScreenshotOptions(const ScreenshotOptions& o) {
  if (o.layout_stats && !o.output.isEmpty()) return QStringLiteral("--layout-stats and --screenshot: pick one");
  if (!o.layout_stats) {
    if (o.output.isEmpty()) return QStringLiteral("--screenshot needs an output file");
    if (!o.output.endsWith(".png", Qt::CaseInsensitive))
      return QStringLiteral("--screenshot: the output must end in .png");
    if (QFileInfo::exists(o.output) && !o.force)
      return QStringLiteral("%1: file exists (use --force to overwrite)").arg(o.output);
  }
  if (o.size.width() < 200 || o.size.height() < 150 || o.size.width() > 8000 || o.size.height() > 8000)
    return QStringLiteral("--size: expected WxH between 200x150 and 8000x8000");
  bool ok = false;
  const bool pass = o.step.startsWith("pass:") && o.step.size() > 5;
  if (o.step != "last" && o.step != "initial" && !pass && (o.step.toInt(&ok) < 0 || !ok))
    return QStringLiteral("--step: expected a step number (0 = the input), 'initial', 'last' or pass:TEXT");
  static const QStringList panels = {"graph", "timeline", "decisions", "text", "kernels", "llvm-ir", "ptx", "sass", "details", "pipeline", "log", "whatif"};
  if (!panels.contains(o.panel)) return QStringLiteral("--panel: expected one of %1").arg(panels.join(", "));
  if (!o.compare.isEmpty() && !QFileInfo(o.compare).isFile())
    return QStringLiteral("--compare: %1: no such file").arg(o.compare);
  if (!o.vs_xla.isEmpty() && !QFileInfo(o.vs_xla).isDir())
    return QStringLiteral("--vs-xla: %1: no such folder").arg(o.vs_xla);
  if (!o.vs_xla.isEmpty() && !o.compare.isEmpty()) return QStringLiteral("--vs-xla and --compare: pick one");
  if ((!o.whatif_force.isEmpty() || !o.whatif_forbid.isEmpty()) && (!o.compare.isEmpty() || !o.vs_xla.isEmpty()))
    return QStringLiteral("--whatif-force / --whatif-forbid with --compare or --vs-xla: pick one");
  if (o.lesson_stage < 0) return QStringLiteral("--lesson-stage: expected a stage number from 1");
  if (o.lesson_stage > 0 && (!o.compare.isEmpty() || !o.vs_xla.isEmpty() || !o.whatif_force.isEmpty() ||
                             !o.whatif_forbid.isEmpty()))
    return QStringLiteral("--lesson-stage with --compare, --vs-xla or a what-if: pick one");
  if (!(o.zoom >= 0.05 && o.zoom <= 20)) return QStringLiteral("--zoom: expected a factor between 0.05 and 20");
  return {};
}

ScreenshotDriver::ScreenshotDriver(MainWindow* window, ScreenshotOptions options, QObject* parent)
    : QObject(parent), window_(window), o_(std::move(options)) {}

void ScreenshotDriver::start() {
  connect(window_, &MainWindow::loadFailed, this, [this](const QString& m) { fail(m); });
  connect(window_, &MainWindow::runFinished, this, [this](bool ok) {
    if (!ok) fail(QStringLiteral("pipeline failed: ") + window_->lastError());
  });
  connect(window_, &MainWindow::compareShown, this, [this](bool ok) {
    if (!ok) fail(QStringLiteral("compare failed: ") + window_->lastError());
    compared_ = ok;
  });
  connect(window_, &MainWindow::whatIfFinished, this, [this](bool ok) {
    if (!ok) fail(QStringLiteral("what-if failed: ") + window_->whatIfText());
    whatif_done_ = ok;
  });
  window_->setPipelineChoice(o_.pipeline);
  window_->resize(o_.size);
  window_->show();
  window_->openFile(o_.file);
  QTimer::singleShot(kPollMs, this, &ScreenshotDriver::poll);
}

void ScreenshotDriver::fail(const QString& message) {
  if (phase_ == Phase::kDone) return;
  phase_ = Phase::kDone;
  emit finished(1, message);
}

void ScreenshotDriver::poll() {
  if (phase_ == Phase::kDone) return;
  waited_ms_ += kPollMs;
  if (waited_ms_ > o_.timeout_ms) return fail(QStringLiteral("timed out waiting for the window to settle"));
  QTimer::singleShot(kPollMs, this, &ScreenshotDriver::poll);
  if (window_->busy() || !window_->run()) {
    idle_polls_ = 0;
    return;
  }
  if ((phase_ == Phase::kLoading || phase_ == Phase::kRunning) && o_.lesson_stage > 0) {
    window_->openLesson(o_.lesson_stage - 1);
    phase_ = Phase::kLesson;
    return;
  }
  if (phase_ == Phase::kLesson) {
    // Not busy: the tour is written and the stage's step, subject and panel are shown.
    const auto& lesson = window_->lesson();
    if (!lesson)
      return fail(QStringLiteral("--lesson-stage: no tour: ") + window_->lessonPanel()->bodyText());
    if (static_cast<int>(lesson->stages.size()) < o_.lesson_stage)
      return fail(QStringLiteral("--lesson-stage %1: the tour of this run has %2 stages")
                      .arg(o_.lesson_stage)
                      .arg(lesson->stages.size()));
    if (window_->lessonStage() != o_.lesson_stage - 1) return;
    phase_ = Phase::kSettling;
    return;
  }
  if (phase_ == Phase::kLoading || phase_ == Phase::kRunning) {
    const int n = window_->run()->size();
    // Step numbers as the steps table and hloscope-cli number them: 0 is the input, 1..n-1 the pass runs.
    int k = o_.step == "last" ? n - 1 : o_.step == "initial" ? 0 : o_.step.toInt();
    if (o_.step.startsWith("pass:")) {  // the first step whose pass name contains the text
      const QString text = o_.step.mid(5);
      k = -1;
      for (int i = 0; i < n && k < 0; ++i)
        if (QString::fromStdString(window_->run()->step(i).pass).contains(text, Qt::CaseInsensitive)) k = i;
      if (k < 0) return fail(QStringLiteral("--step %1: no step's pass name contains '%2'").arg(o_.step, text));
    }
    if (k >= n)
      return fail(QStringLiteral("--step %1: expected initial, last or a step number 0..%2 (0 is the input; "
                                 "the run made %3 pass runs, steps 1..%2)")
                      .arg(k)
                      .arg(n - 1)
                      .arg(n - 1));
    window_->selectStep(k);
    phase_ = Phase::kStepping;
    return;
  }
  if (phase_ == Phase::kStepping) {
    if (!o_.select.isEmpty() && !window_->selectInstructionByName(o_.select, true))
      return fail(QStringLiteral("--select: no instruction named '%1' in step %2").arg(o_.select).arg(window_->currentStep()));
    window_->showPanel(o_.panel);
    if (o_.kernels) window_->generateKernels();  // busy until they arrive
    if (!o_.compare.isEmpty()) {
      window_->compareWith(o_.compare);
      phase_ = Phase::kComparing;
      return;
    }
    if (!o_.vs_xla.isEmpty()) {
      window_->openXlaBeside(o_.vs_xla);
      phase_ = Phase::kPairing;
      return;
    }
    if (!o_.whatif_force.isEmpty() || !o_.whatif_forbid.isEmpty()) {
      window_->runWhatIf(o_.whatif_force, o_.whatif_forbid);
      phase_ = Phase::kWhatIf;
      return;
    }
    phase_ = Phase::kSettling;
    return;
  }
  if (phase_ == Phase::kWhatIf) {
    if (!whatif_done_) return;
    // The compare window (the what-if run beside) stays behind the main
    // window, which is what is saved: the panel asked for, raised again.
    window_->raise();
    window_->activateWindow();
    window_->showPanel(o_.panel);
    phase_ = Phase::kSettling;
    return;
  }
  if (phase_ == Phase::kPairing) {
    MainWindow* x = window_->xlaGpuWindow();
    if (window_->decisionsPanel()->vsXlaAvailable()) {
      window_->decisionsPanel()->setVsXlaShown(true);
      window_->showPanel("decisions");
      phase_ = Phase::kSettling;
      return;
    }
    if (x && !x->busy() && x->run() && !x->xlaDecisions())
      return fail(QStringLiteral("--vs-xla: no XLA decisions in %1: %2").arg(o_.vs_xla, x->xlaDecisionsError()));
    if (x && !x->busy() && !x->loading() && !x->run())
      return fail(QStringLiteral("--vs-xla: %1: %2").arg(o_.vs_xla, x->lastError()));
    if (window_->decisionsPanel()->noteText().startsWith("vs XLA failed") ||
        window_->decisionsPanel()->noteText().contains("no priority_fusion step"))
      return fail(QStringLiteral("--vs-xla: ") + window_->decisionsPanel()->noteText());
    return;
  }
  if (phase_ == Phase::kComparing) {
    views::CompareView* c = window_->compareView();
    if (!compared_ || !c || c->left()->busy() || c->right()->busy()) return;
    c->window()->resize(o_.size);
    phase_ = Phase::kSettling;
    return;
  }
  // Settling: a few idle polls in a row so animations and repaints finish.
  if (++idle_polls_ < 8) return;
  if (o_.zoom > 0 && o_.zoom != 1 && !zoomed_ && o_.compare.isEmpty()) {
    // Zoom in steps of the view's own zoom factor, then centre the selection again.
    zoomed_ = true;
    double f = 1;
    while (f * 1.25 <= o_.zoom + 1e-9) {
      window_->graph()->zoomIn();
      f *= 1.25;
    }
    while (f / 1.25 >= o_.zoom - 1e-9) {
      window_->graph()->zoomOut();
      f /= 1.25;
    }
    if (!o_.select.isEmpty()) window_->selectInstructionByName(o_.select, true);
    idle_polls_ = 0;
    return;
  }
  if (o_.layout_stats) {
    const views::GraphView* g = window_->graph();
    const views::GraphView::ViewStats st = g->viewStats();
    const QSize vp = g->canvasViewportSize();
    QJsonObject j{{"file", o_.file},
                  {"step", window_->currentStep()},
                  {"visible_boxes", st.visible_boxes},
                  {"groups", st.groups},
                  {"min_label_px", std::round(st.min_label_px * 100) / 100},
                  {"label_overlaps", st.label_overlaps},
                  {"edges_drawn", st.edges_drawn},
                  {"first_view_ms", std::round(st.first_view_ms)},
                  {"window", QStringLiteral("%1x%2").arg(window_->width()).arg(window_->height())},
                  {"graph_view", QStringLiteral("%1x%2").arg(vp.width()).arg(vp.height())}};
    phase_ = Phase::kDone;
    emit finished(0, QString::fromUtf8(QJsonDocument(j).toJson(QJsonDocument::Compact)));
    return;
  }
  QWidget* shown = o_.compare.isEmpty() ? static_cast<QWidget*>(window_) : window_->compareView()->window();
  QImage image = shown->grab().toImage();
  QSaveFile out(o_.output);
  if (!out.open(QIODevice::WriteOnly) || !image.save(&out, "PNG", 0) || !out.commit())
    return fail(QStringLiteral("%1: cannot write the screenshot").arg(o_.output));
  phase_ = Phase::kDone;
  QString what = QStringLiteral("step %1").arg(window_->currentStep());
  if (o_.lesson_stage > 0 && window_->lesson())
    what += QStringLiteral(", tour stage %1 of %2 (%3)")
                .arg(o_.lesson_stage)
                .arg(window_->lesson()->stages.size())
                .arg(QString::fromStdString(window_->lesson()->stages[o_.lesson_stage - 1].id));
  emit finished(0, QStringLiteral("%1: %2x%3, %4").arg(o_.output).arg(image.width()).arg(image.height()).arg(what));
}

}  // namespace hloscope::gui
