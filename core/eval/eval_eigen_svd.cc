// The eigen and singular value decompositions of JAX's library calls
// (syevd / heevd, gesdd / gesvdj): one-sided Jacobi sweeps over the columns
// of a literal, in double / complex<double>, values sorted with their
// columns, as the kernels (eigh_emitter.cc, svd_emitter.cc) compute them.
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <numeric>

#include "core/eval/eval_internal.h"
#include "core/ir/custom_calls.h"

namespace hloscope::eval {
namespace {

using C = std::complex<double>;

int64_t Product(const std::vector<int64_t>& d, int from, int to) {
  int64_t p = 1;
  for (int i = from; i < to; ++i) p *= d[static_cast<size_t>(i)];
  return p;
}

// The columns of a matrix kept in a literal, element (row, col) at at(row,
// col), read and written through f64 (SetDouble rounds to the element type).
struct LiteralColumns {
  Literal* lit;
  int64_t rows;
  std::function<int64_t(int64_t, int64_t)> at;
  double Get(int64_t row, int64_t col) const { return lit->GetDouble(at(row, col)); }
  void Set(int64_t row, int64_t col, double v) const { lit->SetDouble(at(row, col), v); }
};

// Σ_row c(row, i)·c(row, j), in row order (the kernels' EmitColumnDot).
double ColumnDot(const LiteralColumns& c, int64_t i, int64_t j) {
  double d = 0;
  for (int64_t row = 0; row < c.rows; ++row) d += c.Get(row, i) * c.Get(row, j);
  return d;
}

// The one-sided Jacobi sweeps of syevd and gesvd (custom_calls.h; the
// kernels' EmitJacobiSweeps) on the first q columns of l, each rotation
// applied to r's columns too when it is given.
void JacobiSweeps(const LiteralColumns& l, int64_t q, const LiteralColumns* r, double tol) {
  bool done = false;
  for (int sweep = 0; sweep < kEighSweeps && !done; ++sweep) {
    bool rotated = false;
    for (int64_t i = 0; i + 1 < q; ++i)
      for (int64_t j = i + 1; j < q; ++j) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t row = 0; row < l.rows; ++row) {
          const double gi = l.Get(row, i), gj = l.Get(row, j);
          alpha += gi * gi;
          beta += gj * gj;
          gamma += gi * gj;
        }
        if (!(std::fabs(gamma) > tol * std::sqrt(alpha * beta))) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t);
        const double s = c * t;
        auto rotate = [&](const LiteralColumns& m) {
          for (int64_t row = 0; row < m.rows; ++row) {
            const double gi = m.Get(row, i), gj = m.Get(row, j);
            m.Set(row, i, c * gi - s * gj);
            m.Set(row, j, s * gi + c * gj);
          }
        };
        rotate(l);
        if (r) rotate(*r);
      }
    done = !rotated;
  }
}

// A selection sort of the vector `values` (value i at Get(i, 0)), ascending
// or descending: the first smallest (largest) of those left swapped into
// place, with it the same columns of each of `with` (the kernels'
// EmitSortColumnsByValue). Columns is LiteralColumns or ComplexColumns.
template <class Columns>
void SortColumnsByValue(const LiteralColumns& values, bool descending,
                        std::initializer_list<const Columns*> with) {
  for (int64_t i = 0; i < values.rows; ++i) {
    int64_t m = i;
    double best = values.Get(i, 0);
    for (int64_t j = i + 1; j < values.rows; ++j) {
      const double v = values.Get(j, 0);
      if (descending ? v > best : v < best) {
        best = v;
        m = j;
      }
    }
    if (m == i) continue;
    for (const Columns* c : with)
      for (int64_t row = 0; row < c->rows; ++row) {
        const auto x = c->Get(row, i);
        c->Set(row, i, c->Get(row, m));
        c->Set(row, m, x);
      }
    const double x = values.Get(i, 0);
    values.Set(i, 0, values.Get(m, 0));
    values.Set(m, 0, x);
  }
}

// Complex columns kept in a literal, element (row, col) at at(row, col),
// conjugated on the way in and out when `conj` (LAPACK's Vᴴ keeps the right
// singular vectors as conjugated rows).
struct ComplexColumns {
  Literal* lit;
  int64_t rows;
  std::function<int64_t(int64_t, int64_t)> at;
  bool conj = false;
  C Get(int64_t row, int64_t col) const {
    const C x = lit->GetComplex(at(row, col));
    return conj ? std::conj(x) : x;
  }
  void Set(int64_t row, int64_t col, C v) const { lit->SetComplex(at(row, col), conj ? std::conj(v) : v); }
};

