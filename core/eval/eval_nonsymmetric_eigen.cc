// JAX's nonsymmetric eigendecomposition (jnp.linalg.eig, eigvals:
// `lapack_{s,d}geev_ffi`, `cuhybrid_eig_real`, `cusolver_geev_ffi`) in the
// interpreter, as LAPACK's dgeev computes it (custom_calls.h, GeevShapes):
// balancing (gebal), Hessenberg reduction (gehd2), Q (orghr), the Schur form
// by the double-shift QR algorithm (lahqr, lanv2), the eigenvectors of the
// Schur form (trevc, without its overflow guards) taken back through Q and
// the balancing (gebak), and dgeev's normalization. Every matrix value is
// stored in the element type after each step (the kernel keeps them in its
// outputs, core/codegen/geev_emitter.cc) and every step computed in f64 from
// the stored values, in the kernel's order.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "core/eval/eval_internal.h"
#include "core/ir/custom_calls.h"

namespace hloscope::eval {
namespace {

using C = std::complex<double>;

// v rounded to f32 and back, through a volatile float (GCC 12 at -O2 can
// drop a plain (double)(float) round trip that it inlines; see
// eval_nonsymmetric_eigen_complex.cc).
[[gnu::noinline]] double RoundToF32(double v) {
  volatile float f = static_cast<float>(v);
  return static_cast<double>(f);
}

// Smith's division, as the kernel writes it.
C SmithDivide(double a, double b, double c, double d) {
  if (std::abs(c) >= std::abs(d)) {
    const double r = d / c, den = c + d * r;
    return C((a + b * r) / den, (b - a * r) / den);
  }
  const double r = c / d, den = c * r + d;
  return C((a * r + b) / den, (b * r - a) / den);
}

class Geev {
 public:
  Geev(int64_t n, bool f32) : n_(n), f32_(f32), t_(n * n), z_(n * n), x_(n * n), zl_(n * n), scale_(n), tau_(n), wr_(n), wi_(n) {
    p_ = GeevParams(f32);
  }
  int64_t n_;
  bool f32_;
  std::vector<double> t_, z_, x_, zl_, scale_, tau_, wr_, wi_;
  GeevConstants p_;
  int64_t ilo_ = 0, ihi_ = -1, info_ = 0;

  double R(double v) const { return f32_ ? RoundToF32(v) : v; }
  double& T(int64_t i, int64_t j) { return t_[i * n_ + j]; }
  double& Z(int64_t i, int64_t j) { return z_[i * n_ + j]; }
  double& X(int64_t i, int64_t j) { return x_[i * n_ + j]; }
  void SetT(int64_t i, int64_t j, double v) { T(i, j) = R(v); }

