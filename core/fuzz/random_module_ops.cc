// The random module generator's op builders (the Gen class of
// random_module_internal.h; its choices and the module's assembly are in
// random_module.cc): one member per op family, each computing its result's
// shape by the op's rule. Elementwise (binary, unary, compare and select,
// convert); data movement (broadcast, transpose, reshape, bitcast, slice,
// concatenate, pad, reverse, dynamic-slice and dynamic-update-slice);
// reductions (row, column, full, variadic) with their scalar reducer
// computations; gather, scatter; and control flow (while loops and
// conditionals, whose bodies and branches are short elementwise chains).
// Dots, convolutions and batch norm are in random_module_contractions.cc,
// JAX's linear-algebra library calls in random_module_linalg.cc, collectives
// in random_module_collectives.cc.
#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/fuzz/random_module_internal.h"

namespace hloscope::fuzz::internal {
namespace {

// A reduction whose bf16/f16 result depends on the order of combining
// beyond the tolerance: any rounded sum or product of several elements.
bool IsLowPrecision(T t, const std::string& op, int64_t count) {
  return (t == T::kBF16 || t == T::kF16) && (op == "add" || op == "multiply") && count > 1;
}

}  // namespace

std::string Gen::ScalarComputation(const std::string& op, T t) {
  std::string key = op + "_" + TName(t);
  auto it = scalar_.find(key);
  if (it != scalar_.end()) return it->second;
  std::string n = Name(key);
  std::string s = std::string(TName(t)) + "[]";
  helpers_.push_back(n + " {\n  a = " + s + " parameter(0)\n  b = " + s + " parameter(1)\n  ROOT r = " + s + " " +
                     op + "(a, b)\n}\n");
  scalar_[key] = n;
  return n;
}

bool Gen::Binary(Body& b) {
  int a = PickArray(b);
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  static const char* kFloat[] = {"add", "subtract", "multiply", "maximum", "minimum", "divide", "add", "multiply"};
  static const char* kInt[] = {"add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor", "divide",
                               "remainder", "shift-left", "shift-right-arithmetic"};
  static const char* kPred[] = {"and", "or", "xor"};
  std::string op;
  if (IsFloat(va.type)) op = kFloat[rng_.Range(0, std::size(kFloat) - 1)];
  else if (va.type == T::kS32) op = kInt[rng_.Range(0, b.fixed ? 7 : std::size(kInt) - 1)];
  else op = kPred[rng_.Range(0, 2)];
  // Loops repeat the body: no op whose derivative can be large (x * x,
  // x / y), or a last-bit difference of the loop's input (a sum in another
  // order) grows past any tolerance in four trips (campaign seed 1005042864:
  // cos(2x * x) four times).
  if (b.fixed && (op == "divide" || op == "multiply")) op = rng_.Chance(50) ? "add" : "maximum";
  int c = rng_.Chance(15) ? a : GetOrMake(b, va.type, va.dims, &va.layout);
  // A divisor computed from a sum (a reduce, a dot, a normalization's
  // output) can sit near 0, where its last bits, which a kernel's order of
  // summation moves, become the quotient's leading ones (diffuzz seed
  // 567829104: p / batch-norm-training(...), 0.017 apart on -151).
  if (op == "divide" && IsFloat(va.type) && b.vals[static_cast<size_t>(c)].summed) op = "multiply";
  std::string rhs = op + "(" + Use(b, a) + ", " + Use(b, c) + ")";
  Emit(b, va.type, va.dims, PickLayout(b, va.dims.size(), &va.layout), op, rhs);
  return true;
}

bool Gen::Unary(Body& b) {
  int a = PickArray(b);
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  static const char* kFloat[] = {"negate", "abs", "exponential", "tanh", "sine", "cosine", "floor", "ceil", "sign",
                                 "logistic", "sqrt", "log", "round-nearest-even", "log-plus-one", "rsqrt"};
  static const char* kInt[] = {"negate", "abs", "not", "sign", "popcnt", "clz"};
  std::string op;
  if (IsFloat(va.type)) op = kFloat[rng_.Range(0, b.fixed ? 5 : std::size(kFloat) - 1)];
  else if (va.type == T::kS32) op = kInt[rng_.Range(0, std::size(kInt) - 1)];
  else op = "not";
  if (b.fixed && op == "exponential") op = "tanh";  // see Binary: no large derivatives in loops
  // sin(x) of a sum of 500 elements keeps the sum's absolute rounding error
  // (1e-4) in a result below 1; floor and its kin jump at integers (campaign
  // seed 1288979218: a row reduction summed in another order, then sine).
  if (IsFloat(va.type) && va.summed && (op == "sine" || op == "cosine" || op == "floor" || op == "ceil" || op == "sign" ||
                    op == "round-nearest-even"))
    op = "tanh";
  Emit(b, va.type, va.dims, PickLayout(b, va.dims.size(), &va.layout), op, op + "(" + Use(b, a) + ")");
  return true;
}

bool Gen::CompareSelect(Body& b) {
  int a = Pick(b, [](const Val& v) { return v.type != T::kPred; });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  static const char* kDir[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  int c = GetOrMake(b, va.type, va.dims, &va.layout);
  std::string rhs = "compare(" + Use(b, a) + ", " + Use(b, c) + "), direction=" + kDir[rng_.Range(0, 5)];
  Dims pl = b.fixed ? va.layout : PickLayout(b, va.dims.size());
  int p = Emit(b, T::kPred, va.dims, pl, "compare", rhs);
  if (b.fixed || rng_.Chance(70)) {
    int x = GetOrMake(b, va.type, va.dims, &va.layout);
    std::string s = "select(" + Use(b, p) + ", " + Use(b, a) + ", " + Use(b, x) + ")";
    Emit(b, va.type, va.dims, PickLayout(b, va.dims.size(), &va.layout), "select", s);
  }
  return true;
}

bool Gen::Convert(Body& b) {
  int a = PickArray(b);
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  T t = PickType();
  if (t == va.type) t = IsFloat(t) ? T::kS32 : T::kF32;
  Emit(b, t, va.dims, PickLayout(b, va.dims.size()), "convert", "convert(" + Use(b, a) + ")");
  return true;
}

bool Gen::Broadcast(Body& b) {
  int a = Pick(b, [](const Val& v) { return v.dims.size() < 4; });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  Dims d = va.dims;
  size_t at = static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(d.size())));
  d.insert(d.begin() + static_cast<std::ptrdiff_t>(at), PickDim());
  if (Elements(d) > o_.max_elements) return false;
  Dims map;
  for (size_t i = 0; i < d.size(); ++i)
    if (i != at) map.push_back(static_cast<int64_t>(i));
  Emit(b, va.type, d, PickLayout(b, d.size()), "broadcast",
       "broadcast(" + Use(b, a) + "), dimensions={" + Join(map) + "}");
  return true;
}

