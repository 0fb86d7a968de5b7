// The main window of `hloscope`: the graph in the centre; docks for the
// pipeline, details, timeline, decisions, text and log panels. Loading,
// pipeline runs and step preparation run on worker threads; every panel
// follows the selected step and the selected instruction.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/session/lesson.h"
#include "core/session/session.h"

class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QWidget;
class QThread;
class QToolBar;

namespace hloscope::views {
class DecisionsPanel;
class DetailsPanel;
class GraphView;
class LogPanel;
class PipelinePanel;
class TextPanel;
class TimelineWidget;
class CompareView;
class LessonPanel;
struct KernelListing;
struct XlaDecisions;
struct DecisionsVsXla;
}  // namespace hloscope::views

namespace hloscope::gui {

class Relay;
class XlaGpuJob;
struct CompareBundle;
struct WhatIfBundle;

struct MainWindowOptions {
  bool persist_settings = true;  // QSettings read/write (off in tests and screenshots)
  bool dialogs = true;           // error dialogs and the reload question
  bool auto_run = true;          // run the pipeline after loading
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loads a file off the UI thread; then (auto_run) runs the chosen pipeline.
  void openFile(const QString& path);
  // An --xla_dump_to folder: its module `module` (id or name; "" = the
  // largest) with every dump file as a step (main_window_xla_dump.cc); or
  // a committed XLA GPU reference folder (REFERENCE.json, passes.tar.xz:
  // its per-pass files). Then, off the UI thread, XLA's own priority fusion
  // decisions (its priority_fusion_dump) for the priority fusion step:
  // the decisions panel lists them, the graph marks XLA's refusals, the
  // details quote XLA's log (main_window_xla_decisions.cc); a dump without
  // the log gets a one-line note in the decisions panel.
  void openXlaDump(const QString& dir, const QString& module);
  // Opens an XLA dump or reference folder of the open module in a second
  // window (xlaGpuWindow()) and compares our decisions with XLA's there:
  // the decisions panel's "vs XLA" rows. File → Compile with XLA GPU… pairs
  // the windows the same way.
  void openXlaBeside(const QString& dir, const QString& module = {});
  const std::shared_ptr<const views::XlaDecisions>& xlaDecisions() const { return xla_; }
  QString xlaDecisionsError() const { return xla_error_; }
  bool xlaDecisionsLoading() const { return xla_loading_; }
  void runPipeline(const QString& pipeline, const QStringList& passes, const QString& device);
  void cancelRun();
  void setPipelineChoice(const QString& pipeline);
  void selectStep(int k);
  void selectInstruction(qint64 id, bool center);
  bool selectInstructionByName(const QString& name, bool center);
  // Raises a panel: "graph", "pipeline", "details", "timeline", "decisions", "text", "log";
  // "kernels": the text panel's Kernels tab.
  bool showPanel(const QString& name);
  // Generates LLVM IR + PTX for the shown step's kernels (worker thread);
  // the text panel then shows the kernel of the selected fusion (or why it
  // has none) and lists every launch in its Kernels tab; the graph and the
  // details mark missing kernels and external custom-calls.
  void generateKernels();
  // Writes a picture of what is shown: "graph-svg", "graph-png",
  // "timeline-svg", "timeline-png" (atomically; an existing file only with
  // `force`). False with `error` set otherwise.
  bool exportPicture(const QString& what, const QString& path, bool force, QString* error);
  // Writes "graph-dot" too. The right-click menu of a panel ("graph",
  // "timeline"): exports and, on the graph, the selection's name; on a
  // graph edge (`edge_from` → `edge_to`, node ids of the shown step) also
  // "Force this fusion" / "Forbid this fusion" (what-if).
  QMenu* contextMenuFor(const QString& panel, qint64 edge_from = -1, qint64 edge_to = -1);
  // The decisions table's right-click menu for a visible row: "Force this
  // fusion" / "Forbid this fusion" for the decision's producer and each of
  // its consumers (main_window_whatif.cc).
  QMenu* decisionMenu(int visible_row);
  // What-if fusion (issue 30; main_window_whatif.cc): runs the pipeline of
  // the shown run again with the overrides ("P:C": force P into C, keep P
  // and C apart) on a worker thread — from the input: the session keeps no
  // state to resume from the pass — then measures both runs as `hloscope-cli
  // whatif` does. The What-if panel shows the four deltas, each override's
  // outcome (a refusal with its reason) and the changed decisions; when an
  // override was applied, the compare window shows the base run's last step
  // (A) beside the what-if run's (B). A refused force opens no run.
  // Reported by whatIfFinished.
  void runWhatIf(const QStringList& force, const QStringList& forbid);
  bool whatIfRunning() const { return whatif_running_; }
  const std::shared_ptr<const WhatIfBundle>& whatIf() const { return whatif_; }
  QString whatIfText() const;  // the What-if panel's text
  // Compares step `step` of the run (-1: the shown step) with the module in
  // `path` (off the UI thread) and shows both side by side in the compare
  // window; `label` names B there ("" = the file's name).
  void compareWith(const QString& path, int step = -1, const QString& label = {});
  // File → Compile with XLA GPU… without its dialog (main_window_xla_gpu.cc):
  // runs tools/xla_gpu_reference.py on the open file as `hloscope-cli
  // xla-gpu FILE --device DEVICE --out OUT` does, in a QProcess; its output
  // goes to the log and the status bar (and a progress dialog with Cancel
  // when dialogs are on). Then OUT/xla_dump opens in a second window
  // (xlaGpuWindow(), steppable like any XLA dump) and the last step of our
  // run is compared with XLA GPU's after_optimizations, our decisions with
  // XLA's in the decisions panel (openXlaBeside). `out` "" = a new
  // folder under the temp dir; an existing non-empty `out` is replaced only
  // with `force` and only when it holds an earlier XLA GPU output. False,
  // with the error shown, when it is refused before starting; every later
  // outcome is reported by xlaGpuFinished.
  bool compileWithXlaGpu(const QString& device, const QString& out, bool force = false);
  void cancelXlaGpu();
  bool compilingWithXlaGpu() const;
  MainWindow* xlaGpuWindow() const { return xla_gpu_window_; }
  // The guided tour (issue 30, item 3; main_window_lesson.cc): Help →
  // Guided tour. Opens the tour's side panel at `stage` (0-based) and builds
  // the tour of the shown run on a worker thread (core/session/lesson.h;
  // again whenever a run finishes while the panel is open); before the
  // pipeline has run it says so and starts when the run is in. Going to a
  // stage shows its step, raises its panel and selects its first subject
  // (graph, details, timeline and text follow); the kernels stage generates
  // the step's kernels (Step → Generate kernels) and raises its code tab.
  void openLesson(int stage = -1);
  void closeLesson();
  void showLessonStage(int k);
  bool lessonOpen() const;
  int lessonStage() const;  // the stage shown (-1: none)
  const std::shared_ptr<const Lesson>& lesson() const { return lesson_; }
  views::LessonPanel* lessonPanel() const { return lesson_panel_; }
  bool comparing() const { return comparing_; }
  views::CompareView* compareView() const { return compare_view_; }
  bool kernelsReadyForStep() const { return kernels_ && kernels_step_ == step_ && run_ == kernels_run_; }
  const std::shared_ptr<const views::KernelListing>& kernels() const { return kernels_; }