  // gebal: permutations, then (`scale`) scaling.
  void Balance(bool scale = true) {
    const int64_t n = n_;
    int64_t k = 0, l = n - 1;
    auto swap = [&](int64_t a, int64_t b, int64_t rows_to, int64_t cols_from) {
      for (int64_t r = 0; r <= rows_to; ++r) std::swap(T(r, a), T(r, b));
      for (int64_t c = cols_from; c < n; ++c) std::swap(T(a, c), T(b, c));
    };
    // Rows isolating an eigenvalue, pushed down (the search restarts after each).
    for (bool again = true; again && l >= 0;) {
      again = false;
      for (int64_t i = l; i >= 0 && !again; --i) {
        bool isolated = true;
        for (int64_t j = 0; j <= l && isolated; ++j) isolated = j == i || T(i, j) == 0;
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
    // Columns isolating an eigenvalue, pushed left.
    for (bool again = true; again;) {
      again = false;
      for (int64_t j = k; j <= l && !again; ++j) {
        bool isolated = true;
        for (int64_t i = k; i <= l && isolated; ++i) isolated = i == j || T(i, j) == 0;
        if (!isolated) continue;
        scale_[k] = static_cast<double>(j);
        if (j != k) swap(j, k, l, k);
        ++k;
        again = true;
      }
    }
    for (int64_t i = k; i <= l; ++i) scale_[i] = 1;
    // Scaling by powers of 2 until the rows' and columns' norms are close.
    for (int sweep = 0; scale && sweep < kGeevBalanceSweeps; ++sweep) {
      bool noconv = false;
      for (int64_t i = k; i <= l; ++i) {
        double c2 = 0, r2 = 0, ca = 0, ra = 0;
        for (int64_t r = k; r <= l; ++r) c2 += T(r, i) * T(r, i);
        for (int64_t c = k; c <= l; ++c) r2 += T(i, c) * T(i, c);
        for (int64_t r = 0; r <= l; ++r) ca = std::max(ca, std::abs(T(r, i)));
        for (int64_t c = k; c < n; ++c) ra = std::max(ra, std::abs(T(i, c)));
        double c = std::sqrt(c2), r = std::sqrt(r2);
        if (!(c != 0 && r != 0 && !std::isnan(c + ca + r + ra))) continue;
        double g = r / 2, f = 1;
        const double s = c + r;
        for (int it = 0; it < kGeevScaleSteps && c < g && std::max({f, c, ca}) < p_.sfmax2 && std::min({r, g, ra}) > p_.sfmin2; ++it)
          f *= 2, c *= 2, ca *= 2, r /= 2, g /= 2, ra /= 2;
        g = c / 2;
        for (int it = 0; it < kGeevScaleSteps && g >= r && std::max(r, ra) < p_.sfmax2 && std::min({f, c, g, ca}) > p_.sfmin2; ++it)
          f /= 2, c /= 2, g /= 2, ca /= 2, r *= 2, ra *= 2;
        if (c + r >= 0.95 * s) continue;
        if (f < 1 && scale_[i] < 1 && f * scale_[i] <= p_.sfmin1) continue;
        if (f > 1 && scale_[i] > 1 && scale_[i] >= p_.sfmax1 / f) continue;
        const double inv = 1 / f;
        scale_[i] *= f;
        noconv = true;
        for (int64_t cc = k; cc < n; ++cc) SetT(i, cc, T(i, cc) * inv);
        for (int64_t rr = 0; rr <= l; ++rr) SetT(rr, i, T(rr, i) * f);
      }
      if (!noconv) break;
    }
    ilo_ = k;
    ihi_ = l;
  }

  // gehd2 over ilo..ihi, the reflectors below the subdiagonal, tau kept.
  void Hessenberg() {
    const int64_t n = n_;
    for (int64_t i = 0; i < n; ++i) tau_[i] = 0;
    for (int64_t i = ilo_; i < ihi_; ++i) {
      double norm2 = 0;
      for (int64_t r = i + 2; r <= ihi_; ++r) norm2 += T(r, i) * T(r, i);
      const double alpha = T(i + 1, i);
      double t = 0;
      if (norm2 != 0) {
        const double beta = -std::copysign(std::sqrt(alpha * alpha + norm2), alpha);
        t = (beta - alpha) / beta;
        const double scale = 1.0 / (alpha - beta);
        for (int64_t r = i + 2; r <= ihi_; ++r) SetT(r, i, T(r, i) * scale);
        SetT(i + 1, i, beta);
      }
      tau_[i] = R(t);
      if (t == 0) continue;
      const double beta = T(i + 1, i);
      T(i + 1, i) = 1;
      for (int64_t r = 0; r <= ihi_; ++r) {
        double acc = 0;
        for (int64_t c = i + 1; c <= ihi_; ++c) acc += T(r, c) * T(c, i);
        const double tw = t * acc;
        for (int64_t c = i + 1; c <= ihi_; ++c) SetT(r, c, T(r, c) - tw * T(c, i));
      }
      for (int64_t c = i + 1; c < n; ++c) {
        double acc = 0;
        for (int64_t r = i + 1; r <= ihi_; ++r) acc += T(r, c) * T(r, i);
        const double cs = t * acc;
        for (int64_t r = i + 1; r <= ihi_; ++r) SetT(r, c, T(r, c) - T(r, i) * cs);
      }
      T(i + 1, i) = beta;
    }
  }

  // orghr: Q from the reflectors (org2r on rows and columns ilo+1..ihi),
  // then T's entries below the subdiagonal cleared.
  void FormQ() {
    const int64_t n = n_;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) Z(i, j) = i == j ? 1 : 0;
    for (int64_t j = ilo_ + 1; j <= ihi_; ++j)
      for (int64_t r = j + 1; r <= ihi_; ++r) Z(r, j) = T(r, j - 1);
    const int64_t lo = ilo_ + 1;
    for (int64_t i = ihi_ - 1; i >= ilo_; --i) {  // reflector i acts on rows/columns i+1..ihi
      const int64_t c0 = i + 1;
      const double t = tau_[i];
      if (c0 < ihi_) {
        Z(c0, c0) = 1;
        if (t != 0)
          for (int64_t j = c0 + 1; j <= ihi_; ++j) {
            double w = 0;
            for (int64_t r = c0; r <= ihi_; ++r) w += Z(r, c0) * Z(r, j);
            const double tw = t * w;
            for (int64_t r = c0; r <= ihi_; ++r) Z(r, j) = R(Z(r, j) - Z(r, c0) * tw);
          }
      }
      for (int64_t r = c0 + 1; r <= ihi_; ++r) Z(r, c0) = R(Z(r, c0) * -t);
      Z(c0, c0) = R(1.0 - t);
      for (int64_t r = lo; r < c0; ++r) Z(r, c0) = 0;
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j + 1 < i; ++j) T(i, j) = 0;
  }

  // lanv2 on the 2×2 block at (i-1, i-1), rotating the rest of T and Z.
  void Standardize(int64_t i) {
    double a = T(i - 1, i - 1), b = T(i - 1, i), c = T(i, i - 1), d = T(i, i);
    double cs = 1, sn = 0;
    if (c == 0) {
    } else if (b == 0) {
      cs = 0, sn = 1;
      std::swap(a, d);
      b = -c, c = 0;
    } else if (a - d == 0 && std::signbit(b) != std::signbit(c)) {
    } else {
      double temp = a - d, p = 0.5 * temp;
      const double bcmax = std::max(std::abs(b), std::abs(c));
      const double bcmis = std::min(std::abs(b), std::abs(c)) * (std::signbit(b) ? -1.0 : 1.0) * (std::signbit(c) ? -1.0 : 1.0);
      double scale = std::max(std::abs(p), bcmax);
      double z = (p / scale) * p + (bcmax / scale) * bcmis;
      if (z >= 4 * p_.ulp) {
        z = p + std::copysign(std::sqrt(scale) * std::sqrt(z), p);
        a = d + z;
        d = d - (bcmax / z) * bcmis;
        const double tau = std::sqrt(c * c + z * z);
        cs = z / tau, sn = c / tau;
        b = b - c, c = 0;
      } else {
        const double sigma = b + c;
        const double tau = std::sqrt(sigma * sigma + temp * temp);
        cs = std::sqrt(0.5 * (1 + std::abs(sigma) / tau));
        sn = -(p / (tau * cs)) * (std::signbit(sigma) ? -1.0 : 1.0);
        const double aa = a * cs + b * sn, bb = -a * sn + b * cs, cc = c * cs + d * sn, dd = -c * sn + d * cs;
        a = aa * cs + cc * sn, b = bb * cs + dd * sn, c = -aa * sn + cc * cs, d = -bb * sn + dd * cs;
        temp = 0.5 * (a + d);
        a = temp, d = temp;
        if (c != 0) {
          if (b != 0) {
            if (std::signbit(b) == std::signbit(c)) {
              const double sab = std::sqrt(std::abs(b)), sac = std::sqrt(std::abs(c));
              p = std::copysign(sab * sac, c);
              const double tau2 = 1 / std::sqrt(std::abs(b + c));
              a = temp + p, d = temp - p;
              b = b - c, c = 0;
              const double cs1 = sab * tau2, sn1 = sac * tau2;
              const double t2 = cs * cs1 - sn * sn1;
              sn = cs * sn1 + sn * cs1, cs = t2;
            }
          } else {
            b = -c, c = 0;
            const double t2 = cs;
            cs = -sn, sn = t2;
          }
        }
      }
    }
    SetT(i - 1, i - 1, a), SetT(i - 1, i, b), SetT(i, i - 1, c), SetT(i, i, d);
    wr_[i - 1] = T(i - 1, i - 1), wr_[i] = T(i, i);
    const double im = T(i, i - 1) == 0 ? 0 : std::sqrt(std::abs(T(i - 1, i))) * std::sqrt(std::abs(T(i, i - 1)));
    wi_[i - 1] = R(im), wi_[i] = R(-im);
    auto rot = [&](double& x, double& y) {
      const double tx = cs * x + sn * y;
      y = R(cs * y - sn * x);
      x = R(tx);
    };
    for (int64_t j = i + 1; j < n_; ++j) rot(T(i - 1, j), T(i, j));
    for (int64_t j = 0; j + 1 < i; ++j) rot(T(j, i - 1), T(j, i));
    for (int64_t j = 0; j < n_; ++j) rot(Z(j, i - 1), Z(j, i));
  }

  // lahqr with the Schur form and Z (i1 = 0, i2 = n-1 throughout).
  void Schur() {
    const int64_t n = n_;
    for (int64_t i = 0; i < n; ++i)
      if (i < ilo_ || i > ihi_) wr_[i] = R(T(i, i)), wi_[i] = 0;
    if (ilo_ == ihi_) {
      wr_[ilo_] = R(T(ilo_, ilo_)), wi_[ilo_] = 0;
      return;
    }
    if (ihi_ < ilo_) return;
    const double ulp = p_.ulp, smlnum = p_.safmin * (static_cast<double>(ihi_ - ilo_ + 1) / ulp);
    const int64_t itmax = 30 * std::max<int64_t>(10, ihi_ - ilo_ + 1);
    int64_t kdefl = 0;
    for (int64_t i = ihi_; i >= ilo_;) {
      int64_t l = ilo_;
      bool split = false;
      for (int64_t its = 0; its <= itmax; ++its) {
        int64_t k = i;
        for (; k > l; --k) {
          if (std::abs(T(k, k - 1)) <= smlnum) break;
          double tst = std::abs(T(k - 1, k - 1)) + std::abs(T(k, k));
          if (tst == 0) {
            if (k - 2 >= ilo_) tst += std::abs(T(k - 1, k - 2));
            if (k + 1 <= ihi_) tst += std::abs(T(k + 1, k));
          }
          if (std::abs(T(k, k - 1)) <= ulp * tst) {
            const double ab = std::max(std::abs(T(k, k - 1)), std::abs(T(k - 1, k)));
            const double ba = std::min(std::abs(T(k, k - 1)), std::abs(T(k - 1, k)));
            const double aa = std::max(std::abs(T(k, k)), std::abs(T(k - 1, k - 1) - T(k, k)));
            const double bb = std::min(std::abs(T(k, k)), std::abs(T(k - 1, k - 1) - T(k, k)));
            const double s = aa + ab;
            if (ba * (ab / s) <= std::max(smlnum, ulp * (bb * (aa / s)))) break;
          }
        }
        l = k;
        if (l > ilo_) T(l, l - 1) = 0;
        if (l >= i - 1) {
          split = true;
          break;
        }
        ++kdefl;
        double h11, h12, h21, h22;
        if (kdefl % (2 * kGeevExceptionalShift) == 0) {
          const double s = std::abs(T(i, i - 1)) + std::abs(T(i - 1, i - 2));
          h11 = 0.75 * s + T(i, i), h12 = -0.4375 * s, h21 = s, h22 = h11;
        } else if (kdefl % kGeevExceptionalShift == 0) {
          const double s = std::abs(T(l + 1, l)) + std::abs(T(l + 2, l + 1));
          h11 = 0.75 * s + T(l, l), h12 = -0.4375 * s, h21 = s, h22 = h11;
        } else {
          h11 = T(i - 1, i - 1), h21 = T(i, i - 1), h12 = T(i - 1, i), h22 = T(i, i);
        }
        double rt1r = 0, rt1i = 0, rt2r = 0, rt2i = 0;
        const double s = std::abs(h11) + std::abs(h12) + std::abs(h21) + std::abs(h22);
        if (s != 0) {
          h11 /= s, h21 /= s, h12 /= s, h22 /= s;
          const double tr = (h11 + h22) / 2;
          const double det = (h11 - tr) * (h22 - tr) - h12 * h21;
          const double rtdisc = std::sqrt(std::abs(det));
          if (det >= 0) {
            rt1r = tr * s, rt2r = rt1r, rt1i = rtdisc * s, rt2i = -rt1i;
          } else {
            rt1r = tr + rtdisc, rt2r = tr - rtdisc;
            if (std::abs(rt1r - h22) <= std::abs(rt2r - h22)) rt1r = rt1r * s, rt2r = rt1r;
            else rt2r = rt2r * s, rt1r = rt2r;
          }
        }
        // Two consecutive small subdiagonal elements: where to start the step.
        double v[3] = {0, 0, 0};
        int64_t m = i - 2;
        for (; m >= l; --m) {
          const double h21s0 = T(m + 1, m);
          double ss = std::abs(T(m, m) - rt2r) + std::abs(rt2i) + std::abs(h21s0);
          const double h21s = T(m + 1, m) / ss;
          v[0] = h21s * T(m, m + 1) + (T(m, m) - rt1r) * ((T(m, m) - rt2r) / ss) - rt1i * (rt2i / ss);
          v[1] = h21s * (T(m, m) + T(m + 1, m + 1) - rt1r - rt2r);
          v[2] = h21s * T(m + 2, m + 1);
          ss = std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]);
          v[0] /= ss, v[1] /= ss, v[2] /= ss;
          if (m == l) break;
          const double h00 = std::abs(T(m, m - 1)) * (std::abs(v[1]) + std::abs(v[2]));
          const double h01 = std::abs(v[0]) * (std::abs(T(m - 1, m - 1)) + std::abs(T(m, m)) + std::abs(T(m + 1, m + 1)));
          if (h00 <= ulp * h01) break;
        }
        // The double-shift step, chasing the bulge from m to i.
        for (int64_t k2 = m; k2 <= i - 1; ++k2) {
          const int64_t nr = std::min<int64_t>(3, i - k2 + 1);
          if (k2 > m)
            for (int64_t q = 0; q < nr; ++q) v[q] = T(k2 + q, k2 - 1);
          // larfg on v: alpha = v[0], x = v[1:nr).
          double t1 = 0;
          double norm2 = 0;
          for (int64_t q = 1; q < nr; ++q) norm2 += v[q] * v[q];
          if (norm2 != 0) {
            const double beta = -std::copysign(std::sqrt(v[0] * v[0] + norm2), v[0]);
            t1 = (beta - v[0]) / beta;
            const double sc = 1.0 / (v[0] - beta);
            for (int64_t q = 1; q < nr; ++q) v[q] *= sc;
            v[0] = beta;
          }
          if (k2 > m) {
            SetT(k2, k2 - 1, v[0]);
            T(k2 + 1, k2 - 1) = 0;
            if (k2 < i - 1) T(k2 + 2, k2 - 1) = 0;
          } else if (m > l) {
            SetT(k2, k2 - 1, T(k2, k2 - 1) * (1 - t1));
          }
          const double v2 = v[1], t2 = t1 * v2;
          const double v3 = nr == 3 ? v[2] : 0, t3 = t1 * v3;
          for (int64_t j = k2; j < n; ++j) {
            double sum = T(k2, j) + v2 * T(k2 + 1, j);
            if (nr == 3) sum += v3 * T(k2 + 2, j);
            SetT(k2, j, T(k2, j) - sum * t1);
            SetT(k2 + 1, j, T(k2 + 1, j) - sum * t2);
            if (nr == 3) SetT(k2 + 2, j, T(k2 + 2, j) - sum * t3);
          }
          for (int64_t j = 0; j <= std::min(k2 + 3, i); ++j) {
            double sum = T(j, k2) + v2 * T(j, k2 + 1);
            if (nr == 3) sum += v3 * T(j, k2 + 2);
            SetT(j, k2, T(j, k2) - sum * t1);
            SetT(j, k2 + 1, T(j, k2 + 1) - sum * t2);
            if (nr == 3) SetT(j, k2 + 2, T(j, k2 + 2) - sum * t3);
          }
          for (int64_t j = 0; j < n; ++j) {
            double sum = Z(j, k2) + v2 * Z(j, k2 + 1);
            if (nr == 3) sum += v3 * Z(j, k2 + 2);
            Z(j, k2) = R(Z(j, k2) - sum * t1);
            Z(j, k2 + 1) = R(Z(j, k2 + 1) - sum * t2);
            if (nr == 3) Z(j, k2 + 2) = R(Z(j, k2 + 2) - sum * t3);
          }
        }
      }
      if (!split) {
        info_ = i + 1;
        return;
      }
      if (l == i) {
        wr_[i] = R(T(i, i)), wi_[i] = 0;
      } else {
        Standardize(i);
      }
      kdefl = 0;
      i = l - 1;
    }
  }

