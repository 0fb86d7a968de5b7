// Shapes: element type, dimensions (static, bounded-dynamic `<=N`, unbounded
// `?`), optional layout, or a tuple of shapes.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "core/ir/primitive_type.h"

namespace hloscope {

// One tile of a tiled layout; a dimension of kCombineDim prints as '*'.
struct Tile {
  static constexpr int64_t kCombineDim = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> dims;
  bool operator==(const Tile&) const = default;
};

struct Layout {
  std::vector<int64_t> minor_to_major;
  std::vector<Tile> tiles;
  int64_t element_size_in_bits = 0;  // E(n)
  int64_t memory_space = 0;          // S(n)
  std::string extra;                 // other fields kept verbatim (L(n), #(t), SC(..)...)
  bool operator==(const Layout&) const = default;
  bool Trivial() const {
    return tiles.empty() && element_size_in_bits == 0 && memory_space == 0 && extra.empty();
  }
};

class Shape {
 public:
  static constexpr int64_t kUnboundedDim = -1;  // `?`

  Shape() = default;
  Shape(PrimitiveType t, std::vector<int64_t> dims) : type_(t), dims_(std::move(dims)) {}
  static Shape Tuple(std::vector<Shape> elements);
  static Shape Scalar(PrimitiveType t) { return Shape(t, {}); }
  // A default (descending, {n-1,...,0}) layout.
  static Layout DefaultLayout(int rank);

  PrimitiveType element_type() const { return type_; }
  void set_element_type(PrimitiveType t) { type_ = t; }
  bool IsTuple() const { return type_ == PrimitiveType::kTuple; }
  bool IsToken() const { return type_ == PrimitiveType::kToken; }
  // Arrays include buffer shapes: b(f32[2,4]) is the array f32[2,4] held in
  // a buffer that custom-calls create, pin and update in place (XLA's
  // BUFFER shapes); element type, dims and layout are the array's.
  bool IsArray() const { return IsArrayType(type_); }
  bool IsBuffer() const { return buffer_; }
  void set_buffer(bool b) { buffer_ = b; }
  // The array a buffer shape holds (the shape itself, unmarked).
  Shape BufferElement() const {
    Shape s = *this;
    s.buffer_ = false;
    return s;
  }

  int rank() const { return static_cast<int>(dims_.size()); }
  const std::vector<int64_t>& dims() const { return dims_; }
  std::vector<int64_t>& mutable_dims() { return dims_; }
  int64_t dim(int i) const { return dims_[i]; }
  bool IsDynamicDim(int i) const { return !dynamic_.empty() && dynamic_[i]; }
  bool IsDynamic() const;
  void SetDynamicDim(int i, bool d);
  const std::vector<bool>& dynamic_dims() const { return dynamic_; }

  bool has_layout() const { return layout_.has_value(); }
  const Layout& layout() const { return *layout_; }
  const std::optional<Layout>& maybe_layout() const { return layout_; }
  void set_layout(std::optional<Layout> l) { layout_ = std::move(l); }
  // The layout, created empty when there is none.
  Layout& mutable_layout() {
    if (!layout_) layout_.emplace();
    return *layout_;
  }
  void ClearLayoutRecursive();

  const std::vector<Shape>& tuple_shapes() const { return tuple_; }
  std::vector<Shape>& mutable_tuple_shapes() { return tuple_; }
  int tuple_size() const { return static_cast<int>(tuple_.size()); }

  // Elements of an array shape (static dims; unbounded counts 0). Caller must
  // have validated that the product does not overflow (the parser does).
  int64_t num_elements() const;
  // Bytes of the array (sub-byte types packed), or of all leaves of a tuple.
  int64_t byte_size() const;
  // Bytes of the top-level buffer: arrays their data, tuples a pointer table.
  int64_t buffer_bytes() const;
  // Number of array leaves.
  int64_t leaf_count() const;

  // Compatible = same element types and dims (layouts ignored).
  bool Compatible(const Shape& o) const;
  bool SameDims(const Shape& o) const { return dims_ == o.dims_; }
  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

  // HLO text: f32[2,<=3]{1,0}, (f32[], s32[4]), token[], b(f32[2]{0}).
  std::string ToString(bool print_layout = true) const;
  void AppendTo(std::string& out, bool print_layout = true) const;

 private:
  PrimitiveType type_ = PrimitiveType::kInvalid;
  std::vector<int64_t> dims_;
  std::vector<bool> dynamic_;  // empty when no dimension is dynamic
  std::optional<Layout> layout_;
  std::vector<Shape> tuple_;
  bool buffer_ = false;  // b(...): see IsBuffer()
};

// Checked product of dims; nullopt on overflow or negative.
std::optional<int64_t> CheckedElementCount(const std::vector<int64_t>& dims);

// Shape of a tuple element addressed by a ShapeIndex ({} = whole shape).
const Shape* ShapeAt(const Shape& s, const std::vector<int64_t>& index);

void AppendLayout(std::string& out, const Layout& l);

// XLA's CommonFactors: the boundaries (i, j) that cut dims `a` and `b` (of
// equal products) into the finest groups a[i_k, i_k+1) and b[j_k, j_k+1) of
// equal products, from (0, 0) to (a.size(), b.size()). Equal leading dims
// are groups of their own, and size-1 dims are split off where they can be.
std::vector<std::pair<int64_t, int64_t>> CommonFactors(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// XLA's ShapeUtil::ReshapeLeavesDimensionsUnmodified: where the dims
// `from_dims` (sorted) of a reshape from `from` to `to` end up, when each is
// a group of its own on both sides (not merged, split or moved); else
// nullopt. (reshape(broadcast(x)) is then broadcast(x) with those dims.)
std::optional<std::vector<int64_t>> ReshapeLeavesDimensionsUnmodified(const std::vector<int64_t>& from,
                                                                      const std::vector<int64_t>& to,
                                                                      const std::vector<int64_t>& from_dims);

// Whether a reshape between arrays `a` and `b` moves no byte (element types
// are ignored): equal element counts, no dynamic dims, and both laid out
// row-major once size-1 dims are set aside. XLA's ShapeUtil::ReshapeIsBitcast
// for the layouts its layout normalization leaves.
bool ReshapeIsBitcastBetween(const Shape& a, const Shape& b);

}  // namespace hloscope
