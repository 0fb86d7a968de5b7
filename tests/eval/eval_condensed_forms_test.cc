// JAX's sytrd / hetrd, gehrd and gtsv library calls in the interpreter,
// against LAPACK's own results (scipy.linalg.lapack's dgtsv, dsytrd, zhetrd
// and dgehrd on the same f64 inputs, written here), every result of the call,
// not only those JAX reads.
#include <complex>

#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

using C = std::complex<double>;

void ExpectNear(const std::vector<double>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << what << " [" << i << "]";
}

// gtsv with rows swapped at steps 0 and 2 (|dl| > |d| there): dl(1:) holds
// U's second superdiagonal afterwards, d and du U's diagonal and first
// superdiagonal, as LAPACK's dgtsv leaves them; dl's first element is
// JAX's padding and stays as it was.
TEST(EvalCondensedForms, GtsvPivotsAndKeepsLapacksFactors) {
  const char* hlo = R"(HloModule t
ENTRY e {
  dl = f64[4]{0} parameter(0)
  d = f64[4]{0} parameter(1)
  du = f64[4]{0} parameter(2)
  b = f64[4,2]{0,1} parameter(3)
  ROOT s = (f64[4]{0}, f64[4]{0}, f64[4]{0}, f64[4,2]{0,1}, s32[]) custom-call(dl, d, du, b), custom_call_target="lapack_dgtsv_ffi", output_to_operand_aliasing={{0}: (0, {}), {1}: (1, {}), {2}: (2, {}), {3}: (3, {})}, api_version=API_VERSION_TYPED_FFI
})";
  Literal r = MustRun(hlo, {Lit("f64[4]", {7, 3, 1, 5}), Lit("f64[4]", {1, 2, 0.5, 4}), Lit("f64[4]", {2, -1, 1, 9}),
                            Lit("f64[4,2]", {1, 0, 2, 1, 3, -1, 4, 2})});
  ASSERT_TRUE(r.IsTuple());
  ExpectNear(Vals(r.tuple_elements()[0]), {7, -1, 0, 5}, 1e-15, "dl");
  ExpectNear(Vals(r.tuple_elements()[1]), {3, 1.3333333333333335, 5, 0.7999999999999999}, 1e-15, "d");
  ExpectNear(Vals(r.tuple_elements()[2]), {2, 0.3333333333333333, 4, 9}, 1e-15, "du");
  ExpectNear(Vals(r.tuple_elements()[3]),
             {-0.37499999999999994, 1.125, 0.6874999999999999, -0.5624999999999999, -1.75, 1.25, 3.1875, -1.0625},
             1e-14, "x");
  EXPECT_EQ(Ints(r.tuple_elements()[4]), (std::vector<int64_t>{0}));
  // cuSPARSE's call computes the same solution into its one result.
  Literal x = MustRun(R"(HloModule t
ENTRY e {
  dl = f64[4]{0} parameter(0)
  d = f64[4]{0} parameter(1)
  du = f64[4]{0} parameter(2)
  b = f64[4,2]{0,1} parameter(3)
  ROOT x = f64[4,2]{0,1} custom-call(dl, d, du, b), custom_call_target="cusparse_gtsv2_ffi", output_to_operand_aliasing={{}: (3, {})}, api_version=API_VERSION_TYPED_FFI
})",
                      {Lit("f64[4]", {7, 3, 1, 5}), Lit("f64[4]", {1, 2, 0.5, 4}), Lit("f64[4]", {2, -1, 1, 9}),
                       Lit("f64[4,2]", {1, 0, 2, 1, 3, -1, 4, 2})});
  EXPECT_EQ(Vals(x), Vals(r.tuple_elements()[3]));
}

