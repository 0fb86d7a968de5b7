// File → Compile with XLA GPU… without its dialog (MainWindow::
// compileWithXlaGpu), driven through fake tools/xla_gpu_reference.py scripts
// found through HLOSCOPE_TOOLS_DIR, as `hloscope-cli xla-gpu` finds the tool:
// one that writes an XLA dump (the transformer block's XLA GPU reference
// under XLA's file names), one that fails as the real tool does without its
// venv, one that runs until cancelled; python3 missing from PATH; and the
// real tool where its venv exists.
#include <signal.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <gtest/gtest.h>

#include "app/gui/main_window.h"
#include "tests/support/test_paths.h"
#include "tests/views/view_test_util.h"
#include "views/compare/compare_view.h"
#include "views/decisions/decisions_panel.h"
#include "views/decisions/xla_decisions.h"
#include "views/graph/graph_view.h"
#include "views/log/log_panel.h"

namespace hloscope::gui {
namespace {

using views_test::WaitUntil;

constexpr MainWindowOptions kOptions{.persist_settings = false, .dialogs = false, .auto_run = true};

QString Sample(const QString& name) {
  return QString::fromStdString(hloscope::testing::SamplesDir()) + "/" + name;
}

// A tools/ folder holding `script` as xla_gpu_reference.py; points
// HLOSCOPE_TOOLS_DIR at it for the test's lifetime.
class FakeTool {
 public:
  explicit FakeTool(const QString& script) {
    QFile f(dir_.path() + "/xla_gpu_reference.py");
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(script.toUtf8());
    f.close();
    qputenv("HLOSCOPE_TOOLS_DIR", dir_.path().toUtf8());
  }
  ~FakeTool() { qunsetenv("HLOSCOPE_TOOLS_DIR"); }

