// InstrList: the operand and user lists of an instruction. A vector of
// instruction pointers that keeps up to two of them in place: most
// instructions have one or two operands and one or two users, so a parsed
// module of 100k instructions allocates no list for most of them (each
// std::vector did, twice per instruction), and a walk over operands or users
// reads them from the instruction itself. Same size as a std::vector; the
// interface is the part of std::vector's that the IR uses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>

namespace hloscope {

class Instruction;

class InstrList {
 public:
  using value_type = Instruction*;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = Instruction*&;
  using const_reference = Instruction* const&;
  using pointer = Instruction**;
  using const_pointer = Instruction* const*;
  using iterator = Instruction**;
  using const_iterator = Instruction* const*;

  InstrList() = default;
  InstrList(const InstrList& o) { assign(o.begin(), o.end()); }
  InstrList(InstrList&& o) noexcept { Steal(o); }
  InstrList& operator=(const InstrList& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  InstrList& operator=(InstrList&& o) noexcept {
    if (this != &o) {
      Release();
      Steal(o);
    }
    return *this;
  }
  ~InstrList() { Release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  Instruction** data() { return cap_ > kInline ? heap_ : inline_; }
  Instruction* const* data() const { return cap_ > kInline ? heap_ : inline_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  Instruction*& operator[](size_t i) { return data()[i]; }
  Instruction* operator[](size_t i) const { return data()[i]; }
  Instruction*& front() { return data()[0]; }
  Instruction* front() const { return data()[0]; }
  Instruction*& back() { return data()[size_ - 1]; }
  Instruction* back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n > cap_) Grow(n);
  }
  void push_back(Instruction* v) {
    if (size_ == cap_) Grow(size_ + 1);
    data()[size_++] = v;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void resize(size_t n, Instruction* v = nullptr) {
    reserve(n);
    Instruction** d = data();
    for (size_t i = size_; i < n; ++i) d[i] = v;
    size_ = static_cast<uint32_t>(n);
  }
  template <typename It>
  void assign(It first, It last) {
    const size_t n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    std::copy(first, last, data());
    size_ = static_cast<uint32_t>(n);
  }
  iterator insert(const_iterator pos, Instruction* v) {
    const size_t i = static_cast<size_t>(pos - begin());
    if (size_ == cap_) Grow(size_ + 1);
    Instruction** d = data();
    std::memmove(d + i + 1, d + i, (size_ - i) * sizeof(Instruction*));
    d[i] = v;
    ++size_;
    return d + i;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    Instruction** d = data();
    const size_t i = static_cast<size_t>(first - d), j = static_cast<size_t>(last - d);
    std::memmove(d + i, d + j, (size_ - j) * sizeof(Instruction*));
    size_ -= static_cast<uint32_t>(j - i);
    return d + i;
  }

  friend bool operator==(const InstrList& a, const InstrList& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  static constexpr uint32_t kInline = 2;
  uint32_t size_ = 0;
  uint32_t cap_ = kInline;  // > kInline: the elements are in heap_
  union {
    Instruction* inline_[kInline] = {nullptr, nullptr};
    Instruction** heap_;
  };

  void Grow(size_t n) {
    const size_t c = std::max<size_t>(n, size_t{cap_} * 2);
    Instruction** p = new Instruction*[c];
    std::memcpy(p, data(), size_ * sizeof(Instruction*));
    Release();
    heap_ = p;
    cap_ = static_cast<uint32_t>(c);
  }
  void Release() {
    if (cap_ > kInline) delete[] heap_;
    cap_ = kInline;
  }
  // Takes o's elements (o must hold none of its own after Release).
  void Steal(InstrList& o) {
    size_ = o.size_;
    if (o.cap_ > kInline) {
      heap_ = o.heap_;
      cap_ = o.cap_;
      o.cap_ = kInline;
    } else {
      inline_[0] = o.inline_[0];
      inline_[1] = o.inline_[1];
    }
    o.size_ = 0;
  }
};

}  // namespace hloscope
