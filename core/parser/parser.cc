// Module, computation and instruction structure of HLO text.
#include "core/parser/parser.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/parser/name_scan.h"
#include "core/parser/parser_impl.h"
#include "core/support/str_util.h"
#include "core/verify/shape_inference.h"

namespace hloscope {

bool Parser::Fail(const Token& at, std::string msg) {
  if (!error_.ok()) return false;  // keep the first error
  error_ = Status::Error(file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.col) +
                         ": error: " + msg);
  return false;
}

namespace {
std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kEof: return "end of file";
    case Tok::kError: return "invalid character '" + std::string(t.text.substr(0, 1)) + "'";
    default: {
      std::string s(t.text.substr(0, 40));
      return "'" + s + "'";
    }
  }
}
}  // namespace

bool Parser::ExpectFailed(std::string_view what) {
  return Fail("expected " + std::string(what) + ", found " + Describe(tok_));
}

bool Parser::ParseHeader(Module* m) {
  Advance();  // HloModule
  if (!At(Tok::kName)) return Fail("expected a module name after 'HloModule', found " + Describe(tok_));
  m->set_name(std::string(StripPercent(tok_.text)));
  Advance();
  Consume(Tok::kColon);  // `HloModule name:` appears in older dumps
  while (At(Tok::kComma)) {
    Advance();
    if (!At(Tok::kName)) return Fail("expected a module attribute name, found " + Describe(tok_));
    std::string name(tok_.text);
    Advance();
    if (!Expect(Tok::kEqual, "'='")) return false;
    std::string value;
    if (!ParseRawValue(&value)) return false;
    m->header_attrs().push_back({std::move(name), std::move(value)});
  }
  return true;
}

namespace {
bool IsDebugTableName(std::string_view s) {
  return s == "FileNames" || s == "FunctionNames" || s == "FileLocations" || s == "StackFrames";
}
}  // namespace

bool Parser::ParseDebugTable(Module* m) {
  DebugTable table;
  table.name = std::string(tok_.text);
  Advance();
  while (At(Tok::kInt)) {
    int64_t id;
    if (!ParseInt(&id)) return false;
    std::string value;
    if (!ParseRawValue(&value)) return false;
    table.rows.push_back({id, std::move(value)});
  }
  m->debug_tables().push_back(std::move(table));
  return true;
}