bool Gen::Transpose(Body& b) {
  int a = Pick(b, [](const Val& v) { return v.dims.size() >= 2; });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  Dims perm(va.dims.size());
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = perm.size() - 1; i > 0; --i) std::swap(perm[i], perm[static_cast<size_t>(rng_.Range(0, i))]);
  Dims d;
  for (int64_t p : perm) d.push_back(va.dims[static_cast<size_t>(p)]);
  Emit(b, va.type, d, PickLayout(b, d.size()), "transpose",
       "transpose(" + Use(b, a) + "), dimensions={" + Join(perm) + "}");
  return true;
}

bool Gen::Reshape(Body& b) {
  int a = PickArray(b);
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  Dims d = va.dims;
  int64_t kind = rng_.Range(0, 4);
  if (kind == 0 || d.size() >= 4) {  // flatten
    d = {Elements(va.dims)};
  } else if (kind == 1) {  // insert a 1
    d.insert(d.begin() + rng_.Range(0, static_cast<int64_t>(d.size())), 1);
  } else if (kind == 2 && d.size() >= 2) {  // merge two adjacent dims
    size_t i = static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(d.size()) - 2));
    d[i] *= d[i + 1];
    d.erase(d.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  } else if (kind == 3 && !d.empty()) {  // split a dim
    size_t i = static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(d.size()) - 1));
    int64_t f = 1;
    for (int64_t c = 2; c < d[i]; ++c)
      if (d[i] % c == 0 && rng_.Chance(50)) { f = c; break; }
    int64_t rest = f == 0 ? 0 : d[i] / f;
    d[i] = rest;
    d.insert(d.begin() + static_cast<std::ptrdiff_t>(i), f);
  } else {  // drop the 1s
    d.erase(std::remove(d.begin(), d.end(), 1), d.end());
  }
  if (Elements(d) != Elements(va.dims)) return false;
  Emit(b, va.type, d, PickLayout(b, d.size()), "reshape", "reshape(" + Use(b, a) + ")");
  return true;
}