  // The 2×2 system (a - w) x = b, w = (wr, wi) (wi = 0: real), or its
  // transpose, by Gaussian elimination with complete pivoting (the largest
  // |re| + |im| first, in column order), pivots under smin taken as smin.
  void Solve2(bool trans, bool cplx, double wr, double wi, int64_t j, C b1, C b2, double smin, C* x1, C* x2) {
    C a[2][2] = {{C(T(j, j) - wr, -wi), C(T(j, j + 1), 0)}, {C(T(j + 1, j), 0), C(T(j + 1, j + 1) - wr, -wi)}};
    if (trans) std::swap(a[0][1], a[1][0]);
    auto mag = [&](C v) { return std::abs(v.real()) + std::abs(v.imag()); };
    auto mul = [&](C u, C v) { return cplx ? C(u.real() * v.real() - u.imag() * v.imag(), u.real() * v.imag() + u.imag() * v.real()) : C(u.real() * v.real()); };
    auto div = [&](C u, C v) { return cplx ? SmithDivide(u.real(), u.imag(), v.real(), v.imag()) : C(u.real() / v.real()); };
    int p = 0, q = 0;
    double best = -1;
    for (int qq = 0; qq < 2; ++qq)
      for (int pp = 0; pp < 2; ++pp)
        if (mag(a[pp][qq]) > best) best = mag(a[pp][qq]), p = pp, q = qq;
    const C b[2] = {b1, b2};
    C x[2];
    if (best < smin) {
      x[0] = div(b[0], C(smin)), x[1] = div(b[1], C(smin));
    } else {
      const C u11 = a[p][q], l21 = div(a[1 - p][q], u11), u12 = a[p][1 - q];
      C u22 = a[1 - p][1 - q] - mul(u12, l21);
      if (mag(u22) < smin) u22 = C(smin);
      const C r1 = b[p], r2 = b[1 - p] - mul(l21, r1);
      x[1 - q] = div(r2, u22);
      x[q] = div(r1 - mul(u12, x[1 - q]), u11);
    }
    *x1 = x[0], *x2 = x[1];
  }

