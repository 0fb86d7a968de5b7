// Instruction attributes: typed ones parsed into Attrs, called computations,
// metadata, control predecessors, and everything else kept verbatim.
#include <charconv>
#include <cstring>
#include <iterator>

#include "core/parser/name_scan.h"
#include "core/parser/parser_impl.h"

namespace hloscope {

namespace {
bool SplitInts(std::string_view text, char sep, std::vector<int64_t>* out) {
  out->clear();
  size_t a = 0;
  while (a <= text.size()) {
    size_t b = text.find(sep, a);
    if (b == std::string_view::npos) b = text.size();
    std::string_view part = text.substr(a, b - a);
    int64_t v;
    auto r = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || r.ec != std::errc() || r.ptr != part.data() + part.size()) return false;
    out->push_back(v);
    a = b + 1;
  }
  return true;
}
// A letter or '_': what starts a metadata field name.
inline bool IsWordStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
}  // namespace

bool Parser::ParseRawValue(std::string* out, bool allow_spaces) {
  // Fast path: a string, integer or name token (already lexed) followed by
  // a character where ScanRaw stops at depth 0 is the whole value.
  if (!allow_spaces && (At(Tok::kString) || At(Tok::kInt) || At(Tok::kName))) {
    std::string_view src = lex_.source();
    size_t end = tok_.offset + tok_.text.size();
    char c = end < src.size() ? src[end] : ',';
    if (c == ' ' || c == '\t' || c == ',' || c == '}' || c == ')' || c == ']' || c == '\n' || c == '\r') {
      *out = std::string(tok_.text);  // exactly sized (assign would round up the capacity)
      Advance();
      return true;
    }
  }
  bool ok;
  Token at = tok_;
  std::string_view v = lex_.ScanRaw(tok_.offset, &ok, allow_spaces);
  if (!ok) return Fail(at, "unbalanced brackets or unterminated string in attribute value");
  if (v.empty()) return Fail(at, "expected an attribute value, found '" + std::string(at.text.substr(0, 20)) + "'");
  *out = std::string(v);
  Advance();
  return true;
}

bool Parser::ParseWindow(Window* w) {
  if (!Expect(Tok::kLbrace, "'{' to start the window")) return false;
  w->dims.clear();
  std::vector<std::pair<std::string, std::vector<int64_t>>> fields;
  while (!At(Tok::kRbrace)) {
    if (!At(Tok::kName)) return Fail("expected a window field (size, stride, pad, lhs_dilate, rhs_dilate, rhs_reversal)");
    std::string field(tok_.text);
    Advance();
    if (!Expect(Tok::kEqual, "'='")) return false;
    std::string_view text = tok_.text;
    std::vector<int64_t> vals;
    if (field == "pad") {
      if (!(At(Tok::kPad) || At(Tok::kInt))) return Fail("expected padding like 1_1x0_0");
      // lo_hi pairs separated by x.
      size_t a = 0;
      while (a <= text.size()) {
        size_t b = text.find('x', a);
        if (b == std::string_view::npos) b = text.size();
        std::vector<int64_t> pair;
        if (!SplitInts(text.substr(a, b - a), '_', &pair) || pair.size() != 2)
          return Fail("invalid window padding '" + std::string(text) + "'");
        vals.push_back(pair[0]);
        vals.push_back(pair[1]);
        a = b + 1;
      }
    } else {
      if (!(At(Tok::kDxD) || At(Tok::kInt))) return Fail("expected dimensions like 3x3 for window " + field);
      if (!SplitInts(text, 'x', &vals)) return Fail("invalid window " + field + " '" + std::string(text) + "'");
    }
    Advance();
    fields.push_back({field, vals});
  }
  Advance();
  size_t rank = 0;
  for (auto& [f, v] : fields)
    if (f == "size") rank = v.size();
  w->dims.assign(rank, WindowDim{});
  for (auto& [f, v] : fields) {
    size_t expect = f == "pad" ? 2 * rank : rank;
    if (v.size() != expect) return Fail("window field '" + f + "' has " + std::to_string(v.size()) + " values but the window has " + std::to_string(rank) + " dimensions");
    for (size_t i = 0; i < rank; ++i) {
      WindowDim& d = w->dims[i];
      if (f == "size") d.size = v[i];
      else if (f == "stride") d.stride = v[i];
      else if (f == "pad") { d.pad_lo = v[2 * i]; d.pad_hi = v[2 * i + 1]; }
      else if (f == "lhs_dilate") d.base_dilation = v[i];
      else if (f == "rhs_dilate") d.window_dilation = v[i];
      else if (f == "rhs_reversal") d.reversal = v[i] != 0;
      else return Fail("unknown window field '" + f + "'");
    }
  }
  return true;
}