// A bitcast that reads the same bytes: a transpose whose layout keeps the
// physical order, or a reshape of two default layouts.
bool Gen::Bitcast(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  size_t r = va.dims.size();
  if (rng_.Chance(50) && r >= 2 && va.layout == DefaultLayout(r)) {
    size_t i = static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(r) - 2));
    Dims d = va.dims;
    d[i] *= d[i + 1];
    d.erase(d.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    Emit(b, va.type, d, DefaultLayout(d.size()), "bitcast", "bitcast(" + Use(b, a) + ")");
    return true;
  }
  Dims perm(r), inv(r), d(r), l(r);
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = r - 1; i > 0; --i) std::swap(perm[i], perm[static_cast<size_t>(rng_.Range(0, i))]);
  for (size_t i = 0; i < r; ++i) {
    d[i] = va.dims[static_cast<size_t>(perm[i])];
    inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  }
  for (size_t j = 0; j < r; ++j) l[j] = inv[static_cast<size_t>(va.layout[j])];
  Emit(b, va.type, d, l, "bitcast", "bitcast(" + Use(b, a) + ")");
  return true;
}

bool Gen::Slice(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  std::string spec;
  Dims d;
  for (int64_t n : va.dims) {
    int64_t start = rng_.Range(0, n), limit = rng_.Range(start, n), stride = rng_.Chance(75) ? 1 : rng_.Range(2, 3);
    if (rng_.Chance(30)) start = 0, limit = n;
    spec += std::string(spec.empty() ? "" : ", ") + "[" + std::to_string(start) + ":" + std::to_string(limit) +
            (stride > 1 ? ":" + std::to_string(stride) : "") + "]";
    d.push_back((limit - start + stride - 1) / stride);
  }
  Emit(b, va.type, d, PickLayout(b, d.size()), "slice", "slice(" + Use(b, a) + "), slice={" + spec + "}");
  return true;
}

bool Gen::Concatenate(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  size_t k = static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(va.dims.size()) - 1));
  std::vector<int> ops = {a};
  Dims d = va.dims;
  int64_t n = rng_.Range(1, 2);
  for (int64_t i = 0; i < n; ++i) {
    int c = Pick(b, [&](const Val& v) {
      if (v.type != va.type || v.dims.size() != va.dims.size()) return false;
      for (size_t j = 0; j < v.dims.size(); ++j)
        if (j != k && v.dims[j] != va.dims[j]) return false;
      return true;
    });
    if (c < 0 || rng_.Chance(30)) {
      Dims e = va.dims;
      e[k] = PickDim();
      c = GetOrMake(b, va.type, e);
    }
    d[k] += b.vals[static_cast<size_t>(c)].dims[k];
    ops.push_back(c);
  }
  if (Elements(d) > o_.max_elements) return false;
  std::string rhs = "concatenate(";
  for (size_t i = 0; i < ops.size(); ++i) rhs += (i ? ", " : "") + Use(b, ops[i]);
  Emit(b, va.type, d, PickLayout(b, d.size()), "concatenate", rhs + "), dimensions={" + std::to_string(k) + "}");
  return true;
}

bool Gen::Pad(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  std::string spec;
  Dims d;
  for (int64_t n : va.dims) {
    int64_t lo = rng_.Range(-1, 3), hi = rng_.Range(-1, 3), in = rng_.Chance(25) ? rng_.Range(1, 2) : 0;
    int64_t out = lo + hi + n + std::max<int64_t>(n - 1, 0) * in;
    if (out < 0) lo = hi = 0, out = n + std::max<int64_t>(n - 1, 0) * in;
    spec += std::string(spec.empty() ? "" : "x") + std::to_string(lo) + "_" + std::to_string(hi) +
            (in ? "_" + std::to_string(in) : "");
    d.push_back(out);
  }
  if (Elements(d) > o_.max_elements) return false;
  std::string pv = Const(b, va.type, ScalarConst(va.type));
  Emit(b, va.type, d, PickLayout(b, d.size()), "pad", "pad(" + Use(b, a) + ", " + pv + "), padding=" + spec);
  return true;
}

bool Gen::Reverse(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  Dims rd;
  for (size_t i = 0; i < va.dims.size(); ++i)
    if (rng_.Chance(50) || (rd.empty() && i + 1 == va.dims.size())) rd.push_back(static_cast<int64_t>(i));
  Emit(b, va.type, va.dims, PickLayout(b, va.dims.size()), "reverse",
       "reverse(" + Use(b, a) + "), dimensions={" + Join(rd) + "}");
  return true;
}

