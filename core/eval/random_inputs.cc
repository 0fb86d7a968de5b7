#include "core/eval/random_inputs.h"

#include <algorithm>
#include <limits>

#include "core/ir/ragged_dot.h"

namespace hloscope {
namespace {

struct SplitMix64 {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  int64_t Range(int64_t lo, int64_t hi) {  // inclusive
    uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(span == 0 ? Next() : Next() % span);
  }
};

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

// Largest start value that keeps every index use of `v` in bounds.
void IndexBound(const Instruction* v, int64_t* hi, int depth) {
  if (depth > 32) return;
  for (const Instruction* u : v->users()) {
    for (int k = 0; k < u->operand_count(); ++k) {
      if (u->operand(k) != v) continue;
      const Shape* op0 = u->operand_count() > 0 ? &u->operand(0)->shape() : nullptr;
      switch (u->opcode()) {
        case Opcode::kConvert:
        case Opcode::kReshape:
        case Opcode::kBitcast:
        case Opcode::kCopy:
        case Opcode::kBroadcast:
        case Opcode::kTranspose:
        case Opcode::kSlice:
        case Opcode::kConcatenate:
        case Opcode::kReverse:
        case Opcode::kGetTupleElement:
          IndexBound(u, hi, depth + 1);
          break;
        case Opcode::kFusion:
        case Opcode::kCall: {
          const Computation* c = u->opcode() == Opcode::kFusion ? u->fused_computation() : u->to_apply();
          if (c && k < c->num_parameters() && c->parameter(k)) IndexBound(c->parameter(k), hi, depth + 1);
          break;
        }
        case Opcode::kDynamicSlice:
          if (k >= 1 && k - 1 < op0->rank() && static_cast<int>(u->attrs().dynamic_slice_sizes.size()) == op0->rank())
            *hi = std::min(*hi, op0->dim(k - 1) - u->attrs().dynamic_slice_sizes[k - 1]);
          break;
        case Opcode::kDynamicUpdateSlice:
          if (k >= 2 && k - 2 < op0->rank() && u->operand(1)->shape().rank() == op0->rank())
            *hi = std::min(*hi, op0->dim(k - 2) - u->operand(1)->shape().dim(k - 2));
          break;
        case Opcode::kGather:
          if (k == 1 && u->attrs().gather) {
            const auto& sizes = u->attrs().dynamic_slice_sizes;
            for (int64_t d : u->attrs().gather->start_index_map)
              if (d >= 0 && d < op0->rank() && d < static_cast<int64_t>(sizes.size()))
                *hi = std::min(*hi, op0->dim(static_cast<int>(d)) - sizes[d]);
          }
          break;
        case Opcode::kScatter:
          if (u->attrs().scatter && u->operand_count() % 2 == 1 && k == u->operand_count() / 2) {
            const ScatterDnums& dn = *u->attrs().scatter;
            const Shape& upd = u->operand(k + 1)->shape();
            std::vector<int64_t> window_op, uwd = dn.update_window_dims;
            std::sort(uwd.begin(), uwd.end());
            for (int d = 0; d < op0->rank(); ++d)
              if (std::find(dn.inserted_window_dims.begin(), dn.inserted_window_dims.end(), d) ==
                      dn.inserted_window_dims.end() &&
                  std::find(dn.input_batching_dims.begin(), dn.input_batching_dims.end(), d) ==
                      dn.input_batching_dims.end())
                window_op.push_back(d);
            for (int64_t d : dn.scatter_dims_to_operand_dims) {
              if (d < 0 || d >= op0->rank()) continue;
              int64_t w = 1;
              for (size_t j = 0; j < window_op.size() && j < uwd.size(); ++j)
                if (window_op[j] == d && uwd[j] < upd.rank()) w = upd.dim(static_cast<int>(uwd[j]));
              *hi = std::min(*hi, op0->dim(static_cast<int>(d)) - w);
            }
          }
          break;
        case Opcode::kRaggedDot:
          // Group sizes: each up to its share of the ragged dimension, so
          // that the groups cover it about once (some rows in no group).
          if (k == 2 && u->shape().IsArray() && u->operand(2)->shape().rank() >= 1) {
            const std::optional<RaggedDotDims> r = RaggedDotDimsOf(*u);
            const int64_t groups = u->operand(2)->shape().dims().back();
            if (r && r->lhs_ragged >= 0 && r->lhs_ragged < op0->rank() && groups > 0)
              *hi = std::min(*hi, (op0->dim(static_cast<int>(r->lhs_ragged)) + groups - 1) / groups);
          }
          break;
        default: break;
      }
    }
  }
}

void Fill(Literal& l, SplitMix64& rng, int64_t index_hi) {
  if (l.IsTuple()) {
    for (Literal& e : l.tuple_elements()) Fill(e, rng, index_hi);
    return;
  }
  if (!l.shape().IsArray()) return;
  PrimitiveType t = l.shape().element_type();
  int64_t n = l.num_elements();
  if (t == PrimitiveType::kPred) {
    for (int64_t i = 0; i < n; ++i) l.SetInt(i, static_cast<int64_t>(rng.Next() & 1));
  } else if (IsInteger(t)) {
    int bits = BitWidth(t);
    int64_t tmin = IsSignedInt(t) ? (bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1))) : 0;
    int64_t tmax = bits >= 63 ? std::numeric_limits<int64_t>::max()
                              : (IsSignedInt(t) ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1);
    int64_t lo = IsSignedInt(t) ? -10 : 0, hi = IsSignedInt(t) ? 10 : 20;
    if (index_hi != kUnbounded) {
      lo = 0;
      hi = std::max<int64_t>(0, index_hi);
    }
    lo = std::max(lo, tmin);
    hi = std::min(hi, tmax);
    for (int64_t i = 0; i < n; ++i) l.SetInt(i, rng.Range(lo, hi));
  } else if (IsComplex(t)) {
    for (int64_t i = 0; i < n; ++i) {
      double re = 2 * rng.Unit() - 1, im = 2 * rng.Unit() - 1;
      l.SetComplex(i, {re, im});
    }
  } else if (IsFloat(t)) {
    for (int64_t i = 0; i < n; ++i) l.SetDouble(i, 2 * rng.Unit() - 1);
  }
}

}  // namespace