 private:
  QTemporaryDir dir_;
};

bool HavePython() { return !QStandardPaths::findExecutable("python3").isEmpty(); }

// Writes what the real tool writes for the transformer block (XLA's dump
// file names, the stable-named after_optimizations, REFERENCE.json) from
// samples/xla_gpu/transformer_block/, printing progress on stderr.
QString WritingTool() {
  return QStringLiteral(R"py(
import argparse, json, os, shutil, sys
ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("--device", default="h100_sxm")
ap.add_argument("--out")
ap.add_argument("--force", action="store_true")
ap.add_argument("--vlog")
ap.add_argument("--costs", action="store_true")
a = ap.parse_args()
ref = "%1"
print(f"compiling {a.input} for {a.device}", file=sys.stderr, flush=True)
if a.vlog != "gemm_fusion=6":
    sys.exit(f"expected --vlog gemm_fusion=6 (XLA's GEMM search log), got {a.vlog}")
if not a.costs:
    sys.exit("expected --costs (XLA's cost estimate per instruction)")
os.makedirs(a.out, exist_ok=True)
shutil.copyfile(ref + "/xla_vlog.txt", os.path.join(a.out, "xla_vlog.txt"))
shutil.copyfile(ref + "/xla_costs.tsv", os.path.join(a.out, "xla_costs.tsv"))
dump = os.path.join(a.out, "xla_dump")
os.makedirs(dump, exist_ok=True)
p = os.path.join(dump, "module_0001.jit_x.")
shutil.copyfile(a.input, p + "before_optimizations.txt")
shutil.copyfile(ref + "/after_optimizations.txt", p + "sm_9.0a_gpu_after_optimizations.txt")
shutil.copyfile(ref + "/buffer_assignment.txt", p + "sm_9.0a_gpu_after_optimizations-buffer-assignment.txt")
shutil.copyfile(ref + "/after_optimizations.txt", os.path.join(a.out, "after_optimizations.txt"))
with open(os.path.join(a.out, "REFERENCE.json"), "w") as f:
    json.dump({"device": a.device, "xla_module_prefix": "module_0001"}, f)
print(f"{a.input}: compiled -> {a.out}")
)py")
      .arg(Sample("xla_gpu/transformer_block"));
}

// What the real tool says without its venv.
constexpr const char* kNoVenvTool = R"py(
import sys
print("xla_gpu_reference: error: no venv at /nowhere/.venv-xla-gpu; run `xla_gpu_reference.py --setup` first "
      "(it installs jax/jaxlib 0.12.0.1 and the CUDA 13 plugin).", file=sys.stderr)
sys.exit(2)
)py";

TEST(XlaGpuActionTest, OpensTheDumpAsASecondRunAndCompares) {
  if (!HavePython()) GTEST_SKIP() << "no python3 to run the fake tool";
  FakeTool tool(WritingTool());
  MainWindow w(kOptions);
  w.setPipelineChoice("gpu");
  w.resize(1200, 800);
  w.show();
  w.openFile(Sample("transformer_block.hlo"));
  ASSERT_TRUE(WaitUntil([&] { return !w.loading() && w.session(); })) << w.lastError().toStdString();
  QSignalSpy finished(&w, &MainWindow::xlaGpuFinished);
  QSignalSpy compared(&w, &MainWindow::compareShown);
  // Started while our pipeline may still run: the compare waits for it.
  ASSERT_TRUE(w.compileWithXlaGpu("h200", QString())) << w.lastError().toStdString();
  EXPECT_TRUE(w.compilingWithXlaGpu());
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }));
  EXPECT_FALSE(w.compilingWithXlaGpu());
  ASSERT_TRUE(finished.first().at(0).toBool()) << finished.first().at(1).toString().toStdString();
  const QString out = finished.first().at(1).toString();
  EXPECT_TRUE(out.startsWith(QDir::tempPath() + "/hloscope-xla-gpu-transformer_block-h200-"))
      << out.toStdString();
  EXPECT_TRUE(QFileInfo(out + "/after_optimizations.txt").isFile());
  // The tool's progress line reached the log.
  EXPECT_TRUE(w.logPanel()->text().contains("compiling")) << w.logPanel()->text().toStdString();

  // The dump, steppable, in a second window; ours stays in the first.
  MainWindow* x = w.xlaGpuWindow();
  ASSERT_NE(x, nullptr);
  ASSERT_TRUE(WaitUntil([&] { return !x->busy() && x->run() && x->shownStep() >= 0; }))
      << x->lastError().toStdString();
  EXPECT_EQ(x->run()->name(), "xla-dump");
  ASSERT_EQ(x->run()->size(), 2);  // before_optimizations, after_optimizations
  EXPECT_EQ(x->run()->step(0).pass, "before_optimizations");
  EXPECT_EQ(x->run()->step(1).pass, "after_optimizations");
  EXPECT_EQ(x->currentFile(), out + "/xla_dump");
  EXPECT_TRUE(x->windowTitle().contains("XLA GPU (h200)")) << x->windowTitle().toStdString();
  // The fake dump has no priority_fusion_dump: a note in both windows, no error.
  EXPECT_FALSE(x->xlaDecisions());
  EXPECT_TRUE(x->decisionsPanel()->noteText().startsWith("No XLA decisions: "))
      << x->decisionsPanel()->noteText().toStdString();
  EXPECT_TRUE(x->lastError().isEmpty()) << x->lastError().toStdString();
  ASSERT_TRUE(WaitUntil([&] { return !w.busy(); }));
  EXPECT_FALSE(w.decisionsPanel()->vsXlaAvailable());
  EXPECT_TRUE(w.decisionsPanel()->noteText().startsWith("vs XLA: not available"))
      << w.decisionsPanel()->noteText().toStdString();
  x->selectStep(0);
  ASSERT_TRUE(WaitUntil([&] { return !x->busy() && x->shownStep() == 0; }));
  EXPECT_EQ(w.currentFile(), Sample("transformer_block.hlo"));

  // Ours (the last step of `gpu`) against XLA GPU's after_optimizations.
  ASSERT_TRUE(WaitUntil([&] { return compared.count() > 0; })) << w.lastError().toStdString();
  ASSERT_TRUE(compared.first().at(0).toBool()) << w.lastError().toStdString();
  ASSERT_TRUE(w.run());
  EXPECT_EQ(w.run()->name(), "gpu");
  views::CompareView* c = w.compareView();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->side(0).step, w.run()->size() - 1);
  EXPECT_EQ(c->side(1).label, "XLA GPU h200 after_optimizations");
  ASSERT_NE(c->result(), nullptr);
  EXPECT_GT(c->result()->b.kernels, 0);
  EXPECT_GT(c->result()->matches.size(), 10u);
  ASSERT_TRUE(WaitUntil([&] { return !c->left()->busy() && !c->right()->busy(); }));
  EXPECT_TRUE(QDir(out).removeRecursively());
}

