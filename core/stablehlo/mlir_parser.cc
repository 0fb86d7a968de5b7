#include "core/stablehlo/mlir_parser.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/stablehlo/mlir_lexer.h"

namespace hloscope::mlir {
namespace {

// An integer literal (decimal, 0x hex; as strtoll with base 0), or, past
// int64's range, an unsigned one reinterpreted; false when it is neither.
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

}  // namespace

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

const Attr* Op::FindAttr(const std::string& k) const {
  for (const auto& [n, v] : attrs)
    if (n == k) return &v;
  return nullptr;
}

const Func* ModuleAst::FindFunc(const std::string& n) const {
  for (const Func& f : funcs)
    if (f.name == n) return &f;
  return nullptr;
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

namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string file, int line_offset)
      : lex_(text, line_offset), file_(std::move(file)) {}

  StatusOr<ModuleAst> Run() {
    ModuleAst m;
    m.file = file_;
    while (true) {
      Token t = lex_.Peek();
      if (t.kind == Token::kEof) break;
      if (t.kind == Token::kHash) {  // #loc3 = loc(...)
        lex_.Next();
        RETURN_IF_ERROR(Expect("="));
        std::string v;
        RETURN_IF_ERROR(ParseTrailingLoc(&v));
        m.loc_aliases["#" + t.text] = v;
        continue;
      }
      if (t.kind == Token::kIdent && t.text == "module") {
        lex_.Next();
        if (lex_.Peek().kind == Token::kSymbol) m.name = lex_.Next().text;
        if (lex_.Peek().text == "attributes") {
          lex_.Next();
          RETURN_IF_ERROR(Expect("{"));
          bool ok;
          lex_.RawUntilClose('{', '}', &ok);
          if (!ok) return Err(t, "unbalanced module attributes");
        }
        RETURN_IF_ERROR(Expect("{"));
        while (lex_.Peek().text != "}" && lex_.Peek().kind != Token::kEof) {
          Token f = lex_.Peek();
          if (f.kind == Token::kIdent && f.text == "func.func") {
            ASSIGN_OR_RETURN(Func fn, ParseFunc());
            m.funcs.push_back(std::move(fn));
          } else if (f.kind == Token::kIdent && f.text == "sdy.mesh") {
            RETURN_IF_ERROR(ParseMesh(&m));
          } else {
            return Err(f, "expected func.func in module, got '" + f.text + "'");
          }
        }
        RETURN_IF_ERROR(Expect("}"));
        std::string loc;
        RETURN_IF_ERROR(ParseTrailingLoc(&loc));
        continue;
      }
      if (t.kind == Token::kIdent && t.text == "func.func") {
        ASSIGN_OR_RETURN(Func fn, ParseFunc());
        m.funcs.push_back(std::move(fn));
        continue;
      }
      return Err(t, "expected 'module' or 'func.func', got '" + t.text + "'");
    }
    return m;
  }

 private:
  Status Err(const Token& t, const std::string& msg) {
    return Error(file_ + ":" + std::to_string(t.pos.line) + ":" + std::to_string(t.pos.col) + ": error: " + msg);
  }
  Status Expect(const std::string& p) {
    Token t = lex_.Next();
    if (t.text != p || t.kind == Token::kString) return Err(t, "expected '" + p + "', got '" + t.text + "'");
    return Status::Ok();
  }
  bool Accept(const std::string& p) {
    Token t = lex_.Peek();
    if (t.kind != Token::kString && t.text == p) {
      lex_.Next();
      return true;
    }
    return false;
  }

