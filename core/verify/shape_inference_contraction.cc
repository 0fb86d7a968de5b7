// Contractions and linear algebra: dot (general dimension numbers with batch
// dimensions), ragged-dot, scaled-dot, convolution (dim_labels, window,
// feature and batch group counts), fft, triangular-solve and cholesky.
//
// As in XLA, the result element type of dot and convolution is the declared
// one (`preferred_element_type`): accumulating bf16 into f32 or s8 into s32
// is legal. Without a declared shape it is the wider operand type.
#include <algorithm>

#include "core/ir/ragged_dot.h"
#include "core/verify/shape_inference_internal.h"

namespace hloscope::infer {
namespace {

std::string DotSide(bool lhs) { return lhs ? "lhs" : "rhs"; }

// The result element type of a contraction of `a` and `b`: the declared
// one, else XLA's HigherPrecisionType of the operands.
PrimitiveType ContractionType(const Instruction& instr, const Shape& a, const Shape& b) {
  if (HasDeclaredShape(instr) && instr.shape().IsArray()) return instr.shape().element_type();
  return HigherPrecisionType(a.element_type(), b.element_type());
}

Status CheckDotDims(const Shape& lhs, const Shape& rhs, const DotDnums& d) {
  auto check_side = [](const Shape& s, const std::vector<int64_t>& contracting,
                       const std::vector<int64_t>& batch, bool is_lhs) -> Status {
    if (s.rank() <= 64) {  // the common case, without allocating
      uint64_t seen = 0;
      bool repeated = false;
      for (const std::vector<int64_t>* list : {&contracting, &batch})
        for (int64_t x : *list) {
          if (x < 0 || x >= s.rank()) break;  // worded below
          repeated = repeated || (seen >> x & 1);
          seen |= uint64_t{1} << x;
        }
      bool in_range = true;
      for (const std::vector<int64_t>* list : {&contracting, &batch})
        for (int64_t x : *list) in_range = in_range && x >= 0 && x < s.rank();
      if (in_range && !repeated) return Status::Ok();
    }
    std::vector<int64_t> all = contracting;
    all.insert(all.end(), batch.begin(), batch.end());
    for (int64_t x : all)
      if (x < 0 || x >= s.rank())
        return Fail(DotSide(is_lhs) + " dimension " + std::to_string(x) +
                    " in the dot dimension numbers is out of "
                    "range for " +
                    Str(s));
    if (!AllUnique(all))
      return Fail(DotSide(is_lhs) + " dimensions " + IntList(all) +
                  " repeat a dimension (contracting and batch dimensions must be distinct)");
    return Status::Ok();
  };
  RETURN_IF_ERROR(check_side(lhs, d.lhs_contracting, d.lhs_batch, true));
  RETURN_IF_ERROR(check_side(rhs, d.rhs_contracting, d.rhs_batch, false));
  if (d.lhs_contracting.size() != d.rhs_contracting.size())
    return Fail("lhs_contracting_dims=" + IntList(d.lhs_contracting) +
                " and rhs_contracting_dims=" + IntList(d.rhs_contracting) + " must have the same length");
  for (size_t i = 0; i < d.lhs_contracting.size(); ++i) {
    int64_t l = lhs.dim(static_cast<int>(d.lhs_contracting[i])),
            r = rhs.dim(static_cast<int>(d.rhs_contracting[i]));
    if (!DimsCompatible(l, r))
      return Fail("contracting dimension " + std::to_string(d.lhs_contracting[i]) + " of the lhs " +
                  Str(lhs) + " has size " + std::to_string(l) + " but contracting dimension " +
                  std::to_string(d.rhs_contracting[i]) + " of the rhs " + Str(rhs) + " has size " +
                  std::to_string(r));
  }
  if (d.lhs_batch.size() != d.rhs_batch.size())
    return Fail("lhs_batch_dims=" + IntList(d.lhs_batch) + " and rhs_batch_dims=" + IntList(d.rhs_batch) +
                " must have the same length");
  for (size_t i = 0; i < d.lhs_batch.size(); ++i) {
    int64_t l = lhs.dim(static_cast<int>(d.lhs_batch[i])), r = rhs.dim(static_cast<int>(d.rhs_batch[i]));
    if (!DimsCompatible(l, r))
      return Fail("batch dimension " + std::to_string(d.lhs_batch[i]) + " of the lhs " + Str(lhs) +
                  " has size " + std::to_string(l) + " but batch dimension " +
                  std::to_string(d.rhs_batch[i]) + " of the rhs " + Str(rhs) + " has size " +
                  std::to_string(r));
  }
  return Status::Ok();
}

// Batch dimensions, then lhs free dimensions, then rhs free dimensions
// (skipping `rhs_skip`, ragged-dot's group dimension).
void DotResultDims(const Shape& lhs, const Shape& rhs, const DotDnums& d, std::vector<int64_t>& dims,
                   std::vector<bool>& dynamic, const std::vector<int64_t>& rhs_skip = {}) {
  for (int64_t b : d.lhs_batch) {
    dims.push_back(lhs.dim(static_cast<int>(b)));
    dynamic.push_back(lhs.IsDynamicDim(static_cast<int>(b)));
  }
  for (int i = 0; i < lhs.rank(); ++i)
    if (!Contains(d.lhs_contracting, i) && !Contains(d.lhs_batch, i)) {
      dims.push_back(lhs.dim(i));
      dynamic.push_back(lhs.IsDynamicDim(i));
    }
  for (int i = 0; i < rhs.rank(); ++i)
    if (!Contains(d.rhs_contracting, i) && !Contains(d.rhs_batch, i) && !Contains(rhs_skip, i)) {
      dims.push_back(rhs.dim(i));
      dynamic.push_back(rhs.IsDynamicDim(i));
    }
}

const DotDnums& DotDimsOf(const Instruction& instr) {
  static const DotDnums kNone;
  return instr.attrs().dot ? *instr.attrs().dot : kNone;
}

StatusOr<Shape> InferDot(const Instruction& instr, int lhs_i, int rhs_i) {
  RETURN_IF_ERROR(ExpectArrayOperand(instr, lhs_i, "lhs"));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, rhs_i, "rhs"));
  const Shape& lhs = instr.operand(lhs_i)->shape();
  const Shape& rhs = instr.operand(rhs_i)->shape();
  const DotDnums& d = DotDimsOf(instr);
  RETURN_IF_ERROR(CheckDotDims(lhs, rhs, d));
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  dims.reserve(static_cast<size_t>(lhs.rank() + rhs.rank()));
  DotResultDims(lhs, rhs, d, dims, dynamic);
  const PrimitiveType type = ContractionType(instr, lhs, rhs);
  return MakeArray(type, std::move(dims), dynamic);
}