double Abs2(C x) { return x.real() * x.real() + x.imag() * x.imag(); }

// Σ_row conj(c(row, i))·c(row, j) in row order, written out in real
// arithmetic as the kernels compute it.
C ComplexColumnDot(const ComplexColumns& c, int64_t i, int64_t j) {
  double re = 0, im = 0;
  for (int64_t row = 0; row < c.rows; ++row) {
    const C x = c.Get(row, i), y = c.Get(row, j);
    re += x.real() * y.real() + x.imag() * y.imag();
    im += x.real() * y.imag() - x.imag() * y.real();
  }
  return {re, im};
}

// The one-sided Jacobi sweeps of heevd and the complex SVDs (custom_calls.h;
// the kernels' EmitComplexJacobiSweeps): each pair's rotation turns column j
// by the phase of γ = g_iᴴ·g_j, then rotates as the real case with |γ|; the
// same rotation applied to r's columns when r is given.
void ComplexJacobiSweeps(const ComplexColumns& l, int64_t q, const ComplexColumns* r, double tol) {
  bool done = false;
  for (int sweep = 0; sweep < kEighSweeps && !done; ++sweep) {
    bool rotated = false;
    for (int64_t i = 0; i + 1 < q; ++i)
      for (int64_t j = i + 1; j < q; ++j) {
        double alpha = 0, beta = 0, gr = 0, gi = 0;
        for (int64_t row = 0; row < l.rows; ++row) {
          const C x = l.Get(row, i), y = l.Get(row, j);
          alpha += Abs2(x);
          beta += Abs2(y);
          gr += x.real() * y.real() + x.imag() * y.imag();
          gi += x.real() * y.imag() - x.imag() * y.real();
        }
        const double g = std::sqrt(gr * gr + gi * gi);
        if (!(g > tol * std::sqrt(alpha * beta))) continue;
        rotated = true;
        const double er = gr / g, ei = gi / g;
        const double zeta = (beta - alpha) / (2 * g);
        const double tn = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + tn * tn);
        const double sn = c * tn;
        auto rotate = [&](const ComplexColumns& m) {
          for (int64_t row = 0; row < m.rows; ++row) {
            const C x = m.Get(row, i), y = m.Get(row, j);
            const double hr = er * y.real() + ei * y.imag(), hi = er * y.imag() - ei * y.real();
            m.Set(row, i, C(c * x.real() - sn * hr, c * x.imag() - sn * hi));
            m.Set(row, j, C(sn * x.real() + c * hr, sn * x.imag() + c * hi));
          }
        };
        rotate(l);
        if (r) rotate(*r);
      }
    done = !rotated;
  }
}

// heevd (jnp.linalg.eigh of complex Hermitian matrices) as custom_calls.h
// defines it: syevd's steps on complex columns, each rotation turning
// column j by the phase of γ = g_iᴴ·g_j first. Written out in real
// arithmetic, in the order the kernel (eigh_emitter.cc) computes it.
StatusOr<Literal> EvalHeevd(const Instruction& instr, const LinalgCall& call, Operands ops) {
  const Literal& a = *ops[0];
  const int r = a.shape().rank();
  const Shape& ts = instr.shape();
  const PrimitiveType t = a.shape().element_type();
  const PrimitiveType real = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
  if (r < 2 || a.shape().dim(r - 1) != a.shape().dim(r - 2) || ts.tuple_shapes()[0].dims() != a.shape().dims())
    return InstrError(instr, "needs square matrices in the last two dimensions and eigenvectors shaped as them");
  const int64_t n = a.shape().dim(r - 1);
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  const Shape& ws = ts.tuple_shapes()[1];
  const Shape& is = ts.tuple_shapes()[2];
  std::vector<int64_t> batch_dims(a.shape().dims().begin(), a.shape().dims().end() - 2);
  std::vector<int64_t> w_dims = batch_dims;
  w_dims.push_back(n);
  if (ws.element_type() != real || ws.dims() != w_dims || !IsInteger(is.element_type()) || is.dims() != batch_dims)
    return InstrError(instr, "needs results (eigenvectors, n real eigenvalues per matrix, an integer info per matrix)");
  Literal v(NoLayout(ts.tuple_shapes()[0])), w(NoLayout(ws)), info(NoLayout(is));
  const double tol = EighTolerance(t, n);
  for (int64_t bt = 0; bt < batches; ++bt) {
    const int64_t base = bt * n * n;
    auto at = [&](int64_t i, int64_t j) { return base + i * n + j; };
    // A(i, j) from the triangle the call names; a real diagonal.
    auto herm = [&](int64_t i, int64_t j) {
      if (i == j) return C(a.GetComplex(at(i, i)).real(), 0.0);
      const bool stored = call.lower ? i > j : i < j;
      return stored ? a.GetComplex(at(i, j)) : std::conj(a.GetComplex(at(j, i)));
    };
    double norm = 0;
    for (int64_t i = 0; i < n; ++i) {
      double row = 0;
      for (int64_t j = 0; j < n; ++j) {
        const C x = herm(i, j);
        row += std::sqrt(x.real() * x.real() + x.imag() * x.imag());
      }
      if (row > norm) norm = row;
    }
    const double shift = norm > 0 ? 2 * norm : 1.0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const C x = herm(i, j);
        v.SetComplex(at(i, j), C(x.real() + (i == j ? shift : 0.0), x.imag()));
      }
    const ComplexColumns columns{&v, n, at};
    ComplexJacobiSweeps(columns, n, nullptr, tol);
    for (int64_t i = 0; i < n; ++i) {
      const double len = std::sqrt(ComplexColumnDot(columns, i, i).real());
      w.SetDouble(bt * n + i, len - shift);
      for (int64_t k = 0; k < n; ++k) {
        const C x = columns.Get(k, i);
        columns.Set(k, i, C(x.real() / len, x.imag() / len));
      }
    }
    // Ascending (the first smallest of those left), the columns with them.
    SortColumnsByValue<ComplexColumns>(LiteralColumns{&w, n, [&](int64_t i, int64_t) { return bt * n + i; }},
                                       /*descending=*/false, {&columns});
    info.SetInt(bt, 0);
  }
  return MakeTuple({std::move(v), std::move(w), std::move(info)});
}

}  // namespace

