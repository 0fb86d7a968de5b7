// Puts large texts into a QPlainTextEdit without blocking the UI thread: the
// QTextDocument is filled on a worker thread (QTextDocument is usable off the
// GUI thread), moved to the UI thread and swapped in; the replaced document
// is destroyed on a worker too (freeing 40k text blocks takes a while).
// Small texts are set synchronously. A newer setText supersedes a pending one.
#pragma once

#include <QObject>
#include <QPointer>
#include <QSyntaxHighlighter>
#include <QString>
#include <functional>

class QPlainTextEdit;
class QTextDocument;

namespace hloscope::views {

class AsyncDocument : public QObject {
  Q_OBJECT

 public:
  // Texts shorter than this are set on the calling thread.
  static constexpr qsizetype kAsyncThreshold = 256 * 1024;

  explicit AsyncDocument(QPlainTextEdit* edit);

  // `ready` runs on the UI thread once `edit` shows `text` (immediately for
  // short texts), and not at all when superseded.
  void setText(const QString& text, std::function<void()> ready = {});
  bool pending() const { return pending_; }
  // Highlights texts of at most `max_lines` lines with `h` (owned by the
  // caller); longer ones stay plain (highlighting them would block the UI).
  void setHighlighter(QSyntaxHighlighter* h, int max_lines);

 private:
  void install(QTextDocument* doc);

  void attachHighlighter(int lines);

  QPlainTextEdit* edit_;
  QPointer<QSyntaxHighlighter> highlighter_;
  int highlight_limit_ = 0;
  quint64 generation_ = 0;
  bool pending_ = false;
};

}  // namespace hloscope::views
