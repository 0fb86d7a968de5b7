// Small helpers shared by the op families: strides, strided copies,
// re-shaped copies, sub-byte wrapping and tuple building.
#include <cstring>

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"

namespace hloscope::eval {

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * dims[i + 1];
  return s;
}

namespace {
template <class T>
void StridedCopyT(const std::vector<int64_t>& dims, const T* src, int64_t s, const std::vector<int64_t>& ss,
                  T* dst, int64_t d, const std::vector<int64_t>& ds) {
  int rank = static_cast<int>(dims.size());
  for (int64_t x : dims)
    if (x <= 0) return;
  if (rank == 0) {
    dst[d] = src[s];
    return;
  }
  const int64_t inner = dims[rank - 1], si = ss[rank - 1], di = ds[rank - 1];
  std::vector<int64_t> idx(rank, 0);
  while (true) {
    if (si == 1 && di == 1) {
      std::memcpy(dst + d, src + s, static_cast<size_t>(inner) * sizeof(T));
    } else {
      const T* sp = src + s;
      T* dp = dst + d;
      for (int64_t j = 0; j < inner; ++j) dp[j * di] = sp[j * si];
    }
    int k = rank - 2;
    for (; k >= 0; --k) {
      s += ss[k];
      d += ds[k];
      if (++idx[k] < dims[k]) break;
      s -= ss[k] * dims[k];
      d -= ds[k] * dims[k];
      idx[k] = 0;
    }
    if (k < 0) return;
  }
}
}  // namespace

void StridedCopy(int elem_bytes, const std::vector<int64_t>& dims, const uint8_t* src, int64_t src_off,
                 const std::vector<int64_t>& src_strides, uint8_t* dst, int64_t dst_off,
                 const std::vector<int64_t>& dst_strides) {
  VisitBytes(elem_bytes, [&](auto tag) {
    using T = decltype(tag);
    StridedCopyT<T>(dims, reinterpret_cast<const T*>(src), src_off, src_strides, reinterpret_cast<T*>(dst),
                    dst_off, dst_strides);
  });
}

Literal WithShape(const Literal& src, const Shape& shape) {
  Literal out(shape);
  if (out.raw_size() == src.raw_size() && src.raw_size() > 0) std::memcpy(out.raw(), src.raw(), src.raw_size());
  return out;
}

void WrapSubByte(Literal& l) {
  PrimitiveType t = l.shape().element_type();
  int bits = BitWidth(t);
  if (t == PrimitiveType::kPred || bits >= 8 || bits <= 0) return;
  uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  bool sign = IsSignedInt(t);
  uint8_t* p = l.raw();
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    uint8_t u = p[i] & mask;
    if (sign && (u >> (bits - 1))) u |= static_cast<uint8_t>(~mask);
    p[i] = u;
  }
}

Literal MakeTuple(std::vector<Literal> elems) {
  std::vector<Shape> shapes;
  for (const Literal& e : elems) shapes.push_back(e.shape());
  Literal t(Shape::Tuple(std::move(shapes)));
  for (size_t i = 0; i < elems.size(); ++i) t.tuple_elements()[i] = std::move(elems[i]);
  return t;
}

Shape NoLayout(const Shape& s) {
  Shape r = s;
  r.ClearLayoutRecursive();
  return r;
}

}  // namespace hloscope::eval
