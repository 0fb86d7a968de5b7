#include "core/cost/cost_model.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/custom_calls.h"

namespace hloscope {

Cost& Cost::operator+=(const Cost& o) {
  flops += o.flops;
  cycles += o.cycles;
  bytes_read += o.bytes_read;
  bytes_written += o.bytes_written;
  bytes_reread_l1 += o.bytes_reread_l1;
  bytes_reread_l2 += o.bytes_reread_l2;
  bytes_reread_hbm += o.bytes_reread_hbm;
  memory_us += o.memory_us;
  compute_us += o.compute_us;
  launch_us += o.launch_us;
  time_us += o.time_us;
  kernels += o.kernels;
  return *this;
}

namespace {

// Flops per output element of elementwise ops.
double ElementwiseWeight(Opcode op) {
  switch (op) {
    case Opcode::kExp: case Opcode::kExpm1: case Opcode::kLog: case Opcode::kLog1p:
    case Opcode::kTanh: case Opcode::kLogistic: case Opcode::kSin: case Opcode::kCos:
    case Opcode::kTan: case Opcode::kPower: case Opcode::kErf: case Opcode::kAtan2:
    case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin: case Opcode::kAsinh:
    case Opcode::kAtanh: case Opcode::kCosh: case Opcode::kSinh: case Opcode::kCbrt:
      return 16;
    case Opcode::kDivide: case Opcode::kSqrt: case Opcode::kRsqrt: case Opcode::kRemainder:
      return 4;
    case Opcode::kConvert: case Opcode::kBitcastConvert: case Opcode::kCopy:
      return 0;
    default:
      return 1;
  }
}

// Clock cycles per element XLA's GPU cost analysis charges an elementwise op
// (HloOpProfiles, measured on H100, sm_90; XLA uses the closest profile for
// other GPUs too). Ops and types it has not measured: 3.
double ProfileCycles(Opcode op, PrimitiveType t) {
  constexpr double kDefault = 3;
  const bool f32 = t == PrimitiveType::kF32, f16 = t == PrimitiveType::kF16, f64 = t == PrimitiveType::kF64;
  switch (op) {
    case Opcode::kAdd: case Opcode::kSubtract:
      return f32 || f16 ? 7 : f64 ? 15 : kDefault;
    case Opcode::kMultiply:
      return f32 ? 3 : f16 ? 7 : f64 ? 15 : t == PrimitiveType::kS32 || t == PrimitiveType::kU32 ? 3 : kDefault;
    case Opcode::kDivide:
      return f32 ? 19 : f16 ? 43 : f64 ? 526 : t == PrimitiveType::kS32 ? 297 : t == PrimitiveType::kU32 ? 122 : kDefault;
    case Opcode::kPower:
      return f32 ? 510 : f16 ? 526 : f64 ? 2205 : t == PrimitiveType::kS32 || t == PrimitiveType::kU32 ? 71 : kDefault;
    case Opcode::kExp:
      return f32 ? 79 : f16 ? 102 : f64 ? 376 : kDefault;
    case Opcode::kExpm1:
      return f32 ? 190 : f16 ? 217 : f64 ? 712 : kDefault;
    case Opcode::kLog:
      return f32 ? 166 : f16 ? 182 : f64 ? 815 : kDefault;
    case Opcode::kLog1p:
      return f32 ? 229 : f16 ? 245 : f64 ? 1259 : kDefault;
    case Opcode::kRsqrt:
      return f32 ? 75 : f16 ? 95 : f64 ? 277 : kDefault;
    case Opcode::kSqrt:
      return f32 ? 75 : f16 ? 95 : f64 ? 332 : kDefault;
    case Opcode::kTanh:
      return f32 ? 467 : f16 ? 502 : f64 ? 431 : kDefault;
    case Opcode::kSin:
      return f32 ? 958 : f16 ? 993 : f64 ? 554 : kDefault;
    case Opcode::kCos:
      return f32 ? 978 : f16 ? 997 : f64 ? 558 : kDefault;
    case Opcode::kCbrt:
      return f32 ? 178 : f16 ? 201 : f64 ? 586 : kDefault;
    case Opcode::kAtan2:
      return f32 ? 431 : f16 ? 451 : f64 ? 930 : kDefault;
    default:
      return kDefault;
  }
}

int64_t ComputationOps(const Computation* c) {
  if (!c) return 1;
  int64_t n = 0;
  for (const auto& i : c->instructions())
    if (i->opcode() != Opcode::kParameter && i->opcode() != Opcode::kConstant &&
        i->opcode() != Opcode::kTuple && i->opcode() != Opcode::kGetTupleElement)
      ++n;
  return std::max<int64_t>(n, 1);
}

int64_t LeafElements(const Shape& s) {
  if (s.IsTuple()) {
    int64_t n = 0;
    for (const auto& t : s.tuple_shapes()) n += LeafElements(t);
    return n;
  }
  return s.IsArray() ? s.num_elements() : 0;
}

bool IsMatrixOp(const Instruction& i) {
  return i.opcode() == Opcode::kDot || i.opcode() == Opcode::kConvolution || i.opcode() == Opcode::kRaggedDot ||
         i.opcode() == Opcode::kScaledDot || IsCudnnConvCustomCall(i);
}

// How many times `i` (not elementwise) reads each element of operand `k`
// (XLA's HloCostAnalysis operand utilization with multiple input accesses
// counted): a broadcast once per output element it feeds, a slice or
// gather what it selects, everything else once.
double OperandUtilization(const Instruction& i, int k) {
  const double in = static_cast<double>(LeafElements(i.operand(k)->shape()));
  if (in <= 0) return 0;
  const double out = static_cast<double>(LeafElements(i.shape()));
  switch (i.opcode()) {
    case Opcode::kBroadcast:
      return out / in;
    case Opcode::kSlice: case Opcode::kDynamicSlice: case Opcode::kGather:
      return k == 0 ? out / in : 1.0;
    case Opcode::kReduce: {
      // An init value is read once per output element (of one output).
      const int n = i.operand_count() / 2;
      if (k < n) return 1.0;
      const Shape& s = i.shape().IsTuple() && !i.shape().tuple_shapes().empty() ? i.shape().tuple_shapes()[0] : i.shape();
      return s.IsArray() ? static_cast<double>(s.num_elements()) / in : 1.0;
    }
    default:
      return 1.0;
  }
}

bool PassesUseRoots(const Instruction& i) {
  return IsElementwise(i.opcode()) || i.opcode() == Opcode::kTuple || i.opcode() == Opcode::kGetTupleElement;
}

// The utilization of each instruction of one fused computation, found by
// address (a fused computation holds tens of instructions: a sorted vector,
// no hashing); 0 for an instruction it does not hold.
class Utilization {
 public:
  Utilization() = default;
  explicit Utilization(std::vector<std::pair<const Instruction*, double>> by_address)
      : by_address_(std::move(by_address)) {}
  double operator[](const Instruction* i) const {
    auto it = std::lower_bound(by_address_.begin(), by_address_.end(), i,
                               [](const auto& e, const Instruction* x) { return e.first < x; });
    return it != by_address_.end() && it->first == i ? it->second : 0.0;
  }

