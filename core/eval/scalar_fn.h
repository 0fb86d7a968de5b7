// Scalar computations applied per element (reducers, scatter combiners,
// sort comparators, select functions): recognized simple forms run as typed
// loops; anything else is evaluated through the interpreter, one call per
// application, with argument literals reused between calls.
#pragma once

#include <cmath>
#include <cstring>
#include <vector>

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"

namespace hloscope::eval {

// A binary combiner f(acc, x) whose root is one op on its two parameters.
enum class Combiner { kGeneral, kAdd, kMul, kMax, kMin, kAnd, kOr, kXor, kTakeLhs, kTakeRhs };

struct BinaryForm {
  Combiner kind = Combiner::kGeneral;
  bool swapped = false;  // root is op(param1, param0)
};

// Classifies a two-parameter scalar computation of element type `t`.
BinaryForm ClassifyBinary(const Computation& c, PrimitiveType t);

// A comparator `compare(param(i), param(j))`: which operand it keys on,
// the direction and whether it uses TOTALORDER.
struct CompareForm {
  bool simple = false;
  int operand = 0;       // key operand k (params 2k and 2k+1)
  bool less = true;      // true: lhs < rhs sorts first (LT); false: GT
  bool total = false;
};
CompareForm ClassifyComparator(const Computation& c, int num_operands);

template <class Tr>
inline typename Tr::S Combine(Combiner k, bool swapped, typename Tr::S sa, typename Tr::S sb) {
  using C = typename Tr::C;
  if (swapped) std::swap(sa, sb);
  C a = Tr::Load(sa), b = Tr::Load(sb);
  if constexpr (std::is_floating_point_v<C>) {
    switch (k) {
      case Combiner::kAdd: return Tr::Store(a + b);
      case Combiner::kMul: return Tr::Store(a * b);
      case Combiner::kMax: return std::isnan(a) ? sa : std::isnan(b) ? sb : Tr::Store(std::max(a, b));
      case Combiner::kMin: return std::isnan(a) ? sa : std::isnan(b) ? sb : Tr::Store(std::min(a, b));
      case Combiner::kTakeLhs: return sa;
      default: return sb;
    }
  } else if constexpr (std::is_same_v<C, bool>) {
    switch (k) {
      case Combiner::kAdd:
      case Combiner::kMax:
      case Combiner::kOr: return Tr::Store(a || b);
      case Combiner::kMul:
      case Combiner::kMin:
      case Combiner::kAnd: return Tr::Store(a && b);
      case Combiner::kXor: return Tr::Store(a != b);
      case Combiner::kTakeLhs: return sa;
      default: return sb;
    }
  } else {
    using W = std::make_unsigned_t<decltype(C{} + C{})>;
    switch (k) {
      case Combiner::kAdd: return static_cast<C>(W(a) + W(b));
      case Combiner::kMul: return static_cast<C>(W(a) * W(b));
      case Combiner::kMax: return std::max(a, b);
      case Combiner::kMin: return std::min(a, b);
      case Combiner::kAnd: return static_cast<C>(a & b);
      case Combiner::kOr: return static_cast<C>(a | b);
      case Combiner::kXor: return static_cast<C>(a ^ b);
      case Combiner::kTakeLhs: return sa;
      default: return sb;
    }
  }
}

// Whether a typed combine exists for `t` and the form (sub-byte ints wrap
// differently, f8 has no typed path).
bool FastCombineType(PrimitiveType t);

// Scalar literal holding element i of an array literal.
Literal ScalarAt(const Literal& l, int64_t i);
inline void CopyElement(const Literal& from, int64_t i, Literal& to, int64_t j) {
  int eb = from.element_bytes();
  std::memcpy(to.raw() + j * eb, from.raw() + i * eb, eb);
}

// Runs a scalar computation on N argument slots; set each slot's element,
// then Call(). Results are scalar literals (tuples decomposed).
class ScalarCall {
 public:
  ScalarCall(Interp& in, const Computation& c, const std::vector<PrimitiveType>& arg_types);
  Literal& arg(int i) { return args_[i]; }
  // Evaluates; the results (one per tuple element) are in results().
  Status Call();
  const std::vector<Literal>& results() const { return results_; }

 private:
  Interp& in_;
  const Computation& c_;
  std::vector<Literal> args_;
  std::vector<const Literal*> ptrs_;
  std::vector<Literal> results_;
};

}  // namespace hloscope::eval
