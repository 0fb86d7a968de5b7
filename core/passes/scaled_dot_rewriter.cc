// scaled-dot-rewriter: XLA GPU's ScaledDotRewriter, second pass of its
// optimization pipeline. A scaled dot (block-scaled low-precision GEMM: f8 or
// f4 operands, each block of consecutive elements sharing one scale, as in
// the MX formats) becomes the dot of its dequantized operands:
//
//   x' = convert(x) × reshape(broadcast(scale))     each side, in type T
//   convert(dot(x', y'))                             to the result type
//
// T is bf16 when operand and scale are both narrower than 16 bits, their type
// when they share it, f32 for two types of one width, else the wider one; the
// two sides are then brought to one type by the same rule, and the dot
// computes in that type and the result's by the same rule. A scale of rank 0
// leaves its operand as it is (XLA GPU reads it so). The scale's dimension i
// divides the operand's: each scale element covers operand dim / scale dim
// consecutive elements along it, which the broadcast puts in a dimension of
// its own after dimension i and the reshape folds back.
//
// XLA keeps scaled dots the Triton GEMM emitter supports (Blackwell's block
// scaling); on Hopper, our target, it rewrites them all. Written from XLA's
// scaled_dot_rewriter.cc. Also run on fused computations (XLA runs it outside
// fusions only), where a scaled dot reaches us already fused.
#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"

namespace hloscope {
namespace {

PrimitiveType Target(PrimitiveType a, PrimitiveType b) {
  if (BitWidth(a) < 16 && BitWidth(b) < 16) return PrimitiveType::kBF16;
  if (a == b) return a;
  if (BitWidth(a) == BitWidth(b)) return PrimitiveType::kF32;
  return BitWidth(a) > BitWidth(b) ? a : b;
}

class ScaledDotRewriter : public Pass {
 public:
  std::string_view name() const override { return "scaled-dot-rewriter"; }
  std::string_view description() const override {
    return "Rewrites each scaled dot (block-scaled f8/f4 GEMM) as a dot of its operands multiplied by their "
           "broadcast scales (XLA GPU's ScaledDotRewriter).";
  }

  StatusOr<bool> Run(Module& module) override {
    return RewriteEach(
        module,
        [](const Instruction& i) {
          return i.opcode() == Opcode::kScaledDot && i.operand_count() == 4 && i.shape().IsArray();
        },
        [this](Computation* c, Instruction* i) { return RewriteOne(c, i); });
  }

 private:
  // `s` with element type `t`, its layout kept (a module's outputs and
  // parameters have theirs).
  static Shape Retyped(const Shape& s, PrimitiveType t) {
    Shape out = s;
    out.set_element_type(t);
    return out;
  }

  static Instruction* Convert(Computation* comp, Instruction* before, Instruction* x, PrimitiveType t) {
    if (x->shape().element_type() == t) return x;
    return AddNew(comp, before, Opcode::kConvert, Retyped(x->shape(), t), {x});
  }

  // Operand `x` times its scale, or null when the shapes do not divide.
  static Instruction* Dequantize(Computation* comp, Instruction* dot, Instruction* x, Instruction* scale,
                                 bool* ok) {
    if (scale->shape().rank() == 0) return x;
    const std::vector<int64_t>& xd = x->shape().dims();
    const std::vector<int64_t>& sd = scale->shape().dims();
    if (xd.size() != sd.size()) return *ok = false, nullptr;
    for (size_t i = 0; i < xd.size(); ++i)
      if (sd[i] == 0 ? xd[i] != 0 : sd[i] < 0 || xd[i] % sd[i] != 0) return *ok = false, nullptr;
    const PrimitiveType t = Target(x->shape().element_type(), scale->shape().element_type());
    x = Convert(comp, dot, x, t);
    scale = Convert(comp, dot, scale, t);
    std::vector<int64_t> spread_dims, from;
    for (size_t i = 0; i < xd.size(); ++i) {
      from.push_back(static_cast<int64_t>(spread_dims.size()));
      spread_dims.push_back(sd[i]);
      if (xd[i] != sd[i]) spread_dims.push_back(xd[i] / sd[i]);
    }
    Instruction* s = scale;
    if (spread_dims != sd) {
      s = AddNew(comp, dot, Opcode::kBroadcast, ShapeLike(x->shape(), t, spread_dims), {scale});
      s->set_dimensions(from);
      s = AddNew(comp, dot, Opcode::kReshape, ShapeLike(x->shape(), t, xd), {s});
    }
    return AddNew(comp, dot, Opcode::kMultiply, Retyped(x->shape(), t), {x, s});
  }

  bool RewriteOne(Computation* comp, Instruction* dot) {
    for (int i = 0; i < 4; ++i)
      if (!IsStaticArray(dot->operand(i)->shape())) return false;
    bool ok = true;
    Instruction* lhs = Dequantize(comp, dot, dot->operand(0), dot->operand(2), &ok);
    Instruction* rhs = ok ? Dequantize(comp, dot, dot->operand(1), dot->operand(3), &ok) : nullptr;
    if (!ok) return false;  // the verifier's to report
    const PrimitiveType both = Target(lhs->shape().element_type(), rhs->shape().element_type());
    lhs = Convert(comp, dot, lhs, both);
    rhs = Convert(comp, dot, rhs, both);
    const Shape& out = dot->shape();
    const PrimitiveType t = Target(both, out.element_type());
    Instruction* plain = AddNew(comp, dot, Opcode::kDot, Retyped(out, t), {lhs, rhs});
    plain->attrs() = dot->attrs();
    for (const RawAttr& a : dot->raw_attrs()) plain->SetRaw(a.name, a.value);
    Instruction* result = Convert(comp, dot, plain, out.element_type());
    ReplaceInstruction(dot, result, mutable_log(),
                       "scaled dot → dot of the operands times their broadcast scales");
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeScaledDotRewriterPass() { return std::make_unique<ScaledDotRewriter>(); }

}  // namespace hloscope
