// algsimp, reductions and dots: a reduce over no (or only size-1)
// dimensions applies the reducer once, op(init, x); a reduce over zero
// elements is its init value; a reduce of a scalar broadcast is computed on
// the scalar (idempotent reducers: op(init, s); integer add: init + n*s); a
// dot whose contracting dimensions all have size 1 is a multiply of
// broadcasts; an integer dot of two scalar broadcasts is a broadcast of
// a*b*K.
#include <algorithm>

#include "core/passes/algsimp.h"

namespace hloscope::algsimp {
namespace {

bool Idempotent(Opcode op) {
  return op == Opcode::kMaximum || op == Opcode::kMinimum || op == Opcode::kAnd || op == Opcode::kOr;
}

std::vector<int64_t> KeptDims(int rank, const std::vector<int64_t>& reduced) {
  std::vector<int64_t> kept;
  for (int d = 0; d < rank; ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) kept.push_back(d);
  return kept;
}

Outcome Reduce(Rewriter& r, Instruction* instr) {
  if (instr->operand_count() != 2 || instr->shape().IsTuple()) return Outcome::kNone;
  Instruction* x = instr->operand(0);
  Instruction* init = instr->operand(1);
  const Shape& shape = instr->shape();
  const PrimitiveType t = shape.element_type();
  if (x->shape().element_type() != t || init->shape().rank() != 0) return Outcome::kNone;
  if (!DimsInRange(instr->dimensions(), x->shape().rank())) return Outcome::kNone;
  int64_t reduced = 1;
  for (int64_t d : instr->dimensions()) reduced *= x->shape().dim(static_cast<int>(d));
  if (reduced == 0) return r.Replace(r.Broadcast(init, shape), "reduce over zero elements → init");
  std::optional<Opcode> op = ReducerOpcode(instr->to_apply());
  if (!op) return Outcome::kNone;
  const Shape scalar = ShapeLike(shape, t, {});
  // XLA's algsimp: a sum of negated values is the negated sum, the negate
  // then running on the reduced values (the log-softmax gradient's neg on
  // [2,8] instead of [2,8,16]). For a zero init of either sign (the sign of
  // a zero sum may differ; the values compare equal).
  if (*op == Opcode::kAdd && reduced > 1 && x->opcode() == Opcode::kNegate && x->user_count() == 1 &&
      !IsIntegral(t)) {
    std::optional<Literal> z = SplatScalar(init);
    if (z && (IsPositiveZero(*z) || IsNegativeZero(*z))) {
      Instruction* sum = r.Add(Opcode::kReduce, shape, {x->operand(0), init});
      sum->attrs() = instr->attrs();
      sum->mutable_called_refs() = instr->called_refs();
      return r.Replace(r.Add(Opcode::kNegate, shape, {sum}), "reduce-add(negate(x)) → negate(reduce-add(x))");
    }
  }
  if (reduced == 1) {
    // Each output element is op(init, its single input element).
    Instruction* v = x;
    if (x->shape().dims() != shape.dims()) v = r.Add(Opcode::kReshape, ShapeLike(shape, t, shape.dims()), {x});
    Instruction* result = r.Add(*op, shape, {r.Broadcast(init, shape), v});
    return r.Replace(result, "reduce over no (or size-1) dimensions → op(init, x)");
  }
  if (x->opcode() == Opcode::kBroadcast && x->operand(0)->shape().rank() == 0) {
    Instruction* s = x->operand(0);
    if (Idempotent(*op)) {
      Instruction* once = r.Add(*op, scalar, {init, s});
      return r.Replace(r.Broadcast(once, shape), "reduce(broadcast(scalar)) → op(init, scalar) (idempotent op)");
    }
    if (*op == Opcode::kAdd && IsInteger(t)) {
      Instruction* n = r.AddScalar(t, static_cast<double>(reduced));
      Instruction* times = r.Add(Opcode::kMultiply, scalar, {s, n});
      Instruction* sum = r.Add(Opcode::kAdd, scalar, {init, times});
      return r.Replace(r.Broadcast(sum, shape), "reduce-add(broadcast(scalar)) → init + n*scalar (integers)");
    }
  }
  return Outcome::kNone;
}

bool IsPrefix(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// `v` converted to type `t` (no-op when it already has it).
Instruction* ConvertTo(Rewriter& r, Instruction* v, PrimitiveType t) {
  if (v->shape().element_type() == t) return v;
  return r.Add(Opcode::kConvert, ShapeLike(v->shape(), t, v->shape().dims()), {v});
}

Outcome Dot(Rewriter& r, Instruction* instr) {
  if (instr->operand_count() != 2 || !instr->attrs().dot) return Outcome::kNone;
  const DotDnums& dn = *instr->attrs().dot;
  Instruction* lhs = instr->operand(0);
  Instruction* rhs = instr->operand(1);
  const Shape& shape = instr->shape();
  const PrimitiveType t = shape.element_type();
  if (!LosslessConvert(lhs->shape().element_type(), t) || !LosslessConvert(rhs->shape().element_type(), t))
    return Outcome::kNone;
  if (IsComplex(t) || instr->FindRaw("sparsity")) return Outcome::kNone;
  if (!IsPrefix(dn.lhs_batch) || !IsPrefix(dn.rhs_batch) || dn.lhs_batch.size() != dn.rhs_batch.size())
    return Outcome::kNone;
  if (!DimsInRange(dn.lhs_contracting, lhs->shape().rank()) || !DimsInRange(dn.rhs_contracting, rhs->shape().rank()) ||
      !DimsInRange(dn.lhs_batch, lhs->shape().rank()) || !DimsInRange(dn.rhs_batch, rhs->shape().rank()))
    return Outcome::kNone;
  int64_t k = 1;
  for (int64_t d : dn.lhs_contracting) k *= lhs->shape().dim(static_cast<int>(d));

  if (k == 1) {
    // Free dims of each side, in order (batch dims lead).
    const int64_t b = static_cast<int64_t>(dn.lhs_batch.size());
    std::vector<int64_t> lkeep = KeptDims(lhs->shape().rank(), dn.lhs_contracting);
    std::vector<int64_t> rkeep = KeptDims(rhs->shape().rank(), dn.rhs_contracting);
    std::vector<int64_t> ldims, rdims, lmap, rmap;
    for (int64_t d : lkeep) ldims.push_back(lhs->shape().dim(static_cast<int>(d)));
    for (int64_t d : rkeep) rdims.push_back(rhs->shape().dim(static_cast<int>(d)));
    const int64_t lfree = static_cast<int64_t>(lkeep.size()) - b;
    if (lfree < 0 || static_cast<int64_t>(rkeep.size()) < b) return Outcome::kNone;
    for (int64_t i = 0; i < static_cast<int64_t>(lkeep.size()); ++i) lmap.push_back(i);
    for (int64_t i = 0; i < static_cast<int64_t>(rkeep.size()); ++i) rmap.push_back(i < b ? i : i + lfree);
    if (static_cast<int64_t>(lkeep.size() + rkeep.size()) - b != shape.rank()) return Outcome::kNone;
    auto side = [&](Instruction* v, const std::vector<int64_t>& dims, const std::vector<int64_t>& map) {
      v = ConvertTo(r, v, t);
      if (v->shape().dims() != dims) v = r.Add(Opcode::kReshape, ShapeLike(shape, t, dims), {v});
      Instruction* bc = r.Add(Opcode::kBroadcast, shape, {v});
      bc->set_dimensions(map);
      return bc;
    };
    Instruction* l = side(lhs, ldims, lmap);
    Instruction* rr = side(rhs, rdims, rmap);
    return r.Replace(r.Add(Opcode::kMultiply, shape, {l, rr}),
                     "dot with degenerate contracting dimensions → multiply");
  }
  if (IsInteger(t) && lhs->opcode() == Opcode::kBroadcast && rhs->opcode() == Opcode::kBroadcast &&
      lhs->operand(0)->shape().rank() == 0 && rhs->operand(0)->shape().rank() == 0) {
    const Shape scalar = ShapeLike(shape, t, {});
    Instruction* a = ConvertTo(r, lhs->operand(0), t);
    Instruction* c = ConvertTo(r, rhs->operand(0), t);
    Instruction* prod = r.Add(Opcode::kMultiply, scalar, {a, c});
    Instruction* total = r.Add(Opcode::kMultiply, scalar, {prod, r.AddScalar(t, static_cast<double>(k))});
    return r.Replace(r.Broadcast(total, shape), "dot(broadcast(a), broadcast(b)) → broadcast(a*b*K) (integers)");
  }
  return Outcome::kNone;
}

}  // namespace

Outcome SimplifyReductions(Rewriter& r, Instruction* instr) {
  switch (instr->opcode()) {
    case Opcode::kReduce:
      return Reduce(r, instr);
    case Opcode::kDot:
      return Dot(r, instr);
    default:
      return Outcome::kNone;
  }
}

}  // namespace hloscope::algsimp
