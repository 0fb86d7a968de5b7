#include "views/text/hlo_highlighter.h"

namespace hloscope::views {

LineStyleHighlighter::LineStyleHighlighter(const LineStyler* styler, QTextDocument* doc)
    : QSyntaxHighlighter(doc), styler_(styler) {}

void LineStyleHighlighter::highlightBlock(const QString& text) {
  runs_.clear();
  styler_->style(text, runs_);
  const auto& formats = styler_->formats();
  for (const StyledRun& r : runs_) setFormat(r.start, r.length, formats[static_cast<size_t>(r.format)]);
}

const HloSyntax& HloHighlighter::Syntax() {
  static const HloSyntax syntax;
  return syntax;
}

HloHighlighter::HloHighlighter(QTextDocument* doc) : LineStyleHighlighter(&Syntax(), doc) {}

const DiffSyntax& DiffHighlighter::Syntax() {
  static const DiffSyntax syntax;
  return syntax;
}

DiffHighlighter::DiffHighlighter(QTextDocument* doc) : LineStyleHighlighter(&Syntax(), doc) {}

}  // namespace hloscope::views
