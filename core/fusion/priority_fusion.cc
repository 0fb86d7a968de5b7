// `priority_fusion`: XLA's current GPU fusion. Producers wait in a priority
// queue ordered by the time the cost model says fusing them into all their
// consumers saves; the best one is fused into every consumer at once, and
// the priorities of its neighbours are recomputed. Producers whose fusion
// would not save time (or is not allowed) stay as they are, with a reason.
// At the end, as in XLA, small constants (one element) are fused into every
// fusion that reads them: the queue fuses a broadcast of a scalar constant
// but leaves the scalar outside (fusing it saves no estimated time), so
// without this step a kernel would take each scalar as an operand.
#include <algorithm>
#include <cmath>
#include <memory>
#include <queue>
#include <unordered_set>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/triton_fusibility.h"

namespace hloscope {
namespace {

// Producers with more consumers than this stay: XLA has no such cap, but the
// cost of evaluating a producer grows with every consumer, and it is
// evaluated again whenever one of them changes. 64 keeps `gpu` on Llama 3.1
// 8B under 2 s (docs/fusion.md) and takes the train step's residual stream
// (39 consumers).
constexpr size_t kMaxConsumers = 64;
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
    if (!overrides_->force.empty()) RecordMissingForced(m);
    return changed;
  }

 private:
  std::unique_ptr<KernelCostCache> cost_cache_;

  // Today's XLA GPU rules (fusibility.h), with or without a reduction epilogue.
  static PairRules Rules(bool epilogue) {
    return {.epilogue = epilogue, .elemental_reductions = true, .cost_model_duplication = true,
            .ir_size_limit = true, .epilogue_single_user = false};
  }

  struct Eval {
    Refusal refusal;
    double saved_us = 0;
    Cost before, after;
  };

  // XLA fuses a producer into all its users except bitcasts
  // (CanFuseWithAllNonBitcastUsers): a bitcast keeps reading the producer's
  // buffer, which stays. A Triton GEMM fusion that XLA makes read the
  // producer through a bitcast (its reshapes hoisted onto its parameters)
  // counts as one.
  static std::vector<Instruction*> NonBitcastUsers(const Instruction& p) {
    std::vector<Instruction*> out;
    for (Instruction* u : p.users())
      if (u->opcode() != Opcode::kBitcast && !ReadsThroughBitcast(p, *u)) out.push_back(u);
    return out;
  }
  static bool ReadsThroughBitcast(const Instruction& p, const Instruction& u) {
    if (!IsTritonGemmFusion(u)) return false;
    bool any = false;
    for (int64_t k = 0; k < u.operand_count(); ++k) {
      if (u.operand(static_cast<int>(k)) != &p) continue;
      if (!GemmReadsThroughHoistedBitcast(u, k)) return false;
      any = true;
    }
    return any;
  }

  // A broadcast of one value (a learning rate, a clipping factor read by
  // every optimizer kernel) reads nothing worth sharing: fusing it into all
  // its consumers always pays, and it is fused early (a whole kernel and its
  // output saved), so it is evaluated few times. It is exempt from the cap:
  // left alone, it is a shared input that makes otherwise unrelated
  // consumers siblings for multi-output fusion, which XLA never sees.
  static bool ScalarBroadcast(const Instruction& p) {
    return p.opcode() == Opcode::kBroadcast && p.operand_count() == 1 && p.operand(0)->shape().IsArray() &&
           p.operand(0)->shape().num_elements() <= 1;
  }

  // PairFusible for the queue, remembered for the pair in the states both
  // are in (KernelCostCache::StateOf) with the rules asked: it depends on
  // nothing else, and a producer is evaluated again with the same consumers
  // whenever a neighbour changes.
  Refusal Fusible(const Instruction& p, const Instruction& c, bool dup, bool epilogue) {
    return cost_cache_->FusibleOf(p, c, (dup ? 1 : 0) | (epilogue ? 2 : 0),
                                  [&] { return PairFusible(p, c, dup, Rules(epilogue)); });
  }

