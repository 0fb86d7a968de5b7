#include "core/fusion/triton_fusibility.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "core/cost/cost_model.h"
#include "core/ir/computation.h"

namespace hloscope {
namespace {

std::string Op(const Instruction& i) { return std::string(OpcodeName(i.opcode())); }

std::vector<int64_t> NonContracting(const Shape& s, const std::vector<int64_t>& batch,
                                    const std::vector<int64_t>& contracting) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < s.rank(); ++d)
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end())
      out.push_back(d);
  return out;
}

int64_t Product(const Shape& s, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= s.dim(static_cast<int>(d));
  return n;
}

bool LeadingDims(const std::vector<int64_t>& dims) {
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] != static_cast<int64_t>(k)) return false;
  return true;
}

// The instructions a fusion (or a single instruction) computes.
std::vector<const Instruction*> Members(const Instruction& i) {
  std::vector<const Instruction*> out;
  if (i.opcode() == Opcode::kFusion && i.fused_computation()) {
    for (const auto& m : i.fused_computation()->instructions())
      if (m->opcode() != Opcode::kParameter) out.push_back(m.get());
  } else {
    out.push_back(&i);
  }
  return out;
}

// Ops Triton's generic emitter tiles (besides reduce).
bool TritonTileableOp(const Instruction& i) {
  if (i.HasSideEffect()) return false;
  switch (i.opcode()) {
    case Opcode::kBroadcast: case Opcode::kBitcast: case Opcode::kReshape: case Opcode::kConstant:
    case Opcode::kIota: case Opcode::kReduce: case Opcode::kSelect: case Opcode::kCompare:
    case Opcode::kConvert: case Opcode::kClamp:
      return true;
    case Opcode::kRng: case Opcode::kRngBitGenerator:
      return false;
    default:
      return IsElementwise(i.opcode());
  }
}

}  // namespace

std::string FusionBackendKind(const Instruction& fusion) {
  const RawAttr* bc = fusion.FindRaw("backend_config");
  if (!bc) return "";
  const std::string& v = bc->value;
  size_t at = v.find("\"fusion_backend_config\"");
  if (at == std::string::npos) return "";
  size_t k = v.find("\"kind\"", at);
  if (k == std::string::npos) return "";
  size_t q1 = v.find('"', v.find(':', k) + 1);
  if (q1 == std::string::npos) return "";
  size_t q2 = v.find('"', q1 + 1);
  if (q2 == std::string::npos) return "";
  return v.substr(q1 + 1, q2 - q1 - 1);
}

bool IsTritonGemmFusion(const Instruction& i) {
  if (i.opcode() != Opcode::kFusion || i.fusion_kind() != FusionKind::kCustom) return false;
  std::string k = FusionBackendKind(i);
  return k == kTritonGemmKind || k == kTritonNestedGemmKind || k == "__triton_scaled_dot_fusion";
}

bool IsTritonFusion(const Instruction& i) {
  return i.opcode() == Opcode::kFusion && i.fusion_kind() == FusionKind::kCustom &&
         FusionBackendKind(i) == kTritonKind;
}

void MarkAsTritonFusion(Instruction& fusion, std::string_view kind) {
  fusion.set_fusion_kind(FusionKind::kCustom);
  fusion.SetRaw("backend_config", "{\"fusion_backend_config\":{\"kind\":\"" + std::string(kind) + "\"}}");
}

bool IsTritonSupportedType(PrimitiveType t) {
  switch (t) {
    case PrimitiveType::kPred: case PrimitiveType::kS8: case PrimitiveType::kS16: case PrimitiveType::kS32:
    case PrimitiveType::kS64: case PrimitiveType::kF16: case PrimitiveType::kBF16: case PrimitiveType::kF32:
    case PrimitiveType::kF8E5M2: case PrimitiveType::kF8E4M3FN:
      return true;
    default:
      return false;
  }
}

