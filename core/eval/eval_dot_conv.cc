// dot (general dimension numbers, batch dims), ragged-dot, scaled-dot and convolution (N-d,
// strides, padding, lhs/rhs dilation, window reversal, feature_group_count,
// batch_group_count). As in XLA's evaluator, operands are first converted to
// the result type; products are accumulated in f32 for f32/f16/bf16 (f8)
// results, f64 for f64, wrapping 64-bit integers for integers, and each
// output element sums its terms in order (contracting index ascending).
#include <algorithm>
#include <complex>
#include <cstring>

#include "core/eval/eval_internal.h"
#include "core/eval/eval_types.h"
#include "core/ir/ragged_dot.h"

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

// ragged-dot as XLA's evaluator defines it, term by term: an lhs row of the
// ragged dimension belongs to group g when start(g) <= row < start(g) +
// size(g), start(g) being the sum of the sizes before it (XLA's rewriter
// builds that mask; for sizes >= 0 it is the evaluator's first group whose
// end passes the row). Rows of no group give 0 (non-contracting mode); group
// g contracts only its own range of the ragged dimension (contracting mode);
// batches at or past the groups' total are 0 (batch mode). The group sizes
// are read at the lhs index of the dimensions `group_prefix` names.
template <class C>
void RaggedDotTerms(const RaggedDotDims& r, const Literal& lhs, const Literal& rhs, const Literal& groups,
                    Literal& out) {
  using Acc = std::conditional_t<std::is_same_v<C, int64_t>, uint64_t, C>;
  const C* L = reinterpret_cast<const C*>(lhs.raw());
  const C* R = reinterpret_cast<const C*>(rhs.raw());
  const int64_t* G = reinterpret_cast<const int64_t*>(groups.raw());
  C* O = reinterpret_cast<C*>(out.raw());
  const std::vector<int64_t>&ld = lhs.shape().dims(), &rdims = rhs.shape().dims(), &gd = groups.shape().dims();
  const auto ls = RowMajorStrides(ld), rs = RowMajorStrides(rdims), gs = RowMajorStrides(gd);
  const DotDnums& d = r.dot;
  const int64_t num_groups = gd.back();
  std::vector<int64_t> lfree, rfree, csize;
  for (int64_t i = 0; i < static_cast<int64_t>(ld.size()); ++i)
    if (!Has(d.lhs_batch, i) && !Has(d.lhs_contracting, i)) lfree.push_back(i);
  for (int64_t i = 0; i < static_cast<int64_t>(rdims.size()); ++i)
    if (!Has(d.rhs_batch, i) && !Has(d.rhs_contracting, i) && !Has(r.rhs_group, i)) rfree.push_back(i);
  int64_t terms = 1;
  for (int64_t c : d.lhs_contracting) {
    csize.push_back(ld[static_cast<size_t>(c)]);
    terms *= csize.back();
  }
  std::vector<int64_t> li(ld.size(), 0), ri(rdims.size(), 0), oi(out.shape().dims().size(), 0), ci(csize.size());
  auto offset = [](const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
    int64_t o = 0;
    for (size_t i = 0; i < index.size(); ++i) o += index[i] * strides[i];
    return o;
  };
  // The sizes of the groups for the lhs element at `li`: num_groups values.
  auto sizes = [&]() -> const int64_t* {
    if (gd.size() == 1) return G;
    int64_t o = 0;
    for (size_t p = 0; p < r.group_prefix.size(); ++p) o += li[static_cast<size_t>(r.group_prefix[p])] * gs[p];
    return G + o;
  };
  const size_t rd = static_cast<size_t>(r.lhs_ragged);
  std::vector<int64_t> row_groups;
  const int64_t n = out.num_elements();
  for (int64_t e = 0; e < n; ++e) {
    size_t at = 0;
    int64_t group = 0;
    if (r.mode == RaggedDotMode::kContracting) group = oi[at++];
    for (size_t i = 0; i < d.lhs_batch.size(); ++i, ++at) {
      li[static_cast<size_t>(d.lhs_batch[i])] = oi[at];
      ri[static_cast<size_t>(d.rhs_batch[i])] = oi[at];
    }
    for (int64_t x : lfree) li[static_cast<size_t>(x)] = oi[at++];
    for (int64_t x : rfree) ri[static_cast<size_t>(x)] = oi[at++];
    bool zero = false;
    row_groups.clear();
    if (r.mode == RaggedDotMode::kNonContracting) {
      const int64_t* sz = sizes();
      int64_t start = 0;
      for (int64_t g = 0; g < num_groups; ++g) {
        const int64_t end = start + sz[g];
        if (start <= li[rd] && li[rd] < end) row_groups.push_back(g);
        start = end;
      }
      zero = row_groups.empty();
    } else if (r.mode == RaggedDotMode::kBatch) {
      const int64_t* sz = sizes();
      int64_t total = 0;
      for (int64_t g = 0; g < num_groups; ++g) total += sz[g];
      zero = li[rd] >= total;
    }
    Acc sum = Acc(0);
    if (!zero) {
      std::fill(ci.begin(), ci.end(), 0);
      for (int64_t t = 0; t < terms; ++t) {
        for (size_t j = 0; j < ci.size(); ++j) {
          li[static_cast<size_t>(d.lhs_contracting[j])] = ci[j];
          ri[static_cast<size_t>(d.rhs_contracting[j])] = ci[j];
        }
        if (r.mode == RaggedDotMode::kNonContracting) {
          for (int64_t g : row_groups) {
            ri[static_cast<size_t>(r.rhs_group[0])] = g;
            sum += static_cast<Acc>(L[offset(li, ls)]) * static_cast<Acc>(R[offset(ri, rs)]);
          }
        } else {
          bool in_group = true;
          if (r.mode == RaggedDotMode::kContracting) {
            const int64_t* sz = sizes();
            int64_t start = 0;
            for (int64_t g = 0; g < group; ++g) start += sz[g];
            in_group = start <= li[rd] && li[rd] < start + sz[group];
          }
          if (in_group) sum += static_cast<Acc>(L[offset(li, ls)]) * static_cast<Acc>(R[offset(ri, rs)]);
        }
        for (size_t j = ci.size(); j-- > 0;) {
          if (++ci[j] < csize[j]) break;
          ci[j] = 0;
        }
      }
    }
    O[e] = static_cast<C>(sum);
    for (size_t j = oi.size(); j-- > 0;) {
      if (++oi[j] < out.shape().dim(static_cast<int>(j))) break;
      oi[j] = 0;
    }
  }
}

