// triangular-solve, cholesky (and JAX's LAPACK / cuSOLVER calls for them), fft and topk: the linear-algebra and spectral
// ops, computed in double / complex<double> and rounded to the result type.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <numeric>
#include <type_traits>

#include "core/eval/eval_internal.h"
#include "core/ir/custom_calls.h"

namespace hloscope::eval {
namespace {

using C = std::complex<double>;

std::string Raw(const Instruction& instr, std::string_view name) {
  const RawAttr* a = instr.FindRaw(name);
  return a ? a->value : std::string();
}

std::vector<int64_t> RawList(const Instruction& instr, std::string_view name) {
  std::vector<int64_t> out;
  std::string v = Raw(instr, name);
  std::string cur;
  for (char ch : v) {
    if ((ch >= '0' && ch <= '9') || ch == '-') {
      cur += ch;
    } else if (!cur.empty()) {
      out.push_back(std::stoll(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::stoll(cur));
  return out;
}

int64_t Product(const std::vector<int64_t>& d, int from, int to) {
  int64_t p = 1;
  for (int i = from; i < to; ++i) p *= d[i];
  return p;
}

}  // namespace

// op(a) x = b (left_side) or x op(a) = b, with a's `lower` (or upper)
// triangle, optionally unit diagonal; op = identity, transpose or adjoint.
StatusOr<Literal> EvalTriangularSolve(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const Literal& b = *ops[1];
  const int r = a.shape().rank();
  const int64_t m = a.shape().dim(r - 1);
  const bool left = Raw(instr, "left_side") == "true";
  const bool lower = Raw(instr, "lower") == "true";
  const bool unit = Raw(instr, "unit_diagonal") == "true";
  std::string tr = Raw(instr, "transpose_a");
  if (tr.empty()) tr = "NO_TRANSPOSE";
  if (tr != "NO_TRANSPOSE" && tr != "TRANSPOSE" && tr != "ADJOINT")
    return InstrError(instr, "transpose_a=" + tr + " is not NO_TRANSPOSE, TRANSPOSE or ADJOINT");
  const int64_t rows = b.shape().dim(r - 2), cols = b.shape().dim(r - 1);
  const int64_t batches = Product(b.shape().dims(), 0, r - 2);
  Literal out(NoLayout(b.shape()));
  std::vector<C> op(m * m), x(rows * cols);
  // Real matrices divide as reals: std::complex's division rescales (a·c)/(c·c)
  // and can differ from a/c in the last bit, which a compare of the result then
  // turns into a different branch than the kernel's (diffuzz seed 20272096).
  const bool complex = IsComplex(b.shape().element_type());
  auto Divide = [complex](C n, C d) { return complex ? n / d : C(n.real() / d.real()); };
  // Each unknown is stored in the element type as it is solved, and later
  // steps read it as stored, as the kernel (which keeps x in its output) does:
  // an f32 solve kept in double here differed from the kernel by an ulp.
  auto Round = [&out](int64_t e, C v) {
    out.SetComplex(e, v);
    return out.GetComplex(e);
  };
  for (int64_t bt = 0; bt < batches; ++bt) {
    // op(tri(a)) as a dense m×m matrix.
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        C v = 0;
        bool in_tri = lower ? j <= i : j >= i;
        if (i == j && unit) v = 1;
        else if (in_tri) v = a.GetComplex(bt * m * m + i * m + j);
        if (tr == "NO_TRANSPOSE") op[i * m + j] = v;
        else op[j * m + i] = tr == "ADJOINT" ? std::conj(v) : v;
      }
    }
    const bool op_lower = lower == (tr == "NO_TRANSPOSE");
    for (int64_t i = 0; i < rows * cols; ++i) x[i] = b.GetComplex(bt * rows * cols + i);
    if (left) {  // op · X = B, X is m×cols: substitution down (lower) or up (upper) the rows.
      for (int64_t step = 0; step < m; ++step) {
        int64_t i = op_lower ? step : m - 1 - step;
        for (int64_t c = 0; c < cols; ++c) {
          C s = x[i * cols + c];
          for (int64_t k = 0; k < m; ++k) {
            if (k == i || (op_lower ? k > i : k < i)) continue;
            s -= op[i * m + k] * x[k * cols + c];
          }
          x[i * cols + c] = Round(bt * rows * cols + i * cols + c, Divide(s, op[i * m + i]));
        }
      }
    } else {  // X · op = B, X is rows×m: column j depends on the columns solved before it.
      for (int64_t step = 0; step < m; ++step) {
        int64_t j = op_lower ? m - 1 - step : step;
        for (int64_t rr = 0; rr < rows; ++rr) {
          C s = x[rr * cols + j];
          for (int64_t k = 0; k < m; ++k) {
            if (k == j || (op_lower ? k < j : k > j)) continue;
            s -= x[rr * cols + k] * op[k * m + j];
          }
          x[rr * cols + j] = Round(bt * rows * cols + rr * cols + j, Divide(s, op[j * m + j]));
        }
      }
    }
    for (int64_t i = 0; i < rows * cols; ++i) out.SetComplex(bt * rows * cols + i, x[i]);
  }
  return out;
}

// a = L·L^H (lower=true, the default) or U^H·U; the other triangle is zero.
StatusOr<Literal> EvalCholesky(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const int r = a.shape().rank();
  const int64_t n = a.shape().dim(r - 1);
  const bool lower = Raw(instr, "lower") != "false";
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  Literal out(NoLayout(a.shape()));
  std::vector<C> l(n * n);
  for (int64_t bt = 0; bt < batches; ++bt) {
    auto A = [&](int64_t i, int64_t j) {  // the lower-triangle view of a
      return lower ? a.GetComplex(bt * n * n + i * n + j) : std::conj(a.GetComplex(bt * n * n + j * n + i));
    };
    std::fill(l.begin(), l.end(), C(0));
    for (int64_t j = 0; j < n; ++j) {
      C d = A(j, j);
      for (int64_t k = 0; k < j; ++k) d -= l[j * n + k] * std::conj(l[j * n + k]);
      double dj = std::sqrt(d.real());  // NaN when not positive definite, as XLA gives
      l[j * n + j] = dj;
      for (int64_t i = j + 1; i < n; ++i) {
        C s = A(i, j);
        for (int64_t k = 0; k < j; ++k) s -= l[i * n + k] * std::conj(l[j * n + k]);
        l[i * n + j] = s / dj;
      }
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        out.SetComplex(bt * n * n + i * n + j, lower ? l[i * n + j] : std::conj(l[j * n + i]));
  }
  return out;
}

namespace {

// getrf: LU with partial pivoting of every m×n matrix, step by step as
// LAPACK's getf2 (the row of the first largest |a(i, j)|, |re| + |im| for
// complex values, as i?amax; rows swapped across the whole matrix; the
// column below the pivot divided by it; the trailing matrix updated), each
// value computed in double from the stored ones and stored in the element
// type, so a kernel that keeps the matrix in its output computes the same.
StatusOr<Literal> EvalGetrf(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const int r = a.shape().rank();
  const Shape& ts = instr.shape();
  if (r < 2 || ts.tuple_shapes()[0].dims() != a.shape().dims())
    return InstrError(instr, "needs matrices in the last two dimensions and an LU result shaped as them");
  const int64_t m = a.shape().dim(r - 2), n = a.shape().dim(r - 1), k = std::min(m, n);
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  const Shape& piv_shape = ts.tuple_shapes()[1];
  const Shape& info_shape = ts.tuple_shapes()[2];
  if (!IsInteger(piv_shape.element_type()) || piv_shape.num_elements() != batches * k ||
      !IsInteger(info_shape.element_type()) || info_shape.num_elements() != batches)
    return InstrError(instr, "its results must be (lu, min(m, n) integer pivots per matrix, an integer info per matrix)");
  Literal lu(NoLayout(ts.tuple_shapes()[0])), piv(NoLayout(piv_shape)), info(NoLayout(info_shape));
  for (int64_t e = 0; e < a.num_elements(); ++e) lu.SetComplex(e, a.GetComplex(e));
  auto mag = [](C v) { return std::abs(v.real()) + std::abs(v.imag()); };
  const bool complex = IsComplex(a.shape().element_type());
  for (int64_t bt = 0; bt < batches; ++bt) {
    const int64_t base = bt * m * n;
    auto at = [&](int64_t i, int64_t j) { return base + i * n + j; };
    int64_t first_zero = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t p = j;
      double best = mag(lu.GetComplex(at(j, j)));
      for (int64_t i = j + 1; i < m; ++i) {
        const double v = mag(lu.GetComplex(at(i, j)));
        if (v > best) best = v, p = i;
      }
      piv.SetInt(bt * k + j, p + 1);
      const C pivot = lu.GetComplex(at(p, j));
      if (pivot != C(0)) {
        if (p != j)
          for (int64_t c = 0; c < n; ++c) {
            const C x = lu.GetComplex(at(j, c));
            lu.SetComplex(at(j, c), lu.GetComplex(at(p, c)));
            lu.SetComplex(at(p, c), x);
          }
        for (int64_t i = j + 1; i < m; ++i) {
          if (complex) lu.SetComplex(at(i, j), lu.GetComplex(at(i, j)) / pivot);
          else lu.SetDouble(at(i, j), lu.GetDouble(at(i, j)) / pivot.real());  // as a kernel divides
        }
      } else if (first_zero == 0) {
        first_zero = j + 1;
      }
      for (int64_t i = j + 1; i < m; ++i) {
        const C l = lu.GetComplex(at(i, j));
        for (int64_t c = j + 1; c < n; ++c) {
          if (complex) lu.SetComplex(at(i, c), lu.GetComplex(at(i, c)) - l * lu.GetComplex(at(j, c)));
          else lu.SetDouble(at(i, c), lu.GetDouble(at(i, c)) - l.real() * lu.GetDouble(at(j, c)));
        }
      }
    }
    info.SetInt(bt, first_zero);
  }
  return MakeTuple({std::move(lu), std::move(piv), std::move(info)});
}

// geqrf: Householder QR of every m×n matrix as LAPACK's geqr2 computes it.
// Column i: alpha = a(i,i), the reflector's tail x = a(i+1:, i) (larfg):
// beta = -sign(alpha)·sqrt(alpha² + |x|²), tau = (beta - alpha)/beta, x scaled
// by 1/(alpha - beta), a(i,i) = beta; no reflection (tau = 0) where x is zero.
// Then H = I - tau·v·vᵀ, v = (1, x), on the columns to the right (larf:
// w = Cᵀv, C -= v·(tau·w)). Every value is computed in f64 from the stored
// ones and stored in the element type, and tau is used as stored, as the
// kernel (qr_emitter.cc) does.
StatusOr<Literal> EvalGeqrf(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const int r = a.shape().rank();
  const Shape& ts = instr.shape();
  if (r < 2 || ts.tuple_shapes()[0].dims() != a.shape().dims())
    return InstrError(instr, "needs matrices in the last two dimensions and a result shaped as them");
  const int64_t m = a.shape().dim(r - 2), n = a.shape().dim(r - 1), k = std::min(m, n);
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  const Shape& tau_shape = ts.tuple_shapes()[1];
  if (tau_shape.element_type() != a.shape().element_type() || tau_shape.num_elements() != batches * k)
    return InstrError(instr, "its second result, tau, must hold min(m, n) values per matrix");
  Literal qr(NoLayout(ts.tuple_shapes()[0])), tau(NoLayout(tau_shape));
  for (int64_t e = 0; e < a.num_elements(); ++e) qr.SetDouble(e, a.GetDouble(e));
  for (int64_t bt = 0; bt < batches; ++bt) {
    const int64_t base = bt * m * n;
    auto at = [&](int64_t i, int64_t j) { return base + i * n + j; };
    for (int64_t i = 0; i < k; ++i) {
      const double alpha = qr.GetDouble(at(i, i));
      double norm2 = 0;
      for (int64_t row = i + 1; row < m; ++row) norm2 += qr.GetDouble(at(row, i)) * qr.GetDouble(at(row, i));
      double t = 0;
      if (norm2 != 0) {
        const double beta = -std::copysign(std::sqrt(alpha * alpha + norm2), alpha);
        t = (beta - alpha) / beta;
        const double scale = 1.0 / (alpha - beta);
        for (int64_t row = i + 1; row < m; ++row) qr.SetDouble(at(row, i), qr.GetDouble(at(row, i)) * scale);
        qr.SetDouble(at(i, i), beta);
      }
      tau.SetDouble(bt * k + i, t);
      const double ts_i = tau.GetDouble(bt * k + i);
      if (ts_i == 0) continue;
      for (int64_t j = i + 1; j < n; ++j) {
        double w = qr.GetDouble(at(i, j));
        for (int64_t row = i + 1; row < m; ++row) w += qr.GetDouble(at(row, i)) * qr.GetDouble(at(row, j));
        const double tw = ts_i * w;
        qr.SetDouble(at(i, j), qr.GetDouble(at(i, j)) - tw);
        for (int64_t row = i + 1; row < m; ++row)
          qr.SetDouble(at(row, j), qr.GetDouble(at(row, j)) - qr.GetDouble(at(row, i)) * tw);
      }
    }
  }
  return MakeTuple({std::move(qr), std::move(tau)});
}

// Real or complex elements read and written as S (double or C).
template <class S>
S GetAs(const Literal& l, int64_t e) {
  if constexpr (std::is_same_v<S, C>)
    return l.GetComplex(e);
  else
    return l.GetDouble(e);
}
template <class S>
void SetAs(Literal& l, int64_t e, S v) {
  if constexpr (std::is_same_v<S, C>)
    l.SetComplex(e, v);
  else
    l.SetDouble(e, v);
}
inline double Conj(double x) { return x; }
inline C Conj(C x) { return std::conj(x); }

// orgqr (S = double) and ungqr (S = C): Q (m×n, n ≤ m) from the first k
// reflectors of a geqrf result, as LAPACK's org2r / cung2r: columns k..
// start as the identity's, then reflector i = k-1 … 0 is applied to the
// columns right of it (v = (1, a(i+1:, i)), H(i) = I - tau·v·vᴴ: s = vᴴ·c,
// c -= tau·v·s), and its column becomes H's (-tau·v below the diagonal,
// 1 - tau on it, zeros above).
template <class S>
StatusOr<Literal> EvalOrgqrAs(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const Literal& tau = *ops[1];
  const int r = a.shape().rank();
  if (r < 2 || instr.shape().dims() != a.shape().dims())
    return InstrError(instr, "needs matrices in the last two dimensions and a result shaped as them");
  const int64_t m = a.shape().dim(r - 2), n = a.shape().dim(r - 1);
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  const int tr = tau.shape().rank();
  const int64_t k = tr >= 1 ? tau.shape().dim(tr - 1) : -1;
  if (n > m || k < 0 || k > n || tau.shape().num_elements() != batches * k)
    return InstrError(instr, "needs m×n matrices with n <= m and k <= n tau values per matrix");
  Literal q(NoLayout(instr.shape()));
  for (int64_t e = 0; e < a.num_elements(); ++e) SetAs<S>(q, e, GetAs<S>(a, e));
  for (int64_t bt = 0; bt < batches; ++bt) {
    const int64_t base = bt * m * n;
    auto at = [&](int64_t i, int64_t j) { return base + i * n + j; };
    for (int64_t j = k; j < n; ++j)
      for (int64_t row = 0; row < m; ++row) SetAs<S>(q, at(row, j), S(row == j ? 1.0 : 0.0));
    for (int64_t i = k - 1; i >= 0; --i) {
      const S t = GetAs<S>(tau, bt * k + i);
      if (i < n - 1) {
        SetAs<S>(q, at(i, i), S(1.0));
        if (t != S(0))
          for (int64_t j = i + 1; j < n; ++j) {
            S w = 0;
            for (int64_t row = i; row < m; ++row)
              w += Conj(GetAs<S>(q, at(row, i))) * GetAs<S>(q, at(row, j));
            const S tw = t * w;
            for (int64_t row = i; row < m; ++row)
              SetAs<S>(q, at(row, j), GetAs<S>(q, at(row, j)) - GetAs<S>(q, at(row, i)) * tw);
          }
      }
      for (int64_t row = i + 1; row < m; ++row) SetAs<S>(q, at(row, i), GetAs<S>(q, at(row, i)) * -t);
      SetAs<S>(q, at(i, i), S(1.0) - t);
      for (int64_t row = 0; row < i; ++row) SetAs<S>(q, at(row, i), S(0.0));
    }
  }
  return q;
}

// geqrf of complex matrices, as LAPACK's cgeqr2 (zgeqr2): column i's
// reflector by clarfg (alpha = a(i,i), x = a(i+1:, i): no reflection when x
// is zero and alpha is real; else beta = -sign(re α)·‖(α, x)‖, real, tau =
// ((beta - re α)/beta, -im α/beta), x scaled by 1/(α - beta), a(i,i) =
// beta), then H(i)ᴴ = I - conj(tau)·v·vᴴ, v = (1, x), applied to the
// columns to the right (clarf: s = vᴴ·c, c -= conj(tau)·v·s). In complex
// f64 from the stored values, stored in the element type; tau as stored.
StatusOr<Literal> EvalGeqrfComplex(const Instruction& instr, Operands ops) {
  const Literal& a = *ops[0];
  const int r = a.shape().rank();
  const Shape& ts = instr.shape();
  if (r < 2 || ts.tuple_shapes()[0].dims() != a.shape().dims())
    return InstrError(instr, "needs matrices in the last two dimensions and a result shaped as them");
  const int64_t m = a.shape().dim(r - 2), n = a.shape().dim(r - 1), k = std::min(m, n);
  const int64_t batches = Product(a.shape().dims(), 0, r - 2);
  const Shape& tau_shape = ts.tuple_shapes()[1];
  if (tau_shape.element_type() != a.shape().element_type() || tau_shape.num_elements() != batches * k)
    return InstrError(instr, "its second result, tau, must hold min(m, n) values per matrix");
  Literal qr(NoLayout(ts.tuple_shapes()[0])), tau(NoLayout(tau_shape));
  for (int64_t e = 0; e < a.num_elements(); ++e) qr.SetComplex(e, a.GetComplex(e));
  for (int64_t bt = 0; bt < batches; ++bt) {
    const int64_t base = bt * m * n;
    auto at = [&](int64_t i, int64_t j) { return base + i * n + j; };
    for (int64_t i = 0; i < k; ++i) {
      const C alpha = qr.GetComplex(at(i, i));
      double norm2 = 0;
      for (int64_t row = i + 1; row < m; ++row) norm2 += std::norm(qr.GetComplex(at(row, i)));
      C t = 0;
      if (norm2 != 0 || alpha.imag() != 0) {
        const double beta = -std::copysign(std::sqrt(std::norm(alpha) + norm2), alpha.real());
        t = C((beta - alpha.real()) / beta, -alpha.imag() / beta);
        const C scale = C(1.0) / (alpha - beta);
        for (int64_t row = i + 1; row < m; ++row) qr.SetComplex(at(row, i), qr.GetComplex(at(row, i)) * scale);
        qr.SetComplex(at(i, i), beta);
      }
      tau.SetComplex(bt * k + i, t);
      const C ct = std::conj(tau.GetComplex(bt * k + i));
      if (ct == C(0)) continue;
      for (int64_t j = i + 1; j < n; ++j) {
        C w = qr.GetComplex(at(i, j));
        for (int64_t row = i + 1; row < m; ++row) w += std::conj(qr.GetComplex(at(row, i))) * qr.GetComplex(at(row, j));
        const C tw = ct * w;
        qr.SetComplex(at(i, j), qr.GetComplex(at(i, j)) - tw);
        for (int64_t row = i + 1; row < m; ++row)
          qr.SetComplex(at(row, j), qr.GetComplex(at(row, j)) - qr.GetComplex(at(row, i)) * tw);
      }
    }
  }
  return MakeTuple({std::move(qr), std::move(tau)});
}

}  // namespace

// JAX's potrf / trsm / getrf library calls (custom_calls.h): the cholesky
// and triangular-solve ops, with LAPACK's output conventions for potrf, and
// LU with partial pivoting.
StatusOr<Literal> EvalLinalgCall(const Instruction& instr, const LinalgCall& call, Operands ops) {
  if (call.kind == LinalgCall::Kind::kGetrf) return EvalGetrf(instr, ops);
  if (call.kind == LinalgCall::Kind::kSytrd || call.kind == LinalgCall::Kind::kGehrd ||
      call.kind == LinalgCall::Kind::kGtsv)
    return EvalCondensedFormCall(instr, call, ops);
  if (call.kind == LinalgCall::Kind::kGeev)
    return IsComplex(ops[0]->shape().element_type()) ? EvalComplexGeev(instr, call, ops) : EvalGeev(instr, call, ops);
  if (call.kind == LinalgCall::Kind::kGees) return EvalGees(instr, call, ops);
  const bool complex = !ops.empty() && IsComplex(ops[0]->shape().element_type());
  if (call.kind == LinalgCall::Kind::kGeqrf) return complex ? EvalGeqrfComplex(instr, ops) : EvalGeqrf(instr, ops);
  if (call.kind == LinalgCall::Kind::kOrgqr)
    return complex ? EvalOrgqrAs<C>(instr, ops) : EvalOrgqrAs<double>(instr, ops);
  if (call.kind == LinalgCall::Kind::kSyevd) return EvalSyevd(instr, call, ops);
  if (call.kind == LinalgCall::Kind::kGesvd) return EvalGesvd(instr, ops);
  if (call.kind == LinalgCall::Kind::kTrsm) {
    Instruction ts(Opcode::kTriangularSolve, instr.shape(), instr.name());
    ts.SetRaw("left_side", call.left_side ? "true" : "false");
    ts.SetRaw("lower", call.lower ? "true" : "false");
    ts.SetRaw("unit_diagonal", call.unit_diagonal ? "true" : "false");
    ts.SetRaw("transpose_a", call.transpose_a);
    return EvalTriangularSolve(ts, ops);
  }
  const Literal& a = *ops[0];
  const Shape& factor_shape = instr.shape().tuple_shapes()[0];
  const Shape& info_shape = instr.shape().tuple_shapes()[1];
  const int r = a.shape().rank();
  if (r < 2 || a.shape().dim(r - 1) != a.shape().dim(r - 2))
    return InstrError(instr, "needs square matrices in the last two dimensions");
  if (!IsInteger(info_shape.element_type()) || info_shape.num_elements() != Product(a.shape().dims(), 0, r - 2))
    return InstrError(instr, "its second result, info, must hold one integer per matrix");
  Instruction chol(Opcode::kCholesky, factor_shape, instr.name());
  chol.SetRaw("lower", call.lower ? "true" : "false");
  ASSIGN_OR_RETURN(Literal l, EvalCholesky(chol, ops));
  // The factor over the input: LAPACK and cuSOLVER leave the other triangle
  // as they found it.
  const int64_t n = a.shape().dim(r - 1);
  Literal factor(NoLayout(factor_shape)), info(NoLayout(info_shape));
  const int64_t batches = info.num_elements();
  for (int64_t bt = 0; bt < batches; ++bt) {
    int64_t first_bad = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t e = bt * n * n + i * n + j;
        const bool in_factor = call.lower ? j <= i : j >= i;
        factor.SetComplex(e, in_factor ? l.GetComplex(e) : a.GetComplex(e));
      }
    for (int64_t j = 0; j < n && first_bad == 0; ++j)
      if (!(l.GetComplex(bt * n * n + j * n + j).real() > 0)) first_bad = j + 1;
    info.SetInt(bt, first_bad);
  }
  return MakeTuple({std::move(factor), std::move(info)});
}

// cu_lu_pivots_to_permutation (custom_calls.h): per matrix, the identity
// permutation of m, then perm[i] ↔ perm[pivots[i]] for i = 0 … k-1 in order,
// skipping a pivot outside [0, m).
StatusOr<Literal> EvalLuPivotsToPermutation(const Instruction& instr, Operands ops) {
  const Literal& piv = *ops[0];
  const int r = piv.shape().rank();
  const int64_t k = piv.shape().dim(r - 1), m = instr.shape().dim(r - 1);
  const int64_t batches = Product(piv.shape().dims(), 0, r - 1);
  Literal perm(NoLayout(instr.shape()));
  std::vector<int64_t> p(static_cast<size_t>(m));
  for (int64_t bt = 0; bt < batches; ++bt) {
    std::iota(p.begin(), p.end(), 0);
    for (int64_t i = 0; i < k && i < m; ++i) {
      const int64_t j = piv.GetInt(bt * k + i);
      if (j < 0 || j >= m) continue;
      std::swap(p[static_cast<size_t>(i)], p[static_cast<size_t>(j)]);
    }
    for (int64_t i = 0; i < m; ++i) perm.SetInt(bt * m + i, p[static_cast<size_t>(i)]);
  }
  return perm;
}

namespace {

// In-place DFT of every line along `dim` of a row-major complex array.
void DftAlong(std::vector<C>& data, const std::vector<int64_t>& dims, int dim, bool inverse) {
  const int64_t n = dims[dim];
  if (n == 0) return;
  const int64_t inner = Product(dims, dim + 1, static_cast<int>(dims.size()));
  const int64_t outer = Product(dims, 0, dim);
  std::vector<C> twiddle(n), line(n), res(n);
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < n; ++k) twiddle[k] = std::polar(1.0, sign * 2.0 * M_PI * double(k) / double(n));
  // Whole quarter turns exactly (±1, ±i): a real signal's DC and Nyquist
  // terms then have imaginary parts of exactly +0, as FFT libraries give.
  for (int64_t k = 0; k < n; ++k)
    if ((4 * k) % n == 0) {
      static const double kCos[4] = {1, 0, -1, 0}, kSin[4] = {0, 1, 0, -1};
      const int64_t q = 4 * k / n;
      twiddle[k] = C(kCos[q], sign * kSin[q]);
    }
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      int64_t base = o * n * inner + in;
      for (int64_t k = 0; k < n; ++k) line[k] = data[base + k * inner];
      for (int64_t k = 0; k < n; ++k) {
        C s = 0;
        for (int64_t t = 0; t < n; ++t) s += line[t] * twiddle[(k * t) % n];
        res[k] = inverse ? s / double(n) : s;
      }
      for (int64_t k = 0; k < n; ++k) data[base + k * inner] = res[k];
    }
  }
}

}  // namespace

