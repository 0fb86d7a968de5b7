// algsimp, shapes: reshape, transpose, broadcast, copy, bitcast, reverse and
// iota. Identities (to the same shape, identity permutation), compositions
// (reshape(reshape), transpose(transpose), broadcast(broadcast),
// bitcast(bitcast)), moving data movement onto scalar broadcasts and iotas
// (which can take any shape). An array constant whose elements are all equal
// becomes broadcast(scalar constant), as in XLA: the reverse (a broadcast of
// a constant spelled out as an array) would make fusion read a full-size
// constant from memory instead of one scalar.
#include <algorithm>

#include "core/passes/algsimp.h"

namespace hloscope::algsimp {
namespace {

bool IsScalarBroadcast(const Instruction* i) {
  return i->opcode() == Opcode::kBroadcast && i->operand(0)->shape().rank() == 0;
}

std::vector<int64_t> Inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[perm[i]] = static_cast<int64_t>(i);
  return inv;
}

bool IsIdentity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

bool StrictlyIncreasing(const std::vector<int64_t>& v) {
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] <= v[i - 1]) return false;
  return true;
}

Instruction* NewIota(Rewriter& r, const Shape& shape, int64_t dim) {
  Instruction* iota = r.Add(Opcode::kIota, shape, {});
  iota->attrs().iota_dimension = dim;
  iota->attrs().mark(Attr::kIotaDimension);
  return iota;
}

// Broadcast of a scalar to the current instruction's shape.
Outcome ScalarBroadcastTo(Rewriter& r, Instruction* instr, Instruction* broadcast, std::string_view rule) {
  Instruction* b = r.Broadcast(broadcast->operand(0), instr->shape());
  return r.Replace(b, rule);
}

// The iota dimension of `iota` seen through a reshape that only adds or
// removes dimensions of size 1; -1 if it is not such a reshape.
int64_t IotaDimThroughReshape(const Instruction& iota, const Shape& out) {
  const auto& in = iota.shape().dims();
  int64_t d = iota.attrs().iota_dimension;
  if (d < 0 || d >= iota.shape().rank() || in[d] == 1) return -1;
  std::vector<int64_t> in_big, out_big, out_pos;
  int64_t rank_of_d = -1;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == 1) continue;
    if (static_cast<int64_t>(i) == d) rank_of_d = static_cast<int64_t>(in_big.size());
    in_big.push_back(in[i]);
  }
  for (int i = 0; i < out.rank(); ++i) {
    if (out.dim(i) == 1) continue;
    out_big.push_back(out.dim(i));
    out_pos.push_back(i);
  }
  if (in_big != out_big || rank_of_d < 0) return -1;
  return out_pos[rank_of_d];
}

Outcome Reshape(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  if (x->shape().dims() == instr->shape().dims()) return r.Replace(x, "reshape to the same shape → x");
  if (x->opcode() == Opcode::kReshape) {
    instr->ReplaceOperand(0, x->operand(0));
    return r.Modified("reshape(reshape(x)) → reshape(x)");
  }
  if (IsScalarBroadcast(x)) return ScalarBroadcastTo(r, instr, x, "reshape(broadcast(scalar)) → broadcast(scalar)");
  if (x->opcode() == Opcode::kBroadcast && std::is_sorted(x->dimensions().begin(), x->dimensions().end())) {
    std::optional<std::vector<int64_t>> dims =
        ReshapeLeavesDimensionsUnmodified(x->shape().dims(), instr->shape().dims(), x->dimensions());
    if (dims) {
      Instruction* b = r.Add(Opcode::kBroadcast, instr->shape(), {x->operand(0)});
      b->set_dimensions(*dims);
      return r.Replace(b, "reshape(broadcast(x)) → broadcast(x): the reshape leaves x's dims whole");
    }
  }
  if (x->opcode() == Opcode::kIota) {
    int64_t d = IotaDimThroughReshape(*x, instr->shape());
    if (d >= 0) return r.Replace(NewIota(r, instr->shape(), d), "iota folding: reshape(iota) → iota");
  }
  return Outcome::kNone;
}

Outcome Transpose(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  const std::vector<int64_t>& perm = instr->dimensions();
  if (!IsPermutation(perm) || static_cast<int>(perm.size()) != instr->shape().rank()) return Outcome::kNone;
  if (IsIdentity(perm)) return r.Replace(x, "identity transpose → x");
  if (x->opcode() == Opcode::kTranspose && IsPermutation(x->dimensions()) && x->dimensions().size() == perm.size()) {
    const std::vector<int64_t>& inner = x->dimensions();
    std::vector<int64_t> composed(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) composed[i] = inner[perm[i]];
    instr->ReplaceOperand(0, x->operand(0));
    instr->set_dimensions(composed);
    return r.Modified("transpose(transpose(x)) → transpose(x)");
  }
  if (x->opcode() == Opcode::kBroadcast && DimsInRange(x->dimensions(), static_cast<int>(perm.size()))) {
    std::vector<int64_t> inv = Inverse(perm);
    std::vector<int64_t> dims;
    for (int64_t d : x->dimensions()) dims.push_back(inv[d]);
    if (StrictlyIncreasing(dims)) {
      Instruction* b = r.Add(Opcode::kBroadcast, instr->shape(), {x->operand(0)});
      b->set_dimensions(dims);
      return r.Replace(b, "transpose(broadcast(x)) → broadcast(x)");
    }
  }
  if (x->opcode() == Opcode::kIota && DimsInRange({x->attrs().iota_dimension}, static_cast<int>(perm.size()))) {
    int64_t d = Inverse(perm)[x->attrs().iota_dimension];
    return r.Replace(NewIota(r, instr->shape(), d), "iota folding: transpose(iota) → iota");
  }
  return Outcome::kNone;
}

