// Gather and scatter with their dimension numbers (including the batching
// dimensions), following XLA's InferGatherShape / InferScatterShape.
#include <algorithm>

#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {
namespace {

bool Sorted(const std::vector<int64_t>& v) { return std::is_sorted(v.begin(), v.end()); }

// Every entry in [0, bound), sorted (when asked) and unique.
Status CheckDimList(const std::vector<int64_t>& v, int64_t bound, std::string_view name, bool sorted,
                    std::string_view bound_what) {
  for (int64_t x : v)
    if (x < 0 || x >= bound)
      return Fail(std::string(name) + "=" + IntList(v) + " has " + std::to_string(x) + ", out of range [0, " +
                  std::to_string(bound) + ") of the " + std::string(bound_what));
  if (sorted && !Sorted(v)) return Fail(std::string(name) + "=" + IntList(v) + " must be sorted");
  if (!AllUnique(v)) return Fail(std::string(name) + "=" + IntList(v) + " repeats a dimension");
  return Status::Ok();
}

// Indices shape with the implicit trailing index vector dimension of size 1
// when index_vector_dim == rank.
StatusOr<std::vector<int64_t>> ExpandedIndices(const Shape& idx, int64_t index_vector_dim,
                                               std::vector<bool>* dyn) {
  if (index_vector_dim < 0 || index_vector_dim > idx.rank())
    return Fail("index_vector_dim=" + std::to_string(index_vector_dim) + " must be in [0, " +
                std::to_string(idx.rank()) + "] for indices " + Str(idx));
  std::vector<int64_t> dims = idx.dims();
  if (dyn)
    for (int i = 0; i < idx.rank(); ++i) dyn->push_back(idx.IsDynamicDim(i));
  if (index_vector_dim == idx.rank()) {
    dims.push_back(1);
    if (dyn) dyn->push_back(false);
  }
  return dims;
}

}  // namespace

