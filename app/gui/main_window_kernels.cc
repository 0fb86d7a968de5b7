// Step → Generate kernels (Ctrl+K): LLVM IR, PTX and, where ptxas and
// nvdisasm are found, SASS for the shown step's kernels, generated on a
// worker thread; the listing handed to the graph, the details and the
// Kernels tab (in turns of the event loop), and the IR, PTX and SASS tabs
// showing the selected instruction's kernel or why it has none.
#include <QElapsedTimer>
#include <QTimer>

#include "app/gui/main_window.h"
#include "app/gui/workers.h"
#include "core/codegen/line_info.h"
#include "core/codegen/sass.h"
#include "core/report/plan_listing.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"
#include "views/details/details_panel.h"
#include "views/graph/graph_view.h"
#include "views/kernels/kernels_model.h"
#include "views/text/text_panel.h"

namespace hloscope::gui {

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
  if (!kc.strategy.empty()) head = "// " + kc.kind + ": " + kc.strategy + "\n";
  if (r && !r->resources.empty())
    head += "// " + target + ": " + r->resources + " (ptxas -v)\n// " + r->occupancy + "\n// " + r->sass + "\n";
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

}  // namespace hloscope::gui
