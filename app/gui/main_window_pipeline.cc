// Opening a file, running the pipeline and showing a step: the file is
// loaded (Session::Load), the pipeline run and each step's module and buffer
// assignment prepared on worker threads (startThread), their results coming
// back through the Relay's signals; then every panel follows the selected
// step and the selected instruction.
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QStatusBar>
#include <algorithm>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"
#include "views/decisions/decisions_panel.h"
#include "views/details/details_panel.h"
#include "views/graph/graph_view.h"
#include "views/log/log_panel.h"
#include "views/pipeline/pipeline_panel.h"
#include "views/text/text_panel.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::gui {

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

bool MainWindow::selectInstructionByName(const QString& name, bool center) {
  if (!run_ || step_ < 0) return false;
  int64_t id = run_->IdOfName(step_, name.toStdString());
  if (id < 0) return false;
  selectInstruction(id, center);
  return true;
}

}  // namespace hloscope::gui
