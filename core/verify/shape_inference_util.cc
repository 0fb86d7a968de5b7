// Helpers shared by the shape-inference files: message text, type ranking,
// dimension utilities, raw attributes, called-computation signatures and the
// two rules several op families share (reducers and windows).
#include <algorithm>
#include <charconv>
#include <set>
#include <tuple>

#include "core/ir/ragged_dot.h"
#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {

std::string Str(const Shape& s) { return s.ToString(/*print_layout=*/false); }

std::string IntList(const std::vector<int64_t>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(v[i]);
  }
  return out + "}";
}

std::string Operand(const Instruction& instr, int i) {
  std::string s = "operand " + std::to_string(i);
  if (i >= 0 && i < instr.operand_count() && instr.operand(i)) s += " ('" + instr.operand(i)->name() + "')";
  return s;
}

std::string Op(const Instruction& instr) { return std::string(OpcodeName(instr.opcode())); }

Status Fail(std::string message) { return Status::Error(std::move(message)); }

namespace {
// Largest finite exponent + 1 and significand bits (with the implicit bit)
// of each real floating type; only the order matters.
std::pair<int, int> FloatRangeAndPrecision(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kF64:
      return {1024, 53};
    case PrimitiveType::kF32:
      return {128, 24};
    case PrimitiveType::kBF16:
      return {128, 8};
    case PrimitiveType::kF16:
      return {16, 11};
    case PrimitiveType::kF8E8M0FNU:
      return {128, 1};
    case PrimitiveType::kF8E5M2:
      return {16, 3};
    case PrimitiveType::kF8E5M2FNUZ:
      return {16, 3};
    case PrimitiveType::kF8E4M3FN:
      return {9, 4};
    case PrimitiveType::kF8E4M3:
      return {8, 4};
    case PrimitiveType::kF8E4M3FNUZ:
      return {8, 4};
    case PrimitiveType::kF8E4M3B11FNUZ:
      return {5, 4};
    case PrimitiveType::kF8E3M4:
      return {4, 5};
    case PrimitiveType::kF4E2M1FN:
      return {3, 2};
    default:
      return {-1, -1};
  }
}
}  // namespace

PrimitiveType HigherPrecisionType(PrimitiveType a, PrimitiveType b) {
  auto key = [](PrimitiveType t) {
    PrimitiveType c = IsComplex(t) ? ComplexComponentType(t) : t;
    auto [range, precision] = FloatRangeAndPrecision(c);
    return std::make_tuple(IsComplex(t), range, precision, BitWidth(c), IsSignedInt(c));
  };
  return key(b) > key(a) ? b : a;
}

bool SameDimsCompatible(const Shape& a, const Shape& b) {
  if (a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!DimsCompatible(a.dim(i), b.dim(i))) return false;
  return true;
}

Shape MakeArray(PrimitiveType t, std::vector<int64_t> dims, const std::vector<bool>& dynamic) {
  Shape s(t, std::move(dims));
  for (size_t i = 0; i < dynamic.size() && i < s.dims().size(); ++i)
    if (dynamic[i]) s.SetDynamicDim(static_cast<int>(i), true);
  return s;
}

Shape WithType(const Shape& s, PrimitiveType t) {
  Shape r = NoLayout(s);
  r.set_element_type(t);
  return r;
}

Shape NoLayout(const Shape& s) {
  Shape r = s;
  r.ClearLayoutRecursive();
  return r;
}

std::optional<int64_t> ElementCount(const Shape& s) {
  for (int i = 0; i < s.rank(); ++i)
    if (IsUnbounded(s, i)) return std::nullopt;
  return CheckedElementCount(s.dims());
}

bool IsPermutation(const std::vector<int64_t>& v, int64_t n) {
  if (static_cast<int64_t>(v.size()) != n) return false;
  if (n <= 64) {  // the common case, without allocating
    uint64_t bits = 0;
    for (int64_t x : v) {
      if (x < 0 || x >= n || (bits >> x & 1)) return false;
      bits |= uint64_t{1} << x;
    }
    return true;
  }
  std::vector<bool> seen(n, false);
  for (int64_t x : v) {
    if (x < 0 || x >= n || seen[x]) return false;
    seen[x] = true;
  }
  return true;
}

