// Internal: the recursive-descent parser class shared by parser*.cc.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/flat_name_map.h"
#include "core/ir/module.h"
#include "core/parser/lexer.h"
#include "core/parser/parser.h"
#include "core/support/status.h"

namespace hloscope {

struct ChunkJob;

class Parser {
 public:
  Parser(std::string_view text, std::string_view filename, bool lex_first = true) : lex_(text), file_(filename) {
    if (lex_first) Advance();
  }
  ~Parser();  // joins the chunk workers still running

  StatusOr<std::unique_ptr<Module>> ParseModule();
  bool ParseShapeOnly(Shape* s);
  const Status& error() const { return error_; }

  // --- token handling ---
  void Advance() { lex_.NextInto(&tok_); }
  bool At(Tok k) const { return tok_.kind == k; }
  bool AtName(std::string_view s) const { return tok_.kind == Tok::kName && tok_.text == s; }
  bool Consume(Tok k) {
    if (!At(k)) return false;
    Advance();
    return true;
  }
  bool Expect(Tok k, std::string_view what) {
    if (!At(k)) return ExpectFailed(what);
    Advance();
    return true;
  }
  bool ExpectFailed(std::string_view what);
  bool Fail(const Token& at, std::string msg);
  bool Fail(std::string msg) { return Fail(tok_, std::move(msg)); }
  bool failed() const { return !error_.ok(); }

  // --- pieces (parser_shapes.cc) ---
  bool ParseShape(Shape* s, int depth = 0);
  // Fast path of ParseShape for the common `type[d,...]` / `type[d,...]{m,...}`
  // written without spaces: scans the text directly. Returns false, having
  // changed nothing, whenever ParseShape must decide (anything else, errors).
  bool TryParsePlainShape(Shape* s);
  // The plain array shape whose type name is text[type_start, type_end):
  // its end (dims in dims_scratch_, a layout in layout_scratch_), or npos.
  size_t ScanPlainArrayShape(size_t type_start, size_t type_end, PrimitiveType* type, bool* has_layout);
  // Skips a computation's signature `(a: f32[2], ...) -> f32[]` written
  // plainly on one line; false (having changed nothing) otherwise.
  bool TrySkipPlainSignature();
  bool ParseLayout(Shape* s);
  bool ParseInt(int64_t* v);
  bool ParseIntList(std::vector<int64_t>* v, Tok open, Tok close);
  bool ParseBracedInts(std::vector<int64_t>* v) { return ParseIntList(v, Tok::kLbrace, Tok::kRbrace); }
  bool ParseLiteral(const Shape& shape, Literal* lit, int depth = 0);
  bool ParseArrayLiteral(const Shape& shape, Literal* lit);
  bool ParseElement(const Shape& shape, Literal* lit, int64_t index);

  // --- attributes (parser_attrs.cc) ---
  bool ParseAttribute(Instruction* instr);
  bool ParseWindow(Window* w);
  bool ParseDimLabels(ConvDnums* d);
  bool ParsePadding(std::vector<PadDim>* p);
  bool ParseSliceRanges(std::vector<SliceDim>* s);
  bool ParseMetadata(Instruction* instr);
  // Fast path of ParseMetadata for the usual one-line `{op_name="..." ...}`,
  // scanned from the text; false (having changed nothing) otherwise.
  bool TryParsePlainMetadata(Instruction* instr);
  bool ParseRawValue(std::string* out, bool allow_spaces = false);
  bool ParseCalledRef(Instruction* instr, std::string attr);
  bool ParseControlPredecessors(Instruction* instr);

