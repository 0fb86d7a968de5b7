// Shapes, layouts, integers and literals.
#include <charconv>
#include <cmath>
#include <limits>

#include "core/parser/name_scan.h"
#include "core/parser/parser_impl.h"

namespace hloscope {

namespace {
constexpr int kMaxNesting = 64;
}

namespace {
// Scans `[0-9]+(,[0-9]+)*` or nothing from `p` up to `close`; false on
// anything else (spaces, signs, `?`, `<=`, a trailing comma, overflow).
bool ScanPlainInts(std::string_view src, size_t* p, char close, std::vector<int64_t>* out) {
  size_t q = *p;
  const size_t n = src.size();
  out->clear();
  if (q < n && src[q] == close) {
    *p = q + 1;
    return true;
  }
  for (;;) {
    size_t start = q;
    uint64_t u = 0;  // wraps harmlessly past 18 digits, where from_chars decides
    while (q < n && src[q] >= '0' && src[q] <= '9') u = u * 10 + static_cast<uint64_t>(src[q++] - '0');
    if (q == start || q >= n) return false;
    int64_t v = static_cast<int64_t>(u);
    if (q - start > 18) {  // may not fit: let from_chars decide
      auto r = std::from_chars(src.data() + start, src.data() + q, v);
      if (r.ec != std::errc() || r.ptr != src.data() + q) return false;
    }
    out->push_back(v);
    if (src[q] == close) {
      *p = q + 1;
      return true;
    }
    if (src[q] != ',') return false;
    ++q;
  }
}
}  // namespace

bool Parser::ParseInt(int64_t* v) {
  if (!At(Tok::kInt)) return Fail("expected an integer, found '" + std::string(tok_.text.substr(0, 30)) + "'");
  std::string_view t = tok_.text;
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  if (!t.empty() && t.size() <= 18 && t[0] != '-') {  // fits: no range check needed
    uint64_t u = 0;
    size_t i = 0;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) u = u * 10 + static_cast<uint64_t>(t[i] - '0');
    if (i == t.size()) {
      *v = static_cast<int64_t>(u);
      Advance();
      return true;
    }
  }
  auto r = std::from_chars(t.data(), t.data() + t.size(), *v);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size())
    return Fail("integer '" + std::string(tok_.text) + "' is out of range for a 64-bit value");
  Advance();
  return true;
}

bool Parser::ParseIntList(std::vector<int64_t>* v, Tok open, Tok close) {
  // Fast path: `{1,0}` / `[2,3]` without spaces or signs, scanned from the
  // text (dimensions=, *_contracting_dims=, ... on most instructions).
  if (At(open) && (open == Tok::kLbrace || open == Tok::kLsquare) &&
      close == (open == Tok::kLbrace ? Tok::kRbrace : Tok::kRsquare)) {
    size_t p = tok_.offset + 1;
    if (ScanPlainInts(lex_.source(), &p, open == Tok::kLbrace ? '}' : ']', v)) {
      lex_.SkipOnLine(p);  // digits and commas only
      Advance();
      return true;
    }
  }
  if (!Expect(open, open == Tok::kLbrace ? "'{'" : "'['")) return false;
  v->clear();
  if (Consume(close)) return true;
  for (;;) {
    int64_t x;
    if (!ParseInt(&x)) return false;
    v->push_back(x);
    if (Consume(close)) return true;
    if (!Expect(Tok::kComma, "',' in the integer list")) return false;
  }
}