StatusOr<Shape> InferGather(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 1, "start indices"));
  const Shape& in = instr.operand(0)->shape();
  const Shape& idx = instr.operand(1)->shape();
  if (!instr.attrs().gather) return Fail("gather needs its dimension numbers (offset_dims=, ...)");
  const GatherDnums& g = *instr.attrs().gather;
  const std::vector<int64_t>& sizes = instr.attrs().dynamic_slice_sizes;
  if (!IsInteger(idx.element_type()))
    return Fail(Operand(instr, 1) + ", the start indices, has shape " + Str(idx) + " but must be integers");
  std::vector<bool> idx_dyn;
  ASSIGN_OR_RETURN(std::vector<int64_t> xidx, ExpandedIndices(idx, g.index_vector_dim, &idx_dyn));
  const int64_t out_rank = static_cast<int64_t>(g.offset_dims.size() + xidx.size()) - 1;
  RETURN_IF_ERROR(CheckDimList(g.offset_dims, out_rank, "offset_dims", true, "result"));
  const int64_t index_len = xidx[g.index_vector_dim];
  if (!IsUnboundedDim(index_len) && static_cast<int64_t>(g.start_index_map.size()) != index_len)
    return Fail("start_index_map=" + IntList(g.start_index_map) + " has " +
                std::to_string(g.start_index_map.size()) +
                " entries but dimension index_vector_dim=" + std::to_string(g.index_vector_dim) +
                " of the indices " + Str(idx) + " has size " + std::to_string(index_len));
  RETURN_IF_ERROR(CheckDimList(g.start_index_map, in.rank(), "start_index_map", false, "operand"));
  RETURN_IF_ERROR(CheckDimList(g.collapsed_slice_dims, in.rank(), "collapsed_slice_dims", true, "operand"));
  if (g.operand_batching_dims.size() != g.start_indices_batching_dims.size())
    return Fail("operand_batching_dims=" + IntList(g.operand_batching_dims) +
                " and start_indices_batching_dims=" + IntList(g.start_indices_batching_dims) +
                " must have the same length");
  RETURN_IF_ERROR(CheckDimList(g.operand_batching_dims, in.rank(), "operand_batching_dims", true, "operand"));
  RETURN_IF_ERROR(CheckDimList(g.start_indices_batching_dims, static_cast<int64_t>(xidx.size()),
                               "start_indices_batching_dims", false, "indices"));
  if (static_cast<int>(sizes.size()) != in.rank())
    return Fail("slice_sizes=" + IntList(sizes) + " has " + std::to_string(sizes.size()) +
                " entries but the operand " + Str(in) + " has rank " + std::to_string(in.rank()));
  if (sizes.size() != g.offset_dims.size() + g.collapsed_slice_dims.size() + g.operand_batching_dims.size())
    return Fail("slice_sizes=" + IntList(sizes) + " has " + std::to_string(sizes.size()) +
                " entries but offset_dims, collapsed_slice_dims and operand_batching_dims account for " +
                std::to_string(g.offset_dims.size() + g.collapsed_slice_dims.size() +
                               g.operand_batching_dims.size()));
  for (int i = 0; i < in.rank(); ++i) {
    if (IsUnbounded(in, i)) continue;
    if (sizes[i] < 0 || sizes[i] > in.dim(i))
      return Fail("slice size " + std::to_string(sizes[i]) + " for dimension " + std::to_string(i) +
                  " is out of range [0, " + std::to_string(in.dim(i)) + "] of the operand " + Str(in));
  }
  for (int64_t c : g.collapsed_slice_dims)
    if (sizes[c] > 1)
      return Fail("collapsed slice dimension " + std::to_string(c) + " has slice size " +
                  std::to_string(sizes[c]) + " but only sizes 0 or 1 can be collapsed");
  for (int64_t b : g.operand_batching_dims)
    if (sizes[b] > 1)
      return Fail("operand batching dimension " + std::to_string(b) + " has slice size " +
                  std::to_string(sizes[b]) + " but must have size 0 or 1");
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  int64_t offset_seen = 0, gather_seen = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (std::binary_search(g.offset_dims.begin(), g.offset_dims.end(), i)) {
      while (Contains(g.collapsed_slice_dims, offset_seen) || Contains(g.operand_batching_dims, offset_seen))
        ++offset_seen;
      int d = static_cast<int>(offset_seen);
      dynamic.push_back(sizes[d] == in.dim(d) && in.IsDynamicDim(d));
      dims.push_back(sizes[offset_seen++]);
    } else {
      if (gather_seen == g.index_vector_dim) ++gather_seen;
      dynamic.push_back(idx_dyn[gather_seen]);
      dims.push_back(xidx[gather_seen++]);
    }
  }
  return MakeArray(in.element_type(), std::move(dims), dynamic);
}