bool Parser::ParseComputation(Module* m) {
  bool is_entry = false;
  if (AtName("ENTRY")) {
    is_entry = true;
    Advance();
  }
  if (!At(Tok::kName))
    return Fail("expected a computation name, found " + Describe(tok_));
  Token name_tok = tok_;
  const std::string_view name_text = StripPercent(tok_.text);
  std::string name(name_text);
  Advance();
  if (!comp_by_name_.insert(name_text, nullptr).second)
    return Fail(name_tok, "computation '" + name + "' is defined twice");
  if (At(Tok::kLparen) && !TrySkipPlainSignature()) {  // (p0: f32[], ...) -> shape
    Advance();
    while (!At(Tok::kRparen)) {
      if (!At(Tok::kName)) return Fail("expected a parameter name, found " + Describe(tok_));
      Advance();
      if (!Expect(Tok::kColon, "':'")) return false;
      Shape ignored;
      if (!ParseShape(&ignored)) return false;
      if (!At(Tok::kRparen) && !Expect(Tok::kComma, "',' or ')'")) return false;
    }
    Advance();
    if (!Expect(Tok::kArrow, "'->'")) return false;
    Shape ignored;
    if (!ParseShape(&ignored)) return false;
  }
  if (!Consume(Tok::kLbrace) && !Expect(Tok::kLbrace, "'{' to open computation '" + name + "'")) return false;
  auto comp = std::make_unique<Computation>(name);
  comp->set_is_entry(is_entry);
  comp->set_loc({name_tok.line, name_tok.col});
  Computation* c = m->AddComputation(std::move(comp));
  *comp_by_name_.find(name_text) = c;
  cur_comp_ = c;
  // The table keeps its arrays (no allocation for each of thousands of small
  // computations); clearing it does not walk them.
  names_.clear();
  comp_body_start_ = tok_.offset;
  names_sized_ = false;
  pending_ops_.clear();
  deferring_ = false;
  pending_ctrl_.clear();
  Instruction* root = nullptr;
  Token root_tok;
  Instruction* last = nullptr;
  while (!At(Tok::kRbrace)) {
    if (tok_.offset >= next_handoff_) {  // a worker parsed the text from here on
      if (!TakeChunk(c, &root, &root_tok, &last)) return false;
      continue;
    }
    if (At(Tok::kEof))
      return Fail("unexpected end of file: computation '" + name + "' is not closed with '}'");
    Token start = tok_;
    bool is_root = false;
    if (!ParseInstruction(c, &is_root)) return false;
    last = &*c->instructions().back();
    if (is_root) {
      if (root) return Fail(start, "computation '" + name + "' has more than one ROOT");
      root = last;
      root_tok = start;
    }
  }
  Advance();  // }
  if (!last) return Fail(name_tok, "computation '" + name + "' has no instructions");
  c->set_root(root ? root : last);
  // Trailing computation attributes: }, execution_thread="..."
  while (At(Tok::kComma)) {
    Lexer la = lex_;
    Token t1 = la.Next();
    if (!(tok_.kind == Tok::kComma && t1.kind == Tok::kName)) break;
    Token t2 = la.Next();
    if (t2.kind != Tok::kEqual) break;
    Advance();
    std::string attr(tok_.text);
    Advance();
    Advance();
    std::string value;
    if (!ParseRawValue(&value)) return false;
    c->trailing_attrs += ", " + attr + "=" + value;
  }
  return ResolveComputation();
}

bool Parser::ResolveComputation() {
  // Every instruction has its id now; users go in id order (a chunk's
  // worker linked the operands it could resolve before this).
  for (const PendingOperand& p : pending_ops_) {
    if (p.nested) {
      Instruction* op = OperandFor(p.nested, p, p.instr);
      if (!op) return false;
      p.instr->AppendOperandSorted(op);
      continue;
    }
    Instruction** found = names_.find(p.name);
    if (!found) {
      Token at;
      at.line = p.line;
      at.col = p.col;
      return Fail(at, "use of undefined value '" + std::string(p.name) + "' (operand of '" + p.instr->name() + "')");
    }
    Instruction* op = OperandFor(*found, p, p.instr);
    if (!op) return false;
    if (p.slot >= 0) p.instr->FillOperand(p.slot, op);
    else p.instr->AppendOperandSorted(op);
  }
  for (auto& [instr, preds] : pending_ctrl_) {
    for (auto& [n, at] : preds) {
      Instruction** found = names_.find(n);
      if (!found)
        return Fail(at, "control predecessor '" + std::string(n) + "' of '" + instr->name() + "' is not defined");
      (*found)->AddControlDependencyTo(instr);
    }
  }
  return true;
}

