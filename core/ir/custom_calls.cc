#include "core/ir/custom_calls.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

namespace hloscope {

bool IsIdentityCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.operand_count() != 1) return false;
  const std::string& t = i.attrs().custom_call_target;
  if (t != "Sharding" && t != "SPMDFullToShardShape" && t != "SPMDShardToFullShape" && t != "Pin" && t != "Unpin" &&
      t != "MoveToHost" && t != "MoveToDevice" && t != "annotate_device_placement" && t != "xla.sdy.FuncResultSharding")
    return false;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  if (!in.IsArray() || !out.IsArray()) return false;
  return in.BufferElement().Compatible(out.BufferElement());
}

Opcode MathCustomCallOpcode(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.operand_count() != 1 || !i.shape().IsArray() ||
      !i.operand(0)->shape().IsArray() || i.operand(0)->shape().element_type() != i.shape().element_type() ||
      !i.operand(0)->shape().SameDims(i.shape()))
    return Opcode::kParameter;
  const std::string& t = i.attrs().custom_call_target;
  if (t == "xla_builder.math.Asinh") return Opcode::kAsinh;
  if (t == "xla_builder.math.Acosh") return Opcode::kAcosh;
  if (t == "xla_builder.math.Asin") return Opcode::kAsin;
  if (t == "xla_builder.math.Acos") return Opcode::kAcos;
  if (t == "xla_builder.math.Cosh") return Opcode::kCosh;
  if (t == "xla_builder.math.Sinh") return Opcode::kSinh;
  if (t == "xla_builder.math.Atanh") return Opcode::kAtanh;
  if (t == "xla_builder.math.Atan") return Opcode::kAtan2;  // atan(x): see the header
  return Opcode::kParameter;
}

bool IsCreateBufferCustomCall(const Instruction& i) {
  return i.opcode() == Opcode::kCustomCall && i.operand_count() == 0 &&
         i.attrs().custom_call_target == "CreateBuffer" && i.shape().IsBuffer();
}

bool IsTopKCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.attrs().custom_call_target != "TopK" || i.operand_count() != 1) return false;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  if (!in.IsArray() || in.rank() < 1 || !out.IsTuple() || out.tuple_size() != 2) return false;
  const Shape& values = out.tuple_shapes()[0];
  const Shape& indices = out.tuple_shapes()[1];
  if (!values.IsArray() || !indices.IsArray() || values.element_type() != in.element_type() ||
      indices.element_type() != PrimitiveType::kS32 || values.rank() != in.rank() || !values.SameDims(indices))
    return false;
  for (int d = 0; d + 1 < in.rank(); ++d)
    if (values.dim(d) != in.dim(d)) return false;
  return values.dim(in.rank() - 1) <= in.dim(in.rank() - 1);
}

namespace {

// The cuDNN convolution's backend_config asks for nothing beyond the
// convolution: result scale 1, no side input, no activation.
bool PlainConvBackendConfig(const Instruction& i) {
  const RawAttr* raw = i.FindRaw("backend_config");
  if (!raw) return true;
  nlohmann::json j = nlohmann::json::parse(raw->value, nullptr, /*allow_exceptions=*/false);
  if (j.is_string()) j = nlohmann::json::parse(j.get<std::string>(), nullptr, false);  // backend_config="{...}"
  if (j.is_discarded() || !j.is_object()) return false;
  auto it = j.find("cudnn_conv_backend_config");
  if (it == j.end()) return true;
  if (!it->is_object()) return false;
  auto number = [&](const char* key, double want) {
    auto f = it->find(key);
    if (f == it->end()) return true;
    if (f->is_number()) return f->get<double>() == want;
    if (f->is_string()) return f->get<std::string>() == (want == 0 ? "0" : "1");
    return false;
  };
  auto act = it->find("activation_mode");
  bool no_activation = act == it->end() || (act->is_string() && act->get<std::string>() == "kNone");
  return no_activation && number("conv_result_scale", 1) && number("side_input_scale", 0);
}

}  // namespace

