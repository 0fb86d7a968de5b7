// `multi_output_fusion`: (1) producer-consumer — a producer whose result is
// also needed elsewhere is fused into its consumer fusion and becomes an
// extra output, so it is computed once and its inputs read once; (2)
// siblings — fusions that read the same operand with the same iteration
// space become one kernel with several outputs (XLA's MultiOutputFusion).
#include <algorithm>
#include <optional>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/reachability.h"

namespace hloscope {

// Dims of the iteration space of a kernel (a reduce fusion iterates over the
// reduce's input).
std::vector<int64_t> LoopShape(const Instruction& i) {
  const Instruction* root = &i;
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
  return false;
}

// Each merge re-derives reachability over the whole computation (cycles must
// never form), so very large computations get fewer rounds: at most ~4M
// instruction visits per group of rounds. (XLA keeps reachability
// incrementally; we trade completeness on huge modules for bounded time.)
int RoundCap(const Computation& c, int cap) {
  int64_t n = std::max<int64_t>(1, c.instruction_count());
  return static_cast<int>(std::clamp<int64_t>(4'000'000 / n, 4, cap));
}

class MultiOutputFusion : public FusionPassBase {
 public:
  std::string_view name() const override { return "multi_output_fusion"; }
  std::string_view description() const override {
    return "Multi-output fusion: a kernel may write several results — a producer also needed elsewhere becomes an "
           "extra output of its consumer, and sibling kernels reading the same input are merged.";
  }
  StatusOr<bool> Run(Module& m) override {
    device_ = CurrentDevice();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      changed |= ProducerConsumer(comp);
      changed |= Siblings(comp);
    }
    return changed;
  }

 private:
  bool ProducerConsumer(Computation* comp) {
    bool changed = false;
    bool again = true;
    int rounds = 0;
    while (again && rounds++ < RoundCap(*comp, 64)) {
      again = false;
      Reachability reach(*comp);
      for (Instruction* c : comp->MakePostOrder()) {
        if (!IsMultiOutputCandidate(*c)) continue;
        for (Instruction* p : c->operands()) {
          if (p->parent() != comp || p->user_count() < 2) continue;
          if (!(p->opcode() == Opcode::kFusion && p->fusion_kind() == FusionKind::kLoop && !p->shape().IsTuple()))
            continue;
          std::vector<const Instruction*> cons = {c};
          Cost before = CostUnfused(*p, cons, device_);
          Refusal r = PairFusible(*p, *c, /*duplicate=*/false);
          if (r.empty() && LoopShape(*p) != LoopShape(*c))
            r = "the producer and the consumer iterate over different shapes";
          if (r.empty()) {
            for (const Instruction* u : p->users())
              if (u != c && reach.Reaches(u, c)) {
                r = "another user of the producer (" + u->name() + ") feeds the consumer; an extra output would form "
                    "a cycle";
                break;
              }
          }
          if (r.empty() && c->shape().leaf_count() + 1 + c->operand_count() > kMaxOperandsAndOutputsPerFusion)
            r = "the fusion would have too many operands and outputs";
          if (!r.empty()) {
            Decide(*p, cons, FusionVerdict::kNotFused, r, before, before);
            continue;
          }
          Decide(*p, cons, FusionVerdict::kFused,
                 "the producer is also needed elsewhere: it becomes an extra output of its consumer, computed once",
                 before, before);
          size_t record = mutable_log().decisions.size() - 1;
          FuseAsExtraOutput(c, p);
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

  bool Siblings(Computation* comp) {
    bool changed = false;
    bool again = true;
    int rounds = 0;
    while (again && rounds++ < RoundCap(*comp, 256)) {
      again = false;
      Reachability reach(*comp);
      for (Instruction* x : comp->MakePostOrder()) {
        std::vector<Instruction*> sibs;
        for (Instruction* u : x->users())
          if (IsMultiOutputCandidate(*u) && u->parent() == comp &&
              std::find(sibs.begin(), sibs.end(), u) == sibs.end())
            sibs.push_back(u);
        for (size_t i = 0; i < sibs.size() && !again; ++i) {
          for (size_t j = i + 1; j < sibs.size() && !again; ++j) {
            Instruction* a = sibs[i];
            Instruction* b = sibs[j];
            std::vector<const Instruction*> pair = {b};
            Cost before = KernelCost(*a, device_);
            before += KernelCost(*b, device_);
            Refusal r;
            if (!SameIterationSpace(*a, *b)) r = "the siblings iterate over different shapes or reduce different dimensions";
            else if (!reach.Independent(a, b)) r = "one sibling depends on the other";
            else if (a->operand_count() + b->operand_count() + a->shape().leaf_count() + b->shape().leaf_count() >
                     kMaxOperandsAndOutputsPerFusion)
              r = "the merged fusion would have too many operands and outputs";
            else if (FusedInstructionCount(*a) + FusedInstructionCount(*b) > kMaxFusedInstructions)
              r = "the merged fusion would be too large";
            if (!r.empty()) {
              Decide(*a, pair, FusionVerdict::kNotFused, "sibling of " + b->name() + " (both read " + x->name() +
                                                             "): " + r, before, before);
              continue;
            }
            Decide(*a, pair, FusionVerdict::kMerged,
                   "siblings reading " + x->name() + " become one kernel: the shared input is read once and one "
                   "launch is saved", before, before);
            size_t record = mutable_log().decisions.size() - 1;
            Instruction* merged = MergeSiblingFusions(a, b);
            Cost now = KernelCost(*merged, device_);
            auto& d = mutable_log().decisions[record];
            d.result = merged->name();
            d.bytes_after = now.bytes();
            d.us_after = now.time_us;
            changed = again = true;
          }
        }
        if (again) break;
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeMultiOutputFusionPass() { return std::make_unique<MultiOutputFusion>(); }

}  // namespace hloscope
