// JAX's nonsymmetric eigendecomposition of complex matrices
// (`lapack_{c,z}geev_ffi`: a → (w, vl, vr, info)) in the interpreter, as
// LAPACK's zgeev computes it (custom_calls.h, ComplexGeevShapes): zgebal,
// zgehd2, zunghr (ung2r), the Schur form by zlahqr (single-shift QR with
// Wilkinson's shift, real subdiagonals), ztrevc's eigenvectors of T taken
// back through Q (without zlatrs's overflow scaling), zgebak and zgeev's
// normalization. Every matrix value is stored in the element type after each
// step (the kernel keeps them in its outputs, core/codegen/geev_complex_emitter.cc),
// every step computed in f64 from the stored values in the kernel's order,
// with the arithmetic written out (the textbook product, Smith's division,
// the principal square root of ComplexSqrt) so that both compute alike.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "core/eval/eval_internal.h"
#include "core/ir/custom_calls.h"

namespace hloscope::eval {
namespace {

using C = std::complex<double>;

// v rounded to f32 and back. Through a volatile float: GCC 12 at -O2 dropped
// a plain (double)(float) round trip where it was inlined into complex
// arithmetic, so the stored values were not the element type's.
[[gnu::noinline]] double RoundToF32(double v) {
  volatile float f = static_cast<float>(v);
  return static_cast<double>(f);
}

C Mul(C x, C y) { return C(x.real() * y.real() - x.imag() * y.imag(), x.real() * y.imag() + x.imag() * y.real()); }
C Div(C x, C y) {
  const double a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  if (std::abs(c) >= std::abs(d)) {
    const double r = d / c, den = c + d * r;
    return C((a + b * r) / den, (b - a * r) / den);
  }
  const double r = c / d, den = c * r + d;
  return C((a * r + b) / den, (b * r - a) / den);
}
C Scale(double s, C x) { return C(s * x.real(), s * x.imag()); }
double Cabs1(C x) { return std::abs(x.real()) + std::abs(x.imag()); }
double Abs(C x) { return std::sqrt(x.real() * x.real() + x.imag() * x.imag()); }
C Conj(C x) { return C(x.real(), -x.imag()); }
// The principal square root (ComplexSqrt in custom_calls.h).
C Sqrt(C z) {
  if (z.real() == 0 && z.imag() == 0) return C(0, z.imag());
  const double s = std::sqrt((Abs(z) + std::abs(z.real())) * 0.5);
  if (z.real() >= 0) return C(s, z.imag() / (2 * s));
  return C(std::abs(z.imag()) / (2 * s), std::copysign(s, z.imag()));
}

class ZGeev {
 public:
  ZGeev(int64_t n, bool c64)
      : n_(n), f32_(c64), t_(n * n), z_(n * n), scale_(n), tau_(n), w_(n), x_(n), diag_(n), p_(GeevParams(c64)) {}
  int64_t n_;
  bool f32_;
  std::vector<C> t_, z_;
  std::vector<double> scale_;
  std::vector<C> tau_, w_, x_, diag_;
  GeevConstants p_;
  int64_t ilo_ = 0, ihi_ = -1, info_ = 0;

  double Rd(double v) const { return f32_ ? RoundToF32(v) : v; }
  C R(C v) const { return C(Rd(v.real()), Rd(v.imag())); }
  C& T(int64_t i, int64_t j) { return t_[i * n_ + j]; }
  C& Z(int64_t i, int64_t j) { return z_[i * n_ + j]; }
  void SetT(int64_t i, int64_t j, C v) { T(i, j) = R(v); }
  void SetZ(int64_t i, int64_t j, C v) { Z(i, j) = R(v); }