bool IsCudnnConvCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || i.attrs().custom_call_target != kCudnnConvForwardTarget ||
      i.operand_count() != 2 || !i.attrs().conv || !i.attrs().window)
    return false;
  const Shape& out = i.shape();
  if (!out.IsTuple() || out.tuple_size() != 2 || !out.tuple_shapes()[0].IsArray() || !out.tuple_shapes()[1].IsArray() ||
      out.tuple_shapes()[1].element_type() != PrimitiveType::kU8 || out.tuple_shapes()[1].rank() != 1)
    return false;
  if (!i.operand(0)->shape().IsArray() || !i.operand(1)->shape().IsArray()) return false;
  return PlainConvBackendConfig(i);
}

const Shape& ConvolutionResultShape(const Instruction& i) {
  return IsCudnnConvCustomCall(i) ? i.shape().tuple_shapes()[0] : i.shape();
}

bool IsLuPivotsToPermutationCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall) return false;
  const std::string& t = i.attrs().custom_call_target;
  if (t != "cu_lu_pivots_to_permutation" && t != "hip_lu_pivots_to_permutation") return false;
  if (i.operand_count() != 1 || !i.shape().IsArray()) return false;
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  if (!in.IsArray() || in.rank() < 1 || out.rank() != in.rank() || in.element_type() != PrimitiveType::kS32 ||
      out.element_type() != PrimitiveType::kS32)
    return false;
  for (int d = 0; d + 1 < in.rank(); ++d)
    if (in.dim(d) != out.dim(d)) return false;
  return true;
}

bool IsExternalCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall || IsIdentityCustomCall(i) || MathCustomCallOpcode(i) != Opcode::kParameter ||
      IsCreateBufferCustomCall(i) || IsTopKCustomCall(i) || IsCudnnConvCustomCall(i))
    return false;
  if (IsLuPivotsToPermutationCall(i)) return false;
  std::optional<LinalgCall> call = LinalgCustomCall(i);
  return !call;
}

}  // namespace hloscope

namespace hloscope {
namespace {

// `key = value` of a backend_config dictionary ("{uplo = 76 : ui8, lower =
// true}"): the value's first token, or "" when the key is absent.
std::string DictValue(std::string_view dict, std::string_view key) {
  size_t at = 0;
  while ((at = dict.find(key, at)) != std::string_view::npos) {
    const bool starts = at == 0 || dict[at - 1] == '{' || dict[at - 1] == ' ' || dict[at - 1] == ',';
    size_t p = at + key.size();
    while (p < dict.size() && dict[p] == ' ') ++p;
    if (starts && p < dict.size() && dict[p] == '=') {
      ++p;
      while (p < dict.size() && dict[p] == ' ') ++p;
      size_t e = p;
      while (e < dict.size() && dict[e] != ' ' && dict[e] != ',' && dict[e] != '}' && dict[e] != ':') ++e;
      return std::string(dict.substr(p, e - p));
    }
    at += key.size();
  }
  return "";
}

// A LAPACK character option, written as its code (76 for 'L').
char Code(const std::string& v) {
  if (v.empty()) return 0;
  if (v.size() == 1 && !(v[0] >= '0' && v[0] <= '9')) return v[0];
  int c = 0;
  for (char d : v) {
    if (d < '0' || d > '9') return 0;
    c = c * 10 + (d - '0');
  }
  return static_cast<char>(c);
}

bool TypedLapack(std::string_view t, std::string_view routine) {  // lapack_{s,d,c,z}<routine>_ffi
  const std::string tail = std::string(routine) + "_ffi";
  return t.size() == 8 + tail.size() && t.substr(0, 7) == "lapack_" && std::string_view("sdcz").find(t[7]) != std::string_view::npos &&
         t.substr(8) == tail;
}

}  // namespace

double EighTolerance(PrimitiveType t, int64_t n) {
  // n ulps of the element type: the rounding a stored rotation leaves in a
  // column's products stays under it, so the sweeps end.
  const double eps = t == PrimitiveType::kF64 || t == PrimitiveType::kC128 ? 0x1p-52 : 0x1p-23;
  return static_cast<double>(std::max<int64_t>(n, 1)) * eps;
}

std::optional<SvdShapes> GesvdShapes(const Instruction& i, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<SvdShapes> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 5)
    return fail("needs one operand and results (a, s, u, vt, info)");
  const Shape& a = i.operand(0)->shape();
  const int r = a.rank();
  if (r < 2) return fail("needs matrices in the last two dimensions");
  SvdShapes s;
  s.m = a.dim(r - 2);
  s.n = a.dim(r - 1);
  s.k = std::min(s.m, s.n);
  const std::vector<int64_t> batch(a.dims().begin(), a.dims().end() - 2);
  for (int64_t d : batch) s.batches *= d;
  const auto& ts = i.shape().tuple_shapes();
  auto dims = [&](std::initializer_list<int64_t> tail) {
    std::vector<int64_t> d = batch;
    d.insert(d.end(), tail);
    return d;
  };
  const PrimitiveType t = a.element_type();
  const PrimitiveType real = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : t == PrimitiveType::kC128 ? PrimitiveType::kF64 : t;
  if (ts[0].dims() != a.dims() || ts[0].element_type() != t) return fail("needs a first result shaped as a");
  if (ts[1].dims() != dims({s.k}) || ts[1].element_type() != real)
    return fail("needs min(m, n) real singular values per matrix");
  const Shape& u = ts[2];
  const Shape& vt = ts[3];
  if (u.element_type() != t || vt.element_type() != t || u.rank() != r || vt.rank() != r)
    return fail("needs U and V of the matrix type");
  const std::string& target = i.attrs().custom_call_target;
  s.v_transposed = target.find("gesvdj") == std::string::npos;
  s.u_cols = u.dim(r - 1);
  s.vt_rows = s.v_transposed ? vt.dim(r - 2) : vt.dim(r - 1);
  if (u.dims() != dims({s.m, s.u_cols}) || (s.u_cols != s.m && s.u_cols != s.k))
    return fail("needs U of m×m or m×min(m, n) per matrix");
  if (vt.dims() != (s.v_transposed ? dims({s.vt_rows, s.n}) : dims({s.n, s.vt_rows})) ||
      (s.vt_rows != s.n && s.vt_rows != s.k))
    return fail(s.v_transposed ? "needs Vᵀ of n×n or min(m, n)×n per matrix" : "needs V of n×n or n×min(m, n) per matrix");
  if (!IsInteger(ts[4].element_type()) || ts[4].dims() != batch) return fail("needs an integer info per matrix");
  return s;
}