 private:
  std::vector<std::pair<const Instruction*, double>> by_address_;
};

// XLA's utilization of every instruction of a fused computation
// (GpuHloCostAnalysis::FusionCalculateUtilizations): the root is computed
// once; an elementwise op passes on the outputs ("roots") it is computed
// for, so an operand used twice for the same output is read once; any other
// op starts a new root, read as often as the op reads it.
Utilization FusedUtilization(const Computation& fc) {
  if (!fc.root()) return Utilization();
  const std::vector<Instruction*> order = fc.MakePostOrder();
  const size_t n = order.size();
  // Position in `order` by address, for the operands.
  std::vector<std::pair<const Instruction*, int32_t>> pos;
  pos.reserve(n);
  for (size_t k = 0; k < n; ++k) pos.push_back({order[k], static_cast<int32_t>(k)});
  std::sort(pos.begin(), pos.end());
  auto position = [&pos](const Instruction* x) -> int32_t {
    auto it = std::lower_bound(pos.begin(), pos.end(), x, [](const auto& e, const Instruction* y) { return e.first < y; });
    return it != pos.end() && it->first == x ? it->second : -1;
  };
  std::vector<double> root_util(n, 0.0), util(n, 0.0);
  std::vector<std::vector<int32_t>> roots(n);  // by position: the roots it is computed for
  const int32_t root = position(fc.root());
  if (root < 0) return Utilization();
  root_util[static_cast<size_t>(root)] = 1.0;
  roots[static_cast<size_t>(root)].push_back(root);
  for (size_t at = n; at-- > 0;) {
    const Instruction* i = order[at];
    double u = 0;
    for (int32_t r : roots[at]) u += root_util[static_cast<size_t>(r)];
    util[at] = u;
    const bool passes = PassesUseRoots(*i);
    for (int k = 0; k < i->operand_count(); ++k) {
      const Instruction* o = i->operand(k);
      const int32_t op = position(o);
      if (op < 0) continue;  // not of this computation
      std::vector<int32_t>& ors = roots[static_cast<size_t>(op)];
      auto add_root = [&ors](int32_t r) {
        if (std::find(ors.begin(), ors.end(), r) == ors.end()) ors.push_back(r);
      };
      if (passes) {
        for (int32_t r : roots[at]) add_root(r);
        continue;
      }
      add_root(op);
      double ou = u * OperandUtilization(*i, k);
      const double elems = static_cast<double>(LeafElements(o->shape()));
      ou = elems > 0 ? std::ceil(ou * elems) / elems : 0;  // whole elements, as XLA rounds
      root_util[static_cast<size_t>(op)] += ou;
    }
  }
  std::vector<std::pair<const Instruction*, double>> out;
  out.reserve(n);
  for (size_t k = 0; k < n; ++k) out.push_back({order[k], util[k]});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return Utilization(std::move(out));
}

int64_t TimesBytes(double util, const Shape& s) {
  return static_cast<int64_t>(std::llround(util * static_cast<double>(s.byte_size())));
}

}  // namespace

namespace {
// A custom fusion (Triton's GEMM and normalization kernels, XLA's tiled cost
// model) reads each input and computes each op once per element: no
// utilization.
bool IsTiled(const Instruction& fusion) { return fusion.fusion_kind() == FusionKind::kCustom; }

Utilization UtilizationOf(const Instruction& fusion) {
  return IsTiled(fusion) ? Utilization{} : FusedUtilization(*fusion.fused_computation());
}

// KernelReads of a fusion, its utilization given.
std::vector<InputRead> FusionReads(const Instruction& k, const Utilization& util) {
  std::vector<InputRead> out;
  const Computation* fc = k.fused_computation();
  const bool tiled = IsTiled(k);
  for (int p = 0; p < fc->num_parameters() && p < k.operand_count(); ++p) {
    const Instruction* param = fc->parameter(p);
    if (!param) continue;
    std::vector<const Instruction*> users(param->users().begin(), param->users().end());
    InputRead r{k.operand(p)};
    r.net = users.empty() ? 0 : OperandReadBytes(param, users);
    r.total = std::max(r.net, TimesBytes(util[param], param->shape()));
    out.push_back(r);
  }
  if (tiled) return out;
  for (const auto& m : fc->instructions()) {
    if (m->opcode() != Opcode::kConstant || m->users().empty()) continue;
    InputRead r{m.get()};
    r.constant = true;
    r.net = m->shape().byte_size();
    r.total = std::max(r.net, TimesBytes(util[m.get()], m->shape()));
    out.push_back(r);
  }
  return out;
}
}  // namespace

std::vector<InputRead> KernelReads(const Instruction& k) {
  if (k.opcode() == Opcode::kFusion && k.fused_computation()) {
    Utilization util = UtilizationOf(k);
    return FusionReads(k, util);
  }
  std::vector<InputRead> out;
  for (int n = 0; n < k.operand_count(); ++n) {
    const Instruction* o = k.operand(n);
    bool seen = false;
    for (auto& r : out) seen |= r.input == o;
    if (seen) continue;
    InputRead r{o};
    r.net = OperandReadBytes(o, {&k});
    double util = 0;
    for (int j = 0; j < k.operand_count(); ++j)
      if (k.operand(j) == o) util += IsElementwise(k.opcode()) ? 1.0 : OperandUtilization(k, j);
    if (IsElementwise(k.opcode())) util = 1.0;
    r.total = std::max(r.net, TimesBytes(util, o->shape()));
    out.push_back(r);
  }
  return out;
}

void AddRead(Cost& c, const InputRead& r, const DeviceSpec& d) {
  const int64_t first = r.constant ? 0 : r.net;
  c.bytes_read += first;
  const int64_t again = r.total - first;
  if (again <= 0) return;
  // XLA's ReadTimeWithDRAMHeuristic: kL1CacheSizePerSM = 2 kB.
  if (r.net < int64_t{2048} * std::max(d.sm_count, 1))
    c.bytes_reread_l1 += again;
  else
    c.bytes_reread_l2 += again;
}

int64_t OperandReadBytes(const Instruction* operand, const std::vector<const Instruction*>& users) {
  int64_t full = operand->shape().byte_size();
  int64_t selected = 0;
  for (const Instruction* u : users) {
    bool selects = u->opcode() == Opcode::kSlice || u->opcode() == Opcode::kDynamicSlice ||
                   (u->opcode() == Opcode::kGather && u->operand(0) == operand);
    if (!selects) return full;
    selected += u->shape().byte_size();
  }
  return std::min(full, selected);
}

double InstructionFlops(const Instruction& i) {
  const Shape& s = i.shape();
  switch (i.opcode()) {
    case Opcode::kDot: {
      if (!i.attrs().dot) return 0;
      int64_t k = 1;
      const Shape& lhs = i.operand(0)->shape();
      for (int64_t d : i.attrs().dot->lhs_contracting)
        if (d >= 0 && d < lhs.rank()) k *= lhs.dim(static_cast<int>(d));
      return 2.0 * static_cast<double>(s.num_elements()) * static_cast<double>(k);
    }
    case Opcode::kCustomCall:
      if (!IsCudnnConvCustomCall(i)) return 0;
      [[fallthrough]];  // cuDNN's convolution: the convolution's flops
    case Opcode::kConvolution: {
      if (!i.attrs().conv) return 0;
      const Shape& kernel = i.operand(1)->shape();
      int64_t per_out = 1;
      for (int64_t d : i.attrs().conv->kernel_spatial)
        if (d >= 0 && d < kernel.rank()) per_out *= kernel.dim(static_cast<int>(d));
      int64_t kin = i.attrs().conv->kernel_input_feature;
      if (kin >= 0 && kin < kernel.rank()) per_out *= kernel.dim(static_cast<int>(kin));
      return 2.0 * static_cast<double>(ConvolutionResultShape(i).num_elements()) * static_cast<double>(per_out);
    }
    case Opcode::kReduce: {
      int64_t in = 0;
      int n = i.operand_count() / 2;
      for (int k = 0; k < n; ++k) in += i.operand(k)->shape().num_elements();
      return static_cast<double>(in) * static_cast<double>(ComputationOps(i.to_apply())) / std::max(n, 1);
    }
    case Opcode::kReduceWindow: {
      int64_t window = 1;
      if (i.attrs().window)
        for (const auto& w : i.attrs().window->dims) window *= w.size;
      return static_cast<double>(LeafElements(s)) * static_cast<double>(window) *
             static_cast<double>(ComputationOps(i.to_apply()));
    }
    case Opcode::kFusion: {
      double f = 0;
      if (const Computation* c = i.fused_computation())
        for (const auto& m : c->instructions()) f += InstructionFlops(*m);
      return f;
    }
    default:
      if (IsElementwise(i.opcode())) return static_cast<double>(LeafElements(s)) * ElementwiseWeight(i.opcode());
      return 0;
  }
}

namespace {
// The reducer's cycles per reduced element (XLA: the to_apply computation's
// ops, each as an elementwise op of the element type).
double ReducerCycles(const Computation* c) {
  if (!c) return 3;
  double n = 0;
  for (const auto& m : c->instructions())
    if (IsElementwise(m->opcode()) && m->shape().IsArray()) n += ProfileCycles(m->opcode(), m->shape().element_type());
  return std::max(n, 1.0);
}

double OwnCycles(const Instruction& i) {
  if (IsElementwise(i.opcode()) && i.shape().IsArray())
    return static_cast<double>(i.shape().num_elements()) * ProfileCycles(i.opcode(), i.shape().element_type());
  if (i.opcode() == Opcode::kReduce) {
    // XLA: the reducer runs once per input element beyond the first of each
    // output ((in - out) times).
    const Shape& s = i.shape().IsTuple() && !i.shape().tuple_shapes().empty() ? i.shape().tuple_shapes()[0] : i.shape();
    const int64_t in = i.operand(0)->shape().num_elements();
    const int64_t out = s.IsArray() ? s.num_elements() : 1;
    return static_cast<double>(std::max<int64_t>(in - out, 0)) * ReducerCycles(i.to_apply());
  }
  return 0;
}
}  // namespace

namespace {
// InstructionCycles of a fusion, its utilization given.
double FusionCycles(const Instruction& fusion, const Utilization& util) {
  const bool tiled = IsTiled(fusion);
  double c = 0;
  for (const auto& m : fusion.fused_computation()->instructions()) {
    const double own = OwnCycles(*m);
    if (own > 0) c += own * (tiled ? 1.0 : util[m.get()]);
  }
  return c;
}
}  // namespace

double InstructionCycles(const Instruction& i) {
  if (i.opcode() == Opcode::kFusion && i.fused_computation()) {
    Utilization util = UtilizationOf(i);
    return FusionCycles(i, util);
  }
  return OwnCycles(i);
}

bool LaunchesKernel(const Instruction& i) {
  switch (i.opcode()) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kTuple:
    case Opcode::kGetTupleElement: case Opcode::kBitcast: case Opcode::kAfterAll:
    case Opcode::kAddDependency: case Opcode::kOptimizationBarrier: case Opcode::kDomain:
    case Opcode::kWhile: case Opcode::kConditional: case Opcode::kCall:
    case Opcode::kAsyncDone: case Opcode::kAllReduceDone: case Opcode::kAllGatherDone:
    case Opcode::kCollectivePermuteDone: case Opcode::kCopyDone: case Opcode::kSendDone:
    case Opcode::kRecvDone: case Opcode::kPartitionId: case Opcode::kReplicaId:
      return false;
    case Opcode::kCustomCall:
      return !IsIdentityCustomCall(i);  // Sharding, Pin, Unpin...: views of their operand
    default:
      return true;
  }
}