// XLA GPU's ScaledDotRewriter: the type both operands of a product are
// brought to (bf16 when both are narrower than 16 bits, the wider one else,
// f32 for two different types of one width).
PrimitiveType ScaledDotTarget(PrimitiveType a, PrimitiveType b) {
  if (BitWidth(a) < 16 && BitWidth(b) < 16) return PrimitiveType::kBF16;
  if (a == b) return a;
  if (BitWidth(a) == BitWidth(b)) return PrimitiveType::kF32;
  return BitWidth(a) > BitWidth(b) ? a : b;
}

// operand × scale, the scale's element i covering operand elements
// i·(operand dim / scale dim) … along each dimension (block scaling), both
// in their target type. A scalar scale leaves the operand as it is (as XLA
// GPU reads it).
StatusOr<Literal> Dequantize(const Instruction& instr, const Literal& op, const Literal& scale, const char* side) {
  if (scale.shape().dims().empty()) return op;
  const PrimitiveType t = ScaledDotTarget(op.shape().element_type(), scale.shape().element_type());
  ASSIGN_OR_RETURN(Literal a, ConvertLiteral(op, t));
  ASSIGN_OR_RETURN(Literal s, ConvertLiteral(scale, t));
  const std::vector<int64_t>&od = a.shape().dims(), &sd = s.shape().dims();
  if (od.size() != sd.size())
    return InstrError(instr, std::string(side) + " and its scale have different ranks");
  std::vector<int64_t> block(od.size());
  for (size_t i = 0; i < od.size(); ++i) {
    if (sd[i] == 0 ? od[i] != 0 : sd[i] < 0 || od[i] % sd[i] != 0)
      return InstrError(instr, std::string(side) + " dimension " + std::to_string(i) + " (" + std::to_string(od[i]) +
                                   ") is not a multiple of its scale's (" + std::to_string(sd[i]) + ")");
    block[i] = sd[i] == 0 ? 1 : od[i] / sd[i];  // an empty dimension of both
  }
  Literal expanded(a.shape());
  const auto ss = RowMajorStrides(sd);
  const int eb = s.element_bytes();
  std::vector<int64_t> idx(od.size(), 0);
  for (int64_t e = 0; e < a.num_elements(); ++e) {
    int64_t so = 0;
    for (size_t i = 0; i < od.size(); ++i) so += idx[i] / block[i] * ss[i];
    std::memcpy(expanded.raw() + e * eb, s.raw() + so * eb, static_cast<size_t>(eb));
    for (size_t j = idx.size(); j-- > 0;) {
      if (++idx[j] < od[j]) break;
      idx[j] = 0;
    }
  }
  Instruction mul(Opcode::kMultiply, a.shape(), instr.name());
  const Literal* mul_ops[] = {&a, &expanded};
  return EvalElementwise(mul, mul_ops);
}

}  // namespace