StatusOr<Shape> InferScatter(const Instruction& instr) {
  const int n = instr.operand_count() / 2;
  if (instr.operand_count() < 3 || instr.operand_count() != 2 * n + 1)
    return Fail("scatter takes n operands, the indices and n updates (an odd count of at least 3), but has " +
                std::to_string(instr.operand_count()));
  if (!instr.attrs().scatter) return Fail("scatter needs its dimension numbers (update_window_dims=, ...)");
  const ScatterDnums& s = *instr.attrs().scatter;
  RETURN_IF_ERROR(ExpectArrayOperand(instr, n, "scatter indices"));
  const Shape& idx = instr.operand(n)->shape();
  if (!IsInteger(idx.element_type()))
    return Fail(Operand(instr, n) + ", the scatter indices, has shape " + Str(idx) + " but must be integers");
  ASSIGN_OR_RETURN(std::vector<int64_t> xidx, ExpandedIndices(idx, s.index_vector_dim, nullptr));
  for (int k = 0; k < n; ++k) {
    RETURN_IF_ERROR(ExpectArrayOperand(instr, k));
    RETURN_IF_ERROR(ExpectArrayOperand(instr, n + 1 + k, "updates"));
    const Shape& in = instr.operand(k)->shape();
    const Shape& up = instr.operand(n + 1 + k)->shape();
    std::vector<int64_t> window_bounds;  // operand dims not inserted nor batching
    for (int i = 0; i < in.rank(); ++i)
      if (!Contains(s.inserted_window_dims, i) && !Contains(s.input_batching_dims, i))
        window_bounds.push_back(in.dim(i));
    const int64_t want_rank =
        static_cast<int64_t>(xidx.size()) - 1 + static_cast<int64_t>(s.update_window_dims.size());
    if (up.rank() != want_rank)
      return Fail(Operand(instr, n + 1 + k) + ", the updates, has shape " + Str(up) + " but rank " +
                  std::to_string(want_rank) + " was expected (the scatter dimensions of the indices " +
                  Str(idx) + " plus update_window_dims=" + IntList(s.update_window_dims) + ")");
    RETURN_IF_ERROR(CheckDimList(s.update_window_dims, up.rank(), "update_window_dims", true, "updates"));
    RETURN_IF_ERROR(CheckDimList(s.inserted_window_dims, in.rank(), "inserted_window_dims", true, "operand"));
    const size_t window =
        s.update_window_dims.size() + s.inserted_window_dims.size() + s.input_batching_dims.size();
    if (static_cast<int>(window) != in.rank())
      return Fail("update_window_dims, inserted_window_dims and input_batching_dims account for " +
                  std::to_string(window) + " dimension(s) but the operand " + Str(in) + " has rank " +
                  std::to_string(in.rank()));
    const int64_t index_len = xidx[s.index_vector_dim];
    if (!DimsCompatible(static_cast<int64_t>(s.scatter_dims_to_operand_dims.size()), index_len))
      return Fail("scatter_dims_to_operand_dims=" + IntList(s.scatter_dims_to_operand_dims) + " has " +
                  std::to_string(s.scatter_dims_to_operand_dims.size()) +
                  " entries but dimension index_vector_dim=" + std::to_string(s.index_vector_dim) +
                  " of the indices " + Str(idx) + " has size " + std::to_string(index_len));
    RETURN_IF_ERROR(CheckDimList(s.scatter_dims_to_operand_dims, in.rank(), "scatter_dims_to_operand_dims",
                                 false, "operand"));
    if (s.input_batching_dims.size() != s.scatter_indices_batching_dims.size())
      return Fail("input_batching_dims=" + IntList(s.input_batching_dims) +
                  " and scatter_indices_batching_dims=" + IntList(s.scatter_indices_batching_dims) +
                  " must have the same length");
    RETURN_IF_ERROR(CheckDimList(s.input_batching_dims, in.rank(), "input_batching_dims", true, "operand"));
    RETURN_IF_ERROR(CheckDimList(s.scatter_indices_batching_dims, static_cast<int64_t>(xidx.size()),
                                 "scatter_indices_batching_dims", false, "indices"));
    for (size_t i = 0; i < s.update_window_dims.size(); ++i) {
      int d = static_cast<int>(s.update_window_dims[i]);
      if (i < window_bounds.size() && up.dim(d) > window_bounds[i])
        return Fail("window dimension " + std::to_string(d) + " of the updates " + Str(up) + " has size " +
                    std::to_string(up.dim(d)) + ", more than the operand's " +
                    std::to_string(window_bounds[i]));
    }
    int64_t seen = 0;
    for (int i = 0; i < up.rank(); ++i) {
      if (Contains(s.update_window_dims, i)) continue;
      if (seen == s.index_vector_dim) ++seen;
      if (!DimsCompatible(up.dim(i), xidx[seen]))
        return Fail("scatter dimension " + std::to_string(i) + " of the updates " + Str(up) + " has size " +
                    std::to_string(up.dim(i)) + " but the matching dimension of the indices " + Str(idx) +
                    " has size " + std::to_string(xidx[seen]));
      ++seen;
    }
  }
  ASSIGN_OR_RETURN(ProgramShape reducer, CalledProgram(instr, "to_apply"));
  std::vector<Shape> inits;
  std::vector<PrimitiveType> update_types;
  for (int k = 0; k < n; ++k) {
    inits.push_back(Shape::Scalar(instr.operand(k)->shape().element_type()));
    update_types.push_back(instr.operand(n + 1 + k)->shape().element_type());
  }
  std::vector<const Shape*> init_ptrs;
  for (const Shape& s2 : inits) init_ptrs.push_back(&s2);
  RETURN_IF_ERROR(VerifyReducer(reducer, init_ptrs, update_types, "scatter's update computation"));
  if (n == 1) return NoLayout(instr.operand(0)->shape());
  std::vector<Shape> elems;
  for (int k = 0; k < n; ++k) elems.push_back(NoLayout(instr.operand(k)->shape()));
  return Shape::Tuple(std::move(elems));
}

}  // namespace hloscope::infer
