// Internal: the recursive-descent MLIR text parser class shared by
// mlir_parser.cc (module, func.func, regions, ops) and
// mlir_parser_types_attrs.cc (types and attribute values).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/stablehlo/mlir_ast.h"
#include "core/stablehlo/mlir_lexer.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/support/status.h"

namespace hloscope::mlir {

// An integer literal (decimal, 0x hex; as strtoll with base 0), or, past
// int64's range, an unsigned one reinterpreted; false when it is neither.
bool ParseInteger(const std::string& text, int64_t* v);

class Parser {
 public:
  Parser(std::string_view text, std::string file, int line_offset)
      : lex_(text, line_offset), file_(std::move(file)) {}

  StatusOr<ModuleAst> Run();

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

  // Module, func.func, regions and ops (mlir_parser.cc).
  Status ParseMesh(ModuleAst* m);
  Status ParseTrailingLoc(std::string* out);
  StatusOr<Func> ParseFunc();
  Status ParseRegion(Region* r, const std::vector<std::pair<std::string, Type>>* implicit_args = nullptr);
  Status ParseOperandList(std::vector<Value>* out, const std::string& close);
  Status ParseOpTypes(Op* op, bool functional_required);
  StatusOr<Op> ParseOp();
  StatusOr<Op> ParsePrettyReduce(Op op);
  StatusOr<Op> ParsePrettyWhile(Op op);
  StatusOr<Op> ParsePrettyScan(Op op);
  StatusOr<Op> ParseManualComputation(Op op);

  // Types and attribute values (mlir_parser_types_attrs.cc).
  StatusOr<Type> ParseType();
  Status ParseTypeOrList(std::vector<Type>* out, bool allow_attrs, std::vector<std::string>* attrs);
  StatusOr<Attr> ParseAttrValue(bool allow_type_suffix);
  Status ParseDictBody(std::vector<std::pair<std::string, Attr>>* out, const std::string& close);
  StatusOr<std::vector<std::pair<std::string, Attr>>> ParseDictBodyToEnd();

  Lexer lex_;
  std::string file_;
};

}  // namespace hloscope::mlir
