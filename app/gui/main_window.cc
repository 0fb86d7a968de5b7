// The main window's frame: the graph and its banner in the centre, the
// docks (buildDocks), the menus and the search bar (buildActions), every
// connection of the worker relay and the panels (the constructor), settings,
// recent files, drag and drop, the worker threads (startThread), errors,
// busy() and the file watcher. Opening a file, running the pipeline and
// showing a step are main_window_pipeline.cc's; generating kernels and their
// tabs main_window_kernels.cc's.
#include "app/gui/main_window.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QFontDatabase>
#include <QSaveFile>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include "app/gui/workers.h"
#include "core/report/graph_svg.h"
#include "core/report/timeline.h"
#include "views/decisions/decisions_panel.h"
#include "views/details/details_panel.h"
#include "views/graph/graph_view.h"
#include "views/log/log_panel.h"
#include "views/pipeline/pipeline_panel.h"
#include "views/text/text_panel.h"
#include "views/text/text_viewer.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::gui {

QString DefaultSamplePath() {
  const QString name = QStringLiteral("transformer_block_large.hlo");
  QStringList dirs;
  const QString app = QCoreApplication::applicationDirPath();
  dirs << app + "/../../samples" << app + "/../samples";
#ifdef HLOSCOPE_SOURCE_DIR
  dirs << QStringLiteral(HLOSCOPE_SOURCE_DIR "/samples");
#endif
  dirs << app + "/../share/hloscope/samples" << QStringLiteral("/usr/share/hloscope/samples");
  for (const QString& d : dirs) {
    QFileInfo f(d + "/" + name);
    if (f.isFile()) return f.canonicalFilePath();
  }
  return {};
}

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent) : QMainWindow(parent), options_(options) {
  RegisterMetaTypes();
  setObjectName("hloscope_main_window");
  setAcceptDrops(true);
  relay_ = new Relay;
  relay_->setParent(this);
  watcher_ = new QFileSystemWatcher(this);
  graph_ = new views::GraphView;
  // A banner above the graph for what the user must know about the module
  // shown (it does not verify), hidden otherwise.
  banner_ = new QLabel;
  banner_->setObjectName("module_banner");
  banner_->setWordWrap(true);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  banner_->setStyleSheet("QLabel { background: #fff3cd; color: #664d03; border-bottom: 1px solid #ffe69c; padding: 6px; }");
  banner_->hide();
  auto* central = new QWidget;
  auto* column = new QVBoxLayout(central);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addWidget(banner_);
  column->addWidget(graph_, 1);
  setCentralWidget(central);
  buildDocks();
  buildActions();
  buildLessonActions();

  // All connections in one place.
  connect(relay_, &Relay::loaded, this, [this](quint64 gen, auto session, auto input) {
    if (gen == load_gen_) onLoaded(std::move(session), std::move(input));
  });
  connect(relay_, &Relay::loadFailed, this, [this](quint64 gen, QString path, QString message) {
    if (gen != load_gen_) return;
    loading_ = false;
    clearXlaDecisions(false);
    showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), message);
    emit loadFailed(message);
  });
  connect(relay_, &Relay::stepRecorded, this, [this](quint64 gen, auto step) {
    if (gen == run_gen_) onStepRecorded(std::move(step));
  });
  connect(relay_, &Relay::runFinished, this, [this](quint64 gen, auto run) {
    if (gen == run_gen_) onRunFinished(std::move(run));
  });
  connect(relay_, &Relay::runFailed, this, [this](quint64 gen, QString message) {
    if (gen != run_gen_) return;
    running_ = false;
    pipeline_->setRunning(false);
    if (message == "cancelled") {
      log_->warning(tr("pipeline cancelled after %1 steps").arg(live_steps_.size()));
    } else {
      showError(tr("Pipeline failed"), message);
    }
    // Keep what was recorded so far.
    if (session_ && !live_steps_.empty())
      run_ = std::make_shared<PipelineRun>(pipeline_->pipeline().toStdString(), pipeline_->device().toStdString(),
                                           live_steps_);
    updateVsXla();
    emit runFinished(false);
  });
  connect(relay_, &Relay::stepPrepared, this, [this](quint64 gen, int k, auto module, auto buffers, QString error) {
    if (gen == prep_gen_) onStepPrepared(k, std::move(module), std::move(buffers), error);
  });
  connect(relay_, &Relay::buffersReady, this, [this](quint64 gen, int k, auto buffers, QString error) {
    if (gen == prep_gen_) onBuffersReady(k, std::move(buffers), error);
  });
  connect(relay_, &Relay::kernelsReady, this, [this](quint64 gen, int k, auto kernels, QString error, double ms) {
    if (gen != kernels_gen_) return;
    views::UiTimer ui_timer("kernelsReady");
    generating_ = false;
    if (!kernels) {
      showError(tr("Kernel generation failed"), error);
      text_->setKernel({}, {}, {}, tr("Kernel generation failed: %1").arg(error));
      text_->setKernelListing(nullptr, tr("Kernel generation failed: %1").arg(error));
      return;
    }
    views::ReplaceOffThread(kernels_, std::move(kernels));
    kernels_step_ = k;
    // Never all or nothing: a kernel no emitter implements is listed as
    // missing, with its reason; every other kernel was generated.
    log_->info(tr("step %1: %2 (LLVM IR + PTX) in %3 ms")
                   .arg(k)
                   .arg(QString::fromStdString(kernels_->summary))
                   .arg(ms, 0, 'f', 0));
    for (const report::PlanEntry& e : kernels_->entries)
      if (e.kind == report::PlanEntry::Kind::kMissing)
        log_->warning(tr("step %1: %%2: kernel %3").arg(k).arg(QString::fromStdString(e.instruction),
                                                               QString::fromStdString(e.what)));
    showKernelListing();
  });
  connect(pipeline_, &views::PipelinePanel::stepSelected, this, &MainWindow::selectStep);
  connect(pipeline_, &views::PipelinePanel::runRequested, this, &MainWindow::runPipeline);
  connect(pipeline_, &views::PipelinePanel::cancelRequested, this, &MainWindow::cancelRun);
  connect(graph_, &views::GraphView::instructionSelected, this, [this](int64_t id) { selectInstruction(id, false); });
  connect(text_, &views::TextPanel::kernelInstructionActivated, this,
          [this](const QString& name) { selectInstructionByName(name, true); });
  connect(text_, &views::TextPanel::correspondenceChanged, this,
          [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(graph_, &views::GraphView::layoutFinished, this, [this](double ms, int nodes) {
    statusBar()->showMessage(tr("layout: %1 nodes in %2 ms").arg(nodes).arg(ms, 0, 'f', 0), 5000);
  });
  connect(graph_, &views::GraphView::layoutFailed, this,
          [this](const QString& m) { log_->error(tr("graph layout failed: %1").arg(m)); });
  connect(details_, &views::DetailsPanel::instructionActivated, this, [this](qint64 id) { selectInstruction(id, true); });
  connect(timeline_, &views::TimelineWidget::instructionSelected, this,
          [this](qint64 id) { selectInstruction(id, true); });
  connect(decisions_, &views::DecisionsPanel::producerSelected, this,
          [this](qint64 producer, QList<qint64>) { selectInstruction(producer, true); });
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, &MainWindow::onFileChanged);
  connect(relay_, &Relay::compareReady, this, [this](quint64 gen, auto result, QString error) {
    if (gen == compare_gen_) onCompareReady(std::move(result), error);
  });
  connect(relay_, &Relay::xlaDecisionsReady, this, [this](quint64 gen, auto xla, QString error) {
    if (gen == load_gen_ && xla_loading_) onXlaDecisionsReady(std::move(xla), error);
  });
  connect(relay_, &Relay::vsXlaReady, this, [this](quint64 gen, auto diff, QString error) {
    if (gen == vs_gen_) onVsXlaReady(std::move(diff), error);
  });
  connect(relay_, &Relay::whatIfReady, this, [this](quint64 gen, auto bundle, QString error) {
    if (gen == whatif_gen_) onWhatIfReady(std::move(bundle), error);
  });
  installContextMenus();

  resize(1400, 900);
  if (options_.persist_settings) restoreSettings();
  updateTitle();
}

