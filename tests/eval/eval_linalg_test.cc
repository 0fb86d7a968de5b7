// triangular-solve, cholesky, fft and topk against hand-computed values.
#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

TEST(EvalLinalg, TriangularSolveLeftLower) {
  // [[2,0],[1,4]] x = [[4],[10]] → x = [[2],[2]].
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[2,2] parameter(0)
  b = f32[2,1] parameter(1)
  ROOT x = f32[2,1] triangular-solve(a, b), left_side=true, lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE
})";
  Literal r = MustRun(hlo, {Lit("f32[2,2]", {2, 99, 1, 4}), Lit("f32[2,1]", {4, 10})});
  EXPECT_EQ(Vals(r), (std::vector<double>{2, 2}));
}

TEST(EvalLinalg, TriangularSolveRightUpperTransposed) {
  // x · op(a) = b with a upper [[1,2],[0,1]], op = transpose → x · [[1,0],[2,1]] = [5, 2] → x = [1, 2].
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[2,2] parameter(0)
  b = f32[1,2] parameter(1)
  ROOT x = f32[1,2] triangular-solve(a, b), left_side=false, lower=false, unit_diagonal=true, transpose_a=TRANSPOSE
})";
  Literal r = MustRun(hlo, {Lit("f32[2,2]", {7, 2, 99, 7}), Lit("f32[1,2]", {5, 2})});
  EXPECT_EQ(Vals(r), (std::vector<double>{1, 2}));
}

TEST(EvalLinalg, CholeskyLower) {
  // [[4,2],[2,5]] = L Lᵀ with L = [[2,0],[1,2]].
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[2,2] parameter(0)
  ROOT l = f32[2,2] cholesky(a), lower=true
})";
  Literal r = MustRun(hlo, {Lit("f32[2,2]", {4, 2, 2, 5})});
  EXPECT_EQ(Vals(r), (std::vector<double>{2, 0, 1, 2}));
}

TEST(EvalLinalg, RfftOfAConstantIsItsSumAtZero) {
  const char* hlo = R"(HloModule t
ENTRY e {
  x = f32[4] parameter(0)
  ROOT f = c64[3] fft(x), fft_type=RFFT, fft_length={4}
})";
  Literal r = MustRun(hlo, {Lit("f32[4]", {1, 1, 1, 1})});
  EXPECT_NEAR(r.GetComplex(0).real(), 4, 1e-6);
  EXPECT_NEAR(std::abs(r.GetComplex(1)), 0, 1e-6);
  EXPECT_NEAR(std::abs(r.GetComplex(2)), 0, 1e-6);
}

// Whole quarter turns are exact twiddles: the DC and Nyquist terms of a
// real signal have imaginary parts of exactly +0 (numpy gives +0; a rounded
// sin(π) made it -0 here, flipping angle() from π to -π).
TEST(EvalLinalg, RfftDcAndNyquistImaginaryPartsArePlusZero) {
  const char* hlo = R"(HloModule t
ENTRY e {
  x = f32[8] parameter(0)
  ROOT f = c64[5] fft(x), fft_type=RFFT, fft_length={8}
})";
  Literal r = MustRun(hlo, {Lit("f32[8]", {-0.5, 1.25, -3, 0.75, 2, -1.5, 0.25, -2})});
  for (int k : {0, 4}) {
    EXPECT_EQ(r.GetComplex(k).imag(), 0.0) << k;
    EXPECT_FALSE(std::signbit(r.GetComplex(k).imag())) << k;
  }
  EXPECT_NEAR(r.GetComplex(4).real(), -0.5 - 1.25 - 3 - 0.75 + 2 + 1.5 + 0.25 + 2, 1e-6);
}

TEST(EvalLinalg, IrfftInvertsRfft) {
  const char* hlo = R"(HloModule t
ENTRY e {
  x = f64[6] parameter(0)
  f = c128[4] fft(x), fft_type=RFFT, fft_length={6}
  ROOT y = f64[6] fft(f), fft_type=IRFFT, fft_length={6}
})";
  Literal r = MustRun(hlo, {Lit("f64[6]", {1, -2, 3, 0.5, 7, -1})});
  std::vector<double> want = {1, -2, 3, 0.5, 7, -1};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(r.GetDouble(i), want[i], 1e-12) << i;
}

