// File → Open XLA dump folder…: an --xla_dump_to folder shown as a run whose
// steps are XLA's own files (before_optimizations, the per-pass dumps,
// after_optimizations); the last step's timeline is XLA's own buffer
// assignment when the folder has it. A committed XLA GPU reference folder
// (tools/xla_gpu_reference.py's REFERENCE.json, passes.tar.xz) opens the
// same way, its per-pass files unpacked into a temporary folder first. Then
// XLA's priority fusion log is read for the run (main_window_xla_decisions.cc).
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QStatusBar>
#include <QTemporaryDir>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "core/report/archive_read.h"
#include "core/report/xla_dump.h"
#include "core/report/xla_dump_run.h"
#include "core/report/xla_fusion_log.h"
#include "views/decisions/xla_decisions.h"
#include "views/log/log_panel.h"
#include "views/pipeline/pipeline_panel.h"

namespace hloscope::gui {
namespace {

// A reference folder without its raw xla_dump/: the per-pass files are in passes.tar.xz.
bool IsPackedReference(const QString& dir) {
  return QFileInfo(dir + "/REFERENCE.json").isFile() && QFileInfo(dir + "/passes.tar.xz").isFile() &&
         !QFileInfo(dir + "/xla_dump").isDir();
}

// The folder whose module_*.txt files are the dump: DIR, or a reference's DIR/xla_dump.
QString DumpFilesIn(const QString& dir) {
  const bool raw = QFileInfo(dir + "/REFERENCE.json").isFile() && QFileInfo(dir + "/xla_dump").isDir();
  return raw ? dir + "/xla_dump" : dir;
}

// Writes a packed reference's per-pass files into `into` under XLA's names,
// with its buffer_assignment.txt and live_range.txt as the after_optimizations
// file's -buffer-assignment.txt and -live-range.txt, so that it reads as an
// --xla_dump_to folder.
Status UnpackReference(const QString& dir, const QString& into) {
  ASSIGN_OR_RETURN(auto members, report::ReadArchiveMembers((dir + "/passes.tar.xz").toStdString()));
  QString after;
  for (const auto& [name, text] : members) {
    const QString n = QString::fromStdString(name);
    if (n.contains('/') || n.startsWith('.') || !n.startsWith("module_")) continue;
    QFile f(into + "/" + n);
    const qint64 size = static_cast<qint64>(text.size());
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), size) != size)
      return Status::Error((into + "/" + n).toStdString() + ": error: cannot write: " +
                           f.errorString().toStdString());
    if (n.endsWith("after_optimizations.txt")) after = n;
  }
  const QString ba = dir + "/buffer_assignment.txt", ranges = dir + "/live_range.txt";
  if (!after.isEmpty() && QFileInfo(ba).isFile())
    QFile::copy(ba, into + "/" + after.chopped(4) + "-buffer-assignment.txt");
  if (!after.isEmpty() && QFileInfo(ranges).isFile())  // XLA's HloLiveRange, read with the assignment
    QFile::copy(ranges, into + "/" + after.chopped(4) + "-live-range.txt");
  return Status::Ok();
}

}  // namespace

void MainWindow::openXlaDumpDialog() {
  QString start = dump_dir_.isEmpty() ? (path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath()) : dump_dir_;
  QString dir = QFileDialog::getExistingDirectory(this, tr("Open an --xla_dump_to folder"), start);
  if (dir.isEmpty()) return;
  if (IsPackedReference(dir)) {
    openXlaDump(dir, QString());
    return;
  }
  auto modules = report::ListXlaDump(DumpFilesIn(dir).toStdString());
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
  clearXlaDecisions(true);
  log_->info(tr("opening XLA dump %1").arg(dir));
  statusBar()->showMessage(tr("loading XLA dump %1…").arg(dir));
  Relay* relay = relay_;
  const std::string d = dir.toStdString(), sel = module.toStdString();
  const bool packed = IsPackedReference(dir);
  const QString files = DumpFilesIn(dir);
  startThread([relay, gen, d, sel, dir, packed, files] {
    auto fail = [&](const std::string& message) { emit relay->loadFailed(gen, dir, QString::fromStdString(message)); };
    // Every file is read into the run's snapshots here: the unpacked copy
    // is not needed after this function.
    std::unique_ptr<QTemporaryDir> unpacked;
    std::string listed = files.toStdString();
    if (packed) {
      unpacked = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/hloscope-xla-reference-XXXXXX");
      if (!unpacked->isValid()) return fail(d + ": error: cannot make a temporary folder to unpack passes.tar.xz");
      Status s = UnpackReference(dir, unpacked->path());
      if (!s.ok()) return fail(s.message());
      listed = unpacked->path().toStdString();
    }
    auto modules = report::ListXlaDump(listed);
    if (!modules.ok()) return fail(modules.status().message());
    auto picked = report::PickXlaDumpModule(*modules, sel);
    if (!picked.ok()) return fail(picked.status().message());
    // The session holds the first file (the module as XLA received it).
    auto session = Session::Load(picked->steps.front().path);
    if (!session.ok()) return fail(session.status().message());
    auto run = report::LoadXlaDumpRun(*picked);
    if (!run.ok()) return fail(run.status().message());
    emit relay->loaded(gen, *session, std::shared_ptr<const PipelineRun>(*run));
    // XLA's own decisions at its priority fusion step; none is a note, not an error.
    auto pf = report::LoadXlaPriorityFusion(d, picked->id);
    if (!pf.ok()) {
      emit relay->xlaDecisionsReady(gen, nullptr, QString::fromStdString(pf.status().message()));
      return;
    }
    auto shared = std::make_shared<const report::XlaPriorityFusion>(std::move(*pf));
    const int step = views::XlaPriorityFusionStep(*picked, *shared);
    emit relay->xlaDecisionsReady(gen, views::MakeXlaDecisions(std::move(shared), **run, step), QString());
  });
}

}  // namespace hloscope::gui