// Start indices for a dynamic slice of `sizes` out of `operand`: constants
// (sometimes out of bounds: they clamp) or s32 parameters.
std::string Gen::Starts(Body& b, const Dims& operand, const Dims& sizes) {
  std::string s;
  for (size_t i = 0; i < operand.size(); ++i) {
    std::string n;
    if (b.entry && b.params.size() < 8 && rng_.Chance(40)) {
      n = Use(b, NewParam(b, T::kS32, {}, {}));
    } else {
      int64_t hi = operand[i] - sizes[i];
      n = Const(b, T::kS32, std::to_string(rng_.Chance(15) ? rng_.Range(-2, hi + 2) : rng_.Range(0, hi)));
    }
    s += ", " + n;
  }
  return s;
}

bool Gen::DynamicSlice(Body& b, bool update) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  Dims sizes;
  for (int64_t n : va.dims) sizes.push_back(rng_.Chance(30) ? n : rng_.Range(std::min<int64_t>(n, 1), n));
  if (!update) {
    std::string rhs = "dynamic-slice(" + Use(b, a) + Starts(b, va.dims, sizes) + "), dynamic_slice_sizes={" +
                      Join(sizes) + "}";
    Emit(b, va.type, sizes, PickLayout(b, sizes.size()), "dynamic-slice", rhs);
    return true;
  }
  int u = GetOrMake(b, va.type, sizes);
  std::string ua = Use(b, u);
  std::string rhs = "dynamic-update-slice(" + Use(b, a) + ", " + ua + Starts(b, va.dims, sizes) + ")";
  Emit(b, va.type, va.dims, PickLayout(b, va.dims.size()), "dynamic-update-slice", rhs);
  return true;
}

// A cumulative scan as JAX 0.12 writes it for GPUs (jnp.cumsum, cummax,
// cummin, cumprod, logical ones): XLA's `scan` op with one input, one
// carry started at the combiner's identity, is_associative, now and then
// reversed, its final carry read now and then. `gpu` rewrites it into a
// reduce-window (associative-scan-rewriter); the interpreter runs the scan.
bool Gen::Scan(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty() && Elements(v.dims) > 0; });
  if (a < 0) return false;
  const Val va = b.vals[static_cast<size_t>(a)];
  const int64_t d = rng_.Range(0, static_cast<int64_t>(va.dims.size()) - 1);
  const int64_t len = va.dims[static_cast<size_t>(d)];
  // Only the larger caps reach this: the rewritten reduce-window's windows are
  // the scan's length, and the interpreter walks a reverse scan's windows in
  // O(n²) (a forward one runs as a running value), past the hang limit at
  // 33,024 (seed 1040272843). XLA's reduce-window-rewriter, which `gpu` does
  // not run, would cut them into a tree of 16 (docs/fusion.md).
  if (len > 4096) return false;
  std::string op;
  if (va.type == T::kPred) {
    op = rng_.Chance(50) ? "and" : "or";
  } else {
    static const char* kOps[] = {"add", "add", "maximum", "minimum", "multiply"};
    op = kOps[rng_.Range(0, 4)];
    if (IsLowPrecision(va.type, op, len) || (IsFloat(va.type) && op == "multiply" && len > 4)) op = "maximum";
    // An f32 running sum may be re-associated (is_associative: the
    // associative-scan-rewriter does), which moves its last bits by more than
    // a small result's tolerance (diffuzz seed 20417766: 1.9e-6 on 0.077, a
    // sum of 48). Its operand is made exact to sum: clamped to [-4, 4] and
    // rounded down to eighths (a computed sum, whose last bits a kernel moves,
    // is not rounded; its scan takes the maximum instead).
    if (va.type == T::kF32 && op == "add") {
      if (va.summed) op = "maximum";
      else a = ExactToSum(b, a, va);
    }
  }
  std::string identity;
  if (op == "add" || op == "or") identity = va.type == T::kPred ? "false" : "0";
  else if (op == "multiply" || op == "and") identity = va.type == T::kPred ? "true" : "1";
  else if (op == "maximum") identity = IsFloat(va.type) ? "-inf" : "-2147483648";
  else identity = IsFloat(va.type) ? "inf" : "2147483647";
  Dims slice = va.dims;
  slice.erase(slice.begin() + d);
  const std::string ts = TName(va.type);
  const std::string ss = ShapeStr(va.type, slice, DefaultLayout(slice.size()));
  const std::string helper = Name("scan_step");
  const bool swapped = rng_.Chance(50);
  helpers_.push_back(helper + " {\n  x = " + ss + " parameter(0)\n  c = " + ss + " parameter(1)\n  s = " + ss + " " +
                     op + (swapped ? "(c, x)" : "(x, c)") + "\n  ROOT t = (" + ss + ", " + ss + ") tuple(s, s)\n}\n");
  const std::string k = Const(b, va.type, identity);
  const int init = Emit(b, va.type, slice, DefaultLayout(slice.size()), "broadcast", "broadcast(" + k + "), dimensions={}");
  const std::string ui = Use(b, init), ua = Use(b, a);
  const std::string name = Name("scan");
  b.lines.push_back("  " + name + " = (" + va.Shape() + ", " + ss + ") scan(" + ua + ", " + ui + "), dimensions={" +
                    std::to_string(d) + "}, num_carries=1" + (rng_.Chance(30) ? ", is_reverse=true" : "") +
                    ", is_associative=true, to_apply=" + helper);
  const bool summed = IsFloat(va.type) && op == "add";
  int o = Emit(b, va.type, va.dims, va.layout, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
  b.vals[static_cast<size_t>(o)].summed |= summed;
  if (rng_.Chance(30)) {
    int c = Emit(b, va.type, slice, DefaultLayout(slice.size()), "get-tuple-element",
                 "get-tuple-element(" + name + "), index=1");
    b.vals[static_cast<size_t>(c)].summed |= summed;
  }
  return true;
}

