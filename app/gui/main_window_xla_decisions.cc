// XLA GPU's own fusion decisions in the GUI. On an XLA dump run (opened
// directly, or the second window of File → Compile with XLA GPU…) XLA's
// priority fusion log, read on the loading worker, gives the decisions
// panel XLA's rows at the priority fusion step, the graph XLA's refusals,
// the details XLA's log lines. A window running our pipeline on the same
// module, paired with such a window, diffs our decisions with XLA's on a
// worker (core/report/decisions_diff.h): the panel's "vs XLA" rows.
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "core/report/decisions_diff.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"
#include "views/decisions/decisions_panel.h"
#include "views/decisions/xla_decisions.h"
#include "views/details/details_panel.h"
#include "views/graph/graph_view.h"
#include "views/log/log_panel.h"

namespace hloscope::gui {

void MainWindow::clearXlaDecisions(bool loading) {
  const bool had = xla_ || !xla_error_.isEmpty() || xla_loading_;
  views::ReplaceOffThread(xla_, std::shared_ptr<const views::XlaDecisions>());
  xla_error_.clear();
  xla_loading_ = loading;
  decisions_->setXlaDecisions(nullptr);
  decisions_->setNote(loading ? tr("reading XLA's priority fusion log…") : QString());
  details_->setXlaDecisions(nullptr);
  graph_->setRefusalMarks({});
  if (had || loading) emit xlaDecisionsChanged();
}

void MainWindow::onXlaDecisionsReady(std::shared_ptr<const views::XlaDecisions> xla, const QString& error) {
  views::UiTimer ui_timer("onXlaDecisionsReady");
  xla_loading_ = false;
  views::ReplaceOffThread(xla_, std::move(xla));
  xla_error_ = error;
  decisions_->setXlaDecisions(xla_);
  details_->setXlaDecisions(xla_);
  if (xla_) {
    decisions_->setNote({});
    log_->info(xla_->summary + (xla_->step >= 0 ? tr(", at step %1 (%2)")
                                                      .arg(xla_->step)
                                                      .arg(QString::fromStdString(xla_->step_label))
                                                : QString()));
  } else {
    // A dump without the log is usual (no --xla_dump_hlo_pass_re, XLA CPU): a note, no dialog.
    decisions_->setNote(tr("No XLA decisions: %1").arg(error));
    log_->info(tr("no XLA decisions for this dump: %1").arg(error));
  }
  showXlaMarks();
  emit xlaDecisionsChanged();
}

void MainWindow::showXlaMarks() {
  graph_->setRefusalMarks(xla_ && xla_->step >= 0 && shown_step_ == xla_->step ? xla_->refusals
                                                                                : QHash<QString, QString>());
}

MainWindow* MainWindow::ensureXlaWindow() {
  if (!xla_gpu_window_) {
    MainWindowOptions opts = options_;
    opts.persist_settings = false;  // the settings are the first window's
    opts.auto_run = false;
    xla_gpu_window_ = new MainWindow(opts, this);
    xla_gpu_window_->setObjectName("xla_gpu_window");
    xla_gpu_window_->resize(size());
  }
  return xla_gpu_window_;
}

void MainWindow::openXlaBesideDialog() {
  if (!dump_dir_.isEmpty() || !session_) {
    showError(tr("Nothing to compare"),
              tr("Open the module itself (File → Open) and run the `gpu` pipeline; then compare its decisions "
                 "with an XLA dump or reference folder of the same module."));
    return;
  }
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("An --xla_dump_to or XLA GPU reference folder of %1").arg(QFileInfo(path_).fileName()),
      QFileInfo(path_).absolutePath());
  if (!dir.isEmpty()) openXlaBeside(dir);
}

void MainWindow::openXlaBeside(const QString& dir, const QString& module) {
  MainWindow* w = ensureXlaWindow();
  disconnect(w, &MainWindow::fileLoaded, this, nullptr);
  const QString name = QFileInfo(dir).fileName();
  connect(w, &MainWindow::fileLoaded, this, [w, name] { w->setWindowTitle(tr("XLA: %1 — hloscope").arg(name)); });
  w->openXlaDump(dir, module);
  w->show();
  pairWithXla(w);
}

void MainWindow::pairWithXla(MainWindow* xla) {
  if (xla_peer_) disconnect(xla_peer_, &MainWindow::xlaDecisionsChanged, this, nullptr);
  xla_peer_ = xla;
  xla_peer_path_ = path_;
  if (xla) connect(xla, &MainWindow::xlaDecisionsChanged, this, &MainWindow::updateVsXla);
  updateVsXla();
}

void MainWindow::updateVsXla() {
  const quint64 gen = ++vs_gen_;
  vs_diffing_ = false;
  if (xla_peer_ && (path_ != xla_peer_path_ || !dump_dir_.isEmpty())) {
    // Another module (or a dump) is open here now: the pairing is over.
    disconnect(xla_peer_, &MainWindow::xlaDecisionsChanged, this, nullptr);
    xla_peer_ = nullptr;
  }
  if (!xla_peer_) {
    decisions_->setVsXla(nullptr);
    return;
  }
  auto not_yet = [this](const QString& why) { decisions_->setVsXla(nullptr, why); };
  if (xla_peer_->loading() || xla_peer_->xlaDecisionsLoading())
    return not_yet(tr("vs XLA: reading XLA's decisions…"));
  const std::shared_ptr<const views::XlaDecisions> xla = xla_peer_->xlaDecisions();
  if (!xla) return not_yet(tr("vs XLA: not available — %1").arg(xla_peer_->xlaDecisionsError()));
  if (running_ || !run_) return not_yet(tr("vs XLA: waiting for our pipeline…"));
  bool has_step = false;
  for (const auto& s : run_->steps()) has_step |= s->pass == "priority_fusion";
  if (!has_step)
    return not_yet(tr("vs XLA: our run (`%1`) has no priority_fusion step; run the `gpu` pipeline")
                       .arg(QString::fromStdString(run_->name())));
  vs_diffing_ = true;
  not_yet(tr("vs XLA: comparing our decisions with XLA's…"));
  Relay* relay = relay_;
  auto run = run_;
  const std::string label = QFileInfo(path_).fileName().toStdString() + " (pipeline " + run->name() + ", device " +
                            run->device() + ")";
  startThread([relay, gen, run, xla, label] {
    auto diff = report::DiffDecisions(*run, *xla->pf);
    if (!diff.ok()) {
      emit relay->vsXlaReady(gen, nullptr, QString::fromStdString(diff.status().message()));
      return;
    }
    diff->ours_label = label;
    emit relay->vsXlaReady(gen, views::MakeDecisionsVsXla(std::move(*diff), *run), QString());
  });
}

void MainWindow::onVsXlaReady(std::shared_ptr<const views::DecisionsVsXla> diff, const QString& error) {
  views::UiTimer ui_timer("onVsXlaReady");
  vs_diffing_ = false;
  if (!diff) {
    decisions_->setVsXla(nullptr, tr("vs XLA failed: %1").arg(error));
    log_->warning(tr("comparing our decisions with XLA's failed: %1").arg(error));
    return;
  }
  const report::DecisionsDiffTotals& t = diff->diff->totals;
  log_->info(tr("vs XLA: %1 producers — %2 disagree, %3 only ours, %4 only XLA, %5 agree (Decisions → vs XLA)")
                 .arg(t.producers)
                 .arg(t.disagree)
                 .arg(t.only_ours)
                 .arg(t.only_xla)
                 .arg(t.agree));
  decisions_->setVsXla(std::move(diff));
}

}  // namespace hloscope::gui