TEST(EvalLinalg, TopKLargestWithTiesInIndexOrder) {
  const char* hlo = R"(HloModule t
ENTRY e {
  x = f32[2,4] parameter(0)
  ROOT t = (f32[2,2], s32[2,2]) topk(x), k=2, largest=true
})";
  Literal r = MustRun(hlo, {Lit("f32[2,4]", {1, 5, 3, 5, -1, -2, -3, 0})});
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{5, 5, 0, -1}));
  EXPECT_EQ(Ints(r.tuple_elements()[1]), (std::vector<int64_t>{1, 3, 3, 0}));
}

}  // namespace
}  // namespace hloscope::testing

namespace hloscope::testing {
namespace {

// JAX's LAPACK / cuSOLVER calls, as jax.numpy.linalg.cholesky and
// jax.scipy.linalg.solve_triangular lower them (JAX 0.12): the factor over
// the input's other triangle, and info = 0, or the order of the first
// leading minor that is not positive definite.
TEST(EvalLinalgCalls, PotrfKeepsTheOtherTriangleAndReportsInfo) {
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[2,2,2]{1,2,0} parameter(0)
  ROOT c = (f32[2,2,2]{1,2,0}, s32[2]) custom-call(a), custom_call_target="lapack_spotrf_ffi", operand_layout_constraints={f32[2,2,2]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}, backend_config={uplo = 76 : ui8}
})";
  // [[4, 7], [2, 5]]: L = [[2, 0], [1, 2]], the 7 kept; [[1, 0], [0, -1]] fails at order 2.
  Literal r = MustRun(hlo, {Lit("f32[2,2,2]", {4, 7, 2, 5, 1, 0, 0, -1})});
  ASSERT_TRUE(r.IsTuple());
  const std::vector<double> f = Vals(r.tuple_elements()[0]);
  EXPECT_EQ(std::vector<double>(f.begin(), f.begin() + 4), (std::vector<double>{2, 7, 1, 2}));
  EXPECT_EQ(f[4], 1);
  EXPECT_EQ(Ints(r.tuple_elements()[1]), (std::vector<int64_t>{0, 2}));
  // cuSOLVER's form, upper: U = [[2, 1], [0, 2]] of [[4, 2], [9, 5]], the 9 kept.
  Literal u = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,2]{0,1} parameter(0)
  ROOT c = (f32[2,2]{0,1}, s32[]) custom-call(a), custom_call_target="cusolver_potrf_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={lower = false}
})", {Lit("f32[2,2]", {4, 2, 9, 5})});
  EXPECT_EQ(Vals(u.tuple_elements()[0]), (std::vector<double>{2, 1, 9, 2}));
  EXPECT_EQ(Ints(u.tuple_elements()[1]), (std::vector<int64_t>{0}));
}

// getrf, as jnp.linalg.solve / inv / slogdet lower it: L's multipliers
// below the diagonal, U on and above it, 1-based pivots, info = the step of
// the first zero pivot.
TEST(EvalLinalgCalls, GetrfPivotsByTheLargestMagnitude) {
  const char* hlo = R"(HloModule t
ENTRY e {
  a = f32[2,2,2]{1,2,0} parameter(0)
  ROOT lu = (f32[2,2,2]{1,2,0}, s32[2,2], s32[2]) custom-call(a), custom_call_target="lapack_sgetrf_ffi", operand_layout_constraints={f32[2,2,2]{1,2,0}}, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, frontend_attributes={num_batch_dims="1"}
})";
  // [[1, 2], [4, 4]]: rows swapped (pivot 4), L = [[1, 0], [1/4, 1]],
  // U = [[4, 4], [0, 1]]. [[0, 1], [0, 3]]: its first column is zero (info
  // 1, no swap), then 3 is the pivot of the second step.
  Literal r = MustRun(hlo, {Lit("f32[2,2,2]", {1, 2, 4, 4, 0, 1, 0, 3})});
  ASSERT_TRUE(r.IsTuple());
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{4, 4, 0.25, 1, 0, 1, 0, 3}));
  EXPECT_EQ(Ints(r.tuple_elements()[1]), (std::vector<int64_t>{2, 2, 1, 2}));
  EXPECT_EQ(Ints(r.tuple_elements()[2]), (std::vector<int64_t>{0, 1}));
}