// An f32 add reduction of this many terms sums an operand made exact to sum:
// past 256 terms; with the larger caps (`--max-dim` above 65), past 16, as
// iotas and products then reach magnitudes of 255 and more, whose rounding a
// sum of 34 terms already moved past the tolerance (seed 40269876).
bool Gen::LongF32Sum(int64_t terms) const { return terms > (o_.max_dim > 65 ? 16 : 256); }

int Gen::ExactToSum(Body& b, int a, const Val& va) {
  auto splat = [&](const std::string& v) {
    const std::string c = Const(b, T::kF32, v);
    return Emit(b, T::kF32, va.dims, va.layout, "broadcast", "broadcast(" + c + "), dimensions={}");
  };
  const int lo = splat("-4"), hi = splat("4"), eight = splat("8"), eighth = splat("0.125");
  const std::string clamp = "clamp(" + Use(b, lo) + ", " + Use(b, a) + ", " + Use(b, hi) + ")";
  const int c = Emit(b, T::kF32, va.dims, va.layout, "clamp", clamp);
  const std::string scaled = "multiply(" + Use(b, c) + ", " + Use(b, eight) + ")";
  const int m = Emit(b, T::kF32, va.dims, va.layout, "multiply", scaled);
  const int f = Emit(b, T::kF32, va.dims, va.layout, "floor", "floor(" + Use(b, m) + ")");
  const std::string back = "multiply(" + Use(b, f) + ", " + Use(b, eighth) + ")";
  return Emit(b, T::kF32, va.dims, va.layout, "multiply", back);
}

