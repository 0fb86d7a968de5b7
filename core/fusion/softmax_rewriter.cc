// `triton-softmax-rewriter`: XLA's SoftmaxRewriterTriton. It finds
// normalization "diamonds" — a value P read twice, once through a row
// reduction (the last dimension) whose result is broadcast back along the
// row, once directly, the two meeting in one binary elementwise op:
//
//        P ──────────────┐
//        │               │
//   (trivial ops)   (trivial ops)
//        │               │
//      reduce            │
//        │               │
//   (trivial ops)        │
//        │               │
//    broadcast           │
//         \             /
//          root (x − max, exp / sum, x − mean, d × rsqrt(var))
//
// and makes each one kind=kCustom fusion (backend kind __triton, named
// triton_softmax) that computes a row per tile. "Trivial" ops are those
// XLA calls trivially fusible: a single user, and a bitcast keeping rows, a
// one-operand elementwise op, a binary one of a value with itself (x²), or
// one whose other operand is a splat constant. A softmax is two diamonds,
// a layer norm two (mean and variance); priority fusion later joins the
// neighbouring diamonds and their elementwise producers and consumers into
// one Triton kernel.
#include <algorithm>
#include <optional>
#include <unordered_set>

#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/triton_fusibility.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"

namespace hloscope {
namespace {

bool IsSplat(const Instruction& i) {
  if (i.opcode() == Opcode::kConstant) return i.shape().IsArray() && i.shape().num_elements() <= 1;
  return i.opcode() == Opcode::kBroadcast && i.operand_count() == 1 && i.operand(0)->opcode() == Opcode::kConstant &&
         i.operand(0)->shape().IsArray() && i.operand(0)->shape().num_elements() <= 1;
}

bool SupportedValue(const Instruction& i) {
  return i.shape().IsArray() && IsTritonSupportedType(i.shape().element_type()) && HasDefaultLayout(i.shape()) &&
         !i.HasSideEffect();
}

// XLA's IsTriviallyFusible with one allowed user.
bool TriviallyFusible(const Instruction& i) {
  if (i.user_count() > 1 || !SupportedValue(i)) return false;
  if (i.opcode() == Opcode::kBitcast || i.opcode() == Opcode::kReshape) {
    const Shape& o = i.operand(0)->shape();
    return o.rank() > 0 && i.shape().rank() > 0 && o.dim(o.rank() - 1) == i.shape().dim(i.shape().rank() - 1);
  }
  if (IsElementwise(i.opcode()) && i.operand_count() == 1) return i.opcode() != Opcode::kRng;
  if (IsElementwiseBinary(i.opcode()) && i.operand_count() == 2) {
    if (i.operand(0) == i.operand(1)) return true;
    return IsSplat(*i.operand(0)) != IsSplat(*i.operand(1));
  }
  return false;
}

// The operand that carries the data through a trivially fusible op (the
// non-splat one of a binary op).
Instruction* DataOperand(Instruction* i) {
  if (i->operand_count() == 2 && IsSplat(*i->operand(0)) && !IsSplat(*i->operand(1))) return i->operand(1);
  return i->operand(0);
}

struct Diamond {
  Instruction* root = nullptr;
  Instruction* producer = nullptr;
  Instruction* reduce = nullptr;
  std::vector<Instruction*> members;  // everything fused, the root included
};

class SoftmaxRewriter : public FusionPassBase {
 public:
  std::string_view name() const override { return "triton-softmax-rewriter"; }
  std::string_view description() const override {
    return "XLA's SoftmaxRewriterTriton: each normalization diamond (a row reduction broadcast back and combined "
           "with its input: softmax, layer norm, RMSNorm) becomes a kind=kCustom Triton fusion (triton_softmax).";
  }

  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      std::vector<Instruction*> order;
      for (const auto& i : comp->instructions()) order.push_back(i.get());
      std::unordered_set<Instruction*> gone;
      bool here = false;
      for (Instruction* root : order) {
        if (gone.count(root)) continue;
        std::string why;
        std::optional<Diamond> d = Match(root, &why);
        if (!d) {
          if (!why.empty() && root->opcode() == Opcode::kReduce) {
            std::vector<const Instruction*> users(root->users().begin(), root->users().end());
            Cost c = KernelCost(*root, device_);
            Decide(*root, users, FusionVerdict::kNotFused, why, c, c);
          }
          continue;
        }
        for (Instruction* x : d->members) gone.insert(x);
        Build(comp, *d);
        here = true;
      }
      if (here) comp->SortTopologically();
      changed |= here;
    }
    return changed;
  }

 private:
  // Matches a diamond rooted at `root`. For a reduce that turns out not to
  // be in any diamond, `why` (set when `root` is such a reduce) says why.
  std::optional<Diamond> Match(Instruction* root, std::string* why) {
    if (root->opcode() == Opcode::kReduce) {
      *why = ReduceRefusal(*root);
      if (why->empty())
        *why = "the row reduction is not part of a normalization diamond (its result is not broadcast back and "
               "combined with its own input); it stays a reduction kernel";
      return std::nullopt;
    }
    if (!IsElementwiseBinary(root->opcode()) || root->operand_count() != 2 || !SupportedValue(*root) ||
        root->shape().rank() < 1)
      return std::nullopt;
    for (int side : {1, 0}) {
      if (side == 0 && !IsCommutative(root->opcode())) break;
      if (auto d = MatchSide(root, side)) return d;
    }
    return std::nullopt;
  }

