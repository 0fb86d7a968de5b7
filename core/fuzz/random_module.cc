// The random module generator (random_module.h). It writes HLO text
// directly: every instruction is chosen from operands already built (recent
// ones more often, so chains form; older ones too, so diamonds form) or from
// operands made for it (a parameter, a broadcast constant, an iota), and its
// shape is computed by the op's rule, so the module is well typed by
// construction; the driver checks that the verifier agrees.
//
// This file holds the generator's choices (dimensions, shapes, element
// types, layouts, constants), the values it builds on (operands picked
// among those built or made for the op, parameters, emitted lines) and the
// assembly of the entry computation, its outputs, donations and the module
// text. The op builders are in random_module_ops.cc; the Gen class they
// share is in random_module_internal.h.
#include "core/fuzz/random_module.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "core/fuzz/random_module_internal.h"

namespace hloscope::fuzz {
namespace internal {

int64_t Gen::PickDim() {
  static const int64_t kDims[] = {1, 1, 1, 1, 0, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 32, 33, 40, 64, 65};
  // Only with a cap above the list's (`--max-dim`, `--max-elements`): sizes
  // that reach the large GEMM tiles, past and on their edges. The default
  // cap draws nothing more, so a seed keeps its module.
  static const int64_t kLarge[] = {96, 127, 128, 129, 160, 255, 256};
  if (o_.max_dim > 65 && rng_.Chance(25))
    return std::min<int64_t>(kLarge[rng_.Range(0, std::size(kLarge) - 1)], o_.max_dim);
  int64_t d = kDims[rng_.Range(0, std::size(kDims) - 1)];
  if (d == 0 && !rng_.Chance(40)) d = 1;  // empty arrays, but not too often
  return std::min<int64_t>(d, o_.max_dim);
}

Dims Gen::PickDims(int max_rank) {
  int64_t r = rng_.Range(0, 99);
  size_t rank = r < 5 ? 0 : r < 35 ? 1 : r < 80 ? 2 : 3;
  rank = std::min<size_t>(rank, static_cast<size_t>(max_rank));
  Dims d(rank);
  for (auto& x : d) x = PickDim();
  Fit(d);
  return d;
}

void Gen::Fit(Dims& d) {
  while (Elements(d) > o_.max_elements) {
    auto it = std::max_element(d.begin(), d.end());
    *it = std::max<int64_t>(1, *it / 2);
  }
}

T Gen::PickType() {
  int64_t r = rng_.Range(0, 99);
  return r < 50 ? T::kF32 : r < 62 ? T::kBF16 : r < 74 ? T::kF16 : r < 90 ? T::kS32 : T::kPred;
}

T Gen::PickFloat() {
  int64_t r = rng_.Range(0, 9);
  return r < 6 ? T::kF32 : r < 8 ? T::kBF16 : T::kF16;
}

Dims Gen::PickLayout(const Body& b, size_t rank, const Dims* fixed_layout) {
  if (b.fixed && fixed_layout) return *fixed_layout;
  Dims l = DefaultLayout(rank);
  if (rank >= 2 && rng_.Chance(30))
    for (size_t i = rank - 1; i > 0; --i) std::swap(l[i], l[static_cast<size_t>(rng_.Range(0, i))]);
  return l;
}

std::string Gen::ScalarConst(T t) {
  static const char* kF[] = {"0", "1", "-1", "0.5", "2", "-3.25", "0.001", "-0.75"};
  static const char* kI[] = {"0", "1", "-1", "2", "3", "7", "-5"};
  if (t == T::kPred) return rng_.Chance(50) ? "true" : "false";
  if (t == T::kS32) return kI[rng_.Range(0, std::size(kI) - 1)];
  return kF[rng_.Range(0, std::size(kF) - 1)];
}

int Gen::Emit(Body& b, T t, Dims d, Dims layout, const std::string& op, const std::string& rhs) {
  Val v{Name(op), t, std::move(d), std::move(layout)};
  v.summed = IsFloat(t) && (b.pending_summed || op == "reduce" || op == "dot" || op == "ragged-dot" ||
                             op == "scaled-dot" || op == "convolution" ||
             (op == "get-tuple-element" &&
              (rhs.find("reduce") != std::string::npos || rhs.find("batch-norm") != std::string::npos)));
  b.pending_summed = false;
  b.lines.push_back("  " + v.name + " = " + v.Shape() + " " + rhs);
  b.vals.push_back(std::move(v));
  return static_cast<int>(b.vals.size()) - 1;
}

const std::string& Gen::Use(Body& b, int i) {
  Val& v = b.vals[static_cast<size_t>(i)];
  ++v.uses;
  b.pending_summed |= v.summed;
  return v.name;
}

std::string Gen::Const(Body& b, T t, const std::string& value) {
  std::string n = Name("constant");
  b.lines.push_back("  " + n + " = " + TName(t) + "[] constant(" + value + ")");
  return n;
}

int Gen::NewParam(Body& b, T t, const Dims& d, const Dims& layout) {
  Val v{Name("p"), t, d, layout};
  v.param = true;
  b.params.push_back("  " + v.name + " = " + v.Shape() + " parameter(" + std::to_string(b.params.size()) + ")");
  b.vals.push_back(std::move(v));
  return static_cast<int>(b.vals.size()) - 1;
}

int Gen::Pick(const Body& b, const std::function<bool(const Val&)>& ok) {
  std::vector<int> c;
  for (size_t i = 0; i < b.vals.size(); ++i)
    if (ok(b.vals[i])) c.push_back(static_cast<int>(i));
  if (c.empty()) return -1;
  if (c.size() > 4 && rng_.Chance(65)) return c[c.size() - 1 - static_cast<size_t>(rng_.Range(0, 3))];
  return c[static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(c.size()) - 1))];
}

