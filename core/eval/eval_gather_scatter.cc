// gather and scatter with full dimension numbers, including batching dims.
// gather clamps each start so the slice lies inside the operand; scatter
// skips an update window that would reach outside the operand (XLA's rule),
// and applies the update computation in row-major order of the updates.
#include <algorithm>

#include "core/eval/scalar_fn.h"
#include "core/ir/computation.h"

namespace hloscope::eval {
namespace {

bool Has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool Next(std::vector<int64_t>& idx, const std::vector<int64_t>& dims) {
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    if (++idx[d] < dims[d]) return true;
    idx[d] = 0;
  }
  return false;
}

// Reads the index vector for batch position `g` (coordinates of the index
// array's dims other than index_vector_dim, in order).
struct IndexReader {
  const Literal& idx;
  int64_t ivd;
  std::vector<int64_t> strides;
  bool implicit;  // index_vector_dim == rank: vectors of length 1
  IndexReader(const Literal& l, int64_t v) : idx(l), ivd(v), strides(RowMajorStrides(l.shape().dims())) {
    implicit = ivd == l.shape().rank();
  }
  int64_t Components() const { return implicit ? 1 : idx.shape().dim(static_cast<int>(ivd)); }
  int64_t Get(const std::vector<int64_t>& g, int64_t k) const {
    int64_t lin = 0;
    size_t gi = 0;
    for (int d = 0; d < idx.shape().rank(); ++d) {
      if (!implicit && d == ivd) lin += k * strides[d];
      else lin += g[gi++] * strides[d];
    }
    int64_t v = idx.GetInt(lin);
    if (IsUnsignedInt(idx.shape().element_type()) && v < 0) v = INT64_MAX;
    return v;
  }
  // Position in g of index-array dim s (s != ivd).
  int64_t GPos(int64_t s) const { return (!implicit && s > ivd) ? s - 1 : s; }
};

}  // namespace

StatusOr<Literal> EvalGather(const Instruction& instr, Operands ops) {
  const GatherDnums* dn = instr.attrs().gather.get();
  if (!dn || ops.size() != 2) return InstrError(instr, "gather needs an operand, start indices and dimension numbers");
  const Literal& a = *ops[0];
  const Literal& ind = *ops[1];
  if (!IsInteger(ind.shape().element_type())) return InstrError(instr, "start indices must be integers");
  const auto& sizes = instr.attrs().dynamic_slice_sizes;
  Shape shape = NoLayout(instr.shape());
  int orank = a.shape().rank();
  if (static_cast<int>(sizes.size()) != orank) return InstrError(instr, "slice_sizes needs one entry per operand dimension");
  if (dn->index_vector_dim < 0 || dn->index_vector_dim > ind.shape().rank())
    return InstrError(instr, "index_vector_dim out of range");
  IndexReader rd(ind, dn->index_vector_dim);
  if (rd.Components() != static_cast<int64_t>(dn->start_index_map.size()))
    return InstrError(instr, "start_index_map size does not match the index vector length");
  std::vector<int64_t> window_dims;  // operand dims kept in the output
  for (int d = 0; d < orank; ++d)
    if (!Has(dn->collapsed_slice_dims, d) && !Has(dn->operand_batching_dims, d)) window_dims.push_back(d);
  std::vector<int64_t> offset = dn->offset_dims;
  std::sort(offset.begin(), offset.end());
  if (window_dims.size() != offset.size()) return InstrError(instr, "offset_dims do not match the uncollapsed operand dims");
  std::vector<int64_t> batch_out, batch_sizes;
  for (int d = 0; d < shape.rank(); ++d)
    if (!Has(offset, d)) {
      batch_out.push_back(d);
      batch_sizes.push_back(shape.dim(d));
    }
  if (static_cast<int>(batch_out.size()) != ind.shape().rank() - (rd.implicit ? 0 : 1))
    return InstrError(instr, "output batch dimensions do not match the start indices");
  for (int64_t m : dn->start_index_map)
    if (m < 0 || m >= orank) return InstrError(instr, "start_index_map entry out of range");
  for (int d = 0; d < orank; ++d)
    if (sizes[d] < 0 || sizes[d] > a.shape().dim(d)) return InstrError(instr, "slice size larger than the operand");
  Literal out(shape);
  auto os = RowMajorStrides(shape.dims()), as = RowMajorStrides(a.shape().dims());
  std::vector<int64_t> copy_dims, src_str, dst_str;
  for (size_t j = 0; j < window_dims.size(); ++j) {
    copy_dims.push_back(sizes[window_dims[j]]);
    src_str.push_back(as[window_dims[j]]);
    dst_str.push_back(os[offset[j]]);
    if (shape.dim(static_cast<int>(offset[j])) != sizes[window_dims[j]])
      return InstrError(instr, "output offset dimension does not match slice_sizes");
  }
  if (out.num_elements() == 0) return out;
  std::vector<int64_t> g(batch_out.size(), 0), start(orank);
  do {
    std::fill(start.begin(), start.end(), 0);
    for (size_t k = 0; k < dn->start_index_map.size(); ++k) start[dn->start_index_map[k]] = rd.Get(g, static_cast<int64_t>(k));
    for (size_t i = 0; i < dn->operand_batching_dims.size(); ++i)
      start[dn->operand_batching_dims[i]] = g[rd.GPos(dn->start_indices_batching_dims[i])];
    int64_t soff = 0, doff = 0;
    for (int d = 0; d < orank; ++d) soff += std::clamp<int64_t>(start[d], 0, a.shape().dim(d) - sizes[d]) * as[d];
    for (size_t i = 0; i < batch_out.size(); ++i) doff += g[i] * os[batch_out[i]];
    StridedCopy(a.element_bytes(), copy_dims, a.raw(), soff, src_str, out.raw(), doff, dst_str);
  } while (Next(g, batch_sizes));
  return out;
}

