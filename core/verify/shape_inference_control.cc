// Calls and control flow (call, fusion, while, conditional) with their
// called computations' signatures, plus the ops whose result shape XLA fixes
// outright (send/recv-done, copy-start/done, tokens, ids, rng state,
// opt-barrier, domain) and batch normalization.
#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {
namespace {

const Shape& Token() {
  static const Shape kToken = Shape::Scalar(PrimitiveType::kToken);
  return kToken;
}

Status ExpectTokenOperand(const Instruction& instr, int i) {
  if (i < instr.operand_count() && instr.operand(i)->shape().IsToken()) return Status::Ok();
  return Fail(Operand(instr, i) + " must be a token" +
              (i < instr.operand_count() ? ", not " + Str(instr.operand(i)->shape()) : std::string()));
}

StatusOr<Shape> InferCallLike(const Instruction& instr) {
  const bool fusion = instr.opcode() == Opcode::kFusion;
  ASSIGN_OR_RETURN(ProgramShape p, CalledProgram(instr, fusion ? "calls" : "to_apply"));
  auto name = [&] {  // errors only
    return (fusion ? "fused computation '" : "called computation '") + p.comp->name() + "'";
  };
  if (fusion ? p.params.size() > static_cast<size_t>(instr.operand_count())
             : p.params.size() != static_cast<size_t>(instr.operand_count()))
    return Fail(name() + " takes " + std::to_string(p.params.size()) + " parameter(s) but " + Op(instr) +
                " passes " + std::to_string(instr.operand_count()) + " operand(s)");
  for (size_t i = 0; i < p.params.size(); ++i)
    if (!ShapesCompatible(instr.operand(static_cast<int>(i))->shape(), *p.params[i]))
      return Fail(Operand(instr, static_cast<int>(i)) + " has shape " +
                  Str(instr.operand(static_cast<int>(i))->shape()) + " but parameter " + std::to_string(i) +
                  " of " + name() + " is " + Str(*p.params[i]));
  return NoLayout(*p.result);
}

StatusOr<Shape> InferWhile(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  ASSIGN_OR_RETURN(ProgramShape cond, CalledProgram(instr, "condition"));
  ASSIGN_OR_RETURN(ProgramShape body, CalledProgram(instr, "body"));
  const Shape& init = instr.operand(0)->shape();
  const std::string c = "condition '" + cond.comp->name() + "'", b = "body '" + body.comp->name() + "'";
  if (cond.params.size() != 1)
    return Fail(c + " takes " + std::to_string(cond.params.size()) + " parameter(s) but must take 1");
  if (body.params.size() != 1)
    return Fail(b + " takes " + std::to_string(body.params.size()) + " parameter(s) but must take 1");
  if (!ShapesCompatible(*cond.result, Shape::Scalar(PrimitiveType::kPred)))
    return Fail(c + " returns " + Str(*cond.result) + " but must return pred[]");
  if (!ShapesCompatible(*body.result, *body.params[0]))
    return Fail(b + " returns " + Str(*body.result) + " but its parameter is " + Str(*body.params[0]) +
                " (the loop state must keep its shape)");
  if (!ShapesCompatible(*body.result, init))
    return Fail(Operand(instr, 0) + ", the initial loop state, has shape " + Str(init) + " but " + b +
                " returns " + Str(*body.result));
  if (!ShapesCompatible(*body.result, *cond.params[0]))
    return Fail(c + " takes " + Str(*cond.params[0]) + " but " + b + " returns " + Str(*body.result));
  return NoLayout(*body.result);
}

StatusOr<Shape> InferConditional(const Instruction& instr) {
  if (instr.operand_count() < 1) return Fail("conditional needs a branch index operand");
  const Shape& index = instr.operand(0)->shape();
  const bool is_pred = ShapesCompatible(index, Shape::Scalar(PrimitiveType::kPred));
  if (!is_pred && !ShapesCompatible(index, Shape::Scalar(PrimitiveType::kS32)))
    return Fail(Operand(instr, 0) + ", the branch index, has shape " + Str(index) +
                " but must be pred[] or s32[]");
  std::vector<const Computation*> branches = BranchComputations(instr);
  if (is_pred && branches.size() != 2)
    return Fail("a conditional on a pred needs 2 branches (true_computation, false_computation), has " +
                std::to_string(branches.size()));
  if (branches.empty()) return Fail("conditional has no branch computations");
  if (instr.operand_count() != static_cast<int>(branches.size()) + 1)
    return Fail("conditional with " + std::to_string(branches.size()) + " branch(es) takes " +
                std::to_string(branches.size() + 1) + " operands (index, then one per branch) but has " +
                std::to_string(instr.operand_count()));
  Shape result;
  for (size_t j = 0; j < branches.size(); ++j) {
    ASSIGN_OR_RETURN(ProgramShape p, ProgramOf(instr, branches[j], "branch"));
    const std::string name = "branch " + std::to_string(j) + " ('" + p.comp->name() + "')";
    if (p.params.size() != 1)
      return Fail(name + " takes " + std::to_string(p.params.size()) + " parameter(s) but must take 1");
    const Shape& arg = instr.operand(static_cast<int>(j) + 1)->shape();
    if (!ShapesCompatible(*p.params[0], arg))
      return Fail(Operand(instr, static_cast<int>(j) + 1) + " has shape " + Str(arg) + " but " + name +
                  " takes " + Str(*p.params[0]));
    if (j == 0) {
      result = NoLayout(*p.result);
    } else if (!ShapesCompatible(result, *p.result)) {
      return Fail(name + " returns " + Str(*p.result) + " but branch 0 returns " + Str(result) +
                  " (all branches must return the same shape)");
    }
  }
  return result;
}

StatusOr<Shape> InferBatchNorm(const Instruction& instr) {
  const Opcode op = instr.opcode();
  RETURN_IF_ERROR(ExpectOperandCount(instr, op == Opcode::kBatchNormTraining ? 3 : 5));
  for (int i = 0; i < instr.operand_count(); ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& x = instr.operand(0)->shape();
  auto fi = RawInt(instr, "feature_index");
  if (!fi) return Fail(Op(instr) + " needs feature_index=");
  if (!IsFloat(x.element_type())) return Fail(Op(instr) + " needs a floating-point operand, got " + Str(x));
  if (*fi < 0 || *fi >= x.rank())
    return Fail("feature_index=" + std::to_string(*fi) + " is out of range for " + Str(x));
  const int64_t features = x.dim(static_cast<int>(*fi));
  Shape vec = MakeArray(x.element_type(), {features});
  for (int i = 1; i < instr.operand_count(); ++i) {
    const Shape& s = instr.operand(i)->shape();
    bool is_grad_output = op == Opcode::kBatchNormGrad && i == 4;
    const Shape& want = is_grad_output ? x : vec;
    if (!ShapesCompatible(s, want, /*ignore_fp_precision=*/true))
      return Fail(Operand(instr, i) + " has shape " + Str(s) + " but " + Str(want) + " was expected");
  }
  if (op == Opcode::kBatchNormInference) return NoLayout(x);
  return Shape::Tuple({NoLayout(x), vec, vec});
}

}  // namespace

StatusOr<Shape> InferControlFlow(const Instruction& instr) {
  switch (instr.opcode()) {
    case Opcode::kCall:
    case Opcode::kFusion:
      return InferCallLike(instr);
    case Opcode::kWhile:
      return InferWhile(instr);
    case Opcode::kConditional:
      return InferConditional(instr);
    case Opcode::kSend:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
      return Shape::Tuple({NoLayout(instr.operand(0)->shape()), Shape::Scalar(PrimitiveType::kU32), Token()});
    case Opcode::kSendDone:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
      return Token();
    case Opcode::kRecvDone: {
      RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
      const Shape& r = instr.operand(0)->shape();
      if (!r.IsTuple() || r.tuple_size() < 1)
        return Fail(Operand(instr, 0) + " has shape " + Str(r) +
                    " but recv-done needs the tuple a recv produces");
      return Shape::Tuple({NoLayout(r.tuple_shapes()[0]), Token()});
    }
    case Opcode::kOutfeed:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
      RETURN_IF_ERROR(ExpectTokenOperand(instr, 1));
      return Token();
    case Opcode::kAfterAll:
      return Token();
    case Opcode::kAddDependency:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
      RETURN_IF_ERROR(ExpectTokenOperand(instr, 1));
      return NoLayout(instr.operand(0)->shape());
    case Opcode::kCopyStart: {
      RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
      Shape s = NoLayout(instr.operand(0)->shape());
      return Shape::Tuple({s, s, Shape::Scalar(PrimitiveType::kU32)});
    }
    case Opcode::kCopyDone: {
      RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
      const Shape& t = instr.operand(0)->shape();
      if (!t.IsTuple() || t.tuple_size() < 2)
        return Fail(Operand(instr, 0) + " has shape " + Str(t) +
                    " but copy-done needs the tuple a copy-start produces");
      if (!ShapesCompatible(t.tuple_shapes()[0], t.tuple_shapes()[1]))
        return Fail("the source and destination buffers in " + Str(t) + " differ");
      return NoLayout(t.tuple_shapes()[0]);
    }
    case Opcode::kPartitionId:
    case Opcode::kReplicaId:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 0));
      return Shape::Scalar(PrimitiveType::kU32);
    case Opcode::kRngGetAndUpdateState:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 0));
      return MakeArray(PrimitiveType::kU64, {2});
    case Opcode::kRngBitGenerator: {
      RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
      if (!HasDeclaredShape(instr))
        return Fail("cannot infer the shape of rng-bit-generator: the output shape must be written");
      const Shape& s = instr.shape();
      if (s.IsTuple()) {
        if (s.tuple_size() != 2)
          return Fail("rng-bit-generator produces (state, bits), but the shape " + Str(s) + " has " +
                      std::to_string(s.tuple_size()) + " element(s)");
        if (!ShapesCompatible(instr.operand(0)->shape(), s.tuple_shapes()[0]))
          return Fail("the output state " + Str(s.tuple_shapes()[0]) + " differs from the input state " +
                      Str(instr.operand(0)->shape()));
      }
      return NoLayout(s);
    }
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
      return NoLayout(instr.operand(0)->shape());
    case Opcode::kBatchNormTraining:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormGrad:
      return InferBatchNorm(instr);
    default:
      return Fail("no control-flow shape rule for " + Op(instr));
  }
}

}  // namespace hloscope::infer
