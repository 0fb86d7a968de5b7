// The random module generator's linear-algebra builder (Gen::Linalg of
// random_module_internal.h): JAX's LAPACK / cuSOLVER / cuSPARSE library
// calls as jax.numpy.linalg and lax.linalg lower them — the SVD (gesdd,
// gesvdj), the symmetric eigendecomposition (syevd), Householder QR (geqrf,
// orgqr), LU (getrf), Cholesky (potrf) and the triangular solve (trsm); their
// complex forms (heevd, the complex SVDs, cgetrf, cgeqrf / cungqr); and the
// condensed forms and the tridiagonal solve (sytrd / hetrd, gehrd, gtsv and
// cuSPARSE's gtsv2), each with the shapes, layouts and options JAX writes.
#include <algorithm>
#include <string>
#include <vector>

#include "core/fuzz/random_module_internal.h"

namespace hloscope::fuzz::internal {

// JAX's LAPACK / cuSOLVER calls (lapack_sgesdd_ffi or cusolver_gesvdj_ffi
// of an m×n matrix, full or reduced; lapack_ssyevd_ffi or cusolver_syevd_ffi
// from either triangle; lapack_sgeqrf_ffi or cusolver_geqrf_ffi
// and now and then the orgqr of its reflectors; lapack_spotrf_ffi or
// cusolver_potrf_ffi, or lapack_sgetrf_ffi or cusolver_getrf_ffi, then now and then
// lapack_strsm_ffi with the factor) on f32 matrices of
// order 1 to 6, batched or not, in the entry. The matrix is made exactly
// (no rounding a kernel could do differently) from a fresh parameter p in
// [-1, 1): -p, or n+1 on the diagonal over -p, which is diagonally dominant,
// so its factor exists and triangular solves with it stay well
// conditioned whatever the right-hand side (a trsm of a random triangle
// would amplify a last-bit difference of b by up to 2^n / min |diagonal|).
// Both write over an operand (output_to_operand_aliasing) that buffer
// assignment may share.
bool Gen::Linalg(Body& b) {
  if (!b.entry || b.params.size() >= 8) return false;
  if (rng_.Chance(15)) return CondensedForm(b);
  const int64_t n = rng_.Range(1, 6);
  const bool batched = rng_.Chance(30);
  if (rng_.Chance(12)) {  // singular value decomposition (jnp.linalg.svd: gesdd, gesvdj) of any m×n
    const int64_t rows = rng_.Range(1, 6);
    Dims ad = batched ? Dims{rng_.Range(1, 3), rows, n} : Dims{rows, n};
    const Dims batch(ad.begin(), ad.end() - 2);
    const Dims l = PickLayout(b, ad.size());
    const int p = NewParam(b, T::kF32, ad, l);
    const int a = Emit(b, T::kF32, ad, l, "negate", "negate(" + Use(b, p) + ")");
    const int64_t k = std::min(rows, n);
    const bool full = rng_.Chance(50);
    const bool gesvdj = rng_.Chance(40);  // cuSOLVER's: V, not Vᵀ
    auto with = [&](std::initializer_list<int64_t> tail) {
      Dims d = batch;
      d.insert(d.end(), tail);
      return d;
    };
    const Dims sd = with({k});
    const Dims ud = with({rows, full ? rows : k});
    const Dims vd = gesvdj ? with({n, full ? n : k}) : with({full ? n : k, n});
    const std::string name = Name("svd");
    const std::string operand = Use(b, a);
    b.lines.push_back("  " + name + " = (" + b.vals[static_cast<size_t>(a)].Shape() + ", " +
                      ShapeStr(T::kF32, sd, DefaultLayout(sd.size())) + ", " + ShapeStr(T::kF32, ud, DefaultLayout(ud.size())) +
                      ", " + ShapeStr(T::kF32, vd, DefaultLayout(vd.size())) + ", " +
                      ShapeStr(T::kS32, batch, DefaultLayout(batch.size())) + ") custom-call(" + operand +
                      "), custom_call_target=\"" + (gesvdj ? "cusolver_gesvdj_ffi" : "lapack_sgesdd_ffi") +
                      "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
    Emit(b, T::kF32, sd, DefaultLayout(sd.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=1");
    if (rng_.Chance(60))
      Emit(b, T::kF32, ud, DefaultLayout(ud.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=2");
    if (rng_.Chance(60))
      Emit(b, T::kF32, vd, DefaultLayout(vd.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=3");
    return true;
  }
  const Dims md = batched ? Dims{rng_.Range(1, 3), n, n} : Dims{n, n};
  const Dims batch(md.begin(), md.end() - 2);
  const Dims l = PickLayout(b, md.size());
  const int p = NewParam(b, T::kF32, md, l);
  int m = Emit(b, T::kF32, md, l, "negate", "negate(" + Use(b, p) + ")");
  const bool dominant = rng_.Chance(75);
  if (dominant) {
    const int i0 = Emit(b, T::kS32, md, DefaultLayout(md.size()), "iota",
                        "iota(), iota_dimension=" + std::to_string(md.size() - 2));
    const int i1 = Emit(b, T::kS32, md, DefaultLayout(md.size()), "iota",
                        "iota(), iota_dimension=" + std::to_string(md.size() - 1));
    std::string u0 = Use(b, i0), u1 = Use(b, i1);
    const int eq = Emit(b, T::kPred, md, DefaultLayout(md.size()), "compare",
                        "compare(" + u0 + ", " + u1 + "), direction=EQ");
    const std::string c = Const(b, T::kF32, std::to_string(n + 1));
    const int diag = Emit(b, T::kF32, md, l, "broadcast", "broadcast(" + c + "), dimensions={}");
    std::string ue = Use(b, eq), ud = Use(b, diag), um = Use(b, m);
    m = Emit(b, T::kF32, md, l, "select", "select(" + ue + ", " + ud + ", " + um + ")");
  }
  if (rng_.Chance(15)) {
    // Complex matrices (c64): m + i·q/4 for a fresh parameter q (still
    // diagonally dominant when m is: |re| + |im| ≤ 1.25 off the diagonal);
    // Hermitian eigh (heevd, from either triangle) or an SVD, their values and
    // vectors' parts; or LU (cgetrf, cuSOLVER's getrf) or Householder QR
    // (cgeqrf, then now and then ungqr's Q), the factor's real and
    // imaginary parts as f32 values.
    const int q = NewParam(b, T::kF32, md, l);
    const std::string quarter = Const(b, T::kF32, "0.25");
    const int qb = Emit(b, T::kF32, md, l, "broadcast", "broadcast(" + quarter + "), dimensions={}");
    std::string uq = Use(b, q), uqb = Use(b, qb);
    const int im = Emit(b, T::kF32, md, l, "multiply", "multiply(" + uq + ", " + uqb + ")");
    const std::string fshape = b.vals[static_cast<size_t>(m)].Shape();
    const std::string cshape = "c64" + fshape.substr(3);
    const std::string cx = Name("cx");
    std::string um = Use(b, m), uim = Use(b, im);
    b.lines.push_back("  " + cx + " = " + cshape + " complex(" + um + ", " + uim + ")");
    const bool cusolver = rng_.Chance(30);
    Dims vd = batch;
    vd.push_back(n);
    if (rng_.Chance(35)) {  // Hermitian eigh (heevd) or an SVD (gesdd: Vᴴ; gesvdj: V): real values, complex vectors
      const bool eigh = rng_.Chance(50);
      const std::string name = Name(eigh ? "cheevd" : "csvd");
      const std::string real_shape = ShapeStr(T::kF32, vd, DefaultLayout(vd.size()));
      const std::string vec_shape = "c64" + ShapeStr(T::kF32, md, DefaultLayout(md.size())).substr(3);
      const std::string info_shape = ShapeStr(T::kS32, batch, DefaultLayout(batch.size()));
      if (eigh) {
        const bool upper = rng_.Chance(50);
        b.lines.push_back("  " + name + " = (" + cshape + ", " + real_shape + ", " + info_shape + ") custom-call(" + cx +
                          "), custom_call_target=\"" + (cusolver ? "cusolver_syevd_ffi" : "lapack_cheevd_ffi") +
                          "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config=" +
                          (cusolver ? std::string(upper ? "{lower = false}" : "{lower = true}")
                                    : std::string("{mode = 86 : ui8, uplo = ") + (upper ? "85" : "76") + " : ui8}"));
      } else {
        b.lines.push_back("  " + name + " = (" + cshape + ", " + real_shape + ", " + vec_shape + ", " + vec_shape + ", " +
                          info_shape + ") custom-call(" + cx + "), custom_call_target=\"" +
                          (cusolver ? "cusolver_gesvdj_ffi" : "lapack_cgesdd_ffi") +
                          "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
      }
      Emit(b, T::kF32, vd, DefaultLayout(vd.size()), "get-tuple-element",
           "get-tuple-element(" + name + "), index=1");
      if (rng_.Chance(60)) {
        // The eigenvectors keep the matrix's layout (element 0 of the call);
        // U has the default layout the call names.
        const std::string vecs = Name("cvecs");
        b.lines.push_back("  " + vecs + " = " + (eigh ? cshape : vec_shape) + " get-tuple-element(" + name +
                          "), index=" + (eigh ? "0" : "2"));
        const Dims vl = eigh ? l : DefaultLayout(md.size());
        Emit(b, T::kF32, md, vl, "real", "real(" + vecs + ")");
        if (rng_.Chance(50)) Emit(b, T::kF32, md, vl, "imag", "imag(" + vecs + ")");
      }
      return true;
    }
    const bool lu = rng_.Chance(50);
    const std::string name = Name(lu ? "cgetrf" : "cgeqrf");
    if (lu) {
      b.lines.push_back("  " + name + " = (" + cshape + ", " + ShapeStr(T::kS32, vd, DefaultLayout(vd.size())) + ", " +
                        ShapeStr(T::kS32, batch, DefaultLayout(batch.size())) + ") custom-call(" + cx +
                        "), custom_call_target=\"" + (cusolver ? "cusolver_getrf_ffi" : "lapack_cgetrf_ffi") +
                        "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
    } else {
      const std::string tau_shape = "c64" + ShapeStr(T::kF32, vd, DefaultLayout(vd.size())).substr(3);
      b.lines.push_back("  " + name + " = (" + cshape + ", " + tau_shape + ") custom-call(" + cx +
                        "), custom_call_target=\"" + (cusolver ? "cusolver_geqrf_ffi" : "lapack_cgeqrf_ffi") +
                        "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
    }
    std::string r = Name("cfactor");
    b.lines.push_back("  " + r + " = " + cshape + " get-tuple-element(" + name + "), index=0");
    if (!lu && rng_.Chance(70)) {
      const std::string tau = Name("ctau");
      b.lines.push_back("  " + tau + " = c64" + ShapeStr(T::kF32, vd, DefaultLayout(vd.size())).substr(3) +
                        " get-tuple-element(" + name + "), index=1");
      const std::string qm = Name("cq");
      b.lines.push_back("  " + qm + " = " + cshape + " custom-call(" + r + ", " + tau + "), custom_call_target=\"" +
                        (cusolver ? "cusolver_orgqr_ffi" : "lapack_cungqr_ffi") +
                        "\", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
      r = qm;
    }
    Emit(b, T::kF32, md, l, "real", "real(" + r + ")");
    if (rng_.Chance(60)) Emit(b, T::kF32, md, l, "imag", "imag(" + r + ")");
    return true;
  }
  if (rng_.Chance(15)) {  // symmetric eigendecomposition (jnp.linalg.eigh: syevd), one triangle read
    const bool cusolver = rng_.Chance(30);
    const bool upper = rng_.Chance(40);
    const std::string name = Name("syevd");
    const std::string shape = b.vals[static_cast<size_t>(m)].Shape();
    Dims wd = batch;
    wd.push_back(n);
    const std::string w_shape = ShapeStr(T::kF32, wd, DefaultLayout(wd.size()));
    const std::string info_shape = ShapeStr(T::kS32, batch, DefaultLayout(batch.size()));
    const std::string options = cusolver ? std::string("{algorithm = 0 : ui8, lower = ") + (upper ? "false" : "true") + "}"
                                         : std::string("{mode = 86 : ui8, uplo = ") + (upper ? "85" : "76") + " : ui8}";
    const std::string operand = Use(b, m);
    b.lines.push_back("  " + name + " = (" + shape + ", " + w_shape + ", " + info_shape + ") custom-call(" + operand +
                      "), custom_call_target=\"" + (cusolver ? "cusolver_syevd_ffi" : "lapack_ssyevd_ffi") +
                      "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config=" +
                      options);
    Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
    if (rng_.Chance(60))
      Emit(b, T::kF32, wd, DefaultLayout(wd.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=1");
    return true;
  }
  if (rng_.Chance(20)) {  // Householder QR (jnp.linalg.qr: geqrf, then orgqr for Q)
    const bool cusolver = rng_.Chance(30);
    const std::string name = Name("geqrf");
    const std::string shape = b.vals[static_cast<size_t>(m)].Shape();
    Dims td = batch;
    td.push_back(n);
    const std::string tau_shape = ShapeStr(T::kF32, td, DefaultLayout(td.size()));
    const std::string operand = Use(b, m);
    b.lines.push_back("  " + name + " = (" + shape + ", " + tau_shape + ") custom-call(" + operand +
                      "), custom_call_target=\"" + (cusolver ? "cusolver_geqrf_ffi" : "lapack_sgeqrf_ffi") +
                      "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
    const int f = Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
    const int t = Emit(b, T::kF32, td, DefaultLayout(td.size()), "get-tuple-element",
                       "get-tuple-element(" + name + "), index=1");
    if (rng_.Chance(70)) {
      std::string uf = Use(b, f), ut = Use(b, t);
      Emit(b, T::kF32, md, l, "orgqr",
           "custom-call(" + uf + ", " + ut + "), custom_call_target=\"" +
               (cusolver ? "cusolver_orgqr_ffi" : "lapack_sorgqr_ffi") +
               "\", output_to_operand_aliasing={{}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
    }
    return true;
  }
  const bool lower = rng_.Chance(50);
  int a = m;
  if (rng_.Chance(30)) {  // LU with partial pivoting (jnp.linalg.solve's getrf)
    const bool cusolver = rng_.Chance(30);
    const std::string name = Name("getrf");
    const Val& vm = b.vals[static_cast<size_t>(m)];
    Dims pd = batch;
    pd.push_back(n);
    const std::string piv_shape = ShapeStr(T::kS32, pd, DefaultLayout(pd.size()));
    const std::string info_shape = ShapeStr(T::kS32, batch, DefaultLayout(batch.size()));
    const std::string operand = Use(b, m);
    b.lines.push_back("  " + name + " = (" + vm.Shape() + ", " + piv_shape + ", " + info_shape + ") custom-call(" +
                      operand + "), custom_call_target=\"" + (cusolver ? "cusolver_getrf_ffi" : "lapack_sgetrf_ffi") +
                      "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI");
    if (rng_.Chance(30))
      Emit(b, T::kS32, pd, DefaultLayout(pd.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=1");
    if (rng_.Chance(20))
      Emit(b, T::kS32, batch, DefaultLayout(batch.size()), "get-tuple-element",
           "get-tuple-element(" + name + "), index=2");
    a = Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
    if (!dominant) return true;
  } else if (!dominant || rng_.Chance(70)) {
    const bool cusolver = rng_.Chance(30);
    const std::string name = Name("potrf");
    const Val& vm = b.vals[static_cast<size_t>(m)];
    const std::string info_shape = ShapeStr(T::kS32, batch, DefaultLayout(batch.size()));
    const std::string operand = Use(b, m);
    b.lines.push_back("  " + name + " = (" + vm.Shape() + ", " + info_shape + ") custom-call(" + operand +
                      "), custom_call_target=\"" + (cusolver ? "cusolver_potrf_ffi" : "lapack_spotrf_ffi") +
                      "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, " +
                      "backend_config={" +
                      (cusolver ? std::string(lower ? "lower = true" : "lower = false")
                                : std::string(lower ? "uplo = 76 : ui8" : "uplo = 85 : ui8")) +
                      "}");
    if (rng_.Chance(30))
      Emit(b, T::kS32, batch, DefaultLayout(batch.size()), "get-tuple-element",
           "get-tuple-element(" + name + "), index=1");
    a = Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
    if (!dominant) return true;  // no factor to solve with
  }
  if (rng_.Chance(30)) return true;
  const bool left = rng_.Chance(50);
  const int64_t k = rng_.Range(1, 5);
  Dims bd = batch;
  bd.push_back(left ? n : k);
  bd.push_back(left ? k : n);
  const int rhs = GetOrMake(b, T::kF32, bd);
  const Dims bl = b.vals[static_cast<size_t>(rhs)].layout;
  const char* trans[] = {"78", "84", "67"};  // N, T, C
  const bool unit = rng_.Chance(20);
  std::string ua = Use(b, a), ur = Use(b, rhs);
  Emit(b, T::kF32, bd, bl, "trsm",
       "custom-call(" + ua + ", " + ur +
           "), custom_call_target=\"lapack_strsm_ffi\", output_to_operand_aliasing={{}: (1, {})}, "
           "api_version=API_VERSION_TYPED_FFI, backend_config={diag = " +
           (unit ? "85" : "78") + " : ui8, side = " + (left ? "76" : "82") + " : ui8, trans_x = " +
           trans[rng_.Range(0, 2)] + " : ui8, uplo = " + (lower ? "76" : "85") + " : ui8}");
  return true;
}

// The condensed forms, the tridiagonal solve and the nonsymmetric
// eigendecomposition (jnp.linalg.eig: geev, LAPACK's or cuSOLVER's; schur:
// gees), (lax.linalg.tridiagonal:
// sytrd / hetrd from either triangle; jax.scipy.linalg.hessenberg: gehrd over
// a random low..high; lax.linalg.tridiagonal_solve: LAPACK's gtsv with its
// tuple of results, or cuSPARSE's gtsv2 with x alone), on f32 values or, now
// and then, c64 ones (p + i·q/4), each result's parts as f32 values.
bool Gen::CondensedForm(Body& b) {
  const int64_t n = rng_.Range(1, 6);
  const Dims batch = rng_.Chance(30) ? Dims{rng_.Range(1, 3)} : Dims{};
  const bool complex = rng_.Chance(25);
  auto with = [&](std::initializer_list<int64_t> tail) {
    Dims d = batch;
    d.insert(d.end(), tail);
    return d;
  };
  auto shape = [&](const Dims& d, const Dims& l, bool c) {
    const std::string s = ShapeStr(T::kF32, d, l);
    return c ? "c64" + s.substr(3) : s;
  };
  // A fresh operand of dims d: -p, or complex(p, q/4).
  auto operand = [&](const Dims& d, const Dims& l) -> std::string {
    const int p = NewParam(b, T::kF32, d, l);
    if (!complex) return Use(b, Emit(b, T::kF32, d, l, "negate", "negate(" + Use(b, p) + ")"));
    const int q = NewParam(b, T::kF32, d, l);
    const std::string quarter = Const(b, T::kF32, "0.25");
    const int qb = Emit(b, T::kF32, d, l, "broadcast", "broadcast(" + quarter + "), dimensions={}");
    std::string uq = Use(b, q), uqb = Use(b, qb);
    const int im = Emit(b, T::kF32, d, l, "multiply", "multiply(" + uq + ", " + uqb + ")");
    const std::string cx = Name("cx");
    std::string up = Use(b, p), uim = Use(b, im);
    b.lines.push_back("  " + cx + " = " + shape(d, l, true) + " complex(" + up + ", " + uim + ")");
    return cx;
  };
  // Element `index` of call `name` as f32 values (a complex one's real and,
  // now and then, imaginary parts).
  auto take = [&](const std::string& name, int index, const Dims& d, const Dims& l, bool c) {
    const std::string gte = "get-tuple-element(" + name + "), index=" + std::to_string(index);
    if (!c) {
      Emit(b, T::kF32, d, l, "get-tuple-element", gte);
      return;
    }
    const std::string g = Name("cpart");
    b.lines.push_back("  " + g + " = " + shape(d, l, true) + " " + gte);
    Emit(b, T::kF32, d, l, "real", "real(" + g + ")");
    if (rng_.Chance(50)) Emit(b, T::kF32, d, l, "imag", "imag(" + g + ")");
  };
  const char lapack = complex ? 'c' : 's';
  const Dims info = batch;
  const std::string info_shape = ShapeStr(T::kS32, info, DefaultLayout(info.size()));
  if (complex && rng_.Chance(20)) {  // complex geev: LAPACK's (left or right vectors, or none) or cuSOLVER's
    const Dims md = with({n, n});
    const Dims l = PickLayout(b, md.size());
    const std::string a = operand(md, l);
    const Dims vd = with({n});
    const Dims vl = DefaultLayout(vd.size());
    const std::string cm = shape(md, l, true), cv = shape(vd, vl, true);
    const int vectors = static_cast<int>(rng_.Range(0, 2));  // none, right, left
    const std::string name = Name("cgeev");
    if (vectors != 2 && rng_.Chance(30)) {
      b.lines.push_back("  " + name + " = (" + cm + ", " + cv + ", " + cm + ", " + cm + ", " + info_shape + ") custom-call(" +
                        a + "), custom_call_target=\"cusolver_geev_ffi\", api_version=API_VERSION_TYPED_FFI, "
                        "backend_config={left = false, right = " + (vectors == 1 ? "true" : "false") + "}");
      take(name, 1, vd, vl, true);
      if (vectors == 1) take(name, 3, md, l, true);
      return true;
    }
    b.lines.push_back("  " + name + " = (" + cv + ", " + cm + ", " + cm + ", " + info_shape + ") custom-call(" + a +
                      "), custom_call_target=\"lapack_cgeev_ffi\", api_version=API_VERSION_TYPED_FFI, "
                      "backend_config={compute_left = " + (vectors == 2 ? "86" : "78") + " : ui8, compute_right = " +
                      (vectors == 1 ? "86" : "78") + " : ui8}");
    take(name, 0, vd, vl, true);
    if (vectors != 0) take(name, vectors == 1 ? 2 : 1, md, l, true);
    return true;
  }
  if (!complex && rng_.Chance(25)) {  // geev (LAPACK's or cuSOLVER's) or gees, on f32
    const Dims md = with({n, n});
    const Dims l = PickLayout(b, md.size());
    const std::string a = operand(md, l);
    const Dims vd = with({n});
    const Dims vl = DefaultLayout(vd.size());
    const std::string ms = ShapeStr(T::kF32, md, l), vs = ShapeStr(T::kF32, vd, vl);
    if (rng_.Chance(30)) {  // gees: T, Z (or none), wr, wi
      const bool vectors = rng_.Chance(70);
      const std::string name = Name("gees");
      b.lines.push_back("  " + name + " = (" + ms + ", " + ms + ", " + vs + ", " + vs + ", " + info_shape + ", " +
                        info_shape + ") custom-call(" + a +
                        "), custom_call_target=\"lapack_sgees_ffi\", api_version=API_VERSION_TYPED_FFI, "
                        "backend_config={mode = " + (vectors ? "86" : "78") + " : ui8, sort = 78 : ui8}");
      Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
      if (vectors) Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=1");
      Emit(b, T::kF32, vd, vl, "get-tuple-element", "get-tuple-element(" + name + "), index=3");
      return true;
    }
    const bool left = rng_.Chance(30), right = rng_.Chance(70);
    const std::string name = Name("geev");
    if (!left && rng_.Chance(40)) {  // cuSOLVER's: T, w, vl, vr (packed real)
      b.lines.push_back("  " + name + " = (" + ms + ", " + shape(vd, vl, true) + ", " + ms + ", " + ms + ", " + info_shape +
                        ") custom-call(" + a + "), custom_call_target=\"cusolver_geev_ffi\", "
                        "api_version=API_VERSION_TYPED_FFI, backend_config={left = false, right = " +
                        (right ? "true" : "false") + "}");
      take(name, 1, vd, vl, true);
      if (right) Emit(b, T::kF32, md, l, "get-tuple-element", "get-tuple-element(" + name + "), index=3");
      return true;
    }
    const std::string cm = shape(md, l, true);
    b.lines.push_back("  " + name + " = (" + vs + ", " + vs + ", " + cm + ", " + cm + ", " + info_shape + ") custom-call(" +
                      a + "), custom_call_target=\"lapack_sgeev_ffi\", api_version=API_VERSION_TYPED_FFI, "
                      "backend_config={compute_left = " + (left ? "86" : "78") + " : ui8, compute_right = " +
                      (right ? "86" : "78") + " : ui8}");
    Emit(b, T::kF32, vd, vl, "get-tuple-element", "get-tuple-element(" + name + "), index=0");
    Emit(b, T::kF32, vd, vl, "get-tuple-element", "get-tuple-element(" + name + "), index=1");
    if (right) take(name, 3, md, l, true);
    if (left) take(name, 2, md, l, true);
    return true;
  }
  const int kind = static_cast<int>(rng_.Range(0, 2));
  if (kind == 2) {  // gtsv
    const Dims vd = with({n});
    const Dims vl = DefaultLayout(vd.size());
    const Dims bd = with({n, rng_.Range(1, 3)});
    const Dims bl = PickLayout(b, bd.size());
    const std::string dl = operand(vd, vl), d = operand(vd, vl), du = operand(vd, vl), rhs = operand(bd, bl);
    const std::string args = "custom-call(" + dl + ", " + d + ", " + du + ", " + rhs + ")";
    const std::string vs = shape(vd, vl, complex), bs = shape(bd, bl, complex);
    if (rng_.Chance(40)) {  // cuSPARSE's: x alone, over b
      const std::string name = Name("gtsv2");
      b.lines.push_back("  " + name + " = " + bs + " " + args +
                        ", custom_call_target=\"cusparse_gtsv2_ffi\", output_to_operand_aliasing={{}: (3, {})}, "
                        "api_version=API_VERSION_TYPED_FFI");
      if (!complex) {
        Emit(b, T::kF32, bd, bl, "copy", "copy(" + name + ")");
        return true;
      }
      Emit(b, T::kF32, bd, bl, "real", "real(" + name + ")");
      if (rng_.Chance(50)) Emit(b, T::kF32, bd, bl, "imag", "imag(" + name + ")");
      return true;
    }
    const std::string name = Name("gtsv");
    b.lines.push_back("  " + name + " = (" + vs + ", " + vs + ", " + vs + ", " + bs + ", " + info_shape + ") " + args +
                      ", custom_call_target=\"lapack_" + lapack +
                      "gtsv_ffi\", output_to_operand_aliasing={{0}: (0, {}), {1}: (1, {}), {2}: (2, {}), {3}: (3, {})}, "
                      "api_version=API_VERSION_TYPED_FFI");
    take(name, 3, bd, bl, complex);
    for (int k = 0; k < 3; ++k)
      if (rng_.Chance(25)) take(name, k, vd, vl, complex);
    if (rng_.Chance(20)) Emit(b, T::kS32, info, DefaultLayout(info.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=4");
    return true;
  }
  const Dims md = with({n, n});
  const Dims l = PickLayout(b, md.size());
  const std::string a = operand(md, l);
  const Dims td = with({n - 1});
  const Dims tl = DefaultLayout(td.size());
  if (kind == 0) {  // sytrd / hetrd
    const bool cusolver = rng_.Chance(30), upper = rng_.Chance(50);
    const Dims dd = with({n});
    const std::string name = Name(complex ? "hetrd" : "sytrd");
    b.lines.push_back("  " + name + " = (" + shape(md, l, complex) + ", " + ShapeStr(T::kF32, dd, DefaultLayout(dd.size())) +
                      ", " + ShapeStr(T::kF32, td, tl) + ", " + shape(td, tl, complex) + ", " + info_shape +
                      ") custom-call(" + a + "), custom_call_target=\"" +
                      (cusolver ? std::string("cusolver_sytrd_ffi")
                                : std::string("lapack_") + lapack + (complex ? "hetrd_ffi" : "sytrd_ffi")) +
                      "\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, backend_config=" +
                      (cusolver ? std::string(upper ? "{lower = false}" : "{lower = true}")
                                : std::string("{uplo = ") + (upper ? "85" : "76") + " : ui8}"));
    Emit(b, T::kF32, dd, DefaultLayout(dd.size()), "get-tuple-element", "get-tuple-element(" + name + "), index=1");
    if (rng_.Chance(60)) Emit(b, T::kF32, td, tl, "get-tuple-element", "get-tuple-element(" + name + "), index=2");
    if (rng_.Chance(50)) take(name, 0, md, l, complex);
    if (rng_.Chance(40)) take(name, 3, td, tl, complex);
    return true;
  }
  const int64_t low = rng_.Range(1, n), high = rng_.Range(low, n);  // gehrd
  const std::string name = Name("gehrd");
  b.lines.push_back("  " + name + " = (" + shape(md, l, complex) + ", " + shape(td, tl, complex) + ", " + info_shape +
                    ") custom-call(" + a + "), custom_call_target=\"lapack_" + lapack +
                    "gehrd_ffi\", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_TYPED_FFI, "
                    "backend_config={high = " + std::to_string(high) + " : i32, low = " + std::to_string(low) + " : i32}");
  take(name, 0, md, l, complex);
  if (rng_.Chance(50)) take(name, 1, td, tl, complex);
  return true;
}

}  // namespace hloscope::fuzz::internal
