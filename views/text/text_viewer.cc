#include "views/text/text_viewer.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScopedValueRollback>
#include <QStackedLayout>
#include <QTextBlock>
#include <QThread>

#include "views/common/ui_timer.h"
#include "views/text/asm_syntax.h"
#include "views/text/hlo_highlighter.h"
#include "views/text/large_text_view.h"

namespace hloscope::views {
namespace {

const LineStyler* StylerFor(TextViewer::Syntax syntax) {
  static const HloSyntax hlo;
  static const DiffSyntax diff;
  static const AsmSyntax llvm_ir(AsmSyntax::Dialect::kLlvmIr);
  static const AsmSyntax ptx(AsmSyntax::Dialect::kPtx);
  static const AsmSyntax sass(AsmSyntax::Dialect::kSass);
  switch (syntax) {
    case TextViewer::Syntax::kHlo: return &hlo;
    case TextViewer::Syntax::kDiff: return &diff;
    case TextViewer::Syntax::kLlvmIr: return &llvm_ir;
    case TextViewer::Syntax::kPtx: return &ptx;
    case TextViewer::Syntax::kSass: return &sass;
    case TextViewer::Syntax::kPlain: break;
  }
  return nullptr;
}

}  // namespace

TextViewer::TextViewer(Syntax syntax, QWidget* parent) : QWidget(parent), styler_(StylerFor(syntax)) {
  edit_ = new QPlainTextEdit;
  edit_->setReadOnly(true);
  edit_->setLineWrapMode(QPlainTextEdit::NoWrap);
  edit_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  if (styler_) new LineStyleHighlighter(styler_, edit_->document());
  large_ = new LargeTextView;
  large_->setStyler(styler_);
  stack_ = new QStackedLayout(this);
  stack_->setContentsMargins(0, 0, 0, 0);
  stack_->addWidget(edit_);
  stack_->addWidget(large_);
  connect(edit_, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    if (!programmatic_ && !pending_) emit lineClicked(edit_->textCursor().blockNumber());
  });
  connect(large_, &LargeTextView::selectionChanged, this, [this] {
    if (!programmatic_ && !pending_ && large_->selectionFirst() >= 0) emit lineClicked(large_->selectionFirst());
  });
}

QString TextViewer::lineAt(int line) const {
  if (pending_ || line < 0) return {};
  if (isLarge()) return large_->lineText() ? large_->lineText()->line(line).toString() : QString();
  QTextBlock block = edit_->document()->findBlockByNumber(line);
  return block.isValid() ? block.text() : QString();
}

bool TextViewer::isLarge() const { return stack_->currentWidget() == large_; }

QString TextViewer::text() const { return isLarge() ? large_->lineText()->text() : edit_->toPlainText(); }

void TextViewer::setText(const QString& text, std::function<void()> ready) {
  if (text.size() < kLargeTextChars) {
    ++generation_;
    pending_ = false;
    showSmall(text);
    if (ready) ready();
    return;
  }
  startWorker([text] { return std::make_shared<const LineText>(text); }, std::move(ready));
}

void TextViewer::setUtf8(std::shared_ptr<const std::string> utf8, std::function<void()> ready) {
  if (!utf8 || static_cast<qsizetype>(utf8->size()) < kLargeTextChars) {
    setText(utf8 ? QString::fromStdString(*utf8) : QString(), std::move(ready));
    return;
  }
  startWorker([utf8] { return IndexUtf8(*utf8); }, std::move(ready));
}

void TextViewer::setLineText(std::shared_ptr<const LineText> text, std::function<void()> ready) {
  ++generation_;
  pending_ = false;
  if (text && text->text().size() >= kLargeTextChars)
    showLarge(std::move(text));
  else
    showSmall(text ? text->text() : QString());
  if (ready) ready();
}

void TextViewer::startWorker(std::function<std::shared_ptr<const LineText>()> build, std::function<void()> ready) {
  const quint64 gen = ++generation_;
  pending_ = true;
  highlighted_ = -1;
  showSmall(tr("loading…"));
  auto result = std::make_shared<std::shared_ptr<const LineText>>();
  QThread* t = QThread::create([build = std::move(build), result] { *result = build(); });
  // Runs on the UI thread, and only while this viewer exists.
  connect(t, &QThread::finished, this, [this, gen, result, ready = std::move(ready)] {
    if (gen != generation_) return;
    UiTimer ui_timer("text: show large text");
    pending_ = false;
    const int line = highlighted_;  // asked for while pending
    showLarge(std::move(*result));
    highlighted_ = line;
    if (line >= 0) applyHighlight();
    if (ready) ready();
  });
  connect(t, &QThread::finished, t, &QObject::deleteLater);
  t->start(QThread::LowPriority);
}

void TextViewer::showSmall(const QString& text) {
  QScopedValueRollback<bool> quiet(programmatic_, true);
  highlighted_ = -1;
  large_->setText(nullptr);
  edit_->setPlainText(text);
  stack_->setCurrentWidget(edit_);
}

void TextViewer::showLarge(std::shared_ptr<const LineText> text) {
  QScopedValueRollback<bool> quiet(programmatic_, true);
  highlighted_ = -1;
  if (!edit_->document()->isEmpty()) edit_->clear();
  large_->setText(std::move(text));
  stack_->setCurrentWidget(large_);
}

void TextViewer::setHighlightedLine(int line) {
  highlighted_ = line;
  if (!pending_) applyHighlight();
}

void TextViewer::applyHighlight() {
  QScopedValueRollback<bool> quiet(programmatic_, true);
  if (isLarge()) {
    large_->setHighlightedLine(highlighted_);
    if (highlighted_ >= 0) large_->scrollToLine(highlighted_, true);
    return;
  }
  QList<QTextEdit::ExtraSelection> extras;
  QTextBlock block = highlighted_ >= 0 ? edit_->document()->findBlockByNumber(highlighted_) : QTextBlock();
  if (block.isValid()) {
    QTextEdit::ExtraSelection sel;
    sel.format.setBackground(QColor("#fff3c4"));
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    sel.cursor = QTextCursor(block);
    extras << sel;
    edit_->setTextCursor(QTextCursor(block));
    edit_->centerCursor();
  }
  edit_->setExtraSelections(extras);
}

}  // namespace hloscope::views
