// Structure and control flow: tuple, get-tuple-element, call, fusion (runs
// its fused computation), while, conditional (pred or branch index; an out
// of range index runs the last branch), map, and the value-preserving ops
// (opt-barrier, domain, add-dependency, async and copy start/done pairs).
#include "core/eval/scalar_fn.h"
#include "core/eval/eval_devices.h"
#include "core/ir/collectives.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"

namespace hloscope::eval {
namespace {

StatusOr<Literal> RunCalled(Interp& in, const Instruction& instr, const Computation* c, Operands ops) {
  if (!c) return InstrError(instr, "missing called computation");
  StatusOr<Literal> r = in.Run(*c, ops);
  if (!r.ok() && r.status().message().find("error: cannot evaluate") == std::string::npos)
    return InstrError(instr, r.status().message());
  return r;
}

StatusOr<Literal> While(Interp& in, const Instruction& instr, const Literal& init) {
  const Computation* cond = instr.called("condition");
  const Computation* body = instr.called("body");
  if (!cond || !body) return InstrError(instr, "while needs condition and body computations");
  Literal state = init;
  for (int64_t iter = 0;; ++iter) {
    const Literal* arg = &state;
    ASSIGN_OR_RETURN(Literal p, RunCalled(in, instr, cond, Operands(&arg, 1)));
    if (p.IsTuple() || p.shape().element_type() != PrimitiveType::kPred || p.num_elements() != 1)
      return InstrError(instr, "condition must return a pred scalar");
    if (!p.raw()[0]) return state;
    if (iter >= in.opts().max_while_iterations)
      return InstrError(instr, "while loop did not finish within max_while_iterations (" +
                                   std::to_string(in.opts().max_while_iterations) + ")");
    ASSIGN_OR_RETURN(state, RunCalled(in, instr, body, Operands(&arg, 1)));
  }
}

StatusOr<Literal> Conditional(Interp& in, const Instruction& instr, Operands ops) {
  std::vector<Computation*> branches;
  for (const CalledRef& r : instr.called_refs())
    if (r.attr == "branch_computations") branches = r.comps;
  if (branches.empty()) {
    Computation* t = instr.called("true_computation");
    Computation* f = instr.called("false_computation");
    if (!t || !f) return InstrError(instr, "conditional needs branch computations");
    branches = {t, f};
  }
  const Literal& sel = *ops[0];
  if (sel.IsTuple() || sel.num_elements() != 1) return InstrError(instr, "the branch selector must be a scalar");
  int64_t b;
  if (sel.shape().element_type() == PrimitiveType::kPred) {
    b = sel.raw()[0] ? 0 : 1;
  } else if (IsInteger(sel.shape().element_type())) {
    b = sel.GetInt(0);
    if (b < 0 || b >= static_cast<int64_t>(branches.size())) b = static_cast<int64_t>(branches.size()) - 1;
  } else {
    return InstrError(instr, "the branch selector must be pred or an integer");
  }
  if (static_cast<int64_t>(ops.size()) != static_cast<int64_t>(branches.size()) + 1)
    return InstrError(instr, "needs one operand per branch");
  return RunCalled(in, instr, branches[b], ops.subspan(b + 1, 1));
}

StatusOr<Literal> Map(Interp& in, const Instruction& instr, Operands ops) {
  const Computation* fn = instr.to_apply();
  if (!fn || ops.empty()) return InstrError(instr, "map needs operands and to_apply");
  Literal out(NoLayout(instr.shape()));
  std::vector<PrimitiveType> types;
  for (const Literal* o : ops) {
    if (o->num_elements() != out.num_elements()) return InstrError(instr, "operands must match the result size");
    types.push_back(o->shape().element_type());
  }
  ScalarCall call(in, *fn, types);
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    for (size_t k = 0; k < ops.size(); ++k) CopyElement(*ops[k], i, call.arg(static_cast<int>(k)), 0);
    Status st = call.Call();
    if (!st.ok()) return InstrError(instr, "mapped computation: " + st.message());
    if (call.results()[0].shape().element_type() != out.shape().element_type())
      return InstrError(instr, "mapped computation returns the wrong type");
    CopyElement(call.results()[0], 0, out, i);
  }
  return out;
}

// scan (XLA's HloScanInstruction; JAX's GPU lowering of cumsum, cumprod,
// cummax, … writes it): operands are the inputs, then num_carries initial
// carries; to_apply maps (each input's slice at one position along the scan
// dimension, the carries) to (the outputs' slices …, the new carries …); the
// result is the output arrays (the slices stacked along the scan dimension),
// then the final carries, as a tuple unless it is one array. is_reverse walks
// the dimension from its end.
StatusOr<Literal> Scan(Interp& in, const Instruction& instr, Operands ops) {
  const Computation* fn = instr.to_apply();
  if (!fn) return InstrError(instr, "scan needs to_apply");
  const RawAttr* carries_attr = instr.FindRaw("num_carries");
  int64_t carries = -1;
  if (carries_attr) carries = std::strtoll(carries_attr->value.c_str(), nullptr, 10);
  if (carries < 0 || carries > static_cast<int64_t>(ops.size()))
    return InstrError(instr, "scan needs num_carries between 0 and its operand count");
  if (instr.dimensions().size() != 1) return InstrError(instr, "scan needs one scan dimension (dimensions={d})");
  const int d = static_cast<int>(instr.dimensions()[0]);
  const RawAttr* rev = instr.FindRaw("is_reverse");
  const bool reverse = rev && rev->value == "true";
  const int64_t inputs = static_cast<int64_t>(ops.size()) - carries;
  std::vector<Shape> leaves;
  if (instr.shape().IsTuple()) leaves = instr.shape().tuple_shapes();
  else leaves = {instr.shape()};
  const int64_t outputs = static_cast<int64_t>(leaves.size()) - carries;
  if (outputs < 0) return InstrError(instr, "scan returns fewer values than it has carries");
  // The scan length and each array's split around the scan dimension.
  auto split = [&](const Shape& s, int64_t* outer, int64_t* len, int64_t* inner) -> bool {
    if (!s.IsArray() || d < 0 || d >= s.rank()) return false;
    *outer = 1;
    *inner = 1;
    for (int k = 0; k < d; ++k) *outer *= s.dim(k);
    for (int k = d + 1; k < s.rank(); ++k) *inner *= s.dim(k);
    *len = s.dim(d);
    return true;
  };
  int64_t length = -1;
  for (int64_t k = 0; k < inputs; ++k) {
    int64_t o = 0, l = 0, i = 0;
    if (!split(ops[static_cast<size_t>(k)]->shape(), &o, &l, &i))
      return InstrError(instr, "every scan input needs the scan dimension");
    if (length >= 0 && l != length) return InstrError(instr, "the scan inputs differ in length");
    length = l;
  }
  for (int64_t k = 0; k < outputs; ++k) {
    int64_t o = 0, l = 0, i = 0;
    if (!split(leaves[static_cast<size_t>(k)], &o, &l, &i))
      return InstrError(instr, "every scan output array needs the scan dimension");
    if (length >= 0 && l != length) return InstrError(instr, "a scan output differs in length from the inputs");
    length = l;
  }
  if (length < 0) length = 0;
  auto without_d = [&](const Shape& s) {
    std::vector<int64_t> dims = s.dims();
    dims.erase(dims.begin() + d);
    return Shape(s.element_type(), dims);
  };
  std::vector<Literal> out;
  for (int64_t k = 0; k < outputs; ++k) out.emplace_back(NoLayout(leaves[static_cast<size_t>(k)]));
  std::vector<Literal> carry;
  for (int64_t k = 0; k < carries; ++k) carry.push_back(*ops[static_cast<size_t>(inputs + k)]);
  std::vector<Literal> slices;
  for (int64_t k = 0; k < inputs; ++k) slices.emplace_back(without_d(ops[static_cast<size_t>(k)]->shape()));
  for (int64_t step = 0; step < length; ++step) {
    const int64_t pos = reverse ? length - 1 - step : step;
    for (int64_t k = 0; k < inputs; ++k) {
      const Literal& src = *ops[static_cast<size_t>(k)];
      int64_t o = 0, l = 0, i = 0;
      split(src.shape(), &o, &l, &i);
      for (int64_t a = 0; a < o; ++a)
        for (int64_t b = 0; b < i; ++b) CopyElement(src, (a * l + pos) * i + b, slices[static_cast<size_t>(k)], a * i + b);
    }
    std::vector<const Literal*> args;
    for (const Literal& x : slices) args.push_back(&x);
    for (const Literal& x : carry) args.push_back(&x);
    ASSIGN_OR_RETURN(Literal r, RunCalled(in, instr, fn, Operands(args.data(), args.size())));
    std::vector<Literal> parts;
    if (r.IsTuple()) parts = std::move(r.tuple_elements());
    else parts.push_back(std::move(r));
    if (static_cast<int64_t>(parts.size()) != outputs + carries)
      return InstrError(instr, "to_apply returns " + std::to_string(parts.size()) + " values where the scan has " +
                                   std::to_string(outputs) + " outputs and " + std::to_string(carries) + " carries");
    for (int64_t k = 0; k < outputs; ++k) {
      Literal& dst = out[static_cast<size_t>(k)];
      const Literal& part = parts[static_cast<size_t>(k)];
      int64_t o = 0, l = 0, i = 0;
      split(dst.shape(), &o, &l, &i);
      if (part.IsTuple() || part.num_elements() != o * i)
        return InstrError(instr, "an output slice of to_apply does not fit its output array");
      for (int64_t a = 0; a < o; ++a)
        for (int64_t b = 0; b < i; ++b) CopyElement(part, a * i + b, dst, (a * l + pos) * i + b);
    }
    for (int64_t k = 0; k < carries; ++k) carry[static_cast<size_t>(k)] = std::move(parts[static_cast<size_t>(outputs + k)]);
  }
  std::vector<Literal> all = std::move(out);
  for (Literal& c : carry) all.push_back(std::move(c));
  if (!instr.shape().IsTuple()) return std::move(all[0]);
  return MakeTuple(std::move(all));
}

StatusOr<Literal> Element(const Instruction& instr, const Literal& t, int64_t i) {
  if (!t.IsTuple() || i < 0 || i >= static_cast<int64_t>(t.tuple_elements().size()))
    return InstrError(instr, "tuple index " + std::to_string(i) + " is out of range for " + t.shape().ToString(false));
  return t.tuple_elements()[i];
}

}  // namespace

