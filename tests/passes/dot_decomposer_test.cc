// dot_decomposer (XLA's DotDecomposer): dots become [batch, M, K]·[batch, K, N]
// through transposes and reshapes; canonical dots stay. RunPass checks each
// result against the interpreter and the verifier.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

const char* kRule = "dot → canonical [batch, M, K]·[batch, K, N] dot";

Instruction* TheDot(const PassRun& r) {
  for (const auto& i : r.module->entry()->instructions())
    if (i->opcode() == Opcode::kDot) return i.get();
  return nullptr;
}

// A [2,8,8]·[8,32] projection becomes [16,8]·[8,32], reshaped back.
TEST(DotDecomposerTest, MergesNonContractingDims) {
  PassRun r = RunPass("dot_decomposer", Module1("  x = f32[2,8,8] parameter(0)\n  w = f32[8,32] parameter(1)\n"
                                                "  ROOT d = f32[2,8,32] dot(x, w), lhs_contracting_dims={2}, "
                                                "rhs_contracting_dims={0}"));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.Applied(kRule));
  EXPECT_EQ(r.root()->opcode(), Opcode::kReshape);
  Instruction* d = TheDot(r);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->shape().dims(), (std::vector<int64_t>{16, 32}));
  EXPECT_EQ(d->operand(0)->shape().dims(), (std::vector<int64_t>{16, 8}));
  EXPECT_EQ(d->operand(1)->opcode(), Opcode::kParameter);  // already canonical: no reshape
  EXPECT_EQ(CountOpcode(*r.module, Opcode::kTranspose), 0);
}

// A weight gradient contracting over [batch, seq] on both sides: the lhs is
// transposed to put its free dimension first, and both are reshaped.
TEST(DotDecomposerTest, TransposesTwoContractingDims) {
  PassRun r = RunPass("dot_decomposer", Module1("  g = f32[2,8,32] parameter(0)\n  x = f32[2,8,8] parameter(1)\n"
                                                "  ROOT d = f32[32,8] dot(g, x), lhs_contracting_dims={0,1}, "
                                                "rhs_contracting_dims={0,1}"));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  Instruction* d = TheDot(r);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d, r.root());  // [32,8] is already the result's shape
  EXPECT_EQ(d->operand(0)->shape().dims(), (std::vector<int64_t>{32, 16}));
  EXPECT_EQ(d->operand(0)->operand(0)->opcode(), Opcode::kTranspose);
  EXPECT_EQ(d->operand(1)->shape().dims(), (std::vector<int64_t>{16, 8}));
  EXPECT_EQ(d->operand(1)->operand(0)->opcode(), Opcode::kParameter);
  EXPECT_EQ(d->attrs().dot->lhs_contracting, (std::vector<int64_t>{1}));
  EXPECT_EQ(d->attrs().dot->rhs_contracting, (std::vector<int64_t>{0}));
}

// Batch dimensions that are not leading move to the front.
TEST(DotDecomposerTest, MovesBatchDimsFirst) {
  PassRun r = RunPass("dot_decomposer", Module1("  a = f32[4,3,5] parameter(0)\n  b = f32[3,5,6] parameter(1)\n"
                                                "  ROOT d = f32[3,4,6] dot(a, b), lhs_batch_dims={1}, "
                                                "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
                                                "rhs_contracting_dims={1}"));
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  Instruction* d = TheDot(r);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->attrs().dot->lhs_batch, (std::vector<int64_t>{0}));
  EXPECT_EQ(d->operand(0)->opcode(), Opcode::kTranspose);
  EXPECT_EQ(d->operand(0)->shape().dims(), (std::vector<int64_t>{3, 4, 5}));
}

// No change: a matrix product, a [K, M] lhs, and leading batch dimensions
// with one free dimension per operand are canonical.
TEST(DotDecomposerTest, CanonicalDotsStay) {
  CheckNoChange(Module1("  a = f32[4,5] parameter(0)\n  b = f32[5,6] parameter(1)\n"
                        "  ROOT d = f32[4,6] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
                "dot_decomposer");
  CheckNoChange(Module1("  a = f32[5,4] parameter(0)\n  b = f32[5,6] parameter(1)\n"
                        "  ROOT d = f32[4,6] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
                "dot_decomposer");
  CheckNoChange(Module1("  a = f32[2,2,8,4] parameter(0)\n  b = f32[2,2,8,4] parameter(1)\n"
                        "  ROOT d = f32[2,2,8,8] dot(a, b), lhs_batch_dims={0,1}, lhs_contracting_dims={3}, "
                        "rhs_batch_dims={0,1}, rhs_contracting_dims={3}"),
                "dot_decomposer");
}

}  // namespace
}  // namespace hloscope::testing