bool Parser::ParseInstruction(Computation* c, bool* is_root) {
  if (AtName("ROOT")) {
    *is_root = true;
    Advance();
  }
  if (!At(Tok::kName)) return Fail("expected an instruction name, found " + Describe(tok_));
  Token name_tok = tok_;
  std::string_view name = StripPercent(tok_.text);
  // The name goes into a table larger than the caches once the instruction
  // is parsed: hash it now and ask for its slot meanwhile.
  const uint64_t hash = HashName(name);
  (chunk_mode_ ? chunk_names_ : names_).Prefetch(hash);
  Advance();
  if (!Consume(Tok::kEqual) && !Expect(Tok::kEqual, "'=' after instruction name '" + std::string(name) + "'"))
    return false;
  Instruction* raw = nullptr;
  if (!ParseInstructionTail(c, std::string(name), name_tok, /*allow_attrs=*/true, &raw)) return false;
  if (chunk_mode_) {
    // Names are entered when the chunk is taken. Operands defined earlier in
    // the chunk are linked here (the taker would find the same ones, or stop
    // at a name defined twice before it gets to them); the others keep a
    // placeholder slot and stay queued by name for the taker.
    size_t first = pending_ops_.size();
    while (first > 0 && pending_ops_[first - 1].instr == raw) --first;
    size_t keep = first;
    for (size_t k = first; k < pending_ops_.size(); ++k) {
      PendingOperand p = pending_ops_[k];
      if (Instruction** found = chunk_names_.find(p.name)) {
        raw->AppendOperand(*found);
        continue;
      }
      p.slot = raw->operand_count();
      p.hash = HashName(p.name);
      raw->AppendOperandPlaceholder();
      pending_ops_[keep++] = p;
    }
    pending_ops_.resize(keep);
    if (!chunk_names_.insert_hashed(raw->name(), hash, raw).second)
      return Fail(name_tok, "chunk: name defined twice");  // the serial parse words the error
    chunk_hashes_.push_back(hash);
    return true;
  }
  if (!names_.insert_hashed(raw->name(), hash, raw).second)
    return Fail(name_tok, "instruction '" + raw->name() + "' is defined twice in computation '" + c->name() + "'");
  if (!names_sized_ && names_.size() >= kLargeComputation && !chunks_.empty()) {
    names_sized_ = true;
    // A large computation in a parallel parse: size the name table once for
    // the rest of the text at this computation's density, rather than
    // doubling (each rehash writes every name into a table larger than the
    // caches) and growing again when the workers' names come in.
    const size_t done = tok_.offset - comp_body_start_;
    const size_t rest = lex_.source().size() - tok_.offset;
    if (done > 0)
      names_.reserve(names_.size() +
                     static_cast<size_t>(static_cast<double>(rest) * static_cast<double>(names_.size()) /
                                         static_cast<double>(done)));
  }
  return true;
}

bool Parser::AtShapeStart() const {
  if (At(Tok::kLparen)) return true;
  if (!At(Tok::kName)) return false;
  size_t after = tok_.offset + tok_.text.size();
  if (after >= lex_.source().size()) return false;
  // Cheap test first: a shape's type name is followed directly by '['.
  if (lex_.source()[after] == '[') return TypeFromName(tok_.text).has_value();
  return lex_.source()[after] == '(' && tok_.text == "b";  // a buffer shape, b(f32[2])
}

bool Parser::ParseInstructionTail(Computation* c, std::string name, const Token& name_tok,
                                  bool allow_attrs, Instruction** out) {
  if (++nesting_ > 64) return Fail("instructions nested deeper than 64 levels");
  // The shape is read straight into the instruction (the opcode follows it).
  auto instr = std::make_unique<Instruction>(Opcode::kParameter, std::move(name));
  bool shapeless = !AtShapeStart();
  if (!shapeless && !ParseShape(instr->mutable_shape())) return false;
  if (!At(Tok::kName)) return Fail("expected an opcode, found " + Describe(tok_));
  Token op_tok = tok_;
  auto op = OpcodeFromName(tok_.text);
  if (!op) {
    if (shapeless) return Fail("expected a shape or an opcode, found " + Describe(tok_));
    return Fail("unknown opcode '" + std::string(tok_.text) + "'");
  }
  Advance();
  instr->set_opcode(*op);
  instr->set_loc({name_tok.line, name_tok.col});
  Instruction* raw = instr.get();
  if (shapeless) {
    if (chunk_mode_) return Fail(op_tok, "chunk: shapeless instruction");  // the serial parse decides
    shapeless_.push_back({raw, op_tok});
  }
  if (!At(Tok::kLparen)) return ExpectFailed("'(' after opcode");
  if (*op != Opcode::kParameter && *op != Opcode::kConstant) {
    if (!ParseOperands(c, raw)) return false;  // from the '('
  } else if (*op == Opcode::kParameter) {
    Advance();  // (
    int64_t n;
    Token nt = tok_;
    if (!ParseInt(&n)) return false;
    if (n < 0 || n >= (1 << 24)) return Fail(nt, "parameter number " + std::to_string(n) + " is out of range");
    raw->set_parameter_number(n);
    if (!Expect(Tok::kRparen, "')'")) return false;
  } else {
    Advance();  // (
    if (shapeless) return Fail(op_tok, "a constant needs a shape");
    if (!raw->shape().IsArray() && !raw->shape().IsTuple())
      return Fail(op_tok, "a constant must have an array or tuple shape");
    auto lit = std::make_unique<Literal>();
    if (!ParseLiteral(raw->shape(), lit.get())) return false;
    raw->set_literal(std::move(lit));
    if (!Expect(Tok::kRparen, "')' after the constant's value")) return false;
  }
  if (allow_attrs) {
    while (At(Tok::kComma)) {
      Advance();
      if (!ParseAttribute(raw)) return false;
    }
  }
  if (chunk_mode_)
    chunk_instrs_.push_back(std::move(instr));
  else
    c->AddInstruction(std::move(instr));
  *out = raw;
  --nesting_;
  return true;
}

