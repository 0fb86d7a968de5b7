#include "core/ir/attributes.h"

#include <algorithm>

namespace hloscope {

namespace {
template <typename T>
std::unique_ptr<T> CloneBox(const std::unique_ptr<T>& p) {
  return p ? std::make_unique<T>(*p) : nullptr;
}
template <typename T>
bool BoxEq(const std::unique_ptr<T>& a, const std::unique_ptr<T>& b) {
  if (!a || !b) return !a && !b;
  return *a == *b;
}
}  // namespace

Attrs& Attrs::operator=(const Attrs& o) {
  if (this == &o) return *this;
  present = o.present;
  dimensions = o.dimensions;
  slice = o.slice;
  dynamic_slice_sizes = o.dynamic_slice_sizes;
  padding = o.padding;
  window = CloneBox(o.window);
  conv = CloneBox(o.conv);
  feature_group_count = o.feature_group_count;
  batch_group_count = o.batch_group_count;
  dot = CloneBox(o.dot);
  gather = CloneBox(o.gather);
  scatter = CloneBox(o.scatter);
  indices_are_sorted = o.indices_are_sorted;
  unique_indices = o.unique_indices;
  direction = o.direction;
  compare_type = o.compare_type;
  iota_dimension = o.iota_dimension;
  fusion_kind = o.fusion_kind;
  index = o.index;
  exponent_bits = o.exponent_bits;
  mantissa_bits = o.mantissa_bits;
  is_stable = o.is_stable;
  custom_call_target = o.custom_call_target;
  return *this;
}

bool Attrs::operator==(const Attrs& o) const {
  return present == o.present && dimensions == o.dimensions && slice == o.slice &&
         dynamic_slice_sizes == o.dynamic_slice_sizes && padding == o.padding &&
         BoxEq(window, o.window) && BoxEq(conv, o.conv) &&
         feature_group_count == o.feature_group_count &&
         batch_group_count == o.batch_group_count && BoxEq(dot, o.dot) &&
         BoxEq(gather, o.gather) && BoxEq(scatter, o.scatter) &&
         indices_are_sorted == o.indices_are_sorted && unique_indices == o.unique_indices &&
         direction == o.direction && compare_type == o.compare_type &&
         iota_dimension == o.iota_dimension && fusion_kind == o.fusion_kind &&
         index == o.index && exponent_bits == o.exponent_bits &&
         mantissa_bits == o.mantissa_bits && is_stable == o.is_stable &&
         custom_call_target == o.custom_call_target;
}

std::string_view DirectionName(ComparisonDirection d) {
  switch (d) {
    case ComparisonDirection::kEq: return "EQ";
    case ComparisonDirection::kNe: return "NE";
    case ComparisonDirection::kLt: return "LT";
    case ComparisonDirection::kLe: return "LE";
    case ComparisonDirection::kGt: return "GT";
    case ComparisonDirection::kGe: return "GE";
  }
  return "EQ";
}

std::optional<ComparisonDirection> DirectionFromName(std::string_view s) {
  if (s == "EQ") return ComparisonDirection::kEq;
  if (s == "NE") return ComparisonDirection::kNe;
  if (s == "LT") return ComparisonDirection::kLt;
  if (s == "LE") return ComparisonDirection::kLe;
  if (s == "GT") return ComparisonDirection::kGt;
  if (s == "GE") return ComparisonDirection::kGe;
  return std::nullopt;
}

std::string_view FusionKindName(FusionKind k) {
  switch (k) {
    case FusionKind::kLoop: return "kLoop";
    case FusionKind::kInput: return "kInput";
    case FusionKind::kOutput: return "kOutput";
    case FusionKind::kCustom: return "kCustom";
  }
  return "kLoop";
}

std::optional<FusionKind> FusionKindFromName(std::string_view s) {
  if (s == "kLoop") return FusionKind::kLoop;
  if (s == "kInput") return FusionKind::kInput;
  if (s == "kOutput") return FusionKind::kOutput;
  if (s == "kCustom") return FusionKind::kCustom;
  return std::nullopt;
}

namespace {
std::string JoinX(const std::vector<WindowDim>& dims, int64_t WindowDim::*field) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(dims[i].*field);
  }
  return s;
}
bool AnyNot(const std::vector<WindowDim>& dims, int64_t WindowDim::*field, int64_t dflt) {
  return std::any_of(dims.begin(), dims.end(), [&](const WindowDim& d) { return d.*field != dflt; });
}
}  // namespace

std::string WindowToString(const Window& w) {
  if (w.dims.empty()) return "{}";
  std::string s = "{size=" + JoinX(w.dims, &WindowDim::size);
  if (AnyNot(w.dims, &WindowDim::stride, 1)) s += " stride=" + JoinX(w.dims, &WindowDim::stride);
  if (AnyNot(w.dims, &WindowDim::pad_lo, 0) || AnyNot(w.dims, &WindowDim::pad_hi, 0)) {
    s += " pad=";
    for (size_t i = 0; i < w.dims.size(); ++i) {
      if (i) s += 'x';
      s += std::to_string(w.dims[i].pad_lo) + "_" + std::to_string(w.dims[i].pad_hi);
    }
  }
  if (AnyNot(w.dims, &WindowDim::base_dilation, 1))
    s += " lhs_dilate=" + JoinX(w.dims, &WindowDim::base_dilation);
  if (AnyNot(w.dims, &WindowDim::window_dilation, 1))
    s += " rhs_dilate=" + JoinX(w.dims, &WindowDim::window_dilation);
  if (std::any_of(w.dims.begin(), w.dims.end(), [](const WindowDim& d) { return d.reversal; })) {
    s += " rhs_reversal=";
    for (size_t i = 0; i < w.dims.size(); ++i) {
      if (i) s += 'x';
      s += w.dims[i].reversal ? '1' : '0';
    }
  }
  s += '}';
  return s;
}

namespace {
std::string Labels(int64_t a, char ca, int64_t b, char cb, const std::vector<int64_t>& spatial) {
  int rank = static_cast<int>(spatial.size()) + 2;
  std::string s(rank, '?');
  if (a >= 0 && a < rank) s[a] = ca;
  if (b >= 0 && b < rank) s[b] = cb;
  for (size_t i = 0; i < spatial.size(); ++i)
    if (spatial[i] >= 0 && spatial[i] < rank) s[spatial[i]] = static_cast<char>('0' + i);
  return s;
}
}  // namespace

std::string ConvDnumsToString(const ConvDnums& d, int) {
  return Labels(d.input_batch, 'b', d.input_feature, 'f', d.input_spatial) + "_" +
         Labels(d.kernel_input_feature, 'i', d.kernel_output_feature, 'o', d.kernel_spatial) +
         "->" + Labels(d.output_batch, 'b', d.output_feature, 'f', d.output_spatial);
}

std::string PaddingToString(const std::vector<PadDim>& p) {
  std::string s;
  for (size_t i = 0; i < p.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(p[i].lo) + "_" + std::to_string(p[i].hi);
    if (p[i].interior) s += "_" + std::to_string(p[i].interior);
  }
  return s;
}

std::string SliceToString(const std::vector<SliceDim>& sl) {
  std::string s = "{";
  for (size_t i = 0; i < sl.size(); ++i) {
    if (i) s += ", ";
    s += "[" + std::to_string(sl[i].start) + ":" + std::to_string(sl[i].limit);
    if (sl[i].stride != 1) s += ":" + std::to_string(sl[i].stride);
    s += "]";
  }
  s += "}";
  return s;
}

std::string IntListBraced(const std::vector<int64_t>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  s += '}';
  return s;
}

}  // namespace hloscope
