// Metadata: an instruction's `metadata={op_name="..." source_file="..." ...}`
// as ordered name=value fields, values verbatim (quoted strings or numbers).
//
// Nearly every instruction XLA or JAX writes carries metadata, so it is
// stored compactly: all fields in one string (one allocation, often none),
// each as [name length: 2 bytes][value length: 4 bytes][name][value]. A
// vector of string pairs took a vector and up to six strings per
// instruction, and building them was a fifth of parsing a JAX module.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>

namespace hloscope {

struct MetadataField {
  std::string_view name;
  std::string_view value;
};

class Metadata {
 public:
  // Longer field names are not metadata XLA knows; Add refuses them.
  static constexpr size_t kMaxNameSize = 65535;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = MetadataField;
    using difference_type = std::ptrdiff_t;
    using pointer = const MetadataField*;
    using reference = const MetadataField&;

    const_iterator() = default;
    const_iterator(const char* p, const char* end) : p_(p), end_(end) { Load(); }
    reference operator*() const { return field_; }
    pointer operator->() const { return &field_; }
    const_iterator& operator++() {
      p_ += kHeader + field_.name.size() + field_.value.size();
      Load();
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& o) const { return p_ == o.p_; }

   private:
    const char* p_ = nullptr;
    const char* end_ = nullptr;
    MetadataField field_;
    void Load() {
      if (p_ == end_) return;
      uint16_t n;
      uint32_t v;
      std::memcpy(&n, p_, 2);
      std::memcpy(&v, p_ + 2, 4);
      field_ = {std::string_view(p_ + kHeader, n), std::string_view(p_ + kHeader + n, v)};
    }
  };

  bool empty() const { return buf_.empty(); }
  size_t size() const {
    size_t n = 0;
    for (auto it = begin(); it != end(); ++it) ++n;
    return n;
  }
  const_iterator begin() const { return const_iterator(buf_.data(), buf_.data() + buf_.size()); }
  const_iterator end() const { return const_iterator(buf_.data() + buf_.size(), buf_.data() + buf_.size()); }
  void clear() { buf_.clear(); }

  // Room for fields whose names and values add up to `text_bytes`, in
  // `fields` fields (a parser that knows them appends without regrowing).
  void Reserve(size_t fields, size_t text_bytes) { buf_.reserve(buf_.size() + fields * kHeader + text_bytes); }
  // Appends a field; false (nothing added) for a name over kMaxNameSize bytes.
  bool Add(std::string_view name, std::string_view value) {
    if (name.size() > kMaxNameSize || value.size() > UINT32_MAX) return false;
    const uint16_t n = static_cast<uint16_t>(name.size());
    const uint32_t v = static_cast<uint32_t>(value.size());
    const size_t at = buf_.size();
    buf_.resize(at + kHeader + name.size() + value.size());  // one growth, then copies
    char* p = buf_.data() + at;
    std::memcpy(p, &n, 2);
    std::memcpy(p + 2, &v, 4);
    if (!name.empty()) std::memcpy(p + kHeader, name.data(), name.size());
    if (!value.empty()) std::memcpy(p + kHeader + name.size(), value.data(), value.size());
    return true;
  }
  bool operator==(const Metadata& o) const { return buf_ == o.buf_; }

 private:
  static constexpr size_t kHeader = 6;
  std::string buf_;
};

}  // namespace hloscope