bool Parser::ParseOperands(Computation* c, Instruction* instr) {
  const size_t first = pending_ops_.size();
  size_t count = 0;
  bool any_nested = false;
  // At the '('.
  Token last_at;
  const bool plain = TryParsePlainOperands(instr, &count, &last_at);  // `(a, b)` on one line
  if (!plain) {
    Advance();  // (
    last_at = tok_;
  }
  if (plain) {
    // Taken straight from the text.
  } else if (!At(Tok::kRparen)) {
    for (;;) {
      // Optional operand shape: f32[2]{0} %x or (f32[], s32[]) %t.
      bool typed = AtShapeStart();
      Token operand_start = tok_;
      Shape operand_shape;
      if (typed && !ParseShape(&operand_shape)) return false;
      if (!At(Tok::kName)) return Fail("expected an operand name, found " + Describe(tok_));
      Token at = tok_;
      last_at = at;
      size_t after = tok_.offset + tok_.text.size();
      bool nested = after < lex_.source().size() && lex_.source()[after] == '(' && OpcodeFromName(tok_.text);
      if (nested && chunk_mode_) return Fail(at, "chunk: nested instruction");  // the serial parse decides
      if (nested) {
        // An instruction written inline as an operand: add(f32[] parameter(0), ...).
        // Re-read from the operand's start so the nested instruction gets its shape.
        lex_.Seek(operand_start.offset);
        Advance();
        Instruction* inner = nullptr;
        if (!ParseInstructionTail(c, "\x01nested", at, /*allow_attrs=*/false, &inner)) return false;
        generated_instrs_.push_back(inner);
        pending_ops_.push_back({instr, {}, inner, at.line, at.col});
        any_nested = true;
      } else {
        PendingOperand po{instr, StripPercent(tok_.text), nullptr, tok_.line, tok_.col};
        if (after < lex_.source().size() && lex_.source()[after] == '#') {
          // `%x#N`: element N of the tuple-shaped x, as today's XLA writes
          // a use of a multi-output instruction.
          if (chunk_mode_) return Fail(at, "chunk: tuple element operand");  // the serial parse decides
          const std::string_view src = lex_.source();
          std::vector<int64_t> path;
          size_t q = after;
          while (q < src.size() && src[q] == '#') {
            const size_t hash = q++;
            int64_t v = 0;
            while (q < src.size() && src[q] >= '0' && src[q] <= '9') {
              if (v > (int64_t{1} << 40)) break;
              v = v * 10 + (src[q] - '0');
              ++q;
            }
            Token hash_at = at;
            hash_at.col = at.col + static_cast<int>(hash - at.offset);
            if (q == hash + 1)
              return Fail(hash_at, "expected a tuple element number after '#' in operand '" +
                                       std::string(StripPercent(tok_.text)) + "'");
            if (q < src.size() && src[q] >= '0' && src[q] <= '9')
              return Fail(hash_at, "tuple element number after '#' is out of range");
            path.push_back(v);
          }
          po.element = static_cast<int32_t>(element_paths_.size());
          element_paths_.push_back(std::move(path));
          pending_ops_.push_back(po);
          lex_.SkipOnLine(q);  // digits: no newline
          Advance();
        } else {
          pending_ops_.push_back(po);
          Advance();
        }
      }
      ++count;
      if (At(Tok::kRparen)) break;
      if (!Expect(Tok::kComma, "',' or ')' in the operand list")) return false;
    }
    Advance();  // )
  } else {
    Advance();  // )
  }
  if (auto arity = OpcodeArity(instr->opcode()); arity && *arity != static_cast<int>(count)) {
    // Structural arity check; the verifier repeats it with more context.
    return Fail(count == 0 ? tok_ : last_at,
                "'" + std::string(OpcodeName(instr->opcode())) + "' takes " + std::to_string(*arity) +
                    " operand(s) but '" + instr->name() + "' has " + std::to_string(count));
  }
  instr->ReserveOperands(count);
  if (any_nested) {
    // Nested instructions queued their own operands among ours; keep theirs
    // first, as they are complete before this instruction.
    std::stable_partition(pending_ops_.begin() + static_cast<std::ptrdiff_t>(first), pending_ops_.end(),
                          [instr](const PendingOperand& p) { return p.instr != instr; });
    deferring_ = true;
  }
  return LinkOrQueueOperands(instr, first);
}

