// The random module generator's contractions (the Gen class of
// random_module_internal.h): dot (plain, transposed, batched, vector),
// ragged-dot, scaled-dot, convolution and batch norm, each computing its
// result's shape by the op's rule and keeping its numerics within what a
// kernel's order of summation can move.
#include <algorithm>
#include <string>
#include <vector>

#include "core/fuzz/random_module_internal.h"

namespace hloscope::fuzz::internal {

bool Gen::Dot(Body& b) {
  int64_t kind = rng_.Range(0, 3);  // 0 plain, 1 transposed, 2 batched, 3 vector
  size_t rank = kind == 2 ? 3 : kind == 3 ? 1 : 2;
  int a = Pick(b, [&](const Val& v) { return v.dims.size() == rank && v.type != T::kPred; });
  if (a < 0 || rng_.Chance(20)) {
    Dims d(rank);
    for (auto& x : d) x = PickDim();
    Fit(d);
    a = GetOrMake(b, rng_.Chance(85) ? PickFloat() : T::kS32, d);
  }
  Val va = b.vals[static_cast<size_t>(a)];
  int64_t n = PickDim();
  Dims bd, out;
  std::string attrs;
  if (kind == 0) {
    bd = {va.dims[1], n}, out = {va.dims[0], n};
    attrs = "lhs_contracting_dims={1}, rhs_contracting_dims={0}";
  } else if (kind == 1) {
    bd = {n, va.dims[0]}, out = {va.dims[1], n};
    attrs = "lhs_contracting_dims={0}, rhs_contracting_dims={1}";
  } else if (kind == 2) {
    bd = {va.dims[0], va.dims[2], n}, out = {va.dims[0], va.dims[1], n};
    attrs = "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}";
  } else {
    bd = {va.dims[0], n}, out = {n};
    attrs = "lhs_contracting_dims={0}, rhs_contracting_dims={0}";
  }
  if (Elements(bd) > o_.max_elements || Elements(out) > o_.max_elements) return false;
  int c = GetOrMake(b, va.type, bd);
  std::string ua = Use(b, a), uc = Use(b, c);
  Emit(b, va.type, out, PickLayout(b, out.size()), "dot", "dot(" + ua + ", " + uc + "), " + attrs);
  return true;
}

// A ragged dot (grouped GEMM): non-contracting mode, x [m,k] · w [g,k,n] →
// [m,n], or contracting mode, x [k,m] · y [k,n] → [g,m,n]; the group sizes
// s32[g] (a parameter gets sizes up to each group's share of the ragged
// dimension; an iota or a constant, any).
bool Gen::RaggedDot(Body& b) {
  const bool contracting = rng_.Chance(40);
  int a = Pick(b, [&](const Val& v) { return v.dims.size() == 2 && IsFloat(v.type); });
  if (a < 0 || rng_.Chance(20)) {
    Dims d = {PickDim(), PickDim()};
    Fit(d);
    a = GetOrMake(b, PickFloat(), d);
  }
  const Val va = b.vals[static_cast<size_t>(a)];
  const int64_t g = rng_.Range(1, 4), n = PickDim();
  Dims rd, out;
  std::string attrs;
  if (contracting) {
    rd = {va.dims[0], n}, out = {g, va.dims[1], n};
    attrs = "lhs_contracting_dims={0}, rhs_contracting_dims={0}, lhs_ragged_dims={0}";
  } else {
    rd = {g, va.dims[1], n}, out = {va.dims[0], n};
    attrs = "lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}";
  }
  if (Elements(rd) > o_.max_elements || Elements(out) > o_.max_elements) return false;
  const int c = GetOrMake(b, va.type, rd);
  const int sizes = GetOrMake(b, T::kS32, {g});
  std::string ua = Use(b, a), uc = Use(b, c), us = Use(b, sizes);
  Emit(b, va.type, out, PickLayout(b, out.size()), "ragged-dot",
       "ragged-dot(" + ua + ", " + uc + ", " + us + "), " + attrs);
  return true;
}

// A block-scaled dot: x [m,k] · y [k,n], each scaled per block of k (scale
// [m, k/blk] and [k/blk, n]) or, for a bf16 operand, not at all (a scalar
// bf16 scale); at least one side is scaled.
bool Gen::ScaledDot(Body& b) {
  const T t = PickFloat();
  const int64_t blocks = rng_.Range(1, 3), blk = rng_.Range(1, 4);
  const int64_t m = PickDim(), k = blocks * blk, n = PickDim();
  if (m * k > o_.max_elements || k * n > o_.max_elements || m * n > o_.max_elements) return false;
  const T scale_t = rng_.Chance(50) ? T::kF32 : t;
  const int x = GetOrMake(b, t, {m, k}), y = GetOrMake(b, t, {k, n});
  // XLA's verifier takes a scalar bf16 scale of a bf16 operand as none,
  // unless every dimension of the operand is 1.
  const bool plain_x = t == T::kBF16 && (m != 1 || k != 1) && rng_.Chance(30);
  const bool plain_y = t == T::kBF16 && (k != 1 || n != 1) && !plain_x && rng_.Chance(30);
  const int xs = plain_x ? GetOrMake(b, T::kBF16, {}) : GetOrMake(b, scale_t, {m, blocks});
  const int ys = plain_y ? GetOrMake(b, T::kBF16, {}) : GetOrMake(b, scale_t, {blocks, n});
  const T out_t = rng_.Chance(50) ? T::kF32 : t;
  std::string ux = Use(b, x), uy = Use(b, y), uxs = Use(b, xs), uys = Use(b, ys);
  Emit(b, out_t, {m, n}, PickLayout(b, 2), "scaled-dot",
       "scaled-dot(" + ux + ", " + uy + ", " + uxs + ", " + uys + "), lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  return true;
}

// batch-norm-training (its output, mean or variance), -inference or -grad
// (one of its three results) on an f32 array of rank 2 to 4; the variance
// operand is abs() of a value plus 1, epsilon 0.001 or 1. Not f16/bf16: their sums
// round at every step, so a kernel's order of summation moves the result by
// more than any fair tolerance (diffuzz seeds 20267178, 20268266).
bool Gen::BatchNorm(Body& b) {
  int a = Pick(b, [&](const Val& v) { return v.dims.size() >= 2 && v.dims.size() <= 4 && v.type == T::kF32; });
  if (a < 0) return false;
  const Val va = b.vals[static_cast<size_t>(a)];
  // Only the larger caps reach this: past 2,048 elements the exact-to-sum
  // operands' products (x − mean)·dy need more than f32's 24 bits, and XLA's
  // tree-reduction split re-associates them (seed 40272153: 32,768 per
  // feature, 6492.71 against 6492.83).
  if (Elements(va.dims) > 2048) return false;
  const int64_t feature = rng_.Range(0, static_cast<int64_t>(va.dims.size()) - 1);
  const Dims fd = {va.dims[static_cast<size_t>(feature)]};
  const std::string eps = rng_.Chance(70) ? "0.001" : "1";
  const std::string attrs = ", epsilon=" + eps + ", feature_index=" + std::to_string(feature);
  const std::string fs = ShapeStr(va.type, fd, DefaultLayout(1));
  const int64_t kind = rng_.Range(0, 2);
  // The variance: |v| + 1. A variance near 0 (|v| of a small sum) makes the
  // gradient (var + eps)^(-3/2) times larger, thousands, and a dot of it then
  // cancels to a small value whose f32 rounding no tolerance covers
  // (diffuzz seed 20269542: 0.0455 from terms of 4,000).
  auto positive = [&]() {
    const int v = GetOrMake(b, va.type, fd);
    const int m = Emit(b, va.type, fd, DefaultLayout(1), "abs", "abs(" + Use(b, v) + ")");
    const std::string one = Const(b, va.type, "1");
    const int ones = Emit(b, va.type, fd, DefaultLayout(1), "broadcast", "broadcast(" + one + "), dimensions={}");
    std::string um = Use(b, m), uo = Use(b, ones);
    return Emit(b, va.type, fd, DefaultLayout(1), "add", "add(" + um + ", " + uo + ")");
  };
  // x made exact to sum, with two values at least in every feature:
  // tanh(x) plus 0.25 on every other index of a reduced dim, on eighths
  // (Gen::ExactToSum). Exact sums leave no order of summation to matter —
  // Σx and Σx² the same in the kernel as in the interpreter (diffuzz seed
  // 1567843301: a mean of 1.25 against a variance of 0.04, whose Σx² in f32
  // moved the result by 4.5e-5) — and the alternation keeps a feature that
  // is one value (a broadcast, p / p) from a variance of 0, where x − mean
  // is the rounding of the mean times 1/sqrt(epsilon) (seeds 20279558,
  // 556405690, 564004019).
  auto spread = [&](int x) {
    const int t = Emit(b, va.type, va.dims, va.layout, "tanh", "tanh(" + Use(b, x) + ")");
    for (size_t d = 0; d < va.dims.size(); ++d) {
      if (static_cast<int64_t>(d) == feature || va.dims[d] < 2) continue;
      auto splat = [&](const std::string& v) {
        const std::string c = Const(b, va.type, v);
        return Emit(b, va.type, va.dims, va.layout, "broadcast", "broadcast(" + c + "), dimensions={}");
      };
      const int ramp = Emit(b, va.type, va.dims, va.layout, "iota", "iota(), iota_dimension=" + std::to_string(d));
      const int two = splat("2"), quarter = splat("0.25");
      std::string ur = Use(b, ramp), u2 = Use(b, two);
      const int parity = Emit(b, va.type, va.dims, va.layout, "remainder", "remainder(" + ur + ", " + u2 + ")");
      std::string up = Use(b, parity), uq = Use(b, quarter);
      const int step = Emit(b, va.type, va.dims, va.layout, "multiply", "multiply(" + up + ", " + uq + ")");
      std::string ut = Use(b, t), us = Use(b, step);
      return ExactToSum(b, Emit(b, va.type, va.dims, va.layout, "add", "add(" + ut + ", " + us + ")"), va);
    }
    return t;  // one element per feature: x − mean is exactly 0
  };
  // Scale, offset and mean through tanh: |·| < 1, so that scale · x̂ +
  // offset cannot cancel from terms far larger than the result (diffuzz
  // seed 565461257: scale and offset 35, a result of 0.19, 3.8e-5 apart).
  auto bounded = [&]() {
    const int v = GetOrMake(b, va.type, fd);
    return Emit(b, va.type, fd, DefaultLayout(1), "tanh", "tanh(" + Use(b, v) + ")");
  };
  if (kind == 1) {
    const int s = bounded(), o = bounded(), m = bounded();
    const int v = positive();
    std::string ux = Use(b, a), us = Use(b, s), uo = Use(b, o), um = Use(b, m), uv = Use(b, v);
    Emit(b, va.type, va.dims, va.layout, "batch-norm-inference",
         "batch-norm-inference(" + ux + ", " + us + ", " + uo + ", " + um + ", " + uv + ")" + attrs);
    return true;
  }
  std::string rhs;
  if (kind == 0) {
    // The variance Σx²/N − mean² of values close together cancels to the
    // rounding of Σx²: the operand is spread (above).
    const int t = spread(a);
    const int s = bounded(), o = bounded();
    rhs = "batch-norm-training(" + Use(b, t) + ", " + Use(b, s) + ", " + Use(b, o) + ")";
  } else {
    // x and dy spread too: x − mean and dy − mean(dy) are taken.
    const int s = bounded(), m = bounded();
    const int v = positive();
    const int dy = GetOrMake(b, va.type, va.dims, &va.layout);
    const int tx = spread(a);
    const int tdy = spread(dy);
    rhs = "batch-norm-grad(" + Use(b, tx) + ", " + Use(b, s) + ", " + Use(b, m) + ", " + Use(b, v) + ", " +
          Use(b, tdy) + ")";
  }
  const std::string tuple_shape = "(" + va.Shape() + ", " + fs + ", " + fs + ")";
  const std::string name = Name(kind == 0 ? "batch-norm-training" : "batch-norm-grad");
  b.lines.push_back("  " + name + " = " + tuple_shape + " " + rhs + attrs);
  const int64_t index = rng_.Range(0, 2);
  Val v{name, va.type, index == 0 ? va.dims : fd, index == 0 ? va.layout : DefaultLayout(1)};
  Emit(b, v.type, v.dims, v.layout, "get-tuple-element", "get-tuple-element(" + name + "), index=" + std::to_string(index));
  return true;
}

// A 1-D convolution ([batch, feature, width], bf0_oi0->bf0) with a stride,
// padding and now and then a rhs dilation.
bool Gen::Convolution(Body& b) {
  T t = rng_.Chance(75) ? T::kF32 : PickFloat();
  int64_t n = rng_.Range(1, 3), c = rng_.Range(1, 4), w = std::max<int64_t>(1, PickDim()), o = rng_.Range(1, 4);
  int64_t k = rng_.Range(1, 4), stride = rng_.Range(1, 2), dil = rng_.Chance(20) ? 2 : 1;
  int64_t lo = rng_.Range(0, 2), hi = rng_.Range(0, 2);
  int64_t span = (k - 1) * dil + 1, padded = w + lo + hi;
  if (padded < span) return false;
  int64_t ow = (padded - span) / stride + 1;
  int in = GetOrMake(b, t, {n, c, w});
  int ker = GetOrMake(b, t, {o, c, k});
  std::string win = "window={size=" + std::to_string(k) + (stride > 1 ? " stride=" + std::to_string(stride) : "") +
                    " pad=" + std::to_string(lo) + "_" + std::to_string(hi) +
                    (dil > 1 ? " rhs_dilate=" + std::to_string(dil) : "") + "}";
  std::string ui = Use(b, in), uk = Use(b, ker);
  Emit(b, t, {n, o, ow}, PickLayout(b, 3), "convolution",
       "convolution(" + ui + ", " + uk + "), " + win + ", dim_labels=bf0_oi0->bf0");
  return true;
}

}  // namespace hloscope::fuzz::internal
