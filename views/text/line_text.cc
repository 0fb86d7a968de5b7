#include "views/text/line_text.h"

#include <algorithm>

namespace hloscope::views {

LineText::LineText(QString text) : text_(std::move(text)) {
  starts_.push_back(0);
  const QChar* data = text_.constData();
  const qsizetype n = text_.size();
  for (qsizetype i = 0; i < n; ++i) {
    if (data[i] != QLatin1Char('\n')) continue;
    max_length_ = std::max(max_length_, static_cast<int>(i - starts_.back()));
    starts_.push_back(i + 1);
  }
  max_length_ = std::max(max_length_, static_cast<int>(n - starts_.back()));
}

QStringView LineText::line(int i) const {
  if (i < 0 || i >= lineCount()) return {};
  const qsizetype begin = starts_[static_cast<size_t>(i)];
  qsizetype end = i + 1 < lineCount() ? starts_[static_cast<size_t>(i) + 1] - 1 : text_.size();
  if (end > begin && text_.at(end - 1) == QLatin1Char('\r')) --end;
  return QStringView(text_).mid(begin, end - begin);
}

QString LineText::lines(int first, int last) const {
  first = std::max(first, 0);
  last = std::min(last, lineCount() - 1);
  if (first > last) return {};
  const qsizetype begin = starts_[static_cast<size_t>(first)];
  const qsizetype end = last + 1 < lineCount() ? starts_[static_cast<size_t>(last) + 1] - 1 : text_.size();
  return text_.mid(begin, end - begin);
}

int LineText::find(const QString& needle, int from, bool backward) const {
  if (needle.isEmpty() || lineCount() == 0) return -1;
  const int n = lineCount();
  from = std::clamp(from, 0, n - 1);
  for (int k = 0; k < n; ++k) {
    const int i = backward ? (from - k + n) % n : (from + k) % n;
    if (line(i).contains(needle, Qt::CaseInsensitive)) return i;
  }
  return -1;
}

std::shared_ptr<const LineText> IndexUtf8(const std::string& utf8) {
  return std::make_shared<const LineText>(QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size())));
}

}  // namespace hloscope::views