bool IsExpensive(const Instruction& i) {
  switch (i.opcode()) {
    case Opcode::kDot: case Opcode::kConvolution: case Opcode::kReduce: case Opcode::kReduceWindow:
    case Opcode::kSort: case Opcode::kFft: case Opcode::kCustomCall: case Opcode::kScatter:
    case Opcode::kRng: case Opcode::kRngBitGenerator: case Opcode::kWhile: case Opcode::kConditional:
    case Opcode::kCall: case Opcode::kCholesky: case Opcode::kTriangularSolve:
      return true;
    case Opcode::kFusion:
      // A fusion is as expensive as the most expensive thing inside it.
      if (const Computation* c = i.fused_computation()) {
        for (const auto& m : c->instructions())
          if (m->opcode() != Opcode::kParameter && IsExpensive(*m)) return true;
        return false;
      }
      return true;
    case Opcode::kDivide: case Opcode::kRemainder: {
      // Integer division by a scalar constant becomes multiplies and shifts
      // (cheap); other integer division is emulated (expensive). On GPUs an
      // f32/f16 divide is a fast hardware approximation (XLA:
      // GpuInstructionFusion::IsExpensive); bf16 and f64 divides are not.
      PrimitiveType t = i.shape().element_type();
      if (i.opcode() == Opcode::kDivide && (t == PrimitiveType::kF32 || t == PrimitiveType::kF16)) return false;
      if (IsFloat(t) || IsComplex(t)) return true;
      const Instruction* divisor = i.operand_count() > 1 ? i.operand(1) : nullptr;
      return !(divisor && divisor->opcode() == Opcode::kConstant && divisor->shape().IsArray() && divisor->shape().rank() == 0);
    }
    case Opcode::kExp: case Opcode::kSqrt: case Opcode::kRsqrt: {
      // Cheap on GPUs for f32/f16 (hardware approximations), expensive otherwise.
      PrimitiveType t = i.shape().element_type();
      return !(t == PrimitiveType::kF32 || t == PrimitiveType::kF16);
    }
    case Opcode::kAbs: case Opcode::kSign: case Opcode::kSin: case Opcode::kCos:
      // Cheap for reals, expensive for complex numbers.
      return IsComplex(i.shape().element_type());
    default:
      // Other transcendentals on floats (XLA: InstructionFusion::IsExpensive).
      return IsElementwise(i.opcode()) && ElementwiseWeight(i.opcode()) > 1 &&
             (IsFloat(i.shape().element_type()) || IsComplex(i.shape().element_type()));
  }
}

