// Ops that only move elements: broadcast, reshape, bitcast (layout-aware),
// transpose, copy, reverse, slice, concatenate, pad (negative and interior),
// dynamic-slice and dynamic-update-slice (starts clamped into range as XLA
// does). All work on raw element bytes, so every element type is covered.
#include <algorithm>
#include <cstring>

#include "core/eval/eval_internal.h"

namespace hloscope::eval {
namespace {


StatusOr<Literal> Broadcast(const Instruction& instr, const Literal& a) {
  Shape shape = NoLayout(instr.shape());
  const auto& map = instr.dimensions();
  if (static_cast<int>(map.size()) != a.shape().rank())
    return InstrError(instr, "dimensions={" + std::to_string(map.size()) + " entries} must name one result "
                             "dimension per operand dimension (" + std::to_string(a.shape().rank()) + ")");
  std::vector<int64_t> src(shape.rank(), 0);
  auto in = RowMajorStrides(a.shape().dims());
  for (size_t j = 0; j < map.size(); ++j) {
    int64_t d = map[j];
    if (d < 0 || d >= shape.rank()) return InstrError(instr, "broadcast dimension " + std::to_string(d) + " is out of range");
    int64_t od = shape.dim(static_cast<int>(d)), id = a.shape().dim(static_cast<int>(j));
    if (id != od && id != 1)
      return InstrError(instr, "operand dimension " + std::to_string(j) + " (" + std::to_string(id) +
                                   ") does not match result dimension " + std::to_string(d) + " (" + std::to_string(od) + ")");
    src[d] = id == 1 ? 0 : in[j];
  }
  Literal out(shape);
  StridedCopy(a.element_bytes(), shape.dims(), a.raw(), 0, src, out.raw(), 0, RowMajorStrides(shape.dims()));
  return out;
}

// Logical transpose: result dim i is operand dim perm[i].
Literal Transpose(const Literal& a, const std::vector<int64_t>& perm, const Shape& out_shape) {
  auto in = RowMajorStrides(a.shape().dims());
  std::vector<int64_t> src(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) src[i] = in[perm[i]];
  Literal out(out_shape);
  StridedCopy(a.element_bytes(), out_shape.dims(), a.raw(), 0, src, out.raw(), 0, RowMajorStrides(out_shape.dims()));
  return out;
}

std::vector<int64_t> MinorToMajor(const Shape& s) {
  if (s.has_layout() && static_cast<int>(s.layout().minor_to_major.size()) == s.rank())
    return s.layout().minor_to_major;
  return Shape::DefaultLayout(s.rank()).minor_to_major;
}

bool IsDefault(const std::vector<int64_t>& m2m) {
  for (size_t i = 0; i < m2m.size(); ++i)
    if (m2m[i] != static_cast<int64_t>(m2m.size() - 1 - i)) return false;
  return true;
}

// bitcast reinterprets the physical buffer: logical -> physical order of the
// operand layout, then physical -> logical order of the result layout.
StatusOr<Literal> Bitcast(const Instruction& instr, const Literal& a) {
  Shape shape = NoLayout(instr.shape());
  const Shape& in_shape = instr.operand(0)->shape();
  const Shape& out_shape = instr.shape();
  Literal probe(shape);
  if (probe.raw_size() != a.raw_size())
    return InstrError(instr, "operand " + a.shape().ToString(false) + " and result " + shape.ToString(false) +
                                 " have different byte sizes");
  auto im = MinorToMajor(in_shape), om = MinorToMajor(out_shape);
  bool tiled = (in_shape.has_layout() && !in_shape.layout().tiles.empty()) ||
               (out_shape.has_layout() && !out_shape.layout().tiles.empty());
  if (IsDefault(im) && IsDefault(om) && !tiled) return WithShape(a, shape);
  if (tiled && !(in_shape.dims() == out_shape.dims() && im == om && in_shape.layout() == out_shape.layout()))
    return Unsupported(instr, "bitcast between tiled layouts");
  if (a.element_bytes() != probe.element_bytes())
    return Unsupported(instr, "bitcast that changes the element size under a non-default layout");
  // Physical (major-to-minor) order of the operand.
  int ir = a.shape().rank(), orr = shape.rank();
  std::vector<int64_t> iperm(ir), pdims(ir);
  for (int i = 0; i < ir; ++i) {
    iperm[i] = im[ir - 1 - i];
    pdims[i] = a.shape().dim(static_cast<int>(iperm[i]));
  }
  Literal phys = Transpose(a, iperm, Shape(a.shape().element_type(), pdims));
  // The same bytes seen as the result's physical dims, then back to logical.
  std::vector<int64_t> operm(orr), qdims(orr);
  for (int i = 0; i < orr; ++i) {
    operm[i] = om[orr - 1 - i];
    qdims[i] = shape.dim(static_cast<int>(operm[i]));
  }
  Literal q = WithShape(phys, Shape(shape.element_type(), qdims));
  std::vector<int64_t> inv(orr);
  for (int i = 0; i < orr; ++i) inv[operm[i]] = i;
  return Transpose(q, inv, shape);
}

StatusOr<Literal> Slice(const Instruction& instr, const Literal& a) {
  Shape shape = NoLayout(instr.shape());
  const auto& sl = instr.attrs().slice;
  int rank = a.shape().rank();
  if (static_cast<int>(sl.size()) != rank || shape.rank() != rank) return InstrError(instr, "slice needs one range per dimension");
  auto in = RowMajorStrides(a.shape().dims());
  std::vector<int64_t> src(rank);
  int64_t off = 0;
  for (int d = 0; d < rank; ++d) {
    const SliceDim& s = sl[d];
    int64_t n = s.stride > 0 ? (s.limit - s.start + s.stride - 1) / s.stride : -1;
    if (s.start < 0 || s.limit > a.shape().dim(d) || s.stride <= 0 || s.limit < s.start || n != shape.dim(d))
      return InstrError(instr, "slice range [" + std::to_string(s.start) + ":" + std::to_string(s.limit) + ":" +
                                   std::to_string(s.stride) + "] does not fit dimension " + std::to_string(d));
    off += s.start * in[d];
    src[d] = s.stride * in[d];
  }
  Literal out(shape);
  StridedCopy(a.element_bytes(), shape.dims(), a.raw(), off, src, out.raw(), 0, RowMajorStrides(shape.dims()));
  return out;
}

StatusOr<Literal> Pad(const Instruction& instr, const Literal& a, const Literal& pad) {
  Shape shape = NoLayout(instr.shape());
  const auto& pd = instr.attrs().padding;
  int rank = a.shape().rank();
  if (static_cast<int>(pd.size()) != rank || shape.rank() != rank || pad.num_elements() != 1 ||
      pad.shape().element_type() != a.shape().element_type())
    return InstrError(instr, "pad needs one padding entry per dimension and a scalar padding value");
  Literal out(shape);
  int eb = a.element_bytes();
  for (int64_t i = 0; i < out.num_elements(); ++i) std::memcpy(out.raw() + i * eb, pad.raw(), eb);
  auto in = RowMajorStrides(a.shape().dims()), os = RowMajorStrides(shape.dims());
  std::vector<int64_t> count(rank), src(rank), dst(rank);
  int64_t soff = 0, doff = 0;
  for (int d = 0; d < rank; ++d) {
    const PadDim& p = pd[d];
    int64_t n = a.shape().dim(d), step = p.interior + 1, od = shape.dim(d);
    if (p.interior < 0 || p.lo + p.hi + n + std::max<int64_t>(n - 1, 0) * p.interior != od)
      return InstrError(instr, "padding of dimension " + std::to_string(d) + " does not give the result size");
    // Operand indices i with 0 <= lo + i*step < od.
    int64_t first = p.lo >= 0 ? 0 : (-p.lo + step - 1) / step;
    int64_t last = od - 1 - p.lo < 0 ? -1 : std::min(n - 1, (od - 1 - p.lo) / step);
    count[d] = std::max<int64_t>(0, last - first + 1);
    soff += first * in[d];
    doff += (p.lo + first * step) * os[d];
    src[d] = in[d];
    dst[d] = os[d] * step;
  }
  StridedCopy(eb, count, a.raw(), soff, src, out.raw(), doff, dst);
  return out;
}

StatusOr<Literal> Concatenate(const Instruction& instr, Operands ops) {
  Shape shape = NoLayout(instr.shape());
  if (instr.dimensions().size() != 1) return InstrError(instr, "concatenate needs dimensions={d}");
  int64_t dim = instr.dimensions()[0];
  if (dim < 0 || dim >= shape.rank()) return InstrError(instr, "concatenate dimension out of range");
  Literal out(shape);
  auto os = RowMajorStrides(shape.dims());
  int64_t at = 0;
  for (const Literal* o : ops) {
    if (o->shape().rank() != shape.rank() || o->shape().element_type() != shape.element_type())
      return InstrError(instr, "operand " + o->shape().ToString(false) + " does not match the result");
    for (int d = 0; d < shape.rank(); ++d)
      if (d != dim && o->shape().dim(d) != shape.dim(d)) return InstrError(instr, "operand dimensions do not match");
    if (at + o->shape().dim(static_cast<int>(dim)) > shape.dim(static_cast<int>(dim)))
      return InstrError(instr, "operands are larger than the result");
    StridedCopy(o->element_bytes(), o->shape().dims(), o->raw(), 0, RowMajorStrides(o->shape().dims()), out.raw(),
                at * os[dim], os);
    at += o->shape().dim(static_cast<int>(dim));
  }
  if (at != shape.dim(static_cast<int>(dim))) return InstrError(instr, "operands do not fill the result");
  return out;
}

// Start indices: one scalar operand per dimension (or one rank-1 operand),
// clamped to [0, dim - size].
StatusOr<std::vector<int64_t>> Starts(const Instruction& instr, Operands idx, const Shape& base,
                                      const std::vector<int64_t>& sizes) {
  int rank = base.rank();
  std::vector<int64_t> v;
  if (idx.size() == 1 && idx[0]->shape().rank() == 1 && rank != 1) {
    for (int64_t i = 0; i < idx[0]->num_elements(); ++i) v.push_back(idx[0]->GetInt(i));
  } else {
    for (const Literal* l : idx) {
      if (l->num_elements() != 1 || !IsInteger(l->shape().element_type()))
        return InstrError(instr, "start indices must be integer scalars");
      int64_t x = l->GetInt(0);
      if (IsUnsignedInt(l->shape().element_type()) && x < 0) x = INT64_MAX;
      v.push_back(x);
    }
  }
  if (static_cast<int>(v.size()) != rank || static_cast<int>(sizes.size()) != rank)
    return InstrError(instr, "needs one start index per operand dimension");
  for (int d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || sizes[d] > base.dim(d)) return InstrError(instr, "slice size larger than the operand");
    v[d] = std::clamp<int64_t>(v[d], 0, base.dim(d) - sizes[d]);
  }
  return v;
}

StatusOr<Literal> DynamicSlice(const Instruction& instr, Operands ops) {
  Shape shape = NoLayout(instr.shape());
  const Literal& a = *ops[0];
  ASSIGN_OR_RETURN(auto st, Starts(instr, ops.subspan(1), a.shape(), instr.attrs().dynamic_slice_sizes));
  if (shape.dims() != instr.attrs().dynamic_slice_sizes) return InstrError(instr, "result shape does not match dynamic_slice_sizes");
  auto in = RowMajorStrides(a.shape().dims());
  int64_t off = 0;
  for (size_t d = 0; d < st.size(); ++d) off += st[d] * in[d];
  Literal out(shape);
  StridedCopy(a.element_bytes(), shape.dims(), a.raw(), off, in, out.raw(), 0, RowMajorStrides(shape.dims()));
  return out;
}

StatusOr<Literal> DynamicUpdateSlice(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const Literal& u = *ops[1];
  if (u.shape().element_type() != a.shape().element_type() || u.shape().rank() != a.shape().rank())
    return InstrError(instr, "update " + u.shape().ToString(false) + " does not match the operand");
  ASSIGN_OR_RETURN(auto st, Starts(instr, ops.subspan(2), a.shape(), u.shape().dims()));
  Literal out = WithShape(a, NoLayout(instr.shape()));
  auto os = RowMajorStrides(a.shape().dims());
  int64_t off = 0;
  for (size_t d = 0; d < st.size(); ++d) off += st[d] * os[d];
  StridedCopy(u.element_bytes(), u.shape().dims(), u.raw(), 0, RowMajorStrides(u.shape().dims()), out.raw(), off, os);
  return out;
}

}  // namespace