// A zero first column: info = 1 and the right-hand side left as it is.
TEST(EvalCondensedForms, GtsvReportsTheFirstZeroPivot) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  dl = f32[3] parameter(0)
  d = f32[3] parameter(1)
  du = f32[3] parameter(2)
  b = f32[3,1] parameter(3)
  ROOT s = (f32[3], f32[3], f32[3], f32[3,1], s32[]) custom-call(dl, d, du, b), custom_call_target="lapack_sgtsv_ffi", api_version=API_VERSION_TYPED_FFI
})",
                      {Lit("f32[3]", {0, 0, 1}), Lit("f32[3]", {0, 1, 1}), Lit("f32[3]", {1, 1, 0}),
                       Lit("f32[3,1]", {1, 1, 1})});
  EXPECT_EQ(Ints(r.tuple_elements()[4]), (std::vector<int64_t>{1}));
  EXPECT_EQ(Vals(r.tuple_elements()[3]), (std::vector<double>{1, 1, 1}));
}

// sytrd from the lower and from the upper triangle (dsytrd's results): the
// reflectors below (above) the off-diagonal, e on it, d on the diagonal, and
// the triangle not read untouched.
TEST(EvalCondensedForms, SytrdMatchesLapackFromEitherTriangle) {
  const std::vector<double> a = {4, 1, -2, 2, 1, 2, 0, 1, -2, 0, 3, -2, 2, 1, -2, -1};
  auto run = [&](const char* uplo) {
    return MustRun(std::string(R"(HloModule t
ENTRY e {
  a = f64[4,4]{0,1} parameter(0)
  ROOT t = (f64[4,4]{0,1}, f64[4]{0}, f64[3]{0}, f64[3]{0}, s32[]) custom-call(a), custom_call_target="lapack_dsytrd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={uplo = )") +
                       uplo + R"( : ui8}
})",
                   {Lit("f64[4,4]", a)});
  };
  Literal lo = run("76");
  ExpectNear(Vals(lo.tuple_elements()[0]),
             {4, 1, -2, 2, -3, 3.333333333333334, 0, 1, -0.5, -1.6666666666666665, -1.3200000000000007, -2, 0.5,
              0.5000000000000002, 0.9066666666666656, 1.9866666666666677},
             1e-14, "lower a");
  ExpectNear(Vals(lo.tuple_elements()[1]), {4, 3.333333333333334, -1.3200000000000007, 1.9866666666666677}, 1e-14, "d");
  ExpectNear(Vals(lo.tuple_elements()[2]), {-3, -1.6666666666666665, 0.9066666666666656}, 1e-14, "e");
  ExpectNear(Vals(lo.tuple_elements()[3]), {1.3333333333333333, 1.5999999999999999, 0}, 1e-14, "tau");
  Literal up = run("85");
  ExpectNear(Vals(up.tuple_elements()[0]),
             {2.2615384615384615, -0.09230769230769326, -0.5803225354712209, -0.4, 1, 1.1829059829059831,
              0.8958064164776165, -0.2, -2, 0, 5.555555555555557, 3, 2, 1, -2, -1},
             1e-14, "upper a");
  ExpectNear(Vals(up.tuple_elements()[1]), {2.2615384615384615, 1.1829059829059831, 5.555555555555557, -1}, 1e-14, "d");
  ExpectNear(Vals(up.tuple_elements()[2]), {-0.09230769230769326, 0.8958064164776165, 3}, 1e-14, "e");
  ExpectNear(Vals(up.tuple_elements()[3]), {0, 1.4961389383568344, 1.6666666666666667}, 1e-14, "tau");
}

