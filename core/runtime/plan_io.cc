#include "core/runtime/plan_io.h"

#include <algorithm>
#include <cstring>

#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/parser/parser.h"
#include "core/runtime/collective_exchange.h"
#include "core/runtime/manifest.h"

namespace hloscope::runtime {
namespace {

// Element strides of the physical buffer for each logical dimension; empty
// when the layout is row-major (a plain copy does).
StatusOr<std::vector<int64_t>> PhysicalStrides(const Shape& s) {
  if (!s.has_layout()) return std::vector<int64_t>{};
  const Layout& l = s.layout();
  if (!l.tiles.empty() ||
      (l.element_size_in_bits != 0 && l.element_size_in_bits != BitWidth(s.element_type())))
    return Error("shape " + s.ToString() +
                 ": tiled layouts or element sizes other than the type's are not supported by the runtime");
  if (static_cast<int>(l.minor_to_major.size()) != s.rank()) return std::vector<int64_t>{};
  bool row_major = true;
  for (int i = 0; i < s.rank(); ++i) row_major &= l.minor_to_major[i] == s.rank() - 1 - i;
  if (row_major) return std::vector<int64_t>{};
  std::vector<int64_t> stride(s.rank(), 0);
  int64_t st = 1;
  for (int64_t d : l.minor_to_major) {
    if (d < 0 || d >= s.rank()) return Error("shape " + s.ToString() + ": bad layout");
    stride[d] = st;
    st *= s.dim(static_cast<int>(d));
  }
  return stride;
}

// Calls f(logical_index, physical_index) for every element.
template <typename F>
void ForEachElement(const Shape& s, const std::vector<int64_t>& stride, F f) {
  int64_t n = s.num_elements();
  std::vector<int64_t> idx(s.rank(), 0);
  int64_t phys = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, phys);
    for (int d = s.rank() - 1; d >= 0; --d) {
      phys += stride[d];
      if (++idx[d] < s.dim(d)) break;
      phys -= stride[d] * idx[d];
      idx[d] = 0;
    }
  }
}

Status CheckArray(const Shape& s) {
  if (!s.IsArray()) return Error("shape " + s.ToString() + " is not an array");
  if (s.IsDynamic()) return Error("shape " + s.ToString() + ": dynamic dimensions are not supported by the runtime");
  return Status::Ok();
}

// Sub-byte types (s4, u4, s2, f4e2m1fn, …) travel packed, as Shape::
// byte_size counts them and the kernels read them (ElementalEmitter::Load):
// 8/bits elements per byte in physical order, the first in the byte's most
// significant bits (XLA's order). Literals keep one element per byte.
int PackedBits(PrimitiveType t) {
  int bits = BitWidth(t);
  return t != PrimitiveType::kPred && bits > 0 && bits < 8 ? bits : 0;
}

std::vector<uint8_t> Pack(const std::vector<uint8_t>& unpacked, int bits) {
  const int per = 8 / bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  std::vector<uint8_t> out((unpacked.size() + per - 1) / per, 0);
  for (size_t i = 0; i < unpacked.size(); ++i)
    out[i / per] |=
        static_cast<uint8_t>((unpacked[i] & mask) << (bits * (per - 1 - static_cast<int>(i % per))));
  return out;
}

// One element per byte again; signed integers sign-extended, as Literal
// keeps them.
std::vector<uint8_t> Unpack(const uint8_t* data, int64_t n, int bits, bool sign) {
  const int per = 8 / bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  std::vector<uint8_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint8_t u = static_cast<uint8_t>(data[i / per] >> (bits * (per - 1 - static_cast<int>(i % per)))) & mask;
    if (sign && (u >> (bits - 1))) u |= static_cast<uint8_t>(~mask);
    out[static_cast<size_t>(i)] = u;
  }
  return out;
}

}  // namespace

StatusOr<Shape> PlanValueShape(const PlanValue& v) {
  auto s = ParseShape(v.shape);
  if (!s.ok()) return Error("shape '" + v.shape + "': " + s.status().message());
  RETURN_IF_ERROR(CheckArray(*s));
  return *s;
}

StatusOr<std::vector<uint8_t>> LiteralToBuffer(const Literal& l, const Shape& physical) {
  RETURN_IF_ERROR(CheckArray(physical));
  if (l.IsTuple() || l.elided() || l.num_elements() != physical.num_elements() ||
      l.shape().element_type() != physical.element_type())
    return Error("value of shape " + l.shape().ToString(false) + " does not fit " + physical.ToString());
  ASSIGN_OR_RETURN(std::vector<int64_t> stride, PhysicalStrides(physical));
  const uint8_t* src = l.raw();
  std::vector<uint8_t> out(l.raw_size());
  if (stride.empty()) {
    if (!out.empty()) std::memcpy(out.data(), src, out.size());
  } else {
    int eb = l.element_bytes();
    ForEachElement(physical, stride,
                   [&](int64_t i, int64_t p) { std::memcpy(&out[p * eb], src + i * eb, eb); });
  }
  if (int bits = PackedBits(physical.element_type())) return Pack(out, bits);
  return out;
}