  Eval Evaluate(const Instruction& p, const Computation* comp) {
    Eval e;
    std::vector<Instruction*> nb = NonBitcastUsers(p);
    std::vector<const Instruction*> users(nb.begin(), nb.end());
    if (users.empty() || p.IsRoot()) {
      e.refusal = p.users().empty() ? "the producer has no users"
                  : p.IsRoot()      ? "the producer is the computation's result"
                                    : "the producer's only users read its buffer as it is through bitcasts (bitcasts, "
                                      "or GEMM fusions that XLA computes in the dot's shape)";
      e.before = e.after = KernelCost(p, device_);
      return e;
    }
    for (const Instruction* u : users)
      if (const FusionOverridePair* f = Forbidden(p, *u)) {
        e.refusal = ForbiddenReason(*f) + " (consumer " + u->name() + ")";
        return e;
      }
    if (users.size() > kMaxConsumers && !ScalarBroadcast(p)) {
      e.refusal = "the producer has " + std::to_string(users.size()) + " consumers; fusing into more than " +
                  std::to_string(kMaxConsumers) + " at once is not considered";
      return e;
    }
    bool dup = users.size() < p.users().size() || users.size() > 1;
    e.before = CostUnfused(p, users, device_, cost_cache_.get());
    // Once per producer, not per consumer: it walks a fusion's members.
    const bool real_reduction_epilogue = !IsElementalReduceProducer(p);
    for (const Instruction* u : users) {
      if (u->parent() != comp) {
        e.refusal = "a consumer is in another computation";
        return e;
      }
      const Refusal r = Fusible(p, *u, dup, real_reduction_epilogue);
      if (!r.empty()) {
        e.refusal = r + " (consumer " + u->name() + ")";
        return e;
      }
    }
    e.after = CostFused(p, users, device_, cost_cache_.get());
    e.saved_us = e.before.time_us - e.after.time_us;
    // XLA's estimate (EstimateRunTimesForPriorityFusion) does not charge the
    // producer's own kernel when bitcast users keep it: it counts one launch
    // and the producer's run saved, as if it went away.
    // But it counts each bitcast user as a consumer the producer is fused
    // into: a kernel that recomputes the producer (no launch saved, as the
    // bitcast launches none).
    if (users.size() < p.users().size()) {
      const Cost own = cost_cache_ ? cost_cache_->CostOf(p) : KernelCost(p, device_);
      e.saved_us += own.time_us;
      e.saved_us -= static_cast<double>(p.users().size() - users.size()) * (own.time_us - own.launch_us);
    }
    if (p.opcode() == Opcode::kBitcast) e.saved_us = std::max(e.saved_us, kBitcastPriority);
    if (e.saved_us <= 0)
      e.refusal = "fusing into its " + std::to_string(users.size()) + " consumer(s) would not save time (" +
                  std::to_string(e.before.time_us) + " us unfused vs " + std::to_string(e.after.time_us) + " us fused)";
    return e;
  }

