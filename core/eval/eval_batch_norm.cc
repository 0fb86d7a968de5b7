// batch-norm-training, batch-norm-inference and batch-norm-grad. XLA's
// evaluator has no definition of them: every XLA backend expands them first
// (BatchNormExpander), and that expansion is their meaning. Per feature f
// (operand dimension feature_index), over the N elements of all the other
// dimensions, each step rounded to the element type as the expanded ops are:
//
//   training:  mean = Σx / N, var = max(Σx² / N − mean², 0), y = (x − mean)·rsqrt(var + ε)·scale + offset
//              → (y, mean, var)
//   inference: s = scale·rsqrt(var + ε), y = x·s + (offset − mean·s)
//   grad:      dscale = Σ dy·(x − mean) · rsqrt(var + ε), doffset = Σ dy,
//              dx = scale·rsqrt(var + ε) / N · (N·dy − doffset − (x − mean)·Σ dy·(x − mean) / (var + ε))
//              → (dx, dscale, doffset)
//
// Sums run over the elements in row-major order, as a reduce does. Written
// here as loops, not built from the expander's instructions, so that the
// differential checker compares two separate readings of the definition.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"

namespace hloscope::eval {
namespace {

struct BnAttrs {
  int64_t feature = 0;
  double epsilon = 0;
};

StatusOr<BnAttrs> ReadAttrs(const Instruction& instr, const Shape& x) {
  const RawAttr* f = instr.FindRaw("feature_index");
  const RawAttr* e = instr.FindRaw("epsilon");
  if (!f) return InstrError(instr, "needs feature_index=");
  BnAttrs a;
  char* end = nullptr;
  a.feature = std::strtoll(f->value.c_str(), &end, 10);
  if (end == f->value.c_str() || a.feature < 0 || a.feature >= x.rank())
    return InstrError(instr, "feature_index=" + f->value + " is out of range for " + x.ToString(false));
  if (e) {
    a.epsilon = std::strtod(e->value.c_str(), &end);
    if (end == e->value.c_str()) return InstrError(instr, "epsilon=" + e->value + " is not a number");
  }
  return a;
}

// Element e of a row-major array of `dims` lies in feature (e / inner) % features.
struct FeatureIndex {
  int64_t inner = 1, features = 1, per_feature = 1;  // per_feature: N
  FeatureIndex(const std::vector<int64_t>& dims, int64_t feature) {
    features = dims[static_cast<size_t>(feature)];
    for (size_t d = static_cast<size_t>(feature) + 1; d < dims.size(); ++d) inner *= dims[d];
    for (size_t d = 0; d < dims.size(); ++d)
      if (d != static_cast<size_t>(feature)) per_feature *= dims[d];
  }
  int64_t operator()(int64_t e) const { return features == 0 ? 0 : e / inner % features; }
};

template <class Tr>
struct Typed {
  using S = typename Tr::S;
  using C = typename Tr::C;
  static C R(C v) { return Tr::Load(Tr::Store(v)); }  // one op's rounding
  static C Get(const Literal& l, int64_t i) { return Tr::Load(reinterpret_cast<const S*>(l.raw())[i]); }
  static void Put(Literal& l, int64_t i, C v) { reinterpret_cast<S*>(l.raw())[i] = Tr::Store(v); }
  static C Rsqrt(C v) { return R(C(1) / std::sqrt(v)); }

  // Σ over each feature of f(e), in element order.
  template <class F>
  static std::vector<C> SumPerFeature(int64_t n, const FeatureIndex& fi, F&& f) {
    std::vector<C> acc(static_cast<size_t>(fi.features), C(0));
    for (int64_t e = 0; e < n; ++e) {
      C& a = acc[static_cast<size_t>(fi(e))];
      a = R(a + f(e));
    }
    return acc;
  }

  static Literal Training(const Literal& x, const Literal& scale, const Literal& offset, const BnAttrs& at) {
    const FeatureIndex fi(x.shape().dims(), at.feature);
    const int64_t n = x.num_elements();
    const C count = R(static_cast<C>(fi.per_feature));
    const C eps = R(static_cast<C>(at.epsilon));
    std::vector<C> sum = SumPerFeature(n, fi, [&](int64_t e) { return Get(x, e); });
    std::vector<C> sq = SumPerFeature(n, fi, [&](int64_t e) { return R(Get(x, e) * Get(x, e)); });
    Literal y(x.shape()), mean(scale.shape()), var(scale.shape());
    std::vector<C> m(sum.size()), v(sum.size());
    for (size_t f = 0; f < sum.size(); ++f) {
      m[f] = R(sum[f] / count);
      v[f] = std::max(R(R(sq[f] / count) - R(m[f] * m[f])), C(0));
      Put(mean, static_cast<int64_t>(f), m[f]);
      Put(var, static_cast<int64_t>(f), v[f]);
    }
    for (int64_t e = 0; e < n; ++e) {
      const size_t f = static_cast<size_t>(fi(e));
      const C normalized = R(R(Get(x, e) - m[f]) * Rsqrt(R(v[f] + eps)));
      Put(y, e, R(R(normalized * Get(scale, static_cast<int64_t>(f))) + Get(offset, static_cast<int64_t>(f))));
    }
    return MakeTuple({std::move(y), std::move(mean), std::move(var)});
  }