StatusOr<Literal> LiteralFromBuffer(const uint8_t* data, size_t size, const Shape& physical) {
  RETURN_IF_ERROR(CheckArray(physical));
  Shape logical = physical;
  logical.set_layout(std::nullopt);
  Literal l(logical);
  std::vector<uint8_t> unpacked;
  if (int bits = PackedBits(physical.element_type())) {
    if (static_cast<int64_t>(size) != physical.byte_size())
      return Error("buffer of " + std::to_string(size) + " bytes does not hold " + physical.ToString());
    unpacked = Unpack(data, l.num_elements(), bits, IsSignedInt(physical.element_type()));
    data = unpacked.data();
    size = unpacked.size();
  }
  if (size != l.raw_size())
    return Error("buffer of " + std::to_string(size) + " bytes does not hold " + physical.ToString());
  ASSIGN_OR_RETURN(std::vector<int64_t> stride, PhysicalStrides(physical));
  uint8_t* dst = l.raw();
  if (stride.empty()) {
    if (size) std::memcpy(dst, data, size);
    return l;
  }
  int eb = l.element_bytes();
  ForEachElement(physical, stride, [&](int64_t i, int64_t p) { std::memcpy(dst + i * eb, data + p * eb, eb); });
  return l;
}

StatusOr<std::vector<Literal>> ParameterLeaves(const ThunkPlan& plan, const std::vector<Literal>& inputs) {
  std::vector<Literal> leaves;
  for (const Literal& l : inputs)
    for (Literal& leaf : FlattenTuple(l)) leaves.push_back(std::move(leaf));
  // plan.parameters in (parameter_number, index) order = flattening order.
  std::vector<size_t> order(plan.parameters.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const PlanValue &x = plan.parameters[a], &y = plan.parameters[b];
    return std::tie(x.parameter_number, x.index) < std::tie(y.parameter_number, y.index);
  });
  if (leaves.size() != plan.parameters.size())
    return Error(std::to_string(leaves.size()) + " input arrays given, but the module takes " +
                 std::to_string(plan.parameters.size()));
  std::vector<Literal> out(plan.parameters.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const PlanValue& p = plan.parameters[order[k]];
    ASSIGN_OR_RETURN(Shape s, PlanValueShape(p));
    if (leaves[k].shape().element_type() != s.element_type() || leaves[k].shape().dims() != s.dims())
      return Error("input " + std::to_string(k) + " has shape " + leaves[k].shape().ToString(false) +
                   ", but parameter " + std::to_string(p.parameter_number) + " needs " + s.ToString(false));
    out[order[k]] = std::move(leaves[k]);
  }
  return out;
}

