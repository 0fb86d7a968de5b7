// batchnorm_expander: XLA's BatchNormExpander, which XLA GPU runs on all three
// batch-norm ops (training, inference, grad) before simplification: each
// becomes the elementwise ops and per-feature reductions that define it
// (core/eval/eval_batch_norm.cc gives the formulas). TensorFlow and Keras
// modules carry these ops; JAX writes the arithmetic itself. The expansion
// follows XLA's instruction for instruction (variance as max(E[x²] − E[x]², 0)
// as XLA 0.12 writes it, the rounding having made it negative now and then; ε
// added after broadcasting in training and grad, before it in inference); the
// element count per feature is a constant of the element type, which XLA
// builds from get-dimension-size ops that constant folding folds to it.
#include <cstdlib>

#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"

namespace hloscope {
namespace {

class Expansion {
 public:
  Expansion(Computation* comp, Instruction* bn, int64_t feature) : comp_(comp), bn_(bn), feature_(feature) {
    const Shape& x = bn->operand(0)->shape();
    type_ = x.element_type();
    for (int i = 0; i < x.rank(); ++i)
      if (i != feature) {
        others_.push_back(i);
        count_ *= x.dim(i);
      }
  }

  Instruction* Op(Opcode op, const Shape& shape, const std::vector<Instruction*>& ops) {
    Instruction* i = AddNew(comp_, bn_, op, shape, ops);
    i->metadata() = bn_->metadata();
    return i;
  }
  Instruction* Scalar(double v) { return AddScalarConstant(comp_, bn_, type_, v); }
  Instruction* Splat(Instruction* scalar, const Shape& shape) {
    Instruction* b = Op(Opcode::kBroadcast, shape, {scalar});
    b->set_dimensions({});
    return b;
  }
  // A per-feature value broadcast along the feature dimension of `shape`.
  Instruction* PerElement(Instruction* f, const Shape& shape) {
    Instruction* b = Op(Opcode::kBroadcast, shape, {f});
    b->set_dimensions({feature_});
    return b;
  }
  // Σ over every dimension but the feature one.
  Instruction* SumPerFeature(Instruction* x, const Shape& feature_shape) {
    if (!add_) add_ = AddScalarAddComputation(*comp_->parent(), type_, comp_);
    Instruction* r = Op(Opcode::kReduce, feature_shape, {x, Scalar(0)});
    r->set_dimensions(others_);
    r->SetCalled("to_apply", add_);
    return r;
  }
  Instruction* Count() { return Scalar(static_cast<double>(count_)); }
  // Element i of the op's result tuple: its shape, layout included.
  const Shape& Element(int i) const { return bn_->shape().tuple_shapes()[static_cast<size_t>(i)]; }

  // (y, mean, var) of batch-norm-training(x, scale, offset).
  Instruction* Training(double eps) {
    Instruction *x = bn_->operand(0), *scale = bn_->operand(1), *offset = bn_->operand(2);
    const Shape &xs = x->shape(), &fs = scale->shape();
    Instruction* epsilon = Splat(Scalar(eps), xs);
    Instruction* n = Count();
    Instruction* sum = SumPerFeature(x, fs);
    Instruction* squares = SumPerFeature(Op(Opcode::kMultiply, xs, {x, x}), fs);
    Instruction* mean = Op(Opcode::kDivide, fs, {sum, Splat(n, fs)});
    Instruction* square_mean = Op(Opcode::kDivide, fs, {squares, Splat(n, fs)});
    Instruction* var = Op(Opcode::kMaximum, fs,
                          {Op(Opcode::kSubtract, fs, {square_mean, Op(Opcode::kMultiply, fs, {mean, mean})}),
                           Splat(Scalar(0), fs)});
    Instruction* rsqrt = Op(Opcode::kRsqrt, xs, {Op(Opcode::kAdd, xs, {PerElement(var, xs), epsilon})});
    Instruction* centered = Op(Opcode::kSubtract, xs, {x, PerElement(mean, xs)});
    Instruction* normalized = Op(Opcode::kMultiply, xs, {centered, rsqrt});
    Instruction* scaled = Op(Opcode::kMultiply, xs, {normalized, PerElement(scale, xs)});
    Instruction* y = Op(Opcode::kAdd, Element(0), {scaled, PerElement(offset, xs)});
    return Op(Opcode::kTuple, bn_->shape(), {y, mean, var});
  }

  // y of batch-norm-inference(x, scale, offset, mean, var).
  Instruction* Inference(double eps) {
    Instruction *x = bn_->operand(0), *scale = bn_->operand(1), *offset = bn_->operand(2);
    Instruction *mean = bn_->operand(3), *var = bn_->operand(4);
    const Shape &xs = x->shape(), &fs = scale->shape();
    Instruction* epsilon = Splat(Scalar(eps), fs);
    Instruction* true_scale =
        Op(Opcode::kMultiply, fs, {scale, Op(Opcode::kRsqrt, fs, {Op(Opcode::kAdd, fs, {var, epsilon})})});
    Instruction* true_shift =
        Op(Opcode::kSubtract, fs, {offset, Op(Opcode::kMultiply, fs, {mean, true_scale})});
    Instruction* scaled = Op(Opcode::kMultiply, xs, {x, PerElement(true_scale, xs)});
    return Op(Opcode::kAdd, bn_->shape(), {scaled, PerElement(true_shift, xs)});
  }

