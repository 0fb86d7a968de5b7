// `tree-reduction-rewriter`: XLA GPU's TreeReductionRewriter. A reduction
// too long to run without atomics (ReductionRaceFree: rows of more than
// 1024 × 16 elements, columns of more than 32 × 128) becomes two: the
// reduced extent n is seen as m blocks of k (chosen as XLA's
// ComputeSplitParams does, SplitOf below; the last block padded with the
// initial value when they do not divide n), the first reduce combines each
// block, the second the m partial results.
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

// How XLA 0.12's TreeReductionRewriter (ComputeSplitParams) splits n
// reduced elements: m blocks of k, the first reduction over each block of
// k, the second over the m partial results. k starts at ⌊√n⌋ (at most the
// race-free bound: 1024 × 16 for rows, 32 × 128 for columns); of the
// sizes from there down to half of it, the one needing the least padding
// wins, a power of two among equals. Then the two are swapped when that
// reads better: always for columns; for rows, while the larger stays
// race-free and, when the smaller and n are even (vectorizable), is more
// than twice the smaller or even itself; otherwise when n is even or the
// larger is odd. 6,272 = 64 blocks of 98; 16,411 = 67 blocks of 245 (4
// padded); Llama's 512 × 128,256 = 4,096 blocks of 16,032.
std::pair<int64_t, int64_t> SplitOf(int64_t n, bool row) {
  const uint64_t size = static_cast<uint64_t>(n);
  const uint64_t bound = row ? 1024 * 16 : 32 * 128;
  uint64_t k2 = static_cast<uint64_t>(std::floor(std::sqrt(static_cast<double>(size))));
  k2 = std::max<uint64_t>(1, std::min(k2, bound));
  uint64_t min_pad = (k2 - size % k2) % k2;
  uint64_t k1 = (size + min_pad) / k2;
  for (uint64_t i = k2 - 1; i > k2 / 2; --i) {
    const uint64_t pad = (i - size % i) % i;
    if (pad < min_pad || (pad == min_pad && (i & (i - 1)) == 0)) {
      min_pad = pad;
      k1 = (size + pad) / i;
    }
  }
  uint64_t k2b = (size + min_pad) / k1;
  bool swap = false;
  if (k1 <= bound) {
    if (!row) {
      swap = true;
    } else if (k2b % 2 == 0 && size % 2 == 0) {
      swap = k2b * 2 < k1 || k1 % 2 == 0;
    } else {
      swap = size % 2 == 0 || k1 % 2 != 0;
    }
  }
  if (swap) std::swap(k1, k2b);
  // [k1, k2]: the first reduction reduces k2 (the block), the second k1.
  return {static_cast<int64_t>(k1), static_cast<int64_t>(k2b)};
}

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
    if (!s.IsArray() || s.rank() == 0 || ReductionRaceFree(*r)) return false;
    // A reduction of every dimension does not depend on the order it
    // reads in: in another layout it reads the bytes as they lie, through a
    // bitcast to one dimension (XLA normalizes the layout first and then
    // bitcasts: Llama's sum of squares over [512,8,128]{0,2,1} is 512
    // blocks of 1,024 of the bytes in memory order).
    const bool full = static_cast<int>(r->dimensions().size()) == s.rank();
    if (!HasDefaultLayout(s) && !full) return false;
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
    const auto [m, k] = SplitOf(n, row);
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
    Instruction* x = HasDefaultLayout(s) ? AddNew(comp, r, Opcode::kReshape, ShapeLike(s, t, flat), {in})
                                         : AddNew(comp, r, Opcode::kBitcast, Shape(t, flat), {in});
    if (!HasDefaultLayout(s)) x->mutable_shape()->set_layout(Shape::DefaultLayout(static_cast<int>(flat.size())));
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