StatusOr<Shape> InferRaggedDot(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 3));
  for (int i = 0; i < 3; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
  const Shape& lhs = instr.operand(0)->shape();
  const Shape& rhs = instr.operand(1)->shape();
  const Shape& groups = instr.operand(2)->shape();
  const DotDnums& d = DotDimsOf(instr);
  RETURN_IF_ERROR(CheckDotDims(lhs, rhs, d));
  auto ragged = RawInts(instr, "lhs_ragged_dims").value_or(std::vector<int64_t>{});
  if (ragged.size() != 1) return Fail("ragged-dot needs exactly one lhs ragged dimension (lhs_ragged_dims=)");
  const int64_t rd = ragged[0];
  if (rd < 0 || rd >= lhs.rank())
    return Fail("lhs ragged dimension " + std::to_string(rd) + " is out of range for " + Str(lhs));
  const std::optional<RaggedDotDims> rdims = RaggedDotDimsOf(instr);
  if (!rdims) return Fail("ragged-dot needs exactly one lhs ragged dimension (lhs_ragged_dims=)");
  const std::vector<int64_t>& group_dims = rdims->rhs_group;
  const RaggedDotMode mode = rdims->mode;
  // group_sizes is [g] or [p..., g], p the lhs dimensions RaggedDotDims names.
  const std::vector<int64_t>& prefix = rdims->group_prefix;
  if (groups.rank() == 0) return Fail(Operand(instr, 2) + ", the group sizes, must have rank at least 1");
  if (groups.rank() != 1) {
    if (groups.rank() != static_cast<int>(prefix.size()) + 1)
      return Fail(Operand(instr, 2) + ", the group sizes, has shape " + Str(groups) + " but rank " +
                  std::to_string(prefix.size() + 1) + " was expected");
    for (size_t i = 0; i < prefix.size(); ++i)
      if (groups.dim(static_cast<int>(i)) != lhs.dim(static_cast<int>(prefix[i])))
        return Fail(Operand(instr, 2) + ", the group sizes, has shape " + Str(groups) +
                    " whose leading dimensions do not match the lhs " + Str(lhs));
  }
  const int64_t num_groups = groups.dim(groups.rank() - 1);
  for (int64_t g : group_dims) {
    if (g < 0 || g >= rhs.rank())
      return Fail("rhs group dimension " + std::to_string(g) + " is out of range");
    if (Contains(d.rhs_batch, g) || Contains(d.rhs_contracting, g))
      return Fail("rhs group dimension " + std::to_string(g) + " cannot be a batch or contracting dimension");
  }
  if (mode == RaggedDotMode::kNonContracting) {
    if (group_dims.size() != 1)
      return Fail("ragged-dot with a ragged non-contracting dimension needs exactly one rhs group dimension");
    if (!DimsCompatible(num_groups, rhs.dim(static_cast<int>(group_dims[0]))))
      return Fail("rhs group dimension " + std::to_string(group_dims[0]) + " of " + Str(rhs) + " has size " +
                  std::to_string(rhs.dim(static_cast<int>(group_dims[0]))) + " but there are " +
                  std::to_string(num_groups) + " groups");
  } else if (!group_dims.empty()) {
    return Fail("ragged-dot with a ragged batch or contracting dimension takes no rhs group dimension");
  }
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  if (mode == RaggedDotMode::kContracting) {
    dims.push_back(num_groups);
    dynamic.push_back(groups.IsDynamicDim(groups.rank() - 1));
  }
  DotResultDims(lhs, rhs, d, dims, dynamic, group_dims);
  const PrimitiveType type = ContractionType(instr, lhs, rhs);
  return MakeArray(type, std::move(dims), dynamic);
}

