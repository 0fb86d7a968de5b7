// constant_folding: XLA's HloConstantFolding. An instruction is evaluated
// with the interpreter (EvaluateInstruction) and replaced by the resulting
// constant when, as in XLA, at least one operand is a constant with known
// values and every other operand is one too, a broadcast of one, or an iota.
// Broadcasts and iotas themselves are never folded: a broadcast of a
// constant stays a broadcast (cheap to fuse and to store; algsimp computes
// op(broadcast(c)) as broadcast(op(c)) on the scalar), so neither is an op
// whose operands are all broadcasts/iotas, nor pad(broadcast, constant)
// (XLA skips it for compile time). A broadcast or iota operand is only
// absorbed into a result no larger than the largest constant operand, so
// folding never spells a broadcast out into a bigger array (XLA would, up
// to its size cap). Instructions with side effects, control flow (while,
// conditional, call), custom calls and rng are left alone, as are results
// over a size cap (XLA's is 45M elements, on the result and on the
// operands; ours is lower, see ConstantFoldingOptions) and very expensive
// dots/convolutions. Results whose elements are all equal are stored as
// splat constants, which algsimp turns into broadcast(scalar constant) as
// XLA does.
#include <algorithm>
#include <cstring>

#include "core/eval/evaluator.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

constexpr int64_t kMaxOperandElements = 1 << 22;
constexpr int64_t kMaxMultiplyAdds = 1 << 24;

bool Foldable(Opcode op) {
  switch (op) {
    case Opcode::kConstant: case Opcode::kParameter: case Opcode::kBroadcast: case Opcode::kIota:
    case Opcode::kWhile: case Opcode::kConditional: case Opcode::kCall: case Opcode::kCustomCall:
    case Opcode::kRng: case Opcode::kRngBitGenerator: case Opcode::kRngGetAndUpdateState:
    case Opcode::kTuple: case Opcode::kGetTupleElement: case Opcode::kFft:
    case Opcode::kAfterAll: case Opcode::kAddDependency: case Opcode::kOptimizationBarrier:
    case Opcode::kDomain: case Opcode::kPartitionId: case Opcode::kReplicaId:
      return false;
    default:
      return true;
  }
}

// Multiply-adds a dot or convolution needs (0 for other ops).
int64_t Work(const Instruction& i) {
  int64_t out = ElementCount(i.shape().dims());
  if (i.opcode() == Opcode::kDot && i.attrs().dot) {
    int64_t k = 1;
    for (int64_t d : i.attrs().dot->lhs_contracting) k *= i.operand(0)->shape().dim(static_cast<int>(d));
    return out * k;
  }
  if (i.opcode() == Opcode::kConvolution) return out * ElementCount(i.operand(1)->shape().dims());
  return 0;
}

// A splat copy of `l` when all its elements are equal (and there are several).
Literal Compact(Literal l) {
  if (l.num_elements() <= 1 || l.is_splat()) return l;
  const int eb = l.element_bytes();
  const uint8_t* raw = l.raw();
  for (int64_t i = 1; i < l.num_elements(); ++i)
    if (std::memcmp(raw, raw + i * eb, eb) != 0) return l;
  Literal scalar(Shape::Scalar(l.shape().element_type()));
  std::memcpy(scalar.raw(), raw, eb);
  return Literal::Splat(l.shape(), scalar);
}

class ConstantFoldingPass : public Pass {
 public:
  explicit ConstantFoldingPass(const ConstantFoldingOptions& opts) : opts_(opts) {}
  std::string_view name() const override { return "constant_folding"; }
  std::string_view description() const override {
    return "Evaluates instructions whose operands are all constants and replaces them by the resulting "
           "constant (broadcasts and large results are left alone).";
  }

  StatusOr<bool> Run(Module& module) override {
    SideEffectAnalysis effects;
    EvalOptions eval;
    eval.max_while_iterations = opts_.max_while_iterations;
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module)) {
      for (Instruction* instr : post_order.Of(*comp)) {
        if (!Candidate(*instr, effects)) continue;
        // Broadcast and iota operands are evaluated first (XLA's evaluator
        // does the same when it folds op(constant, broadcast(constant))).
        std::vector<Literal> materialized;
        materialized.reserve(instr->operand_count());
        std::vector<const Literal*> operands;
        bool ok = true;
        for (const Instruction* o : instr->operands()) {
          if (const Literal* l = KnownLiteral(o)) {
            operands.push_back(l);
            continue;
          }
          std::vector<const Literal*> inner;
          if (o->opcode() == Opcode::kBroadcast) inner.push_back(KnownLiteral(o->operand(0)));
          StatusOr<Literal> v = EvaluateInstruction(*o, inner, eval);
          if (!v.ok()) {
            ok = false;
            break;
          }
          materialized.push_back(std::move(*v));
          operands.push_back(&materialized.back());
        }
        StatusOr<Literal> value = ok ? EvaluateInstruction(*instr, operands, eval)
                                     : StatusOr<Literal>(Status::Error("operand not evaluable"));
        if (!value.ok() || value->IsTuple() || !value->shape().Compatible(instr->shape())) {
          mutable_log().Count("not evaluable");
          continue;
        }
        Instruction* c = AddConstant(comp, instr, Compact(std::move(*value)));
        *c->mutable_shape() = instr->shape();
        std::string rule = std::string(OpcodeName(instr->opcode())) + " of constants → constant";
        ReplaceInstruction(instr, c, mutable_log(), rule);
        changed = true;
      }
    }
    return changed;
  }

 private:
  // A broadcast of a known constant, or an iota: evaluated as an operand
  // but never folded on its own.
  static bool BroadcastLike(const Instruction& o) {
    if (o.opcode() == Opcode::kIota) return IsStaticArray(o.shape());
    return o.opcode() == Opcode::kBroadcast && o.operand_count() == 1 && KnownLiteral(o.operand(0)) &&
           IsStaticArray(o.shape()) && o.control_predecessors().empty();
  }

  bool Candidate(const Instruction& i, SideEffectAnalysis& effects) const {
    if (!Foldable(i.opcode()) || i.operand_count() == 0 || !IsStaticArray(i.shape())) return false;
    const int64_t out = ElementCount(i.shape().dims());
    if (out > opts_.max_result_elements) return false;
    if (!i.control_predecessors().empty() || !i.control_successors().empty()) return false;
    if (i.opcode() == Opcode::kPad && i.operand(0)->opcode() == Opcode::kBroadcast) return false;
    int64_t in = 0, largest_constant = -1;
    bool any_broadcast = false;
    for (const Instruction* o : i.operands()) {
      if (const Literal* l = KnownLiteral(o)) {
        in += l->num_elements();
        largest_constant = std::max(largest_constant, l->num_elements());
      } else if (BroadcastLike(*o)) {
        in += ElementCount(o->shape().dims());
        any_broadcast = true;
      } else {
        return false;
      }
    }
    if (largest_constant < 0) return false;  // only broadcasts/iotas: algsimp's job
    if (any_broadcast && out > largest_constant) return false;
    if (in > kMaxOperandElements || Work(i) > kMaxMultiplyAdds) return false;
    return !effects.Has(i);
  }

  ConstantFoldingOptions opts_;
};

}  // namespace

std::unique_ptr<Pass> MakeConstantFoldingPass(const ConstantFoldingOptions& opts) {
  return std::make_unique<ConstantFoldingPass>(opts);
}

}  // namespace hloscope