size_t Parser::ScanPlainArrayShape(size_t type_start, size_t type_end, PrimitiveType* type, bool* has_layout) {
  const std::string_view src = lex_.source();
  size_t p = type_end;
  if (p >= src.size() || src[p] != '[') return std::string_view::npos;
  auto pt = TypeFromName(src.substr(type_start, type_end - type_start));
  if (!pt || !IsArrayType(*pt)) return std::string_view::npos;
  ++p;
  std::vector<int64_t>& dims = dims_scratch_;
  if (!ScanPlainInts(src, &p, ']', &dims)) return std::string_view::npos;
  int64_t count = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(count, d, &count)) return std::string_view::npos;
  const size_t rank = dims.size();
  *has_layout = p < src.size() && src[p] == '{';
  if (*has_layout) {
    size_t q = p + 1;
    // Anything but `{m,...}` or `{}` (a layout with a suffix, spaces, or a
    // brace that opens something else): ParseShape decides.
    std::vector<int64_t>& minor_to_major = layout_scratch_;
    if (!ScanPlainInts(src, &q, '}', &minor_to_major)) return std::string_view::npos;
    // A permutation of the dimensions (or empty for a scalar), as ParseLayout checks.
    if (minor_to_major.size() != rank || rank > 64) return std::string_view::npos;
    uint64_t seen = 0;
    for (int64_t d : minor_to_major) {
      if (d < 0 || d >= static_cast<int64_t>(rank) || (seen >> d & 1)) return std::string_view::npos;
      seen |= uint64_t{1} << d;
    }
    p = q;
  }
  *type = *pt;
  return p;
}

bool Parser::TryParsePlainShape(Shape* s) {
  if (!At(Tok::kName)) return false;
  PrimitiveType type;
  bool has_layout;
  const size_t p = ScanPlainArrayShape(tok_.offset, tok_.offset + tok_.text.size(), &type, &has_layout);
  if (p == std::string_view::npos) return false;
  // Written in place (callers pass a fresh shape: no moves of a whole Shape).
  if (s->element_type() != PrimitiveType::kInvalid || !s->dims().empty() || s->has_layout() ||
      !s->tuple_shapes().empty() || !s->dynamic_dims().empty() || s->IsBuffer())
    *s = Shape();
  s->set_element_type(type);
  s->mutable_dims().assign(dims_scratch_.begin(), dims_scratch_.end());
  if (has_layout) s->mutable_layout().minor_to_major.assign(layout_scratch_.begin(), layout_scratch_.end());
  lex_.SkipOnLine(p);  // the shape's text was scanned above: no newline in it
  Advance();
  return true;
}

