// A light read-only viewer for texts of tens of thousands of lines (the HLO
// of a large module, its diff): it holds an immutable LineText and paints
// only the visible lines, coloured per line by a LineStyler — no
// QTextDocument, so that showing a new text costs the UI thread nothing
// beyond a repaint. Selection is by whole lines (click, shift+click, drag,
// shift+arrows, Ctrl+A); Ctrl+C copies it. One line can be highlighted (the
// selected instruction's). Monospace: columns are a fixed width.
#pragma once

#include <QAbstractScrollArea>
#include <QHash>
#include <memory>
#include <vector>

#include "views/text/hlo_syntax.h"
#include "views/text/line_text.h"

namespace hloscope::views {

class LargeTextView : public QAbstractScrollArea {
  Q_OBJECT

 public:
  explicit LargeTextView(QWidget* parent = nullptr);

  // Shows `text` from its first line; clears the selection and highlight.
  void setText(std::shared_ptr<const LineText> text);
  const std::shared_ptr<const LineText>& lineText() const { return text_; }
  // Colours lines with `styler` (not owned; nullptr: plain).
  void setStyler(const LineStyler* styler);

  // The full-width highlight of one line (-1: none).
  void setHighlightedLine(int line);
  int highlightedLine() const { return highlighted_; }
  // Scrolls so that `line` is visible (in the middle when `center`).
  void scrollToLine(int line, bool center);
  int firstVisibleLine() const;
  int visibleLineCount() const;  // lines that fit entirely
  // The line under a viewport position (clamped to the text).
  int lineAt(const QPoint& pos) const;

  // Selects lines [min(anchor, cursor), max(anchor, cursor)]; -1: none.
  void selectLines(int anchor, int cursor);
  int selectionFirst() const;
  int selectionLast() const;
  QString selectedText() const;
  void copy() const;
  // Selects and shows the next (previous) line after the cursor that
  // contains `needle`, case-insensitive, wrapping; false when none does.
  bool find(const QString& needle, bool backward = false);

  int lineHeight() const { return line_height_; }

 signals:
  void selectionChanged();

 protected:
  bool event(QEvent* e) override;
  void paintEvent(QPaintEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void changeEvent(QEvent* e) override;
  void scrollContentsBy(int dx, int dy) override;

 private:
  void updateMetrics();
  void updateScrollBars();
  void moveCursorTo(int line, bool extend);
  bool handlesKey(QKeyEvent* e) const;
  const std::vector<StyledRun>& runsOf(int line) const;

  std::shared_ptr<const LineText> text_;
  const LineStyler* styler_ = nullptr;
  int highlighted_ = -1;
  int anchor_ = -1, cursor_ = -1;
  // The line last centred: kept centred through resizes (a view shown after
  // it was asked to centre gets its real height later) until the user scrolls.
  int centered_ = -1;
  bool scrolling_ = false;  // scroll bar values being set here
  int line_height_ = 1, ascent_ = 0;
  qreal char_width_ = 1;  // fractional: glyphs of a run and the column grid stay aligned
  mutable QHash<int, std::vector<StyledRun>> runs_;  // flattened, per painted line
};

}  // namespace hloscope::views
