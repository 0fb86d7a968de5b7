// Tokens of MLIR text, read on demand so the parser can also scan raw
// bracketed text (types, dense<...>, loc(...)) that MLIR does not tokenise.
#pragma once
#include <string>
#include <string_view>

#include "core/stablehlo/mlir_ast.h"

namespace hloscope::mlir {

struct Token {
  enum Kind { kEof, kIdent, kValue, kSymbol, kHash, kCaret, kString, kInt, kFloat, kPunct, kError } kind = kEof;
  std::string text;  // for kString the unescaped contents; punct "->" is one token
  Pos pos;
  size_t begin = 0, end = 0;  // byte offsets in the text
};

class Lexer {
 public:
  Lexer(std::string_view text, int line_offset = 0) : text_(text), line_(1 + line_offset) {}
  Token Next();
  Token Peek();
  // Raw text from the current position up to (not including) the `close`
  // that balances an already consumed `open`; consumes the close. Empty and
  // *ok=false if unbalanced.
  std::string RawUntilClose(char open, char close, bool* ok);
  Pos pos() const { return Pos{line_, col_}; }
  size_t offset() const { return i_; }

 private:
  void SkipSpace();
  void Advance();
  std::string_view text_;
  size_t i_ = 0;
  int line_ = 1, col_ = 1;
};

}  // namespace hloscope::mlir
