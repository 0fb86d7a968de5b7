// reduce-scatter-creator: XLA GPU's ReduceScatterCreator (run in its
// "collective-optimizations" pipeline, before layout assignment and fusion).
//
//   all-reduce(x) → [reshape →] dynamic-slice(·, offsets of this device)
//     ⇒ reduce-scatter(x) [→ reshape]
//
// when every device of every replica group takes, on one split dimension,
// the shard at (its position in the group) × (shard size): what SPMD writes
// for a gradient that each device keeps only a part of. Each device then
// receives only its part of the sum instead of all of it and throwing the
// rest away. The offsets are evaluated per device through constants,
// partition-id / replica-id, table lookups (a dynamic-slice of a constant or
// iota), reshapes, bitcasts, copies, integer converts, clamps and integer
// arithmetic.
#include <algorithm>
#include <map>
#include <optional>

#include "core/ir/collectives.h"
#include "core/passes/collective_passes.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

struct DeviceIds {
  int64_t partition = 0;
  int64_t replica = 0;
};

bool IsInt(PrimitiveType t) { return IsInteger(t); }

// The value `x` takes on the device `ids`, or nullopt when it is not an
// integer scalar this evaluator follows.
std::optional<int64_t> EvalOffset(const Instruction* x, const DeviceIds& ids, int depth) {
  if (depth > 32 || !x->shape().IsArray() || !IsInt(x->shape().element_type()) || x->shape().num_elements() != 1)
    return std::nullopt;
  switch (x->opcode()) {
    case Opcode::kConstant: {
      const Literal* l = KnownLiteral(x);
      if (!l) return std::nullopt;
      return l->GetInt(0);
    }
    case Opcode::kPartitionId: return ids.partition;
    case Opcode::kReplicaId: return ids.replica;
    case Opcode::kReshape:
    case Opcode::kBitcast:
    case Opcode::kCopy:
      return EvalOffset(x->operand(0), ids, depth + 1);
    case Opcode::kConvert: {
      const PrimitiveType from = x->operand(0)->shape().element_type();
      if (!IsInt(from) || BitWidth(from) > BitWidth(x->shape().element_type())) return std::nullopt;
      return EvalOffset(x->operand(0), ids, depth + 1);
    }
    case Opcode::kAdd:
    case Opcode::kSubtract:
    case Opcode::kMultiply: {
      auto a = EvalOffset(x->operand(0), ids, depth + 1);
      auto b = EvalOffset(x->operand(1), ids, depth + 1);
      if (!a || !b) return std::nullopt;
      if (x->opcode() == Opcode::kAdd) return *a + *b;
      if (x->opcode() == Opcode::kSubtract) return *a - *b;
      return *a * *b;
    }
    case Opcode::kClamp: {
      auto lo = EvalOffset(x->operand(0), ids, depth + 1);
      auto v = EvalOffset(x->operand(1), ids, depth + 1);
      auto hi = EvalOffset(x->operand(2), ids, depth + 1);
      if (!lo || !v || !hi || *lo > *hi) return std::nullopt;
      return std::clamp(*v, *lo, *hi);
    }
    case Opcode::kDynamicSlice: {
      // A lookup in a rank-1 table: table[clamp(i, 0, n - 1)].
      const Instruction* table = x->operand(0);
      if (x->operand_count() != 2 || table->shape().rank() != 1) return std::nullopt;
      auto i = EvalOffset(x->operand(1), ids, depth + 1);
      if (!i) return std::nullopt;
      const int64_t n = table->shape().dim(0);
      if (n < 1) return std::nullopt;
      const int64_t at = std::clamp<int64_t>(*i, 0, n - 1);
      if (table->opcode() == Opcode::kIota) return at;
      const Literal* l = KnownLiteral(table);
      if (!l || !IsInt(l->shape().element_type())) return std::nullopt;
      return l->GetInt(at);
    }
    default: return std::nullopt;
  }
}

struct Match {
  Instruction* ar = nullptr;
  Instruction* reshape = nullptr;  // between the all-reduce and the slice, or null
  Instruction* ds = nullptr;
  int64_t split_dim = 0;           // on the all-reduce's dimensions
  int64_t group_size = 0;
};

