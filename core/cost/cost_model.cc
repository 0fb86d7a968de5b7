#include "core/cost/cost_model.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/custom_calls.h"

namespace hloscope {

Cost& Cost::operator+=(const Cost& o) {
  flops += o.flops;
  bytes_read += o.bytes_read;
  bytes_written += o.bytes_written;
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

}  // namespace

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

void FinishCost(Cost& c, const DeviceSpec& d, bool matrix, PrimitiveType matrix_type) {
  double read_bw = d.BytesPerSecond();
  if (c.blocks > 0 && d.clock_ghz > 0) read_bw = std::min(read_bw, static_cast<double>(c.blocks) * d.clock_ghz * 1e9 * 32);
  c.memory_us = (static_cast<double>(c.bytes_read) / read_bw + static_cast<double>(c.bytes_written) / d.BytesPerSecond()) * 1e6;
  double throughput = matrix ? d.MatrixFlopsPerSecond(matrix_type) : d.ScalarFlopsPerSecond();
  c.compute_us = c.flops / throughput * 1e6;
  c.launch_us = c.kernels * d.launch_overhead_us;
  c.time_us = std::max(c.memory_us, c.compute_us) + c.launch_us;
}

Cost GroupCost(const std::vector<const Instruction*>& members, const DeviceSpec& d) {
  Cost c;
  c.kernels = members.empty() ? 0 : 1;
  std::unordered_set<const Instruction*> in(members.begin(), members.end());
  std::unordered_map<const Instruction*, std::vector<const Instruction*>> external_users;
  std::vector<const Instruction*> externals;
  bool matrix = false;
  PrimitiveType mtype = PrimitiveType::kF32;
  for (const Instruction* m : members) {
    c.flops += InstructionFlops(*m);
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
      c.blocks = std::max(c.blocks, KernelBlocks(m->shape()));  // launched over its largest output
    }
  }
  for (const Instruction* o : externals) c.bytes_read += OperandReadBytes(o, external_users[o]);
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
    for (int k = 0; k < fc->num_parameters() && k < i.operand_count(); ++k) {
      const Instruction* p = fc->parameter(k);
      if (!p) continue;
      std::vector<const Instruction*> users(p->users().begin(), p->users().end());
      int64_t bytes = users.empty() ? 0 : OperandReadBytes(p, users);
      c.bytes_read += bytes;
    }
    c.bytes_written = i.shape().byte_size();
    c.blocks = KernelBlocks(i.shape());
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
