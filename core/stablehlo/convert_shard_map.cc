// sdy.manual_computation, what JAX writes for shard_map: a body that runs on
// every device of a mesh on its own shards. Converted in place, as the SPMD
// partitioner would leave it on each device (all of the mesh's axes manual):
//
//   each operand: this device's shard, a dynamic-slice of the global value at
//     (its index along the dimension's axes) × (the shard's size), the index
//     read from partition-id (the mesh row-major over the devices);
//   the body's ops, with the shards for its arguments;
//   each result: the shards put together again, an all-gather along each
//     sharded dimension over the devices of its axes (HLO's mesh groups),
//     so every device holds the global value.
//
// A mesh with explicit device ids, sub-axes, or axes left automatic (a
// partly manual computation) is refused as UNSUPPORTED.
#include <cctype>

#include "core/stablehlo/convert_internal.h"

namespace hloscope::mlir {
namespace {

// One value's sharding, `<@mesh, [{"x"}, {"y", "z"}, {}]>`: the axes of each
// dimension, major first.
struct Sharding {
  std::string mesh;
  std::vector<std::vector<std::string>> dims;
};

// The `<...>` entries of in_shardings / out_shardings.
StatusOr<std::vector<Sharding>> ParseShardings(const std::string& text) {
  std::vector<Sharding> out;
  size_t p = 0;
  while ((p = text.find('<', p)) != std::string::npos) {
    int depth = 0;
    size_t q = p;
    for (; q < text.size(); ++q) {
      if (text[q] == '<') ++depth;
      if (text[q] == '>' && --depth == 0) break;
    }
    if (q >= text.size()) return Error("unbalanced sharding: " + text);
    const std::string one = text.substr(p + 1, q - p - 1);
    p = q + 1;
    Sharding s;
    const size_t at = one.find('@');
    const size_t comma = one.find(',');
    if (at == std::string::npos || comma == std::string::npos) return Error("sharding without a mesh: <" + one + ">");
    s.mesh = one.substr(at + 1, comma - at - 1);
    while (!s.mesh.empty() && std::isspace(static_cast<unsigned char>(s.mesh.back()))) s.mesh.pop_back();
    const size_t open = one.find('[', comma);
    const size_t close = one.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close < open)
      return Error("sharding without dimensions: <" + one + ">");
    const std::string dims = one.substr(open + 1, close - open - 1);
    for (size_t d = dims.find('{'); d != std::string::npos; d = dims.find('{', d)) {
      const size_t e = dims.find('}', d);
      if (e == std::string::npos) return Error("unbalanced sharding: <" + one + ">");
      const std::string axes = dims.substr(d + 1, e - d - 1);
      if (axes.find(':') != std::string::npos) return Unsupported("sharding with sub-axes: <" + one + ">");
      auto& list = s.dims.emplace_back();
      for (size_t a = axes.find('"'); a != std::string::npos; a = axes.find('"', a)) {
        const size_t b = axes.find('"', a + 1);
        if (b == std::string::npos) break;
        list.push_back(axes.substr(a + 1, b - a - 1));
        a = b + 1;
      }
      d = e + 1;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Status Converter::ConvertManualComputation(const Op& op, Scope& s) {
  const Attr* in_attr = op.FindAttr("in_shardings");
  const Attr* out_attr = op.FindAttr("out_shardings");
  const Attr* manual = op.FindAttr("manual_axes");
  if (!in_attr || !out_attr || !manual || op.regions.size() != 1 || op.regions[0]->blocks.size() != 1)
    return Error(Where(op) + "sdy.manual_computation: expected in_shardings, out_shardings, manual_axes and one region");
  ASSIGN_OR_RETURN(std::vector<Sharding> ins, ParseShardings(in_attr->s));
  ASSIGN_OR_RETURN(std::vector<Sharding> outs, ParseShardings(out_attr->s));
  const Block& body = op.regions[0]->blocks[0];
  if (ins.size() != op.operands.size() || body.args.size() != op.operands.size() || outs.size() != op.results.size())
    return Error(Where(op) + "sdy.manual_computation: shardings, operands, block arguments and results disagree in number");
  if (ins.empty() && outs.empty()) return Error(Where(op) + "sdy.manual_computation: no mesh");
  const std::string mesh_name = !ins.empty() ? ins[0].mesh : outs[0].mesh;
  ASSIGN_OR_RETURN(MeshAxes mesh, FindMesh(ast_, mesh_name));
  for (const std::string& a : mesh.names)
    if (manual->s.find("\"" + a + "\"") == std::string::npos)
      return Unsupported("sdy.manual_computation with axis \"" + a + "\" left automatic (only fully manual ones are read)");
  for (const auto* list : {&ins, &outs})
    for (const Sharding& sh : *list)
      if (sh.mesh != mesh_name) return Unsupported("sdy.manual_computation over several meshes");
  const int64_t devices = mesh.devices();
  if (const RawAttr* h = m_->FindHeader("num_partitions"); !h && devices > 1)
    m_->SetHeader("num_partitions", std::to_string(devices));

  auto s32 = [&](int64_t v) {
    Instruction* c = Add(s, Opcode::kConstant, Shape(PrimitiveType::kS32, {}), {}, &op);
    auto lit = std::make_unique<Literal>(Shape(PrimitiveType::kS32, {}));
    lit->SetInt(0, v);
    c->set_literal(std::move(lit));
    return c;
  };
  auto binary = [&](Opcode o, Instruction* a, Instruction* b) {
    return Add(s, o, Shape(PrimitiveType::kS32, {}), {a, b}, &op);
  };
  // This device's coordinate along each mesh axis, from partition-id.
  std::vector<Instruction*> coord(mesh.names.size(), nullptr);
  auto coordinate = [&](int axis) -> Instruction* {
    if (coord[static_cast<size_t>(axis)]) return coord[static_cast<size_t>(axis)];
    Instruction* pid = Add(s, Opcode::kPartitionId, Shape(PrimitiveType::kU32, {}), {}, &op);
    Instruction* id = Add(s, Opcode::kConvert, Shape(PrimitiveType::kS32, {}), {pid}, &op);
    int64_t stride = 1;
    for (size_t k = static_cast<size_t>(axis) + 1; k < mesh.sizes.size(); ++k) stride *= mesh.sizes[k];
    Instruction* c = binary(Opcode::kRemainder, binary(Opcode::kDivide, id, s32(stride)), s32(mesh.sizes[static_cast<size_t>(axis)]));
    coord[static_cast<size_t>(axis)] = c;
    return c;
  };
  auto axes_of = [&](const std::vector<std::string>& names) -> StatusOr<std::vector<int>> {
    std::vector<int> out;
    for (const std::string& n : names) {
      const int k = mesh.Find(n);
      if (k < 0) return Error(Where(op) + "sdy.manual_computation: axis \"" + n + "\" of no mesh @" + mesh_name);
      out.push_back(k);
    }
    return out;
  };

  // The shards.
  for (size_t k = 0; k < op.operands.size(); ++k) {
    ASSIGN_OR_RETURN(Instruction* global, Lookup(s, op.operands[k]));
    ASSIGN_OR_RETURN(Shape local, ShapeFromType(body.args[k].second));
    const Shape& g = global->shape();
    if (!g.IsArray() || !local.IsArray() || g.rank() != local.rank() ||
        static_cast<int>(ins[k].dims.size()) != g.rank())
      return Error(Where(op) + "sdy.manual_computation: operand " + std::to_string(k) + " " + g.ToString(false) +
                   " and its shard " + local.ToString(false) + " disagree with its sharding");
    std::vector<Instruction*> starts;
    bool sliced = false;
    for (int d = 0; d < g.rank(); ++d) {
      ASSIGN_OR_RETURN(std::vector<int> axes, axes_of(ins[k].dims[static_cast<size_t>(d)]));
      int64_t parts = 1;
      Instruction* index = nullptr;
      for (int a : axes) {
        parts *= mesh.sizes[static_cast<size_t>(a)];
        index = index ? binary(Opcode::kAdd, binary(Opcode::kMultiply, index, s32(mesh.sizes[static_cast<size_t>(a)])),
                               coordinate(a))
                      : coordinate(a);
      }
      if (g.dim(d) != local.dim(d) * parts)
        return Error(Where(op) + "sdy.manual_computation: dimension " + std::to_string(d) + " of " + g.ToString(false) +
                     " is not " + std::to_string(parts) + " shards of " + std::to_string(local.dim(d)));
      starts.push_back(index ? binary(Opcode::kMultiply, index, s32(local.dim(d))) : s32(0));
      sliced |= index != nullptr;
    }
    Instruction* shard = global;
    if (sliced) {
      std::vector<Instruction*> operands = {global};
      operands.insert(operands.end(), starts.begin(), starts.end());
      shard = Add(s, Opcode::kDynamicSlice, local, operands, &op);
      shard->attrs().dynamic_slice_sizes = local.dims();
      shard->attrs().mark(::hloscope::Attr::kDynamicSliceSizes);
    }
    s.vals[body.args[k].first] = shard;
  }
  // The body, in place.
  std::vector<Instruction*> returned;
  RETURN_IF_ERROR(ConvertOps(body, s, &returned));
  if (returned.size() != op.results.size())
    return Error(Where(op) + "sdy.manual_computation: the body returns " + std::to_string(returned.size()) +
                 " values for " + std::to_string(op.results.size()) + " results");
  // The global values, gathered from the shards.
  for (size_t j = 0; j < returned.size(); ++j) {
    Instruction* v = returned[j];
    if (!v->shape().IsArray() || static_cast<int>(outs[j].dims.size()) != v->shape().rank())
      return Error(Where(op) + "sdy.manual_computation: result " + std::to_string(j) + " disagrees with its sharding");
    for (int d = 0; d < v->shape().rank(); ++d) {
      const auto& names = outs[j].dims[static_cast<size_t>(d)];
      if (names.empty()) continue;
      ASSIGN_OR_RETURN(std::vector<int> axes, axes_of(names));
      int64_t parts = 1;
      for (int a : axes) parts *= mesh.sizes[static_cast<size_t>(a)];
      Shape wide = v->shape();
      wide.mutable_dims()[static_cast<size_t>(d)] *= parts;
      wide.set_layout(std::nullopt);
      Instruction* g = Add(s, Opcode::kAllGather, wide, {v}, &op);
      g->set_dimensions({d});
      g->SetRaw("channel_id", std::to_string(next_channel_++));
      g->SetRaw("replica_groups", HloMeshGroups(mesh, names));
      g->SetRaw("use_global_device_ids", "true");
      v = g;
    }
    ASSIGN_OR_RETURN(Shape want, ShapeFromType(op.result_types.size() == op.results.size() ? op.result_types[j]
                                                                                           : op.result_types.back()));
    if (!want.SameDims(v->shape()))
      return Error(Where(op) + "sdy.manual_computation: result " + std::to_string(j) + " gathers to " +
                   v->shape().ToString(false) + ", declared " + want.ToString(false));
    s.vals[op.results[j]] = v;
  }
  return Status::Ok();
}

}  // namespace hloscope::mlir