int64_t KernelBlocks(const Shape& out) {
  int64_t e = 0;
  if (out.IsTuple()) {
    for (const Shape& t : out.tuple_shapes()) e = std::max(e, KernelBlocks(t) * 128);
  } else if (out.IsArray()) {
    e = out.num_elements();
  }
  return std::max<int64_t>(1, (e + 127) / 128);
}

namespace {
// The k-th dimension of `s` from minor to major: its layout's, or the
// default's (the last dimension minor).
int64_t MinorToMajor(const Shape& s, int k) {
  if (s.has_layout() && static_cast<int>(s.layout().minor_to_major.size()) == s.rank())
    return s.layout().minor_to_major[static_cast<size_t>(k)];
  return s.rank() - 1 - k;
}
}  // namespace

bool ReductionPrefersElemental(const Instruction& reduce) {
  if (reduce.opcode() != Opcode::kReduce || reduce.shape().IsTuple() || reduce.operand_count() != 2) return false;
  const Shape& in = reduce.operand(0)->shape();
  if (!in.IsArray() || in.rank() == 0) return false;
  const std::vector<int64_t>& red = reduce.dimensions();
  auto reduced = [&](int64_t d) { return std::find(red.begin(), red.end(), d) != red.end(); };
  // Minor to major: kept dims below the first reduced one make it a column
  // reduction of `minor` columns; the reduced extent is the product of the
  // reduced dims.
  int64_t minor = 1, reduced_elements = 1;
  bool seen_reduced = false;
  for (int k = 0; k < in.rank(); ++k) {
    const int64_t d = MinorToMajor(in, k);
    if (in.dim(static_cast<int>(d)) == 1) continue;
    if (reduced(d)) {
      reduced_elements *= in.dim(static_cast<int>(d));
      seen_reduced = true;
    } else if (!seen_reduced) {
      minor *= in.dim(static_cast<int>(d));
    }
  }
  if (reduced_elements <= 1) return true;  // nothing reduced: a copy
  constexpr int64_t kWarp = 32;
  if (minor == 1) return !(reduced_elements >= kWarp || kWarp % reduced_elements == 0);
  const int64_t major = reduced_elements;
  return major < kWarp || (major < 2 * kWarp && minor < kWarp) || (major < 4 * kWarp && minor < 8) ||
         (major < 8 * kWarp && minor < 3);
}