// FFT/IFFT over the innermost fft_length dims; RFFT keeps n/2+1 outputs of
// the last; IRFFT rebuilds the Hermitian half and returns the real part.
StatusOr<Literal> EvalFft(const Instruction& instr, Operands ops) {
  const Literal& in = *ops[0];
  const std::string type = Raw(instr, "fft_type");
  const std::vector<int64_t> len = RawList(instr, "fft_length");
  const Shape& rs = instr.shape();
  const int r = rs.rank();
  const int n = static_cast<int>(len.size());
  if (n < 1 || n > r) return InstrError(instr, "fft_length must have 1 to rank entries");
  Literal out(NoLayout(rs));
  if (type == "FFT" || type == "IFFT" || type == "RFFT") {
    std::vector<int64_t> dims = in.shape().dims();
    std::vector<C> data(in.num_elements());
    for (int64_t i = 0; i < in.num_elements(); ++i) data[i] = in.GetComplex(i);
    for (int d = r - n; d < r; ++d) DftAlong(data, dims, d, type == "IFFT");
    if (type != "RFFT") {
      for (int64_t i = 0; i < out.num_elements(); ++i) out.SetComplex(i, data[i]);
      return out;
    }
    // Keep the first len/2+1 entries of the last dimension.
    const int64_t full = dims[r - 1], half = rs.dim(r - 1);
    const int64_t lines = out.num_elements() / std::max<int64_t>(half, 1);
    for (int64_t l = 0; l < lines; ++l)
      for (int64_t k = 0; k < half; ++k) out.SetComplex(l * half + k, data[l * full + k]);
    return out;
  }
  if (type == "IRFFT") {
    const int64_t half = in.shape().dim(r - 1), full = rs.dim(r - 1);
    std::vector<int64_t> dims = in.shape().dims();
    std::vector<C> data(in.num_elements());
    for (int64_t i = 0; i < in.num_elements(); ++i) data[i] = in.GetComplex(i);
    for (int d = r - n; d < r - 1; ++d) DftAlong(data, dims, d, true);
    // Each line along the last dim is now the spectrum of a real signal.
    const int64_t lines = half ? in.num_elements() / half : 0;
    std::vector<C> line(full);
    for (int64_t l = 0; l < lines; ++l) {
      for (int64_t k = 0; k < full; ++k)
        line[k] = k < half ? data[l * half + k] : std::conj(data[l * half + (full - k)]);
      if (full > 0) line[0] = line[0].real();
      if (full % 2 == 0 && full / 2 < half) line[full / 2] = line[full / 2].real();
      std::vector<int64_t> ldims = {full};
      DftAlong(line, ldims, 0, true);
      for (int64_t k = 0; k < full; ++k) out.SetDouble(l * full + k, line[k].real());
    }
    return out;
  }
  return InstrError(instr, "fft_type=" + type + " is not FFT, IFFT, RFFT or IRFFT");
}