namespace {
// Character classes of names as the lexer reads them: 1 = may start a name,
// 2 = may continue one ('-' is handled apart: "->" ends a name).
struct NameChars {
  unsigned char cls[256] = {};
  constexpr NameChars() {
    for (int c = 0; c < 256; ++c) {
      const bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
      cls[c] = static_cast<unsigned char>((start ? 1 : 0) | (start || (c >= '0' && c <= '9') || c == '.' ? 2 : 0));
    }
  }
};
constexpr NameChars kNameChars;
inline bool IsNameStart(char c) { return kNameChars.cls[static_cast<unsigned char>(c)] & 1; }
inline bool IsNameChar(char c) { return c == '-' || (kNameChars.cls[static_cast<unsigned char>(c)] & 2); }
}  // namespace

bool Parser::TryParsePlainOperands(Instruction* instr, size_t* count, Token* last_at) {
  // Only `(name, name, ...)` written on one line, with plain spaces: anything
  // else (typed or nested operands, no operands, comments, line breaks,
  // errors) leaves everything as it was for the token-by-token path. The
  // current token is the '(' (the first operand is not lexed as a token).
  if (!At(Tok::kLparen)) return false;
  const std::string_view src = lex_.source();
  const size_t n = src.size();
  const size_t first = pending_ops_.size();
  size_t q = tok_.offset + 1;
  while (q < n && src[q] == ' ') ++q;
  for (;;) {
    const size_t start = q;
    bool ok;
    if (q < n && src[q] == '%') {
      ++q;
      ok = q < n && IsNameChar(src[q]);
    } else {
      ok = q < n && IsNameStart(src[q]);
    }
    if (ok) q = static_cast<size_t>(ScanNameChars(src.data() + q, src.data() + n) - src.data());
    size_t r = q;
    while (r < n && src[r] == ' ') ++r;
    if (!ok || r >= n || (src[r] != ',' && src[r] != ')')) {
      pending_ops_.resize(first);
      return false;
    }
    const size_t name_at = src[start] == '%' ? start + 1 : start;
    const int col = tok_.col + static_cast<int>(start - tok_.offset);
    pending_ops_.push_back({instr, src.substr(name_at, q - name_at), nullptr, tok_.line, col});
    last_at->line = tok_.line;
    last_at->col = col;
    q = r + 1;
    if (src[r] == ')') break;
    while (q < n && src[q] == ' ') ++q;
  }
  *count = pending_ops_.size() - first;
  lex_.SkipOnLine(q);  // scanned above: no newline
  Advance();
  return true;
}

