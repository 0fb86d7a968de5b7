// gather and scatter, with index clamping, out-of-bounds skipping and
// batching dimensions.
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

TEST(EvalGather, EmbeddingRowsClamped) {
  const char* hlo = R"(HloModule t
ENTRY e {
  t = f32[3,2] parameter(0)
  i = s32[4] parameter(1)
  ROOT g = f32[4,2] gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}
})";
  Literal r = MustRun(hlo, {Lit("f32[3,2]", {0, 1, 10, 11, 20, 21}), Lit("s32[4]", {2, 0, 7, -3})});
  EXPECT_EQ(Vals(r), (std::vector<double>{20, 21, 0, 1, 20, 21, 0, 1}));
}

TEST(EvalGather, WindowsWithIndexVector) {
  // Start (row, col) pairs, 2x2 windows kept as offset dims.
  const char* hlo = R"(HloModule t
ENTRY e {
  t = s32[3,3] parameter(0)
  i = s32[2,2] parameter(1)
  ROOT g = s32[2,2,2] gather(t, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,2}
})";
  Literal r = MustRun(hlo, {Lit("s32[3,3]", {0, 1, 2, 3, 4, 5, 6, 7, 8}), Lit("s32[2,2]", {0, 1, 2, 2})});
  // (0,1) -> [[1,2],[4,5]] ; (2,2) clamped to (1,1) -> [[4,5],[7,8]]
  EXPECT_EQ(Ints(r), (std::vector<int64_t>{1, 2, 4, 5, 4, 5, 7, 8}));
}

TEST(EvalGather, BatchingDims) {
  // Per batch b, pick element t[b, i[b]].
  const char* hlo = R"(HloModule t
ENTRY e {
  t = f32[2,3] parameter(0)
  i = s32[2,1] parameter(1)
  ROOT g = f32[2] gather(t, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,1}
})";
  Literal r = MustRun(hlo, {Lit("f32[2,3]", {0, 1, 2, 10, 11, 12}), Lit("s32[2,1]", {2, 1})});
  EXPECT_EQ(Vals(r), (std::vector<double>{2, 11}));
}

TEST(EvalScatter, AddWithDuplicatesAndOutOfBounds) {
  const char* hlo = R"(HloModule t
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  o = f32[3,2] parameter(0)
  i = s32[4] parameter(1)
  u = f32[4,2] parameter(2)
  ROOT s = f32[3,2] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})";
  Literal r = MustRun(hlo, {Lit("f32[3,2]", {0, 0, 0, 0, 0, 0}), Lit("s32[4]", {1, 1, 3, -1}),
                            Lit("f32[4,2]", {1, 2, 10, 20, 100, 200, 1000, 2000})});
  EXPECT_EQ(Vals(r), (std::vector<double>{0, 0, 11, 22, 0, 0}));
}

TEST(EvalScatter, WindowPartlyOutsideIsSkipped) {
  const char* hlo = R"(HloModule t
set {
  a = s32[] parameter(0)
  ROOT b = s32[] parameter(1)
}
ENTRY e {
  o = s32[4] parameter(0)
  i = s32[2,1] parameter(1)
  u = s32[2,2] parameter(2)
  ROOT s = s32[4] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=set
})";
  Literal r = MustRun(hlo, {Lit("s32[4]", {0, 0, 0, 0}), Lit("s32[2,1]", {3, 1}), Lit("s32[2,2]", {5, 6, 7, 8})});
  EXPECT_EQ(Ints(r), (std::vector<int64_t>{0, 7, 8, 0}));
}

TEST(EvalScatter, GeneralCombinerAndBatching) {
  const char* hlo = R"(HloModule t
mulsub {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  two = f32[] constant(2)
  m = f32[] multiply(a, two)
  ROOT s = f32[] subtract(m, b)
}
ENTRY e {
  o = f32[2,3] parameter(0)
  i = s32[2,1] parameter(1)
  u = f32[2] parameter(2)
  ROOT s = f32[2,3] scatter(o, i, u), update_window_dims={}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=mulsub
})";
  Literal r = MustRun(hlo, {Lit("f32[2,3]", {1, 1, 1, 1, 1, 1}), Lit("s32[2,1]", {0, 2}), Lit("f32[2]", {5, 7})});
  EXPECT_EQ(Vals(r), (std::vector<double>{-3, 1, 1, 1, 1, -5}));
}

}  // namespace
}  // namespace hloscope::testing
