// Syntax highlighting for HLO text: keywords (HloModule, ENTRY, ROOT),
// instruction names, opcodes, shapes, attribute names and comments; and
// for unified diffs: added/removed lines and hunk headers.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace hloscope::views {

class HloHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit HloHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression re;
    QTextCharFormat format;
    int group = 0;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
};

class DiffHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit DiffHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  QTextCharFormat added_, removed_, hunk_;
};

}  // namespace hloscope::views