bool Parser::ParseDimLabels(ConvDnums* d) {
  if (!At(Tok::kDimLabels)) return Fail("expected dimension labels like b01f_01io->b01f");
  std::string_view t = tok_.text;
  size_t us = t.find('_'), ar = t.find("->");
  std::string_view parts[3] = {t.substr(0, us), t.substr(us + 1, ar - us - 1), t.substr(ar + 2)};
  const char* letters[3] = {"bf", "io", "bf"};
  int64_t* a[3] = {&d->input_batch, &d->kernel_input_feature, &d->output_batch};
  int64_t* b[3] = {&d->input_feature, &d->kernel_output_feature, &d->output_feature};
  std::vector<int64_t>* sp[3] = {&d->input_spatial, &d->kernel_spatial, &d->output_spatial};
  size_t rank = parts[0].size();
  for (int k = 0; k < 3; ++k) {
    if (parts[k].size() != rank) return Fail("dimension labels '" + std::string(t) + "' have parts of different ranks");
    *a[k] = *b[k] = -1;
    sp[k]->assign(rank >= 2 ? rank - 2 : 0, -1);
    for (size_t i = 0; i < rank; ++i) {
      char c = parts[k][i];
      if (c == letters[k][0]) *a[k] = static_cast<int64_t>(i);
      else if (c == letters[k][1]) *b[k] = static_cast<int64_t>(i);
      else if (c >= '0' && c <= '9' && static_cast<size_t>(c - '0') < sp[k]->size()) (*sp[k])[c - '0'] = static_cast<int64_t>(i);
      else return Fail("invalid dimension label '" + std::string(1, c) + "' in '" + std::string(t) + "'");
    }
    bool ok = *a[k] >= 0 && *b[k] >= 0;
    for (int64_t s : *sp[k]) ok = ok && s >= 0;
    if (!ok) return Fail("dimension labels '" + std::string(t) + "' do not name every dimension once");
  }
  Advance();
  return true;
}

bool Parser::ParsePadding(std::vector<PadDim>* p) {
  if (!At(Tok::kPad)) return Fail("expected padding like 0_0x1_1 (low_high[_interior] per dimension)");
  std::string_view text = tok_.text;
  p->clear();
  size_t a = 0;
  while (a <= text.size()) {
    size_t b = text.find('x', a);
    if (b == std::string_view::npos) b = text.size();
    std::vector<int64_t> v;
    if (!SplitInts(text.substr(a, b - a), '_', &v) || v.size() < 2 || v.size() > 3)
      return Fail("invalid padding '" + std::string(text) + "'");
    p->push_back({v[0], v[1], v.size() == 3 ? v[2] : 0});
    a = b + 1;
  }
  Advance();
  return true;
}

bool Parser::ParseSliceRanges(std::vector<SliceDim>* s) {
  if (!Expect(Tok::kLbrace, "'{' to start the slice")) return false;
  s->clear();
  while (!At(Tok::kRbrace)) {
    if (!Expect(Tok::kLsquare, "'[' to start a slice range")) return false;
    SliceDim d;
    if (!ParseInt(&d.start)) return false;
    if (!Expect(Tok::kColon, "':'")) return false;
    if (!ParseInt(&d.limit)) return false;
    if (Consume(Tok::kColon) && !ParseInt(&d.stride)) return false;
    if (!Expect(Tok::kRsquare, "']'")) return false;
    s->push_back(d);
    if (!At(Tok::kRbrace) && !Expect(Tok::kComma, "',' between slice ranges")) return false;
  }
  Advance();
  return true;
}