  // State (tests, screenshot mode).
  bool busy() const;  // loading, running, preparing a step, laying out or diffing
  QString busyReason() const;  // what busy() waits for; "" when idle
  bool loading() const { return loading_; }
  bool running() const { return running_; }
  const std::shared_ptr<const Session>& session() const { return session_; }
  const std::shared_ptr<const PipelineRun>& run() const { return run_; }
  int currentStep() const { return step_; }
  int shownStep() const { return shown_step_; }
  qint64 selectedInstruction() const { return selected_; }
  QString lastError() const { return last_error_; }
  // The banner above the graph ("" when hidden): a module that does not verify.
  QString bannerText() const;
  QString currentFile() const { return path_; }
  QStringList recentFiles() const { return recent_; }

  views::GraphView* graph() const { return graph_; }
  views::PipelinePanel* pipelinePanel() const { return pipeline_; }
  views::DetailsPanel* detailsPanel() const { return details_; }
  views::TimelineWidget* timeline() const { return timeline_; }
  views::DecisionsPanel* decisionsPanel() const { return decisions_; }
  views::TextPanel* textPanel() const { return text_; }
  views::LogPanel* logPanel() const { return log_; }

 signals:
  void fileLoaded(QString path);
  void loadFailed(QString message);
  void runFinished(bool ok);
  void compareShown(bool ok);
  // A what-if run ended: ok with its result (refused overrides included),
  // or failed (the error in the What-if panel).
  void whatIfFinished(bool ok);
  // The XLA GPU compile ended: ok with the output folder, or the error
  // ("cancelled" when cancelled).
  void xlaGpuFinished(bool ok, QString message);
  void stepShown(int k);     // module handed to the graph, details, text
  // XLA's decisions of this window's XLA dump run arrived, failed or were dropped.
  void xlaDecisionsChanged();
  void buffersShown(int k);  // its buffer assignment handed to the timeline
  // The tour's stage k was shown: its step, panel and subject (and, for the
  // kernels stage, its kernels were asked for).
  void lessonStageShown(int k);