// topk(x), k=K, largest=true: the K largest (or smallest) of every row of the
// last dimension, sorted, ties in index order; values and s32 indices.
StatusOr<Literal> EvalTopK(const Instruction& instr, Operands ops) {
  const Literal& in = *ops[0];
  const Shape& vs = instr.shape().tuple_shapes()[0];
  const int r = in.shape().rank();
  const int64_t len = in.shape().dim(r - 1), k = vs.dim(r - 1);
  const bool largest = Raw(instr, "largest") != "false";
  const PrimitiveType t = in.shape().element_type();
  if (IsComplex(t)) return InstrError(instr, "topk of a complex type");
  // Total order for floats: -NaN < -inf < ... < +inf < +NaN.
  auto key = [&](int64_t i) -> std::pair<int, double> {
    if (!IsFloat(t)) return {0, double(in.GetInt(i))};
    double v = in.GetDouble(i);
    if (std::isnan(v)) return {std::signbit(v) ? -1 : 1, 0.0};
    return {0, v};
  };
  const int64_t rows = len ? in.num_elements() / len : 0;
  Literal values(NoLayout(vs));
  Literal indices(NoLayout(instr.shape().tuple_shapes()[1]));
  std::vector<int64_t> idx(len);
  std::vector<std::pair<int, double>> keys(len);
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t j = 0; j < len; ++j) keys[j] = key(row * len + j);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t x, int64_t y) {
      return largest ? keys[x] > keys[y] : keys[x] < keys[y];
    });
    for (int64_t j = 0; j < k; ++j) {
      std::memcpy(values.raw() + (row * k + j) * values.element_bytes(),
                  in.raw() + (row * len + idx[j]) * in.element_bytes(), in.element_bytes());
      indices.SetInt(row * k + j, idx[j]);
    }
  }
  return MakeTuple({std::move(values), std::move(indices)});
}

}  // namespace hloscope::eval
