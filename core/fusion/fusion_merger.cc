// `fusion_merger`: merges a loop fusion into all of its consumer fusions when
// the cost model says that moves fewer bytes and does not make the program
// slower (XLA's FusionMerger).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"

namespace hloscope {
namespace {

// XLA allows each fused instruction to be emitted at most this many times per
// output element (FusionNodeIndexingEvaluation::kAllowedCodeDuplication).
constexpr int64_t kAllowedCodeDuplication = 15;
constexpr int64_t kSaturate = int64_t{1} << 40;

// How many times each instruction of a fused computation is emitted per
// output element, as XLA's FusionNodeIndexingEvaluation estimates it: an
// operand reuses its user's index when the shapes agree (element type
// aside) or the user is a transpose, and so is emitted once per emission of
// its user's indexing users; otherwise the user computes a new index and
// the operand is emitted once per emission of that user. A set of indexing
// users counts each once. `root_users` seeds the root: by default it is its
// own single indexing user, emitted `root_count` times.
struct EmissionCounts {
  std::unordered_map<const Instruction*, std::unordered_set<const Instruction*>> users;
  std::unordered_map<const Instruction*, int64_t> count;

  int64_t Of(const Instruction* i) const {
    auto it = count.find(i);
    return it == count.end() ? 0 : it->second;
  }
  int64_t SumOver(const std::unordered_set<const Instruction*>& us) const {
    int64_t total = 0;
    for (const Instruction* u : us) total = std::min(kSaturate, total + Of(u));
    return total;
  }
};

void CountEmissions(const Computation& c, int64_t root_count, EmissionCounts& e) {
  std::vector<Instruction*> order = const_cast<Computation&>(c).MakePostOrder();
  const Instruction* root = c.root();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Instruction* i = *it;
    e.count[i] = i == root ? root_count : e.SumOver(e.users[i]);
    bool tuple = i->opcode() == Opcode::kTuple;
    for (const Instruction* o : i->operands()) {
      bool reuse = tuple || i->opcode() == Opcode::kTranspose ||
                   (o->shape().IsArray() && i->shape().IsArray() && o->shape().SameDims(i->shape()));
      if (reuse) {
        if (i == root) e.users[o].insert(i);
        else e.users[o].insert(e.users[i].begin(), e.users[i].end());
      } else {
        e.users[o].insert(i);
      }
    }
  }
}

// The most times any instruction of `producer` would be emitted per output
// element of `consumer` if the producer were merged into it (XLA:
// IsFusionEmitterInefficient). Broadcasts are exempt, as in XLA.
int64_t MaxEmissionsIfMerged(const Instruction& producer, const Instruction& consumer) {
  const Computation* fc = consumer.fused_computation();
  if (!fc) return 0;
  EmissionCounts in_consumer;
  CountEmissions(*fc, 1, in_consumer);
  int64_t emitted = 0;
  for (int k = 0; k < consumer.operand_count(); ++k)
    if (consumer.operand(k) == &producer && fc->parameter(k))
      emitted = std::min(kSaturate, emitted + in_consumer.SumOver(in_consumer.users[fc->parameter(k)]));
  if (producer.opcode() != Opcode::kFusion || !producer.fused_computation()) return emitted;
  EmissionCounts in_producer;
  CountEmissions(*producer.fused_computation(), emitted, in_producer);
  int64_t worst = 0;
  for (const auto& [i, n] : in_producer.count)
    if (i->opcode() != Opcode::kParameter && i->opcode() != Opcode::kBroadcast) worst = std::max(worst, n);
  return worst;
}

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
          if (const FusionOverridePair* f = Forbidden(*p, *u)) {
            r = ForbiddenReason(*f);
            break;
          }
          if (int64_t n = MaxEmissionsIfMerged(*p, *u); n > kAllowedCodeDuplication) {
            r = "the merged kernel would compute some producer instruction " +
                (n >= kSaturate ? std::string("over 10^12") : std::to_string(n)) + " times per element of " +
                u->name() + " (more than " + std::to_string(kAllowedCodeDuplication) +
                "; XLA: fusion emitter inefficient)";
            break;
          }
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
        size_t record = Decide(*p, cusers, FusionVerdict::kMerged,
                               "merged into " + std::to_string(users.size()) +
                                   " consumer fusion(s): " + std::to_string(before.bytes()) + " → " +
                                   std::to_string(after.bytes()) + " bytes",
                               before, after);
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