 protected:
  void closeEvent(QCloseEvent* e) override;
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void buildActions();
  void buildDocks();
  void restoreSettings();
  void saveSettings();
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void showError(const QString& title, const QString& message);
  void startThread(std::function<void()> fn);
  void onLoaded(std::shared_ptr<const Session> session, std::shared_ptr<const PipelineRun> input);
  void onStepRecorded(std::shared_ptr<const Step> step);
  void onRunFinished(std::shared_ptr<const PipelineRun> run);
  void onStepPrepared(int k, std::shared_ptr<const Module> module, std::shared_ptr<const BufferAssignment> buffers,
                      QString error);
  void onBuffersReady(int k, std::shared_ptr<const BufferAssignment> buffers, QString error);
  void onFileChanged(const QString& path);
  void openDialog();
  void showSearch();
  void updateTitle();
  void updateKernelTabs();
  void showKernelListing();  // the listing (or none) for the shown step, in every panel
  void exportDialog(const QString& what);
  void installContextMenus();
  void compareDialog();
  void openXlaDumpDialog();
  void compileWithXlaGpuDialog();
  QString xlaGpuNotPossible() const;  // why the open document cannot be compiled; "" when it can
  void onXlaGpuDone(int exit_code, bool crashed, bool failed_to_start);
  void showXlaGpuResult(const QString& out, const QString& device);
  void onCompareReady(std::shared_ptr<const CompareBundle> bundle, const QString& error);
  // Fills the compare window (made on first use) and, with `show`, raises it.
  void showCompareWindow(const CompareBundle& bundle, const QString& title, bool show = true);
  void onWhatIfReady(std::shared_ptr<const WhatIfBundle> bundle, const QString& error);
  void whatIfFailed(const QString& message);
  // "Force this fusion" / "Forbid this fusion" of P → C (`p`, `c`: names
  // as the overrides take them; `shown`: the pair as the user sees it).
  void addWhatIfActions(QMenu* menu, const QString& p, const QString& c, const QString& shown);
  MainWindow* ensureXlaWindow();
  void onXlaDecisionsReady(std::shared_ptr<const views::XlaDecisions> xla, const QString& error);
  void clearXlaDecisions(bool loading);
  void showXlaMarks();  // XLA's refusals on the graph at the priority fusion step
  void openXlaBesideDialog();
  void pairWithXla(MainWindow* xla);
  void updateVsXla();
  void onVsXlaReady(std::shared_ptr<const views::DecisionsVsXla> diff, const QString& error);
  void buildLessonActions();  // Help → Guided tour, and the tour's connections
  void ensureLessonDock();
  void buildLesson();  // of the shown run, on a worker thread
  void onLessonReady(quint64 gen, std::shared_ptr<const Lesson> lesson, const QString& error, double ms);
  void onLessonRunChanged();  // a new file (no run yet) or a finished run
  void startLessonStage(int k);
  void finishLessonStage();  // the stage's step is shown: subject, panel, kernels

