// The MLIR text of a StableHLO program as read, before conversion: functions,
// ops (generic or pretty form, normalised to one shape), regions, attributes
// (kept, parsed into a small value tree) and locations (kept verbatim).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hloscope::mlir {

struct Pos {
  int line = 0, col = 0;
};

// A tensor (or scalar element, tuple, token) type.
struct Type {
  enum Kind { kTensor, kTuple, kToken, kOther } kind = kTensor;
  std::string element;          // MLIR spelling: f32, i1, ui8, complex<f32>, !quant...
  std::vector<int64_t> dims;    // -1 for `?`
  bool bounded = false;         // has an encoding (#stablehlo.bounds)
  std::vector<Type> tuple;
  std::string text;             // the type as written
  bool IsStatic() const;
};

// An attribute value. `raw` is always the text as written.
struct Attr {
  enum Kind { kInt, kFloat, kBool, kString, kIdent, kList, kDense, kDict, kHash, kSymbol, kType, kPair, kUnit } kind = kUnit;
  std::string raw;
  int64_t i = 0;
  double f = 0;
  std::string s;                            // string / ident / symbol / hash name / dense body
  std::vector<Attr> items;                  // list elements, pair (2 items)
  std::vector<std::pair<std::string, Attr>> fields;  // dict / hash<k = v> fields
  std::unique_ptr<Type> type;               // `value : type`, or the type itself
  Attr() = default;
  Attr(const Attr& o) { *this = o; }
  Attr& operator=(const Attr& o);
  Attr(Attr&&) = default;
  Attr& operator=(Attr&&) = default;
  const Attr* Field(const std::string& k) const;
  // Integers of a list / array<i64: ...> / dense<[..]> / single int; false if not such.
  bool Ints(std::vector<int64_t>* out) const;
};

struct Region;

struct Value {
  std::string name;  // without %; with #N for a result of a multi-result op
  Pos pos;
};

struct Op {
  std::string name;                         // stablehlo.add, func.return, check.expect_eq...
  Pos pos;
  std::vector<std::string> results;         // %names (expanded: %0:2 -> 0#0, 0#1)
  std::vector<Value> operands;
  std::vector<std::pair<std::string, Attr>> attrs;  // properties, attr-dict and pretty keywords
  std::vector<std::string> keywords;        // bare identifiers of pretty forms (GT, FLOAT, ...)
  std::vector<Type> operand_types, result_types;
  std::vector<std::unique_ptr<Region>> regions;
  std::string callee;                       // @symbol of call / custom_call
  std::string loc;                          // loc(...) text, aliases kept as written
  const Attr* FindAttr(const std::string& k) const;
};

struct Block {
  std::vector<std::pair<std::string, Type>> args;
  std::vector<Op> ops;
};

struct Region {
  std::vector<Block> blocks;
};

struct Func {
  std::string name;
  Pos pos;
  bool is_public = true;
  std::vector<std::pair<std::string, Type>> args;
  std::vector<std::string> arg_attrs, result_attrs;  // attribute dicts verbatim
  std::vector<Type> results;
  Region body;
  std::string loc;
};

struct ModuleAst {
  std::string name;
  std::string file;
  std::vector<Func> funcs;
  std::map<std::string, std::string> loc_aliases;  // #loc3 -> loc(...) text
  // Shardy meshes declared at module level (`sdy.mesh @name = <["x"=2]>`):
  // name without '@' and the mesh as written between '<' and '>'.
  std::vector<std::pair<std::string, std::string>> meshes;
  // The module's `mhlo.num_partitions` / `mhlo.num_replicas` (0: not given):
  // what JAX writes for a sharded program, the HLO header's counts.
  int64_t num_partitions = 0, num_replicas = 0;
  const Func* FindFunc(const std::string& name) const;
};

}  // namespace hloscope::mlir
