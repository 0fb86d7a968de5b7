// Data movement: broadcast, reshape, dynamic-reshape, transpose, reverse,
// slice, dynamic-slice, dynamic-update-slice, concatenate, pad, iota, tuple,
// get-tuple-element, get-dimension-size and set-dimension-size.
#include <limits>

#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {
namespace {

StatusOr<Shape> InferBroadcast(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  const std::vector<int64_t>& dims = instr.dimensions();
  if (!HasDeclaredShape(instr)) {
    // XLA's text parser reads a shapeless broadcast's `dimensions` as sizes
    // of new major dimensions (the client-level Broadcast op).
    std::vector<int64_t> out = dims;
    for (int64_t d : dims)
      if (d < 0) return Fail("broadcast size " + std::to_string(d) + " is negative");
    out.insert(out.end(), in.dims().begin(), in.dims().end());
    Shape r = MakeArray(in.element_type(), out);
    for (int i = 0; i < in.rank(); ++i)
      r.SetDynamicDim(static_cast<int>(dims.size()) + i, in.IsDynamicDim(i));
    return r;
  }
  const Shape& out = instr.shape();
  if (!out.IsArray()) return Fail("broadcast must produce an array, not " + Str(out));
  if (static_cast<int>(dims.size()) != in.rank())
    return Fail("dimensions=" + IntList(dims) + " has " + std::to_string(dims.size()) + " entries but " +
                Operand(instr, 0) + " has rank " + std::to_string(in.rank()) + " (" + Str(in) +
                "); broadcast maps each operand dimension to a result dimension");
  for (int i = 0; i < in.rank(); ++i) {
    int64_t d = dims[i];
    if (d < 0 || d >= out.rank())
      return Fail("dimensions=" + IntList(dims) + " maps operand dimension " + std::to_string(i) +
                  " to result dimension " + std::to_string(d) + ", but the result " + Str(out) +
                  " has rank " + std::to_string(out.rank()));
    if (out.dim(static_cast<int>(d)) != in.dim(i))
      return Fail("operand dimension " + std::to_string(i) + " of " + Str(in) + " has size " +
                  std::to_string(in.dim(i)) + " but result dimension " + std::to_string(d) + " of " +
                  Str(out) + " has size " + std::to_string(out.dim(static_cast<int>(d))) +
                  " (broadcast keeps mapped dimensions unchanged)");
  }
  return WithType(out, in.element_type());
}

StatusOr<Shape> InferReshape(const Instruction& instr) {
  const bool dynamic = instr.opcode() == Opcode::kDynamicReshape;
  if (!dynamic) RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  if (instr.operand_count() < 1) return ExpectOperandCount(instr, 1);
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  if (!HasDeclaredShape(instr))
    return Fail("cannot infer the shape of " + Op(instr) + ": the result dimensions must be written");
  const Shape& in = instr.operand(0)->shape();
  const Shape& out = instr.shape();
  if (!out.IsArray()) return Fail(Op(instr) + " must produce an array, not " + Str(out));
  if (dynamic) {
    if (instr.operand_count() != out.rank() + 1)
      return Fail("dynamic-reshape to " + Str(out) + " needs " + std::to_string(out.rank()) +
                  " size operand(s) after the input, but has " + std::to_string(instr.operand_count() - 1));
    for (int i = 1; i < instr.operand_count(); ++i)
      if (instr.operand(i)->shape().element_type() != PrimitiveType::kS32)
        return Fail(Operand(instr, i) + " has shape " + Str(instr.operand(i)->shape()) +
                    " but dynamic-reshape sizes must be s32");
  }
  auto n_in = ElementCount(in), n_out = ElementCount(out);
  if (n_in && n_out && *n_in != *n_out)
    return Fail(Op(instr) + " from " + Str(in) + " (" + std::to_string(*n_in) + " elements) to " + Str(out) +
                " (" + std::to_string(*n_out) + " elements) changes the element count");
  return WithType(out, in.element_type());
}

StatusOr<Shape> InferTranspose(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  const std::vector<int64_t>& perm = instr.dimensions();
  if (!IsPermutation(perm, in.rank()))
    return Fail("dimensions=" + IntList(perm) + " is not a permutation of the " + std::to_string(in.rank()) +
                " dimensions of " + Operand(instr, 0) + " (" + Str(in) + ")");
  Shape r = MakeArray(in.element_type(), std::vector<int64_t>(in.rank()));
  for (int i = 0; i < in.rank(); ++i) {
    r.mutable_dims()[i] = in.dim(static_cast<int>(perm[i]));
    r.SetDynamicDim(i, in.IsDynamicDim(static_cast<int>(perm[i])));
  }
  return r;
}

StatusOr<Shape> InferReverse(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  if (!AllUnique(instr.dimensions()))
    return Fail("dimensions=" + IntList(instr.dimensions()) + " repeats a dimension");
  for (int64_t d : instr.dimensions())
    if (d < 0 || d >= in.rank())
      return Fail("reverse dimension " + std::to_string(d) + " is out of range for " + Str(in));
  return NoLayout(in);
}

StatusOr<Shape> InferSlice(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  const std::vector<SliceDim>& sl = instr.attrs().slice;
  if (static_cast<int>(sl.size()) != in.rank())
    return Fail("slice has " + std::to_string(sl.size()) + " range(s) but " + Operand(instr, 0) +
                " has rank " + std::to_string(in.rank()) + " (" + Str(in) + ")");
  Shape r = MakeArray(in.element_type(), std::vector<int64_t>(in.rank()));
  for (int i = 0; i < in.rank(); ++i) {
    const SliceDim& d = sl[i];
    auto where = [&] {  // errors only
      return "slice range " + std::to_string(i) + " [" + std::to_string(d.start) + ":" + std::to_string(d.limit) +
             ":" + std::to_string(d.stride) + "]";
    };
    if (d.start < 0) return Fail(where() + " starts below 0");
    if (!IsUnbounded(in, i) && d.limit > in.dim(i))
      return Fail(where() + " ends past dimension " + std::to_string(i) + " of " + Str(in));
    if (d.start > d.limit) return Fail(where() + " starts after its limit");
    if (d.stride <= 0) return Fail(where() + " has a non-positive stride");
    int64_t size = (d.limit - d.start + d.stride - 1) / d.stride;
    r.mutable_dims()[i] = size;
    if (size != 1) r.SetDynamicDim(i, IsBoundedDynamic(in, i));
  }
  return r;
}

// The index operands of dynamic-slice and dynamic-update-slice: one rank-1
// integer vector, or one integer scalar per operand dimension.
Status CheckStartIndices(const Instruction& instr, int first, const Shape& operand) {
  const int n = instr.operand_count() - first;
  auto op = [&] { return Op(instr); };  // errors only
  if (n >= 1 && instr.operand(first)->shape().rank() == 1) {
    const Shape& idx = instr.operand(first)->shape();
    if (n != 1)
      return Fail(op() + " with a vector of start indices takes exactly one index operand, not " +
                  std::to_string(n));
    if (!IsInteger(idx.element_type()))
      return Fail(Operand(instr, first) + " has shape " + Str(idx) + " but start indices must be integers");
    if (idx.dim(0) != operand.rank())
      return Fail(Operand(instr, first) + " holds " + std::to_string(idx.dim(0)) +
                  " start indices but the operand " + Str(operand) + " has rank " +
                  std::to_string(operand.rank()));
    return Status::Ok();
  }
  if (n != operand.rank())
    return Fail(op() + " has " + std::to_string(n) + " start index operand(s) but the operand " + Str(operand) +
                " has rank " + std::to_string(operand.rank()) +
                " (one scalar index per dimension is needed)");
  for (int i = first; i < instr.operand_count(); ++i) {
    const Shape& idx = instr.operand(i)->shape();
    if (!idx.IsArray() || idx.rank() != 0 || !IsInteger(idx.element_type()))
      return Fail(Operand(instr, i) + " has shape " + Str(idx) +
                  " but start indices must be integer scalars");
    if (idx.element_type() != instr.operand(first)->shape().element_type())
      return Fail(Operand(instr, i) + " has shape " + Str(idx) + " but " +
                  Str(instr.operand(first)->shape()) +
                  " was expected (start indices must all have the same type)");
  }
  return Status::Ok();
}

StatusOr<Shape> InferDynamicSlice(const Instruction& instr) {
  if (instr.operand_count() < 1) return ExpectOperandCount(instr, 1);
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  RETURN_IF_ERROR(CheckStartIndices(instr, 1, in));
  const std::vector<int64_t>& sizes = instr.attrs().dynamic_slice_sizes;
  if (static_cast<int>(sizes.size()) != in.rank())
    return Fail("dynamic_slice_sizes=" + IntList(sizes) + " has " + std::to_string(sizes.size()) +
                " entries but the operand " + Str(in) + " has rank " + std::to_string(in.rank()));
  Shape r = MakeArray(in.element_type(), sizes);
  for (int i = 0; i < in.rank(); ++i) {
    if (sizes[i] < 0) return Fail("dynamic slice size " + std::to_string(sizes[i]) + " is negative");
    if (!IsUnbounded(in, i) && sizes[i] > in.dim(i))
      return Fail("dynamic slice size " + std::to_string(sizes[i]) + " exceeds dimension " +
                  std::to_string(i) + " of " + Str(in));
    if (in.IsDynamicDim(i) && sizes[i] > 1 && sizes[i] == in.dim(i)) r.SetDynamicDim(i, true);
  }
  return r;
}

StatusOr<Shape> InferDynamicUpdateSlice(const Instruction& instr) {
  if (instr.operand_count() < 2) return ExpectOperandCount(instr, 2);
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 1, "update"));
  const Shape& in = instr.operand(0)->shape();
  const Shape& up = instr.operand(1)->shape();
  RETURN_IF_ERROR(CheckStartIndices(instr, 2, in));
  if (up.rank() != in.rank())
    return Fail(Operand(instr, 1) + ", the update, has shape " + Str(up) + " but the operand " + Str(in) +
                " has rank " + std::to_string(in.rank()));
  if (!SameTypeIgnoringFp(in.element_type(), up.element_type()))
    return Fail(Operand(instr, 1) + ", the update, has shape " + Str(up) + " but element type " +
                std::string(PrimitiveTypeName(in.element_type())) + " was expected");
  Shape r = NoLayout(in);
  for (int i = 0; i < in.rank(); ++i) {
    if (!IsUnbounded(up, i) && up.dim(i) > in.dim(i) && !IsUnbounded(in, i))
      return Fail("the update " + Str(up) + " is larger than the operand " + Str(in) + " in dimension " +
                  std::to_string(i));
    if (up.IsDynamicDim(i) && up.dim(i) == in.dim(i)) r.SetDynamicDim(i, true);
  }
  return r;
}

