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
#include <QElapsedTimer>
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
#include "core/codegen/line_info.h"
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

void MainWindow::openFile(const QString& path) {
  if (QFileInfo(path).isDir()) {
    openXlaDump(path, QString());
    return;
  }
  dump_dir_.clear();
  clearXlaDecisions(false);
  if (cancel_) *cancel_ = true;
  if (whatif_running_) {  // a what-if of the previous file: dropped
    if (whatif_cancel_) *whatif_cancel_ = true;
    ++whatif_gen_;
    whatif_running_ = false;
  }
  const quint64 gen = ++load_gen_;
  ++run_gen_;
  ++prep_gen_;
  running_ = false;
  preparing_ = false;
  buffering_ = false;
  pipeline_->setRunning(false);
  loading_ = true;
  log_->info(tr("opening %1").arg(path));
  statusBar()->showMessage(tr("loading %1…").arg(QFileInfo(path).fileName()));
  Relay* relay = relay_;
  const std::string p = path.toStdString();
  startThread([relay, gen, p, path] {
    auto s = Session::Load(p);
    if (!s.ok()) {
      emit relay->loadFailed(gen, path, QString::fromStdString(s.status().message()));
      return;
    }
    auto input = (*s)->InputOnly();
    emit relay->loaded(gen, *s, input);
  });
}

void MainWindow::onLoaded(std::shared_ptr<const Session> session, std::shared_ptr<const PipelineRun> input) {
  views::UiTimer ui_timer("onLoaded");
  loading_ = false;
  if (!path_.isEmpty()) watcher_->removePath(path_);
  session_ = std::move(session);
  const bool dump = input && input->name() == "xla-dump";  // steps are the dump's files: nothing to run
  path_ = dump ? dump_dir_ : QString::fromStdString(session_->path());
  watcher_->addPath(path_);
  addRecent(path_);
  updateTitle();
  log_->info(tr("loaded %1: module %2, %3 instructions")
                 .arg(path_)
                 .arg(QString::fromStdString(session_->module_name()))
                 .arg(session_->instruction_count()));
  text_->setSource(QString::fromStdString(session_->source_text()), session_->is_stablehlo());
  const std::string& warnings = session_->verify_warnings();
  if (!warnings.empty() && !dump) {
    // Shown as it is; passes, codegen and runs need a module that verifies.
    const QStringList lines = QString::fromStdString(warnings).split('\n', Qt::SkipEmptyParts);
    for (const QString& l : lines) log_->warning(QString(l).replace(": error: ", ": warning: "));
    banner_->setText(tr("This module does not verify (%n problem(s); first: %1). It is shown as written; "
                        "passes, codegen and runs refuse it until it verifies. The Log lists every problem.",
                        nullptr, static_cast<int>(lines.size()))
                         .arg(lines.isEmpty() ? QString() : lines.front()));
    banner_->show();
  } else {
    banner_->hide();
  }
  run_ = std::move(input);
  live_steps_ = run_->steps();
  selected_ = -1;
  step_ = -1;
  prepared_ = nullptr;
  shown_step_ = -1;
  pipeline_->setSteps(run_->steps());
  decisions_->setSteps(run_->steps(), 0);
  updateVsXla();
  onLessonRunChanged();
  emit fileLoaded(path_);
  if (dump) {
    log_->info(tr("XLA dump: %1 steps (before_optimizations, pass files, after_optimizations)").arg(run_->size()));
    pipeline_->setCurrentStep(run_->size() - 1);
    return;
  }
  if (!options_.auto_run || !warnings.empty()) {
    pipeline_->setCurrentStep(0);
    return;
  }
  if (options_.auto_run)
    runPipeline(pipeline_->pipeline(), pipeline_->pipeline() == "custom" ? pipeline_->customPasses() : QStringList(),
                pipeline_->device());
}

void MainWindow::runPipeline(const QString& pipeline, const QStringList& passes, const QString& device) {
  if (!session_) return;
  if (cancel_) *cancel_ = true;
  if (pipeline == "custom" && passes.isEmpty()) {
    showError(tr("Nothing to run"), tr("Check at least one pass for a custom pipeline."));
    return;
  }
  const quint64 gen = ++run_gen_;
  run_pipeline_ = pipeline;
  run_passes_ = passes;
  run_device_ = device;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  running_ = true;
  pipeline_->setRunning(true);
  live_steps_.clear();
  // Our pipeline on an XLA dump's module replaces XLA's run: its decisions go with it.
  if (xla_ || xla_loading_) clearXlaDecisions(false);
  updateVsXla();
  pipeline_->setSteps({});
  step_ = -1;
  prepared_ = nullptr;
  log_->info(tr("running %1 on %2").arg(pipeline == "custom" ? passes.join(",") : pipeline, device));
  RunOptions opts;
  if (pipeline == "custom")
    for (const QString& p : passes) opts.passes.push_back(p.toStdString());
  else
    opts.pipeline = pipeline.toStdString();
  opts.device = device.toStdString();
  Relay* relay = relay_;
  auto session = session_;
  auto cancel = cancel_;
  startThread([relay, gen, session, cancel, opts]() mutable {
    opts.cancel = cancel.get();
    opts.on_step = [relay, gen](const std::shared_ptr<const Step>& s) { emit relay->stepRecorded(gen, s); };
    auto run = session->RunPipeline(opts);
    if (!run.ok()) {
      emit relay->runFailed(gen, QString::fromStdString(run.status().message()));
      return;
    }
    emit relay->runFinished(gen, *run);
  });
}