  // --- structure (parser.cc) ---
  bool ParseHeader(Module* m);
  bool ParseDebugTable(Module* m);
  bool ParseComputation(Module* m);
  bool ParseInstruction(Computation* c, bool* is_root);
  bool AtShapeStart() const;
  bool ParseInstructionTail(Computation* c, std::string name, const Token& name_tok, bool allow_attrs,
                            Instruction** out);
  bool ParseOperands(Computation* c, Instruction* instr);
  // Fast path of ParseOperands for plain `(a, b)` on one line, scanned from
  // the text; false (having changed nothing) whenever the token path decides.
  bool TryParsePlainOperands(Instruction* instr, size_t* count, Token* last_at);
  bool ParseInlineComputation(Instruction* instr, const std::string& attr);
  bool FinishModule(Module* m);
  // After the operands of `instr` were queued at pending_ops_[first...]:
  // links them now when all are defined and nothing was deferred yet,
  // otherwise leaves them queued (and defers from then on).
  bool LinkOrQueueOperands(Instruction* instr, size_t first);
  bool ResolveComputation();
  bool ResolveModule(Module* m);
  struct PendingCall;
  // Resolves a called-computation reference when every computation it names
  // is defined already; false (nothing changed) otherwise.
  bool TryResolveCall(const PendingCall& pc);

  // PrimitiveTypeFromName with the common names answered without hashing
  // (asked about once or twice per instruction).
  static std::optional<PrimitiveType> TypeFromName(std::string_view t) {
    if (t.size() == 3) {
      const char a = t[0], b = t[1], c = t[2];
      if (a == 'f' && b == '3' && c == '2') return PrimitiveType::kF32;
      if (a == 's' && b == '3' && c == '2') return PrimitiveType::kS32;
      if (a == 'f' && b == '1' && c == '6') return PrimitiveType::kF16;
      if (a == 'u' && b == '3' && c == '2') return PrimitiveType::kU32;
      if (a == 's' && b == '6' && c == '4') return PrimitiveType::kS64;
    } else if (t.size() == 4) {
      if (t == "bf16") return PrimitiveType::kBF16;
      if (t == "pred") return PrimitiveType::kPred;
    }
    return PrimitiveTypeFromName(t);
  }

  std::string_view StripPercent(std::string_view s) const {
    return (!s.empty() && s[0] == '%') ? s.substr(1) : s;
  }

  // Scratch lists reused by ParseShape/ParseLayout (never live across a call).
  std::vector<int64_t> dims_scratch_;
  std::vector<int64_t> layout_scratch_;  // TryParsePlainShape's minor_to_major
  std::vector<bool> dynamic_scratch_;
  std::vector<RawAttr> metadata_scratch_;  // ParseMetadata's fields

  Lexer lex_;
  std::string file_;
  Token tok_;
  Status error_;
  Module* module_ = nullptr;
  // Computations by name (views into the text): duplicates, and the
  // called-computation references resolved at the end.
  FlatNameMap<Computation*> comp_by_name_;

  // Per-computation state.
  FlatNameMap<Instruction*> names_;
  size_t comp_body_start_ = 0;  // offset of the computation's first token after its header
  bool names_sized_ = false;     // names_ was sized for a large computation
  static constexpr size_t kLargeComputation = 4096;
  // Operands by name, resolved when the computation is complete (operands
  // may be defined after their users). One flat list; an instruction's
  // entries are in operand order.
  struct PendingOperand {
    Instruction* instr;
    std::string_view name;  // empty for an operand written inline (nested)
    Instruction* nested;    // the operand when already known (written inline)
    int line, col;
    int slot = -1;          // a chunk's placeholder operand to fill; -1: append
    uint64_t hash = 0;      // HashName(name) when slot >= 0 (the worker's text was hot)
    // `%name#N` (or nested, `%name#1#0`): an index into element_paths_ of
    // the tuple elements named (implicit get-tuple-elements); -1: none.
    int32_t element = -1;
  };
  std::vector<std::vector<int64_t>> element_paths_;
  // The operand a pending entry names once `named` is found: `named` itself,
  // or for `%x#N` the implicit get-tuple-element of element N of x (one per
  // (x, N), created on first use just before `user`, or at the end of the
  // computation's list when `user` is not in it yet; `%x#1#0` chains two).
  // Null after Fail.
  Instruction* OperandFor(Instruction* named, const PendingOperand& p, Instruction* user_in_list);
  std::unordered_map<Instruction*, std::vector<std::pair<int64_t, Instruction*>>> implicit_elements_;
  std::vector<PendingOperand> pending_ops_;
  bool deferring_ = false;  // a forward reference was seen: queue the rest
  // (Names are views into the text, which outlives the parse.)
  std::vector<std::pair<Instruction*, std::vector<std::pair<std::string_view, Token>>>> pending_ctrl_;
  // Per-module: called computation references resolved at the end.
  struct PendingCall {
    Instruction* instr;
    size_t ref_index;
    std::vector<std::pair<std::string_view, Token>> names;
  };
  std::vector<PendingCall> pending_calls_;
  // Inline syntax: nested operand instructions, shapeless instructions and
  // inline called computations, completed in FinishModule.
  int nesting_ = 0;
  Computation* cur_comp_ = nullptr;
  std::vector<std::pair<Instruction*, Token>> shapeless_;
  std::vector<Instruction*> generated_instrs_;
  std::vector<Computation*> generated_comps_;

