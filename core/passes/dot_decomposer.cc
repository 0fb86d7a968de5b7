// dot_decomposer: XLA's DotDecomposer, run by XLA GPU before simplification.
// It puts every dot into the canonical form the GEMM emitters take:
//   lhs [batch..., M, K], rhs [batch..., K, N], result [batch..., M, N]
// with the batch dimensions first, all contracting dimensions merged into one
// K and all non-contracting dimensions of an operand merged into one (left
// out when their product is 1). An operand already of that form, one
// contracting dimension, at most one non-contracting dimension and the batch
// dimensions leading, is canonical as it is (its K may come before its M).
// A non-canonical operand is transposed into [batch, M, K] (lhs) or
// [batch, K, N] (rhs) and reshaped; the new dot's result is reshaped back to
// the original shape. With default layouts those reshapes are bitcasts, so
// a [2,8,8]·[8,32] dot becomes [16,8]·[8,32] read through a bitcast, as in
// XLA GPU's own output, and fusion then treats the operand's producer as a
// value read by a bitcast (priority fusion's non-bitcast users).
#include <algorithm>
#include <numeric>

#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool OperandIsCanonical(const Shape& s, const std::vector<int64_t>& contracting, const std::vector<int64_t>& batch) {
  if (contracting.size() != 1) return false;
  if (static_cast<int64_t>(batch.size()) + 2 < s.rank()) return false;
  for (size_t i = 0; i < batch.size(); ++i)
    if (batch[i] != static_cast<int64_t>(i)) return false;
  return true;
}

