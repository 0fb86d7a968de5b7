#include "views/text/text_panel.h"
#include "views/common/ui_timer.h"

#include <QFontDatabase>
#include <algorithm>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextBlock>
#include <QThread>
#include <QVBoxLayout>

#include "core/session/line_diff.h"
#include "views/text/async_document.h"
#include "views/text/hlo_highlighter.h"

namespace hloscope::views {
namespace {

QPlainTextEdit* MakeEdit() {
  auto* e = new QPlainTextEdit;
  e->setReadOnly(true);
  e->setLineWrapMode(QPlainTextEdit::NoWrap);
  e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  return e;
}

}  // namespace

TextPanel::TextPanel(QWidget* parent) : QWidget(parent) {
  tabs_ = new QTabWidget;
  hlo_ = MakeEdit();
  diff_ = MakeEdit();
  source_ = MakeEdit();
  ir_ = MakeEdit();
  ptx_ = MakeEdit();
  highlighter_ = new HloHighlighter(nullptr);
  highlighter_->setParent(this);
  auto* diff_highlighter = new DiffHighlighter(nullptr);
  diff_highlighter->setParent(this);
  auto* source_highlighter = new HloHighlighter(nullptr);
  source_highlighter->setParent(this);
  tabs_->addTab(hlo_, tr("HLO"));
  tabs_->addTab(diff_, tr("Diff"));
  tabs_->addTab(ir_, tr("LLVM IR"));
  tabs_->addTab(ptx_, tr("PTX"));
  setKernel({}, {}, {}, tr("Step → Generate kernels (Ctrl+K) on a `gpu` step, then select a fusion."));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);
  hlo_text_ = new AsyncDocument(hlo_);
  diff_text_ = new AsyncDocument(diff_);
  source_text_ = new AsyncDocument(source_);
  hlo_text_->setHighlighter(highlighter_, kHighlightLineLimit);
  diff_text_->setHighlighter(diff_highlighter, kHighlightLineLimit);
  source_text_->setHighlighter(source_highlighter, kHighlightLineLimit);
  source_->setParent(this);
  source_->hide();
}

void TextPanel::setSource(const QString& text, bool show) {
  source_text_->setText(text);
  int i = tabs_->indexOf(source_);
  if (show && i < 0) tabs_->addTab(source_, tr("StableHLO"));
  if (!show && i >= 0) tabs_->removeTab(i);
}

void TextPanel::setStep(std::shared_ptr<const PipelineRun> run, int step) {
  UiTimer ui_timer("text: setStep");
  const ModuleSnapshot* before = run_ && step_ >= 0 && step_ < run_->size() ? run_->step(step_).module.get() : nullptr;
  run_ = std::move(run);
  step_ = step;
  if (!run_ || step_ < 0 || step_ >= run_->size()) {
    hlo_text_->setText({});
    diff_text_->setText({});
    return;
  }
  const ModuleSnapshot& snap = *run_->step(step_).module;
  selected_line_ = -1;
  if (before != &snap) {
    hlo_text_->setText(QString::fromStdString(snap.text), [this] { setInstruction(id_); });
  } else {
    setInstruction(id_);
  }
  startDiff();
}

void TextPanel::startDiff() {
  const quint64 gen = ++generation_;
  if (step_ <= 0) {
    diff_pending_ = false;
    diff_text_->setText(step_ == 0 ? tr("(the input: no previous step)") : QString());
    emit diffReady();
    return;
  }
  auto before = run_->step(step_ - 1).module;
  auto after = run_->step(step_).module;
  if (before == after) {
    diff_pending_ = false;
    diff_text_->setText(tr("(this pass changed nothing)"));
    emit diffReady();
    return;
  }
  diff_pending_ = true;
  diff_text_->setText(tr("computing diff…"));
  const std::string a_name = "step " + std::to_string(step_ - 1) + " " + run_->step(step_ - 1).pass;
  const std::string b_name = "step " + std::to_string(step_) + " " + run_->step(step_).pass;
  auto result = std::make_shared<QString>();
  QThread* t = QThread::create([result, before, after, a_name, b_name] {
    *result = QString::fromStdString(UnifiedDiff(DiffLines(before->text, after->text), a_name, b_name));
  });
  // Runs on the UI thread, and only while this panel exists.
  connect(t, &QThread::finished, this, [this, gen, result] {
    if (gen != generation_) return;
    diff_text_->setText(result->isEmpty() ? tr("(no textual change)") : *result, [this, gen] {
      if (gen != generation_) return;
      diff_pending_ = false;
      emit diffReady();
    });
  });
  connect(t, &QThread::finished, t, &QObject::deleteLater);
  t->start(QThread::LowPriority);
}

void TextPanel::setInstruction(int64_t id) {
  id_ = id;
  QList<QTextEdit::ExtraSelection> extras;
  selected_line_ = -1;
  if (run_ && step_ >= 0 && step_ < run_->size()) {
    const ModuleSnapshot& snap = *run_->step(step_).module;
    const InstructionRecord* r = snap.Find(id);
    if (r && !snap.lines_in_fallback) {
      // line_offset is a byte offset; count newlines before it.
      selected_line_ = static_cast<int>(std::count(snap.text.begin(), snap.text.begin() + static_cast<long>(std::min(r->line_offset, snap.text.size())), '\n'));
      QTextBlock block = hlo_->document()->findBlockByNumber(selected_line_);
      if (block.isValid()) {
        QTextEdit::ExtraSelection sel;
        sel.format.setBackground(QColor("#fff3c4"));
        sel.format.setProperty(QTextFormat::FullWidthSelection, true);
        sel.cursor = QTextCursor(block);
        extras << sel;
        hlo_->setTextCursor(QTextCursor(block));
        hlo_->centerCursor();
      }
    }
  }
  hlo_->setExtraSelections(extras);
}

void TextPanel::setKernel(const QString& name, const QString& ir, const QString& ptx, const QString& note) {
  if (name.isEmpty()) {
    ir_->setPlainText(note);
    ptx_->setPlainText(note);
    return;
  }
  ir_->setPlainText("; kernel " + name + "\n" + ir);
  ptx_->setPlainText("// kernel " + name + "\n" + ptx);
}

QString TextPanel::irText() const { return ir_->toPlainText(); }
QString TextPanel::ptxText() const { return ptx_->toPlainText(); }

bool TextPanel::textPending() const {
  return hlo_text_->pending() || diff_text_->pending() || source_text_->pending();
}

QString TextPanel::hloText() const { return hlo_->toPlainText(); }
QString TextPanel::diffText() const { return diff_->toPlainText(); }

}  // namespace hloscope::views
