#include "views/text/text_panel.h"
#include "views/common/release_off_thread.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "core/codegen/line_info.h"
#include "core/session/line_diff.h"
#include "views/common/ui_timer.h"
#include "views/kernels/kernels_model.h"
#include "views/text/line_text.h"
#include "views/text/text_viewer.h"

namespace hloscope::views {

TextPanel::TextPanel(QWidget* parent) : QWidget(parent) {
  tabs_ = new QTabWidget;
  hlo_ = new TextViewer(TextViewer::Syntax::kHlo);
  diff_ = new TextViewer(TextViewer::Syntax::kDiff);
  source_ = new TextViewer(TextViewer::Syntax::kHlo, this);
  ir_ = new TextViewer(TextViewer::Syntax::kLlvmIr);
  ptx_ = new TextViewer(TextViewer::Syntax::kPtx);
  sass_ = new TextViewer(TextViewer::Syntax::kSass);
  tabs_->addTab(hlo_, tr("HLO"));
  tabs_->addTab(diff_, tr("Diff"));
  tabs_->addTab(ir_, tr("LLVM IR"));
  tabs_->addTab(ptx_, tr("PTX"));
  tabs_->addTab(sass_, tr("SASS"));
  kernels_tab_ = new QWidget;
  kernels_summary_ = new QLabel;
  kernels_summary_->setWordWrap(true);
  kernels_summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  kernels_model_ = new KernelsModel(this);
  kernels_view_ = new QTableView;
  kernels_view_->setModel(kernels_model_);
  kernels_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  kernels_view_->setSelectionMode(QAbstractItemView::SingleSelection);
  kernels_view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  kernels_view_->verticalHeader()->hide();
  kernels_view_->verticalHeader()->setDefaultSectionSize(kernels_view_->fontMetrics().height() + 4);
  kernels_view_->horizontalHeader()->setStretchLastSection(true);
  kernels_view_->setWordWrap(false);
  {
    auto* l = new QVBoxLayout(kernels_tab_);
    l->setContentsMargins(4, 4, 4, 0);
    l->addWidget(kernels_summary_);
    l->addWidget(kernels_view_, 1);
  }
  tabs_->addTab(kernels_tab_, tr("Kernels"));
  connect(kernels_view_, &QTableView::clicked, this, [this](const QModelIndex& i) {
    emit kernelInstructionActivated(i.data(KernelsModel::kInstructionRole).toString());
  });
  connect(sass_, &TextViewer::lineClicked, this,
          [this](int line) { showCorrespondence("SASS", line, correspondenceOfSass(line)); });
  connect(ptx_, &TextViewer::lineClicked, this,
          [this](int line) { showCorrespondence("PTX", line, correspondenceOfPtx(line)); });
  connect(hlo_, &TextViewer::lineClicked, this,
          [this](int line) { showCorrespondence("HLO", line, correspondenceOfHlo(line)); });
  const QString hint = tr("Step → Generate kernels (Ctrl+K) on a `gpu` step, then select a fusion.");
  setKernel({}, {}, {}, hint);
  setKernelListing(nullptr, hint);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);
  source_->hide();
}

void TextPanel::setSource(const QString& text, bool show) {
  // A hidden source tab (HLO input: the source is the HLO text itself) is
  // not filled at all.
  source_->setText(show ? text : QString());
  int i = tabs_->indexOf(source_);
  if (show && i < 0) tabs_->addTab(source_, tr("StableHLO"));
  if (!show && i >= 0) tabs_->removeTab(i);
}

void TextPanel::setStep(std::shared_ptr<const PipelineRun> run, int step) {
  UiTimer ui_timer("text: setStep");
  const ModuleSnapshot* before = run_ && step_ >= 0 && step_ < run_->size() ? run_->step(step_).module.get() : nullptr;
  ReplaceOffThread(run_, std::move(run));
  step_ = step;
  if (!run_ || step_ < 0 || step_ >= run_->size()) {
    hlo_->setText({});
    diff_->setText({});
    return;
  }
  const ModuleSnapshot& snap = *run_->step(step_).module;
  selected_line_ = -1;
  if (before != &snap) {
    auto text = std::shared_ptr<const std::string>(run_->step(step_).module, &snap.text);
    hlo_->setUtf8(std::move(text), [this] { setInstruction(id_); });
  } else {
    setInstruction(id_);
  }
  startDiff();
}

