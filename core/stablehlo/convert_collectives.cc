// StableHLO's collectives as HLO (what JAX's shard_map and pmap lower to):
// all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute,
// collective_broadcast, partition_id and replica_id. The attributes map as
// XLA's importer maps them: replica_groups dense<[[...]]> (-1 pads a short
// group and is dropped), a channel_handle with a non-zero handle becomes
// channel_id (handle 0: none, the cross-replica form),
// use_global_device_ids. An all_to_all whose split and concat dimensions
// differ becomes what XLA's builder makes of it: the operand sliced into
// split_count pieces along split_dimension, a tuple all-to-all of the
// pieces, and the pieces received concatenated along concat_dimension.
#include <algorithm>
#include <cctype>
#include <iterator>

#include "core/stablehlo/convert_internal.h"

namespace hloscope::mlir {
namespace {

const Attr* Named(const Op& op, const char* name) { return op.FindAttr(name); }

// `{{0,1},{2,3}}` from dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>; HLO's mesh
// form from #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "y">]>.
StatusOr<std::string> GroupsText(const Converter& c, const Op& op, const char* attr) {
  const Attr* a = Named(op, attr);
  if (!a) return std::string();
  if (a->kind == Attr::kHash && a->s.find("replica_group_mesh_axes") != std::string::npos) {
    const std::string& t = a->raw;
    const size_t at = t.find('@');
    if (at == std::string::npos) return Error(std::string(attr) + " names no mesh: " + t);
    size_t end = at + 1;
    while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_' || t[end] == '.')) ++end;
    ASSIGN_OR_RETURN(MeshAxes mesh, FindMesh(c.ast_, t.substr(at + 1, end - at - 1)));
    if (t.find("sub_axis") != std::string::npos) return Unsupported(std::string(attr) + " with sub-axes: " + t);
    std::vector<std::string> axes;
    for (size_t p = t.find("name = \""); p != std::string::npos; p = t.find("name = \"", p)) {
      p += 8;
      const size_t q = t.find('"', p);
      if (q == std::string::npos) break;
      axes.push_back(t.substr(p, q - p));
      if (mesh.Find(axes.back()) < 0) return Error(std::string(attr) + " names axis " + axes.back() + " of no mesh");
      p = q + 1;
    }
    return HloMeshGroups(mesh, axes);
  }
  std::vector<int64_t> ids;
  if (!a->Ints(&ids)) return Error(std::string(attr) + " is not a list of integers: " + a->raw);
  int64_t groups = 1, size = static_cast<int64_t>(ids.size());
  if (a->type && a->type->dims.size() == 2) {
    groups = a->type->dims[0];
    size = a->type->dims[1];
    if (groups < 0 || size < 0) return Error(std::string(attr) + " of unknown shape: " + a->raw);
    if (ids.size() == 1 && groups * size > 1) ids.assign(static_cast<size_t>(groups * size), ids[0]);  // a splat
    if (static_cast<int64_t>(ids.size()) != groups * size)
      return Error(std::string(attr) + " holds " + std::to_string(ids.size()) + " ids for a " +
                   std::to_string(groups) + "x" + std::to_string(size) + " shape");
  }
  std::string text = "{";
  for (int64_t g = 0; g < groups; ++g) {
    std::string one;
    for (int64_t k = 0; k < size; ++k) {
      const int64_t id = ids[static_cast<size_t>(g * size + k)];
      if (id < 0) continue;  // padding of a shorter group
      one += (one.empty() ? "" : ",") + std::to_string(id);
    }
    text += (g ? ",{" : "{") + one + "}";
  }
  return text + "}";
}

// channel_id (0: none) from #stablehlo.channel_handle<handle = H, type = T>.
int64_t ChannelOf(const Op& op) {
  const Attr* a = Named(op, "channel_handle");
  if (!a) return 0;
  if (const Attr* h = a->Field("handle")) return h->i;
  return a->kind == Attr::kInt ? a->i : 0;
}

bool UnitOrTrue(const Op& op, const char* name) {
  const Attr* a = Named(op, name);
  return a && (a->kind == Attr::kUnit || ((a->kind == Attr::kBool || a->kind == Attr::kInt) && a->i != 0));
}

int64_t IntAttr(const Op& op, const char* name, int64_t fallback) {
  const Attr* a = Named(op, name);
  return a && a->kind == Attr::kInt ? a->i : fallback;
}

}  // namespace

int64_t MeshAxes::devices() const {
  int64_t n = 1;
  for (int64_t k : sizes) n *= k;
  return n;
}

int MeshAxes::Find(const std::string& axis) const {
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == axis) return static_cast<int>(k);
  return -1;
}