bool Parser::LinkOrQueueOperands(Instruction* instr, size_t first) {
  if (!deferring_) {
    // Operands are usually defined before their users: link them now, while
    // they are hot, and queue nothing. After the first forward reference,
    // every later instruction is queued too, so operand and user lists come
    // out in the same order as when everything is resolved at the end.
    for (size_t k = first; k < pending_ops_.size(); ++k) {
      if (pending_ops_[k].nested) continue;  // resolved by a chunk's worker
      Instruction** found = names_.find(pending_ops_[k].name);
      if (!found) {
        deferring_ = true;
        break;
      }
      pending_ops_[k].nested = *found;  // resolved
    }
    if (!deferring_) {
      for (size_t k = first; k < pending_ops_.size(); ++k) {
        const PendingOperand& p = pending_ops_[k];
        Instruction* op = p.element < 0 ? p.nested : OperandFor(p.nested, p, nullptr);
        if (!op) return false;
        instr->AppendOperand(op);
      }
      pending_ops_.resize(first);
    }
  }
  return true;
}

Instruction* Parser::OperandFor(Instruction* named, const PendingOperand& p, Instruction* user_in_list) {
  if (p.element < 0) return named;
  Instruction* cur = named;
  std::string written = "%" + named->name();
  for (int64_t index : element_paths_[static_cast<size_t>(p.element)]) {
    written += "#" + std::to_string(index);
    Instruction* found = nullptr;
    auto& elements = implicit_elements_[cur];
    for (const auto& [n, gte] : elements)
      if (n == index) found = gte;
    if (found) {
      cur = found;
      continue;
    }
    Token at;
    at.line = p.line;
    at.col = p.col;
    if (!cur->shape().IsTuple()) {
      if (cur->shape().element_type() == PrimitiveType::kInvalid)
        Fail(at, "operand '" + written + "' names an element of '" + cur->name() +
                     "', whose shape is not written (write its tuple shape)");
      else
        Fail(at, "operand '" + written + "' names a tuple element, but '" + cur->name() + "' has shape " +
                     cur->shape().ToString() + ", which is not a tuple");
      return nullptr;
    }
    if (index >= cur->shape().tuple_size()) {
      Fail(at, "operand '" + written + "' names tuple element " + std::to_string(index) + ", but '" +
                   cur->name() + "' has " + std::to_string(cur->shape().tuple_size()) + " element(s)");
      return nullptr;
    }
    // The name cannot clash with one written in the text ('#' ends a name).
    auto gte = std::make_unique<Instruction>(Opcode::kGetTupleElement,
                                             cur->shape().tuple_shapes()[static_cast<size_t>(index)],
                                             cur->name() + "#" + std::to_string(index));
    gte->attrs().index = index;
    gte->attrs().mark(Attr::kIndex);
    gte->set_implicit_tuple_element(true);
    gte->set_loc({p.line, p.col});
    Instruction* raw = cur_comp_->AddInstructionBefore(std::move(gte), user_in_list);
    if (user_in_list)
      raw->AppendOperandSorted(cur);
    else
      raw->AppendOperand(cur);
    elements.emplace_back(index, raw);
    cur = raw;
  }
  return cur;
}