bool Gen::Reduce(Body& b) {
  int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  size_t r = va.dims.size();
  Dims rd;
  int64_t kind = rng_.Range(0, 3);
  if (kind == 0) rd = {static_cast<int64_t>(r - 1)};  // row
  else if (kind == 1) rd = {0};                       // column
  else if (kind == 2) for (size_t i = 0; i < r; ++i) rd.push_back(static_cast<int64_t>(i));  // full
  else
    for (size_t i = 0; i < r; ++i)
      if (rng_.Chance(50) || (rd.empty() && i + 1 == r)) rd.push_back(static_cast<int64_t>(i));
  Dims out;
  for (size_t i = 0; i < r; ++i)
    if (std::find(rd.begin(), rd.end(), static_cast<int64_t>(i)) == rd.end()) out.push_back(va.dims[i]);
  Dims ol = PickLayout(b, out.size());
  auto init_for = [&](const std::string& op, T t) -> std::string {
    if (op == "add" || op == "or") return t == T::kPred ? "false" : "0";
    if (op == "multiply" || op == "and") return t == T::kPred ? "true" : "1";
    if (op == "maximum") return IsFloat(t) ? "-inf" : "-2147483648";
    return IsFloat(t) ? "inf" : "2147483647";
  };
  auto pick_op = [&](T t) -> std::string {
    if (t == T::kPred) return rng_.Chance(50) ? "and" : "or";
    static const char* kOps[] = {"add", "add", "maximum", "minimum", "multiply"};
    return kOps[rng_.Range(0, 4)];
  };
  if (va.type != T::kPred && rng_.Chance(25)) {
    // Variadic: an argmax with its index (ties to the smaller index), or two
    // independent reductions side by side.
    bool argmax = rng_.Chance(50);
    T t2 = argmax ? T::kS32 : PickType();
    if (t2 == T::kPred) t2 = T::kF32;
    int c = argmax ? Emit(b, T::kS32, va.dims, va.layout, "iota", "iota(), iota_dimension=" + std::to_string(rd[0]))
                   : GetOrMake(b, t2, va.dims);
    std::string s1 = std::string(TName(va.type)) + "[]", s2 = std::string(TName(t2)) + "[]";
    std::string n = Name(argmax ? "argmax" : "pair");
    std::string text = n + " {\n  a0 = " + s1 + " parameter(0)\n  a1 = " + s2 + " parameter(1)\n  b0 = " + s1 +
                       " parameter(2)\n  b1 = " + s2 + " parameter(3)\n";
    std::string i1, i2;
    if (argmax) {
      // A total order (NaN above everything, as JAX's argmax): without it a
      // NaN makes the result depend on the order of combining.
      text += "  gt = pred[] compare(a0, b0), direction=GT\n  eq = pred[] compare(a0, b0), direction=EQ\n"
              "  an = pred[] compare(a0, a0), direction=NE\n  bn = pred[] compare(b0, b0), direction=NE\n"
              "  nb = pred[] not(bn)\n  anan = pred[] and(an, nb)\n  both = pred[] and(an, bn)\n"
              "  same = pred[] or(eq, both)\n  lt = pred[] compare(a1, b1), direction=LT\n"
              "  tie = pred[] and(same, lt)\n  big = pred[] or(gt, anan)\n"
              "  keep = pred[] or(big, tie)\n  v = " + s1 + " select(keep, a0, b0)\n  i = " + s2 +
              " select(keep, a1, b1)\n";
      i1 = IsFloat(va.type) ? "-inf" : "-2147483648";
      i2 = "0";
    } else {
      const int64_t count = Elements(va.dims) / std::max<int64_t>(1, Elements(out));
      std::string op1 = pick_op(va.type), op2 = pick_op(t2);
      if (IsLowPrecision(va.type, op1, count) || (IsFloat(va.type) && op1 == "multiply" && count > 4))
        op1 = "maximum";
      if (IsLowPrecision(t2, op2, count) || (IsFloat(t2) && op2 == "multiply" && count > 4)) op2 = "minimum";
      // A long f32 sum, as below for one reduction (diffuzz --max-dim 256,
      // seed 40271192: 65,536 times 0.001, 65.512 in order against 65.536).
      if (va.type == T::kF32 && op1 == "add" && LongF32Sum(count)) {
        if (va.summed)
          op1 = "maximum";
        else
          a = ExactToSum(b, a, va);
      }
      if (t2 == T::kF32 && op2 == "add" && LongF32Sum(count)) {
        const Val vc = b.vals[static_cast<size_t>(c)];
        if (vc.summed)
          op2 = "minimum";
        else
          c = ExactToSum(b, c, vc);
      }
      text += "  v = " + s1 + " " + op1 + "(a0, b0)\n  i = " + s2 + " " + op2 + "(a1, b1)\n";
      i1 = init_for(op1, va.type);
      i2 = init_for(op2, t2);
    }
    text += "  ROOT r = (" + s1 + ", " + s2 + ") tuple(v, i)\n}\n";
    helpers_.push_back(text);
    std::string c1 = Const(b, va.type, i1), c2 = Const(b, t2, i2);
    std::string tn = Name("reduce");
    std::string ua = Use(b, a), uc = Use(b, c);
    b.lines.push_back("  " + tn + " = (" + ShapeStr(va.type, out, ol) + ", " + ShapeStr(t2, out, ol) + ") reduce(" +
                      ua + ", " + uc + ", " + c1 + ", " + c2 + "), dimensions={" + Join(rd) + "}, to_apply=" + n);
    Emit(b, va.type, out, ol, "get-tuple-element", "get-tuple-element(" + tn + "), index=0");
    Emit(b, t2, out, ol, "get-tuple-element", "get-tuple-element(" + tn + "), index=1");
    return true;
  }
  std::string op = pick_op(va.type);
  // A float product of many terms may overflow in one order and not in
  // another (0 * inf): keep products short.
  if (IsFloat(va.type) && op == "multiply" && Elements(va.dims) > 4 * std::max<int64_t>(1, Elements(out))) op = "add";
  if (IsLowPrecision(va.type, op, Elements(va.dims) / std::max<int64_t>(1, Elements(out)))) {
    // A long bf16/f16 sum rounds after every step, so its value depends on
    // the order the kernel combines in: sum in f32 as JAX does, and round once.
    Dims l = va.layout;
    int wide = Emit(b, T::kF32, va.dims, l, "convert", "convert(" + Use(b, a) + ")");
    std::string init = Const(b, T::kF32, init_for(op, T::kF32));
    int r = Emit(b, T::kF32, out, ol, "reduce",
                 "reduce(" + Use(b, wide) + ", " + init + "), dimensions={" + Join(rd) + "}, to_apply=" +
                     ScalarComputation(op, T::kF32));
    Emit(b, va.type, out, PickLayout(b, out.size()), "convert", "convert(" + Use(b, r) + ")");
    return true;
  }
  // A long f32 sum whose result cancels to a small value keeps the rounding
  // of its partial sums, which the kernel's order moves by more than the
  // result's tolerance (diffuzz seed 566581579: 2,040 terms of up to 6.5, a
  // result of 0.94, 1.5e-4 apart). Past 256 terms its operand is made exact
  // to sum, as a scan's is; a computed sum takes the maximum instead.
  if (va.type == T::kF32 && op == "add" &&
      LongF32Sum(Elements(va.dims) / std::max<int64_t>(1, Elements(out)))) {
    if (va.summed) op = "maximum";
    else a = ExactToSum(b, a, va);
  }
  std::string init = Const(b, va.type, init_for(op, va.type));
  Emit(b, va.type, out, ol, "reduce",
       "reduce(" + Use(b, a) + ", " + init + "), dimensions={" + Join(rd) + "}, to_apply=" +
           ScalarComputation(op, va.type));
  return true;
}