StatusOr<Shape> InferConvolution(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0, "input"));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 1, "kernel"));
  const Shape& lhs = instr.operand(0)->shape();
  const Shape& rhs = instr.operand(1)->shape();
  const Attrs& a = instr.attrs();
  if (!a.conv) return Fail("convolution needs dim_labels=");
  const ConvDnums& d = *a.conv;
  const int64_t fgc = a.feature_group_count, bgc = a.batch_group_count;
  if (fgc <= 0) return Fail("feature_group_count=" + std::to_string(fgc) + " must be positive");
  if (bgc <= 0) return Fail("batch_group_count=" + std::to_string(bgc) + " must be positive");
  if (fgc > 1 && bgc > 1) return Fail("feature_group_count and batch_group_count cannot both exceed 1");
  static const Window kNoWindow;
  const Window& window = a.window ? *a.window : kNoWindow;
  const int spatial = static_cast<int>(d.input_spatial.size());
  if (static_cast<int>(window.dims.size()) != spatial)
    return Fail("the window has " + std::to_string(window.dims.size()) +
                " dimension(s) but dim_labels name " + std::to_string(spatial) + " spatial dimension(s)");
  const int rank = spatial + 2;
  if (lhs.rank() != rank)
    return Fail(Operand(instr, 0) + ", the input, has shape " + Str(lhs) + " but dim_labels need rank " +
                std::to_string(rank));
  if (rhs.rank() != rank)
    return Fail(Operand(instr, 1) + ", the kernel, has shape " + Str(rhs) + " but dim_labels need rank " +
                std::to_string(rank));
  const int64_t in_features = lhs.dim(static_cast<int>(d.input_feature));
  const int64_t batch = lhs.dim(static_cast<int>(d.input_batch));
  const int64_t k_in = rhs.dim(static_cast<int>(d.kernel_input_feature));
  const int64_t k_out = rhs.dim(static_cast<int>(d.kernel_output_feature));
  if (k_out % bgc != 0)
    return Fail("the kernel's output feature dimension (" + std::to_string(k_out) +
                ") must be a multiple of batch_group_count=" + std::to_string(bgc));
  if (in_features % fgc != 0 || in_features / fgc != k_in)
    return Fail("the input feature dimension (" + std::to_string(in_features) + " in " + Str(lhs) +
                ") divided by feature_group_count=" + std::to_string(fgc) +
                " must equal the kernel's input feature dimension (" + std::to_string(k_in) + " in " +
                Str(rhs) + ")");
  if (k_out % fgc != 0)
    return Fail("the kernel's output feature dimension (" + std::to_string(k_out) +
                ") must be a multiple of feature_group_count=" + std::to_string(fgc));
  if (batch % bgc != 0)
    return Fail("the input batch dimension (" + std::to_string(batch) +
                ") must be a multiple of batch_group_count=" + std::to_string(bgc));
  std::vector<int64_t> in_spatial(spatial);
  std::vector<bool> in_spatial_dyn(spatial);
  for (int i = 0; i < spatial; ++i) {
    int64_t kd = rhs.dim(static_cast<int>(d.kernel_spatial[i]));
    if (kd != window.dims[i].size)
      return Fail("kernel spatial dimension " + std::to_string(i) + " of " + Str(rhs) + " has size " +
                  std::to_string(kd) + " but the window size is " + std::to_string(window.dims[i].size));
    in_spatial[i] = lhs.dim(static_cast<int>(d.input_spatial[i]));
    in_spatial_dyn[i] = IsUnbounded(lhs, static_cast<int>(d.input_spatial[i]));
  }
  ASSIGN_OR_RETURN(Shape win, WindowOutputShape(MakeArray(lhs.element_type(), in_spatial, in_spatial_dyn),
                                                window, lhs.element_type()));
  std::vector<int64_t> dims(rank);
  std::vector<bool> dynamic(rank, false);
  dims[d.output_batch] = batch / bgc;
  dims[d.output_feature] = k_out;
  for (int i = 0; i < spatial; ++i) dims[d.output_spatial[i]] = win.dim(i);
  dynamic[d.output_batch] = lhs.IsDynamicDim(static_cast<int>(d.input_batch));
  for (int i = 0; i < spatial; ++i)
    dynamic[d.output_spatial[i]] = lhs.IsDynamicDim(static_cast<int>(d.input_spatial[i])) ||
                                   rhs.IsDynamicDim(static_cast<int>(d.kernel_spatial[i]));
  if (rhs.IsDynamicDim(static_cast<int>(d.kernel_output_feature)))
    return Fail("a dynamic kernel output feature dimension is not supported (" + Str(rhs) + ")");
  const PrimitiveType type = ContractionType(instr, lhs, rhs);
  return MakeArray(type, std::move(dims), dynamic);
}