// The menu action: its dialog (target, output folder) starts the same compile.
TEST(XlaGpuActionTest, MenuActionAsksForTargetAndFolder) {
  if (!HavePython()) GTEST_SKIP() << "no python3 to run the fake tool";
  FakeTool tool(WritingTool());
  MainWindow w(MainWindowOptions{.persist_settings = false, .dialogs = false, .auto_run = false});
  w.show();
  w.openFile(Sample("transformer_block.hlo"));
  ASSERT_TRUE(WaitUntil([&] { return !w.loading() && w.session(); }));
  QAction* action = nullptr;
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text() == "Compile with XLA &GPU…") action = a;
  ASSERT_NE(action, nullptr);
  QTemporaryDir parent;
  const QString out = parent.path() + "/ref";
  QStringList devices;
  QTimer::singleShot(0, [&] {
    auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
    ASSERT_NE(dialog, nullptr);
    auto* device = dialog->findChild<QComboBox*>("xla_gpu_device");
    auto* folder = dialog->findChild<QLineEdit*>("xla_gpu_out");
    ASSERT_TRUE(device && folder);
    for (int i = 0; i < device->count(); ++i) devices << device->itemText(i);
    device->setCurrentText("h200");
    folder->setText(out);
    dialog->accept();
  });
  QSignalSpy finished(&w, &MainWindow::xlaGpuFinished);
  action->trigger();
  EXPECT_EQ(devices, QStringList({"h100_sxm", "h200"}));
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }));
  ASSERT_TRUE(finished.first().at(0).toBool()) << finished.first().at(1).toString().toStdString();
  EXPECT_EQ(finished.first().at(1).toString(), out);
  ASSERT_NE(w.xlaGpuWindow(), nullptr);
  EXPECT_TRUE(w.xlaGpuWindow()->windowTitle().contains("h200") ||
              WaitUntil([&] { return w.xlaGpuWindow()->windowTitle().contains("h200"); }));
  ASSERT_TRUE(WaitUntil([&] { return !w.comparing() && !w.xlaGpuWindow()->busy(); }));
}

// The real tool, where `hloscope-cli xla-gpu --setup` made its venv: XLA
// GPU's own per-pass dumps become the second window's steps.
TEST(XlaGpuActionTest, RealToolWhereItIsSetUp) {
  if (!QFileInfo(QString(HLOSCOPE_SOURCE_DIR) + "/.venv-xla-gpu/bin/python").isExecutable())
    GTEST_SKIP() << "no .venv-xla-gpu (hloscope-cli xla-gpu --setup): the real compile is not exercised here";
  qunsetenv("HLOSCOPE_TOOLS_DIR");
  MainWindow w(kOptions);
  w.setPipelineChoice("gpu");
  w.show();
  w.openFile(Sample("softmax.hlo"));
  ASSERT_TRUE(WaitUntil([&] { return !w.loading() && w.session(); })) << w.lastError().toStdString();
  QSignalSpy finished(&w, &MainWindow::xlaGpuFinished);
  QSignalSpy compared(&w, &MainWindow::compareShown);
  ASSERT_TRUE(w.compileWithXlaGpu("h100_sxm", QString())) << w.lastError().toStdString();
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }, 300000));
  ASSERT_TRUE(finished.first().at(0).toBool()) << finished.first().at(1).toString().toStdString();
  const QString out = finished.first().at(1).toString();
  MainWindow* x = w.xlaGpuWindow();
  ASSERT_NE(x, nullptr);
  ASSERT_TRUE(WaitUntil([&] { return !x->busy() && x->run() && x->shownStep() >= 0; }))
      << x->lastError().toStdString();
  EXPECT_EQ(x->run()->name(), "xla-dump");
  EXPECT_GT(x->run()->size(), 2);  // before, XLA's per-pass files, after
  EXPECT_EQ(x->run()->steps().back()->pass, "after_optimizations");
  // XLA's own decisions (its priority_fusion_dump) at its priority fusion
  // step, and ours against them in the first window.
  ASSERT_TRUE(x->xlaDecisions()) << x->xlaDecisionsError().toStdString();
  EXPECT_NE(x->run()->step(x->xlaDecisions()->step).pass.find("after_priority-fusion"), std::string::npos);
  EXPECT_FALSE(x->xlaDecisions()->decisions.empty());
  ASSERT_TRUE(WaitUntil([&] { return w.decisionsPanel()->vsXlaAvailable(); }))
      << w.decisionsPanel()->noteText().toStdString();
  EXPECT_GT(w.decisionsPanel()->diffModel()->rowCount(), 0);
  ASSERT_TRUE(WaitUntil([&] { return compared.count() > 0; })) << w.lastError().toStdString();
  EXPECT_TRUE(compared.first().at(0).toBool()) << w.lastError().toStdString();
  ASSERT_NE(w.compareView(), nullptr);
  EXPECT_GT(w.compareView()->result()->b.kernels, 0);
  ASSERT_TRUE(
      WaitUntil([&] { return !w.compareView()->left()->busy() && !w.compareView()->right()->busy(); }));
  EXPECT_TRUE(QDir(out).removeRecursively());
}