  // sdy.mesh @name = <["x"=2, "y"=4]> {attributes} loc(...): a Shardy mesh,
  // as JAX 0.12 declares one (`@empty_mesh = <[]>` on one device).
  Status ParseMesh(ModuleAst* m) {
    Token start = lex_.Next();  // sdy.mesh
    Token name = lex_.Next();
    if (name.kind != Token::kSymbol) return Err(name, "expected the mesh's @name after sdy.mesh");
    RETURN_IF_ERROR(Expect("="));
    RETURN_IF_ERROR(Expect("<"));
    bool ok;
    std::string axes = lex_.RawUntilClose('<', '>', &ok);
    if (!ok) return Err(start, "unbalanced '<' in sdy.mesh");
    {
      // The axes are kept as text in the module's frontend attributes: they
      // must nest and close (found by the StableHLO fuzzer: `<[T>` printed
      // into HLO that did not parse back).
      std::string open;
      bool in_string = false;
      for (size_t i = 0; i < axes.size() && ok; ++i) {
        const char c = axes[i];
        if (in_string) {
          if (c == '\\') ++i;
          else if (c == '"') in_string = false;
        } else if (c == '"') {
          in_string = true;
        } else if (c == '[' || c == '(' || c == '{') {
          open += c;
        } else if (c == ']' || c == ')' || c == '}') {
          const char want = c == ']' ? '[' : c == ')' ? '(' : '{';
          ok = !open.empty() && open.back() == want;
          if (ok) open.pop_back();
        }
      }
      if (!ok || in_string || !open.empty()) return Err(start, "unbalanced brackets or quotes in sdy.mesh axes");
    }
    if (lex_.Peek().text == "{") {
      lex_.Next();
      lex_.RawUntilClose('{', '}', &ok);
      if (!ok) return Err(start, "unbalanced '{' in sdy.mesh attributes");
    }
    std::string loc;
    RETURN_IF_ERROR(ParseTrailingLoc(&loc));
    std::string n = name.text;
    if (!n.empty() && n[0] == '@') n = n.substr(1);
    m->meshes.emplace_back(std::move(n), std::move(axes));
    return Status::Ok();
  }

  // loc(...) if present (kept verbatim).
  Status ParseTrailingLoc(std::string* out) {
    Token t = lex_.Peek();
    if (t.kind != Token::kIdent || t.text != "loc") return Status::Ok();
    lex_.Next();
    RETURN_IF_ERROR(Expect("("));
    bool ok;
    *out = lex_.RawUntilClose('(', ')', &ok);
    if (!ok) return Err(t, "unbalanced loc(");
    return Status::Ok();
  }

