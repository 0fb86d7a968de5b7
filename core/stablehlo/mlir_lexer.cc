#include "core/stablehlo/mlir_lexer.h"

#include <cctype>

namespace hloscope::mlir {
namespace {
bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }
}  // namespace

void Lexer::Advance() {
  if (text_[i_] == '\n') {
    ++line_;
    col_ = 1;
  } else {
    ++col_;
  }
  ++i_;
}

void Lexer::SkipSpace() {
  while (i_ < text_.size()) {
    char c = text_[i_];
    if (std::isspace(static_cast<unsigned char>(c))) {
      Advance();
    } else if (c == '/' && i_ + 1 < text_.size() && text_[i_ + 1] == '/') {
      while (i_ < text_.size() && text_[i_] != '\n') Advance();
    } else {
      break;
    }
  }
}

Token Lexer::Peek() {
  size_t i = i_;
  int l = line_, c = col_;
  Token t = Next();
  i_ = i;
  line_ = l;
  col_ = c;
  return t;
}

Token Lexer::Next() {
  SkipSpace();
  Token t;
  t.pos = pos();
  t.begin = i_;
  if (i_ >= text_.size()) {
    t.kind = Token::kEof;
    t.end = i_;
    return t;
  }
  char c = text_[i_];
  auto take_while = [&](auto pred) {
    while (i_ < text_.size() && pred(text_[i_])) Advance();
  };
  if (c == '"') {
    Advance();
    std::string s;
    while (i_ < text_.size() && text_[i_] != '"') {
      if (text_[i_] == '\\' && i_ + 1 < text_.size()) {
        Advance();
        char e = text_[i_];
        if (e == 'n') s += '\n';
        else if (e == 't') s += '\t';
        else if (std::isxdigit(static_cast<unsigned char>(e)) && i_ + 1 < text_.size() &&
                 std::isxdigit(static_cast<unsigned char>(text_[i_ + 1]))) {
          s += static_cast<char>(std::stoi(std::string(text_.substr(i_, 2)), nullptr, 16));
          Advance();
        } else {
          s += e;
        }
        Advance();
        continue;
      }
      s += text_[i_];
      Advance();
    }
    if (i_ >= text_.size()) {
      t.kind = Token::kError;
      t.text = "unterminated string";
    } else {
      Advance();
      t.kind = Token::kString;
      t.text = std::move(s);
    }
  } else if (c == '%' || c == '@' || c == '#' || c == '^' || c == '!') {
    Advance();
    if (c == '@' && i_ < text_.size() && text_[i_] == '"') {
      Token s = Next();
      t.kind = Token::kSymbol;
      t.text = s.text;
      t.end = i_;
      return t;
    }
    take_while([](char ch) { return IdentChar(ch) || ch == '-'; });
    if (c == '%' && i_ < text_.size() && text_[i_] == '#') {
      Advance();
      take_while([](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    }
    t.kind = c == '%' ? Token::kValue : c == '@' ? Token::kSymbol : c == '^' ? Token::kCaret
             : c == '!' ? Token::kIdent : Token::kHash;
    t.text = std::string(text_.substr(t.begin + (c == '!' ? 0 : 1), i_ - t.begin - (c == '!' ? 0 : 1)));
  } else if (std::isdigit(static_cast<unsigned char>(c)) ||
             (c == '-' && i_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i_ + 1])))) {
    Advance();
    bool is_float = false;
    if (c == '0' && i_ < text_.size() && (text_[i_] == 'x' || text_[i_] == 'X') && i_ + 1 < text_.size() &&
        std::isxdigit(static_cast<unsigned char>(text_[i_ + 1]))) {
      Advance();
      take_while([](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)); });
    } else {
      take_while([](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
      if (i_ < text_.size() && text_[i_] == '.') {
        is_float = true;
        Advance();
        take_while([](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
      }
      if (i_ < text_.size() && (text_[i_] == 'e' || text_[i_] == 'E') && i_ + 1 < text_.size() &&
          (std::isdigit(static_cast<unsigned char>(text_[i_ + 1])) || text_[i_ + 1] == '+' || text_[i_ + 1] == '-')) {
        is_float = true;
        Advance();
        if (text_[i_] == '+' || text_[i_] == '-') Advance();
        take_while([](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
      }
    }
    t.kind = is_float ? Token::kFloat : Token::kInt;
    t.text = std::string(text_.substr(t.begin, i_ - t.begin));
  } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    take_while(IdentChar);
    t.kind = Token::kIdent;
    t.text = std::string(text_.substr(t.begin, i_ - t.begin));
  } else if (c == '-' && i_ + 1 < text_.size() && text_[i_ + 1] == '>') {
    Advance();
    Advance();
    t.kind = Token::kPunct;
    t.text = "->";
  } else {
    Advance();
    t.kind = Token::kPunct;
    t.text = std::string(1, c);
  }
  t.end = i_;
  return t;
}

std::string Lexer::RawUntilClose(char open, char close, bool* ok) {
  size_t start = i_;
  int depth = 1;
  bool in_str = false;
  while (i_ < text_.size()) {
    char c = text_[i_];
    if (in_str) {
      if (c == '\\') Advance();
      else if (c == '"') in_str = false;
    } else if (c == '"') {
      in_str = true;
    } else if (c == open || (open == '<' && c == '(') || (open == '(' && c == '<')) {
      if (c == open) ++depth;
    } else if (c == close && !(close == '>' && i_ > 0 && text_[i_ - 1] == '-')) {
      if (--depth == 0) {
        std::string s(text_.substr(start, i_ - start));
        Advance();
        *ok = true;
        return s;
      }
    }
    if (i_ < text_.size()) Advance();
  }
  *ok = false;
  return {};
}

}  // namespace hloscope::mlir