class DotDecomposerPass : public Pass {
 public:
  std::string_view name() const override { return "dot_decomposer"; }
  std::string_view description() const override {
    return "XLA's DotDecomposer: every dot becomes [batch, M, K]·[batch, K, N] (batch dimensions first, "
           "contracting and non-contracting dimensions each merged into one) through transposes and reshapes, "
           "the form the GEMM emitters take.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    for (Computation* comp : NonFusionComputations(module)) {
      std::vector<Instruction*> dots;
      for (const auto& i : comp->instructions())
        if (NeedsCanonicalizing(*i)) dots.push_back(i.get());
      for (Instruction* d : dots) {
        Canonicalize(comp, d);
        changed = true;
      }
    }
    return changed;
  }

 private:
  static bool NeedsCanonicalizing(const Instruction& i) {
    if (i.opcode() != Opcode::kDot || !i.attrs().dot || i.operand_count() != 2) return false;
    if (!IsStaticArray(i.shape()) || !IsStaticArray(i.operand(0)->shape()) || !IsStaticArray(i.operand(1)->shape()))
      return false;
    const DotDnums& d = *i.attrs().dot;
    return !OperandIsCanonical(i.operand(0)->shape(), d.lhs_contracting, d.lhs_batch) ||
           !OperandIsCanonical(i.operand(1)->shape(), d.rhs_contracting, d.rhs_batch);
  }

  // `x` as [batch, M, K] (contracting_minor) or [batch, K, N]; appends the
  // position of its K to `canonical_contracting`.
  static Instruction* CanonicalOperand(Computation* comp, Instruction* before, Instruction* x,
                                       const std::vector<int64_t>& batch, const std::vector<int64_t>& contracting,
                                       bool contracting_minor, std::vector<int64_t>& canonical_contracting) {
    const Shape& s = x->shape();
    std::vector<int64_t> free;
    int64_t k = 1, m = 1;
    for (int64_t d = 0; d < s.rank(); ++d) {
      if (Contains(contracting, d)) {
        k *= s.dim(static_cast<int>(d));
      } else if (!Contains(batch, d)) {
        free.push_back(d);
        m *= s.dim(static_cast<int>(d));
      }
    }
    std::vector<int64_t> perm = batch;
    const std::vector<int64_t>& first = contracting_minor ? free : contracting;
    const std::vector<int64_t>& second = contracting_minor ? contracting : free;
    perm.insert(perm.end(), first.begin(), first.end());
    perm.insert(perm.end(), second.begin(), second.end());
    std::vector<int64_t> identity(perm.size());
    std::iota(identity.begin(), identity.end(), 0);
    Instruction* t = x;
    if (perm != identity) {
      std::vector<int64_t> dims;
      for (int64_t d : perm) dims.push_back(s.dim(static_cast<int>(d)));
      t = AddNew(comp, before, Opcode::kTranspose, ShapeLike(s, s.element_type(), dims), {x});
      t->set_dimensions(perm);
      CopyMetadataIfMissing(*x, *t);
    }
    std::vector<int64_t> dims;
    for (int64_t d : batch) dims.push_back(s.dim(static_cast<int>(d)));
    const int64_t nb = static_cast<int64_t>(batch.size());
    if (contracting_minor) {
      if (m != 1) dims.push_back(m);
      canonical_contracting.push_back(nb + (m != 1 ? 1 : 0));
      dims.push_back(k);
    } else {
      canonical_contracting.push_back(nb);
      dims.push_back(k);
      if (m != 1) dims.push_back(m);
    }
    if (dims == t->shape().dims()) return t;
    Instruction* r = AddNew(comp, before, Opcode::kReshape, ShapeLike(s, s.element_type(), dims), {t});
    CopyMetadataIfMissing(*t, *r);
    return r;
  }

  void Canonicalize(Computation* comp, Instruction* dot) {
    const DotDnums d = *dot->attrs().dot;
    const size_t nb = d.lhs_batch.size();
    auto dn = std::make_unique<DotDnums>();
    for (size_t i = 0; i < nb; ++i) {
      dn->lhs_batch.push_back(static_cast<int64_t>(i));
      dn->rhs_batch.push_back(static_cast<int64_t>(i));
    }
    Instruction* lhs =
        CanonicalOperand(comp, dot, dot->operand(0), d.lhs_batch, d.lhs_contracting, true, dn->lhs_contracting);
    Instruction* rhs =
        CanonicalOperand(comp, dot, dot->operand(1), d.rhs_batch, d.rhs_contracting, false, dn->rhs_contracting);
    // Result: batch, then lhs's free dimension, then rhs's.
    std::vector<int64_t> dims;
    const Shape& ls = lhs->shape();
    const Shape& rs = rhs->shape();
    for (size_t i = 0; i < nb; ++i) dims.push_back(ls.dim(static_cast<int>(i)));
    for (int64_t i = static_cast<int64_t>(nb); i < ls.rank(); ++i)
      if (i != dn->lhs_contracting[0]) dims.push_back(ls.dim(static_cast<int>(i)));
    for (int64_t i = static_cast<int64_t>(nb); i < rs.rank(); ++i)
      if (i != dn->rhs_contracting[0]) dims.push_back(rs.dim(static_cast<int>(i)));
    const Shape& out = dot->shape();
    const bool same_dims = dims == out.dims();
    Instruction* now =
        AddNew(comp, dot, Opcode::kDot, same_dims ? out : ShapeLike(out, out.element_type(), dims), {lhs, rhs});
    now->attrs().dot = std::move(dn);
    now->attrs().mark(Attr::kDotDims);
    for (const RawAttr& a : dot->raw_attrs())
      if (a.name != "backend_config") now->raw_attrs().push_back(a);
    CopyMetadataIfMissing(*dot, *now);
    Instruction* back = now;
    if (!same_dims) {
      back = AddNew(comp, dot, Opcode::kReshape, out, {now});
      CopyMetadataIfMissing(*dot, *back);
    }
    const std::string name = dot->name();
    ReplaceInstruction(dot, back, mutable_log(), "dot → canonical [batch, M, K]·[batch, K, N] dot");
    // The canonical dot keeps the original's name, so that explain, the
    // GEMM fusion's name and the graph follow it by name through the pass.
    now->set_name(name);
  }
};

}  // namespace

std::unique_ptr<Pass> MakeDotDecomposerPass() { return std::make_unique<DotDecomposerPass>(); }

}  // namespace hloscope