bool Parser::ParseInlineComputation(Instruction* instr, const std::string& attr) {
  // to_apply={ a = f32[] parameter(0) ... }: a computation written in place.
  Token open = tok_;
  if (chunk_mode_) return Fail(open, "chunk: inline computation");  // the serial parse decides
  Advance();  // {
  auto saved_names = std::move(names_);
  auto saved_ops = std::move(pending_ops_);
  bool saved_deferring = deferring_;
  auto saved_ctrl = std::move(pending_ctrl_);
  Computation* saved_comp = cur_comp_;
  names_.clear();
  pending_ops_.clear();
  deferring_ = false;
  pending_ctrl_.clear();
  auto comp = std::make_unique<Computation>("\x01" + instr->name() + "." + attr);
  comp->set_loc({open.line, open.col});
  Computation* c = module_->AddComputationBefore(std::move(comp), saved_comp);
  generated_comps_.push_back(c);
  cur_comp_ = c;
  Instruction* root = nullptr;
  Instruction* last = nullptr;
  while (!At(Tok::kRbrace)) {
    if (At(Tok::kEof)) return Fail("unexpected end of file in an inline computation");
    Token start = tok_;
    bool is_root = false;
    if (!ParseInstruction(c, &is_root)) return false;
    last = &*c->instructions().back();
    if (is_root) {
      if (root) return Fail(start, "inline computation has more than one ROOT");
      root = last;
    }
  }
  Advance();
  if (!last) return Fail(open, "inline computation has no instructions");
  c->set_root(root ? root : last);
  if (!ResolveComputation()) return false;
  names_ = std::move(saved_names);
  pending_ops_ = std::move(saved_ops);
  deferring_ = saved_deferring;
  pending_ctrl_ = std::move(saved_ctrl);
  cur_comp_ = saved_comp;
  instr->mutable_called_refs().push_back(CalledRef{attr, {c}, false});
  return true;
}

bool Parser::TryResolveCall(const PendingCall& pc) {
  Computation* found[4];
  const size_t n = pc.names.size();
  if (n > 4) return false;  // resolved at the end
  for (size_t k = 0; k < n; ++k) {
    Computation** f = comp_by_name_.find(pc.names[k].first);
    if (!f || !*f) return false;
    found[k] = *f;
  }
  CalledRef& ref = pc.instr->mutable_called_refs()[pc.ref_index];
  const bool fusion = pc.instr->opcode() == Opcode::kFusion && ref.attr == "calls";
  ref.comps.assign(found, found + n);
  if (fusion)
    for (size_t k = 0; k < n; ++k) found[k]->fusion_instruction = pc.instr;
  return true;
}

bool Parser::ResolveModule(Module* m) {
  // Every computation written in the text is in comp_by_name_ (inline ones
  // cannot be named). References to computations defined before their
  // caller were resolved when read (TryResolveCall).
  for (auto& pc : pending_calls_) {
    auto& ref = pc.instr->mutable_called_refs()[pc.ref_index];
    for (auto& [n, at] : pc.names) {
      Computation** found = comp_by_name_.find(n);
      if (!found || !*found) return Fail(at, "unknown computation '" + std::string(n) + "'");
      ref.comps.push_back(*found);
      if (pc.instr->opcode() == Opcode::kFusion && ref.attr == "calls") (*found)->fusion_instruction = pc.instr;
    }
  }
  Computation* entry = nullptr;
  for (const auto& c : m->computations()) {
    if (!c->is_entry()) continue;
    if (entry) {
      Token t;
      t.line = c->loc().line;
      t.col = c->loc().col;
      return Fail(t, "more than one ENTRY computation ('" + entry->name() + "' and '" + c->name() + "')");
    }
    entry = c.get();
  }
  if (!entry) {
    if (m->computations().empty()) return Fail(tok_, "the module has no computations");
    entry = m->computations().back().get();
    entry->set_is_entry(true);
  }
  m->set_entry(entry);
  return true;
}