MainWindow::~MainWindow() {
  if (cancel_) *cancel_ = true;
  if (whatif_cancel_) *whatif_cancel_ = true;
  for (QThread* t : threads_) {
    t->wait();
    delete t;
  }
}

void MainWindow::buildDocks() {
  pipeline_ = new views::PipelinePanel;
  details_ = new views::DetailsPanel;
  auto* timeline_panel = new views::TimelinePanel;  // the timeline and the buffers live at the peak
  timeline_ = timeline_panel->timeline();
  decisions_ = new views::DecisionsPanel;
  text_ = new views::TextPanel;
  log_ = new views::LogPanel;
  auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    docks_.push_back(d);
    return d;
  };
  dock(pipeline_, tr("Pipeline"), "pipeline", Qt::LeftDockWidgetArea);
  dock(details_, tr("Details"), "details", Qt::RightDockWidgetArea);
  QDockWidget* tl = dock(timeline_panel, tr("Buffer timeline"), "timeline", Qt::BottomDockWidgetArea);
  QDockWidget* dc = dock(decisions_, tr("Decisions"), "decisions", Qt::BottomDockWidgetArea);
  QDockWidget* tx = dock(text_, tr("Text"), "text", Qt::BottomDockWidgetArea);
  QDockWidget* lg = dock(log_, tr("Log"), "log", Qt::BottomDockWidgetArea);
  whatif_panel_ = new QPlainTextEdit;
  whatif_panel_->setObjectName("whatif_panel");
  whatif_panel_->setReadOnly(true);
  whatif_panel_->setLineWrapMode(QPlainTextEdit::NoWrap);
  whatif_panel_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  whatif_panel_->setPlaceholderText(tr("What-if fusion: right-click a decision or a graph edge and choose "
                                       "\u201cForce this fusion\u201d or \u201cForbid this fusion\u201d."));
  whatif_dock_ = dock(whatif_panel_, tr("What-if"), "whatif", Qt::BottomDockWidgetArea);
  tabifyDockWidget(tl, dc);
  tabifyDockWidget(dc, tx);
  tabifyDockWidget(tx, lg);
  tabifyDockWidget(lg, whatif_dock_);
  tl->raise();
  // The graph gets the most room (docs/graph-view.md, "The first view").
  resizeDocks({docks_[0], docks_[1]}, {420, 280}, Qt::Horizontal);
  resizeDocks({tl}, {260}, Qt::Vertical);
}

