// The colours of kernel code, one line at a time, for the LLVM IR, PTX and
// SASS tabs (a LineStyler, so that small texts in a QPlainTextEdit and large
// ones in the LargeTextView look the same): opcodes, registers and values,
// directives, labels, constants and comments. SASS as nvdisasm prints it:
// the /*0040*/ address and the /* 0x… */ encoding are muted.
#pragma once

#include <QRegularExpression>
#include <vector>

#include "views/text/hlo_syntax.h"

namespace hloscope::views {

class AsmSyntax : public LineStyler {
 public:
  enum class Dialect { kLlvmIr, kPtx, kSass };
  explicit AsmSyntax(Dialect dialect);
  const std::vector<QTextCharFormat>& formats() const override { return formats_; }
  void style(QStringView line, std::vector<StyledRun>& out) const override;

  enum Format { kOpcode, kRegister, kDirective, kLabel, kConstant, kComment, kMuted, kFormatCount };

 private:
  struct Rule {
    QRegularExpression re;
    int format = 0;
    int group = 0;
  };
  Dialect dialect_;
  std::vector<QTextCharFormat> formats_;
  std::vector<Rule> rules_;
};

}  // namespace hloscope::views