  // trevc's right eigenvectors of T into X (a pair's real part in its first
  // column, its imaginary part in the second), column ki in rows 0..ki.
  void RightVectors() {
    const int64_t n = n_;
    const double smlnum = p_.safmin * (static_cast<double>(n) / p_.ulp);
    std::fill(x_.begin(), x_.end(), 0.0);
    for (int64_t ki = n - 1; ki >= 0; --ki) {
      const bool pair = ki > 0 && T(ki, ki - 1) != 0;
      const double wr = T(ki, ki);
      const double wi = pair ? std::sqrt(std::abs(T(ki, ki - 1))) * std::sqrt(std::abs(T(ki - 1, ki))) : 0;
      const double smin = std::max(p_.ulp * (std::abs(wr) + std::abs(wi)), smlnum);
      const int64_t cr = pair ? ki - 1 : ki, ci = ki;  // the real and imaginary parts' columns
      if (!pair) {
        X(ki, ki) = 1;
        for (int64_t k = 0; k < ki; ++k) X(k, ki) = R(-T(k, ki));
      } else {
        if (std::abs(T(ki - 1, ki)) >= std::abs(T(ki, ki - 1))) {
          X(ki - 1, cr) = 1, X(ki, ci) = R(wi / T(ki - 1, ki));
        } else {
          X(ki - 1, cr) = R(-wi / T(ki, ki - 1)), X(ki, ci) = 1;
        }
        X(ki, cr) = 0, X(ki - 1, ci) = 0;
        for (int64_t k = 0; k < ki - 1; ++k) {
          X(k, cr) = R(-X(ki - 1, cr) * T(k, ki - 1));
          X(k, ci) = R(-X(ki, ci) * T(k, ki));
        }
      }
      auto axpy = [&](int64_t col, int64_t upto, double xv, int64_t tcol) {
        for (int64_t k = 0; k < upto; ++k) X(k, col) = R(X(k, col) - xv * T(k, tcol));
      };
      for (int64_t j = (pair ? ki - 2 : ki - 1); j >= 0; --j) {
        const bool block = j > 0 && T(j, j - 1) != 0;
        if (!block) {
          if (!pair) {
            double csr = T(j, j) - wr;
            if (std::abs(csr) < smin) csr = smin;
            const double xv = X(j, cr) / csr;
            X(j, cr) = R(xv);
            axpy(cr, j, X(j, cr), j);
          } else {
            double csr = T(j, j) - wr, csi = -wi;
            if (std::abs(csr) + std::abs(csi) < smin) csr = smin, csi = 0;
            const C xv = SmithDivide(X(j, cr), X(j, ci), csr, csi);
            X(j, cr) = R(xv.real()), X(j, ci) = R(xv.imag());
            axpy(cr, j, X(j, cr), j);
            axpy(ci, j, X(j, ci), j);
          }
          continue;
        }
        C x1, x2;
        Solve2(false, pair, wr, pair ? wi : 0, j - 1, C(X(j - 1, cr), pair ? X(j - 1, ci) : 0), C(X(j, cr), pair ? X(j, ci) : 0),
               smin, &x1, &x2);
        X(j - 1, cr) = R(x1.real()), X(j, cr) = R(x2.real());
        axpy(cr, j - 1, X(j - 1, cr), j - 1);
        axpy(cr, j - 1, X(j, cr), j);
        if (pair) {
          X(j - 1, ci) = R(x1.imag()), X(j, ci) = R(x2.imag());
          axpy(ci, j - 1, X(j - 1, ci), j - 1);
          axpy(ci, j - 1, X(j, ci), j);
        }
        --j;
      }
      if (pair) --ki;
    }
  }

