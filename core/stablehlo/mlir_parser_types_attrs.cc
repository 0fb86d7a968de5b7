// The MLIR parser's types and attribute values (ops, regions and modules are
// in mlir_parser.cc): integer literals, tensor/tuple/token types
// (ParseTypeText), attribute values (lists, dicts, dense<...>, array<...>,
// #enum<...>, `value : type`) and attribute dictionaries, plus the methods of
// the AST's Type and Attr.
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <memory>

#include "core/stablehlo/mlir_parser_internal.h"

namespace hloscope::mlir {

bool ParseInteger(const std::string& text, int64_t* v) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long x = std::strtoll(text.c_str(), &end, 0);
  if (errno == 0 && end && *end == '\0') {
    *v = x;
    return true;
  }
  if (text[0] == '-') return false;
  errno = 0;
  unsigned long long u = std::strtoull(text.c_str(), &end, 0);
  if (errno != 0 || !end || *end != '\0') return false;
  *v = static_cast<int64_t>(u);
  return true;
}

bool Type::IsStatic() const {
  if (kind == kTuple) {
    for (const Type& t : tuple)
      if (!t.IsStatic()) return false;
    return true;
  }
  for (int64_t d : dims)
    if (d < 0) return false;
  return !bounded;
}

Attr& Attr::operator=(const Attr& o) {
  if (this == &o) return *this;
  kind = o.kind;
  raw = o.raw;
  i = o.i;
  f = o.f;
  s = o.s;
  items = o.items;
  fields = o.fields;
  type = o.type ? std::make_unique<Type>(*o.type) : nullptr;
  return *this;
}

const Attr* Attr::Field(const std::string& k) const {
  for (const auto& [n, v] : fields)
    if (n == k) return &v;
  return nullptr;
}

bool Attr::Ints(std::vector<int64_t>* out) const {
  out->clear();
  if (kind == kInt) {
    out->push_back(i);
    return true;
  }
  if (kind == kBool) {
    out->push_back(i);
    return true;
  }
  if (kind == kList) {
    for (const Attr& a : items) {
      if (a.kind != kInt && a.kind != kBool) return false;
      out->push_back(a.i);
    }
    return true;
  }
  if (kind == kDense) {
    std::string b = s;
    std::string cur;
    for (char c : b + ",") {
      if (c == '[' || c == ']' || c == ' ' || c == '\n') continue;
      if (c == ',') {
        if (!cur.empty()) {
          if (cur == "true") out->push_back(1);
          else if (cur == "false") out->push_back(0);
          else {
            try {
              out->push_back(std::stoll(cur, nullptr, 0));
            } catch (...) {
              return false;
            }
          }
        }
        cur.clear();
      } else {
        cur += c;
      }
    }
    return true;
  }
  return false;
}

StatusOr<Type> ParseTypeText(std::string_view text) {
  Type t;
  t.text = std::string(text);
  std::string_view s = text;
  auto trim = [](std::string_view v) {
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
    return v;
  };
  s = trim(s);
  if (s.starts_with("!stablehlo.token") || s.starts_with("!mhlo.token")) {
    t.kind = Type::kToken;
    return t;
  }
  if (s.starts_with("tuple<") && s.ends_with(">")) {
    t.kind = Type::kTuple;
    std::string_view in = s.substr(6, s.size() - 7);
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= in.size(); ++i) {
      if (i == in.size() || (in[i] == ',' && depth == 0)) {
        std::string_view part = trim(in.substr(start, i - start));
        if (!part.empty()) {
          auto e = ParseTypeText(part);
          if (!e.ok()) return e.status();
          t.tuple.push_back(std::move(*e));
        }
        start = i + 1;
      } else if (in[i] == '<' || in[i] == '(') {
        ++depth;
      } else if ((in[i] == '>' && !(i > 0 && in[i - 1] == '-')) || in[i] == ')') {
        --depth;
      }
    }
    return t;
  }
  if (s.starts_with("tensor<") && s.ends_with(">")) {
    std::string_view in = s.substr(7, s.size() - 8);
    while (!in.empty() && (std::isdigit(static_cast<unsigned char>(in[0])) || in[0] == '?')) {
      size_t j = 0;
      int64_t d = -1;
      if (in[0] == '?') {
        j = 1;
      } else {
        while (j < in.size() && std::isdigit(static_cast<unsigned char>(in[j]))) ++j;
        if (!ParseInteger(std::string(in.substr(0, j)), &d)) return Error("bad tensor type '" + std::string(s) + "'");
      }
      if (j >= in.size() || in[j] != 'x') return Error("bad tensor type '" + std::string(s) + "'");
      t.dims.push_back(d);
      in.remove_prefix(j + 1);
    }
    // element type up to a top-level ',' (encoding)
    int depth = 0;
    size_t i = 0;
    for (; i < in.size(); ++i) {
      if (in[i] == '<') ++depth;
      else if (in[i] == '>') --depth;
      else if (in[i] == ',' && depth == 0) break;
    }
    t.element = std::string(trim(in.substr(0, i)));
    if (i < in.size()) t.bounded = true;
    return t;
  }
  // A bare element type (scalar).
  t.element = std::string(s);
  t.kind = Type::kOther;
  return t;
}

