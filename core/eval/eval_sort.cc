// sort: multi-operand, along one dimension, with the comparator
// computation; always stable (a valid result for is_stable=false too).
// `compare(param(2k), param(2k+1))` comparators run as typed key sorts.
#include <algorithm>
#include <numeric>

#include "core/eval/scalar_fn.h"
#include "core/ir/computation.h"

namespace hloscope::eval {
namespace {

// Sort keys that order like the comparator on one operand.
template <class K>
std::vector<K> Keys(const Literal& l, bool total) {
  PrimitiveType t = l.shape().element_type();
  int64_t n = l.num_elements();
  std::vector<K> k(n);
  if (IsFloat(t)) {
    if (total) {
      for (int64_t i = 0; i < n; ++i) {
        if (t == PrimitiveType::kF64) {
          int64_t b = l.Get<int64_t>(i);
          k[i] = static_cast<K>(b < 0 ? b ^ INT64_MAX : b);
        } else {
          float f = static_cast<float>(l.GetDouble(i));
          int32_t b;
          std::memcpy(&b, &f, 4);
          k[i] = static_cast<K>(b < 0 ? b ^ INT32_MAX : b);
        }
      }
    } else {
      for (int64_t i = 0; i < n; ++i) k[i] = static_cast<K>(l.GetDouble(i));
    }
  } else if (IsUnsignedInt(t) && BitWidth(t) == 64) {
    for (int64_t i = 0; i < n; ++i) k[i] = static_cast<K>(l.Get<uint64_t>(i));
  } else {
    for (int64_t i = 0; i < n; ++i) k[i] = static_cast<K>(l.GetInt(i));
  }
  return k;
}

template <class K>
void SortRows(const std::vector<K>& keys, bool less, int64_t outer, int64_t len, int64_t inner,
              std::vector<int64_t>& perm) {
  std::vector<int64_t> row(len);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * len * inner + i;
      std::iota(row.begin(), row.end(), 0);
      auto key = [&](int64_t r) { return keys[base + r * inner]; };
      if (less) std::stable_sort(row.begin(), row.end(), [&](int64_t a, int64_t b) { return key(a) < key(b); });
      else std::stable_sort(row.begin(), row.end(), [&](int64_t a, int64_t b) { return key(a) > key(b); });
      for (int64_t r = 0; r < len; ++r) perm[base + r * inner] = base + row[r] * inner;
    }
  }
}

}  // namespace

StatusOr<Literal> EvalSort(Interp& in, const Instruction& instr, Operands ops) {
  const Computation* cmp = instr.to_apply();
  if (!cmp || ops.empty() || instr.dimensions().size() != 1) return InstrError(instr, "sort needs operands, dimensions={d} and to_apply");
  const Shape& s0 = ops[0]->shape();
  int64_t dim = instr.dimensions()[0];
  if (dim < 0 || dim >= s0.rank()) return InstrError(instr, "sort dimension out of range");
  for (const Literal* o : ops)
    if (!o->shape().SameDims(s0)) return InstrError(instr, "sort operands must have the same dimensions");
  int64_t outer = 1, inner = 1, len = s0.dim(static_cast<int>(dim));
  for (int d = 0; d < dim; ++d) outer *= s0.dim(d);
  for (int d = static_cast<int>(dim) + 1; d < s0.rank(); ++d) inner *= s0.dim(d);
  int64_t total = ops[0]->num_elements();
  std::vector<int64_t> perm(total);  // result element -> source element
  int n = static_cast<int>(ops.size());
  CompareForm form = ClassifyComparator(*cmp, n);
  if (form.simple && form.operand < n && !IsComplex(ops[form.operand]->shape().element_type()) &&
      (IsFloat(ops[form.operand]->shape().element_type()) || IsInteger(ops[form.operand]->shape().element_type()) ||
       ops[form.operand]->shape().element_type() == PrimitiveType::kPred)) {
    const Literal& key_op = *ops[form.operand];
    PrimitiveType kt = key_op.shape().element_type();
    if (IsFloat(kt) && !form.total) SortRows(Keys<double>(key_op, false), form.less, outer, len, inner, perm);
    else if (IsUnsignedInt(kt)) SortRows(Keys<uint64_t>(key_op, false), form.less, outer, len, inner, perm);
    else SortRows(Keys<int64_t>(key_op, form.total), form.less, outer, len, inner, perm);
  } else {
    std::vector<PrimitiveType> types;
    for (const Literal* o : ops) {
      types.push_back(o->shape().element_type());
      types.push_back(o->shape().element_type());
    }
    ScalarCall call(in, *cmp, types);
    Status err;
    std::vector<int64_t> row(len);
    for (int64_t o = 0; o < outer && err.ok(); ++o) {
      for (int64_t i = 0; i < inner && err.ok(); ++i) {
        int64_t base = o * len * inner + i;
        std::iota(row.begin(), row.end(), 0);
        std::stable_sort(row.begin(), row.end(), [&](int64_t a, int64_t b) {
          if (!err.ok()) return false;
          for (int k = 0; k < n; ++k) {
            CopyElement(*ops[k], base + a * inner, call.arg(2 * k), 0);
            CopyElement(*ops[k], base + b * inner, call.arg(2 * k + 1), 0);
          }
          err = call.Call();
          if (!err.ok()) return false;
          if (call.results()[0].shape().element_type() != PrimitiveType::kPred) {
            err = Status::Error("comparator must return pred");
            return false;
          }
          return call.results()[0].raw()[0] != 0;
        });
        for (int64_t r = 0; r < len; ++r) perm[base + r * inner] = base + row[r] * inner;
      }
    }
    if (!err.ok()) return InstrError(instr, "comparator: " + err.message());
  }
  std::vector<Literal> outs;
  for (const Literal* o : ops) {
    Literal r(Shape(o->shape().element_type(), s0.dims()));
    for (int64_t i = 0; i < total; ++i) CopyElement(*o, perm[i], r, i);
    outs.push_back(std::move(r));
  }
  if (!instr.shape().IsTuple()) return std::move(outs[0]);
  return MakeTuple(std::move(outs));
}

}  // namespace hloscope::eval
