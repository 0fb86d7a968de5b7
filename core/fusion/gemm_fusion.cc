// `triton-gemm-rewriter`: XLA's GemmFusion. Every dot Triton's GEMM emitter
// takes becomes one kind=kCustom fusion (backend kind __triton_gemm) holding
// the dot with
//  - its prologue: grown from each operand toward the inputs, by XLA's
//    rule (IsInputWorthFusing): an op joins when it adds at most 1 KiB of
//    input traffic (unary ops, converts and broadcasts always — so XLA and
//    we recompute a layer norm's normalization chain per tile up to its
//    reductions —, binary ops only on small tensors), when it is a binary
//    elementwise op with a broadcast parameter or constant as one operand
//    (a layer norm's scale and bias), or when its only user is the dot side
//    and its operands are parameters or constants read by nothing else.
//    Both operands are searched breadth first together, over the operand
//    tree (an op several members read is a candidate once per path); the
//    fusion as a whole takes at most 8 inputs, and a candidate that would
//    exceed that stays an input, decided once — as XLA GPU 0.12's "dot
//    fusion v2" traces it (TF_CPP_VMODULE=gemm_fusion=6). Bitcasts and
//    reshapes take no step.
//  - its epilogue: grown from the dot toward its users while each value has
//    a single elementwise user that does not grow the traffic by more than
//    1 KiB and whose other operands are parameters of the region XLA
//    searches around the dot (a residual computed outside it, e.g. by an
//    earlier GEMM fusion) or broadcasts of parameters or scalars (a bias, a
//    scale) — XLA GPU 0.12's rule (EpilogueRefusal) —, the user's new inputs
//    going through the same search.
// Dots too small for a GEMM kernel ((M + N) × K < 100) and dots Triton does
// not take stay as they are, with the reason. Every decision is logged.
#include <algorithm>
#include <deque>
#include <unordered_set>

#include "core/fusion/fusion_builder.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/fusion/triton_fusibility.h"
#include "core/ir/computation.h"
#include "core/ir/module.h"

