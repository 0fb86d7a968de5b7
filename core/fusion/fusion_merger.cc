// `fusion_merger`: merges a loop fusion into all of its consumer fusions when
// the cost model says that moves fewer bytes and does not make the program
// slower (XLA's FusionMerger).
#include <algorithm>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"

namespace hloscope {
namespace {

class FusionMerger : public FusionPassBase {
 public:
  std::string_view name() const override { return "fusion_merger"; }
  std::string_view description() const override {
    return "Fusion merger: folds a loop fusion into all the fusions that consume it when that cuts memory traffic "
           "without slowing them down.";
  }
  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      std::vector<Instruction*> order = comp->MakePostOrder();
      std::vector<Instruction*> producers;
      for (Instruction* i : order)
        if (i->opcode() == Opcode::kFusion && i->fusion_kind() == FusionKind::kLoop) producers.push_back(i);
      for (Instruction* p : producers) {
        std::vector<Instruction*> users(p->users().begin(), p->users().end());
        std::vector<const Instruction*> cusers(users.begin(), users.end());
        if (users.empty() || p->IsRoot()) continue;
        Cost before = CostUnfused(*p, cusers, device_);
        Cost after = CostFused(*p, cusers, device_);
        Refusal r;
        for (const Instruction* u : users) {
          if (u->opcode() != Opcode::kFusion) {
            r = "consumer " + u->name() + " is not a fusion";
            break;
          }
          r = PairFusible(*p, *u, /*duplicate=*/false);
          if (!r.empty()) break;
        }
        if (r.empty() && after.bytes() > before.bytes())
          r = "merging would increase memory traffic (" + std::to_string(before.bytes()) + " → " +
              std::to_string(after.bytes()) + " bytes)";
        if (r.empty() && after.time_us > before.time_us * 1.0001)
          r = "merging would slow the consumers down (" + std::to_string(before.time_us) + " → " +
              std::to_string(after.time_us) + " us)";
        if (!r.empty()) {
          Decide(*p, cusers, FusionVerdict::kNotFused, r, before, before);
          continue;
        }
        Decide(*p, cusers, FusionVerdict::kMerged,
               "merged into " + std::to_string(users.size()) + " consumer fusion(s): " +
                   std::to_string(before.bytes()) + " → " + std::to_string(after.bytes()) + " bytes",
               before, after);
        size_t record = mutable_log().decisions.size() - 1;
        std::string results;
        for (Instruction* u : users) {
          FuseProducerInto(u, p);
          results += (results.empty() ? "" : ", ") + u->name();
        }
        mutable_log().decisions[record].result = results;
        changed = true;
      }
      if (changed) comp->SortTopologically();
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeFusionMergerPass() { return std::make_unique<FusionMerger>(); }

}  // namespace hloscope