namespace {
// The collectives the interpreter evaluates on one device (the one list).
bool HasOneDeviceRule(Opcode op) {
  switch (op) {
    case Opcode::kAllReduce:
    case Opcode::kAllGather:
    case Opcode::kReduceScatter:
    case Opcode::kAllToAll:
    case Opcode::kCollectiveBroadcast:
    case Opcode::kCollectivePermute:
    case Opcode::kAllReduceStart:
    case Opcode::kAllReduceDone:
    case Opcode::kAllGatherStart:
    case Opcode::kAllGatherDone:
      return true;
    default:
      return false;
  }
}

// On one device a group holds only this device: a reduction over one value,
// a gather or scatter of one shard, a permute that sends to itself (or to no
// one: zeros) leave each operand as it is.
StatusOr<Literal> EvalOneDeviceCollective(const Instruction& instr, Operands ops) {
  RETURN_IF_ERROR(CollectiveEvaluable(instr));
  if (!ops.empty()) {
    if (instr.opcode() == Opcode::kAllGatherDone) return Element(instr, *ops[0], 1);
    if (instr.opcode() == Opcode::kCollectivePermute) {
      if (ops.size() != 1) return InstrError(instr, "malformed instruction (operands or shape)");
      const RawAttr* pairs = instr.FindRaw("source_target_pairs");
      if (pairs && pairs->value.find("{0,0}") == std::string::npos) return Literal(NoLayout(instr.shape()));
      return *ops[0];
    }
    std::vector<Literal> vals;
    for (const Literal* o : ops) vals.push_back(*o);
    if (instr.opcode() == Opcode::kAllGatherStart) {
      Literal in = vals.size() == 1 ? vals[0] : MakeTuple(std::vector<Literal>(vals));
      Literal out = vals.size() == 1 ? std::move(vals[0]) : MakeTuple(std::move(vals));
      std::vector<Literal> pair;
      pair.push_back(std::move(in));
      pair.push_back(std::move(out));
      return MakeTuple(std::move(pair));
    }
    if (vals.size() == 1 && !instr.shape().IsTuple()) return std::move(vals[0]);
    return MakeTuple(std::move(vals));
  }
  return InstrError(instr, "malformed instruction (operands or shape)");
}
}  // namespace

