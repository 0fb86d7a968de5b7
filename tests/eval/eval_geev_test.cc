// JAX's nonsymmetric eig (geev) in the interpreter, against LAPACK's own
// dgeev (scipy.linalg.lapack.dgeev on the same f64 inputs, written here):
// eigenvalues in LAPACK's order, left and right eigenvectors with its
// normalization and signs, on a matrix with complex pairs, one whose zeros
// let balancing isolate eigenvalues by permutations, and one whose rows and
// columns differ in scale by orders of magnitude (balancing scales them).
#include <complex>

#include "tests/eval/eval_test_util.h"

namespace hloscope::testing {
namespace {

using C = std::complex<double>;

struct Want {
  std::vector<double> a, wr, wi, vl, vr;  // vl, vr: LAPACK's packed real form, row-major
};

// LAPACK's packed form as JAX's complex eigenvectors.
C Unpacked(const std::vector<double>& v, const std::vector<double>& wi, int n, int r, int j) {
  if (wi[j] > 0) return {v[r * n + j], v[r * n + j + 1]};
  if (wi[j] < 0) return {v[r * n + j - 1], -v[r * n + j]};
  return {v[r * n + j], 0};
}

void Check(int n, const Want& w, double tol) {
  const std::string s = std::to_string(n);
  const std::string hlo = "HloModule t\nENTRY e {\n  a = f64[" + s + "," + s + "]{0,1} parameter(0)\n  ROOT g = (f64[" + s +
                          "]{0}, f64[" + s + "]{0}, c128[" + s + "," + s + "]{0,1}, c128[" + s + "," + s +
                          "]{0,1}, s32[]) custom-call(a), custom_call_target=\"lapack_dgeev_ffi\", "
                          "api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}\n}\n";
  Literal r = MustRun(hlo, {Lit("f64[" + s + "," + s + "]", w.a)});
  ASSERT_TRUE(r.IsTuple());
  const std::vector<double> wr = Vals(r.tuple_elements()[0]), wi = Vals(r.tuple_elements()[1]);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(wr[i], w.wr[i], tol) << "wr " << i;
    EXPECT_NEAR(wi[i], w.wi[i], tol) << "wi " << i;
  }
  for (int k = 0; k < 2; ++k) {
    const Literal& v = r.tuple_elements()[2 + k];
    for (int row = 0; row < n; ++row)
      for (int j = 0; j < n; ++j) {
        const C want = Unpacked(k == 0 ? w.vl : w.vr, w.wi, n, row, j);
        const C got = v.GetComplex(row * n + j);
        EXPECT_NEAR(got.real(), want.real(), tol) << (k == 0 ? "vl " : "vr ") << row << "," << j;
        EXPECT_NEAR(got.imag(), want.imag(), tol) << (k == 0 ? "vl " : "vr ") << row << "," << j;
      }
  }
  EXPECT_EQ(Ints(r.tuple_elements()[4]), (std::vector<int64_t>{0}));
}

TEST(EvalGeev, ComplexPairsInLapacksOrderWithItsNormalization) {
  Check(4,
        {{1, 2, 0.5, -1, -3, 1, 2, 0.25, 0.5, -1, 2, 1, 1, 0.5, -2, -1},
         {0.5588202723697276, 0.5588202723697276, 2.013961068397241, -0.1316016131366946},
         {3.0779797240416227, -3.0779797240416227, 0, 0},
         {-0.6093996585662464, 0., 0.43178603308325436, -0.1239429264184536, 0.04794512641847487, -0.5229242112696562,
          0.05368522784095993, 0.3038353614107046, 0.4945986380002394, 0.05627531634509537, 0.8868578325289848,
          0.4974518256923811, 0.16539083563954207, 0.278809500923279, 0.1554409946824908, 0.8030341868579278},
         {0.06213256781549592, -0.533368288315558, 0.5194459148800249, 0.0894863402048516, 0.697502165715424, 0.,
          -0.10699400642953975, 0.43810025579506107, -0.03129689789130131, 0.3074970228831185, 0.7694218703482489,
          -0.22195848714759656, -0.23492926505106626, -0.2728055486628605, -0.35597501251128855, 0.8664841549458328}},
        1e-12);
}

TEST(EvalGeev, BalancingPermutesIsolatedEigenvalues) {
  Check(4,
        {{2, 1, 3, 4, 0, 1, -2, 5, 0, 3, 1, 1, 0, 0, 0, 7},
         {2, 1, 1, 7},
         {0, 2.4494897427831783, -2.4494897427831783, 0},
         {0.3501576063922972, 0., 0., 0., 0.500225151988996, 0.6625891564490793, 0., 0., 0.0500225151988996, 0.,
          -0.5410017808004596, 0., -0.7903557401426137, -0.44172610429938625, 0.27050089040022973, 1.},
         {1., 0.6731456008918129, 0., 0.6877846209862782, 0., -0.46423834544262965, -0.056857353268417725,
          0.37177547080339357, 0., -0.0696357518163944, 0.5685735326841775, 0.27883160310254523, 0., 0., 0.,
          0.5576632062050905}},
        1e-12);
}

TEST(EvalGeev, BalancingScalesRowsAndColumns) {
  Check(3,
        {{1, 100, 1e4, 0.01, 2, 300, 1e-4, 0.02, 3},
         {5.505102572168212e-01, 5.449489742783178e+00, -2.220446049250313e-16},
         {0, 0, 0},
         {-1.5797892390742666e-04, 3.7978685879482483e-05, 0., -2.8989672678371415e-03, 6.8988153048208057e-03,
          -9.9995000374968786e-03, 9.9999578550683876e-01, 9.9997620216933625e-01, 9.9995000374968768e-01},
         {-9.9999747424415697e-01, 9.9975259261133342e-01, 9.9980005498300550e-01, 2.2474430374091687e-03,
          2.2241944530725088e-02, -1.9996001099660096e-02, 2.2474430374091686e-05, 2.2241944530725091e-04,
          9.9980005498300439e-05}},
        1e-10);
}

// eigvals alone (no vectors asked for): the eigenvalues, and zeros where
// the vectors would be; a 1×1 matrix.
TEST(EvalGeev, EigenvaluesAloneAndTheOneByOneCase) {
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = f32[1,1]{0,1} parameter(0)
  ROOT g = (f32[1]{0}, f32[1]{0}, c64[1,1]{0,1}, c64[1,1]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_sgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 78 : ui8, compute_right = 78 : ui8}
})",
                      {Lit("f32[1,1]", {-2.5})});
  EXPECT_EQ(Vals(r.tuple_elements()[0]), (std::vector<double>{-2.5}));
  EXPECT_EQ(Vals(r.tuple_elements()[1]), (std::vector<double>{0}));
  EXPECT_EQ(r.tuple_elements()[3].GetComplex(0), C(0, 0));
}

