// What the kernel planner asks of the HLO (kernel_plan_queries.h).
#include "core/codegen/kernel_plan_queries.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/ir/custom_calls.h"

namespace hloscope::codegen::plan {
namespace {

void CollectLeaves(const Shape& s, std::vector<int64_t>& prefix, std::vector<Leaf>& out) {
  if (s.IsTuple()) {
    for (int i = 0; i < s.tuple_size(); ++i) {
      prefix.push_back(i);
      CollectLeaves(s.tuple_shapes()[i], prefix, out);
      prefix.pop_back();
    }
  } else if (s.IsArray()) {
    out.push_back({prefix, s});
  }
}

}  // namespace

std::vector<Leaf> LeavesOf(const Shape& s) {
  std::vector<Leaf> out;
  std::vector<int64_t> prefix;
  CollectLeaves(s, prefix, out);
  return out;
}

bool SameSlice(const runtime::Slice& a, const runtime::Slice& b) {
  return a.allocation == b.allocation && a.offset == b.offset && a.size == b.size;
}

bool IsBitcastLike(const Instruction& i) {
  return i.opcode() == Opcode::kBitcast || i.opcode() == Opcode::kTuple || i.opcode() == Opcode::kGetTupleElement ||
         i.opcode() == Opcode::kReshape || i.opcode() == Opcode::kOptimizationBarrier || IsIdentityCustomCall(i);
}

std::string Sanitize(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "k_" + s;
  // PTX names may not be "_" alone (an instruction named `_`), nor need
  // to start with one: "k_…".
  else if (s[0] == '_') s = "k" + s;
  return s;
}

std::vector<int64_t> MinorToMajor(const Shape& s) {
  if (s.has_layout() && static_cast<int>(s.layout().minor_to_major.size()) == s.rank())
    return s.layout().minor_to_major;
  return Shape::DefaultLayout(s.rank()).minor_to_major;
}

// The literal's bytes in the physical order of `shape`'s layout (sub-byte
// types packed).
std::vector<uint8_t> PhysicalBytes(const Literal& lit, const Shape& shape) {
  const uint8_t* src = lit.raw();
  int64_t n = lit.num_elements(), eb = lit.element_bytes();
  std::vector<uint8_t> out(static_cast<size_t>(n * eb));
  std::vector<int64_t> m2m = MinorToMajor(shape);
  std::vector<int64_t> row_stride(shape.rank(), 1);
  for (int d = shape.rank() - 2; d >= 0; --d) row_stride[d] = row_stride[d + 1] * shape.dim(d + 1);
  for (int64_t p = 0; p < n; ++p) {
    int64_t rest = p, logical = 0;
    for (int64_t d : m2m) {
      int64_t size = shape.dim(static_cast<int>(d));
      logical += (rest % size) * row_stride[d];
      rest /= size;
    }
    std::memcpy(out.data() + p * eb, src + logical * eb, static_cast<size_t>(eb));
  }
  const int bits = BitWidth(shape.element_type());
  if (shape.element_type() == PrimitiveType::kPred || bits >= 8 || bits <= 0) return out;
  // Sub-byte types packed as Shape::byte_size counts them and the kernels
  // read them: 8/bits per byte, the first in the most significant bits.
  const int per = 8 / bits;
  std::vector<uint8_t> packed(static_cast<size_t>((n + per - 1) / per), 0);
  for (int64_t p = 0; p < n; ++p)
    packed[p / per] |= static_cast<uint8_t>((out[p] & ((1u << bits) - 1)) << (bits * (per - 1 - p % per)));
  return packed;
}

// A slice whose elements are one contiguous run of its operand's buffer,
// in the same order: unit strides, the operand and the result laid out
// alike, and, minor to major, whole dimensions, then one dimension cut
// anywhere, then dimensions of which one index is taken. The run's start in
// bytes; nullopt for any other slice.
std::optional<int64_t> ContiguousSliceStartBytes(const Instruction& i) {
  if (i.opcode() != Opcode::kSlice || i.operand_count() != 1) return std::nullopt;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  if (!in.IsArray() || !out.IsArray() || in.IsDynamic() || in.rank() != out.rank() || in.rank() == 0)
    return std::nullopt;
  const int bits = BitWidth(in.element_type());
  if (bits <= 0 || bits % 8 != 0 || in.element_type() != out.element_type()) return std::nullopt;
  if ((in.has_layout() && !in.layout().tiles.empty()) || (out.has_layout() && !out.layout().tiles.empty()))
    return std::nullopt;
  const std::vector<int64_t> order = MinorToMajor(in);
  if (order != MinorToMajor(out)) return std::nullopt;
  const auto& sl = i.attrs().slice;
  if (static_cast<int64_t>(sl.size()) != in.rank()) return std::nullopt;
  int64_t start = 0, stride = 1;
  int phase = 0;  // 0: whole dimensions, 1: past the cut one (single indices only)
  for (int64_t d : order) {
    const auto& s = sl[static_cast<size_t>(d)];
    const int64_t n = in.dims()[static_cast<size_t>(d)];
    if (s.stride != 1 || s.start < 0 || s.limit > n || s.limit <= s.start) return std::nullopt;
    const int64_t extent = s.limit - s.start;
    if (phase == 0) {
      if (extent != n) phase = 1;
    } else if (extent != 1) {
      return std::nullopt;
    }
    start += s.start * stride;
    stride *= n;
  }
  return start * (bits / 8);
}

// The reducer as one elementwise op of its two parameters, or one of
// them ("first", "last"), or "".
std::string ReductionKind(const Computation* fn) {
  if (!fn || fn->num_parameters() != 2 || !fn->root()) return "";
  const Instruction& r = *fn->root();
  if (r.opcode() == Opcode::kParameter) return r.parameter_number() == 0 ? "first" : "last";
  if (r.operand_count() != 2) return "";
  const Instruction* a = r.operand(0);
  const Instruction* b = r.operand(1);
  if (a->opcode() != Opcode::kParameter || b->opcode() != Opcode::kParameter || a == b) return "";
  switch (r.opcode()) {
    case Opcode::kAdd: return "add";
    case Opcode::kMultiply: return "multiply";
    case Opcode::kMaximum: return "maximum";
    case Opcode::kMinimum: return "minimum";
    case Opcode::kAnd: return "and";
    case Opcode::kOr: return "or";
    case Opcode::kXor: return "xor";
    default: return "";
  }
}

// True when every read of operand `op` of `i` is at the output's index:
// only elementwise ops of the output's dimensions lie between the fused
// parameter and the roots. In a reduction kernel the path may also go
// through bitcast reshapes (same places in memory) into the reduce, whose
// input element the emitter reads in the thread that writes the outputs
// at that place, before it stores them (reduction_emitter.cc, Inputs);
// such reshaped values must not be outputs themselves.
bool ReadsAtWrittenIndex(const Instruction& i, int op, const Shape& out) {
  if (i.opcode() != Opcode::kFusion) return IsElementwise(i.opcode()) && i.operand(op)->shape().SameDims(out);
  const Computation* c = i.fused_computation();
  const Instruction* param = nullptr;
  for (const Instruction* p : c->parameters())
    if (p->parameter_number() == op) param = p;
  if (!param || !param->shape().SameDims(out)) return false;
  std::vector<const Instruction*> roots = KernelRoots(i), heroes;
  StatusOr<KernelEmitterFn> emitter = SelectEmitter(i);
  if (i.fusion_kind() == FusionKind::kInput && emitter.ok() && *emitter == &EmitReductionKernel)
    for (const Instruction* r : roots)
      for (const Instruction* h = r; h; h = h->operand_count() == 1 ? h->operand(0) : nullptr)
        if (h->opcode() == Opcode::kReduce) {
          heroes.push_back(h);
          break;
        }
  auto contains = [](const std::vector<const Instruction*>& v, const Instruction* x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  std::vector<const Instruction*> work = {param};
  std::set<const Instruction*> seen;
  while (!work.empty()) {
    const Instruction* x = work.back();
    work.pop_back();
    if (!seen.insert(x).second) continue;
    for (const Instruction* u : x->users()) {
      if (u == c->root() && u->opcode() == Opcode::kTuple) continue;
      if (contains(heroes, u)) continue;  // read once, before the stores at that place
      if (!u->shape().IsArray()) return false;
      const bool exact = u->shape().SameDims(out) && MinorToMajor(u->shape()) == MinorToMajor(out);
      const bool reshaped = !heroes.empty() && !contains(roots, u) && ReshapeIsBitcastBetween(u->shape(), out);
      const bool view = u->opcode() == Opcode::kBitcast || u->opcode() == Opcode::kReshape;
      if (!(exact || (reshaped && (view || IsElementwise(u->opcode()))))) return false;
      if (!view && !IsElementwise(u->opcode())) return false;
      if (u->opcode() == Opcode::kCopy && !(u->shape() == x->shape())) return false;
      work.push_back(u);
    }
  }
  return true;
}

}  // namespace hloscope::codegen::plan