  // trevc's left eigenvectors of T into X (yᴴT = λyᴴ), column ki in rows ki..n-1.
  void LeftVectors() {
    const int64_t n = n_;
    const double smlnum = p_.safmin * (static_cast<double>(n) / p_.ulp);
    std::fill(x_.begin(), x_.end(), 0.0);
    for (int64_t ki = 0; ki < n; ++ki) {
      const bool pair = ki + 1 < n && T(ki + 1, ki) != 0;
      const double wr = T(ki, ki);
      const double wi = pair ? std::sqrt(std::abs(T(ki, ki + 1))) * std::sqrt(std::abs(T(ki + 1, ki))) : 0;
      const double smin = std::max(p_.ulp * (std::abs(wr) + std::abs(wi)), smlnum);
      const int64_t cr = ki, ci = pair ? ki + 1 : ki;
      const int64_t first = pair ? ki + 2 : ki + 1;  // the first row solved for
      if (!pair) {
        X(ki, ki) = 1;
        for (int64_t k = ki + 1; k < n; ++k) X(k, ki) = R(-T(ki, k));
      } else {
        if (std::abs(T(ki, ki + 1)) >= std::abs(T(ki + 1, ki))) {
          X(ki, cr) = R(wi / T(ki, ki + 1)), X(ki + 1, ci) = 1;
        } else {
          X(ki, cr) = 1, X(ki + 1, ci) = R(-wi / T(ki + 1, ki));
        }
        X(ki + 1, cr) = 0, X(ki, ci) = 0;
        for (int64_t k = ki + 2; k < n; ++k) {
          X(k, cr) = R(-X(ki, cr) * T(ki, k));
          X(k, ci) = R(-X(ki + 1, ci) * T(ki + 1, k));
        }
      }
      // Row `row`'s right-hand side less Σ_{k in [first, upto)} T(k, row)·X(k, col)
      // (a 2×2 block's two rows both to the block's first row, as LAPACK).
      auto dot = [&](int64_t col, int64_t row, int64_t upto) {
        double acc = 0;
        for (int64_t k = first; k < upto; ++k) acc += T(k, row) * X(k, col);
        X(row, col) = R(X(row, col) - acc);
      };
      for (int64_t j = first; j < n; ++j) {
        const bool block = j + 1 < n && T(j + 1, j) != 0;
        if (!block) {
          dot(cr, j, j);
          if (pair) dot(ci, j, j);
          if (!pair) {
            double csr = T(j, j) - wr;
            if (std::abs(csr) < smin) csr = smin;
            X(j, cr) = R(X(j, cr) / csr);
          } else {
            double csr = T(j, j) - wr, csi = wi;
            if (std::abs(csr) + std::abs(csi) < smin) csr = smin, csi = 0;
            const C xv = SmithDivide(X(j, cr), X(j, ci), csr, csi);
            X(j, cr) = R(xv.real()), X(j, ci) = R(xv.imag());
          }
          continue;
        }
        dot(cr, j, j), dot(cr, j + 1, j);
        if (pair) dot(ci, j, j), dot(ci, j + 1, j);
        C x1, x2;
        Solve2(true, pair, wr, pair ? -wi : 0, j, C(X(j, cr), pair ? X(j, ci) : 0), C(X(j + 1, cr), pair ? X(j + 1, ci) : 0),
               smin, &x1, &x2);
        X(j, cr) = R(x1.real()), X(j + 1, cr) = R(x2.real());
        if (pair) X(j, ci) = R(x1.imag()), X(j + 1, ci) = R(x2.imag());
        ++j;
      }
      if (pair) ++ki;
    }
  }