namespace {
// The reduce whose launch a kernel takes: the instruction itself, a fusion's
// root reduce, or the first reduce among the outputs of a multi-output one;
// none when the loop emitter computes it elementally (a loop fusion).
const Instruction* HeroReduce(const Instruction& k) {
  if (k.opcode() == Opcode::kReduce) return ReductionPrefersElemental(k) ? nullptr : &k;
  if (k.opcode() != Opcode::kFusion || !k.fused_computation() || !k.fused_computation()->root() ||
      k.fusion_kind() == FusionKind::kLoop)
    return nullptr;
  const Instruction* root = k.fused_computation()->root();
  if (root->opcode() == Opcode::kReduce) return root;
  if (root->opcode() == Opcode::kTuple)
    for (int n = 0; n < root->operand_count(); ++n)
      if (root->operand(n)->opcode() == Opcode::kReduce) return root->operand(n);
  return nullptr;
}
}  // namespace

// The shape of a reduction as XLA's reduction emitter sees it, its input in
// physical order (minor to major, dimensions of 1 left out): a row
// reduction reduces the minor-most dimension, a column reduction keeps it.
struct ReduceGeometry {
  bool column = false;
  int64_t kept = 1;        // output elements
  int64_t row = 1;         // a row reduction's reduced minor-most run
  int64_t kept_minor = 1;  // a column reduction's kept dims minor to the reduced ones
};

