#include "core/ir/literal.h"

#include <charconv>
#include <cmath>
#include <algorithm>
#include <functional>

#include "core/ir/float_types.h"

namespace hloscope {

Literal::Literal(const Shape& shape) : shape_(shape) {
  if (shape.IsTuple()) {
    for (const auto& s : shape.tuple_shapes()) tuple_.emplace_back(s);
    return;
  }
  if (!shape.IsArray()) return;
  count_ = shape.num_elements();
  elem_bytes_ = StorageBytes(shape.element_type());
  data_.assign(static_cast<size_t>(count_) * elem_bytes_, 0);
}

Literal Literal::Elided(const Shape& shape) {
  Literal l;
  l.shape_ = shape;
  l.elided_ = true;
  l.count_ = shape.IsArray() ? shape.num_elements() : 0;
  l.elem_bytes_ = shape.IsArray() ? StorageBytes(shape.element_type()) : 0;
  return l;
}

Literal Literal::Splat(const Shape& shape, const Literal& scalar) {
  Literal l;
  l.shape_ = shape;
  l.count_ = shape.num_elements();
  l.elem_bytes_ = StorageBytes(shape.element_type());
  l.data_.assign(scalar.data_.begin(), scalar.data_.begin() + std::min<size_t>(scalar.data_.size(), l.elem_bytes_));
  l.data_.resize(l.elem_bytes_, 0);
  l.splat_ = l.count_ != 1;
  return l;
}

void Literal::MaterializeSlow() const {
  std::vector<uint8_t> one = data_;
  splat_ = false;
  from_splat_ = true;
  data_.resize(static_cast<size_t>(count_) * elem_bytes_);
  for (int64_t i = 0; i < count_; ++i) std::memcpy(data_.data() + i * elem_bytes_, one.data(), elem_bytes_);
}

double Literal::GetDouble(int64_t i) const {
  PrimitiveType t = shape_.element_type();
  switch (t) {
    case PrimitiveType::kF32: return Get<float>(i);
    case PrimitiveType::kF64: return Get<double>(i);
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16: return NarrowFloatToDouble(t, Get<uint16_t>(i));
    case PrimitiveType::kC64: return Get<float>(2 * i);
    case PrimitiveType::kC128: return Get<double>(2 * i);
    default:
      if (IsF8OrSmaller(t)) return MinifloatToDouble(t, Get<uint8_t>(i));
      if (IsUnsignedInt(t) && BitWidth(t) == 64) return static_cast<double>(Get<uint64_t>(i));
      return static_cast<double>(GetInt(i));
  }
}

void Literal::SetDouble(int64_t i, double v) {
  PrimitiveType t = shape_.element_type();
  switch (t) {
    case PrimitiveType::kF32: Set<float>(i, static_cast<float>(v)); return;
    case PrimitiveType::kF64: Set<double>(i, v); return;
    case PrimitiveType::kF16:
    case PrimitiveType::kBF16: Set<uint16_t>(i, static_cast<uint16_t>(DoubleToNarrowFloat(t, v))); return;
    case PrimitiveType::kC64: Set<float>(2 * i, static_cast<float>(v)); Set<float>(2 * i + 1, 0.f); return;
    case PrimitiveType::kC128: Set<double>(2 * i, v); Set<double>(2 * i + 1, 0.0); return;
    default:
      if (IsF8OrSmaller(t)) { Set<uint8_t>(i, DoubleToMinifloat(t, v)); return; }
      SetInt(i, static_cast<int64_t>(v));
  }
}

int64_t Literal::GetInt(int64_t i) const {
  switch (elem_bytes_) {
    case 1: return IsSignedInt(shape_.element_type()) ? int64_t{Get<int8_t>(i)} : int64_t{Get<uint8_t>(i)};
    case 2: return IsSignedInt(shape_.element_type()) ? int64_t{Get<int16_t>(i)} : int64_t{Get<uint16_t>(i)};
    case 4: return IsSignedInt(shape_.element_type()) ? int64_t{Get<int32_t>(i)} : int64_t{Get<uint32_t>(i)};
    case 8: return Get<int64_t>(i);
    default: return 0;
  }
}

void Literal::SetInt(int64_t i, int64_t v) {
  PrimitiveType t = shape_.element_type();
  if (t == PrimitiveType::kPred) v = v != 0;
  int bits = BitWidth(t);
  if (bits < 8 && bits > 0 && t != PrimitiveType::kPred) {
    // Wrap into the sub-byte range, sign-extended for signed types.
    uint64_t mask = (1ull << bits) - 1;
    uint64_t u = static_cast<uint64_t>(v) & mask;
    if (IsSignedInt(t) && (u >> (bits - 1))) u |= ~mask;
    v = static_cast<int64_t>(u);
  }
  switch (elem_bytes_) {
    case 1: Set<uint8_t>(i, static_cast<uint8_t>(v)); return;
    case 2: Set<uint16_t>(i, static_cast<uint16_t>(v)); return;
    case 4: Set<uint32_t>(i, static_cast<uint32_t>(v)); return;
    case 8: Set<int64_t>(i, v); return;
    default: return;
  }
}

std::complex<double> Literal::GetComplex(int64_t i) const {
  if (shape_.element_type() == PrimitiveType::kC64)
    return {Get<float>(2 * i), Get<float>(2 * i + 1)};
  if (shape_.element_type() == PrimitiveType::kC128)
    return {Get<double>(2 * i), Get<double>(2 * i + 1)};
  return {GetDouble(i), 0.0};
}

void Literal::SetComplex(int64_t i, std::complex<double> v) {
  if (shape_.element_type() == PrimitiveType::kC64) {
    Set<float>(2 * i, static_cast<float>(v.real()));
    Set<float>(2 * i + 1, static_cast<float>(v.imag()));
  } else if (shape_.element_type() == PrimitiveType::kC128) {
    Set<double>(2 * i, v.real());
    Set<double>(2 * i + 1, v.imag());
  } else {
    SetDouble(i, v.real());
  }
}

std::string FormatFloat(double v, PrimitiveType t) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::to_chars_result r;
  if (t == PrimitiveType::kF64 || t == PrimitiveType::kC128)
    r = std::to_chars(buf, buf + sizeof buf, v);
  else
    r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  return std::string(buf, r.ptr);
}