TEST(XlaGpuActionTest, ToolFailureIsShownWithTheSetupCommand) {
  if (!HavePython()) GTEST_SKIP() << "no python3 to run the fake tool";
  FakeTool tool(kNoVenvTool);
  MainWindow w(MainWindowOptions{.persist_settings = false, .dialogs = false, .auto_run = false});
  w.show();
  // Nothing open: refused, saying so.
  EXPECT_FALSE(w.compileWithXlaGpu("h100_sxm", QString()));
  EXPECT_TRUE(w.lastError().contains("No module file is open")) << w.lastError().toStdString();
  w.openFile(Sample("softmax.hlo"));
  ASSERT_TRUE(WaitUntil([&] { return !w.loading() && w.session(); }));
  // A bad target and a non-empty output folder are refused before anything runs.
  EXPECT_FALSE(w.compileWithXlaGpu("a100", QString()));
  EXPECT_TRUE(w.lastError().contains("h100_sxm or h200")) << w.lastError().toStdString();
  QTemporaryDir used;
  { QFile(used.path() + "/keep.txt").open(QIODevice::WriteOnly); }
  EXPECT_FALSE(w.compileWithXlaGpu("h100_sxm", used.path()));
  EXPECT_TRUE(w.lastError().contains("not empty")) << w.lastError().toStdString();
  // Not even with force: only an earlier XLA GPU output is ever replaced.
  EXPECT_FALSE(w.compileWithXlaGpu("h100_sxm", used.path(), /*force=*/true));
  EXPECT_TRUE(w.lastError().contains("not empty")) << w.lastError().toStdString();
  EXPECT_TRUE(QFileInfo::exists(used.path() + "/keep.txt"));

  // The tool fails: its own words, the exit code and the command to run.
  QTemporaryDir parent;
  const QString out = parent.path() + "/ref";
  QSignalSpy finished(&w, &MainWindow::xlaGpuFinished);
  ASSERT_TRUE(w.compileWithXlaGpu("h100_sxm", out));
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }));
  EXPECT_FALSE(finished.first().at(0).toBool());
  const std::string e = w.lastError().toStdString();
  EXPECT_NE(e.find("no venv at /nowhere/.venv-xla-gpu"), std::string::npos) << e;
  EXPECT_NE(e.find("exited with 2"), std::string::npos) << e;
  EXPECT_NE(e.find("hloscope-cli xla-gpu --setup"), std::string::npos) << e;
  EXPECT_NE(e.find("xla_gpu_reference.py --setup"), std::string::npos) << e;
  EXPECT_EQ(w.xlaGpuWindow(), nullptr);
  EXPECT_FALSE(w.comparing());
}

