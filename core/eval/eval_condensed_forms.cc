// JAX's condensed-form and tridiagonal-solve library calls (custom_calls.h):
// sytrd / hetrd (lax.linalg.tridiagonal), gehrd (jax.scipy.linalg.hessenberg)
// and gtsv (lax.linalg.tridiagonal_solve), as LAPACK's unblocked routines
// compute them. Every value is computed in f64 (complex<double>) from the
// stored ones and stored in the element type, step by step in the order the
// kernels (core/codegen/condensed_forms_emitter.cc) compute it, so the two
// agree; real types take real arithmetic only.
#include <algorithm>
#include <cmath>
#include <complex>

#include "core/eval/eval_internal.h"
#include "core/ir/custom_calls.h"

namespace hloscope::eval {
namespace {

using C = std::complex<double>;

// Arithmetic on values held as complex<double>, real-only for real types (so
// that a real element never meets an imaginary part, not even 0·inf).
struct Arith {
  bool complex;
  C Mul(C x, C y) const { return complex ? x * y : C(x.real() * y.real()); }
  C Div(C x, C y) const { return complex ? x / y : C(x.real() / y.real()); }
  C Conj(C x) const { return complex ? std::conj(x) : x; }
  // |x| for real values, |re| + |im| for complex ones (LAPACK's cabs1).
  double Mag(C x) const { return complex ? std::abs(x.real()) + std::abs(x.imag()) : std::abs(x.real()); }
};

// A square matrix of a batch in a literal (row-major, no layout).
struct Matrix {
  Literal* lit;
  int64_t base, n;
  C Get(int64_t i, int64_t j) const { return lit->GetComplex(base + i * n + j); }
  void Set(int64_t i, int64_t j, C v) const { lit->SetComplex(base + i * n + j, v); }
};

// larfg / clarfg on alpha = m(ai, aj) and the tail x = m(rows, aj) (rows
// [x0, x1), skipping none): tau, beta; x scaled by 1/(alpha - beta) and
// alpha replaced by beta where there is a reflection (alpha kept otherwise).
C Reflector(const Arith& ar, const Matrix& m, int64_t ai, int64_t aj, int64_t x0, int64_t x1) {
  const C alpha = m.Get(ai, aj);
  double norm2 = 0;
  for (int64_t r = x0; r < x1; ++r) norm2 += std::norm(m.Get(r, aj));
  if (norm2 == 0 && alpha.imag() == 0) return C(0);
  const double beta = -std::copysign(std::sqrt(std::norm(alpha) + norm2), alpha.real());
  const C tau((beta - alpha.real()) / beta, -alpha.imag() / beta);
  const C scale = ar.Div(C(1.0), alpha - beta);
  for (int64_t r = x0; r < x1; ++r) m.Set(r, aj, ar.Mul(m.Get(r, aj), scale));
  m.Set(ai, aj, beta);
  return tau;
}

StatusOr<CondensedShapes> Shapes(const Instruction& instr, const LinalgCall& call) {
  std::string why;
  std::optional<CondensedShapes> s = CondensedFormShapes(instr, call, &why);
  if (!s) return InstrError(instr, why);
  return *s;
}

// sytrd / hetrd as sytd2 / hetd2 (custom_calls.h).
StatusOr<Literal> EvalSytrd(const Instruction& instr, const LinalgCall& call, Operands ops) {
  ASSIGN_OR_RETURN(CondensedShapes s, Shapes(instr, call));
  const Literal& in = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  const Arith ar{IsComplex(in.shape().element_type())};
  Literal a(NoLayout(ts[0])), d(NoLayout(ts[1])), e(NoLayout(ts[2])), tau(NoLayout(ts[3])), info(NoLayout(ts[4]));
  for (int64_t k = 0; k < in.num_elements(); ++k) a.SetComplex(k, in.GetComplex(k));
  const int64_t n = s.n, nt = std::max<int64_t>(n - 1, 0);
  for (int64_t bt = 0; bt < s.batches; ++bt) {
    const Matrix m{&a, bt * n * n, n};
    auto tau_at = [&](int64_t i) { return bt * nt + i; };
    // The Hermitian matrix's (r, c) as the stored triangle gives it.
    auto herm = [&](int64_t r, int64_t c) {
      if (r == c) return C(m.Get(r, r).real());
      return (call.lower ? r > c : r < c) ? m.Get(r, c) : ar.Conj(m.Get(c, r));
    };
    // One reflector: v(r) = m(r, col) for r in [lo, hi) (1 stored at the
    // reflector's own place), w kept in tau(w0 + r - lo); the trailing block
    // [lo, hi)² updated on the stored triangle.
    auto update = [&](int64_t col, int64_t lo, int64_t hi, int64_t w0, C t) {
      for (int64_t r = lo; r < hi; ++r) {
        C acc = 0;
        for (int64_t c = lo; c < hi; ++c) acc += ar.Mul(herm(r, c), m.Get(c, col));
        tau.SetComplex(tau_at(w0 + r - lo), ar.Mul(t, acc));
      }
      C dot = 0;
      for (int64_t r = lo; r < hi; ++r) dot += ar.Mul(ar.Conj(tau.GetComplex(tau_at(w0 + r - lo))), m.Get(r, col));
      const C alpha = ar.Mul(ar.Mul(C(-0.5), t), dot);
      for (int64_t r = lo; r < hi; ++r)
        tau.SetComplex(tau_at(w0 + r - lo), tau.GetComplex(tau_at(w0 + r - lo)) + ar.Mul(alpha, m.Get(r, col)));
      for (int64_t c = lo; c < hi; ++c)
        for (int64_t r = call.lower ? c : lo; r < (call.lower ? hi : c + 1); ++r) {
          const C vr = m.Get(r, col), vc = m.Get(c, col);
          const C wr = tau.GetComplex(tau_at(w0 + r - lo)), wc = tau.GetComplex(tau_at(w0 + c - lo));
          C x = m.Get(r, c) - (ar.Mul(vr, ar.Conj(wc)) + ar.Mul(wr, ar.Conj(vc)));
          if (r == c) x = C(x.real());
          m.Set(r, c, x);
        }
    };
    if (n > 0 && ar.complex) m.Set(call.lower ? 0 : n - 1, call.lower ? 0 : n - 1, C(m.Get(call.lower ? 0 : n - 1, call.lower ? 0 : n - 1).real()));
    if (call.lower) {
      for (int64_t i = 0; i + 1 < n; ++i) {
        const C t = Reflector(ar, m, i + 1, i, i + 2, n);
        const double beta = m.Get(i + 1, i).real();
        e.SetDouble(bt * nt + i, beta);
        if (t != C(0)) {
          m.Set(i + 1, i, C(1.0));
          update(i, i + 1, n, i, t);
        } else if (ar.complex) {
          m.Set(i + 1, i + 1, C(m.Get(i + 1, i + 1).real()));
        }
        m.Set(i + 1, i, e.GetDouble(bt * nt + i));
        d.SetDouble(bt * n + i, m.Get(i, i).real());
        tau.SetComplex(tau_at(i), t);
      }
      if (n > 0) d.SetDouble(bt * n + n - 1, m.Get(n - 1, n - 1).real());
    } else {
      for (int64_t i = n - 2; i >= 0; --i) {
        // Column i+1 above the diagonal: alpha = m(i, i+1), the tail m(0:i, i+1).
        const C t = Reflector(ar, m, i, i + 1, 0, i);
        e.SetDouble(bt * nt + i, m.Get(i, i + 1).real());
        if (t != C(0)) {
          m.Set(i, i + 1, C(1.0));
          update(i + 1, 0, i + 1, 0, t);
        } else if (ar.complex) {
          m.Set(i, i, C(m.Get(i, i).real()));
        }
        m.Set(i, i + 1, e.GetDouble(bt * nt + i));
        d.SetDouble(bt * n + i + 1, m.Get(i + 1, i + 1).real());
        tau.SetComplex(tau_at(i), t);
      }
      if (n > 0) d.SetDouble(bt * n, m.Get(0, 0).real());
    }
    info.SetInt(bt, 0);
  }
  return MakeTuple({std::move(a), std::move(d), std::move(e), std::move(tau), std::move(info)});
}

// gehrd as gehd2 (custom_calls.h).
StatusOr<Literal> EvalGehrd(const Instruction& instr, const LinalgCall& call, Operands ops) {
  ASSIGN_OR_RETURN(CondensedShapes s, Shapes(instr, call));
  const Literal& in = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  const Arith ar{IsComplex(in.shape().element_type())};
  Literal a(NoLayout(ts[0])), tau(NoLayout(ts[1])), info(NoLayout(ts[2]));
  for (int64_t k = 0; k < in.num_elements(); ++k) a.SetComplex(k, in.GetComplex(k));
  const int64_t n = s.n, nt = std::max<int64_t>(n - 1, 0);
  const int64_t lo = call.low - 1, hi = call.high < 0 ? n : call.high;  // rows and columns [lo, hi)
  for (int64_t bt = 0; bt < s.batches; ++bt) {
    const Matrix m{&a, bt * n * n, n};
    for (int64_t i = 0; i < nt; ++i) tau.SetComplex(bt * nt + i, C(0));
    for (int64_t i = lo; i + 1 < hi; ++i) {
      const C t = Reflector(ar, m, i + 1, i, i + 2, hi);
      const C beta = m.Get(i + 1, i);
      tau.SetComplex(bt * nt + i, t);
      if (t == C(0)) continue;  // H = I
      m.Set(i + 1, i, C(1.0));
      // v(r) = m(r, i) for r in [i+1, hi). From the right, row by row.
      for (int64_t r = 0; r < hi; ++r) {
        C acc = 0;
        for (int64_t c = i + 1; c < hi; ++c) acc += ar.Mul(m.Get(r, c), m.Get(c, i));
        const C tw = ar.Mul(t, acc);
        for (int64_t c = i + 1; c < hi; ++c) m.Set(r, c, m.Get(r, c) - ar.Mul(tw, ar.Conj(m.Get(c, i))));
      }
      // From the left (Hᴴ), column by column.
      const C ct = ar.Conj(t);
      for (int64_t c = i + 1; c < n; ++c) {
        C acc = 0;
        for (int64_t r = i + 1; r < hi; ++r) acc += ar.Mul(ar.Conj(m.Get(r, c)), m.Get(r, i));
        const C cs = ar.Mul(ct, ar.Conj(acc));
        for (int64_t r = i + 1; r < hi; ++r) m.Set(r, c, m.Get(r, c) - ar.Mul(m.Get(r, i), cs));
      }
      m.Set(i + 1, i, beta);
    }
    info.SetInt(bt, 0);
  }
  return MakeTuple({std::move(a), std::move(tau), std::move(info)});
}

// gtsv as LAPACK's (c)gtsv, or cuSPARSE's gtsv2 the same way (custom_calls.h).
StatusOr<Literal> EvalGtsv(const Instruction& instr, const LinalgCall& call, Operands ops) {
  ASSIGN_OR_RETURN(CondensedShapes s, Shapes(instr, call));
  const Arith ar{IsComplex(ops[3]->shape().element_type())};
  // dl, d, du (each n a system) and b (n × nrhs), in the element type.
  Literal dl(NoLayout(ops[0]->shape())), d(NoLayout(ops[1]->shape())), du(NoLayout(ops[2]->shape())),
      b(NoLayout(ops[3]->shape()));
  for (int k = 0; k < 4; ++k) {
    Literal* l = k == 0 ? &dl : k == 1 ? &d : k == 2 ? &du : &b;
    for (int64_t e = 0; e < ops[k]->num_elements(); ++e) l->SetComplex(e, ops[k]->GetComplex(e));
  }
  const int64_t n = s.n, q = s.nrhs;
  std::vector<int64_t> infos(s.batches, 0);
  for (int64_t bt = 0; bt < s.batches; ++bt) {
    // LAPACK's DL(k) is dl(k+1): dl's first element is not read.
    auto DL = [&](int64_t k) { return dl.GetComplex(bt * n + k + 1); };
    auto setDL = [&](int64_t k, C v) { dl.SetComplex(bt * n + k + 1, v); };
    auto D = [&](int64_t k) { return d.GetComplex(bt * n + k); };
    auto setD = [&](int64_t k, C v) { d.SetComplex(bt * n + k, v); };
    auto DU = [&](int64_t k) { return du.GetComplex(bt * n + k); };
    auto setDU = [&](int64_t k, C v) { du.SetComplex(bt * n + k, v); };
    auto B = [&](int64_t k, int64_t j) { return b.GetComplex((bt * n + k) * q + j); };
    auto setB = [&](int64_t k, int64_t j, C v) { b.SetComplex((bt * n + k) * q + j, v); };
    int64_t info = 0;
    for (int64_t k = 0; k + 1 < n && info == 0; ++k) {
      if (DL(k) == C(0)) {
        if (D(k) == C(0)) info = k + 1;
      } else if (ar.Mag(D(k)) >= ar.Mag(DL(k))) {
        const C mult = ar.Div(DL(k), D(k));
        setD(k + 1, D(k + 1) - ar.Mul(mult, DU(k)));
        for (int64_t j = 0; j < q; ++j) setB(k + 1, j, B(k + 1, j) - ar.Mul(mult, B(k, j)));
        if (k + 2 < n) setDL(k, C(0));
      } else {
        const C mult = ar.Div(D(k), DL(k));
        setD(k, DL(k));
        const C temp = D(k + 1);
        setD(k + 1, DU(k) - ar.Mul(mult, temp));
        if (k + 2 < n) {
          setDL(k, DU(k + 1));
          setDU(k + 1, -ar.Mul(mult, DL(k)));
        }
        setDU(k, temp);
        for (int64_t j = 0; j < q; ++j) {
          const C bk = B(k, j);
          setB(k, j, B(k + 1, j));
          setB(k + 1, j, bk - ar.Mul(mult, B(k + 1, j)));
        }
      }
    }
    if (info == 0 && n > 0 && D(n - 1) == C(0)) info = n;
    if (info == 0)
      for (int64_t j = 0; j < q && n > 0; ++j) {
        setB(n - 1, j, ar.Div(B(n - 1, j), D(n - 1)));
        if (n > 1) setB(n - 2, j, ar.Div(B(n - 2, j) - ar.Mul(DU(n - 2), B(n - 1, j)), D(n - 2)));
        for (int64_t k = n - 3; k >= 0; --k)
          setB(k, j, ar.Div(B(k, j) - ar.Mul(DU(k), B(k + 1, j)) - ar.Mul(DL(k), B(k + 2, j)), D(k)));
      }
    infos[bt] = info;
  }
  if (!s.lapack) return b;
  Literal info(NoLayout(instr.shape().tuple_shapes()[4]));
  for (int64_t bt = 0; bt < s.batches; ++bt) info.SetInt(bt, infos[bt]);
  return MakeTuple({std::move(dl), std::move(d), std::move(du), std::move(b), std::move(info)});
}

}  // namespace

StatusOr<Literal> EvalCondensedFormCall(const Instruction& instr, const LinalgCall& call, Operands ops) {
  switch (call.kind) {
    case LinalgCall::Kind::kSytrd: return EvalSytrd(instr, call, ops);
    case LinalgCall::Kind::kGehrd: return EvalGehrd(instr, call, ops);
    case LinalgCall::Kind::kGtsv: return EvalGtsv(instr, call, ops);
    default: return InstrError(instr, "is not a sytrd, gehrd or gtsv call");
  }
}

}  // namespace hloscope::eval
