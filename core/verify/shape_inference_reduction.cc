// Ops with a scalar computation applied across elements: reduce (variadic
// reduce gives a tuple), reduce-window, select-and-scatter, sort, map and
// topk. Their called computations' signatures are checked here, as XLA's
// shape inference does.
#include <algorithm>

#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {
namespace {

StatusOr<Shape> InferReduce(const Instruction& instr) {
  const int total = instr.operand_count();
  if (total < 2 || total % 2 != 0)
    return Fail("reduce takes n inputs followed by n init values (an even count of at least 2), but has " +
                std::to_string(total));
  const int n = total / 2;
  for (int i = 0; i < total; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& first = instr.operand(0)->shape();
  for (int i = 1; i < n; ++i)
    if (instr.operand(i)->shape().dims() != first.dims())
      return Fail(Operand(instr, i) + " has shape " + Str(instr.operand(i)->shape()) +
                  " but the dimensions of " + Str(first) +
                  " were expected (all reduced inputs must have the same dimensions)");
  const std::vector<int64_t>& dims = instr.dimensions();
  for (int64_t d : dims)
    if (d < 0 || d >= first.rank())
      return Fail("reduce dimension " + std::to_string(d) + " is out of range for " + Str(first));
  ASSIGN_OR_RETURN(ProgramShape reducer, CalledProgram(instr, "to_apply"));
  std::vector<const Shape*> inits;
  std::vector<PrimitiveType> types;
  for (int i = 0; i < n; ++i) {
    const Shape& init = instr.operand(n + i)->shape();
    if (init.rank() != 0)
      return Fail(Operand(instr, n + i) + ", an init value, has shape " + Str(init) +
                  " but must be a scalar");
    inits.push_back(&init);
    types.push_back(instr.operand(i)->shape().element_type());
  }
  RETURN_IF_ERROR(VerifyReducer(reducer, inits, types, "reduce computation"));
  if (!AllUnique(dims)) return Fail("dimensions=" + IntList(dims) + " repeats a dimension");
  std::vector<int64_t> out;
  std::vector<bool> dynamic;
  for (int i = 0; i < first.rank(); ++i)
    if (!Contains(dims, i)) {
      out.push_back(first.dim(i));
      dynamic.push_back(first.IsDynamicDim(i));
    }
  const Shape& result = *reducer.result;
  if (!result.IsTuple()) return MakeArray(result.element_type(), out, dynamic);
  std::vector<Shape> elems;
  for (const Shape& e : result.tuple_shapes()) elems.push_back(MakeArray(e.element_type(), out, dynamic));
  return Shape::Tuple(std::move(elems));
}

const Window& WindowOf(const Instruction& instr) {
  static const Window kNone;
  return instr.attrs().window ? *instr.attrs().window : kNone;
}

StatusOr<Shape> InferReduceWindow(const Instruction& instr) {
  const int total = instr.operand_count();
  if (total < 2 || total % 2 != 0)
    return Fail(
        "reduce-window takes n inputs followed by n init values (an even count of at least 2), but has " +
        std::to_string(total));
  const int n = total / 2;
  for (int i = 0; i < total; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& first = instr.operand(0)->shape();
  for (int i = 1; i < n; ++i)
    if (instr.operand(i)->shape().dims() != first.dims())
      return Fail(Operand(instr, i) + " has shape " + Str(instr.operand(i)->shape()) +
                  " but the dimensions of " + Str(first) +
                  " were expected (all reduced inputs must have the same dimensions)");
  ASSIGN_OR_RETURN(ProgramShape reducer, CalledProgram(instr, "to_apply"));
  std::vector<const Shape*> inits;
  std::vector<PrimitiveType> types;
  for (int i = 0; i < n; ++i) {
    inits.push_back(&instr.operand(n + i)->shape());
    types.push_back(instr.operand(i)->shape().element_type());
  }
  RETURN_IF_ERROR(VerifyReducer(reducer, inits, types, "reduce-window computation"));
  std::vector<Shape> outs;
  for (int i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(Shape o,
                     WindowOutputShape(instr.operand(i)->shape(), WindowOf(instr), inits[i]->element_type()));
    outs.push_back(std::move(o));
  }
  if (!reducer.result->IsTuple()) return outs[0];
  return Shape::Tuple(std::move(outs));
}

StatusOr<Shape> InferSelectAndScatter(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 3));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  const Shape& source = instr.operand(1)->shape();
  const Shape& init = instr.operand(2)->shape();
  ASSIGN_OR_RETURN(ProgramShape select, CalledProgram(instr, "select"));
  const std::string sel = "select computation '" + select.comp->name() + "'";
  if (select.params.size() != 2)
    return Fail(sel + " takes " + std::to_string(select.params.size()) + " parameter(s) but must take 2");
  if (!ShapesCompatible(*select.result, Shape::Scalar(PrimitiveType::kPred)))
    return Fail(sel + " returns " + Str(*select.result) + " but must return pred[]");
  Shape elem = Shape::Scalar(in.element_type());
  for (int i = 0; i < 2; ++i)
    if (!ShapesCompatible(elem, *select.params[i], /*ignore_fp_precision=*/true))
      return Fail(sel + ": parameter " + std::to_string(i) + " has shape " + Str(*select.params[i]) +
                  " but the operand elements are " + Str(elem));
  ASSIGN_OR_RETURN(ProgramShape scatter, CalledProgram(instr, "scatter"));
  RETURN_IF_ERROR(VerifyReducer(scatter, {&init}, {source.element_type()}, "scatter computation"));
  ASSIGN_OR_RETURN(Shape windowed, WindowOutputShape(in, WindowOf(instr), in.element_type()));
  if (!ShapesCompatible(source, windowed, /*ignore_fp_precision=*/true))
    return Fail(Operand(instr, 1) + ", the source, has shape " + Str(source) +
                " but the window over the operand " + Str(in) + " gives " + Str(windowed));
  return NoLayout(in);
}

StatusOr<Shape> InferSort(const Instruction& instr) {
  const int n = instr.operand_count();
  if (n < 1) return Fail("sort needs at least one operand");
  for (int i = 0; i < n; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& first = instr.operand(0)->shape();
  for (int i = 1; i < n; ++i)
    if (instr.operand(i)->shape().dims() != first.dims())
      return Fail(Operand(instr, i) + " has shape " + Str(instr.operand(i)->shape()) +
                  " but the dimensions of " + Str(first) +
                  " were expected (sort keys and values must have the same dimensions)");
  if (instr.dimensions().size() != 1)
    return Fail("sort needs exactly one dimension in dimensions=, got " + IntList(instr.dimensions()));
  int64_t d = instr.dimensions()[0];
  if (d < 0 || d >= first.rank())
    return Fail("sort dimension " + std::to_string(d) + " is out of range for " + Str(first));
  ASSIGN_OR_RETURN(ProgramShape cmp, CalledProgram(instr, "to_apply"));
  const std::string name = "comparator '" + cmp.comp->name() + "'";
  if (!ShapesCompatible(*cmp.result, Shape::Scalar(PrimitiveType::kPred)))
    return Fail(name + " returns " + Str(*cmp.result) + " but must return pred[]");
  if (cmp.params.size() != static_cast<size_t>(2 * n))
    return Fail(name + " takes " + std::to_string(cmp.params.size()) + " parameter(s) but sort of " +
                std::to_string(n) + " operand(s) needs " + std::to_string(2 * n));
  for (size_t p = 0; p < cmp.params.size(); ++p) {
    Shape want = Shape::Scalar(instr.operand(static_cast<int>(p / 2))->shape().element_type());
    if (!ShapesCompatible(want, *cmp.params[p], /*ignore_fp_precision=*/true))
      return Fail(name + ": parameter " + std::to_string(p) + " has shape " + Str(*cmp.params[p]) + " but " +
                  Str(want) + " was expected (parameters 2k and 2k+1 compare elements of operand k)");
  }
  if (n == 1) return NoLayout(first);
  std::vector<Shape> elems;
  for (const Instruction* o : instr.operands()) elems.push_back(NoLayout(o->shape()));
  return Shape::Tuple(std::move(elems));
}

StatusOr<Shape> InferMap(const Instruction& instr) {
  const int n = instr.operand_count();
  if (n < 1) return Fail("map needs at least one operand");
  for (int i = 0; i < n; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape* arg = &instr.operand(0)->shape();
  for (int i = 1; i < n; ++i) {
    const Shape& s = instr.operand(i)->shape();
    if (SameDimsCompatible(s, *arg)) continue;
    if (SameTypeIgnoringFp(s.element_type(), arg->element_type())) {
      if (s.rank() == 0) continue;
      if (arg->rank() == 0) {
        arg = &s;
        continue;
      }
    }
    return Fail(Operand(instr, i) + " has shape " + Str(s) + " but map needs operands of the same shape as " +
                Str(*arg));
  }
  ASSIGN_OR_RETURN(ProgramShape fn, CalledProgram(instr, "to_apply"));
  const std::string name = "mapped computation '" + fn.comp->name() + "'";
  if (fn.params.size() != static_cast<size_t>(n))
    return Fail(name + " takes " + std::to_string(fn.params.size()) + " parameter(s) but map has " +
                std::to_string(n) + " operand(s)");
  if (!fn.result->IsArray() || fn.result->rank() != 0)
    return Fail(name + " returns " + Str(*fn.result) + " but must return a scalar");
  for (int i = 0; i < n; ++i) {
    const Shape& p = *fn.params[i];
    if (!p.IsArray() || p.rank() != 0)
      return Fail(name + ": parameter " + std::to_string(i) + " has shape " + Str(p) +
                  " but must be a scalar");
    if (!SameTypeIgnoringFp(p.element_type(), instr.operand(i)->shape().element_type()))
      return Fail(name + ": parameter " + std::to_string(i) + " has shape " + Str(p) + " but " +
                  Operand(instr, i) + " has elements of type " +
                  std::string(PrimitiveTypeName(instr.operand(i)->shape().element_type())));
  }
  return WithType(*arg, fn.result->element_type());
}

StatusOr<Shape> InferTopK(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  auto k = RawInt(instr, "k");
  if (!k) return Fail("topk needs k=");
  if (in.rank() == 0) return Fail("topk needs an operand of rank at least 1, got " + Str(in));
  const int last = in.rank() - 1;
  if (in.dim(last) < *k)
    return Fail("k=" + std::to_string(*k) + " is larger than the last dimension of " + Str(in));
  Shape values = NoLayout(in);
  values.mutable_dims()[last] = *k;
  values.SetDynamicDim(last, false);
  return Shape::Tuple({values, WithType(values, PrimitiveType::kS32)});
}

}  // namespace

StatusOr<Shape> InferReduction(const Instruction& instr) {
  switch (instr.opcode()) {
    case Opcode::kReduce:
      return InferReduce(instr);
    case Opcode::kReduceWindow:
      return InferReduceWindow(instr);
    case Opcode::kSelectAndScatter:
      return InferSelectAndScatter(instr);
    case Opcode::kSort:
      return InferSort(instr);
    case Opcode::kMap:
      return InferMap(instr);
    case Opcode::kTopK:
      return InferTopK(instr);
    default:
      return Fail("no reduction shape rule for " + Op(instr));
  }
}

}  // namespace hloscope::infer