bool DotTooSmallForGemm(const Instruction& dot) {
  const DotDnums* d = dot.attrs().dot.get();
  if (!d || dot.operand_count() < 2) return false;
  const Shape& l = dot.operand(0)->shape();
  const Shape& r = dot.operand(1)->shape();
  int64_t k = Product(l, d->lhs_contracting);
  int64_t m = Product(l, NonContracting(l, d->lhs_batch, d->lhs_contracting));
  int64_t n = Product(r, NonContracting(r, d->rhs_batch, d->rhs_contracting));
  return (m + n) * k < 100;
}

Refusal GemmFusible(const Instruction& dot) {
  if (dot.opcode() != Opcode::kDot || dot.operand_count() != 2) return "not a dot of two operands";
  const DotDnums* d = dot.attrs().dot.get();
  if (!d) return "the dot has no dimension numbers";
  const Shape& l = dot.operand(0)->shape();
  const Shape& r = dot.operand(1)->shape();
  PrimitiveType out = dot.shape().element_type();
  if (out != PrimitiveType::kF32 && out != PrimitiveType::kF16 && out != PrimitiveType::kBF16 &&
      out != PrimitiveType::kS32)
    return "Triton's GEMM emitter does not produce " + std::string(PrimitiveTypeName(out)) +
           " results; the dot goes to the library or the loop emitter";
  for (const Shape* s : {&l, &r})
    if (!IsTritonSupportedType(s->element_type()))
      return "Triton's GEMM emitter does not read " + std::string(PrimitiveTypeName(s->element_type())) +
             " operands";
  if (const RawAttr* p = dot.FindRaw("operand_precision")) {
    std::string v = p->value;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    if (v.find("high") != std::string::npos)
      return "the dot asks for non-default operand precision (" + p->value +
             "); XLA leaves such dots to cuBLAS (Triton would use TF32)";
  }
  // XLA's DotDimensionMerger folds consecutive leading batch dimensions into
  // one before GemmFusion, which takes at most one.
  if (d->lhs_batch.size() > 1 && !(LeadingDims(d->lhs_batch) && LeadingDims(d->rhs_batch)))
    return "the dot has several batch dimensions that are not the leading ones; Triton's GEMM takes one";
  bool lhs_vector = d->lhs_batch.size() + d->lhs_contracting.size() == static_cast<size_t>(l.rank());
  bool rhs_vector = d->rhs_batch.size() + d->rhs_contracting.size() == static_cast<size_t>(r.rank());
  if (lhs_vector && rhs_vector)
    return "a vector-vector dot is a reduction (XLA GPU's algebraic simplifier rewrites it as multiply and "
           "reduce); it is not a GEMM";
  if (DotTooSmallForGemm(dot) &&
      (out == PrimitiveType::kF32 || out == PrimitiveType::kF16 || out == PrimitiveType::kBF16)) {
    int64_t k = Product(l, d->lhs_contracting);
    int64_t m = Product(l, NonContracting(l, d->lhs_batch, d->lhs_contracting));
    int64_t n = Product(r, NonContracting(r, d->rhs_batch, d->rhs_contracting));
    return "the matrix multiplication is too small for a GEMM kernel: (" + std::to_string(m) + " + " +
           std::to_string(n) + ") x " + std::to_string(k) +
           " < 100 (xla_gpu_gemm_rewrite_size_threshold); XLA emits it with the loop emitter (wrapped_dot)";
  }
  return "";
}