bool Parser::TrySkipPlainSignature() {
  // `(name: shape, ...) -> shape` on one line with plain array shapes, as
  // XLA prints a computation's signature: checked from the text (the shapes
  // are not kept). Anything else is left to the token path.
  if (!At(Tok::kLparen)) return false;
  const std::string_view src = lex_.source();
  const char* const base = src.data();
  const size_t n = src.size();
  auto spaces = [&](size_t q) {
    while (q < n && src[q] == ' ') ++q;
    return q;
  };
  auto shape = [&](size_t q) {
    const size_t type_end = static_cast<size_t>(ScanWordChars(base + q, base + n) - base);
    PrimitiveType type;
    bool has_layout;
    return type_end == q ? std::string_view::npos : ScanPlainArrayShape(q, type_end, &type, &has_layout);
  };
  size_t q = spaces(tok_.offset + 1);
  while (q < n && src[q] != ')') {
    const bool percent = src[q] == '%';
    const size_t name = q + (percent ? 1 : 0);
    if (name >= n) return false;
    const char c = src[name];
    if (!(percent ? kNameCharTable.plain[static_cast<unsigned char>(c)]
                  : (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'))
      return false;
    q = static_cast<size_t>(ScanNameChars(base + name, base + n) - base);
    if (q >= n || src[q] != ':') return false;
    q = shape(spaces(q + 1));
    if (q == std::string_view::npos || q >= n) return false;
    if (src[q] == ',') q = spaces(q + 1);
    else if (src[q] != ')') return false;
  }
  if (q >= n) return false;
  q = spaces(q + 1);
  if (q + 1 >= n || src[q] != '-' || src[q + 1] != '>') return false;
  q = shape(spaces(q + 2));
  if (q == std::string_view::npos) return false;
  lex_.SkipOnLine(q);
  Advance();
  return true;
}

bool Parser::ParseShape(Shape* s, int depth) {
  if (depth > kMaxNesting) return Fail("shape nesting is deeper than " + std::to_string(kMaxNesting));
  if (TryParsePlainShape(s)) return true;
  if (At(Tok::kName) && tok_.text == "b" && tok_.offset + 1 < lex_.source().size() &&
      lex_.source()[tok_.offset + 1] == '(') {
    // A buffer shape: b(f32[2,4]{1,0}), one array shape held in a buffer.
    Advance();  // b
    Advance();  // (
    Shape inner;
    Token inner_tok = tok_;
    if (At(Tok::kRparen)) return Fail(inner_tok, "expected an array shape in the buffer shape 'b(...)'");
    if (!ParseShape(&inner, depth + 1)) return false;
    if (!inner.IsArray() || inner.IsBuffer())
      return Fail(inner_tok, "a buffer shape holds one array shape, not " + inner.ToString());
    if (!At(Tok::kRparen)) return ExpectFailed("')' at the end of the buffer shape");
    Advance();
    inner.set_buffer(true);
    *s = std::move(inner);
    return true;
  }
  if (At(Tok::kLparen)) {
    Advance();
    std::vector<Shape> elems;
    while (!At(Tok::kRparen)) {
      Shape e;
      if (!ParseShape(&e, depth + 1)) return false;
      elems.push_back(std::move(e));
      if (!At(Tok::kRparen) && !Expect(Tok::kComma, "',' or ')' in the tuple shape")) return false;
    }
    Advance();
    *s = Shape::Tuple(std::move(elems));
    return true;
  }
  if (!At(Tok::kName)) return Fail("expected a shape, found '" + std::string(tok_.text.substr(0, 30)) + "'");
  auto pt = TypeFromName(tok_.text);
  if (!pt) return Fail("unknown element type '" + std::string(tok_.text.substr(0, 40)) + "'");
  Token type_tok = tok_;
  Advance();
  if (!Expect(Tok::kLsquare, "'[' after the element type")) return false;
  // Dimensions go to a reused scratch list first, so the shape gets one
  // exactly sized vector (shapes are leaves: no recursion in between).
  std::vector<int64_t>& dims = dims_scratch_;
  std::vector<bool>& dynamic = dynamic_scratch_;
  dims.clear();
  dynamic.clear();
  bool any_dynamic = false;
  size_t rsquare_end = 0;
  if (!At(Tok::kRsquare)) {
    for (;;) {
      bool dyn = false;
      int64_t d;
      if (Consume(Tok::kQuestion)) {
        d = Shape::kUnboundedDim;
        dyn = true;
      } else {
        if (Consume(Tok::kLeq)) dyn = true;
        Token dt = tok_;
        if (!ParseInt(&d)) return false;
        if (d < 0) return Fail(dt, "dimension size " + std::to_string(d) + " is negative");
      }
      dims.push_back(d);
      dynamic.push_back(dyn);
      any_dynamic |= dyn;
      if (At(Tok::kRsquare)) {
        rsquare_end = tok_.offset + 1;
        Advance();
        break;
      }
      if (!Expect(Tok::kComma, "',' or ']' in the dimensions")) return false;
    }
  } else {
    rsquare_end = tok_.offset + 1;
    Advance();
  }
  if (!IsArrayType(*pt) && !dims.empty())
    return Fail(type_tok, std::string(PrimitiveTypeName(*pt)) + " shapes have no dimensions");
  // Checked element count (an unbounded `?` counts as 0), as CheckedElementCount.
  int64_t count = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(count, d < 0 ? 0 : d, &count))
      return Fail(type_tok, "shape has more elements than a 64-bit count can hold");
  *s = Shape(*pt, std::vector<int64_t>(dims.begin(), dims.end()));
  if (any_dynamic)
    for (size_t i = 0; i < dynamic.size(); ++i) s->SetDynamicDim(static_cast<int>(i), dynamic[i]);
  // As in XLA, a layout must follow the ']' directly: `f32[2]{0}`; a brace
  // after whitespace opens something else (e.g. a computation body).
  if (At(Tok::kLbrace) && tok_.offset == rsquare_end) {
    Lexer la = lex_;
    Tok next = la.Next().kind;
    if (next == Tok::kInt || next == Tok::kRbrace || next == Tok::kColon) return ParseLayout(s);
  }
  return true;
}

bool Parser::ParseLayout(Shape* s) {
  Token open = tok_;
  Advance();  // {
  Layout l;
  std::vector<int64_t>& m2m = dims_scratch_;
  m2m.clear();
  while (At(Tok::kInt)) {
    int64_t v;
    if (!ParseInt(&v)) return false;
    m2m.push_back(v);
    if (!Consume(Tok::kComma)) break;
  }
  l.minor_to_major.assign(m2m.begin(), m2m.end());
  if (At(Tok::kColon)) {
    // Suffix: T(..)(..) E(n) S(n) and others kept verbatim.
    std::string_view src = lex_.source();
    size_t p = tok_.offset + 1;
    size_t q = p;
    int depth = 0;
    while (q < src.size()) {
      char c = src[q];
      if (c == '(') ++depth;
      else if (c == ')') --depth;
      else if (c == '}' && depth == 0) break;
      else if (c == '\n' || c == '{') return Fail("unterminated layout");
      ++q;
    }
    if (q >= src.size()) return Fail("unterminated layout");
    std::string_view suf = src.substr(p, q - p);
    size_t i = 0;
    auto group = [&](std::vector<std::string_view>* items) -> bool {
      if (i >= suf.size() || suf[i] != '(') return false;
      size_t close = suf.find(')', i);
      if (close == std::string_view::npos) return false;
      std::string_view body = suf.substr(i + 1, close - i - 1);
      i = close + 1;
      items->clear();
      size_t a = 0;
      while (a <= body.size()) {
        size_t b = body.find(',', a);
        if (b == std::string_view::npos) b = body.size();
        items->push_back(body.substr(a, b - a));
        a = b + 1;
      }
      return true;
    };
    auto to_int = [](std::string_view t, int64_t* v) {
      while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
      while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
      auto r = std::from_chars(t.data(), t.data() + t.size(), *v);
      return r.ec == std::errc() && r.ptr == t.data() + t.size();
    };
    std::vector<std::string_view> items;
    while (i < suf.size()) {
      if (suf[i] == ' ') {
        ++i;
        continue;
      }
      if (suf[i] == 'T' && i + 1 < suf.size() && suf[i + 1] == '(') {
        ++i;
        while (i < suf.size() && suf[i] == '(') {
          if (!group(&items)) return Fail(open, "invalid tile in layout");
          Tile t;
          for (auto it : items) {
            int64_t v;
            std::string_view trimmed = it;
            while (!trimmed.empty() && trimmed.front() == ' ') trimmed.remove_prefix(1);
            if (trimmed == "*") v = Tile::kCombineDim;
            else if (!to_int(it, &v)) return Fail(open, "invalid tile dimension in layout");
            t.dims.push_back(v);
          }
          l.tiles.push_back(std::move(t));
        }
        continue;
      }
      if ((suf[i] == 'E' || suf[i] == 'S') && i + 1 < suf.size() && suf[i + 1] == '(') {
        char which = suf[i];
        ++i;
        int64_t v;
        if (!group(&items) || items.size() != 1 || !to_int(items[0], &v))
          return Fail(open, std::string("invalid ") + which + "(...) in layout");
        (which == 'E' ? l.element_size_in_bits : l.memory_space) = v;
        continue;
      }
      // Unknown field: letters/symbols then a (...) group, kept verbatim.
      size_t start = i;
      while (i < suf.size() && suf[i] != '(') ++i;
      if (i >= suf.size() || !group(&items)) return Fail(open, "invalid layout field '" + std::string(suf.substr(start)) + "'");
      l.extra += std::string(suf.substr(start, i - start));
    }
    lex_.Seek(q);
    Advance();
  }
  if (!Expect(Tok::kRbrace, "'}' to close the layout")) return false;
  if (s->IsArray()) {
    int rank = s->rank();
    bool ok = static_cast<int>(l.minor_to_major.size()) == rank;
    std::vector<bool>& seen = dynamic_scratch_;  // ParseShape is done with it
    seen.assign(static_cast<size_t>(rank), false);
    for (int64_t d : l.minor_to_major) {
      if (d < 0 || d >= rank || seen[d]) {
        ok = false;
        break;
      }
      seen[d] = true;
    }
    if (!ok && !(l.minor_to_major.empty() && rank == 0))
      return Fail(open, "layout {" + [&] {
        std::string x;
        for (size_t k = 0; k < l.minor_to_major.size(); ++k) x += (k ? "," : "") + std::to_string(l.minor_to_major[k]);
        return x;
      }() + "} is not a permutation of the " + std::to_string(rank) + " dimensions of " + s->ToString(false));
  }
  s->set_layout(std::move(l));
  return true;
}

// ----- literals -----

bool Parser::ParseElement(const Shape& shape, Literal* lit, int64_t index) {
  PrimitiveType t = shape.element_type();
  Token at = tok_;
  if (t == PrimitiveType::kPred) {
    if (AtName("true") || AtName("false")) {
      lit->SetInt(index, tok_.text == "true");
      Advance();
      return true;
    }
    if (At(Tok::kInt) && (tok_.text == "0" || tok_.text == "1")) {
      lit->SetInt(index, tok_.text == "1");
      Advance();
      return true;
    }
    return Fail("expected true or false for a pred value, found '" + std::string(tok_.text.substr(0, 30)) + "'");
  }
  if (IsComplex(t)) {
    if (!Expect(Tok::kLparen, "'(' to start a complex value")) return false;
    double re, im;
    for (double* part : {&re, &im}) {
      std::string_view txt = tok_.text;
      if (!(At(Tok::kInt) || At(Tok::kFloat) || AtName("inf") || AtName("nan")))
        return Fail("expected a number in the complex value");
      auto r = std::from_chars(txt.data(), txt.data() + txt.size(), *part);
      if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) return Fail("invalid number");
      Advance();
      if (part == &re && !Expect(Tok::kComma, "',' in the complex value")) return false;
    }
    if (!Expect(Tok::kRparen, "')' to close the complex value")) return false;
    lit->SetComplex(index, {re, im});
    return true;
  }
  if (IsInteger(t)) {
    if (!At(Tok::kInt)) return Fail("expected an integer value for " + std::string(PrimitiveTypeName(t)) + ", found '" + std::string(tok_.text.substr(0, 30)) + "'");
    std::string_view txt = tok_.text;
    if (IsUnsignedInt(t)) {
      uint64_t u;
      auto r = std::from_chars(txt.data(), txt.data() + txt.size(), u);
      int bits = BitWidth(t);
      if (r.ec != std::errc() || r.ptr != txt.data() + txt.size() || (bits < 64 && u >> bits))
        return Fail("value " + std::string(txt) + " is out of range for " + std::string(PrimitiveTypeName(t)));
      lit->SetInt(index, static_cast<int64_t>(u));
    } else {
      int64_t v;
      auto r = std::from_chars(txt.data(), txt.data() + txt.size(), v);
      int bits = BitWidth(t);
      bool range = r.ec == std::errc() && r.ptr == txt.data() + txt.size();
      if (range && bits < 64) range = v >= -(int64_t{1} << (bits - 1)) && v < (int64_t{1} << (bits - 1));
      if (!range) return Fail("value " + std::string(txt) + " is out of range for " + std::string(PrimitiveTypeName(t)));
      lit->SetInt(index, v);
    }
    Advance();
    return true;
  }
  // Floating point.
  if (!(At(Tok::kInt) || At(Tok::kFloat) || AtName("inf") || AtName("nan")))
    return Fail(at, "expected a floating-point value, found '" + std::string(tok_.text.substr(0, 30)) + "'");
  std::string_view txt = tok_.text;
  if (!txt.empty() && txt[0] == '+') txt.remove_prefix(1);
  if (t == PrimitiveType::kF32) {
    float f;
    auto r = std::from_chars(txt.data(), txt.data() + txt.size(), f);
    if (r.ec == std::errc::result_out_of_range) f = std::strtof(std::string(txt).c_str(), nullptr);
    else if (r.ec != std::errc()) return Fail("invalid number '" + std::string(txt) + "'");
    lit->Set<float>(index, f);
  } else {
    double d;
    auto r = std::from_chars(txt.data(), txt.data() + txt.size(), d);
    if (r.ec == std::errc::result_out_of_range) d = std::strtod(std::string(txt).c_str(), nullptr);
    else if (r.ec != std::errc()) return Fail("invalid number '" + std::string(txt) + "'");
    lit->SetDouble(index, d);
  }
  Advance();
  return true;
}

bool Parser::ParseArrayLiteral(const Shape& shape, Literal* lit) {
  const int rank = shape.rank();
  if (rank == 0) {
    bool braced = Consume(Tok::kLbrace);
    if (!ParseElement(shape, lit, 0)) return false;
    if (braced && !Expect(Tok::kRbrace, "'}'")) return false;
    return true;
  }
  const auto& dims = shape.dims();
  int64_t index = 0;
  const int64_t total = lit->num_elements();
  // Flat form: {1, 2, 3, 4} for a rank>1 shape is accepted too.
  Lexer la = lex_;
  bool flat = rank > 1 && At(Tok::kLbrace) && la.Next().kind != Tok::kLbrace;
  if (flat) {
    Advance();
    for (int64_t i = 0; i < total; ++i) {
      if (i && !Expect(Tok::kComma, "','")) return false;
      if (!ParseElement(shape, lit, index++)) return false;
    }
    return Expect(Tok::kRbrace, "'}' after " + std::to_string(total) + " values");
  }
  // Nested form, iteratively: a stack of (dimension, count so far).
  std::vector<int64_t> counts(rank, 0);
  int d = 0;
  if (!Expect(Tok::kLbrace, "'{' to start the constant's values")) return false;
  for (;;) {
    if (At(Tok::kRbrace)) {
      if (counts[d] != dims[d])
        return Fail("expected " + std::to_string(dims[d]) + " values in dimension " + std::to_string(d) +
                    " of " + shape.ToString(false) + ", found " + std::to_string(counts[d]));
      Advance();
      if (d == 0) break;
      counts[d] = 0;
      --d;
      ++counts[d];
      continue;
    }
    if (counts[d] > 0 && !Expect(Tok::kComma, "',' between values")) return false;
    if (counts[d] >= dims[d])
      return Fail("too many values in dimension " + std::to_string(d) + " of " + shape.ToString(false) +
                  " (expected " + std::to_string(dims[d]) + ")");
    if (d < rank - 1) {
      if (!Expect(Tok::kLbrace, "'{' for dimension " + std::to_string(d + 1))) return false;
      ++d;
      continue;
    }
    if (index >= total) return Fail("too many values for " + shape.ToString(false));
    if (!ParseElement(shape, lit, index++)) return false;
    ++counts[d];
  }
  return true;
}

bool Parser::ParseLiteral(const Shape& shape, Literal* lit, int depth) {
  if (depth > kMaxNesting) return Fail("constant nesting is too deep");
  if (shape.IsTuple()) {
    if (!Expect(Tok::kLparen, "'(' to start a tuple constant")) return false;
    std::vector<Literal> elems;
    for (int i = 0; i < shape.tuple_size(); ++i) {
      if (i && !Expect(Tok::kComma, "',' in the tuple constant")) return false;
      Literal e;
      if (!ParseLiteral(shape.tuple_shapes()[i], &e, depth + 1)) return false;
      elems.push_back(std::move(e));
    }
    if (!Expect(Tok::kRparen, "')' to close the tuple constant")) return false;
    *lit = Literal(shape);
    lit->tuple_elements() = std::move(elems);
    return true;
  }
  if (!shape.IsArray()) return Fail("constants of type " + std::string(PrimitiveTypeName(shape.element_type())) + " are not allowed");
  if (At(Tok::kLbrace)) {
    Lexer la = lex_;
    if (la.Next().kind == Tok::kEllipsis) {
      Advance();
      Advance();
      if (!Expect(Tok::kRbrace, "'}' after '...'")) return false;
      *lit = Literal::Elided(shape);
      return true;
    }
  }
  if (shape.rank() > 0 && !At(Tok::kLbrace)) {
    // A single value for an array: every element takes it (XLA's splat form).
    Literal scalar(Shape(shape.element_type(), {}));
    if (!ParseElement(scalar.shape(), &scalar, 0)) return false;
    *lit = Literal::Splat(shape, scalar);
    return true;
  }
  int64_t n = shape.num_elements();
  // Each value takes at least two characters of text: refuse impossible sizes
  // before allocating.
  size_t remaining = lex_.source().size() - tok_.offset;
  if (shape.IsDynamic()) return Fail("constants with dynamic dimensions are not supported");
  if (n > 0 && static_cast<uint64_t>(n) > remaining)
    return Fail("constant of shape " + shape.ToString(false) + " has " + std::to_string(n) +
                " elements but the file has only " + std::to_string(remaining) + " characters left");
  *lit = Literal(shape);
  return ParseArrayLiteral(shape, lit);
}

}  // namespace hloscope