StatusOr<Shape> InferConcatenate(const Instruction& instr) {
  if (instr.operand_count() < 1) return Fail("concatenate needs at least one operand");
  if (instr.dimensions().size() != 1)
    return Fail("concatenate needs exactly one dimension in dimensions=, got " + IntList(instr.dimensions()));
  const int64_t dim = instr.dimensions()[0];
  for (int i = 0; i < instr.operand_count(); ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& first = instr.operand(0)->shape();
  if (dim < 0 || dim >= first.rank())
    return Fail("concatenate dimension " + std::to_string(dim) + " is out of range for " + Str(first));
  PrimitiveType type = first.element_type();
  Shape r = NoLayout(first);
  for (int i = 1; i < instr.operand_count(); ++i) {
    const Shape& s = instr.operand(i)->shape();
    if (s.rank() != first.rank() || !SameTypeIgnoringFp(s.element_type(), type))
      return Fail(Operand(instr, i) + " has shape " + Str(s) +
                  " but concatenate needs operands of the rank and "
                  "element type of " +
                  Operand(instr, 0) + " (" + Str(first) + ")");
    for (int d = 0; d < first.rank(); ++d) {
      if (d == dim) continue;
      if (!DimsCompatible(s.dim(d), r.dim(d)))
        return Fail(Operand(instr, i) + " has shape " + Str(s) + " but differs from " + Operand(instr, 0) +
                    " (" + Str(first) + ") in dimension " + std::to_string(d) +
                    " (concatenate operands may differ only in the concatenated dimension " +
                    std::to_string(dim) + ")");
      if (IsUnbounded(r, d)) {
        r.mutable_dims()[d] = s.dim(d);
        r.SetDynamicDim(d, s.IsDynamicDim(d));
      } else if (IsBoundedDynamic(s, d)) {
        r.SetDynamicDim(d, true);
      }
    }
    type = HigherPrecisionType(type, s.element_type());
  }
  // The concatenated dimension: sizes (bounds) add up; `?` wins.
  int64_t total = 0;
  bool unbounded = false, dynamic = false;
  for (int i = 0; i < instr.operand_count(); ++i) {
    const Shape& s = instr.operand(i)->shape();
    if (IsUnbounded(s, static_cast<int>(dim)))
      unbounded = true;
    else
      total += s.dim(static_cast<int>(dim));
    dynamic = dynamic || s.IsDynamicDim(static_cast<int>(dim));
  }
  r.mutable_dims()[dim] = unbounded ? Shape::kUnboundedDim : total;
  r.SetDynamicDim(static_cast<int>(dim), dynamic);
  r.set_element_type(type);
  return r;
}

StatusOr<Shape> InferPad(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  const Shape& value = instr.operand(1)->shape();
  if (!value.IsArray() || value.rank() != 0)
    return Fail(Operand(instr, 1) + ", the padding value, has shape " + Str(value) + " but must be a scalar");
  if (!SameTypeIgnoringFp(in.element_type(), value.element_type()))
    return Fail(Operand(instr, 1) + ", the padding value, has shape " + Str(value) + " but element type " +
                std::string(PrimitiveTypeName(in.element_type())) + " was expected");
  const std::vector<PadDim>& pad = instr.attrs().padding;
  if (static_cast<int>(pad.size()) != in.rank())
    return Fail("padding has " + std::to_string(pad.size()) + " dimension(s) but " + Operand(instr, 0) +
                " has rank " + std::to_string(in.rank()) + " (" + Str(in) + ")");
  Shape r = WithType(in, HigherPrecisionType(in.element_type(), value.element_type()));
  for (int i = 0; i < in.rank(); ++i) {
    if (pad[i].interior < 0)
      return Fail("interior padding of dimension " + std::to_string(i) + " is negative");
    if (IsUnbounded(in, i)) continue;
    int64_t d = in.dim(i);
    int64_t size = d + pad[i].lo + pad[i].hi + std::max<int64_t>(d - 1, 0) * pad[i].interior;
    if (size < 0)
      return Fail("padding makes dimension " + std::to_string(i) + " of " + Str(in) + " negative (" +
                  std::to_string(size) + ")");
    r.mutable_dims()[i] = size;
  }
  return r;
}

StatusOr<Shape> InferIota(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 0));
  if (!HasDeclaredShape(instr))
    return Fail("cannot infer the shape of iota: the result shape must be written");
  const Shape& s = instr.shape();
  if (!s.IsArray()) return Fail("iota must produce an array, not " + Str(s));
  if (s.rank() == 0) return Fail("iota cannot produce a scalar");
  int64_t d = instr.attrs().iota_dimension;
  if (d < 0 || d >= s.rank())
    return Fail("iota_dimension=" + std::to_string(d) + " is out of range for " + Str(s));
  PrimitiveType t = s.element_type();
  if (!IsInteger(t) && !IsFloat(t) && !IsComplex(t))
    return Fail("iota produces integer, floating-point or complex values, not " +
                std::string(PrimitiveTypeName(t)));
  return NoLayout(s);
}