  void Balance() {
    const int64_t n = n_;
    int64_t k = 0, l = n - 1;
    auto nonzero = [](C v) { return v.real() != 0 || v.imag() != 0; };
    auto swap = [&](int64_t a, int64_t b, int64_t rows_to, int64_t cols_from) {
      for (int64_t r = 0; r <= rows_to; ++r) std::swap(T(r, a), T(r, b));
      for (int64_t c = cols_from; c < n; ++c) std::swap(T(a, c), T(b, c));
    };
    for (bool again = true; again && l >= 0;) {
      again = false;
      for (int64_t i = l; i >= 0 && !again; --i) {
        bool isolated = true;
        for (int64_t j = 0; j <= l && isolated; ++j) isolated = j == i || !nonzero(T(i, j));
        if (!isolated) continue;
        scale_[l] = static_cast<double>(i);
        if (i != l) swap(i, l, l, k);
        if (l == 0) {
          ilo_ = ihi_ = 0;
          return;
        }
        --l;
        again = true;
      }
    }
    for (bool again = true; again;) {
      again = false;
      for (int64_t j = k; j <= l && !again; ++j) {
        bool isolated = true;
        for (int64_t i = k; i <= l && isolated; ++i) isolated = i == j || !nonzero(T(i, j));
        if (!isolated) continue;
        scale_[k] = static_cast<double>(j);
        if (j != k) swap(j, k, l, k);
        ++k;
        again = true;
      }
    }
    for (int64_t i = k; i <= l; ++i) scale_[i] = 1;
    for (int sweep = 0; sweep < kGeevBalanceSweeps; ++sweep) {
      bool noconv = false;
      for (int64_t i = k; i <= l; ++i) {
        double c2 = 0, r2 = 0, ca = 0, ra = 0, cbest = -1, rbest = -1;
        for (int64_t r = k; r <= l; ++r) c2 += T(r, i).real() * T(r, i).real() + T(r, i).imag() * T(r, i).imag();
        for (int64_t c = k; c <= l; ++c) r2 += T(i, c).real() * T(i, c).real() + T(i, c).imag() * T(i, c).imag();
        // izamax (the first largest |re| + |im|), then that element's modulus.
        for (int64_t r = 0; r <= l; ++r)
          if (Cabs1(T(r, i)) > cbest) cbest = Cabs1(T(r, i)), ca = Abs(T(r, i));
        for (int64_t c = k; c < n; ++c)
          if (Cabs1(T(i, c)) > rbest) rbest = Cabs1(T(i, c)), ra = Abs(T(i, c));
        double c = std::sqrt(c2), r = std::sqrt(r2);
        if (!(c != 0 && r != 0 && !std::isnan(c + ca + r + ra))) continue;
        double g = r / 2, f = 1;
        const double s = c + r;
        for (int it = 0; it < kGeevScaleSteps && c < g && std::max(std::max(f, c), ca) < p_.sfmax2 &&
                         std::min(std::min(r, g), ra) > p_.sfmin2;
             ++it)
          f *= 2, c *= 2, ca *= 2, r /= 2, g /= 2, ra /= 2;
        g = c / 2;
        for (int it = 0; it < kGeevScaleSteps && g >= r && std::max(r, ra) < p_.sfmax2 &&
                         std::min(std::min(std::min(f, c), g), ca) > p_.sfmin2;
             ++it)
          f /= 2, c /= 2, g /= 2, ca /= 2, r *= 2, ra *= 2;
        if (c + r >= 0.95 * s) continue;
        if (f < 1 && scale_[i] < 1 && f * scale_[i] <= p_.sfmin1) continue;
        if (f > 1 && scale_[i] > 1 && scale_[i] >= p_.sfmax1 / f) continue;
        const double inv = 1 / f;
        scale_[i] *= f;
        noconv = true;
        for (int64_t cc = k; cc < n; ++cc) SetT(i, cc, Scale(inv, T(i, cc)));
        for (int64_t rr = 0; rr <= l; ++rr) SetT(rr, i, Scale(f, T(rr, i)));
      }
      if (!noconv) break;
    }
    ilo_ = k;
    ihi_ = l;
  }

