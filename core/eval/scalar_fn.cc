#include "core/eval/scalar_fn.h"

#include "core/ir/computation.h"

namespace hloscope::eval {

BinaryForm ClassifyBinary(const Computation& c, PrimitiveType t) {
  BinaryForm f;
  if (c.num_parameters() != 2) return f;
  const Instruction* p0 = c.parameter(0);
  const Instruction* p1 = c.parameter(1);
  const Instruction* r = c.root();
  if (!p0 || !p1 || !r) return f;
  Shape scalar = Shape::Scalar(t);
  if (!p0->shape().Compatible(scalar) || !p1->shape().Compatible(scalar) || !r->shape().Compatible(scalar)) return f;
  if (r == p0) return {Combiner::kTakeLhs, false};
  if (r == p1) return {Combiner::kTakeRhs, false};
  if (r->operand_count() != 2) return f;
  bool direct = r->operand(0) == p0 && r->operand(1) == p1;
  bool swapped = r->operand(0) == p1 && r->operand(1) == p0;
  if (!direct && !swapped) return f;
  Combiner k;
  switch (r->opcode()) {
    case Opcode::kAdd: k = Combiner::kAdd; break;
    case Opcode::kMultiply: k = Combiner::kMul; break;
    case Opcode::kMaximum: k = Combiner::kMax; break;
    case Opcode::kMinimum: k = Combiner::kMin; break;
    case Opcode::kAnd: k = Combiner::kAnd; break;
    case Opcode::kOr: k = Combiner::kOr; break;
    case Opcode::kXor: k = Combiner::kXor; break;
    default: return f;
  }
  bool is_float = IsFloat(t);
  if (is_float && (k == Combiner::kAnd || k == Combiner::kOr || k == Combiner::kXor)) return f;
  return {k, swapped};
}

CompareForm ClassifyComparator(const Computation& c, int num_operands) {
  CompareForm f;
  const Instruction* r = c.root();
  if (!r || r->opcode() != Opcode::kCompare || c.num_parameters() != 2 * num_operands) return f;
  const Instruction* a = r->operand(0);
  const Instruction* b = r->operand(1);
  if (a->opcode() != Opcode::kParameter || b->opcode() != Opcode::kParameter) return f;
  int64_t pa = a->parameter_number(), pb = b->parameter_number();
  if (pa / 2 != pb / 2 || pa == pb) return f;
  ComparisonDirection d = r->attrs().direction;
  bool lt = d == ComparisonDirection::kLt, gt = d == ComparisonDirection::kGt;
  if (!lt && !gt) return f;
  bool direct = pa % 2 == 0;  // compare(lhs, rhs)
  f.simple = true;
  f.operand = static_cast<int>(pa / 2);
  f.less = direct ? lt : gt;
  f.total = r->attrs().compare_type == "TOTALORDER";
  PrimitiveType t = a->shape().element_type();
  if (IsComplex(t) || !a->shape().IsArray() || a->shape().rank() != 0) f.simple = false;
  return f;
}

bool FastCombineType(PrimitiveType t) {
  if (t == PrimitiveType::kPred) return true;
  if (IsInteger(t)) return BitWidth(t) >= 8;
  return t == PrimitiveType::kF16 || t == PrimitiveType::kBF16 || t == PrimitiveType::kF32 ||
         t == PrimitiveType::kF64;
}

Literal ScalarAt(const Literal& l, int64_t i) {
  Literal s(Shape::Scalar(l.shape().element_type()));
  CopyElement(l, i, s, 0);
  return s;
}

ScalarCall::ScalarCall(Interp& in, const Computation& c, const std::vector<PrimitiveType>& arg_types)
    : in_(in), c_(c) {
  for (PrimitiveType t : arg_types) args_.emplace_back(Shape::Scalar(t));
  for (const Literal& a : args_) ptrs_.push_back(&a);
}

Status ScalarCall::Call() {
  StatusOr<Literal> r = in_.Run(c_, ptrs_);
  if (!r.ok()) return r.status();
  results_.clear();
  if (r->IsTuple()) {
    for (Literal& e : r->tuple_elements()) results_.push_back(std::move(e));
  } else {
    results_.push_back(std::move(*r));
  }
  for (const Literal& l : results_)
    if (!l.shape().IsArray() || l.num_elements() != 1)
      return Status::Error("computation %" + c_.name() + " must return scalars");
  return Status::Ok();
}

}  // namespace hloscope::eval