StatusOr<Shape> InferFft(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& in = instr.operand(0)->shape();
  std::string type = RawValue(instr, "fft_type");
  auto len = RawInts(instr, "fft_length").value_or(std::vector<int64_t>{});
  const int n = static_cast<int>(len.size());
  if (n < 1 || n > 3) return Fail("fft_length=" + IntList(len) + " must have 1 to 3 entries");
  if (in.rank() < n)
    return Fail("an fft of rank " + std::to_string(n) + " needs an operand of at least that rank, got " +
                Str(in));
  const PrimitiveType t = in.element_type();
  if (type == "FFT" || type == "IFFT") {
    if (!IsComplex(t)) return Fail(type + " needs a complex operand, got " + Str(in));
    return NoLayout(in);
  }
  if (type == "RFFT") {
    if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64)
      return Fail("RFFT needs an f32 or f64 operand, got " + Str(in));
    for (int i = 0; i < n; ++i) {
      int dim = in.rank() - n + i;
      if (!IsUnbounded(in, dim) && in.dim(dim) != len[i])
        return Fail("RFFT needs the innermost dimensions of " + Str(in) +
                    " to match fft_length=" + IntList(len));
    }
    Shape r = WithType(in, t == PrimitiveType::kF32 ? PrimitiveType::kC64 : PrimitiveType::kC128);
    if (len[n - 1] != 0) r.mutable_dims()[r.rank() - 1] = len[n - 1] / 2 + 1;
    return r;
  }
  if (type == "IRFFT") {
    if (!IsComplex(t)) return Fail("IRFFT needs a complex operand, got " + Str(in));
    for (int i = 0; i + 1 < n; ++i)
      if (in.dim(in.rank() - n + i) != len[i])
        return Fail("IRFFT needs all but the innermost of the last dimensions of " + Str(in) +
                    " to match fft_length=" + IntList(len));
    int64_t last = in.dim(in.rank() - 1);
    if ((last != 0 || len[n - 1] != 0) && !IsUnbounded(in, in.rank() - 1) && last != len[n - 1] / 2 + 1)
      return Fail("IRFFT needs the innermost dimension of " + Str(in) +
                  " to be fft_length/2+1 = " + std::to_string(len[n - 1] / 2 + 1));
    Shape r = WithType(in, ComplexComponentType(t));
    r.mutable_dims()[r.rank() - 1] = len[n - 1];
    return r;
  }
  return Fail("unknown fft_type '" + type + "' (FFT, IFFT, RFFT or IRFFT)");
}

StatusOr<Shape> InferTriangularSolve(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 1));
  const Shape& a = instr.operand(0)->shape();
  const Shape& b = instr.operand(1)->shape();
  if ((!IsFloat(a.element_type()) && !IsComplex(a.element_type())) || a.element_type() != b.element_type())
    return Fail("triangular-solve needs identical floating-point or complex operand types, got " + Str(a) +
                " and " + Str(b));
  if (a.rank() < 2) return Fail("triangular-solve needs 'a' of rank at least 2, got " + Str(a));
  if (b.rank() != a.rank())
    return Fail("triangular-solve needs operands of equal rank, got " + Str(a) + " and " + Str(b));
  const int r = a.rank();
  if (!DimsCompatible(a.dim(r - 2), a.dim(r - 1)))
    return Fail("triangular-solve needs a square 'a', got " + Str(a));
  const bool left = RawValue(instr, "left_side") == "true";
  if (!DimsCompatible(a.dim(r - 1), b.dim(left ? r - 2 : r - 1)))
    return Fail("the shared dimension of 'a' " + Str(a) + " and 'b' " + Str(b) + " does not match");
  for (int i = 0; i + 2 < r; ++i)
    if (a.dim(i) != b.dim(i))
      return Fail("triangular-solve needs equal batch dimensions, got " + Str(a) + " and " + Str(b));
  return NoLayout(b);
}