  // zgehd2 (the condensed forms' gehrd with complex reflectors), tau kept.
  void Hessenberg() {
    const int64_t n = n_;
    for (int64_t i = 0; i < n; ++i) tau_[i] = 0;
    for (int64_t i = ilo_; i < ihi_; ++i) {
      const C alpha = T(i + 1, i);
      double norm2 = 0;
      for (int64_t r = i + 2; r <= ihi_; ++r) norm2 += T(r, i).real() * T(r, i).real() + T(r, i).imag() * T(r, i).imag();
      C t = 0;
      if (norm2 != 0 || alpha.imag() != 0) {
        const double abs2 = alpha.real() * alpha.real() + alpha.imag() * alpha.imag();
        const double beta = -std::copysign(std::sqrt(abs2 + norm2), alpha.real());
        t = C((beta - alpha.real()) / beta, -alpha.imag() / beta);
        const C sc = Div(C(1, 0), C(alpha.real() - beta, alpha.imag()));
        for (int64_t r = i + 2; r <= ihi_; ++r) SetT(r, i, Mul(T(r, i), sc));
        SetT(i + 1, i, C(beta, 0));
      }
      tau_[i] = R(t);
      if (t.real() == 0 && t.imag() == 0) continue;
      const C beta = T(i + 1, i);
      T(i + 1, i) = 1;
      for (int64_t r = 0; r <= ihi_; ++r) {
        C acc = 0;
        for (int64_t c = i + 1; c <= ihi_; ++c) acc += Mul(T(r, c), T(c, i));
        const C tw = Mul(t, acc);
        for (int64_t c = i + 1; c <= ihi_; ++c) SetT(r, c, T(r, c) - Mul(tw, Conj(T(c, i))));
      }
      const C ct = Conj(t);
      for (int64_t c = i + 1; c < n; ++c) {
        C acc = 0;
        for (int64_t r = i + 1; r <= ihi_; ++r) acc += Mul(Conj(T(r, c)), T(r, i));
        const C cs = Mul(ct, Conj(acc));
        for (int64_t r = i + 1; r <= ihi_; ++r) SetT(r, c, T(r, c) - Mul(T(r, i), cs));
      }
      T(i + 1, i) = beta;
    }
  }

  // zunghr (zung2r on rows and columns ilo+1..ihi), then T below its subdiagonal cleared.
  void FormQ() {
    const int64_t n = n_;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) Z(i, j) = i == j ? 1 : 0;
    for (int64_t j = ilo_ + 1; j <= ihi_; ++j)
      for (int64_t r = j + 1; r <= ihi_; ++r) Z(r, j) = T(r, j - 1);
    for (int64_t i = ihi_ - 1; i >= ilo_; --i) {
      const int64_t c0 = i + 1;
      const C t = tau_[i];
      if (c0 < ihi_) {
        Z(c0, c0) = 1;
        if (t.real() != 0 || t.imag() != 0)
          for (int64_t j = c0 + 1; j <= ihi_; ++j) {
            C w = 0;
            for (int64_t r = c0; r <= ihi_; ++r) w += Mul(Conj(Z(r, c0)), Z(r, j));
            const C tw = Mul(t, w);
            for (int64_t r = c0; r <= ihi_; ++r) SetZ(r, j, Z(r, j) - Mul(Z(r, c0), tw));
          }
      }
      for (int64_t r = c0 + 1; r <= ihi_; ++r) SetZ(r, c0, Mul(Z(r, c0), -t));
      SetZ(c0, c0, C(1, 0) - t);
      for (int64_t r = ilo_ + 1; r < c0; ++r) Z(r, c0) = 0;
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j + 1 < i; ++j) T(i, j) = 0;
  }

  // Row i of T from column `from` on, column i of T over rows [r0, r1] and of Z, by s (LAPACK's zscal).
  void ScaleRow(int64_t i, int64_t from, C s) {
    for (int64_t c = from; c < n_; ++c) SetT(i, c, Mul(s, T(i, c)));
  }
  void ScaleCol(int64_t j, int64_t r0, int64_t r1, C s) {
    for (int64_t r = r0; r <= r1; ++r) SetT(r, j, Mul(s, T(r, j)));
  }
  void ScaleZ(int64_t j, C s) {
    for (int64_t r = 0; r < n_; ++r) SetZ(r, j, Mul(s, Z(r, j)));
  }