StatusOr<Type> Parser::ParseType() {
  Token t = lex_.Next();
  if (t.kind != Token::kIdent) return Err(t, "expected a type, got '" + t.text + "'");
  std::string text = t.text;
  if (lex_.Peek().text == "<" && lex_.Peek().begin == t.end) {
    lex_.Next();
    bool ok;
    std::string in = lex_.RawUntilClose('<', '>', &ok);
    if (!ok) return Err(t, "unbalanced '<' in type");
    text += "<" + in + ">";
  }
  auto ty = ParseTypeText(text);
  if (!ty.ok()) return Err(t, ty.status().message());
  return ty;
}

// `T` or `(T, T)`.
Status Parser::ParseTypeOrList(std::vector<Type>* out, bool allow_attrs, std::vector<std::string>* attrs) {
  if (Accept("(")) {
    if (Accept(")")) return Status::Ok();
    do {
      ASSIGN_OR_RETURN(Type t, ParseType());
      out->push_back(std::move(t));
      std::string a;
      if (allow_attrs && lex_.Peek().text == "{") {
        lex_.Next();
        bool ok;
        a = lex_.RawUntilClose('{', '}', &ok);
      }
      if (attrs) attrs->push_back(a);
      std::string loc;
      RETURN_IF_ERROR(ParseTrailingLoc(&loc));
    } while (Accept(","));
    return Expect(")");
  }
  ASSIGN_OR_RETURN(Type t, ParseType());
  out->push_back(std::move(t));
  if (attrs) attrs->push_back("");
  return Status::Ok();
}