// syevd (jnp.linalg.eigh) as custom_calls.h defines it (EighTolerance):
// shifted one-sided Jacobi, then the eigenvalues sorted ascending.
StatusOr<Literal> EvalSyevd(const Instruction& instr, const LinalgCall& call, Operands ops) {
  if (IsComplex(ops[0]->shape().element_type())) return EvalHeevd(instr, call, ops);
  const Literal& a = *ops[0];
  const int r = a.shape().rank();
  const Shape& ts = instr.shape();
  if (r < 2 || a.shape().dim(r - 1) != a.shape().dim(r - 2) || ts.tuple_shapes()[0].dims() != a.shape().dims())
    return InstrError(instr, "needs square matrices in the last two dimensions and eigenvectors shaped as them");
  const int64_t n = a.shape().dim(r - 1);
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  const Shape& ws = ts.tuple_shapes()[1];
  const Shape& is = ts.tuple_shapes()[2];
  std::vector<int64_t> batch_dims(a.shape().dims().begin(), a.shape().dims().end() - 2);
  std::vector<int64_t> w_dims = batch_dims;
  w_dims.push_back(n);
  if (ws.element_type() != a.shape().element_type() || ws.dims() != w_dims || !IsInteger(is.element_type()) ||
      is.dims() != batch_dims)
    return InstrError(instr, "needs results (eigenvectors, n eigenvalues of the matrix type per matrix, an integer "
                             "info per matrix)");
  Literal v(NoLayout(ts.tuple_shapes()[0])), w(NoLayout(ws)), info(NoLayout(is));
  const double tol = EighTolerance(a.shape().element_type(), n);
  for (int64_t bt = 0; bt < batches; ++bt) {
    const int64_t base = bt * n * n;
    auto at = [&](int64_t i, int64_t j) { return base + i * n + j; };
    // A(i, j) from the triangle the call names.
    auto sym = [&](int64_t i, int64_t j) {
      const bool stored = call.lower ? i >= j : i <= j;
      return a.GetDouble(stored ? at(i, j) : at(j, i));
    };
    double norm = 0;
    for (int64_t i = 0; i < n; ++i) {
      double row = 0;
      for (int64_t j = 0; j < n; ++j) row += std::fabs(sym(i, j));
      if (row > norm) norm = row;
    }
    const double shift = norm > 0 ? 2 * norm : 1.0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) v.SetDouble(at(i, j), sym(i, j) + (i == j ? shift : 0.0));
    const LiteralColumns columns{&v, n, at};
    JacobiSweeps(columns, n, nullptr, tol);
    for (int64_t i = 0; i < n; ++i) {
      const double len = std::sqrt(ColumnDot(columns, i, i));
      w.SetDouble(bt * n + i, len - shift);
      for (int64_t k = 0; k < n; ++k) v.SetDouble(at(k, i), v.GetDouble(at(k, i)) / len);
    }
    SortColumnsByValue<LiteralColumns>(LiteralColumns{&w, n, [&](int64_t i, int64_t) { return bt * n + i; }},
                                       /*descending=*/false, {&columns});
    info.SetInt(bt, 0);
  }
  return MakeTuple({std::move(v), std::move(w), std::move(info)});
}