bool Parser::FinishModule(Module* m) {
  for (Instruction* i : generated_instrs_) i->set_name(m->UniqueName(OpcodeName(i->opcode())));
  for (Computation* c : generated_comps_) c->set_name(m->UniqueComputationName(c->name().substr(1)));
  if (shapeless_.empty()) return true;
  // Instructions written without a shape get it from shape inference, in an
  // order where operands and callees come first.
  std::unordered_map<const Instruction*, Token> pending;
  for (auto& [i, t] : shapeless_) pending[i] = t;
  for (const auto& c : m->computations()) {
    for (Instruction* i : c->MakePostOrder()) {
      auto it = pending.find(i);
      if (it == pending.end()) continue;
      auto shape = InferShape(*i);
      if (!shape.ok())
        return Fail(it->second, "cannot infer the shape of '" + i->name() + "' (write it explicitly): " +
                                    shape.status().message());
      *i->mutable_shape() = *shape;
      pending.erase(it);
    }
  }
  if (!pending.empty()) return Fail(pending.begin()->second, "cannot infer the shape of an unreachable instruction");
  return true;
}

StatusOr<std::unique_ptr<Module>> Parser::ParseModule() {
  auto m = std::make_unique<Module>("module");
  module_ = m.get();
  if (AtName("HloModule")) {
    if (!ParseHeader(m.get())) return error_;
  } else {
    m->set_has_header(false);
  }
  while (!At(Tok::kEof)) {
    if (At(Tok::kName) && IsDebugTableName(tok_.text)) {
      Lexer la = lex_;
      if (la.Next().kind == Tok::kInt) {
        if (!ParseDebugTable(m.get())) return error_;
        continue;
      }
    }
    if (!ParseComputation(m.get())) return error_;
  }
  if (!ResolveModule(m.get())) return error_;
  if (!FinishModule(m.get())) return error_;
  return m;
}

StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text, std::string_view filename) {
  return ParseHloModule(text, filename, ParseOptions());
}

StatusOr<std::unique_ptr<Module>> ParseHloModule(std::string_view text, std::string_view filename,
                                                 const ParseOptions& opts) {
  Parser p(text, filename);
  p.StartChunks(opts);
  auto m = p.ParseModule();
  if (opts.chunks_taken) *opts.chunks_taken = p.chunks_taken_;
  return m;
}

StatusOr<std::string> ReadFileToString(const std::string& path) {
  // A folder opens as a stream on Linux and reports an absurd size: say what
  // it is instead (a kernel bundle is a folder with manifest.json).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Status::Error(path + ": error: is a folder, not a file" +
                         (std::filesystem::exists(std::filesystem::path(path) / "manifest.json", ec)
                              ? std::string(" (a kernel bundle: run it with hloscope-run " + path + ")")
                              : std::string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": error: cannot open file: " + OpenFailureReason(path));
  // One buffer of the file's size, filled in place (no stream copy, so the
  // text is held once).
  std::string text;
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size <= 0) in.clear();  // not seekable: read it as a stream below
  if (size > 0) {
    text.resize(static_cast<size_t>(size));
    in.read(text.data(), size);
    text.resize(static_cast<size_t>(in.gcount()));
  }
  // Not a regular file (a pipe, /dev/stdin) or it grew: read the rest.
  char buf[65536];
  while (in.read(buf, sizeof(buf)) || in.gcount() > 0) text.append(buf, static_cast<size_t>(in.gcount()));
  if (in.bad()) return Status::Error(path + ": error: read failed");
  return text;
}

StatusOr<std::unique_ptr<Module>> ParseHloFile(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text.ok()) return text.status();
  auto m = ParseHloModule(*text, path);
  if (m.ok()) (*m)->set_source_path(path);
  return m;
}

bool Parser::ParseShapeOnly(Shape* s) {
  if (!ParseShape(s)) return false;
  if (!At(Tok::kEof)) return Fail("unexpected " + Describe(tok_) + " after the shape");
  return true;
}

StatusOr<Shape> ParseShape(std::string_view text) {
  Parser p(text, "<shape>");
  Shape s;
  if (!p.ParseShapeOnly(&s)) return p.error();
  return s;
}

}  // namespace hloscope
