// File → Compile with XLA GPU…: XLA's own GPU compiler on the open file,
// without a GPU, through tools/xla_gpu_reference.py — the command
// `hloscope-cli xla-gpu FILE --device D --out OUT` runs (the locating and the
// arguments are core/session/xla_gpu_reference's) — in a QProcess, so the UI
// thread never waits for it. Its output lines go to the log, the status bar
// and a progress dialog with Cancel. Then XLA's --xla_dump_to folder opens in
// a second window, steppable like any XLA dump, with XLA's own priority
// fusion decisions; the last step of our run is compared with XLA GPU's
// after_optimizations in the compare window, and our decisions with XLA's
// in the decisions panel ("vs XLA").
// Without Python or the tool's JAX venv the tool fails; the message says what
// to run once.
#include <signal.h>
#include <unistd.h>

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

#include "app/gui/main_window.h"
#include "core/session/xla_gpu_reference.h"
#include "views/log/log_panel.h"

namespace hloscope::gui {

// One compile: the process (its own process group, so that Cancel also ends
// what it started), what it printed, and the progress shown.
class XlaGpuJob : public QObject {
 public:
  explicit XlaGpuJob(QObject* parent) : QObject(parent), process(new QProcess(this)) {
    process->setChildProcessModifier([] { ::setpgid(0, 0); });
  }
  ~XlaGpuJob() override {
    process->disconnect();
    kill();
    process->waitForFinished(2000);
    if (!done && created_out) QDir(out).removeRecursively();  // the window closed while it ran
  }

  void kill() {
    if (process->state() == QProcess::NotRunning) return;
    const qint64 pid = process->processId();
    if (pid > 0) ::kill(static_cast<pid_t>(-pid), SIGKILL);
    process->kill();
  }
  // Splits what arrived into lines; returns the complete ones.
  QStringList takeLines(bool flush) {
    pending += QString::fromUtf8(process->readAllStandardOutput());
    QStringList lines = pending.split('\n');
    pending = flush ? QString() : lines.takeLast();
    if (flush && !lines.isEmpty() && lines.back().isEmpty()) lines.removeLast();
    for (const QString& l : lines) {
      tail << l;
      while (tail.size() > 40) tail.removeFirst();
    }
    return lines;
  }
  QString status() const {
    return MainWindow::tr("XLA GPU (%1) compiling %2 — %3 s")
        .arg(device, QFileInfo(input).fileName())
        .arg(clock.elapsed() / 1000);
  }

