// Typed attributes of HLO instructions, and their HLO text forms.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hloscope {

struct SliceDim {
  int64_t start = 0, limit = 0, stride = 1;
  bool operator==(const SliceDim&) const = default;
};

struct PadDim {
  int64_t lo = 0, hi = 0, interior = 0;
  bool operator==(const PadDim&) const = default;
};

struct WindowDim {
  int64_t size = 1, stride = 1, pad_lo = 0, pad_hi = 0, base_dilation = 1, window_dilation = 1;
  bool reversal = false;
  bool operator==(const WindowDim&) const = default;
};

struct Window {
  std::vector<WindowDim> dims;
  bool operator==(const Window&) const = default;
};

struct ConvDnums {
  int64_t input_batch = 0, input_feature = 1;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0, kernel_output_feature = 1;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0, output_feature = 1;
  std::vector<int64_t> output_spatial;
  bool operator==(const ConvDnums&) const = default;
};

struct DotDnums {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_contracting, rhs_contracting;
  bool operator==(const DotDnums&) const = default;
};

struct GatherDnums {
  std::vector<int64_t> offset_dims, collapsed_slice_dims, start_index_map;
  std::vector<int64_t> operand_batching_dims, start_indices_batching_dims;
  int64_t index_vector_dim = 0;
  bool operator==(const GatherDnums&) const = default;
};

struct ScatterDnums {
  std::vector<int64_t> update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims;
  std::vector<int64_t> input_batching_dims, scatter_indices_batching_dims;
  int64_t index_vector_dim = 0;
  bool operator==(const ScatterDnums&) const = default;
};

enum class ComparisonDirection { kEq, kNe, kLt, kLe, kGt, kGe };
std::string_view DirectionName(ComparisonDirection d);
std::optional<ComparisonDirection> DirectionFromName(std::string_view s);

enum class FusionKind { kLoop, kInput, kOutput, kCustom };
std::string_view FusionKindName(FusionKind k);
std::optional<FusionKind> FusionKindFromName(std::string_view s);

// The typed attributes an instruction may carry. `present` says which were
// given (or set), so the printer writes exactly those.
enum class Attr : int {
  kDimensions,
  kSlice,
  kDynamicSliceSizes,
  kPadding,
  kWindow,
  kDimLabels,
  kFeatureGroupCount,
  kBatchGroupCount,
  kDotDims,
  kGatherDims,
  kSliceSizes,
  kScatterDims,
  kIndicesAreSorted,
  kUniqueIndices,
  kDirection,
  kCompareType,
  kIotaDimension,
  kFusionKind,
  kIndex,
  kExponentBits,
  kMantissaBits,
  kIsStable,
  kCustomCallTarget,
  kCount
};

struct Attrs {
  uint32_t present = 0;
  bool has(Attr a) const { return present & (1u << static_cast<int>(a)); }
  void mark(Attr a) { present |= (1u << static_cast<int>(a)); }
  void clear(Attr a) { present &= ~(1u << static_cast<int>(a)); }

  std::vector<int64_t> dimensions;
  std::vector<SliceDim> slice;
  std::vector<int64_t> dynamic_slice_sizes;  // also gather's slice_sizes
  std::vector<PadDim> padding;
  std::unique_ptr<Window> window;
  std::unique_ptr<ConvDnums> conv;
  int64_t feature_group_count = 1, batch_group_count = 1;
  std::unique_ptr<DotDnums> dot;
  std::unique_ptr<GatherDnums> gather;
  std::unique_ptr<ScatterDnums> scatter;
  bool indices_are_sorted = false, unique_indices = false;
  ComparisonDirection direction = ComparisonDirection::kEq;
  std::string compare_type;  // FLOAT, TOTALORDER, SIGNED, UNSIGNED
  int64_t iota_dimension = 0;
  FusionKind fusion_kind = FusionKind::kLoop;
  int64_t index = 0;
  int64_t exponent_bits = 0, mantissa_bits = 0;
  bool is_stable = false;
  std::string custom_call_target;

  Attrs() = default;
  Attrs(const Attrs& o) { *this = o; }
  Attrs& operator=(const Attrs& o);
  bool operator==(const Attrs& o) const;
};

// Text forms as XLA writes them.
std::string WindowToString(const Window& w);
std::string ConvDnumsToString(const ConvDnums& d, int rank_hint = -1);
std::string PaddingToString(const std::vector<PadDim>& p);
std::string SliceToString(const std::vector<SliceDim>& s);
std::string IntListBraced(const std::vector<int64_t>& v);

}  // namespace hloscope