  static Literal Inference(const Literal& x, const Literal& scale, const Literal& offset, const Literal& mean,
                           const Literal& var, const BnAttrs& at) {
    const FeatureIndex fi(x.shape().dims(), at.feature);
    const C eps = R(static_cast<C>(at.epsilon));
    std::vector<C> s(static_cast<size_t>(fi.features)), shift(s.size());
    for (size_t f = 0; f < s.size(); ++f) {
      const int64_t i = static_cast<int64_t>(f);
      s[f] = R(Get(scale, i) * Rsqrt(R(Get(var, i) + eps)));
      shift[f] = R(Get(offset, i) - R(Get(mean, i) * s[f]));
    }
    Literal y(x.shape());
    for (int64_t e = 0; e < x.num_elements(); ++e) {
      const size_t f = static_cast<size_t>(fi(e));
      Put(y, e, R(R(Get(x, e) * s[f]) + shift[f]));
    }
    return y;
  }

  static Literal Grad(const Literal& x, const Literal& scale, const Literal& mean, const Literal& var,
                      const Literal& dy, const BnAttrs& at) {
    const FeatureIndex fi(x.shape().dims(), at.feature);
    const int64_t n = x.num_elements();
    const C count = R(static_cast<C>(fi.per_feature));
    const C eps = R(static_cast<C>(at.epsilon));
    auto centered = [&](int64_t e) { return R(Get(x, e) - Get(mean, fi(e))); };
    std::vector<C> dy_centered = SumPerFeature(n, fi, [&](int64_t e) { return R(Get(dy, e) * centered(e)); });
    std::vector<C> doffset = SumPerFeature(n, fi, [&](int64_t e) { return Get(dy, e); });
    Literal dx(x.shape()), dscale(scale.shape()), doff(scale.shape());
    for (size_t f = 0; f < doffset.size(); ++f) {
      const int64_t i = static_cast<int64_t>(f);
      Put(dscale, i, R(dy_centered[f] * Rsqrt(R(Get(var, i) + eps))));
      Put(doff, i, doffset[f]);
    }
    for (int64_t e = 0; e < n; ++e) {
      const int64_t i = fi(e);
      const size_t f = static_cast<size_t>(i);
      const C var_eps = R(Get(var, i) + eps);
      const C per_n = R(R(Get(scale, i) * Rsqrt(var_eps)) / count);
      const C i5 = R(R(dy_centered[f] * centered(e)) / var_eps);
      const C i6 = R(R(R(Get(dy, e) * count) - doffset[f]) - i5);
      Put(dx, e, R(per_n * i6));
    }
    return MakeTuple({std::move(dx), std::move(dscale), std::move(doff)});
  }
};

}  // namespace

StatusOr<Literal> EvalBatchNorm(const Instruction& instr, Operands ops) {
  const Opcode op = instr.opcode();
  const size_t want = op == Opcode::kBatchNormTraining ? 3 : 5;
  if (ops.size() != want) return InstrError(instr, "expects " + std::to_string(want) + " operands");
  const Literal& x = *ops[0];
  if (!x.shape().IsArray() || x.shape().rank() < 1) return InstrError(instr, "the operand must be an array");
  ASSIGN_OR_RETURN(BnAttrs at, ReadAttrs(instr, x.shape()));
  std::optional<Literal> out;
  const bool typed = VisitReal(x.shape().element_type(), [&](auto tr) {
    using Tr = decltype(tr);
    if constexpr (std::is_floating_point_v<typename Tr::C>) {
      using T = Typed<Tr>;
      if (op == Opcode::kBatchNormTraining) out = T::Training(x, *ops[1], *ops[2], at);
      else if (op == Opcode::kBatchNormInference) out = T::Inference(x, *ops[1], *ops[2], *ops[3], *ops[4], at);
      else out = T::Grad(x, *ops[1], *ops[2], *ops[3], *ops[4], at);
    }
  });
  if (!typed || !out) return Unsupported(instr, "batch normalization of a non-floating-point operand");
  return std::move(*out);
}

}  // namespace hloscope::eval