ReduceGeometry GeometryOf(const Instruction& r) {
  ReduceGeometry g;
  const Shape& in = r.operand(0)->shape();
  const std::vector<int64_t>& dims = r.dimensions();
  auto reduced = [&](int64_t dim) { return std::find(dims.begin(), dims.end(), dim) != dims.end(); };
  bool first = true, in_run = true;
  for (int k = 0; k < in.rank(); ++k) {
    const int64_t dim = MinorToMajor(in, k);
    const int64_t n = in.dims()[static_cast<size_t>(dim)];
    if (!reduced(dim)) g.kept *= n;
    if (n == 1) continue;
    if (first) g.column = !reduced(dim), first = false;
    if (in_run && reduced(dim) == !g.column) {
      (g.column ? g.kept_minor : g.row) *= n;
    } else {
      in_run = false;
    }
  }
  return g;
}

namespace {
int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// XLA's row-reduction emitters. Rows of a power of two that fit one warp
// (vectorized) take several rows per warp (MultiRowReductionFusion: up to
// 256 threads, at least one block per SM when the rows allow); other rows
// take 16 elements per thread, a row per up to 1,024 threads, and several
// rows per block while that stays at or under 256 threads
// (RowReductionFusion). Each thread walks the major reduced dimensions.
void RowReductionLaunch(const Instruction& r, const ReduceGeometry& g, KernelLaunch& l) {
  constexpr int64_t kWarp = 32, kTarget = 256, kMinDesiredBlocks = 132;  // H100 / H200: 132 SMs
  const int64_t row = std::max<int64_t>(1, g.row), kept = std::max<int64_t>(1, g.kept);
  const int in_bits = BitWidth(r.operand(0)->shape().element_type());
  const Shape& out = r.shape().IsTuple() ? r.shape().tuple_shapes()[0] : r.shape();
  const int out_bits = BitWidth(out.element_type());
  auto kept_threads = [&](int64_t reduced_threads) {
    return kept * reduced_threads <= kTarget ? kept : std::max<int64_t>(1, kTarget / reduced_threads);
  };
  if ((row & (row - 1)) == 0 && in_bits > 0 && out_bits > 0) {
    const int small = std::min(in_bits, out_bits), large = std::max(in_bits, out_bits);
    int64_t v = std::min<int64_t>(row, 64 / small);
    if (large >= 32) v = std::min<int64_t>(128 / large, v);
    v = std::max<int64_t>(v, 1);
    if (row <= kWarp * v) {
      while (v > 1 && CeilDiv(kept, kept_threads(row / v)) < kMinDesiredBlocks) v /= 2;
      if (row <= kWarp * v) {
        const int64_t tr = row / v, tk = kept_threads(tr);
        l.blocks = CeilDiv(kept, tk);
        l.threads = tk * tr;
        return;
      }
    }
  }
  const int64_t tr = std::min<int64_t>(1024, CeilDiv(CeilDiv(row, 16), kWarp) * kWarp);
  const int64_t tk = tr * 2 <= kTarget ? kept_threads(tr) : 1;
  const int64_t per_thread = std::min<int64_t>(16, CeilDiv(row, tr));
  l.blocks = CeilDiv(kept, tk) * CeilDiv(row, per_thread * tr);
  l.threads = tk * tr;
}
}  // namespace