  // v ← v·X in place (right: column ki from columns 0..ki, last first; left:
  // from columns ki..n-1, first first), a pair's two columns row by row.
  void BackTransform(std::vector<double>& v, bool right) {
    const int64_t n = n_;
    auto V = [&](int64_t i, int64_t j) -> double& { return v[i * n + j]; };
    for (int64_t s = 0; s < n; ++s) {
      const int64_t ki = right ? n - 1 - s : s;
      const bool pair = right ? ki > 0 && T(ki, ki - 1) != 0 : ki + 1 < n && T(ki + 1, ki) != 0;
      const int64_t c0 = right && pair ? ki - 1 : ki, c1 = pair ? c0 + 1 : c0;
      const int64_t from = right ? 0 : c0, to = right ? c1 : n - 1;
      for (int64_t r = 0; r < n; ++r) {
        double s0 = 0, s1 = 0;
        for (int64_t k = from; k <= to; ++k) {
          s0 += V(r, k) * X(k, c0);
          if (pair) s1 += V(r, k) * X(k, c1);
        }
        V(r, c0) = R(s0);
        if (pair) V(r, c1) = R(s1);
      }
      if (pair) ++s;
    }
  }

  // gebak: the balancing undone on v's rows (right: scaled by scale, left:
  // by its inverse), then the permutation's swaps.
  void Unbalance(std::vector<double>& v, bool right) {
    const int64_t n = n_;
    if (ilo_ != ihi_)
      for (int64_t i = ilo_; i <= ihi_; ++i) {
        const double s = right ? scale_[i] : 1 / scale_[i];
        for (int64_t c = 0; c < n; ++c) v[i * n + c] = R(v[i * n + c] * s);
      }
    for (int64_t ii = 0; ii < n; ++ii) {
      int64_t i = ii;
      if (i >= ilo_ && i <= ihi_) continue;
      if (i < ilo_) i = ilo_ - 1 - ii;
      const int64_t k = static_cast<int64_t>(scale_[i]);
      if (k == i) continue;
      for (int64_t c = 0; c < n; ++c) std::swap(v[i * n + c], v[k * n + c]);
    }
  }

