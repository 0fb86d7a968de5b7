// batched_gather_scatter_normalizer (XLA's BatchedGatherScatterNormalizer):
// batching dimensions become iotas concatenated to the indices. RunPass runs
// the verifier and the differential checker (the interpreter before and
// after) on every case.
#include "tests/passes/pass_test_util.h"

namespace hloscope::testing {
namespace {

const char* kAdd = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// JAX's take_along_axis on the last axis, as the train step's log-softmax
// gather: XLA GPU's pass 0009 makes it read concatenate(iota dim 0, iota
// dim 1, indices) with start_index_map={0,1,2}.
TEST(BatchedGatherScatterNormalizer, GatherReadsItsBatchCoordinatesFromIotas) {
  PassRun r = RunPass("batched_gather_scatter_normalizer",
                      Module1("  x = f32[2,8,16] parameter(0)\n  i = s32[2,8,1,1] parameter(1)\n"
                              "  ROOT g = f32[2,8,1] gather(x, i), offset_dims={}, collapsed_slice_dims={2}, "
                              "start_index_map={2}, operand_batching_dims={0,1}, start_indices_batching_dims={0,1}, "
                              "index_vector_dim=3, slice_sizes={1,1,1}"));
  ASSERT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  const Instruction* g = r.root();
  ASSERT_EQ(g->opcode(), Opcode::kGather);
  const GatherDnums& d = *g->attrs().gather;
  EXPECT_TRUE(d.operand_batching_dims.empty());
  EXPECT_TRUE(d.start_indices_batching_dims.empty());
  EXPECT_EQ(d.start_index_map, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(d.collapsed_slice_dims, (std::vector<int64_t>{0, 1, 2}));
  const Instruction* cat = g->operand(1);
  ASSERT_EQ(cat->opcode(), Opcode::kConcatenate);
  EXPECT_EQ(cat->shape().dims(), (std::vector<int64_t>{2, 8, 1, 3}));
  ASSERT_EQ(cat->operand_count(), 3);
  EXPECT_EQ(cat->operand(0)->opcode(), Opcode::kIota);
  EXPECT_EQ(cat->operand(0)->attrs().iota_dimension, 0);
  EXPECT_EQ(cat->operand(1)->attrs().iota_dimension, 1);
}

// Its transpose, a scatter-add with the same batching, and indices whose
// index vector dimension is implicit (made explicit first).
TEST(BatchedGatherScatterNormalizer, ScatterWithImplicitIndexVector) {
  PassRun r = RunPass("batched_gather_scatter_normalizer",
                      Module1("  x = f32[2,8,16] parameter(0)\n  i = s32[2,8] parameter(1)\n"
                              "  u = f32[2,8] parameter(2)\n"
                              "  ROOT s = f32[2,8,16] scatter(x, i, u), update_window_dims={}, "
                              "inserted_window_dims={2}, scatter_dims_to_operand_dims={2}, input_batching_dims={0,1}, "
                              "scatter_indices_batching_dims={0,1}, index_vector_dim=2, to_apply=add",
                              kAdd));
  ASSERT_TRUE(r.changed);
  EXPECT_TRUE(r.evaluable);
  const ScatterDnums& d = *r.root()->attrs().scatter;
  EXPECT_TRUE(d.input_batching_dims.empty());
  EXPECT_EQ(d.scatter_dims_to_operand_dims, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(d.inserted_window_dims, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(d.index_vector_dim, 2);
  EXPECT_EQ(r.root()->operand(1)->shape().dims(), (std::vector<int64_t>{2, 8, 3}));
}

// No change: a gather without batching dimensions, and one whose s8 indices
// an iota could overflow.
TEST(BatchedGatherScatterNormalizer, ClassicGathersAndNarrowIndicesStay) {
  CheckNoChange(Module1("  x = f32[16,8] parameter(0)\n  i = s32[2,8,1] parameter(1)\n"
                        "  ROOT g = f32[2,8,8] gather(x, i), offset_dims={2}, collapsed_slice_dims={0}, "
                        "start_index_map={0}, index_vector_dim=2, slice_sizes={1,8}"),
                "batched_gather_scatter_normalizer");
  CheckNoChange(Module1("  x = f32[2,8,16] parameter(0)\n  i = s8[2,8,1,1] parameter(1)\n"
                        "  ROOT g = f32[2,8,1] gather(x, i), offset_dims={}, collapsed_slice_dims={2}, "
                        "start_index_map={2}, operand_batching_dims={0,1}, start_indices_batching_dims={0,1}, "
                        "index_vector_dim=3, slice_sizes={1,1,1}"),
                "batched_gather_scatter_normalizer");
}

}  // namespace
}  // namespace hloscope::testing
