// `priority_fusion`: XLA's current GPU fusion. Producers wait in a priority
// queue ordered by the time the cost model says fusing them into all their
// consumers saves; the best one is fused into every consumer at once, and
// the priorities of its neighbours are recomputed. Producers whose fusion
// would not save time (or is not allowed) stay as they are, with a reason.
#include <algorithm>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"

namespace hloscope {
namespace {

// Producers with more consumers than this stay (the cost of evaluating and of
// recomputing grows with every consumer).
constexpr size_t kMaxConsumers = 32;
// Bitcasts are free: XLA fuses them before anything else (highest priority).
constexpr double kBitcastPriority = 1e9;

class PriorityFusion : public FusionPassBase {
 public:
  std::string_view name() const override { return "priority_fusion"; }
  std::string_view description() const override {
    return "Priority fusion (XLA's current GPU fusion): repeatedly fuses the producer whose fusion into all its "
           "consumers saves the most estimated time.";
  }

  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) changed |= RunOn(comp);
    return changed;
  }

 private:
  struct Eval {
    Refusal refusal;
    double saved_us = 0;
    Cost before, after;
  };

  // XLA fuses a producer into all its users except bitcasts
  // (CanFuseWithAllNonBitcastUsers): a bitcast keeps reading the producer's
  // buffer, which stays.
  static std::vector<Instruction*> NonBitcastUsers(const Instruction& p) {
    std::vector<Instruction*> out;
    for (Instruction* u : p.users())
      if (u->opcode() != Opcode::kBitcast) out.push_back(u);
    return out;
  }

  Eval Evaluate(const Instruction& p, const Computation* comp) {
    Eval e;
    std::vector<Instruction*> nb = NonBitcastUsers(p);
    std::vector<const Instruction*> users(nb.begin(), nb.end());
    if (users.empty() || p.IsRoot()) {
      e.refusal = p.users().empty() ? "the producer has no users"
                  : p.IsRoot()      ? "the producer is the computation's result"
                                    : "the producer's only users are bitcasts, which read its buffer as it is";
      return e;
    }
    if (users.size() > kMaxConsumers) {
      e.refusal = "the producer has " + std::to_string(users.size()) + " consumers; fusing into more than " +
                  std::to_string(kMaxConsumers) + " at once is not considered";
      return e;
    }
    bool dup = users.size() < p.users().size() || users.size() > 1;
    e.before = CostUnfused(p, users, device_);
    for (const Instruction* u : users) {
      if (u->parent() != comp) {
        e.refusal = "a consumer is in another computation";
        return e;
      }
      Refusal r = PairFusible(p, *u, dup, /*epilogue=*/true);
      if (!r.empty()) {
        e.refusal = r + " (consumer " + u->name() + ")";
        return e;
      }
    }
    e.after = CostFused(p, users, device_);
    e.saved_us = e.before.time_us - e.after.time_us;
    if (p.opcode() == Opcode::kBitcast) e.saved_us = std::max(e.saved_us, kBitcastPriority);
    if (e.saved_us <= 0)
      e.refusal = "fusing into its " + std::to_string(users.size()) + " consumer(s) would not save time (" +
                  std::to_string(e.before.time_us) + " us unfused vs " + std::to_string(e.after.time_us) + " us fused)";
    return e;
  }

