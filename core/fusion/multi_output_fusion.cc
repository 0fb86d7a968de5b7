// `multi_output_fusion`: (1) siblings — fusions that read the same operand
// with the same iteration space become one kernel with several outputs; (2)
// producer-consumer — a producer whose result is also needed elsewhere is
// fused into its consumer fusion and becomes an extra output, so it is
// computed once and its inputs read once. One walk, as XLA GPU's
// MultiOutputFusion makes it (DoMultiOutputFusion).
#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_cost.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/reachability.h"
#include "core/passes/cost_arithmetic.h"

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
      if (const Instruction* hero = ReductionHero(r)) root = hero;  // through an epilogue
  }
  if (root->opcode() == Opcode::kReduce) return root->operand(0)->shape().dims();
  const Shape& s = root->shape().IsTuple() ? root->shape().tuple_shapes()[0] : root->shape();
  return s.dims();
}

namespace {

// XLA's FusionPriority for sibling merges: multi-output fusions, then
// fusions, then unfused ops.
int SiblingRank(const Instruction& i) {
  if (i.opcode() != Opcode::kFusion) return 0;
  return i.shape().IsTuple() ? 2 : 1;
}

// Output dims of the reduce a kernel is built around, or nullopt when it has
// none. Two reductions over the same input but different dimensions need
// different thread mappings (XLA compares the reduction heroes too).
// The reduced dimensions follow the output dims (after a -1): [2,8,8] → [2,8]
// over dimension 1 or over dimension 2 are different kernels (the reduction
// emitter's one rule: every reduce shares input shape and dimensions;
// Llama 70B's causal-mask counts were fused across them).
std::optional<std::vector<int64_t>> ReduceOutputShape(const Instruction& i) {
  auto key = [](const Instruction& hero) {
    std::vector<int64_t> k = (hero.shape().IsTuple() ? hero.shape().tuple_shapes()[0] : hero.shape()).dims();
    std::vector<int64_t> red = hero.dimensions();
    std::sort(red.begin(), red.end());
    k.push_back(-1);
    k.insert(k.end(), red.begin(), red.end());
    return k;
  };
  if (i.opcode() == Opcode::kReduce) return key(i);
  if (i.opcode() != Opcode::kFusion) return std::nullopt;
  for (const Instruction* r : FusionRoots(i))
    if (const Instruction* hero = ReductionHero(r)) return key(*hero);
  return std::nullopt;
}

bool IsMultiOutputCandidate(const Instruction& i) {
  if (i.opcode() == Opcode::kFusion) {
    // A scatter fusion writes through its indices: it stays alone (XLA: a
    // scatter is no multi-output fusion root).
    if (i.fused_computation() && i.fused_computation()->root()->opcode() == Opcode::kScatter) return false;
    return i.fusion_kind() == FusionKind::kLoop || i.fusion_kind() == FusionKind::kInput;
  }
  if (i.shape().IsTuple() || i.HasSideEffect()) return false;
  return i.opcode() == Opcode::kReduce || (IsElementwise(i.opcode()) && i.operand_count() > 0);
}

// An unfused candidate becomes a one-instruction fusion before a merge.
Instruction* AsFusion(Instruction* i) {
  if (i->opcode() == Opcode::kFusion) return i;
  return WrapInFusion(i, i->opcode() == Opcode::kReduce ? FusionKind::kInput : FusionKind::kLoop);
}

// Change stamps: an instruction's stamp moves whenever it, its operands or
// its users may have changed; a kernel's cost is remembered with the stamp
// it was computed at.
class Stamps {
 public:
  uint64_t Of(const Instruction* i) const {
    size_t id = static_cast<size_t>(i->id());
    return id < v_.size() ? v_[id] : 0;
  }
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

constexpr const char* kShapesDiffer = "the siblings iterate over different shapes or reduce different dimensions";
constexpr const char* kDisjointSlices =
    "each sibling reads only its own slice of the shared input and the slices do not overlap, so one kernel would "
    "read no byte less (XLA: parameter slices are non-overlapping)";

// The slices through which kernel `k` reads `x`: every read of `x` must be a
// slice (inside a fusion: every user of the parameter standing for `x`);
// nullopt when `k` reads `x` any other way.
std::optional<std::vector<const Instruction*>> SlicesOf(const Instruction& x, const Instruction& k) {
  std::vector<const Instruction*> out;
  if (k.opcode() == Opcode::kSlice) return std::vector<const Instruction*>{&k};
  if (k.opcode() != Opcode::kFusion || !k.fused_computation()) return std::nullopt;
  const Computation* fc = k.fused_computation();
  for (int i = 0; i < k.operand_count(); ++i) {
    if (k.operand(i) != &x) continue;
    const Instruction* p = fc->parameter(i);
    if (!p) return std::nullopt;
    for (const Instruction* u : p->users()) {
      if (u->opcode() != Opcode::kSlice) return std::nullopt;
      out.push_back(u);
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

bool SlicesOverlap(const Instruction& a, const Instruction& b) {
  const auto& sa = a.attrs().slice;
  const auto& sb = b.attrs().slice;
  if (sa.size() != sb.size()) return true;
  for (size_t d = 0; d < sa.size(); ++d) {
    if (sa[d].stride != 1 || sb[d].stride != 1) return true;  // strided reads interleave: assume overlap
    if (sa[d].limit <= sb[d].start || sb[d].limit <= sa[d].start) return false;
  }
  return true;
}

// XLA's ParameterSlicesAreNonOverlapping for siblings sharing `x` (which
// XLA asks only of a shared input of 1 kB or more).
bool ReadDisjointSlices(const Instruction& x, const Instruction& a, const Instruction& b) {
  auto la = SlicesOf(x, a), lb = SlicesOf(x, b);
  if (!la || !lb) return false;
  for (const Instruction* i : *la)
    for (const Instruction* j : *lb)
      if (SlicesOverlap(*i, *j)) return false;
  return true;
}

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
      Stamps stamps;
      costs_.clear();
      cost_slot_.clear();
      sorted_ = ListIsTopological(*comp);
      cost_cache_ = std::make_unique<KernelCostCache>(device_);
      Reachability reach(*comp);
      changed |= Walk(comp, reach, stamps);
    }
    return changed;
  }

 private:
  // A kernel's cost changes only when a merge touches it: cached by id with
  // the change stamp it was computed at.
  const Cost& CostOf(const Instruction& k, const Stamps& stamps) {
    if (k.id() < 0) return scratch_cost_ = KernelCost(k, device_);
    const size_t id = static_cast<size_t>(k.id());
    if (id >= cost_slot_.size()) cost_slot_.resize(std::max(id + 1, cost_slot_.size() * 2), -1);
    if (cost_slot_[id] < 0) {
      cost_slot_[id] = static_cast<int32_t>(costs_.size());
      costs_.emplace_back();
    }
    CachedCost& c = costs_[static_cast<size_t>(cost_slot_[id])];
    if (!c.valid || c.stamp != stamps.Of(&k) || c.of != &k) c = CachedCost{true, stamps.Of(&k), &k, KernelCost(k, device_)};
    return c.cost;
  }
  struct CachedCost {
    bool valid = false;
    uint64_t stamp = 0;
    const Instruction* of = nullptr;
    Cost cost;
  };
  // By id through cost_slot_ (-1: none; ids run far past the instruction
  // count, an entry per id was 50 MB on Llama 3.1 8B); cleared per
  // computation. A deque: a returned reference stays valid as it grows.
  std::vector<int32_t> cost_slot_;
  std::deque<CachedCost> costs_;
  std::unique_ptr<KernelCostCache> cost_cache_;  // for the extra-output estimates
  Cost scratch_cost_;
  bool sorted_ = false;  // the computation's list is topological
  // XLA's DoMultiOutputFusion: one walk over the instructions, uses before
  // definitions. At each, its users are first merged as siblings (they read
  // it), then it becomes an extra output of its preferred consumer. A merge
  // only removes instructions the walk has passed (users of the current one,
  // or the current one itself), so the order taken at the start stays valid.
  bool Walk(Computation* comp, Reachability& reach, Stamps& stamps) {
    std::vector<Instruction*> order = comp->MakePostOrder();
    bool changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      Instruction* x = *it;
      if (x->opcode() == Opcode::kConstant) continue;  // constants are priority fusion's business
      if (x->opcode() == Opcode::kFusion && x->fusion_kind() == FusionKind::kCustom) continue;
      changed |= WalkSiblings(comp, x, reach, stamps);
      changed |= WalkProducer(comp, x, reach, stamps);
    }
    return changed;
  }