  QProcess* process;
  QString tool, input, device, out;
  bool created_out = false;  // `out` is the temp folder made for this compile
  bool cancelled = false;
  bool done = false;
  QString pending;
  QStringList tail;  // the last lines printed (stdout and stderr)
  QString last_line;
  QElapsedTimer clock;
  QTimer* ticker = nullptr;
  QProgressDialog* progress = nullptr;
};

namespace {

QString SetupHint(const QString& tool) {
  return MainWindow::tr(
             "XLA GPU runs through JAX 0.12 (its CUDA plugin, compile-only; no GPU needed) in a venv "
             "of its own. Set it up once (a Python >= 3.12 on PATH or under ~/.pyenv, ~300 MB "
             "downloaded), in a shell:\n\n    %1\n\nor\n\n    python3 %2 --setup\n\nthen compile again.")
      .arg(QString::fromStdString(XlaGpuSetupCommand()), tool);
}

// A folder the tool wrote before (its REFERENCE.json or xla_dump/): the only
// kind of non-empty folder that is ever replaced (the tool's --force deletes
// the whole folder).
bool IsEarlierOutput(const QString& dir) {
  return QFileInfo(dir + "/REFERENCE.json").isFile() || QFileInfo(dir + "/xla_dump").isDir();
}

QString NotEmptyMessage(const QString& dir) {
  return MainWindow::tr("%1 exists and is not empty; choose a new or empty output folder (only an earlier XLA "
                        "GPU output is replaced, and only after asking).")
      .arg(dir);
}

}  // namespace

QString MainWindow::xlaGpuNotPossible() const {
  if (!dump_dir_.isEmpty())
    return tr("The window shows an XLA dump folder (%1), not a module file. Open the module itself "
              "(.hlo, .txt or .mlir) to compile it with XLA GPU.")
        .arg(dump_dir_);
  if (loading_) return tr("%1 is still loading.").arg(path_.isEmpty() ? tr("The file") : path_);
  if (!session_ || path_.isEmpty())
    return tr("No module file is open. XLA GPU compiles a file: open a .hlo, .txt or .mlir file first "
              "(File → Open).");
  if (!QFileInfo(path_).isFile())
    return tr("%1 is no longer on disk, and XLA GPU compiles the file, not what the window shows. "
              "Save the module to a file and open that.")
        .arg(path_);
  return {};
}

bool MainWindow::compilingWithXlaGpu() const { return xla_gpu_job_ && !xla_gpu_job_->done; }

void MainWindow::compileWithXlaGpuDialog() {
  if (compilingWithXlaGpu()) {
    if (xla_gpu_job_->progress) {
      xla_gpu_job_->progress->show();
      xla_gpu_job_->progress->raise();
    }
    return;
  }
  if (const QString why = xlaGpuNotPossible(); !why.isEmpty()) {
    showError(tr("Cannot compile with XLA GPU"), why);
    return;
  }
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Compile with XLA GPU"));
  auto* form = new QFormLayout(&dialog);
  auto* module = new QLabel(path_);
  module->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(tr("Module:"), module);
  auto* device = new QComboBox;
  device->setObjectName("xla_gpu_device");
  for (std::string_view d : kXlaGpuDevices)
    device->addItem(QString::fromUtf8(d.data(), static_cast<int>(d.size())));
  form->addRow(tr("Target:"), device);
  auto* out = new QLineEdit;
  out->setObjectName("xla_gpu_out");
  out->setPlaceholderText(tr("a new folder under %1").arg(QDir::tempPath()));
  auto* browse = new QPushButton(tr("Browse…"));
  auto* row = new QHBoxLayout;
  row->addWidget(out, 1);
  row->addWidget(browse);
  form->addRow(tr("Output folder:"), row);
  auto* note =
      new QLabel(tr("XLA's own GPU compiler (JAX 0.12's CUDA plugin, compile-only: no GPU needed) compiles "
                    "the file for the target. Its --xla_dump_to folder then opens in a second window, and "
                    "the last step of this window's run is compared with XLA GPU's after_optimizations."));
  note->setWordWrap(true);
  form->addRow(note);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Compile"));
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  connect(browse, &QPushButton::clicked, &dialog, [&dialog, out] {
    const QString d =
        QFileDialog::getExistingDirectory(&dialog, tr("Output folder for XLA GPU"), QDir::tempPath());
    if (!d.isEmpty()) out->setText(d);
  });
  dialog.resize(640, dialog.sizeHint().height());
  if (dialog.exec() != QDialog::Accepted) return;
  const QString dir = out->text().trimmed();
  bool force = false;
  if (!dir.isEmpty() && QFileInfo(dir).isDir() &&
      !QDir(dir).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)) {
    if (!IsEarlierOutput(dir)) {
      showError(tr("Cannot compile with XLA GPU"), NotEmptyMessage(dir));
      return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Replace folder?"),
        tr("%1 holds an earlier XLA GPU output. Delete everything in it and write the new one there?").arg(dir),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return;
    force = true;
  }
  compileWithXlaGpu(device->currentText(), dir, force);
}

bool MainWindow::compileWithXlaGpu(const QString& device, const QString& out_dir, bool force) {
  const QString title = tr("Cannot compile with XLA GPU");
  if (compilingWithXlaGpu()) {
    showError(title,
              tr("XLA GPU is already compiling %1; wait for it or cancel it.").arg(xla_gpu_job_->input));
    return false;
  }
  if (const QString why = xlaGpuNotPossible(); !why.isEmpty()) {
    showError(title, why);
    return false;
  }
  if (!IsXlaGpuDevice(device.toStdString())) {
    showError(title, tr("The XLA GPU target is h100_sxm or h200, not '%1'.").arg(device));
    return false;
  }
  const QString tool = QString::fromStdString(FindXlaGpuTool(HLOSCOPE_SOURCE_DIR));
  if (tool.isEmpty()) {
    showError(title, QString::fromStdString(XlaGpuToolNotFoundMessage()));
    return false;
  }
  // What is compiled is the file; say so when it is not what was loaded.
  {
    QFile f(path_);
    const std::string& loaded = session_->source_text();
    bool same = f.size() == static_cast<qint64>(loaded.size());
    if (same && f.open(QIODevice::ReadOnly))
      same = f.readAll() == QByteArray::fromRawData(loaded.data(), static_cast<qsizetype>(loaded.size()));
    if (!same)
      log_->warning(
          tr("%1 changed on disk since it was loaded: XLA GPU compiles the file as it is now (Reload, F5, to "
             "compare like with like)")
              .arg(path_));
  }
  QString out = out_dir;
  bool created = false;
  if (out.isEmpty()) {
    QTemporaryDir tmp(QDir::tempPath() + "/hloscope-xla-gpu-" + QFileInfo(path_).completeBaseName() + "-" +
                      device + "-XXXXXX");
    if (!tmp.isValid()) {
      showError(title, tr("Cannot create a folder under %1: %2").arg(QDir::tempPath(), tmp.errorString()));
      return false;
    }
    tmp.setAutoRemove(false);
    out = tmp.path();
    created = true;
  } else {
    out = QFileInfo(out).absoluteFilePath();
    const QFileInfo info(out);
    if (info.exists() && !info.isDir()) {
      showError(title, tr("%1 exists and is not a folder.").arg(out));
      return false;
    }
    if (info.isDir() && !QDir(out).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden) &&
        (!force || !IsEarlierOutput(out))) {
      showError(title, NotEmptyMessage(out));
      return false;
    }
  }