  // --- parallel parse (parser_chunks.cc) ---
  // Starts workers that parse runs of instruction lines further on in the
  // text while this parser reads from the start; see parser_chunks.cc.
  void StartChunks(const ParseOptions& opts);
  // Called by ParseComputation when the next token is at or past the next
  // chunk's start: takes the worker's instructions when the token is
  // exactly at that start (adding them to `c` as the serial parse would),
  // or drops the chunk. Returns false only on a parse error.
  bool TakeChunk(Computation* c, Instruction** root, Token* root_tok, Instruction** last);
  // Worker side: parses instructions from `start` until a '}' or the first
  // instruction at or after `end`. In chunk mode instructions are kept in
  // chunk_instrs_ and every operand is queued by name.
  bool ParseChunk(size_t start, size_t end, const std::atomic<bool>& cancel);
  std::vector<std::unique_ptr<ChunkJob>> chunks_;
  std::vector<std::thread> chunk_threads_;  // take chunks_ from the end backwards
  std::atomic<int64_t> next_from_back_{-1};  // the next chunk a worker takes
  bool claim_unstarted_ = true;              // ParseOptions::claim_unstarted_chunks
  std::mutex chunk_mu_;                     // with chunk_cv_: a chunk became kDone
  std::condition_variable chunk_cv_;
  size_t next_chunk_ = 0;
  size_t next_handoff_ = static_cast<size_t>(-1);  // start of chunks_[next_chunk_]
  int chunks_taken_ = 0;
  bool chunk_mode_ = false;
  std::vector<std::unique_ptr<Instruction>> chunk_instrs_;
  std::vector<std::pair<size_t, Token>> chunk_roots_;  // index into chunk_instrs_, ROOT token
  // HashName of each chunk_instrs_ name, and the chunk's names: operands
  // defined earlier in the chunk are linked by the worker (the others get a
  // placeholder, PendingOperand::slot), so the taker neither hashes names
  // nor looks up or links those operands.
  std::vector<uint64_t> chunk_hashes_;
  FlatNameMap<Instruction*> chunk_names_;
  // Workers count lines from their first chunk's start: line numbers of a
  // chunk are off by (true line of its first token) - chunk_first_line_.
  int chunk_first_line_ = 0;
};

// One chunk of text and the parser (in chunk mode) that reads it.
struct ChunkJob {
  size_t start = 0, end = 0;
  std::unique_ptr<Parser> parser;
  // kPending → kParsing → kDone by a worker, or kPending → kClaimed by the
  // serial parse (which then reads that text itself).
  enum State { kPending, kParsing, kDone, kClaimed };
  std::atomic<int> state{kPending};
  bool ok = false;                  // set before state becomes kDone
  std::atomic<bool> cancel{false};  // the text is parsed serially after all: stop early
};

}  // namespace hloscope