// The devices of each group, as (partition, replica) pairs in group order,
// or an empty list when the groups cannot be read. Read here on purpose, not
// through CollectiveDeviceGroups (core/ir/collectives.h): the differential
// checker evaluates this pass's rewrite with the interpreter, which reads the
// groups through that function, so a second reading is what lets the check
// catch a wrong one (a shared one would make the rewrite and its check agree
// on the same mistake).
std::vector<std::vector<DeviceIds>> GroupDevices(const Instruction& ar, const Module& m) {
  std::vector<std::vector<int64_t>> groups;
  if (const RawAttr* g = ar.FindRaw("replica_groups")) {
    auto parsed = ParseReplicaGroups(g->value);
    if (!parsed) return {};
    groups = std::move(*parsed);
  }
  const bool channel = ar.FindRaw("channel_id") != nullptr;
  const RawAttr* global = ar.FindRaw("use_global_device_ids");
  const bool global_ids = global && global->value == "true";
  int64_t partitions = 1, replicas = 1;
  const RawAttr* hp = m.FindHeader("num_partitions");
  const RawAttr* hr = m.FindHeader("replica_count");
  if (hp) partitions = std::max<int64_t>(1, std::atoll(hp->value.c_str()));
  if (hr) replicas = std::max<int64_t>(1, std::atoll(hr->value.c_str()));
  if (!hp && !hr && channel && global_ids) {
    // No device counts in the header (a dump of an SPMD module often has
    // none): the groups name the devices, all of them partitions, as SPMD
    // partitioning writes them (and as the module is compiled for them).
    for (const auto& g : groups)
      for (int64_t d : g) partitions = std::max(partitions, d + 1);
  }
  std::vector<std::vector<DeviceIds>> out;
  if (!channel) {  // cross-replica: groups of replica ids, in every partition
    if (groups.empty()) {
      groups.emplace_back();
      for (int64_t r = 0; r < replicas; ++r) groups.back().push_back(r);
    }
    for (int64_t p = 0; p < partitions; ++p)
      for (const auto& g : groups) {
        out.emplace_back();
        for (int64_t r : g) out.back().push_back({p, r});
      }
  } else if (global_ids) {  // flattened ids: replica × partitions + partition
    if (groups.empty()) return {};
    for (const auto& g : groups) {
      out.emplace_back();
      for (int64_t d : g) out.back().push_back({d % partitions, d / partitions});
    }
  } else {  // cross-replica-and-partition: every partition of one replica
    if (!groups.empty()) {
      for (const auto& g : groups)
        if (g.size() != 1) return {};
      if (static_cast<int64_t>(groups.size()) != replicas) return {};
    }
    for (int64_t r = 0; r < replicas; ++r) {
      out.emplace_back();
      for (int64_t p = 0; p < partitions; ++p) out.back().push_back({p, r});
    }
  }
  return out;
}

std::optional<Match> MatchReduceScatter(Instruction* ar, const Module& m) {
  if (ar->operand_count() != 1 || !ar->shape().IsArray() || ar->user_count() != 1 || !ar->to_apply()) return std::nullopt;
  if (const RawAttr* c = ar->FindRaw("constrain_layout"); c && c->value == "true") return std::nullopt;
  if (!ar->control_predecessors().empty() || !ar->control_successors().empty()) return std::nullopt;
  int64_t non_degenerate = 0;
  for (int64_t d : ar->shape().dims()) non_degenerate += d != 1;
  if (non_degenerate < 1) return std::nullopt;
  Match mt;
  mt.ar = ar;
  Instruction* user = ar->users()[0];
  if (user->opcode() == Opcode::kReshape) {
    if (user->user_count() != 1) return std::nullopt;
    mt.reshape = user;
    user = user->users()[0];
  }
  if (user->opcode() != Opcode::kDynamicSlice || user->operand(0) != (mt.reshape ? mt.reshape : ar)) return std::nullopt;
  mt.ds = user;
  const Shape& in = user->operand(0)->shape();
  const Shape& out = user->shape();
  if (in.rank() != out.rank() || user->operand_count() != 1 + in.rank()) return std::nullopt;
  // The split dimension: the one dimension the slice shortens.
  std::vector<int64_t> split;
  for (int d = 0; d < in.rank(); ++d)
    if (in.dim(d) != out.dim(d)) split.push_back(d);
  if (split.size() != 1) return std::nullopt;
  const int64_t sd = split[0];
  const int64_t slice = out.dim(static_cast<int>(sd));
  if (slice <= 0) return std::nullopt;
  auto groups = GroupDevices(*ar, m);
  if (groups.empty()) return std::nullopt;
  const size_t gs = groups[0].size();
  for (const auto& g : groups)
    if (g.size() != gs) return std::nullopt;
  if (gs < 2 || in.dim(static_cast<int>(sd)) / slice != static_cast<int64_t>(gs)) return std::nullopt;
  const Instruction* offset = user->operand(static_cast<int>(1 + sd));
  for (const auto& g : groups)
    for (size_t j = 0; j < g.size(); ++j) {
      auto v = EvalOffset(offset, g[j], 0);
      if (!v || *v != slice * static_cast<int64_t>(j)) return std::nullopt;
    }
  // Through a reshape the split dimension must be one the reshape keeps.
  int64_t ar_dim = sd;
  if (mt.reshape) {
    const auto& a = ar->shape().dims();
    const auto& b = in.dims();
    // Element counts before the dimension and its size must agree.
    int64_t before_b = 1;
    for (int64_t d = 0; d < sd; ++d) before_b *= b[static_cast<size_t>(d)];
    int64_t before_a = 1;
    ar_dim = -1;
    for (size_t d = 0; d < a.size(); ++d) {
      if (before_a == before_b && a[d] == b[static_cast<size_t>(sd)]) {
        int64_t after_a = 1, after_b = 1;
        for (size_t e = d + 1; e < a.size(); ++e) after_a *= a[e];
        for (size_t e = static_cast<size_t>(sd) + 1; e < b.size(); ++e) after_b *= b[e];
        if (after_a == after_b) ar_dim = static_cast<int64_t>(d);
        break;
      }
      before_a *= a[d];
      if (before_a > before_b) break;
    }
    if (ar_dim < 0) return std::nullopt;
    if (ar->shape().has_layout() && !ar->shape().layout().minor_to_major.empty() && in.has_layout() &&
        !in.layout().minor_to_major.empty()) {
      // Keep to row-major reshapes (a bitcast-free view is what XLA's check
      // of an unmodified dimension amounts to on default layouts).
      if (ar->shape().layout().minor_to_major != Shape::DefaultLayout(ar->shape().rank()).minor_to_major ||
          in.layout().minor_to_major != Shape::DefaultLayout(in.rank()).minor_to_major)
        return std::nullopt;
    }
  }
  mt.split_dim = ar_dim;
  mt.group_size = static_cast<int64_t>(gs);
  return mt;
}