StatusOr<Attr> Parser::ParseAttrValue(bool allow_type_suffix) {
  Token t = lex_.Next();
  Attr a;
  size_t begin = t.begin;
  auto finish = [&](Attr& v) {
    v.raw = "";
    return Status::Ok();
  };
  (void)finish;
  if (t.kind == Token::kPunct && t.text == "[") {
    a.kind = Attr::kList;
    if (!Accept("]")) {
      do {
        ASSIGN_OR_RETURN(Attr e, ParseAttrValue(true));
        a.items.push_back(std::move(e));
      } while (Accept(","));
      RETURN_IF_ERROR(Expect("]"));
    }
    if (lex_.Peek().kind == Token::kIdent && lex_.Peek().text == "x") {
      lex_.Next();
      ASSIGN_OR_RETURN(Attr rhs, ParseAttrValue(false));
      Attr p;
      p.kind = Attr::kPair;
      p.items.push_back(std::move(a));
      p.items.push_back(std::move(rhs));
      a = std::move(p);
    }
  } else if (t.kind == Token::kPunct && t.text == "{") {
    a.kind = Attr::kDict;
    RETURN_IF_ERROR(ParseDictBody(&a.fields, "}"));
  } else if (t.kind == Token::kInt) {
    a.kind = Attr::kInt;
    if (!ParseInteger(t.text, &a.i)) return Err(t, "integer '" + t.text + "' out of range");
    a.f = static_cast<double>(a.i);
  } else if (t.kind == Token::kFloat) {
    a.kind = Attr::kFloat;
    a.f = std::strtod(t.text.c_str(), nullptr);
  } else if (t.kind == Token::kString) {
    a.kind = Attr::kString;
    a.s = t.text;
  } else if (t.kind == Token::kSymbol) {
    a.kind = Attr::kSymbol;
    a.s = t.text;
  } else if (t.kind == Token::kHash) {
    a.kind = Attr::kHash;
    a.s = t.text;
    Token n = lex_.Peek();
    if (n.text == "<" && n.begin == t.end) {
      lex_.Next();
      bool ok;
      std::string in = lex_.RawUntilClose('<', '>', &ok);
      if (!ok) return Err(t, "unbalanced '<' in attribute");
      a.raw = in;
      Parser sub(in, file_, t.pos.line - 1);
      auto fields = sub.ParseDictBodyToEnd();
      if (fields.ok()) a.fields = std::move(*fields);
    }
  } else if (t.kind == Token::kIdent) {
    Token n = lex_.Peek();
    bool angle = n.text == "<" && n.begin == t.end;
    if ((t.text == "dense" || t.text == "dense_resource" || t.text == "sparse") && angle) {
      lex_.Next();
      bool ok;
      a.kind = Attr::kDense;
      a.s = lex_.RawUntilClose('<', '>', &ok);
      if (!ok) return Err(t, "unbalanced dense<");
      if (t.text != "dense") a.s = "<" + t.text + ">";
    } else if (t.text == "array" && angle) {
      lex_.Next();
      bool ok;
      std::string in = lex_.RawUntilClose('<', '>', &ok);
      if (!ok) return Err(t, "unbalanced array<");
      a.kind = Attr::kList;
      size_t colon = in.find(':');
      std::string body = colon == std::string::npos ? "" : in.substr(colon + 1);
      Parser sub(body, file_, 0);
      while (sub.lex_.Peek().kind != Token::kEof) {
        Token e = sub.lex_.Next();
        if (e.text == ",") continue;
        Attr v;
        if (e.kind == Token::kInt) {
          v.kind = Attr::kInt;
          if (!ParseInteger(e.text, &v.i)) return Err(e, "integer '" + e.text + "' out of range");
        } else if (e.text == "true" || e.text == "false") {
          v.kind = Attr::kBool;
          v.i = e.text == "true";
        } else {
          v.kind = Attr::kFloat;
          v.f = std::strtod(e.text.c_str(), nullptr);
        }
        a.items.push_back(std::move(v));
      }
    } else if (t.text == "true" || t.text == "false") {
      a.kind = Attr::kBool;
      a.i = t.text == "true";
    } else if (t.text == "unit") {
      a.kind = Attr::kUnit;
    } else if (angle || t.text.starts_with("!")) {
      // A type: tensor<...>, complex<f32>, !stablehlo.token...
      lex_.Next();
      bool ok;
      std::string in = angle ? lex_.RawUntilClose('<', '>', &ok) : "";
      a.kind = Attr::kType;
      auto ty = ParseTypeText(angle ? t.text + "<" + in + ">" : t.text);
      if (ty.ok()) a.type = std::make_unique<Type>(std::move(*ty));
    } else {
      a.kind = Attr::kIdent;
      a.s = t.text;
    }
  } else if (t.kind == Token::kPunct && t.text == "<") {
    // A bare `<k = v, ...>` (dot_general's `algorithm = <lhs_precision_type =
    // tf32, ...>`): a dictionary.
    bool ok;
    std::string in = lex_.RawUntilClose('<', '>', &ok);
    if (!ok) return Err(t, "unbalanced '<' in attribute");
    a.kind = Attr::kDict;
    a.raw = in;
    Parser sub(in, file_, t.pos.line - 1);
    ASSIGN_OR_RETURN(a.fields, sub.ParseDictBodyToEnd());
  } else {
    return Err(t, "expected an attribute value, got '" + t.text + "'");
  }
  if (allow_type_suffix && lex_.Peek().text == ":") {
    // `value : type` (only when a type follows).
    Token c = lex_.Next();
    Token ty = lex_.Peek();
    if (ty.kind == Token::kIdent) {
      auto tt = ParseType();
      if (!tt.ok()) return tt.status();
      a.type = std::make_unique<Type>(std::move(*tt));
    } else {
      return Err(c, "expected a type after ':'");
    }
  }
  (void)begin;
  return a;
}

Status Parser::ParseDictBody(std::vector<std::pair<std::string, Attr>>* out, const std::string& close) {
  if (Accept(close)) return Status::Ok();
  do {
    Token k = lex_.Next();
    if (k.kind != Token::kIdent && k.kind != Token::kString) return Err(k, "expected attribute name");
    if (Accept("=")) {
      ASSIGN_OR_RETURN(Attr v, ParseAttrValue(true));
      out->push_back({k.text, std::move(v)});
    } else {
      Attr u;
      u.kind = Attr::kUnit;
      u.s = k.text;
      out->push_back({k.text, std::move(u)});
    }
  } while (Accept(","));
  return Expect(close);
}

StatusOr<std::vector<std::pair<std::string, Attr>>> Parser::ParseDictBodyToEnd() {
  std::vector<std::pair<std::string, Attr>> out;
  while (lex_.Peek().kind != Token::kEof) {
    Token k = lex_.Next();
    if (k.kind != Token::kIdent) return Err(k, "expected a name");
    if (!Accept("=")) {
      Attr u;
      u.kind = Attr::kIdent;
      u.s = k.text;
      out.push_back({k.text, std::move(u)});
    } else {
      ASSIGN_OR_RETURN(Attr v, ParseAttrValue(true));
      out.push_back({k.text, std::move(v)});
    }
    if (!Accept(",")) break;
  }
  if (lex_.Peek().kind != Token::kEof) return Err(lex_.Peek(), "trailing text");
  return out;
}

}  // namespace hloscope::mlir
