// ragged_dot_rewriter: XLA GPU's RaggedDotRewriter, the first pass of its
// optimization pipeline, which it applies to every ragged dot that neither
// cuDNN (an experimental flag) nor hipBLASLt's grouped GEMM (ROCm) takes, so
// to all of them on an H100 by default. A ragged dot (the grouped GEMM of
// mixture-of-experts layers: rows of the lhs go in consecutive groups, each
// group multiplied by its own matrix) becomes a dense dot over a masked copy
// of its operand, one slice per group:
//
//   start = exclusive cumulative sum of group_sizes   (reduce-window, slice, concatenate)
//   end   = inclusive cumulative sum                   (reduce-window)
//   dense[g, ...] = start[g] <= iota(ragged) < end[g] ? x[...] : 0       (compares, and, select)
//
// Non-contracting mode, lhs [m,k] · rhs [g,k,n]: the dense lhs [g,m,k] is
//   contracted with the rhs over (g, k), so each row picks its group's matrix.
// Contracting mode, lhs [m,k] · rhs [k,n] → [g,m,n]: both operands are made
//   dense along k and the group dimension becomes a batch dimension.
// Batch mode: XLA's rewriter keeps the dot as it is and ignores the group
//   sizes; its evaluator, and our interpreter, give 0 to batches at or past
//   the groups' total, so ours masks those batches of the lhs (one select).
//
// Written from XLA's ragged_dot_rewriter.cc and the evaluator's definition;
// differences from XLA's rewriter: the group dimension is always the first
// of a dense operand (XLA puts it after the group sizes' leading dimensions
// and, in the contracting mode, swaps it to the front, which is the same
// thing whenever group_sizes is [g] or [b, g]), and group sizes indexed by
// dimensions other than the operand's leading ones are broadcast along the
// dimensions they index (XLA's rewriter assumes the leading ones). The masks
// are exact: the dense dot adds the same products and exact zeros (an
// infinite or NaN element of another group's slice would turn into NaN).
// Also run on fused computations, where a ragged dot reaches us already fused.
#include <algorithm>
#include <numeric>

#include "core/ir/ragged_dot.h"
#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"

namespace hloscope {
namespace {

class Rewrite {
 public:
  Rewrite(Computation* comp, Instruction* dot) : comp_(comp), dot_(dot), like_(dot->shape()) {}

  Instruction* Add(Opcode op, PrimitiveType type, std::vector<int64_t> dims,
                   const std::vector<Instruction*>& ops) {
    return AddNew(comp_, dot_, op, ShapeLike(like_, type, std::move(dims)), ops);
  }
  Instruction* Zero(PrimitiveType type) { return AddScalarConstant(comp_, dot_, type, 0); }
  Instruction* Splat(Instruction* scalar, const std::vector<int64_t>& dims) {
    return AddBroadcastScalar(comp_, dot_, scalar, ShapeLike(like_, scalar->shape().element_type(), dims));
  }
  Instruction* Compare(Instruction* a, Instruction* b, ComparisonDirection dir) {
    Instruction* c = Add(Opcode::kCompare, PrimitiveType::kPred, a->shape().dims(), {a, b});
    c->attrs().direction = dir;
    c->attrs().mark(Attr::kDirection);
    return c;
  }
  // 0, 1, … along dimension `dim` of `dims` (an iota of that dimension's
  // size broadcast, as XLA's rewriter writes it).
  Instruction* Iota(PrimitiveType type, const std::vector<int64_t>& dims, int64_t dim) {
    Instruction* i = Add(Opcode::kIota, type, {dims[static_cast<size_t>(dim)]}, {});
    i->attrs().iota_dimension = 0;
    i->attrs().mark(Attr::kIotaDimension);
    Instruction* b = Add(Opcode::kBroadcast, type, dims, {i});
    b->set_dimensions({dim});
    return b;
  }

  // `x` broadcast into `dims`, its dimension i landing on `to[i]` (in any
  // order: a transpose first puts them in increasing order).
  Instruction* BroadcastInto(Instruction* x, const std::vector<int64_t>& to,
                             const std::vector<int64_t>& dims) {
    std::vector<int64_t> order(to.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return to[a] < to[b]; });
    std::vector<int64_t> sorted_to;
    for (int64_t i : order) sorted_to.push_back(to[static_cast<size_t>(i)]);
    if (!std::is_sorted(to.begin(), to.end())) {
      std::vector<int64_t> tdims;
      for (int64_t i : order) tdims.push_back(x->shape().dim(static_cast<int>(i)));
      Instruction* t = Add(Opcode::kTranspose, x->shape().element_type(), tdims, {x});
      t->set_dimensions(order);
      x = t;
    }
    Instruction* b = Add(Opcode::kBroadcast, x->shape().element_type(), dims, {x});
    b->set_dimensions(sorted_to);
    return b;
  }