void TextPanel::startDiff() {
  const quint64 gen = ++generation_;
  if (step_ <= 0) {
    diff_pending_ = false;
    diff_->setText(step_ == 0 ? tr("(the input: no previous step)") : QString());
    emit diffReady();
    return;
  }
  auto before = run_->step(step_ - 1).module;
  auto after = run_->step(step_).module;
  if (before == after) {
    diff_pending_ = false;
    diff_->setText(tr("(this pass changed nothing)"));
    emit diffReady();
    return;
  }
  diff_pending_ = true;
  diff_->setText(tr("computing diff…"));
  const std::string a_name = "step " + std::to_string(step_ - 1) + " " + run_->step(step_ - 1).pass;
  const std::string b_name = "step " + std::to_string(step_) + " " + run_->step(step_).pass;
  auto result = std::make_shared<std::shared_ptr<const LineText>>();
  QThread* t = QThread::create([result, before, after, a_name, b_name] {
    std::string diff = UnifiedDiff(DiffLines(before->text, after->text), a_name, b_name);
    *result = diff.empty() ? nullptr : IndexUtf8(diff);
  });
  // Runs on the UI thread, and only while this panel exists.
  connect(t, &QThread::finished, this, [this, gen, result] {
    if (gen != generation_) return;
    auto done = [this, gen] {
      if (gen != generation_) return;
      diff_pending_ = false;
      emit diffReady();
    };
    if (*result)
      diff_->setLineText(std::move(*result), done);
    else
      diff_->setText(tr("(no textual change)"), done);
  });
  connect(t, &QThread::finished, t, &QObject::deleteLater);
  t->start(QThread::LowPriority);
}

void TextPanel::setInstruction(int64_t id) {
  id_ = id;
  selected_line_ = -1;
  if (run_ && step_ >= 0 && step_ < run_->size()) {
    const ModuleSnapshot& snap = *run_->step(step_).module;
    const InstructionRecord* r = snap.Find(id);
    if (r) {
      // line_offset is a byte offset; count newlines before it.
      const auto end = snap.text.begin() + static_cast<long>(std::min(r->line_offset, snap.text.size()));
      selected_line_ = static_cast<int>(std::count(snap.text.begin(), end, '\n'));
    }
  }
  hlo_->setHighlightedLine(selected_line_);
}

void TextPanel::setKernel(const QString& name, const QString& ir, const QString& ptx, const QString& note,
                          const QString& sass) {
  ptx_hlo_.clear();
  sass_hlo_.clear();
  sass_ptx_.clear();
  if (name.isEmpty()) {
    ir_->setText(note);
    ptx_->setText(note);
    sass_->setText(note);
    return;
  }
  ir_->setText("; kernel " + name + "\n" + ir);
  const QString ptx_text = "// kernel " + name + "\n" + ptx;
  ptx_->setText(ptx_text);
  const QString sass_text = "// kernel " + name + "\n" + sass;
  // Kernel texts are a few hundred KB at most: scanning them here costs well
  // under the UI budget (the large-text index is built on a worker).
  ptx_hlo_ = codegen::PtxHloLines(ptx_text.toStdString());
  const std::string sass_utf8 = sass_text.toStdString();
  sass_hlo_ = codegen::SassHloLines(sass_utf8);
  sass_ptx_ = codegen::SassPtxLines(sass_utf8);
  // The kernel's first instruction (nvdisasm's /*0000*/), past the section
  // header, is marked and brought into view.
  const qsizetype first = sass_text.indexOf(QStringLiteral("/*0000*/"));
  const int first_line = first < 0 ? -1 : static_cast<int>(sass_text.left(first).count(QLatin1Char('\n')));
  sass_->setText(sass_text, [this, first_line] { sass_->setHighlightedLine(first_line); });
}

namespace {

int At(const std::vector<int>& map, int line) {
  return line >= 0 && line < static_cast<int>(map.size()) ? map[static_cast<size_t>(line)] : 0;
}

// The first 0-based line whose entry is `value` (1-based), or -1.
int FirstWith(const std::vector<int>& map, int value) {
  if (value <= 0) return -1;
  auto it = std::find(map.begin(), map.end(), value);
  return it == map.end() ? -1 : static_cast<int>(it - map.begin());
}

}  // namespace