Status CollectiveEvaluable(const Instruction& instr, const DeviceGrid& grid) {
  const Opcode op = instr.opcode();
  if (HasOneDeviceRule(op)) {
    // Every group holds one device (a module on one device, or groups of one).
    bool alone = false;
    if (op == Opcode::kCollectivePermute) {
      alone = grid.devices() == 1 && PermuteSources(instr, grid.replicas, grid.partitions).ok();
    } else if (op == Opcode::kAllReduceDone || op == Opcode::kAllGatherDone) {
      alone = true;  // its -start decided
    } else if (auto groups = CollectiveDeviceGroups(instr, grid.replicas, grid.partitions); groups.ok()) {
      alone = std::all_of(groups->begin(), groups->end(), [](const auto& g) { return g.size() == 1; });
    }
    if (!alone) return Unsupported(instr, "collective operations need several devices");
    return Status::Ok();
  }
  if (IsCollective(op)) return Unsupported(instr, "collective operations need several devices");
  return Status::Ok();
}

Status CollectiveEvaluable(const Instruction& instr) {
  const Computation* comp = instr.parent();
  const Module* m = comp ? comp->parent() : nullptr;
  return CollectiveEvaluable(instr, m ? ModuleDeviceGrid(*m) : DeviceGrid{});
}

