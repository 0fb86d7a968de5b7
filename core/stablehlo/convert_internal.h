// Internals of the StableHLO → HLO conversion shared by its .cc files.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/stablehlo/convert_to_hlo.h"

namespace hloscope::mlir {

inline Status Unsupported(const std::string& what) { return Error("UNSUPPORTED: " + what); }

// Element type of an MLIR type name (f32, i1, ui8, complex<f32>, ...).
StatusOr<PrimitiveType> ElementTypeFromMlir(const std::string& e);
StatusOr<Shape> ShapeFromType(const Type& t);
// A literal of `shape` from the body of dense<...>.
StatusOr<Literal> LiteralFromDense(const std::string& body, const Shape& shape);

class Converter {
 public:
  Converter(const ModuleAst& ast, const ConvertOptions& opts, Module* m) : ast_(ast), opts_(opts), m_(m) {}

  StatusOr<Computation*> ConvertFunc(const Func& f, bool is_entry);
  std::vector<CheckOp>& checks() { return checks_; }
  std::vector<ParallelRun>& parallel() { return parallel_; }

  // One lexical scope = one computation being built.
  struct Scope {
    Computation* comp = nullptr;
    Scope* parent = nullptr;
    std::map<std::string, Instruction*> vals;
    std::vector<Instruction*> check_values;  // entry only, in checks mode
    std::vector<Instruction*> parallel_operands;  // entry only: run_parallel's operands
    bool is_entry = false;
    // A branch of if / case: the values of enclosing scopes it reads become
    // elements of its tuple parameter (after `capture_base` block args), and
    // the conditional passes them as the branch's operand, as XLA's importer
    // does. `captured` are those values in the parent scope, in order.
    Instruction* capture_param = nullptr;
    int capture_base = 0;
    std::vector<Instruction*> captured;
  };

  StatusOr<Instruction*> Lookup(Scope& s, const Value& v);
  Instruction* Add(Scope& s, Opcode op, Shape shape, const std::vector<Instruction*>& operands, const Op* src);
  // A computation from a region; block args become parameters (or, with
  // `tuple_param`, elements of one tuple parameter).
  // With `captured`, enclosing values the region reads become elements of
  // its tuple parameter, listed (in the parent scope) in `captured`.
  StatusOr<Computation*> ConvertRegion(const Region& r, Scope* parent, const std::string& name, bool tuple_param,
                                       const Op* src, std::vector<Instruction*>* captured = nullptr);
  Status ConvertOps(const Block& b, Scope& s, std::vector<Instruction*>* returned);
  Status ConvertOp(const Op& op, Scope& s, std::vector<Instruction*>* returned);
  Status ConvertControlFlow(const Op& op, Scope& s, std::vector<Instruction*>* results, bool* handled);
  Status ConvertCheck(const Op& op, Scope& s, bool* handled);
  Status ConvertRunParallel(const Op& op, Scope& s);
  // sdy.manual_computation (shard_map), in place (convert_shard_map.cc).
  Status ConvertManualComputation(const Op& op, Scope& s);
  int64_t next_channel_ = 1000;  // channel ids of the collectives the conversion adds
  Status ConvertChlo(const Op& op, Scope& s, const std::vector<Instruction*>& in, const Shape& out,
                     Instruction** result);
  Status BindResults(const Op& op, Scope& s, Instruction* result);
  void SetLocation(Instruction* i, const Op* src);
  std::string Where(const Op& op) const;

  const ModuleAst& ast_;
  const ConvertOptions& opts_;
  Module* m_;
  std::map<std::string, Computation*> funcs_;
  std::vector<std::string> converting_;
  std::vector<CheckOp> checks_;
  std::vector<ParallelRun> parallel_;
};

// chlo's special functions (lgamma, digamma, erf_inv, bessel_i1e, next_after)
// built from HLO ops (chlo_special.cc); `handled` is false for other ops.
Status DecomposeSpecialChlo(Converter& c, const Op& op, Converter::Scope& s, const std::vector<Instruction*>& in,
                            const Shape& out, Instruction** result, bool* handled);

// A Shardy mesh of the module (`sdy.mesh @name = <["x"=2, "y"=4]>`): its axes
// in order, row-major over the devices 0..n-1 (meshes with explicit
// device_ids are not read).
struct MeshAxes {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  int64_t devices() const;
  // Position of `axis` in names, or -1.
  int Find(const std::string& axis) const;
};
StatusOr<MeshAxes> FindMesh(const ModuleAst& ast, std::string name);
// HLO's mesh form of the groups along `axes` (in that order, the last
// fastest): `mesh['x'=2,'y'=4] {'y'}`.
std::string HloMeshGroups(const MeshAxes& mesh, const std::vector<std::string>& axes);

// StableHLO's collectives, partition_id and replica_id (convert_collectives.cc);
// `handled` is false for other ops. `name` is without the dialect prefix.
Status ConvertCollective(Converter& c, const Op& op, Converter::Scope& s, const std::string& name,
                         const std::vector<Instruction*>& in, const Shape& out, Instruction** result, bool* handled);

// Per-op conversion of the non-control-flow ops (convert_ops.cc).
Status ConvertSimpleOp(Converter& c, const Op& op, Converter::Scope& s, const std::vector<Instruction*>& in,
                       Instruction** result);

}  // namespace hloscope::mlir
