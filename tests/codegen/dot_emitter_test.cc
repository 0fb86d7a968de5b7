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
  auto e = EmitFor(text, "d", &EmitDotKernel);
  ASSERT_EQ(e.error, "") << e.ir;
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
  EXPECT_EQ(kinds, std::vector<std::string>{"dot"});
}

std::string Dot(const std::string& a, const std::string& b, const std::string& out, const std::string& dn) {
  return "HloModule m\nENTRY e {\n  a = " + a + " parameter(0)\n  b = " + b + " parameter(1)\n  ROOT d = " + out +
         " dot(a, b), " + dn + "\n}\n";
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

}  // namespace
}  // namespace hloscope::codegen
