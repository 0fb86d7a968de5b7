#include "core/fusion/fusion_cost.h"

#include "core/fusion/triton_fusibility.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace hloscope {
namespace {

bool IsMatrix(const Instruction& i) {
  return i.opcode() == Opcode::kDot || i.opcode() == Opcode::kConvolution;
}

}  // namespace

std::vector<InputRead> KernelInputs(const Instruction& k) { return KernelReads(k); }

KernelCostCache::Entry* KernelCostCache::Find(const Instruction& k) {
  if (k.id() < 0) return nullptr;
  const size_t id = static_cast<size_t>(k.id());
  if (id >= slot_of_.size()) slot_of_.resize(std::max(id + 1, slot_of_.size() * 2), -1);
  if (slot_of_[id] < 0) {
    slot_of_[id] = static_cast<int32_t>(entries_.size());
    entries_.emplace_back();
  }
  Entry& e = entries_[static_cast<size_t>(slot_of_[id])];
  const int64_t size = StateOf(k);
  if (e.size != size) {
    e = Entry();
    e.size = size;
  }
  return &e;
}

int64_t KernelCostCache::StateOf(const Instruction& k) {
  if (k.id() < 0) return -1;
  // Its instructions and operands: fusing a producer in removes the
  // producer's operand and parameter and adds the producer's instructions
  // (at least one) and a parameter and operand for each new input, so one of
  // the two counts always moves (the instruction count never falls, and
  // while it stays the operand count falls); merging a sibling adds to both.
  const Computation* fc = k.opcode() == Opcode::kFusion ? k.fused_computation() : nullptr;
  return (fc ? static_cast<int64_t>(fc->instructions().size()) : 1) * (int64_t{1} << 20) + k.operand_count();
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

double KernelCostCache::CyclesOf(const Instruction& k) {
  Entry* e = Find(k);
  if (!e) return InstructionCycles(k);
  if (!e->has_cycles) {
    e->cycles = InstructionCycles(k);
    e->has_cycles = true;
  }
  return e->cycles;
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

std::vector<InputRead> KernelCostCache::InputsOf(const Instruction& k) {
  Entry* found = Find(k);
  if (!found) return KernelReads(k);
  Entry& e = *found;
  if (!e.has_reads) {
    e.reads = KernelReads(k);
    e.has_reads = true;
    return e.reads;
  }
  // The operands as they are now, with the bytes remembered, in KernelReads' order.
  std::vector<InputRead> out = e.reads;
  size_t r = 0;
  if (k.opcode() == Opcode::kFusion && k.fused_computation()) {
    const Computation* fc = k.fused_computation();
    for (int p = 0; p < fc->num_parameters() && p < k.operand_count() && r < out.size(); ++p) {
      if (!fc->parameter(p)) continue;
      out[r++].input = k.operand(p);
    }
    return out;
  }
  std::vector<const Instruction*> distinct;
  for (const Instruction* o : k.operands())
    if (std::find(distinct.begin(), distinct.end(), o) == distinct.end()) distinct.push_back(o);
  for (const Instruction* o : distinct)
    if (r < out.size()) out[r++].input = o;
  return out;
}

Cost CostUnfused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                 const DeviceSpec& d, KernelCostCache* cache) {
  Cost c = cache ? cache->CostOf(producer) : KernelCost(producer, d);
  for (const Instruction* u : consumers) c += cache ? cache->CostOf(*u) : KernelCost(*u, d);
  return c;
}

namespace {

// The kernel `consumer` becomes with `producer` computed inside it (XLA's
// EstimateRunTimeForFusion); with `side_output` it also writes the
// producer's value (a multi-output fusion).
Cost FusedKernel(const Instruction& producer, const Instruction& consumer, const DeviceSpec& d,
                 KernelCostCache* cache, bool side_output) {
  const auto pin = cache ? cache->InputsOf(producer) : KernelReads(producer);
  const double pflops = cache ? cache->FlopsOf(producer) : InstructionFlops(producer);
  const double pcycles = cache ? cache->CyclesOf(producer) : InstructionCycles(producer);
  const double psize = static_cast<double>(std::max<int64_t>(producer.shape().byte_size(), 1));
  const Instruction* c = &consumer;
  Cost k;
  k.kernels = 1;
  // XLA (EstimateRunTimeForFusion): the producer is computed, and its
  // inputs read, as often as the consumer reads each of its elements.
  double u = 0;
  std::vector<InputRead> reads;
  for (const InputRead& r : cache ? cache->InputsOf(*c) : KernelReads(*c)) {
    if (r.input == &producer) {
      u += static_cast<double>(r.total) / psize;
      continue;
    }
    reads.push_back(r);
  }
  // Triton's kernels (XLA's tiled cost model) compute each tile once.
  if (u <= 0 || IsTritonFusion(*c) || IsTritonFusion(producer) || IsTritonGemmFusion(*c) ||
      IsTritonGemmFusion(producer))
    u = 1;
  std::vector<InputRead> producer_reads = pin;
  if (producer.opcode() == Opcode::kConstant) {  // inside the kernel it is read as before
    InputRead self{&producer};
    self.constant = true;
    self.net = self.total = producer.shape().byte_size();
    producer_reads.push_back(self);
  }
  for (const InputRead& r : producer_reads) {
    InputRead add = r;
    add.total = static_cast<int64_t>(std::llround(static_cast<double>(r.total) * u));
    add.net = std::min(r.net, add.total);
    bool merged = false;
    for (InputRead& have : reads)
      if (have.input == r.input) {  // read by both: once where both read it alike
        have.net = std::max(have.net, add.net);
        have.total = std::max(have.total, add.total);
        merged = true;
      }
    if (!merged) reads.push_back(add);
  }
  k.flops = (cache ? cache->FlopsOf(*c) : InstructionFlops(*c)) + pflops * u;
  k.cycles = (cache ? cache->CyclesOf(*c) : InstructionCycles(*c)) + pcycles * u;
  for (const InputRead& r : reads) AddRead(k, r, d);
  k.bytes_written = c->shape().byte_size() + (side_output ? producer.shape().byte_size() : 0);
  // A reduction producer taking its consumer as an epilogue launches the
  // fused kernel as the reduction it was.
  KernelLaunch launch = LaunchOf(*c);
  if (!launch.reduction)
    if (const KernelLaunch p = LaunchOf(producer); p.reduction) launch = p;
  k.blocks = launch.blocks;
  k.threads = launch.threads;
  bool matrix = IsMatrix(*c);
  FinishCost(k, d, matrix, matrix ? c->operand(0)->shape().element_type() : PrimitiveType::kF32);
  return k;
}

}  // namespace

Cost CostFused(const Instruction& producer, const std::vector<const Instruction*>& consumers,
               const DeviceSpec& d, KernelCostCache* cache) {
  Cost total;
  for (const Instruction* c : consumers)
    total += cache ? cache->FusedOf(producer, *c,
                                    [&] { return FusedKernel(producer, *c, d, cache, /*side_output=*/false); })
                   : FusedKernel(producer, *c, d, cache, /*side_output=*/false);
  bool other_users = producer.IsRoot();
  for (const Instruction* u : producer.users())
    if (std::find(consumers.begin(), consumers.end(), u) == consumers.end()) other_users = true;
  if (other_users) total += cache ? cache->CostOf(producer) : KernelCost(producer, d);
  return total;
}

Cost CostExtraOutput(const Instruction& producer, const Instruction& consumer, const DeviceSpec& d,
                     KernelCostCache* cache) {
  return FusedKernel(producer, consumer, d, cache, /*side_output=*/true);
}

}  // namespace hloscope
