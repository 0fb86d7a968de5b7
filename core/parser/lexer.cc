#include "core/parser/lexer.h"

#include "core/parser/name_scan.h"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace hloscope {
namespace {
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
// Identifier characters: letters, digits, '_', '$', '.', '-' (one table
// lookup in the lexer's hottest loop).
// `skip`: characters that may start whitespace or a comment.
struct IdentTable {
  bool ident[256] = {};
  bool skip[256] = {};
  constexpr IdentTable() {
    for (int c = 0; c < 256; ++c) {
      ident[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '$' || c == '.' || c == '-';
      skip[c] = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '/' || c == '#';
    }
  }
};
constexpr IdentTable kIdent;

// One-character tokens (kEof: not one).
struct SingleTable {
  Tok kind[256] = {};
  constexpr SingleTable() {
    for (Tok& k : kind) k = Tok::kEof;
    kind[static_cast<unsigned char>('=')] = Tok::kEqual;
    kind[static_cast<unsigned char>(',')] = Tok::kComma;
    kind[static_cast<unsigned char>(':')] = Tok::kColon;
    kind[static_cast<unsigned char>('[')] = Tok::kLsquare;
    kind[static_cast<unsigned char>(']')] = Tok::kRsquare;
    kind[static_cast<unsigned char>('{')] = Tok::kLbrace;
    kind[static_cast<unsigned char>('}')] = Tok::kRbrace;
    kind[static_cast<unsigned char>('(')] = Tok::kLparen;
    kind[static_cast<unsigned char>(')')] = Tok::kRparen;
    kind[static_cast<unsigned char>('?')] = Tok::kQuestion;
    kind[static_cast<unsigned char>('*')] = Tok::kStar;
  }
};
constexpr SingleTable kSingle;

// Newlines in [p, e), eight bytes at a time.
size_t CountNewlines(const char* p, const char* e) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL, kNewlines = 0x0a0a0a0a0a0a0a0aULL;
  size_t count = 0;
  for (; e - p >= 8; p += 8) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    x ^= kNewlines;  // a zero byte where there was a newline
    const uint64_t zero_bytes = ~(((x & kLow7) + kLow7) | x | kLow7);  // high bit of each zero byte
    count += static_cast<size_t>(((zero_bytes >> 7) * 0x0101010101010101ULL) >> 56);  // sum of the bytes
  }
  for (; p != e; ++p) count += *p == '\n';
  return count;
}
inline bool IsIdentChar(char c) { return kIdent.ident[static_cast<unsigned char>(c)]; }
}  // namespace

void Lexer::Advance(size_t n) {
  size_t end = pos_ + n;
  if (n > 64) {  // a long way (Seek into the middle of a file): count in bulk
    const char* base = src_.data();
    const char* p = base + pos_;
    const char* e = base + end;
    line_ += static_cast<int>(CountNewlines(p, e));
    for (const char* q = e; q != p; --q) {
      if (q[-1] == '\n') {
        line_start_ = static_cast<size_t>(q - base);
        break;
      }
    }
    pos_ = end;
    return;
  }
  for (; pos_ < end; ++pos_) {
    if (src_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
  }
}

void Lexer::Seek(size_t offset) {
  if (offset >= pos_) {
    Advance(offset - pos_);
    return;
  }
  // Backwards (a token or two): uncount the newlines we pass.
  int crossed = 0;
  for (size_t i = offset; i < pos_; ++i)
    if (src_[i] == '\n') ++crossed;
  line_ -= crossed;
  pos_ = offset;
  if (crossed == 0) return;  // same line: its start is unchanged
  size_t nl = offset == 0 ? std::string_view::npos : src_.rfind('\n', offset - 1);
  line_start_ = nl == std::string_view::npos ? 0 : nl + 1;
}

void Lexer::StartCountingAt(size_t offset) {
  pos_ = offset;
  line_ = 1;
  size_t nl = offset == 0 ? std::string_view::npos : src_.rfind('\n', offset - 1);
  line_start_ = nl == std::string_view::npos ? 0 : nl + 1;
}

void Lexer::LineCol(size_t offset, int* line, int* col) const {
  int l = 1;
  size_t ls = 0;
  for (size_t i = 0; i < offset && i < src_.size(); ++i) {
    if (src_[i] == '\n') {
      ++l;
      ls = i + 1;
    }
  }
  *line = l;
  *col = static_cast<int>(offset - ls) + 1;
}

void Lexer::SkipSpaceAndComments() {
  const size_t n = src_.size();
  while (pos_ < n) {
    char c = src_[pos_];
    if (c == ' ') {  // the common case: one space between tokens
      ++pos_;
      continue;
    }
    if (!kIdent.skip[static_cast<unsigned char>(c)]) return;  // a token starts here
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < n && src_[pos_ + 1] == '*') {
      size_t end = src_.find("*/", pos_ + 2);
      Advance((end == std::string_view::npos ? n : end + 2) - pos_);
    } else if (c == '/' && pos_ + 1 < n && src_[pos_ + 1] == '/') {
      size_t end = src_.find('\n', pos_);
      Advance((end == std::string_view::npos ? n : end) - pos_);
    } else if (c == '#' && (pos_ == 0 || src_[pos_ - 1] == '\n')) {
      // Tolerate shell-style comment lines at the start of a line.
      size_t end = src_.find('\n', pos_);
      Advance((end == std::string_view::npos ? n : end) - pos_);
    } else {
      break;
    }
  }
}

