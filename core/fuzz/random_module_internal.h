// Internal: the random module generator's vocabulary (element types, dims,
// the values and computations being built) and its Gen class, shared by
// random_module.cc (shape, type, layout and operand choices; the module's
// assembly) and random_module_ops.cc (one builder per op).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/fuzz/random_module.h"

namespace hloscope::fuzz::internal {

enum class T { kF32, kBF16, kF16, kS32, kPred };
using Dims = std::vector<int64_t>;

inline const char* TName(T t) {
  switch (t) {
    case T::kF32: return "f32";
    case T::kBF16: return "bf16";
    case T::kF16: return "f16";
    case T::kS32: return "s32";
    case T::kPred: return "pred";
  }
  return "f32";
}
inline bool IsFloat(T t) { return t == T::kF32 || t == T::kBF16 || t == T::kF16; }

inline std::string Join(const Dims& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s;
}
inline Dims DefaultLayout(size_t rank) {
  Dims l(rank);
  for (size_t i = 0; i < rank; ++i) l[i] = static_cast<int64_t>(rank - 1 - i);
  return l;
}
inline std::string ShapeStr(T t, const Dims& d, const Dims& layout) {
  std::string s = std::string(TName(t)) + "[" + Join(d) + "]";
  if (!d.empty()) s += "{" + Join(layout) + "}";
  return s;
}
inline int64_t Elements(const Dims& d) {
  int64_t n = 1;
  for (int64_t x : d) n *= x;
  return n;
}

struct Val {
  std::string name;
  T type;
  Dims dims;
  Dims layout;  // minor_to_major
  int uses = 0;
  bool param = false;
  // A float value computed from a sum (reduce, dot, convolution), where a
  // kernel's summation order moves the last bits: a few ulps of a large
  // value. Ops that turn that absolute error into a large relative one
  // (sine, floor...) are not applied to it (Unary).
  bool summed = false;
  std::string Shape() const { return ShapeStr(type, dims, layout); }
};

// One computation being built.
struct Body {
  std::vector<std::string> params;  // parameter lines, by number
  std::vector<std::string> lines;
  std::vector<Val> vals;
  bool entry = false;
  // Inside loop bodies and branches: every value keeps this layout and
  // only same-shape elementwise ops are built.
  bool fixed = false;
  // Some operand Use()d since the last Emit was `summed`.
  bool pending_summed = false;
};

class Gen {
 public:
  Gen(uint64_t seed, const GenOptions& o) : rng_(seed), o_(o) {}
  std::string Run(uint64_t seed);

 private:
  Rng rng_;
  GenOptions o_;
  std::vector<std::string> helpers_;           // computations, callees first
  std::map<std::string, std::string> scalar_;  // reducer key -> computation name
  int counter_ = 0;
  // The module's devices, picked by its first collective (0: not yet): most
  // modules run on one, some on 2, 4 or 8 (num_partitions × replica_count).
  int64_t partitions_ = 0, replicas_ = 0;
  int64_t devices() const { return partitions_ * replicas_; }

  std::string Name(const std::string& op) { return op + "." + std::to_string(counter_++); }

  // --- choices and values (random_module.cc) -------------------------------
  int64_t PickDim();
  Dims PickDims(int max_rank = 3);
  // Shrinks the largest dimensions until the array fits max_elements.
  void Fit(Dims& d);
  T PickType();
  T PickFloat();
  Dims PickLayout(const Body& b, size_t rank, const Dims* fixed_layout = nullptr);
  std::string ScalarConst(T t);

  int Emit(Body& b, T t, Dims d, Dims layout, const std::string& op, const std::string& rhs);
  // A name used as an operand (counted as a use).
  const std::string& Use(Body& b, int i);
  std::string Const(Body& b, T t, const std::string& value);
  int NewParam(Body& b, T t, const Dims& d, const Dims& layout);

  // A value matching `ok`: usually one of the last few, sometimes any.
  int Pick(const Body& b, const std::function<bool(const Val&)>& ok);
  int PickArray(const Body& b);
  // A value of type t and dims d: an existing one, a new parameter, a
  // broadcast constant or an iota.
  int GetOrMake(Body& b, T t, const Dims& d, const Dims* layout = nullptr);

  // --- ops (random_module_ops.cc, random_module_linalg.cc); each returns false when it found nothing
  // to build on ---------------------------------------------------------------
  bool Binary(Body& b);
  bool Unary(Body& b);
  bool CompareSelect(Body& b);
  bool Convert(Body& b);
  bool Broadcast(Body& b);
  bool Transpose(Body& b);
  bool Reshape(Body& b);
  bool Bitcast(Body& b);
  bool Slice(Body& b);
  bool Concatenate(Body& b);
  bool Pad(Body& b);
  bool Reverse(Body& b);
  bool DynamicSlice(Body& b, bool update);
  bool Reduce(Body& b);
  bool Gather(Body& b);
  bool Scatter(Body& b);
  bool Dot(Body& b);
  bool RaggedDot(Body& b);
  bool ScaledDot(Body& b);
  bool BatchNorm(Body& b);
  bool Linalg(Body& b);  // random_module_linalg.cc
  bool CondensedForm(Body& b);
  bool Scan(Body& b);
  // An f32 value `a` (of va's shape) made exact to sum in any order: clamped
  // to [-4, 4] and rounded down to eighths (2,048 of them add up in 17 bits).
  int ExactToSum(Body& b, int a, const Val& va);
  bool LongF32Sum(int64_t terms) const;
  bool Convolution(Body& b);
  bool While(Body& b);
  bool Conditional(Body& b);
  bool Collective(Body& b);
  bool OneDeviceCollective(Body& b);
  bool MultiDeviceCollective(Body& b);
  std::string Starts(Body& b, const Dims& operand, const Dims& sizes);
  std::string ScalarComputation(const std::string& op, T t);
  // A computation `name(param shapes) -> x's shape` running a short
  // elementwise chain on x (loop bodies and branches).
  std::string ChainComputation(const std::string& name, const std::vector<std::string>& param_shapes,
                               const std::vector<std::string>& prologue, const Val& x,
                               const std::string& root_prefix, const std::string& root_suffix);
};

}  // namespace hloscope::fuzz::internal
