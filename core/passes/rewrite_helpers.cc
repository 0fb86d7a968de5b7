#include "core/passes/rewrite_helpers.h"

#include <cmath>
#include <cstring>

namespace hloscope {

Shape ShapeLike(const Shape& like, PrimitiveType type, std::vector<int64_t> dims) {
  Shape s(type, std::move(dims));
  if (like.has_layout()) s.set_layout(Shape::DefaultLayout(s.rank()));
  return s;
}

Instruction* AddNew(Computation* comp, Instruction* before, Opcode op, Shape shape,
                    const std::vector<Instruction*>& operands) {
  Module* m = comp->parent();
  std::string name = m ? m->UniqueName(OpcodeName(op)) : std::string(OpcodeName(op));
  auto instr = std::make_unique<Instruction>(op, std::move(shape), std::move(name));
  for (Instruction* o : operands) instr->AppendOperand(o);
  return comp->AddInstructionBefore(std::move(instr), before);
}

Instruction* AddConstant(Computation* comp, Instruction* before, Literal literal) {
  Shape shape = literal.shape();
  Instruction* c = AddNew(comp, before, Opcode::kConstant, shape, {});
  c->set_literal(std::make_unique<Literal>(std::move(literal)));
  return c;
}

Instruction* AddScalarConstant(Computation* comp, Instruction* before, PrimitiveType type, double value) {
  Literal lit(Shape::Scalar(type));
  if (IsFloat(type) || IsComplex(type)) {
    lit.SetDouble(0, value);
  } else {
    lit.SetInt(0, static_cast<int64_t>(value));
  }
  return AddConstant(comp, before, std::move(lit));
}

Instruction* AddBroadcastScalar(Computation* comp, Instruction* before, Instruction* scalar, const Shape& shape) {
  Instruction* b = AddNew(comp, before, Opcode::kBroadcast, shape, {scalar});
  b->set_dimensions({});
  return b;
}

Computation* AddScalarAddComputation(Module& m, PrimitiveType type, Computation* before) {
  return AddScalarComputation(m, Opcode::kAdd, type, before);
}

Computation* AddScalarComputation(Module& m, Opcode op, PrimitiveType type, Computation* before) {
  const std::string base(op == Opcode::kAdd ? "add" : OpcodeName(op));
  Computation* c = m.AddComputationBefore(std::make_unique<Computation>(m.UniqueComputationName(base)), before);
  const Shape s(type, {});
  Instruction* params[2];
  for (int i = 0; i < 2; ++i) {
    auto p = std::make_unique<Instruction>(Opcode::kParameter, s, m.UniqueName(i == 0 ? "lhs" : "rhs"));
    p->set_parameter_number(i);
    params[i] = c->AddInstruction(std::move(p));
  }
  c->RebuildParameters();
  auto r = std::make_unique<Instruction>(op, s, m.UniqueName(base));
  r->AppendOperand(params[0]);
  r->AppendOperand(params[1]);
  c->set_root(c->AddInstruction(std::move(r)));
  return c;
}

bool RewriteEach(Module& m, const std::function<bool(const Instruction&)>& pick,
                 const std::function<bool(Computation*, Instruction*)>& rewrite) {
  std::vector<std::pair<Computation*, Instruction*>> found;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (pick(*i)) found.emplace_back(c.get(), i.get());
  bool changed = false;
  for (auto [comp, instr] : found) changed |= rewrite(comp, instr);
  return changed;
}

void CopyMetadataIfMissing(const Instruction& from, Instruction& to) {
  if (!to.metadata().empty()) return;
  if (!from.metadata().empty()) {
    to.metadata() = from.metadata();
  } else if (to.id() > from.id() && from.id() >= 0 && from.opcode() != Opcode::kParameter) {
    // A new instruction made from one that carries no metadata names it, as
    // XLA's do (XLA gives every instruction of a module it reads from text
    // its own name as op_name, and a replacement takes the metadata of what
    // it replaces): multiply.40 made from div.230 says op_name="div.230".
    to.metadata().Add("op_name", "\"" + from.name() + "\"");
  }
}

void ReplaceInstruction(Instruction* old, Instruction* now, PassLog& log, std::string_view rule) {
  log.Record(rule, *old);
  log.Replaced(*old, *now);
  CopyMetadataIfMissing(*old, *now);
  for (Instruction* p : std::vector<Instruction*>(old->control_predecessors()))
    if (p != now) p->AddControlDependencyTo(now);
  for (Instruction* s : std::vector<Instruction*>(old->control_successors()))
    if (s != now) now->AddControlDependencyTo(s);
  old->ReplaceAllUsesWith(now);
  if (old->user_count() == 0 && !old->IsRoot()) old->parent()->RemoveInstruction(old);
}

const Literal* KnownLiteral(const Instruction* instr) {
  if (instr->opcode() != Opcode::kConstant) return nullptr;
  const Literal* l = instr->literal();
  if (!l || l->elided() || !l->shape().IsArray()) return nullptr;
  return l;
}

Literal ScalarElement(const Literal& l, int64_t i) {
  // Literal::Splat copies the first stored element without expanding `l`.
  if (l.is_splat()) return Literal::Splat(Shape::Scalar(l.shape().element_type()), l);
  Literal s(Shape::Scalar(l.shape().element_type()));
  std::memcpy(s.raw(), l.raw() + i * l.element_bytes(), l.element_bytes());
  return s;
}

bool AllElementsEqual(const Literal& l) {
  if (!l.shape().IsArray() || l.num_elements() == 0) return false;
  if (l.is_splat() || l.num_elements() == 1) return true;
  const int eb = l.element_bytes();
  const uint8_t* raw = l.raw();
  for (int64_t i = 1; i < l.num_elements(); ++i)
    if (std::memcmp(raw, raw + i * eb, eb) != 0) return false;
  return true;
}

std::optional<Literal> SplatScalar(const Instruction* instr) {
  for (int depth = 0; depth < 8; ++depth) {
    switch (instr->opcode()) {
      case Opcode::kBroadcast:
      case Opcode::kReshape:
      case Opcode::kCopy:
      case Opcode::kTranspose:
      case Opcode::kBitcast:
        if (instr->operand_count() != 1) return std::nullopt;
        if (instr->opcode() == Opcode::kBitcast &&
            instr->shape().element_type() != instr->operand(0)->shape().element_type())
          return std::nullopt;
        instr = instr->operand(0);
        continue;
      case Opcode::kConstant: {
        const Literal* l = KnownLiteral(instr);
        if (!l || !AllElementsEqual(*l)) return std::nullopt;
        return ScalarElement(*l, 0);
      }
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

bool IsPositiveZero(const Literal& s) {
  PrimitiveType t = s.shape().element_type();
  if (t == PrimitiveType::kPred) return s.GetInt(0) == 0;
  if (IsComplex(t)) {
    auto c = s.GetComplex(0);
    return c == std::complex<double>(0, 0) && !std::signbit(c.real()) && !std::signbit(c.imag());
  }
  if (IsFloat(t)) {
    double v = s.GetDouble(0);
    return v == 0 && !std::signbit(v);
  }
  return s.GetInt(0) == 0;
}

bool IsNegativeZero(const Literal& s) {
  PrimitiveType t = s.shape().element_type();
  if (!IsFloat(t)) return false;
  double v = s.GetDouble(0);
  return v == 0 && std::signbit(v);
}

bool IsZeroValue(const Literal& s) {
  PrimitiveType t = s.shape().element_type();
  if (t == PrimitiveType::kPred) return false;
  if (IsComplex(t)) return s.GetComplex(0) == std::complex<double>(0, 0);
  if (IsFloat(t)) return s.GetDouble(0) == 0;
  return s.GetInt(0) == 0;
}

bool IsOneValue(const Literal& s) {
  PrimitiveType t = s.shape().element_type();
  if (t == PrimitiveType::kPred) return s.GetInt(0) != 0;
  if (IsComplex(t)) return s.GetComplex(0) == std::complex<double>(1, 0);
  if (IsFloat(t)) return s.GetDouble(0) == 1;
  return s.GetInt(0) == 1;
}

bool IsMinusOneValue(const Literal& s) {
  PrimitiveType t = s.shape().element_type();
  if (IsFloat(t)) return s.GetDouble(0) == -1;
  if (IsSignedInt(t)) return s.GetInt(0) == -1;
  return false;
}

bool IsAllOnesValue(const Literal& s) {
  PrimitiveType t = s.shape().element_type();
  if (t == PrimitiveType::kPred) return s.GetInt(0) != 0;
  if (!IsInteger(t)) return false;
  int bits = BitWidth(t);
  uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  return (static_cast<uint64_t>(s.GetInt(0)) & mask) == mask;
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

bool IsReshapeableElementwise(const Instruction& i) {
  if (!IsElementwise(i.opcode()) || i.opcode() == Opcode::kCopy || i.opcode() == Opcode::kBitcastConvert)
    return false;
  if (!IsStaticArray(i.shape()) || i.operand_count() == 0 || i.HasSideEffect()) return false;
  return i.called_refs().empty() && i.control_predecessors().empty() && i.control_successors().empty();
}

bool IsStaticArray(const Shape& s) {
  if (!s.IsArray() || s.IsDynamic()) return false;
  for (int64_t d : s.dims())
    if (d < 0) return false;
  return true;
}

bool ShapesInterchangeable(const Shape& a, const Shape& b) {
  if (!a.Compatible(b)) return false;
  if (a.IsTuple()) {
    for (int i = 0; i < a.tuple_size(); ++i)
      if (!ShapesInterchangeable(a.tuple_shapes()[i], b.tuple_shapes()[i])) return false;
    return true;
  }
  if (a.IsDynamic() != b.IsDynamic()) return false;
  if (a.IsDynamic() && a.dynamic_dims() != b.dynamic_dims()) return false;
  if (a.has_layout() && b.has_layout()) return a.layout() == b.layout();
  return true;
}

}  // namespace hloscope