Refusal TritonPairFusible(const Instruction& producer, const Instruction& consumer) {
  for (const Instruction* x : {&producer, &consumer}) {
    if (x->HasSideEffect()) return "the " + Op(*x) + " has side effects";
    if (x->shape().IsTuple()) return Op(*x) + " has several outputs; a Triton fusion has one";
    if (x->opcode() == Opcode::kFusion && !IsTritonFusion(*x) && x->fusion_kind() != FusionKind::kLoop &&
        x->fusion_kind() != FusionKind::kInput)
      return x->name() + " is a " + std::string(FusionKindName(x->fusion_kind())) +
             " fusion; only loop, input and Triton fusions join a Triton fusion";
  }
  if (producer.opcode() == Opcode::kParameter) return "the producer is a parameter: it is read, not computed";
  if (producer.opcode() == Opcode::kConstant && producer.shape().num_elements() > 1)
    return "the producer is a non-scalar constant: it stays a buffer the kernel reads";
  std::vector<const Instruction*> members = Members(producer);
  for (const Instruction* m : Members(consumer)) members.push_back(m);
  // The rows: the shape every reduction reduces the last dimension of.
  const Shape* rows = nullptr;
  for (const Instruction* m : members) {
    if (m->opcode() != Opcode::kReduce) continue;
    if (m->operand_count() != 2 || m->shape().IsTuple())
      return "the fusion would hold a variadic reduce (" + m->name() + "); Triton's normalization fusion takes "
             "single-input row reductions";
    const Shape& in = m->operand(0)->shape();
    if (in.rank() < 1 || m->dimensions().size() != 1 || m->dimensions()[0] != in.rank() - 1 || !HasDefaultLayout(in))
      return "the fusion would hold " + m->name() + ", which is not a reduction of the last (minor) dimension; "
             "Triton's fusion tiles rows";
    if (!rows) rows = &in;
    else if (!rows->SameDims(in))
      return "the fusion would reduce rows of two shapes (" + rows->ToString() + " and " + in.ToString() +
             "); one Triton fusion tiles one row shape";
  }
  if (!rows) return "neither side holds a row reduction; elementwise kernels stay loop fusions";
  std::vector<int64_t> reduced(rows->dims().begin(), rows->dims().end() - 1);
  const int64_t row_len = rows->dim(rows->rank() - 1);
  auto row_shaped = [&](const Shape& s) {
    if (!s.IsArray()) return false;
    if (s.rank() == 0 || s.dims() == rows->dims() || s.dims() == reduced) return true;
    return s.rank() == 1 && s.dim(0) == row_len;
  };
  for (const Instruction* m : members) {
    if (!TritonTileableOp(*m))
      return "the fusion would hold " + Op(*m) + " (" + m->name() + "), which Triton's tiling of rows cannot follow";
    if (!IsTritonSupportedType(m->shape().element_type()))
      return "the fusion would compute " + std::string(PrimitiveTypeName(m->shape().element_type())) +
             " values, which Triton's emitter does not take";
    if (m->opcode() == Opcode::kReduce) continue;
    // Values of other shapes (a mask built from iotas, a per-column scale)
    // reach the rows only through broadcasts and row-keeping bitcasts,
    // which the tiling follows.
    if ((m->opcode() == Opcode::kBitcast || m->opcode() == Opcode::kReshape) && m->operand_count() == 1) {
      const Shape& o = m->operand(0)->shape();
      if (o.rank() == 0 || m->shape().rank() == 0 || o.dim(o.rank() - 1) != m->shape().dim(m->shape().rank() - 1))
        return m->name() + " reshapes across rows; the fusion could not be tiled by rows";
    }
  }
  if (!row_shaped(consumer.shape())) return "the consumer's result is not row-shaped";
  int instructions = static_cast<int>(members.size());
  if (instructions > kMaxIrSize)
    return "the fusion would hold more than " + std::to_string(kMaxIrSize) + " instructions";
  if (FusedOperandsAndOutputs(producer, consumer) > kMaxOperandsAndOutputsPerFusion)
    return "the fusion would have more than " + std::to_string(kMaxOperandsAndOutputsPerFusion) +
           " operands and outputs";
  return "";
}

namespace {

// For a reshape from dims `from` to dims `to`: the dim of `to` each dim of
// `from` becomes when it passes unchanged (alone in its group on both sides),
// else -1 (merged, split or dropped).
std::vector<int64_t> ReshapeDimMap(const std::vector<int64_t>& from, const std::vector<int64_t>& to) {
  std::vector<int64_t> map(from.size(), -1);
  std::optional<std::vector<ReshapeGroup>> groups = ReshapeDimGroups(from, to);
  if (!groups) return map;
  for (const ReshapeGroup& g : *groups)
    if (g.from_end == g.from_begin + 1 && g.to_end == g.to_begin + 1)
      map[g.from_begin] = static_cast<int64_t>(g.to_begin);
  return map;
}

bool ShapeChangingLayoutOp(const Instruction& i) {
  return (i.opcode() == Opcode::kReshape || i.opcode() == Opcode::kBitcast) && i.operand_count() == 1 &&
         i.shape().IsArray() && i.operand(0)->shape().IsArray() && i.shape().dims() != i.operand(0)->shape().dims();
}

}  // namespace

