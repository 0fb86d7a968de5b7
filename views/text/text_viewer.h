// One read-only text of the text panel (the HLO, the diff, the StableHLO
// source), shown by the viewer that suits its size: a QPlainTextEdit with a
// syntax highlighter for small texts, the LargeTextView (painted line by line
// from a line index, no QTextDocument) for texts of kLargeTextChars or more.
// Large texts are decoded and indexed on a worker thread and handed to the UI
// thread whole, so the UI thread never walks them; a newer text supersedes a
// pending one.
#pragma once

#include <QWidget>
#include <functional>
#include <memory>
#include <string>

#include "views/text/line_text.h"

class QPlainTextEdit;
class QStackedLayout;

namespace hloscope::views {

class LargeTextView;
class LineStyler;

class TextViewer : public QWidget {
  Q_OBJECT

 public:
  enum class Syntax { kPlain, kHlo, kDiff, kLlvmIr, kPtx, kSass };
  // Texts of at least this many characters (UTF-8 bytes) go to the large viewer.
  static constexpr qsizetype kLargeTextChars = 64 * 1024;

  explicit TextViewer(Syntax syntax, QWidget* parent = nullptr);

  // `ready` runs on the UI thread once the text is shown (at once for small
  // texts), and not at all when superseded.
  void setText(const QString& text, std::function<void()> ready = {});
  // The same from UTF-8 (decoded on the worker for large texts); `utf8` is
  // kept alive until then.
  void setUtf8(std::shared_ptr<const std::string> utf8, std::function<void()> ready = {});
  // An indexed text (built off the UI thread by the caller).
  void setLineText(std::shared_ptr<const LineText> text, std::function<void()> ready = {});

  bool pending() const { return pending_; }
  bool isLarge() const;
  QString text() const;
  // Highlights line `line` (0-based; -1: none) across the full width and
  // centres it; a pending text gets it once shown.
  void setHighlightedLine(int line);
  int highlightedLine() const { return highlighted_; }
  // Line `line` (0-based) of the shown text without its newline; empty when
  // out of range or pending.
  QString lineAt(int line) const;

  QPlainTextEdit* edit() const { return edit_; }
  LargeTextView* largeView() const { return large_; }

 signals:
  // The user put the cursor on line `line` (0-based: a click, or the arrow
  // keys), not emitted for setText or setHighlightedLine.
  void lineClicked(int line);

 private:
  void startWorker(std::function<std::shared_ptr<const LineText>()> build, std::function<void()> ready);
  void showSmall(const QString& text);
  void showLarge(std::shared_ptr<const LineText> text);
  void applyHighlight();

  QStackedLayout* stack_;
  QPlainTextEdit* edit_;
  LargeTextView* large_;
  const LineStyler* styler_ = nullptr;
  quint64 generation_ = 0;
  bool pending_ = false;
  int highlighted_ = -1;
  bool programmatic_ = false;  // the cursor is being moved here, not by the user
};

}  // namespace hloscope::views
