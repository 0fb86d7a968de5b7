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
  logged_.clear();
}

bool FusionPassBase::Decide(const Instruction& producer, const std::vector<const Instruction*>& consumers,
                            FusionVerdict v, std::string reason, const Cost& before, const Cost& after) {
  std::string key = std::to_string(producer.id());
  for (const Instruction* c : consumers) key += "," + std::to_string(c->id());
  key += "|" + std::to_string(static_cast<int>(v)) + "|" + reason;
  if (!logged_.insert(std::move(key)).second) return false;
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
  d.bytes_before = before.bytes();
  d.bytes_after = after.bytes();
  d.us_before = before.time_us;
  d.us_after = after.time_us;
  if (v != FusionVerdict::kNotFused) mutable_log().Count(v == FusionVerdict::kMerged ? "merged" : "fused");
  else mutable_log().Count("not fused");
  mutable_log().decisions.push_back(std::move(d));
  return true;
}

}  // namespace hloscope
