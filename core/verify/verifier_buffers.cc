// Buffer shapes, b(f32[16]): the rules XLA's verifier applies to them. A
// buffer is created (CreateBuffer) or pinned from an array (Pin), updated in
// place by custom-calls that alias it from an operand to a result
// (output_to_operand_aliasing), carried through tuples, get-tuple-element,
// while loops and dynamic-update-slice, and turned back into an array
// (Unpin). Everywhere else buffers are not allowed, and a buffer value may
// have at most one writer.
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "core/verify/shape_inference.h"
#include "core/verify/verifier_internal.h"

namespace hloscope::verify {
namespace {

using Index = std::vector<int64_t>;

bool HasBuffer(const Shape& s) {
  if (s.IsTuple()) {
    for (const Shape& e : s.tuple_shapes())
      if (HasBuffer(e)) return true;
    return false;
  }
  return s.IsBuffer();
}

void ForEachBuffer(const Shape& s, Index& at, const std::function<void(const Index&)>& f) {
  if (s.IsTuple()) {
    for (int i = 0; i < s.tuple_size(); ++i) {
      at.push_back(i);
      ForEachBuffer(s.tuple_shapes()[static_cast<size_t>(i)], at, f);
      at.pop_back();
    }
    return;
  }
  if (s.IsBuffer()) f(at);
}

std::string IndexText(const Index& ix) {
  std::string s = "{";
  for (size_t i = 0; i < ix.size(); ++i) s += (i ? "," : "") + std::to_string(ix[i]);
  return s + "}";
}

// output_to_operand_aliasing={{0}: (1, {}), {1}: (0, {2})} as (output index,
// (operand, operand index)) pairs; nullopt when it does not read.
struct Alias {
  Index output;
  int64_t operand;
  Index operand_index;
};

std::optional<std::vector<Alias>> ParseAliasing(std::string_view v) {
  size_t p = 0;
  auto ws = [&] {
    while (p < v.size() && (v[p] == ' ' || v[p] == '\n' || v[p] == '\t')) ++p;
  };
  auto eat = [&](char c) {
    ws();
    if (p < v.size() && v[p] == c) {
      ++p;
      return true;
    }
    return false;
  };
  auto number = [&](int64_t* out) {
    ws();
    size_t s = p;
    while (p < v.size() && v[p] >= '0' && v[p] <= '9') ++p;
    if (s == p || p - s > 12) return false;
    *out = std::stoll(std::string(v.substr(s, p - s)));
    return true;
  };
  auto index = [&](Index* out) {
    if (!eat('{')) return false;
    if (eat('}')) return true;
    for (;;) {
      int64_t n;
      if (!number(&n)) return false;
      out->push_back(n);
      if (eat('}')) return true;
      if (!eat(',')) return false;
    }
  };
  std::vector<Alias> out;
  if (!eat('{')) return std::nullopt;
  if (eat('}')) return out;
  for (;;) {
    Alias a;
    if (!index(&a.output) || !eat(':') || !eat('(') || !number(&a.operand) || !eat(',') ||
        !index(&a.operand_index) || !eat(')'))
      return std::nullopt;
    out.push_back(std::move(a));
    if (eat('}')) break;
    if (!eat(',')) return std::nullopt;
  }
  return out;
}

bool IsCallable(Opcode op) {
  switch (op) {
    case Opcode::kCall:
    case Opcode::kCustomCall:
    case Opcode::kFusion:
    case Opcode::kAsyncStart:
      return true;
    default:
      return false;
  }
}

int64_t CountWriters(const Instruction& inst, const Index& index);

// How many times `user` writes the buffer at `index` of `inst`'s value (as
// XLA counts: a call, loop, conditional or dynamic-update-slice that takes
// it writes it once; tuples and get-tuple-element pass it on).
int64_t CountWritersInUser(const Instruction& inst, const Index& index, const Instruction& user) {
  const Opcode op = user.opcode();
  if (IsCallable(op) || op == Opcode::kWhile || op == Opcode::kConditional || op == Opcode::kDynamicUpdateSlice)
    return 1;
  if (op == Opcode::kGetTupleElement && !index.empty() && user.tuple_index() == index[0])
    return CountWriters(user, Index(index.begin() + 1, index.end()));
  if (op == Opcode::kTuple) {
    const Computation* c = inst.parent();
    if (c && c->root() == &user) return 0;  // leaves the computation (a loop body's root writes it: counted there)
    int64_t n = 0;
    for (int i = 0; i < user.operand_count(); ++i) {
      if (user.operand(i) != &inst) continue;
      Index next{i};
      next.insert(next.end(), index.begin(), index.end());
      n += CountWriters(user, next);
    }
    return n;
  }
  return 0;
}

int64_t CountWriters(const Instruction& inst, const Index& index) {
  int64_t n = 0;
  for (const Instruction* u : inst.users()) n += CountWritersInUser(inst, index, *u);
  return n;
}

void CheckUniqueWriters(const Instruction& inst, Errors& errors) {
  Index at;
  ForEachBuffer(inst.shape(), at, [&](const Index& ix) {
    if (CountWriters(inst, ix) > 1)
      errors.Add(inst, "the buffer at " + IndexText(ix) + " of its result has more than one writer");
  });
}

void CheckNoBuffers(const Instruction& inst, Errors& errors) {
  if (HasBuffer(inst.shape())) {
    errors.Add(inst, std::string(OpcodeName(inst.opcode())) + " cannot produce a buffer shape (" +
                         inst.shape().ToString(false) + "); buffers are made by custom-calls");
    return;
  }
  for (int i = 0; i < inst.operand_count(); ++i)
    if (HasBuffer(inst.operand(i)->shape())) {
      errors.Add(inst, std::string(OpcodeName(inst.opcode())) + " cannot take a buffer operand (operand " +
                           std::to_string(i) + " is " + inst.operand(i)->shape().ToString(false) +
                           "); Unpin it into an array first");
      return;
    }
}

void CheckCustomCall(const Instruction& inst, Errors& errors) {
  const std::string& target = inst.attrs().custom_call_target;
  const Shape& result = inst.shape();
  const RawAttr* raw = inst.FindRaw("output_to_operand_aliasing");
  std::vector<Alias> aliases;
  if (raw) {
    auto parsed = ParseAliasing(raw->value);
    if (!parsed) {
      if (HasBuffer(result)) errors.Add(inst, "output_to_operand_aliasing does not read: " + raw->value);
      return;
    }
    aliases = std::move(*parsed);
  }
  if (target == "Pin" || target == "Unpin") {
    const bool pin = target == "Pin";
    if (inst.operand_count() != 1 || !inst.operand(0)->shape().IsArray() ||
        inst.operand(0)->shape().IsBuffer() == pin) {
      errors.Add(inst, "custom-call to " + target + " must have one " + (pin ? "array" : "buffer") + " operand");
      return;
    }
    if (!result.IsArray() || result.IsBuffer() != pin) {
      errors.Add(inst, "custom-call to " + target + " must have one " + (pin ? "buffer" : "array") + " result");
      return;
    }
    const Shape& op = inst.operand(0)->shape();
    if (!ShapesCompatible(op.BufferElement(), result.BufferElement()))
      errors.Add(inst, "custom-call to " + target + " must have the operand's shape (" + op.ToString(false) +
                           " vs " + result.ToString(false) + ")");
    if (aliases.size() != 1)
      errors.Add(inst, "custom-call to " + target + " must have one output_to_operand_aliasing pair");
    if (pin) CheckUniqueWriters(inst, errors);
    return;
  }
  if (target == "CreateBuffer") {
    if (inst.operand_count() != 0) errors.Add(inst, "custom-call to CreateBuffer takes no operand");
    if (!result.IsBuffer()) errors.Add(inst, "custom-call to CreateBuffer must have one buffer result");
    CheckUniqueWriters(inst, errors);
    return;
  }
  // Any other custom-call: each buffer it takes or gives is aliased exactly once.
  std::map<std::pair<int64_t, Index>, int> operand_parts;
  std::map<Index, int> output_parts;
  for (const Alias& a : aliases) {
    ++operand_parts[{a.operand, a.operand_index}];
    ++output_parts[a.output];
  }
  for (int i = 0; i < inst.operand_count(); ++i) {
    Index at;
    ForEachBuffer(inst.operand(i)->shape(), at, [&](const Index& ix) {
      auto it = operand_parts.find({i, ix});
      if (it == operand_parts.end())
        errors.Add(inst, "buffer operand " + std::to_string(i) + " at " + IndexText(ix) +
                             " is not aliased to a result (output_to_operand_aliasing)");
      else if (it->second > 1)
        errors.Add(inst, "buffer operand " + std::to_string(i) + " at " + IndexText(ix) +
                             " is aliased to more than one result");
    });
  }
  Index at;
  ForEachBuffer(result, at, [&](const Index& ix) {
    auto it = output_parts.find(ix);
    if (it == output_parts.end())
      errors.Add(inst, "buffer result at " + IndexText(ix) + " is not aliased to an operand (output_to_operand_aliasing)");
    else if (it->second > 1)
      errors.Add(inst, "buffer result at " + IndexText(ix) + " is aliased to more than one operand");
    else if (CountWriters(inst, ix) > 1)
      errors.Add(inst, "the buffer at " + IndexText(ix) + " of its result has more than one writer");
  });
}

}  // namespace

void CheckBuffers(const Instruction& inst, Errors& errors) {
  const Computation* c = inst.parent();
  switch (inst.opcode()) {
    case Opcode::kCustomCall: CheckCustomCall(inst, errors); return;
    case Opcode::kWhile: CheckUniqueWriters(inst, errors); return;
    case Opcode::kParameter:
      if (c && c->is_entry() && HasBuffer(inst.shape())) {
        errors.Add(inst, "an entry computation parameter cannot be a buffer (" + inst.shape().ToString(false) + ")");
        return;
      }
      CheckUniqueWriters(inst, errors);
      return;
    case Opcode::kDynamicUpdateSlice:
      if (inst.operand_count() > 0 && inst.operand(0)->shape().IsBuffer()) {
        CheckUniqueWriters(inst, errors);
        for (int i = 1; i < inst.operand_count(); ++i)
          if (HasBuffer(inst.operand(i)->shape()))
            errors.Add(inst, "only operand 0 of a dynamic-update-slice may be a buffer");
        if (!inst.shape().IsBuffer())
          errors.Add(inst, "a dynamic-update-slice of a buffer must produce a buffer");
        return;
      }
      CheckNoBuffers(inst, errors);
      return;
    case Opcode::kGetTupleElement:
    case Opcode::kTuple:
      return;
    default:
      CheckNoBuffers(inst, errors);
  }
}

}  // namespace hloscope::verify