  // dgeev's normalization: unit 2-norm columns; a pair's largest component real.
  void Normalize(std::vector<double>& v) {
    const int64_t n = n_;
    auto V = [&](int64_t i, int64_t j) -> double& { return v[i * n + j]; };
    auto norm = [&](int64_t j) {
      double acc = 0;
      for (int64_t r = 0; r < n; ++r) acc += V(r, j) * V(r, j);
      return std::sqrt(acc);
    };
    for (int64_t i = 0; i < n; ++i) {
      if (wi_[i] == 0) {
        const double scl = 1 / norm(i);
        for (int64_t r = 0; r < n; ++r) V(r, i) = R(V(r, i) * scl);
      } else if (wi_[i] > 0 && i + 1 < n) {
        const double n1 = norm(i), n2 = norm(i + 1);
        const double scl = 1 / std::sqrt(n1 * n1 + n2 * n2);
        for (int64_t r = 0; r < n; ++r) V(r, i) = R(V(r, i) * scl), V(r, i + 1) = R(V(r, i + 1) * scl);
        int64_t k = 0;
        double best = -1;
        for (int64_t r = 0; r < n; ++r) {
          const double m = V(r, i) * V(r, i) + V(r, i + 1) * V(r, i + 1);
          if (m > best) best = m, k = r;
        }
        const double f = V(k, i), g = V(k, i + 1);
        double cs = 1, sn = 0;
        if (g == 0) {
        } else if (f == 0) {
          cs = 0, sn = std::copysign(1.0, g);
        } else {
          const double d = std::sqrt(f * f + g * g);
          cs = std::abs(f) / d;
          sn = g / std::copysign(d, f);
        }
        for (int64_t r = 0; r < n; ++r) {
          const double x = V(r, i), y = V(r, i + 1);
          V(r, i) = R(cs * x + sn * y);
          V(r, i + 1) = R(cs * y - sn * x);
        }
        V(k, i + 1) = 0;
      }
    }
  }
};

}  // namespace

