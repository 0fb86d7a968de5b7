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

bool SameIterationSpace(const Instruction& a, const Instruction& b) {
  if (LoopShape(a) != LoopShape(b)) return false;
  auto ra = ReduceOutputShape(a), rb = ReduceOutputShape(b);
  return !ra || !rb || *ra == *rb;
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
  // Clean: examined since anything around it last changed. A touch makes
  // the instruction, its operands and its users dirty (an instruction's
  // candidates involve its operands as producers / shared inputs and its
  // users as consumers / siblings).
  bool Clean(const Instruction* i) const {
    size_t id = static_cast<size_t>(i->id());
    return i->id() >= 0 && id < clean_.size() && clean_[id];
  }
  void SetClean(const Instruction* i) {
    if (i->id() < 0) return;
    size_t id = static_cast<size_t>(i->id());
    if (id >= clean_.size()) clean_.resize(std::max(id + 1, clean_.size() * 2), 0);
    clean_[id] = 1;
  }
  void AllDirty() { clean_.assign(clean_.size(), 0); }
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
    Dirty(i);
    for (const Instruction* o : i->operands()) Dirty(o);
    for (const Instruction* u : i->users()) Dirty(u);
  }
  void Dirty(const Instruction* i) {
    size_t id = static_cast<size_t>(i->id());
    if (i->id() >= 0 && id < clean_.size()) clean_[id] = 0;
  }
  std::vector<uint64_t> v_;
  std::vector<char> clean_;
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

// The same for a sibling pair, whose only refusal before reachability is
// the iteration space (no string kept per pair).
struct SiblingSeen {
  uint64_t stamp_a = 0, stamp_b = 0;
  const char* pre = nullptr;  // a refusal that depends on the pair alone
  Cost before;
  int64_t blocker = -1;
};

constexpr int64_t kTooManyOutputs = -2;
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