StatusOr<Literal> EvalDataMovement(const Instruction& instr, Operands ops) {
  if (ops.empty()) return InstrError(instr, "missing operands");
  for (const Literal* o : ops)
    if (!o->shape().IsArray()) return InstrError(instr, "operands must be arrays, got " + o->shape().ToString(false));
  const Literal& a = *ops[0];
  Shape shape = NoLayout(instr.shape());
  if (!shape.IsArray()) return InstrError(instr, "result must be an array");
  if (shape.element_type() != a.shape().element_type() && instr.opcode() != Opcode::kBitcast)
    return InstrError(instr, "result element type differs from the operand's");
  switch (instr.opcode()) {
    case Opcode::kBroadcast: return Broadcast(instr, a);
    case Opcode::kReshape:
    case Opcode::kCopy:
      if (shape.num_elements() != a.num_elements())
        return InstrError(instr, "cannot reshape " + a.shape().ToString(false) + " to " + shape.ToString(false));
      return WithShape(a, shape);
    case Opcode::kBitcast: return Bitcast(instr, a);
    case Opcode::kTranspose: {
      const auto& perm = instr.dimensions();
      bool ok = static_cast<int>(perm.size()) == a.shape().rank() && shape.rank() == a.shape().rank();
      for (size_t i = 0; ok && i < perm.size(); ++i)
        ok = perm[i] >= 0 && perm[i] < a.shape().rank() && shape.dim(static_cast<int>(i)) == a.shape().dim(static_cast<int>(perm[i]));
      if (!ok) return InstrError(instr, "dimensions are not a permutation matching the result shape");
      return Transpose(a, perm, shape);
    }
    case Opcode::kReverse: {
      if (!shape.SameDims(a.shape())) return InstrError(instr, "result shape differs from the operand");
      auto in = RowMajorStrides(a.shape().dims());
      auto src = in;
      int64_t off = 0;
      for (int64_t d : instr.dimensions()) {
        if (d < 0 || d >= shape.rank()) return InstrError(instr, "reverse dimension out of range");
        off += (a.shape().dim(static_cast<int>(d)) - 1) * in[d];
        src[d] = -in[d];
      }
      Literal out(shape);
      if (out.num_elements() > 0) StridedCopy(a.element_bytes(), shape.dims(), a.raw(), off, src, out.raw(), 0, in);
      return out;
    }
    case Opcode::kSlice: return Slice(instr, a);
    case Opcode::kConcatenate: return Concatenate(instr, ops);
    case Opcode::kPad:
      if (ops.size() != 2) return InstrError(instr, "pad takes an operand and a padding value");
      return Pad(instr, a, *ops[1]);
    case Opcode::kDynamicSlice:
      if (ops.size() < 2) return InstrError(instr, "missing start indices");
      return DynamicSlice(instr, ops);
    case Opcode::kDynamicUpdateSlice:
      if (ops.size() < 3) return InstrError(instr, "missing update or start indices");
      return DynamicUpdateSlice(instr, ops);
    default: return InstrError(instr, "not a data-movement op");
  }
}

}  // namespace hloscope::eval
