// degenerate-dimension-rewriter: today's XLA GPU runs it in its simplification
// pipeline, before the algebraic simplifier. An elementwise op whose shape has
// dimensions of size 1 and whose operands are all reshapes or broadcasts is
// computed on the shape without those dimensions, and one reshape restores
// the shape:
//   exp(reshape(a: [2,8]) -> [2,8,1])  →  reshape(exp(a)) -> [2,8,1]
//   add(reshape(a), broadcast(b))       →  reshape(add(a, b))
// A layer norm's rsqrt(var + eps) kept as [batch, seq, 1] (keepdims) becomes
// a [batch, seq] value that its readers broadcast, as in XLA's own dumps.
// Behaviour read off XLA GPU 0.12's dumps of small modules (the rule fires
// only when every operand is a reshape or a broadcast; a parameter operand
// keeps the op as it is; a reshape with other users stays for them).
// Elementwise ops commute with reshapes, so the rewrite is exact.
#include "core/passes/rewrite_helpers.h"
#include "core/passes/side_effects.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool HasDegenerateDims(const Shape& s) {
  for (int64_t d : s.dims())
    if (d == 1) return true;
  return false;
}

std::vector<int64_t> Squeezed(const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (int64_t d : dims)
    if (d != 1) out.push_back(d);
  return out;
}

bool Candidate(const Instruction& i) {
  if (!IsReshapeableElementwise(i) || !HasDegenerateDims(i.shape())) return false;
  for (const Instruction* o : i.operands()) {
    if (o->opcode() != Opcode::kReshape && o->opcode() != Opcode::kBroadcast) return false;
    if (!IsStaticArray(o->shape()) || o->shape().dims() != i.shape().dims()) return false;
    if (!IsStaticArray(o->operand(0)->shape())) return false;
  }
  return true;
}

class DegenerateDimensionRewriter : public Pass {
 public:
  std::string_view name() const override { return "degenerate-dimension-rewriter"; }
  std::string_view description() const override {
    return "Computes an elementwise op whose operands are reshapes or broadcasts on its shape without the "
           "dimensions of size 1, and reshapes the result back (XLA's DegenerateDimensionRewriter).";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    PostOrder post_order;
    for (Computation* comp : NonFusionComputations(module))
      for (Instruction* instr : post_order.Of(*comp))
        if (Candidate(*instr)) changed |= Rewrite(comp, instr);
    return changed;
  }

 private:
  // `o` (a reshape or broadcast of `instr`'s shape) on the squeezed dims.
  static Instruction* SqueezedOperand(Computation* comp, Instruction* instr, Instruction* o,
                                      const std::vector<int64_t>& squeezed) {
    Instruction* src = o->operand(0);
    const Shape target = ShapeLike(o->shape(), o->shape().element_type(), squeezed);
    if (o->opcode() == Opcode::kReshape) {
      if (src->shape().dims() == squeezed) return src;
      return AddNew(comp, instr, Opcode::kReshape, target, {src});
    }
    // A broadcast: its operand's dimensions land on the output dimensions
    // kept, renumbered; one that lands on a dimension of size 1 is of size
    // 1 itself, and the broadcast is then reshaped instead.
    const std::vector<int64_t>& dims = o->shape().dims();
    std::vector<int64_t> new_index(dims.size(), -1);
    int64_t next = 0;
    for (size_t d = 0; d < dims.size(); ++d)
      if (dims[d] != 1) new_index[d] = next++;
    std::vector<int64_t> mapped;
    for (int64_t d : o->dimensions()) {
      if (d < 0 || static_cast<size_t>(d) >= dims.size() || new_index[static_cast<size_t>(d)] < 0)
        return AddNew(comp, instr, Opcode::kReshape, target, {o});
      mapped.push_back(new_index[static_cast<size_t>(d)]);
    }
    bool identity = src->shape().dims() == squeezed;
    for (size_t k = 0; identity && k < mapped.size(); ++k) identity = mapped[k] == static_cast<int64_t>(k);
    if (identity) return src;
    Instruction* b = AddNew(comp, instr, Opcode::kBroadcast, target, {src});
    b->set_dimensions(mapped);
    CopyMetadataIfMissing(*o, *b);
    return b;
  }

  bool Rewrite(Computation* comp, Instruction* instr) {
    const std::vector<int64_t> squeezed = Squeezed(instr->shape().dims());
    std::vector<Instruction*> ops;
    for (Instruction* o : instr->operands()) ops.push_back(SqueezedOperand(comp, instr, o, squeezed));
    Shape inner_shape = ShapeLike(instr->shape(), instr->shape().element_type(), squeezed);
    Instruction* inner = AddNew(comp, instr, instr->opcode(), inner_shape, ops);
    inner->attrs() = instr->attrs();
    CopyMetadataIfMissing(*instr, *inner);
    Instruction* outer = AddNew(comp, instr, Opcode::kReshape, instr->shape(), {inner});
    ReplaceInstruction(instr, outer, mutable_log(),
                       "elementwise on dimensions of size 1 → reshape(elementwise without them)");
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeDegenerateDimensionRewriterPass() { return std::make_unique<DegenerateDimensionRewriter>(); }

}  // namespace hloscope