namespace {

// gesvd of complex matrices (custom_calls.h): EvalGesvd's steps on complex
// columns, L = A (tall) or Aᴴ (wide), LAPACK's Vᴴ kept conjugated.
StatusOr<Literal> EvalGesvdComplex(const Instruction& instr, const SvdShapes& shp, Operands ops) {
  const SvdShapes* sh = &shp;
  const Literal& a = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  Literal copy(NoLayout(ts[0])), sv(NoLayout(ts[1])), u(NoLayout(ts[2])), vt(NoLayout(ts[3])), info(NoLayout(ts[4]));
  for (int64_t e = 0; e < a.num_elements(); ++e) copy.SetComplex(e, a.GetComplex(e));
  const int64_t m = sh->m, n = sh->n, k = sh->k;
  const bool tall = m >= n;
  const int64_t p = tall ? m : n, q = tall ? n : m;
  const int64_t full = tall ? sh->u_cols : sh->vt_rows;  // L's columns
  const double tol = EighTolerance(a.shape().element_type(), p);
  for (int64_t bt = 0; bt < sh->batches; ++bt) {
    auto u_at = [&](int64_t i, int64_t j) { return (bt * m + i) * sh->u_cols + j; };
    // Component j of right singular vector i: row i of Vᴴ (conjugated), or column i of V.
    auto vt_at = [&](int64_t i, int64_t j) {
      return sh->v_transposed ? (bt * sh->vt_rows + i) * n + j : (bt * n + j) * sh->vt_rows + i;
    };
    const ComplexColumns uc{&u, m, u_at};
    const ComplexColumns vc{&vt, n, [&](int64_t r, int64_t j) { return vt_at(j, r); }, sh->v_transposed};
    const ComplexColumns& lc = tall ? uc : vc;
    const ComplexColumns& rc = tall ? vc : uc;
    for (int64_t r = 0; r < p; ++r)
      for (int64_t j = 0; j < q; ++j) {
        const C x = a.GetComplex(bt * m * n + (tall ? r * n + j : j * n + r));
        lc.Set(r, j, tall ? x : std::conj(x));
      }
    for (int64_t r = 0; r < q; ++r)
      for (int64_t j = 0; j < q; ++j) rc.Set(r, j, r == j ? 1.0 : 0.0);
    ComplexJacobiSweeps(lc, q, &rc, tol);
    for (int64_t j = 0; j < q; ++j) {
      const double len = std::sqrt(ComplexColumnDot(lc, j, j).real());
      sv.SetDouble(bt * k + j, len);
      if (len > 0)
        for (int64_t r = 0; r < p; ++r) {
          const C x = lc.Get(r, j);
          lc.Set(r, j, C(x.real() / len, x.imag() / len));
        }
    }
    SortColumnsByValue<ComplexColumns>(LiteralColumns{&sv, q, [&](int64_t j, int64_t) { return bt * k + j; }},
                                       /*descending=*/true, {&lc, &rc});
    // Completion: the columns of σ = 0 (at the end of the sorted q) and those past q.
    int64_t first = q;
    for (int64_t j = 0; j < q; ++j)
      if (sv.GetDouble(bt * k + j) == 0 && j < first) first = j;
    int64_t c = 0;
    for (int64_t j = first; j < full; ++j) {
      for (; c < p; ++c) {
        for (int64_t r = 0; r < p; ++r) lc.Set(r, j, r == c ? 1.0 : 0.0);
        for (int pass = 0; pass < 2; ++pass)
          for (int64_t i = 0; i < j; ++i) {
            const C d = ComplexColumnDot(lc, i, j);
            for (int64_t r = 0; r < p; ++r) {
              const C x = lc.Get(r, i), y = lc.Get(r, j);
              lc.Set(r, j, C(y.real() - (d.real() * x.real() - d.imag() * x.imag()),
                             y.imag() - (d.real() * x.imag() + d.imag() * x.real())));
            }
          }
        const double s2 = ComplexColumnDot(lc, j, j).real();
        if (!(s2 * static_cast<double>(2 * p) >= 1)) continue;
        const double len = std::sqrt(s2);
        for (int64_t r = 0; r < p; ++r) {
          const C x = lc.Get(r, j);
          lc.Set(r, j, C(x.real() / len, x.imag() / len));
        }
        ++c;
        break;
      }
    }
    info.SetInt(bt, 0);
  }
  return MakeTuple({std::move(copy), std::move(sv), std::move(u), std::move(vt), std::move(info)});
}

}  // namespace