namespace {

// The square matrices of a call's operand: the last two dims n×n, the rest
// the batch; and the dims of a per-matrix vector of n (batch, n).
struct SquareMatrices {
  int64_t n = 0, batches = 1;
  std::vector<int64_t> batch, vector_dims;
};
std::optional<SquareMatrices> SquareMatricesOf(const Shape& a) {
  const int r = a.rank();
  if (r < 2 || a.dim(r - 1) != a.dim(r - 2)) return std::nullopt;
  SquareMatrices m;
  m.n = a.dim(r - 1);
  m.batch.assign(a.dims().begin(), a.dims().end() - 2);
  for (int64_t d : m.batch) m.batches *= d;
  m.vector_dims = m.batch;
  m.vector_dims.push_back(m.n);
  return m;
}

}  // namespace

std::optional<CondensedShapes> CondensedFormShapes(const Instruction& i, const LinalgCall& call, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<CondensedShapes> {
    if (why) *why = w;
    return std::nullopt;
  };
  CondensedShapes s;
  if (call.kind == LinalgCall::Kind::kGtsv) {
    if (i.operand_count() != 4) return fail("needs operands (dl, d, du, b)");
    const Shape& b = i.operand(3)->shape();
    const int r = b.rank();
    if (r < 2) return fail("needs right-hand sides b in the last two dimensions");
    const PrimitiveType t = b.element_type();
    s.n = b.dim(r - 2);
    s.nrhs = b.dim(r - 1);
    const std::vector<int64_t> diag(b.dims().begin(), b.dims().end() - 1);
    for (int d = 0; d < r - 2; ++d) s.batches *= b.dim(d);
    for (int k = 0; k < 3; ++k)
      if (i.operand(k)->shape().dims() != diag || i.operand(k)->shape().element_type() != t)
        return fail("needs dl, d and du of n values of b's type per system");
    s.lapack = i.shape().IsTuple();
    if (!s.lapack) {
      if (i.shape().dims() != b.dims() || i.shape().element_type() != t) return fail("needs a result shaped as b");
      return s;
    }
    if (i.shape().tuple_size() != 5) return fail("needs results (dl, d, du, b, info)");
    for (int k = 0; k < 4; ++k)
      if (i.shape().tuple_shapes()[k].dims() != i.operand(k)->shape().dims() ||
          i.shape().tuple_shapes()[k].element_type() != t)
        return fail("needs results dl, d, du and b shaped as its operands");
    const Shape& info = i.shape().tuple_shapes()[4];
    if (!IsInteger(info.element_type()) || info.num_elements() != s.batches) return fail("needs an integer info per system");
    return s;
  }
  if (i.operand_count() != 1 || !i.shape().IsTuple()) return fail("needs one operand and a tuple of results");
  const Shape& a = i.operand(0)->shape();
  std::optional<SquareMatrices> sq = SquareMatricesOf(a);
  if (!sq) return fail("needs square matrices in the last two dimensions");
  s.n = sq->n;
  s.batches = sq->batches;
  const std::vector<int64_t>& batch = sq->batch;
  auto dims = [&](int64_t tail) {
    std::vector<int64_t> d = batch;
    d.push_back(tail);
    return d;
  };
  const PrimitiveType t = a.element_type();
  const PrimitiveType real = t == PrimitiveType::kC64 ? PrimitiveType::kF32 : t == PrimitiveType::kC128 ? PrimitiveType::kF64 : t;
  const auto& ts = i.shape().tuple_shapes();
  const int64_t reflectors = std::max<int64_t>(s.n - 1, 0);
  const size_t count = call.kind == LinalgCall::Kind::kSytrd ? 5 : 3;
  if (ts.size() != count)
    return fail(call.kind == LinalgCall::Kind::kSytrd ? "needs results (a, d, e, tau, info)" : "needs results (a, tau, info)");
  if (ts[0].dims() != a.dims() || ts[0].element_type() != t) return fail("needs a first result shaped as a");
  const Shape& tau = ts[count - 2];
  if (tau.dims() != dims(reflectors) || tau.element_type() != t) return fail("needs n-1 tau values of a's type per matrix");
  if (!IsInteger(ts[count - 1].element_type()) || ts[count - 1].dims() != batch) return fail("needs an integer info per matrix");
  if (call.kind == LinalgCall::Kind::kSytrd) {
    if (ts[1].dims() != dims(s.n) || ts[1].element_type() != real) return fail("needs n real diagonal values d per matrix");
    if (ts[2].dims() != dims(reflectors) || ts[2].element_type() != real)
      return fail("needs n-1 real off-diagonal values e per matrix");
  } else {
    const int64_t high = call.high < 0 ? s.n : call.high;
    if (call.low < 1 || call.low > std::max<int64_t>(s.n, 1) || high < std::min<int64_t>(call.low, s.n) || high > s.n)
      return fail("needs 1 <= low <= high <= n (low " + std::to_string(call.low) + ", high " + std::to_string(high) + ")");
  }
  return s;
}

