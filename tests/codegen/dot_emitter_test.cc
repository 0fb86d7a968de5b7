#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

using testing::EmitFor;

TEST(DotEmitter, BatchedDotTilesThroughSharedMemory) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  a = f32[2,3,17,9]{3,2,1,0} parameter(0)
  b = f32[2,3,19,9]{3,2,1,0} parameter(1)
  ROOT d = f32[2,3,17,19]{3,2,1,0} dot(a, b), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={3}
})hlo";
  auto e = EmitFor(text, "d", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "dot");
  EXPECT_EQ(e.kernel.dims.block[0], 256u);
  EXPECT_EQ(e.kernel.dims.grid[0], 2u * 3 * 2 * 2);  // batch × m tiles × n tiles
  EXPECT_NE(e.ir.find("barrier"), std::string::npos);
}

TEST(DotEmitter, Bf16AccumulatesInF32) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  a = bf16[4,32]{1,0} parameter(0)
  b = bf16[32,8]{0,1} parameter(1)
  ROOT d = bf16[4,8]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})hlo";
  // sm_75 has no bf16 mma.sync: the shared-memory FMA path (sm_80+ takes the
  // tensor cores, gemm_fusion_emitter_test.cc).
  auto e = EmitFor(text, "d", &EmitDotKernel, -1, "sm_75");
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "dot");
  EXPECT_NE(e.ir.find("fmul float"), std::string::npos);
  EXPECT_NE(e.ir.find("fptrunc float"), std::string::npos);
}

TEST(DotEmitter, MismatchedContractingSizesAreAnError) {
  std::string text = R"hlo(
HloModule m
ENTRY e {
  a = f32[4,5]{1,0} parameter(0)
  b = f32[6,8]{1,0} parameter(1)
  ROOT d = f32[4,8]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})hlo";
  auto e = EmitFor(text, "d", &EmitDotKernel);
  EXPECT_NE(e.error.find("contracting dimension sizes differ"), std::string::npos) << e.error;
}


// --- executed on the CPU against the interpreter -------------------------

class DotRun : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(DotRun, MatchesTheInterpreterOnTheCpu) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().second, 5, &kinds), "");
  // bf16 operands take the tensor cores (sm_90, RunAndCompare's target).
  const std::string kind = std::string(GetParam().first) == "bf16" ? "gemm-mma" : "dot";
  EXPECT_EQ(kinds, std::vector<std::string>{kind});
}

std::string Dot(const std::string& a, const std::string& b, const std::string& out, const std::string& dn) {
  return testing::DotModule(a, b, out, dn);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, DotRun,
    ::testing::Values(
        std::make_pair("matmul_odd", Dot("f32[33,47]{1,0}", "f32[47,18]{1,0}", "f32[33,18]{1,0}",
                                         "lhs_contracting_dims={1}, rhs_contracting_dims={0}")),
        std::make_pair("batched_nt", Dot("f32[2,3,17,9]{3,2,1,0}", "f32[2,3,19,9]{3,2,1,0}", "f32[2,3,17,19]{3,2,1,0}",
                                         "lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, "
                                         "rhs_contracting_dims={3}")),
        std::make_pair("two_contracting", Dot("f32[2,8,16]{2,1,0}", "f32[2,8,24]{2,1,0}", "f32[16,24]{1,0}",
                                              "lhs_contracting_dims={0,1}, rhs_contracting_dims={0,1}")),
        std::make_pair("layouts", Dot("f32[20,40]{0,1}", "f32[40,12]{0,1}", "f32[20,12]{0,1}",
                                      "lhs_contracting_dims={1}, rhs_contracting_dims={0}")),
        std::make_pair("bf16", Dot("bf16[4,32]{1,0}", "bf16[32,8]{1,0}", "bf16[4,8]{1,0}",
                                   "lhs_contracting_dims={1}, rhs_contracting_dims={0}")),
        std::make_pair("s32", Dot("s32[5,7]{1,0}", "s32[7,3]{1,0}", "s32[5,3]{1,0}",
                                  "lhs_contracting_dims={1}, rhs_contracting_dims={0}")),
        std::make_pair("vector", Dot("f32[70]{0}", "f32[70,3]{1,0}", "f32[3]{0}",
                                     "lhs_contracting_dims={0}, rhs_contracting_dims={0}"))),
    [](const auto& i) { return std::string(i.param.first); });

// f32 GEMMs of at least 64×64 take the register-blocked kernel (4×4 outputs
// a thread): the same per-output order of multiply-adds, so results equal the
// interpreter's exactly; partial tiles, transposed, batched and column-major
// operands, and an epilogue.
class BlockedDotRun : public ::testing::TestWithParam<std::pair<const char*, std::string>> {};

TEST_P(BlockedDotRun, MatchesTheInterpreterExactlyOnTheCpu) {
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(GetParam().second, 6, &kinds, "sm_90", Tolerance{}), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"dot-blocked"});
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BlockedDotRun,
    ::testing::Values(
        std::make_pair("full_tiles", Dot("f32[128,48]{1,0}", "f32[48,64]{1,0}", "f32[128,64]{1,0}",
                                         "lhs_contracting_dims={1}, rhs_contracting_dims={0}")),
        std::make_pair("partial_tiles_odd_k", Dot("f32[70,37]{1,0}", "f32[37,130]{1,0}", "f32[70,130]{1,0}",
                                                  "lhs_contracting_dims={1}, rhs_contracting_dims={0}")),
        std::make_pair("batched_nt_column_major",
                       Dot("f32[2,65,20]{1,2,0}", "f32[2,66,20]{2,1,0}", "f32[2,65,66]{1,2,0}",
                           "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}")),
        std::make_pair("transposed_lhs", Dot("f32[24,96]{1,0}", "f32[24,72]{1,0}", "f32[96,72]{1,0}",
                                             "lhs_contracting_dims={0}, rhs_contracting_dims={0}"))),
    [](const auto& i) { return std::string(i.param.first); });

