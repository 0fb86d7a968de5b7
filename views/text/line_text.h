// A text and the offsets of its line starts: what the large-text viewer
// shows. Built once (on a worker thread for large texts), then immutable and
// shared, so that handing it to the UI thread costs nothing.
#pragma once

#include <QString>
#include <QStringView>
#include <memory>
#include <string>
#include <vector>

namespace hloscope::views {

class LineText {
 public:
  explicit LineText(QString text);

  const QString& text() const { return text_; }
  int lineCount() const { return static_cast<int>(starts_.size()); }
  // Line `i` (0-based) without its newline; empty when out of range.
  QStringView line(int i) const;
  // Lines [first, last] joined by newlines (clamped to the text).
  QString lines(int first, int last) const;
  // The length of the longest line, in characters.
  int maxLineLength() const { return max_length_; }
  // The first line at or after `from` (wrapping around) that contains
  // `needle` (case-insensitive), searching backwards when `backward`; -1 when
  // none does.
  int find(const QString& needle, int from, bool backward) const;

 private:
  QString text_;
  std::vector<qsizetype> starts_;  // offsets of line starts in text_
  int max_length_ = 0;
};

// Convenience for worker threads: decodes UTF-8 and indexes the lines.
std::shared_ptr<const LineText> IndexUtf8(const std::string& utf8);

}  // namespace hloscope::views
