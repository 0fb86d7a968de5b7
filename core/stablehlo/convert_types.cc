// MLIR element types, tensor types and dense<...> bodies → HLO types and literals.
#include <cctype>
#include <algorithm>
#include <cstring>

#include "core/ir/float_types.h"
#include "core/stablehlo/convert_internal.h"

namespace hloscope::mlir {

StatusOr<PrimitiveType> ElementTypeFromMlir(const std::string& e) {
  static const std::pair<const char*, PrimitiveType> kMap[] = {
      {"i1", PrimitiveType::kPred},        {"i2", PrimitiveType::kS2},          {"i4", PrimitiveType::kS4},
      {"i8", PrimitiveType::kS8},          {"i16", PrimitiveType::kS16},        {"i32", PrimitiveType::kS32},
      {"i64", PrimitiveType::kS64},        {"si8", PrimitiveType::kS8},         {"si16", PrimitiveType::kS16},
      {"si32", PrimitiveType::kS32},       {"si64", PrimitiveType::kS64},       {"ui2", PrimitiveType::kU2},
      {"ui4", PrimitiveType::kU4},         {"ui8", PrimitiveType::kU8},         {"ui16", PrimitiveType::kU16},
      {"ui32", PrimitiveType::kU32},       {"ui64", PrimitiveType::kU64},       {"f16", PrimitiveType::kF16},
      {"bf16", PrimitiveType::kBF16},      {"f32", PrimitiveType::kF32},        {"f64", PrimitiveType::kF64},
      {"f8E5M2", PrimitiveType::kF8E5M2},  {"f8E4M3", PrimitiveType::kF8E4M3},  {"f8E4M3FN", PrimitiveType::kF8E4M3FN},
      {"f8E4M3B11FNUZ", PrimitiveType::kF8E4M3B11FNUZ},                        {"f8E5M2FNUZ", PrimitiveType::kF8E5M2FNUZ},
      {"f8E4M3FNUZ", PrimitiveType::kF8E4M3FNUZ},                              {"f8E3M4", PrimitiveType::kF8E3M4},
      {"f8E8M0FNU", PrimitiveType::kF8E8M0FNU},                                {"f4E2M1FN", PrimitiveType::kF4E2M1FN},
      {"complex<f32>", PrimitiveType::kC64},                                    {"complex<f64>", PrimitiveType::kC128},
      {"index", PrimitiveType::kS64},
  };
  for (const auto& [n, t] : kMap)
    if (e == n) return t;
  if (e.find("quant") != std::string::npos) return Unsupported("quantized type " + e);
  return Unsupported("element type " + e);
}

StatusOr<Shape> ShapeFromType(const Type& t) {
  if (t.kind == Type::kToken) return Shape::Scalar(PrimitiveType::kToken);
  if (t.kind == Type::kTuple) {
    std::vector<Shape> el;
    for (const Type& e : t.tuple) {
      ASSIGN_OR_RETURN(Shape s, ShapeFromType(e));
      el.push_back(std::move(s));
    }
    return Shape::Tuple(std::move(el));
  }
  if (t.element.empty()) return Unsupported("type '" + t.text + "'");
  ASSIGN_OR_RETURN(PrimitiveType pt, ElementTypeFromMlir(t.element));
  for (int64_t d : t.dims)
    if (d < 0) return Unsupported("dynamic shape " + t.text);
  if (t.bounded) return Unsupported("bounded dynamic shape " + t.text);
  if (!CheckedElementCount(t.dims)) return Error("tensor too large: " + t.text);
  return Shape(pt, t.dims);
}

namespace {

// Writes the low `bytes` bytes of `bits` at element i.
void SetBits(Literal& l, int64_t i, uint64_t bits) {
  std::memcpy(l.raw() + i * l.element_bytes(), &bits, l.element_bytes());
}

Status SetElement(Literal& l, int64_t i, const std::string& tok, PrimitiveType t) {
  if (tok == "true" || tok == "false") {
    l.SetInt(i, tok == "true");
    return Status::Ok();
  }
  bool hex = tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
  if (IsFloat(t) || IsComplex(t)) {
    if (hex) {
      try {
        SetBits(l, i, std::stoull(tok, nullptr, 16));
      } catch (...) {  // not hex digits, or more than 64 bits of them
        return Error("bad number '" + tok + "' in dense<>");
      }
      return Status::Ok();
    }
    std::string v = tok;
    double d;
    if (v == "inf" || v == "+inf") d = std::numeric_limits<double>::infinity();
    else if (v == "-inf") d = -std::numeric_limits<double>::infinity();
    else if (v == "nan" || v == "-nan") d = std::numeric_limits<double>::quiet_NaN();
    else {
      char* end = nullptr;
      d = std::strtod(v.c_str(), &end);
      if (end == v.c_str()) return Error("bad number '" + tok + "' in dense<>");
    }
    l.SetDouble(i, d);
    return Status::Ok();
  }
  try {
    if (hex) {
      l.SetInt(i, static_cast<int64_t>(std::stoull(tok, nullptr, 16)));
    } else if (!tok.empty() && tok[0] == '-') {
      l.SetInt(i, std::stoll(tok));
    } else {
      l.SetInt(i, static_cast<int64_t>(std::stoull(tok)));
    }
  } catch (...) {
    return Error("bad integer '" + tok + "' in dense<>");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<Literal> LiteralFromDense(const std::string& body_in, const Shape& shape) {
  if (body_in.starts_with("<")) return Unsupported("constant " + body_in);
  if (!shape.IsArray()) return Error("dense<> for a non-array type");
  PrimitiveType t = shape.element_type();
  // A literal is built in memory: a type of more than 1 GiB is refused
  // before allocating (the StableHLO fuzzer asked for 533 PB).
  constexpr int64_t kMaxConstantBytes = int64_t{1} << 30;
  const std::optional<int64_t> checked = CheckedElementCount(shape.dims());
  const int64_t count = checked.value_or(-1);
  const int64_t elem_bytes = std::max<int64_t>(BitWidth(t), 8) / 8;
  if (count < 0 || count > kMaxConstantBytes / elem_bytes)
    return Error("dense<> constant of " + std::to_string(count) + " elements is larger than 1 GiB; "
                 "write it as a broadcast of a scalar");
  Literal l(shape);
  int64_t n = shape.num_elements();
  std::string body = body_in;
  // Hex string: raw little-endian bytes.
  size_t q = body.find('"');
  if (q != std::string::npos) {
    size_t q2 = body.find('"', q + 1);
    std::string hex = body.substr(q + 1, q2 == std::string::npos ? std::string::npos : q2 - q - 1);
    if (hex.starts_with("0x") || hex.starts_with("0X")) hex = hex.substr(2);
    auto nibble = [](char c) {
      return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    };
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
      if (hi < 0 || lo < 0) return Error("hex constant: '" + hex.substr(i, 2) + "' is not a hex byte");
      bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
    }
    if (hex.size() % 2) return Error("hex constant has an odd number of digits");
    int64_t eb = l.element_bytes();
    if (BitWidth(t) < 8 && t != PrimitiveType::kPred) return Unsupported("hex constant of sub-byte type");
    if (static_cast<int64_t>(bytes.size()) == eb * n) {
      if (n) std::memcpy(l.raw(), bytes.data(), bytes.size());
    } else if (static_cast<int64_t>(bytes.size()) == eb) {
      for (int64_t i = 0; i < n; ++i) std::memcpy(l.raw() + i * eb, bytes.data(), eb);
    } else {
      return Error("hex constant has " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(eb * n));
    }
    return l;
  }
  // Elements in order; complex as (re, im).
  std::vector<std::string> toks;
  std::vector<bool> complex_start;
  std::string cur;
  bool in_paren = false;
  for (char c : body + ",") {
    if (c == '(') {
      in_paren = true;
      continue;
    }
    if (c == ')') in_paren = false;
    if (c == '[' || c == ']' || c == ')' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) toks.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  (void)in_paren;
  int per = IsComplex(t) ? 2 : 1;
  int64_t given = static_cast<int64_t>(toks.size()) / per;
  if (given != n && given != 1) {
    return Error("dense<> has " + std::to_string(given) + " elements, type has " + std::to_string(n));
  }
  // A splat into a whole-byte type: its element is read once and copied
  // (a splat of tens of millions of elements, read per element, took
  // seconds: found by the StableHLO fuzzer as a timeout).
  const bool whole_bytes = !(BitWidth(t) < 8 && t != PrimitiveType::kPred);
  const int64_t parsed = given == 1 && n > 1 && whole_bytes ? 1 : n;
  for (int64_t i = 0; i < parsed; ++i) {
    int64_t src = given == 1 ? 0 : i;
    if (per == 2) {
      Literal re(Shape::Scalar(ComplexComponentType(t))), im(Shape::Scalar(ComplexComponentType(t)));
      RETURN_IF_ERROR(SetElement(re, 0, toks[2 * src], re.shape().element_type()));
      RETURN_IF_ERROR(SetElement(im, 0, toks[2 * src + 1], im.shape().element_type()));
      l.SetComplex(i, {re.GetDouble(0), im.GetDouble(0)});
    } else {
      RETURN_IF_ERROR(SetElement(l, i, toks[src], t));
    }
  }
  if (parsed < n) {
    // Doubling copies of the first element fill the rest.
    const int64_t eb = l.element_bytes();
    for (int64_t done = 1; done < n;) {
      const int64_t k = std::min(done, n - done);
      std::memcpy(l.raw() + done * eb, l.raw(), static_cast<size_t>(k * eb));
      done += k;
    }
  }
  return l;
}

}  // namespace hloscope::mlir
