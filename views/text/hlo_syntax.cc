#include "views/text/hlo_syntax.h"

#include <QColor>
#include <QFont>
#include <algorithm>

namespace hloscope::views {
QTextCharFormat TextFormat(const char* color, bool bold, bool italic) {
  QTextCharFormat f;
  f.setForeground(QColor(color));
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

HloSyntax::HloSyntax() {
  auto add = [this](QTextCharFormat f) {
    formats_.push_back(std::move(f));
    return static_cast<int>(formats_.size()) - 1;
  };
  const int attribute = add(TextFormat("#6a1b9a"));
  const int shape = add(TextFormat("#00796b"));
  const int opcode = add(TextFormat("#1565c0", true));
  const int reference = add(TextFormat("#5d4037"));
  const int defined = add(TextFormat("#bf360c", true));
  const int keyword = add(TextFormat("#c62828", true));
  const int string = add(TextFormat("#558b2f"));
  comment_ = add(TextFormat("#9e9e9e", false, true));
  // Later rules win where they overlap.
  rules_.push_back({QRegularExpression(R"(\b([a-z_][a-z0-9_]*)=)"), attribute, 1});
  rules_.push_back(
      {QRegularExpression(R"(\b(?:pred|token|s\d+|u\d+|f\d+(?:e\d+m\d+\w*)?|bf16|c64|c128)\[[^\]]*\](?:\{[^}]*\})?)"),
       shape, 0});
  rules_.push_back({QRegularExpression(R"(\b(?:pred|token|s\d+|u\d+|f\d+|bf16|c64|c128)\[\])"), shape, 0});
  rules_.push_back({QRegularExpression(R"(\s([a-z][a-z0-9\-]*)\()"), opcode, 1});
  rules_.push_back({QRegularExpression(R"(%[\w.\-]+)"), reference, 0});
  rules_.push_back({QRegularExpression(R"(^\s*(?:ROOT\s+)?(%?[\w.\-]+)(?=\s*=))"), defined, 1});
  rules_.push_back({QRegularExpression(R"(\b(HloModule|ENTRY|ROOT)\b)"), keyword, 1});
  rules_.push_back({QRegularExpression(R"("(?:[^"\\]|\\.)*")"), string, 0});
  block_comment_ = QRegularExpression(R"(/\*.*?\*/)");
}

void HloSyntax::style(QStringView line, std::vector<StyledRun>& out) const {
  for (const Rule& r : rules_) {
    auto it = r.re.globalMatch(line);
    while (it.hasNext()) {
      QRegularExpressionMatch m = it.next();
      out.push_back({static_cast<int>(m.capturedStart(r.group)), static_cast<int>(m.capturedLength(r.group)), r.format});
    }
  }
  // Comments: /*...*/ (kept within a line) and // to the end of the line.
  auto it = block_comment_.globalMatch(line);
  while (it.hasNext()) {
    auto m = it.next();
    out.push_back({static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), comment_});
  }
  const qsizetype slash = line.indexOf(QStringLiteral("//"));
  if (slash >= 0 && line.left(slash).count(QLatin1Char('"')) % 2 == 0)
    out.push_back({static_cast<int>(slash), static_cast<int>(line.size() - slash), comment_});
}

DiffSyntax::DiffSyntax() {
  QTextCharFormat added, removed, hunk;
  added.setBackground(QColor("#e6ffec"));
  added.setForeground(QColor("#1b5e20"));
  removed.setBackground(QColor("#ffebe9"));
  removed.setForeground(QColor("#b71c1c"));
  hunk.setForeground(QColor("#6a1b9a"));
  hunk.setFontWeight(QFont::Bold);
  formats_ = {added, removed, hunk};
}

void DiffSyntax::style(QStringView line, std::vector<StyledRun>& out) const {
  const int n = static_cast<int>(line.size());
  if (line.startsWith(QStringLiteral("@@")) || line.startsWith(QStringLiteral("---")) ||
      line.startsWith(QStringLiteral("+++")))
    out.push_back({0, n, kHunk});
  else if (line.startsWith(QLatin1Char('+')))
    out.push_back({0, n, kAdded});
  else if (line.startsWith(QLatin1Char('-')))
    out.push_back({0, n, kRemoved});
}

std::vector<StyledRun> FlattenRuns(const std::vector<StyledRun>& runs, int length) {
  std::vector<StyledRun> flat;
  if (runs.empty() || length <= 0) return flat;
  std::vector<int> owner(static_cast<size_t>(length), -1);
  for (const StyledRun& r : runs) {
    const int begin = std::clamp(r.start, 0, length);
    const int end = std::clamp(r.start + r.length, begin, length);
    std::fill(owner.begin() + begin, owner.begin() + end, r.format);
  }
  for (int i = 0; i < length;) {
    int j = i + 1;
    while (j < length && owner[static_cast<size_t>(j)] == owner[static_cast<size_t>(i)]) ++j;
    if (owner[static_cast<size_t>(i)] >= 0) flat.push_back({i, j - i, owner[static_cast<size_t>(i)]});
    i = j;
  }
  return flat;
}

}  // namespace hloscope::views