  // zlahqr with the Schur form and Z (i1 = 0, i2 = n-1).
  void Schur() {
    const int64_t n = n_;
    for (int64_t i = 0; i < n; ++i)
      if (i < ilo_ || i > ihi_) w_[i] = T(i, i);
    if (ilo_ == ihi_) {
      w_[ilo_] = T(ilo_, ilo_);
      return;
    }
    if (ihi_ < ilo_) return;
    // Real subdiagonal entries.
    for (int64_t i = ilo_ + 1; i <= ihi_; ++i) {
      const C h = T(i, i - 1);
      if (h.imag() == 0) continue;
      C sc = Div(h, C(Cabs1(h), 0));
      sc = Div(Conj(sc), C(Abs(sc), 0));
      T(i, i - 1) = C(Rd(Abs(h)), 0);
      ScaleRow(i, i, sc);
      ScaleCol(i, 0, std::min(n - 1, i + 1), Conj(sc));
      ScaleZ(i, Conj(sc));
    }
    const double ulp = p_.ulp, smlnum = p_.safmin * (static_cast<double>(ihi_ - ilo_ + 1) / ulp);
    const int64_t itmax = 30 * std::max<int64_t>(10, ihi_ - ilo_ + 1);
    int64_t kdefl = 0;
    for (int64_t i = ihi_; i >= ilo_;) {
      int64_t l = ilo_;
      bool converged = false;
      for (int64_t its = 0; its <= itmax; ++its) {
        int64_t k = i;
        for (; k > l; --k) {
          if (Cabs1(T(k, k - 1)) <= smlnum) break;
          double tst = Cabs1(T(k - 1, k - 1)) + Cabs1(T(k, k));
          if (tst == 0) {
            if (k - 2 >= ilo_) tst += std::abs(T(k - 1, k - 2).real());
            if (k + 1 <= ihi_) tst += std::abs(T(k + 1, k).real());
          }
          if (std::abs(T(k, k - 1).real()) <= ulp * tst) {
            const double ab = std::max(Cabs1(T(k, k - 1)), Cabs1(T(k - 1, k)));
            const double ba = std::min(Cabs1(T(k, k - 1)), Cabs1(T(k - 1, k)));
            const double aa = std::max(Cabs1(T(k, k)), Cabs1(T(k - 1, k - 1) - T(k, k)));
            const double bb = std::min(Cabs1(T(k, k)), Cabs1(T(k - 1, k - 1) - T(k, k)));
            const double s = aa + ab;
            if (ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)))) break;
          }
        }
        l = k;
        if (l > ilo_) T(l, l - 1) = 0;
        if (l >= i) {
          converged = true;
          break;
        }
        ++kdefl;
        C t;
        if (kdefl % (2 * kGeevExceptionalShift) == 0) {
          t = C(0.75 * std::abs(T(i, i - 1).real()), 0) + T(i, i);
        } else if (kdefl % kGeevExceptionalShift == 0) {
          t = C(0.75 * std::abs(T(l + 1, l).real()), 0) + T(l, l);
        } else {
          t = T(i, i);
          const C u = Mul(Sqrt(T(i - 1, i)), Sqrt(T(i, i - 1)));
          double s = Cabs1(u);
          if (s != 0) {
            const C x = Scale(0.5, T(i - 1, i - 1) - t);
            const double sx = Cabs1(x);
            s = std::max(s, sx);
            const C xs = Div(x, C(s, 0)), us = Div(u, C(s, 0));
            C y = Scale(s, Sqrt(Mul(xs, xs) + Mul(us, us)));
            if (sx > 0) {
              const C xn = Div(x, C(sx, 0));
              if (xn.real() * y.real() + xn.imag() * y.imag() < 0) y = -y;
            }
            t = t - Mul(u, Div(u, x + y));
          }
        }
        // Where the single-shift step starts.
        int64_t m = i - 1;
        C v0, v1;
        for (; m >= l + 1; --m) {
          const C h11 = T(m, m), h22 = T(m + 1, m + 1);
          C h11s = h11 - t;
          double h21 = T(m + 1, m).real();
          const double s = Cabs1(h11s) + std::abs(h21);
          h11s = Div(h11s, C(s, 0));
          h21 = h21 / s;
          v0 = h11s, v1 = C(h21, 0);
          const double h10 = T(m, m - 1).real();
          if (std::abs(h10) * std::abs(h21) <= ulp * (Cabs1(h11s) * (Cabs1(h11) + Cabs1(h22)))) break;
        }
        if (m < l + 1) {
          m = l;
          const C h11 = T(l, l);
          C h11s = h11 - t;
          double h21 = T(l + 1, l).real();
          const double s = Cabs1(h11s) + std::abs(h21);
          h11s = Div(h11s, C(s, 0));
          h21 = h21 / s;
          v0 = h11s, v1 = C(h21, 0);
        }
        for (int64_t k2 = m; k2 <= i - 1; ++k2) {
          if (k2 > m) v0 = T(k2, k2 - 1), v1 = T(k2 + 1, k2 - 1);
          // zlarfg(2, v0, v1): tau t1, v1 scaled, v0 = beta.
          C t1 = 0;
          const double norm2 = v1.real() * v1.real() + v1.imag() * v1.imag();
          if (norm2 != 0 || v0.imag() != 0) {
            const double beta = -std::copysign(std::sqrt(v0.real() * v0.real() + v0.imag() * v0.imag() + norm2), v0.real());
            t1 = C((beta - v0.real()) / beta, -v0.imag() / beta);
            v1 = Mul(v1, Div(C(1, 0), C(v0.real() - beta, v0.imag())));
            v0 = C(beta, 0);
          }
          if (k2 > m) {
            SetT(k2, k2 - 1, v0);
            T(k2 + 1, k2 - 1) = 0;
          }
          const C v2 = v1;
          const double t2 = Mul(t1, v2).real();
          for (int64_t j = k2; j < n; ++j) {
            const C sum = Mul(Conj(t1), T(k2, j)) + Scale(t2, T(k2 + 1, j));
            SetT(k2, j, T(k2, j) - sum);
            SetT(k2 + 1, j, T(k2 + 1, j) - Mul(sum, v2));
          }
          for (int64_t j = 0; j <= std::min(k2 + 2, i); ++j) {
            const C sum = Mul(t1, T(j, k2)) + Scale(t2, T(j, k2 + 1));
            SetT(j, k2, T(j, k2) - sum);
            SetT(j, k2 + 1, T(j, k2 + 1) - Mul(sum, Conj(v2)));
          }
          for (int64_t j = 0; j < n; ++j) {
            const C sum = Mul(t1, Z(j, k2)) + Scale(t2, Z(j, k2 + 1));
            SetZ(j, k2, Z(j, k2) - sum);
            SetZ(j, k2 + 1, Z(j, k2 + 1) - Mul(sum, Conj(v2)));
          }
          if (k2 == m && m > l) {
            C temp = C(1, 0) - t1;
            temp = Div(temp, C(Abs(temp), 0));
            SetT(m + 1, m, Mul(T(m + 1, m), Conj(temp)));
            if (m + 2 <= i) SetT(m + 2, m + 1, Mul(T(m + 2, m + 1), temp));
            for (int64_t j = m; j <= i; ++j) {
              if (j == m + 1) continue;
              for (int64_t c = j + 1; c < n; ++c) SetT(j, c, Mul(temp, T(j, c)));
              ScaleCol(j, 0, j - 1, Conj(temp));
              ScaleZ(j, Conj(temp));
            }
          }
        }
        // A real H(i, i-1).
        const C h = T(i, i - 1);
        if (h.imag() != 0) {
          const double rtemp = Abs(h);
          T(i, i - 1) = C(Rd(rtemp), 0);
          const C temp = Div(h, C(rtemp, 0));
          for (int64_t c = i + 1; c < n; ++c) SetT(i, c, Mul(Conj(temp), T(i, c)));
          ScaleCol(i, 0, i - 1, temp);
          ScaleZ(i, temp);
        }
      }
      if (!converged) {
        info_ = i + 1;
        return;
      }
      w_[i] = T(i, i);
      kdefl = 0;
      i = l - 1;
    }
  }

  // ztrevc's right (left) eigenvectors of T, each taken back through v
  // (holding Q) in place: column ki from columns 0..ki, last first (ki..n-1, first first).
  void Vectors(std::vector<C>& v, bool right) {
    const int64_t n = n_;
    const double smlnum = p_.safmin * (static_cast<double>(n) / p_.ulp);
    auto V = [&](int64_t i, int64_t j) -> C& { return v[i * n + j]; };
    for (int64_t i = 0; i < n; ++i) diag_[i] = T(i, i);
    for (int64_t s = 0; s < n; ++s) {
      const int64_t ki = right ? n - 1 - s : s;
      const C lambda = T(ki, ki);
      const double smin = std::max(p_.ulp * Cabs1(lambda), smlnum);
      // The shifted diagonal of the block solved.
      const int64_t lo = right ? 0 : ki + 1, hi = right ? ki - 1 : n - 1;
      for (int64_t k = lo; k <= hi; ++k) {
        C d = diag_[k] - lambda;
        if (Cabs1(d) < smin) d = C(smin, 0);
        T(k, k) = R(d);
      }
      if (right) {
        for (int64_t k = 0; k < ki; ++k) x_[k] = R(-T(k, ki));
        for (int64_t j = ki - 1; j >= 0; --j) {
          x_[j] = R(Div(x_[j], T(j, j)));
          for (int64_t k = 0; k < j; ++k) x_[k] = R(x_[k] - Mul(x_[j], T(k, j)));
        }
        for (int64_t r = 0; r < n; ++r) {
          C acc = 0;
          for (int64_t k = 0; k < ki; ++k) acc += Mul(V(r, k), x_[k]);
          V(r, ki) = R(acc + V(r, ki));
        }
      } else {
        for (int64_t k = ki + 1; k < n; ++k) x_[k] = R(-Conj(T(ki, k)));
        for (int64_t j = ki + 1; j < n; ++j) {
          C acc = 0;
          for (int64_t k = ki + 1; k < j; ++k) acc += Mul(Conj(T(k, j)), x_[k]);
          x_[j] = R(Div(x_[j] - acc, Conj(T(j, j))));
        }
        for (int64_t r = 0; r < n; ++r) {
          C acc = 0;
          for (int64_t k = ki + 1; k < n; ++k) acc += Mul(V(r, k), x_[k]);
          V(r, ki) = R(acc + V(r, ki));
        }
      }
      for (int64_t k = lo; k <= hi; ++k) T(k, k) = diag_[k];
    }
  }

  // zgebak, then zgeev's normalization (unit 2-norm, the largest component real).
  void Finish(std::vector<C>& v, bool right) {
    const int64_t n = n_;
    auto V = [&](int64_t i, int64_t j) -> C& { return v[i * n + j]; };
    if (ilo_ != ihi_)
      for (int64_t i = ilo_; i <= ihi_; ++i) {
        const double s = right ? scale_[i] : 1 / scale_[i];
        for (int64_t c = 0; c < n; ++c) V(i, c) = R(Scale(s, V(i, c)));
      }
    for (int64_t ii = 0; ii < n; ++ii) {
      int64_t i = ii;
      if (i >= ilo_ && i <= ihi_) continue;
      if (i < ilo_) i = ilo_ - 1 - ii;
      const int64_t k = static_cast<int64_t>(scale_[i]);
      if (k == i) continue;
      for (int64_t c = 0; c < n; ++c) std::swap(V(i, c), V(k, c));
    }
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t r = 0; r < n; ++r) acc += V(r, j).real() * V(r, j).real() + V(r, j).imag() * V(r, j).imag();
      const double scl = 1 / std::sqrt(acc);
      for (int64_t r = 0; r < n; ++r) V(r, j) = R(Scale(scl, V(r, j)));
      int64_t k = 0;
      double best = -1;
      for (int64_t r = 0; r < n; ++r) {
        const double m = V(r, j).real() * V(r, j).real() + V(r, j).imag() * V(r, j).imag();
        if (m > best) best = m, k = r;
      }
      const C tmp = Div(Conj(V(k, j)), C(std::sqrt(best), 0));
      for (int64_t r = 0; r < n; ++r) V(r, j) = R(Mul(tmp, V(r, j)));
      V(k, j) = C(V(k, j).real(), 0);
    }
  }
};

}  // namespace