// gees (jax.scipy.linalg.schur) against scipy's dgees: the Schur form T
// with its 2×2 block standardized, the Schur vectors, LAPACK's eigenvalue
// order; and a matrix already quasi-triangular after balancing's
// permutations (Z = I).
TEST(EvalGeev, GeesMatchesLapacksSchurForm) {
  auto run = [](const std::vector<double>& a) {
    return MustRun(R"(HloModule t
ENTRY e {
  a = f64[4,4]{0,1} parameter(0)
  ROOT s = (f64[4,4]{0,1}, f64[4,4]{0,1}, f64[4]{0}, f64[4]{0}, s32[], s32[]) custom-call(a), custom_call_target="lapack_dgees_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={mode = 86 : ui8, sort = 78 : ui8}
})",
                   {Lit("f64[4,4]", a)});
  };
  auto near = [](const std::vector<double>& got, const std::vector<double>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << what << " " << i;
  };
  Literal p = run({1, 2, 0.5, -1, -3, 1, 2, 0.25, 0.5, -1, 2, 1, 1, 0.5, -2, -1});
  near(Vals(p.tuple_elements()[0]),
       {0.5588202723697276, -2.777424461256659, 0.22111400716314847, 0.8692838692432675, 3.4110591714616083,
        0.5588202723697276, -0.20732939799229386, 2.4760478468270817, 0, 0, 2.013961068397241, 1.3367221323218061, 0, 0,
        0, -0.1316016131366946},
       "T");
  near(Vals(p.tuple_elements()[1]),
       {-0.7976251309499229, -0.07139542701922894, 0.5859479451868486, -0.12394292641845357, -0.2219666036713272,
        0.9178933028279674, -0.1260427889036399, 0.30383536141070455, 0.4584065631733891, 0.047113913400837086,
        0.7349730492466627, 0.497451825692381, -0.32309193764514804, -0.38749820230339843, -0.3171637396957056,
        0.8030341868579277},
       "Z");
  near(Vals(p.tuple_elements()[2]), {0.5588202723697276, 0.5588202723697276, 2.013961068397241, -0.1316016131366946}, "wr");
  near(Vals(p.tuple_elements()[3]), {3.0779797240416227, -3.0779797240416227, 0, 0}, "wi");
  EXPECT_EQ(Ints(p.tuple_elements()[4]), (std::vector<int64_t>{0}));
  Literal q = run({2, 1, 3, 4, 0, 1, -2, 5, 0, 3, 1, 1, 0, 0, 0, 7});
  near(Vals(q.tuple_elements()[0]), {2, 1, 3, 4, 0, 1, -2, 5, 0, 3, 1, 1, 0, 0, 0, 7}, "T");
  near(Vals(q.tuple_elements()[1]), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, "Z");
  near(Vals(q.tuple_elements()[3]), {0, 2.4494897427831783, -2.4494897427831783, 0}, "wi");
}