void MainWindow::buildActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("Open XLA &dump folder…"), this, &MainWindow::openXlaDumpDialog);
  QAction* reload = file->addAction(tr("&Reload"), this, [this] {
    if (!path_.isEmpty()) openFile(path_);
  });
  reload->setShortcut(QKeySequence::Refresh);
  QMenu* exp = file->addMenu(tr("&Export"));
  exp->addAction(tr("Graph as &SVG…"), this, [this] { exportDialog("graph-svg"); });
  exp->addAction(tr("Graph as &PNG…"), this, [this] { exportDialog("graph-png"); });
  exp->addAction(tr("Timeline as S&VG…"), this, [this] { exportDialog("timeline-svg"); });
  exp->addAction(tr("Graph as &DOT…"), this, [this] { exportDialog("graph-dot"); });
  exp->addAction(tr("Timeline as P&NG…"), this, [this] { exportDialog("timeline-png"); });
  file->addAction(tr("&Compare with…"), this, &MainWindow::compareDialog);
  file->addAction(tr("Compile with XLA &GPU…"), this, &MainWindow::compileWithXlaGpuDialog);
  file->addAction(tr("Compare decisions with XLA dump…"), this, &MainWindow::openXlaBesideDialog);
  file->addSeparator();
  file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Find…"), this, &MainWindow::showSearch)->setShortcut(QKeySequence::Find);
  view->addAction(tr("&Fit graph"), this, [this] { graph_->fitView(); })->setShortcut(Qt::Key_F);
  QAction* zin = view->addAction(tr("Zoom &in"), this, [this] { graph_->zoomIn(); });
  zin->setShortcuts({QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal), QKeySequence::ZoomIn});
  QAction* zout = view->addAction(tr("Zoom &out"), this, [this] { graph_->zoomOut(); });
  zout->setShortcuts({QKeySequence(Qt::Key_Minus), QKeySequence::ZoomOut});
  QAction* legend = view->addAction(tr("Show &legend"), graph_, &views::GraphView::setLegendVisible);
  legend->setCheckable(true);
  connect(graph_, &views::GraphView::legendVisibilityChanged, legend, &QAction::setChecked);
  QAction* changed = view->addAction(tr("Only what &changed in this step"), graph_, &views::GraphView::setChangesOnly);
  changed->setCheckable(true);
  changed->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_C);
  changed->setToolTip(tr("Draw the step's added and rewritten instructions with their operands and users"));
  QAction* fold = view->addAction(tr("Fold &parameters and constants into their users"), graph_,
                                  &views::GraphView::setFoldInputs);
  fold->setCheckable(true);
  QMenu* budget = view->addMenu(tr("Graph &node budget"));
  auto* budgets = new QActionGroup(budget);
  // "Readable first view" (data -1): grouped to fit the view with readable labels.
  QAction* readable = budget->addAction(tr("&Readable first view (group to fit)"), this, [this] {
    graph_->setReadableFirstView(true);
    if (options_.persist_settings) QSettings().setValue("graph/max_nodes", -1);
  });
  readable->setCheckable(true);
  readable->setData(-1);
  readable->setChecked(graph_->readableFirstView());
  budgets->addAction(readable);
  for (int n : {400, 800, 2000, 5000}) {
    QAction* a = budget->addAction(tr("up to %1 nodes").arg(n), this, [this, n] {
      graph_->setMaxNodes(n);
      if (options_.persist_settings) QSettings().setValue("graph/max_nodes", n);
    });
    a->setCheckable(true);
    a->setData(n);
    a->setChecked(!graph_->readableFirstView() && n == graph_->maxNodes());
    budgets->addAction(a);
  }
  view->addSeparator();
  for (QDockWidget* d : docks_) view->addAction(d->toggleViewAction());

  QMenu* step = menuBar()->addMenu(tr("&Step"));
  step->addAction(tr("&Run pipeline"), pipeline_, &views::PipelinePanel::requestRun)->setShortcut(Qt::CTRL | Qt::Key_R);
  step->addAction(tr("&Cancel"), this, &MainWindow::cancelRun);
  step->addAction(tr("&First step"), pipeline_, &views::PipelinePanel::stepFirst)->setShortcut(Qt::Key_Home);
  QAction* back = step->addAction(tr("&Previous step"), pipeline_, &views::PipelinePanel::stepBack);
  back->setShortcuts({QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_PageUp)});
  QAction* fwd = step->addAction(tr("&Next step"), pipeline_, &views::PipelinePanel::stepForward);
  fwd->setShortcuts({QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_PageDown)});
  step->addAction(tr("&Last step"), pipeline_, &views::PipelinePanel::stepLast)->setShortcut(Qt::Key_End);
  step->addSeparator();
  step->addAction(tr("Generate &kernels (LLVM IR, PTX)"), this, &MainWindow::generateKernels)
      ->setShortcut(Qt::CTRL | Qt::Key_K);

  search_bar_ = new QToolBar(tr("Search"), this);
  search_bar_->setObjectName("search");
  search_edit_ = new QLineEdit;
  search_edit_->setPlaceholderText(tr("regex over name, opcode, op_name — Enter: next, Shift+Enter: previous"));
  search_bar_->addWidget(search_edit_);
  auto find = [this](bool back) {
    const bool ok = back ? graph_->findPrevious(search_edit_->text()) : graph_->findNext(search_edit_->text());
    statusBar()->showMessage(ok ? tr("match %1").arg(graph_->findStatus())
                                : tr("no match for %1").arg(search_edit_->text()),
                             3000);
  };
  search_bar_->addAction(tr("Next"), this, [find] { find(false); });
  search_bar_->addAction(tr("Previous"), this, [find] { find(true); });
  connect(search_edit_, &QLineEdit::returnPressed, this,
          [find] { find(QApplication::keyboardModifiers() & Qt::ShiftModifier); });
  auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), search_edit_);
  esc->setContext(Qt::WidgetShortcut);
  connect(esc, &QShortcut::activated, search_bar_, &QWidget::hide);
  addToolBar(Qt::TopToolBarArea, search_bar_);
  search_bar_->hide();
}

