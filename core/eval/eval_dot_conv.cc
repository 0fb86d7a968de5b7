// dot (general dimension numbers, batch dims) and convolution (N-d,
// strides, padding, lhs/rhs dilation, window reversal, feature_group_count,
// batch_group_count). As in XLA's evaluator, operands are first converted to
// the result type; products are accumulated in f32 for f32/f16/bf16 (f8)
// results, f64 for f64, wrapping 64-bit integers for integers, and each
// output element sums its terms in order (contracting index ascending).
#include <algorithm>
#include <complex>

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"

namespace hloscope::eval {
namespace {

bool Has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

StatusOr<PrimitiveType> ComputeType(PrimitiveType rt) {
  if (rt == PrimitiveType::kF64 || rt == PrimitiveType::kC64 || rt == PrimitiveType::kC128) return rt;
  if (IsFloat(rt)) return PrimitiveType::kF32;
  if (IsInteger(rt)) return PrimitiveType::kS64;
  return Status::Error("unsupported result type " + std::string(PrimitiveTypeName(rt)));
}

// Operand converted to the result type, then to the compute type.
StatusOr<Literal> Prepare(const Literal& l, PrimitiveType rt, PrimitiveType ct) {
  const Literal* p = &l;
  Literal tmp;
  if (l.shape().element_type() != rt) {
    ASSIGN_OR_RETURN(tmp, ConvertLiteral(l, rt));
    p = &tmp;
  }
  if (rt == ct) return p == &tmp ? std::move(tmp) : *p;
  return ConvertLiteral(*p, ct);
}

// Permutes `a`'s dims into `order` and views the result as `dims3`.
Literal Canonical(const Literal& a, const std::vector<int64_t>& order) {
  auto in = RowMajorStrides(a.shape().dims());
  std::vector<int64_t> dims, src;
  for (int64_t d : order) {
    dims.push_back(a.shape().dim(static_cast<int>(d)));
    src.push_back(in[d]);
  }
  Literal out(Shape(a.shape().element_type(), dims));
  StridedCopy(a.element_bytes(), dims, a.raw(), 0, src, out.raw(), 0, RowMajorStrides(dims));
  return out;
}

template <class C>
void MatMul(const C* A, const C* B, C* O, int64_t nb, int64_t m, int64_t k, int64_t n) {
  using Acc = std::conditional_t<std::is_same_v<C, int64_t>, uint64_t, C>;
  for (int64_t b = 0; b < nb; ++b) {
    const C* a = A + b * m * k;
    const C* bb = B + b * k * n;
    C* o = O + b * m * n;
    for (int64_t i = 0; i < m; ++i) {
      Acc* __restrict orow = reinterpret_cast<Acc*>(o + i * n);
      for (int64_t j = 0; j < n; ++j) orow[j] = Acc(0);
      for (int64_t kk = 0; kk < k; ++kk) {
        const Acc av = static_cast<Acc>(a[i * k + kk]);
        const C* __restrict brow = bb + kk * n;
        for (int64_t j = 0; j < n; ++j) orow[j] += av * static_cast<Acc>(brow[j]);
      }
    }
  }
}

template <class F>
void VisitCompute(PrimitiveType ct, F&& f) {
  switch (ct) {
    case PrimitiveType::kF32: f(float{}); break;
    case PrimitiveType::kF64: f(double{}); break;
    case PrimitiveType::kC64: f(std::complex<float>{}); break;
    case PrimitiveType::kC128: f(std::complex<double>{}); break;
    default: f(int64_t{}); break;
  }
}

}  // namespace

StatusOr<Literal> EvalDot(const Instruction& instr, Operands ops) {
  if (ops.size() != 2) return Unsupported(instr, "dot with sparsity or extra operands");
  const Literal& lhs = *ops[0];
  const Literal& rhs = *ops[1];
  DotDnums def;
  const DotDnums* dn = instr.attrs().dot.get();
  if (!dn) dn = &def;  // no dimension numbers: an outer product
  int lr = lhs.shape().rank(), rr = rhs.shape().rank();
  if (dn->lhs_batch.size() != dn->rhs_batch.size() || dn->lhs_contracting.size() != dn->rhs_contracting.size())
    return InstrError(instr, "batch and contracting dimension lists must pair up");
  auto check = [&](const std::vector<int64_t>& v, int rank) {
    for (int64_t d : v)
      if (d < 0 || d >= rank) return false;
    return true;
  };
  if (!check(dn->lhs_batch, lr) || !check(dn->lhs_contracting, lr) || !check(dn->rhs_batch, rr) ||
      !check(dn->rhs_contracting, rr))
    return InstrError(instr, "dimension numbers out of range");
  int64_t nb = 1, m = 1, k = 1, n = 1;
  std::vector<int64_t> lorder, rorder;
  for (size_t i = 0; i < dn->lhs_batch.size(); ++i) {
    int64_t a = lhs.shape().dim(static_cast<int>(dn->lhs_batch[i])), b = rhs.shape().dim(static_cast<int>(dn->rhs_batch[i]));
    if (a != b) return InstrError(instr, "batch dimension sizes differ");
    nb *= a;
  }
  for (size_t i = 0; i < dn->lhs_contracting.size(); ++i) {
    int64_t a = lhs.shape().dim(static_cast<int>(dn->lhs_contracting[i]));
    int64_t b = rhs.shape().dim(static_cast<int>(dn->rhs_contracting[i]));
    if (a != b) return InstrError(instr, "contracting dimension sizes differ");
    k *= a;
  }
  lorder = dn->lhs_batch;
  for (int d = 0; d < lr; ++d)
    if (!Has(dn->lhs_batch, d) && !Has(dn->lhs_contracting, d)) {
      lorder.push_back(d);
      m *= lhs.shape().dim(d);
    }
  lorder.insert(lorder.end(), dn->lhs_contracting.begin(), dn->lhs_contracting.end());
  rorder = dn->rhs_batch;
  rorder.insert(rorder.end(), dn->rhs_contracting.begin(), dn->rhs_contracting.end());
  for (int d = 0; d < rr; ++d)
    if (!Has(dn->rhs_batch, d) && !Has(dn->rhs_contracting, d)) {
      rorder.push_back(d);
      n *= rhs.shape().dim(d);
    }
  Shape shape = NoLayout(instr.shape());
  if (!shape.IsArray() || shape.num_elements() != nb * m * n) return InstrError(instr, "result shape does not match the dot");
  PrimitiveType rt = shape.element_type();
  StatusOr<PrimitiveType> ct = ComputeType(rt);
  if (!ct.ok()) return InstrError(instr, ct.status().message());
  ASSIGN_OR_RETURN(Literal a, Prepare(lhs, rt, *ct));
  ASSIGN_OR_RETURN(Literal b, Prepare(rhs, rt, *ct));
  Literal ca = Canonical(a, lorder), cb = Canonical(b, rorder);
  Literal acc(Shape(*ct, shape.dims()));
  VisitCompute(*ct, [&](auto tag) {
    using C = decltype(tag);
    MatMul<C>(reinterpret_cast<const C*>(ca.raw()), reinterpret_cast<const C*>(cb.raw()),
              reinterpret_cast<C*>(acc.raw()), nb, m, k, n);
  });
  if (*ct == rt) return acc;
  return ConvertLiteral(acc, rt);
}

namespace {

template <class C>
void Conv(const Literal& lhs, const Literal& rhs, Literal& out, const ConvDnums& dn, const Window& w, int64_t fgc,
          int64_t bgc) {
  using Acc = std::conditional_t<std::is_same_v<C, int64_t>, uint64_t, C>;
  const C* L = reinterpret_cast<const C*>(lhs.raw());
  const C* R = reinterpret_cast<const C*>(rhs.raw());
  C* O = reinterpret_cast<C*>(out.raw());
  auto ls = RowMajorStrides(lhs.shape().dims()), rs = RowMajorStrides(rhs.shape().dims());
  const auto& od = out.shape().dims();
  int ns = static_cast<int>(dn.input_spatial.size());
  int64_t in_feat = lhs.shape().dim(static_cast<int>(dn.input_feature));
  int64_t batch = lhs.shape().dim(static_cast<int>(dn.input_batch));
  int64_t out_feat = rhs.shape().dim(static_cast<int>(dn.kernel_output_feature));
  int64_t ifg = in_feat / fgc, ofg = out_feat / fgc, bgs = batch / bgc;
  int64_t depth_mult = bgc > 1 ? out_feat / bgc : 1;
  std::vector<int64_t> ksz(ns);
  for (int s = 0; s < ns; ++s) ksz[s] = rhs.shape().dim(static_cast<int>(dn.kernel_spatial[s]));
  std::vector<int64_t> oi(od.size(), 0), ki(ns);
  for (int64_t e = 0; e < out.num_elements(); ++e) {
    int64_t of = oi[dn.output_feature], ob = oi[dn.output_batch];
    int64_t fgi = of / ofg, bgi = of / depth_mult;
    Acc sum = Acc(0);
    std::fill(ki.begin(), ki.end(), 0);
    bool more = true;
    for (int s = 0; s < ns; ++s) more = more && ksz[s] > 0;
    while (more) {
      int64_t loff = 0, roff = 0;
      bool ok = true;
      for (int s = 0; s < ns && ok; ++s) {
        const WindowDim& wd = w.dims[s];
        int64_t pos = oi[dn.output_spatial[s]] * wd.stride - wd.pad_lo + ki[s] * wd.window_dilation;
        if (wd.base_dilation > 1) {
          if (pos % wd.base_dilation != 0) ok = false;
          pos /= wd.base_dilation;
        }
        if (pos < 0 || pos >= lhs.shape().dim(static_cast<int>(dn.input_spatial[s]))) ok = false;
        loff += pos * ls[dn.input_spatial[s]];
        roff += (wd.reversal ? ksz[s] - 1 - ki[s] : ki[s]) * rs[dn.kernel_spatial[s]];
      }
      if (ok) {
        int64_t lb = loff + (ob + (bgi * bgs) % batch) * ls[dn.input_batch];
        int64_t rb = roff + of * rs[dn.kernel_output_feature];
        for (int64_t z = 0; z < ifg; ++z) {
          int64_t iz = fgi * ifg + z;
          sum += static_cast<Acc>(L[lb + iz * ls[dn.input_feature]]) *
                 static_cast<Acc>(R[rb + z * rs[dn.kernel_input_feature]]);
        }
      }
      int s = ns - 1;
      for (; s >= 0; --s) {
        if (++ki[s] < ksz[s]) break;
        ki[s] = 0;
      }
      more = s >= 0;
    }
    O[e] = static_cast<C>(sum);
    for (int d = static_cast<int>(od.size()) - 1; d >= 0; --d) {
      if (++oi[d] < od[d]) break;
      oi[d] = 0;
    }
  }
}

}  // namespace

StatusOr<Literal> EvalConvolution(const Instruction& instr, Operands ops) {
  if (ops.size() != 2) return InstrError(instr, "convolution takes two operands");
  const ConvDnums* dn = instr.attrs().conv.get();
  const Literal& lhs = *ops[0];
  const Literal& rhs = *ops[1];
  int rank = lhs.shape().rank();
  ConvDnums def;
  if (!dn) {
    if (rank != 2) return InstrError(instr, "convolution needs dim_labels");
    dn = &def;
  }
  int ns = static_cast<int>(dn->input_spatial.size());
  Window dw;
  const Window* w = instr.attrs().window.get();
  if (!w) {
    dw.dims.assign(ns, WindowDim{});
    for (int s = 0; s < ns; ++s) dw.dims[s].size = rhs.shape().dim(static_cast<int>(dn->kernel_spatial[s]));
    w = &dw;
  }
  Shape shape = NoLayout(instr.shape());
  int64_t fgc = instr.attrs().feature_group_count, bgc = instr.attrs().batch_group_count;
  if (rank != ns + 2 || rhs.shape().rank() != rank || shape.rank() != rank || static_cast<int>(w->dims.size()) != ns ||
      static_cast<int>(dn->kernel_spatial.size()) != ns || static_cast<int>(dn->output_spatial.size()) != ns)
    return InstrError(instr, "ranks of operands, result, window and dim_labels do not agree");
  if (fgc < 1 || bgc < 1 || lhs.shape().dim(static_cast<int>(dn->input_feature)) % fgc != 0 ||
      rhs.shape().dim(static_cast<int>(dn->kernel_output_feature)) % fgc != 0 ||
      lhs.shape().dim(static_cast<int>(dn->input_batch)) % bgc != 0 ||
      rhs.shape().dim(static_cast<int>(dn->kernel_output_feature)) % bgc != 0)
    return InstrError(instr, "feature_group_count / batch_group_count do not divide the dimensions");
  if (rhs.shape().dim(static_cast<int>(dn->kernel_input_feature)) * fgc != lhs.shape().dim(static_cast<int>(dn->input_feature)))
    return InstrError(instr, "kernel input features times feature_group_count must equal the input features");
  for (const WindowDim& d : w->dims)
    if (d.stride <= 0 || d.base_dilation <= 0 || d.window_dilation <= 0) return InstrError(instr, "invalid window");
  PrimitiveType rt = shape.element_type();
  StatusOr<PrimitiveType> ct = ComputeType(rt);
  if (!ct.ok()) return InstrError(instr, ct.status().message());
  ASSIGN_OR_RETURN(Literal a, Prepare(lhs, rt, *ct));
  ASSIGN_OR_RETURN(Literal b, Prepare(rhs, rt, *ct));
  Literal acc(Shape(*ct, shape.dims()));
  VisitCompute(*ct, [&](auto tag) { Conv<decltype(tag)>(a, b, acc, *dn, *w, fgc, bgc); });
  if (*ct == rt) return acc;
  return ConvertLiteral(acc, rt);
}

}  // namespace hloscope::eval