int64_t MaxChannelId(const Module& m) {
  int64_t mx = 0;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (const RawAttr* ch = i->FindRaw("channel_id")) mx = std::max<int64_t>(mx, std::atoll(ch->value.c_str()));
  return mx;
}

class ReduceScatterCreatorPass : public Pass {
 public:
  std::string_view name() const override { return "reduce-scatter-creator"; }
  std::string_view description() const override {
    return "An all-reduce whose only use is a dynamic-slice taking each device's own shard becomes a "
           "reduce-scatter (XLA GPU's ReduceScatterCreator): every device receives only its part of the sum.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    int64_t next_channel = -1;
    for (Computation* comp : NonFusionComputations(module)) {
      std::vector<Instruction*> ars;
      for (Instruction* i : comp->MakePostOrder())
        if (i->opcode() == Opcode::kAllReduce) ars.push_back(i);
      for (Instruction* ar : ars) {
        auto mt = MatchReduceScatter(ar, module);
        if (!mt) continue;
        if (next_channel < 0) next_channel = MaxChannelId(module) + 1;
        Instruction* input = ar->operand(0);
        const int64_t sd = mt->split_dim;
        const int64_t split = ar->shape().dim(static_cast<int>(sd));
        const int64_t shard = split / mt->group_size;
        if (split % mt->group_size != 0) {
          // Drop the tail no device takes, so that the shards divide.
          std::vector<int64_t> dims = input->shape().dims();
          dims[static_cast<size_t>(sd)] = shard * mt->group_size;
          Shape s = input->shape();
          s.mutable_dims() = dims;
          Instruction* cut = AddNew(comp, ar, Opcode::kSlice, s, {input});
          std::vector<SliceDim> sl(dims.size());
          for (size_t d = 0; d < dims.size(); ++d) sl[d] = {0, dims[d], 1};
          cut->attrs().slice = std::move(sl);
          cut->attrs().mark(Attr::kSlice);
          input = cut;
        }
        Shape rs_shape = ar->shape();
        rs_shape.mutable_dims()[static_cast<size_t>(sd)] = shard;
        Instruction* rs = AddNew(comp, ar, Opcode::kReduceScatter, rs_shape, {input});
        if (ar->FindRaw("channel_id")) rs->SetRaw("channel_id", std::to_string(next_channel++));
        if (const RawAttr* g = ar->FindRaw("replica_groups")) rs->SetRaw("replica_groups", g->value);
        rs->set_dimensions({sd});
        if (const RawAttr* u = ar->FindRaw("use_global_device_ids")) rs->SetRaw("use_global_device_ids", u->value);
        if (const RawAttr* b = ar->FindRaw("backend_config")) rs->SetRaw("backend_config", b->value);
        rs->SetCalled("to_apply", ar->to_apply());
        CopyMetadataIfMissing(*ar, *rs);
        Instruction* result = rs;
        if (mt->reshape) {
          result = AddNew(comp, mt->ds, Opcode::kReshape, mt->ds->shape(), {rs});
          CopyMetadataIfMissing(*mt->reshape, *result);
        }
        Instruction* ds = mt->ds;
        Instruction* reshape = mt->reshape;
        ReplaceInstruction(ds, result, mutable_log(), "all-reduce → dynamic-slice ⇒ reduce-scatter");
        if (reshape && reshape->user_count() == 0) comp->RemoveInstruction(reshape);
        mutable_log().Replaced(*ar, *rs);
        if (ar->user_count() == 0 && !ar->IsRoot()) comp->RemoveInstruction(ar);
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeReduceScatterCreatorPass() { return std::make_unique<ReduceScatterCreatorPass>(); }

}  // namespace hloscope