void MainWindow::showSearch() {
  search_bar_->show();
  search_edit_->setFocus();
  search_edit_->selectAll();
}

void MainWindow::restoreSettings() {
  QSettings s;
  if (s.contains("window/geometry")) restoreGeometry(s.value("window/geometry").toByteArray());
  if (s.contains("window/state")) restoreState(s.value("window/state").toByteArray());
  recent_ = s.value("recentFiles").toStringList();
  pipeline_->setPipeline(s.value("pipeline", "gpu").toString());
  pipeline_->setDevice(s.value("device", "h200").toString());
  pipeline_->setCustomPasses(s.value("customPasses").toStringList());
  pipeline_->setHideNoOps(s.value("hideNoOps", false).toBool());
  if (s.contains("graph/max_nodes")) {
    const int n = s.value("graph/max_nodes").toInt();
    if (n > 0) graph_->setMaxNodes(n);
    else graph_->setReadableFirstView(true);
    for (QAction* a : findChildren<QAction*>())
      if (a->isCheckable() && a->data().isValid() && a->data().toInt() != 0)
        a->setChecked(graph_->readableFirstView() ? a->data().toInt() == -1
                                                  : a->data().toInt() == graph_->maxNodes());
  }
  rebuildRecentMenu();
}

void MainWindow::saveSettings() {
  if (!options_.persist_settings) return;
  QSettings s;
  s.setValue("window/geometry", saveGeometry());
  s.setValue("window/state", saveState());
  s.setValue("recentFiles", recent_);
  s.setValue("pipeline", pipeline_->pipeline());
  s.setValue("device", pipeline_->device());
  s.setValue("customPasses", pipeline_->customPasses());
  s.setValue("hideNoOps", pipeline_->filter()->hideNoOps());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  saveSettings();
  QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls() && !e->mimeData()->urls().isEmpty() && e->mimeData()->urls().front().isLocalFile())
    e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const QList<QUrl> urls = e->mimeData()->urls();
  if (urls.isEmpty() || !urls.front().isLocalFile()) return;
  e->acceptProposedAction();
  openFile(urls.front().toLocalFile());
}