  StatusOr<Type> ParseType() {
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
  Status ParseTypeOrList(std::vector<Type>* out, bool allow_attrs, std::vector<std::string>* attrs) {
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

  StatusOr<Func> ParseFunc() {
    Token start = lex_.Next();  // func.func
    Func f;
    f.pos = start.pos;
    Token t = lex_.Next();
    if (t.kind == Token::kIdent && (t.text == "public" || t.text == "private" || t.text == "nested")) {
      f.is_public = t.text == "public";
      t = lex_.Next();
    }
    if (t.kind != Token::kSymbol) return Err(t, "expected function name");
    f.name = t.text;
    RETURN_IF_ERROR(Expect("("));
    if (!Accept(")")) {
      do {
        Token a = lex_.Next();
        if (a.kind != Token::kValue) return Err(a, "expected argument name");
        RETURN_IF_ERROR(Expect(":"));
        ASSIGN_OR_RETURN(Type ty, ParseType());
        std::string attrs;
        if (lex_.Peek().text == "{") {
          lex_.Next();
          bool ok;
          attrs = lex_.RawUntilClose('{', '}', &ok);
        }
        std::string loc;
        RETURN_IF_ERROR(ParseTrailingLoc(&loc));
        f.args.push_back({a.text, std::move(ty)});
        f.arg_attrs.push_back(attrs);
      } while (Accept(","));
      RETURN_IF_ERROR(Expect(")"));
    }
    if (Accept("->")) RETURN_IF_ERROR(ParseTypeOrList(&f.results, true, &f.result_attrs));
    if (lex_.Peek().text == "attributes") {
      lex_.Next();
      RETURN_IF_ERROR(Expect("{"));
      bool ok;
      lex_.RawUntilClose('{', '}', &ok);
    }
    RETURN_IF_ERROR(ParseRegion(&f.body));
    RETURN_IF_ERROR(ParseTrailingLoc(&f.loc));
    return f;
  }

  // `{ (^bb0(args):)? ops }`
  Status ParseRegion(Region* r, const std::vector<std::pair<std::string, Type>>* implicit_args = nullptr) {
    Token open = lex_.Peek();
    RETURN_IF_ERROR(Expect("{"));
    Block b;
    if (implicit_args) b.args = *implicit_args;
    while (true) {
      Token t = lex_.Peek();
      if (t.kind == Token::kEof) return Err(open, "unterminated region");
      if (t.text == "}" && t.kind == Token::kPunct) break;
      if (t.kind == Token::kCaret) {
        lex_.Next();
        if (!b.ops.empty() || !b.args.empty()) {
          r->blocks.push_back(std::move(b));
          b = Block();
        }
        if (Accept("(")) {
          if (!Accept(")")) {
            do {
              Token a = lex_.Next();
              if (a.kind != Token::kValue) return Err(a, "expected block argument");
              RETURN_IF_ERROR(Expect(":"));
              ASSIGN_OR_RETURN(Type ty, ParseType());
              std::string loc;
              RETURN_IF_ERROR(ParseTrailingLoc(&loc));
              b.args.push_back({a.text, std::move(ty)});
            } while (Accept(","));
            RETURN_IF_ERROR(Expect(")"));
          }
        }
        RETURN_IF_ERROR(Expect(":"));
        continue;
      }
      ASSIGN_OR_RETURN(Op op, ParseOp());
      b.ops.push_back(std::move(op));
    }
    lex_.Next();
    r->blocks.push_back(std::move(b));
    return Status::Ok();
  }

  StatusOr<Attr> ParseAttrValue(bool allow_type_suffix) {
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

  Status ParseDictBody(std::vector<std::pair<std::string, Attr>>* out, const std::string& close) {
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

  StatusOr<std::vector<std::pair<std::string, Attr>>> ParseDictBodyToEnd() {
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

  Status ParseOperandList(std::vector<Value>* out, const std::string& close) {
    if (Accept(close)) return Status::Ok();
    do {
      Token v = lex_.Next();
      if (v.kind != Token::kValue) return Err(v, "expected an SSA value, got '" + v.text + "'");
      out->push_back({v.text, v.pos});
    } while (Accept(","));
    return Expect(close);
  }

  // `: (T, T) -> T`, `: (T) -> (T, T)` or `: T, T`.
  Status ParseOpTypes(Op* op, bool functional_required) {
    if (lex_.Peek().text == "(") {
      RETURN_IF_ERROR(ParseTypeOrList(&op->operand_types, false, nullptr));
      if (Accept("->")) {
        RETURN_IF_ERROR(ParseTypeOrList(&op->result_types, false, nullptr));
      }
      return Status::Ok();
    }
    std::vector<Type> ts;
    do {
      ASSIGN_OR_RETURN(Type t, ParseType());
      ts.push_back(std::move(t));
    } while (Accept(","));
    op->operand_types = ts;
    if (Accept("->")) return ParseTypeOrList(&op->result_types, false, nullptr);
    op->result_types = std::move(ts);
    return Status::Ok();
  }

  StatusOr<Op> ParseOp() {
    Op op;
    Token first = lex_.Peek();
    op.pos = first.pos;
    if (first.kind == Token::kValue) {
      do {
        Token r = lex_.Next();
        if (r.kind != Token::kValue) return Err(r, "expected a result name");
        int count = 1;
        if (lex_.Peek().text == ":") {
          lex_.Next();
          Token n = lex_.Next();
          if (n.kind != Token::kInt) return Err(n, "expected result count");
          int64_t c = 0;
          if (!ParseInteger(n.text, &c) || c < 1 || c > 1'000'000) return Err(n, "bad result count '" + n.text + "'");
          count = static_cast<int>(c);
          for (int i = 0; i < count; ++i) op.results.push_back(r.text + "#" + std::to_string(i));
        } else {
          op.results.push_back(r.text);
        }
      } while (Accept(","));
      RETURN_IF_ERROR(Expect("="));
    }
    Token name = lex_.Next();
    op.pos = name.pos;
    if (name.kind == Token::kString) {
      op.name = name.text;
      RETURN_IF_ERROR(Expect("("));
      RETURN_IF_ERROR(ParseOperandList(&op.operands, ")"));
      if (lex_.Peek().text == "<") {
        lex_.Next();
        RETURN_IF_ERROR(Expect("{"));
        RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
        RETURN_IF_ERROR(Expect(">"));
      }
      if (lex_.Peek().text == "(") {
        lex_.Next();
        do {
          auto r = std::make_unique<Region>();
          RETURN_IF_ERROR(ParseRegion(r.get()));
          op.regions.push_back(std::move(r));
        } while (Accept(","));
        RETURN_IF_ERROR(Expect(")"));
      }
      if (lex_.Peek().text == "{") {
        lex_.Next();
        RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
      }
      RETURN_IF_ERROR(Expect(":"));
      RETURN_IF_ERROR(ParseOpTypes(&op, true));
      if (const Attr* c = op.FindAttr("call_target_name")) op.callee = c->s;
      if (const Attr* c = op.FindAttr("callee")) op.callee = c->s;
      RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
      return op;
    }
    if (name.kind != Token::kIdent) return Err(name, "expected an operation, got '" + name.text + "'");
    op.name = name.text;
    if (op.name == "return") op.name = "func.return";
    if (op.name == "call") op.name = "func.call";
    if (op.name == "stablehlo.reduce" && lex_.Peek().text == "(") return ParsePrettyReduce(std::move(op));
    if (op.name == "stablehlo.while" && lex_.Peek().text == "(") return ParsePrettyWhile(std::move(op));
    int line = name.pos.line;
    // Pretty form: items up to ':' (or the end of the line).
    while (true) {
      Token t = lex_.Peek();
      if (t.kind == Token::kEof || t.pos.line != line) break;
      if (t.kind == Token::kPunct && (t.text == ":" || t.text == "}")) break;
      if (t.kind == Token::kIdent && t.text == "loc") break;
      if (t.kind == Token::kPunct && t.text == ",") {
        lex_.Next();
        // A trailing comma continues the op on the next line.
        if (lex_.Peek().kind != Token::kEof) line = lex_.Peek().pos.line;
        continue;
      }
      if (t.kind == Token::kValue) {
        lex_.Next();
        op.operands.push_back({t.text, t.pos});
        if (lex_.Peek().text == "[" && lex_.Peek().begin == t.end) {  // %t[0]
          lex_.Next();
          ASSIGN_OR_RETURN(Attr idx, ParseAttrValue(false));
          RETURN_IF_ERROR(Expect("]"));
          op.attrs.push_back({"index", std::move(idx)});
        }
        continue;
      }
      if (t.kind == Token::kSymbol) {
        lex_.Next();
        op.callee = t.text;
        continue;
      }
      if (t.kind == Token::kPunct && t.text == "(") {
        lex_.Next();
        // `(%a, %b)` or, as chlo.top_k writes it, `(%a, k = 2)`.
        if (!Accept(")")) {
          do {
            Token v = lex_.Next();
            if (v.kind == Token::kValue) {
              op.operands.push_back({v.text, v.pos});
            } else if (v.kind == Token::kIdent && lex_.Peek().text == "=") {
              lex_.Next();
              ASSIGN_OR_RETURN(Attr a, ParseAttrValue(false));
              op.attrs.push_back({v.text, std::move(a)});
            } else {
              return Err(v, "expected an SSA value or name = value, got '" + v.text + "'");
            }
          } while (Accept(","));
          RETURN_IF_ERROR(Expect(")"));
        }
        continue;
      }
      if (t.kind == Token::kPunct && t.text == "[") {  // slice [a:b:c, ...]
        lex_.Next();
        Attr sl;
        sl.kind = Attr::kList;
        if (!Accept("]")) {
          do {
            Attr e;
            e.kind = Attr::kList;
            do {
              Token n = lex_.Next();
              if (n.kind != Token::kInt) return Err(n, "expected an integer in slice");
              Attr v;
              v.kind = Attr::kInt;
              if (!ParseInteger(n.text, &v.i)) return Err(n, "integer '" + n.text + "' out of range");
              e.items.push_back(v);
            } while (Accept(":"));
            sl.items.push_back(std::move(e));
          } while (Accept(","));
          RETURN_IF_ERROR(Expect("]"));
        }
        op.attrs.push_back({"slice", std::move(sl)});
        continue;
      }
      if (t.kind == Token::kPunct && t.text == "{") {
        lex_.Next();
        RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
        continue;
      }
      if (t.kind == Token::kPunct && t.text == "<" && op.name.starts_with("sdy.")) {
        // A Shardy sharding, `<@mesh, [{}, {"x"}]>`, kept as written.
        lex_.Next();
        bool ok;
        Attr a;
        a.kind = Attr::kString;
        a.s = "<" + lex_.RawUntilClose('<', '>', &ok) + ">";
        if (!ok) return Err(t, "unbalanced '<' in " + op.name);
        a.raw = a.s;
        op.attrs.push_back({"sharding", std::move(a)});
        continue;
      }
      if (t.kind == Token::kPunct && t.text == "<") {
        lex_.Next();
        RETURN_IF_ERROR(Expect("{"));
        RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
        RETURN_IF_ERROR(Expect(">"));
        continue;
      }
      if (t.kind == Token::kIdent) {
        Token save = lex_.Next();
        if (lex_.Peek().text == "=") {
          lex_.Next();
          ASSIGN_OR_RETURN(Attr v, ParseAttrValue(false));
          if (save.text == "dim_numbers" && v.kind == Attr::kPair && lex_.Peek().text == "->") {
            // convolution: [b, 0, f]x[0, i, o]->[b, 0, f] → a list of three label lists.
            lex_.Next();
            ASSIGN_OR_RETURN(Attr o, ParseAttrValue(false));
            Attr l;
            l.kind = Attr::kList;
            l.items.push_back(v.items[0]);
            l.items.push_back(v.items[1]);
            l.items.push_back(std::move(o));
            v = std::move(l);
          }
          op.attrs.push_back({save.text, std::move(v)});
          continue;
        }
        Token n = lex_.Peek();
        if ((save.text == "dense" || save.text == "array" || save.text == "dense_resource") && n.text == "<") {
          // re-parse as a value: rewind is not available, so parse the body here.
          lex_.Next();
          bool ok;
          Attr v;
          v.kind = Attr::kDense;
          v.s = lex_.RawUntilClose('<', '>', &ok);
          if (!ok) return Err(save, "unbalanced dense<");
          if (save.text != "dense") v.s = "<" + save.text + ">";
          op.attrs.push_back({"value", std::move(v)});
          continue;
        }
        op.keywords.push_back(save.text);
        continue;
      }
      if (t.kind == Token::kString) {
        lex_.Next();
        op.keywords.push_back(t.text);
        continue;
      }
      if (t.kind == Token::kInt || t.kind == Token::kFloat || t.kind == Token::kHash) {
        ASSIGN_OR_RETURN(Attr v, ParseAttrValue(false));
        op.attrs.push_back({"value", std::move(v)});
        continue;
      }
      return Err(t, "unexpected '" + t.text + "' in " + op.name);
    }
    if (Accept(":")) RETURN_IF_ERROR(ParseOpTypes(&op, false));
    // check.* ops end with an attribute dictionary: `... : tensor<f64> {tolerance = 0.1 : f64}`.
    if (op.name.starts_with("check.") && lex_.Peek().text == "{" && lex_.Peek().pos.line == line) {
      lex_.Next();
      RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
    }
    if (lex_.Peek().text == "attributes") {
      lex_.Next();
      RETURN_IF_ERROR(Expect("{"));
      RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
    }
    RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
    return op;
  }

  // stablehlo.reduce(%x init: %c, ...) applies OP across dimensions = [..] : T
  // stablehlo.reduce(%x init: %c) across dimensions = [..] : T reducer(...) (...) { ... }
  StatusOr<Op> ParsePrettyReduce(Op op) {
    lex_.Next();  // (
    std::vector<Value> inputs, inits;
    do {
      Token v = lex_.Next();
      if (v.kind != Token::kValue) return Err(v, "expected reduce input");
      RETURN_IF_ERROR(Expect("init"));
      RETURN_IF_ERROR(Expect(":"));
      Token c = lex_.Next();
      if (c.kind != Token::kValue) return Err(c, "expected reduce init value");
      inputs.push_back({v.text, v.pos});
      inits.push_back({c.text, c.pos});
      if (Accept(")")) {  // `(%a init: %b), (%c init: %d)`
        if (!Accept(",")) break;
        RETURN_IF_ERROR(Expect("("));
        continue;
      }
      RETURN_IF_ERROR(Expect(","));
    } while (true);
    op.operands = inputs;
    op.operands.insert(op.operands.end(), inits.begin(), inits.end());
    std::string applies;
    Token applies_tok = lex_.Peek();
    if (Accept("applies")) applies = lex_.Next().text;
    RETURN_IF_ERROR(Expect("across"));
    RETURN_IF_ERROR(Expect("dimensions"));
    RETURN_IF_ERROR(Expect("="));
    ASSIGN_OR_RETURN(Attr dims, ParseAttrValue(false));
    op.attrs.push_back({"dimensions", std::move(dims)});
    if (lex_.Peek().text == "{") {
      lex_.Next();
      RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
    }
    RETURN_IF_ERROR(Expect(":"));
    RETURN_IF_ERROR(ParseOpTypes(&op, true));
    size_t n = inputs.size();
    auto region = std::make_unique<Region>();
    if (!applies.empty()) {
      Block b;
      Op body;
      body.name = applies;
      body.pos = applies_tok.pos;
      for (size_t k = 0; k < 2 * n; ++k) {
        Type t;
        if (n + k % n < op.operand_types.size()) {
          t = op.operand_types[n + k % n];
        }
        std::string an = "__reduce_arg" + std::to_string(k);
        b.args.push_back({an, t});
      }
      for (size_t k = 0; k < 2 * n; ++k) body.operands.push_back({b.args[k].first, applies_tok.pos});
      std::string r = "__reduce_res";
      body.results.push_back(r);
      if (!b.args.empty()) body.result_types.push_back(b.args[0].second);
      b.ops.push_back(std::move(body));
      Op ret;
      ret.name = "stablehlo.return";
      ret.operands.push_back({r, applies_tok.pos});
      b.ops.push_back(std::move(ret));
      region->blocks.push_back(std::move(b));
      RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
    } else {
      RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
      RETURN_IF_ERROR(Expect("reducer"));
      std::vector<std::pair<std::string, Type>> lhs, rhs;
      for (size_t k = 0; k < n; ++k) {
        RETURN_IF_ERROR(Expect("("));
        for (int side = 0; side < 2; ++side) {
          if (side) RETURN_IF_ERROR(Expect(","));
          Token a = lex_.Next();
          RETURN_IF_ERROR(Expect(":"));
          ASSIGN_OR_RETURN(Type ty, ParseType());
          std::string loc;
          RETURN_IF_ERROR(ParseTrailingLoc(&loc));
          (side ? rhs : lhs).push_back({a.text, ty});
        }
        RETURN_IF_ERROR(Expect(")"));
      }
      lhs.insert(lhs.end(), rhs.begin(), rhs.end());
      RETURN_IF_ERROR(ParseRegion(region.get(), &lhs));
      std::string region_loc;
      RETURN_IF_ERROR(ParseTrailingLoc(&region_loc));
    }
    op.regions.push_back(std::move(region));
    return op;
  }

  // stablehlo.while(%a = %x, ...) : T, T cond { ... } do { ... }
  StatusOr<Op> ParsePrettyWhile(Op op) {
    lex_.Next();  // (
    std::vector<std::string> names;
    if (!Accept(")")) {
      do {
        Token a = lex_.Next();
        RETURN_IF_ERROR(Expect("="));
        Token v = lex_.Next();
        if (a.kind != Token::kValue || v.kind != Token::kValue) return Err(a, "expected %arg = %value");
        names.push_back(a.text);
        op.operands.push_back({v.text, v.pos});
      } while (Accept(","));
      RETURN_IF_ERROR(Expect(")"));
    }
    if (Accept(":")) RETURN_IF_ERROR(ParseOpTypes(&op, false));
    if (lex_.Peek().text == "attributes") {
      lex_.Next();
      RETURN_IF_ERROR(Expect("{"));
      RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
    }
    std::vector<std::pair<std::string, Type>> args;
    for (size_t i = 0; i < names.size(); ++i)
      args.push_back({names[i], i < op.result_types.size() ? op.result_types[i] : Type()});
    RETURN_IF_ERROR(Expect("cond"));
    auto c = std::make_unique<Region>();
    RETURN_IF_ERROR(ParseRegion(c.get(), &args));
    RETURN_IF_ERROR(Expect("do"));
    auto b = std::make_unique<Region>();
    RETURN_IF_ERROR(ParseRegion(b.get(), &args));
    op.regions.push_back(std::move(c));
    op.regions.push_back(std::move(b));
    RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
    return op;
  }

  Lexer lex_;
  std::string file_;
};

}  // namespace

StatusOr<ModuleAst> ParseMlir(std::string_view text, const std::string& file, int line_offset) {
  Parser p(text, file, line_offset);
  return p.Run();
}

StatusOr<ModuleAst> ParseMlirFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": error: cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseMlir(ss.str(), path);
}

}  // namespace hloscope::mlir
