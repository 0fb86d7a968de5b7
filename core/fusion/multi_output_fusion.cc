// `multi_output_fusion`: (1) producer-consumer — a producer whose result is
// also needed elsewhere is fused into its consumer fusion and becomes an
// extra output, so it is computed once and its inputs read once; (2)
// siblings — fusions that read the same operand with the same iteration
// space become one kernel with several outputs (XLA's MultiOutputFusion).
#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/reachability.h"

namespace hloscope {

// Dims of the iteration space of a kernel (a reduce fusion iterates over the
// reduce's input).
std::vector<int64_t> LoopShape(const Instruction& i) {
  const Instruction* root = &i;
  if (i.opcode() == Opcode::kFusion && i.fusion_kind() == FusionKind::kLoop) {
    // A loop fusion (even one ending in a reduce) iterates over its output.
    auto roots = FusionRoots(i);
    if (roots.empty()) return {};
    const Shape& s = roots[0]->shape().IsTuple() ? roots[0]->shape().tuple_shapes()[0] : roots[0]->shape();
    return s.dims();
  }
  if (i.opcode() == Opcode::kFusion) {
    auto roots = FusionRoots(i);
    if (roots.empty()) return {};
    root = roots[0];
    for (const Instruction* r : roots)
      if (r->opcode() == Opcode::kReduce) root = r;
  }
  if (root->opcode() == Opcode::kReduce) return root->operand(0)->shape().dims();
  const Shape& s = root->shape().IsTuple() ? root->shape().tuple_shapes()[0] : root->shape();
  return s.dims();
}

namespace {

// Output dims of the reduce a kernel is built around, or nullopt when it has
// none. Two reductions over the same input but different dimensions need
// different thread mappings (XLA compares the reduction heroes too).
std::optional<std::vector<int64_t>> ReduceOutputShape(const Instruction& i) {
  if (i.opcode() == Opcode::kReduce) return i.shape().dims();
  if (i.opcode() != Opcode::kFusion) return std::nullopt;
  for (const Instruction* r : FusionRoots(i))
    if (r->opcode() == Opcode::kReduce)
      return (r->shape().IsTuple() ? r->shape().tuple_shapes()[0] : r->shape()).dims();
  return std::nullopt;
}

bool SameIterationSpace(const Instruction& a, const Instruction& b) {
  if (LoopShape(a) != LoopShape(b)) return false;
  auto ra = ReduceOutputShape(a), rb = ReduceOutputShape(b);
  return !ra || !rb || *ra == *rb;
}

bool IsMultiOutputCandidate(const Instruction& i) {
  if (i.opcode() == Opcode::kFusion)
    return i.fusion_kind() == FusionKind::kLoop || i.fusion_kind() == FusionKind::kInput;
  if (i.shape().IsTuple() || i.HasSideEffect()) return false;
  return i.opcode() == Opcode::kReduce || (IsElementwise(i.opcode()) && i.operand_count() > 0);
}

// An unfused candidate becomes a one-instruction fusion before a merge.
Instruction* AsFusion(Instruction* i) {
  if (i->opcode() == Opcode::kFusion) return i;
  return WrapInFusion(i, i->opcode() == Opcode::kReduce ? FusionKind::kInput : FusionKind::kLoop);
}

// Both halves scan the computation in post order and merge the first pair
// that may be merged, then scan again (XLA's MultiOutputFusion also restarts
// after a change). At most this many merges per computation and half.
int RoundCap(const Computation& c, int cap) {
  int64_t n = std::max<int64_t>(1, c.instruction_count());
  return static_cast<int>(std::clamp<int64_t>(4'000'000 / n, 4, cap));
}

// Change stamps: an instruction's stamp moves whenever it, its operands or
// its users may have changed. A candidate whose ends kept their stamps gets
// the same verdict for the same reason as the last time it was looked at
// (except for reachability, which only ever grows and is asked again), so a
// rescan after a merge re-examines only what the merge touched.
class Stamps {
 public:
  uint64_t Of(const Instruction* i) const {
    size_t id = static_cast<size_t>(i->id());
    return id < v_.size() ? v_[id] : 0;
  }
  uint64_t clock() const { return clock_; }
  // The kernel a merge produced or changed, its operands, and its users
  // three levels down (get-tuple-elements, tuples of them, their readers).
  void TouchAround(const Instruction* k) {
    Touch(k);
    for (const Instruction* o : k->operands()) Touch(o);
    std::vector<const Instruction*> level = {k};
    for (int depth = 0; depth < 3 && !level.empty(); ++depth) {
      std::vector<const Instruction*> next;
      for (const Instruction* x : level)
        for (const Instruction* u : x->users()) {
          Touch(u);
          next.push_back(u);
        }
      level = std::move(next);
    }
  }