StatusOr<Literal> EvalControl(Interp& in, const Instruction& instr, Operands ops) {
  if (in.device() && (IsCollective(instr.opcode()) || instr.opcode() == Opcode::kReplicaId ||
                      instr.opcode() == Opcode::kPartitionId))
    return EvalOnDevice(in, instr, ops);
  if (HasOneDeviceRule(instr.opcode())) return EvalOneDeviceCollective(instr, ops);
  switch (instr.opcode()) {
    case Opcode::kTuple: {
      std::vector<Literal> elems;
      for (const Literal* o : ops) elems.push_back(*o);
      return MakeTuple(std::move(elems));
    }
    case Opcode::kGetTupleElement:
      if (ops.size() != 1) break;
      return Element(instr, *ops[0], instr.tuple_index());
    case Opcode::kCall: return RunCalled(in, instr, instr.to_apply(), ops);
    case Opcode::kFusion: return RunCalled(in, instr, instr.fused_computation(), ops);
    case Opcode::kWhile:
      if (ops.size() != 1) break;
      return While(in, instr, *ops[0]);
    case Opcode::kConditional:
      if (ops.empty()) break;
      return Conditional(in, instr, ops);
    case Opcode::kMap: return Map(in, instr, ops);
    case Opcode::kScan: return Scan(in, instr, ops);
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
    case Opcode::kAddDependency:
    case Opcode::kAsyncUpdate:
      if (ops.empty()) break;
      return *ops[0];
    case Opcode::kAfterAll: return Literal(Shape(PrimitiveType::kToken, {}));
    case Opcode::kAsyncStart: {
      const Shape& s = instr.shape();
      if (!s.IsTuple() || s.tuple_size() < 2) return Unsupported(instr, "async-start without a (operands, result, ...) shape");
      Computation* c = instr.called("calls");
      if (!c && !instr.called_computations().empty()) c = instr.called_computations()[0];
      ASSIGN_OR_RETURN(Literal r, RunCalled(in, instr, c, ops));
      Literal out(NoLayout(s));
      std::vector<Literal> args;
      for (const Literal* o : ops) args.push_back(*o);
      if (out.tuple_elements()[0].IsTuple()) out.tuple_elements()[0] = MakeTuple(std::move(args));
      else if (args.size() == 1) out.tuple_elements()[0] = std::move(args[0]);
      out.tuple_elements()[1] = std::move(r);
      return out;
    }
    case Opcode::kAsyncDone:
      if (ops.size() != 1) break;
      return Element(instr, *ops[0], 1);
    case Opcode::kCopyStart: {
      if (ops.size() != 1 || !instr.shape().IsTuple() || instr.shape().tuple_size() < 2) break;
      Literal out(NoLayout(instr.shape()));
      out.tuple_elements()[0] = *ops[0];
      out.tuple_elements()[1] = *ops[0];
      return out;
    }
    case Opcode::kCopyDone:
      if (ops.size() != 1) break;
      return Element(instr, *ops[0], 0);
    case Opcode::kGetDimensionSize: {
      if (ops.size() != 1 || instr.dimensions().size() != 1) break;
      int64_t d = instr.dimensions()[0];
      if (d < 0 || d >= ops[0]->shape().rank()) return InstrError(instr, "dimension out of range");
      Literal out(NoLayout(instr.shape()));
      if (out.num_elements() != 1) break;
      out.SetInt(0, ops[0]->shape().dim(static_cast<int>(d)));
      return out;
    }
    case Opcode::kReplicaId:
    case Opcode::kPartitionId: {
      // One replica and one partition: the id is 0.
      Literal out(NoLayout(instr.shape()));
      return out;
    }
    default:
      if (Status s = CollectiveEvaluable(instr); !s.ok()) return s;
      break;
  }
  return InstrError(instr, "malformed instruction (operands or shape)");
}

}  // namespace hloscope::eval
