// File → Compare with…: the shown step of our pipeline (A) against another
// module (B; typically XLA's optimized dump of the same program), matched
// and compared off the UI thread (core/report/compare), shown side by side
// in a CompareView window.
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QVBoxLayout>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "core/cost/device.h"
#include "views/compare/compare_view.h"
#include "views/log/log_panel.h"

namespace hloscope::gui {

void MainWindow::compareDialog() {
  QString f = QFileDialog::getOpenFileName(this, tr("Compare the shown step with…"), QFileInfo(path_).absolutePath(),
                                           tr("HLO or StableHLO (*.hlo *.txt *.mlir);;All files (*)"));
  if (!f.isEmpty()) compareWith(f);
}

void MainWindow::compareWith(const QString& path, int step, const QString& label) {
  const int k = step < 0 ? step_ : step;
  if (!run_ || k < 0 || k >= run_->size()) {
    showError(tr("Nothing to compare"), tr("Open a module and show a step first."));
    emit compareShown(false);
    return;
  }
  const quint64 gen = ++compare_gen_;
  comparing_ = true;
  auto run = run_;
  const std::string label_a = QFileInfo(path_).fileName().toStdString() + " step " + std::to_string(k) + " (" +
                              run->step(k).pass + ")";
  const std::string label_b = (label.isEmpty() ? QFileInfo(path).fileName() : label).toStdString();
  const std::string p = path.toStdString();
  log_->info(tr("comparing step %1 with %2").arg(k).arg(path));
  statusBar()->showMessage(tr("comparing with %1…").arg(QFileInfo(path).fileName()));
  Relay* relay = relay_;
  startThread([relay, gen, run, k, p, label_a, label_b] {
    auto fail = [&](const Status& s) { emit relay->compareReady(gen, nullptr, QString::fromStdString(s.message())); };
    auto a = run->ModuleAt(k);
    if (!a.ok()) return fail(a.status());
    auto session_b = Session::Load(p);
    if (!session_b.ok()) return fail(session_b.status());
    auto run_b = (*session_b)->InputOnly();
    auto b = run_b->ModuleAt(0);
    if (!b.ok()) return fail(b.status());
    DeviceSpec device = CurrentDevice();
    if (!run->device().empty()) {
      auto d = LoadDevice(run->device());
      if (d.ok()) device = *d;
    }
    auto result = std::make_shared<report::CompareResult>(report::CompareModules(**a, **b, device));
    result->a.label = label_a;
    result->b.label = label_b;
    auto bundle = std::make_shared<CompareBundle>();
    bundle->a = {QString::fromStdString(label_a), run, k, *a};
    bundle->b = {QString::fromStdString(label_b), run_b, 0, *b};
    bundle->result = std::move(result);
    emit relay->compareReady(gen, bundle, QString());
  });
}

void MainWindow::onCompareReady(std::shared_ptr<const CompareBundle> bundle, const QString& error) {
  comparing_ = false;
  if (!bundle) {
    showError(tr("Compare failed"), error);
    emit compareShown(false);
    return;
  }
  showCompareWindow(*bundle, tr("Compare — %1 vs %2").arg(bundle->a.label, bundle->b.label));
  const auto& r = *bundle->result;
  log_->info(tr("compare: A %1 kernels, B %2 kernels; %3 of %4 ops matched; %5 groupings only in A, %6 only in B")
                 .arg(r.a.kernels)
                 .arg(r.b.kernels)
                 .arg(r.a.matched)
                 .arg(r.a.ops)
                 .arg(r.fused_only_in_a.size())
                 .arg(r.fused_only_in_b.size()));
  emit compareShown(true);
}

void MainWindow::showCompareWindow(const CompareBundle& bundle, const QString& title, bool show) {
  if (!compare_window_) {
    compare_window_ = new QWidget(this, Qt::Window);
    compare_window_->setObjectName("compare_window");
    compare_view_ = new views::CompareView;
    auto* layout = new QVBoxLayout(compare_window_);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(compare_view_);
    compare_window_->resize(1500, 900);
  }
  compare_window_->setWindowTitle(title);
  compare_view_->setComparison(bundle.a, bundle.b, bundle.result);
  if (!show) return;
  compare_window_->show();
  compare_window_->raise();
}

}  // namespace hloscope::gui
