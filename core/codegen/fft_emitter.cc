// fft(x), fft_type=FFT|IFFT|RFFT|IRFFT over the innermost len(fft_length)
// dimensions, as a direct DFT per output element (one thread each, f64
// accumulation): the interpreter's definition — IFFT scaled by 1/N, RFFT
// keeping the first N/2+1 entries of the last dimension, IRFFT rebuilding
// the Hermitian half of the last dimension (with the imaginary parts of the
// DC and Nyquist entries dropped) and returning the real part. Each term's
// phase is reduced exactly ((k·t) mod N) before it becomes an angle.
// XLA GPU calls cuFFT; a direct DFT costs N per output element per
// transformed dimension, which the short transforms in real modules
// (spectral layers, convolution by FFT of small sizes) afford.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cmath>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;
using Index = std::vector<Value*>;

std::vector<int64_t> ParseList(const std::string& text) {
  std::vector<int64_t> out;
  std::string cur;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      cur += c;
    } else if (!cur.empty()) {
      out.push_back(std::atoll(cur.c_str()));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::atoll(cur.c_str()));
  return out;
}

}  // namespace

StatusOr<EmittedKernel> EmitFftKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(const Instruction* fft, SingleRootOfKind(spec, Opcode::kFft));
  auto fail = [&](const std::string& why) {
    return Status::Error("codegen: fft %" + fft->name() + ": " + why);
  };
  const RawAttr* type_attr = fft->FindRaw("fft_type");
  const RawAttr* len_attr = fft->FindRaw("fft_length");
  const std::string type = type_attr ? type_attr->value : "FFT";
  if (!len_attr) return fail("needs fft_length");
  const std::vector<int64_t> len = ParseList(len_attr->value);
  const Shape& in = fft->operand(0)->shape();
  const Shape& rs = fft->shape();
  const int r = rs.rank();
  const int n = static_cast<int>(len.size());
  if (n < 1 || n > r || in.rank() != r) return fail("fft_length must have 1 to rank entries");
  for (int64_t l : len)
    if (l <= 0) return fail("fft_length entries must be positive");
  const PrimitiveType it = in.element_type(), ot = rs.element_type();
  RETURN_IF_ERROR(CheckSupportedType(it, fft->name()));
  RETURN_IF_ERROR(CheckSupportedType(ot, fft->name()));
  const bool irfft = type == "IRFFT", rfft = type == "RFFT";
  if (!irfft && !rfft && type != "FFT" && type != "IFFT")
    return fail("fft_type=" + type + " is not FFT, IFFT, RFFT or IRFFT");
  if (rfft    ? IsComplex(it) || !IsComplex(ot)
      : irfft ? !IsComplex(it) || IsComplex(ot)
              : !IsComplex(it) || !IsComplex(ot))
    return fail("fft_type=" + type + " does not fit " + in.ToString() + " -> " + rs.ToString());
  auto part_of = [](PrimitiveType c) {
    return c == PrimitiveType::kC128 ? PrimitiveType::kF64 : PrimitiveType::kF32;
  };
  // Transformed dims r-n..r-1; for IRFFT the input's last dim is the half spectrum.
  const int64_t full = len.back();
  const int64_t half = irfft ? in.dim(r - 1) : 0;
  const double inverse_scale = [&] {
    double s = 1;
    for (int64_t l : len) s *= static_cast<double>(l);
    return 1.0 / s;
  }();

  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  const int out = FirstOutputArg(spec);
  const Shape& out_shape = spec.args[static_cast<size_t>(out)].shape;
  EmittedKernel result;
  result.kind = "fft";
  result.dims = LoopLaunchDims(out_shape.num_elements(), spec.device);
  MarkKernel(f, result.dims.block[0]);
  llvm::Type* f64 = b.getDoubleTy();
  auto c64 = [&](double v) { return llvm::ConstantFP::get(f64, v); };

  // x at `idx` as (re, im) in f64.
  auto load = [&](const Index& idx) -> StatusOr<std::pair<Value*, Value*>> {
    ee.ClearCache();
    ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, fft, 0, idx));
    ee.ClearCache();
    if (!IsComplex(it)) {
      ASSIGN_OR_RETURN(Value * re, EmitConvert(b, v, it, PrimitiveType::kF64));
      return std::make_pair(re, static_cast<Value*>(c64(0)));
    }
    ASSIGN_OR_RETURN(Value * re,
                     EmitConvert(b, b.CreateExtractValue(v, 0), part_of(it), PrimitiveType::kF64));
    ASSIGN_OR_RETURN(Value * im,
                     EmitConvert(b, b.CreateExtractValue(v, 1), part_of(it), PrimitiveType::kF64));
    return std::make_pair(re, im);
  };
  const double two_pi = 2.0 * M_PI;
  // acc += (xr + i·xi)·e^{i·sign·2π·turns}; at whole quarter turns the
  // twiddle is exact (±1, ±i), so the imaginary parts of a real signal's DC
  // and Nyquist terms are exactly +0, as FFT libraries give them.
  auto accumulate = [&](Value* acc_re, Value* acc_im, Value* xr, Value* xi, Value* turns, double sign) {
    Value* angle = b.CreateFMul(c64(sign * two_pi), turns);
    Value* q = b.CreateFMul(turns, c64(4.0));
    Value* qi = b.CreateFPToSI(q, b.getInt64Ty());
    Value* quarter = b.CreateFCmpOEQ(b.CreateSIToFP(qi, f64), q);
    Value* r = b.CreateAnd(qi, I64(b, 3));
    Value* exact_c = b.CreateSelect(b.CreateICmpEQ(r, I64(b, 0)), c64(1.0),
                                    b.CreateSelect(b.CreateICmpEQ(r, I64(b, 2)), c64(-1.0), c64(0.0)));
    Value* exact_s = b.CreateSelect(b.CreateICmpEQ(r, I64(b, 1)), c64(sign),
                                    b.CreateSelect(b.CreateICmpEQ(r, I64(b, 3)), c64(-sign), c64(0.0)));
    Value* c = b.CreateSelect(quarter, exact_c, CallLibdevice(b, "__nv_cos", {angle}, f64));
    Value* s = b.CreateSelect(quarter, exact_s, CallLibdevice(b, "__nv_sin", {angle}, f64));
    b.CreateStore(
        b.CreateFAdd(b.CreateLoad(f64, acc_re), b.CreateFSub(b.CreateFMul(xr, c), b.CreateFMul(xi, s))),
        acc_re);
    b.CreateStore(
        b.CreateFAdd(b.CreateLoad(f64, acc_im), b.CreateFAdd(b.CreateFMul(xr, s), b.CreateFMul(xi, c))),
        acc_im);
  };
  // Σ_d ((k_d·t_d) mod N_d) / N_d over dims [first, first+count) of `len`.
  auto phase = [&](const Index& k, const Index& t, int first, int count) {
    Value* p = c64(0);
    for (int d = first; d < first + count; ++d) {
      Value* kt = b.CreateURem(b.CreateMul(k[static_cast<size_t>(d)], t[static_cast<size_t>(d)]),
                               I64(b, len[static_cast<size_t>(d)]));
      p = b.CreateFAdd(
          p, b.CreateFDiv(b.CreateUIToFP(kt, f64), c64(static_cast<double>(len[static_cast<size_t>(d)]))));
    }
    return p;
  };
  Value* acc_re = EntryAlloca(b, f64, "acc_re");
  Value* acc_im = EntryAlloca(b, f64, "acc_im");
  Value* w_re = EntryAlloca(b, f64, "w_re");
  Value* w_im = EntryAlloca(b, f64, "w_im");
  std::vector<int64_t> out_order = MajorToMinor(out_shape);
  std::vector<int64_t> sizes(len.begin(), len.end());
  RETURN_IF_ERROR(GridStrideLoop(b, out_shape.num_elements(), [&](Value* linear) -> Status {
    Index o(static_cast<size_t>(r));
    DelinearizeInto(b, linear, out_shape, out_order, o);
    Index k(o.begin() + (r - n), o.end());  // the output's positions in the transformed dims
    b.CreateStore(c64(0), acc_re);
    b.CreateStore(c64(0), acc_im);
    if (!irfft) {
      const double sign = type == "IFFT" ? 1.0 : -1.0;
      int64_t terms = 1;
      for (int64_t l : len) terms *= l;
      RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, terms), I64(b, 1), [&](Value* q) -> Status {
        std::vector<Value*> t = Delinearize(b, q, sizes);
        Index idx = o;
        for (int d = 0; d < n; ++d) idx[static_cast<size_t>(r - n + d)] = t[static_cast<size_t>(d)];
        ASSIGN_OR_RETURN(auto x, load(idx));
        accumulate(acc_re, acc_im, x.first, x.second, phase(k, t, 0, n), sign);
        return Status::Ok();
      }));
      Value* re = b.CreateLoad(f64, acc_re);
      Value* im = b.CreateLoad(f64, acc_im);
      if (type == "IFFT") {
        re = b.CreateFMul(re, c64(inverse_scale));
        im = b.CreateFMul(im, c64(inverse_scale));
      }
      ASSIGN_OR_RETURN(Value * pre, EmitConvert(b, re, PrimitiveType::kF64, part_of(ot)));
      ASSIGN_OR_RETURN(Value * pim, EmitConvert(b, im, PrimitiveType::kF64, part_of(ot)));
      Value* v = llvm::UndefValue::get(RegisterType(ot, ctx));
      v = b.CreateInsertValue(b.CreateInsertValue(v, pre, 0), pim, 1);
      ee.Store(out, o, v);
      return Status::Ok();
    }
    // IRFFT: W(k_n) = inverse DFT of the input over the first n-1 dims at
    // this output's positions there; then the Hermitian line in the last.
    std::vector<int64_t> lead(len.begin(), len.end() - 1);
    int64_t lead_terms = 1;
    for (int64_t l : lead) lead_terms *= l;
    RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, full), I64(b, 1), [&](Value* kn) -> Status {
      // L(kn) from W at kn (kn < half) or conj(W at full - kn).
      Value* mirrored = b.CreateICmpSGE(kn, I64(b, half));
      Value* src = b.CreateSelect(mirrored, b.CreateSub(I64(b, full), kn), kn);
      b.CreateStore(c64(0), w_re);
      b.CreateStore(c64(0), w_im);
      Value* valid = b.CreateICmpSLT(src, I64(b, half));
      RETURN_IF_ERROR(IfThen(b, valid, [&]() -> Status {
        return ForLoop(b, I64(b, 0), I64(b, lead_terms), I64(b, 1), [&](Value* q) -> Status {
          std::vector<Value*> kk = lead.empty() ? std::vector<Value*>{} : Delinearize(b, q, lead);
          Index idx = o;
          for (int d = 0; d + 1 < n; ++d) idx[static_cast<size_t>(r - n + d)] = kk[static_cast<size_t>(d)];
          idx[static_cast<size_t>(r - 1)] = src;
          ASSIGN_OR_RETURN(auto x, load(idx));
          accumulate(w_re, w_im, x.first, x.second, phase(kk, k, 0, n - 1), 1.0);
          return Status::Ok();
        });
      }));
      Value* wr = b.CreateLoad(f64, w_re);
      Value* wi = b.CreateLoad(f64, w_im);
      wi = b.CreateSelect(mirrored, b.CreateFNeg(wi), wi);
      // The DC entry and (even lengths) the Nyquist entry are real.
      Value* real_only = b.CreateICmpEQ(kn, I64(b, 0));
      if (full % 2 == 0 && full / 2 < half)
        real_only = b.CreateOr(real_only, b.CreateICmpEQ(kn, I64(b, full / 2)));
      wi = b.CreateSelect(real_only, c64(0), wi);
      Value* kt = b.CreateURem(b.CreateMul(kn, k.back()), I64(b, full));
      accumulate(acc_re, acc_im, wr, wi,
                 b.CreateFDiv(b.CreateUIToFP(kt, f64), c64(static_cast<double>(full))), 1.0);
      return Status::Ok();
    }));
    Value* re = b.CreateFMul(b.CreateLoad(f64, acc_re), c64(inverse_scale));
    ASSIGN_OR_RETURN(Value * v, EmitConvert(b, re, PrimitiveType::kF64, ot));
    ee.Store(out, o, v);
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return result;
}

}  // namespace hloscope::codegen
