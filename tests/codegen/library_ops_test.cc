// The ops XLA GPU hands to libraries or special emitters, as our kernels:
// topk, select-and-scatter, cholesky and fft, each run on the CPU (the same
// LLVM IR that becomes PTX, checked by ptxas when installed) and compared
// with the interpreter on random inputs.
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

struct Case {
  const char* name;
  const char* kind;
  std::string hlo;
};

class LibraryOps : public ::testing::TestWithParam<Case> {};

TEST_P(LibraryOps, MatchTheInterpreterOnTheCpu) {
  for (uint64_t seed : {1, 7}) {
    std::vector<std::string> kinds;
    EXPECT_EQ(testing::RunAndCompare(GetParam().hlo, seed, &kinds), "") << "seed " << seed;
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), GetParam().kind), kinds.end())
        << "no " << GetParam().kind << " kernel";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ops, LibraryOps,
    ::testing::Values(
        Case{"topk_f32_largest", "topk", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,300]{1,0} parameter(0)
  ROOT t = (f32[3,7]{1,0}, s32[3,7]{1,0}) topk(x), k=7, largest=true
})hlo"},
        Case{"topk_bf16_ties_smallest_col_major", "topk", R"hlo(
HloModule m
ENTRY e {
  x = bf16[4,2,33]{0,2,1} parameter(0)
  r = bf16[4,2,33]{0,2,1} round-nearest-even(x)
  ROOT t = (bf16[4,2,5]{2,1,0}, s32[4,2,5]{2,1,0}) topk(r), k=5, largest=false
})hlo"},
        Case{"topk_custom_call_of_xla_cpu", "topk", R"hlo(
HloModule m
gt {
  a = f32[] parameter(0)  b = f32[] parameter(1)  c = s32[] parameter(2)  d = s32[] parameter(3)
  ROOT g = pred[] compare(a, b), direction=GT
}
ENTRY e {
  x = f32[6,40]{1,0} parameter(0)
  ROOT t = (f32[6,3]{1,0}, s32[6,3]{1,0}) custom-call(x), custom_call_target="TopK", called_computations={gt}, backend_config={is_stable = true, order = "TOTAL"}
})hlo"},
        Case{"topk_s32_all", "topk", R"hlo(
HloModule m
ENTRY e {
  x = s32[2,9]{1,0} parameter(0)
  ROOT t = (s32[2,9]{1,0}, s32[2,9]{1,0}) topk(x), k=9, largest=true
})hlo"},
        Case{"select_and_scatter_max_pool_grad", "select-and-scatter", R"hlo(
HloModule m
ge { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=GE }
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[2,9,7,3]{3,2,1,0} parameter(0)
  g = f32[2,5,4,3]{3,2,1,0} parameter(1)
  z = f32[] constant(0)
  ROOT s = f32[2,9,7,3]{3,2,1,0} select-and-scatter(x, g, z), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, select=ge, scatter=add
})hlo"},
        Case{"select_and_scatter_min_dilated", "select-and-scatter", R"hlo(
HloModule m
le { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=LE }
mul { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT s = s32[] multiply(a, b) }
ENTRY e {
  x = s32[11,6]{0,1} parameter(0)
  g = s32[3,3]{1,0} parameter(1)
  one = s32[] constant(1)
  ROOT s = s32[11,6]{0,1} select-and-scatter(x, g, one), window={size=3x2 stride=3x2 rhs_dilate=2x1 pad=1_0x0_0}, select=le, scatter=mul
})hlo"},
        Case{"cholesky_f32_lower_batched", "cholesky", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,6,6]{2,1,0} parameter(0)
  a = f32[3,6,6]{2,1,0} dot(x, x), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
  i0 = s32[6,6] iota(), iota_dimension=0
  i1 = s32[6,6] iota(), iota_dimension=1
  eq = pred[6,6] compare(i0, i1), direction=EQ
  six = f32[] constant(6)
  zero = f32[] constant(0)
  sixes = f32[6,6] broadcast(six), dimensions={}
  zeros = f32[6,6] broadcast(zero), dimensions={}
  d = f32[6,6] select(eq, sixes, zeros)
  db = f32[3,6,6] broadcast(d), dimensions={1,2}
  spd = f32[3,6,6]{2,1,0} add(a, db)
  ROOT c = f32[3,6,6]{2,1,0} cholesky(spd), lower=true
})hlo"},
        Case{"cholesky_f64_upper", "cholesky", R"hlo(
HloModule m
ENTRY e {
  x = f64[5,5]{1,0} parameter(0)
  a = f64[5,5]{1,0} dot(x, x), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT c = f64[5,5]{1,0} cholesky(a), lower=false
})hlo"},
        Case{"cholesky_c64_not_positive_definite_is_nan", "cholesky", R"hlo(
HloModule m
ENTRY e {
  x = c64[2,4,4]{2,1,0} parameter(0)
  ROOT c = c64[2,4,4]{2,1,0} cholesky(x), lower=true
})hlo"},
        Case{"scatter_s8_add_repeated_indices", "scatter", R"hlo(
HloModule m
add { a = s8[] parameter(0)  b = s8[] parameter(1)  ROOT s = s8[] add(a, b) }
ENTRY e {
  x = s8[7,5]{1,0} parameter(0)
  i = s32[40,1]{1,0} parameter(1)
  seven = s32[] constant(7)
  sevens = s32[40,1]{1,0} broadcast(seven), dimensions={}
  ix = s32[40,1]{1,0} remainder(i, sevens)
  u = s8[40,5]{1,0} parameter(2)
  ROOT s = s8[7,5]{1,0} scatter(x, ix, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
})hlo"},
        Case{"scatter_f16_bf16_pred_and_c64_in_one_module", "scatter", R"hlo(
HloModule m
addh { a = f16[] parameter(0)  b = f16[] parameter(1)  ROOT s = f16[] add(a, b) }
maxb { a = bf16[] parameter(0)  b = bf16[] parameter(1)  ROOT s = bf16[] maximum(a, b) }
orp { a = pred[] parameter(0)  b = pred[] parameter(1)  ROOT s = pred[] or(a, b) }
mulc { a = c64[] parameter(0)  b = c64[] parameter(1)  ROOT s = c64[] multiply(a, b) }
ENTRY e {
  i = s32[30,1]{1,0} parameter(0)
  three = s32[] constant(3)
  threes = s32[30,1]{1,0} broadcast(three), dimensions={}
  ix = s32[30,1]{1,0} remainder(i, threes)
  h = f16[3]{0} parameter(1)
  hu = f16[30]{0} parameter(2)
  sh = f16[3]{0} scatter(h, ix, hu), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=addh
  g = bf16[3]{0} parameter(3)
  gu = bf16[30]{0} parameter(4)
  sg = bf16[3]{0} scatter(g, ix, gu), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=maxb
  p = pred[3]{0} parameter(5)
  pu = pred[30]{0} parameter(6)
  sp = pred[3]{0} scatter(p, ix, pu), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=orp
  c = c64[3]{0} parameter(7)
  cu = c64[30]{0} parameter(8)
  sc = c64[3]{0} scatter(c, ix, cu), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=mulc
  ROOT t = (f16[3]{0}, bf16[3]{0}, pred[3]{0}, c64[3]{0}) tuple(sh, sg, sp, sc)
})hlo"},
        Case{"scatter_take_the_update_applies_in_order", "scatter", R"hlo(
HloModule m
second { a = s16[] parameter(0)  ROOT b = s16[] parameter(1) }
ENTRY e {
  x = s16[4,3]{0,1} parameter(0)
  i = s32[25]{0} parameter(1)
  four = s32[] constant(4)
  fours = s32[25]{0} broadcast(four), dimensions={}
  ix = s32[25]{0} remainder(i, fours)
  u = s16[25,3]{0,1} parameter(2)
  ROOT s = s16[4,3]{0,1} scatter(x, ix, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=second
})hlo"},
        Case{"scatter_variadic_argmax_repeated_indices", "scatter", R"hlo(
HloModule m
argmax {
  v0 = f32[] parameter(0)  i0 = s32[] parameter(1)  v1 = f32[] parameter(2)  i1 = s32[] parameter(3)
  gt = pred[] compare(v1, v0), direction=GT
  v = f32[] select(gt, v1, v0)
  i = s32[] select(gt, i1, i0)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[5]{0} parameter(0)
  xi = s32[5]{0} parameter(1)
  i = s32[17,1]{1,0} parameter(2)
  five = s32[] constant(5)
  fives = s32[17,1]{1,0} broadcast(five), dimensions={}
  ix = s32[17,1]{1,0} remainder(i, fives)
  u = f32[17]{0} parameter(3)
  ui = s32[17]{0} iota(), iota_dimension=0
  ROOT s = (f32[5]{0}, s32[5]{0}) scatter(x, xi, ix, u, ui), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=argmax
})hlo"},
        Case{"reduce_under_ops_elementally", "elemental", R"hlo(
HloModule m
mx { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT m = f32[] maximum(a, b) }
f {
  p = f32[6,5,33]{2,1,0} parameter(0)
  z = f32[] constant(-inf)
  r = f32[6,5]{1,0} reduce(p, z), dimensions={2}, to_apply=mx
  s = f32[6,5]{1,0} sqrt(r)
  b = f32[6,5,33]{2,1,0} broadcast(s), dimensions={0,1}
  ROOT sl = f32[6,5,20]{2,1,0} slice(b), slice={[0:6], [0:5], [0:20]}
}
ENTRY e {
  x = f32[6,5,33]{2,1,0} parameter(0)
  ROOT fu = f32[6,5,20]{2,1,0} fusion(x), kind=kCustom, calls=f
})hlo"},
        Case{"dot_squared_in_the_epilogue", "gemm-mma", R"hlo(
HloModule m
f {
  p0 = bf16[2,4,8]{2,1,0} parameter(0)
  p1 = bf16[2,8,3]{1,2,0} parameter(1)
  d = f32[2,4,3]{2,1,0} dot(p0, p1), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  ROOT m = f32[2,4,3]{2,1,0} multiply(d, d)
}
ENTRY e {
  a = bf16[2,4,8]{2,1,0} parameter(0)
  b = bf16[2,8,3]{1,2,0} parameter(1)
  ROOT fu = f32[2,4,3]{2,1,0} fusion(a, b), kind=kCustom, calls=f
})hlo"},
        Case{"triangular_solve_left_lower", "triangular-solve", R"hlo(
HloModule m
ENTRY e {
  x = f32[2,5,5]{2,1,0} parameter(0)
  i0 = s32[5,5] iota(), iota_dimension=0
  i1 = s32[5,5] iota(), iota_dimension=1
  eq = pred[5,5] compare(i0, i1), direction=EQ
  four = f32[] constant(4)
  zero = f32[] constant(0)
  fours = f32[5,5] broadcast(four), dimensions={}
  zeros = f32[5,5] broadcast(zero), dimensions={}
  d = f32[5,5] select(eq, fours, zeros)
  db = f32[2,5,5] broadcast(d), dimensions={1,2}
  a = f32[2,5,5]{2,1,0} add(x, db)
  b = f32[2,5,3]{2,1,0} parameter(1)
  ROOT t = f32[2,5,3]{2,1,0} triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE
})hlo"},
        Case{"triangular_solve_right_upper_transposed_unit", "triangular-solve", R"hlo(
HloModule m
ENTRY e {
  a = f64[4,4]{0,1} parameter(0)
  b = f64[3,4]{1,0} parameter(1)
  ROOT t = f64[3,4]{1,0} triangular-solve(a, b), left_side=false, lower=false, unit_diagonal=true, transpose_a=TRANSPOSE
})hlo"},
        Case{"triangular_solve_left_upper_adjoint", "triangular-solve", R"hlo(
HloModule m
ENTRY e {
  x = f32[6,6]{1,0} parameter(0)
  i0 = s32[6,6] iota(), iota_dimension=0
  i1 = s32[6,6] iota(), iota_dimension=1
  eq = pred[6,6] compare(i0, i1), direction=EQ
  four = f32[] constant(4)
  zero = f32[] constant(0)
  fours = f32[6,6] broadcast(four), dimensions={}
  zeros = f32[6,6] broadcast(zero), dimensions={}
  d = f32[6,6] select(eq, fours, zeros)
  a = f32[6,6]{1,0} add(x, d)
  b = f32[6,2]{1,0} parameter(1)
  ROOT t = f32[6,2]{1,0} triangular-solve(a, b), left_side=true, lower=false, transpose_a=ADJOINT
})hlo"},
        Case{"triangular_solve_c64_left_lower_adjoint", "triangular-solve", R"hlo(
HloModule m
ENTRY e {
  x = c64[2,5,5]{2,1,0} parameter(0)
  i0 = s32[5,5] iota(), iota_dimension=0
  i1 = s32[5,5] iota(), iota_dimension=1
  eq = pred[5,5] compare(i0, i1), direction=EQ
  four = c64[] constant((4, 1))
  zero = c64[] constant((0, 0))
  fours = c64[5,5] broadcast(four), dimensions={}
  zeros = c64[5,5] broadcast(zero), dimensions={}
  d = c64[5,5] select(eq, fours, zeros)
  db = c64[2,5,5] broadcast(d), dimensions={1,2}
  a = c64[2,5,5]{2,1,0} add(x, db)
  b = c64[2,5,3]{1,2,0} parameter(1)
  ROOT t = c64[2,5,3]{1,2,0} triangular-solve(a, b), left_side=true, lower=true, transpose_a=ADJOINT
})hlo"},
        // JAX's LAPACK / cuSOLVER calls (what jax.scipy.linalg.cholesky and
        // solve_triangular lower to): the factor over the input's other
        // triangle, info per matrix, x in place of b.
        Case{"lapack_spotrf_batched_column_major_in_place", "cholesky", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,6,6]{1,2,0} parameter(0)
  a = f32[3,6,6]{1,2,0} dot(x, x), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
  i0 = s32[6,6] iota(), iota_dimension=0
  i1 = s32[6,6] iota(), iota_dimension=1
  eq = pred[6,6] compare(i0, i1), direction=EQ
  six = f32[] constant(6)
  zero = f32[] constant(0)
  sixes = f32[6,6] broadcast(six), dimensions={}
  zeros = f32[6,6] broadcast(zero), dimensions={}
  d = f32[6,6] select(eq, sixes, zeros)
  db = f32[3,6,6] broadcast(d), dimensions={1,2}
  spd = f32[3,6,6]{1,2,0} add(a, db)
  ROOT c = (f32[3,6,6]{1,2,0}, s32[3]) custom-call(spd), custom_call_target="lapack_spotrf_ffi", operand_layout_constraints={f32[3,6,6]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={uplo = 76 : ui8}
})hlo"},
        Case{"cusolver_potrf_f64_upper_not_positive_definite_info", "cholesky", R"hlo(
HloModule m
ENTRY e {
  a = f64[4,5,5]{2,1,0} parameter(0)
  ROOT c = (f64[4,5,5]{2,1,0}, s32[4]) custom-call(a), custom_call_target="cusolver_potrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={lower = false}
})hlo"},
        Case{"lapack_cpotrf_upper", "cholesky", R"hlo(
HloModule m
ENTRY e {
  x = c64[4,4]{1,0} parameter(0)
  a = c64[4,4]{1,0} dot(x, x), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT c = (c64[4,4]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_cpotrf_ffi", operand_layout_constraints={c64[4,4]{0,1}}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={uplo = 85 : ui8}
})hlo"},
        Case{"lapack_strsm_left_lower_in_place", "triangular-solve", R"hlo(
HloModule m
ENTRY e {
  x = f32[16,16]{0,1} parameter(0)
  i0 = s32[16,16] iota(), iota_dimension=0
  i1 = s32[16,16] iota(), iota_dimension=1
  eq = pred[16,16] compare(i0, i1), direction=EQ
  four = f32[] constant(4)
  zero = f32[] constant(0)
  fours = f32[16,16] broadcast(four), dimensions={}
  zeros = f32[16,16] broadcast(zero), dimensions={}
  d = f32[16,16] select(eq, fours, zeros)
  a = f32[16,16]{0,1} add(x, d)
  y = f32[16,3]{0,1} parameter(1)
  b = f32[16,3]{0,1} negate(y)
  ROOT t = f32[16,3]{0,1} custom-call(a, b), custom_call_target="lapack_strsm_ffi", operand_layout_constraints={f32[16,16]{0,1}, f32[16,3]{0,1}}, output_to_operand_aliasing={{}: (1, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}
})hlo"},
        Case{"lapack_ztrsm_right_upper_conjugate_transpose_unit", "triangular-solve", R"hlo(
HloModule m
ENTRY e {
  a = c128[2,4,4]{2,1,0} parameter(0)
  b = c128[2,3,4]{2,1,0} parameter(1)
  ROOT t = c128[2,3,4]{2,1,0} custom-call(a, b), custom_call_target="lapack_ztrsm_ffi", output_to_operand_aliasing={{}: (1, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={diag = 85 : ui8, side = 82 : ui8, trans_x = 67 : ui8, uplo = 85 : ui8}
})hlo"},
        // jnp.linalg.solve / inv / slogdet: LAPACK's and cuSOLVER's getrf.
        Case{"lapack_sgetrf_batched_column_major_in_place", "lu", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,7,7]{1,2,0} parameter(0)
  a = f32[3,7,7]{1,2,0} negate(x)
  ROOT lu = (f32[3,7,7]{1,2,0}, s32[3,7], s32[3]) custom-call(a), custom_call_target="lapack_sgetrf_ffi", operand_layout_constraints={f32[3,7,7]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}
})hlo"},
        Case{"cusolver_getrf_f64_rectangular_zero_column", "lu", R"hlo(
HloModule m
ENTRY e {
  x = f64[2,6,4]{2,1,0} parameter(0)
  i = s32[2,6,4] iota(), iota_dimension=2
  one = s32[] constant(1)
  ones = s32[2,6,4] broadcast(one), dimensions={}
  col1 = pred[2,6,4] compare(i, ones), direction=EQ
  z = f64[] constant(0)
  zs = f64[2,6,4] broadcast(z), dimensions={}
  a = f64[2,6,4]{2,1,0} select(col1, zs, x)
  ROOT lu = (f64[2,6,4]{2,1,0}, s32[2,4], s32[2]) custom-call(a), custom_call_target="cusolver_getrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})hlo"},
        // A GPU lowering of jnp.linalg.solve: cuSOLVER's pivots, made 0-based,
        // into a permutation; and pivots partly out of range (skipped).
        Case{"cu_lu_pivots_to_permutation_of_getrf", "lu-permutation", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,5,5]{1,2,0} parameter(0)
  lu = (f32[3,5,5]{1,2,0}, s32[3,5]{1,0}, s32[3]{0}) custom-call(x), custom_call_target="cusolver_getrf_ffi", operand_layout_constraints={f32[3,5,5]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
  piv = s32[3,5]{1,0} get-tuple-element(lu), index=1
  one = s32[] constant(1)
  ones = s32[3,5] broadcast(one), dimensions={}
  p0 = s32[3,5]{1,0} subtract(piv, ones)
  ROOT perm = s32[3,5]{1,0} custom-call(p0), custom_call_target="cu_lu_pivots_to_permutation", operand_layout_constraints={s32[3,5]{1,0}}, api_version=API_VERSION_TYPED_FFI
})hlo"},
        Case{"cu_lu_pivots_to_permutation_skips_out_of_range", "lu-permutation", R"hlo(
HloModule m
ENTRY e {
  x = s32[4,6]{1,0} parameter(0)
  nine = s32[] constant(9)
  nines = s32[4,6] broadcast(nine), dimensions={}
  p = s32[4,6]{1,0} remainder(x, nines)
  ROOT perm = s32[4,7]{1,0} custom-call(p), custom_call_target="cu_lu_pivots_to_permutation", api_version=API_VERSION_TYPED_FFI
})hlo"},
        // jnp.linalg.qr: LAPACK's geqrf then orgqr (householder_product) on
        // the reflectors, as JAX lowers it; a batch of wide matrices whose Q
        // comes from a slice; a zero column, which takes no reflection.
        Case{"lapack_sgeqrf_sorgqr_tall_column_major_in_place", "qr-q", R"hlo(
HloModule m
ENTRY e {
  x = f32[10,6]{0,1} parameter(0)
  f = (f32[10,6]{0,1}, f32[6]{0}) custom-call(x), custom_call_target="lapack_sgeqrf_ffi", operand_layout_constraints={f32[10,6]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={}
  a = f32[10,6]{0,1} get-tuple-element(f), index=0
  tau = f32[6]{0} get-tuple-element(f), index=1
  q = f32[10,6]{0,1} custom-call(a, tau), custom_call_target="lapack_sorgqr_ffi", operand_layout_constraints={f32[10,6]{0,1}, f32[6]{0}}, output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={}
  ROOT t = (f32[10,6]{0,1}, f32[10,6]{0,1}, f32[6]{0}) tuple(q, a, tau)
})hlo"},
        Case{"lapack_dgeqrf_wide_batched_then_q_of_a_slice", "qr", R"hlo(
HloModule m
ENTRY e {
  x = f64[2,3,5]{1,2,0} parameter(0)
  f = (f64[2,3,5]{1,2,0}, f64[2,3]{1,0}) custom-call(x), custom_call_target="lapack_dgeqrf_ffi", operand_layout_constraints={f64[2,3,5]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={}
  a = f64[2,3,5]{1,2,0} get-tuple-element(f), index=0
  tau = f64[2,3]{1,0} get-tuple-element(f), index=1
  s = f64[2,3,3]{1,2,0} slice(a), slice={[0:2], [0:3], [0:3]}
  q = f64[2,3,3]{1,2,0} custom-call(s, tau), custom_call_target="lapack_dorgqr_ffi", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={}
  ROOT t = (f64[2,3,3]{1,2,0}, f64[2,3,5]{1,2,0}, f64[2,3]{1,0}) tuple(q, a, tau)
})hlo"},
        Case{"cusolver_geqrf_zero_column_takes_no_reflection", "qr", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,5,4]{2,1,0} parameter(0)
  i = s32[3,5,4] iota(), iota_dimension=2
  two = s32[] constant(2)
  twos = s32[3,5,4] broadcast(two), dimensions={}
  col2 = pred[3,5,4] compare(i, twos), direction=EQ
  z = f32[] constant(0)
  zs = f32[3,5,4] broadcast(z), dimensions={}
  a = f32[3,5,4]{2,1,0} select(col2, zs, x)
  ROOT f = (f32[3,5,4]{2,1,0}, f32[3,4]{1,0}) custom-call(a), custom_call_target="cusolver_geqrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})hlo"},
        // Complex matrices: LU (pivots by |re| + |im|), a tall zgeqrf with
        // zungqr's Q, a batch of wide c64 ones whose last step has no rows
        // below (clarfg still makes its diagonal real), a zero column.
        Case{"lapack_zgetrf_rectangular_column_major_in_place", "lu", R"hlo(
HloModule m
ENTRY e {
  x = c128[2,6,4]{1,2,0} parameter(0)
  a = c128[2,6,4]{1,2,0} negate(x)
  ROOT lu = (c128[2,6,4]{1,2,0}, s32[2,4], s32[2]) custom-call(a), custom_call_target="lapack_zgetrf_ffi", operand_layout_constraints={c128[2,6,4]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}
})hlo"},
        Case{"cusolver_getrf_c64_zero_column", "lu", R"hlo(
HloModule m
ENTRY e {
  x = c64[5,5]{1,0} parameter(0)
  i = s32[5,5] iota(), iota_dimension=1
  zero = s32[] constant(0)
  zeros = s32[5,5] broadcast(zero), dimensions={}
  col0 = pred[5,5] compare(i, zeros), direction=EQ
  z = c64[] constant((0, 0))
  zs = c64[5,5] broadcast(z), dimensions={}
  a = c64[5,5]{1,0} select(col0, zs, x)
  ROOT lu = (c64[5,5]{1,0}, s32[5], s32[]) custom-call(a), custom_call_target="cusolver_getrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})hlo"},
        Case{"lapack_zgeqrf_zungqr_tall", "qr-q", R"hlo(
HloModule m
ENTRY e {
  x = c128[9,5]{0,1} parameter(0)
  f = (c128[9,5]{0,1}, c128[5]{0}) custom-call(x), custom_call_target="lapack_zgeqrf_ffi", operand_layout_constraints={c128[9,5]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={}
  a = c128[9,5]{0,1} get-tuple-element(f), index=0
  tau = c128[5]{0} get-tuple-element(f), index=1
  q = c128[9,5]{0,1} custom-call(a, tau), custom_call_target="lapack_zungqr_ffi", operand_layout_constraints={c128[9,5]{0,1}, c128[5]{0}}, output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={}
  ROOT t = (c128[9,5]{0,1}, c128[9,5]{0,1}, c128[5]{0}) tuple(q, a, tau)
})hlo"},
        Case{"cusolver_geqrf_orgqr_c64_wide_batched_zero_column", "qr-q", R"hlo(
HloModule m
ENTRY e {
  x = c64[2,3,5]{2,1,0} parameter(0)
  i = s32[2,3,5] iota(), iota_dimension=2
  one = s32[] constant(1)
  ones = s32[2,3,5] broadcast(one), dimensions={}
  col1 = pred[2,3,5] compare(i, ones), direction=EQ
  z = c64[] constant((0, 0))
  zs = c64[2,3,5] broadcast(z), dimensions={}
  a = c64[2,3,5]{2,1,0} select(col1, zs, x)
  f = (c64[2,3,5]{2,1,0}, c64[2,3]{1,0}) custom-call(a), custom_call_target="cusolver_geqrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
  r = c64[2,3,5]{2,1,0} get-tuple-element(f), index=0
  tau = c64[2,3]{1,0} get-tuple-element(f), index=1
  s = c64[2,3,3]{2,1,0} slice(r), slice={[0:2], [0:3], [0:3]}
  q = c64[2,3,3]{2,1,0} custom-call(s, tau), custom_call_target="cusolver_orgqr_ffi", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI
  ROOT t = (c64[2,3,3]{2,1,0}, c64[2,3,5]{2,1,0}, c64[2,3]{1,0}) tuple(q, r, tau)
})hlo"},
        // Complex Hermitian eigh (heevd): the eigenvectors themselves against
        // the interpreter (JAX's have other phases); in place, column-major,
        // from the lower triangle with garbage above; a c128 batch from the upper.
        Case{"lapack_cheevd_lower_column_major_in_place", "eigh", R"hlo(
HloModule m
ENTRY e {
  x = c64[5,5]{0,1} parameter(0)
  a = c64[5,5]{0,1} negate(x)
  e = (c64[5,5]{0,1}, f32[5]{0}, s32[]) custom-call(a), custom_call_target="lapack_cheevd_ffi", operand_layout_constraints={c64[5,5]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={mode = 86 : ui8, uplo = 76 : ui8}
  v = c64[5,5]{0,1} get-tuple-element(e), index=0
  w = f32[5]{0} get-tuple-element(e), index=1
  ROOT t = (c64[5,5]{0,1}, f32[5]{0}) tuple(v, w)
})hlo"},
        Case{"cusolver_syevd_c128_batched_upper", "eigh", R"hlo(
HloModule m
ENTRY e {
  x = c128[2,4,4]{2,1,0} parameter(0)
  e = (c128[2,4,4]{2,1,0}, f64[2,4]{1,0}, s32[2]{0}) custom-call(x), custom_call_target="cusolver_syevd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={algorithm = 0 : ui8, lower = false}
  v = c128[2,4,4]{2,1,0} get-tuple-element(e), index=0
  w = f64[2,4]{1,0} get-tuple-element(e), index=1
  ROOT t = (c128[2,4,4]{2,1,0}, f64[2,4]{1,0}) tuple(v, w)
})hlo"},
        // Complex SVDs: U and LAPACK's Vᴴ (conjugated rows) or cuSOLVER's V
        // against the interpreter; a tall full c64 gesdd with a zero column
        // (σ = 0, completed), a wide c128 batch through gesvdj.
        Case{"lapack_cgesdd_tall_full_zero_column", "svd", R"hlo(
HloModule m
ENTRY e {
  x = c64[6,3]{0,1} parameter(0)
  i = s32[6,3] iota(), iota_dimension=1
  one = s32[] constant(1)
  ones = s32[6,3] broadcast(one), dimensions={}
  col1 = pred[6,3] compare(i, ones), direction=EQ
  z = c64[] constant((0, 0))
  zs = c64[6,3] broadcast(z), dimensions={}
  a = c64[6,3]{0,1} select(col1, zs, x)
  s = (c64[6,3]{0,1}, f32[3]{0}, c64[6,6]{0,1}, c64[3,3]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_cgesdd_ffi", operand_layout_constraints={c64[6,3]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={mode = 65 : ui8}
  sv = f32[3]{0} get-tuple-element(s), index=1
  u = c64[6,6]{0,1} get-tuple-element(s), index=2
  vh = c64[3,3]{0,1} get-tuple-element(s), index=3
  ROOT t = (f32[3]{0}, c64[6,6]{0,1}, c64[3,3]{0,1}) tuple(sv, u, vh)
})hlo"},
        Case{"cusolver_gesvdj_c128_wide_batched", "svd", R"hlo(
HloModule m
ENTRY e {
  x = c128[2,3,5]{2,1,0} parameter(0)
  s = (c128[2,3,5]{2,1,0}, f64[2,3]{1,0}, c128[2,3,3]{2,1,0}, c128[2,5,5]{2,1,0}, s32[2]{0}) custom-call(x), custom_call_target="cusolver_gesvdj_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
  sv = f64[2,3]{1,0} get-tuple-element(s), index=1
  u = c128[2,3,3]{2,1,0} get-tuple-element(s), index=2
  v = c128[2,5,5]{2,1,0} get-tuple-element(s), index=3
  ROOT t = (f64[2,3]{1,0}, c128[2,3,3]{2,1,0}, c128[2,5,5]{2,1,0}) tuple(sv, u, v)
})hlo"},
        // jnp.linalg.eigh: LAPACK's and cuSOLVER's syevd, as JAX lowers them
        // (the input symmetrized first, column-major, in place); a batch read
        // from its upper triangle only; a matrix with a zero block (a repeated
        // zero eigenvalue) and a 1×1.
        Case{"lapack_ssyevd_symmetrized_column_major_in_place", "eigh", R"hlo(
HloModule m
ENTRY e {
  x = f32[7,7]{1,0} parameter(0)
  xt = f32[7,7]{1,0} transpose(x), dimensions={1,0}
  s = f32[7,7]{1,0} add(x, xt)
  h = f32[] constant(0.5)
  hs = f32[7,7] broadcast(h), dimensions={}
  a = f32[7,7]{0,1} multiply(s, hs)
  e = (f32[7,7]{0,1}, f32[7]{0}, s32[]) custom-call(a), custom_call_target="lapack_ssyevd_ffi", operand_layout_constraints={f32[7,7]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={mode = 86 : ui8, uplo = 76 : ui8}
  v = f32[7,7]{0,1} get-tuple-element(e), index=0
  w = f32[7]{0} get-tuple-element(e), index=1
  ROOT t = (f32[7,7]{0,1}, f32[7]{0}) tuple(v, w)
})hlo"},
        Case{"cusolver_syevd_f64_batched_upper_triangle", "eigh", R"hlo(
HloModule m
ENTRY e {
  x = f64[3,5,5]{1,2,0} parameter(0)
  ROOT e = (f64[3,5,5]{1,2,0}, f64[3,5]{1,0}, s32[3]{0}) custom-call(x), custom_call_target="cusolver_syevd_ffi", operand_layout_constraints={f64[3,5,5]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={algorithm = 0 : ui8, lower = false}
})hlo"},
        Case{"lapack_ssyevd_zero_block_and_one_by_one", "eigh", R"hlo(
HloModule m
ENTRY e {
  x = f32[6,6]{1,0} parameter(0)
  i = s32[6,6] iota(), iota_dimension=0
  j = s32[6,6] iota(), iota_dimension=1
  three = s32[] constant(3)
  threes = s32[6,6] broadcast(three), dimensions={}
  ii = pred[6,6] compare(i, threes), direction=LT
  jj = pred[6,6] compare(j, threes), direction=LT
  both = pred[6,6] and(ii, jj)
  z = f32[] constant(0)
  zs = f32[6,6] broadcast(z), dimensions={}
  a = f32[6,6]{1,0} select(both, x, zs)
  e = (f32[6,6]{1,0}, f32[6]{0}, s32[]) custom-call(a), custom_call_target="lapack_ssyevd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={mode = 86 : ui8, uplo = 76 : ui8}
  y = f32[1,1]{1,0} slice(x), slice={[0:1], [0:1]}
  e1 = (f32[1,1]{1,0}, f32[1]{0}, s32[]) custom-call(y), custom_call_target="lapack_ssyevd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={mode = 86 : ui8, uplo = 76 : ui8}
  ROOT t = ((f32[6,6]{1,0}, f32[6]{0}, s32[]), (f32[1,1]{1,0}, f32[1]{0}, s32[])) tuple(e, e1)
})hlo"},
        // jnp.linalg.svd: LAPACK's gesdd (U and Vᵀ) with a full U, cuSOLVER's
        // gesvdj (U and V) of a wide batch, reduced; a matrix of rank 2 of 5
        // whose zero singular values' vectors are completed.
        Case{"lapack_sgesdd_tall_full_u_column_major_in_place", "svd", R"hlo(
HloModule m
ENTRY e {
  x = f32[7,4]{0,1} parameter(0)
  s = (f32[7,4]{0,1}, f32[4]{0}, f32[7,7]{0,1}, f32[4,4]{0,1}, s32[]) custom-call(x), custom_call_target="lapack_sgesdd_ffi", operand_layout_constraints={f32[7,4]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={mode = 65 : ui8}
  v = f32[4]{0} get-tuple-element(s), index=1
  u = f32[7,7]{0,1} get-tuple-element(s), index=2
  vt = f32[4,4]{0,1} get-tuple-element(s), index=3
  ROOT t = (f32[4]{0}, f32[7,7]{0,1}, f32[4,4]{0,1}) tuple(v, u, vt)
})hlo"},
        Case{"cusolver_gesvdj_f64_wide_batched_reduced", "svd", R"hlo(
HloModule m
ENTRY e {
  x = f64[2,3,5]{1,2,0} parameter(0)
  ROOT s = (f64[2,3,5]{1,2,0}, f64[2,3]{1,0}, f64[2,3,3]{1,2,0}, f64[2,5,3]{1,2,0}, s32[2]{0}) custom-call(x), custom_call_target="cusolver_gesvdj_ffi", operand_layout_constraints={f64[2,3,5]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={compute_uv = true, full_matrices = false}
})hlo"},
        Case{"lapack_dgesdd_rank_deficient_completes_vectors", "svd", R"hlo(
HloModule m
ENTRY e {
  x = f64[5,5]{1,0} parameter(0)
  j = s32[5,5] iota(), iota_dimension=1
  two = s32[] constant(2)
  twos = s32[5,5] broadcast(two), dimensions={}
  keep = pred[5,5] compare(j, twos), direction=LT
  z = f64[] constant(0)
  zs = f64[5,5] broadcast(z), dimensions={}
  a = f64[5,5]{1,0} select(keep, x, zs)
  ROOT s = (f64[5,5]{1,0}, f64[5]{0}, f64[5,5]{1,0}, f64[5,5]{1,0}, s32[]) custom-call(a), custom_call_target="lapack_dgesdd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={mode = 65 : ui8}
})hlo"},
        Case{"complex_dot_elementally", "elemental", R"hlo(
HloModule m
ENTRY e {
  a = c64[3,4,5]{2,1,0} parameter(0)
  b = c64[3,5,2]{2,1,0} parameter(1)
  ROOT d = c64[3,4,2]{2,1,0} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
})hlo"},
        Case{"sort_comparator_with_type_changing_bitcast", "sort", R"hlo(
HloModule m
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ia = s32[] bitcast(a)
  ib = s32[] bitcast(b)
  ROOT lt = pred[] compare(ia, ib), direction=LT
}
ENTRY e {
  x = f32[4,19]{1,0} parameter(0)
  ROOT s = f32[4,19]{1,0} sort(x), dimensions={1}, to_apply=cmp
})hlo"},
        Case{"variadic_reduce_window_argmax_pooling", "loop", R"hlo(
HloModule m
argmax {
  v0 = f32[] parameter(0)  i0 = s32[] parameter(1)  v1 = f32[] parameter(2)  i1 = s32[] parameter(3)
  ge = pred[] compare(v0, v1), direction=GE
  v = f32[] select(ge, v0, v1)
  i = s32[] select(ge, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
wrapped {
  x = f32[2,7,6]{2,1,0} parameter(0)
  ix = s32[2,7,6]{2,1,0} iota(), iota_dimension=1
  lo = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT rw = (f32[2,4,3]{2,1,0}, s32[2,4,3]{2,1,0}) reduce-window(x, ix, lo, zero), window={size=1x2x2 stride=1x2x2 pad=0_0x0_1x0_0}, to_apply=argmax
}
ENTRY e {
  p = f32[2,7,6]{2,1,0} parameter(0)
  ROOT f = (f32[2,4,3]{2,1,0}, s32[2,4,3]{2,1,0}) fusion(p), kind=kLoop, calls=wrapped
})hlo"},
        Case{"variadic_reduce_under_ops_elementally", "elemental", R"hlo(
HloModule m
argmin {
  v0 = f32[] parameter(0)  i0 = s32[] parameter(1)  v1 = f32[] parameter(2)  i1 = s32[] parameter(3)
  le = pred[] compare(v0, v1), direction=LE
  v = f32[] select(le, v0, v1)
  i = s32[] select(le, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
f {
  x = f32[5,9]{1,0} parameter(0)
  ix = s32[5,9]{1,0} iota(), iota_dimension=1
  hi = f32[] constant(inf)
  zero = s32[] constant(0)
  r = (f32[5]{0}, s32[5]{0}) reduce(x, ix, hi, zero), dimensions={1}, to_apply=argmin
  i = s32[5]{0} get-tuple-element(r), index=1
  two = s32[] constant(2)
  twos = s32[5]{0} broadcast(two), dimensions={}
  ROOT m = s32[5]{0} multiply(i, twos)
}
ENTRY e {
  p = f32[5,9]{1,0} parameter(0)
  ROOT fu = s32[5]{0} fusion(p), kind=kCustom, calls=f
})hlo"},
        Case{"fft_1d", "fft", R"hlo(
HloModule m
ENTRY e {
  x = c64[3,8]{1,0} parameter(0)
  ROOT f = c64[3,8]{1,0} fft(x), fft_type=FFT, fft_length={8}
})hlo"},
        Case{"ifft_2d_c128", "fft", R"hlo(
HloModule m
ENTRY e {
  x = c128[2,4,6]{2,1,0} parameter(0)
  ROOT f = c128[2,4,6]{2,1,0} fft(x), fft_type=IFFT, fft_length={4,6}
})hlo"},
        Case{"rfft_odd", "fft", R"hlo(
HloModule m
ENTRY e {
  x = f32[5,7]{1,0} parameter(0)
  ROOT f = c64[5,4]{1,0} fft(x), fft_type=RFFT, fft_length={7}
})hlo"},
        Case{"irfft_even_2d", "fft", R"hlo(
HloModule m
ENTRY e {
  x = c64[3,4,5]{2,1,0} parameter(0)
  ROOT f = f32[3,4,8]{2,1,0} fft(x), fft_type=IRFFT, fft_length={4,8}
})hlo"},
        Case{"irfft_odd", "fft", R"hlo(
HloModule m
ENTRY e {
  x = c64[3,4]{1,0} parameter(0)
  ROOT f = f32[3,7]{1,0} fft(x), fft_type=IRFFT, fft_length={7}
})hlo"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace hloscope::codegen