StatusOr<Shape> InferCholesky(const Instruction& instr) {
  RETURN_IF_ERROR(ExpectOperandCount(instr, 1));
  RETURN_IF_ERROR(ExpectArrayOperand(instr, 0));
  const Shape& a = instr.operand(0)->shape();
  if (!IsFloat(a.element_type()) && !IsComplex(a.element_type()))
    return Fail("cholesky needs a floating-point or complex operand, got " + Str(a));
  if (a.rank() < 2) return Fail("cholesky needs an operand of rank at least 2, got " + Str(a));
  if (!DimsCompatible(a.dim(a.rank() - 2), a.dim(a.rank() - 1)))
    return Fail("cholesky needs square matrices, got " + Str(a));
  return NoLayout(a);
}

// XLA's ScalesShapeVerifier: a scale has its operand's rank and divides each
// of its dimensions (one scale per block), and the operand has one
// contracting dimension; a bf16 scale of ones ([] or [1,...,1]) of a bf16
// operand is a placeholder for no scale and is not checked.
Status CheckScale(const Instruction& instr, int operand, int scale) {
  const Shape& x = instr.operand(operand)->shape();
  const Shape& s = instr.operand(scale)->shape();
  bool all_ones = true, operand_ones = true;
  for (int64_t d : s.dims()) all_ones = all_ones && d == 1;
  for (int64_t d : x.dims()) operand_ones = operand_ones && d == 1;
  if (x.element_type() == PrimitiveType::kBF16 && s.element_type() == PrimitiveType::kBF16 && all_ones &&
      !operand_ones)
    return Status::Ok();
  const std::string side = operand == 0 ? "lhs" : "rhs";
  if (s.rank() != x.rank())
    return Fail(Operand(instr, scale) + ", the " + side + " scale, has shape " + Str(s) + " but the " + side +
                " is " + Str(x) + ": a scale has its operand's rank");
  const DotDnums& d = DotDimsOf(instr);
  if ((operand == 0 ? d.lhs_contracting : d.rhs_contracting).size() != 1)
    return Fail("a scaled " + side + " needs exactly one contracting dimension");
  for (int i = 0; i < x.rank(); ++i)
    if (s.dim(i) == 0 ? x.dim(i) != 0 : s.dim(i) < 0 || x.dim(i) % s.dim(i) != 0)
      return Fail("dimension " + std::to_string(i) + " of the " + side + " " + Str(x) +
                  " is not a multiple of the same dimension of its scale " + Str(s));
  return Status::Ok();
}

}  // namespace

StatusOr<Shape> InferContraction(const Instruction& instr) {
  switch (instr.opcode()) {
    case Opcode::kDot:
      RETURN_IF_ERROR(ExpectOperandCount(instr, 2));
      return InferDot(instr, 0, 1);
    case Opcode::kScaledDot:
      // scaled-dot(lhs, rhs, lhs_scale, rhs_scale): the shape of dot(lhs, rhs).
      RETURN_IF_ERROR(ExpectOperandCount(instr, 4));
      for (int i = 0; i < 4; ++i) RETURN_IF_ERROR(ExpectArrayOperand(instr, i));
      RETURN_IF_ERROR(CheckScale(instr, 0, 2));
      RETURN_IF_ERROR(CheckScale(instr, 1, 3));
      if (instr.operand(2)->shape().rank() == 0 && instr.operand(3)->shape().rank() == 0)
        return Fail("at least one of the scales of a scaled-dot must not be a scalar");
      return InferDot(instr, 0, 1);
    case Opcode::kRaggedDot:
      return InferRaggedDot(instr);
    case Opcode::kConvolution:
      return InferConvolution(instr);
    case Opcode::kFft:
      return InferFft(instr);
    case Opcode::kTriangularSolve:
      return InferTriangularSolve(instr);
    case Opcode::kCholesky:
      return InferCholesky(instr);
    default:
      return Fail("no contraction shape rule for " + Op(instr));
  }
}

}  // namespace hloscope::infer