  static std::string ReduceRefusal(const Instruction& r) {
    if (r.operand_count() != 2 || r.shape().IsTuple()) return "a variadic reduce is not a Triton row reduction";
    const Shape& in = r.operand(0)->shape();
    if (in.rank() < 1 || r.dimensions().size() != 1 || r.dimensions()[0] != in.rank() - 1)
      return "the reduce is not a row reduction (of the last dimension only); Triton's normalization fusion "
             "tiles rows";
    if (!HasDefaultLayout(in)) return "the reduce's input has a non-default layout";
    if (!IsTritonSupportedType(in.element_type()))
      return "Triton's emitter does not take " + std::string(PrimitiveTypeName(in.element_type())) + " values";
    if (r.operand(1)->opcode() != Opcode::kConstant) return "the reduce's initial value is not a constant";
    return "";
  }

  std::optional<Diamond> MatchSide(Instruction* root, int side) {
    Diamond d;
    d.root = root;
    std::vector<Instruction*> chain;
    // From the root's reduction side up to the broadcast.
    Instruction* x = root->operand(side);
    while (x->opcode() != Opcode::kBroadcast) {
      if (!TriviallyFusible(*x)) return std::nullopt;
      chain.push_back(x);
      x = DataOperand(x);
    }
    Instruction* bcast = x;
    if (bcast->user_count() != 1 || !SupportedValue(*bcast)) return std::nullopt;
    chain.push_back(bcast);
    // The broadcast adds exactly the last dimension.
    const Shape& out = bcast->shape();
    const Shape& small = bcast->operand(0)->shape();
    if (small.rank() != out.rank() - 1) return std::nullopt;
    for (int k = 0; k < small.rank(); ++k)
      if (bcast->dimensions()[static_cast<size_t>(k)] != k || small.dim(k) != out.dim(k)) return std::nullopt;
    x = bcast->operand(0);
    while (x->opcode() != Opcode::kReduce) {
      if (!TriviallyFusible(*x)) return std::nullopt;
      chain.push_back(x);
      x = DataOperand(x);
    }
    Instruction* reduce = x;
    if (reduce->user_count() != 1 || !ReduceRefusal(*reduce).empty()) return std::nullopt;
    if (!reduce->operand(0)->shape().SameDims(out)) return std::nullopt;
    chain.push_back(reduce);
    chain.push_back(reduce->operand(1));  // the init constant (scalar)
    // The producer: up from the reduce's input through trivial ops.
    x = reduce->operand(0);
    while (TriviallyFusible(*x)) {
      chain.push_back(x);
      x = DataOperand(x);
    }
    Instruction* producer = x;
    // The root's other side reaches the producer through trivial ops too.
    Instruction* y = root->operand(1 - side);
    while (y != producer) {
      if (!TriviallyFusible(*y)) return std::nullopt;
      chain.push_back(y);
      y = DataOperand(y);
    }
    d.producer = producer;
    d.reduce = reduce;
    chain.push_back(root);
    // Splat operands of the chain ops join too.
    std::unordered_set<Instruction*> in(chain.begin(), chain.end());
    for (Instruction* c : std::vector<Instruction*>(chain)) {
      for (Instruction* o : c->operands()) {
        if (in.count(o) || !IsSplat(*o)) continue;
        in.insert(o);
        if (o->opcode() == Opcode::kBroadcast) in.insert(o->operand(0));
      }
    }
    // A Triton fusion has one output: everything but the root must be used
    // only inside (splat constants may be shared: they are duplicated).
    for (Instruction* m : in) {
      if (m == root || IsSplat(*m) || (m->opcode() == Opcode::kConstant)) continue;
      for (Instruction* u : m->users())
        if (!in.count(u)) return std::nullopt;
    }
    d.members.assign(in.begin(), in.end());
    return d;
  }

  void Build(Computation* comp, Diamond& d) {
    std::sort(d.members.begin(), d.members.end(),
              [&](const Instruction* a, const Instruction* b) { return comp->Precedes(a, b); });
    Cost before;
    std::string names;
    for (const Instruction* x : d.members) {
      if (LaunchesKernel(*x)) before += KernelCost(*x, device_);
      if (x->opcode() != Opcode::kConstant && !IsSplat(*x)) names += (names.empty() ? "" : ", ") + x->name();
    }
    const std::string producer = d.producer->name();
    const std::string reduce = d.reduce->name();
    std::vector<const Instruction*> consumers(d.root->users().begin(), d.root->users().end());
    Instruction* fusion = WrapInFusion(d.root, FusionKind::kCustom);
    for (auto it = d.members.rbegin(); it != d.members.rend(); ++it) {
      Instruction* x = *it;
      if (x == d.root) continue;
      if (std::find(fusion->operands().begin(), fusion->operands().end(), x) != fusion->operands().end())
        FuseProducerInto(fusion, x);
    }
    MarkAsTritonFusion(*fusion, kTritonKind);
    Module* m = comp->parent();
    fusion->set_name(m->UniqueName("triton_softmax"));
    if (Computation* fc = fusion->fused_computation())
      fc->set_name(m->UniqueName("triton_softmax_computation"));
    const Cost after = KernelCost(*fusion, device_);
    size_t record = Decide(*fusion, consumers, FusionVerdict::kFused,
                           "normalization diamond: " + producer + " is read by the row reduction " + reduce +
                               ", whose result is broadcast back along the row and combined with it; Triton "
                               "computes it a row per tile in one kernel (" + names + ")",
                           before, after);
    mutable_log().decisions[record].producer = reduce;
    mutable_log().decisions[record].result = fusion->name();
  }
};

}  // namespace

std::unique_ptr<Pass> MakeSoftmaxRewriterPass() { return std::make_unique<SoftmaxRewriter>(); }

}  // namespace hloscope
