// What-if fusion (issue 30): right-click a decision or a graph edge →
// "Force this fusion" / "Forbid this fusion". The pipeline of the shown run
// runs again from the input with the override (core/fusion/fusion_overrides)
// on a worker thread; core/session/whatif measures both runs; the What-if
// panel shows the deltas, the overrides' outcomes and the changed
// decisions, and the compare window the what-if run's last step beside the
// base run's.
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <utility>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "core/cost/device.h"
#include "core/report/compare.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"
#include "views/decisions/decisions_panel.h"
#include "views/log/log_panel.h"

namespace hloscope::gui {
namespace {

QString Describe(const FusionOverrides& o) {
  QStringList parts;
  for (const auto& p : o.force) parts << "--force " + QString::fromStdString(p.ToString());
  for (const auto& p : o.forbid) parts << "--forbid " + QString::fromStdString(p.ToString());
  return parts.join(' ');
}

}  // namespace

void MainWindow::addWhatIfActions(QMenu* menu, const QString& p, const QString& c, const QString& shown) {
  const QString as = shown == p + " → " + c ? QString() : tr(", as %1:%2").arg(p, c);
  const bool can = !running_ && !whatif_running_ && run_ && run_->size() > 1;
  QAction* force = menu->addAction(tr("Force this fusion (%1%2)").arg(shown, as), this,
                                   [this, p, c] { runWhatIf({p + ":" + c}, {}); });
  QAction* forbid = menu->addAction(tr("Forbid this fusion (%1%2)").arg(shown, as), this,
                                    [this, p, c] { runWhatIf({}, {p + ":" + c}); });
  for (QAction* a : {force, forbid}) {
    a->setEnabled(can);
    a->setData(p + ":" + c);
    a->setToolTip(tr("Runs the pipeline again with this override on a worker thread and shows the "
                     "difference (What-if panel, compare window)"));
  }
}

QMenu* MainWindow::decisionMenu(int visible_row) {
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  QSortFilterProxyModel* f = decisions_->filter();
  const QModelIndex src = f->mapToSource(f->index(visible_row, 0));
  const FusionDecision* d = src.isValid() ? decisions_->model()->decision(src.row()) : nullptr;
  const int k = src.isValid() ? decisions_->model()->stepOf(src.row()) : -1;
  if (!d || !run_ || k < 0 || k >= run_->size() || decisions_->vsXlaShown() || d->consumers.empty()) {
    menu->addAction(tr("Force this fusion"))->setEnabled(false);
    menu->addAction(tr("Forbid this fusion"))->setEnabled(false);
    return menu;
  }
  const QString p = QString::fromStdString(OverrideNameIn(*run_, k, d->producer, d));
  for (const std::string& consumer : d->consumers) {
    if (menu->actions().size()) menu->addSeparator();
    addWhatIfActions(menu, p, QString::fromStdString(OverrideNameIn(*run_, k, consumer, d)),
                     QString::fromStdString(d->producer + " → " + consumer));
  }
  return menu;
}

QString MainWindow::whatIfText() const { return whatif_panel_->toPlainText(); }

void MainWindow::whatIfFailed(const QString& message) {
  whatif_panel_->setPlainText(tr("What-if failed: %1").arg(message));
  showPanel("whatif");
  log_->error(tr("what-if: %1").arg(message));
  showError(tr("What-if failed"), message);
  emit whatIfFinished(false);
}

void MainWindow::runWhatIf(const QStringList& force, const QStringList& forbid) {
  if (!session_ || !run_ || running_ || run_->size() < 2 || run_->name() == "xla-dump")
    return whatIfFailed(tr("Run a pipeline first: a what-if runs the shown run's pipeline again."));
  if (whatif_running_) return whatIfFailed(tr("A what-if is already running."));
  FusionOverrides o;
  for (const auto* list : {&force, &forbid})
    for (const QString& text : *list) {
      auto pair = ParseOverridePair(text.toStdString());
      if (!pair.ok()) return whatIfFailed(QString::fromStdString(pair.status().message()));
      (list == &force ? o.force : o.forbid).push_back(*pair);
    }
  if (o.empty()) return whatIfFailed(tr("No override given."));
  const quint64 gen = ++whatif_gen_;
  if (whatif_cancel_) *whatif_cancel_ = true;
  whatif_cancel_ = std::make_shared<std::atomic<bool>>(false);
  whatif_running_ = true;
  RunOptions opts;
  if (run_pipeline_ == "custom")
    for (const QString& p : run_passes_) opts.passes.push_back(p.toStdString());
  else
    opts.pipeline = run_pipeline_.isEmpty() ? run_->name() : run_pipeline_.toStdString();
  opts.device = run_->device();
  const QString what = Describe(o);
  whatif_panel_->setPlainText(tr("what-if %1: running the pipeline again from the input…").arg(what));
  showPanel("whatif");
  log_->info(tr("what-if %1: running %2 again on a worker thread")
                 .arg(what, QString::fromStdString(opts.passes.empty() ? opts.pipeline : "custom")));
  statusBar()->showMessage(tr("what-if %1…").arg(what));
  Relay* relay = relay_;
  auto session = session_;
  auto base = run_;
  auto cancel = whatif_cancel_;
  const std::string file = QFileInfo(path_).fileName().toStdString();
  startThread([relay, gen, session, base, cancel, opts, o, file]() mutable {
    QElapsedTimer clock;
    clock.start();
    auto fail = [&](const Status& s) { emit relay->whatIfReady(gen, nullptr, QString::fromStdString(s.message())); };
    auto input = session->NewModule();
    if (!input.ok()) return fail(input.status());
    // Names may be those of the input or made by a pass on the way: any
    // step of the base run.
    const SeenNames seen = NamesInRun(*base, o);
    if (Status s = ValidateOverrides(**input, o, &seen); !s.ok()) return fail(s);
    (*input).reset();
    opts.cancel = cancel.get();
    StatusOr<std::shared_ptr<const PipelineRun>> run = Status::Error("not run");
    {
      ScopedFusionOverrides scope(o);
      run = session->RunPipeline(opts);
    }
    if (!run.ok()) return fail(run.status());
    auto result = CompareWhatIfRuns(*base, **run, o);
    if (!result.ok()) return fail(result.status());
    auto bundle = std::make_shared<WhatIfBundle>();
    bundle->overrides = o;
    bundle->result = std::make_shared<const WhatIfResult>(std::move(*result));
    bool applied = false;
    for (const WhatIfOutcome& out : bundle->result->outcomes) applied |= out.applied;
    if (applied) {
      // The what-if run beside the base run: their last steps compared.
      bundle->run = *run;
      const int ka = base->size() - 1, kb = (*run)->size() - 1;
      auto a = base->ModuleAt(ka);
      if (!a.ok()) return fail(a.status());
      auto b = (*run)->ModuleAt(kb);
      if (!b.ok()) return fail(b.status());
      DeviceSpec device = CurrentDevice();
      auto cmp = std::make_shared<report::CompareResult>(report::CompareModules(**a, **b, device));
      const std::string label_a = file + " step " + std::to_string(ka) + " (" + base->step(ka).pass + ")";
      std::string label_b = "what-if";
      for (const auto& p : o.force) label_b += " --force " + p.ToString();
      for (const auto& p : o.forbid) label_b += " --forbid " + p.ToString();
      label_b += " step " + std::to_string(kb);
      cmp->a.label = label_a;
      cmp->b.label = label_b;
      auto compare = std::make_shared<CompareBundle>();
      compare->a = {QString::fromStdString(label_a), base, ka, *a};
      compare->b = {QString::fromStdString(label_b), *run, kb, *b};
      compare->result = std::move(cmp);
      bundle->compare = std::move(compare);
    }
    bundle->ms = clock.nsecsElapsed() / 1e6;
    emit relay->whatIfReady(gen, bundle, QString());
  });
}

void MainWindow::onWhatIfReady(std::shared_ptr<const WhatIfBundle> bundle, const QString& error) {
  views::UiTimer ui_timer("onWhatIfReady");
  if (!bundle) {
    whatif_running_ = false;
    return whatIfFailed(error);
  }
  // The previous what-if (its run may be the compare window's B side) is
  // released off the UI thread once the compare window lets go of it.
  std::shared_ptr<const WhatIfBundle> old = std::exchange(whatif_, std::move(bundle));
  const WhatIfBundle* b = whatif_.get();
  const WhatIfResult& r = *b->result;
  const QString what = Describe(b->overrides);
  QString text = tr("what-if %1 on %2 (pipeline %3, device %4): the pipeline ran again from the input, "
                    "%5 ms on a worker thread\n")
                     .arg(what, QFileInfo(path_).fileName(),
                          run_pipeline_ == "custom" ? run_passes_.join(",") : run_pipeline_,
                          QString::fromStdString(run_ ? run_->device() : std::string()))
                     .arg(b->ms, 0, 'f', 0);
  text += QString::fromStdString(WhatIfReportText(r));
  if (!b->compare)
    text += tr("no override was applied: no what-if run to show\n");
  else
    text += tr("the what-if run is in the compare window (A: this run's last step, B: the what-if run's)\n");
  whatif_panel_->setPlainText(text);
  showPanel("whatif");
  const WhatIfTotals d = r.delta();
  log_->info(tr("what-if %1: Δkernels %2, ΔHBM bytes %3, Δest. µs %4, Δpeak bytes %5 (%6 ms)")
                 .arg(what)
                 .arg(d.kernels)
                 .arg(d.hbm_bytes)
                 .arg(d.est_us, 0, 'f', 3)
                 .arg(d.peak_bytes)
                 .arg(b->ms, 0, 'f', 0));
  for (const WhatIfOutcome& o : r.outcomes)
    if (!o.applied)
      log_->warning(tr("what-if --%1 %2 refused: %3")
                        .arg(QString::fromStdString(o.flag), QString::fromStdString(o.pair.ToString()),
                             QString::fromStdString(o.detail)));
  statusBar()->showMessage(
      b->compare ? tr("what-if %1: %2 kernels → %3").arg(what).arg(r.base.kernels).arg(r.whatif.kernels)
                      : tr("what-if %1: refused").arg(what),
      10000);
  if (!b->compare) {
    views::ReleaseOffThread(std::move(old));
    whatif_running_ = false;
    emit whatIfFinished(true);
    return;
  }
  // The what-if run beside the original, in two turns of the event loop
  // (filling the compare view, then showing its window) so that neither
  // blocks the UI thread long on a large module (--timing).
  const quint64 gen = whatif_gen_;
  QTimer::singleShot(0, this, [this, gen, what, old]() mutable {
    if (gen != whatif_gen_ || !whatif_ || !whatif_->compare) return views::ReleaseOffThread(std::move(old));
    {
      views::UiTimer t("what-if: fill the compare view");
      showCompareWindow(*whatif_->compare, tr("What-if — %1").arg(what), /*show=*/false);
    }
    views::ReleaseOffThread(std::move(old));
    QTimer::singleShot(0, this, [this, gen] {
      if (gen != whatif_gen_) return;
      {
        views::UiTimer t("what-if: show the compare window");
        compare_window_->show();
        compare_window_->raise();
      }
      whatif_running_ = false;
      emit whatIfFinished(true);
    });
  });
}

}  // namespace hloscope::gui