namespace {

Status ValidateForRun(const ThunkPlan& plan, bool every_device) {
  RETURN_IF_ERROR(ValidatePlan(plan, "plan"));
  if (std::vector<const KernelThunk*> missing = MissingKernels(plan); !missing.empty()) {
    std::string list;
    for (const KernelThunk* k : missing) list += "\n  " + k->name + " (%" + k->instruction + "): " + k->missing;
    return Error("plan: " + std::to_string(missing.size()) + " of " + std::to_string(AllKernels(plan).size()) +
                 " kernels could not be generated, so it cannot run:" + list);
  }
  if (every_device) {
    std::string list;
    int64_t count = 0;
    for (const CollectiveThunk* c : AllCollectives(plan)) {
      const std::string why = CollectiveUnsupportedOnDevices(*c);
      if (why.empty()) continue;
      if (++count <= 10) list += "\n  " + c->op + " %" + c->instruction + ": " + why;
    }
    if (count > 0)
      return Error("plan: " + std::to_string(count) + " collective thunks cannot exchange their data between the " +
                   std::to_string(plan.devices()) + " devices:" + list + (count > 10 ? "\n  ..." : ""));
  } else {
    std::string list;
    int64_t devices = 1, count = 0;
    for (const CollectiveThunk* c : AllCollectives(plan)) {
      if (c->participants == 1) continue;
      devices = std::max(devices, c->participants);
      if (++count <= 10)
        list += "\n  " + c->op + " %" + c->instruction + " (replica_groups=" + c->replica_groups + ")";
    }
    if (count > 0)
      return Error("plan: needs " + std::to_string(devices) + " devices, and runs on one: " + std::to_string(count) +
                   " collective thunks exchange data between devices" + list + (count > 10 ? "\n  ..." : "") +
                   "\n(a run on the CPU runs every device of the plan: `hloscope-cli run --device cpu`)");
  }
  {
    std::string list;
    int64_t count = 0;
    for (const HostTransferThunk* h : AllHostTransfers(plan)) {
      if (!h->MovesData()) continue;
      if (++count <= 10) list += "\n  " + h->op + " %" + h->instruction;
    }
    if (count > 0)
      return Error("plan: " + std::to_string(count) + " host transfers (infeed, outfeed, send, recv) exchange data with "
                   "the host or another program, which nothing here feeds:" + list + (count > 10 ? "\n  ..." : ""));
  }
  {
    std::string list;
    int64_t count = 0;
    for (const CustomCallThunk* x : AllCustomCalls(plan))
      if (++count <= 10) list += "\n  custom-call %" + x->instruction + " (target " + x->target + ")";
    if (count > 0)
      return Error("plan: " + std::to_string(count) + " custom-calls call external targets (a library's or a "
                   "framework's), which this runtime does not provide:" + list + (count > 10 ? "\n  ..." : ""));
  }
  for (const auto* vals : {&plan.parameters, &plan.outputs}) {
    for (const PlanValue& v : *vals) {
      ASSIGN_OR_RETURN(Shape s, PlanValueShape(v));
      if (s.byte_size() > v.slice.size)
        return Error("plan: value " + v.shape + " (" + std::to_string(s.byte_size()) + " bytes) does not fit its slice of " +
                     std::to_string(v.slice.size) + " bytes");
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidatePlanForRun(const ThunkPlan& plan) { return ValidateForRun(plan, false); }
Status ValidatePlanForDevices(const ThunkPlan& plan) { return ValidateForRun(plan, true); }

namespace {
const CollectiveThunk* LastCollectiveWriter(const ThunkPlan& plan, const Slice& s) {
  const CollectiveThunk* last = nullptr;
  for (const CollectiveThunk* c : AllCollectives(plan))
    for (const Slice& w : c->results)
      if (w.allocation == s.allocation && w.offset < s.offset + s.size && s.offset < w.offset + w.size) last = c;
  return last;
}
}  // namespace

const KernelThunk* LastWriter(const ThunkPlan& plan, const Slice& s) {
  const KernelThunk* last = nullptr;
  for (const KernelThunk* k : AllKernels(plan)) {
    for (size_t a = 0; a < k->args.size(); ++a) {
      const Slice& w = k->args[a];
      if (a < k->arg_written.size() && k->arg_written[a] && w.allocation == s.allocation &&
          w.offset < s.offset + s.size && s.offset < w.offset + w.size)
        last = k;
    }
  }
  return last;
}

std::string CompareOutputs(const ThunkPlan& plan, const std::vector<Literal>& expected_leaves,
                           const std::vector<Literal>& actual, std::optional<Tolerance> tol) {
  // Tokens are leaves of the result but carry no data: the plan has no output for them.
  std::vector<const Literal*> arrays;
  for (const Literal& e : expected_leaves)
    if (e.shape().IsArray()) arrays.push_back(&e);
  std::vector<Literal> kept;
  const bool had_tokens = arrays.size() != expected_leaves.size();
  if (had_tokens)
    for (const Literal* e : arrays) kept.push_back(*e);
  const std::vector<Literal>& expected = had_tokens ? kept : expected_leaves;
  if (expected.size() != actual.size())
    return "expected " + std::to_string(expected.size()) + " outputs, got " + std::to_string(actual.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    std::string diff = CompareLiterals(expected[i], actual[i], tol);
    if (diff.empty()) continue;
    auto pos = diff.find("output {}");
    if (pos != std::string::npos) diff.replace(pos, 9, "output " + std::to_string(i));
    std::string who;
    if (i < plan.outputs.size()) {
      const KernelThunk* k = LastWriter(plan, plan.outputs[i].slice);
      const CollectiveThunk* c = k ? nullptr : LastCollectiveWriter(plan, plan.outputs[i].slice);
      who = k   ? " — last written by kernel '" + k->name + "' (" + k->kind + ", " + k->instruction + ")"
            : c ? " — no kernel writes it; the collective " + c->op + " '" + c->instruction + "' does"
                : " — no kernel writes it (a copy or a parameter)";
    }
    return diff + who;
  }
  return "";
}

}  // namespace hloscope::runtime
