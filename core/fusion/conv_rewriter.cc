// `conv-rewriter`: convolutions as cuDNN library calls, as XLA GPU's
// ConvRewriter and its layout assignment for convolutions leave them. A
// forward convolution becomes
//   custom-call(input', filter'), custom_call_target="__cudnn$convForward"
// returning (result, u8[0] scratch), and get-tuple-element 0 of it, with its
// operands and result in the layout cuDNN is given:
//   - NHWC (input [batch, spatial…, feature], filter [output feature,
//     spatial…, input feature], result like the input) on Hopper and newer
//     for every type but f64 with at most 2 spatial dimensions, and before
//     Hopper for f16/bf16 2-D convolutions (XLA: HeuristicLayoutAssignment);
//   - NCHW ([batch, feature, spatial…], filter [output, input, spatial…])
//     otherwise.
// An operand whose dimensions are in another order gets a transpose (XLA's
// layout normalization turns the layout change into one; a filter in JAX's
// HWIO becomes a `wrapped_transpose` kernel beside the library call), and a
// transpose after the call restores the result's own order.
//
// Left as our convolution kernels (the decision says why): batch groups
// (XLA first rewrites them as feature groups), lhs (base) dilation and window
// reversal (backward-input patterns and true convolutions, which XLA matches
// as other cuDNN calls or pads first), more than 3 spatial dimensions,
// mixed operand/result types, integer types, empty operands and non-default
// layouts. Backward convolutions are not told apart: XLA calls
// `__cudnn$convBackwardInput`/`Filter` for some of them; here every
// rewritten convolution is the forward call (the same one launch).
//
// cuDNN is not called by this tool: the interpreter computes the call as the
// convolution and codegen implements it with our convolution kernel
// (core/ir/custom_calls.h).
#include "core/fusion/fusibility.h"
#include "core/fusion/fusion_pass_base.h"
#include "core/ir/computation.h"
#include "core/ir/custom_calls.h"
#include "core/ir/module.h"
#include "core/passes/rewrite_helpers.h"

namespace hloscope {
namespace {

// The backend_config XLA writes on a plain cuDNN forward convolution (no
// fused scale, side input or activation; no algorithm chosen yet).
constexpr const char* kBackendConfig =
    "{\"cudnn_conv_backend_config\":{\"activation_mode\":\"kNone\",\"conv_result_scale\":1,"
    "\"leakyrelu_alpha\":0,\"side_input_scale\":0}}";

bool HasDefault(const Shape& s) { return s.IsArray() && HasDefaultLayout(s); }

bool IsIdentity(const std::vector<int64_t>& perm) {
  for (size_t k = 0; k < perm.size(); ++k)
    if (perm[k] != static_cast<int64_t>(k)) return false;
  return true;
}

class ConvRewriter : public FusionPassBase {
 public:
  std::string_view name() const override { return "conv-rewriter"; }
  std::string_view description() const override {
    return "XLA GPU's ConvRewriter: a forward convolution becomes a cuDNN library call (__cudnn$convForward), "
           "its operands transposed to the layout cuDNN is given (NHWC on Hopper).";
  }

  StatusOr<bool> Run(Module& m) override {
    BeginRun();
    bool changed = false;
    for (Computation* comp : FusibleComputations(m)) {
      std::vector<Instruction*> convs;
      for (const auto& i : comp->instructions())
        if (i->opcode() == Opcode::kConvolution) convs.push_back(i.get());
      for (Instruction* c : convs) changed |= Rewrite(comp, c);
    }
    return changed;
  }