  // XLA's IsSiblingFusionCandidate: a kernel that may be a multi-output root
  // and whose users, when it has several outputs, all take one of them.
  static bool SiblingCandidate(const Instruction& u, const Computation* comp) {
    if (u.parent() != comp || u.users().empty() || !IsMultiOutputCandidate(u)) return false;
    if (u.shape().IsTuple())
      for (const Instruction* g : u.users())
        if (g->opcode() != Opcode::kGetTupleElement) return false;
    return true;
  }

  static bool DusRoot(const Instruction& k) {
    if (k.opcode() != Opcode::kFusion || !k.fused_computation()) return false;
    for (const Instruction* r : FusionRoots(k))
      if (r->opcode() == Opcode::kDynamicUpdateSlice) return true;
    return false;
  }

  // XLA's FuseSiblings: the users of `x` that may be merged, multi-output
  // fusions first, then fusions, then unfused ops (in the order they came to
  // read `x`); each fusion in turn takes every later one it can.
  bool WalkSiblings(Computation* comp, Instruction* x, Reachability& reach, Stamps& stamps) {
    // XLA (IsProfitableOperand): sharing a scalar saves no memory traffic.
    if (!x->shape().IsArray() || x->shape().num_elements() <= 1) return false;
    std::vector<Instruction*> sibs;
    for (Instruction* u : x->users())
      if (SiblingCandidate(*u, comp) && std::find(sibs.begin(), sibs.end(), u) == sibs.end()) sibs.push_back(u);
    if (sibs.size() < 2) return false;
    std::sort(sibs.begin(), sibs.end(), [](const Instruction* a, const Instruction* b) { return a->id() < b->id(); });
    std::stable_sort(sibs.begin(), sibs.end(),
                     [](const Instruction* a, const Instruction* b) { return SiblingRank(*a) > SiblingRank(*b); });
    // Each sibling's iteration space, once (a merge keeps the first's).
    struct Space {
      std::vector<int64_t> loop;
      std::optional<std::vector<int64_t>> reduce;
      bool Compatible(const Space& o) const { return loop == o.loop && (!reduce || !o.reduce || *reduce == *o.reduce); }
    };
    std::vector<Space> space;
    space.reserve(sibs.size());
    for (const Instruction* u : sibs) space.push_back({LoopShape(*u), ReduceOutputShape(*u)});
    bool changed = false;
    for (size_t i = 0; i < sibs.size(); ++i) {
      if (sibs[i]->opcode() != Opcode::kFusion) continue;
      for (size_t j = i + 1; j < sibs.size();) {
        Instruction* a = sibs[i];
        Instruction* b = sibs[j];
        Cost before = CostOf(*a, stamps);
        before += CostOf(*b, stamps);
        std::string r;
        if (!reach.Independent(a, b)) r = "one sibling depends on the other";
        else if (!space[i].Compatible(space[j])) r = kShapesDiffer;
        else if (x->shape().byte_size() >= 1024 && ReadDisjointSlices(*x, *a, *b)) r = kDisjointSlices;
        else if (DusRoot(*a) || DusRoot(*b))
          r = "a dynamic-update-slice writes in place; XLA merges no sibling with one";
        else if (const FusionOverridePair* f = Forbidden(*a, *b)) r = ForbiddenReason(*f);
        else if (a->operand_count() + b->operand_count() + a->shape().leaf_count() + b->shape().leaf_count() >
                 kMaxOperandsAndOutputsPerFusion)
          r = "the merged fusion would have too many operands and outputs";
        else if (FusedInstructionCount(*a) + FusedInstructionCount(*b) > kMaxIrSize)
          r = "the merged fusion would be too large";
        else if (UnnestedReductionCount(*a) + UnnestedReductionCount(*b) > kMaxUnnestedReductionsPerFusion)
          r = "the merged fusion would hold more than 8 reductions (XLA: each needs many registers; a multi-output "
              "fusion of more would spill)";
        if (!r.empty()) {
          Decide(*a, {b}, FusionVerdict::kNotFused, "sibling of " + b->name() + " (both read " + x->name() + "): " + r,
                 before, before);
          ++j;
          continue;
        }
        size_t record = Decide(*a, {b}, FusionVerdict::kMerged,
                               "siblings reading " + x->name() +
                                   " become one kernel: the shared input is read once and one launch is saved",
                               before, before);
        Reachability::SiblingMerge ticket = reach.BeforeSiblingMerge(a, b);
        Instruction* merged = MergeSiblingFusions(AsFusion(a), AsFusion(b), sorted_);
        sorted_ = true;
        reach.AfterSiblingMerge(ticket, merged);
        stamps.TouchAround(merged);
        auto& d = mutable_log().decisions[record];
        d.result = merged->name();
        SetDecisionCostAfter(d, CostOf(*merged, stamps), device_);
        sibs[i] = merged;
        if (!space[i].reduce) space[i].reduce = space[j].reduce;
        sibs.erase(sibs.begin() + static_cast<std::ptrdiff_t>(j));
        space.erase(space.begin() + static_cast<std::ptrdiff_t>(j));
        changed = true;
      }
    }
    return changed;
  }