bool Gen::Gather(Body& b) {
  if (!b.entry) return false;
  int a = Pick(b, [](const Val& v) { return v.dims.size() == 2; });
  if (a < 0) {
    Dims d = {std::max<int64_t>(1, PickDim()), PickDim()};  // before the type, as gcc ordered it
    a = GetOrMake(b, PickType(), d);
  }
  Val va = b.vals[static_cast<size_t>(a)];
  if (va.dims[0] == 0) return false;
  int64_t k = PickDim(), s = rng_.Chance(60) ? va.dims[1] : rng_.Range(0, va.dims[1]);
  Dims d = {k, s};
  if (Elements(d) > o_.max_elements) return false;
  int idx = NewParam(b, T::kS32, {k, 1}, DefaultLayout(2));
  std::string rhs = "gather(" + Use(b, a) + ", " + Use(b, idx) +
                    "), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
                    "slice_sizes={1," + std::to_string(s) + "}";
  Emit(b, va.type, d, PickLayout(b, 2), "gather", rhs);
  return true;
}

bool Gen::Scatter(Body& b) {
  if (!b.entry) return false;
  int a = Pick(b, [](const Val& v) { return v.dims.size() == 2 && v.type != T::kPred; });
  if (a < 0) {
    Dims d = {std::max<int64_t>(1, PickDim()), PickDim()};
    a = GetOrMake(b, PickFloat(), d);
  }
  Val va = b.vals[static_cast<size_t>(a)];
  if (va.dims[0] == 0) return false;
  int64_t k = PickDim();
  if (k * va.dims[1] > o_.max_elements) return false;
  int idx = NewParam(b, T::kS32, {k, 1}, DefaultLayout(2));
  int upd = GetOrMake(b, va.type, {k, va.dims[1]});
  // Repeated indices combine in any order: a bf16/f16 sum of them rounds
  // differently in each, so those take the maximum.
  bool low = va.type == T::kBF16 || va.type == T::kF16;
  std::string comp = ScalarComputation(rng_.Chance(70) && !low ? "add" : "maximum", va.type);
  std::string ua = Use(b, a), ui = Use(b, idx), uu = Use(b, upd);
  std::string rhs = "scatter(" + ua + ", " + ui + ", " + uu + "), update_window_dims={1}, inserted_window_dims={0}, "
                    "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=" + comp;
  Emit(b, va.type, va.dims, PickLayout(b, 2), "scatter", rhs);
  return true;
}

