#include "core/fusion/fusion_pass_base.h"

#include <unordered_set>

namespace hloscope {

std::vector<Computation*> FusionPassBase::FusibleComputations(Module& m) {
  std::vector<Computation*> out;
  std::unordered_set<const Computation*> seen;
  std::vector<Computation*> work;
  if (m.entry()) work.push_back(m.entry());
  while (!work.empty()) {
    Computation* c = work.back();
    work.pop_back();
    if (!seen.insert(c).second) continue;
    out.push_back(c);
    for (const auto& i : c->instructions()) {
      switch (i->opcode()) {
        case Opcode::kWhile: case Opcode::kConditional: case Opcode::kCall: case Opcode::kAsyncStart:
          for (Computation* callee : i->called_computations()) work.push_back(callee);
          break;
        default:
          break;
      }
    }
  }
  return out;
}

void FusionPassBase::BeginRun() {
  device_ = CurrentDevice();
  overrides_ = &CurrentFusionOverrides();
  logged_.clear();
}

const FusionOverridePair* FusionPassBase::Forced(const Instruction& p, const Instruction& c) const {
  for (const FusionOverridePair& f : overrides_->force)
    if (Holds(p, f.producer) && Holds(c, f.consumer)) return &f;
  return nullptr;
}

void FusionPassBase::RecordMissingForced(const Module& m) {
  for (const FusionOverridePair& f : overrides_->force) {
    const bool producer = !HoldersOf(m, f.producer).empty();
    if (producer && !HoldersOf(m, f.consumer).empty()) continue;
    FusionDecision d;
    d.pass = std::string(name());
    d.producer = f.producer.ToString();
    d.consumers = {f.consumer.ToString()};
    d.reason = std::string(kRefusedReason) + " (--force " + f.ToString() + "): " +
               (producer ? f.consumer.ToString() : f.producer.ToString()) + " no longer exists when " +
               std::string(name()) + " runs (an earlier pass removed or replaced it)";
    mutable_log().Count("not fused");
    mutable_log().decisions.push_back(std::move(d));
  }
}

namespace {
// One side (before or after the fusion) of a decision's cost, and the device
// numbers its arithmetic sentence uses (core/passes/cost_arithmetic.h).
void SetDecisionCost(FusionDecision& d, const Cost& c, const DeviceSpec& device, bool after) {
  (after ? d.bytes_after : d.bytes_before) = c.bytes();
  (after ? d.us_after : d.us_before) = c.time_us;
  (after ? d.kernels_after : d.kernels_before) = c.kernels;
  (after ? d.read_after : d.read_before) = c.bytes_read;
  d.hbm_gbs = device.hbm_bandwidth_gbs;
  d.launch_overhead_us = device.launch_overhead_us;
}
}  // namespace

void SetDecisionCostBefore(FusionDecision& d, const Cost& c, const DeviceSpec& device) {
  SetDecisionCost(d, c, device, false);
}

void SetDecisionCostAfter(FusionDecision& d, const Cost& c, const DeviceSpec& device) {
  SetDecisionCost(d, c, device, true);
}

size_t FusionPassBase::Decide(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                              FusionVerdict v, std::string reason, const Cost& before, const Cost& after) {
  // The same candidate with the same verdict and reason is logged once.
  uint64_t h = std::hash<std::string>()(reason) ^ (static_cast<uint64_t>(v) * 0x9E3779B97F4A7C15ull);
  auto mix = [&h](int64_t x) { h = (h ^ static_cast<uint64_t>(x)) * 0x100000001B3ull + (h >> 29); };
  mix(producer.id());
  for (const Instruction* c : consumers) mix(c->id());
  auto range = logged_.equal_range(h);
  for (auto it = range.first; it != range.second; ++it) {
    const FusionDecision& old = log().decisions[it->second];
    if (old.producer_id != producer.id() || old.verdict != v || old.consumer_ids.size() != consumers.size() ||
        old.reason != reason)
      continue;
    bool same = true;
    for (size_t k = 0; k < consumers.size() && same; ++k) same = old.consumer_ids[k] == consumers[k]->id();
    if (same) return it->second;
  }
  logged_.emplace(h, log().decisions.size());
  FusionDecision d;
  d.pass = std::string(name());
  d.producer = producer.name();
  d.producer_id = producer.id();
  for (const Instruction* c : consumers) {
    d.consumers.push_back(c->name());
    d.consumer_ids.push_back(c->id());
  }
  d.verdict = v;
  d.reason = std::move(reason);
  SetDecisionCostBefore(d, before, device_);
  SetDecisionCostAfter(d, after, device_);
  if (v != FusionVerdict::kNotFused) mutable_log().Count(v == FusionVerdict::kMerged ? "merged" : "fused");
  else mutable_log().Count("not fused");
  mutable_log().decisions.push_back(std::move(d));
  return log().decisions.size() - 1;
}

}  // namespace hloscope