KernelLaunch LaunchOf(const Instruction& k) {
  KernelLaunch l;
  if (const Instruction* r = HeroReduce(k); r && r->operand_count() >= 2 && r->operand(0)->shape().IsArray()) {
    l.reduction = true;
    const ReduceGeometry g = GeometryOf(*r);
    if (g.column) {
      // A column reduction: 32 x 32 threads per block, each block 64
      // columns (two per thread) down every row.
      l.blocks = std::max<int64_t>(1, g.kept / g.kept_minor * ((g.kept_minor + 63) / 64));
      l.threads = 1024;
    } else {
      RowReductionLaunch(*r, g, l);
    }
    return l;
  }
  l.blocks = KernelBlocks(k.shape());
  int64_t e = 0;
  const Shape& out = k.shape();
  if (out.IsTuple()) {
    for (const Shape& t : out.tuple_shapes())
      if (t.IsArray()) e = std::max(e, t.num_elements());
  } else if (out.IsArray()) {
    e = out.num_elements();
  }
  l.threads = std::clamp<int64_t>(e, 1, 128);
  return l;
}

bool LaunchesAsReduction(const Instruction& k) { return HeroReduce(k) != nullptr; }
int64_t KernelLaunchBlocks(const Instruction& k) { return LaunchOf(k).blocks; }
int64_t KernelLaunchThreads(const Instruction& k) { return LaunchOf(k).threads; }

void FinishCost(Cost& c, const DeviceSpec& d, bool matrix, PrimitiveType matrix_type) {
  double read_bw = d.BytesPerSecond();
  if (c.blocks > 0 && d.clock_ghz > 0) read_bw = std::min(read_bw, static_cast<double>(c.blocks) * d.clock_ghz * 1e9 * 32);
  double l1_bw = d.BytesPerSecond() * 20, l2_bw = d.BytesPerSecond() * 2.5;  // XLA's cache speedups
  if (c.blocks > 0 && d.clock_ghz > 0) {
    const double cap = static_cast<double>(c.blocks) * d.clock_ghz * 1e9 * 32;
    l1_bw = std::min(l1_bw, cap);
    l2_bw = std::min(l2_bw, cap);
  }
  c.memory_us = (static_cast<double>(c.bytes_read) / read_bw + static_cast<double>(c.bytes_reread_l1) / l1_bw +
                 static_cast<double>(c.bytes_reread_l2) / l2_bw + static_cast<double>(c.bytes_reread_hbm) / read_bw +
                 static_cast<double>(c.bytes_written) / d.BytesPerSecond()) *
                1e6;
  if (matrix) {
    c.compute_us = c.flops / d.MatrixFlopsPerSecond(matrix_type) * 1e6;
  } else if (d.clock_ghz > 0 && d.sm_count > 0) {
    // XLA's ComputeTime: the profile's cycles on the lanes the launch keeps
    // busy, up to 128 per block on at most every SM, two per clock (FMA), in
    // whole flops per nanosecond (XLA keeps the rate as an integer).
    const double per_block = static_cast<double>(c.threads > 0 ? std::min<int64_t>(c.threads, 128) : 128);
    const double lanes = per_block * static_cast<double>(c.blocks > 0 ? std::min<int64_t>(c.blocks, d.sm_count) : d.sm_count);
    const double flops_per_ns = std::max(1.0, std::floor(lanes * 2 * d.clock_ghz));
    c.compute_us = c.cycles / flops_per_ns * 1e-3;
  } else {
    c.compute_us = c.flops / d.ScalarFlopsPerSecond() * 1e6;
  }
  c.launch_us = c.kernels * d.launch_overhead_us;
  // XLA's CombineComputeAndMemoryAccessTime: the two overlap but for 5% of
  // the shorter.
  c.time_us = c.memory_us + c.compute_us - 0.95 * std::min(c.memory_us, c.compute_us) + c.launch_us;
}

