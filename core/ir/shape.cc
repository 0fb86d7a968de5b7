#include "core/ir/shape.h"

#include <limits>
#include <numeric>

namespace hloscope {

Shape Shape::Tuple(std::vector<Shape> elements) {
  Shape s;
  s.type_ = PrimitiveType::kTuple;
  s.tuple_ = std::move(elements);
  return s;
}

Layout Shape::DefaultLayout(int rank) {
  Layout l;
  for (int i = rank - 1; i >= 0; --i) l.minor_to_major.push_back(i);
  return l;
}

bool Shape::IsDynamic() const {
  for (bool d : dynamic_)
    if (d) return true;
  return false;
}

void Shape::SetDynamicDim(int i, bool d) {
  if (dynamic_.empty()) {
    if (!d) return;
    dynamic_.assign(dims_.size(), false);
  }
  dynamic_[i] = d;
}

void Shape::ClearLayoutRecursive() {
  layout_.reset();
  for (auto& t : tuple_) t.ClearLayoutRecursive();
}

int64_t Shape::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims_) n *= (d < 0 ? 0 : d);
  return n;
}

int64_t Shape::byte_size() const {
  if (IsTuple()) {
    int64_t total = 0;
    for (const auto& t : tuple_) total += t.byte_size();
    return total;
  }
  if (!IsArray()) return 0;
  int bits = BitWidth(type_);
  if (bits >= 8) return num_elements() * (bits / 8);
  return (num_elements() * bits + 7) / 8;
}

int64_t Shape::buffer_bytes() const {
  if (IsTuple()) return 8 * static_cast<int64_t>(tuple_.size());
  return byte_size();
}

int64_t Shape::leaf_count() const {
  if (!IsTuple()) return 1;
  int64_t n = 0;
  for (const auto& t : tuple_) n += t.leaf_count();
  return n;
}

bool Shape::Compatible(const Shape& o) const {
  if (type_ != o.type_ || buffer_ != o.buffer_) return false;
  if (IsTuple()) {
    if (tuple_.size() != o.tuple_.size()) return false;
    for (size_t i = 0; i < tuple_.size(); ++i)
      if (!tuple_[i].Compatible(o.tuple_[i])) return false;
    return true;
  }
  return dims_ == o.dims_;
}

bool Shape::operator==(const Shape& o) const {
  if (!Compatible(o)) return false;
  if (IsTuple()) {
    for (size_t i = 0; i < tuple_.size(); ++i)
      if (!(tuple_[i] == o.tuple_[i])) return false;
    return true;
  }
  bool dyn_a = IsDynamic(), dyn_b = o.IsDynamic();
  if (dyn_a != dyn_b || (dyn_a && dynamic_ != o.dynamic_)) return false;
  return layout_ == o.layout_;
}

void AppendLayout(std::string& out, const Layout& l) {
  out += '{';
  for (size_t i = 0; i < l.minor_to_major.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(l.minor_to_major[i]);
  }
  bool any = !l.tiles.empty() || l.element_size_in_bits || l.memory_space || !l.extra.empty();
  if (any) {
    out += ':';
    for (const auto& t : l.tiles) {
      out += "T(";
      for (size_t i = 0; i < t.dims.size(); ++i) {
        if (i) out += ',';
        if (t.dims[i] == Tile::kCombineDim)
          out += '*';
        else
          out += std::to_string(t.dims[i]);
      }
      out += ')';
    }
    if (l.element_size_in_bits) out += "E(" + std::to_string(l.element_size_in_bits) + ")";
    if (l.memory_space) out += "S(" + std::to_string(l.memory_space) + ")";
    out += l.extra;
  }
  out += '}';
}

void Shape::AppendTo(std::string& out, bool print_layout) const {
  if (IsTuple()) {
    out += '(';
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (i) out += ", ";
      tuple_[i].AppendTo(out, print_layout);
    }
    out += ')';
    return;
  }
  if (buffer_) {
    out += "b(";
    BufferElement().AppendTo(out, print_layout);
    out += ')';
    return;
  }
  out += PrimitiveTypeName(type_);
  out += '[';
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) out += ',';
    if (IsDynamicDim(static_cast<int>(i))) {
      if (dims_[i] == kUnboundedDim) {
        out += '?';
        continue;
      }
      out += "<=";
    }
    out += std::to_string(dims_[i]);
  }
  out += ']';
  if (print_layout && layout_ && IsArray()) {
    if (!dims_.empty() || !layout_->Trivial() || !layout_->minor_to_major.empty())
      AppendLayout(out, *layout_);
  }
}