  XlaGpuRequest request;
  request.input = path_.toStdString();
  request.device = device.toStdString();
  request.out = out.toStdString();
  request.force = force;
  const std::vector<std::string> cmd = XlaGpuCommand(tool.toStdString(), request);
  QStringList args;
  for (size_t i = 1; i < cmd.size(); ++i) args << QString::fromStdString(cmd[i]);

  delete xla_gpu_job_;
  auto* job = new XlaGpuJob(this);
  xla_gpu_job_ = job;
  job->tool = tool;
  job->input = path_;
  job->device = device;
  job->out = out;
  job->created_out = created;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("PYTHONUNBUFFERED", "1");  // its lines as they are printed, not at exit
  job->process->setProcessEnvironment(env);
  job->process->setProcessChannelMode(QProcess::MergedChannels);

  log_->info(tr("XLA GPU (%1): %2 %3").arg(device, QString::fromUtf8(kXlaGpuPython), args.join(' ')));
  if (options_.dialogs) {
    job->progress = new QProgressDialog(job->status(), tr("Cancel"), 0, 0, this);
    job->progress->setWindowTitle(tr("Compiling with XLA GPU"));
    job->progress->setWindowModality(Qt::NonModal);  // the window stays usable meanwhile
    job->progress->setAutoClose(false);
    job->progress->setAutoReset(false);
    job->progress->setMinimumWidth(560);
    connect(job->progress, &QProgressDialog::canceled, this, &MainWindow::cancelXlaGpu);
    job->progress->show();
  }
  auto update = [this, job] {
    const QString s = job->status();
    statusBar()->showMessage(job->last_line.isEmpty() ? s : s + ": " + job->last_line);
    if (job->progress) job->progress->setLabelText(job->last_line.isEmpty() ? s : s + "\n" + job->last_line);
  };
  job->ticker = new QTimer(job);
  connect(job->ticker, &QTimer::timeout, job, update);
  connect(job->process, &QProcess::readyReadStandardOutput, job, [this, job, update] {
    for (const QString& l : job->takeLines(false)) {
      if (l.trimmed().isEmpty()) continue;
      log_->info(tr("xla-gpu: %1").arg(l));
      job->last_line = l.trimmed();
    }
    update();
  });
  connect(job->process, &QProcess::finished, job, [this, job](int code, QProcess::ExitStatus status) {
    if (job == xla_gpu_job_) onXlaGpuDone(code, status == QProcess::CrashExit, false);
  });
  connect(job->process, &QProcess::errorOccurred, job, [this, job](QProcess::ProcessError e) {
    // A process that never started emits no finished().
    if (e == QProcess::FailedToStart && job == xla_gpu_job_) onXlaGpuDone(-1, false, true);
  });
  job->clock.start();
  job->ticker->start(1000);
  update();
  job->process->start(QString::fromUtf8(kXlaGpuPython), args);
  return true;
}

void MainWindow::cancelXlaGpu() {
  if (!compilingWithXlaGpu()) return;
  xla_gpu_job_->cancelled = true;
  log_->warning(tr("XLA GPU: cancelling"));
  xla_gpu_job_->kill();
}

