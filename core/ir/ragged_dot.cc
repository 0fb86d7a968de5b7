#include "core/ir/ragged_dot.h"

#include <algorithm>
#include <charconv>

namespace hloscope {
namespace {

bool Has(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

std::optional<std::vector<int64_t>> RawIntList(const Instruction& instr, std::string_view name) {
  const RawAttr* r = instr.FindRaw(name);
  if (!r) return std::nullopt;
  std::vector<int64_t> out;
  std::string_view v = r->value;
  size_t i = 0;
  while (i < v.size()) {
    char c = v[i];
    if (c == '-' || (c >= '0' && c <= '9')) {
      int64_t x = 0;
      auto res = std::from_chars(v.data() + i, v.data() + v.size(), x);
      if (res.ec != std::errc()) return std::nullopt;
      out.push_back(x);
      i = static_cast<size_t>(res.ptr - v.data());
    } else if (c == '{' || c == '}' || c == ',' || c == ' ') {
      ++i;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

std::optional<RaggedDotDims> RaggedDotDimsOf(const Instruction& instr) {
  if (instr.operand_count() < 1) return std::nullopt;
  auto ragged = RawIntList(instr, "lhs_ragged_dims");
  if (!ragged || ragged->size() != 1) return std::nullopt;
  RaggedDotDims r;
  if (instr.attrs().dot) r.dot = *instr.attrs().dot;  // none: an outer product
  r.lhs_ragged = (*ragged)[0];
  r.rhs_group = RawIntList(instr, "rhs_group_dims").value_or(std::vector<int64_t>{});
  const DotDnums& d = r.dot;
  r.mode = Has(d.lhs_batch, r.lhs_ragged)         ? RaggedDotMode::kBatch
           : Has(d.lhs_contracting, r.lhs_ragged) ? RaggedDotMode::kContracting
                                                  : RaggedDotMode::kNonContracting;
  if (r.mode == RaggedDotMode::kBatch) {
    for (int64_t b : d.lhs_batch) {
      if (b == r.lhs_ragged) break;
      r.group_prefix.push_back(b);
    }
    return r;
  }
  r.group_prefix = d.lhs_batch;
  std::vector<int64_t> pool;
  if (r.mode == RaggedDotMode::kContracting) {
    pool = d.lhs_contracting;
  } else {
    const int rank = instr.operand(0)->shape().rank();
    for (int i = 0; i < rank; ++i)
      if (!Has(d.lhs_contracting, i) && !Has(d.lhs_batch, i)) pool.push_back(i);
  }
  for (int64_t x : pool) {
    if (x == r.lhs_ragged) break;
    r.group_prefix.push_back(x);
  }
  return r;
}

}  // namespace hloscope
