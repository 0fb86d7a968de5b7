#include "core/fusion/fusion_cost.h"

#include <algorithm>
#include <unordered_map>

namespace hloscope {
namespace {

bool IsMatrix(const Instruction& i) {
  return i.opcode() == Opcode::kDot || i.opcode() == Opcode::kConvolution;
}

}  // namespace

std::vector<std::pair<const Instruction*, int64_t>> KernelInputs(const Instruction& k) {
  std::vector<std::pair<const Instruction*, int64_t>> out;
  if (k.opcode() == Opcode::kFusion && k.fused_computation()) {
    const Computation* fc = k.fused_computation();
    for (int p = 0; p < fc->num_parameters() && p < k.operand_count(); ++p) {
      const Instruction* param = fc->parameter(p);
      if (!param) continue;
      std::vector<const Instruction*> users(param->users().begin(), param->users().end());
      out.push_back({k.operand(p), users.empty() ? 0 : OperandReadBytes(param, users)});
    }
    return out;
  }
  for (const Instruction* o : k.operands()) {
    bool seen = false;
    for (auto& [x, b] : out) seen |= x == o;
    if (!seen) out.push_back({o, OperandReadBytes(o, {&k})});
  }
  return out;
}

Cost CostUnfused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                 const DeviceSpec& d) {
  Cost c = KernelCost(producer, d);
  for (const Instruction* u : consumers) c += KernelCost(*u, d);
  return c;
}

Cost CostFused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
               const DeviceSpec& d) {
  Cost total;
  auto pin = KernelInputs(producer);
  double pflops = InstructionFlops(producer);
  for (const Instruction* c : consumers) {
    Cost k;
    k.kernels = 1;
    k.flops = InstructionFlops(*c) + pflops;
    std::unordered_map<const Instruction*, int64_t> reads;
    for (auto& [o, b] : KernelInputs(*c))
      if (o != &producer) reads[o] = std::max(reads[o], b);
    for (auto& [o, b] : pin) reads[o] = std::max(reads[o], b);
    for (auto& [o, b] : reads) k.bytes_read += b;
    k.bytes_written = c->shape().byte_size();
    bool matrix = IsMatrix(*c);
    FinishCost(k, d, matrix, matrix ? c->operand(0)->shape().element_type() : PrimitiveType::kF32);
    total += k;
  }
  bool other_users = producer.IsRoot();
  for (const Instruction* u : producer.users())
    if (std::find(consumers.begin(), consumers.end(), u) == consumers.end()) other_users = true;
  if (other_users) total += KernelCost(producer, d);
  return total;
}

}  // namespace hloscope
