// JAX's sytrd / hetrd, gehrd and gtsv library calls as our kernels
// (condensed_forms_emitter.cc), run on the CPU (the same LLVM IR that becomes
// PTX, checked by ptxas when installed) and compared with the interpreter on
// random inputs: real and complex types, batches, column-major layouts, in
// place over their operands, both triangles, a partial Hessenberg range,
// systems that pivot, and the edge sizes 1 and 2.
#include "tests/codegen/emitter_test_util.h"

namespace hloscope::codegen {
namespace {

struct Case {
  const char* name;
  const char* kind;
  std::string hlo;
};

class CondensedForms : public ::testing::TestWithParam<Case> {};

TEST_P(CondensedForms, MatchTheInterpreterOnTheCpu) {
  for (uint64_t seed : {1, 7}) {
    std::vector<std::string> kinds;
    EXPECT_EQ(testing::RunAndCompare(GetParam().hlo, seed, &kinds), "") << "seed " << seed;
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), GetParam().kind), kinds.end())
        << "no " << GetParam().kind << " kernel";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Calls, CondensedForms,
    ::testing::Values(
        Case{"lapack_sgtsv_batched_column_major_in_place", "gtsv", R"hlo(
HloModule m
ENTRY e {
  dl0 = f32[3,9]{1,0} parameter(0)
  d = f32[3,9]{1,0} parameter(1)
  du = f32[3,9]{1,0} parameter(2)
  b = f32[3,9,2]{1,2,0} parameter(3)
  dl = f32[3,9]{1,0} negate(dl0)
  s = (f32[3,9]{1,0}, f32[3,9]{1,0}, f32[3,9]{1,0}, f32[3,9,2]{1,2,0}, s32[3]{0}) custom-call(dl, d, du, b), custom_call_target="lapack_sgtsv_ffi", operand_layout_constraints={f32[3,9]{1,0}, f32[3,9]{1,0}, f32[3,9]{1,0}, f32[3,9,2]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {}), {1}: (1, {}), {2}: (2, {}), {3}: (3, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={}
  x = f32[3,9,2]{1,2,0} get-tuple-element(s), index=3
  l = f32[3,9]{1,0} get-tuple-element(s), index=0
  dd = f32[3,9]{1,0} get-tuple-element(s), index=1
  u = f32[3,9]{1,0} get-tuple-element(s), index=2
  info = s32[3]{0} get-tuple-element(s), index=4
  ROOT t = (f32[3,9,2]{1,2,0}, f32[3,9]{1,0}, f32[3,9]{1,0}, f32[3,9]{1,0}, s32[3]{0}) tuple(x, l, dd, u, info)
})hlo"},
        Case{"lapack_zgtsv_n2", "gtsv", R"hlo(
HloModule m
ENTRY e {
  dl = c128[2]{0} parameter(0)
  d = c128[2]{0} parameter(1)
  du = c128[2]{0} parameter(2)
  b = c128[2,3]{0,1} parameter(3)
  ROOT s = (c128[2]{0}, c128[2]{0}, c128[2]{0}, c128[2,3]{0,1}, s32[]) custom-call(dl, d, du, b), custom_call_target="lapack_zgtsv_ffi", output_to_operand_aliasing={{0}: (0, {}), {1}: (1, {}), {2}: (2, {}), {3}: (3, {})}, api_version=API_VERSION_TYPED_FFI
})hlo"},
        Case{"lapack_dgtsv_n1", "gtsv", R"hlo(
HloModule m
ENTRY e {
  dl = f64[1]{0} parameter(0)
  d = f64[1]{0} parameter(1)
  du = f64[1]{0} parameter(2)
  b = f64[1,2]{0,1} parameter(3)
  ROOT s = (f64[1]{0}, f64[1]{0}, f64[1]{0}, f64[1,2]{0,1}, s32[]) custom-call(dl, d, du, b), custom_call_target="lapack_dgtsv_ffi", api_version=API_VERSION_TYPED_FFI
})hlo"},
        Case{"cusparse_gtsv2_f32_in_place", "gtsv", R"hlo(
HloModule m
ENTRY e {
  dl = f32[2,17]{1,0} parameter(0)
  d0 = f32[2,17]{1,0} parameter(1)
  du = f32[2,17]{1,0} parameter(2)
  b0 = f32[2,17,3]{1,2,0} parameter(3)
  d = f32[2,17]{1,0} multiply(d0, d0)
  b = f32[2,17,3]{1,2,0} negate(b0)
  ROOT x = f32[2,17,3]{1,2,0} custom-call(dl, d, du, b), custom_call_target="cusparse_gtsv2_ffi", operand_layout_constraints={f32[2,17]{1,0}, f32[2,17]{1,0}, f32[2,17]{1,0}, f32[2,17,3]{1,2,0}}, output_to_operand_aliasing={{}: (3, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={}
})hlo"},
        Case{"cusparse_gtsv2_c64", "gtsv", R"hlo(
HloModule m
ENTRY e {
  dl = c64[6]{0} parameter(0)
  d = c64[6]{0} parameter(1)
  du = c64[6]{0} parameter(2)
  b = c64[6,1]{0,1} parameter(3)
  ROOT x = c64[6,1]{0,1} custom-call(dl, d, du, b), custom_call_target="cusparse_gtsv2_ffi", output_to_operand_aliasing={{}: (3, {})}, api_version=API_VERSION_TYPED_FFI
})hlo"},
        Case{"lapack_ssytrd_lower_batched_in_place", "sytrd", R"hlo(
HloModule m
ENTRY e {
  x = f32[3,6,6]{1,2,0} parameter(0)
  a = f32[3,6,6]{1,2,0} negate(x)
  s = (f32[3,6,6]{1,2,0}, f32[3,6]{1,0}, f32[3,5]{1,0}, f32[3,5]{1,0}, s32[3]{0}) custom-call(a), custom_call_target="lapack_ssytrd_ffi", operand_layout_constraints={f32[3,6,6]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={uplo = 76 : ui8}
})hlo"},
        Case{"cusolver_sytrd_f64_upper", "sytrd", R"hlo(
HloModule m
ENTRY e {
  a = f64[7,7]{1,0} parameter(0)
  ROOT s = (f64[7,7]{1,0}, f64[7]{0}, f64[6]{0}, f64[6]{0}, s32[]) custom-call(a), custom_call_target="cusolver_sytrd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={lower = false}
})hlo"},
        Case{"lapack_chetrd_lower_column_major", "sytrd", R"hlo(
HloModule m
ENTRY e {
  a = c64[5,5]{0,1} parameter(0)
  ROOT s = (c64[5,5]{0,1}, f32[5]{0}, f32[4]{0}, c64[4]{0}, s32[]) custom-call(a), custom_call_target="lapack_chetrd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}
})hlo"},
        Case{"cusolver_sytrd_c128_upper_batched_n1", "sytrd", R"hlo(
HloModule m
ENTRY e {
  a = c128[2,1,1]{2,1,0} parameter(0)
  ROOT s = (c128[2,1,1]{2,1,0}, f64[2,1]{1,0}, f64[2,0]{1,0}, c128[2,0]{1,0}, s32[2]{0}) custom-call(a), custom_call_target="cusolver_sytrd_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={lower = false}
})hlo"},
        Case{"cusolver_sytrd_c128_upper", "sytrd", R"hlo(
HloModule m
ENTRY e {
  a = c128[4,4]{1,0} parameter(0)
  ROOT s = (c128[4,4]{1,0}, f64[4]{0}, f64[3]{0}, c128[3]{0}, s32[]) custom-call(a), custom_call_target="cusolver_sytrd_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={lower = false}
})hlo"},
        Case{"lapack_sgehrd_then_orgqr", "gehrd", R"hlo(
HloModule m
ENTRY e {
  x = f32[6,6]{0,1} parameter(0)
  h = (f32[6,6]{0,1}, f32[5]{0}, s32[]) custom-call(x), custom_call_target="lapack_sgehrd_ffi", operand_layout_constraints={f32[6,6]{0,1}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="0"}, backend_config={high = 6 : i32, low = 1 : i32}
  a = f32[6,6]{0,1} get-tuple-element(h), index=0
  tau = f32[5]{0} get-tuple-element(h), index=1
  v = f32[5,5]{0,1} slice(a), slice={[1:6], [0:5]}
  q = f32[5,5]{0,1} custom-call(v, tau), custom_call_target="lapack_sorgqr_ffi", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI
  ROOT t = (f32[6,6]{0,1}, f32[5]{0}, f32[5,5]{0,1}) tuple(a, tau, q)
})hlo"},
        Case{"lapack_zgehrd_partial_range_batched", "gehrd", R"hlo(
HloModule m
ENTRY e {
  x = c128[2,5,5]{2,1,0} parameter(0)
  ROOT h = (c128[2,5,5]{2,1,0}, c128[2,4]{1,0}, s32[2]{0}) custom-call(x), custom_call_target="lapack_zgehrd_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={high = 4 : i32, low = 2 : i32}
})hlo"},
        Case{"lapack_cgehrd_n2", "gehrd", R"hlo(
HloModule m
ENTRY e {
  x = c64[2,2]{0,1} parameter(0)
  ROOT h = (c64[2,2]{0,1}, c64[1]{0}, s32[]) custom-call(x), custom_call_target="lapack_cgehrd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={high = 2 : i32, low = 1 : i32}
})hlo"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// cuSPARSE's call keeps dl, d and du in the thread's memory: a system too
// long for it is refused with the reason, not miscompiled.
TEST(CondensedForms, ALongCusparseSystemIsRefusedWithItsReason) {
  std::vector<std::string> kinds;
  const std::string err = testing::RunAndCompare(R"hlo(
HloModule m
ENTRY e {
  dl = f32[4096]{0} parameter(0)
  d = f32[4096]{0} parameter(1)
  du = f32[4096]{0} parameter(2)
  b = f32[4096,1]{0,1} parameter(3)
  ROOT x = f32[4096,1]{0,1} custom-call(dl, d, du, b), custom_call_target="cusparse_gtsv2_ffi", api_version=API_VERSION_TYPED_FFI
})hlo",
                                                 1, &kinds);
  EXPECT_NE(err.find("bytes of the kernel's memory"), std::string::npos) << err;
}

}  // namespace
}  // namespace hloscope::codegen