  bool RunOn(Computation* comp) {
    // Consumers are evaluated again for every producer that reads them and
    // whenever a neighbour changes; their own numbers are remembered.
    cost_cache_ = std::make_unique<KernelCostCache>(device_);
    // Saved time, then id: among equal savings the newer instruction first, as
    // XLA's queue (keyed by priority and unique id) dequeues the largest key.
    using Entry = std::tuple<double, int64_t, Instruction*, int>;  // saved, id, instr, version
    std::priority_queue<Entry> queue;
    // By instruction id (ids are never reused, addresses are): the version of
    // the newest queue entry (0 = none) and the evaluation made for it, kept
    // in slots given out as producers are first pushed (ids run far past the
    // instruction count: every fusion renumbers what it takes in, and Llama
    // 3.1 8B's 31k instructions end at id 185k; one evaluation per id
    // allocated and moved 80 MB).
    std::vector<int32_t> slot_of;  // by id; -1 = none yet
    std::vector<int> version;      // by slot
    std::vector<Eval> last_eval;   // by slot
    auto find_slot = [&](int64_t id) -> int32_t {
      if (id < 0 || static_cast<size_t>(id) >= slot_of.size()) return -1;
      return slot_of[static_cast<size_t>(id)];
    };
    auto slot = [&](const Instruction* i) -> size_t {
      const size_t id = static_cast<size_t>(i->id());
      if (id >= slot_of.size()) slot_of.resize(std::max(id + 1, slot_of.size() * 2), -1);
      if (slot_of[id] < 0) {
        slot_of[id] = static_cast<int32_t>(version.size());
        version.push_back(0);
        last_eval.emplace_back();
      }
      return static_cast<size_t>(slot_of[id]);
    };
    auto forget = [&](int64_t id) {  // by id: the instruction may be gone
      const int32_t s = find_slot(id);
      if (s < 0) return;
      version[static_cast<size_t>(s)] = 0;
      last_eval[static_cast<size_t>(s)] = Eval();
    };
    auto push = [&](Instruction* p) {
      if (p->parent() != comp || p->id() < 0) return;
      Opcode op = p->opcode();
      if (op == Opcode::kParameter || op == Opcode::kTuple || op == Opcode::kGetTupleElement) return;
      if (IsSmallConstant(*p)) return;  // XLA leaves them to the end (FuseSmallConstants)
      const size_t at = slot(p);
      int v = ++version[at];
      last_eval[at] = Evaluate(*p, comp);
      const Eval& e = last_eval[at];
      // XLA keys its queue by the saving as an absl::Duration, whose unit
      // is a quarter nanosecond: savings within one tie, and the newer goes
      // first. (Older XLA keyed it by whole nanoseconds.)
      if (e.refusal.empty()) queue.push({std::floor(e.saved_us * 4000), p->id(), p, v});
    };
    // Instructions built without an id (by hand, outside the parser) get one:
    // the queue knows producers by id.
    if (Module* m = comp->parent())
      for (const auto& i : comp->instructions())
        if (i->id() < 0) i->set_id(m->NewId());
    bool changed = !overrides_->force.empty() && FuseForced(comp);
    for (const auto& i : comp->instructions()) push(i.get());
    while (!queue.empty()) {
      auto [saved, qid, p, v] = queue.top();
      queue.pop();
      const int32_t at = find_slot(qid);
      if (at < 0 || version[static_cast<size_t>(at)] != v) continue;  // stale or removed
      // The evaluation made when this entry was pushed still holds: what it
      // depends on (the producer, its users and their fused computations) is
      // only changed by a fusion, which pushes the producer again with a new
      // version.
      const Eval e = last_eval[static_cast<size_t>(at)];
      std::vector<Instruction*> users = NonBitcastUsers(*p);
      std::vector<const Instruction*> cusers(users.begin(), users.end());
      bool stays = users.size() < p->users().size();  // for its bitcast users
      // A reduction taking its consumer as an epilogue: the result is still
      // a reduction kernel (the reduce stays the hero).
      bool epilogue = IsReductionProducer(*p) && !IsElementalReduceProducer(*p);
      // A Triton normalization fusion stays one: what it joins becomes part
      // of a Triton kernel.
      const bool triton_producer = IsTritonFusion(*p);
      size_t record = Decide(
          *p, cusers,
          users.size() > 1 || stays ? FusionVerdict::kFusedWithDuplication : FusionVerdict::kFused,
          (p->opcode() == Opcode::kBitcast ? std::string("a bitcast is free and is fused first (")
           : epilogue
               ? "reduction epilogue: the consumer is computed on the reduced values in the reduction's "
                 "kernel, saving an estimated " +
                     std::to_string(e.saved_us) + " us ("
               : "fusing saves an estimated " + std::to_string(e.saved_us) + " us (") +
              std::to_string(e.before.bytes()) + " → " + std::to_string(e.after.bytes()) + " bytes" +
              (users.size() > 1 ? ", computed in each of its " + std::to_string(users.size()) + " consumers"
                                : "") +
              (stays ? std::string(", and kept for its bitcast users, whose kernel XLA's estimate does not "
                                   "charge; each counts as a recomputation")
                     : std::string()) +
              ")",
          e.before, e.after);
      std::vector<Instruction*> neighbours;
      std::string results;

      for (Instruction* u : users) {
        Instruction* f = u;
        if (u->opcode() != Opcode::kFusion) {
          forget(u->id());
          const bool input = (u->opcode() == Opcode::kReduce && !ReductionPrefersElemental(*u)) ||
                             u->opcode() == Opcode::kScatter;
          f = WrapInFusion(u, input ? FusionKind::kInput : FusionKind::kLoop);
        }
        FuseProducerInto(f, p);
        if (triton_producer && !IsTritonFusion(*f)) MarkAsTritonFusion(*f, kTritonKind);
        else if (epilogue && !IsTritonFusion(*f)) f->set_fusion_kind(FusionKind::kInput);
        results += (results.empty() ? "" : ", ") + f->name();
        neighbours.push_back(f);
      }
      forget(qid);  // `p` was removed with its last user
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
    // One "not fused" record per producer that stayed, with its last reason
    // (before the small constants are fused in, which wraps unfused users
    // into fusions of their own).
    for (const auto& i : comp->instructions()) {
      const int32_t at = find_slot(i->id());
      if (at < 0 || version[static_cast<size_t>(at)] == 0) continue;
      const Eval& last = last_eval[static_cast<size_t>(at)];
      if (last.refusal.empty() || i->users().empty()) continue;
      std::vector<const Instruction*> users;
      users.reserve(i->users().size());
      for (const Instruction* u : i->users()) users.push_back(u);
      // A refusal on cost keeps what fusing would have cost (the numbers
      // decisions-diff sets beside XLA's us_fused); others have no fused cost.
      const bool costed = last.after.time_us > 0;
      Decide(*i, users, FusionVerdict::kNotFused, last.refusal, last.before, costed ? last.after : last.before);
    }
    changed |= FuseSmallConstants(comp);
    if (changed) comp->SortTopologically();
    return changed;
  }

  // What-if (fusion_overrides.h): each forced pair of this computation is
  // fused before the queue runs, when it is legal, whatever the cost says;
  // otherwise refused with the reason. The producer stays for its other
  // users. True if anything was fused.
  bool FuseForced(Computation* comp) {
    bool changed = false;
    for (const FusionOverridePair& f : overrides_->force) {
      std::vector<Instruction*> ps, cs;
      for (const auto& i : comp->instructions()) {
        if (i->opcode() == Opcode::kParameter) continue;
        if (Holds(*i, f.producer)) ps.push_back(i.get());
        if (Holds(*i, f.consumer)) cs.push_back(i.get());
      }
      if (ps.empty() || cs.empty()) continue;  // another computation's, or gone (RecordMissingForced)
      bool together = false;
      for (Instruction* p : ps) together |= std::find(cs.begin(), cs.end(), p) != cs.end();
      if (together) continue;  // already one kernel
      Instruction* c = cs.front();
      Instruction* p = ps.front();
      for (Instruction* x : ps)
        if (std::find(c->operands().begin(), c->operands().end(), x) != c->operands().end()) p = x;
      const std::string head = std::string(kRefusedReason) + " (--force " + f.ToString() + "): ";
      std::vector<const Instruction*> cons = {c};
      const Cost before = CostUnfused(*p, cons, device_);
      const bool reads = std::find(c->operands().begin(), c->operands().end(), p) != c->operands().end();
      if (!reads) {
        Refusal r;
        if (const Instruction* via = PathVia(p, c))
          r = c->name() + " does not read " + p->name() + " directly but through " + via->name() +
              ", which would stay outside the kernel: one kernel holding both would feed " + via->name() +
              " and read it back (would create a cycle)";
        else if (const Instruction* back = PathVia(c, p))
          r = c->name() + " is computed before " + p->name() + " and feeds it through " + back->name() +
              " (would create a cycle)";
        else
          r = c->name() + " does not depend on " + p->name() + " (no data path between them; independent kernels "
              "are merged only as siblings, by multi_output_fusion)";
        Decide(*p, cons, FusionVerdict::kNotFused, head + r, before, before);
        continue;
      }
      bool dup = p->IsRoot();
      for (const Instruction* u : p->users()) dup |= u != c;
      Refusal r = PairFusible(*p, *c, dup, Rules(!IsElementalReduceProducer(*p)));
      if (!r.empty()) {
        Decide(*p, cons, FusionVerdict::kNotFused, head + r, before, before);
        continue;
      }
      const Cost after = CostFused(*p, cons, device_);
      const bool epilogue = IsReductionProducer(*p) && !IsElementalReduceProducer(*p);
      const bool triton_producer = IsTritonFusion(*p);
      size_t record = Decide(*p, cons, dup ? FusionVerdict::kFusedWithDuplication : FusionVerdict::kFused,
                             std::string(kForcedReason) + " (--force " + f.ToString() + "): estimated " +
                                 std::to_string(before.time_us) + " us unfused vs " + std::to_string(after.time_us) +
                                 " us fused (" + std::to_string(before.bytes()) + " → " +
                                 std::to_string(after.bytes()) + " bytes)" +
                                 (dup ? std::string(", and kept for its other users") : std::string()),
                             before, after);
      Instruction* k = c;
      if (c->opcode() != Opcode::kFusion) {
        const bool input = (c->opcode() == Opcode::kReduce && !ReductionPrefersElemental(*c)) ||
                           c->opcode() == Opcode::kScatter;
        k = WrapInFusion(c, input ? FusionKind::kInput : FusionKind::kLoop);
      }
      FuseProducerInto(k, p);
      if (triton_producer && !IsTritonFusion(*k)) MarkAsTritonFusion(*k, kTritonKind);
      else if (epilogue && !IsTritonFusion(*k)) k->set_fusion_kind(FusionKind::kInput);
      mutable_log().decisions[record].result = k->name();
      changed = true;
    }
    return changed;
  }

  // The user of `from` through which `to` depends on `from` other than as
  // its direct operand; nullptr when none does (a walk over users).
  static const Instruction* PathVia(const Instruction* from, const Instruction* to) {
    std::unordered_set<const Instruction*> seen;  // reached without meeting `to`
    for (const Instruction* first : from->users()) {
      if (first == to || !seen.insert(first).second) continue;
      std::vector<const Instruction*> work = {first};
      while (!work.empty()) {
        const Instruction* x = work.back();
        work.pop_back();
        if (x == to) return first;
        for (const Instruction* u : x->users())
          if (seen.insert(u).second) work.push_back(u);
      }
    }
    return nullptr;
  }

  static bool IsSmallConstant(const Instruction& i) {
    return i.opcode() == Opcode::kConstant && i.shape().IsArray() && i.shape().num_elements() <= 1 && i.literal();
  }

  // XLA's PriorityFusion ends by fusing every constant of at most one
  // element (IsSmallConstant) into its users: loop, input and Triton
  // fusions, and fusible instructions still unfused, which become fusions
  // of their own (a reduction an input fusion). Each constant gets one
  // decision record naming those kernels.
  bool FuseSmallConstants(Computation* comp) {
    std::vector<Instruction*> constants;
    for (const auto& i : comp->instructions())
      if (IsSmallConstant(*i)) constants.push_back(i.get());
    bool changed = false;
    for (Instruction* c : constants) {
      std::vector<Instruction*> fusions;
      std::unordered_set<Instruction*> seen;
      size_t distinct_users = 0;
      for (Instruction* u : c->users()) {
        if (!seen.insert(u).second) continue;
        ++distinct_users;
        if (u->parent() != comp) continue;
        if (u->opcode() == Opcode::kFusion) {
          if (u->fusion_kind() != FusionKind::kLoop && u->fusion_kind() != FusionKind::kInput && !IsTritonFusion(*u))
            continue;
        } else if (!LaunchesKernel(*u) || !ConsumerFusible(*u).empty()) {
          continue;
        }
        fusions.push_back(u);
      }
      const bool dup = fusions.size() > 1 || fusions.size() < distinct_users;
      std::vector<Instruction*> fusible;
      for (Instruction* f : fusions)
        if (PairFusible(*c, *f, dup, Rules(/*epilogue=*/false)).empty() && !Forbidden(*c, *f))
          fusible.push_back(f);
      if (fusible.empty()) continue;
      std::vector<const Instruction*> consumers(fusible.begin(), fusible.end());
      // The cache still holds: a kernel that took a constant has moved its
      // counts.
      const Cost before = CostUnfused(*c, consumers, device_, cost_cache_.get());
      const Cost after = CostFused(*c, consumers, device_, cost_cache_.get());
      const bool stays = fusible.size() < distinct_users;
      size_t record = Decide(*c, consumers,
                             fusible.size() > 1 || stays ? FusionVerdict::kFusedWithDuplication : FusionVerdict::kFused,
                             "a constant of one element is fused into every fusion that reads it, as XLA's priority "
                             "fusion does at its end: the kernel holds the value instead of taking it as an operand" +
                                 std::string(stays ? " (kept for its other users)" : ""),
                             before, after);
      std::string results;
      for (Instruction* f : fusible) {
        if (f->opcode() != Opcode::kFusion) {
          const bool input = (f->opcode() == Opcode::kReduce && !ReductionPrefersElemental(*f)) ||
                             f->opcode() == Opcode::kScatter;
          f = WrapInFusion(f, input ? FusionKind::kInput : FusionKind::kLoop);
        }
        results += (results.empty() ? "" : ", ") + f->name();
        FuseProducerInto(f, c);  // `c` is removed with its last user
      }
      mutable_log().decisions[record].result = results;
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakePriorityFusionPass() { return std::make_unique<PriorityFusion>(); }

}  // namespace hloscope
