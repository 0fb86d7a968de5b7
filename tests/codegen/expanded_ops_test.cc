// Ops that `gpu` expands before fusion, as XLA GPU does (ragged-dot,
// scaled-dot, the three batch-norm ops): their kernels, run on the CPU,
// against the interpreter's own reading of the ops in the module as written.
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen::testing {
namespace {

// "" or the first problem: `text` through `gpu` and codegen (PTX checked by
// ptxas where installed), run on random inputs, compared with the original.
std::string GpuKernelsMatchTheOriginal(const std::string& text, int* kernels = nullptr) {
  CodegenOptions opts;
  opts.emit_ptx = !PtxasPath().empty();
  opts.validate = opts.emit_ptx;
  auto compiled = CompileText(text, "test.hlo", "gpu", opts);
  if (!compiled.ok()) return "codegen: " + compiled.status().message();
  if (kernels) *kernels = static_cast<int>(compiled->codegen.kernels.size());
  auto original = ParseHloModule(text, "test.hlo");
  if (!original.ok()) return "parse: " + original.status().message();
  auto inputs = MakeRandomInputs(*(*original)->entry(), 1);
  auto want = EvaluateModule(**original, inputs);
  if (!want.ok()) return "interpreter: " + want.status().message();
  auto got = RunOnCpu(compiled->codegen, inputs);
  if (!got.ok()) return "cpu run: " + got.status().message();
  return runtime::CompareOutputs(compiled->codegen.plan, FlattenTuple(*want), got->outputs, std::nullopt);
}

TEST(ExpandedOps, MixtureOfExpertsRaggedDotForwardAndWeightGradient) {
  EXPECT_EQ(GpuKernelsMatchTheOriginal(R"(HloModule moe
ENTRY e {
  x = bf16[64,32] parameter(0)
  w = bf16[4,32,16] parameter(1)
  g = s32[4] parameter(2)
  dy = bf16[64,16] parameter(3)
  y = bf16[64,16] ragged-dot(x, w, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
  dw = f32[4,32,16] ragged-dot(x, dy, g), lhs_contracting_dims={0}, rhs_contracting_dims={0}, lhs_ragged_dims={0}
  ROOT t = (bf16[64,16], f32[4,32,16]) tuple(y, dw)
})"),
            "");
}

TEST(ExpandedOps, BlockScaledFloat8Dot) {
  EXPECT_EQ(GpuKernelsMatchTheOriginal(R"(HloModule mx
ENTRY e {
  x = f8e4m3fn[16,64] parameter(0)
  y = f8e4m3fn[64,24] parameter(1)
  xs = f8e8m0fnu[16,2] parameter(2)
  ys = f8e8m0fnu[2,24] parameter(3)
  ROOT d = f32[16,24]{0,1} scaled-dot(x, y, xs, ys), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})"),
            "");
}

// TensorFlow's form of a ResNet step: convolution, batch norm training,
// its gradient and the inference form.
TEST(ExpandedOps, ConvolutionWithBatchNormTrainingGradAndInference) {
  int kernels = 0;
  EXPECT_EQ(GpuKernelsMatchTheOriginal(R"(HloModule bn
ENTRY e {
  x = f32[4,8,8,16] parameter(0)
  k = f32[3,3,16,16] parameter(1)
  s = f32[16] parameter(2)
  o = f32[16] parameter(3)
  dy = f32[4,8,8,16] parameter(4)
  c = f32[4,8,8,16] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  b = (f32[4,8,8,16], f32[16], f32[16]) batch-norm-training(c, s, o), epsilon=0.001, feature_index=3
  y = f32[4,8,8,16] get-tuple-element(b), index=0
  m = f32[16] get-tuple-element(b), index=1
  v = f32[16] get-tuple-element(b), index=2
  g = (f32[4,8,8,16], f32[16], f32[16]) batch-norm-grad(c, s, m, v, dy), epsilon=0.001, feature_index=3
  dx = f32[4,8,8,16] get-tuple-element(g), index=0
  ds = f32[16] get-tuple-element(g), index=1
  yi = f32[4,8,8,16] batch-norm-inference(c, s, o, m, v), epsilon=0.001, feature_index=3
  ROOT t = (f32[4,8,8,16], f32[4,8,8,16], f32[16], f32[4,8,8,16]) tuple(y, dx, ds, yi)
})",
                                       &kernels),
            "");
  EXPECT_GT(kernels, 1);
}

}  // namespace
}  // namespace hloscope::codegen::testing