bool AllUnique(const std::vector<int64_t>& v) {
  if (v.size() <= 16) {  // dimension lists: quadratic without allocating
    for (size_t i = 0; i < v.size(); ++i)
      for (size_t j = i + 1; j < v.size(); ++j)
        if (v[i] == v[j]) return false;
    return true;
  }
  return std::set<int64_t>(v.begin(), v.end()).size() == v.size();
}

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

Status ExpectOperandCount(const Instruction& instr, int n) {
  if (instr.operand_count() == n) return Status::Ok();
  return Fail(Op(instr) + " takes " + std::to_string(n) + " operand(s) but has " +
              std::to_string(instr.operand_count()));
}

Status ExpectArrayOperand(const Instruction& instr, int i, std::string_view role) {
  const Shape& s = instr.operand(i)->shape();
  if (s.IsArray()) return Status::Ok();
  std::string what =
      role.empty() ? Operand(instr, i) : Operand(instr, i) + ", the " + std::string(role) + ",";
  return Fail(what + " has shape " + Str(s) + " but " + Op(instr) + " needs an array");
}

std::string RawValue(const Instruction& instr, std::string_view name) {
  const RawAttr* r = instr.FindRaw(name);
  return r ? r->value : std::string();
}

std::optional<std::vector<int64_t>> RawInts(const Instruction& instr, std::string_view name) {
  return RawIntList(instr, name);
}