// Complex geev (zgeev's single-shift QR): scipy's zgeev on the same input,
// eigenvalues in its order, both eigenvectors with its phases.
TEST(EvalGeev, ComplexMatchesLapacksZgeev) {
  const std::vector<C> a = {{1, 1}, {2, 0}, {0.5, -1}, {-1, 0}, {0, -3}, {1, 0}, {2, 0}, {0.25, 0.5},
                            {0.5, 0}, {-1, 2}, {2, 0}, {1, 0}, {1, 0}, {0.5, 0}, {0, -2}, {-1, 0.5}};
  Literal in = Lit("c128[4,4]", std::vector<double>(16, 0));
  for (int i = 0; i < 16; ++i) in.SetComplex(i, a[i]);
  Literal r = MustRun(R"(HloModule t
ENTRY e {
  a = c128[4,4]{0,1} parameter(0)
  ROOT g = (c128[4]{0}, c128[4,4]{0,1}, c128[4,4]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_zgeev_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={compute_left = 86 : ui8, compute_right = 86 : ui8}
})",
                      {in});
  auto near = [](const Literal& l, const std::vector<C>& want, const char* what) {
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(l.GetComplex(static_cast<int64_t>(i)).real(), want[i].real(), 1e-12) << what << " " << i;
      EXPECT_NEAR(l.GetComplex(static_cast<int64_t>(i)).imag(), want[i].imag(), 1e-12) << what << " " << i;
    }
  };
  near(r.tuple_elements()[0],
       {{3.4725350612067567, 0.25192402299340255}, {1.0621626679314753, -2.197425794697621},
        {-0.6250066295564912, 2.9631083750731086}, {-0.9096910995817453, 0.48239339663110786}},
       "w");
  near(r.tuple_elements()[1],
       {{0.6256896786697199, 0}, {0.46269586976138977, 0.15034281759111956}, {0.7364748584583211, 0},
        {-0.3209319185855871, -0.38727543027312056}, {0.19980779529074696, -0.43105043461096554}, {0.589645084699105, 0},
        {-0.3404804371857954, 0.3136899630316928}, {0.2313524283748791, -0.06920731705123997},
        {0.6008075638699553, -0.12093713240001902}, {-0.259187444960351, -0.49337416873579},
        {-0.2866890589092819, -0.11033869852788183}, {-0.27695896396404057, -0.24119464627423146},
        {-0.04651541782180208, -0.07089140199843849}, {-0.3223538708279473, -0.03346675000850341},
        {-0.11236210894673038, -0.3691693018489856}, {0.7441946793547858, 0}},
       "vl");
  near(r.tuple_elements()[2],
       {{0.31555245754040306, -0.33860750885315793}, {-0.21086378423021895, -0.1418708539779323},
        {0.6674137976472475, 0}, {0.1476615369361638, -0.2517930169566204}, {0.15835451861878885, -0.4173980609472327},
        {-0.2894410952829351, 0.5158558240207342}, {-0.3567593554311956, 0.33169026208861263},
        {0.3043052716879901, 0.19509100182632835}, {0.6416390753024807, 0}, {0.6675687371644009, 0},
        {-0.3121023639419635, 0.14564403411218513}, {-0.06941326638553162, -0.11035794640210292},
        {0.11061820297731083, -0.40315904659826346}, {0.22163156143902846, -0.3012593212032011},
        {0.3606259871130635, -0.2619007106253805}, {0.8758636148775862, 0}},
       "vr");
}

}  // namespace
}  // namespace hloscope::testing