StatusOr<MeshAxes> FindMesh(const ModuleAst& ast, std::string name) {
  if (!name.empty() && name[0] == '@') name = name.substr(1);
  for (const auto& [n, text] : ast.meshes) {
    if (n != name && n != "@" + name) continue;
    if (text.find("device_ids") != std::string::npos) return Unsupported("mesh @" + name + " with device_ids");
    MeshAxes m;
    // ["x"=2, "y"=4]
    for (size_t p = text.find('"'); p != std::string::npos; p = text.find('"', p)) {
      const size_t q = text.find('"', p + 1);
      if (q == std::string::npos) break;
      const size_t eq = text.find('=', q);
      if (eq == std::string::npos) break;
      m.names.push_back(text.substr(p + 1, q - p - 1));
      m.sizes.push_back(std::max<int64_t>(1, std::atoll(text.c_str() + eq + 1)));
      if (m.sizes.back() > (int64_t{1} << 20)) return Error("mesh @" + name + ": axis of " + text.substr(eq + 1));
      p = eq + 1;
    }
    return m;
  }
  return Error("no sdy.mesh @" + name);
}

std::string HloMeshGroups(const MeshAxes& mesh, const std::vector<std::string>& axes) {
  std::string s = "mesh[";
  for (size_t k = 0; k < mesh.names.size(); ++k)
    s += (k ? "," : "") + std::string("'") + mesh.names[k] + "'=" + std::to_string(mesh.sizes[k]);
  s += "] {";
  for (size_t k = 0; k < axes.size(); ++k) s += (k ? "," : "") + std::string("'") + axes[k] + "'";
  return s + "}";
}

