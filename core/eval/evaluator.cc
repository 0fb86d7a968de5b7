// The interpreter's driver: computation plans (reachable instructions in
// operand-first order with use counts, so values die as early as they can),
// argument checks, and the opcode dispatch to the op families.
#include "core/eval/evaluator.h"

#include <cmath>
#include <complex>

#include "core/eval/eval_internal.h"
#include "core/ir/computation.h"
#include "core/ir/custom_calls.h"

namespace hloscope {
namespace eval {

// A value of `value`'s shape can be that of an instruction declared `declared`:
// compatible shapes, a buffer b(f32[2]) holding an f32[2] value.
bool ValueFits(const Shape& value, const Shape& declared) {
  if (value.element_type() != declared.element_type()) return false;
  if (value.IsTuple()) {
    if (value.tuple_size() != declared.tuple_size()) return false;
    for (int i = 0; i < value.tuple_size(); ++i)
      if (!ValueFits(value.tuple_shapes()[i], declared.tuple_shapes()[i])) return false;
    return true;
  }
  return value.dims() == declared.dims();
}

struct Interp::Plan {
  std::vector<const Instruction*> order;
  std::vector<std::vector<int>> operand_slots;
  std::vector<int> uses;
  int root = -1;
};

Interp::Interp(const EvalOptions& opts) : opts_(opts) {}

namespace {

// -0 becomes +0 in every floating element of `l` (EvalOptions::signed_zeros).
void ClearSignOfZeros(Literal& l) {
  if (l.IsTuple()) {
    for (Literal& e : l.tuple_elements()) ClearSignOfZeros(e);
    return;
  }
  if (l.elided() || !l.shape().IsArray()) return;
  PrimitiveType t = l.shape().element_type();
  if (IsFloat(t)) {
    for (int64_t i = 0; i < l.num_elements(); ++i) {
      double v = l.GetDouble(i);
      if (v == 0 && std::signbit(v)) l.SetDouble(i, 0.0);
    }
  } else if (IsComplex(t)) {
    for (int64_t i = 0; i < l.num_elements(); ++i) {
      std::complex<double> v = l.GetComplex(i);
      if ((v.real() == 0 && std::signbit(v.real())) || (v.imag() == 0 && std::signbit(v.imag())))
        l.SetComplex(i, {v.real() == 0 ? 0.0 : v.real(), v.imag() == 0 ? 0.0 : v.imag()});
    }
  }
}

}  // namespace
Interp::~Interp() = default;

Status InstrError(const Instruction& instr, const std::string& message) {
  std::string loc;
  const Computation* c = instr.parent();
  const Module* m = c ? c->parent() : nullptr;
  if (m && !m->source_path().empty()) loc = m->source_path() + ":";
  if (instr.loc().line > 0)
    loc += std::to_string(instr.loc().line) + ":" + std::to_string(instr.loc().col) + ":";
  if (!loc.empty()) loc += " ";
  return Status::Error(loc + "error: cannot evaluate %" + instr.name() + " (" +
                       std::string(OpcodeName(instr.opcode())) + "): " + message);
}

Status Unsupported(const Instruction& instr, const std::string& why) {
  return InstrError(instr, "'" + std::string(OpcodeName(instr.opcode())) +
                               "' is not supported by the interpreter: " + why);
}

const Interp::Plan& Interp::PlanFor(const Computation& c) {
  auto it = plans_.find(&c);
  if (it != plans_.end()) return *it->second;
  auto plan = std::make_unique<Plan>();
  std::unordered_map<const Instruction*, int> live;
  // Reachable from the root through operands.
  std::vector<const Instruction*> stack;
  if (c.root()) stack.push_back(c.root());
  std::unordered_map<const Instruction*, bool> reach;
  while (!stack.empty()) {
    const Instruction* i = stack.back();
    stack.pop_back();
    if (reach[i]) continue;
    reach[i] = true;
    for (const Instruction* o : i->operands())
      if (!reach[o]) stack.push_back(o);
  }
  for (const Instruction* i : c.MakePostOrder()) {
    if (!reach[i]) continue;
    live[i] = static_cast<int>(plan->order.size());
    plan->order.push_back(i);
  }
  plan->uses.assign(plan->order.size(), 0);
  plan->operand_slots.resize(plan->order.size());
  for (size_t k = 0; k < plan->order.size(); ++k) {
    for (const Instruction* o : plan->order[k]->operands()) {
      int s = live.at(o);
      plan->operand_slots[k].push_back(s);
      ++plan->uses[s];
    }
  }
  if (c.root()) {
    plan->root = live.at(c.root());
    ++plan->uses[plan->root];
  }
  auto& ref = *plan;
  plans_[&c] = std::move(plan);
  return ref;
}

StatusOr<Literal> Interp::Run(const Computation& c, Operands args) {
  if (!c.root()) return Status::Error("computation %" + c.name() + " has no root instruction");
  if (static_cast<int>(args.size()) != c.num_parameters())
    return Status::Error("computation %" + c.name() + " takes " + std::to_string(c.num_parameters()) +
                         " arguments but was given " + std::to_string(args.size()));
  if (depth_ > 200) return Status::Error("computation %" + c.name() + ": calls nested too deeply");
  const Plan& p = PlanFor(c);
  size_t n = p.order.size();
  std::vector<Literal> owned(n);
  std::vector<const Literal*> val(n, nullptr);
  std::vector<int> remaining = p.uses;
  std::vector<const Literal*> ops;
  struct DepthGuard {
    int& d;
    ~DepthGuard() { --d; }
  } guard{++depth_};
  for (size_t k = 0; k < n; ++k) {
    const Instruction& instr = *p.order[k];
    const auto& slots = p.operand_slots[k];
    if (instr.opcode() == Opcode::kParameter) {
      int64_t num = instr.parameter_number();
      if (num < 0 || num >= static_cast<int64_t>(args.size()) || c.parameter(static_cast<int>(num)) != &instr)
        return InstrError(instr, "parameter number " + std::to_string(num) + " is not a parameter of %" + c.name());
      const Literal* a = args[num];
      if (!ValueFits(a->shape(), instr.shape()))
        return InstrError(instr, "argument " + std::to_string(num) + " has shape " +
                                     a->shape().ToString(false) + " but the parameter is " +
                                     instr.shape().ToString(false));
      if (a->elided()) return InstrError(instr, "argument " + std::to_string(num) + " has no values");
      val[k] = a;
      continue;
    }
    bool steal_gte = instr.opcode() == Opcode::kGetTupleElement && slots.size() == 1 &&
                     remaining[slots[0]] == 1 && val[slots[0]] == &owned[slots[0]] &&
                     owned[slots[0]].IsTuple() && instr.tuple_index() >= 0 &&
                     instr.tuple_index() < static_cast<int64_t>(owned[slots[0]].tuple_elements().size());
    if (steal_gte) {
      owned[k] = std::move(owned[slots[0]].tuple_elements()[instr.tuple_index()]);
      val[k] = &owned[k];
    } else {
      ops.clear();
      for (int s : slots) ops.push_back(val[s]);
      StatusOr<Literal> r = Eval(instr, ops);
      if (!r.ok()) return r.status();
      if (!ValueFits(r->shape(), instr.shape()))
        return InstrError(instr, "computed a value of shape " + r->shape().ToString(false) +
                                     " but the instruction is declared " + instr.shape().ToString(false));
      owned[k] = std::move(*r);
      if (!opts_.signed_zeros) ClearSignOfZeros(owned[k]);
      val[k] = &owned[k];
    }
    for (int s : slots) {
      if (--remaining[s] == 0 && val[s] == &owned[s]) {
        owned[s] = Literal();
        val[s] = nullptr;
      }
    }
  }
  int r = p.root;
  if (val[r] == &owned[r]) return std::move(owned[r]);
  return *val[r];
}

StatusOr<Literal> Interp::Eval(const Instruction& instr, Operands ops) {
  if (static_cast<int>(ops.size()) != instr.operand_count())
    return InstrError(instr, "expected " + std::to_string(instr.operand_count()) + " operand values, got " +
                                 std::to_string(ops.size()));
  for (const Literal* o : ops)
    if (!o) return InstrError(instr, "missing operand value");
  Opcode op = instr.opcode();
  switch (op) {
    case Opcode::kParameter:
      return InstrError(instr, "a parameter has no value outside its computation");
    case Opcode::kConstant: {
      const Literal* l = instr.literal();
      if (!l) return InstrError(instr, "constant has no literal");
      if (l->elided())
        return InstrError(instr, "the constant's values were elided ({...}) in the HLO text; "
                                 "the interpreter needs the full data");
      if (!l->shape().Compatible(instr.shape()))
        return InstrError(instr, "constant literal shape " + l->shape().ToString(false) +
                                     " does not match the instruction shape");
      return *l;
    }
    case Opcode::kIota: return EvalIota(instr);
    case Opcode::kConvert:
    case Opcode::kBitcastConvert:
    case Opcode::kReducePrecision: return EvalConvert(instr, ops);
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kBitcast:
    case Opcode::kTranspose:
    case Opcode::kCopy:
    case Opcode::kReverse:
    case Opcode::kSlice:
    case Opcode::kConcatenate:
    case Opcode::kPad:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice: return EvalDataMovement(instr, ops);
    case Opcode::kGather: return EvalGather(instr, ops);
    case Opcode::kScatter: return EvalScatter(*this, instr, ops);
    case Opcode::kReduce: return EvalReduce(*this, instr, ops);
    case Opcode::kReduceWindow: return EvalReduceWindow(*this, instr, ops);
    case Opcode::kSelectAndScatter: return EvalSelectAndScatter(*this, instr, ops);
    case Opcode::kSort: return EvalSort(*this, instr, ops);
    case Opcode::kDot: return EvalDot(instr, ops);
    case Opcode::kRaggedDot: return EvalRaggedDot(instr, ops);
    case Opcode::kScaledDot: return EvalScaledDot(instr, ops);
    case Opcode::kBatchNormTraining:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormGrad: return EvalBatchNorm(instr, ops);
    case Opcode::kStochasticConvert:
      return Unsupported(instr, "stochastic rounding (a convert whose rounding draws on a random operand) has no "
                                "reference implementation here");
    case Opcode::kConvolution: return EvalConvolution(instr, ops);
    case Opcode::kRngBitGenerator: return EvalRngBitGenerator(instr, ops);
    case Opcode::kTriangularSolve: return EvalTriangularSolve(instr, ops);
    case Opcode::kCholesky: return EvalCholesky(instr, ops);
    case Opcode::kFft: return EvalFft(instr, ops);
    case Opcode::kTopK: return EvalTopK(instr, ops);
    case Opcode::kTuple:
    case Opcode::kGetTupleElement:
    case Opcode::kCall:
    case Opcode::kFusion:
    case Opcode::kWhile:
    case Opcode::kConditional:
    case Opcode::kMap:
    case Opcode::kScan:
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
    case Opcode::kAddDependency:
    case Opcode::kAfterAll:
    case Opcode::kAsyncStart:
    case Opcode::kAsyncUpdate:
    case Opcode::kAsyncDone:
    case Opcode::kCopyStart:
    case Opcode::kCopyDone:
    case Opcode::kGetDimensionSize:
    case Opcode::kReplicaId:
    case Opcode::kPartitionId: return EvalControl(*this, instr, ops);
    case Opcode::kCustomCall:
      if (IsIdentityCustomCall(instr)) return *ops[0];
      if (IsCreateBufferCustomCall(instr)) return Literal(instr.shape().BufferElement());
      if (IsTopKCustomCall(instr)) return EvalTopK(instr, ops);  // largest: no "largest" attribute
      if (std::optional<LinalgCall> la = LinalgCustomCall(instr)) return EvalLinalgCall(instr, *la, ops);
      if (IsLuPivotsToPermutationCall(instr)) return EvalLuPivotsToPermutation(instr, ops);
      if (IsCudnnConvCustomCall(instr)) {  // the convolution it stands for, and an untouched scratch buffer
        Instruction conv(Opcode::kConvolution, ConvolutionResultShape(instr), instr.name());
        conv.attrs() = instr.attrs();
        conv.attrs().clear(Attr::kCustomCallTarget);
        conv.attrs().custom_call_target.clear();
        ASSIGN_OR_RETURN(Literal result, EvalConvolution(conv, ops));
        Literal out(instr.shape());
        out.tuple_elements()[0] = std::move(result);
        return out;
      }
      if (Opcode math = MathCustomCallOpcode(instr); math != Opcode::kParameter) {
        if (math == Opcode::kAtan2) return EvalAtan(instr, *ops[0]);  // atan(x), see custom_calls.h
        Instruction as_op(math, instr.shape(), instr.name());
        return EvalElementwise(as_op, ops);
      }
      return Unsupported(instr, "custom-call target \"" + instr.attrs().custom_call_target +
                                    "\" is backend-specific and has no reference semantics");
    case Opcode::kRng: return EvalRng(*this, instr, ops);
    case Opcode::kRngGetAndUpdateState: return EvalRngGetAndUpdateState(*this, instr);
    case Opcode::kInfeed:
    case Opcode::kOutfeed:
    case Opcode::kSend:
    case Opcode::kSendDone:
    case Opcode::kRecv:
    case Opcode::kRecvDone:
      return Unsupported(instr, "it exchanges data with the host or another device");
    default:
      if (IsElementwise(op) || op == Opcode::kSelect || op == Opcode::kClamp || op == Opcode::kCompare ||
          op == Opcode::kComplex || op == Opcode::kReal || op == Opcode::kImag)
        return EvalElementwise(instr, ops);
      // One-device collectives are values (eval_control.cc); the others,
      // and async wrappers of them, say why they are not.
      if (IsCollective(op)) return EvalControl(*this, instr, ops);
      if (IsAsyncOpcode(op)) return Unsupported(instr, "collective operations need several devices");
      return Unsupported(instr, "no reference implementation for this op");
  }
}

}  // namespace eval

StatusOr<Literal> EvaluateComputation(const Computation& c, const std::vector<Literal>& args,
                                      const EvalOptions& opts) {
  std::vector<const Literal*> ptrs;
  for (const Literal& a : args) ptrs.push_back(&a);
  eval::Interp in(opts);
  return in.Run(c, ptrs);
}

Status ModuleEvaluable(const Module& m) {
  if (!m.entry()) return Status::Error("module " + m.name() + " has no entry computation");
  const DeviceGrid grid = ModuleDeviceGrid(m);
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (Status s = eval::CollectiveEvaluable(*i, grid); !s.ok()) return s;
  return Status::Ok();
}

StatusOr<Literal> EvaluateModule(const Module& m, const std::vector<Literal>& args, const EvalOptions& opts) {
  // A collective across several devices ends the evaluation wherever it
  // is: say so before the work up to it.
  RETURN_IF_ERROR(ModuleEvaluable(m));
  return EvaluateComputation(*m.entry(), args, opts);
}

namespace {
thread_local bool signed_zeros_default = true;
}  // namespace

bool DefaultSignedZeros() { return signed_zeros_default; }
UnsignedZerosScope::UnsignedZerosScope() : saved_(signed_zeros_default) { signed_zeros_default = false; }
UnsignedZerosScope::~UnsignedZerosScope() { signed_zeros_default = saved_; }

StatusOr<Literal> EvaluateInstruction(const Instruction& instr, const std::vector<const Literal*>& operands,
                                      const EvalOptions& opts) {
  eval::Interp in(opts);
  StatusOr<Literal> r = in.Eval(instr, operands);
  if (r.ok() && !eval::ValueFits(r->shape(), instr.shape()))
    return eval::InstrError(instr, "computed a value of shape " + r->shape().ToString(false) +
                                       " but the instruction is declared " + instr.shape().ToString(false));
  if (r.ok() && !opts.signed_zeros) eval::ClearSignOfZeros(*r);
  return r;
}

}  // namespace hloscope
