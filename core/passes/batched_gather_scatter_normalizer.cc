// batched_gather_scatter_normalizer: XLA's BatchedGatherScatterNormalizer,
// run by XLA GPU before simplification. A gather or scatter with batching
// dimensions (operand_batching_dims / input_batching_dims: the operand's
// dimension i and the indices' dimension j walk together, as JAX's
// take_along_axis makes them) becomes one without: for each batching pair an
// iota over the indices' shape along j is concatenated before the indices
// along the index vector dimension, the operand dimension joins the
// start_index_map / scatter_dims_to_operand_dims (first) and the collapsed /
// inserted window dimensions. Every element then names its batch coordinates
// explicitly: the same elements are read (written), so the result is exact.
// Indices of a type narrower than 32 bits, where an iota could overflow, are
// left alone.
#include <algorithm>

#include "core/passes/rewrite_helpers.h"
#include "core/passes/simplify_passes.h"
#include "core/passes/traversal.h"

namespace hloscope {
namespace {

bool WideIndices(PrimitiveType t) {
  return t == PrimitiveType::kS32 || t == PrimitiveType::kS64 || t == PrimitiveType::kU32 ||
         t == PrimitiveType::kU64;
}

class BatchedGatherScatterNormalizerPass : public Pass {
 public:
  std::string_view name() const override { return "batched_gather_scatter_normalizer"; }
  std::string_view description() const override {
    return "XLA's BatchedGatherScatterNormalizer: a gather or scatter with batching dimensions reads its batch "
           "coordinates from iotas concatenated to its indices instead.";
  }

  StatusOr<bool> Run(Module& module) override {
    bool changed = false;
    for (Computation* comp : NonFusionComputations(module)) {
      std::vector<Instruction*> todo;
      for (const auto& i : comp->instructions())
        if (Batched(*i)) todo.push_back(i.get());
      for (Instruction* i : todo) changed |= Normalize(comp, i);
    }
    return changed;
  }

 private:
  static bool Batched(const Instruction& i) {
    if (i.opcode() == Opcode::kGather && i.attrs().gather && i.operand_count() == 2)
      return !i.attrs().gather->operand_batching_dims.empty();
    if (i.opcode() == Opcode::kScatter && i.attrs().scatter && i.operand_count() == 3)
      return !i.attrs().scatter->input_batching_dims.empty();
    return false;
  }

  // The indices with the batch coordinates first along the index vector
  // dimension (made explicit when implicit); null when left alone.
  static Instruction* IndicesWithBatch(Computation* comp, Instruction* at, Instruction* indices,
                                       int64_t& index_vector_dim, const std::vector<int64_t>& indices_batching_dims) {
    const Shape& s = indices->shape();
    if (!s.IsArray() || !WideIndices(s.element_type()) || index_vector_dim < 0 || index_vector_dim > s.rank())
      return nullptr;
    Instruction* idx = indices;
    if (index_vector_dim == s.rank()) {  // implicit: one index per element
      std::vector<int64_t> dims = s.dims();
      dims.push_back(1);
      idx = AddNew(comp, at, Opcode::kReshape, ShapeLike(s, s.element_type(), dims), {indices});
      CopyMetadataIfMissing(*at, *idx);
    }
    std::vector<int64_t> one = idx->shape().dims();
    one[static_cast<size_t>(index_vector_dim)] = 1;
    std::vector<Instruction*> parts;
    for (int64_t d : indices_batching_dims) {
      if (d < 0 || d >= idx->shape().rank() || d == index_vector_dim) return nullptr;
      Instruction* iota = AddNew(comp, at, Opcode::kIota, ShapeLike(s, s.element_type(), one), {});
      iota->attrs().iota_dimension = d;
      iota->attrs().mark(Attr::kIotaDimension);
      parts.push_back(iota);
    }
    parts.push_back(idx);
    std::vector<int64_t> dims = idx->shape().dims();
    dims[static_cast<size_t>(index_vector_dim)] += static_cast<int64_t>(indices_batching_dims.size());
    Instruction* cat = AddNew(comp, at, Opcode::kConcatenate, ShapeLike(s, s.element_type(), dims), parts);
    cat->set_dimensions({index_vector_dim});
    CopyMetadataIfMissing(*at, *cat);
    return cat;
  }

  static std::vector<int64_t> Merged(std::vector<int64_t> a, const std::vector<int64_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    std::sort(a.begin(), a.end());
    return a;
  }

  bool Normalize(Computation* comp, Instruction* i) {
    if (i->opcode() == Opcode::kGather) {
      GatherDnums& g = *i->attrs().gather;
      int64_t ivd = g.index_vector_dim;
      Instruction* idx = IndicesWithBatch(comp, i, i->operand(1), ivd, g.start_indices_batching_dims);
      if (!idx) return false;
      std::vector<int64_t> map = g.operand_batching_dims;
      map.insert(map.end(), g.start_index_map.begin(), g.start_index_map.end());
      g.start_index_map = map;
      g.collapsed_slice_dims = Merged(g.collapsed_slice_dims, g.operand_batching_dims);
      g.operand_batching_dims.clear();
      g.start_indices_batching_dims.clear();
      g.index_vector_dim = ivd;
      i->ReplaceOperand(1, idx);
    } else {
      ScatterDnums& sd = *i->attrs().scatter;
      int64_t ivd = sd.index_vector_dim;
      Instruction* idx = IndicesWithBatch(comp, i, i->operand(1), ivd, sd.scatter_indices_batching_dims);
      if (!idx) return false;
      std::vector<int64_t> map = sd.input_batching_dims;
      map.insert(map.end(), sd.scatter_dims_to_operand_dims.begin(), sd.scatter_dims_to_operand_dims.end());
      sd.scatter_dims_to_operand_dims = map;
      sd.inserted_window_dims = Merged(sd.inserted_window_dims, sd.input_batching_dims);
      sd.input_batching_dims.clear();
      sd.scatter_indices_batching_dims.clear();
      sd.index_vector_dim = ivd;
      i->ReplaceOperand(1, idx);
    }
    mutable_log().Record("batching dimensions → iotas concatenated to the indices", *i);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> MakeBatchedGatherScatterNormalizerPass() {
  return std::make_unique<BatchedGatherScatterNormalizerPass>();
}

}  // namespace hloscope