 private:
  void Touch(const Instruction* i) {
    if (i->id() < 0) return;
    size_t id = static_cast<size_t>(i->id());
    if (id >= v_.size()) v_.resize(std::max(id + 1, v_.size() * 2), 0);
    v_[id] = ++clock_;
  }
  std::vector<uint64_t> v_;
  uint64_t clock_ = 0;
};

struct KeyHash {
  size_t operator()(const std::tuple<int64_t, int64_t, int64_t>& k) const {
    uint64_t h = static_cast<uint64_t>(std::get<0>(k)) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<uint64_t>(std::get<1>(k)) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= static_cast<uint64_t>(std::get<2>(k)) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    return static_cast<size_t>(h);
  }
};
using Key = std::tuple<int64_t, int64_t, int64_t>;

// What was found out about a candidate the last time it was examined.
struct Seen {
  uint64_t stamp_a = 0, stamp_b = 0;
  Refusal pre;       // refusal that does not depend on reachability
  Cost before;
  int64_t blocker = -1;  // reachability / later refusal last logged (-1 none)
};

constexpr int64_t kTooManyOutputs = -2;

class MultiOutputFusion : public FusionPassBase {
 public:
  std::string_view name() const override { return "multi_output_fusion"; }
  std::string_view description() const override {
    return "Multi-output fusion: a kernel may write several results — a producer also needed elsewhere becomes an "
           "extra output of its consumer, and sibling kernels reading the same input are merged.";
  }
  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      Reachability reach(*comp);
      Stamps stamps;
      changed |= ProducerConsumer(comp, reach, stamps);
      changed |= Siblings(comp, reach, stamps);
    }
    return changed;
  }

 private:
  // The instructions in post order: computed for the first scan; after a
  // merge the builder has sorted the list topologically, so the list is it.
  static std::vector<Instruction*> Order(const Computation& comp, bool sorted) {
    if (!sorted) return comp.MakePostOrder();
    std::vector<Instruction*> out;
    out.reserve(comp.instructions().size());
    for (const auto& i : comp.instructions()) out.push_back(i.get());
    return out;
  }

  bool ProducerConsumer(Computation* comp, Reachability& reach, Stamps& stamps) {
    std::unordered_map<Key, Seen, KeyHash> seen;
    bool changed = false;
    bool again = true;
    int rounds = 0;
    while (again && rounds++ < RoundCap(*comp, 64)) {
      again = false;
      for (Instruction* c : Order(*comp, changed)) {
        if (!IsMultiOutputCandidate(*c)) continue;
        // Unfused consumers: only reductions take an extra output here.
        if (c->opcode() != Opcode::kFusion && c->opcode() != Opcode::kReduce) continue;
        for (Instruction* p : c->operands()) {
          if (p->parent() != comp || p->user_count() < 2) continue;
          bool loop_fusion = p->opcode() == Opcode::kFusion && p->fusion_kind() == FusionKind::kLoop;
          bool elementwise = p->opcode() != Opcode::kFusion && IsElementwise(p->opcode()) && p->operand_count() > 0 &&
                             !p->HasSideEffect();
          if (!(loop_fusion || elementwise) || p->shape().IsTuple()) continue;
          std::vector<const Instruction*> cons = {c};
          auto [it, fresh] = seen.try_emplace(Key{c->id(), p->id(), 0});
          Seen& s = it->second;
          if (fresh || s.stamp_a != stamps.Of(p) || s.stamp_b != stamps.Of(c)) {
            s = Seen{stamps.Of(p), stamps.Of(c), PairFusible(*p, *c, /*duplicate=*/false),
                     CostUnfused(*p, cons, device_), -1};
            if (s.pre.empty() && LoopShape(*p) != LoopShape(*c))
              s.pre = "the producer and the consumer iterate over different shapes";
            if (!s.pre.empty()) Decide(*p, cons, FusionVerdict::kNotFused, s.pre, s.before, s.before);
          }
          if (!s.pre.empty()) continue;  // logged when first found
          const Instruction* blocker = nullptr;
          for (const Instruction* u : p->users())
            if (u != c && reach.Reaches(u, c)) {
              blocker = u;
              break;
            }
          Refusal r;
          int64_t code = -1;
          if (blocker) {
            code = blocker->id();
            r = "another user of the producer (" + blocker->name() + ") feeds the consumer; an extra output would "
                "form a cycle";
          } else if (c->shape().leaf_count() + 1 + c->operand_count() > kMaxOperandsAndOutputsPerFusion) {
            code = kTooManyOutputs;
            r = "the fusion would have too many operands and outputs";
          }
          if (!r.empty()) {
            if (code != s.blocker) Decide(*p, cons, FusionVerdict::kNotFused, r, s.before, s.before);
            s.blocker = code;
            continue;
          }
          Decide(*p, cons, FusionVerdict::kFused,
                 "the producer is also needed elsewhere: it becomes an extra output of its consumer, computed once",
                 s.before, s.before);
          size_t record = mutable_log().decisions.size() - 1;
          c = AsFusion(c);
          FuseAsExtraOutput(c, AsFusion(p));
          reach.Update({c});
          stamps.TouchAround(c);
          Cost now = KernelCost(*c, device_);
          auto& d = mutable_log().decisions[record];
          d.result = c->name();
          d.bytes_after = now.bytes();
          d.us_after = now.time_us;
          changed = again = true;
          break;
        }
        if (again) break;
      }
    }
    return changed;
  }