void MainWindow::openDialog() {
  QString dir = path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath();
  QString f = QFileDialog::getOpenFileName(this, tr("Open module"), dir,
                                           tr("HLO or StableHLO (*.hlo *.txt *.mlir);;All files (*)"));
  if (!f.isEmpty()) openFile(f);
}

void MainWindow::addRecent(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  recent_.removeAll(abs);
  recent_.prepend(abs);
  while (recent_.size() > 10) recent_.removeLast();
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recent_menu_->clear();
  for (const QString& f : recent_) recent_menu_->addAction(f, this, [this, f] { openFile(f); });
  recent_menu_->setEnabled(!recent_.isEmpty());
}

QString MainWindow::bannerText() const { return banner_ && !banner_->isHidden() ? banner_->text() : QString(); }

void MainWindow::showError(const QString& title, const QString& message) {
  last_error_ = message;
  log_->error(title + ": " + message);
  statusBar()->showMessage(title, 8000);
  if (!options_.dialogs) return;
  auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);
  box->open();  // not exec(): the window stays usable
}

void MainWindow::startThread(std::function<void()> fn) {
  QThread* t = QThread::create(std::move(fn));
  threads_.push_back(t);
  connect(t, &QThread::finished, this, [this, t] {
    threads_.erase(std::remove(threads_.begin(), threads_.end(), t), threads_.end());
    t->deleteLater();
  });
  t->start();
}