void MainWindow::onXlaGpuDone(int exit_code, bool crashed, bool failed_to_start) {
  XlaGpuJob* job = xla_gpu_job_;
  if (!job || job->done) return;
  job->done = true;
  job->ticker->stop();
  for (const QString& l : job->takeLines(true))
    if (!l.trimmed().isEmpty()) log_->info(tr("xla-gpu: %1").arg(l));
  if (job->progress) {
    job->progress->hide();
    job->progress->deleteLater();
    job->progress = nullptr;
  }
  const double seconds = job->clock.elapsed() / 1000.0;
  if (job->cancelled) {
    if (job->created_out) QDir(job->out).removeRecursively();
    log_->warning(tr("XLA GPU: cancelled after %1 s").arg(seconds, 0, 'f', 1));
    statusBar()->showMessage(tr("XLA GPU cancelled"), 5000);
    emit xlaGpuFinished(false, QStringLiteral("cancelled"));
    return;
  }
  auto fail = [&](const QString& heading, const QString& message) {
    if (job->created_out) QDir(job->out).removeRecursively();
    showError(heading, message);
    emit xlaGpuFinished(false, message);
  };
  if (failed_to_start) {
    return fail(tr("XLA GPU needs Python"),
                QString::fromStdString(XlaGpuNoPythonMessage()) + "\n\n" + SetupHint(job->tool));
  }
  if (crashed) return fail(tr("XLA GPU compile failed"), tr("%1 did not finish").arg(job->tool));
  if (exit_code != 0) {
    // The tool's own words first: its "error:" lines, else the end of what it printed (a traceback).
    QStringList said;
    for (const QString& l : job->tail)
      if (l.contains("error:")) said << l.trimmed();
    if (said.isEmpty()) said = job->tail.mid(std::max<qsizetype>(0, job->tail.size() - 12));
    const bool setup = job->tail.join('\n').contains("--setup");  // no venv, or no JAX in it
    const QString message =
        (said.isEmpty() ? QString() : said.join('\n') + "\n\n") +
        QString::fromStdString(XlaGpuToolFailedMessage(job->tool.toStdString(), exit_code)) +
        (setup ? "\n\n" + SetupHint(job->tool) : QString());
    return fail(setup ? tr("XLA GPU is not set up") : tr("XLA GPU compile failed"), message);
  }
  const XlaGpuOutput o = XlaGpuOutputIn(job->out.toStdString());
  const QString dump = QString::fromStdString(o.dump_dir),
                after = QString::fromStdString(o.after_optimizations);
  if (!QFileInfo(dump).isDir() || !QFileInfo(after).isFile())
    return fail(tr("XLA GPU compile failed"), tr("%1 finished but left no %2 and %3 in %4.")
                                                  .arg(job->tool, QStringLiteral("xla_dump/"),
                                                       QStringLiteral("after_optimizations.txt"), job->out));
  log_->info(tr("XLA GPU (%1): compiled %2 in %3 s; dump in %4, after_optimizations in %5")
                 .arg(job->device, QFileInfo(job->input).fileName())
                 .arg(seconds, 0, 'f', 1)
                 .arg(dump, after));
  statusBar()->showMessage(tr("XLA GPU (%1) compiled %2").arg(job->device, QFileInfo(job->input).fileName()),
                           8000);
  showXlaGpuResult(job->out, job->device);
  emit xlaGpuFinished(true, job->out);
}

void MainWindow::showXlaGpuResult(const QString& out, const QString& device) {
  const XlaGpuOutput o = XlaGpuOutputIn(out.toStdString());
  const QString dump = QString::fromStdString(o.dump_dir),
                after = QString::fromStdString(o.after_optimizations);
  const QString input = QFileInfo(path_).fileName();
  // XLA's own pipeline, steppable, in a window of its own: this one keeps
  // ours, and its decisions panel compares ours with XLA's ("vs XLA").
  MainWindow* w = ensureXlaWindow();
  disconnect(w, &MainWindow::fileLoaded, this, nullptr);
  connect(w, &MainWindow::fileLoaded, this,
          [w, device, input] { w->setWindowTitle(tr("XLA GPU (%1): %2 — hloscope").arg(device, input)); });
  w->openXlaDump(dump, QString::fromStdString(o.module));
  w->show();
  pairWithXla(w);
  // Ours (the last step of the run) against XLA GPU's optimized module; a
  // run still going is compared when it ends.
  const QString label = tr("XLA GPU %1 after_optimizations").arg(device);
  auto compare = [this, after, label] {
    if (run_ && run_->name() != "gpu")
      log_->info(tr("our run is `%1`; XLA GPU's after_optimizations is best compared with the `gpu` pipeline")
                     .arg(QString::fromStdString(run_->name())));
    compareWith(after, run_ ? run_->size() - 1 : -1, label);
  };
  if (running_) {
    log_->info(tr("XLA GPU: comparing once our pipeline has finished"));
    connect(this, &MainWindow::runFinished, this, compare, Qt::SingleShotConnection);
  } else {
    compare();
  }
}

}  // namespace hloscope::gui
