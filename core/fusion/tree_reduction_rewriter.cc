// `tree-reduction-rewriter`: XLA GPU's TreeReductionRewriter. A reduction
// too long to run without atomics (ReductionRaceFree: rows of more than
// 1024 × 16 elements, columns of more than 32 × 128) becomes two: the
// reduced extent n is seen as m blocks of k (m the largest divisor of n up
// to √n; when that is far below √n, k = ⌈√n⌉ and the last block is padded
// with the initial value), the first reduce combines each block, the second
// the m partial results.
// Each is race-free, so each is one kernel without atomics — one more
// kernel than before, as XLA GPU makes for a batch-norm sum over
// 8 × 56 × 56 rows. Handles single-input reductions whose reduced
// dimensions are contiguous: the minor ones (row) or the major ones
// (column), in the default layout.
#include <algorithm>
#include <cmath>

#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"
#include "core/passes/rewrite_helpers.h"

namespace hloscope {
namespace {

class TreeReductionRewriter : public FusionPassBase {
 public:
  std::string_view name() const override { return "tree-reduction-rewriter"; }
  std::string_view description() const override {
    return "XLA GPU's TreeReductionRewriter: a reduction too long to run without atomics becomes two race-free "
           "reductions (blocks of about sqrt(n) elements, then the partial results).";
  }

  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      std::vector<Instruction*> reduces;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kReduce) reduces.push_back(i.get());
      for (Instruction* r : reduces) changed |= Split(comp, r);
    }
    return changed;
  }

 private:
  bool Split(Computation* comp, Instruction* r) {
    if (r->shape().IsTuple() || r->operand_count() != 2 || !r->to_apply()) return false;
    Instruction* in = r->operand(0);
    Instruction* init = r->operand(1);
    const Shape& s = in->shape();
    if (!s.IsArray() || s.rank() == 0 || !HasDefaultLayout(s) || ReductionRaceFree(*r)) return false;
    std::vector<int64_t> red = r->dimensions();
    std::sort(red.begin(), red.end());
    const int rank = s.rank();
    const int nr = static_cast<int>(red.size());
    for (int k = 1; k < nr; ++k)
      if (red[static_cast<size_t>(k)] != red[static_cast<size_t>(k) - 1] + 1) return false;  // not contiguous: left alone
    // [major..., reduced..., minor...]: a row reduction has no minor kept
    // dimensions; a column reduction has some, with or without major ones
    // (XLA's [batch, reduced, kept] form).
    const bool row = red.back() == rank - 1;
    int64_t n = 1;
    for (int64_t d : red) n *= s.dim(static_cast<int>(d));
    // m blocks of k: as XLA, without padding when n has a divisor not far
    // below √n (the largest such divisor is m: 6,272 = 64 blocks of 98);
    // else k = ⌈√n⌉ and the last block is padded with the initial value.
    const double root = std::sqrt(static_cast<double>(n));
    int64_t m = static_cast<int64_t>(root);
    while (m > 1 && n % m != 0) --m;
    int64_t k = n / m;
    if (static_cast<double>(m) < root / 2) {
      k = static_cast<int64_t>(std::ceil(root));
      m = (n + k - 1) / k;
    }
    std::vector<int64_t> major, minor;
    for (int d = 0; d < rank; ++d) {
      if (d < red.front()) major.push_back(s.dim(d));
      if (d > red.back()) minor.push_back(s.dim(d));
    }
    const PrimitiveType t = s.element_type();
    // [major..., n, minor...] → [major..., m, k, minor...] → [major..., m, minor...] → the result.
    auto with = [&](std::vector<int64_t> mid) {
      std::vector<int64_t> out = major;
      out.insert(out.end(), mid.begin(), mid.end());
      out.insert(out.end(), minor.begin(), minor.end());
      return out;
    };
    const std::vector<int64_t> flat = with({n}), split = with({m, k}), partial = with({m});
    const int nd = static_cast<int>(major.size());  // the position of n in `flat`
    Instruction* x = AddNew(comp, r, Opcode::kReshape, ShapeLike(s, t, flat), {in});
    if (m * k > n) {
      std::vector<int64_t> padded = flat;
      padded[static_cast<size_t>(nd)] = m * k;
      x = AddNew(comp, r, Opcode::kPad, ShapeLike(s, t, padded), {x, init});
      std::vector<PadDim> pads(flat.size());
      pads[static_cast<size_t>(nd)].hi = m * k - n;
      x->attrs().padding = pads;
      x->attrs().mark(Attr::kPadding);
    }
    x = AddNew(comp, r, Opcode::kReshape, ShapeLike(s, t, split), {x});
    Instruction* first = AddNew(comp, r, Opcode::kReduce, ShapeLike(s, t, partial), {x, init});
    first->set_dimensions({static_cast<int64_t>(nd) + 1});
    first->SetCalled("to_apply", r->to_apply());
    Instruction* second = AddNew(comp, r, Opcode::kReduce, r->shape(), {first, init});
    second->set_dimensions({static_cast<int64_t>(nd)});
    second->SetCalled("to_apply", r->to_apply());
    CopyMetadataIfMissing(*r, *first);
    const std::string name = r->name();
    std::vector<const Instruction*> users(r->users().begin(), r->users().end());
    Cost before = KernelCost(*r, device_);
    ReplaceInstruction(r, second, mutable_log(), "tree-reduction");
    Cost after = KernelCost(*first, device_);
    after += KernelCost(*second, device_);
    size_t record =
        Decide(*second, users, FusionVerdict::kNotFused,
               std::string(row ? "row" : "column") + " reduction of " + std::to_string(n) +
                   " elements is too long to run without atomics (XLA: ReductionIsRaceFree); split into " +
                   std::to_string(m) + " blocks of " + std::to_string(k) + " (" + first->name() + "), then the " +
                   std::to_string(m) + " partial results (" + second->name() + ")",
               before, after);
    mutable_log().decisions[record].producer = name;
    mutable_log().decisions[record].result = first->name() + ", " + second->name();
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeTreeReductionRewriterPass() { return std::make_unique<TreeReductionRewriter>(); }

}  // namespace hloscope