// Complex geev (custom_calls.h): the steps of LAPACK's zgeev for every matrix.
StatusOr<Literal> EvalComplexGeev(const Instruction& instr, const LinalgCall& call, Operands ops) {
  std::string why;
  std::optional<GeevShape> s = ComplexGeevShapes(instr, &why);
  if (!s) return InstrError(instr, why);
  const Literal& a = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  const int64_t n = s->n;
  std::vector<Literal> out;
  for (const Shape& t : ts) out.emplace_back(NoLayout(t));
  for (int64_t bt = 0; bt < s->batches; ++bt) {
    ZGeev g(n, a.shape().element_type() == PrimitiveType::kC64);
    for (int64_t i = 0; i < n * n; ++i) g.t_[i] = a.GetComplex(bt * n * n + i);
    g.Balance();
    g.Hessenberg();
    g.FormQ();
    g.Schur();
    const bool ok = g.info_ == 0;
    std::vector<C> vl(n * n, C(0)), vr(n * n, C(0));
    if (ok && call.left) {
      vl = g.z_;
      g.Vectors(vl, false);
      g.Finish(vl, false);
    }
    if (ok && call.right) {
      vr = g.z_;
      g.Vectors(vr, true);
      g.Finish(vr, true);
    }
    const int o = s->lapack ? 0 : 1;  // cuSOLVER's results start with T
    if (!s->lapack)
      for (int64_t i = 0; i < n * n; ++i) out[0].SetComplex(bt * n * n + i, g.t_[i]);
    for (int64_t i = 0; i < n; ++i) out[o].SetComplex(bt * n + i, g.w_[i]);
    for (int64_t i = 0; i < n * n; ++i)
      out[o + 1].SetComplex(bt * n * n + i, vl[i]), out[o + 2].SetComplex(bt * n * n + i, vr[i]);
    out[o + 3].SetInt(bt, g.info_);
  }
  return MakeTuple(std::move(out));
}

}  // namespace hloscope::eval