// geqrf then orgqr, as jnp.linalg.qr lowers them, with LAPACK's reflector
// convention (larfg: beta = -sign(alpha)·norm): [[3, 1], [4, 2]] → beta = -5,
// tau = 1.6, v = (1, 4/8); R = [[-5, -2.2], [0, 0.4]], the 1×1 tail takes no
// reflection (tau 0); Q = [[-0.6, -0.8], [-0.8, 0.6]], and Q·R is the input.
TEST(EvalLinalgCalls, GeqrfAndOrgqrFollowLapacksHouseholderConvention) {
  Literal f = MustRun(R"(HloModule t
ENTRY e {
  a = f64[2,2]{0,1} parameter(0)
  ROOT f = (f64[2,2]{0,1}, f64[2]{0}) custom-call(a), custom_call_target="lapack_dgeqrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})", {Lit("f64[2,2]", {3, 1, 4, 2})});
  ASSERT_TRUE(f.IsTuple());
  const std::vector<double> qr = Vals(f.tuple_elements()[0]), tau = Vals(f.tuple_elements()[1]);
  const std::vector<double> want_qr = {-5, -2.2, 0.5, 0.4}, want_tau = {1.6, 0};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(qr[i], want_qr[i], 1e-12) << i;
  for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(tau[i], want_tau[i], 1e-12) << i;
  Literal q = MustRun(R"(HloModule t
ENTRY e {
  a = f64[2,2]{0,1} parameter(0)
  tau = f64[2]{0} parameter(1)
  ROOT q = f64[2,2]{0,1} custom-call(a, tau), custom_call_target="lapack_dorgqr_ffi", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})", {Lit("f64[2,2]", {-5, -2.2, 0.5, 0.4}), Lit("f64[2]", {1.6, 0})});
  const std::vector<double> got = Vals(q), want = {-0.6, -0.8, -0.8, 0.6};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
}

// Complex QR as LAPACK's cgeqr2 / cung2r: [[3+4i]] has no rows below, but
// clarfg still reflects to make the diagonal real: beta = -sign(3)·|3+4i| =
// -5, tau = ((-5 - 3)/-5, -4/-5) = (1.6, 0.8); Q = 1 - tau = -0.6 - 0.8i, and
// Q·R = (-0.6 - 0.8i)·(-5) = 3 + 4i. And a real alpha over a zero tail takes
// no reflection (tau 0), as in the real case.
TEST(EvalLinalgCalls, ComplexGeqrfMakesTheDiagonalReal) {
  Literal f = MustRun(R"(HloModule t
ENTRY e {
  a = c128[1,1] parameter(0)
  ROOT f = (c128[1,1], c128[1]) custom-call(a), custom_call_target="lapack_zgeqrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})", {[] {
                        Literal a = Lit("c128[1,1]", {0});
                        a.SetComplex(0, {3, 4});
                        return a;
                      }()});
  ASSERT_TRUE(f.IsTuple());
  EXPECT_EQ(f.tuple_elements()[0].GetComplex(0), std::complex<double>(-5, 0));
  const std::complex<double> tau = f.tuple_elements()[1].GetComplex(0);
  EXPECT_NEAR(tau.real(), 1.6, 1e-15);
  EXPECT_NEAR(tau.imag(), 0.8, 1e-15);
  Literal q = MustRun(R"(HloModule t
ENTRY e {
  a = c128[1,1] parameter(0)
  tau = c128[1] parameter(1)
  ROOT q = c128[1,1] custom-call(a, tau), custom_call_target="lapack_zungqr_ffi", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})", {f.tuple_elements()[0], f.tuple_elements()[1]});
  EXPECT_NEAR(q.GetComplex(0).real(), -0.6, 1e-15);
  EXPECT_NEAR(q.GetComplex(0).imag(), -0.8, 1e-15);
  Literal real = MustRun(R"(HloModule t
ENTRY e {
  a = c64[2,1] parameter(0)
  ROOT f = (c64[2,1], c64[1]) custom-call(a), custom_call_target="cusolver_geqrf_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})", {Lit("c64[2,1]", {2, 0})});
  EXPECT_EQ(real.tuple_elements()[1].GetComplex(0), std::complex<double>(0, 0));
  EXPECT_EQ(real.tuple_elements()[0].GetComplex(0), std::complex<double>(2, 0));
}

// heevd (complex Hermitian eigh): [[2, -i], [i, 2]] has eigenvalues 1 and 3
// (ascending, real) whatever is stored above the diagonal (only the lower
// triangle is read, its conjugate stands for the other one), and
// V·diag(w)·Vᴴ gives the matrix back, whatever the eigenvectors' phases.
TEST(EvalLinalgCalls, HeevdGivesRealEigenvaluesOfTheHermitianTriangle) {
  Literal a = Lit("c128[2,2]", {2, 99, 0, 2});
  a.SetComplex(2, {0, 1});  // A(1, 0) = i; A(0, 1) = 99 is not read
  a.SetComplex(0, {2, 5});  // the diagonal's imaginary part is ignored
  Literal e = MustRun(R"(HloModule t
ENTRY e {
  a = c128[2,2] parameter(0)
  ROOT e = (c128[2,2], f64[2], s32[]) custom-call(a), custom_call_target="lapack_zheevd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={mode = 86 : ui8, uplo = 76 : ui8}
})", {a});
  ASSERT_TRUE(e.IsTuple());
  const Literal& v = e.tuple_elements()[0];
  const std::vector<double> w = Vals(e.tuple_elements()[1]);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], 1, 1e-12);
  EXPECT_NEAR(w[1], 3, 1e-12);
  const std::complex<double> want[2][2] = {{{2, 0}, {0, -1}}, {{0, 1}, {2, 0}}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      std::complex<double> x = 0;
      for (int k = 0; k < 2; ++k) x += v.GetComplex(i * 2 + k) * w[static_cast<size_t>(k)] * std::conj(v.GetComplex(j * 2 + k));
      EXPECT_NEAR(std::abs(x - want[i][j]), 0, 1e-12) << i << "," << j;
    }
}

// syevd (jnp.linalg.eigh) reads only the triangle it is told to:
// [[2, 1, 0], [1, 2, 0], [0, 0, 5]] has eigenvalues 1, 3, 5 (ascending) with
// eigenvectors (1, -1, 0)/√2, (1, 1, 0)/√2, (0, 0, 1) up to sign; the other
// triangle holds values that must not be read. Per matrix of a batch, with
// LAPACK's uplo and cuSOLVER's `lower`.
TEST(EvalLinalgCalls, SyevdGivesAscendingEigenvaluesAndOrthonormalEigenvectors) {
  for (const bool lapack : {true, false}) {
    const std::string target = lapack ? "custom_call_target=\"lapack_dsyevd_ffi\", backend_config={mode = 86 : ui8, uplo = 85 : ui8}"
                                      : "custom_call_target=\"cusolver_syevd_ffi\", backend_config={algorithm = 0 : ui8, lower = false}";
    Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f64[2,3,3]{1,2,0} parameter(0)
  ROOT e = (f64[2,3,3]{1,2,0}, f64[2,3]{1,0}, s32[2]{0}) custom-call(a), )" + target + R"(, output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI
})",
                        // Upper triangles given, the lower ones garbage.
                        {Lit("f64[2,3,3]", {2, 1, 0, 99, 2, 0, -7, 42, 5,  //
                                            -4, 0, 0, 1e9, 0, 0, 3, 3, 0})});
    ASSERT_TRUE(r.IsTuple());
    const std::vector<double> v = Vals(r.tuple_elements()[0]), w = Vals(r.tuple_elements()[1]),
                              info = Vals(r.tuple_elements()[2]);
    const std::vector<std::vector<double>> a = {{2, 1, 0, 1, 2, 0, 0, 0, 5}, {-4, 0, 0, 0, 0, 0, 0, 0, 0}};
    const std::vector<std::vector<double>> want_w = {{1, 3, 5}, {-4, 0, 0}};
    for (int bt = 0; bt < 2; ++bt) {
      EXPECT_EQ(info[bt], 0);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(w[bt * 3 + i], want_w[bt][i], 1e-12) << bt << " " << i;
      auto at = [&](int i, int j) { return v[bt * 9 + i * 3 + j]; };
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double vtv = 0, rebuilt = 0;  // (VᵀV)(i, j) and (V diag(w) Vᵀ)(i, j)
          for (int k = 0; k < 3; ++k) {
            vtv += at(k, i) * at(k, j);
            rebuilt += at(i, k) * w[bt * 3 + k] * at(j, k);
          }
          EXPECT_NEAR(vtv, i == j ? 1 : 0, 1e-12) << bt << " " << i << " " << j;
          EXPECT_NEAR(rebuilt, a[bt][i * 3 + j], 1e-12) << bt << " " << i << " " << j;
        }
      if (bt == 0) EXPECT_NEAR(std::fabs(at(0, 0)), std::sqrt(0.5), 1e-12);  // (1, -1, 0)/√2 for λ = 1
    }
  }
}

