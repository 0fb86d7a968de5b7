// InferShape's dispatch by opcode family, and the shape comparison the
// verifier uses (XLA's ShapeVerifier::CheckShape).
#include "core/verify/shape_inference.h"

#include "core/verify/shape_inference_internal.h"

namespace hloscope {

using infer::Fail;

bool HasShapeInferenceRule(const Instruction& instr) {
  switch (instr.opcode()) {
    // The result is whatever was declared (or the literal): nothing to infer.
    case Opcode::kParameter:
    case Opcode::kConstant:
    case Opcode::kBitcast:
    case Opcode::kCustomCall:
    case Opcode::kInfeed:
    case Opcode::kRecv:
    case Opcode::kRng:
    // Result shapes depend on replica groups, channels or wrapped computations.
    case Opcode::kAllGather:
    case Opcode::kAllGatherStart:
    case Opcode::kAllGatherDone:
    case Opcode::kRaggedAllToAll:
    case Opcode::kCollectivePermuteStart:
    case Opcode::kCollectivePermuteDone:
    case Opcode::kReduceScatter:
    case Opcode::kAsyncStart:
    case Opcode::kAsyncUpdate:
    case Opcode::kAsyncDone:
    case Opcode::kScan:
      return false;
    case Opcode::kDot:
      // A sparse dot (sparsity=..., metadata operands) is not modelled.
      return instr.operand_count() == 2;
    case Opcode::kCollectivePermute:
      // The in-place form (output buffer and start indices) writes into its
      // second operand.
      return instr.operand_count() == 1;
    default:
      return true;
  }
}

namespace {
// all-reduce (and -start), collective-broadcast, all-to-all, a
// collective-permute of one operand: as XLA's InferAllReduceShape and its
// kin, each operand's shape, a tuple of them for several; all-reduce-done:
// its operand's.
StatusOr<Shape> InferCollective(const Instruction& instr) {
  if (instr.opcode() == Opcode::kAllReduceDone) {
    if (instr.operand_count() != 1) return Fail(infer::Op(instr) + " takes one operand");
    return instr.operand(0)->shape();
  }
  if (instr.operand_count() == 0) return Fail(infer::Op(instr) + " needs at least one operand");
  // all-to-all without a split dimension is the tuple form, a tuple even of one.
  const bool tuple_form = instr.opcode() == Opcode::kAllToAll && instr.dimensions().empty();
  if (instr.operand_count() == 1 && !tuple_form) return instr.operand(0)->shape();
  std::vector<Shape> parts;
  for (const Instruction* o : instr.operands()) parts.push_back(o->shape());
  return Shape::Tuple(std::move(parts));
}
}  // namespace

StatusOr<Shape> InferShape(const Instruction& instr) {
  for (int i = 0; i < instr.operand_count(); ++i)
    if (!instr.operand(i)) return Fail(infer::Operand(instr, i) + " is missing");
  if (!HasShapeInferenceRule(instr)) {
    std::string why = "its result shape is not determined by its operands and must be written";
    if (instr.opcode() == Opcode::kDot) why = "sparse dots are not modelled";
    return Fail("cannot infer the shape of " + infer::Op(instr) + ": " + why);
  }
  switch (instr.opcode()) {
    case Opcode::kAllReduce:
    case Opcode::kAllReduceStart:
    case Opcode::kAllReduceDone:
    case Opcode::kAllToAll:
    case Opcode::kCollectiveBroadcast:
    case Opcode::kCollectivePermute:
      return InferCollective(instr);
    case Opcode::kDot:
    case Opcode::kRaggedDot:
    case Opcode::kScaledDot:
    case Opcode::kConvolution:
    case Opcode::kFft:
    case Opcode::kTriangularSolve:
    case Opcode::kCholesky:
      return infer::InferContraction(instr);
    case Opcode::kGather:
      return infer::InferGather(instr);
    case Opcode::kScatter:
      return infer::InferScatter(instr);
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kSelectAndScatter:
    case Opcode::kSort:
    case Opcode::kMap:
    case Opcode::kTopK:
      return infer::InferReduction(instr);
    case Opcode::kCall:
    case Opcode::kFusion:
    case Opcode::kWhile:
    case Opcode::kConditional:
    case Opcode::kSend:
    case Opcode::kSendDone:
    case Opcode::kRecvDone:
    case Opcode::kOutfeed:
    case Opcode::kAfterAll:
    case Opcode::kAddDependency:
    case Opcode::kCopyStart:
    case Opcode::kCopyDone:
    case Opcode::kPartitionId:
    case Opcode::kReplicaId:
    case Opcode::kRngGetAndUpdateState:
    case Opcode::kRngBitGenerator:
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
    case Opcode::kBatchNormTraining:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormGrad:
      return infer::InferControlFlow(instr);
    default:
      break;
  }
  if (IsElementwise(instr.opcode()) || instr.opcode() == Opcode::kStochasticConvert)
    return infer::InferElementwise(instr);
  return infer::InferDataMovement(instr);
}

bool ShapesCompatible(const Shape& a, const Shape& b, bool ignore_fp_precision) {
  if (a.IsTuple() || b.IsTuple()) {
    if (!a.IsTuple() || !b.IsTuple() || a.tuple_size() != b.tuple_size()) return false;
    for (int i = 0; i < a.tuple_size(); ++i)
      if (!ShapesCompatible(a.tuple_shapes()[i], b.tuple_shapes()[i], ignore_fp_precision)) return false;
    return true;
  }
  if (!a.IsArray() || !b.IsArray()) return a.element_type() == b.element_type();
  bool types_ok = ignore_fp_precision ? infer::SameTypeIgnoringFp(a.element_type(), b.element_type())
                                      : a.element_type() == b.element_type();
  return types_ok && infer::SameDimsCompatible(a, b);
}

namespace {
// Opcodes that only move or reinterpret data: XLA's CheckShape never lets
// them change bf16 <-> f32 implicitly.
bool NeedsExactElementTypes(Opcode op) {
  switch (op) {
    case Opcode::kBitcast:
    case Opcode::kCall:
    case Opcode::kConditional:
    case Opcode::kConstant:
    case Opcode::kCopyDone:
    case Opcode::kCopyStart:
    case Opcode::kCustomCall:
    case Opcode::kGetTupleElement:
    case Opcode::kInfeed:
    case Opcode::kOutfeed:
    case Opcode::kOptimizationBarrier:
    case Opcode::kParameter:
    case Opcode::kRecv:
    case Opcode::kRecvDone:
    case Opcode::kSend:
    case Opcode::kSendDone:
    case Opcode::kTuple:
    case Opcode::kWhile:
    case Opcode::kDynamicUpdateSlice:
      return true;
    default:
      return false;
  }
}
}  // namespace

namespace {
// Fast path of CheckShapeCompatible for the commonest elementwise ops (most
// of a JAX module): when the operands and the result are static arrays with
// the same dimensions and element types that the op's rule accepts outright,
// InferShape would return the declared shape, so the check passes without
// building it. Anything else (including every error) takes the full rule.
bool PlainElementwiseOk(const Instruction& instr) {
  const Shape& r = instr.shape();
  if (!r.IsArray() || r.IsDynamic()) return false;
  const PrimitiveType t = r.element_type();
  int n = 1;
  bool same_type = true;
  switch (instr.opcode()) {
    case Opcode::kAdd:
    case Opcode::kMultiply:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
      n = 2;
      break;
    case Opcode::kSubtract:
    case Opcode::kDivide:
      if (t == PrimitiveType::kPred) return false;
      n = 2;
      break;
    case Opcode::kCopy:
      break;
    case Opcode::kConvert:
      same_type = false;
      break;
    case Opcode::kExp:
    case Opcode::kLog:
    case Opcode::kTanh:
    case Opcode::kRsqrt:
    case Opcode::kSqrt:
    case Opcode::kLogistic:
      if (!IsFloat(t)) return false;
      break;
    default:
      return false;
  }
  if (instr.operand_count() != n) return false;
  for (int i = 0; i < n; ++i) {
    const Instruction* o = instr.operand(i);
    if (!o) return false;
    const Shape& s = o->shape();
    if (!s.IsArray() || s.IsDynamic() || s.dims() != r.dims() || (same_type && s.element_type() != t))
      return false;
  }
  return true;
}
}  // namespace

Status CheckShapeCompatible(const Instruction& instr, bool allow_mixed_precision) {
  if (PlainElementwiseOk(instr)) return Status::Ok();
  if (!HasShapeInferenceRule(instr)) return Status::Ok();
  auto inferred = InferShape(instr);
  if (!inferred.ok()) return inferred.status();
  bool ignore_fp = allow_mixed_precision && !NeedsExactElementTypes(instr.opcode());
  if (ShapesCompatible(instr.shape(), *inferred, ignore_fp)) return Status::Ok();
  std::string msg = "has shape " + infer::Str(instr.shape()) + " but its operands and attributes give " +
                    infer::Str(*inferred);
  if (instr.shape().IsArray() && inferred->IsArray() && instr.shape().rank() == inferred->rank() &&
      infer::SameDimsCompatible(instr.shape(), *inferred)) {
    msg += " (the element type differs";
    if (IsFloat(instr.shape().element_type()) && IsFloat(inferred->element_type()))
      msg += allow_mixed_precision ? "; " + infer::Op(instr) + " may not change floating precision"
                                   : "; mixed precision is not allowed";
    msg += ")";
  }
  return Fail(msg);
}

}  // namespace hloscope
