// A small open-addressing hash map from names (string_view, not owned) to
// values, for the hot name lookups of the parser and the verifier: flat
// arrays, no node per entry, a hash that reads 8 bytes at a time. The viewed
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

// Entries are kept in insertion order in one array; the hash table holds
// 8-byte slots (32 bits of the hash and the entry's index), so a table for
// tens of thousands of names stays within a core's L2 cache.
template <typename V>
class FlatNameMap {
 public:
  FlatNameMap() = default;
  explicit FlatNameMap(size_t expected) { reserve(expected); }

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // Room for `n` entries without growing.
  void reserve(size_t n) {
    size_t want = 16;
    while (want < n + n / 2 + 1) want *= 2;
    if (want > slots_.size()) Rehash(want);
  }

  // Inserts (key, value) unless the key is present; returns the entry's
  // value and whether it was inserted. The pointer is valid until the next insert.
  std::pair<V*, bool> insert(std::string_view key, V value) { return insert_hashed(key, HashName(key), value); }
  // The same with `hash` = HashName(key) computed earlier (maybe on another thread).
  std::pair<V*, bool> insert_hashed(std::string_view key, uint64_t hash, V value) {
    if ((entries_.size() + 1) * 4 > slots_.size() * 3) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    const uint64_t tag = Tag(hash);
    const size_t mask = slots_.size() - 1;
    for (size_t i = Bucket(hash) & mask;; i = (i + 1) & mask) {
      const uint64_t s = slots_[i];
      if (s == 0) {
        slots_[i] = tag | (entries_.size() + 1);
        entries_.push_back({hash, key, std::move(value)});
        return {&entries_.back().value, true};
      }
      if ((s & kTagMask) == tag) {
        Entry& e = entries_[(s & kIndexMask) - 1];
        if (e.key == key) return {&e.value, false};
      }
    }
  }

  V* find(std::string_view key) { return find_hashed(key, HashName(key)); }
  // The same with `hash` = HashName(key) computed earlier.
  V* find_hashed(std::string_view key, uint64_t hash) {
    if (slots_.empty()) return nullptr;
    const uint64_t tag = Tag(hash);
    const size_t mask = slots_.size() - 1;
    for (size_t i = Bucket(hash) & mask;; i = (i + 1) & mask) {
      const uint64_t s = slots_[i];
      if (s == 0) return nullptr;
      if ((s & kTagMask) == tag) {
        Entry& e = entries_[(s & kIndexMask) - 1];
        if (e.key == key) return &e.value;
      }
    }
  }
  const V* find(std::string_view key) const { return const_cast<FlatNameMap*>(this)->find(key); }

  // Asks the cache for the slot where a key of this hash is looked up first
  // (for a caller that knows the hashes of the next keys).
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[Bucket(hash) & (slots_.size() - 1)]);
  }

  // Keeps the arrays' capacity; does not walk them.
  void clear() {
    slots_.clear();
    entries_.clear();
  }

 private:
  struct Entry {
    uint64_t hash;
    std::string_view key;
    V value;
  };
  // A slot: the hash's top 32 bits, and 1 + the entry's index (0 = empty).
  static constexpr uint64_t kTagMask = 0xFFFFFFFF00000000ull, kIndexMask = 0xFFFFFFFFull;
  static uint64_t Tag(uint64_t hash) { return hash & kTagMask; }
  static size_t Bucket(uint64_t hash) { return static_cast<size_t>(hash >> 8); }
  std::vector<uint64_t> slots_;
  std::vector<Entry> entries_;

  void Rehash(size_t n) {
    entries_.reserve(n / 4 * 3);  // what fits before the next rehash: grows with the slots
    slots_.assign(n, 0);
    const size_t mask = n - 1;
    for (size_t k = 0; k < entries_.size(); ++k) {
      size_t i = Bucket(entries_[k].hash) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = Tag(entries_[k].hash) | (k + 1);
    }
  }
};

}  // namespace hloscope