void MainWindow::cancelRun() {
  if (running_ && cancel_) *cancel_ = true;
}

void MainWindow::setPipelineChoice(const QString& pipeline) { pipeline_->setPipeline(pipeline); }

void MainWindow::onStepRecorded(std::shared_ptr<const Step> step) {
  views::UiTimer ui_timer("onStepRecorded");
  live_steps_.push_back(step);
  pipeline_->appendStep(step);
  if (live_steps_.size() == 1) {
    // Show the input while the rest runs.
    run_ = std::make_shared<PipelineRun>("running", "", live_steps_);
    pipeline_->setCurrentStep(0);
  }
}

void MainWindow::onRunFinished(std::shared_ptr<const PipelineRun> run) {
  views::UiTimer ui_timer("onRunFinished");
  running_ = false;
  pipeline_->setRunning(false);
  views::ReplaceOffThread(run_, std::move(run));
  int changed = 0;
  for (const auto& s : run_->steps()) changed += s->changed;
  log_->info(tr("%1: %2 steps, %3 changed the module; kernels %4 → %5")
                 .arg(QString::fromStdString(run_->name()))
                 .arg(run_->size())
                 .arg(changed)
                 .arg(run_->step(0).cost.kernels)
                 .arg(run_->steps().back()->cost.kernels));
  const int keep = std::max(step_, 0);
  pipeline_->setSteps(run_->steps());
  decisions_->setSteps(run_->steps(), keep);
  pipeline_->setCurrentStep(std::min(keep, run_->size() - 1));
  updateVsXla();
  onLessonRunChanged();
  emit runFinished(true);
}

void MainWindow::selectStep(int k) {
  views::UiTimer ui_timer("selectStep");
  if (!run_ || k < 0 || k >= run_->size()) return;
  if (k != pipeline_->currentStep()) {
    pipeline_->setCurrentStep(k);  // comes back here through stepSelected
    if (pipeline_->currentStep() != k) k = pipeline_->currentStep();
    if (k == step_) return;
  }
  const Step* obj = run_->steps()[k].get();
  if (k == step_ && obj == prepared_) {
    // The same step of a newer run (the pipeline finished while it was
    // shown): its module is what is shown or being prepared already. The
    // newer run parses it again for instruction lookups (its cache is its
    // own): on a worker, and the details follow the newer run after that.
    decisions_->setCurrentStep(k);
    text_->setStep(run_, k);
    warming_ = true;
    auto run = run_;
    startThread([this, run, k] {
      (void)run->ModuleAt(k);
      QMetaObject::invokeMethod(
          this,
          [this, run, k] {
            warming_ = false;
            if (run_ == run && step_ == k) details_->setStep(run_, k);
          },
          Qt::QueuedConnection);
    });
    return;
  }
  step_ = k;
  prepared_ = obj;
  decisions_->setCurrentStep(k);
  text_->setStep(run_, k);
  const Step& s = run_->step(k);
  statusBar()->showMessage(tr("step %1: %2 — %3 instructions, %4 kernels").arg(k).arg(QString::fromStdString(s.pass))
                               .arg(s.instructions).arg(s.cost.kernels));
  timeline_->setMessage(tr("computing buffer assignment…"));
  const quint64 gen = ++prep_gen_;
  preparing_ = true;
  Relay* relay = relay_;
  auto run = run_;
  buffering_ = true;
  startThread([relay, gen, run, k] {
    // The graph needs only the module; the buffer assignment (seconds on the
    // largest modules) follows for the timeline.
    auto module = run->ModuleAt(k);
    if (!module.ok()) {
      const QString error = QString::fromStdString(module.status().message());
      emit relay->stepPrepared(gen, k, nullptr, nullptr, error);
      emit relay->buffersReady(gen, k, nullptr, error);
      return;
    }
    emit relay->stepPrepared(gen, k, *module, nullptr, QString());
    auto ba = run->BuffersAt(k);
    emit relay->buffersReady(gen, k, ba.ok() ? *ba : nullptr,
                             ba.ok() ? QString() : QString::fromStdString(ba.status().message()));
  });
}