StatusOr<Literal> EvalScatter(Interp& in, const Instruction& instr, Operands ops) {
  const ScatterDnums* dn = instr.attrs().scatter.get();
  const Computation* fn = instr.to_apply();
  if (!dn || !fn || ops.size() < 3 || ops.size() % 2 != 1)
    return InstrError(instr, "scatter needs operands, indices, updates, dimension numbers and to_apply");
  size_t n = (ops.size() - 1) / 2;
  const Literal& ind = *ops[n];
  Operands upds = ops.subspan(n + 1);
  const Shape& os0 = ops[0]->shape();
  const Shape& us0 = upds[0]->shape();
  int orank = os0.rank();
  if (!IsInteger(ind.shape().element_type())) return InstrError(instr, "scatter indices must be integers");
  if (dn->index_vector_dim < 0 || dn->index_vector_dim > ind.shape().rank())
    return InstrError(instr, "index_vector_dim out of range");
  for (size_t i = 0; i < n; ++i)
    if (!ops[i]->shape().SameDims(os0) || !upds[i]->shape().SameDims(us0) ||
        ops[i]->shape().element_type() != upds[i]->shape().element_type())
      return InstrError(instr, "operands and updates must agree");
  IndexReader rd(ind, dn->index_vector_dim);
  if (rd.Components() != static_cast<int64_t>(dn->scatter_dims_to_operand_dims.size()))
    return InstrError(instr, "scatter_dims_to_operand_dims size does not match the index vector length");
  std::vector<int64_t> window_op;  // operand dims covered by update_window_dims
  for (int d = 0; d < orank; ++d)
    if (!Has(dn->inserted_window_dims, d) && !Has(dn->input_batching_dims, d)) window_op.push_back(d);
  std::vector<int64_t> uwd = dn->update_window_dims;
  std::sort(uwd.begin(), uwd.end());
  if (window_op.size() != uwd.size()) return InstrError(instr, "update_window_dims do not match the operand");
  std::vector<int64_t> scatter_dims, scatter_sizes, win_sizes;
  for (int d = 0; d < us0.rank(); ++d)
    if (!Has(uwd, d)) {
      scatter_dims.push_back(d);
      scatter_sizes.push_back(us0.dim(d));
    }
  for (int64_t d : uwd) win_sizes.push_back(us0.dim(static_cast<int>(d)));
  if (static_cast<int>(scatter_dims.size()) != ind.shape().rank() - (rd.implicit ? 0 : 1))
    return InstrError(instr, "update scatter dimensions do not match the indices");
  for (int64_t m : dn->scatter_dims_to_operand_dims)
    if (m < 0 || m >= orank) return InstrError(instr, "scatter_dims_to_operand_dims entry out of range");
  std::vector<int64_t> wsize(orank, 1);
  for (size_t j = 0; j < window_op.size(); ++j) wsize[window_op[j]] = win_sizes[j];
  std::vector<Literal> outs;
  for (size_t i = 0; i < n; ++i) outs.push_back(WithShape(*ops[i], Shape(ops[i]->shape().element_type(), os0.dims())));
  auto ost = RowMajorStrides(os0.dims()), ust = RowMajorStrides(us0.dims());
  PrimitiveType t = os0.element_type();
  BinaryForm form = n == 1 ? ClassifyBinary(*fn, t) : BinaryForm{};
  bool fast = form.kind != Combiner::kGeneral && FastCombineType(t);
  std::vector<PrimitiveType> types;
  for (int rep = 0; rep < 2; ++rep)
    for (size_t i = 0; i < n; ++i) types.push_back(ops[i]->shape().element_type());
  ScalarCall call(in, *fn, types);
  if (us0.num_elements() == 0) return n == 1 ? std::move(outs[0]) : MakeTuple(std::move(outs));
  std::vector<int64_t> g(scatter_dims.size(), 0), start(orank), w(uwd.size(), 0);
  do {
    std::fill(start.begin(), start.end(), 0);
    for (size_t k = 0; k < dn->scatter_dims_to_operand_dims.size(); ++k)
      start[dn->scatter_dims_to_operand_dims[k]] = rd.Get(g, static_cast<int64_t>(k));
    for (size_t i = 0; i < dn->input_batching_dims.size(); ++i)
      start[dn->input_batching_dims[i]] = g[rd.GPos(dn->scatter_indices_batching_dims[i])];
    bool inside = true;
    for (int d = 0; d < orank; ++d) inside = inside && start[d] >= 0 && start[d] <= os0.dim(d) - wsize[d];
    if (!inside) continue;
    int64_t obase = 0, ubase = 0;
    for (int d = 0; d < orank; ++d) obase += start[d] * ost[d];
    for (size_t i = 0; i < scatter_dims.size(); ++i) ubase += g[i] * ust[scatter_dims[i]];
    std::fill(w.begin(), w.end(), 0);
    do {
      int64_t o = obase, u = ubase;
      for (size_t j = 0; j < w.size(); ++j) {
        o += w[j] * ost[window_op[j]];
        u += w[j] * ust[uwd[j]];
      }
      if (fast) {
        VisitReal(t, [&](auto tr) {
          using Tr = decltype(tr);
          using S = typename Tr::S;
          S* op = reinterpret_cast<S*>(outs[0].raw());
          const S* up = reinterpret_cast<const S*>(upds[0]->raw());
          op[o] = Combine<Tr>(form.kind, form.swapped, op[o], up[u]);
        });
      } else {
        for (size_t i = 0; i < n; ++i) {
          CopyElement(outs[i], o, call.arg(static_cast<int>(i)), 0);
          CopyElement(*upds[i], u, call.arg(static_cast<int>(n + i)), 0);
        }
        Status st = call.Call();
        if (!st.ok()) return InstrError(instr, "update computation: " + st.message());
        if (call.results().size() != n) return InstrError(instr, "update computation returns the wrong number of values");
        for (size_t i = 0; i < n; ++i) CopyElement(call.results()[i], 0, outs[i], o);
      }
    } while (Next(w, win_sizes));
  } while (Next(g, scatter_sizes));
  if (n == 1) return std::move(outs[0]);
  return MakeTuple(std::move(outs));
}

}  // namespace hloscope::eval