bool MainWindow::showPanel(const QString& name) {
  if (name == "kernels") {
    text_->showKernelsTab();
    return showPanel("text");
  }
  if (name == "sass" || name == "ptx" || name == "llvm-ir") {
    text_->tabs()->setCurrentWidget(name == "sass"  ? static_cast<QWidget*>(text_->sassViewer())
                                    : name == "ptx" ? static_cast<QWidget*>(text_->ptxViewer())
                                                    : static_cast<QWidget*>(text_->irViewer()));
    return showPanel("text");
  }
  if (name == "graph") {
    graph_->setFocus();
    return true;
  }
  for (QDockWidget* d : docks_) {
    if (d->objectName() != name) continue;
    d->show();
    d->raise();
    return true;
  }
  return false;
}

bool MainWindow::busy() const { return !busyReason().isEmpty(); }

QString MainWindow::busyReason() const {
  if (loading_) return "loading";
  if (running_) return "running the pipeline";
  if (preparing_) return "preparing the step";
  if (buffering_) return "assigning buffers";
  if (warming_) return "parsing the step for the finished run";
  if (generating_) return "generating kernels";
  if (listing_pending_ > 0) return "listing the kernels";
  if (xla_loading_) return "reading XLA's priority fusion log";
  if (vs_diffing_) return "comparing our decisions with XLA's";
  if (whatif_running_) return "running the what-if";
  if (lesson_building_) return "writing the guided tour";
  if (lesson_pending_ >= 0) return "showing the tour's stage";
  if (step_ >= 0 && shown_step_ != step_) return "showing the step";
  if (graph_->busy()) return "laying out the graph";
  if (text_->diffPending()) return "diffing";
  if (text_->textPending()) return "filling the text";
  if (timeline_->rendering()) return "drawing the timeline";
  return {};
}

void MainWindow::onFileChanged(const QString& path) {
  if (path != path_) return;
  // Editors that replace the file drop the watch; watch again when it exists.
  QTimer::singleShot(200, this, [this, path] {
    if (QFileInfo::exists(path) && !watcher_->files().contains(path)) watcher_->addPath(path);
  });
  log_->info(tr("%1 changed on disk").arg(path));
  if (!options_.dialogs) return;
  if (reload_question_open_) return;
  reload_question_open_ = true;
  auto* box = new QMessageBox(QMessageBox::Question, tr("File changed"),
                              tr("%1 changed on disk. Reload it?").arg(QFileInfo(path).fileName()),
                              QMessageBox::Yes | QMessageBox::No, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::finished, this, [this, path](int result) {
    reload_question_open_ = false;
    if (result == QMessageBox::Yes) openFile(path);
  });
  box->open();
}

void MainWindow::updateTitle() {
  setWindowTitle(path_.isEmpty() ? QStringLiteral("hloscope")
                                 : QStringLiteral("%1 — hloscope").arg(QFileInfo(path_).fileName()));
}

}  // namespace hloscope::gui
