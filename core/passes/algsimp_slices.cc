// algsimp, slices: slice, concatenate, pad, dynamic-slice and
// dynamic-update-slice. A slice of the whole operand is the operand;
// slice(slice) composes; a slice that falls inside one operand of a
// concatenate or inside the unpadded part of a pad reads that operand
// directly; concatenating adjacent slices of one array is one slice;
// zero padding and single-operand concatenates disappear; dynamic slices
// with constant indices become static slices.
#include <algorithm>

#include "core/passes/algsimp.h"

namespace hloscope::algsimp {
namespace {

// Index of the last element a slice dimension reads (+1), given its output size.
int64_t LastPlusOne(const SliceDim& s, int64_t out_size) { return s.start + (out_size - 1) * s.stride + 1; }

bool IsFullSlice(const Instruction& slice) {
  const auto& in = slice.operand(0)->shape().dims();
  const auto& out = slice.shape().dims();
  if (in != out) return false;
  for (size_t d = 0; d < in.size(); ++d)
    if (slice.attrs().slice[d].start != 0 && in[d] != 0) return false;
  return true;
}

void SetSlice(Instruction* instr, std::vector<SliceDim> s) {
  instr->attrs().slice = std::move(s);
  instr->attrs().mark(Attr::kSlice);
}

Instruction* NewSlice(Rewriter& r, Instruction* x, std::vector<SliceDim> s, const Shape& shape) {
  Instruction* slice = r.Add(Opcode::kSlice, shape, {x});
  SetSlice(slice, std::move(s));
  return slice;
}

Outcome SliceOfSlice(Rewriter& r, Instruction* instr) {
  Instruction* inner = instr->operand(0);
  const auto& out = instr->shape().dims();
  if (inner->attrs().slice.size() != out.size()) return Outcome::kNone;
  std::vector<SliceDim> s(out.size());
  for (size_t d = 0; d < out.size(); ++d) {
    const SliceDim& a = inner->attrs().slice[d];
    const SliceDim& b = instr->attrs().slice[d];
    s[d].start = a.start + b.start * a.stride;
    s[d].stride = a.stride * b.stride;
    s[d].limit = out[d] == 0 ? s[d].start : s[d].start + (out[d] - 1) * s[d].stride + 1;
  }
  instr->ReplaceOperand(0, inner->operand(0));
  SetSlice(instr, std::move(s));
  return r.Modified("slice(slice(x)) → slice(x)");
}

Outcome SliceOfConcat(Rewriter& r, Instruction* instr) {
  Instruction* concat = instr->operand(0);
  if (concat->dimensions().size() != 1 || !DimsInRange(concat->dimensions(), instr->shape().rank()))
    return Outcome::kNone;
  const int64_t c = concat->dimensions()[0];
  const SliceDim& sd = instr->attrs().slice[c];
  const int64_t n = instr->shape().dim(static_cast<int>(c));
  if (n == 0) return Outcome::kNone;
  int64_t offset = 0;
  for (Instruction* op : concat->operands()) {
    int64_t size = op->shape().dim(static_cast<int>(c));
    if (sd.start >= offset && LastPlusOne(sd, n) <= offset + size) {
      std::vector<SliceDim> s = instr->attrs().slice;
      s[c].start -= offset;
      s[c].limit = LastPlusOne(sd, n) - offset;
      instr->ReplaceOperand(0, op);
      SetSlice(instr, std::move(s));
      return r.Modified("slice(concatenate) → slice(operand)");
    }
    offset += size;
  }
  return Outcome::kNone;
}

Outcome SliceOfPad(Rewriter& r, Instruction* instr) {
  Instruction* pad = instr->operand(0);
  Instruction* x = pad->operand(0);
  const auto& out = instr->shape().dims();
  if (pad->attrs().padding.size() != out.size()) return Outcome::kNone;
  bool inside = true, all_padding = false;
  std::vector<SliceDim> s(out.size());
  for (size_t d = 0; d < out.size(); ++d) {
    const PadDim& p = pad->attrs().padding[d];
    const SliceDim& sd = instr->attrs().slice[d];
    const int64_t size = x->shape().dim(static_cast<int>(d));
    if (out[d] == 0) return Outcome::kNone;
    const int64_t first = sd.start, last = LastPlusOne(sd, out[d]) - 1;
    if (p.interior != 0) {
      inside = false;
      continue;
    }
    // The operand occupies [p.lo, p.lo + size) of the padded array.
    if (last < p.lo || first >= p.lo + size) all_padding = true;
    if (first < p.lo || last >= p.lo + size) inside = false;
    s[d] = SliceDim{first - p.lo, last - p.lo + 1, sd.stride};
  }
  if (all_padding)
    return r.Replace(r.Broadcast(pad->operand(1), instr->shape()), "slice of padding only → broadcast(pad value)");
  if (!inside) return Outcome::kNone;
  instr->ReplaceOperand(0, x);
  SetSlice(instr, std::move(s));
  return r.Modified("slice(pad) inside the operand → slice(operand)");
}

Outcome Slice(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  if (instr->attrs().slice.size() != static_cast<size_t>(instr->shape().rank())) return Outcome::kNone;
  if (IsFullSlice(*instr)) return r.Replace(x, "slice of the full operand → x");
  switch (x->opcode()) {
    case Opcode::kSlice:
      return SliceOfSlice(r, instr);
    case Opcode::kConcatenate:
      return SliceOfConcat(r, instr);
    case Opcode::kPad:
      return SliceOfPad(r, instr);
    case Opcode::kBroadcast:
      if (x->operand(0)->shape().rank() == 0)
        return r.Replace(r.Broadcast(x->operand(0), instr->shape()), "slice(broadcast(scalar)) → broadcast(scalar)");
      return Outcome::kNone;
    case Opcode::kIota: {
      const int64_t d = x->attrs().iota_dimension;
      if (!DimsInRange({d}, instr->shape().rank())) return Outcome::kNone;
      const SliceDim& sd = instr->attrs().slice[d];
      if (sd.start != 0 || (sd.stride != 1 && instr->shape().dim(static_cast<int>(d)) > 1)) return Outcome::kNone;
      Instruction* iota = r.Add(Opcode::kIota, instr->shape(), {});
      iota->attrs().iota_dimension = d;
      iota->attrs().mark(Attr::kIotaDimension);
      return r.Replace(iota, "iota folding: slice(iota) → iota");
    }
    default:
      return Outcome::kNone;
  }
}

// Two operands that are adjacent stride-1 slices of one array along `dim`.
bool Adjacent(const Instruction* a, const Instruction* b, int64_t dim) {
  if (a->opcode() != Opcode::kSlice || b->opcode() != Opcode::kSlice || a->operand(0) != b->operand(0)) return false;
  const auto& sa = a->attrs().slice;
  const auto& sb = b->attrs().slice;
  if (sa.size() != sb.size()) return false;
  for (size_t d = 0; d < sa.size(); ++d) {
    if (static_cast<int64_t>(d) == dim) {
      if (sa[d].stride != 1 || sb[d].stride != 1 || sa[d].limit != sb[d].start) return false;
    } else if (!(sa[d] == sb[d])) {
      return false;
    }
  }
  return true;
}

Outcome Concatenate(Rewriter& r, Instruction* instr) {
  if (instr->operand_count() == 1) return r.Replace(instr->operand(0), "concatenate of one operand → x");
  if (instr->dimensions().size() != 1 || !DimsInRange(instr->dimensions(), instr->shape().rank()))
    return Outcome::kNone;
  const int64_t c = instr->dimensions()[0];
  // Drop empty operands.
  std::vector<Instruction*> ops;
  for (Instruction* o : instr->operands())
    if (!IsStaticArray(o->shape()) || ElementCount(o->shape().dims()) != 0) ops.push_back(o);
  if (!ops.empty() && ops.size() < instr->operands().size()) {
    if (ops.size() == 1) return r.Replace(ops[0], "concatenate: zero-element operands dropped");
    r.SetOperands(ops);
    return r.Modified("concatenate: zero-element operands dropped");
  }
  // Merge adjacent slices.
  std::vector<Instruction*> merged;
  bool any = false;
  for (Instruction* o : instr->operands()) {
    if (!merged.empty() && Adjacent(merged.back(), o, c)) {
      Instruction* prev = merged.back();
      std::vector<SliceDim> s = prev->attrs().slice;
      s[c].limit = o->attrs().slice[c].limit;
      std::vector<int64_t> dims = prev->shape().dims();
      dims[c] += o->shape().dim(static_cast<int>(c));
      merged.back() = NewSlice(r, prev->operand(0), std::move(s),
                               ShapeLike(prev->shape(), prev->shape().element_type(), dims));
      any = true;
      continue;
    }
    merged.push_back(o);
  }
  if (!any) return Outcome::kNone;
  if (merged.size() == 1) return r.Replace(merged[0], "concatenate of adjacent slices → slice");
  r.SetOperands(merged);
  return r.Modified("concatenate of adjacent slices → slice");
}

Outcome Pad(Rewriter& r, Instruction* instr) {
  for (const PadDim& p : instr->attrs().padding)
    if (p.lo != 0 || p.hi != 0 || p.interior != 0) return Outcome::kNone;
  return r.Replace(instr->operand(0), "pad with zero padding → x");
}

Outcome DynamicSlice(Rewriter& r, Instruction* instr) {
  Instruction* x = instr->operand(0);
  const int rank = x->shape().rank();
  if (instr->operand_count() != rank + 1 || instr->shape().rank() != rank) return Outcome::kNone;
  std::vector<SliceDim> s(rank);
  for (int d = 0; d < rank; ++d) {
    const Literal* idx = KnownLiteral(instr->operand(d + 1));
    if (!idx || idx->num_elements() != 1) return Outcome::kNone;
    int64_t size = instr->shape().dim(d);
    int64_t v = idx->GetInt(0);
    if (IsUnsignedInt(idx->shape().element_type()) && v < 0) v = INT64_MAX;
    int64_t start = std::clamp<int64_t>(v, 0, std::max<int64_t>(0, x->shape().dim(d) - size));
    s[d] = SliceDim{start, start + size, 1};
  }
  return r.Replace(NewSlice(r, x, std::move(s), instr->shape()), "dynamic-slice with constant indices → slice");
}

}  // namespace

Outcome SimplifySlices(Rewriter& r, Instruction* instr) {
  switch (instr->opcode()) {
    case Opcode::kSlice:
      return Slice(r, instr);
    case Opcode::kConcatenate:
      return Concatenate(r, instr);
    case Opcode::kPad:
      return Pad(r, instr);
    case Opcode::kDynamicSlice:
      return DynamicSlice(r, instr);
    case Opcode::kDynamicUpdateSlice:
      if (instr->operand_count() >= 2 && instr->operand(1)->shape().dims() == instr->shape().dims())
        return r.Replace(instr->operand(1), "dynamic-update-slice of full size → update");
      return Outcome::kNone;
    default:
      return Outcome::kNone;
  }
}

}  // namespace hloscope::algsimp