void MainWindow::onStepPrepared(int k, std::shared_ptr<const Module> module,
                                std::shared_ptr<const BufferAssignment> buffers, QString error) {
  views::UiTimer ui_timer("onStepPrepared");
  preparing_ = false;
  if (!run_ || k != step_) return;
  const auto& step = run_->steps()[k];
  if (!module) {
    showError(tr("Step %1 cannot be shown").arg(k), error);
    return;
  }
  graph_->showStep(module, step->module, std::shared_ptr<const StepDiff>(step, &step->diff));
  details_->setStep(run_, k);
  if (buffers) timeline_->setAssignment(buffers, step->module);
  shown_step_ = k;
  showXlaMarks();
  showKernelListing();
  if (selected_ >= 0) selectInstruction(selected_, false);
  emit stepShown(k);
}

void MainWindow::onBuffersReady(int k, std::shared_ptr<const BufferAssignment> buffers, QString error) {
  views::UiTimer ui_timer("onBuffersReady");
  buffering_ = false;
  if (!run_ || k != step_) return;
  if (buffers) timeline_->setAssignment(buffers, run_->steps()[k]->module);
  else timeline_->setMessage(tr("No buffer assignment: %1").arg(error));
  if (selected_ >= 0) timeline_->selectInstruction(selected_);
  emit buffersShown(k);
}

void MainWindow::selectInstruction(qint64 id, bool center) {
  views::UiTimer ui_timer("selectInstruction");
  if (selecting_) return;
  selecting_ = true;
  selected_ = id;
  {
    views::UiTimer t("selectInstruction: graph");
    graph_->selectInstruction(id, center);
  }
  {
    views::UiTimer t("selectInstruction: details");
    details_->setInstruction(id);
  }
  timeline_->selectInstruction(id);
  {
    views::UiTimer t("selectInstruction: text");
    text_->setInstruction(id);
  }
  updateKernelTabs();
  selecting_ = false;
}

void MainWindow::generateKernels() {
  if (!run_ || step_ < 0 || shown_step_ != step_) return;
  const quint64 gen = ++kernels_gen_;
  generating_ = true;
  views::ReplaceOffThread(kernels_, std::shared_ptr<const views::KernelListing>());
  graph_->setKernelListing(nullptr);
  details_->setKernelListing(nullptr);
  kernels_run_ = run_;
  text_->setKernel({}, {}, {}, tr("generating kernels for step %1…").arg(step_));
  text_->setKernelListing(nullptr, tr("generating kernels for step %1…").arg(step_));
  Relay* relay = relay_;
  auto run = run_;
  const int k = step_;
  startThread([relay, gen, run, k] {
    QElapsedTimer t;
    t.start();
    auto module = run->ModuleAt(k);
    auto ba = module.ok() ? run->BuffersAt(k) : StatusOr<std::shared_ptr<const BufferAssignment>>(module.status());
    if (!ba.ok()) {
      emit relay->kernelsReady(gen, k, nullptr, QString::fromStdString(ba.status().message()), 0);
      return;
    }
    // SASS and resources too where ptxas and nvdisasm are found (the SASS
    // tab says which tool is missing otherwise).
    codegen::CodegenOptions co;
    co.sass = codegen::MissingSassTools().empty();
    auto r = codegen::GenerateKernels(**module, **ba, co);
    if (!r.ok()) {
      emit relay->kernelsReady(gen, k, nullptr, QString::fromStdString(r.status().message()), 0);
      return;
    }
    auto listing = views::KernelListing::Make(std::make_shared<const codegen::CodegenResult>(std::move(*r)));
    emit relay->kernelsReady(gen, k, std::move(listing), QString(), static_cast<double>(t.elapsed()));
  });
}

void MainWindow::showKernelListing() {
  const bool ready = kernelsReadyForStep();
  graph_->setKernelListing(ready ? kernels_ : nullptr);
  if (ready) {
    // In three turns of the event loop: on a large module (Llama 3.1 8B:
    // 6,103 kernels) the details' and the Kernels tab's listings take ~30 and
    // ~70 ms; in one turn they blocked the UI thread for 112 ms.
    auto listing = kernels_;
    ++listing_pending_;
    QTimer::singleShot(0, this, [this, listing] {
      if (kernels_ == listing && kernelsReadyForStep()) {
        views::UiTimer t("showKernelListing: details");
        details_->setKernelListing(listing);
      }
      QTimer::singleShot(0, this, [this, listing] {
        --listing_pending_;
        if (kernels_ != listing || !kernelsReadyForStep()) return;
        views::UiTimer t("showKernelListing: kernels tab");
        text_->setKernelListing(listing, {});
        updateKernelTabs();
      });
    });
    return;
  }
  details_->setKernelListing(nullptr);
  if (generating_) return;  // "generating…" stays
  const QString note = kernels_ && kernels_run_ == run_
                           ? tr("Kernels were generated for step %1; Step → Generate kernels (Ctrl+K) for step %2.")
                                 .arg(kernels_step_)
                                 .arg(step_)
                           : tr("Step → Generate kernels (Ctrl+K) on a `gpu` step, then select a fusion.");
  text_->setKernel({}, {}, {}, note);
  text_->setKernelListing(nullptr, note);
}

