// File → Open XLA dump folder…: an --xla_dump_to folder shown as a run whose
// steps are XLA's own files (before_optimizations, the per-pass dumps,
// after_optimizations); the last step's timeline is XLA's own buffer
// assignment when the folder has it.
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QStatusBar>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "core/report/xla_dump.h"
#include "core/report/xla_dump_run.h"
#include "views/log/log_panel.h"
#include "views/pipeline/pipeline_panel.h"

namespace hloscope::gui {

void MainWindow::openXlaDumpDialog() {
  QString start = dump_dir_.isEmpty() ? (path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath()) : dump_dir_;
  QString dir = QFileDialog::getExistingDirectory(this, tr("Open an --xla_dump_to folder"), start);
  if (dir.isEmpty()) return;
  auto modules = report::ListXlaDump(dir.toStdString());
  if (!modules.ok()) {
    showError(tr("Not an XLA dump folder"), QString::fromStdString(modules.status().message()));
    return;
  }
  QString pick;
  if (modules->size() > 1) {
    QStringList items;
    for (const auto& m : *modules)
      items << QString::fromStdString(m.id + "  " + m.name + "  (" + std::to_string(m.steps.size()) + " files" +
                                      (m.buffer_assignment.empty() ? "" : ", buffer assignment") + ")");
    bool ok = false;
    QString item = QInputDialog::getItem(this, tr("Pick a module"), tr("Modules in %1:").arg(dir), items, 0, false, &ok);
    if (!ok) return;
    pick = item.section(' ', 0, 0);
  }
  openXlaDump(dir, pick);
}

void MainWindow::openXlaDump(const QString& dir, const QString& module) {
  if (cancel_) *cancel_ = true;
  const quint64 gen = ++load_gen_;
  ++run_gen_;
  ++prep_gen_;
  running_ = false;
  preparing_ = false;
  buffering_ = false;
  pipeline_->setRunning(false);
  loading_ = true;
  dump_dir_ = dir;
  log_->info(tr("opening XLA dump %1").arg(dir));
  statusBar()->showMessage(tr("loading XLA dump %1…").arg(dir));
  Relay* relay = relay_;
  const std::string d = dir.toStdString(), sel = module.toStdString();
  startThread([relay, gen, d, sel, dir] {
    auto fail = [&](const std::string& message) { emit relay->loadFailed(gen, dir, QString::fromStdString(message)); };
    auto modules = report::ListXlaDump(d);
    if (!modules.ok()) return fail(modules.status().message());
    auto picked = report::PickXlaDumpModule(*modules, sel);
    if (!picked.ok()) return fail(picked.status().message());
    // The session holds the first file (the module as XLA received it).
    auto session = Session::Load(picked->steps.front().path);
    if (!session.ok()) return fail(session.status().message());
    auto run = report::LoadXlaDumpRun(*picked);
    if (!run.ok()) return fail(run.status().message());
    emit relay->loaded(gen, *session, std::shared_ptr<const PipelineRun>(*run));
  });
}

}  // namespace hloscope::gui