// gesdd (jnp.linalg.svd) of the tall [[3, 0], [4, 5], [0, 0]] (rank 2,
// σ = √45, √5, descending), with a full U: its third column completes an
// orthonormal basis (±e₃); U·diag(s)·Vᵀ is the input. cuSOLVER's gesvdj
// returns V instead of Vᵀ; a wide matrix of rank 1 completes its V.
TEST(EvalLinalgCalls, SvdGivesDescendingValuesAndOrthonormalCompletedVectors) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f64[3,2]{0,1} parameter(0)
  ROOT s = (f64[3,2]{0,1}, f64[2]{0}, f64[3,3]{0,1}, f64[2,2]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_dgesdd_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={mode = 65 : ui8}
})",
                      {Lit("f64[3,2]", {3, 0, 4, 5, 0, 0})});
  ASSERT_TRUE(r.IsTuple());
  const std::vector<double> copy = Vals(r.tuple_elements()[0]), s = Vals(r.tuple_elements()[1]),
                            u = Vals(r.tuple_elements()[2]), vt = Vals(r.tuple_elements()[3]);
  EXPECT_EQ(copy, (std::vector<double>{3, 0, 4, 5, 0, 0}));
  EXPECT_NEAR(s[0], std::sqrt(45.0), 1e-12);
  EXPECT_NEAR(s[1], std::sqrt(5.0), 1e-12);
  const double a[3][2] = {{3, 0}, {4, 5}, {0, 0}};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double utu = 0;
      for (int k = 0; k < 3; ++k) utu += u[k * 3 + i] * u[k * 3 + j];
      EXPECT_NEAR(utu, i == j ? 1 : 0, 1e-12) << i << " " << j;
    }
    for (int j = 0; j < 2; ++j) {
      double rebuilt = 0;
      for (int k = 0; k < 2; ++k) rebuilt += u[i * 3 + k] * s[k] * vt[k * 2 + j];
      EXPECT_NEAR(rebuilt, a[i][j], 1e-12) << i << " " << j;
    }
  }
  EXPECT_NEAR(std::fabs(u[2 * 3 + 2]), 1, 1e-12);  // the completed column is ±e₃

  // Wide, rank 1: [[1, 2, 2]] = σ u vᵀ with σ = 3; V (gesvdj's) is 3×3,
  // its first column ±(1, 2, 2)/3 and two completed ones.
  Literal w = MustRun(R"(HloModule t
ENTRY e {
  a = f32[1,3]{1,0} parameter(0)
  ROOT s = (f32[1,3]{1,0}, f32[1]{0}, f32[1,1]{1,0}, f32[3,3]{1,0}, s32[]) custom-call(a), custom_call_target="cusolver_gesvdj_ffi", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={compute_uv = true, full_matrices = true}
})",
                      {Lit("f32[1,3]", {1, 2, 2})});
  const std::vector<double> ws = Vals(w.tuple_elements()[1]), wu = Vals(w.tuple_elements()[2]),
                            v = Vals(w.tuple_elements()[3]);
  EXPECT_NEAR(ws[0], 3, 1e-6);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(wu[0] * ws[0] * v[j * 3 + 0], j == 0 ? 1 : 2, 1e-5) << j;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double vtv = 0;
      for (int k = 0; k < 3; ++k) vtv += v[k * 3 + i] * v[k * 3 + j];
      EXPECT_NEAR(vtv, i == j ? 1 : 0, 1e-6) << i << " " << j;
    }
}

TEST(EvalLinalgCalls, TrsmIsATriangularSolveWithLapacksOptions) {
  // side L, uplo U, trans_x T, diag N: solve [[2, 1], [0, 4]]ᵀ x = [2, 9] → x = [1, 2].
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[2,2]{0,1} parameter(0)
  b = f32[2,1]{0,1} parameter(1)
  ROOT x = f32[2,1]{0,1} custom-call(a, b), custom_call_target="lapack_strsm_ffi", output_to_operand_aliasing={{}: (1, {})}, api_version=API_VERSION_TYPED_FFI, backend_config={diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}
})", {Lit("f32[2,2]", {2, 1, 0, 4}), Lit("f32[2,1]", {2, 9})});
  EXPECT_EQ(Vals(r), (std::vector<double>{1, 2}));
}

}  // namespace
}  // namespace hloscope::testing