// geev (custom_calls.h): the steps of LAPACK's dgeev for every matrix.
StatusOr<Literal> EvalGeev(const Instruction& instr, const LinalgCall& call, Operands ops) {
  std::string why;
  std::optional<GeevShape> s = GeevShapes(instr, call, &why);
  if (!s) return InstrError(instr, why);
  const Literal& a = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  const int64_t n = s->n;
  const bool f32 = a.shape().element_type() == PrimitiveType::kF32;
  std::vector<Literal> out;
  for (const Shape& t : ts) out.emplace_back(NoLayout(t));
  for (int64_t bt = 0; bt < s->batches; ++bt) {
    Geev g(n, f32);
    for (int64_t i = 0; i < n * n; ++i) g.t_[i] = a.GetDouble(bt * n * n + i);
    g.Balance();
    g.Hessenberg();
    g.FormQ();
    g.Schur();
    const bool vectors = g.info_ == 0 && (call.left || call.right);
    std::vector<double> vr(n * n, 0.0), vl(n * n, 0.0);
    if (vectors && call.left) g.zl_ = g.z_;
    if (vectors && call.right) {
      g.RightVectors();
      g.BackTransform(g.z_, true);
      g.Unbalance(g.z_, true);
      g.Normalize(g.z_);
      vr = g.z_;
    }
    if (vectors && call.left) {
      g.LeftVectors();
      g.BackTransform(g.zl_, false);
      g.Unbalance(g.zl_, false);
      g.Normalize(g.zl_);
      vl = g.zl_;
    }
    const int64_t m0 = bt * n * n, v0 = bt * n;
    if (s->lapack) {
      for (int64_t i = 0; i < n; ++i) out[0].SetDouble(v0 + i, g.wr_[i]), out[1].SetDouble(v0 + i, g.wi_[i]);
      // The real pairs as complex vectors: (v_j + i·v_{j+1}, v_j - i·v_{j+1}).
      for (int k = 0; k < 2; ++k) {
        const std::vector<double>& v = k == 0 ? vl : vr;
        Literal& o = out[2 + k];
        for (int64_t r = 0; r < n; ++r)
          for (int64_t j = 0; j < n; ++j) {
            double re = v[r * n + j], im = 0;
            if (g.wi_[j] > 0 && j + 1 < n) im = v[r * n + j + 1];
            else if (g.wi_[j] < 0 && j > 0) re = v[r * n + j - 1], im = -v[r * n + j];
            o.SetComplex(m0 + r * n + j, C(re, im));
          }
      }
      out[4].SetInt(bt, g.info_);
    } else {
      for (int64_t i = 0; i < n * n; ++i) out[0].SetDouble(m0 + i, g.t_[i]), out[3].SetDouble(m0 + i, vr[i]);
      for (int64_t i = 0; i < n; ++i) out[1].SetComplex(v0 + i, C(g.wr_[i], g.wi_[i]));
      out[4].SetInt(bt, g.info_);
    }
  }
  return MakeTuple(std::move(out));
}

// gees with sort 'N' (custom_calls.h): dgees's steps for every matrix.
StatusOr<Literal> EvalGees(const Instruction& instr, const LinalgCall& call, Operands ops) {
  std::string why;
  std::optional<GeevShape> s = GeesShapes(instr, &why);
  if (!s) return InstrError(instr, why);
  const Literal& a = *ops[0];
  const auto& ts = instr.shape().tuple_shapes();
  const int64_t n = s->n;
  std::vector<Literal> out;
  for (const Shape& t : ts) out.emplace_back(NoLayout(t));
  for (int64_t bt = 0; bt < s->batches; ++bt) {
    Geev g(n, a.shape().element_type() == PrimitiveType::kF32);
    for (int64_t i = 0; i < n * n; ++i) g.t_[i] = a.GetDouble(bt * n * n + i);
    g.Balance(/*scale=*/false);
    g.Hessenberg();
    g.FormQ();
    g.Schur();
    if (call.right) g.Unbalance(g.z_, true);
    for (int64_t i = 0; i < n * n; ++i)
      out[0].SetDouble(bt * n * n + i, g.t_[i]), out[1].SetDouble(bt * n * n + i, call.right ? g.z_[i] : 0.0);
    for (int64_t i = 0; i < n; ++i) out[2].SetDouble(bt * n + i, g.wr_[i]), out[3].SetDouble(bt * n + i, g.wi_[i]);
    out[4].SetInt(bt, 0);
    out[5].SetInt(bt, g.info_);
  }
  return MakeTuple(std::move(out));
}

}  // namespace hloscope::eval