// hetrd (cuSOLVER's sytrd on c128, lower): zhetrd's results, complex tau,
// real d and e, the diagonal made real.
TEST(EvalCondensedForms, HetrdMatchesLapack) {
  Literal a = Lit("c128[3,3]", std::vector<double>(9, 0));
  const std::vector<C> h = {{2, 0}, {1, 1}, {2, -1}, {1, -1}, {3, 0}, {0, 1}, {2, 1}, {0, -1}, {1, 0}};
  for (int i = 0; i < 9; ++i) a.SetComplex(i, h[i]);
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = c128[3,3]{0,1} parameter(0)
  ROOT t = (c128[3,3]{0,1}, f64[3]{0}, f64[2]{0}, c128[2]{0}, s32[]) custom-call(a), custom_call_target="cusolver_sytrd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={lower = true}
})",
                      {a});
  const std::vector<C> want = {{2, 0}, {1, 1}, {2, -1}, {-2.6457513110645907, 0}, {0.7142857142857144, 0}, {0, 1},
                               {0.4402268108874236, 0.395042527041392}, {-0.5890150893739522, 0}, {3.2857142857142865, 0}};
  for (int i = 0; i < 9; ++i) {
    EXPECT_NEAR(r.tuple_elements()[0].GetComplex(i).real(), want[i].real(), 1e-14) << i;
    EXPECT_NEAR(r.tuple_elements()[0].GetComplex(i).imag(), want[i].imag(), 1e-14) << i;
  }
  ExpectNear(Vals(r.tuple_elements()[1]), {2, 0.7142857142857144, 3.2857142857142865}, 1e-14, "d");
  ExpectNear(Vals(r.tuple_elements()[2]), {-2.6457513110645907, -0.5890150893739522}, 1e-14, "e");
  const C tau0 = r.tuple_elements()[3].GetComplex(0), tau1 = r.tuple_elements()[3].GetComplex(1);
  EXPECT_NEAR(tau0.real(), 1.3779644730092273, 1e-14);
  EXPECT_NEAR(tau0.imag(), -0.3779644730092272, 1e-14);
  EXPECT_NEAR(tau1.real(), 1.7106362575714984, 1e-14);
  EXPECT_NEAR(tau1.imag(), 0.703559599056665, 1e-14);
}

// gehrd of the whole matrix and of rows and columns 2..4 (low, high), as
// dgehrd: H above and on the subdiagonal, the reflectors below it, tau 0
// outside low..high-1.
TEST(EvalCondensedForms, GehrdMatchesLapackOverTheWholeAndPartOfTheMatrix) {
  const std::vector<double> g = {1, 2, 3, 4, 2, -1, 0, 1, 0.5, 1, 2, -2, 3, 1, 1, 1};
  auto run = [&](int low, int high) {
    return MustRun(R"(HloModule t
ENTRY e {
  a = f64[4,4]{0,1} parameter(0)
  ROOT h = (f64[4,4]{0,1}, f64[3]{0}, s32[]) custom-call(a), custom_call_target="lapack_dgehrd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={high = )" +
                       std::to_string(high) + " : i32, low = " + std::to_string(low) + R"( : i32}
})",
                   {Lit("f64[4,4]", g)});
  };
  Literal all = run(1, 4);
  ExpectNear(Vals(all.tuple_elements()[0]),
             {1, -4.8076197382041155, -1.735626695202431, 1.6954033230269652, -3.640054944640259, 1.2830188679245285,
              0.6596923574469469, -0.7096296487979556, 0.0886516186292032, -1.1796603043275915, 1.8080530174681555,
              0.11655794080782933, 0.5319097117752192, -0.3185876297073042, -2.3559322102685734, -1.091071885392684},
             1e-13, "h");
  ExpectNear(Vals(all.tuple_elements()[1]), {1.549442255794756, 1.8157090241954732, 0}, 1e-14, "tau");
  Literal part = run(2, 4);
  ExpectNear(Vals(part.tuple_elements()[0]),
             {1, 2, -4.949747468305832, 0.7071067811865475, 2, -1, -0.7071067811865475, 0.7071067811865475, 0.5,
              -1.4142135623730951, 0.9999999999999993, 1.9999999999999991, 3, 0.4142135623730951, -1.0000000000000004,
              1.9999999999999998},
             1e-14, "part h");
  ExpectNear(Vals(part.tuple_elements()[1]), {0, 1.7071067811865472, 0}, 1e-14, "part tau");
}

}  // namespace
}  // namespace hloscope::testing