// Inlined into Next (dozens of call sites, most of them single-character tokens).
[[gnu::always_inline]] inline void Lexer::Make(Token* t, Tok k, size_t start, size_t end, int line, int col) {
  t->kind = k;
  t->text = std::string_view(src_.data() + start, end - start);
  t->offset = start;
  t->line = line;
  t->col = col;
  // Only strings (and an unterminated one, an error) can span lines.
  if (k == Tok::kString || k == Tok::kError) Advance(end - pos_);
  else pos_ = end;
}

bool Lexer::MatchDimLabels(size_t p, size_t* end) const {
  // [0-9bf?]{2,}_[0-9io?]{2,}->[0-9bf?]{2,}
  auto run = [&](size_t q, const char* extra) {
    size_t s = q;
    while (q < src_.size()) {
      char c = src_[q];
      if (IsDigit(c) || c == '?' || c == extra[0] || c == extra[1]) ++q;
      else break;
    }
    return q - s >= 2 ? q : std::string_view::npos;
  };
  size_t q = run(p, "bf");
  if (q == std::string_view::npos || q >= src_.size() || src_[q] != '_') return false;
  q = run(q + 1, "io");
  if (q == std::string_view::npos || q + 1 >= src_.size() || src_[q] != '-' || src_[q + 1] != '>')
    return false;
  q = run(q + 2, "bf");
  if (q == std::string_view::npos) return false;
  if (q < src_.size() && IsIdentChar(src_[q])) return false;
  *end = q;
  return true;
}

bool Lexer::MatchPad(size_t p, size_t* end) const {
  // -?\d+_-?\d+(_-?\d+)?(x -?\d+_-?\d+(_-?\d+)?)*
  size_t q = p;
  auto num = [&]() {
    if (q < src_.size() && src_[q] == '-') ++q;
    size_t s = q;
    while (q < src_.size() && IsDigit(src_[q])) ++q;
    return q > s;
  };
  for (;;) {
    if (!num()) return false;
    if (q >= src_.size() || src_[q] != '_') return false;
    ++q;
    if (!num()) return false;
    if (q < src_.size() && src_[q] == '_') {
      ++q;
      if (!num()) return false;
    }
    if (q < src_.size() && src_[q] == 'x') {
      ++q;
      continue;
    }
    break;
  }
  if (q < src_.size() && (IsIdentChar(src_[q]) && src_[q] != '.' && src_[q] != '-')) return false;
  *end = q;
  return true;
}

bool Lexer::MatchDxD(size_t p, size_t* end) const {
  size_t q = p;
  int parts = 0;
  for (;;) {
    size_t s = q;
    while (q < src_.size() && IsDigit(src_[q])) ++q;
    if (q == s) return false;
    ++parts;
    if (q < src_.size() && src_[q] == 'x' && q + 1 < src_.size() && IsDigit(src_[q + 1])) {
      ++q;
      continue;
    }
    break;
  }
  if (parts < 2) return false;
  if (q < src_.size() && IsIdentChar(src_[q]) && src_[q] != '-') return false;
  *end = q;
  return true;
}