std::optional<std::vector<ReshapeGroup>> ReshapeDimGroups(const std::vector<int64_t>& from,
                                                         const std::vector<int64_t>& to) {
  std::vector<ReshapeGroup> out;
  size_t i = 0, j = 0;
  while (i < from.size() && j < to.size()) {
    size_t i2 = i + 1, j2 = j + 1;
    int64_t a = from[i], b = to[j];
    while (a != b) {
      if (a < b && i2 < from.size()) {
        a *= from[i2++];
      } else if (b < a && j2 < to.size()) {
        b *= to[j2++];
      } else {
        return std::nullopt;
      }
    }
    out.push_back({i, i2, j, j2});
    i = i2;
    j = j2;
  }
  return out;
}

bool GemmReadsThroughHoistedBitcast(const Instruction& fusion, int64_t operand_index) {
  if (!IsTritonGemmFusion(fusion) || !fusion.fused_computation()) return false;
  const Computation* fc = fusion.fused_computation();
  if (operand_index < 0 || operand_index >= fc->num_parameters()) return false;
  const Instruction* p = fc->parameter(static_cast<int>(operand_index));
  if (!p->shape().IsArray()) return false;
  // Walk forward from the parameter, tracking which dims of each value carry
  // the parameter's dims; a reshape that merges, splits or drops one of them
  // (on the path, or feeding the same elementwise op) would be hoisted onto
  // the parameter.
  struct Item {
    const Instruction* v;
    std::vector<int64_t> dims;
  };
  std::vector<Item> work;
  std::vector<int64_t> all(static_cast<size_t>(p->shape().rank()));
  for (size_t d = 0; d < all.size(); ++d) all[d] = static_cast<int64_t>(d);
  work.push_back({p, all});
  std::unordered_set<const Instruction*> seen{p};
  auto touches = [](const std::vector<int64_t>& map, const std::vector<int64_t>& dims) {
    for (int64_t d : dims)
      if (d >= static_cast<int64_t>(map.size()) || map[static_cast<size_t>(d)] < 0) return true;
    return false;
  };
  while (!work.empty()) {
    Item it = std::move(work.back());
    work.pop_back();
    const Instruction* v = it.v;
    if (v != p && IsElementwise(v->opcode()))
      for (const Instruction* o : v->operands())
        if (ShapeChangingLayoutOp(*o) && !seen.count(o) &&
            touches(ReshapeDimMap(v->shape().dims(), o->operand(0)->shape().dims()), it.dims))
          return true;
    for (const Instruction* u : v->users()) {
      if (seen.count(u) || !u->shape().IsArray()) continue;
      std::vector<int64_t> next;
      if (IsElementwise(u->opcode()) && u->shape().dims() == v->shape().dims()) {
        next = it.dims;
      } else if (u->opcode() == Opcode::kBroadcast) {
        for (int64_t d : it.dims)
          if (d < static_cast<int64_t>(u->dimensions().size())) next.push_back(u->dimensions()[static_cast<size_t>(d)]);
      } else if (u->opcode() == Opcode::kTranspose) {
        for (size_t j = 0; j < u->dimensions().size(); ++j)
          if (std::find(it.dims.begin(), it.dims.end(), u->dimensions()[j]) != it.dims.end())
            next.push_back(static_cast<int64_t>(j));
      } else if (ShapeChangingLayoutOp(*u)) {
        std::vector<int64_t> map = ReshapeDimMap(v->shape().dims(), u->shape().dims());
        if (touches(map, it.dims)) return true;
        for (int64_t d : it.dims) next.push_back(map[static_cast<size_t>(d)]);
      } else {
        continue;  // the dot, or an op the hoisting stops at
      }
      seen.insert(u);
      work.push_back({u, std::move(next)});
    }
  }
  return false;
}

}  // namespace hloscope
