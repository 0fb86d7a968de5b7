#include "core/support/proto_text.h"

#include <cctype>
#include <cstdio>

namespace hloscope {

const ProtoTextField* ProtoTextField::Find(std::string_view n) const {
  for (const auto& f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 100;

class Reader {
 public:
  Reader(std::string_view text, const std::string& origin) : t_(text), origin_(origin) {}

  StatusOr<std::vector<ProtoTextField>> ReadAll() {
    std::vector<ProtoTextField> out;
    RETURN_IF_ERROR(ReadFields(&out, '\0', 0));
    return out;
  }

 private:
  // Reads fields until `close` (or the end of the text when close is '\0').
  Status ReadFields(std::vector<ProtoTextField>* out, char close, int depth) {
    for (;;) {
      Skip();
      if (pos_ >= t_.size()) {
        if (close == '\0') return Status::Ok();
        return Status::Error("");  // the caller reports the unterminated message where it opened
      }
      if (close != '\0' && t_[pos_] == close) {
        ++pos_;
        return Status::Ok();
      }
      RETURN_IF_ERROR(ReadField(out, depth));
      Skip();
      if (pos_ < t_.size() && (t_[pos_] == ',' || t_[pos_] == ';')) ++pos_;
    }
  }

  Status ReadField(std::vector<ProtoTextField>* out, int depth) {
    ProtoTextField f;
    f.begin = pos_;
    Where(pos_, &f.line, &f.col);
    if (t_[pos_] == '[') {  // an extension or Any type name: [pkg.name]
      size_t close = t_.find(']', pos_);
      if (close == std::string_view::npos) return ErrorAt(pos_, "unterminated '[' in a field name");
      f.name = std::string(t_.substr(pos_, close + 1 - pos_));
      pos_ = close + 1;
    } else if (IsIdentStart(t_[pos_])) {
      size_t b = pos_;
      while (pos_ < t_.size() && IsIdentChar(t_[pos_])) ++pos_;
      f.name = std::string(t_.substr(b, pos_ - b));
    } else {
      return ErrorAt(pos_, std::string("expected a field name, found '") + Printable(t_[pos_]) + "'");
    }
    Skip();
    bool colon = false;
    if (pos_ < t_.size() && t_[pos_] == ':') {
      colon = true;
      ++pos_;
      Skip();
    }
    if (pos_ >= t_.size()) return ErrorAt(pos_, "expected a value for field '" + f.name + "', found the end of the input");
    char c = t_[pos_];
    if (c == '{' || c == '<') {
      RETURN_IF_ERROR(ReadMessageBody(&f, depth));
      f.end = pos_;
      out->push_back(std::move(f));
      return Status::Ok();
    }
    if (c == '[' && colon) {  // a list: several values of one field
      size_t open = pos_++;
      for (;;) {
        Skip();
        if (pos_ >= t_.size()) return ErrorAt(open, "unterminated list '[' of field '" + f.name + "'");
        if (t_[pos_] == ']') {
          ++pos_;
          return Status::Ok();
        }
        ProtoTextField item;
        item.name = f.name;
        item.line = f.line;
        item.col = f.col;
        item.begin = pos_;
        if (t_[pos_] == '{' || t_[pos_] == '<') {
          RETURN_IF_ERROR(ReadMessageBody(&item, depth));
        } else {
          RETURN_IF_ERROR(ReadScalar(&item));
        }
        item.end = pos_;
        out->push_back(std::move(item));
        Skip();
        if (pos_ < t_.size() && t_[pos_] == ',') ++pos_;
      }
    }
    if (!colon) return ErrorAt(pos_, "expected ':' or '{' after field name '" + f.name + "'");
    RETURN_IF_ERROR(ReadScalar(&f));
    f.end = pos_;
    out->push_back(std::move(f));
    return Status::Ok();
  }

  Status ReadMessageBody(ProtoTextField* f, int depth) {
    if (depth >= kMaxDepth) return ErrorAt(pos_, "messages nested deeper than " + std::to_string(kMaxDepth));
    size_t open = pos_;
    char close = t_[pos_] == '{' ? '}' : '>';
    ++pos_;
    f->is_message = true;
    Status s = ReadFields(&f->fields, close, depth + 1);
    if (!s.ok()) {
      if (!s.message().empty()) return s;
      return ErrorAt(open, "unterminated message '" + f->name + "': no '" + std::string(1, close) +
                               "' before the end of the input");
    }
    return Status::Ok();
  }

  Status ReadScalar(ProtoTextField* f) {
    char c = t_[pos_];
    if (c == '"' || c == '\'') {
      f->is_string = true;
      // Adjacent string literals concatenate.
      while (pos_ < t_.size() && (t_[pos_] == '"' || t_[pos_] == '\'')) {
        RETURN_IF_ERROR(ReadString(&f->scalar));
        Skip();
      }
      return Status::Ok();
    }
    size_t b = pos_;
    while (pos_ < t_.size() && (IsIdentChar(t_[pos_]) || t_[pos_] == '.' || t_[pos_] == '-' || t_[pos_] == '+'))
      ++pos_;
    if (pos_ == b)
      return ErrorAt(pos_, std::string("expected a value for field '") + f->name + "', found '" + Printable(c) + "'");
    f->scalar = std::string(t_.substr(b, pos_ - b));
    return Status::Ok();
  }

  Status ReadString(std::string* out) {
    size_t open = pos_;
    char q = t_[pos_++];
    while (pos_ < t_.size() && t_[pos_] != q) {
      char c = t_[pos_++];
      if (c == '\n') return ErrorAt(open, "unterminated string");
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= t_.size()) break;
      char e = t_[pos_++];
      switch (e) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'a': out->push_back('\a'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'v': out->push_back('\v'); break;
        case 'x': {
          int v = 0, n = 0;
          while (n < 2 && pos_ < t_.size() && std::isxdigit(static_cast<unsigned char>(t_[pos_]))) {
            char h = t_[pos_++];
            v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
            ++n;
          }
          if (n == 0) return ErrorAt(pos_ - 2, "\\x escape without hex digits");
          out->push_back(static_cast<char>(v));
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0', n = 1;
            while (n < 3 && pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '7') {
              v = v * 8 + (t_[pos_++] - '0');
              ++n;
            }
            out->push_back(static_cast<char>(v & 0xff));
          } else {
            out->push_back(e);  // \" \' \\ \? and anything else as itself
          }
      }
    }
    if (pos_ >= t_.size()) return ErrorAt(open, "unterminated string");
    ++pos_;  // the closing quote
    return Status::Ok();
  }

  void Skip() {
    while (pos_ < t_.size()) {
      char c = t_[pos_];
      if (c == '#') {
        while (pos_ < t_.size() && t_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else {
        break;
      }
    }
  }

  // Line and column of byte `at`, counted incrementally (positions only grow
  // between calls except for errors at an earlier opening brace).
  void Where(size_t at, int* line, int* col) {
    if (at < line_pos_) {
      line_pos_ = 0;
      line_ = 1;
      line_start_ = 0;
    }
    for (; line_pos_ < at && line_pos_ < t_.size(); ++line_pos_) {
      if (t_[line_pos_] == '\n') {
        ++line_;
        line_start_ = line_pos_ + 1;
      }
    }
    *line = line_;
    *col = static_cast<int>(at - line_start_) + 1;
  }

  Status ErrorAt(size_t at, const std::string& what) {
    int line, col;
    Where(at, &line, &col);
    return Status::Error(origin_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + what);
  }

  static bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
  static std::string Printable(char c) {
    if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    return buf;
  }

  std::string_view t_;
  const std::string& origin_;
  size_t pos_ = 0;
  size_t line_pos_ = 0, line_start_ = 0;
  int line_ = 1;
};

}  // namespace

StatusOr<std::vector<ProtoTextField>> ParseProtoText(std::string_view text, const std::string& origin) {
  return Reader(text, origin).ReadAll();
}

}  // namespace hloscope
