// A small open-addressing hash map from names (string_view, not owned) to
// values, for the hot name lookups of the parser and the verifier: one flat
// array, no node per entry, a hash that reads 8 bytes at a time. The viewed
// strings must outlive the map.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace hloscope {

inline uint64_t HashName(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = 0xCBF29CE484222325ull ^ (s.size() * kMul);
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  h *= kMul;
  return h ^ (h >> 32);
}

template <typename V>
class FlatNameMap {
 public:
  FlatNameMap() = default;
  explicit FlatNameMap(size_t expected) { reserve(expected); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Room for `n` entries without growing.
  void reserve(size_t n) {
    size_t want = 16;
    while (want < n + n / 2 + 1) want *= 2;
    if (want > slots_.size()) Rehash(want);
  }

  // Inserts (key, value) unless the key is present; returns the entry's
  // value and whether it was inserted.
  std::pair<V*, bool> insert(std::string_view key, V value) { return insert_hashed(key, HashName(key), value); }
  // The same with `hash` = HashName(key) computed earlier (maybe on another thread).
  std::pair<V*, bool> insert_hashed(std::string_view key, uint64_t hash, V value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    uint64_t h = hash | 1;
    size_t mask = slots_.size() - 1;
    for (size_t i = (h >> 8) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.hash == 0) {
        s.hash = h;
        s.key = key;
        s.value = std::move(value);
        ++size_;
        return {&s.value, true};
      }
      if (s.hash == h && s.key == key) return {&s.value, false};
    }
  }

  V* find(std::string_view key) {
    if (slots_.empty()) return nullptr;
    uint64_t h = HashName(key) | 1;
    size_t mask = slots_.size() - 1;
    for (size_t i = (h >> 8) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.hash == 0) return nullptr;
      if (s.hash == h && s.key == key) return &s.value;
    }
  }
  const V* find(std::string_view key) const { return const_cast<FlatNameMap*>(this)->find(key); }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

 private:
  struct Slot {
    uint64_t hash = 0;  // 0 = empty
    std::string_view key;
    V value{};
  };
  std::vector<Slot> slots_;
  size_t size_ = 0;

  void Rehash(size_t n) {
    std::vector<Slot> old(n);
    old.swap(slots_);
    size_t mask = n - 1;
    for (Slot& s : old) {
      if (s.hash == 0) continue;
      size_t i = (s.hash >> 8) & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = std::move(s);
    }
  }
};

}  // namespace hloscope
