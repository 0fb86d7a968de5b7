// The colours of HLO text and of unified diffs, one line at a time: shared by
// the QSyntaxHighlighters of small texts (hlo_highlighter.h) and the painter
// of large ones (large_text_view.h), so that both look the same.
#pragma once

#include <QRegularExpression>
#include <QString>
#include <QStringView>
#include <QTextCharFormat>
#include <vector>

namespace hloscope::views {

// A character format of `color` (a CSS colour name or #rrggbb).
QTextCharFormat TextFormat(const char* color, bool bold = false, bool italic = false);

// A stretch of a line and the format it is drawn in (an index into the
// styler's formats()).
struct StyledRun {
  int start = 0;
  int length = 0;
  int format = 0;
};

class LineStyler {
 public:
  virtual ~LineStyler() = default;
  // The formats runs refer to.
  virtual const std::vector<QTextCharFormat>& formats() const = 0;
  // Formats for parts of `line`, in the order they apply (a later run wins
  // where runs overlap), the way QSyntaxHighlighter::setFormat applies them.
  virtual void style(QStringView line, std::vector<StyledRun>& out) const = 0;
};

// HLO: keywords (HloModule, ENTRY, ROOT), instruction names, opcodes, shapes,
// attribute names, strings and comments.
class HloSyntax : public LineStyler {
 public:
  HloSyntax();
  const std::vector<QTextCharFormat>& formats() const override { return formats_; }
  void style(QStringView line, std::vector<StyledRun>& out) const override;

 private:
  struct Rule {
    QRegularExpression re;
    int format = 0;
    int group = 0;
  };
  std::vector<QTextCharFormat> formats_;
  std::vector<Rule> rules_;
  QRegularExpression block_comment_;
  int comment_ = 0;
};

// Unified diffs: added and removed lines, hunk and file headers.
class DiffSyntax : public LineStyler {
 public:
  DiffSyntax();
  const std::vector<QTextCharFormat>& formats() const override { return formats_; }
  void style(QStringView line, std::vector<StyledRun>& out) const override;

  enum Format { kAdded, kRemoved, kHunk };

 private:
  std::vector<QTextCharFormat> formats_;
};

// Overlapping runs (later wins) → non-overlapping runs sorted by start,
// clipped to [0, length); unstyled stretches are left out.
std::vector<StyledRun> FlattenRuns(const std::vector<StyledRun>& runs, int length);

}  // namespace hloscope::views