// gesvd (jnp.linalg.svd) as custom_calls.h defines it (GesvdShapes):
// one-sided Jacobi on A or Aᵀ, sorted descending, U or Vᵀ completed.
StatusOr<Literal> EvalGesvd(const Instruction& instr, Operands ops) {
  std::string why;
  const std::optional<SvdShapes> sh = GesvdShapes(instr, &why);
  if (!sh) return InstrError(instr, why);
  if (IsComplex(ops[0]->shape().element_type())) return EvalGesvdComplex(instr, *sh, ops);
  const Literal& a = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  Literal copy(NoLayout(ts[0])), sv(NoLayout(ts[1])), u(NoLayout(ts[2])), vt(NoLayout(ts[3])), info(NoLayout(ts[4]));
  for (int64_t e = 0; e < a.num_elements(); ++e) copy.SetDouble(e, a.GetDouble(e));
  const int64_t m = sh->m, n = sh->n, k = sh->k;
  const bool tall = m >= n;
  const int64_t p = tall ? m : n, q = tall ? n : m;
  const int64_t full = tall ? sh->u_cols : sh->vt_rows;  // L's columns
  const double tol = EighTolerance(a.shape().element_type(), p);
  for (int64_t bt = 0; bt < sh->batches; ++bt) {
    auto u_at = [&](int64_t i, int64_t j) { return (bt * m + i) * sh->u_cols + j; };
    // Right singular vector i, component j: row i of Vᵀ, or column i of V.
    auto vt_at = [&](int64_t i, int64_t j) {
      return sh->v_transposed ? (bt * sh->vt_rows + i) * n + j : (bt * n + j) * sh->vt_rows + i;
    };
    // L and R, where they are kept.
    Literal& lm = tall ? u : vt;
    Literal& rm = tall ? vt : u;
    const LiteralColumns lc{&lm, p, [&](int64_t r, int64_t j) { return tall ? u_at(r, j) : vt_at(j, r); }};
    const LiteralColumns rc{&rm, q, [&](int64_t r, int64_t j) { return tall ? vt_at(j, r) : u_at(r, j); }};
    auto L = [&](int64_t r, int64_t j) { return lc.Get(r, j); };
    for (int64_t r = 0; r < p; ++r)
      for (int64_t j = 0; j < q; ++j) lc.Set(r, j, a.GetDouble(bt * m * n + (tall ? r * n + j : j * n + r)));
    for (int64_t r = 0; r < q; ++r)
      for (int64_t j = 0; j < q; ++j) rc.Set(r, j, r == j ? 1.0 : 0.0);
    JacobiSweeps(lc, q, &rc, tol);
    for (int64_t j = 0; j < q; ++j) {
      const double len = std::sqrt(ColumnDot(lc, j, j));
      sv.SetDouble(bt * k + j, len);
      if (len > 0)
        for (int64_t r = 0; r < p; ++r) lc.Set(r, j, L(r, j) / len);
    }
    SortColumnsByValue<LiteralColumns>(LiteralColumns{&sv, q, [&](int64_t j, int64_t) { return bt * k + j; }},
                                       /*descending=*/true, {&lc, &rc});
    // Completion: the columns of σ = 0 (at the end of the sorted q) and those past q.
    int64_t first = q;
    for (int64_t j = 0; j < q; ++j)
      if (sv.GetDouble(bt * k + j) == 0 && j < first) first = j;
    int64_t c = 0;
    for (int64_t j = first; j < full; ++j) {
      for (; c < p; ++c) {
        for (int64_t r = 0; r < p; ++r) lc.Set(r, j, r == c ? 1.0 : 0.0);
        for (int pass = 0; pass < 2; ++pass)
          for (int64_t i = 0; i < j; ++i) {
            const double d = ColumnDot(lc, i, j);
            for (int64_t r = 0; r < p; ++r) lc.Set(r, j, L(r, j) - d * L(r, i));
          }
        const double s2 = ColumnDot(lc, j, j);
        if (!(s2 * static_cast<double>(2 * p) >= 1)) continue;
        const double len = std::sqrt(s2);
        for (int64_t r = 0; r < p; ++r) lc.Set(r, j, L(r, j) / len);
        ++c;
        break;
      }
    }
    info.SetInt(bt, 0);
  }
  return MakeTuple({std::move(copy), std::move(sv), std::move(u), std::move(vt), std::move(info)});
}

}  // namespace hloscope::eval