  bool RunOn(Computation* comp) {
    using Entry = std::tuple<double, int64_t, Instruction*, int>;  // saved, -id, instr, version
    std::priority_queue<Entry> queue;
    std::unordered_map<const Instruction*, int> version;
    std::unordered_map<const Instruction*, Eval> last_eval;
    auto push = [&](Instruction* p) {
      if (p->parent() != comp) return;
      Opcode op = p->opcode();
      if (op == Opcode::kParameter || op == Opcode::kTuple || op == Opcode::kGetTupleElement) return;
      int v = ++version[p];
      Eval e = Evaluate(*p, comp);
      last_eval[p] = e;
      if (e.refusal.empty()) queue.push({e.saved_us, -p->id(), p, v});
    };
    for (const auto& i : comp->instructions()) push(i.get());
    bool changed = false;
    while (!queue.empty()) {
      auto [saved, negid, p, v] = queue.top();
      queue.pop();
      auto it = version.find(p);
      if (it == version.end() || it->second != v) continue;  // stale or removed
      Eval e = Evaluate(*p, comp);  // the graph may have changed around it
      if (!e.refusal.empty() || e.saved_us + 1e-12 < saved) {
        last_eval[p] = e;
        if (e.refusal.empty()) queue.push({e.saved_us, -p->id(), p, ++version[p]});
        continue;
      }
      std::vector<Instruction*> users = NonBitcastUsers(*p);
      std::vector<const Instruction*> cusers(users.begin(), users.end());
      bool stays = users.size() < p->users().size();  // for its bitcast users
      // A reduction taking its consumer as an epilogue: the result is still
      // a reduction kernel (the reduce stays the hero).
      bool epilogue = IsReductionProducer(*p);
      Decide(*p, cusers, users.size() > 1 || stays ? FusionVerdict::kFusedWithDuplication : FusionVerdict::kFused,
             (p->opcode() == Opcode::kBitcast ? std::string("a bitcast is free and is fused first (")
              : epilogue ? "reduction epilogue: the consumer is computed on the reduced values in the reduction's "
                           "kernel, saving an estimated " + std::to_string(e.saved_us) + " us ("
                         : "fusing saves an estimated " + std::to_string(e.saved_us) + " us (") +
                 std::to_string(e.before.bytes()) +
                 " → " + std::to_string(e.after.bytes()) + " bytes" +
                 (users.size() > 1 ? ", computed in each of its " + std::to_string(users.size()) + " consumers" : "") +
                 (stays ? std::string(", and kept for its bitcast users") : std::string()) +
                 ")",
             e.before, e.after);
      size_t record = mutable_log().decisions.size() - 1;
      std::vector<Instruction*> neighbours;
      std::string results;

      for (Instruction* u : users) {
        Instruction* f = u;
        if (u->opcode() != Opcode::kFusion) {
          version.erase(u);
          last_eval.erase(u);
          f = WrapInFusion(u, u->opcode() == Opcode::kReduce || u->opcode() == Opcode::kScatter ? FusionKind::kInput
                                                                                         : FusionKind::kLoop);
        }
        FuseProducerInto(f, p);
        if (epilogue) f->set_fusion_kind(FusionKind::kInput);
        results += (results.empty() ? "" : ", ") + f->name();
        neighbours.push_back(f);
      }
      version.erase(p);
      last_eval.erase(p);
      mutable_log().decisions[record].result = results;
      changed = true;
      // The new fusions are producers for their users, and their operands
      // now have a different consumer.
      // In a fixed order (not by address), so that ties between equal
      // savings break the same way in every run.
      std::vector<Instruction*> again;
      std::unordered_set<Instruction*> seen;
      for (Instruction* f : neighbours) {
        if (seen.insert(f).second) again.push_back(f);
        for (Instruction* o : f->operands())
          if (seen.insert(o).second) again.push_back(o);
      }
      for (Instruction* x : again) push(x);
    }
    // One "not fused" record per producer that stayed, with its last reason.
    for (const auto& i : comp->instructions()) {
      auto it = last_eval.find(i.get());
      if (it == last_eval.end() || it->second.refusal.empty()) continue;
      if (i->users().empty()) continue;
      std::vector<const Instruction*> users;
      users.reserve(i->users().size());
      for (const Instruction* u : i->users()) users.push_back(u);
      Decide(*i, users, FusionVerdict::kNotFused, it->second.refusal, it->second.before, it->second.before);
    }
    if (changed) comp->SortTopologically();
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakePriorityFusionPass() { return std::make_unique<PriorityFusion>(); }

}  // namespace hloscope