int Gen::PickArray(const Body& b) {
  return Pick(b, [](const Val&) { return true; });
}

int Gen::GetOrMake(Body& b, T t, const Dims& d, const Dims* layout) {
  if (rng_.Chance(60)) {
    int i = Pick(b, [&](const Val& v) { return v.type == t && v.dims == d && (!b.fixed || v.layout == *layout); });
    if (i >= 0) return i;
  }
  Dims l = layout ? *layout : PickLayout(b, d.size());
  if (b.entry && b.params.size() < 8 && rng_.Chance(45)) return NewParam(b, t, d, l);
  if (!d.empty() && t != T::kPred && rng_.Chance(25)) {
    int64_t dim = rng_.Range(0, static_cast<int64_t>(d.size()) - 1);
    return Emit(b, t, d, l, "iota", "iota(), iota_dimension=" + std::to_string(dim));
  }
  std::string c = Const(b, t, ScalarConst(t));
  if (d.empty()) {
    // A scalar: give the constant a value entry of its own.
    Val v{c, t, {}, {}};
    b.vals.push_back(v);
    return static_cast<int>(b.vals.size()) - 1;
  }
  return Emit(b, t, d, l, "broadcast", "broadcast(" + c + "), dimensions={}");
}

std::string Gen::Run(uint64_t seed) {
  Body e;
  e.entry = true;
  int64_t first = rng_.Range(1, 2);
  for (int64_t i = 0; i < first; ++i) {
    Dims d = PickDims();
    // One random draw per statement: the order of a call's arguments is
    // unspecified, and gcc and clang differ (a seed would give another module
    // in the sanitizer build). This order is the one gcc used.
    Dims l = PickLayout(e, d.size());
    NewParam(e, PickType(), d, l);
  }
  const int64_t target = rng_.Range(2, std::max(2, o_.max_ops));
  for (int attempts = 0; static_cast<int64_t>(e.lines.size()) < target && attempts < 4 * o_.max_ops; ++attempts) {
    int64_t r = rng_.Range(0, 99);
    if (r < 18) Binary(e);
    else if (r < 26) Unary(e);
    else if (r < 31) CompareSelect(e);
    else if (r < 35) Convert(e);
    else if (r < 41) Broadcast(e);
    else if (r < 45) Transpose(e);
    else if (r < 49) Reshape(e);
    else if (r < 52) Bitcast(e);
    else if (r < 56) Slice(e);
    else if (r < 59) Concatenate(e);
    else if (r < 62) Pad(e);
    else if (r < 64) Reverse(e);
    else if (r < 67) DynamicSlice(e, false);
    else if (r < 70) DynamicSlice(e, true);
    else if (r < 78) Reduce(e);
    else if (r < 79) Scan(e);
    else if (r < 82) Gather(e);
    else if (r < 85) Scatter(e);
    else if (r < 88) Dot(e);
    else if (r < 89) RaggedDot(e);
    else if (r < 90) ScaledDot(e);
    else if (r < 91) Convolution(e);
    else if (r < 92) BatchNorm(e);
    else if (r < 93) Linalg(e);
    else if (r < 95) While(e);
    else if (r < 98) Conditional(e);
    else Collective(e);
  }
  // The outputs: the last value and some other unread ones (a parameter now
  // and then); several make a tuple root.
  std::vector<int> outs;
  for (size_t i = e.vals.size(); i-- > 0;) {
    const Val& v = e.vals[i];
    if (v.param || v.uses > 0) continue;
    if (outs.empty() || (outs.size() < 3 && rng_.Chance(40))) outs.push_back(static_cast<int>(i));
  }
  if (outs.empty()) outs.push_back(static_cast<int>(e.vals.size()) - 1);
  if (rng_.Chance(8)) outs.push_back(Pick(e, [](const Val& v) { return v.param; }));
  if (outs.back() < 0) outs.pop_back();
  bool tuple = outs.size() > 1 || rng_.Chance(25);
  std::string root_line;
  if (tuple) {
    std::string shapes, names;
    for (size_t i = 0; i < outs.size(); ++i) {
      shapes += (i ? ", " : "") + e.vals[static_cast<size_t>(outs[i])].Shape();
      names += (i ? ", " : "") + e.vals[static_cast<size_t>(outs[i])].name;
    }
    root_line = "  ROOT " + Name("tuple") + " = (" + shapes + ") tuple(" + names + ")";
  } else {
    const Val& v = e.vals[static_cast<size_t>(outs[0])];
    root_line = "  ROOT " + Name("copy") + " = " + v.Shape() + " copy(" + v.name + ")";
    if (!v.param && !e.lines.empty() && e.lines.back().rfind("  " + v.name + " = ", 0) == 0) {
      root_line = "  ROOT" + e.lines.back().substr(1);
      e.lines.pop_back();
    }
  }
  // Donations: an output with a parameter's exact shape may take its buffer.
  std::string alias;
  std::vector<bool> donated(e.vals.size(), false);
  for (size_t i = 0; i < outs.size(); ++i) {
    const Val& o = e.vals[static_cast<size_t>(outs[i])];
    if (o.dims.empty() || !rng_.Chance(45)) continue;
    int p = Pick(e, [&](const Val& v) {
      return v.param && v.type == o.type && v.dims == o.dims && v.layout == o.layout && !donated[&v - &e.vals[0]];
    });
    if (p < 0) continue;
    donated[static_cast<size_t>(p)] = true;
    int number = 0;
    for (int j = 0; j < p; ++j) number += e.vals[static_cast<size_t>(j)].param;
    alias += std::string(alias.empty() ? "" : ", ") + "{" + (tuple ? std::to_string(i) : "") + "}: (" +
             std::to_string(number) + ", {}, " + (rng_.Chance(20) ? "must-alias" : "may-alias") + ")";
  }
  std::string text = "HloModule fuzz_" + std::to_string(seed);
  if (!alias.empty()) text += ", input_output_alias={ " + alias + " }";
  if (replicas_ > 1) text += ", replica_count=" + std::to_string(replicas_);
  if (partitions_ > 1) text += ", num_partitions=" + std::to_string(partitions_);
  text += "\n\n";
  for (const std::string& h : helpers_) text += h + "\n";
  text += "ENTRY main {\n";
  for (const std::string& l : e.params) text += l + "\n";
  for (const std::string& l : e.lines) text += l + "\n";
  text += root_line + "\n}\n";
  return text;
}

}  // namespace internal

std::string GenerateModuleText(uint64_t seed, const GenOptions& opts) {
  internal::Gen g(seed, opts);
  return g.Run(seed);
}

}  // namespace hloscope::fuzz