  // Inclusive cumulative sums of group_sizes along its last dimension, and
  // the exclusive ones (a zero, then all but the last inclusive sum).
  void CumulativeSums(Instruction* sizes, Instruction** start, Instruction** end) {
    const PrimitiveType t = sizes->shape().element_type();
    const std::vector<int64_t>& d = sizes->shape().dims();
    const int64_t groups = d.back();
    Window w;
    w.dims.resize(d.size());
    w.dims.back().size = groups;
    w.dims.back().pad_lo = groups - 1;
    Instruction* cum = Add(Opcode::kReduceWindow, t, d, {sizes, Zero(t)});
    cum->attrs().window = std::make_unique<Window>(w);
    cum->attrs().mark(Attr::kWindow);
    cum->SetCalled("to_apply", AddScalarAddComputation(*comp_->parent(), t, comp_));
    std::vector<int64_t> one = d;
    one.back() = 1;
    Instruction* zeros = Splat(Zero(t), one);
    *end = cum;
    if (groups == 1) {
      *start = zeros;
      return;
    }
    std::vector<int64_t> head = d;
    head.back() = groups - 1;
    Instruction* slice = Add(Opcode::kSlice, t, head, {cum});
    for (int64_t x : head) slice->attrs().slice.push_back(SliceDim{0, x, 1});
    slice->attrs().mark(Attr::kSlice);
    Instruction* cat = Add(Opcode::kConcatenate, t, d, {zeros, slice});
    cat->set_dimensions({static_cast<int64_t>(d.size()) - 1});
    *start = cat;
  }

  // `x` with a group dimension in front, each slice g keeping the elements
  // whose index along `ragged` lies in group g and zero elsewhere. The group
  // sizes' leading dimensions index x's dimensions `prefix`.
  Instruction* Dense(Instruction* x, int64_t ragged, const std::vector<int64_t>& prefix, Instruction* start,
                     Instruction* end) {
    const int64_t groups = start->shape().dims().back();
    std::vector<int64_t> dims = {groups};
    for (int64_t d : x->shape().dims()) dims.push_back(d);
    std::vector<int64_t> to;
    if (start->shape().rank() > 1)
      for (int64_t p : prefix) to.push_back(p + 1);
    to.push_back(0);
    Instruction* iota = Iota(start->shape().element_type(), dims, ragged + 1);
    Instruction* from = Compare(BroadcastInto(start, to, dims), iota, ComparisonDirection::kLe);
    Instruction* until = Compare(iota, BroadcastInto(end, to, dims), ComparisonDirection::kLt);
    Instruction* mask = Add(Opcode::kAnd, PrimitiveType::kPred, dims, {from, until});
    std::vector<int64_t> shifted(static_cast<size_t>(x->shape().rank()));
    std::iota(shifted.begin(), shifted.end(), 1);
    const PrimitiveType t = x->shape().element_type();
    Instruction* spread = Add(Opcode::kBroadcast, t, dims, {x});
    spread->set_dimensions(shifted);
    return Add(Opcode::kSelect, t, dims, {mask, spread, Splat(Zero(t), dims)});
  }

  // The lhs with the batches at or past the groups' total set to zero.
  Instruction* MaskBatches(Instruction* lhs, const RaggedDotDims& r, Instruction* sizes) {
    const PrimitiveType t = sizes->shape().element_type();
    std::vector<int64_t> total_dims = sizes->shape().dims();
    total_dims.pop_back();
    Instruction* total = Add(Opcode::kReduce, t, total_dims, {sizes, Zero(t)});
    total->set_dimensions({static_cast<int64_t>(total_dims.size())});
    total->SetCalled("to_apply", AddScalarAddComputation(*comp_->parent(), t, comp_));
    const std::vector<int64_t>& dims = lhs->shape().dims();
    std::vector<int64_t> to;
    if (sizes->shape().rank() > 1) to = r.group_prefix;
    Instruction* limit = BroadcastInto(total, to, dims);
    Instruction* keep = Compare(Iota(t, dims, r.lhs_ragged), limit, ComparisonDirection::kLt);
    const PrimitiveType lt = lhs->shape().element_type();
    // The lhs's own layout, which the dot's operand had.
    return AddNew(comp_, dot_, Opcode::kSelect, lhs->shape(), {keep, lhs, Splat(Zero(lt), dims)});
  }

