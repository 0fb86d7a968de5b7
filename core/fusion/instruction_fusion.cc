// `fusion`: XLA GPU's instruction fusion. Consumers are visited from the
// root backwards; each operand that may fuse is pulled into the consumer's
// kernel (kLoop, or kInput when the consumer is a reduction). With
// duplication off, producers with several users stay; with it on, cheap
// producers are copied into each consumer, expensive ones never.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"

namespace hloscope {
namespace {

class InstructionFusion : public FusionPassBase {
 public:
  explicit InstructionFusion(bool may_duplicate) : may_duplicate_(may_duplicate) {}
  std::string_view name() const override { return may_duplicate_ ? "fusion_dup" : "fusion"; }
  std::string_view description() const override {
    return may_duplicate_
               ? "Instruction fusion, second round: cheap producers used by several consumers are copied into each."
               : "Instruction fusion: pulls elementwise and data-movement producers into their consumer's kernel "
                 "(loop fusions; reductions become input fusions) when that saves memory traffic.";
  }

  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) changed |= RunOn(comp);
    if (!overrides_->force.empty()) RecordMissingForced(m);
    return changed;
  }

 private:
  bool RunOn(Computation* comp) {
    bool changed = false;
    std::vector<Instruction*> order = comp->MakePostOrder();
    std::reverse(order.begin(), order.end());
    // Which instructions of `order` still exist, by id (a freed
    // instruction's address may be reused by a new one; its id is not).
    std::unordered_map<int64_t, const Instruction*> alive;
    std::vector<int64_t> order_ids;
    if (Module* m = comp->parent())  // instructions built by hand may have none
      for (Instruction* i : order)
        if (i->id() < 0) i->set_id(m->NewId());
    for (const auto& i : comp->instructions()) alive[i->id()] = i.get();
    for (Instruction* i : order) order_ids.push_back(i->id());
    for (size_t at = 0; at < order.size(); ++at) {
      Instruction* consumer = order[at];
      auto live = alive.find(order_ids[at]);
      if (live == alive.end() || live->second != consumer) continue;
      if (!ConsumerFusible(*consumer).empty()) continue;
      bool again = true;
      while (again) {
        again = false;
        for (int k = 0; k < consumer->operand_count(); ++k) {
          Instruction* producer = consumer->operand(k);
          if (producer->parent() != comp) continue;
          Opcode pop = producer->opcode();
          // Not candidates at all: inputs and bookkeeping.
          if (pop == Opcode::kParameter || pop == Opcode::kGetTupleElement || pop == Opcode::kTuple) continue;
          std::vector<const Instruction*> consumers = {consumer};
          bool other_users = producer->IsRoot();
          for (const Instruction* u : producer->users())
            if (u != consumer) other_users = true;
          Cost before = CostUnfused(*producer, consumers, device_);
          Cost after = CostFused(*producer, consumers, device_);
          Refusal r = PairFusible(*producer, *consumer, other_users, {.epilogue = true});
          // What-if: a forced pair skips the heuristics below (not the rules
          // of PairFusible: those refuse it, with the reason).
          const FusionOverridePair* forced = Forced(*producer, *consumer);
          if (const FusionOverridePair* f = Forbidden(*producer, *consumer)) r = ForbiddenReason(*f);
          else if (forced && !r.empty()) r = std::string(kRefusedReason) + " (--force " + forced->ToString() + "): " + r;
          // XLA (IsProducerConsumerFusible): a scalar constant joins only a
          // consumer that is already a fusion; alone it would make a kernel
          // of one op. (Priority fusion fuses constants in any case.)
          if (r.empty() && !forced && pop == Opcode::kConstant && consumer->opcode() != Opcode::kFusion)
            r = "a constant is fused only into a consumer that is already a fusion (XLA: not fusing constant)";
          if (r.empty() && !forced && other_users && !may_duplicate_)
            r = "the producer has other users; this round does not duplicate work (a later round may)";
          if (r.empty() && !forced && other_users && after.bytes() > before.bytes())
            r = "copying the producer into this consumer would move more bytes (" + std::to_string(after.bytes()) +
                ") than keeping it separate (" + std::to_string(before.bytes()) + ")";
          if (!r.empty()) {
            Decide(*producer, consumers, FusionVerdict::kNotFused, r, before, before);
            continue;
          }
          std::string pop_name(OpcodeName(pop));
          bool producer_was_fusion = pop == Opcode::kFusion;
          bool epilogue = IsReductionProducer(*producer);
          std::string reason =
              epilogue ? "reduction epilogue: the consumer is computed on the reduced values in the reduction's kernel"
              : other_users ? "the producer " + pop_name + " is cheap; a copy goes into this consumer and it stays for "
                                                         "its other users"
                          : (producer_was_fusion ? "the producer fusion's only consumer takes it over"
                                                 : "the producer " + pop_name +
                                                       " has this single consumer; fusing saves writing and re-reading "
                                                       "its result");
          if (forced) reason = std::string(kForcedReason) + " (--force " + forced->ToString() + "): " + reason;
          // Record before the producer may disappear; costs after are filled in below.
          size_t record = Decide(*producer, consumers,
                                 other_users ? FusionVerdict::kFusedWithDuplication : FusionVerdict::kFused,
                                 reason, before, after);
          if (consumer->opcode() != Opcode::kFusion) {
            FusionKind kind = consumer->opcode() == Opcode::kReduce || consumer->opcode() == Opcode::kScatter
                                  ? FusionKind::kInput
                                  : FusionKind::kLoop;
            alive.erase(consumer->id());
            consumer = WrapInFusion(consumer, kind);
            alive[consumer->id()] = consumer;
          }
          const int64_t producer_id = producer->id();
          FuseProducerInto(consumer, producer);
          // A reduction taking its consumer as an epilogue stays a reduction kernel.
          if (epilogue) consumer->set_fusion_kind(FusionKind::kInput);
          if (!other_users) alive.erase(producer_id);  // removed with its only use
          Cost now = KernelCost(*consumer, device_);
          if (other_users) now += KernelCost(*producer, device_);
          FusionDecision& d = mutable_log().decisions[record];
          d.result = consumer->name();
          SetDecisionCostAfter(d, now, device_);
          changed = true;
          again = true;
          break;
        }
      }
    }
    if (changed) comp->SortTopologically();
    return changed;
  }

  bool may_duplicate_;
};

}  // namespace

std::unique_ptr<Pass> MakeInstructionFusionPass(bool may_duplicate) {
  return std::make_unique<InstructionFusion>(may_duplicate);
}

}  // namespace hloscope
