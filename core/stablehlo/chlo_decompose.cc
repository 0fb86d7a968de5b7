// chlo ops: those HLO has directly are mapped; a few are decomposed into HLO ops.
#include "core/stablehlo/convert_internal.h"

namespace hloscope::mlir {

Status Converter::ConvertChlo(const Op& op, Scope& s, const std::vector<Instruction*>& in, const Shape& out,
                              Instruction** result) {
  std::string n = op.name.substr(5);
  static const std::pair<const char*, Opcode> kDirect[] = {
      {"erf", Opcode::kErf},     {"tan", Opcode::kTan},     {"acos", Opcode::kAcos},   {"acosh", Opcode::kAcosh},
      {"asin", Opcode::kAsin},   {"asinh", Opcode::kAsinh}, {"atanh", Opcode::kAtanh}, {"cosh", Opcode::kCosh},
      {"sinh", Opcode::kSinh},
  };
  for (const auto& [name, opc] : kDirect) {
    if (n == name) {
      *result = Add(s, opc, out, in, &op);
      return Status::Ok();
    }
  }
  if (n == "scan") {
    // chlo.scan(inputs) inits (carries) dimension=d {region}: HLO's scan op
    // (what XLA's importer writes; the region returns the outputs' slices,
    // then the new carries).
    const Attr* carries = op.FindAttr("num_carries");
    const Attr* dim = op.FindAttr("dimension");
    if (!carries || !dim || dim->kind != Attr::kInt) return Error("chlo.scan needs inits (...) and dimension = N");
    if (op.regions.size() != 1) return Error("chlo.scan needs one region");
    ASSIGN_OR_RETURN(Computation * body, ConvertRegion(*op.regions[0], &s, "scan_body", false, &op));
    Instruction* i = Add(s, Opcode::kScan, out, in, &op);
    i->set_dimensions({dim->i});
    i->SetRaw("num_carries", std::to_string(carries->i));
    auto flag = [&](const char* name) {
      const Attr* a = op.FindAttr(name);
      return a && (((a->kind == Attr::kBool || a->kind == Attr::kInt) && a->i != 0) || a->raw == "true");
    };
    if (flag("is_reverse")) i->SetRaw("is_reverse", "true");
    if (flag("is_associative")) i->SetRaw("is_associative", "true");
    i->SetCalled("to_apply", body);
    *result = i;
    return Status::Ok();
  }
  if (n == "top_k" && in.size() == 1) {  // HLO's topk(x), k=K, largest=true
    const Attr* k = op.FindAttr("k");
    if (!k || k->kind != Attr::kInt) return Error("chlo.top_k needs k = N");
    Instruction* t = Add(s, Opcode::kTopK, out, in, &op);
    t->SetRaw("k", std::to_string(k->i));
    t->SetRaw("largest", "true");
    *result = t;
    return Status::Ok();
  }
  if (n == "ragged_dot" && in.size() == 3) {  // HLO's ragged-dot (what JAX lowers jax.lax.ragged_dot to for GPUs)
    const Attr* g = op.FindAttr("ragged_dot_dimension_numbers");
    if (!g) return Error("chlo.ragged_dot needs ragged_dot_dimension_numbers");
    auto ints = [&](const char* field) {
      std::vector<int64_t> v;
      if (const Attr* f = g->Field(field)) f->Ints(&v);
      return v;
    };
    auto d = std::make_unique<DotDnums>();
    d->lhs_batch = ints("lhs_batching_dimensions");
    d->rhs_batch = ints("rhs_batching_dimensions");
    d->lhs_contracting = ints("lhs_contracting_dimensions");
    d->rhs_contracting = ints("rhs_contracting_dimensions");
    Instruction* r = Add(s, Opcode::kRaggedDot, out, in, &op);
    r->attrs().dot = std::move(d);
    r->attrs().mark(::hloscope::Attr::kDotDims);
    r->SetRaw("lhs_ragged_dims", IntListBraced(ints("lhs_ragged_dimensions")));
    if (std::vector<int64_t> groups = ints("rhs_group_dimensions"); !groups.empty())
      r->SetRaw("rhs_group_dims", IntListBraced(groups));
    *result = r;
    return Status::Ok();
  }
  if (n == "square" && in.size() == 1) {
    *result = Add(s, Opcode::kMultiply, out, {in[0], in[0]}, &op);
    return Status::Ok();
  }
  if (n == "atan" && in.size() == 1) {  // atan(x) = atan2(x, 1)
    Literal one(Shape::Scalar(out.element_type()));
    if (IsComplex(out.element_type())) return Unsupported("chlo.atan of complex");
    one.SetDouble(0, 1.0);
    Instruction* c = Add(s, Opcode::kConstant, Shape::Scalar(out.element_type()), {}, &op);
    c->set_literal(std::make_unique<Literal>(std::move(one)));
    Instruction* b = Add(s, Opcode::kBroadcast, out, {c}, &op);
    b->set_dimensions({});
    *result = Add(s, Opcode::kAtan2, out, {in[0], b}, &op);
    return Status::Ok();
  }
  if (n == "erfc" && in.size() == 1) {  // erfc(x) = 1 - erf(x), for real floating-point x
    if (!IsFloat(out.element_type())) return Unsupported("chlo.erfc of a non-real type");
    Literal one(Shape::Scalar(out.element_type()));
    one.SetDouble(0, 1.0);
    Instruction* c = Add(s, Opcode::kConstant, Shape::Scalar(out.element_type()), {}, &op);
    c->set_literal(std::make_unique<Literal>(std::move(one)));
    Instruction* b = Add(s, Opcode::kBroadcast, out, {c}, &op);
    b->set_dimensions({});
    Instruction* e = Add(s, Opcode::kErf, out, {in[0]}, &op);
    *result = Add(s, Opcode::kSubtract, out, {b, e}, &op);
    return Status::Ok();
  }
  bool handled = false;
  RETURN_IF_ERROR(DecomposeSpecialChlo(*this, op, s, in, out, result, &handled));
  if (handled) return Status::Ok();
  if (n == "broadcast_add" || n == "broadcast_multiply" || n == "broadcast_subtract") {
    return Unsupported("op " + op.name);
  }
  return Unsupported("op " + op.name);
}

}  // namespace hloscope::mlir