std::string Gen::ChainComputation(const std::string& name, const std::vector<std::string>& param_shapes,
                                  const std::vector<std::string>& prologue, const Val& x,
                                  const std::string& root_prefix, const std::string& root_suffix) {
  Body body;
  body.fixed = true;
  body.lines = prologue;
  Val vx = x;
  vx.name = "x";
  body.vals.push_back(vx);
  int64_t steps = rng_.Range(1, 4);
  for (int64_t i = 0; i < steps; ++i) {
    int64_t r = rng_.Range(0, 9);
    if (r < 5) Binary(body);
    else if (r < 8) Unary(body);
    else CompareSelect(body);
  }
  // The last value of x's shape is the result.
  std::string last = "x";
  for (const Val& v : body.vals)
    if (v.type == x.type && v.dims == x.dims) last = v.name;
  std::string text = name + " {\n";
  for (size_t i = 0; i < param_shapes.size(); ++i)
    text += "  " + std::string(i == 0 ? "p" : "q" + std::to_string(i)) + " = " + param_shapes[i] + " parameter(" +
            std::to_string(i) + ")\n";
  for (const std::string& l : body.lines) text += l + "\n";
  text += "  ROOT root = " + root_prefix + last + root_suffix + "\n}\n";
  return text;
}

bool Gen::While(Body& b) {
  if (!b.entry || !o_.control_flow) return false;
  int a = Pick(b, [](const Val& v) { return v.type != T::kPred; });
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  std::string xs = va.Shape(), st = "(s32[], " + xs + ")";
  std::string cond = Name("cond"), body = Name("body");
  int64_t trips = rng_.Range(0, 4);
  helpers_.push_back(cond + " {\n  p = " + st + " parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
                     "  n = s32[] constant(" + std::to_string(trips) + ")\n"
                     "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n");
  std::vector<std::string> pro = {"  i = s32[] get-tuple-element(p), index=0", "  one = s32[] constant(1)",
                                  "  i2 = s32[] add(i, one)", "  x = " + xs + " get-tuple-element(p), index=1"};
  helpers_.push_back(ChainComputation(body, {st}, pro, va, st + " tuple(i2, ", ")"));
  std::string zero = Const(b, T::kS32, "0");
  std::string init = Name("tuple"), w = Name("while");
  b.lines.push_back("  " + init + " = " + st + " tuple(" + zero + ", " + Use(b, a) + ")");
  b.lines.push_back("  " + w + " = " + st + " while(" + init + "), condition=" + cond + ", body=" + body);
  Emit(b, va.type, va.dims, va.layout, "get-tuple-element", "get-tuple-element(" + w + "), index=1");
  return true;
}

bool Gen::Conditional(Body& b) {
  if (!b.entry || !o_.control_flow) return false;
  int a = PickArray(b);
  if (a < 0) return false;
  Val va = b.vals[static_cast<size_t>(a)];
  std::string xs = va.Shape();
  bool indexed = rng_.Chance(50);
  int64_t branches = indexed ? rng_.Range(1, 3) : 2;
  std::vector<std::string> names;
  for (int64_t i = 0; i < branches; ++i) {
    names.push_back(Name("branch"));
    helpers_.push_back(ChainComputation(names.back(), {xs}, {"  x = " + xs + " copy(p)"}, va, xs + " copy(", ")"));
  }
  std::string sel;
  if (b.params.size() < 8 && rng_.Chance(70)) {
    sel = Use(b, NewParam(b, indexed ? T::kS32 : T::kPred, {}, {}));
  } else {
    sel = Const(b, indexed ? T::kS32 : T::kPred, indexed ? std::to_string(rng_.Range(-1, 3)) : ScalarConst(T::kPred));
  }
  std::string ua = Use(b, a);
  std::string rhs = "conditional(" + sel;
  for (int64_t i = 0; i < branches; ++i) rhs += ", " + ua;
  if (indexed) {
    rhs += "), branch_computations={";
    for (int64_t i = 0; i < branches; ++i) rhs += (i ? ", " : "") + names[static_cast<size_t>(i)];
    rhs += "}";
  } else {
    rhs += "), true_computation=" + names[0] + ", false_computation=" + names[1];
  }
  Emit(b, va.type, va.dims, va.layout, "conditional", rhs);
  return true;
}

}  // namespace hloscope::fuzz::internal