namespace {

// The SASS tab's text for a kernel: nvdisasm's listing under the lines the
// details panel shows (ptxas's resources, occupancy, instruction classes), or
// a comment saying why there is none.
QString SassTabText(const codegen::KernelCode& kc, const report::KernelResourceText* r, const std::string& target) {
  if (kc.sass.empty()) {
    std::string why = !kc.sass_error.empty() ? kc.sass_error : codegen::MissingSassTools();
    if (why.empty()) why = "SASS was not made for this kernel";
    return QString::fromStdString("// no SASS: " + why + "\n");
  }
  std::string head;
  if (r && !r->resources.empty())
    head = "// " + target + ": " + r->resources + " (ptxas -v)\n// " + r->occupancy + "\n// " + r->sass + "\n";
  return QString::fromStdString(head + kc.sass);
}

}  // namespace

void MainWindow::updateKernelTabs() {
  if (!kernelsReadyForStep()) return;
  const codegen::CodegenResult& cg = *kernels_->code;
  const QString summary = QString::fromStdString(kernels_->summary);
  const InstructionRecord* rec = run_->step(step_).module->Find(selected_);
  if (!rec) {
    text_->setKernel({}, {}, {},
                     tr("Step %1: %2.\nSelect a fusion or another kernel-launching instruction; the Kernels tab lists "
                        "every launch.")
                         .arg(step_)
                         .arg(summary));
    return;
  }
  const QString name = QString::fromStdString(rec->name);
  const report::PlanEntry* e = kernels_->Find(rec->name);
  if (!e || (e->kind == report::PlanEntry::Kind::kKernel && e->kernel < 0)) {
    text_->setKernel({}, {}, {},
                     tr("%%1 launches nothing of its own in step %2 (%3); the Kernels tab lists every launch.")
                         .arg(name)
                         .arg(step_)
                         .arg(summary));
    return;
  }
  switch (e->kind) {
    case report::PlanEntry::Kind::kKernel: {
      const size_t k = static_cast<size_t>(e->kernel);
      const codegen::KernelCode& kc = cg.CodeOf(k);  // a shared kernel's code is in its first launch
      text_->setKernel(QString::fromStdString(cg.kernels[k].name == kc.name
                                                  ? kc.name
                                                  : cg.kernels[k].name + " (kernel " + kc.name + ")"),
                       // Line info lives in the PTX and SASS tabs; the IR reads without it.
                       QString::fromStdString(codegen::IrWithoutDebugInfo(kc.optimized_ir.empty() ? kc.ir
                                                                                            : kc.optimized_ir)),
                       QString::fromStdString(kc.ptx), {}, SassTabText(kc, kernels_->ResourcesOf(e), cg.plan.target));
      return;
    }
    case report::PlanEntry::Kind::kMissing:
      text_->setKernel({}, {}, {},
                       tr("%%1: kernel %2\n\n%3 stays in the plan marked missing (\"missing\" in a bundle's "
                          "manifest.json; runners refuse the plan, naming it). Every other kernel of step %4 was "
                          "generated: %5.")
                           .arg(name, QString::fromStdString(e->what), QString::fromStdString(e->name))
                           .arg(step_)
                           .arg(summary));
      return;
    case report::PlanEntry::Kind::kCustomCall:
    case report::PlanEntry::Kind::kCollective:
    case report::PlanEntry::Kind::kHostTransfer:
      text_->setKernel({}, {}, {},
                       tr("%%1: %2 thunk, not a kernel of ours — %3\n\nStep %4: %5.")
                           .arg(name, QString::fromLatin1(report::PlanEntryKindName(e->kind)),
                                QString::fromStdString(e->what))
                           .arg(step_)
                           .arg(summary));
      return;
  }
}

bool MainWindow::selectInstructionByName(const QString& name, bool center) {
  if (!run_ || step_ < 0) return false;
  int64_t id = run_->IdOfName(step_, name.toStdString());
  if (id < 0) return false;
  selectInstruction(id, center);
  return true;
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
