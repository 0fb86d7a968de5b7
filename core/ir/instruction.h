// An HLO instruction. Owned by its Computation; everything else holds
// non-owning pointers. Every instruction has a module-unique stable id.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/attributes.h"
#include "core/ir/instr_list.h"
#include "core/ir/metadata.h"
#include "core/ir/literal.h"
#include "core/ir/opcode.h"
#include "core/ir/shape.h"

namespace hloscope {

class Computation;

struct SourceLoc {
  int line = 0, col = 0;
};

// A called computation reference, kept with the attribute that named it
// (to_apply, calls, condition, body, branch_computations, ...).
struct CalledRef {
  std::string attr;
  std::vector<Computation*> comps;
  bool braced = false;  // printed as attr={%a, %b}
};

// An attribute kept verbatim (sharding, backend_config, channel_id, ...).
struct RawAttr {
  std::string name;
  std::string value;
};

class Instruction {
 public:
  Instruction(Opcode op, Shape shape, std::string name)
      : name_(std::move(name)), opcode_(op), shape_(std::move(shape)) {}
  // An empty shape, to be filled in place (a parser reads the shape first).
  Instruction(Opcode op, std::string name) : name_(std::move(name)), opcode_(op) {}
  ~Instruction();
  Instruction(const Instruction&) = delete;
  Instruction& operator=(const Instruction&) = delete;

  int64_t id() const { return id_; }
  void set_id(int64_t id) { id_ = id; }
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  Opcode opcode() const { return opcode_; }
  void set_opcode(Opcode op) { opcode_ = op; }
  const Shape& shape() const { return shape_; }
  Shape* mutable_shape() { return &shape_; }
  Computation* parent() const { return parent_; }
  void set_parent(Computation* c) { parent_ = c; }
  SourceLoc loc() const { return loc_; }
  void set_loc(SourceLoc l) { loc_ = l; }

  // Operands and users (users kept in sync by the mutators below).
  const InstrList& operands() const { return operands_; }
  Instruction* operand(int i) const { return operands_[i]; }
  int operand_count() const { return static_cast<int>(operands_.size()); }
  const InstrList& users() const { return users_; }
  int user_count() const { return static_cast<int>(users_.size()); }
  void AppendOperand(Instruction* op);
  // Room for `n` operands (a parser that knows the count appends without regrowing).
  void ReserveOperands(size_t n) { operands_.reserve(n); }
  // For a parser that links operands out of text order. A placeholder slot,
  // filled later by FillOperand; FillOperand and AppendOperandSorted insert
  // this instruction among the operand's users in id order (the order a
  // parse in text order gives), so they need this instruction's id.
  void AppendOperandPlaceholder() { operands_.push_back(nullptr); }
  void FillOperand(int i, Instruction* op);
  void AppendOperandSorted(Instruction* op);
  void ReplaceOperand(int i, Instruction* op);
  // Replaces every use of this instruction (operands and roots) with `other`.
  void ReplaceAllUsesWith(Instruction* other);
  // Drops every operand edge (before removal).
  void DetachOperands();
  // Number of times `op` appears among the operands.
  int OperandIndex(const Instruction* op) const;

  // Control dependencies.
  const std::vector<Instruction*>& control_predecessors() const {
    return extra_ ? extra_->control_preds : EmptyInstructionList();
  }
  const std::vector<Instruction*>& control_successors() const {
    return extra_ ? extra_->control_succs : EmptyInstructionList();
  }
  void AddControlDependencyTo(Instruction* successor);
  void DropAllControlDeps();

  // Called computations.
  const std::vector<CalledRef>& called_refs() const { return extra_ ? extra_->called : EmptyCalledRefs(); }
  std::vector<CalledRef>& mutable_called_refs() { return Extra().called; }
  std::vector<Computation*> called_computations() const;
  Computation* called(std::string_view attr) const;  // first of attr, or null
  void SetCalled(std::string attr, Computation* c);
  Computation* to_apply() const { return called("to_apply"); }
  Computation* fused_computation() const { return called("calls"); }

  // Typed attributes. Most instructions have none, so they are allocated on
  // first mutable access; the const accessor reads a shared default until then.
  Attrs& attrs() {
    Attrs* a = attrs_.load(std::memory_order_acquire);
    return a ? *a : CreateAttrs();
  }
  const Attrs& attrs() const {
    Attrs* a = attrs_.load(std::memory_order_acquire);
    return a ? *a : DefaultAttrs();
  }

