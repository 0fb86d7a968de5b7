// Per-instruction form: operand counts of fixed-arity opcodes, which called
// computations each opcode takes (and that it takes the required ones), and
// layouts that fit their shapes.
#include <algorithm>
#include <string>

#include "core/verify/verifier_internal.h"

namespace hloscope::verify {
namespace {

struct CallSpec {
  std::vector<std::string_view> required;  // each names exactly one computation
  bool any = false;                        // accepts any called computations
};

// Which called computations an opcode takes; an empty spec means none.
// Built once per opcode (no allocation per instruction).
CallSpec MakeCallSpec(Opcode op) {
  switch (op) {
    case Opcode::kCall:
    case Opcode::kMap:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kScatter:
    case Opcode::kSort:
    case Opcode::kAllReduce:
    case Opcode::kAllReduceStart:
    case Opcode::kReduceScatter:
      return {{"to_apply"}};
    case Opcode::kFusion:
      return {{"calls"}};
    case Opcode::kSelectAndScatter:
      return {{"select", "scatter"}};
    case Opcode::kWhile:
      return {{"condition", "body"}};
    case Opcode::kAsyncStart:
      return {{"calls"}};
    case Opcode::kConditional:
    case Opcode::kCustomCall:
    case Opcode::kAsyncUpdate:
    case Opcode::kAsyncDone:
    case Opcode::kScan:
      return {{}, true};
    default:
      return {};
  }
}

const CallSpec& CallsOf(Opcode op) {
  static const std::vector<CallSpec> kSpecs = [] {
    std::vector<CallSpec> v;
    for (int i = 0; i < kOpcodeCount; ++i) v.push_back(MakeCallSpec(static_cast<Opcode>(i)));
    return v;
  }();
  return kSpecs[static_cast<size_t>(op)];
}

void CheckCalledComputations(const Instruction& instr, Errors& errors) {
  const CallSpec& spec = CallsOf(instr.opcode());
  if (spec.required.empty() && !spec.any && instr.called_refs().empty() &&
      instr.opcode() != Opcode::kConditional)
    return;
  const std::string op(OpcodeName(instr.opcode()));
  for (const auto& ref : instr.called_refs()) {
    bool known =
        spec.any || std::find(spec.required.begin(), spec.required.end(), ref.attr) != spec.required.end();
    if (!known) {
      errors.Add(instr, op + (spec.required.empty() ? " does not call computations, but has " + ref.attr + "="
                                                    : " does not take " + ref.attr + "="));
    } else if (!spec.any && ref.comps.size() != 1) {
      errors.Add(instr,
                 ref.attr + "= must name exactly one computation, not " + std::to_string(ref.comps.size()));
    }
  }
  for (std::string_view attr : spec.required)
    if (!instr.called(attr)) errors.Add(instr, op + " needs " + std::string(attr) + "=");
  if (instr.opcode() == Opcode::kConditional) {
    bool indexed = false, t = false, f = false;
    for (const auto& ref : instr.called_refs()) {
      if (ref.attr == "branch_computations")
        indexed = !ref.comps.empty();
      else if (ref.attr == "true_computation")
        t = true;
      else if (ref.attr == "false_computation")
        f = true;
      else
        errors.Add(instr, "conditional does not take " + ref.attr + "=");
    }
    if (indexed == (t || f) || (!indexed && !(t && f)))
      errors.Add(instr,
                 "conditional needs either branch_computations= or both true_computation= and "
                 "false_computation=");
  }
}

void CheckLayouts(const Instruction& instr, const Shape& s, Errors& errors) {
  if (s.IsTuple()) {
    for (const Shape& e : s.tuple_shapes()) CheckLayouts(instr, e, errors);
    return;
  }
  if (!s.IsArray() || !s.has_layout()) return;
  const std::vector<int64_t>& m2m = s.layout().minor_to_major;
  bool ok = static_cast<int>(m2m.size()) == s.rank();
  if (ok && s.rank() <= 64) {  // the common case, without allocating
    uint64_t seen = 0;
    for (int64_t d : m2m) {
      ok = d >= 0 && d < s.rank() && !(seen >> d & 1);
      if (!ok) break;
      seen |= uint64_t{1} << d;
    }
  } else if (ok) {
    std::vector<bool> seen(s.rank(), false);
    for (int64_t d : m2m) {
      if (!ok) break;
      ok = d >= 0 && d < s.rank() && !seen[d];
      if (ok) seen[d] = true;
    }
  }
  if (!ok)
    errors.Add(instr, "the layout of " + s.ToString() + " must list each of its " + std::to_string(s.rank()) +
                          " dimension(s) exactly once");
}

}  // namespace

void CheckInstructionForm(const Instruction& instr, Errors& errors) {
  if (auto arity = OpcodeArity(instr.opcode()); arity && *arity != instr.operand_count())
    errors.Add(instr, std::string(OpcodeName(instr.opcode())) + " takes " + std::to_string(*arity) +
                          " operand(s) but has " + std::to_string(instr.operand_count()));
  CheckCalledComputations(instr, errors);
  CheckLayouts(instr, instr.shape(), errors);
  if (instr.opcode() == Opcode::kParameter && instr.parameter_number() < 0)
    errors.Add(instr, "a parameter needs a non-negative number");
}

}  // namespace hloscope::verify