void Literal::AppendElement(std::string& out, int64_t i) const {
  PrimitiveType t = shape_.element_type();
  if (t == PrimitiveType::kPred) {
    out += GetInt(i) ? "true" : "false";
  } else if (IsComplex(t)) {
    auto c = GetComplex(i);
    out += '(';
    out += FormatFloat(c.real(), t);
    out += ", ";
    out += FormatFloat(c.imag(), t);
    out += ')';
  } else if (IsFloat(t)) {
    out += FormatFloat(GetDouble(i), t);
  } else if (IsUnsignedInt(t) && BitWidth(t) == 64) {
    out += std::to_string(Get<uint64_t>(i));
  } else {
    out += std::to_string(GetInt(i));
  }
}

void Literal::AppendTo(std::string& out) const {
  if (shape_.IsTuple()) {
    out += '(';
    for (size_t i = 0; i < tuple_.size(); ++i) {
      if (i) out += ", ";
      tuple_[i].AppendTo(out);
    }
    out += ')';
    return;
  }
  if (elided_) {
    out += "{...}";
    return;
  }
  if (!shape_.IsArray()) return;
  int rank = shape_.rank();
  bool uniform = splat_;
  if (!uniform && from_splat_ && count_ > 1) {
    uniform = true;
    for (int64_t i = 1; i < count_ && uniform; ++i)
      uniform = std::memcmp(data_.data(), data_.data() + i * elem_bytes_, elem_bytes_) == 0;
  }
  if (uniform) {
    // Print the single value without materializing (XLA's splat syntax).
    Literal one(Shape(shape_.element_type(), {}));
    std::memcpy(one.data_.data(), data_.data(), elem_bytes_);
    one.AppendElement(out, 0);
    return;
  }
  if (rank == 0) {
    AppendElement(out, 0);
    return;
  }
  // Iterate row-major with nested braces.
  const auto& dims = shape_.dims();
  std::vector<int64_t> idx(rank, 0);
  if (count_ == 0) {
    // Zero-element arrays: expand the dimensions before the first zero one.
    std::function<void(int)> emit = [&](int d) {
      out += '{';
      if (dims[d] != 0 && d + 1 < rank) {
        for (int64_t i = 0; i < dims[d]; ++i) {
          if (i) out += ", ";
          emit(d + 1);
        }
      }
      out += '}';
    };
    emit(0);
    return;
  }
  for (int d = 0; d < rank; ++d) out += '{';
  for (int64_t i = 0; i < count_; ++i) {
    AppendElement(out, i);
    // Advance the multi-index.
    int d = rank - 1;
    while (d >= 0) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
      --d;
    }
    if (d < 0) break;
    int closes = rank - 1 - d;
    for (int k = 0; k < closes; ++k) out += '}';
    out += ", ";
    for (int k = 0; k < closes; ++k) out += '{';
  }
  for (int d = 0; d < rank; ++d) out += '}';
}

std::string Literal::ToString() const {
  std::string s;
  AppendTo(s);
  return s;
}

bool Literal::operator==(const Literal& o) const {
  if (!shape_.Compatible(o.shape_) || elided_ != o.elided_) return false;
  if (shape_.IsTuple()) return tuple_ == o.tuple_;
  if (splat_ && o.splat_) return data_ == o.data_;
  Materialize();
  o.Materialize();
  return data_ == o.data_;
}

size_t Literal::Hash() const {
  size_t h = std::hash<std::string>()(shape_.ToString(false));
  if (shape_.IsTuple()) {
    for (const auto& t : tuple_) h = h * 31 + t.Hash();
    return h;
  }
  std::string_view bytes(reinterpret_cast<const char*>(data_.data()), data_.size());
  if (splat_) h ^= 0x51a7;
  return h ^ (std::hash<std::string_view>()(bytes) + 0x9e3779b97f4a7c15ull + (h << 6));
}

bool Literal::AllEqualTo(double v) const {
  if (elided_ || !shape_.IsArray()) return false;
  PrimitiveType t = shape_.element_type();
  int64_t n = splat_ ? std::min<int64_t>(count_, 1) : count_;
  if (splat_) {
    Literal one(Shape(t, {}));
    std::memcpy(one.data_.data(), data_.data(), elem_bytes_);
    return one.AllEqualTo(v);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (IsComplex(t)) {
      if (GetComplex(i) != std::complex<double>(v, 0)) return false;
    } else if (GetDouble(i) != v) {
      return false;
    }
  }
  return true;
}

}  // namespace hloscope