std::optional<int64_t> RawInt(const Instruction& instr, std::string_view name) {
  auto v = RawInts(instr, name);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

StatusOr<ProgramShape> ProgramOf(const Instruction& instr, const Computation* c, std::string_view role) {
  if (!c) return Fail(Op(instr) + " has no " + std::string(role) + " computation");
  ProgramShape p;
  p.comp = c;
  for (int i = 0; i < c->num_parameters(); ++i) {
    const Instruction* param = c->parameter(i);
    if (!param)
      return Fail(std::string(role) + " computation '" + c->name() + "' has no parameter " +
                  std::to_string(i) + " (parameter numbers must be 0..n-1)");
    p.params.push_back(&param->shape());
  }
  if (!c->root()) return Fail(std::string(role) + " computation '" + c->name() + "' has no root");
  p.result = &c->root()->shape();
  return p;
}

StatusOr<ProgramShape> CalledProgram(const Instruction& instr, std::string_view attr) {
  return ProgramOf(instr, instr.called(attr), attr);
}

std::vector<const Computation*> BranchComputations(const Instruction& instr) {
  std::vector<const Computation*> out;
  for (const auto& r : instr.called_refs())
    if (r.attr == "branch_computations")
      for (const Computation* c : r.comps) out.push_back(c);
  if (!out.empty()) return out;
  const Computation* t = instr.called("true_computation");
  const Computation* f = instr.called("false_computation");
  if (t || f) out = {t, f};
  return out;
}

Status VerifyReducer(const ProgramShape& reducer, const std::vector<const Shape*>& init_values,
                     const std::vector<PrimitiveType>& input_types, std::string_view what) {
  const size_t n = input_types.size();
  auto name = [&] { return std::string(what) + " '" + reducer.comp->name() + "'"; };  // errors only
  if (reducer.params.size() != 2 * n)
    return Fail(name() + " takes " + std::to_string(reducer.params.size()) + " parameter(s) but " +
                std::to_string(2 * n) + " are needed (" + std::to_string(n) + " accumulator(s) then " +
                std::to_string(n) + " input(s))");
  const Shape& acc = *reducer.result;
  std::vector<const Shape*> accs;
  if (acc.IsTuple()) {
    if (static_cast<size_t>(acc.tuple_size()) != n)
      return Fail(name() + " returns a tuple of " + std::to_string(acc.tuple_size()) + " element(s) but " +
                  std::to_string(n) + " are needed");
    for (const Shape& e : acc.tuple_shapes()) accs.push_back(&e);
  } else if (acc.IsArray()) {
    if (n != 1)
      return Fail(name() + " returns " + Str(acc) + " but a tuple of " + std::to_string(n) +
                  " scalars is needed");
    accs.push_back(&acc);
  } else {
    return Fail(name() + " returns " + Str(acc) + " but a scalar or a tuple of scalars is needed");
  }
  for (const Shape* a : accs)
    if (!a->IsArray() || a->rank() != 0)
      return Fail(name() + " returns " + Str(acc) + " but must return scalars");
  for (size_t i = 0; i < n; ++i) {
    const Shape& param_acc = *reducer.params[i];
    const Shape& param_in = *reducer.params[n + i];
    if (!ShapesCompatible(*accs[i], param_acc))
      return Fail(name() + ": parameter " + std::to_string(i) + " has shape " + Str(param_acc) +
                  " but the result " + (n > 1 ? "element " + std::to_string(i) + " " : std::string()) +
                  "is " + Str(*accs[i]) + " (the accumulator goes in and out unchanged in type)");
    if (!ShapesCompatible(*accs[i], *init_values[i], /*ignore_fp_precision=*/true))
      return Fail(name() + ": init value " + std::to_string(i) + " has shape " + Str(*init_values[i]) +
                  " but the accumulator is " + Str(*accs[i]));
    Shape in_elem = Shape::Scalar(input_types[i]);
    if (!ShapesCompatible(in_elem, param_in, /*ignore_fp_precision=*/true))
      return Fail(name() + ": parameter " + std::to_string(n + i) + " has shape " + Str(param_in) +
                  " but the input elements are " + Str(in_elem));
    if (!ShapesCompatible(*accs[i], param_in, /*ignore_fp_precision=*/true))
      return Fail(name() + ": parameter " + std::to_string(n + i) + " has shape " + Str(param_in) +
                  " but the accumulator is " + Str(*accs[i]));
  }
  return Status::Ok();
}

StatusOr<Shape> WindowOutputShape(const Shape& base, const Window& window, PrimitiveType type) {
  if (static_cast<int>(window.dims.size()) != base.rank())
    return Fail("the window has " + std::to_string(window.dims.size()) + " dimension(s) but the input " +
                Str(base) + " has rank " + std::to_string(base.rank()));
  std::vector<int64_t> dims(base.rank());
  std::vector<bool> dynamic(base.rank());
  for (int i = 0; i < base.rank(); ++i) {
    const WindowDim& w = window.dims[i];
    auto where = [i] { return "window dimension " + std::to_string(i); };  // errors only
    if (w.size <= 0) return Fail(where() + " has size " + std::to_string(w.size) + "; it must be positive");
    if (w.stride <= 0)
      return Fail(where() + " has stride " + std::to_string(w.stride) + "; it must be positive");
    if (w.base_dilation < 1)
      return Fail(where() + " has lhs_dilate " + std::to_string(w.base_dilation) + "; it must be at least 1");
    if (w.window_dilation < 1)
      return Fail(where() + " has rhs_dilate " + std::to_string(w.window_dilation) + "; it must be at least 1");
    dynamic[i] = base.IsDynamicDim(i);
    if (IsUnbounded(base, i)) {
      dims[i] = Shape::kUnboundedDim;
      continue;
    }
    auto dilated = [](int64_t bound, int64_t dilation) {
      return bound == 0 ? 0 : (bound - 1) * dilation + 1;
    };
    int64_t padded = w.pad_lo + dilated(base.dim(i), w.base_dilation) + w.pad_hi;
    int64_t win = dilated(w.size, w.window_dilation);
    dims[i] = padded < win ? 0 : (padded - win) / w.stride + 1;
  }
  return MakeArray(type, std::move(dims), dynamic);
}

}  // namespace hloscope::infer
