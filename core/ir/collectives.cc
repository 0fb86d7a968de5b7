#include "core/ir/collectives.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>

#include "core/ir/module.h"

namespace hloscope {

namespace {

// Integers separated by commas between `open` and its matching close at p.
bool ReadInts(std::string_view t, size_t& p, char close, std::vector<int64_t>& out) {
  while (p < t.size() && t[p] != close) {
    while (p < t.size() && (t[p] == ' ' || t[p] == ',')) ++p;
    if (p < t.size() && t[p] == close) break;
    size_t start = p;
    while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p]))) ++p;
    if (p == start || p - start > 12) return false;
    out.push_back(std::atoll(std::string(t.substr(start, p - start)).c_str()));
  }
  if (p >= t.size()) return false;
  ++p;  // the close
  return true;
}

}  // namespace

int64_t ModuleDeviceCount(const Module& m) {
  int64_t all = 1;
  for (const char* h : {"num_partitions", "replica_count"})
    if (const RawAttr* a = m.FindHeader(h)) all *= std::max<int64_t>(1, std::atoll(a->value.c_str()));
  return all;
}

std::optional<std::vector<std::vector<int64_t>>> ParseReplicaGroups(std::string_view t) {
  std::vector<std::vector<int64_t>> groups;
  size_t p = 0;
  while (p < t.size() && t[p] == ' ') ++p;
  if (p == t.size()) return groups;
  if (t[p] == '[') {  // [G,S]<=[dims]T(perm)
    std::vector<int64_t> gs, dims, perm;
    ++p;
    if (!ReadInts(t, p, ']', gs) || gs.empty() || gs.size() > 2) return std::nullopt;
    if (gs.size() == 1) gs.insert(gs.begin(), 1);  // [S]<=[S]: one group
    if (t.substr(p, 3) != "<=[") return std::nullopt;
    p += 3;
    if (!ReadInts(t, p, ']', dims) || dims.empty()) return std::nullopt;
    if (p < t.size() && t[p] == 'T') {
      if (t.substr(p, 2) != "T(") return std::nullopt;
      p += 2;
      if (!ReadInts(t, p, ')', perm) || perm.size() != dims.size()) return std::nullopt;
    } else {
      perm.resize(dims.size());
      std::iota(perm.begin(), perm.end(), 0);
    }
    int64_t n = 1;
    for (int64_t d : dims) {
      if (d <= 0 || d > (int64_t{1} << 24)) return std::nullopt;
      n *= d;
    }
    if (gs[0] <= 0 || gs[1] <= 0 || gs[0] * gs[1] != n || n > (int64_t{1} << 24)) return std::nullopt;
    std::vector<bool> seen(perm.size(), false);
    for (int64_t q : perm) {
      if (q < 0 || q >= static_cast<int64_t>(perm.size()) || seen[static_cast<size_t>(q)]) return std::nullopt;
      seen[static_cast<size_t>(q)] = true;
    }
    // iota over dims, transposed by perm, read in order.
    const size_t r = dims.size();
    std::vector<int64_t> stride(r, 1);
    for (size_t k = r - 1; k > 0; --k) stride[k - 1] = stride[k] * dims[k];
    std::vector<int64_t> tdims(r), idx(r, 0), flat;
    for (size_t k = 0; k < r; ++k) tdims[k] = dims[static_cast<size_t>(perm[k])];
    flat.reserve(static_cast<size_t>(n));
    for (int64_t e = 0; e < n; ++e) {
      int64_t v = 0;
      for (size_t k = 0; k < r; ++k) v += idx[k] * stride[static_cast<size_t>(perm[k])];
      flat.push_back(v);
      for (size_t k = r; k-- > 0;) {
        if (++idx[k] < tdims[k]) break;
        idx[k] = 0;
      }
    }
    for (int64_t g = 0; g < gs[0]; ++g)
      groups.emplace_back(flat.begin() + g * gs[1], flat.begin() + (g + 1) * gs[1]);
    return groups;
  }
  if (t[p] != '{') return std::nullopt;
  ++p;
  while (true) {
    while (p < t.size() && (t[p] == ' ' || t[p] == ',')) ++p;
    if (p >= t.size()) return std::nullopt;
    if (t[p] == '}') break;
    if (t[p] != '{') return std::nullopt;
    ++p;
    std::vector<int64_t> g;
    if (!ReadInts(t, p, '}', g)) return std::nullopt;
    groups.push_back(std::move(g));
  }
  return groups;
}

int64_t CollectiveParticipants(const Instruction& i, const Module& m) {
  const int64_t all = ModuleDeviceCount(m);
  const RawAttr* g = i.FindRaw("replica_groups");
  if (!g) return all;
  auto groups = ParseReplicaGroups(g->value);
  if (!groups || groups->empty() || groups->front().empty()) return all;
  return static_cast<int64_t>(groups->front().size());
}

}  // namespace hloscope
