#include "core/ir/collectives.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>
#include <string>

#include "core/ir/computation.h"
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

// XLA's mesh form, `mesh['a'=4,'b'=2] {'a'}`: the devices 0..n-1 laid out
// over the named axes (row-major), one group for each position on the axes
// not listed, holding the devices along the listed axes (in the order listed,
// the last fastest). Whole axes only; sub-axes (`'a':(1)2`) and explicit
// device_ids are not read (nullopt).
std::optional<std::vector<std::vector<int64_t>>> ParseMeshGroups(std::string_view t, size_t p) {
  auto skip = [&] {
    while (p < t.size() && t[p] == ' ') ++p;
  };
  auto name = [&](std::string& out) {
    skip();
    if (p >= t.size() || t[p] != '\'') return false;
    const size_t end = t.find('\'', p + 1);
    if (end == std::string_view::npos) return false;
    out = std::string(t.substr(p + 1, end - p - 1));
    p = end + 1;
    return true;
  };
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  int64_t n = 1;
  while (true) {
    std::string a;
    if (!name(a)) return std::nullopt;
    skip();
    if (p >= t.size() || t[p] != '=') return std::nullopt;
    ++p;
    skip();
    const size_t start = p;
    while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p]))) ++p;
    if (p == start || p - start > 7) return std::nullopt;
    const int64_t size = std::atoll(std::string(t.substr(start, p - start)).c_str());
    if (size <= 0 || (n *= size) > (int64_t{1} << 24)) return std::nullopt;
    names.push_back(std::move(a));
    sizes.push_back(size);
    skip();
    if (p < t.size() && t[p] == ',') {
      ++p;
      continue;
    }
    if (p < t.size() && t[p] == ']') break;
    return std::nullopt;
  }
  ++p;
  skip();
  if (p >= t.size() || t[p] != '{') return std::nullopt;
  ++p;
  std::vector<size_t> grouped;
  skip();
  while (p < t.size() && t[p] != '}') {
    std::string a;
    if (!name(a)) return std::nullopt;
    auto it = std::find(names.begin(), names.end(), a);
    if (it == names.end()) return std::nullopt;
    const size_t axis = static_cast<size_t>(it - names.begin());
    if (std::find(grouped.begin(), grouped.end(), axis) != grouped.end()) return std::nullopt;
    grouped.push_back(axis);
    skip();
    if (p < t.size() && t[p] == ',') ++p;
    skip();
  }
  if (p >= t.size()) return std::nullopt;
  // The other axes first, then the grouped ones: each run of group-size
  // consecutive positions in that order is one group.
  std::vector<size_t> order;
  for (size_t a = 0; a < sizes.size(); ++a)
    if (std::find(grouped.begin(), grouped.end(), a) == grouped.end()) order.push_back(a);
  order.insert(order.end(), grouped.begin(), grouped.end());
  std::vector<int64_t> stride(sizes.size(), 1);
  for (size_t a = sizes.size() - 1; a > 0; --a) stride[a - 1] = stride[a] * sizes[a];
  int64_t per_group = 1;
  for (size_t a : grouped) per_group *= sizes[a];
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> idx(order.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    if (e % per_group == 0) groups.emplace_back();
    int64_t device = 0;
    for (size_t k = 0; k < order.size(); ++k) device += idx[k] * stride[order[k]];
    groups.back().push_back(device);
    for (size_t k = order.size(); k-- > 0;) {
      if (++idx[k] < sizes[order[k]]) break;
      idx[k] = 0;
    }
  }
  return groups;
}

}  // namespace

namespace {

// Device counts beyond this are read as this (no machine has more; the
// products and the per-device tables below stay small).
constexpr int64_t kMaxCount = int64_t{1} << 20;

int64_t HeaderCount(const Module& m, const char* name) {
  const RawAttr* a = m.FindHeader(name);
  return a ? std::clamp<int64_t>(std::atoll(a->value.c_str()), 1, kMaxCount) : 1;
}

}  // namespace

int64_t ModuleDeviceCount(const Module& m) { return ModulePartitionCount(m) * ModuleReplicaCount(m); }
int64_t ModulePartitionCount(const Module& m) { return HeaderCount(m, "num_partitions"); }
int64_t ModuleReplicaCount(const Module& m) { return HeaderCount(m, "replica_count"); }