bool Lexer::MatchNumber(size_t p, size_t* end, bool* is_float) const {
  size_t q = p;
  *is_float = false;
  if (q < src_.size() && (src_[q] == '-' || src_[q] == '+')) ++q;
  auto word = [&](std::string_view w) { return src_.substr(q, w.size()) == w; };
  if (word("inf") || word("nan")) {
    q += 3;
    if (q < src_.size() && src_[q] == '(') {  // nan(0x...)
      size_t close = src_.find(')', q);
      if (close == std::string_view::npos) return false;
      q = close + 1;
    }
    if (q < src_.size() && IsIdentChar(src_[q])) return false;
    *is_float = true;
    *end = q;
    return true;
  }
  size_t s = q;
  while (q < src_.size() && IsDigit(src_[q])) ++q;
  bool digits = q > s;
  if (q < src_.size() && src_[q] == '.' &&
      !(q + 2 < src_.size() && src_[q + 1] == '.' && src_[q + 2] == '.')) {
    ++q;
    size_t f = q;
    while (q < src_.size() && IsDigit(src_[q])) ++q;
    digits = digits || q > f;
    *is_float = true;
  }
  if (!digits) return false;
  if (q < src_.size() && (src_[q] == 'e' || src_[q] == 'E')) {
    size_t e = q + 1;
    if (e < src_.size() && (src_[e] == '+' || src_[e] == '-')) ++e;
    size_t ed = e;
    while (e < src_.size() && IsDigit(src_[e])) ++e;
    if (e > ed) {
      q = e;
      *is_float = true;
    }
  }
  *end = q;
  return true;
}

