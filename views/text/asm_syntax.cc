#include "views/text/asm_syntax.h"

namespace hloscope::views {

AsmSyntax::AsmSyntax(Dialect dialect) : dialect_(dialect) {
  formats_.resize(kFormatCount);
  formats_[kOpcode] = TextFormat("#1565c0", true);
  formats_[kRegister] = TextFormat("#5d4037");
  formats_[kDirective] = TextFormat("#6a1b9a");
  formats_[kLabel] = TextFormat("#bf360c", true);
  formats_[kConstant] = TextFormat("#00796b");
  formats_[kComment] = TextFormat("#9e9e9e", false, true);
  formats_[kMuted] = TextFormat("#b0b0b0");
  // Later rules win where they overlap.
  switch (dialect) {
    case Dialect::kLlvmIr:
      rules_.push_back({QRegularExpression(R"(\b(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|0x[0-9A-Fa-f]+)\b)"), kConstant, 0});
      rules_.push_back({QRegularExpression(R"(\b(?:i\d+|half|bfloat|float|double|ptr|void)\b)"), kDirective, 0});
      rules_.push_back({QRegularExpression(R"([%@][\w.$\-]+)"), kRegister, 0});
      // The instruction after "%x = " or at the start of a statement.
      rules_.push_back({QRegularExpression(R"(^\s*(?:[%@][\w.$\-]+\s*=\s*)?(?:tail\s+)?([a-z][a-z0-9_.]*)\b)"), kOpcode, 1});
      rules_.push_back({QRegularExpression(R"(^\s*(define|declare|attributes)\b)"), kOpcode, 1});
      rules_.push_back({QRegularExpression(R"(^([\w.$\-]+):)"), kLabel, 1});
      rules_.push_back({QRegularExpression(R"(;.*$)"), kComment, 0});
      break;
    case Dialect::kPtx:
      rules_.push_back({QRegularExpression(R"(\b(?:-?\d+|0[fFdD][0-9A-Fa-f]+|0x[0-9A-Fa-f]+)\b)"), kConstant, 0});
      rules_.push_back({QRegularExpression(R"(%[\w.$]+)"), kRegister, 0});
      rules_.push_back({QRegularExpression(R"(^\s*(?:@!?%[\w.$]+\s+)?([a-z][a-z0-9_]*(?:\.[\w]+)*))"), kOpcode, 1});
      rules_.push_back({QRegularExpression(R"((?:^|\s)(\.[a-z][\w]*))"), kDirective, 1});
      rules_.push_back({QRegularExpression(R"(^\s*([\w$]+):)"), kLabel, 1});
      rules_.push_back({QRegularExpression(R"(//.*$)"), kComment, 0});
      break;
    case Dialect::kSass:
      rules_.push_back({QRegularExpression(R"(\b(?:-?\d+(?:\.\d+)?|0x[0-9a-fA-F]+)\b|\bc\[[^\]]*\]\[[^\]]*\])"), kConstant, 0});
      rules_.push_back({QRegularExpression(R"(\b(?:R\d+|RZ|UR\d+|URZ|P\d|PT|UP\d|UPT|SR_\w+)\b)"), kRegister, 0});
      // The opcode: the first upper-case word after the address (and an
      // optional @P0 predicate).
      rules_.push_back({QRegularExpression(R"(\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*))"), kOpcode, 1});
      rules_.push_back({QRegularExpression(R"(^\s*\.[\w.]+)"), kDirective, 0});
      rules_.push_back({QRegularExpression(R"(^\s*(\.?[\w$.]+):)"), kLabel, 1});
      rules_.push_back({QRegularExpression(R"(^\s*/\*[0-9a-f]+\*/)"), kMuted, 0});
      rules_.push_back({QRegularExpression(R"(/\* 0x[0-9a-f]+ \*/)"), kMuted, 0});
      rules_.push_back({QRegularExpression(R"(//.*$)"), kComment, 0});
      break;
  }
}

void AsmSyntax::style(QStringView line, std::vector<StyledRun>& out) const {
  for (const Rule& r : rules_) {
    auto it = r.re.globalMatch(line);
    while (it.hasNext()) {
      QRegularExpressionMatch m = it.next();
      if (m.capturedLength(r.group) == 0) continue;
      out.push_back({static_cast<int>(m.capturedStart(r.group)), static_cast<int>(m.capturedLength(r.group)), r.format});
    }
  }
}

}  // namespace hloscope::views