bool Parser::TryParsePlainMetadata(Instruction* instr) {
  // Fields are `name=value` separated by spaces or commas, on one line,
  // where a value is a quoted string or a run of letters, digits and '_'
  // followed by ' ', ',' or '}': exactly the cases where the token path
  // below takes the value as one token, so the fields come out the same.
  if (!At(Tok::kLbrace)) return false;
  const std::string_view src = lex_.source();
  const char* const base = src.data();
  const size_t n = src.size();
  constexpr size_t kMaxFields = 16;
  // Offsets and sizes in the text (left uninitialized: zeroing 32 views
  // cost more than the scan).
  struct Span {
    size_t at, size;
  };
  Span names[kMaxFields], values[kMaxFields];
  size_t count = 0;
  size_t q = tok_.offset + 1;
  for (;;) {
    while (q < n && src[q] == ' ') ++q;
    if (q >= n) return false;
    if (src[q] == '}') break;
    if (count == kMaxFields || !IsWordStart(src[q])) return false;
    const size_t name = q;
    q = static_cast<size_t>(ScanWordChars(base + q, base + n) - base);
    if (q >= n || src[q] != '=') return false;
    names[count] = {name, q - name};
    const size_t value = ++q;
    if (q < n && src[q] == '"') {
      // The closing quote, unless an escape or a newline comes first.
      q = static_cast<size_t>(FindQuoteEscapeOrNewline(base + q + 1, base + n) - base);
      if (q >= n || src[q] != '"') return false;
      ++q;
    } else {
      q = static_cast<size_t>(ScanWordChars(base + q, base + n) - base);
      if (q == value) return false;
    }
    if (q >= n || (src[q] != ' ' && src[q] != ',' && src[q] != '}')) return false;
    values[count++] = {value, q - value};
    if (src[q] == ',') ++q;
  }
  size_t bytes = 0;
  for (size_t k = 0; k < count; ++k) bytes += names[k].size + values[k].size;
  Metadata& md = instr->metadata();
  md.Reserve(count, bytes);  // one allocation
  for (size_t k = 0; k < count; ++k)
    if (!md.Add(src.substr(names[k].at, names[k].size), src.substr(values[k].at, values[k].size))) {
      md.clear();
      return false;  // a name too long: the token path words the error
    }
  lex_.SkipOnLine(q + 1);
  Advance();
  return true;
}

bool Parser::ParseMetadata(Instruction* instr) {
  if (TryParsePlainMetadata(instr)) return true;
  if (!Expect(Tok::kLbrace, "'{' to start metadata")) return false;
  // Fields go to a reused scratch list, then into the instruction's Metadata
  // in one allocation (a module holds one per instruction).
  std::vector<RawAttr>& fields = metadata_scratch_;
  fields.clear();
  while (!At(Tok::kRbrace)) {
    if (!At(Tok::kName)) return Fail("expected a metadata field name, found '" + std::string(tok_.text.substr(0, 20)) + "'");
    if (tok_.text.size() > Metadata::kMaxNameSize) return Fail("metadata field name is too long");
    fields.emplace_back();
    RawAttr& field = fields.back();
    field.name = std::string(tok_.text);
    Advance();
    if (!Consume(Tok::kEqual) && !Expect(Tok::kEqual, "'=' in metadata")) return false;
    if (!ParseRawValue(&field.value)) return false;
    Consume(Tok::kComma);  // some writers separate fields with commas
  }
  Advance();
  size_t bytes = 0;
  for (const RawAttr& f : fields) bytes += f.name.size() + f.value.size();
  Metadata& md = instr->metadata();
  md.Reserve(fields.size(), bytes);
  for (const RawAttr& f : fields) md.Add(f.name, f.value);
  return true;
}

bool Parser::ParseCalledRef(Instruction* instr, std::string attr) {
  if (At(Tok::kLbrace)) {
    Lexer la = lex_;
    Token t1 = la.Next();
    Token t2 = la.Next();
    if ((t1.kind == Tok::kName && t2.kind == Tok::kEqual) || (t1.kind == Tok::kName && t1.text == "ROOT"))
      return ParseInlineComputation(instr, attr);
  }
  PendingCall pc{instr, instr->called_refs().size(), {}};
  bool braced = At(Tok::kLbrace);
  if (braced) {
    Advance();
    while (!At(Tok::kRbrace)) {
      if (!At(Tok::kName)) return Fail("expected a computation name, found '" + std::string(tok_.text.substr(0, 20)) + "'");
      pc.names.push_back({StripPercent(tok_.text), tok_});
      Advance();
      if (!At(Tok::kRbrace) && !Expect(Tok::kComma, "',' between computation names")) return false;
    }
    Advance();
  } else {
    if (!At(Tok::kName)) return Fail("expected a computation name, found '" + std::string(tok_.text.substr(0, 20)) + "'");
    pc.names.push_back({StripPercent(tok_.text), tok_});
    Advance();
  }
  instr->mutable_called_refs().push_back(CalledRef{std::move(attr), {}, braced});
  // Computations are usually defined before their callers: resolved now,
  // while the instruction is hot (a worker cannot see the table; its taker
  // resolves them).
  if (!chunk_mode_ && TryResolveCall(pc)) return true;
  pending_calls_.push_back(std::move(pc));
  return true;
}