std::vector<std::vector<Literal>> MakeRandomDeviceInputs(const Computation& entry, uint64_t seed, int64_t devices) {
  std::vector<std::vector<Literal>> out;
  for (int64_t d = 0; d < devices; ++d)
    out.push_back(MakeRandomInputs(entry, seed + static_cast<uint64_t>(d) * 0x9E3779B97F4A7C15ull));
  return out;
}

std::vector<Literal> MakeRandomInputs(const Computation& entry, uint64_t seed) {
  std::vector<Literal> out;
  for (int p = 0; p < entry.num_parameters(); ++p) {
    const Instruction* param = entry.parameter(p);
    if (!param) {
      out.emplace_back();
      continue;
    }
    Shape s = param->shape();
    s.ClearLayoutRecursive();
    Literal l(s);
    int64_t hi = kUnbounded;
    if (s.IsArray() && (IsInteger(s.element_type()))) IndexBound(param, &hi, 0);
    SplitMix64 rng{seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(p) * 0xd1b54a32d192ed03ull + 1};
    Fill(l, rng, hi);
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<std::string> FillElidedConstants(Module& m, uint64_t seed) {
  std::vector<std::string> filled;
  for (const auto& c : m.computations()) {
    for (const auto& i : c->instructions()) {
      if (i->opcode() != Opcode::kConstant || !i->literal() || !i->literal()->elided()) continue;
      const std::string key = c->name() + "/" + i->name();
      uint64_t h = 1469598103934665603ull;  // FNV-1a of the key
      for (unsigned char ch : key) h = (h ^ ch) * 1099511628211ull;
      Shape s = i->shape();
      s.ClearLayoutRecursive();
      auto lit = std::make_unique<Literal>(s);
      SplitMix64 rng{seed * 0x9e3779b97f4a7c15ull + h};
      Fill(*lit, rng, kUnbounded);
      i->set_literal(std::move(lit));
      filled.push_back(key);
    }
  }
  return filled;
}

}  // namespace hloscope
