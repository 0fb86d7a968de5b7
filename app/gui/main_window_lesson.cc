// The guided tour (issue 30, item 3): Help → Guided tour, or `hloscope
// --lesson FILE`. The tour (core/session/lesson.h: stages generated from the
// run's data) is built on a worker thread when the panel opens and again
// whenever a run finishes while it is open; the side panel
// (views/lesson/lesson_panel) shows one stage at a time. Going to a stage
// shows its step (prepared off the UI thread as any step), then selects its
// first subject — the graph, details, timeline and text follow the
// selection — and raises its panel; the kernels stage generates the step's
// kernels (Step → Generate kernels, a worker) and raises its code tab.
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <utility>

#include "app/gui/main_window.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"
#include "views/lesson/lesson_panel.h"
#include "views/log/log_panel.h"
#include "views/text/text_panel.h"
#include "views/text/text_viewer.h"

namespace hloscope::gui {
namespace {

const char* PanelCaption(const std::string& panel) {
  if (panel == "graph") return "the graph";
  if (panel == "timeline") return "the Buffer timeline";
  if (panel == "text") return "the Text panel";
  if (panel == "decisions") return "the Decisions panel";
  if (panel == "kernels") return "the Kernels tab";
  if (panel == "ptx") return "the PTX tab";
  if (panel == "llvm-ir") return "the LLVM IR tab";
  if (panel == "sass") return "the SASS tab";
  return nullptr;
}

// The panel a stage raises: its own, except that the kernels stage shows
// its kernel's code (the PTX tab; the Kernels tab lists every launch).
QString ShownPanel(const LessonStage& s) {
  if (s.panel.empty()) return QStringLiteral("graph");
  if (s.id == "kernels" && s.panel == "kernels") return QStringLiteral("ptx");
  return QString::fromStdString(s.panel);
}

bool NeedsKernels(const LessonStage& s) {
  return s.id == "kernels" || s.panel == "kernels" || s.panel == "ptx" || s.panel == "llvm-ir" || s.panel == "sass";
}

}  // namespace

void MainWindow::buildLessonActions() {
  QMenu* help = nullptr;
  for (QAction* a : menuBar()->actions())
    if (a->menu() && a->text().remove('&') == tr("Help")) help = a->menu();
  if (!help) help = menuBar()->addMenu(tr("&Help"));
  QAction* tour = help->addAction(tr("&Guided tour"), this, [this] { openLesson(); });
  tour->setObjectName("guided_tour");
  tour->setToolTip(tr("A tour of the pipeline's stages on the open module, written from this run's data"));
  // A stage is finished once its step is shown (the step is prepared on a worker).
  // Each part in its own turn of the event loop, so that none adds to
  // another's time on the UI thread (--timing, on 30k-instruction modules).
  connect(this, &MainWindow::stepShown, this, [this](int) {
    if (lesson_pending_ < 0 || shown_step_ != step_) return;
    const int k = lesson_pending_;
    QTimer::singleShot(0, this, [this, k] {
      if (lesson_pending_ == k && shown_step_ == step_) finishLessonStage();
    });
  });
}

void MainWindow::ensureLessonDock() {
  if (lesson_dock_) return;
  lesson_panel_ = new views::LessonPanel;
  lesson_dock_ = new QDockWidget(tr("Guided tour"), this);
  lesson_dock_->setObjectName("lesson");
  lesson_dock_->setWidget(lesson_panel_);
  // The tour above the details in the right column, which runs down to the
  // bottom while the tour is there (tall enough to read a stage's text).
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  addDockWidget(Qt::RightDockWidgetArea, lesson_dock_);
  for (QDockWidget* d : docks_)
    if (d->objectName() == "details") {
      splitDockWidget(lesson_dock_, d, Qt::Vertical);
      resizeDocks({lesson_dock_, d}, {620, 180}, Qt::Vertical);
    }
  resizeDocks({lesson_dock_}, {400}, Qt::Horizontal);
  docks_.push_back(lesson_dock_);
  connect(lesson_panel_, &views::LessonPanel::stageChanged, this, &MainWindow::startLessonStage);
  connect(lesson_panel_, &views::LessonPanel::closeRequested, this, &MainWindow::closeLesson);
  connect(lesson_panel_, &views::LessonPanel::subjectActivated, this,
          [this](const QString& name) {
            if (!selectInstructionByName(name, true))
              statusBar()->showMessage(tr("%1 is not in step %2").arg(name).arg(step_), 5000);
          });
}

bool MainWindow::lessonOpen() const { return lesson_dock_ && !lesson_dock_->isHidden(); }

int MainWindow::lessonStage() const { return lesson_ && lesson_panel_ ? lesson_panel_->stage() : -1; }

void MainWindow::openLesson(int stage) {
  ensureLessonDock();
  lesson_dock_->show();
  lesson_dock_->raise();
  if (lesson_ && lesson_run_ == run_ && !running_) {
    showLessonStage(stage >= 0 ? stage : std::max(lesson_panel_->stage(), 0));
    return;
  }
  lesson_wanted_stage_ = std::max(stage, 0);
  buildLesson();
}

void MainWindow::closeLesson() {
  lesson_pending_ = -1;
  if (lesson_dock_) lesson_dock_->hide();
}

void MainWindow::showLessonStage(int k) {
  if (!lesson_ || !lesson_panel_) {
    lesson_wanted_stage_ = k;
    return;
  }
  if (lesson_panel_->stage() != k)
    lesson_panel_->setStage(k);  // comes back through stageChanged
  else
    startLessonStage(k);
}

void MainWindow::buildLesson() {
  if (!lesson_panel_) return;
  if (!session_ || !run_ || loading_ || running_) {
    lesson_panel_->setLesson(nullptr);
    lesson_panel_->setMessage(tr("The tour starts once the pipeline has run on the module."));
    return;
  }
  if (run_->size() < 2) {
    lesson_panel_->setLesson(nullptr);
    lesson_panel_->setMessage(tr("Run a pipeline (Step → Run pipeline) to take the tour of its stages."));
    return;
  }
  if (lesson_building_ && lesson_run_ == run_) return;
  const quint64 gen = ++lesson_gen_;
  lesson_building_ = true;
  lesson_pending_ = -1;
  views::ReplaceOffThread(lesson_run_, run_);
  lesson_.reset();
  lesson_panel_->setLesson(nullptr);
  lesson_panel_->setMessage(tr("Writing the tour of this run…"));
  auto session = session_;
  auto run = run_;
  startThread([this, gen, session, run] {
    QElapsedTimer clock;
    clock.start();
    LessonOptions options;
    options.kernel_code = false;  // the GUI's own kernel worker makes the code (generateKernels)
    auto lesson = BuildLesson(*session, *run, options);
    std::shared_ptr<const Lesson> result;
    QString error;
    if (lesson.ok())
      result = std::make_shared<const Lesson>(std::move(*lesson));
    else
      error = QString::fromStdString(lesson.status().message());
    const double ms = clock.nsecsElapsed() / 1e6;
    QMetaObject::invokeMethod(
        this, [this, gen, result, error, ms] { onLessonReady(gen, result, error, ms); }, Qt::QueuedConnection);
  });
}

void MainWindow::onLessonReady(quint64 gen, std::shared_ptr<const Lesson> lesson, const QString& error, double ms) {
  views::UiTimer ui_timer("onLessonReady");
  if (gen != lesson_gen_) return;
  lesson_building_ = false;
  if (!lesson) {
    log_->error(tr("guided tour: %1").arg(error));
    lesson_panel_->setMessage(tr("The tour could not be written: %1").arg(error));
    return;
  }
  lesson_ = std::move(lesson);
  log_->info(tr("guided tour of %1: %2 stages in %3 ms on a worker thread")
                 .arg(QString::fromStdString(lesson_->module_name))
                 .arg(lesson_->stages.size())
                 .arg(ms, 0, 'f', 0));
  QStringList captions;
  for (const LessonStage& s : lesson_->stages) {
    QString c = s.step >= 0 && s.step < run_->size()
                    ? tr("Step %1 · %2").arg(s.step).arg(QString::fromStdString(run_->step(s.step).pass))
                    : QString();
    if (const char* p = PanelCaption(ShownPanel(s).toStdString())) c += tr(" · shown in %1").arg(tr(p));
    captions << c;
  }
  // → stageChanged → startLessonStage (which waits while the panel is closed).
  lesson_panel_->setLesson(lesson_, lesson_wanted_stage_, captions);
}

void MainWindow::onLessonRunChanged() {
  if (!lesson_dock_) return;
  if (loading_ || !run_ || run_->size() < 2) {  // a new file: its tour once its pipeline has run
    ++lesson_gen_;
    lesson_building_ = false;
    lesson_pending_ = -1;
    lesson_.reset();
    views::ReplaceOffThread(lesson_run_, std::shared_ptr<const PipelineRun>());
    lesson_wanted_stage_ = 0;
    lesson_panel_->setLesson(nullptr);
    lesson_panel_->setMessage(tr("The tour starts once the pipeline has run on the module."));
    return;
  }
  if (!lessonOpen()) return;
  if (lesson_ && lesson_run_ == run_) return;
  lesson_wanted_stage_ = std::max(lesson_panel_->stage(), lesson_wanted_stage_);
  buildLesson();
}

void MainWindow::startLessonStage(int k) {
  views::UiTimer ui_timer("startLessonStage");
  if (!lesson_ || k < 0 || k >= static_cast<int>(lesson_->stages.size())) return;
  lesson_wanted_stage_ = k;
  if (!lessonOpen()) return;
  if (running_ || run_ != lesson_run_) return;  // the tour of the new run follows when it finishes
  const LessonStage& s = lesson_->stages[k];
  lesson_pending_ = k;
  if (s.step < 0 || s.step >= run_->size()) {
    log_->warning(tr("guided tour: stage %1 names step %2, not in this run").arg(k + 1).arg(s.step));
  } else {
    // The stage selects its own subject: the new step need not find the old one first.
    if (!s.subjects.empty() && s.step != step_) selected_ = -1;
    selectStep(s.step);
  }
  // Shown already (or a hidden no-op step kept the one shown): finish in
  // the next turn; otherwise once the step is shown (stepShown).
  if (step_ >= 0 && shown_step_ == step_ && !preparing_)
    QTimer::singleShot(0, this, [this, k] {
      if (lesson_pending_ == k && shown_step_ == step_) finishLessonStage();
    });
}

void MainWindow::finishLessonStage() {
  views::UiTimer ui_timer("finishLessonStage");
  const int k = lesson_pending_;
  if (!lesson_ || k < 0 || k >= static_cast<int>(lesson_->stages.size())) {
    lesson_pending_ = -1;
    return;
  }
  const LessonStage& s = lesson_->stages[k];
  bool selected = false;
  for (const std::string& name : s.subjects)
    if ((selected = selectInstructionByName(QString::fromStdString(name), true))) break;
  if (!selected && !s.subjects.empty())
    log_->warning(tr("guided tour: stage %1: no instruction named %2 in step %3")
                      .arg(k + 1)
                      .arg(QString::fromStdString(s.subjects.front()))
                      .arg(step_));
  // The panel (and the kernels) in the next turn of the event loop.
  QTimer::singleShot(0, this, [this, k, lesson = lesson_] {
    if (lesson_pending_ != k || lesson_ != lesson) return;
    views::UiTimer ui_timer("finishLessonStage: panel");
    lesson_pending_ = -1;
    const LessonStage& s = lesson_->stages[k];
    if (NeedsKernels(s) && !kernelsReadyForStep() && !generating_) generateKernels();
    const QString panel = ShownPanel(s);
    if (panel == "graph") {
      // The graph in the centre; under it the subject's line in the step's HLO text.
      text_->tabs()->setCurrentWidget(text_->hloViewer());
      showPanel(QStringLiteral("text"));
    }
    showPanel(panel);
    lesson_dock_->raise();
    statusBar()->showMessage(tr("Guided tour, stage %1 of %2: %3")
                                 .arg(k + 1)
                                 .arg(lesson_->stages.size())
                                 .arg(QString::fromStdString(s.title)),
                             8000);
    emit lessonStageShown(k);
  });
}

}  // namespace hloscope::gui