bool Parser::ParseControlPredecessors(Instruction* instr) {
  if (!Expect(Tok::kLbrace, "'{' to start control-predecessors")) return false;
  std::vector<std::pair<std::string_view, Token>> names;
  while (!At(Tok::kRbrace)) {
    if (!At(Tok::kName)) return Fail("expected an instruction name in control-predecessors");
    names.push_back({StripPercent(tok_.text), tok_});
    Advance();
    if (!At(Tok::kRbrace) && !Expect(Tok::kComma, "','")) return false;
  }
  Advance();
  pending_ctrl_.push_back({instr, std::move(names)});
  return true;
}

bool Parser::ParseAttribute(Instruction* instr) {
  if (!At(Tok::kName)) return Fail("expected an attribute name, found '" + std::string(tok_.text.substr(0, 30)) + "'");
  Token at = tok_;
  const std::string_view name = tok_.text;  // a view into the source text
  auto quoted = [&] { return "'" + std::string(name) + "'"; };
  Advance();
  if (!Consume(Tok::kEqual) && !Expect(Tok::kEqual, "'=' after attribute " + quoted())) return false;
  // The typed attributes are created on first use: most attributes that
  // reach here are kept verbatim or name computations.
  Attrs* attrs = nullptr;
  auto A = [&]() -> Attrs& {
    if (!attrs) attrs = &instr->attrs();
    return *attrs;
  };
  const Opcode op = instr->opcode();
  auto once = [&](Attr k) {
    if (A().has(k)) return Fail(at, "attribute " + quoted() + " is given twice");
    A().mark(k);
    return true;
  };
  auto parse_bool = [&](bool* v) {
    if (AtName("true") || AtName("false")) {
      *v = tok_.text == "true";
      Advance();
      return true;
    }
    return Fail("expected true or false for " + quoted());
  };
  auto dot = [&]() -> DotDnums& {
    if (!A().dot) A().dot = std::make_unique<DotDnums>();
    A().mark(Attr::kDotDims);
    return *A().dot;
  };
  auto gather = [&]() -> GatherDnums& {
    if (!A().gather) A().gather = std::make_unique<GatherDnums>();
    A().mark(Attr::kGatherDims);
    return *A().gather;
  };
  auto scatter = [&]() -> ScatterDnums& {
    if (!A().scatter) A().scatter = std::make_unique<ScatterDnums>();
    A().mark(Attr::kScatterDims);
    return *A().scatter;
  };

  if (name == "dimensions") return once(Attr::kDimensions) && ParseBracedInts(&A().dimensions);
  if (name == "slice" && op == Opcode::kSlice) return once(Attr::kSlice) && ParseSliceRanges(&A().slice);
  if (name == "dynamic_slice_sizes" && op == Opcode::kDynamicSlice)
    return once(Attr::kDynamicSliceSizes) && ParseBracedInts(&A().dynamic_slice_sizes);
  if (name == "slice_sizes" && op == Opcode::kGather)
    return once(Attr::kSliceSizes) && ParseBracedInts(&A().dynamic_slice_sizes);
  if (name == "padding" && op == Opcode::kPad) return once(Attr::kPadding) && ParsePadding(&A().padding);
  // A custom-call carries a convolution's window and dim_labels when it is
  // one (XLA GPU's cuDNN calls, `__cudnn$convForward`).
  const bool conv_like = op == Opcode::kConvolution || op == Opcode::kCustomCall;
  if (name == "window" && (conv_like || op == Opcode::kReduceWindow || op == Opcode::kSelectAndScatter)) {
    A().window = std::make_unique<Window>();
    return once(Attr::kWindow) && ParseWindow(A().window.get());
  }
  if (name == "dim_labels" && conv_like) {
    A().conv = std::make_unique<ConvDnums>();
    return once(Attr::kDimLabels) && ParseDimLabels(A().conv.get());
  }
  if (name == "feature_group_count" && conv_like)
    return once(Attr::kFeatureGroupCount) && ParseInt(&A().feature_group_count);
  if (name == "batch_group_count" && conv_like)
    return once(Attr::kBatchGroupCount) && ParseInt(&A().batch_group_count);
  if (op == Opcode::kDot || op == Opcode::kRaggedDot || op == Opcode::kScaledDot) {
    if (name == "lhs_batch_dims") return ParseBracedInts(&dot().lhs_batch);
    if (name == "rhs_batch_dims") return ParseBracedInts(&dot().rhs_batch);
    if (name == "lhs_contracting_dims") return ParseBracedInts(&dot().lhs_contracting);
    if (name == "rhs_contracting_dims") return ParseBracedInts(&dot().rhs_contracting);
  }
  if (op == Opcode::kGather) {
    if (name == "offset_dims") return ParseBracedInts(&gather().offset_dims);
    if (name == "collapsed_slice_dims") return ParseBracedInts(&gather().collapsed_slice_dims);
    if (name == "start_index_map") return ParseBracedInts(&gather().start_index_map);
    if (name == "operand_batching_dims") return ParseBracedInts(&gather().operand_batching_dims);
    if (name == "start_indices_batching_dims") return ParseBracedInts(&gather().start_indices_batching_dims);
    if (name == "index_vector_dim") return ParseInt(&gather().index_vector_dim);
  }
  if (op == Opcode::kScatter) {
    if (name == "update_window_dims") return ParseBracedInts(&scatter().update_window_dims);
    if (name == "inserted_window_dims") return ParseBracedInts(&scatter().inserted_window_dims);
    if (name == "scatter_dims_to_operand_dims") return ParseBracedInts(&scatter().scatter_dims_to_operand_dims);
    if (name == "input_batching_dims") return ParseBracedInts(&scatter().input_batching_dims);
    if (name == "scatter_indices_batching_dims") return ParseBracedInts(&scatter().scatter_indices_batching_dims);
    if (name == "index_vector_dim") return ParseInt(&scatter().index_vector_dim);
    if (name == "unique_indices") return once(Attr::kUniqueIndices) && parse_bool(&A().unique_indices);
  }
  if (name == "indices_are_sorted" && (op == Opcode::kGather || op == Opcode::kScatter))
    return once(Attr::kIndicesAreSorted) && parse_bool(&A().indices_are_sorted);
  if (name == "direction" && op == Opcode::kCompare) {
    if (!once(Attr::kDirection)) return false;
    auto d = At(Tok::kName) ? DirectionFromName(tok_.text) : std::nullopt;
    if (!d) return Fail("expected a comparison direction (EQ, NE, LT, LE, GT, GE)");
    A().direction = *d;
    Advance();
    return true;
  }
  if (name == "type" && op == Opcode::kCompare) {
    if (!once(Attr::kCompareType)) return false;
    if (!(AtName("FLOAT") || AtName("TOTALORDER") || AtName("SIGNED") || AtName("UNSIGNED")))
      return Fail("expected a comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED)");
    A().compare_type = std::string(tok_.text);
    Advance();
    return true;
  }
  if (name == "iota_dimension" && op == Opcode::kIota)
    return once(Attr::kIotaDimension) && ParseInt(&A().iota_dimension);
  if (name == "kind" && op == Opcode::kFusion) {
    if (!once(Attr::kFusionKind)) return false;
    auto k = At(Tok::kName) ? FusionKindFromName(tok_.text) : std::nullopt;
    if (!k) return Fail("expected a fusion kind (kLoop, kInput, kOutput, kCustom)");
    A().fusion_kind = *k;
    Advance();
    return true;
  }
  if (name == "index" && op == Opcode::kGetTupleElement) return once(Attr::kIndex) && ParseInt(&A().index);
  if (name == "exponent_bits" && op == Opcode::kReducePrecision)
    return once(Attr::kExponentBits) && ParseInt(&A().exponent_bits);
  if (name == "mantissa_bits" && op == Opcode::kReducePrecision)
    return once(Attr::kMantissaBits) && ParseInt(&A().mantissa_bits);
  if (name == "is_stable" && op == Opcode::kSort) return once(Attr::kIsStable) && parse_bool(&A().is_stable);
  if (name == "custom_call_target" && op == Opcode::kCustomCall) {
    if (!once(Attr::kCustomCallTarget)) return false;
    if (!At(Tok::kString)) return Fail("expected a quoted custom_call_target");
    A().custom_call_target = UnquoteString(tok_.text);
    Advance();
    return true;
  }
  if (name == "metadata") {
    if (!instr->metadata().empty()) return Fail(at, "attribute 'metadata' is given twice");
    return ParseMetadata(instr);
  }
  if (name == "control-predecessors") return ParseControlPredecessors(instr);
  if (name == "to_apply" || name == "calls" || name == "condition" || name == "body" ||
      name == "true_computation" || name == "false_computation" || name == "branch_computations" ||
      name == "called_computations" ||
      ((name == "select" || name == "scatter") && op == Opcode::kSelectAndScatter)) {
    for (const auto& r : instr->called_refs())
      if (r.attr == name) return Fail(at, "attribute " + quoted() + " is given twice");
    return ParseCalledRef(instr, std::string(name));
  }
  if (instr->FindRaw(name)) return Fail(at, "attribute " + quoted() + " is given twice");
  std::string value;
  if (!ParseRawValue(&value, /*allow_spaces=*/true)) return false;
  instr->raw_attrs().push_back({std::string(name), std::move(value)});
  return true;
}

}  // namespace hloscope
