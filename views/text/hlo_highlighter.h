// QSyntaxHighlighters for small texts in a QPlainTextEdit: HLO text and
// unified diffs, coloured by the per-line rules of hlo_syntax.h (which the
// large-text viewer paints with too).
#pragma once

#include <QSyntaxHighlighter>
#include <vector>

#include "views/text/hlo_syntax.h"

namespace hloscope::views {

class LineStyleHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  // `styler` must outlive the highlighter.
  LineStyleHighlighter(const LineStyler* styler, QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  const LineStyler* styler_;
  std::vector<StyledRun> runs_;
};

class HloHighlighter : public LineStyleHighlighter {
  Q_OBJECT

 public:
  explicit HloHighlighter(QTextDocument* doc);

 private:
  static const HloSyntax& Syntax();
};

class DiffHighlighter : public LineStyleHighlighter {
  Q_OBJECT

 public:
  explicit DiffHighlighter(QTextDocument* doc);

 private:
  static const DiffSyntax& Syntax();
};

}  // namespace hloscope::views