Status ConvertCollective(Converter& c, const Op& op, Converter::Scope& s, const std::string& name,
                         const std::vector<Instruction*>& in, const Shape& out, Instruction** result, bool* handled) {
  static const char* kNames[] = {"all_reduce",         "all_gather",    "reduce_scatter", "all_to_all",
                                 "collective_permute", "collective_broadcast", "partition_id", "replica_id"};
  if (std::find(std::begin(kNames), std::end(kNames), name) == std::end(kNames)) return Status::Ok();
  *handled = true;
  if (name == "partition_id" || name == "replica_id") {
    *result = c.Add(s, name == "partition_id" ? Opcode::kPartitionId : Opcode::kReplicaId, out, {}, &op);
    return Status::Ok();
  }
  if (in.empty()) return Error(c.Where(op) + op.name + ": expected operands");
  const int64_t channel = ChannelOf(op);
  auto common = [&](Instruction* i, bool groups_attr) -> Status {
    if (channel > 0) i->SetRaw("channel_id", std::to_string(channel));
    if (groups_attr) {
      ASSIGN_OR_RETURN(std::string groups, GroupsText(c, op, "replica_groups"));
      if (!groups.empty()) i->SetRaw("replica_groups", groups);
    }
    if (UnitOrTrue(op, "use_global_device_ids")) i->SetRaw("use_global_device_ids", "true");
    return Status::Ok();
  };
  auto reducer = [&](Instruction* i) -> Status {
    if (op.regions.empty()) return Error(c.Where(op) + op.name + ": missing the reduction region");
    ASSIGN_OR_RETURN(Computation * body, c.ConvertRegion(*op.regions[0], &s, name + "_body", false, &op));
    i->SetCalled("to_apply", body);
    return Status::Ok();
  };
  if (name == "all_reduce") {
    Instruction* i = c.Add(s, Opcode::kAllReduce, out, in, &op);
    RETURN_IF_ERROR(common(i, true));
    RETURN_IF_ERROR(reducer(i));
    *result = i;
    return Status::Ok();
  }
  if (name == "all_gather" || name == "reduce_scatter") {
    const bool gather = name == "all_gather";
    const int64_t dim = IntAttr(op, gather ? "all_gather_dim" : "scatter_dimension", -1);
    if (dim < 0) return Error(c.Where(op) + op.name + ": missing " + (gather ? "all_gather_dim" : "scatter_dimension"));
    Instruction* i = c.Add(s, gather ? Opcode::kAllGather : Opcode::kReduceScatter, out, in, &op);
    i->set_dimensions({dim});
    RETURN_IF_ERROR(common(i, true));
    if (!gather) RETURN_IF_ERROR(reducer(i));
    *result = i;
    return Status::Ok();
  }
  if (name == "collective_broadcast") {
    if (Named(op, "has_dynamic_root"))
      return Unsupported("collective_broadcast with has_dynamic_root (HLO's collective-broadcast has no root operand)");
    Instruction* i = c.Add(s, Opcode::kCollectiveBroadcast, out, in, &op);
    RETURN_IF_ERROR(common(i, true));
    *result = i;
    return Status::Ok();
  }
  if (name == "collective_permute") {
    Instruction* i = c.Add(s, Opcode::kCollectivePermute, out, in, &op);
    RETURN_IF_ERROR(common(i, false));
    ASSIGN_OR_RETURN(std::string pairs, GroupsText(c, op, "source_target_pairs"));
    i->SetRaw("source_target_pairs", pairs.empty() ? "{}" : pairs);
    *result = i;
    return Status::Ok();
  }
  // all_to_all, one operand at a time.
  const int64_t split = IntAttr(op, "split_dimension", -1), concat = IntAttr(op, "concat_dimension", -1);
  const int64_t count = IntAttr(op, "split_count", -1);
  if (split < 0 || concat < 0 || count < 1)
    return Error(c.Where(op) + op.name + ": needs split_dimension, concat_dimension and split_count");
  std::vector<Instruction*> results;
  for (size_t k = 0; k < in.size(); ++k) {
    Instruction* x = in[k];
    const Shape& xs = x->shape();
    const Shape& rs = out.IsTuple() ? out.tuple_shapes()[k] : out;
    if (!xs.IsArray() || split >= xs.rank() || concat >= xs.rank() || xs.dim(static_cast<int>(split)) % count != 0)
      return Error(c.Where(op) + op.name + ": dimension " + std::to_string(split) + " of " + xs.ToString(false) +
                   " does not split into " + std::to_string(count) + " pieces");
    if (split == concat) {
      Instruction* i = c.Add(s, Opcode::kAllToAll, rs, {x}, &op);
      i->set_dimensions({split});
      RETURN_IF_ERROR(common(i, true));
      results.push_back(i);
      continue;
    }
    const int64_t piece = xs.dim(static_cast<int>(split)) / count;
    Shape ps = xs;
    ps.mutable_dims()[static_cast<size_t>(split)] = piece;
    ps.set_layout(std::nullopt);
    std::vector<Instruction*> pieces;
    std::vector<Shape> piece_shapes;
    for (int64_t p = 0; p < count; ++p) {
      Instruction* sl = c.Add(s, Opcode::kSlice, ps, {x}, &op);
      std::vector<SliceDim> dims;
      for (int d = 0; d < xs.rank(); ++d)
        dims.push_back(d == split ? SliceDim{p * piece, (p + 1) * piece, 1} : SliceDim{0, xs.dim(d), 1});
      sl->attrs().slice = dims;
      sl->attrs().mark(::hloscope::Attr::kSlice);
      pieces.push_back(sl);
      piece_shapes.push_back(ps);
    }
    Instruction* a2a = c.Add(s, Opcode::kAllToAll, Shape::Tuple(piece_shapes), pieces, &op);
    RETURN_IF_ERROR(common(a2a, true));
    std::vector<Instruction*> received;
    for (int64_t p = 0; p < count; ++p) {
      Instruction* g = c.Add(s, Opcode::kGetTupleElement, ps, {a2a}, &op);
      g->attrs().index = p;
      g->attrs().mark(::hloscope::Attr::kIndex);
      received.push_back(g);
    }
    Instruction* cat = c.Add(s, Opcode::kConcatenate, rs, received, &op);
    cat->set_dimensions({concat});
    results.push_back(cat);
  }
  if (results.size() == 1) {
    *result = results[0];
  } else {
    std::vector<Shape> shapes;
    for (Instruction* r : results) shapes.push_back(r->shape());
    *result = c.Add(s, Opcode::kTuple, Shape::Tuple(shapes), results, &op);
  }
  return Status::Ok();
}

}  // namespace hloscope::mlir
