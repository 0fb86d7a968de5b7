// algsimp: the algebraic simplifier (XLA's AlgebraicSimplifier, exact
// rewrites only). The pass visits each computation in post order and gives
// every instruction to the rewrite families in algsimp_*.cc; an instruction
// changed in place is offered again (a few times) so chains collapse in one
// run. See algsimp.h for the rewrites refused and why.
#include "core/passes/algsimp.h"

#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace algsimp {

Instruction* Rewriter::Add(Opcode op, Shape shape, const std::vector<Instruction*>& operands) {
  Instruction* i = AddNew(comp_, current_, op, std::move(shape), operands);
  CopyMetadataIfMissing(*current_, *i);
  added_.push_back(i);
  return i;
}

Instruction* Rewriter::AddScalarLiteral(Literal scalar) {
  Instruction* c = AddConstant(comp_, current_, std::move(scalar));
  added_.push_back(c);
  return c;
}

Instruction* Rewriter::AddScalar(PrimitiveType type, double value) {
  Instruction* c = AddScalarConstant(comp_, current_, type, value);
  added_.push_back(c);
  return c;
}

Instruction* Rewriter::Filled(PrimitiveType type, double value, const Shape& shape) {
  return Broadcast(AddScalar(type, value), shape);
}

Instruction* Rewriter::Broadcast(Instruction* scalar, const Shape& shape) {
  if (shape.rank() == 0 && ShapesInterchangeable(scalar->shape(), shape)) return scalar;
  Instruction* b = Add(Opcode::kBroadcast, shape, {scalar});
  b->set_dimensions({});
  return b;
}

Outcome Rewriter::Replace(Instruction* now, std::string_view rule) {
  if (!ShapesInterchangeable(current_->shape(), now->shape()) ||
      (current_->IsRoot() && current_->shape().has_layout() && !now->shape().has_layout())) {
    for (auto it = added_.rbegin(); it != added_.rend(); ++it)
      if ((*it)->user_count() == 0) comp_->RemoveInstruction(*it);
    added_.clear();
    return Outcome::kNone;
  }
  ReplaceInstruction(current_, now, log_, rule);
  added_.clear();
  return Outcome::kReplaced;
}

Outcome Rewriter::Modified(std::string_view rule) {
  log_.Record(rule, *current_);
  return Outcome::kModified;
}

void Rewriter::SetOperands(const std::vector<Instruction*>& operands) {
  current_->DetachOperands();
  for (Instruction* o : operands) current_->AppendOperand(o);
}

bool IsIntegral(PrimitiveType t) { return IsInteger(t) || t == PrimitiveType::kPred; }

bool DimsInRange(const std::vector<int64_t>& dims, int rank) {
  for (int64_t d : dims)
    if (d < 0 || d >= rank) return false;
  return true;
}

bool IsPermutation(const std::vector<int64_t>& perm) {
  std::vector<bool> seen(perm.size(), false);
  for (int64_t d : perm) {
    if (d < 0 || d >= static_cast<int64_t>(perm.size()) || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

namespace {
// Significand bits (with the implicit one) and exponent range class of the
// float types whose widening we accept.
int FloatRank(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF16: return 1;
    case PrimitiveType::kBF16: return 2;
    case PrimitiveType::kF32: return 3;
    case PrimitiveType::kF64: return 4;
    default: return 0;
  }
}
int SignificandBits(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF16: return 11;
    case PrimitiveType::kBF16: return 8;
    case PrimitiveType::kF32: return 24;
    case PrimitiveType::kF64: return 53;
    default: return 0;
  }
}
}  // namespace

bool LosslessConvert(PrimitiveType from, PrimitiveType to) {
  if (from == to) return true;
  if (from == PrimitiveType::kPred) return IsInteger(to) || FloatRank(to) > 0;
  if (IsInteger(from)) {
    int bits = BitWidth(from);
    if (IsSignedInt(from) && IsSignedInt(to)) return BitWidth(to) >= bits;
    if (IsUnsignedInt(from) && IsUnsignedInt(to)) return BitWidth(to) >= bits;
    if (IsUnsignedInt(from) && IsSignedInt(to)) return BitWidth(to) > bits;
    if (FloatRank(to) > 0) return SignificandBits(to) >= (IsSignedInt(from) ? bits - 1 : bits);
    return false;
  }
  int a = FloatRank(from), b = FloatRank(to);
  if (a == 0 || b == 0) return false;
  // f16 → bf16 and bf16 → f16 lose range or precision; everything else
  // widens (f16/bf16 → f32 → f64).
  if ((a == 1 && b == 2) || (a == 2 && b == 1)) return false;
  return b > a;
}

std::optional<Opcode> ReducerOpcode(const Computation* comp) {
  if (!comp || comp->num_parameters() != 2 || !comp->root()) return std::nullopt;
  const Instruction* root = comp->root();
  if (root->operand_count() != 2 || root->shape().rank() != 0) return std::nullopt;
  const Instruction* a = root->operand(0);
  const Instruction* b = root->operand(1);
  if (a->opcode() != Opcode::kParameter || b->opcode() != Opcode::kParameter || a == b) return std::nullopt;
  switch (root->opcode()) {
    case Opcode::kAdd: case Opcode::kMultiply: case Opcode::kMaximum: case Opcode::kMinimum:
    case Opcode::kAnd: case Opcode::kOr:
      return root->opcode();
    default:
      return std::nullopt;
  }
}

namespace {

class AlgebraicSimplifierPass : public Pass {
 public:
  std::string_view name() const override { return "algsimp"; }
  std::string_view description() const override {
    return "Algebraic simplifier: applies exact identities such as x*1 → x, reshape(reshape(x)) → "
           "reshape(x) or slice of a whole array → the array.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module)) {
      Rewriter r(comp, mutable_log());
      for (Instruction* instr : post_order.Of(*comp)) {
        if (!Eligible(*instr)) continue;
        for (int round = 0; round < 8; ++round) {
          Outcome o = Simplify(r, instr);
          if (o == Outcome::kNone) break;
          changed = true;
          if (o == Outcome::kReplaced) break;
        }
      }
    }
    return changed;
  }

 private:
  static bool Eligible(const Instruction& i) {
    if (i.opcode() == Opcode::kParameter) return false;
    if (i.HasSideEffect() || !i.control_predecessors().empty() || !i.control_successors().empty()) return false;
    if (!IsStaticArray(i.shape())) return false;
    for (const Instruction* o : i.operands())
      if (o->shape().IsArray() && o->shape().IsDynamic()) return false;
    return true;
  }

  static Outcome Simplify(Rewriter& r, Instruction* instr) {
    using Family = Outcome (*)(Rewriter&, Instruction*);
    for (Family f : {SimplifyArithmetic, SimplifyShapes, SimplifySlices, SimplifyReductions}) {
      r.Begin(instr);
      Outcome o = f(r, instr);
      if (o != Outcome::kNone) return o;
    }
    return Outcome::kNone;
  }
};

}  // namespace
}  // namespace algsimp

std::unique_ptr<Pass> MakeAlgebraicSimplifierPass() {
  return std::make_unique<algsimp::AlgebraicSimplifierPass>();
}

}  // namespace hloscope
