// Internal: the recursive-descent parser class shared by parser*.cc.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/flat_name_map.h"
#include "core/ir/module.h"
#include "core/parser/lexer.h"
#include "core/support/status.h"

namespace hloscope {

class Parser {
 public:
  Parser(std::string_view text, std::string_view filename) : lex_(text), file_(filename) {
    Advance();
  }

  StatusOr<std::unique_ptr<Module>> ParseModule();
  bool ParseShapeOnly(Shape* s);
  const Status& error() const { return error_; }

  // --- token handling ---
  void Advance() { tok_ = lex_.Next(); }
  bool At(Tok k) const { return tok_.kind == k; }
  bool AtName(std::string_view s) const { return tok_.kind == Tok::kName && tok_.text == s; }
  bool Consume(Tok k) {
    if (!At(k)) return false;
    Advance();
    return true;
  }
  bool Expect(Tok k, std::string_view what);
  bool Fail(const Token& at, std::string msg);
  bool Fail(std::string msg) { return Fail(tok_, std::move(msg)); }
  bool failed() const { return !error_.ok(); }

  // --- pieces (parser_shapes.cc) ---
  bool ParseShape(Shape* s, int depth = 0);
  // Fast path of ParseShape for the common `type[d,...]` / `type[d,...]{m,...}`
  // written without spaces: scans the text directly. Returns false, having
  // changed nothing, whenever ParseShape must decide (anything else, errors).
  bool TryParsePlainShape(Shape* s);
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
  bool ParseInlineComputation(Instruction* instr, const std::string& attr);
  bool FinishModule(Module* m);
  bool ResolveComputation();
  bool ResolveModule(Module* m);

  std::string_view StripPercent(std::string_view s) const {
    return (!s.empty() && s[0] == '%') ? s.substr(1) : s;
  }

  // Scratch lists reused by ParseShape/ParseLayout (never live across a call).
  std::vector<int64_t> dims_scratch_;
  std::vector<bool> dynamic_scratch_;
  std::vector<RawAttr> metadata_scratch_;  // ParseMetadata's fields

  Lexer lex_;
  std::string file_;
  Token tok_;
  Status error_;
  Module* module_ = nullptr;
  std::unordered_map<std::string, Computation*> comp_by_name_;

  // Per-computation state.
  FlatNameMap<Instruction*> names_;
  // Operands by name, resolved when the computation is complete (operands
  // may be defined after their users). One flat list; an instruction's
  // entries are in operand order.
  struct PendingOperand {
    Instruction* instr;
    std::string_view name;  // empty for an operand written inline (nested)
    Instruction* nested;    // the operand when already known (inline or resolved)
    int line, col;
  };
  std::vector<PendingOperand> pending_ops_;
  bool deferring_ = false;  // a forward reference was seen: queue the rest
  std::vector<std::pair<Instruction*, std::vector<std::pair<std::string, Token>>>> pending_ctrl_;
  // Per-module: called computation references resolved at the end.
  struct PendingCall {
    Instruction* instr;
    size_t ref_index;
    std::vector<std::pair<std::string, Token>> names;
  };
  std::vector<PendingCall> pending_calls_;
  // Inline syntax: nested operand instructions, shapeless instructions and
  // inline called computations, completed in FinishModule.
  int nesting_ = 0;
  Computation* cur_comp_ = nullptr;
  std::vector<std::pair<Instruction*, Token>> shapeless_;
  std::vector<Instruction*> generated_instrs_;
  std::vector<Computation*> generated_comps_;
};

}  // namespace hloscope
