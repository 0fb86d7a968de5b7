#include "views/text/hlo_highlighter.h"

#include <QColor>

namespace hloscope::views {
namespace {

QTextCharFormat Format(const char* color, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(QColor(color));
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

}  // namespace

HloHighlighter::HloHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
  // Later rules win where they overlap.
  rules_.push_back({QRegularExpression(R"(\b([a-z_][a-z0-9_]*)=)"), Format("#6a1b9a"), 1});
  rules_.push_back({QRegularExpression(
                        R"(\b(?:pred|token|s\d+|u\d+|f\d+(?:e\d+m\d+\w*)?|bf16|c64|c128)\[[^\]]*\](?:\{[^}]*\})?)"),
                    Format("#00796b")});
  rules_.push_back({QRegularExpression(R"(\b(?:pred|token|s\d+|u\d+|f\d+|bf16|c64|c128)\[\])"), Format("#00796b")});
  rules_.push_back({QRegularExpression(R"(\s([a-z][a-z0-9\-]*)\()"), Format("#1565c0", true), 1});
  rules_.push_back({QRegularExpression(R"(%[\w.\-]+)"), Format("#5d4037")});
  rules_.push_back({QRegularExpression(R"(^\s*(?:ROOT\s+)?(%?[\w.\-]+)(?=\s*=))"), Format("#bf360c", true), 1});
  rules_.push_back({QRegularExpression(R"(\b(HloModule|ENTRY|ROOT)\b)"), Format("#c62828", true), 1});
  rules_.push_back({QRegularExpression(R"("(?:[^"\\]|\\.)*")"), Format("#558b2f")});
  comment_ = Format("#9e9e9e", false, true);
}

void HloHighlighter::highlightBlock(const QString& text) {
  for (const Rule& r : rules_) {
    auto it = r.re.globalMatch(text);
    while (it.hasNext()) {
      QRegularExpressionMatch m = it.next();
      setFormat(static_cast<int>(m.capturedStart(r.group)), static_cast<int>(m.capturedLength(r.group)), r.format);
    }
  }
  // Comments: /*...*/ (kept within a line) and // to end of line.
  static const QRegularExpression block(R"(/\*.*?\*/)");
  auto it = block.globalMatch(text);
  while (it.hasNext()) {
    auto m = it.next();
    setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), comment_);
  }
  const int slash = static_cast<int>(text.indexOf(QStringLiteral("//")));
  if (slash >= 0 && text.left(slash).count('"') % 2 == 0) setFormat(slash, static_cast<int>(text.size()) - slash, comment_);
}

DiffHighlighter::DiffHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
  added_.setBackground(QColor("#e6ffec"));
  added_.setForeground(QColor("#1b5e20"));
  removed_.setBackground(QColor("#ffebe9"));
  removed_.setForeground(QColor("#b71c1c"));
  hunk_.setForeground(QColor("#6a1b9a"));
  hunk_.setFontWeight(QFont::Bold);
}

void DiffHighlighter::highlightBlock(const QString& text) {
  const int n = static_cast<int>(text.size());
  if (text.startsWith(QStringLiteral("@@")) || text.startsWith(QStringLiteral("---")) ||
      text.startsWith(QStringLiteral("+++")))
    setFormat(0, n, hunk_);
  else if (text.startsWith('+'))
    setFormat(0, n, added_);
  else if (text.startsWith('-'))
    setFormat(0, n, removed_);
}

}  // namespace hloscope::views
