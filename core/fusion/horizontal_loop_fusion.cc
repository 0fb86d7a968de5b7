// `horizontal_loop_fusion`: independent small loop kernels — loop fusions
// (multi-output ones whose outputs share one shape included) and unfused
// elementwise ops — are joined into one kernel to save launches (XLA's
// HorizontalLoopFusion). Only kernels whose launch overhead rivals their
// work are joined.
#include <algorithm>
#include <optional>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/reachability.h"

namespace hloscope {
namespace {

constexpr int64_t kSmallElements = 1 << 15;  // "small": ≤ 32K output elements
constexpr int kMaxGroup = 16;

class HorizontalLoopFusion : public FusionPassBase {
 public:
  std::string_view name() const override { return "horizontal_loop_fusion"; }
  std::string_view description() const override {
    return "Horizontal loop fusion: joins independent small loop kernels (loop fusions and unfused elementwise ops) "
           "into one launch.";
  }
  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) changed |= RunOn(comp);
    return changed;
  }

 private:
  // The array shape every output of a candidate has: a loop fusion (one
  // output, or several of one shape and type) or an unfused elementwise op
  // (XLA also joins those; it is wrapped into a fusion first). nullopt when
  // `i` is no candidate.
  static const Shape* OutputShape(const Instruction& i) {
    bool fusion = i.opcode() == Opcode::kFusion && i.fusion_kind() == FusionKind::kLoop;
    bool elementwise = i.opcode() != Opcode::kFusion && IsElementwise(i.opcode()) && i.operand_count() > 0 &&
                       !i.HasSideEffect() && i.shape().IsArray();
    if (!fusion && !elementwise) return nullptr;
    if (fusion && ContainsReduce(i)) return nullptr;  // a reduction kernel, whatever its kind says
    if (!i.shape().IsTuple()) return i.shape().IsArray() ? &i.shape() : nullptr;
    const auto& leaves = i.shape().tuple_shapes();
    if (leaves.empty() || !leaves[0].IsArray()) return nullptr;
    for (const Shape& l : leaves)
      if (!l.IsArray() || !l.SameDims(leaves[0]) || l.element_type() != leaves[0].element_type()) return nullptr;
    return &leaves[0];
  }

  bool RunOn(Computation* comp) {
    std::vector<Instruction*> small;
    for (Instruction* i : comp->MakePostOrder()) {
      const Shape* out = OutputShape(*i);
      if (!out || out->num_elements() > kSmallElements) continue;
      small.push_back(i);
    }
    if (small.size() < 2) return false;
    // Groups are formed one at a time against the current graph: merging a
    // group adds paths (everything feeding one member now feeds the others'
    // users), so two kernels independent before a merge may not be after it.
    // Reachability is brought up to date after every merge for that reason.
    std::vector<char> used(small.size(), 0);
    bool changed = false;
    std::optional<Reachability> reach;
    bool sorted = ListIsTopological(*comp);
    for (size_t i = 0; i < small.size(); ++i) {
      if (used[i]) continue;
      if (!reach) reach.emplace(*comp);
      std::vector<Instruction*> g = {small[i]};
      int operands = small[i]->operand_count() + 1;
      used[i] = 1;
      for (size_t j = i + 1; j < small.size() && static_cast<int>(g.size()) < kMaxGroup; ++j) {
        if (used[j]) continue;
        bool independent = true;
        for (Instruction* x : g) independent = independent && reach->Independent(x, small[j]);
        if (!independent || operands + small[j]->operand_count() + 1 > kMaxOperandsAndOutputsPerFusion) continue;
        if (!Compatible(g, *small[j])) continue;
        g.push_back(small[j]);
        operands += small[j]->operand_count() + 1;
        used[j] = 1;
      }
      if (g.size() > 1) {
        reach->Update({MergeGroup(g, sorted)});
        sorted = true;
        changed = true;
      }
    }
    return changed;
  }

  // XLA: all members write the same element type; members of different
  // shapes are joined through concatenation, which needs disjoint inputs.
  static bool Compatible(const std::vector<Instruction*>& g, const Instruction& c) {
    const Shape& cs = *OutputShape(c);
    if (cs.element_type() != OutputShape(*g[0])->element_type()) return false;
    bool same_shapes = true;
    for (const Instruction* x : g) same_shapes = same_shapes && OutputShape(*x)->dims() == cs.dims();
    if (same_shapes) return true;
    for (const Instruction* x : g)
      for (const Instruction* o : x->operands())
        for (const Instruction* p : c.operands())
          if (o == p) return false;
    return true;
  }

  Instruction* MergeGroup(const std::vector<Instruction*>& g, bool sorted) {
    Cost before;
    for (Instruction* x : g) before += KernelCost(*x, device_);
    std::vector<const Instruction*> rest(g.begin() + 1, g.end());
    size_t record =
        Decide(*g[0], rest, FusionVerdict::kMerged,
               std::to_string(g.size()) + " independent small loop kernels share one launch (saves " +
                   std::to_string((g.size() - 1) * device_.launch_overhead_us) + " us of launch overhead)",
               before, before);
    auto as_fusion = [](Instruction* i) {
      return i->opcode() == Opcode::kFusion ? i : WrapInFusion(i, FusionKind::kLoop);
    };
    Instruction* merged = as_fusion(g[0]);
    for (size_t k = 1; k < g.size(); ++k) {
      merged = MergeSiblingFusions(merged, as_fusion(g[k]), sorted);
      sorted = true;
    }
    Cost now = KernelCost(*merged, device_);
    auto& d = mutable_log().decisions[record];
    d.result = merged->name();
    SetDecisionCostAfter(d, now, device_);
    return merged;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeHorizontalLoopFusionPass() { return std::make_unique<HorizontalLoopFusion>(); }

}  // namespace hloscope