Cost GroupCost(const std::vector<const Instruction*>& members, const DeviceSpec& d) {
  Cost c;
  c.kernels = members.empty() ? 0 : 1;
  std::unordered_set<const Instruction*> in(members.begin(), members.end());
  std::unordered_map<const Instruction*, std::vector<const Instruction*>> external_users;
  std::vector<const Instruction*> externals;
  bool matrix = false;
  PrimitiveType mtype = PrimitiveType::kF32;
  int64_t reduce_threads = 0;
  for (const Instruction* m : members) {
    c.flops += InstructionFlops(*m);
    c.cycles += InstructionCycles(*m);
    if (IsMatrixOp(*m)) {
      matrix = true;
      mtype = m->operand(0)->shape().element_type();
    }
    for (const Instruction* o : m->operands()) {
      if (in.count(o)) continue;
      auto& u = external_users[o];
      if (u.empty()) externals.push_back(o);
      if (std::find(u.begin(), u.end(), m) == u.end()) u.push_back(m);
    }
    bool escapes = m->IsRoot() || m->users().empty();
    for (const Instruction* u : m->users())
      if (!in.count(u)) escapes = true;
    if (escapes) {
      c.bytes_written += m->shape().byte_size();
      const KernelLaunch l = LaunchOf(*m);
      c.blocks = std::max(c.blocks, l.blocks);  // launched over its largest output
      // A reduction among the outputs launches the kernel as a reduction.
      if (l.reduction) reduce_threads = std::max(reduce_threads, l.threads);
      else c.threads = std::max(c.threads, l.threads);
    }
  }
  if (reduce_threads > 0) c.threads = reduce_threads;
  for (const Instruction* o : externals) {
    InputRead r{o};
    r.net = OperandReadBytes(o, external_users[o]);
    double util = 0;
    for (const Instruction* m : external_users[o]) {
      double mu = 0;
      for (int j = 0; j < m->operand_count(); ++j)
        if (m->operand(j) == o) mu += OperandUtilization(*m, j);
      util = std::max(util, IsElementwise(m->opcode()) ? 1.0 : mu);
    }
    r.total = std::max(r.net, TimesBytes(util, o->shape()));
    AddRead(c, r, d);
    // An unfused elementwise op reads an operand once per operand slot that
    // names it (XLA's GpuHloCostAnalysis: x·x reads x twice).
    if (members.size() == 1 && IsElementwise(members[0]->opcode())) {
      int64_t uses = 0;
      for (const Instruction* x : members[0]->operands()) uses += x == o;
      if (uses > 1) c.bytes_reread_hbm += (uses - 1) * r.net;
    }
  }
  FinishCost(c, d, matrix, mtype);
  return c;
}

Cost KernelCost(const Instruction& i, const DeviceSpec& d) {
  if (!LaunchesKernel(i)) return Cost{};
  if (i.opcode() == Opcode::kFusion && i.fused_computation()) {
    const Computation* fc = i.fused_computation();
    Cost c;
    c.kernels = 1;
    bool matrix = false;
    PrimitiveType mtype = PrimitiveType::kF32;
    for (const auto& m : fc->instructions()) {
      c.flops += InstructionFlops(*m);
      if (IsMatrixOp(*m)) {
        matrix = true;
        mtype = m->operand(0)->shape().element_type();
      }
    }
    Utilization util = UtilizationOf(i);  // once for both
    c.cycles = FusionCycles(i, util);
    for (const InputRead& r : FusionReads(i, util)) AddRead(c, r, d);
    c.bytes_written = i.shape().byte_size();
    const KernelLaunch l = LaunchOf(i);
    c.blocks = l.blocks;
    c.threads = l.threads;
    FinishCost(c, d, matrix, mtype);
    return c;
  }
  return GroupCost({&i}, d);
}

namespace {
void AddComputation(const Computation& c, const DeviceSpec& d, ModuleCost& mc, int depth) {
  if (depth > 16) return;
  for (const auto& i : c.instructions()) {
    if (i->opcode() == Opcode::kWhile || i->opcode() == Opcode::kConditional || i->opcode() == Opcode::kCall) {
      for (const Computation* callee : i->called_computations()) AddComputation(*callee, d, mc, depth + 1);
      continue;
    }
    if (!LaunchesKernel(*i)) continue;
    Cost k = KernelCost(*i, d);
    mc.kernels += k.kernels;
    mc.hbm_bytes += k.bytes();
    mc.bytes_read += k.bytes_read;
    mc.bytes_written += k.bytes_written;
    mc.est_us += k.time_us;
    mc.flops += k.flops;
  }
}
}  // namespace

ModuleCost EstimateModule(const Module& m, const DeviceSpec& d) {
  ModuleCost mc;
  if (m.entry()) AddComputation(*m.entry(), d, mc, 0);
  return mc;
}

}  // namespace hloscope
