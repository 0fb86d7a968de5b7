// Lexer for HLO text, written for our parser from the grammar XLA's
// hlo_lexer accepts. Tokens are views into the source text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hloscope {

enum class Tok {
  kEof,
  kError,
  kName,       // identifiers and %names: add.1, %fused_computation, get-tuple-element
  kInt,        // 12, -3
  kFloat,      // 1.5, -2e-3, inf, -nan (kName for bare inf/nan; see parser)
  kString,     // "..." (text includes the quotes)
  kDimLabels,  // b01f_01io->b01f
  kDxD,        // 3x3
  kPad,        // 0_0x1_1
  kEqual,      // =
  kComma,
  kColon,
  kLsquare,
  kRsquare,
  kLbrace,
  kRbrace,
  kLparen,
  kRparen,
  kArrow,      // ->
  kLeq,        // <=
  kQuestion,   // ?
  kStar,       // *
  kEllipsis,   // ...
};

struct Token {
  Tok kind = Tok::kEof;
  std::string_view text;
  size_t offset = 0;
  int line = 1, col = 1;
};

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  Token Next() {
    Token t;
    NextInto(&t);
    return t;
  }
  // Next() written into *out (the parser's current token: no copy).
  void NextInto(Token* out);
  // Scans a verbatim attribute value starting at `offset` (after skipping
  // whitespace): a balanced {...}/[...]/(...) group or a run of non-space
  // characters, stopping at a depth-0 ',' '}' ')' or whitespace. Strings and
  // nesting are respected. Returns the value text; positions after it.
  std::string_view ScanRaw(size_t offset, bool* ok, bool allow_spaces = false);
  // Repositions the lexer (line/col recomputed incrementally).
  void Seek(size_t offset);
  // Moves forward to `offset` over text known to hold no newline.
  void SkipOnLine(size_t offset) { pos_ = offset; }
  // Starts reading at `offset` counting lines from 1 there (columns stay
  // right), without counting the newlines before it; ShiftLines later adds
  // the true line number of that line minus one.
  void StartCountingAt(size_t offset);
  void ShiftLines(int delta) { line_ += delta; }
  std::string_view source() const { return src_; }
  // Line and column (1-based) of an offset.
  void LineCol(size_t offset, int* line, int* col) const;

 private:
  std::string_view src_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;

  void SkipSpaceAndComments();
  void NextSlow(Token* out);  // NextInto for every token but names and one-character ones
  void Advance(size_t n);
  void Make(Token* t, Tok k, size_t start, size_t end, int line, int col);
  bool MatchDimLabels(size_t p, size_t* end) const;
  bool MatchPad(size_t p, size_t* end) const;
  bool MatchDxD(size_t p, size_t* end) const;
  bool MatchNumber(size_t p, size_t* end, bool* is_float) const;
};

// Decodes a quoted string token's escapes (text includes the quotes).
std::string UnquoteString(std::string_view quoted);
// Quotes and escapes a string for HLO text.
std::string QuoteString(std::string_view s);

}  // namespace hloscope