GeevConstants GeevParams(bool f32) {
  GeevConstants p;
  p.safmin = f32 ? 0x1p-126 : 0x1p-1022;
  p.eps = f32 ? 0x1p-24 : 0x1p-53;
  p.ulp = 2 * p.eps;
  p.sfmin1 = p.safmin / p.ulp;
  p.sfmax1 = 1 / p.sfmin1;
  p.sfmin2 = p.sfmin1 * 2;
  p.sfmax2 = 1 / p.sfmin2;
  return p;
}

std::optional<GeevShape> GeevShapes(const Instruction& i, const LinalgCall& call, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<GeevShape> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 5)
    return fail("needs one operand and five results");
  const Shape& a = i.operand(0)->shape();
  const PrimitiveType t = a.element_type();
  if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) return fail("computes real f32 or f64 matrices only");
  std::optional<SquareMatrices> sq = SquareMatricesOf(a);
  if (!sq) return fail("needs square matrices in the last two dimensions");
  GeevShape s;
  s.n = sq->n;
  s.batches = sq->batches;
  const std::vector<int64_t>& batch = sq->batch;
  const std::vector<int64_t>& vd = sq->vector_dims;
  const PrimitiveType ct = t == PrimitiveType::kF32 ? PrimitiveType::kC64 : PrimitiveType::kC128;
  const auto& ts = i.shape().tuple_shapes();
  s.lapack = ts[0].rank() == static_cast<int>(vd.size());
  if (s.lapack) {
    if (ts[0].dims() != vd || ts[1].dims() != vd || ts[0].element_type() != t || ts[1].element_type() != t)
      return fail("needs results wr and wi of n values per matrix");
    for (int k = 2; k < 4; ++k)
      if (ts[k].dims() != a.dims() || ts[k].element_type() != ct) return fail("needs complex eigenvector matrices vl and vr");
  } else {
    if (call.left) return fail("cuSOLVER's geev computes no left eigenvectors");
    if (ts[0].dims() != a.dims() || ts[0].element_type() != t || ts[1].dims() != vd || ts[1].element_type() != ct)
      return fail("needs results (a, n complex eigenvalues per matrix, vl, vr, info)");
    for (int k = 2; k < 4; ++k)
      if (ts[k].dims() != a.dims() || ts[k].element_type() != t) return fail("needs real eigenvector matrices vl and vr");
  }
  if (!IsInteger(ts[4].element_type()) || ts[4].dims() != batch) return fail("needs an integer info per matrix");
  return s;
}

