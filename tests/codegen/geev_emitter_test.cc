// JAX's nonsymmetric eig (geev) as our kernel (geev_emitter.cc), run on the
// CPU (the same LLVM IR that becomes PTX, checked by ptxas when installed)
// and compared with the interpreter on random inputs: LAPACK's, cuSOLVER's
// and the hybrid call's results, batches, column-major layouts, left and
// right vectors or none, sizes 1 and 2, a triangular matrix that balancing
// takes apart by permutations, and rows scaled by powers of 8 that it scales
// back.
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

struct Case {
  const char* name;
  std::string hlo;
};

class Geev : public ::testing::TestWithParam<Case> {};

TEST_P(Geev, MatchesTheInterpreterOnTheCpu) {
  for (uint64_t seed : {1, 7}) {
    std::vector<std::string> kinds;
    EXPECT_EQ(testing::RunAndCompare(GetParam().hlo, seed, &kinds), "") << "seed " << seed;
    EXPECT_TRUE(std::find(kinds.begin(), kinds.end(), "geev") != kinds.end() ||
                std::find(kinds.begin(), kinds.end(), "gees") != kinds.end())
        << "no geev or gees kernel";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Calls, Geev,
    ::testing::Values(
        Case{"lapack_sgeev_right_batched_column_major", R"hlo(
HloModule m
ENTRY e {
  a = f32[3,5,5]{1,2,0} parameter(0)
  ROOT g = (f32[3,5]{1,0}, f32[3,5]{1,0}, c64[3,5,5]{1,2,0}, c64[3,5,5]{1,2,0}, s32[3]{0}) custom-call(a), custom_call_target="lapack_sgeev_ffi", operand_layout_constraints={f32[3,5,5]{1,2,0}}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={compute_left = 78 : ui8, compute_right = 86 : ui8}
})hlo"},
        Case{"lapack_dgeev_left_and_right", R"hlo(
HloModule m
ENTRY e {
  a = f64[6,6]{0,1} parameter(0)
  ROOT g = (f64[6]{0}, f64[6]{0}, c128[6,6]{0,1}, c128[6,6]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_dgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
})hlo"},
        Case{"cusolver_geev_right_batched", R"hlo(
HloModule m
ENTRY e {
  a = f32[2,4,4]{1,2,0} parameter(0)
  ROOT g = (f32[2,4,4]{1,2,0}, c64[2,4]{1,0}, f32[2,4,4]{1,2,0}, f32[2,4,4]{1,2,0}, s32[2]{0}) custom-call(a), custom_call_target="cusolver_geev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={left = false, right = true}
})hlo"},
        Case{"cusolver_geev_eigenvalues_only", R"hlo(
HloModule m
ENTRY e {
  a = f32[7,7]{0,1} parameter(0)
  ROOT g = (f32[7,7]{0,1}, c64[7]{0}, f32[7,7]{0,1}, f32[7,7]{0,1}, s32[]) custom-call(a), custom_call_target="cusolver_geev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={left = false, right = false}
})hlo"},
        Case{"cuhybrid_eig_real_left_and_right", R"hlo(
HloModule m
ENTRY e {
  a = f32[5,5]{0,1} parameter(0)
  ROOT g = (f32[5]{0}, f32[5]{0}, c64[5,5]{0,1}, c64[5,5]{0,1}, s32[]) custom-call(a), custom_call_target="cuhybrid_eig_real", api_version=API_VERSION_TYPED_FFI, backend_config={left = true, magma = "auto", right = true}
})hlo"},
        Case{"lapack_sgeev_n1_and_n2", R"hlo(
HloModule m
ENTRY e {
  a = f32[1,1]{0,1} parameter(0)
  b = f32[2,2]{0,1} parameter(1)
  g1 = (f32[1]{0}, f32[1]{0}, c64[1,1]{0,1}, c64[1,1]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_sgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
  g2 = (f32[2]{0}, f32[2]{0}, c64[2,2]{0,1}, c64[2,2]{0,1}, s32[]) custom-call(b), custom_call_target="lapack_sgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
  ROOT t = ((f32[1]{0}, f32[1]{0}, c64[1,1]{0,1}, c64[1,1]{0,1}, s32[]), (f32[2]{0}, f32[2]{0}, c64[2,2]{0,1}, c64[2,2]{0,1}, s32[])) tuple(g1, g2)
})hlo"},
        Case{"lapack_sgeev_triangular_permuted", R"hlo(
HloModule m
ENTRY e {
  x = f32[6,6]{0,1} parameter(0)
  i = s32[6,6] iota(), iota_dimension=0
  j = s32[6,6] iota(), iota_dimension=1
  below = pred[6,6] compare(i, j), direction=GT
  z = f32[] constant(0)
  zs = f32[6,6]{0,1} broadcast(z), dimensions={}
  a = f32[6,6]{0,1} select(below, zs, x)
  ROOT g = (f32[6]{0}, f32[6]{0}, c64[6,6]{0,1}, c64[6,6]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_sgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
})hlo"},
        Case{"lapack_sgeev_scaled_rows", R"hlo(
HloModule m
ENTRY e {
  x = f32[5,5]{0,1} parameter(0)
  s = f32[5] constant({1, 64, 0.015625, 512, 8})
  sb = f32[5,5]{0,1} broadcast(s), dimensions={0}
  a = f32[5,5]{0,1} multiply(x, sb)
  ROOT g = (f32[5]{0}, f32[5]{0}, c64[5,5]{0,1}, c64[5,5]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_sgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
})hlo"},
        // Complex matrices: LAPACK's zgeev / cgeev, the hybrid call and cuSOLVER's.
        Case{"lapack_cgeev_right_batched_column_major", R"hlo(
HloModule m
ENTRY e {
  a = c64[2,5,5]{1,2,0} parameter(0)
  ROOT g = (c64[2,5]{1,0}, c64[2,5,5]{1,2,0}, c64[2,5,5]{1,2,0}, s32[2]{0}) custom-call(a), custom_call_target="lapack_cgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 78 : ui8, compute_right = 86 : ui8}
})hlo"},
        Case{"lapack_zgeev_left_triangular", R"hlo(
HloModule m
ENTRY e {
  x = c128[5,5]{0,1} parameter(0)
  i = s32[5,5] iota(), iota_dimension=0
  j = s32[5,5] iota(), iota_dimension=1
  below = pred[5,5] compare(i, j), direction=GT
  z = c128[] constant((0, 0))
  zs = c128[5,5]{0,1} broadcast(z), dimensions={}
  a = c128[5,5]{0,1} select(below, zs, x)
  ROOT g = (c128[5]{0}, c128[5,5]{0,1}, c128[5,5]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_zgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 78 : ui8}
})hlo"},
        Case{"cuhybrid_eig_comp_left_n2", R"hlo(
HloModule m
ENTRY e {
  a = c64[2,2]{0,1} parameter(0)
  ROOT g = (c64[2]{0}, c64[2,2]{0,1}, c64[2,2]{0,1}, s32[]) custom-call(a), custom_call_target="cuhybrid_eig_comp", api_version=API_VERSION_TYPED_FFI, backend_config={left = true, magma = "auto", right = false}
})hlo"},
        Case{"cusolver_geev_c64_right_and_eigenvalues_only", R"hlo(
HloModule m
ENTRY e {
  a = c64[4,4]{0,1} parameter(0)
  b = c64[1,1]{0,1} parameter(1)
  g = (c64[4,4]{0,1}, c64[4]{0}, c64[4,4]{0,1}, c64[4,4]{0,1}, s32[]) custom-call(a), custom_call_target="cusolver_geev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={left = false, right = true}
  h = (c64[1,1]{0,1}, c64[1]{0}, c64[1,1]{0,1}, c64[1,1]{0,1}, s32[]) custom-call(b), custom_call_target="cusolver_geev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={left = false, right = false}
  ROOT t = ((c64[4,4]{0,1}, c64[4]{0}, c64[4,4]{0,1}, c64[4,4]{0,1}, s32[]), (c64[1,1]{0,1}, c64[1]{0}, c64[1,1]{0,1}, c64[1,1]{0,1}, s32[])) tuple(g, h)
})hlo"},
        // jax.scipy.linalg.schur: T and Z, and without Z.
        Case{"lapack_sgees_batched", R"hlo(
HloModule m
ENTRY e {
  a = f32[2,5,5]{1,2,0} parameter(0)
  ROOT s = (f32[2,5,5]{1,2,0}, f32[2,5,5]{1,2,0}, f32[2,5]{1,0}, f32[2,5]{1,0}, s32[2]{0}, s32[2]{0}) custom-call(a), custom_call_target="lapack_sgees_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={mode = 86 : ui8, sort = 78 : ui8}
})hlo"},
        Case{"lapack_dgees_no_vectors_triangular", R"hlo(
HloModule m
ENTRY e {
  x = f64[4,4]{0,1} parameter(0)
  i = s32[4,4] iota(), iota_dimension=0
  j = s32[4,4] iota(), iota_dimension=1
  below = pred[4,4] compare(i, j), direction=GT
  z = f64[] constant(0)
  zs = f64[4,4]{0,1} broadcast(z), dimensions={}
  a = f64[4,4]{0,1} select(below, zs, x)
  ROOT s = (f64[4,4]{0,1}, f64[4,4]{0,1}, f64[4]{0}, f64[4]{0}, s32[], s32[]) custom-call(a), custom_call_target="lapack_dgees_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={mode = 78 : ui8, sort = 78 : ui8}
})hlo"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// Both left and right eigenvectors of complex matrices in one call would
// need a third matrix: refused with the reason, never miscompiled.
TEST(Geev, ComplexLeftAndRightAtOnceIsRefusedWithItsReason) {
  const std::string err = testing::RunAndCompare(R"hlo(
HloModule m
ENTRY e {
  a = c64[3,3]{0,1} parameter(0)
  ROOT g = (c64[3]{0}, c64[3,3]{0,1}, c64[3,3]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_cgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
})hlo");
  EXPECT_NE(err.find("left and right eigenvectors of complex matrices at once"), std::string::npos) << err;
}

}  // namespace
}  // namespace hloscope::codegen