StatusOr<Literal> EvalRaggedDot(const Instruction& instr, Operands ops) {
  if (ops.size() != 3) return InstrError(instr, "ragged-dot takes lhs, rhs and group sizes");
  const std::optional<RaggedDotDims> r = RaggedDotDimsOf(instr);
  if (!r) return InstrError(instr, "ragged-dot needs exactly one lhs ragged dimension (lhs_ragged_dims=)");
  const Literal &lhs = *ops[0], &rhs = *ops[1], &groups = *ops[2];
  if (!IsInteger(groups.shape().element_type()) || groups.shape().dims().empty())
    return InstrError(instr, "the group sizes must be an integer array");
  if (r->mode == RaggedDotMode::kNonContracting && r->rhs_group.size() != 1)
    return InstrError(instr, "a ragged non-contracting dimension needs one rhs group dimension");
  if (groups.shape().dims().size() > 1 && groups.shape().dims().size() != r->group_prefix.size() + 1)
    return InstrError(instr, "the group sizes' rank does not match the lhs dimensions before the ragged one");
  const Shape shape = NoLayout(instr.shape());
  const PrimitiveType rt = shape.element_type();
  StatusOr<PrimitiveType> ct = ComputeType(rt);
  if (!ct.ok()) return InstrError(instr, ct.status().message());
  ASSIGN_OR_RETURN(Literal a, Prepare(lhs, rt, *ct));
  ASSIGN_OR_RETURN(Literal b, Prepare(rhs, rt, *ct));
  ASSIGN_OR_RETURN(Literal g, ConvertLiteral(groups, PrimitiveType::kS64));
  Literal acc(Shape(*ct, shape.dims()));
  VisitCompute(*ct, [&](auto tag) { RaggedDotTerms<decltype(tag)>(*r, a, b, g, acc); });
  if (*ct == rt) return acc;
  return ConvertLiteral(acc, rt);
}

StatusOr<Literal> EvalScaledDot(const Instruction& instr, Operands ops) {
  if (ops.size() != 4) return InstrError(instr, "scaled-dot takes lhs, rhs, lhs scale and rhs scale");
  ASSIGN_OR_RETURN(Literal lhs, Dequantize(instr, *ops[0], *ops[2], "the lhs"));
  ASSIGN_OR_RETURN(Literal rhs, Dequantize(instr, *ops[1], *ops[3], "the rhs"));
  const PrimitiveType both = ScaledDotTarget(lhs.shape().element_type(), rhs.shape().element_type());
  ASSIGN_OR_RETURN(lhs, ConvertLiteral(lhs, both));
  ASSIGN_OR_RETURN(rhs, ConvertLiteral(rhs, both));
  const Shape shape = NoLayout(instr.shape());
  Instruction dot(Opcode::kDot, Shape(ScaledDotTarget(both, shape.element_type()), shape.dims()), instr.name());
  dot.attrs() = instr.attrs();
  const Literal* dot_ops[] = {&lhs, &rhs};
  ASSIGN_OR_RETURN(Literal result, EvalDot(dot, dot_ops));
  if (result.shape().element_type() == shape.element_type()) return result;
  return ConvertLiteral(result, shape.element_type());
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