  MainWindowOptions options_;
  Relay* relay_;
  views::GraphView* graph_;
  views::PipelinePanel* pipeline_;
  views::DetailsPanel* details_;
  views::TimelineWidget* timeline_;
  views::DecisionsPanel* decisions_;
  views::TextPanel* text_;
  views::LogPanel* log_;
  QLabel* banner_ = nullptr;  // above the graph: the module does not verify
  std::vector<QDockWidget*> docks_;
  QToolBar* search_bar_ = nullptr;
  QLineEdit* search_edit_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QFileSystemWatcher* watcher_;

  QString path_;
  QString dump_dir_;  // the folder when the shown run is an XLA dump
  QStringList recent_;
  QString last_error_;
  std::shared_ptr<const Session> session_;
  std::shared_ptr<const PipelineRun> run_;
  std::vector<std::shared_ptr<const Step>> live_steps_;  // while a run is in progress
  std::shared_ptr<const views::KernelListing> kernels_;
  std::shared_ptr<const PipelineRun> kernels_run_;
  int kernels_step_ = -1;
  bool generating_ = false;
  int listing_pending_ = 0;  // kernel listings still being shown (showKernelListing)
  quint64 kernels_gen_ = 0;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::vector<QThread*> threads_;
  quint64 load_gen_ = 0, run_gen_ = 0, prep_gen_ = 0;
  bool loading_ = false, running_ = false, preparing_ = false, buffering_ = false;
  bool warming_ = false;  // the finished run parsing the step that is shown
  bool reload_question_open_ = false;
  quint64 compare_gen_ = 0;
  bool comparing_ = false;
  QWidget* compare_window_ = nullptr;
  views::CompareView* compare_view_ = nullptr;
  XlaGpuJob* xla_gpu_job_ = nullptr;  // the running XLA GPU compile (a child QObject)
  QPointer<MainWindow> xla_gpu_window_;
  std::shared_ptr<const views::XlaDecisions> xla_;  // of this window's XLA dump run
  QString xla_error_;
  bool xla_loading_ = false;
  QPointer<MainWindow> xla_peer_;  // the window whose XLA decisions ours are compared with
  QString xla_peer_path_;          // the file ours was when paired
  quint64 vs_gen_ = 0;
  QPlainTextEdit* whatif_panel_ = nullptr;
  QDockWidget* whatif_dock_ = nullptr;
  std::shared_ptr<const WhatIfBundle> whatif_;
  std::shared_ptr<std::atomic<bool>> whatif_cancel_;
  quint64 whatif_gen_ = 0;
  bool whatif_running_ = false;
  // What the shown run was made with (runPipeline's arguments), for what-if.
  QString run_pipeline_, run_device_;
  QStringList run_passes_;
  bool vs_diffing_ = false;
  views::LessonPanel* lesson_panel_ = nullptr;
  QDockWidget* lesson_dock_ = nullptr;
  std::shared_ptr<const Lesson> lesson_;
  std::shared_ptr<const PipelineRun> lesson_run_;  // the run lesson_ (or the one building) is of
  quint64 lesson_gen_ = 0;
  bool lesson_building_ = false;
  int lesson_wanted_stage_ = 0;    // the stage to open at once the tour is built
  int lesson_pending_ = -1;        // the stage whose step is being shown
  int step_ = -1, shown_step_ = -1;
  const Step* prepared_ = nullptr;  // the step object shown or being prepared
  qint64 selected_ = -1;
  bool selecting_ = false;
};

// The default sample (transformer_block_large.hlo, the real-size block) next to the executable
// (<bin>/../../samples), in the source tree, or in an installed share dir;
// "" when none exists.
QString DefaultSamplePath();

}  // namespace hloscope::gui