  // XLA's producer-consumer half: `p` becomes an extra output of the user
  // XLA prefers among those that may take it (SelectPreferredFusionCandidate).
  bool WalkProducer(Computation* comp, Instruction* p, Reachability& reach, Stamps& stamps) {
    if (p->parent() != comp || p->shape().IsTuple() || p->users().empty()) return false;
    bool loop_fusion = p->opcode() == Opcode::kFusion && p->fusion_kind() == FusionKind::kLoop;
    bool elementwise = p->opcode() != Opcode::kFusion && IsElementwise(p->opcode()) && p->operand_count() > 0 &&
                       !p->HasSideEffect();
    if (!(loop_fusion || elementwise) || DusRoot(*p)) return false;
    // One user that is no multi-output fusion: priority fusion already
    // weighed this pair (XLA: FusionMerger).
    if (p->user_count() == 1 && !(p->users()[0]->opcode() == Opcode::kFusion && p->users()[0]->shape().IsTuple()))
      return false;
    std::vector<Instruction*> users(p->users().begin(), p->users().end());
    std::sort(users.begin(), users.end(), [](const Instruction* a, const Instruction* b) { return a->id() < b->id(); });
    users.erase(std::unique(users.begin(), users.end()), users.end());
    Instruction* best = nullptr;
    Cost best_before;
    const std::vector<int64_t> p_loop = LoopShape(*p);
    for (Instruction* c : users) {
      if (!IsMultiOutputCandidate(*c) || c->parent() != comp) continue;
      if (c->opcode() != Opcode::kFusion && c->opcode() != Opcode::kReduce) continue;
      std::vector<const Instruction*> cons = {c};
      Cost before = CostOf(*p, stamps);
      before += CostOf(*c, stamps);
      // In XLA's order (ProducerCandidateIsFusible): shapes, cycles, budget
      // and size, then the time.
      Refusal r;
      if (LoopShape(*c) != p_loop) r = "the producer and the consumer iterate over different shapes";
      if (r.empty())
        for (const Instruction* o : c->operands())
          if (o != p && reach.Reaches(p, o)) {
            r = "another path from the producer (through " + o->name() + ") feeds the consumer; an extra output "
                "would form a cycle";
            break;
          }
      if (r.empty()) r = PairFusible(*p, *c, /*duplicate=*/false, {.elemental_reductions = true, .ir_size_limit = true});
      if (r.empty() && c->shape().leaf_count() + 1 + c->operand_count() > kMaxOperandsAndOutputsPerFusion)
        r = "the fusion would have too many operands and outputs";
      if (r.empty())
        if (const FusionOverridePair* f = Forbidden(*p, *c)) r = ForbiddenReason(*f);
      // XLA (EstimateRunTimesForMultiOutputFusion): one launch saved against
      // the producer's work moved into the consumer's launch, e.g. an update
      // over 4,096 elements moved into a full reduction's one thread block.
      if (r.empty()) {
        const Cost fused = CostExtraOutput(*p, *c, device_, cost_cache_.get());
        if (fused.time_us > before.time_us)
          r = "as an extra output it would run slower (" + FormatMicros(before.time_us) + " unfused, " +
              FormatMicros(fused.time_us) + " fused, in the consumer's " + std::to_string(fused.blocks) +
              " thread block(s))";
      }
      if (!r.empty()) {
        Decide(*p, cons, FusionVerdict::kNotFused, r, before, before);
        continue;
      }
      if (!best || CandidateRank(*c) > CandidateRank(*best)) {
        best = c;
        best_before = before;
      }
    }
    if (!best) return false;
    Instruction* c = best;
    const bool only_user = p->user_count() == 1 && !p->IsRoot();
    size_t record = Decide(*p, {c}, FusionVerdict::kFused,
                           only_user ? "its one user is a multi-output fusion, which takes it in (priority fusion "
                                       "weighed it before that kernel had several outputs)"
                                     : "the producer is also needed elsewhere: it becomes an extra output of its "
                                       "consumer, computed once",
                           best_before, best_before);
    Reachability::ExtraOutput ticket = reach.BeforeExtraOutput(p, c);
    c = AsFusion(c);
    FuseAsExtraOutput(c, AsFusion(p), sorted_);
    sorted_ = true;
    reach.AfterExtraOutput(ticket, c);
    stamps.TouchAround(c);
    auto& d = mutable_log().decisions[record];
    d.result = c->name();
    SetDecisionCostAfter(d, CostOf(*c, stamps), device_);
    return true;
  }

  static int CandidateRank(const Instruction& u) {
    if (u.opcode() == Opcode::kFusion) return u.shape().IsTuple() ? 2 : 1;
    return 0;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeMultiOutputFusionPass() { return std::make_unique<MultiOutputFusion>(); }

}  // namespace hloscope