std::optional<std::vector<std::vector<int64_t>>> ParseReplicaGroups(std::string_view t) {
  std::vector<std::vector<int64_t>> groups;
  size_t p = 0;
  while (p < t.size() && t[p] == ' ') ++p;
  if (p == t.size()) return groups;
  if (t.substr(p, 5) == "mesh[") return ParseMeshGroups(t, p + 5);
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

CollectiveGroupMode GroupModeOf(const Instruction& i) {
  if (!i.FindRaw("channel_id")) return CollectiveGroupMode::kCrossReplica;
  switch (i.opcode()) {
    case Opcode::kAllReduce:
    case Opcode::kAllReduceStart:
    case Opcode::kAllGather:
    case Opcode::kAllGatherStart:
    case Opcode::kReduceScatter: {
      const RawAttr* global = i.FindRaw("use_global_device_ids");
      return global && global->value == "true" ? CollectiveGroupMode::kFlattenedId
                                               : CollectiveGroupMode::kCrossReplicaAndPartition;
    }
    default: return CollectiveGroupMode::kCrossPartition;
  }
}

StatusOr<std::vector<std::vector<int64_t>>> CollectiveDeviceGroups(const Instruction& i, int64_t replicas,
                                                                   int64_t partitions) {
  const int64_t devices = replicas * partitions;
  if (replicas < 1 || partitions < 1 || devices > kMaxCount)
    return Status::Error("a module of " + std::to_string(replicas) + " x " + std::to_string(partitions) +
                         " devices is more than " + std::to_string(kMaxCount));
  const CollectiveGroupMode mode = GroupModeOf(i);
  std::vector<std::vector<int64_t>> written;
  if (const RawAttr* g = i.FindRaw("replica_groups")) {
    auto parsed = ParseReplicaGroups(g->value);
    if (!parsed) return Status::Error("replica_groups " + g->value + " do not parse");
    written = std::move(*parsed);
  }
  // The id space the groups are written in.
  const int64_t ids = mode == CollectiveGroupMode::kFlattenedId      ? devices
                      : mode == CollectiveGroupMode::kCrossPartition ? partitions
                                                                     : replicas;
  if (written.empty() || (written.size() == 1 && written[0].empty())) {
    written.assign(1, {});
    for (int64_t k = 0; k < ids; ++k) written[0].push_back(k);
  }
  for (const auto& g : written)
    for (int64_t k : g)
      if (k < 0 || k >= ids)
        return Status::Error("replica_groups name id " + std::to_string(k) + " of a module with " +
                                            std::to_string(ids) +
                                            (mode == CollectiveGroupMode::kFlattenedId      ? " devices"
                                             : mode == CollectiveGroupMode::kCrossPartition ? " partitions"
                                                                                            : " replicas"));
  std::vector<std::vector<int64_t>> groups;
  switch (mode) {
    case CollectiveGroupMode::kFlattenedId: groups = written; break;
    case CollectiveGroupMode::kCrossReplica:  // each group once per partition
      for (const auto& g : written)
        for (int64_t p = 0; p < partitions; ++p) {
          auto& out = groups.emplace_back();
          for (int64_t r : g) out.push_back(r * partitions + p);
        }
      break;
    case CollectiveGroupMode::kCrossPartition:  // each group once per replica
      for (const auto& g : written)
        for (int64_t r = 0; r < replicas; ++r) {
          auto& out = groups.emplace_back();
          for (int64_t p : g) out.push_back(r * partitions + p);
        }
      break;
    case CollectiveGroupMode::kCrossReplicaAndPartition:  // the replicas of a group, on every partition
      for (const auto& g : written) {
        auto& out = groups.emplace_back();
        for (int64_t r : g)
          for (int64_t p = 0; p < partitions; ++p) out.push_back(r * partitions + p);
      }
      break;
  }
  std::vector<bool> seen(static_cast<size_t>(devices), false);
  for (const auto& g : groups)
    for (int64_t d : g) {
      if (seen[static_cast<size_t>(d)])
        return Status::Error("replica_groups name device " + std::to_string(d) + " twice");
      seen[static_cast<size_t>(d)] = true;
    }
  return groups;
}

StatusOr<std::vector<int64_t>> PermuteSources(const Instruction& i, int64_t replicas, int64_t partitions) {
  const int64_t devices = replicas * partitions;
  if (replicas < 1 || partitions < 1 || devices > kMaxCount)
    return Status::Error("a module of " + std::to_string(replicas) + " x " + std::to_string(partitions) +
                         " devices is more than " + std::to_string(kMaxCount));
  const bool cross_partition = GroupModeOf(i) == CollectiveGroupMode::kCrossPartition;
  const int64_t ids = cross_partition ? partitions : replicas;
  std::vector<std::vector<int64_t>> pairs;
  if (const RawAttr* a = i.FindRaw("source_target_pairs")) {
    auto parsed = ParseReplicaGroups(a->value);
    if (!parsed) return Status::Error("source_target_pairs " + a->value + " do not parse");
    pairs = std::move(*parsed);
  }
  std::vector<int64_t> source_of_id(static_cast<size_t>(ids), -1);
  std::vector<bool> is_source(static_cast<size_t>(ids), false);
  for (const auto& pr : pairs) {
    if (pr.size() != 2) return Status::Error("a source-target pair has " + std::to_string(pr.size()) + " ids");
    for (int64_t k : pr)
      if (k < 0 || k >= ids)
        return Status::Error("source_target_pairs name id " + std::to_string(k) + " of a module with " +
                                            std::to_string(ids) + (cross_partition ? " partitions" : " replicas"));
    if (source_of_id[static_cast<size_t>(pr[1])] != -1)
      return Status::Error("id " + std::to_string(pr[1]) + " receives from two sources");
    if (is_source[static_cast<size_t>(pr[0])])
      return Status::Error("id " + std::to_string(pr[0]) + " sends to two targets");
    source_of_id[static_cast<size_t>(pr[1])] = pr[0];
    is_source[static_cast<size_t>(pr[0])] = true;
  }
  std::vector<int64_t> source(static_cast<size_t>(devices), -1);
  for (int64_t r = 0; r < replicas; ++r)
    for (int64_t p = 0; p < partitions; ++p) {
      const int64_t from = source_of_id[static_cast<size_t>(cross_partition ? p : r)];
      if (from >= 0) source[static_cast<size_t>(r * partitions + p)] = cross_partition ? r * partitions + from : from * partitions + p;
    }
  return source;
}

namespace {

// all-gather's result over its operand, reduce-scatter's operand over its
// result, along their dimension: the size of their groups (0 when unknown).
int64_t GroupSizeFromShapes(const Instruction& i) {
  const bool gather = i.opcode() == Opcode::kAllGather || i.opcode() == Opcode::kAllGatherStart;
  if (!(gather || i.opcode() == Opcode::kReduceScatter) || i.operand_count() < 1 || i.dimensions().size() != 1)
    return 0;
  // The result of operand 0: the result, the first of a variadic one's, or
  // the first of an all-gather-start's result half ((operands), (results)).
  const Shape* result = &i.shape();
  if (i.opcode() == Opcode::kAllGatherStart && result->IsTuple()) {
    if (result->tuple_size() != 2) return 0;
    result = &result->tuple_shapes()[1];
  }
  if (result->IsTuple()) {
    if (result->tuple_size() < 1) return 0;
    result = &result->tuple_shapes()[0];
    if (result->IsTuple()) return 0;
  }
  const Shape& operand = i.operand(0)->shape();
  const int64_t d = i.dimensions()[0];
  if (operand.IsTuple() || d < 0 || d >= operand.rank() || d >= result->rank()) return 0;
  const int64_t big = gather ? result->dim(static_cast<int>(d)) : operand.dim(static_cast<int>(d));
  const int64_t small = gather ? operand.dim(static_cast<int>(d)) : result->dim(static_cast<int>(d));
  return small > 0 && big % small == 0 ? big / small : 0;
}

}  // namespace

DeviceGrid ModuleDeviceGrid(const Module& m) {
  DeviceGrid g;
  if (m.FindHeader("num_partitions") || m.FindHeader("replica_count")) {
    g.replicas = ModuleReplicaCount(m);
    g.partitions = ModulePartitionCount(m);
    return g;
  }
  int64_t flattened = 1;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) {
      if (!IsCollective(i->opcode())) continue;
      const bool permute =
          i->opcode() == Opcode::kCollectivePermute || i->opcode() == Opcode::kCollectivePermuteStart;
      const RawAttr* a = i->FindRaw(permute ? "source_target_pairs" : "replica_groups");
      auto groups = a ? ParseReplicaGroups(a->value) : std::vector<std::vector<int64_t>>{};
      if (!groups) continue;
      int64_t count = 0;  // the highest id named, plus one
      for (const auto& grp : *groups)
        for (int64_t k : grp) count = std::max(count, k + 1);
      if (count == 0) count = GroupSizeFromShapes(*i);  // every device: as many as the shapes say
      count = std::min(count, kMaxCount);
      switch (GroupModeOf(*i)) {
        case CollectiveGroupMode::kCrossReplica:
        case CollectiveGroupMode::kCrossReplicaAndPartition: g.replicas = std::max(g.replicas, count); break;
        case CollectiveGroupMode::kCrossPartition: g.partitions = std::max(g.partitions, count); break;
        case CollectiveGroupMode::kFlattenedId: flattened = std::max(flattened, count); break;
      }
    }
  // Flattened ids beyond those: partitions, as SPMD partitioning writes them.
  if (g.devices() < flattened) g.partitions = (flattened + g.replicas - 1) / g.replicas;
  // A grid past the limit is clamped; evaluation then refuses it by count.
  if (g.devices() > kMaxCount) g.partitions = std::max<int64_t>(1, kMaxCount / g.replicas);
  return g;
}

}  // namespace hloscope
