#include "views/text/large_text_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <algorithm>
#include <cmath>

#include "views/common/ui_timer.h"

namespace hloscope::views {
namespace {

constexpr int kMargin = 4;            // left of the first column, as QPlainTextEdit's document margin
constexpr int kMaxCachedLines = 1024;  // styled runs kept for repaints
const QColor kHighlight("#fff3c4");    // the selected instruction's line (as the small viewer)
const QColor kSelection("#cfe2ff");    // selected lines

// Tabs and other control characters drawn as spaces (columns stay aligned).
QString Printable(QStringView s) {
  QString out = s.toString();
  for (QChar& c : out)
    if (c.unicode() < 0x20) c = QLatin1Char(' ');
  return out;
}

}  // namespace

LargeTextView::LargeTextView(QWidget* parent)
    : QAbstractScrollArea(parent), text_(std::make_shared<const LineText>(QString())) {
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setFocusPolicy(Qt::StrongFocus);
  viewport()->setCursor(Qt::IBeamCursor);
  viewport()->setAutoFillBackground(false);
  updateMetrics();
}

void LargeTextView::setText(std::shared_ptr<const LineText> text) {
  text_ = text ? std::move(text) : std::make_shared<const LineText>(QString());
  runs_.clear();
  highlighted_ = -1;
  anchor_ = cursor_ = -1;
  centered_ = -1;
  updateScrollBars();
  verticalScrollBar()->setValue(0);
  horizontalScrollBar()->setValue(0);
  viewport()->update();
  emit selectionChanged();
}

void LargeTextView::setStyler(const LineStyler* styler) {
  styler_ = styler;
  runs_.clear();
  viewport()->update();
}

void LargeTextView::setHighlightedLine(int line) {
  highlighted_ = line >= 0 && line < text_->lineCount() ? line : -1;
  viewport()->update();
}

void LargeTextView::scrollToLine(int line, bool center) {
  line = std::clamp(line, 0, std::max(text_->lineCount() - 1, 0));
  const int rows = std::max(visibleLineCount(), 1);
  QScrollBar* v = verticalScrollBar();
  scrolling_ = true;
  centered_ = center ? line : -1;
  if (center)
    v->setValue(line - rows / 2);
  else if (line < v->value())
    v->setValue(line);
  else if (line >= v->value() + rows)
    v->setValue(line - rows + 1);
  if (center) horizontalScrollBar()->setValue(0);
  scrolling_ = false;
}

int LargeTextView::firstVisibleLine() const { return verticalScrollBar()->value(); }

int LargeTextView::visibleLineCount() const { return std::max(viewport()->height() / line_height_, 1); }

int LargeTextView::lineAt(const QPoint& pos) const {
  const int line = firstVisibleLine() + (pos.y() < 0 ? -1 - (-pos.y() - 1) / line_height_ : pos.y() / line_height_);
  return std::clamp(line, 0, std::max(text_->lineCount() - 1, 0));
}

void LargeTextView::selectLines(int anchor, int cursor) {
  const int n = text_->lineCount();
  anchor_ = anchor >= 0 && anchor < n ? anchor : -1;
  cursor_ = anchor_ >= 0 && cursor >= 0 && cursor < n ? cursor : anchor_;
  viewport()->update();
  emit selectionChanged();
}

int LargeTextView::selectionFirst() const { return anchor_ < 0 ? -1 : std::min(anchor_, cursor_); }
int LargeTextView::selectionLast() const { return anchor_ < 0 ? -1 : std::max(anchor_, cursor_); }

QString LargeTextView::selectedText() const {
  return anchor_ < 0 ? QString() : text_->lines(selectionFirst(), selectionLast());
}

void LargeTextView::copy() const {
  if (anchor_ >= 0) QApplication::clipboard()->setText(selectedText());
}

bool LargeTextView::find(const QString& needle, bool backward) {
  const int n = text_->lineCount();
  const int from = cursor_ < 0 ? (backward ? n - 1 : firstVisibleLine()) : (cursor_ + (backward ? n - 1 : 1)) % n;
  const int line = text_->find(needle, from, backward);
  if (line < 0) return false;
  selectLines(line, line);
  scrollToLine(line, true);
  return true;
}

void LargeTextView::updateMetrics() {
  const QFontMetrics fm(font());
  line_height_ = std::max(fm.lineSpacing(), 1);
  char_width_ = std::max(QFontMetricsF(font()).horizontalAdvance(QLatin1Char('M')), qreal(1));
  ascent_ = fm.ascent();
  updateScrollBars();
}

void LargeTextView::updateScrollBars() {
  const int rows = visibleLineCount();
  QScrollBar* v = verticalScrollBar();
  v->setRange(0, std::max(text_->lineCount() - rows, 0));
  v->setPageStep(rows);
  v->setSingleStep(1);
  QScrollBar* h = horizontalScrollBar();
  const auto width = static_cast<qint64>(std::ceil(text_->maxLineLength() * char_width_)) + 2 * kMargin;
  h->setRange(0, static_cast<int>(std::clamp<qint64>(width - viewport()->width(), 0, 1 << 30)));
  h->setPageStep(viewport()->width());
  h->setSingleStep(static_cast<int>(std::lround(char_width_ * 4)));
}

const std::vector<StyledRun>& LargeTextView::runsOf(int line) const {
  auto it = runs_.find(line);
  if (it != runs_.end()) return *it;
  if (runs_.size() >= kMaxCachedLines) runs_.clear();
  std::vector<StyledRun> runs;
  const QStringView text = text_->line(line);
  if (styler_) styler_->style(text, runs);
  return *runs_.insert(line, FlattenRuns(runs, static_cast<int>(text.size())));
}

void LargeTextView::paintEvent(QPaintEvent*) {
  UiTimer ui_timer("text: paint");
  QPainter p(viewport());
  const QRect area = viewport()->rect();
  p.fillRect(area, palette().base());
  const int first = firstVisibleLine();
  const int rows = area.height() / line_height_ + 1;
  const int x0 = kMargin - horizontalScrollBar()->value();
  // Visible columns (one extra either side for partly visible characters).
  const int col_begin = std::max(static_cast<int>((horizontalScrollBar()->value() - kMargin) / char_width_) - 1, 0);
  const int col_end = col_begin + static_cast<int>(area.width() / char_width_) + 3;
  const QFont base = font();
  const QColor ink = palette().text().color();
  static const std::vector<QTextCharFormat> kNoFormats;
  const std::vector<QTextCharFormat>& formats = styler_ ? styler_->formats() : kNoFormats;
  for (int r = 0; r < rows; ++r) {
    const int line = first + r;
    if (line >= text_->lineCount()) break;
    const int y = r * line_height_;
    const QRect row(area.left(), y, area.width(), line_height_);
    if (line >= selectionFirst() && line <= selectionLast() && anchor_ >= 0)
      p.fillRect(row, kSelection);
    else if (line == highlighted_)
      p.fillRect(row, kHighlight);
    const QStringView text = text_->line(line);
    const int end = std::min(static_cast<int>(text.size()), col_end);
    if (col_begin >= end) continue;
    // Split the visible columns at run boundaries; draw each piece once.
    const std::vector<StyledRun>& runs = runsOf(line);
    auto run = std::lower_bound(runs.begin(), runs.end(), col_begin,
                                [](const StyledRun& a, int col) { return a.start + a.length <= col; });
    for (int c = col_begin; c < end;) {
      const QTextCharFormat* f = nullptr;
      int stop = end;
      if (run != runs.end() && run->start <= c) {
        f = &formats[static_cast<size_t>(run->format)];
        stop = std::min(end, run->start + run->length);
        ++run;
      } else if (run != runs.end()) {
        stop = std::min(end, run->start);
      }
      const QRectF cell(x0 + c * char_width_, y, (stop - c) * char_width_, line_height_);
      QFont font = base;
      QColor color = ink;
      if (f) {
        if (f->background().style() != Qt::NoBrush) p.fillRect(cell, f->background());
        if (f->foreground().style() != Qt::NoBrush) color = f->foreground().color();
        if (f->fontWeight() == QFont::Bold) font.setBold(true);
        if (f->fontItalic()) font.setItalic(true);
      }
      p.setFont(font);
      p.setPen(color);
      p.drawText(QPointF(cell.left(), y + ascent_), Printable(text.mid(c, stop - c)));
      c = stop;
    }
  }
}

void LargeTextView::resizeEvent(QResizeEvent* e) {
  QAbstractScrollArea::resizeEvent(e);
  scrolling_ = true;
  updateScrollBars();
  scrolling_ = false;
  if (centered_ >= 0) scrollToLine(centered_, true);
}

void LargeTextView::changeEvent(QEvent* e) {
  QAbstractScrollArea::changeEvent(e);
  if (e->type() == QEvent::FontChange) {
    runs_.clear();
    updateMetrics();
  }
}

void LargeTextView::scrollContentsBy(int, int) {
  if (!scrolling_) centered_ = -1;  // the user scrolled
  viewport()->update();
}

void LargeTextView::moveCursorTo(int line, bool extend) {
  const int n = text_->lineCount();
  if (n == 0) return;
  line = std::clamp(line, 0, n - 1);
  if (extend && anchor_ >= 0)
    selectLines(anchor_, line);
  else
    selectLines(line, line);
  scrollToLine(line, false);
}

bool LargeTextView::handlesKey(QKeyEvent* e) const {
  if (e == QKeySequence::Copy || e == QKeySequence::SelectAll) return true;
  switch (e->key()) {
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
    case Qt::Key_Home:
    case Qt::Key_End:
    case Qt::Key_Left:
    case Qt::Key_Right:
      return !(e->modifiers() & (Qt::AltModifier | Qt::MetaModifier));
    default:
      return false;
  }
}

bool LargeTextView::event(QEvent* e) {
  // Claim the keys handled here before window shortcuts (step ←/→, PgUp/PgDn,
  // Home/End) take them, as QPlainTextEdit does for its navigation keys.
  if (e->type() == QEvent::ShortcutOverride && handlesKey(static_cast<QKeyEvent*>(e))) {
    e->accept();
    return true;
  }
  return QAbstractScrollArea::event(e);
}

void LargeTextView::keyPressEvent(QKeyEvent* e) {
  if (e == QKeySequence::Copy) {
    copy();
    return;
  }
  if (e == QKeySequence::SelectAll) {
    if (text_->lineCount() > 0) selectLines(0, text_->lineCount() - 1);
    return;
  }
  const bool extend = e->modifiers() & Qt::ShiftModifier;
  const int at = cursor_ >= 0 ? cursor_ : firstVisibleLine();
  const int page = std::max(visibleLineCount() - 1, 1);
  QScrollBar* h = horizontalScrollBar();
  switch (e->key()) {
    case Qt::Key_Up: moveCursorTo(cursor_ >= 0 ? at - 1 : at, extend); return;
    case Qt::Key_Down: moveCursorTo(cursor_ >= 0 ? at + 1 : at, extend); return;
    case Qt::Key_PageUp:
      verticalScrollBar()->setValue(verticalScrollBar()->value() - page);
      moveCursorTo(at - page, extend);
      return;
    case Qt::Key_PageDown:
      verticalScrollBar()->setValue(verticalScrollBar()->value() + page);
      moveCursorTo(at + page, extend);
      return;
    case Qt::Key_Home: moveCursorTo(0, extend); return;
    case Qt::Key_End: moveCursorTo(text_->lineCount() - 1, extend); return;
    case Qt::Key_Left: h->setValue(h->value() - h->singleStep()); return;
    case Qt::Key_Right: h->setValue(h->value() + h->singleStep()); return;
    default: QAbstractScrollArea::keyPressEvent(e);
  }
}

void LargeTextView::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || text_->lineCount() == 0) return QAbstractScrollArea::mousePressEvent(e);
  const int line = lineAt(e->position().toPoint());
  if ((e->modifiers() & Qt::ShiftModifier) && anchor_ >= 0)
    selectLines(anchor_, line);
  else
    selectLines(line, line);
}

void LargeTextView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton) || anchor_ < 0) return QAbstractScrollArea::mouseMoveEvent(e);
  const int line = lineAt(e->position().toPoint());
  if (line != cursor_) {
    selectLines(anchor_, line);
    scrollToLine(line, false);
  }
}

}  // namespace hloscope::views