// Cancel in the progress dialog ends the tool and what it started, and
// removes the temp folder made for it.
TEST(XlaGpuActionTest, CancelEndsTheCompile) {
  if (!HavePython()) GTEST_SKIP() << "no python3 to run the fake tool";
  FakeTool tool(
      "import os, subprocess, sys\n"
      "child = subprocess.Popen(['sleep', '120'])\n"
      "open(os.path.join(os.path.dirname(__file__), 'pids'), 'w').write(f'{os.getpid()} {child.pid}')\n"
      "print('starting', file=sys.stderr, flush=True)\n"
      "child.wait()\n");
  MainWindow w(MainWindowOptions{.persist_settings = false, .dialogs = true, .auto_run = false});
  w.show();
  w.openFile(Sample("softmax.hlo"));
  ASSERT_TRUE(WaitUntil([&] { return !w.loading() && w.session(); }));
  const QStringList pattern = {"hloscope-xla-gpu-softmax-h100_sxm-*"};
  const QStringList before = QDir::temp().entryList(pattern, QDir::Dirs);
  QSignalSpy finished(&w, &MainWindow::xlaGpuFinished);
  ASSERT_TRUE(w.compileWithXlaGpu("h100_sxm", QString()));
  ASSERT_TRUE(WaitUntil([&] { return w.logPanel()->text().contains("starting"); }, 20000));
  EXPECT_EQ(QDir::temp().entryList(pattern, QDir::Dirs).size(), before.size() + 1);
  QFile f(QString::fromUtf8(qgetenv("HLOSCOPE_TOOLS_DIR")) + "/pids");
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QStringList pids = QString::fromUtf8(f.readAll()).split(' ');
  ASSERT_EQ(pids.size(), 2);
  // The progress dialog shows the tool's last line.
  QProgressDialog* progress = w.findChild<QProgressDialog*>();
  ASSERT_NE(progress, nullptr);
  EXPECT_TRUE(progress->isVisible());
  ASSERT_TRUE(WaitUntil([&] { return progress->labelText().contains("starting"); }, 20000))
      << progress->labelText().toStdString();
  EXPECT_TRUE(progress->labelText().contains("XLA GPU (h100_sxm) compiling softmax.hlo"))
      << progress->labelText().toStdString();
  // A second compile while one runs is refused.
  EXPECT_FALSE(w.compileWithXlaGpu("h100_sxm", QString()));
  EXPECT_TRUE(w.lastError().contains("already compiling")) << w.lastError().toStdString();
  auto* cancel = progress->findChild<QPushButton*>();
  ASSERT_NE(cancel, nullptr);
  EXPECT_EQ(cancel->text(), "Cancel");
  cancel->click();
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }, 20000));
  EXPECT_FALSE(finished.first().at(0).toBool());
  EXPECT_EQ(finished.first().at(1).toString(), "cancelled");
  EXPECT_FALSE(w.compilingWithXlaGpu());
  EXPECT_EQ(QDir::temp().entryList(pattern, QDir::Dirs), before);
  for (const QString& pid : pids)  // both gone (the child is reaped by init)
    EXPECT_TRUE(WaitUntil([&] { return ::kill(pid.toInt(), 0) != 0; }, 10000)) << pid.toStdString();
}

TEST(XlaGpuActionTest, WithoutPythonSaysSo) {
  FakeTool tool(kNoVenvTool);
  MainWindow w(MainWindowOptions{.persist_settings = false, .dialogs = false, .auto_run = false});
  w.openFile(Sample("softmax.hlo"));
  ASSERT_TRUE(WaitUntil([&] { return !w.loading() && w.session(); }));
  QTemporaryDir empty;
  const QByteArray path = qgetenv("PATH");
  qputenv("PATH", empty.path().toUtf8());
  QSignalSpy finished(&w, &MainWindow::xlaGpuFinished);
  w.compileWithXlaGpu("h100_sxm", QString());
  qputenv("PATH", path);
  ASSERT_TRUE(WaitUntil([&] { return finished.count() > 0; }, 20000));
  EXPECT_FALSE(finished.first().at(0).toBool());
  EXPECT_TRUE(w.lastError().contains("cannot start python3")) << w.lastError().toStdString();
  EXPECT_TRUE(w.lastError().contains("hloscope-cli xla-gpu --setup")) << w.lastError().toStdString();
}

}  // namespace
}  // namespace hloscope::gui