void Lexer::NextInto(Token* out) {
  // Most tokens follow zero or one plain space: only whitespace runs, line
  // breaks and comments take the general loop.
  const size_t n = src_.size();
  {
    size_t q = pos_;
    if (q < n && src_[q] == ' ') ++q;
    if (q < n && !kIdent.skip[static_cast<unsigned char>(src_[q])]) pos_ = q;
    else SkipSpaceAndComments();
  }
  // The commonest tokens, a name or a one-character token, in a few
  // instructions; the rest in NextSlow (kept out of line so that this part
  // stays small).
  const size_t start = pos_;
  if (start < n) {
    const unsigned char c = static_cast<unsigned char>(src_[start]);
    const Tok single = kSingle.kind[c];
    size_t end = 0;
    if (single != Tok::kEof) {
      end = start + 1;
    } else if (((c >= 'a' && c <= 'z' && c != 'b' && c != 'f') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$') ||
               (c == '%' && start + 1 < n && kNameCharTable.plain[static_cast<unsigned char>(src_[start + 1])])) {
      end = static_cast<size_t>(ScanNameChars(src_.data() + start + 1, src_.data() + n) - src_.data());
    }
    if (end) {
      out->kind = single != Tok::kEof ? single : Tok::kName;
      out->text = std::string_view(src_.data() + start, end - start);
      out->offset = start;
      out->line = line_;
      out->col = static_cast<int>(start - line_start_) + 1;
      pos_ = end;
      return;
    }
  }
  NextSlow(out);
}

[[gnu::noinline]] void Lexer::NextSlow(Token* out) {
  const size_t n = src_.size();
  int line = line_;
  int col = static_cast<int>(pos_ - line_start_) + 1;
  size_t start = pos_;
  if (pos_ >= n) return Make(out, Tok::kEof, n, n, line, col);
  char c = src_[pos_];
  size_t end;
  switch (c) {
    case '=': return Make(out, Tok::kEqual, start, start + 1, line, col);
    case ',': return Make(out, Tok::kComma, start, start + 1, line, col);
    case ':': return Make(out, Tok::kColon, start, start + 1, line, col);
    case '[': return Make(out, Tok::kLsquare, start, start + 1, line, col);
    case ']': return Make(out, Tok::kRsquare, start, start + 1, line, col);
    case '{': return Make(out, Tok::kLbrace, start, start + 1, line, col);
    case '}': return Make(out, Tok::kRbrace, start, start + 1, line, col);
    case '(': return Make(out, Tok::kLparen, start, start + 1, line, col);
    case ')': return Make(out, Tok::kRparen, start, start + 1, line, col);
    case '?': return Make(out, Tok::kQuestion, start, start + 1, line, col);
    case '*': return Make(out, Tok::kStar, start, start + 1, line, col);
    case '<':
      if (start + 1 < n && src_[start + 1] == '=') return Make(out, Tok::kLeq, start, start + 2, line, col);
      return Make(out, Tok::kError, start, start + 1, line, col);
    case '.':
      if (src_.substr(start, 3) == "...") return Make(out, Tok::kEllipsis, start, start + 3, line, col);
      break;
    case '"': {
      size_t q = start + 1;
      while (q < n && src_[q] != '"') {
        if (src_[q] == '\\') ++q;
        ++q;
      }
      if (q >= n) return Make(out, Tok::kError, start, n, line, col);
      return Make(out, Tok::kString, start, q + 1, line, col);
    }
    case '-':
      if (start + 1 < n && src_[start + 1] == '>') return Make(out, Tok::kArrow, start, start + 2, line, col);
      break;
    default:
      break;
  }
  if (IsDigit(c) || c == '-' || c == '+' || c == '.') {
    // Fast path for a plain integer (dims, layouts, indices): digits followed
    // by something that cannot continue a dim label, pad, DxD or float.
    {
      size_t q = start + (c == '-' ? 1 : 0);
      size_t digits = q;
      while (q < n && IsDigit(src_[q])) ++q;
      if (q > digits && (q >= n || (!IsIdentChar(src_[q]) && src_[q] != '?')))
        return Make(out, Tok::kInt, start, q, line, col);
    }
    if (MatchDimLabels(start, &end)) return Make(out, Tok::kDimLabels, start, end, line, col);
    if (MatchPad(start, &end)) return Make(out, Tok::kPad, start, end, line, col);
    if (MatchDxD(start, &end)) return Make(out, Tok::kDxD, start, end, line, col);
    bool is_float;
    if (MatchNumber(start, &end, &is_float))
      return Make(out, is_float ? Tok::kFloat : Tok::kInt, start, end, line, col);
    return Make(out, Tok::kError, start, start + 1, line, col);
  }
  if (IsIdentStart(c) || c == '%') {
    // Dim labels that start with a letter start with b or f (b01f_01io->b01f).
    // (Its first part is a run of digits, b, f and ? followed by '_': names
    // like broadcast, f32 and bf16 are rejected without the full match.)
    if (c == 'b' || c == 'f') {
      size_t r = start + 1;
      while (r < n && (IsDigit(src_[r]) || src_[r] == 'b' || src_[r] == 'f' || src_[r] == '?')) ++r;
      if (r < n && src_[r] == '_' && MatchDimLabels(start, &end)) return Make(out, Tok::kDimLabels, start, end, line, col);
    }
    const char* base = src_.data();
    const size_t q = static_cast<size_t>(ScanNameChars(base + start + 1, base + n) - base);
    if (c == '%' && q == start + 1) return Make(out, Tok::kError, start, q, line, col);
    return Make(out, Tok::kName, start, q, line, col);
  }
  return Make(out, Tok::kError, start, start + 1, line, col);
}

std::string_view Lexer::ScanRaw(size_t offset, bool* ok, bool allow_spaces) {
  Seek(offset);
  SkipSpaceAndComments();
  const size_t n = src_.size();
  size_t start = pos_;
  size_t q = pos_;
  int depth = 0;
  *ok = true;
  while (q < n) {
    char c = src_[q];
    if (c == '"' || (c == '\'' && depth > 0)) {
      char quote = c;
      ++q;
      while (q < n && src_[q] != quote) {
        if (src_[q] == '\\') ++q;
        ++q;
      }
      if (q >= n) {  // unterminated (a backslash at the very end steps past it)
        q = n;
        *ok = false;
        break;
      }
      ++q;
      continue;
    }
    if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      if (depth == 0) break;
      --depth;
    } else if (depth == 0 && (c == ' ' || c == '\t')) {
      if (!allow_spaces) break;
      // A value may continue after spaces on the same line
      // (`mesh['a'=4] {'a'}`, `literal=s32[] 1`); stop before a comma, a
      // line end, a comment or a closing bracket.
      size_t r = q;
      while (r < n && (src_[r] == ' ' || src_[r] == '\t')) ++r;
      if (r >= n || src_[r] == ',' || src_[r] == '\n' || src_[r] == '\r' || src_[r] == '/' ||
          src_[r] == '}' || src_[r] == ')' || src_[r] == ']')
        break;
      q = r;
      continue;
    } else if (depth == 0 && (c == ',' || c == '\n' || c == '\r')) {
      break;
    }
    ++q;
  }
  if (depth != 0) *ok = false;
  Advance(q - pos_);
  return src_.substr(start, q - start);
}

std::string UnquoteString(std::string_view q) {
  std::string out;
  if (q.size() < 2) return out;
  out.reserve(q.size());
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    char c = q[i];
    if (c == '\\' && i + 2 < q.size()) {
      char e = q[++i];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '\\': out += '\\'; break;
        case '"': out += '"'; break;
        case '\'': out += '\''; break;
        default: out += '\\'; out += e; break;
      }
    } else {
      out += c;
    }
  }
  return out;
}

std::string QuoteString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += '"';
  return out;
}

}  // namespace hloscope