  // (dx, dscale, doffset) of batch-norm-grad(x, scale, mean, var, dy).
  Instruction* Grad(double eps) {
    Instruction *x = bn_->operand(0), *scale = bn_->operand(1), *mean = bn_->operand(2);
    Instruction *var = bn_->operand(3), *dy = bn_->operand(4);
    const Shape &xs = x->shape(), &fs = scale->shape();
    Instruction* n = Count();
    Instruction* e = Scalar(eps);
    Instruction* eps_x = Splat(e, xs);
    Instruction* eps_f = Splat(e, fs);
    Instruction* var_x = PerElement(var, xs);
    Instruction* rsqrt_x = Op(Opcode::kRsqrt, xs, {Op(Opcode::kAdd, xs, {var_x, eps_x})});
    Instruction* rsqrt_f = Op(Opcode::kRsqrt, fs, {Op(Opcode::kAdd, fs, {var, eps_f})});
    Instruction* centered = Op(Opcode::kSubtract, xs, {x, PerElement(mean, xs)});
    Instruction* dy_centered = SumPerFeature(Op(Opcode::kMultiply, xs, {dy, centered}), fs);
    Instruction* doffset = SumPerFeature(dy, fs);
    Instruction* dscale = Op(Opcode::kMultiply, fs, {dy_centered, rsqrt_f});
    Instruction* i4 = Op(Opcode::kMultiply, xs, {PerElement(dy_centered, xs), centered});
    Instruction* i5 = Op(Opcode::kDivide, xs, {i4, Op(Opcode::kAdd, xs, {var_x, eps_x})});
    Instruction* per_n =
        Op(Opcode::kDivide, xs, {Op(Opcode::kMultiply, xs, {PerElement(scale, xs), rsqrt_x}), Splat(n, xs)});
    Instruction* i1 = Op(Opcode::kMultiply, xs, {dy, Splat(n, xs)});
    Instruction* i6 =
        Op(Opcode::kSubtract, xs, {Op(Opcode::kSubtract, xs, {i1, PerElement(doffset, xs)}), i5});
    Instruction* dx = Op(Opcode::kMultiply, Element(0), {per_n, i6});
    return Op(Opcode::kTuple, bn_->shape(), {dx, dscale, doffset});
  }

 private:
  Computation* comp_;
  Instruction* bn_;
  int64_t feature_;
  PrimitiveType type_ = PrimitiveType::kF32;
  std::vector<int64_t> others_;
  int64_t count_ = 1;
  Computation* add_ = nullptr;
};

class BatchNormExpander : public Pass {
 public:
  std::string_view name() const override { return "batchnorm_expander"; }
  std::string_view description() const override {
    return "Expands batch-norm-training, -inference and -grad into per-feature reductions and elementwise "
           "ops (XLA's BatchNormExpander).";
  }

  StatusOr<bool> Run(Module& module) override {
    return RewriteEach(
        module,
        [](const Instruction& i) {
          return i.opcode() == Opcode::kBatchNormTraining || i.opcode() == Opcode::kBatchNormInference ||
                 i.opcode() == Opcode::kBatchNormGrad;
        },
        [this](Computation* c, Instruction* i) { return ExpandOne(c, i); });
  }

 private:
  bool ExpandOne(Computation* comp, Instruction* bn) {
    const Instruction* x = bn->operand(0);
    if (!IsStaticArray(x->shape()) || !IsFloat(x->shape().element_type())) return false;
    const RawAttr* f = bn->FindRaw("feature_index");
    const RawAttr* e = bn->FindRaw("epsilon");
    if (!f) return false;
    char* end = nullptr;
    const int64_t feature = std::strtoll(f->value.c_str(), &end, 10);
    if (end == f->value.c_str() || feature < 0 || feature >= x->shape().rank()) return false;
    const double eps = e ? std::strtod(e->value.c_str(), nullptr) : 0.0;
    Expansion ex(comp, bn, feature);
    Instruction* now = nullptr;
    std::string rule;
    switch (bn->opcode()) {
      case Opcode::kBatchNormTraining:
        now = ex.Training(eps);
        rule = "batch-norm-training → per-feature mean and variance (E[x²] − E[x]²), normalize, scale, shift";
        break;
      case Opcode::kBatchNormInference:
        now = ex.Inference(eps);
        rule = "batch-norm-inference → x·scale·rsqrt(var + ε) + (offset − mean·scale·rsqrt(var + ε))";
        break;
      default:
        now = ex.Grad(eps);
        rule = "batch-norm-grad → per-feature sums of dy and dy·(x − mean), and the gradients from them";
        break;
    }
    ReplaceInstruction(bn, now, mutable_log(), rule);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeBatchNormExpanderPass() { return std::make_unique<BatchNormExpander>(); }

}  // namespace hloscope
