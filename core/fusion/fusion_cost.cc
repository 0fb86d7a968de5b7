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

KernelCostCache::Entry* KernelCostCache::Find(const Instruction& k) {
  if (k.id() < 0) return nullptr;
  const size_t id = static_cast<size_t>(k.id());
  if (id >= by_id_.size()) by_id_.resize(std::max(id + 1, by_id_.size() * 2));
  Entry& e = by_id_[id];
  // Its instructions and operands: fusing a producer in removes the
  // producer's operand and parameter and adds the producer's instructions
  // (at least one) and a parameter and operand for each new input, so one of
  // the two counts always moves; merging a sibling adds to both.
  const Computation* fc = k.opcode() == Opcode::kFusion ? k.fused_computation() : nullptr;
  const int64_t size = (fc ? static_cast<int64_t>(fc->instructions().size()) : 1) * (int64_t{1} << 20) +
                       k.operand_count();
  if (e.size != size) {
    e = Entry();
    e.size = size;
  }
  return &e;
}

Cost KernelCostCache::CostOf(const Instruction& k) {
  Entry* e = Find(k);
  if (!e) return KernelCost(k, device_);
  if (!e->has_cost) {
    e->cost = KernelCost(k, device_);
    e->has_cost = true;
  }
  return e->cost;
}

double KernelCostCache::FlopsOf(const Instruction& k) {
  Entry* e = Find(k);
  if (!e) return InstructionFlops(k);
  if (!e->has_flops) {
    e->flops = InstructionFlops(k);
    e->has_flops = true;
  }
  return e->flops;
}

std::vector<std::pair<const Instruction*, int64_t>> KernelCostCache::InputsOf(const Instruction& k) {
  Entry* found = Find(k);
  if (!found) return KernelInputs(k);
  Entry& e = *found;
  if (!e.has_reads) {
    auto inputs = KernelInputs(k);
    e.reads.clear();
    for (auto& [o, b] : inputs) e.reads.push_back(b);
    e.has_reads = true;
    return inputs;
  }
  // The operands as they are now, with the bytes remembered, in KernelInputs' order.
  std::vector<std::pair<const Instruction*, int64_t>> out;
  if (k.opcode() == Opcode::kFusion && k.fused_computation()) {
    const Computation* fc = k.fused_computation();
    size_t r = 0;
    for (int p = 0; p < fc->num_parameters() && p < k.operand_count(); ++p) {
      if (!fc->parameter(p)) continue;
      out.push_back({k.operand(p), e.reads[r++]});
    }
    return out;
  }
  size_t r = 0;
  for (const Instruction* o : k.operands()) {
    bool seen = false;
    for (auto& [x, b] : out) seen |= x == o;
    if (!seen) out.push_back({o, e.reads[r++]});
  }
  return out;
}

Cost CostUnfused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                 const DeviceSpec& d, KernelCostCache* cache) {
  Cost c = cache ? cache->CostOf(producer) : KernelCost(producer, d);
  for (const Instruction* u : consumers) c += cache ? cache->CostOf(*u) : KernelCost(*u, d);
  return c;
}

Cost CostFused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
               const DeviceSpec& d, KernelCostCache* cache) {
  Cost total;
  auto pin = cache ? cache->InputsOf(producer) : KernelInputs(producer);
  double pflops = cache ? cache->FlopsOf(producer) : InstructionFlops(producer);
  for (const Instruction* c : consumers) {
    Cost k;
    k.kernels = 1;
    k.flops = (cache ? cache->FlopsOf(*c) : InstructionFlops(*c)) + pflops;
    std::unordered_map<const Instruction*, int64_t> reads;
    for (auto& [o, b] : cache ? cache->InputsOf(*c) : KernelInputs(*c))
      if (o != &producer) reads[o] = std::max(reads[o], b);
    for (auto& [o, b] : pin) reads[o] = std::max(reads[o], b);
    for (auto& [o, b] : reads) k.bytes_read += b;
    k.bytes_written = c->shape().byte_size();
    k.blocks = KernelBlocks(c->shape());
    bool matrix = IsMatrix(*c);
    FinishCost(k, d, matrix, matrix ? c->operand(0)->shape().element_type() : PrimitiveType::kF32);
    total += k;
  }
  bool other_users = producer.IsRoot();
  for (const Instruction* u : producer.users())
    if (std::find(consumers.begin(), consumers.end(), u) == consumers.end()) other_users = true;
  if (other_users) total += cache ? cache->CostOf(producer) : KernelCost(producer, d);
  return total;
}

}  // namespace hloscope