namespace hloscope {
namespace {

// XLA's TritonFusionAnalysis::kMaxParameterPerDotOperand.
constexpr int kMaxInputsPerDotOperand = 4;
// XLA's GemmFusion (the search-space version) limits the whole fusion to two
// operands' worth of inputs.
constexpr int kMaxFusionInputs = 2 * kMaxInputsPerDotOperand;

std::string Op(const Instruction& i) { return std::string(OpcodeName(i.opcode())); }

bool IsParamOrConstant(const Instruction& i) {
  return i.opcode() == Opcode::kParameter || i.opcode() == Opcode::kConstant;
}

bool IsBroadcastOfInput(const Instruction& i) {
  return i.opcode() == Opcode::kBroadcast && i.operand_count() == 1 && IsParamOrConstant(*i.operand(0));
}

// Ops Triton's GEMM emitter can apply to tiles of an operand or the result.
bool GemmTileOp(const Instruction& i) {
  if (i.HasSideEffect() || !i.shape().IsArray() || !IsTritonSupportedType(i.shape().element_type())) return false;
  switch (i.opcode()) {
    case Opcode::kBroadcast: case Opcode::kBitcast: case Opcode::kReshape: case Opcode::kTranspose:
    case Opcode::kCopy: case Opcode::kConvert: case Opcode::kConstant: case Opcode::kIota:
      return true;
    case Opcode::kRng: case Opcode::kRngBitGenerator:
      return false;
    default:
      return IsElementwise(i.opcode());
  }
}

// New inputs the fusion gains by taking `x` instead of reading it (XLA's
// NumAddedParameters).
int AddedInputs(const Instruction& x) {
  if (x.opcode() == Opcode::kParameter || (x.opcode() == Opcode::kConstant && x.shape().num_elements() > 1))
    return 0;
  return x.operand_count() - 1;
}

// XLA's IsInputWorthFusing (triton_tiling_propagation.cc): fusing `x` into
// a GEMM operand is worth it when it adds at most 1 KiB of input traffic
// over what it saves (unary ops, broadcasts and converts always; binary ops
// of tensors up to 1 KiB), else only when `x` has a single user and reads
// parameters or constants that nothing else reads (or is a slice that XLA
// would not fuse into its producer).
constexpr int64_t kIoToleranceBytes = 1024;
constexpr int64_t kMaxSliceInputGrowthBytes = int64_t{1} << 20;

bool InputWorthFusing(const Instruction& x) {
  int64_t in = 0;
  for (const Instruction* o : x.operands()) {
    if (!o->shape().IsArray()) return false;
    in += o->shape().byte_size();
  }
  const int64_t growth = in - x.shape().byte_size();
  if (growth <= kIoToleranceBytes) return true;
  if (x.user_count() > 1) return false;
  auto all_inputs = [&](bool single_user) {
    for (const Instruction* o : x.operands())
      if (!IsParamOrConstant(*o) || (single_user && o->user_count() != 1)) return false;
    return true;
  };
  if (x.opcode() == Opcode::kSlice && all_inputs(false)) return true;
  if (x.opcode() == Opcode::kSlice && growth <= kMaxSliceInputGrowthBytes) {
    const Instruction* o = x.operand(0);
    while ((o->opcode() == Opcode::kBitcast || o->opcode() == Opcode::kTranspose ||
            o->opcode() == Opcode::kReshape) && o->user_count() == 1)
      o = o->operand(0);
    bool same_slices = true;
    for (const Instruction* u : o->users())
      same_slices = same_slices && u->opcode() == Opcode::kSlice && u->shape().SameDims(x.shape());
    if (o->user_count() > 1 && !same_slices) return true;
  }
  if (x.opcode() == Opcode::kMultiply) return false;  // XLA: only with subchannel dequantisation on
  return all_inputs(true);
}

// True when `reshape` merges result dimensions of transpose `t` that are not
// adjacent and in order in the transpose's input (dimensions of size 1
// aside): such a merged dimension has no single stride in the input.
bool MergesSeparatedDims(const Instruction& t, const Instruction& reshape) {
  const std::vector<int64_t>& from = t.shape().dims();
  const std::vector<int64_t>& perm = t.dimensions();
  const Shape& input = t.operand(0)->shape();
  if (perm.size() != from.size() || t.shape().num_elements() == 0) return true;
  std::optional<std::vector<ReshapeGroup>> groups = ReshapeDimGroups(from, reshape.shape().dims());
  if (!groups) return true;
  for (const ReshapeGroup& g : *groups) {
    int64_t prev = -1;
    for (size_t k = g.from_begin; k < g.from_end; ++k) {
      if (from[k] == 1) continue;
      if (prev >= 0) {
        if (perm[k] <= prev) return true;
        for (int64_t d = prev + 1; d < perm[k]; ++d)
          if (input.dim(static_cast<int>(d)) != 1) return true;
      }
      prev = perm[k];
    }
  }
  return false;
}

// Why `x` stays an input of the GEMM fusion's operand side ("" = it joins).
std::string PrologueRefusal(const Instruction& x) {
  if (x.opcode() == Opcode::kParameter) return "a parameter";
  if (x.opcode() == Opcode::kConstant) return x.shape().num_elements() > 1 ? "a non-scalar constant" : "";
  if (!GemmTileOp(x)) return Op(x) + " is not an op Triton's GEMM applies to operand tiles";
  // A transpose whose result is then merged by a reshape or bitcast (the
  // attention output [b, s, h, d] → [b, s, h·d] before its projection):
  // the merged dimension is not contiguous in the transpose's input, so
  // Triton's tiling cannot follow it (XLA's dimension-order propagation
  // refuses it, and XLA keeps such transposes as loop fusions).
  // Dimensions that stay adjacent and in order through the transpose (the
  // dot decomposer's [b, s, d] → [d, b, s] → [d, b·s]) merge fine.
  if (x.opcode() == Opcode::kTranspose)
    for (const Instruction* u : x.users())
      if ((u->opcode() == Opcode::kReshape || u->opcode() == Opcode::kBitcast) && u->shape().IsArray() &&
          u->shape().rank() < x.shape().rank() && MergesSeparatedDims(x, *u))
        return "transpose whose dimensions " + u->name() +
               " merges: the merged dimension is not contiguous in its input, which Triton's tiling cannot follow";
  if (x.opcode() == Opcode::kPower && x.user_count() > 1)
    return "power with several users (fusing would duplicate an expensive op)";
  // A binary op with a broadcast parameter or constant (a layer norm's scale
  // and bias) is worth fusing whatever its size.
  if (IsElementwiseBinary(x.opcode()) && x.operand_count() == 2)
    for (const Instruction* o : x.operands())
      if (IsBroadcastOfInput(*o)) return "";
  if (!InputWorthFusing(x))
    return Op(x) + " adds " + std::to_string(x.shape().byte_size()) +
           " B or more of input traffic and reads other ops' results; not obviously profitable to fuse as input";
  return "";
}

// Whether `x` lies outside the region XLA's GemmFusion searches around a dot
// (FusionSearchSpace: ops Triton's GEMM emitter takes, without called
// computations, other than parameters and other dots), so that the search
// sees it as a parameter. Earlier GEMM fusions (a residual add already in
// an epilogue) are outside.
bool OutsideSearchSpace(const Instruction& x, const Instruction& dot) {
  if (&x == &dot) return false;
  return x.opcode() == Opcode::kParameter || x.opcode() == Opcode::kDot || !x.called_computations().empty() ||
         !GemmTileOp(x);
}

// XLA's IsEffectiveParameter within the search space: a boundary seen
// through bitcasts.
bool EffectiveParameter(const Instruction& x, const Instruction& dot) {
  const Instruction* y = &x;
  while ((y->opcode() == Opcode::kBitcast || y->opcode() == Opcode::kReshape) && y->operand_count() == 1 &&
         !OutsideSearchSpace(*y, dot))
    y = y->operand(0);
  return OutsideSearchSpace(*y, dot);
}

// Why `u`, the single user of the epilogue's last op `out`, does not join the
// epilogue ("" = it joins). XLA's GemmFusion (the search-space version,
// ShouldFuseUser): an elementwise op Triton can tile, which must not grow the
// traffic by more than 1 KiB (IsOutputWorthFusing), and whose other operands
// are, in the search space, parameters (a residual add of a tensor computed
// outside it — another fusion, a dynamic-slice — joins) or broadcasts of
// parameters or scalars ("Has multiple inputs - not properly analyzed yet").
// `sunk`: a bitcast lies between the dot and `u`; XLA sinks it below each
// user it takes, wrapping that user's other operands in bitcasts, so a
// broadcast bias there no longer counts as a broadcast.
std::string EpilogueRefusal(const Instruction& u, const Instruction& out, const Instruction& dot, bool sunk) {
  const bool layout = u.opcode() == Opcode::kBitcast || u.opcode() == Opcode::kReshape ||
                      u.opcode() == Opcode::kCopy || u.opcode() == Opcode::kConvert;
  if (!(layout || IsElementwise(u.opcode())) || !GemmTileOp(u) || u.shape().IsTuple() ||
      u.shape().num_elements() != out.shape().num_elements())
    return Op(u) + " is not an elementwise op Triton's GEMM applies to output tiles";
  int64_t in = 0;
  for (const Instruction* o : u.operands()) {
    if (!o->shape().IsArray()) return Op(u) + " reads a tuple";
    in += o->shape().byte_size();
    if (o == &out) continue;
    const bool broadcast = !sunk && o->opcode() == Opcode::kBroadcast && o->operand_count() == 1 &&
                           (o->operand(0)->shape().rank() == 0 || EffectiveParameter(*o->operand(0), dot));
    if (!broadcast && !EffectiveParameter(*o, dot))
      return "its operand " + o->name() + " is computed in the region XLA searches around the dot" +
             (sunk && o->opcode() == Opcode::kBroadcast ? " (a broadcast read through the bitcast XLA sinks below the dot)"
                                                        : "") +
             ", not a parameter of it or a broadcast of one or of a scalar (XLA: \"Has multiple inputs\")";
  }
  const bool root = u.IsRoot() || (u.users().size() == 1 && u.users()[0]->IsRoot() &&
                                   u.users()[0]->opcode() == Opcode::kTuple);
  if (!root && in - u.shape().byte_size() < -kIoToleranceBytes)
    return Op(u) + " grows the output traffic by more than 1 KiB";
  return "";
}

class GemmFusion : public FusionPassBase {
 public:
  std::string_view name() const override { return "triton-gemm-rewriter"; }
  std::string_view description() const override {
    return "XLA's GemmFusion: each dot becomes one kind=kCustom GEMM fusion (__triton_gemm) with its elementwise "
           "prologue (converts, scale and bias of normalized inputs) and epilogue (bias, residual).";
  }

  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      std::vector<Instruction*> dots;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kDot) dots.push_back(i.get());
      for (Instruction* dot : dots) changed |= FuseDot(comp, dot);
      if (changed) comp->SortTopologically();
    }
    return changed;
  }

 private:
  bool FuseDot(Computation* comp, Instruction* dot) {
    std::vector<const Instruction*> users(dot->users().begin(), dot->users().end());
    const Cost alone = KernelCost(*dot, device_);
    if (Refusal r = GemmFusible(*dot); !r.empty()) {
      Decide(*dot, users, FusionVerdict::kNotFused, r, alone, alone);
      return false;
    }
    std::unordered_set<Instruction*> in{dot};
    std::vector<std::string> notes;
    // XLA merges several batch dimensions into one (DotDimensionMerger) late,
    // after its reshape mover: bitcasts then sit between the dot and its
    // operands and users, splitting the merged dimension, and neither the
    // prologue nor the epilogue crosses them (XLA's attention GEMMs over
    // [batch, heads] are pure matmuls).
    const bool merged_batch = dot->attrs().dot && dot->attrs().dot->lhs_batch.size() > 1;
    if (merged_batch)
      notes.push_back("the dot's " + std::to_string(dot->attrs().dot->lhs_batch.size()) +
                      " batch dimensions are merged into one by bitcasts that neither the prologue nor the "
                      "epilogue crosses");
    // Prologue: breadth first from both operands at once (XLA's V2 search
    // starts its queue with the LHS and the RHS). The limit counts the
    // fusion's inputs as a whole. XLA searches the operand tree, not the
    // graph: moving the bitcasts of the dot's operands toward the inputs
    // clones every op that several users read, so an op reached along two
    // paths is two candidates and, until taken, two inputs (a shared
    // broadcast of a constant counts twice until both copies join).
    std::vector<Instruction*> inputs;  // one entry per path an input was reached by
    auto is_input = [&](Instruction* x) { return std::find(inputs.begin(), inputs.end(), x) != inputs.end(); };
    // `from`: the epilogue op `x` is reached from (not an input of it).
    auto take = [&](Instruction* x, std::deque<Instruction*>* queue, const Instruction* from = nullptr) {
      in.insert(x);
      if (auto it = std::find(inputs.begin(), inputs.end(), x); it != inputs.end()) inputs.erase(it);
      std::vector<Instruction*> distinct;
      for (Instruction* o : x->operands())
        if (o != from && std::find(distinct.begin(), distinct.end(), o) == distinct.end()) distinct.push_back(o);
      for (Instruction* o : distinct) {
        inputs.push_back(o);
        if (queue) queue->push_back(o);
      }
    };
    auto note = [&](std::string n) {
      if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(std::move(n));
    };
    // Each candidate is decided once, in breadth-first order (XLA's
    // "dot fusion v2"): one that would take the fusion over the limit stays
    // an input ("Too many parameters"), even if a later one (a scalar
    // constant joining) brings the count down again.
    auto grow = [&](std::deque<Instruction*>& queue) {
      while (!queue.empty()) {
        Instruction* x = queue.front();
        queue.pop_front();
        if (!is_input(x)) continue;
        std::string why = PrologueRefusal(*x);
        if (why.empty() && static_cast<int>(inputs.size()) + AddedInputs(*x) > kMaxFusionInputs)
          why = "taking it would give the fusion more than " + std::to_string(kMaxFusionInputs) + " inputs";
        if (!why.empty()) {
          if (x->opcode() != Opcode::kParameter && x->opcode() != Opcode::kConstant && !in.count(x))
            note(x->name() + " stays an input (" + why + ")");
          continue;
        }
        // XLA moves bitcasts and reshapes toward the fusion's inputs as it
        // goes (HoistBitcast): they take no step of the search, so the op
        // under one is looked at at once.
        const bool layout_only = (x->opcode() == Opcode::kBitcast || x->opcode() == Opcode::kReshape) &&
                                 x->operand_count() == 1;
        take(x, layout_only ? nullptr : &queue);
        if (layout_only) queue.push_front(x->operand(0));
      }
    };
    std::deque<Instruction*> queue;
    for (Instruction* o : dot->operands()) {
      inputs.push_back(o);
      if (!merged_batch) queue.push_back(o);
    }
    grow(queue);
    // Epilogue: a single-user chain from the dot, each user accepted by
    // EpilogueRefusal (a bias, a scale, a residual computed outside the
    // searched region). The user's new inputs then go through the
    // prologue's search (a broadcast bias joins while the input limit
    // allows).
    Instruction* out = dot;
    bool sunk = false;  // a bitcast between the dot and the next user
    while (!merged_batch) {
      if (out->users().size() != 1) {
        if (out->users().size() > 1)
          notes.push_back("the epilogue ends at " + out->name() + ", which has " +
                          std::to_string(out->users().size()) + " users");
        break;
      }
      Instruction* u = out->users()[0];
      std::string why = EpilogueRefusal(*u, *out, *dot, sunk);
      if (!why.empty()) {
        notes.push_back("the epilogue ends before " + u->name() + " (" + why + ")");
        break;
      }
      std::deque<Instruction*> more;
      take(u, &more, out);
      grow(more);
      out = u;
      if (u->opcode() == Opcode::kBitcast || u->opcode() == Opcode::kReshape) sunk = true;
    }
    // Scalar constants read by members join too.
    std::vector<Instruction*> members(in.begin(), in.end());
    for (Instruction* x : members)
      for (Instruction* o : x->operands())
        if (o->opcode() == Opcode::kConstant && o->shape().num_elements() <= 1) in.insert(o);
    members.assign(in.begin(), in.end());
    std::sort(members.begin(), members.end(),
              [&](const Instruction* a, const Instruction* b) { return comp->Precedes(a, b); });
    Cost before;
    for (const Instruction* x : members)
      if (LaunchesKernel(*x)) before += KernelCost(*x, device_);
    const std::string dot_name = dot->name();
    std::vector<std::string> member_names;
    for (const Instruction* x : members)
      if (x != dot && x->opcode() != Opcode::kConstant) member_names.push_back(x->name());
    std::vector<const Instruction*> consumers(out->users().begin(), out->users().end());
    // Build: wrap the last epilogue op (or the dot), then fuse the rest from
    // the users back to the inputs.
    Instruction* fusion = WrapInFusion(out, FusionKind::kCustom);
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
      Instruction* x = *it;
      if (x == out) continue;
      bool operand = std::find(fusion->operands().begin(), fusion->operands().end(), x) != fusion->operands().end();
      if (operand) FuseProducerInto(fusion, x);
    }
    MarkAsTritonFusion(*fusion, kTritonGemmKind);
    Module* m = comp->parent();
    fusion->set_name(m->UniqueName("gemm_fusion_" + dot_name));
    if (Computation* fc = fusion->fused_computation()) fc->set_name(m->UniqueName(fusion->name() + "_computation"));
    fusion->metadata() = FindMetadataSource(*fusion, dot_name);
    const Cost after = KernelCost(*fusion, device_);
    std::string joined;
    for (const auto& n : member_names) joined += (joined.empty() ? "" : ", ") + n;
    std::string reason = "Triton's GEMM emitter takes the dot" +
                         (joined.empty() ? std::string(" alone (a pure matmul)")
                                         : " with its prologue and epilogue: " + joined) +
                         " — one kernel";
    if (!notes.empty()) {
      reason += "; ";
      for (size_t i = 0; i < notes.size(); ++i) reason += (i ? "; " : "") + notes[i];
    }
    size_t record = Decide(*fusion, consumers, FusionVerdict::kFused, reason, before, after);
    mutable_log().decisions[record].producer = dot_name;
    mutable_log().decisions[record].result = fusion->name();
    return true;
  }

  // The dot's metadata (XLA copies it onto the fusion).
  static Metadata FindMetadataSource(const Instruction& fusion, const std::string& dot_name) {
    if (const Computation* fc = fusion.fused_computation())
      for (const auto& i : fc->instructions())
        if (i->opcode() == Opcode::kDot && i->name() == dot_name) return i->metadata();
    return fusion.metadata();
  }
};

}  // namespace

std::unique_ptr<Pass> MakeGemmFusionPass() { return std::make_unique<GemmFusion>(); }

}  // namespace hloscope