std::optional<GeevShape> ComplexGeevShapes(const Instruction& i, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<GeevShape> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (i.operand_count() != 1 || !i.shape().IsTuple() || (i.shape().tuple_size() != 4 && i.shape().tuple_size() != 5))
    return fail("needs one operand and results (w, vl, vr, info), or cuSOLVER's (T, w, vl, vr, info)");
  const Shape& a = i.operand(0)->shape();
  const PrimitiveType t = a.element_type();
  if (t != PrimitiveType::kC64 && t != PrimitiveType::kC128) return fail("computes c64 or c128 matrices only");
  std::optional<SquareMatrices> sq = SquareMatricesOf(a);
  if (!sq) return fail("needs square matrices in the last two dimensions");
  GeevShape s;
  s.n = sq->n;
  s.batches = sq->batches;
  s.lapack = i.shape().tuple_size() == 4;
  const std::vector<int64_t>& batch = sq->batch;
  const std::vector<int64_t>& vd = sq->vector_dims;
  const auto& ts = i.shape().tuple_shapes();
  const int o = s.lapack ? 0 : 1;  // cuSOLVER's T comes first
  if (!s.lapack && (ts[0].dims() != a.dims() || ts[0].element_type() != t)) return fail("needs T shaped as a");
  if (ts[o].dims() != vd || ts[o].element_type() != t) return fail("needs n eigenvalues w of a's type per matrix");
  for (int k = o + 1; k < o + 3; ++k)
    if (ts[k].dims() != a.dims() || ts[k].element_type() != t) return fail("needs eigenvector matrices vl and vr shaped as a");
  if (!IsInteger(ts[o + 3].element_type()) || ts[o + 3].dims() != batch) return fail("needs an integer info per matrix");
  return s;
}

std::optional<GeevShape> GeesShapes(const Instruction& i, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<GeevShape> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 6)
    return fail("needs one operand and results (T, Z, wr, wi, sdim, info)");
  const Shape& a = i.operand(0)->shape();
  const PrimitiveType t = a.element_type();
  if (t != PrimitiveType::kF32 && t != PrimitiveType::kF64) return fail("computes real f32 or f64 matrices only");
  std::optional<SquareMatrices> sq = SquareMatricesOf(a);
  if (!sq) return fail("needs square matrices in the last two dimensions");
  GeevShape s;
  s.n = sq->n;
  s.batches = sq->batches;
  const std::vector<int64_t>& batch = sq->batch;
  const std::vector<int64_t>& vd = sq->vector_dims;
  const auto& ts = i.shape().tuple_shapes();
  for (int k = 0; k < 2; ++k)
    if (ts[k].dims() != a.dims() || ts[k].element_type() != t) return fail("needs T and Z shaped as a");
  for (int k = 2; k < 4; ++k)
    if (ts[k].dims() != vd || ts[k].element_type() != t) return fail("needs wr and wi of n values per matrix");
  for (int k = 4; k < 6; ++k)
    if (!IsInteger(ts[k].element_type()) || ts[k].dims() != batch) return fail("needs an integer sdim and info per matrix");
  return s;
}

