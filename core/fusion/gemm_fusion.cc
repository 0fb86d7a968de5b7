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
//    At most 4 inputs per operand (XLA's kMaxParameterPerDotOperand).
//  - its epilogue: grown from the dot toward its users while each value has
//    a single user that is elementwise arithmetic distributive over addition
//    or a bitcast/convert (bias, residual, scaling), taking the other
//    operands (a broadcast bias, the residual) as inputs.
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
    case Opcode::kCopy: case Opcode::kConvert: case Opcode::kConstant:
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
  if (x.opcode() == Opcode::kTranspose)
    for (const Instruction* u : x.users())
      if ((u->opcode() == Opcode::kReshape || u->opcode() == Opcode::kBitcast) && u->shape().IsArray() &&
          u->shape().rank() < x.shape().rank())
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

// One-operand or arithmetic ops XLA's GEMM epilogue takes (distributive over
// the dot's accumulation, or layout-only).
bool EpilogueOpcode(Opcode op) {
  switch (op) {
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kMultiply: case Opcode::kNegate:
    case Opcode::kConvert: case Opcode::kBitcast: case Opcode::kReshape: case Opcode::kCopy:
      return true;
    default:
      return false;
  }
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
    // Prologue, per operand, breadth first from the operand.
    for (int k = 0; k < 2 && !merged_batch; ++k) {
      Instruction* start = dot->operand(k);
      std::unordered_set<Instruction*> inputs{start};
      std::deque<Instruction*> queue{start};
      while (!queue.empty()) {
        Instruction* x = queue.front();
        queue.pop_front();
        if (in.count(x)) continue;
        std::string why = PrologueRefusal(*x);
        if (why.empty() && static_cast<int>(inputs.size()) + AddedInputs(*x) > kMaxInputsPerDotOperand)
          why = "taking it would give operand " + std::to_string(k) + " more than " +
                std::to_string(kMaxInputsPerDotOperand) + " inputs";
        if (!why.empty()) {
          if (x->opcode() != Opcode::kParameter && x->opcode() != Opcode::kConstant)
            notes.push_back(x->name() + " stays an input (" + why + ")");
          continue;
        }
        in.insert(x);
        inputs.erase(x);
        for (Instruction* o : x->operands())
          if (!in.count(o) && inputs.insert(o).second) queue.push_back(o);
      }
    }
    // Epilogue: a single-user chain from the dot.
    Instruction* out = dot;
    while (!merged_batch) {
      if (out->users().size() != 1) {
        if (out->users().size() > 1)
          notes.push_back("the epilogue ends at " + out->name() + ", which has " +
                          std::to_string(out->users().size()) + " users");
        break;
      }
      Instruction* u = out->users()[0];
      if (!EpilogueOpcode(u->opcode()) || !GemmTileOp(*u) || u->shape().IsTuple() ||
          u->shape().num_elements() != out->shape().num_elements()) {
        notes.push_back("the epilogue ends before " + u->name() + " (" + Op(*u) +
                        " is not arithmetic distributive over the dot's sum)");
        break;
      }
      in.insert(u);
      for (Instruction* o : u->operands()) {
        if (in.count(o)) continue;
        if (IsBroadcastOfInput(*o) || (o->opcode() == Opcode::kConstant && o->shape().num_elements() <= 1))
          in.insert(o);
        if (o->opcode() == Opcode::kBroadcast && o->user_count() == 1) in.insert(o);
      }
      out = u;
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