 private:
  // Why cuDNN's forward call cannot take `c` as it is ("" when it can).
  std::string Refusal(const Instruction& c) const {
    const ConvDnums* dn = c.attrs().conv.get();
    const Window* w = c.attrs().window.get();
    if (!dn || !w || c.operand_count() != 2) return "no dim_labels or window";
    const Shape& in = c.operand(0)->shape();
    const Shape& k = c.operand(1)->shape();
    const Shape& out = c.shape();
    if (!IsStaticArray(in) || !IsStaticArray(k) || !IsStaticArray(out)) return "not static arrays";
    if (!HasDefault(in) || !HasDefault(k) || !HasDefault(out)) return "operands or result not in the default layout";
    PrimitiveType t = out.element_type();
    if (t != PrimitiveType::kF16 && t != PrimitiveType::kBF16 && t != PrimitiveType::kF32 && t != PrimitiveType::kF64)
      return std::string(PrimitiveTypeName(t)) + " convolution (the rewriter takes f16, bf16, f32, f64)";
    if (in.element_type() != t || k.element_type() != t) return "operand and result types differ";
    size_t ns = dn->input_spatial.size();
    if (ns > 3) return "more than 3 spatial dimensions";
    if (w->dims.size() != ns) return "window and dim_labels disagree";
    if (in.num_elements() == 0 || k.num_elements() == 0) return "an empty operand (cuDNN takes none)";
    if (c.attrs().batch_group_count != 1) return "batch_group_count > 1";
    for (const WindowDim& d : w->dims) {
      if (d.base_dilation != 1) return "lhs (base) dilation: a backward-input pattern";
      if (d.reversal) return "window reversal";
    }
    return "";
  }

  // NHWC (feature minor) or NCHW, as XLA's HeuristicLayoutAssignment picks.
  bool ChooseNhwc(const Instruction& c) const {
    PrimitiveType t = c.shape().element_type();
    size_t ns = c.attrs().conv->input_spatial.size();
    if (device_.sm_version >= 90) return t != PrimitiveType::kF64 && ns <= 2;
    bool half = t == PrimitiveType::kF16 || t == PrimitiveType::kBF16;
    return half && device_.sm_version >= 70 && ns == 2;
  }

  // `x` with its dimensions in `order` (a transpose unless already so).
  Instruction* InOrder(Computation* comp, Instruction* before, Instruction* x, const std::vector<int64_t>& order) {
    if (IsIdentity(order)) return x;
    std::vector<int64_t> dims;
    for (int64_t d : order) dims.push_back(x->shape().dim(static_cast<int>(d)));
    Instruction* t = AddNew(comp, before, Opcode::kTranspose, ShapeLike(x->shape(), x->shape().element_type(), dims), {x});
    t->set_dimensions(order);
    CopyMetadataIfMissing(*x, *t);
    return t;
  }