TEST(DotEmitter, BlockedKernelAppliesTheEpilogue) {
  std::string text = R"hlo(
HloModule m
fused {
  x = f32[80,40]{1,0} parameter(0)
  w = f32[40,96]{1,0} parameter(1)
  bias = f32[96]{0} parameter(2)
  d = f32[80,96]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[80,96]{1,0} broadcast(bias), dimensions={1}
  a = f32[80,96]{1,0} add(d, bb)
  ROOT t = f32[80,96]{1,0} tanh(a)
}
ENTRY main {
  x = f32[80,40]{1,0} parameter(0)
  w = f32[40,96]{1,0} parameter(1)
  b = f32[96]{0} parameter(2)
  ROOT f = f32[80,96]{1,0} fusion(x, w, b), kind=kCustom, calls=fused,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
})hlo";
  auto e = EmitFor(text, "f", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "dot-blocked");
  EXPECT_EQ(e.kernel.dims.grid[0], 2u * 2);  // m tiles × n tiles of 64
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 11, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"dot-blocked"});
}

// GEMM fusions as XLA GPU forms them (kind=kCustom, __triton_gemm): the
// prologue generated in the operand loads, the epilogue applied at the store.
TEST(DotEmitter, GemmFusionWithPrologueAndEpilogue) {
  std::string text = R"hlo(
HloModule m
fused {
  x = bf16[37,70]{1,0} parameter(0)
  w = bf16[70,45]{1,0} parameter(1)
  g = f32[70]{0} parameter(2)
  bias = f32[45]{0} parameter(3)
  res = f32[37,45]{1,0} parameter(4)
  xf = f32[37,70]{1,0} convert(x)
  gb = f32[37,70]{1,0} broadcast(g), dimensions={1}
  xs = f32[37,70]{1,0} multiply(xf, gb)
  wf = f32[70,45]{1,0} convert(w)
  d = f32[37,45]{1,0} dot(xs, wf), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[37,45]{1,0} broadcast(bias), dimensions={1}
  a = f32[37,45]{1,0} add(bb, d)
  t = f32[37,45]{1,0} tanh(a)
  r = f32[37,45]{1,0} add(t, res)
  ROOT o = bf16[37,45]{1,0} convert(r)
}
ENTRY main {
  x = bf16[37,70]{1,0} parameter(0)
  w = bf16[70,45]{1,0} parameter(1)
  g = f32[70]{0} parameter(2)
  b = f32[45]{0} parameter(3)
  res = f32[37,45]{1,0} parameter(4)
  ROOT f = bf16[37,45]{1,0} fusion(x, w, g, b, res), kind=kCustom, calls=fused,
    backend_config={"fusion_backend_config":{"kind":"__triton_gemm"}}
})hlo";
  auto e = EmitFor(text, "f", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
  EXPECT_EQ(e.kernel.kind, "dot");
  EXPECT_NE(e.ir.find("tanh"), std::string::npos);
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 9, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"dot"});
}

TEST(DotEmitter, EpilogueThroughABitcastAndATranspose) {
  // A batched dot whose result is bitcast to merge its batch dims and then
  // transposed: each element is stored where the chain moves it.
  std::string text = R"hlo(
HloModule m
fused {
  a = f32[2,3,17,9]{3,2,1,0} parameter(0)
  b = f32[2,3,9,19]{3,2,1,0} parameter(1)
  d = f32[2,3,17,19]{3,2,1,0} dot(a, b), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, rhs_batch_dims={0,1}, rhs_contracting_dims={2}
  bc = f32[6,17,19]{2,1,0} bitcast(d)
  n = f32[6,17,19]{2,1,0} negate(bc)
  ROOT t = f32[19,6,17]{2,1,0} transpose(n), dimensions={2,0,1}
}
ENTRY main {
  a = f32[2,3,17,9]{3,2,1,0} parameter(0)
  b = f32[2,3,9,19]{3,2,1,0} parameter(1)
  ROOT f = f32[19,6,17]{2,1,0} fusion(a, b), kind=kOutput, calls=fused
})hlo";
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 10, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"dot"});
}

TEST(DotEmitter, ADotReadTwiceIsNoEpilogue) {
  // The dot feeds two ops: the root's element needs more than its own dot
  // element, so the dot emitter refuses and the elemental fallback runs it.
  std::string text = R"hlo(
HloModule m
fused {
  a = f32[8,40]{1,0} parameter(0)
  b = f32[40,8]{1,0} parameter(1)
  d = f32[8,8]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[8,8]{1,0} transpose(d), dimensions={1,0}
  ROOT s = f32[8,8]{1,0} add(d, t)
}
ENTRY main {
  a = f32[8,40]{1,0} parameter(0)
  b = f32[40,8]{1,0} parameter(1)
  ROOT f = f32[8,8]{1,0} fusion(a, b), kind=kOutput, calls=fused
})hlo";
  auto e = EmitFor(text, "f", &EmitDotKernel);
  EXPECT_NE(e.error.find("%d has several users (not a GEMM epilogue)"), std::string::npos) << e.error;
  std::vector<std::string> kinds;
  EXPECT_EQ(testing::RunAndCompare(text, 11, &kinds), "");
  EXPECT_EQ(kinds, std::vector<std::string>{"elemental"});
}

}  // namespace
}  // namespace hloscope::codegen
