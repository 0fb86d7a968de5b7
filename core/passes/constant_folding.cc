// constant_folding: XLA's HloConstantFolding. An instruction whose operands
// are all constants with known values is evaluated with the interpreter
// (EvaluateInstruction) and replaced by the resulting constant. As in XLA,
// broadcasts and iotas are not folded (they would turn a scalar into a big
// array), nor are instructions with side effects, control flow (while,
// conditional, call), custom calls and rng; results over a size cap and
// very expensive dots/convolutions are skipped. Results whose elements are
// all equal are stored as splat constants (`f32[1024] constant(0)`).
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
        std::vector<const Literal*> operands;
        for (const Instruction* o : instr->operands()) operands.push_back(KnownLiteral(o));
        StatusOr<Literal> value = EvaluateInstruction(*instr, operands, eval);
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
  bool Candidate(const Instruction& i, SideEffectAnalysis& effects) const {
    if (!Foldable(i.opcode()) || i.operand_count() == 0 || !IsStaticArray(i.shape())) return false;
    if (ElementCount(i.shape().dims()) > opts_.max_result_elements) return false;
    if (!i.control_predecessors().empty() || !i.control_successors().empty()) return false;
    int64_t in = 0;
    for (const Instruction* o : i.operands()) {
      const Literal* l = KnownLiteral(o);
      if (!l) return false;
      in += l->num_elements();
    }
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