 private:
  Computation* comp_;
  Instruction* dot_;
  const Shape& like_;
};

std::vector<int64_t> Plus1(const std::vector<int64_t>& v) {
  std::vector<int64_t> out;
  for (int64_t x : v) out.push_back(x + 1);
  return out;
}

int64_t IndexOf(const std::vector<int64_t>& v, int64_t x) {
  return static_cast<int64_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

class RaggedDotRewriter : public Pass {
 public:
  std::string_view name() const override { return "ragged_dot_rewriter"; }
  std::string_view description() const override {
    return "Rewrites each ragged dot (grouped GEMM) as a dense dot over operands masked per group "
           "(XLA's RaggedDotRewriter).";
  }

  StatusOr<bool> Run(Module& module) override {
    return RewriteEach(
        module,
        [](const Instruction& i) {
          return i.opcode() == Opcode::kRaggedDot && i.operand_count() == 3 && i.shape().IsArray();
        },
        [this](Computation* c, Instruction* i) { return RewriteOne(c, i); });
  }

 private:
  bool RewriteOne(Computation* comp, Instruction* dot) {
    const std::optional<RaggedDotDims> r = RaggedDotDimsOf(*dot);
    if (!r) return false;
    if (r->mode == RaggedDotMode::kNonContracting && r->rhs_group.size() != 1) return false;
    Instruction* lhs = dot->operand(0);
    Instruction* rhs = dot->operand(1);
    Instruction* sizes = dot->operand(2);
    if (!IsStaticArray(lhs->shape()) || !IsStaticArray(rhs->shape()) || !IsStaticArray(sizes->shape()))
      return false;
    Rewrite w(comp, dot);
    const DotDnums& d = r->dot;
    DotDnums nd;
    std::string rule;
    if (r->mode == RaggedDotMode::kBatch) {
      lhs = w.MaskBatches(lhs, *r, sizes);
      nd = d;
      rule = "ragged batch dimension → dot with the batches past the groups' total zeroed";
    } else {
      Instruction *start = nullptr, *end = nullptr;
      w.CumulativeSums(sizes, &start, &end);
      if (r->mode == RaggedDotMode::kNonContracting) {
        lhs = w.Dense(lhs, r->lhs_ragged, r->group_prefix, start, end);
        nd.lhs_batch = Plus1(d.lhs_batch);
        nd.rhs_batch = d.rhs_batch;
        nd.lhs_contracting = {0};
        for (int64_t c : Plus1(d.lhs_contracting)) nd.lhs_contracting.push_back(c);
        nd.rhs_contracting = {r->rhs_group[0]};
        for (int64_t c : d.rhs_contracting) nd.rhs_contracting.push_back(c);
        rule = "ragged non-contracting dimension → dot over the lhs masked per group, contracting the groups";
      } else {
        // The rhs's ragged dimension and group-size dimensions are the
        // lhs's, through the dimension numbers.
        const int64_t j = IndexOf(d.lhs_contracting, r->lhs_ragged);
        std::vector<int64_t> rhs_prefix;
        for (int64_t p : r->group_prefix) {
          const int64_t b = IndexOf(d.lhs_batch, p);
          rhs_prefix.push_back(b < static_cast<int64_t>(d.lhs_batch.size())
                                   ? d.rhs_batch[static_cast<size_t>(b)]
                                   : d.rhs_contracting[static_cast<size_t>(IndexOf(d.lhs_contracting, p))]);
        }
        lhs = w.Dense(lhs, r->lhs_ragged, r->group_prefix, start, end);
        rhs = w.Dense(rhs, d.rhs_contracting[static_cast<size_t>(j)], rhs_prefix, start, end);
        nd.lhs_batch = {0};
        nd.rhs_batch = {0};
        for (int64_t b : Plus1(d.lhs_batch)) nd.lhs_batch.push_back(b);
        for (int64_t b : Plus1(d.rhs_batch)) nd.rhs_batch.push_back(b);
        nd.lhs_contracting = Plus1(d.lhs_contracting);
        nd.rhs_contracting = Plus1(d.rhs_contracting);
        rule = "ragged contracting dimension → batched dot over both operands masked per group";
      }
    }
    Instruction* dense = AddNew(comp, dot, Opcode::kDot, dot->shape(), {lhs, rhs});
    dense->attrs().dot = std::make_unique<DotDnums>(nd);
    dense->attrs().mark(Attr::kDotDims);
    for (const RawAttr& a : dot->raw_attrs())
      if (a.name != "lhs_ragged_dims" && a.name != "rhs_group_dims") dense->SetRaw(a.name, a.value);
    ReplaceInstruction(dot, dense, mutable_log(), rule);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeRaggedDotRewriterPass() { return std::make_unique<RaggedDotRewriter>(); }

}  // namespace hloscope