// XLA's ParameterSlicesAreNonOverlapping for siblings sharing `x`.
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
      sorted_ = ListIsTopological(*comp);
      Reachability reach(*comp);
      changed |= ProducerConsumer(comp, reach, stamps);
      changed |= Siblings(comp, reach, stamps);
    }
    return changed;
  }

 private:
  // A kernel's cost changes only when a merge touches it: cached by id with
  // the change stamp it was computed at.
  const Cost& CostOf(const Instruction& k, const Stamps& stamps) {
    if (k.id() < 0) return scratch_cost_ = KernelCost(k, device_);
    size_t id = static_cast<size_t>(k.id());
    if (id >= costs_.size()) costs_.resize(std::max(id + 1, costs_.size() * 2));
    CachedCost& c = costs_[id];
    if (!c.valid || c.stamp != stamps.Of(&k) || c.of != &k) c = CachedCost{true, stamps.Of(&k), &k, KernelCost(k, device_)};
    return c.cost;
  }
  struct CachedCost {
    bool valid = false;
    uint64_t stamp = 0;
    const Instruction* of = nullptr;
    Cost cost;
  };
  std::vector<CachedCost> costs_;  // by id; cleared per computation
  Cost scratch_cost_;
  bool sorted_ = false;  // the computation's list is topological
  template <typename Visit>
  bool Rounds(Computation* comp, Stamps& stamps, int cap, Visit visit) {
    stamps.AllDirty();
    std::vector<char> vol;  // by id
    auto is_vol = [&](const Instruction* i) {
      size_t id = static_cast<size_t>(i->id());
      return i->id() < 0 || (id < vol.size() && vol[id]);
    };
    // True when `x` led to a merge (the round ends there).
    auto step = [&](Instruction* x) {
      bool v = false;
      if (visit(x, v)) return true;
      stamps.SetClean(x);
      size_t id = static_cast<size_t>(x->id());
      if (x->id() >= 0) {
        if (id >= vol.size()) vol.resize(std::max(id + 1, vol.size() * 2), 0);
        vol[id] = v ? 1 : 0;
      }
      return false;
    };
    bool changed = false;
    bool again = true;
    int rounds = 0;
    while (again && rounds++ < RoundCap(*comp, cap)) {
      again = false;
      if (!changed) {
        for (Instruction* x : comp->MakePostOrder())
          if (step(x)) {
            again = true;
            break;
          }
      } else {
        for (const auto& up : comp->instructions()) {
          Instruction* x = up.get();
          if (stamps.Clean(x) && !is_vol(x)) continue;
          if (step(x)) {  // the list changed: stop walking it
            again = true;
            break;
          }
        }
      }
      changed |= again;
    }
    return changed;
  }

  static int CandidateRank(const Instruction& u) {
    if (u.opcode() == Opcode::kFusion) return u.shape().IsTuple() ? 2 : 1;
    return 0;
  }

  // Whether `p` could become an extra output of `u` (the checks of
  // ProducerConsumer's visit, without recording anything).
  bool AcceptsExtraOutput(const Instruction& p, const Instruction& u, Reachability& reach) const {
    if (!IsMultiOutputCandidate(u) || (u.opcode() != Opcode::kFusion && u.opcode() != Opcode::kReduce)) return false;
    if (u.parent() != p.parent()) return false;
    if (!PairFusible(p, u, /*duplicate=*/false, {.elemental_reductions = true, .ir_size_limit = true}).empty()) return false;
    if (LoopShape(p) != LoopShape(u)) return false;
    if (IsElementalReduceProducer(p))
      for (const Instruction* x : p.users())
        if (x != &u && x->opcode() == Opcode::kFusion && LoopShape(*x) == LoopShape(u) && ReducesValueOf(p, *x))
          return false;
    if (Forbidden(p, u)) return false;
    for (const Instruction* x : p.users())
      if (x != &u && reach.Reaches(x, &u)) return false;
    return u.shape().leaf_count() + 1 + u.operand_count() <= kMaxOperandsAndOutputsPerFusion;
  }

  // A user of `p` that XLA would pick before `c`, or null. XLA's user list
  // is in the order the users came to read `p`: a fusion made later is
  // appended. Ours keeps some in place, so the order is taken from the ids
  // (newer instructions have larger ones).
  const Instruction* PreferredConsumer(const Instruction& p, const Instruction& c, Reachability& reach) const {
    const int rank = CandidateRank(c);
    for (const Instruction* u : p.users()) {
      if (u == &c) continue;
      const int ur = CandidateRank(*u);
      if (ur < rank || (ur == rank && u->id() > c.id())) continue;
      if (AcceptsExtraOutput(p, *u, reach)) return u;
    }
    return nullptr;
  }

  bool ProducerConsumer(Computation* comp, Reachability& reach, Stamps& stamps) {
    std::unordered_map<Key, Seen, KeyHash> seen;
    // Examines the candidates with consumer `c`; true after a merge. `vol`:
    // a refusal here may change when reachability grows (a user of the
    // producer other than the first may come to feed the consumer).
    auto visit = [&](Instruction* c, bool& vol) {
      if (!IsMultiOutputCandidate(*c)) return false;
      // Unfused consumers: only reductions take an extra output here.
      if (c->opcode() != Opcode::kFusion && c->opcode() != Opcode::kReduce) return false;
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
          s = Seen{stamps.Of(p), stamps.Of(c),
                   PairFusible(*p, *c, /*duplicate=*/false, {.elemental_reductions = true, .ir_size_limit = true}),
                   CostUnfused(*p, cons, device_), -1};
          if (s.pre.empty() && LoopShape(*p) != LoopShape(*c))
            s.pre = "the producer and the consumer iterate over different shapes";
          // XLA merges a producer's sibling users before it takes the
          // producer as an extra output: a small reduction is then refused
          // when a sibling of the consumer (same loop shape) reduces its
          // value, as the merged consumer would (CreatesHeavyComputation).
          if (s.pre.empty() && IsElementalReduceProducer(*p))
            for (const Instruction* u : p->users())
              if (u != c && u->opcode() == Opcode::kFusion && LoopShape(*u) == LoopShape(*c) && ReducesValueOf(*p, *u)) {
                s.pre = "a sibling of the consumer (" + u->name() + ") reduces the producer's value; XLA merges the "
                        "siblings first, and the merged kernel would recompute the producer's reduction for each "
                        "value it reduces (CreatesHeavyComputation)";
                break;
              }
          if (const FusionOverridePair* f = s.pre.empty() ? Forbidden(*p, *c) : nullptr) s.pre = ForbiddenReason(*f);
          if (!s.pre.empty()) Decide(*p, cons, FusionVerdict::kNotFused, s.pre, s.before, s.before);
        }
        if (!s.pre.empty()) continue;  // logged when first found
        const Instruction* blocker = nullptr;
        bool first = true;  // no user other than `c` before the blocker
        for (const Instruction* u : p->users()) {
          if (u == c) continue;
          if (reach.Reaches(u, c)) {
            blocker = u;
            break;
          }
          first = false;
        }
        Refusal r;
        int64_t code = -1;
        if (blocker) {
          code = blocker->id();
          vol = vol || !first;
          r = "another user of the producer (" + blocker->name() + ") feeds the consumer; an extra output would "
              "form a cycle";
        } else if (c->shape().leaf_count() + 1 + c->operand_count() > kMaxOperandsAndOutputsPerFusion) {
          code = kTooManyOutputs;
          vol = true;
          r = "the fusion would have too many operands and outputs";
        }
        if (!r.empty()) {
          if (code != s.blocker) Decide(*p, cons, FusionVerdict::kNotFused, r, s.before, s.before);
          s.blocker = code;
          continue;
        }
        // XLA walks producers and picks among a producer's acceptable users
        // (SelectPreferredFusionCandidate): a multi-output fusion first, then
        // a fusion, then an unfused op; among equals the first in the
        // producer's user list. Another user preferred so takes it instead.
        if (PreferredConsumer(*p, *c, reach)) continue;
        size_t record = Decide(*p, cons, FusionVerdict::kFused,
                               "the producer is also needed elsewhere: it becomes an extra output of its "
                               "consumer, computed once",
                               s.before, s.before);
        Reachability::ExtraOutput ticket = reach.BeforeExtraOutput(p, c);
        c = AsFusion(c);
        FuseAsExtraOutput(c, AsFusion(p), sorted_);
        sorted_ = true;
        reach.AfterExtraOutput(ticket, c);
        stamps.TouchAround(c);
        Cost now = KernelCost(*c, device_);
        auto& d = mutable_log().decisions[record];
        d.result = c->name();
        SetDecisionCostAfter(d, now, device_);
        return true;
      }
      return false;
    };
    return Rounds(comp, stamps, 64, visit);
  }

  bool Siblings(Computation* comp, Reachability& reach, Stamps& stamps) {
    std::unordered_map<Key, SiblingSeen, KeyHash> seen;
    std::vector<Instruction*> sibs;
    std::unordered_set<const Instruction*> in_sibs;
    // Per shared operand: which rows of its pair scan (a sibling and the
    // siblings after it) were all examined as of stamp clock `at`, and the
    // siblings in pairs refused for their size (volatile). A merge ends a
    // visit half-way; the rows before the merged pair stay examined: the
    // siblings keep their relative order (users are only erased in place or
    // appended), so a row's later siblings are the same ones next time, plus
    // new ones, which count as changed.
    struct XScan {
      uint64_t at = 0;
      std::vector<int64_t> done_rows;  // sorted ids
      std::vector<int64_t> vol_ids;
    };
    std::unordered_map<int64_t, XScan> xscans;
    std::vector<char> changed;
    std::vector<char> row_done;
    std::vector<size_t> changed_at;
    std::vector<int64_t> new_vol;
    // Examines the sibling pairs that share `x`; true after a merge. `vol`:
    // a pair was refused only for its size, and would be logged again as
    // dependent once a merge elsewhere makes one sibling feed the other.
    auto visit = [&](Instruction* x, bool& vol) {
      // XLA (IsProfitableOperand): sharing a scalar saves no memory traffic.
      if (!x->shape().IsArray() || x->shape().num_elements() <= 1) return false;
      // XLA skips a custom fusion (a Triton GEMM or softmax fusion) as the
      // shared operand altogether (DoMultiOutputFusion: IsCustomFusion ->
      // continue): two optimizer updates reading one weight gradient's GEMM
      // stay two kernels.
      if (x->opcode() == Opcode::kFusion && x->fusion_kind() == FusionKind::kCustom) return false;
      sibs.clear();
      in_sibs.clear();
      for (Instruction* u : x->users())
        if (IsMultiOutputCandidate(*u) && u->parent() == comp && in_sibs.insert(u).second) sibs.push_back(u);
      if (sibs.size() < 2) return false;
      // XLA (FuseSiblings) takes multi-output fusions first, then fusions,
      // then unfused ops, and merges into a fusion only: two unfused ops
      // reading one value stay two kernels.
      std::stable_sort(sibs.begin(), sibs.end(),
                       [](const Instruction* a, const Instruction* b) { return SiblingRank(*a) > SiblingRank(*b); });
      // Only pairs with a sibling touched since `x` was last examined (or in
      // a volatile pair) can give a new answer; the others are skipped, in
      // the same order.
      XScan& xs = xscans[x->id()];
      const uint64_t start = stamps.clock();
      changed.assign(sibs.size(), 0);
      row_done.assign(sibs.size(), 0);
      changed_at.clear();
      for (size_t k = 0; k < sibs.size(); ++k) {
        bool ch = stamps.Of(sibs[k]) > xs.at ||
                  std::find(xs.vol_ids.begin(), xs.vol_ids.end(), sibs[k]->id()) != xs.vol_ids.end();
        changed[k] = ch;
        row_done[k] = !ch && std::binary_search(xs.done_rows.begin(), xs.done_rows.end(), sibs[k]->id());
        if (ch) changed_at.push_back(k);
      }
      new_vol.clear();
      auto finish = [&](size_t rows) {  // rows [0, rows) are examined as of `start`
        xs.at = start;
        xs.done_rows.clear();
        for (size_t k = 0; k < rows; ++k) xs.done_rows.push_back(sibs[k]->id());
        std::sort(xs.done_rows.begin(), xs.done_rows.end());
        xs.vol_ids.swap(new_vol);
      };
      for (size_t i = 0; i < sibs.size(); ++i) {
        if (sibs[i]->opcode() != Opcode::kFusion) break;  // the rest are unfused too
        const bool full = !row_done[i];  // every pair of the row, not only those with a changed sibling
        size_t from = full ? 0 : static_cast<size_t>(std::upper_bound(changed_at.begin(), changed_at.end(), i) -
                                                     changed_at.begin());
        for (size_t jj = from; jj < (full ? sibs.size() - i - 1 : changed_at.size()); ++jj) {
          size_t j = full ? i + 1 + jj : changed_at[jj];
          Instruction* a = sibs[i];
          Instruction* b = sibs[j];
          auto [it, fresh] = seen.try_emplace(Key{x->id(), a->id(), b->id()});
          SiblingSeen& s = it->second;
          auto refuse = [&](const char* r) {
            Decide(*a, {b}, FusionVerdict::kNotFused, "sibling of " + b->name() + " (both read " + x->name() +
                                                          "): " + r, s.before, s.before);
          };
          if (fresh || s.stamp_a != stamps.Of(a) || s.stamp_b != stamps.Of(b)) {
            Cost before = CostOf(*a, stamps);
            before += CostOf(*b, stamps);
            const char* pre = !SameIterationSpace(*a, *b)     ? kShapesDiffer
                              : ReadDisjointSlices(*x, *a, *b) ? kDisjointSlices
                              : Forbidden(*a, *b)              ? kForbiddenReason
                                                               : nullptr;
            s = SiblingSeen{stamps.Of(a), stamps.Of(b), pre, before, -1};
            if (s.pre) refuse(s.pre);
          }
          if (s.pre) continue;
          const char* r = nullptr;
          int64_t code = -1;
          if (!reach.Independent(a, b)) {
            code = 1;
            r = "one sibling depends on the other";
          } else if (a->operand_count() + b->operand_count() + a->shape().leaf_count() + b->shape().leaf_count() >
                     kMaxOperandsAndOutputsPerFusion) {
            code = 2;
            r = "the merged fusion would have too many operands and outputs";
          } else if (FusedInstructionCount(*a) + FusedInstructionCount(*b) > kMaxIrSize) {
            code = 3;
            r = "the merged fusion would be too large";
          } else if (UnnestedReductionCount(*a) + UnnestedReductionCount(*b) > kMaxUnnestedReductionsPerFusion) {
            code = 4;
            r = "the merged fusion would hold more than 8 reductions (XLA: each needs many registers; a "
                "multi-output fusion of more would spill)";
          }
          if (r) {
            if (code != 1) {  // merges only add paths: a dependency stays
              vol = true;
              new_vol.push_back(a->id());
              new_vol.push_back(b->id());
            }
            if (code != s.blocker) refuse(r);
            s.blocker = code;
            continue;
          }
          size_t record = Decide(*a, {b}, FusionVerdict::kMerged,
                                 "siblings reading " + x->name() +
                                     " become one kernel: the shared input is read once and one "
                                     "launch is saved",
                                 s.before, s.before);
          finish(i);
          Reachability::SiblingMerge ticket = reach.BeforeSiblingMerge(a, b);
          Instruction* merged = MergeSiblingFusions(AsFusion(a), AsFusion(b), sorted_);
          sorted_ = true;
          reach.AfterSiblingMerge(ticket, merged);
          stamps.TouchAround(merged);
          Cost now = KernelCost(*merged, device_);
          auto& d = mutable_log().decisions[record];
          d.result = merged->name();
          SetDecisionCostAfter(d, now, device_);
          return true;
        }
      }
      finish(sibs.size());
      return false;
    };
    return Rounds(comp, stamps, 256, visit);
  }
};

}  // namespace

std::unique_ptr<Pass> MakeMultiOutputFusionPass() { return std::make_unique<MultiOutputFusion>(); }

}  // namespace hloscope