  bool Rewrite(Computation* comp, Instruction* c) {
    std::vector<const Instruction*> users(c->users().begin(), c->users().end());
    std::string why = Refusal(*c);
    Cost before = KernelCost(*c, device_);
    if (!why.empty()) {
      Decide(*c, users, FusionVerdict::kNotFused, "kept as our convolution kernel, not a cuDNN call: " + why, before,
             before);
      return false;
    }
    const ConvDnums& dn = *c->attrs().conv;
    const int ns = static_cast<int>(dn.input_spatial.size());
    const bool nhwc = ChooseNhwc(*c);
    // The dimension orders cuDNN is given, as lists of the current dims.
    std::vector<int64_t> in_order{dn.input_batch}, k_order{dn.kernel_output_feature}, out_order{dn.output_batch};
    if (!nhwc) {
      in_order.push_back(dn.input_feature);
      k_order.push_back(dn.kernel_input_feature);
      out_order.push_back(dn.output_feature);
    }
    for (int s = 0; s < ns; ++s) {
      in_order.push_back(dn.input_spatial[s]);
      k_order.push_back(dn.kernel_spatial[s]);
      out_order.push_back(dn.output_spatial[s]);
    }
    if (nhwc) {
      in_order.push_back(dn.input_feature);
      k_order.push_back(dn.kernel_input_feature);
      out_order.push_back(dn.output_feature);
    }
    ConvDnums cd;
    const int64_t feature = nhwc ? ns + 1 : 1, first_spatial = nhwc ? 1 : 2;
    cd.input_batch = cd.output_batch = 0;
    cd.input_feature = cd.output_feature = feature;
    cd.kernel_output_feature = 0;
    cd.kernel_input_feature = feature;
    cd.input_spatial.resize(ns);
    cd.kernel_spatial.resize(ns);
    cd.output_spatial.resize(ns);
    for (int s = 0; s < ns; ++s) cd.input_spatial[s] = cd.kernel_spatial[s] = cd.output_spatial[s] = first_spatial + s;

    Instruction* in = InOrder(comp, c, c->operand(0), in_order);
    Instruction* filter = InOrder(comp, c, c->operand(1), k_order);
    std::vector<int64_t> out_dims;
    for (int64_t d : out_order) out_dims.push_back(c->shape().dim(static_cast<int>(d)));
    Shape result = ShapeLike(c->shape(), c->shape().element_type(), out_dims);
    Shape scratch = ShapeLike(c->shape(), PrimitiveType::kU8, {0});
    Instruction* call = AddNew(comp, c, Opcode::kCustomCall, Shape::Tuple({result, scratch}), {in, filter});
    call->set_name(comp->parent() ? comp->parent()->UniqueName("cudnn-conv") : "cudnn-conv");
    Attrs& a = call->attrs();
    a.window = std::make_unique<Window>(*c->attrs().window);
    a.mark(Attr::kWindow);
    a.conv = std::make_unique<ConvDnums>(cd);
    a.mark(Attr::kDimLabels);
    if (c->attrs().feature_group_count != 1) {
      a.feature_group_count = c->attrs().feature_group_count;
      a.mark(Attr::kFeatureGroupCount);
    }
    a.custom_call_target = std::string(kCudnnConvForwardTarget);
    a.mark(Attr::kCustomCallTarget);
    call->raw_attrs().push_back({"backend_config", kBackendConfig});
    CopyMetadataIfMissing(*c, *call);
    // Where the call came from, as XLA's cuDNN calls say it (their op_name
    // names the convolution): kept when the convolution had no op_name.
    if (call->MetadataValue("op_name").empty()) call->metadata().Add("op_name", "\"" + c->name() + "\"");
    Instruction* value = AddNew(comp, c, Opcode::kGetTupleElement, result, {call});
    value->attrs().index = 0;
    value->attrs().mark(Attr::kIndex);
    CopyMetadataIfMissing(*c, *value);
    // Back to the convolution's own dimension order: result dim d is
    // cuDNN's dim p where out_order[p] = d.
    std::vector<int64_t> back(out_order.size());
    for (size_t p = 0; p < out_order.size(); ++p) back[static_cast<size_t>(out_order[p])] = static_cast<int64_t>(p);
    Instruction* now = InOrder(comp, c, value, back);
    const std::string name = c->name();
    ReplaceInstruction(c, now, mutable_log(), "conv-to-cudnn");

    Cost after = KernelCost(*call, device_);
    std::string moved;
    for (Instruction* t : {in, filter, now})
      if (t->opcode() == Opcode::kTranspose) {
        after += KernelCost(*t, device_);
        moved += (moved.empty() ? "" : ", ") + t->name();
      }
    size_t record = Decide(*call, users, FusionVerdict::kNotFused,
                           std::string("convolution → cuDNN library call ") + std::string(kCudnnConvForwardTarget) +
                               " in " + (nhwc ? "NHWC" : "NCHW") + " (XLA: ConvRewriter, HeuristicLayoutAssignment" +
                               (nhwc && device_.sm_version >= 90 ? ": NHWC on Hopper" : "") + ")" +
                               (moved.empty() ? "" : "; transposed to that layout: " + moved) +
                               "; a library call fuses with nothing",
                           before, after);
    mutable_log().decisions[record].producer = name;
    mutable_log().decisions[record].result = call->name();
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeConvRewriterPass() { return std::make_unique<ConvRewriter>(); }

}  // namespace hloscope
