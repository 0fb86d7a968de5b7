#include "views/text/async_document.h"
#include "views/common/ui_timer.h"

#include <QCoreApplication>
#include <QPlainTextDocumentLayout>
#include <QPlainTextEdit>
#include <QTextDocument>
#include <QThread>
#include <memory>

namespace hloscope::views {

namespace {

// Deletes a document on a worker thread.
void DisposeOffThread(QTextDocument* doc) {
  if (!doc) return;
  doc->setParent(nullptr);
  QThread* t = QThread::create([doc] { delete doc; });
  doc->moveToThread(t);
  QObject::connect(t, &QThread::finished, t, &QObject::deleteLater);
  t->start(QThread::LowPriority);
}

}  // namespace

AsyncDocument::AsyncDocument(QPlainTextEdit* edit) : QObject(edit), edit_(edit) {}

void AsyncDocument::install(QTextDocument* doc) {
  UiTimer ui_timer("text: install document");
  // Only documents installed here (children of the edit) are disposed of; the
  // edit's own first document belongs to its text control, which frees it.
  QTextDocument* old = edit_->document();
  if (old && old->parent() != edit_) old = nullptr;
  doc->setParent(edit_);
  edit_->setDocument(doc);
  if (old && old != doc) DisposeOffThread(old);
}

void AsyncDocument::setHighlighter(QSyntaxHighlighter* h, int max_lines) {
  highlighter_ = h;
  highlight_limit_ = max_lines;
  attachHighlighter(edit_->document()->blockCount());
}

void AsyncDocument::attachHighlighter(int lines) {
  if (!highlighter_) return;
  QTextDocument* want = lines <= highlight_limit_ ? edit_->document() : nullptr;
  if (highlighter_->document() != want) highlighter_->setDocument(want);
}

void AsyncDocument::setText(const QString& text, std::function<void()> ready) {
  const quint64 gen = ++generation_;
  const int lines = static_cast<int>(text.count(QLatin1Char('\n'))) + 1;
  if (highlighter_) highlighter_->setDocument(nullptr);
  if (text.size() < kAsyncThreshold) {
    pending_ = false;
    edit_->setPlainText(text);
    attachHighlighter(lines);
    if (ready) ready();
    return;
  }
  pending_ = true;
  edit_->setPlainText(tr("loading %1 lines…").arg(lines));
  QThread* main = QCoreApplication::instance()->thread();
  // Owns the document until the UI thread takes it (deleted with the last
  // reference when this panel went away first).
  struct Slot {
    QTextDocument* doc = nullptr;
    ~Slot() { delete doc; }
  };
  auto result = std::make_shared<Slot>();
  const QFont font = edit_->font();
  QThread* t = QThread::create([text, main, result, font] {
    // Font and plain-text layout are set before the text, as the edit would
    // set them, so that installing the document on the UI thread does not
    // walk its blocks again.
    auto* doc = new QTextDocument;
    doc->setUndoRedoEnabled(false);
    doc->setDefaultFont(font);
    doc->setDocumentLayout(new QPlainTextDocumentLayout(doc));
    doc->setPlainText(text);
    doc->moveToThread(main);
    result->doc = doc;
  });
  // Runs on the UI thread, and only while this object (and its edit) exists;
  // a superseded or orphaned document is disposed of off the UI thread.
  connect(t, &QThread::finished, this, [this, gen, lines, result, ready = std::move(ready)] {
    QTextDocument* doc = result->doc;
    result->doc = nullptr;
    if (!doc) return;
    if (gen != generation_) {
      DisposeOffThread(doc);
      return;
    }
    pending_ = false;
    install(doc);
    attachHighlighter(lines);
    if (ready) ready();
  });
  connect(t, &QThread::finished, t, &QObject::deleteLater);
  t->start(QThread::LowPriority);
}

}  // namespace hloscope::views
