// Shape checks: every instruction with a shape rule against InferShape, and
// the fixed rules XLA's ShapeVerifier applies to ops without one (constants,
// rng, infeed, recv, async ops), comparison types, mixed precision when it is
// disallowed, and the entry computation layout in the module header.
#include "core/parser/parser.h"
#include "core/verify/shape_inference.h"
#include "core/verify/verifier_internal.h"

namespace hloscope::verify {
namespace {

std::string S(const Shape& s) { return s.ToString(/*print_layout=*/false); }

bool IsScalarArray(const Shape& s) { return s.IsArray() && s.rank() == 0; }

void CheckConstant(const Instruction& instr, Errors& errors) {
  if (!instr.literal()) {
    errors.Add(instr, "a constant needs a value");
    return;
  }
  if (!ShapesCompatible(instr.literal()->shape(), instr.shape()))
    errors.Add(instr,
               "has shape " + S(instr.shape()) + " but its value has shape " + S(instr.literal()->shape()));
}

void CheckRng(const Instruction& instr, bool mixed, Errors& errors) {
  // XLA's rng takes two scalar parameters of the distribution; its own
  // rng_expander tests also pass the output shape as a third operand.
  if (instr.operand_count() < 2) {
    errors.Add(instr, "rng takes 2 scalar operands (the distribution's parameters) but has " +
                          std::to_string(instr.operand_count()));
    return;
  }
  const Shape& a = instr.operand(0)->shape();
  const Shape& b = instr.operand(1)->shape();
  if (!IsScalarArray(a) || !IsScalarArray(b)) {
    errors.Add(instr, "rng's first two operands must be scalars, got " + S(a) + " and " + S(b));
    return;
  }
  const PrimitiveType t = a.element_type(), r = instr.shape().element_type();
  bool types_ok = t == b.element_type() && (t == r || (mixed && IsFloat(t) && IsFloat(r)));
  if (!types_ok) {
    errors.Add(instr, "rng's operands " + S(a) + ", " + S(b) + " and result " + S(instr.shape()) +
                          " must share one element type");
    return;
  }
  const RawAttr* dist = instr.FindRaw("distribution");
  std::string d = dist ? dist->value : "";
  if (d == "rng_normal" && !IsFloat(t))
    errors.Add(instr, "rng_normal produces floating-point values, not " + std::string(PrimitiveTypeName(t)));
  else if (d == "rng_uniform" && !IsFloat(t) && !IsInteger(t) && t != PrimitiveType::kPred)
    errors.Add(instr, "rng_uniform produces pred, integer or floating-point values, not " +
                          std::string(PrimitiveTypeName(t)));
}

void CheckTokenOperand(const Instruction& instr, int i, Errors& errors) {
  if (i >= instr.operand_count() || !instr.operand(i)->shape().IsToken())
    errors.Add(instr,
               "operand " + std::to_string(i) + " must be a token" +
                   (i < instr.operand_count() ? ", not " + S(instr.operand(i)->shape()) : std::string()));
}

void CheckInfeedRecv(const Instruction& instr, Errors& errors) {
  CheckTokenOperand(instr, 0, errors);
  const Shape& s = instr.shape();
  const bool recv = instr.opcode() == Opcode::kRecv;
  const int n = recv ? 3 : 2;
  bool ok = s.IsTuple() && s.tuple_size() == n && s.tuple_shapes()[n - 1].IsToken();
  if (ok && recv) ok = ShapesCompatible(s.tuple_shapes()[1], Shape::Scalar(PrimitiveType::kU32));
  if (!ok)
    errors.Add(instr, std::string(OpcodeName(instr.opcode())) + " produces " +
                          (recv ? "(data, u32[], token[])" : "(data, token[])") + ", not " + S(s));
}

// The computation an async op wraps: its own calls=, else its async-start's.
const Computation* WrappedComputation(const Instruction& instr) {
  const Instruction* cur = &instr;
  for (int hops = 0; cur && hops < 64; ++hops) {
    if (const Computation* c = cur->called("calls")) return c;
    if (cur->opcode() == Opcode::kAsyncStart || cur->operand_count() < 1) return nullptr;
    cur = cur->operand(0);
  }
  return nullptr;
}

void CheckAsync(const Instruction& instr, Errors& errors) {
  const Computation* wrapped = WrappedComputation(instr);
  const Opcode op = instr.opcode();
  const std::string name(OpcodeName(op));
  if (op != Opcode::kAsyncStart) {
    if (instr.operand_count() != 1) return;  // arity reported elsewhere
    const Opcode from = instr.operand(0)->opcode();
    if (from != Opcode::kAsyncStart && from != Opcode::kAsyncUpdate) {
      errors.Add(instr, name + " needs an async-start or async-update operand, not " +
                            std::string(OpcodeName(from)));
      return;
    }
  }
  const Shape& state = op == Opcode::kAsyncDone ? instr.operand(0)->shape() : instr.shape();
  if (!state.IsTuple() || state.tuple_size() < 2) {
    errors.Add(instr, "the async state " + S(state) + " must be a tuple of (operands, result, ...)");
    return;
  }
  if (op == Opcode::kAsyncUpdate && !ShapesCompatible(instr.shape(), instr.operand(0)->shape()))
    errors.Add(instr,
               "has shape " + S(instr.shape()) + " but its operand has " + S(instr.operand(0)->shape()));
  if (op == Opcode::kAsyncDone && !ShapesCompatible(instr.shape(), state.tuple_shapes()[1]))
    errors.Add(instr,
               "has shape " + S(instr.shape()) + " but the async result is " + S(state.tuple_shapes()[1]));
  if (!wrapped || !wrapped->root()) return;
  std::vector<Shape> params;
  for (int i = 0; i < wrapped->num_parameters(); ++i)
    if (wrapped->parameter(i)) params.push_back(wrapped->parameter(i)->shape());
  Shape param_tuple = Shape::Tuple(params);
  if (!ShapesCompatible(state.tuple_shapes()[0], param_tuple))
    errors.Add(instr, "the async state's operands " + S(state.tuple_shapes()[0]) +
                          " differ from the parameters " + S(param_tuple) + " of the wrapped computation '" +
                          wrapped->name() + "'");
  else if (!ShapesCompatible(state.tuple_shapes()[1], wrapped->root()->shape()))
    errors.Add(instr, "the async state's result " + S(state.tuple_shapes()[1]) + " differs from the root " +
                          S(wrapped->root()->shape()) + " of the wrapped computation '" + wrapped->name() +
                          "'");
  else if (op == Opcode::kAsyncStart)
    for (int i = 0; i < instr.operand_count() && i < static_cast<int>(params.size()); ++i)
      if (!ShapesCompatible(instr.operand(i)->shape(), params[i]))
        errors.Add(instr, "operand " + std::to_string(i) + " has shape " + S(instr.operand(i)->shape()) +
                              " but the wrapped computation's parameter " + std::to_string(i) + " is " +
                              S(params[i]));
}

// XLA's CheckElementwiseInstruction: the comparison type must suit the
// operands (FLOAT or TOTALORDER for floats, SIGNED/UNSIGNED for integers).
void CheckCompare(const Instruction& instr, Errors& errors) {
  if (!instr.attrs().has(Attr::kDirection)) errors.Add(instr, "compare needs direction=");
  if (!instr.attrs().has(Attr::kCompareType) || instr.operand_count() != 2) return;
  const PrimitiveType t = instr.operand(1)->shape().element_type();
  const std::string& given = instr.attrs().compare_type;
  std::string expected;
  if (IsFloat(t)) {
    if (given == "FLOAT" || given == "TOTALORDER") return;
    expected = "FLOAT or TOTALORDER";
  } else {
    expected = IsComplex(t) ? "FLOAT" : IsSignedInt(t) ? "SIGNED" : "UNSIGNED";
    if (given == expected) return;
  }
  errors.Add(instr, "type=" + given + " does not suit " + std::string(PrimitiveTypeName(t)) +
                        " operands; expected " + expected);
}

// XLA's CheckMixedPrecisionOperands (only when mixed precision is off).
void CheckNoMixedPrecision(const Instruction& instr, Errors& errors) {
  switch (instr.opcode()) {
    case Opcode::kCall:
    case Opcode::kConditional:
    case Opcode::kConstant:
    case Opcode::kConvolution:
    case Opcode::kDot:
    case Opcode::kRaggedDot:
    case Opcode::kScaledDot:
    case Opcode::kCustomCall:
    case Opcode::kDomain:
    case Opcode::kFusion:
    case Opcode::kGetTupleElement:
    case Opcode::kOptimizationBarrier:
    case Opcode::kInfeed:
    case Opcode::kOutfeed:
    case Opcode::kParameter:
    case Opcode::kRecv:
    case Opcode::kRecvDone:
    case Opcode::kReducePrecision:
    case Opcode::kReduceWindow:
    case Opcode::kSend:
    case Opcode::kSendDone:
    case Opcode::kSort:
    case Opcode::kTuple:
    case Opcode::kWhile:
    case Opcode::kCopyStart:
    case Opcode::kCopyDone:
      return;
    default:
      if (IsCollective(instr.opcode()) || IsAsyncOpcode(instr.opcode())) return;
  }
  PrimitiveType seen = PrimitiveType::kInvalid;
  auto visit = [&](auto&& self, const Shape& s) -> bool {
    if (s.IsTuple()) {
      for (const Shape& e : s.tuple_shapes())
        if (!self(self, e)) return false;
      return true;
    }
    if (!IsFloat(s.element_type())) return true;
    if (seen == PrimitiveType::kInvalid) seen = s.element_type();
    return seen == s.element_type();
  };
  for (const Instruction* o : instr.operands())
    if (!visit(visit, o->shape())) {
      errors.Add(instr,
                 "mixes floating-point precisions among its operands, and mixed precision is not allowed");
      return;
    }
}

// A tuple holds its operands' buffers as they are: an element whose layout
// differs from its operand's would be read in the wrong order (XLA's
// layout-sensitive verifier requires the shapes to be equal). Arrays of rank
// 2 or more whose layouts are both given.
void CheckTupleLayouts(const Instruction& instr, Errors& errors) {
  const Shape& t = instr.shape();
  if (!t.IsTuple() || t.tuple_size() != instr.operand_count()) return;
  for (int i = 0; i < instr.operand_count(); ++i) {
    const Shape& o = instr.operand(i)->shape();
    const Shape& e = t.tuple_shapes()[static_cast<size_t>(i)];
    if (!o.IsArray() || !e.IsArray() || o.rank() < 2 || !o.has_layout() || !e.has_layout()) continue;
    if (o.layout().minor_to_major != e.layout().minor_to_major)
      errors.Add(instr, "element " + std::to_string(i) + " is " + e.ToString(true) + " but its operand " +
                            "%" + instr.operand(i)->name() + " is " + o.ToString(true) + ": a tuple keeps its operands' layouts");
  }
}

// The other side of CheckTupleLayouts: get-tuple-element is a view of the
// element's buffer, so it keeps the element's layout (XLA's layout-sensitive
// verifier requires the shapes to be equal). Arrays of rank 2 or more whose
// layouts are both given.
void CheckGetTupleElementLayout(const Instruction& instr, Errors& errors) {
  if (instr.operand_count() != 1) return;
  const Shape& t = instr.operand(0)->shape();
  const int64_t k = instr.tuple_index();
  if (!t.IsTuple() || k < 0 || k >= t.tuple_size()) return;
  const Shape& e = t.tuple_shapes()[static_cast<size_t>(k)];
  const Shape& g = instr.shape();
  if (!g.IsArray() || !e.IsArray() || g.rank() < 2 || !g.has_layout() || !e.has_layout()) return;
  if (g.layout().minor_to_major != e.layout().minor_to_major)
    errors.Add(instr, "is " + g.ToString(true) + " but element " + std::to_string(k) + " of %" +
                          instr.operand(0)->name() + " is " + e.ToString(true) +
                          ": a get-tuple-element keeps its element's layout");
}

}  // namespace

void CheckInstructionShapes(const Instruction& instr, const VerifyOptions& opts, Errors& errors) {
  if (!opts.allow_mixed_precision) CheckNoMixedPrecision(instr, errors);
  switch (instr.opcode()) {
    case Opcode::kConstant:
      CheckConstant(instr, errors);
      return;
    case Opcode::kRng:
      CheckRng(instr, opts.allow_mixed_precision, errors);
      return;
    case Opcode::kInfeed:
    case Opcode::kRecv:
      CheckInfeedRecv(instr, errors);
      return;
    case Opcode::kAsyncStart:
    case Opcode::kAsyncUpdate:
    case Opcode::kAsyncDone:
      CheckAsync(instr, errors);
      return;
    case Opcode::kCompare:
      CheckCompare(instr, errors);
      break;
    case Opcode::kTuple:
      CheckTupleLayouts(instr, errors);
      break;
    case Opcode::kGetTupleElement:
      CheckGetTupleElementLayout(instr, errors);
      break;
    default:
      break;
  }
  Status s = CheckShapeCompatible(instr, opts.allow_mixed_precision);
  if (!s.ok()) errors.Add(instr, s.message());
}

void CheckEntryLayout(const Module& m, Errors& errors) {
  const RawAttr* layout = m.FindHeader("entry_computation_layout");
  const Computation* entry = m.entry();
  if (!layout || !entry || !entry->root()) return;
  std::string_view v = layout->value;
  if (v.size() < 2 || v.front() != '{' || v.back() != '}') return;
  v = v.substr(1, v.size() - 2);
  int depth = 0;
  size_t arrow = std::string_view::npos;
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    char c = v[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (depth == 0 && c == '-' && v[i + 1] == '>') {
      arrow = i;
      break;
    }
  }
  if (arrow == std::string_view::npos) return;
  auto params = ParseShape(v.substr(0, arrow));
  auto result = ParseShape(v.substr(arrow + 2));
  if (!params.ok() || !result.ok() || !params->IsTuple()) return;  // not ours to judge
  const std::string where = "the module header's entry_computation_layout";
  if (params->tuple_size() != entry->num_parameters()) {
    errors.Add(*entry, "has " + std::to_string(entry->num_parameters()) + " parameter(s) but " + where +
                           " lists " + std::to_string(params->tuple_size()));
    return;
  }
  for (int i = 0; i < entry->num_parameters(); ++i) {
    const Instruction* p = entry->parameter(i);
    if (p && !ShapesCompatible(p->shape(), params->tuple_shapes()[i]))
      errors.Add(*p, "has shape " + S(p->shape()) + " but " + where + " gives parameter " +
                         std::to_string(i) + " " + S(params->tuple_shapes()[i]));
  }
  if (!ShapesCompatible(entry->root()->shape(), *result))
    errors.Add(*entry->root(), "the entry computation returns " + S(entry->root()->shape()) + " but " +
                                   where + " gives " + S(*result));
}

}  // namespace hloscope::verify