// The PTX tab shows one header line before the kernel's PTX: PTX line p
// (1-based, as SassPtxLines gives it) is the tab's 0-based line p.
TextPanel::Correspondence TextPanel::correspondenceOfSass(int line) const {
  Correspondence c;
  c.sass = line;
  c.hlo = At(sass_hlo_, line) - 1;
  const int p = At(sass_ptx_, line);
  c.ptx = p > 0 ? p : -1;
  if (c.hlo < 0 && c.ptx >= 0) c.hlo = At(ptx_hlo_, c.ptx) - 1;
  return c;
}

TextPanel::Correspondence TextPanel::correspondenceOfPtx(int line) const {
  Correspondence c;
  c.ptx = line;
  c.hlo = At(ptx_hlo_, line) - 1;
  c.sass = FirstWith(sass_ptx_, line);
  if (c.sass < 0) c.sass = FirstWith(sass_hlo_, c.hlo + 1);
  return c;
}

TextPanel::Correspondence TextPanel::correspondenceOfHlo(int line) const {
  Correspondence c;
  c.hlo = line;
  c.ptx = FirstWith(ptx_hlo_, line + 1);
  c.sass = FirstWith(sass_hlo_, line + 1);
  return c;
}

void TextPanel::showCorrespondence(const char* from, int line, const Correspondence& c) {
  if (ptx_hlo_.empty() && sass_hlo_.empty()) return;  // no kernel shown (or no line info)
  const QString tab = QString::fromLatin1(from);
  if (tab != QLatin1String("HLO") && c.hlo >= 0) hlo_->setHighlightedLine(c.hlo);
  if (tab != QLatin1String("PTX") && c.ptx >= 0) ptx_->setHighlightedLine(c.ptx);
  if (tab != QLatin1String("SASS") && c.sass >= 0) sass_->setHighlightedLine(c.sass);
  QStringList parts;
  if (tab != QLatin1String("SASS")) parts << (c.sass >= 0 ? tr("SASS line %1").arg(c.sass + 1) : tr("no SASS"));
  if (tab != QLatin1String("PTX")) parts << (c.ptx >= 0 ? tr("PTX line %1").arg(c.ptx + 1) : tr("no PTX"));
  if (tab != QLatin1String("HLO")) {
    QString def = hlo_->lineAt(c.hlo).trimmed();
    if (const qsizetype eq = def.indexOf(QLatin1String(" = ")); eq > 0) def = def.left(eq);
    parts << (c.hlo >= 0 ? tr("HLO line %1 (%2)").arg(c.hlo + 1).arg(def) : tr("no HLO line"));
  }
  emit correspondenceChanged(tr("%1 line %2 ↔ %3").arg(tab).arg(line + 1).arg(parts.join(QLatin1String(", "))));
}

void TextPanel::setKernelListing(std::shared_ptr<const KernelListing> listing, const QString& note) {
  if (!listing) {
    kernels_summary_->setText(note);
    kernels_model_->setListing(nullptr);
    return;
  }
  QString summary = QString::fromStdString(listing->summary);
  if (listing->code) summary += tr(" — for %1").arg(QString::fromStdString(listing->code->plan.target));
  if (listing->counts.missing)
    summary += tr(". Missing kernels are in the plan with their reason (red); the rest of the module is complete");
  if (listing->counts.custom_calls)
    summary += tr(". Custom-calls call external targets (a library or framework) that a runtime provides");
  kernels_summary_->setText(summary + ".");
  kernels_model_->setListing(std::move(listing));
  kernels_view_->resizeColumnsToContents();
}

QString TextPanel::kernelsSummary() const { return kernels_summary_->text(); }

void TextPanel::showKernelsTab() { tabs_->setCurrentWidget(kernels_tab_); }

QString TextPanel::irText() const { return ir_->text(); }
QString TextPanel::ptxText() const { return ptx_->text(); }
QString TextPanel::sassText() const { return sass_->text(); }

bool TextPanel::textPending() const {
  return hlo_->pending() || diff_->pending() || source_->pending() || ir_->pending() || ptx_->pending() ||
         sass_->pending();
}

QString TextPanel::hloText() const { return hlo_->text(); }
QString TextPanel::diffText() const { return diff_->text(); }

}  // namespace hloscope::views