std::string Shape::ToString(bool print_layout) const {
  std::string s;
  AppendTo(s, print_layout);
  return s;
}

std::optional<int64_t> CheckedElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return std::nullopt;
    n *= d;
  }
  return n;
}

const Shape* ShapeAt(const Shape& s, const std::vector<int64_t>& index) {
  const Shape* cur = &s;
  for (int64_t i : index) {
    if (!cur->IsTuple() || i < 0 || i >= cur->tuple_size()) return nullptr;
    cur = &cur->tuple_shapes()[i];
  }
  return cur;
}

std::vector<std::pair<int64_t, int64_t>> CommonFactors(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  using Bound = std::pair<int64_t, int64_t>;
  const int64_t na = static_cast<int64_t>(a.size()), nb = static_cast<int64_t>(b.size());
  auto product = [](const std::vector<int64_t>& v, int64_t from) -> int64_t {  // -1 on overflow
    int64_t p = 1;
    for (size_t k = static_cast<size_t>(from); k < v.size(); ++k)
      if (__builtin_mul_overflow(p, v[k], &p)) return -1;
    return p;
  };
  std::vector<Bound> bounds;
  if (a == b) {
    for (int64_t i = 0; i <= na; ++i) bounds.emplace_back(i, i);
    return bounds;
  }
  int64_t i = 0, j = 0, prior_i = -1, prior_j = -1;
  while (i < na && j < nb && a[i] == b[j]) {
    prior_i = i;
    prior_j = j;
    bounds.emplace_back(i++, j++);
  }
  // Unequal (or overflowing) tails: one group.
  if (product(a, i) != product(b, j) || product(a, i) < 0) return {Bound(0, 0), Bound(na, nb)};
  if (product(a, i) == 0) {
    bounds.emplace_back(i, j);
    bounds.emplace_back(na, nb);
    return bounds;
  }
  for (int64_t pa = 1, pb = 1;;) {
    if (pa == pb && (i > prior_i || j > prior_j)) {
      prior_i = i;
      prior_j = j;
      bounds.emplace_back(i, j);
      continue;
    }
    const bool in_a = i < na, in_b = j < nb;
    if (!in_a && !in_b) break;
    const bool next_a = pa < pb || (in_a && (!in_b || (pa == pb && a[i] <= b[j])));
    const bool next_b = pb < pa || (in_b && (!in_a || (pb == pa && b[j] <= a[i])));
    if (next_a) pa *= a[i++];
    if (next_b) pb *= b[j++];
  }
  return bounds;
}

std::optional<std::vector<int64_t>> ReshapeLeavesDimensionsUnmodified(const std::vector<int64_t>& from,
                                                                      const std::vector<int64_t>& to,
                                                                      const std::vector<int64_t>& from_dims) {
  std::optional<int64_t> pf = CheckedElementCount(from), pt = CheckedElementCount(to);
  if (!pf || !pt || *pf != *pt) return std::nullopt;
  // The groups of one dim on each side.
  std::vector<std::pair<int64_t, int64_t>> f = CommonFactors(from, to), unmodified;
  for (size_t k = 0; k + 1 < f.size(); ++k)
    if (f[k + 1].first - f[k].first == 1 && f[k + 1].second - f[k].second == 1) unmodified.push_back(f[k]);
  std::vector<int64_t> out;
  size_t k = 0;
  for (int64_t d : from_dims) {
    while (k < unmodified.size() && unmodified[k].first < d) ++k;
    if (k >= unmodified.size() || unmodified[k].first != d) return std::nullopt;
    out.push_back(unmodified[k].second);
  }
  return out;
}

namespace {

// Row-major once size-1 dims are set aside: the minor-to-major order of the
// dims of size > 1 is descending.
bool RowMajorIgnoringUnitDims(const Shape& s) {
  if (!s.has_layout()) return true;
  int64_t last = std::numeric_limits<int64_t>::max();
  for (int64_t d : s.layout().minor_to_major) {
    if (d < 0 || d >= s.rank()) return false;
    if (s.dim(static_cast<int>(d)) == 1) continue;
    if (d > last) return false;
    last = d;
  }
  return s.layout().tiles.empty();
}

}  // namespace

bool ReshapeIsBitcastBetween(const Shape& a, const Shape& b) {
  if (!a.IsArray() || !b.IsArray() || a.IsDynamic() || b.IsDynamic()) return false;
  std::optional<int64_t> na = CheckedElementCount(a.dims()), nb = CheckedElementCount(b.dims());
  return na && nb && *na == *nb && RowMajorIgnoringUnitDims(a) && RowMajorIgnoringUnitDims(b);
}

}  // namespace hloscope