Outcome Broadcast(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  const std::vector<int64_t>& dims = instr->dimensions();
  if (static_cast<int>(dims.size()) != x->shape().rank() || !DimsInRange(dims, instr->shape().rank()))
    return Outcome::kNone;
  if (x->shape().dims() == instr->shape().dims() && IsIdentity(dims))
    return r.Replace(x, "broadcast to the same shape → x");
  if (x->opcode() == Opcode::kBroadcast && DimsInRange(x->dimensions(), static_cast<int>(dims.size()))) {
    std::vector<int64_t> composed;
    for (int64_t d : x->dimensions()) composed.push_back(dims[d]);
    instr->ReplaceOperand(0, x->operand(0));
    instr->set_dimensions(composed);
    return r.Modified("broadcast(broadcast(x)) → broadcast(x)");
  }
  if (x->opcode() == Opcode::kIota && DimsInRange({x->attrs().iota_dimension}, static_cast<int>(dims.size()))) {
    int64_t d = dims[x->attrs().iota_dimension];
    return r.Replace(NewIota(r, instr->shape(), d), "iota folding: broadcast(iota) → iota");
  }
  return Outcome::kNone;
}

// constant({v, v, ...}) → broadcast(constant(v)) (XLA's HandleConstant).
Outcome Constant(Rewriter& r, Instruction* instr) {
  const Literal* l = KnownLiteral(instr);
  if (!l || ElementCount(instr->shape().dims()) <= 1 || !AllElementsEqual(*l)) return Outcome::kNone;
  Instruction* scalar = r.AddScalarLiteral(ScalarElement(*l, 0));
  return r.Replace(r.Broadcast(scalar, instr->shape()), "constant with equal elements → broadcast(scalar)");
}

Outcome Iota(Rewriter& r, Instruction* instr) {
  int64_t d = instr->attrs().iota_dimension;
  if (DimsInRange({d}, instr->shape().rank()) && instr->shape().dim(static_cast<int>(d)) == 1) {
    return r.Replace(r.Filled(instr->shape().element_type(), 0, instr->shape()),
                     "iota folding: iota over a size-1 dimension → zeros");
  }
  return Outcome::kNone;
}

Outcome Reverse(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  if (!DimsInRange(instr->dimensions(), instr->shape().rank())) return Outcome::kNone;
  bool trivial = true;
  for (int64_t d : instr->dimensions())
    if (instr->shape().dim(static_cast<int>(d)) != 1) trivial = false;
  if (trivial) return r.Replace(x, "reverse of size-1 dimensions → x");
  if (x->opcode() == Opcode::kReverse) {
    std::vector<int64_t> a = instr->dimensions(), b = x->dimensions();
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a == b) return r.Replace(x->operand(0), "reverse(reverse(x)) → x");
  }
  if (IsScalarBroadcast(x)) return ScalarBroadcastTo(r, instr, x, "reverse(broadcast(scalar)) → broadcast(scalar)");
  return Outcome::kNone;
}

}  // namespace

Outcome SimplifyShapes(Rewriter& r, Instruction* instr) {
  switch (instr->opcode()) {
    case Opcode::kConstant:
      return Constant(r, instr);
    case Opcode::kReshape:
      return Reshape(r, instr);
    case Opcode::kTranspose:
      return Transpose(r, instr);
    case Opcode::kBroadcast:
      return Broadcast(r, instr);
    case Opcode::kIota:
      return Iota(r, instr);
    case Opcode::kReverse:
      return Reverse(r, instr);
    case Opcode::kCopy:
      if (instr->operand(0)->shape() == instr->shape()) return r.Replace(instr->operand(0), "copy with identical layout → x");
      return Outcome::kNone;
    case Opcode::kBitcast: {
      Instruction* x = instr->operand(0);
      if (x->shape() == instr->shape()) return r.Replace(x, "bitcast to the same shape → x");
      if (x->opcode() == Opcode::kBitcast &&
          x->operand(0)->shape().element_type() == instr->shape().element_type() &&
          x->shape().element_type() == instr->shape().element_type()) {
        instr->ReplaceOperand(0, x->operand(0));
        return r.Modified("bitcast(bitcast(x)) → bitcast(x)");
      }
      return Outcome::kNone;
    }
    default:
      return Outcome::kNone;
  }
}

}  // namespace hloscope::algsimp
