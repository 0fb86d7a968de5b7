// The MLIR text parser: modules (with #loc aliases and sdy.mesh), func.func,
// regions and blocks, and ops in generic and pretty form (including the
// pretty stablehlo.reduce and stablehlo.while); ParseMlir and ParseMlirFile.
// Types and attribute values are in mlir_parser_types_attrs.cc.
#include <cctype>
#include "core/stablehlo/mlir_parser.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "core/stablehlo/mlir_parser_internal.h"
#include "core/support/str_util.h"

namespace hloscope::mlir {

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

StatusOr<ModuleAst> Parser::Run() {
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
        const std::string attrs(lex_.RawUntilClose('{', '}', &ok));
        if (!ok) return Err(t, "unbalanced module attributes");
        // mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32
        auto count = [&](const std::string& key) -> int64_t {
          const size_t at = attrs.find(key);
          if (at == std::string::npos) return 0;
          size_t p = attrs.find('=', at + key.size());
          if (p == std::string::npos) return 0;
          ++p;
          while (p < attrs.size() && attrs[p] == ' ') ++p;
          int64_t v = 0;
          size_t digits = 0;
          while (p < attrs.size() && std::isdigit(static_cast<unsigned char>(attrs[p])) && digits < 9)
            v = v * 10 + (attrs[p++] - '0'), ++digits;
          return v;
        };
        m.num_partitions = count("mhlo.num_partitions");
        m.num_replicas = count("mhlo.num_replicas");
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

// sdy.mesh @name = <["x"=2, "y"=4]> {attributes} loc(...): a Shardy mesh,
// as JAX 0.12 declares one (`@empty_mesh = <[]>` on one device).
Status Parser::ParseMesh(ModuleAst* m) {
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
Status Parser::ParseTrailingLoc(std::string* out) {
  Token t = lex_.Peek();
  if (t.kind != Token::kIdent || t.text != "loc") return Status::Ok();
  lex_.Next();
  RETURN_IF_ERROR(Expect("("));
  bool ok;
  *out = lex_.RawUntilClose('(', ')', &ok);
  if (!ok) return Err(t, "unbalanced loc(");
  return Status::Ok();
}

StatusOr<Func> Parser::ParseFunc() {
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
Status Parser::ParseRegion(Region* r, const std::vector<std::pair<std::string, Type>>* implicit_args) {
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

Status Parser::ParseOperandList(std::vector<Value>* out, const std::string& close) {
  if (Accept(close)) return Status::Ok();
  do {
    Token v = lex_.Next();
    if (v.kind != Token::kValue) return Err(v, "expected an SSA value, got '" + v.text + "'");
    out->push_back({v.text, v.pos});
  } while (Accept(","));
  return Expect(close);
}

// `: (T, T) -> T`, `: (T) -> (T, T)` or `: T, T`.
Status Parser::ParseOpTypes(Op* op, bool functional_required) {
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

StatusOr<Op> Parser::ParseOp() {
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
  if (op.name == "chlo.scan" && lex_.Peek().text == "(") return ParsePrettyScan(std::move(op));
  if (op.name == "sdy.manual_computation" && lex_.Peek().text == "(") return ParseManualComputation(std::move(op));
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
StatusOr<Op> Parser::ParsePrettyReduce(Op op) {
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
StatusOr<Op> Parser::ParsePrettyWhile(Op op) {
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

// chlo.scan(%inputs...) inits (%carries...) dimension=D [attributes {...}]
// {^bb0(%x: T, %c: T): ... stablehlo.return ...} : (types) -> (types), as
// JAX 0.12 writes cumsum for GPUs.
StatusOr<Op> Parser::ParsePrettyScan(Op op) {
  auto values = [&]() -> Status {
    RETURN_IF_ERROR(Expect("("));
    if (Accept(")")) return Status::Ok();
    do {
      Token v = lex_.Next();
      if (v.kind != Token::kValue) return Err(v, "expected an SSA value, got '" + v.text + "'");
      op.operands.push_back({v.text, v.pos});
    } while (Accept(","));
    return Expect(")");
  };
  RETURN_IF_ERROR(values());
  const size_t inputs = op.operands.size();
  RETURN_IF_ERROR(Expect("inits"));
  RETURN_IF_ERROR(values());
  Attr carries;
  carries.kind = Attr::kInt;
  carries.i = static_cast<int64_t>(op.operands.size() - inputs);
  op.attrs.push_back({"num_carries", carries});
  RETURN_IF_ERROR(Expect("dimension"));
  RETURN_IF_ERROR(Expect("="));
  ASSIGN_OR_RETURN(Attr d, ParseAttrValue(false));
  op.attrs.push_back({"dimension", std::move(d)});
  if (lex_.Peek().text == "attributes") {
    lex_.Next();
    RETURN_IF_ERROR(Expect("{"));
    RETURN_IF_ERROR(ParseDictBody(&op.attrs, "}"));
  }
  auto r = std::make_unique<Region>();
  RETURN_IF_ERROR(ParseRegion(r.get()));
  op.regions.push_back(std::move(r));
  RETURN_IF_ERROR(Expect(":"));
  RETURN_IF_ERROR(ParseOpTypes(&op, true));
  RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
  return op;
}

// sdy.manual_computation(%a, ...) in_shardings=[...] out_shardings=[...]
// manual_axes={"x", ...} (%arg: T, ...) { ... sdy.return ... } : (T...) -> T...,
// as JAX writes shard_map. The three keyword attributes are kept as their
// text between the brackets (strings), the block's arguments as the region's.
StatusOr<Op> Parser::ParseManualComputation(Op op) {
  RETURN_IF_ERROR(Expect("("));
  if (!Accept(")")) {
    do {
      Token v = lex_.Next();
      if (v.kind != Token::kValue) return Err(v, "expected an SSA value, got '" + v.text + "'");
      op.operands.push_back({v.text, v.pos});
    } while (Accept(","));
    RETURN_IF_ERROR(Expect(")"));
  }
  while (lex_.Peek().kind == Token::kIdent) {
    Token key = lex_.Next();
    RETURN_IF_ERROR(Expect("="));
    Token open = lex_.Next();
    if (open.text != "[" && open.text != "{") return Err(open, "expected '[' or '{' after " + key.text + "=");
    bool ok = false;
    Attr a;
    a.kind = Attr::kString;
    a.s = lex_.RawUntilClose(open.text[0], open.text == "[" ? ']' : '}', &ok);
    a.raw = a.s;
    if (!ok) return Err(open, "unbalanced " + key.text);
    op.attrs.push_back({key.text, std::move(a)});
  }
  std::vector<std::pair<std::string, Type>> args;
  RETURN_IF_ERROR(Expect("("));
  if (!Accept(")")) {
    do {
      Token a = lex_.Next();
      if (a.kind != Token::kValue) return Err(a, "expected a block argument, got '" + a.text + "'");
      RETURN_IF_ERROR(Expect(":"));
      ASSIGN_OR_RETURN(Type ty, ParseType());
      args.push_back({a.text, std::move(ty)});
    } while (Accept(","));
    RETURN_IF_ERROR(Expect(")"));
  }
  auto r = std::make_unique<Region>();
  RETURN_IF_ERROR(ParseRegion(r.get(), &args));
  op.regions.push_back(std::move(r));
  RETURN_IF_ERROR(Expect(":"));
  RETURN_IF_ERROR(ParseOpTypes(&op, true));
  RETURN_IF_ERROR(ParseTrailingLoc(&op.loc));
  return op;
}

StatusOr<ModuleAst> ParseMlir(std::string_view text, const std::string& file, int line_offset) {
  Parser p(text, file, line_offset);
  return p.Run();
}

StatusOr<ModuleAst> ParseMlirFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": error: cannot open file: " + OpenFailureReason(path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseMlir(ss.str(), path);
}

}  // namespace hloscope::mlir