std::optional<LinalgCall> LinalgCustomCall(const Instruction& i) {
  if (i.opcode() != Opcode::kCustomCall) return std::nullopt;
  const std::string& t = i.attrs().custom_call_target;
  const RawAttr* bc = i.FindRaw("backend_config");
  const std::string_view dict = bc ? std::string_view(bc->value) : std::string_view();
  LinalgCall c;
  if (TypedLapack(t, "potrf") || t == "cusolver_potrf_ffi" || t == "hipsolver_potrf_ffi") {
    if (i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 2) return std::nullopt;
    c.kind = LinalgCall::Kind::kPotrf;
    const std::string lower = DictValue(dict, "lower");
    const char uplo = Code(DictValue(dict, "uplo"));
    c.lower = !lower.empty() ? lower == "true" : uplo != 'U';
    return c;
  }
  if (TypedLapack(t, "getrf") || t == "cusolver_getrf_ffi" || t == "hipsolver_getrf_ffi") {
    if (i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 3) return std::nullopt;
    c.kind = LinalgCall::Kind::kGetrf;
    return c;
  }
  // Householder QR (jnp.linalg.qr): a → (the reflectors below the diagonal
  // with R on and above it, tau); Q from them: (a, tau) → q. Real and complex
  // types (LAPACK's {s,d}orgqr and {c,z}ungqr; cuSOLVER's orgqr takes both).
  const PrimitiveType et = i.operand_count() > 0 ? i.operand(0)->shape().element_type() : PrimitiveType::kF32;
  const bool numeric = IsFloat(et) || IsComplex(et);
  const bool lapack_real = t.size() > 8 && (t[7] == 's' || t[7] == 'd');
  if (TypedLapack(t, "geqrf") || t == "cusolver_geqrf_ffi" || t == "hipsolver_geqrf_ffi" ||
      t == "cublas_geqrf_batched_ffi") {
    if (!numeric || i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 2) return std::nullopt;
    c.kind = LinalgCall::Kind::kGeqrf;
    return c;
  }
  if ((lapack_real && TypedLapack(t, "orgqr")) || (!lapack_real && TypedLapack(t, "ungqr")) ||
      t == "cusolver_orgqr_ffi" || t == "hipsolver_orgqr_ffi") {
    if (!numeric || i.operand_count() != 2 || !i.shape().IsArray()) return std::nullopt;
    c.kind = LinalgCall::Kind::kOrgqr;
    return c;
  }
  // The symmetric eigendecomposition (jnp.linalg.eigh): a → (v, w, info).
  // Real types, and complex Hermitian ones (LAPACK's {c,z}heevd; cuSOLVER's
  // syevd takes both): the eigenvalues in the real component type.
  if (((t.size() > 8 && (t[7] == 's' || t[7] == 'd') && TypedLapack(t, "syevd")) ||
       (t.size() > 8 && (t[7] == 'c' || t[7] == 'z') && TypedLapack(t, "heevd")) || t == "cusolver_syevd_ffi" ||
       t == "hipsolver_syevd_ffi")) {
    if (i.operand_count() != 1 || !i.shape().IsTuple() || i.shape().tuple_size() != 3) return std::nullopt;
    const PrimitiveType et = i.operand(0)->shape().element_type();
    if (et != PrimitiveType::kF32 && et != PrimitiveType::kF64 && et != PrimitiveType::kC64 &&
        et != PrimitiveType::kC128)
      return std::nullopt;
    c.kind = LinalgCall::Kind::kSyevd;
    const std::string lower = DictValue(dict, "lower");
    const char uplo = Code(DictValue(dict, "uplo"));
    c.lower = !lower.empty() ? lower == "true" : uplo != 'U';
    return c;
  }
  // The singular value decomposition (jnp.linalg.svd): a → (a, s, u, vt,
  // info). Real and complex types (s real; LAPACK's complex gesdd gives Vᴴ).
  if (TypedLapack(t, "gesdd") || t == "cusolver_gesvdj_ffi" || t == "hipsolver_gesvdj_ffi") {
    if (i.operand_count() != 1) return std::nullopt;
    const PrimitiveType et = i.operand(0)->shape().element_type();
    if ((et != PrimitiveType::kF32 && et != PrimitiveType::kF64 && et != PrimitiveType::kC64 &&
         et != PrimitiveType::kC128) ||
        !GesvdShapes(i, nullptr))
      return std::nullopt;
    c.kind = LinalgCall::Kind::kGesvd;
    return c;
  }
  // The condensed forms and the tridiagonal solve (custom_calls.h).
  const bool lapack_complex = t.size() > 8 && (t[7] == 'c' || t[7] == 'z');
  if ((lapack_real && TypedLapack(t, "sytrd")) || (lapack_complex && TypedLapack(t, "hetrd")) ||
      t == "cusolver_sytrd_ffi" || t == "hipsolver_sytrd_ffi") {
    if (!numeric) return std::nullopt;
    c.kind = LinalgCall::Kind::kSytrd;
    const std::string lower = DictValue(dict, "lower");
    const char uplo = Code(DictValue(dict, "uplo"));
    c.lower = !lower.empty() ? lower == "true" : uplo != 'U';
    if (!CondensedFormShapes(i, c, nullptr)) return std::nullopt;
    return c;
  }
  if (TypedLapack(t, "gehrd")) {
    if (!numeric) return std::nullopt;
    c.kind = LinalgCall::Kind::kGehrd;
    const std::string low = DictValue(dict, "low"), high = DictValue(dict, "high");
    if (!low.empty()) c.low = std::atoll(low.c_str());
    if (!high.empty()) c.high = std::atoll(high.c_str());
    if (!CondensedFormShapes(i, c, nullptr)) return std::nullopt;
    return c;
  }
  if (TypedLapack(t, "gtsv") || t == "cusparse_gtsv2_ffi" || t == "hipsparse_gtsv2_ffi") {
    if (i.operand_count() != 4 || !numeric) return std::nullopt;
    c.kind = LinalgCall::Kind::kGtsv;
    if (!CondensedFormShapes(i, c, nullptr)) return std::nullopt;
    return c;
  }
  // The nonsymmetric eigendecomposition of real matrices (custom_calls.h).
  const bool complex_operand = i.operand_count() == 1 && IsComplex(i.operand(0)->shape().element_type());
  if ((lapack_complex && TypedLapack(t, "geev")) || t == "cuhybrid_eig_comp" || t == "hiphybrid_eig_comp" ||
      (complex_operand && (t == "cusolver_geev_ffi" || t == "hipsolver_geev_ffi"))) {
    c.kind = LinalgCall::Kind::kGeev;
    if (t.rfind("lapack_", 0) == 0) {
      c.left = Code(DictValue(dict, "compute_left")) == 'V';
      c.right = Code(DictValue(dict, "compute_right")) == 'V';
    } else {
      c.left = DictValue(dict, "left") == "true";
      c.right = DictValue(dict, "right") == "true";
    }
    if (!ComplexGeevShapes(i, nullptr)) return std::nullopt;
    if (!ComplexGeevShapes(i, nullptr)->lapack && c.left) return std::nullopt;
    return c;
  }
  if ((lapack_real && TypedLapack(t, "geev")) || t == "cuhybrid_eig_real" || t == "hiphybrid_eig_real" ||
      t == "cusolver_geev_ffi" || t == "hipsolver_geev_ffi") {
    c.kind = LinalgCall::Kind::kGeev;
    if (t.rfind("lapack_", 0) == 0) {
      c.left = Code(DictValue(dict, "compute_left")) == 'V';
      c.right = Code(DictValue(dict, "compute_right")) == 'V';
    } else {
      c.left = DictValue(dict, "left") == "true";
      c.right = DictValue(dict, "right") == "true";
    }
    if (!GeevShapes(i, c, nullptr)) return std::nullopt;
    return c;
  }
  if (lapack_real && TypedLapack(t, "gees")) {
    if (Code(DictValue(dict, "sort")) == 'S') return std::nullopt;  // a select function: not ours
    c.kind = LinalgCall::Kind::kGees;
    c.right = Code(DictValue(dict, "mode")) != 'N';
    if (!GeesShapes(i, nullptr)) return std::nullopt;
    return c;
  }
  if (TypedLapack(t, "trsm")) {
    if (i.operand_count() != 2 || !i.shape().IsArray()) return std::nullopt;
    c.kind = LinalgCall::Kind::kTrsm;
    c.left_side = Code(DictValue(dict, "side")) != 'R';
    c.lower = Code(DictValue(dict, "uplo")) != 'U';
    c.unit_diagonal = Code(DictValue(dict, "diag")) == 'U';
    const char tr = Code(DictValue(dict, "trans_x"));
    c.transpose_a = tr == 'T' ? "TRANSPOSE" : tr == 'C' ? "ADJOINT" : "NO_TRANSPOSE";
    return c;
  }
  return std::nullopt;
}

}  // namespace hloscope
