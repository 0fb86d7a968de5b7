// Literal: the value of a constant (or an interpreter result). Arrays keep
// their elements as raw bytes in the element type's storage width (sub-byte
// types take one byte per element); tuples hold element literals.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/ir/shape.h"

namespace hloscope {

class Literal {
 public:
  Literal() = default;
  // Zero-filled literal of `shape` (tuples recursively).
  explicit Literal(const Shape& shape);
  // A literal whose values were elided in the text (`{...}`); no storage.
  static Literal Elided(const Shape& shape);
  // Every element equal to element 0 of `scalar` (XLA's `f32[100] constant(0)`).
  // Stores one element until the values are first accessed.
  static Literal Splat(const Shape& shape, const Literal& scalar);
  bool is_splat() const { return splat_; }

  const Shape& shape() const { return shape_; }
  bool elided() const { return elided_; }
  bool IsTuple() const { return shape_.IsTuple(); }
  int64_t num_elements() const { return count_; }
  int element_bytes() const { return elem_bytes_; }

  uint8_t* raw() {
    Materialize();
    return data_.data();
  }
  const uint8_t* raw() const {
    Materialize();
    return data_.data();
  }
  size_t raw_size() const {
    Materialize();
    return data_.size();
  }

  std::vector<Literal>& tuple_elements() { return tuple_; }
  const std::vector<Literal>& tuple_elements() const { return tuple_; }

  template <typename T>
  T Get(int64_t i) const {
    T v;
    Materialize();
    std::memcpy(&v, data_.data() + i * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void Set(int64_t i, T v) {
    Materialize();
    std::memcpy(data_.data() + i * sizeof(T), &v, sizeof(T));
  }

  // Generic accessors by value class. For complex, the real part / (re, im).
  double GetDouble(int64_t i) const;
  void SetDouble(int64_t i, double v);
  int64_t GetInt(int64_t i) const;  // integers and pred; u64 reinterpreted
  void SetInt(int64_t i, int64_t v);
  std::complex<double> GetComplex(int64_t i) const;
  void SetComplex(int64_t i, std::complex<double> v);

  // Text form as HLO prints constants: 1, {1, 2}, {{1, 2}, {3, 4}}, (1, {2}).
  void AppendTo(std::string& out) const;
  std::string ToString() const;
  // One element as text.
  void AppendElement(std::string& out, int64_t i) const;

  // Bitwise equality of shape (layout ignored) and contents.
  bool operator==(const Literal& o) const;
  size_t Hash() const;

  // True if every element equals `v` (numeric compare; arrays only).
  bool AllEqualTo(double v) const;

 private:
  void Materialize() const {
    if (splat_) MaterializeSlow();
  }
  void MaterializeSlow() const;

  Shape shape_;
  bool elided_ = false;
  mutable bool splat_ = false;
  mutable bool from_splat_ = false;  // printed as a splat again while still uniform
  int64_t count_ = 0;
  int elem_bytes_ = 0;
  mutable std::vector<uint8_t> data_;
  std::vector<Literal> tuple_;
};

// Shortest text that reads back to the same float / double.
std::string FormatFloat(double v, PrimitiveType t);

}  // namespace hloscope