  // Convenience accessors for the common typed attributes.
  const std::vector<int64_t>& dimensions() const { return attrs().dimensions; }
  void set_dimensions(std::vector<int64_t> d) {
    attrs().dimensions = std::move(d);
    attrs().mark(Attr::kDimensions);
  }
  int64_t tuple_index() const { return attrs().index; }
  // A get-tuple-element written in the text as an operand `%x#N` (element N
  // of the tuple-shaped `x`, with no get-tuple-element line), as today's XLA
  // writes uses of a multi-output instruction. It is a get-tuple-element in
  // every other respect; the printer writes its uses back as `%x#N`.
  bool implicit_tuple_element() const { return implicit_element_; }
  void set_implicit_tuple_element(bool v) { implicit_element_ = v; }
  FusionKind fusion_kind() const { return attrs().fusion_kind; }
  void set_fusion_kind(FusionKind k) {
    attrs().fusion_kind = k;
    attrs().mark(Attr::kFusionKind);
  }

  // Parameters and constants.
  int64_t parameter_number() const { return parameter_number_; }
  void set_parameter_number(int64_t n) { parameter_number_ = n; }
  const Literal* literal() const { return literal_.get(); }
  Literal* mutable_literal() { return literal_.get(); }
  void set_literal(std::unique_ptr<Literal> l) { literal_ = std::move(l); }

  // Metadata as ordered name=value fields (values verbatim: quoted strings or numbers).
  Metadata& metadata() { return metadata_; }
  const Metadata& metadata() const { return metadata_; }
  // Value of a metadata key with quotes removed, or "".
  std::string MetadataValue(std::string_view key) const;
  // Attributes kept verbatim, in input order.
  std::vector<RawAttr>& raw_attrs() { return raw_; }
  const std::vector<RawAttr>& raw_attrs() const { return raw_; }
  const RawAttr* FindRaw(std::string_view name) const;
  void SetRaw(std::string name, std::string value);
  void EraseRaw(std::string_view name);

  // Extra text after operands for ops with special operand syntax is not
  // needed: every attribute goes through Attrs, called refs or raw attrs.

  bool IsRoot() const;
  bool HasSideEffect() const;

  // Position in the owning computation's list (for O(1) removal).
  std::list<std::unique_ptr<Instruction>>::iterator self_it;
  // Increases along the owning computation's list (Computation::Precedes);
  // kept by Computation, with gaps so that an insertion rarely renumbers.
  int64_t order_key() const { return order_key_; }

 private:
  friend class Computation;
  // Rarely present parts, allocated when first set (keeps the common
  // instruction small: a module holds tens of thousands).
  struct Rare {
    std::vector<Instruction*> control_preds;
    std::vector<Instruction*> control_succs;
    std::vector<CalledRef> called;
  };
  // What adding an instruction to a computation touches comes first (one
  // cache line: a parallel parse adds instructions another core created),
  // then the graph edges and what every walk over instructions reads (the
  // verifier's: opcode, the rare parts and attributes, the shape's type and
  // dims — two more cache lines), then the rest.
  int64_t id_ = -1;
  int64_t order_key_ = 0;
  Computation* parent_ = nullptr;
  SourceLoc loc_;
  std::string name_;
  InstrList operands_;  // up to two in place
  InstrList users_;
  Opcode opcode_;
  bool implicit_element_ = false;  // see implicit_tuple_element()
  std::unique_ptr<Rare> extra_;
  // Owned; atomic so that concurrent readers of one module (GUI threads)
  // may both create it on first access.
  std::atomic<Attrs*> attrs_{nullptr};
  int64_t parameter_number_ = -1;
  Shape shape_;
  std::unique_ptr<Literal> literal_;
  Metadata metadata_;
  std::vector<RawAttr> raw_;

  void RemoveUser(Instruction* u);
  bool HasOperand(const Instruction* op) const {
    return std::find(operands_.begin(), operands_.end(), op) != operands_.end();
  }
  // Adds this instruction to op's users: at the end, or (sorted) at its
  // place in id order.
  void AddUserTo(Instruction* op, bool sorted);
  Rare& Extra() {
    if (!extra_) extra_ = std::make_unique<Rare>();
    return *extra_;
  }
  Attrs& CreateAttrs();
  static const Attrs& DefaultAttrs();
  static const std::vector<Instruction*>& EmptyInstructionList();
  static const std::vector<CalledRef>& EmptyCalledRefs();
};

}  // namespace hloscope