  bool Siblings(Computation* comp, Reachability& reach, Stamps& stamps) {
    std::unordered_map<Key, Seen, KeyHash> seen;
    bool changed = false;
    bool again = true;
    int rounds = 0;
    std::vector<Instruction*> sibs;
    std::unordered_set<const Instruction*> in_sibs;
    // Per shared operand: when its readers were last all examined, and
    // whether every pair then was refused for a reason that cannot change
    // while nothing is touched (a shape mismatch, or a dependency — merges
    // only add paths). Such an operand is skipped until something is.
    struct Scan {
      uint64_t at = 0;
      bool settled = false;
    };
    std::unordered_map<int64_t, Scan> scans;  // by operand id
    while (again && rounds++ < RoundCap(*comp, 256)) {
      again = false;
      for (Instruction* x : Order(*comp, changed)) {
        // XLA (IsProfitableOperand): sharing a scalar saves no memory traffic.
        if (!x->shape().IsArray() || x->shape().num_elements() <= 1) continue;
        sibs.clear();
        in_sibs.clear();
        for (Instruction* u : x->users())
          if (IsMultiOutputCandidate(*u) && u->parent() == comp && in_sibs.insert(u).second) sibs.push_back(u);
        if (sibs.size() < 2) continue;
        auto sc = scans.find(x->id());
        if (sc != scans.end() && sc->second.settled && stamps.Of(x) <= sc->second.at &&
            std::all_of(sibs.begin(), sibs.end(), [&](const Instruction* u) { return stamps.Of(u) <= sc->second.at; }))
          continue;
        bool settled = true;
        for (size_t i = 0; i < sibs.size() && !again; ++i) {
          for (size_t j = i + 1; j < sibs.size() && !again; ++j) {
            Instruction* a = sibs[i];
            Instruction* b = sibs[j];
            std::vector<const Instruction*> pair = {b};
            auto [it, fresh] = seen.try_emplace(Key{x->id(), a->id(), b->id()});
            Seen& s = it->second;
            auto refuse = [&](const Refusal& r) {
              Decide(*a, pair, FusionVerdict::kNotFused, "sibling of " + b->name() + " (both read " + x->name() +
                                                             "): " + r, s.before, s.before);
            };
            if (fresh || s.stamp_a != stamps.Of(a) || s.stamp_b != stamps.Of(b)) {
              Cost before = KernelCost(*a, device_);
              before += KernelCost(*b, device_);
              s = Seen{stamps.Of(a), stamps.Of(b), "", before, -1};
              if (!SameIterationSpace(*a, *b))
                s.pre = "the siblings iterate over different shapes or reduce different dimensions";
              if (!s.pre.empty()) refuse(s.pre);
            }
            if (!s.pre.empty()) continue;
            Refusal r;
            int64_t code = -1;
            bool dependent = !reach.Independent(a, b);
            settled = settled && dependent;  // independent pairs are asked again next time
            if (dependent) {
              code = 1;
              r = "one sibling depends on the other";
            } else if (a->operand_count() + b->operand_count() + a->shape().leaf_count() + b->shape().leaf_count() >
                       kMaxOperandsAndOutputsPerFusion) {
              code = 2;
              r = "the merged fusion would have too many operands and outputs";
            } else if (FusedInstructionCount(*a) + FusedInstructionCount(*b) > kMaxFusedInstructions) {
              code = 3;
              r = "the merged fusion would be too large";
            }
            if (!r.empty()) {
              if (code != s.blocker) refuse(r);
              s.blocker = code;
              continue;
            }
            Decide(*a, pair, FusionVerdict::kMerged,
                   "siblings reading " + x->name() + " become one kernel: the shared input is read once and one "
                   "launch is saved", s.before, s.before);
            size_t record = mutable_log().decisions.size() - 1;
            Instruction* merged = MergeSiblingFusions(AsFusion(a), AsFusion(b));
            reach.Update({merged});
            stamps.TouchAround(merged);
            Cost now = KernelCost(*merged, device_);
            auto& d = mutable_log().decisions[record];
            d.result = merged->name();
            d.bytes_after = now.bytes();
            d.us_after = now.time_us;
            changed = again = true;
          }
        }
        if (again) break;
        scans[x->id()] = Scan{stamps.clock(), settled};
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeMultiOutputFusionPass() { return std::make_unique<MultiOutputFusion>(); }

}  // namespace hloscope
