// The random module generator's collectives (members of the Gen class of
// random_module_internal.h): on the module's one device, where each returns
// its operand and exercises `gpu`'s combiners and the collective thunks, or
// across 2 or 4 partitions (sometimes on 2 replicas), with iota or explicit
// replica groups, which the CPU run executes on one thread per device.
#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/fuzz/random_module_internal.h"

namespace hloscope::fuzz::internal {

// The module's first collective picks its devices: one (60%), or 2 or 4
// partitions, sometimes on 2 replicas.
bool Gen::Collective(Body& b) {
  if (!b.entry || b.fixed) return false;
  if (devices() == 0) {
    partitions_ = replicas_ = 1;
    if (rng_.Chance(40)) {
      partitions_ = rng_.Chance(50) ? 2 : 4;
      if (rng_.Chance(25)) replicas_ = 2;
    }
  }
  return devices() == 1 ? OneDeviceCollective(b) : MultiDeviceCollective(b);
}

// A collective on the module's one device (no replica groups, or groups of
// device 0 alone): all-reduce, all-gather or reduce-scatter, whose value is
// its operand's. They exercise the combiners and all-reduce-contiguous of
// `gpu` (which the interpreter then checks) and the collective thunks.
bool Gen::OneDeviceCollective(Body& b) {
  // One to three of one kind and attributes, as a training step has them
  // (so that the combiners find groups).
  const int64_t kind = rng_.Range(0, 9);
  static const char* kGroups[] = {"replica_groups={}", "replica_groups={{0}}", "replica_groups=[1,1]<=[1]"};
  std::string attrs = kGroups[rng_.Range(0, 2)];
  if (attrs != "replica_groups={}" && rng_.Chance(50))
    attrs = "channel_id=" + std::to_string(rng_.Range(1, 4)) + ", " + attrs + ", use_global_device_ids=true";
  const bool use_max = rng_.Chance(30);
  const int64_t count = rng_.Range(1, 3);
  bool built = false;
  for (int64_t n = 0; n < count; ++n) {
    int a = Pick(b, [&](const Val& v) { return kind < 5 || !v.dims.empty(); });  // gathers and scatters need a dimension
    if (a < 0) break;
    Val va = b.vals[static_cast<size_t>(a)];
    const std::string reducer = va.type == T::kPred ? (use_max ? "and" : "or") : (use_max ? "maximum" : "add");
    if (kind < 5) {
      Emit(b, va.type, va.dims, va.layout, "all-reduce",
           "all-reduce(" + Use(b, a) + "), " + attrs + ", to_apply=" + ScalarComputation(reducer, va.type));
    } else {
      const std::string dim = std::to_string(rng_.Range(0, static_cast<int64_t>(va.dims.size()) - 1));
      if (kind < 8)
        Emit(b, va.type, va.dims, va.layout, "all-gather",
             "all-gather(" + Use(b, a) + "), " + attrs + ", dimensions={" + dim + "}");
      else
        Emit(b, va.type, va.dims, va.layout, "reduce-scatter",
             "reduce-scatter(" + Use(b, a) + "), " + attrs + ", dimensions={" + dim + "}, to_apply=" +
                 ScalarComputation(reducer, va.type));
    }
    built = true;
  }
  return built;
}

namespace {

// replica_groups (with channel_id and use_global_device_ids as the form
// needs) and the size of every group they make.
struct Groups {
  std::string attrs;
  int64_t size = 1;
};

std::string Iota(int64_t groups, int64_t size, const std::string& from) {
  return "replica_groups=[" + std::to_string(groups) + "," + std::to_string(size) + "]<=" + from;
}

std::string Explicit(const std::vector<std::vector<int64_t>>& groups) {
  std::string s = "replica_groups={";
  for (size_t g = 0; g < groups.size(); ++g) {
    s += g ? ",{" : "{";
    for (size_t k = 0; k < groups[g].size(); ++k) s += (k ? "," : "") + std::to_string(groups[g][k]);
    s += "}";
  }
  return s + "}";
}

}  // namespace

// Several devices: every form of replica_groups XLA writes (flattened ids,
// iota with and without a transpose, explicit lists in any order, replicas
// with or without their partitions), each collective with groups of one
// size, and the shapes that size makes: all-reduce (now and then as
// all-reduce-start/-done), all-gather, reduce-scatter, all-to-all,
// collective-permute, collective-broadcast, partition-id and replica-id in
// arithmetic, and SPMD's all-reduce followed by a dynamic-slice at this
// device's offset, which reduce-scatter-creator turns into a reduce-scatter.
bool Gen::MultiDeviceCollective(Body& b) {
  const int64_t n = devices(), parts = partitions_, reps = replicas_;
  std::string channel = "channel_id=" + std::to_string(rng_.Range(1, 6)) + ", ";
  // Groups for all-reduce, all-gather and reduce-scatter.
  auto reduce_groups = [&]() -> Groups {
    const int64_t form = rng_.Range(0, 5);
    const std::string global = ", use_global_device_ids=true";
    const std::string all = "[" + std::to_string(n) + "]";
    switch (form) {
      case 0: return {channel + Iota(1, n, all) + global, n};
      case 1: return {channel + Iota(n / 2, 2, all) + global, 2};
      case 2:  // pairs across the halves: {0, n/2}, {1, n/2 + 1}, ...
        return {channel + Iota(n / 2, 2, "[2," + std::to_string(n / 2) + "]T(1,0)") + global, 2};
      case 3: {  // every device, in a shuffled order
        std::vector<int64_t> g(static_cast<size_t>(n));
        for (int64_t d = 0; d < n; ++d) g[static_cast<size_t>(d)] = d;
        for (size_t i = g.size(); i > 1; --i) std::swap(g[i - 1], g[static_cast<size_t>(rng_.Range(0, i - 1))]);
        return {channel + Explicit({g}) + global, n};
      }
      case 4:  // no channel: groups of replicas, on each partition by itself
        return {"replica_groups={}", reps};
      default:  // a channel without global ids: the replicas with all their partitions
        if (reps == 2 && rng_.Chance(50)) return {channel + "replica_groups={{0},{1}}", parts};
        return {channel + "replica_groups={}", n};
    }
  };
  // Groups of partitions, for all-to-all and collective-broadcast.
  auto partition_groups = [&]() -> Groups {
    if (parts >= 4 && rng_.Chance(40)) return {channel + Iota(parts / 2, 2, "[" + std::to_string(parts) + "]"), 2};
    std::vector<int64_t> g(static_cast<size_t>(parts));
    for (int64_t p = 0; p < parts; ++p) g[static_cast<size_t>(p)] = p;
    if (rng_.Chance(40)) std::swap(g[0], g[static_cast<size_t>(rng_.Range(1, parts - 1))]);
    return {channel + Explicit({g}), parts};
  };
  auto reducer = [&](T t) { return ScalarComputation(t == T::kPred ? "or" : rng_.Chance(30) ? "maximum" : "add", t); };
  // A device id (partition-id or replica-id) as an s32 scalar value.
  auto device_id = [&](const std::string& which) {
    const std::string id = Name(which);
    b.lines.push_back("  " + id + " = u32[] " + which + "()");
    return Emit(b, T::kS32, {}, {}, "convert", "convert(" + id + ")");
  };

  const int64_t kind = rng_.Range(0, 11);
  if (kind <= 3) {  // all-reduce: one to three alike (the combiners' food)
    const Groups g = reduce_groups();
    const bool async = kind == 3;
    const int64_t count = rng_.Range(1, 3);
    bool built = false;
    for (int64_t c = 0; c < count; ++c) {
      const int a = PickArray(b);
      if (a < 0) break;
      const Val va = b.vals[static_cast<size_t>(a)];
      const std::string rhs = "(" + Use(b, a) + "), " + g.attrs + ", to_apply=" + reducer(va.type);
      if (async) {
        const int s = Emit(b, va.type, va.dims, va.layout, "all-reduce-start", "all-reduce-start" + rhs);
        Emit(b, va.type, va.dims, va.layout, "all-reduce-done", "all-reduce-done(" + Use(b, s) + ")");
      } else {
        Emit(b, va.type, va.dims, va.layout, "all-reduce", "all-reduce" + rhs);
      }
      built = true;
    }
    return built;
  }
  if (kind <= 6) {  // all-gather, reduce-scatter, all-to-all along one dimension
    const int a = Pick(b, [](const Val& v) { return !v.dims.empty(); });
    if (a < 0) return false;
    const Val va = b.vals[static_cast<size_t>(a)];
    const size_t d = static_cast<size_t>(rng_.Range(0, static_cast<int64_t>(va.dims.size()) - 1));
    const Groups g = kind == 6 ? partition_groups() : reduce_groups();
    Dims wide = va.dims;
    wide[d] *= g.size;
    const Dims want = wide;
    Fit(wide);
    if (wide != want) return false;  // too large
    const std::string dim = ", dimensions={" + std::to_string(d) + "}";
    if (kind == 4) {
      Emit(b, va.type, wide, va.layout, "all-gather", "all-gather(" + Use(b, a) + "), " + g.attrs + dim);
    } else if (kind == 5) {
      const int w = GetOrMake(b, va.type, wide, &va.layout);
      Emit(b, va.type, va.dims, va.layout, "reduce-scatter",
           "reduce-scatter(" + Use(b, w) + "), " + g.attrs + dim + ", to_apply=" + reducer(va.type));
    } else {
      const int w = GetOrMake(b, va.type, wide, &va.layout);
      Emit(b, va.type, wide, va.layout, "all-to-all", "all-to-all(" + Use(b, w) + "), " + g.attrs + dim);
    }
    return true;
  }
  if (kind == 7) {  // collective-permute: partitions shifted (with a channel) or replicas swapped
    const int a = PickArray(b);
    if (a < 0) return false;
    const Val va = b.vals[static_cast<size_t>(a)];
    std::string pairs;
    if (reps == 2 && rng_.Chance(30)) {
      pairs = "source_target_pairs={{0,1}" + std::string(rng_.Chance(50) ? ",{1,0}" : "") + "}";
    } else {
      const int64_t shift = rng_.Range(1, parts - 1);
      for (int64_t p = 0; p < parts; ++p)
        if (p == 0 || rng_.Chance(80))
          pairs += (pairs.empty() ? "" : ",") + std::string("{") + std::to_string(p) + "," +
                   std::to_string((p + shift) % parts) + "}";
      pairs = channel + "source_target_pairs={" + pairs + "}";
    }
    Emit(b, va.type, va.dims, va.layout, "collective-permute", "collective-permute(" + Use(b, a) + "), " + pairs);
    return true;
  }
  if (kind == 8) {  // collective-broadcast: the group's first device's value
    const int a = PickArray(b);
    if (a < 0) return false;
    const Val va = b.vals[static_cast<size_t>(a)];
    Emit(b, va.type, va.dims, va.layout, "collective-broadcast",
         "collective-broadcast(" + Use(b, a) + "), " + partition_groups().attrs);
    return true;
  }
  if (kind == 9) {  // a device id in arithmetic
    const int id = device_id(rng_.Chance(70) || reps == 1 ? "partition-id" : "replica-id");
    const int a = Pick(b, [](const Val& v) { return v.type == T::kS32 || IsFloat(v.type); });
    if (a < 0) return true;
    const Val va = b.vals[static_cast<size_t>(a)];
    int x = id;
    if (va.type != T::kS32) x = Emit(b, va.type, {}, {}, "convert", "convert(" + Use(b, id) + ")");
    const int wide =
        va.dims.empty() ? x : Emit(b, va.type, va.dims, va.layout, "broadcast", "broadcast(" + Use(b, x) + "), dimensions={}");
    std::string ua = Use(b, a), uw = Use(b, wide);
    Emit(b, va.type, va.dims, va.layout, "add", "add(" + ua + ", " + uw + ")");
    return true;
  }
  // SPMD's sharded sum: all-reduce over every device in order, then each
  // device's shard at (replica × partitions + partition) × shard.
  const int a = Pick(b, [](const Val& v) { return !v.dims.empty() && v.type != T::kPred; });
  if (a < 0) return false;
  const Val va = b.vals[static_cast<size_t>(a)];
  Dims wide = va.dims;
  wide[0] *= n;
  const Dims want = wide;
  Fit(wide);
  if (wide != want) return false;  // too large
  const Dims layout = DefaultLayout(wide.size());
  const int w = GetOrMake(b, va.type, wide, &layout);
  const int ar = Emit(b, va.type, wide, layout, "all-reduce",
                      "all-reduce(" + Use(b, w) + "), " + channel + Iota(1, n, "[" + std::to_string(n) + "]") +
                          ", use_global_device_ids=true, to_apply=" + reducer(va.type));
  int index = device_id("partition-id");
  if (reps > 1) {
    const int r = device_id("replica-id");
    const std::string p = Const(b, T::kS32, std::to_string(parts));
    const int rp = Emit(b, T::kS32, {}, {}, "multiply", "multiply(" + Use(b, r) + ", " + p + ")");
    std::string ur = Use(b, rp), ui = Use(b, index);
    index = Emit(b, T::kS32, {}, {}, "add", "add(" + ur + ", " + ui + ")");
  }
  const std::string shard = Const(b, T::kS32, std::to_string(va.dims[0]));
  const int offset = Emit(b, T::kS32, {}, {}, "multiply", "multiply(" + Use(b, index) + ", " + shard + ")");
  std::string starts = ", " + Use(b, offset);
  const std::string zero = Const(b, T::kS32, "0");
  for (size_t k = 1; k < va.dims.size(); ++k) starts += ", " + zero;
  std::string uar = Use(b, ar);
  Emit(b, va.type, va.dims, layout, "dynamic-slice",
       "dynamic-slice(" + uar + starts + "), dynamic_slice_sizes={" + Join(va.dims) + "}");
  return true;
}

}  // namespace hloscope::fuzz::internal