StatusOr<Shape> InferGetTupleElement(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  const Shape& t = instr.operand(0)->shape();
  if (!t.IsTuple())
    return Fail(Operand(instr, 0) + " has shape " + Str(t) + " but get-tuple-element needs a tuple");
  int64_t i = instr.tuple_index();
  if (i < 0 || i >= t.tuple_size())
    return Fail("index=" + std::to_string(i) + " is out of range: " + Operand(instr, 0) + " is a tuple of " +
                std::to_string(t.tuple_size()) + " element(s) " + Str(t));
  return NoLayout(t.tuple_shapes()[i]);
}

StatusOr<Shape> InferTuple(const Instruction& instr) {
  std::vector<Shape> elems;
  elems.reserve(instr.operand_count());
  for (const Instruction* o : instr.operands()) elems.push_back(NoLayout(o->shape()));
  return Shape::Tuple(std::move(elems));
}

StatusOr<Shape> InferDimensionSize(const Instruction& instr) {
  const bool set = instr.opcode() == Opcode::kSetDimensionSize;
  RETURN_IF_ERROR(ExpectOperandCount(instr, set ? 2 : 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  if (instr.dimensions().size() != 1)
    return Fail(Op(instr) + " needs exactly one dimension in dimensions=, got " +
                IntList(instr.dimensions()));
  int64_t d = instr.dimensions()[0];
  if (d < 0 || d >= in.rank())
    return Fail("dimension " + std::to_string(d) + " is out of range for " + Str(in));
  if (in.dim(static_cast<int>(d)) > std::numeric_limits<int32_t>::max())
    return Fail("dimension " + std::to_string(d) + " of " + Str(in) + " does not fit in s32");
  if (!set) return Shape::Scalar(PrimitiveType::kS32);
  const Shape& v = instr.operand(1)->shape();
  if (!v.IsArray() || v.rank() != 0 || v.element_type() != PrimitiveType::kS32)
    return Fail(Operand(instr, 1) + " has shape " + Str(v) + " but the new size must be s32[]");
  Shape r = NoLayout(in);
  r.SetDynamicDim(static_cast<int>(d), true);
  return r;
}

}  // namespace

StatusOr<Shape> InferDataMovement(const Instruction& instr) {
  switch (instr.opcode()) {
    case Opcode::kBroadcast:
      return InferBroadcast(instr);
    case Opcode::kReshape:
    case Opcode::kDynamicReshape:
      return InferReshape(instr);
    case Opcode::kTranspose:
      return InferTranspose(instr);
    case Opcode::kReverse:
      return InferReverse(instr);
    case Opcode::kSlice:
      return InferSlice(instr);
    case Opcode::kDynamicSlice:
      return InferDynamicSlice(instr);
    case Opcode::kDynamicUpdateSlice:
      return InferDynamicUpdateSlice(instr);
    case Opcode::kConcatenate:
      return InferConcatenate(instr);
    case Opcode::kPad:
      return InferPad(instr);
    case Opcode::kIota:
      return InferIota(instr);
    case Opcode::kGetTupleElement:
      return InferGetTupleElement(instr);
    case Opcode::kTuple:
      return InferTuple(instr);
    case Opcode::kGetDimensionSize:
    case Opcode::kSetDimensionSize:
      return InferDimensionSize(instr);
    default:
      return Fail("cannot infer the shape of " + Op(instr) + ": no shape rule");
  }
}

}  // namespace hloscope::infer
