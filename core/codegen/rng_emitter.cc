// rng-bit-generator (unfused; our fusion passes never fuse it): the same bits
// and the same new state as the interpreter (core/eval/eval_rng.cc).
//
// Arguments: arg0 = state u64[N] (state[0] is the key), arg1 = new state
// u64[N], arg2 = the bits. One thread per output element (grid-stride, in the
// output's physical order); each computes its element from its logical index:
//  * rng_three_fry, 64-bit: Threefry2x32-20 of counter state[1] + i (i the
//    row-major index), x0 | x1 << 32.
//  * rng_three_fry, narrower: the shape is split in halves along its first
//    even dimension s (else its largest); the element at index idx takes
//    output idx[s] % 2 of the call on counter state[1] + h, h the row-major
//    index of idx (with idx[s] / 2) over the halved dimensions.
//  * rng_philox / rng_default: Philox4x32-10 of the 128-bit counter
//    (state[1], state[2]) (N >= 3) or (state[1], key) (N = 2) plus i / 4
//    (32-bit words: word i % 4) or i / 2 (64-bit: words 2j, 2j+1, j = i % 2).
// Each element stores the low bits of its 32- or 64-bit value (any type of
// 8/16/32/64 bits: the bit pattern, as the interpreter's Put).
//
// The new state (counter advanced by the calls made, a compile-time number)
// is written by global thread 0. When no output shares storage with the state
// (what the kernel plan gives: it moves the operand of a non-elementwise
// kernel to scratch when buffers would alias), no thread reads what thread 0
// writes, so any grid is race-free. When an output does alias the state
// (KernelArg::aliases), a grid-wide barrier would be needed and none exists:
// the kernel then runs as a single block whose threads all load the key and
// counter into registers, meet at a barrier, let thread 0 write the state,
// meet again, and then cover every element with the block-stride loop.
#include <algorithm>
#include <array>
#include <utility>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

Status RngError(const KernelSpec& spec, const std::string& why) {
  return Status::Error("codegen: rng-bit-generator %" + spec.instr->name() + ": " + why);
}

Value* Rotl(llvm::IRBuilderBase& b, Value* v, int d) {
  return b.CreateOr(b.CreateShl(v, b.getInt32(d)), b.CreateLShr(v, b.getInt32(32 - d)));
}

// Threefry2x32 with 20 rounds (eval_rng.cc: ThreeFry2x32); i32 values.
std::pair<Value*, Value*> ThreeFry(llvm::IRBuilderBase& b, Value* k0, Value* k1, Value* in0, Value* in1) {
  static const int kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  Value* ks[3] = {k0, k1, b.CreateXor(b.CreateXor(b.getInt32(0x1BD11BDAu), k0), k1)};
  Value* x0 = b.CreateAdd(in0, ks[0]);
  Value* x1 = b.CreateAdd(in1, ks[1]);
  for (int block = 0; block < 5; ++block) {
    for (int r = 0; r < 4; ++r) {
      x0 = b.CreateAdd(x0, x1);
      x1 = Rotl(b, x1, kRot[(block % 2) * 4 + r]);
      x1 = b.CreateXor(x1, x0);
    }
    x0 = b.CreateAdd(x0, ks[(block + 1) % 3]);
    x1 = b.CreateAdd(x1, b.CreateAdd(ks[(block + 2) % 3], b.getInt32(static_cast<uint32_t>(block + 1))));
  }
  return {x0, x1};
}

// Philox4x32 with 10 rounds (eval_rng.cc: Philox4x32); i32 values.
std::array<Value*, 4> Philox(llvm::IRBuilderBase& b, std::array<Value*, 4> x, Value* k0, Value* k1) {
  auto mul_wide = [&](Value* a, uint32_t m) {
    Value* p = b.CreateMul(b.CreateZExt(a, b.getInt64Ty()), b.getInt64(m));
    return std::make_pair(b.CreateTrunc(b.CreateLShr(p, b.getInt64(32)), b.getInt32Ty()), b.CreateTrunc(p, b.getInt32Ty()));
  };
  for (int r = 0; r < 10; ++r) {
    auto [hi0, lo0] = mul_wide(x[0], 0xD2511F53u);
    auto [hi1, lo1] = mul_wide(x[2], 0xCD9E8D57u);
    x = {b.CreateXor(b.CreateXor(hi1, x[1]), k0), lo1, b.CreateXor(b.CreateXor(hi0, x[3]), k1), lo0};
    k0 = b.CreateAdd(k0, b.getInt32(0x9E3779B9u));
    k1 = b.CreateAdd(k1, b.getInt32(0xBB67AE85u));
  }
  return x;
}

Value* Lo32(llvm::IRBuilderBase& b, Value* v) { return b.CreateTrunc(v, b.getInt32Ty()); }
Value* Hi32(llvm::IRBuilderBase& b, Value* v) { return b.CreateTrunc(b.CreateLShr(v, b.getInt64(32)), b.getInt32Ty()); }
Value* Join64(llvm::IRBuilderBase& b, Value* lo, Value* hi) {
  return b.CreateOr(b.CreateZExt(lo, b.getInt64Ty()), b.CreateShl(b.CreateZExt(hi, b.getInt64Ty()), b.getInt64(32)));
}

// (lo, hi) + v as a 128-bit sum of i64 halves.
std::pair<Value*, Value*> Add128(llvm::IRBuilderBase& b, Value* lo, Value* hi, Value* v) {
  Value* sum = b.CreateAdd(lo, v);
  Value* carry = b.CreateZExt(b.CreateICmpULT(sum, lo), b.getInt64Ty());
  return {sum, b.CreateAdd(hi, carry)};
}

// Row-major linear index of `index` over `dims`.
Value* RowMajor(llvm::IRBuilderBase& b, const std::vector<Value*>& index, const std::vector<int64_t>& dims) {
  Value* lin = I64(b, 0);
  for (size_t d = 0; d < dims.size(); ++d) lin = b.CreateAdd(b.CreateMul(lin, I64(b, dims[d])), index[d]);
  return lin;
}

// The dimension a narrow three_fry output is split along (see the header).
int SplitDim(const std::vector<int64_t>& dims) {
  int rank = static_cast<int>(dims.size());
  for (int i = 0; i < rank; ++i)
    if (dims[i] % 2 == 0) return i;
  int split = 0;
  for (int i = 1; i < rank; ++i)
    if (dims[i] > dims[split]) split = i;
  return split;
}

struct Rng {
  bool three_fry = false;
  bool wide_state = false;  // philox: N >= 3
  int bits = 0;             // output element width
  std::vector<int64_t> dims;
  uint64_t calls = 0;       // counter steps used (the state's advance)
};

// The 32- or 64-bit value of the element at logical `index` (row-major `lin`).
Value* EmitElement(llvm::IRBuilderBase& b, const Rng& rng, Value* k0, Value* k1, Value* ctr_lo, Value* ctr_hi,
                   const std::vector<Value*>& index, Value* lin) {
  if (rng.three_fry) {
    if (rng.bits == 64) {
      Value* x = b.CreateAdd(ctr_lo, lin);
      auto [a, c] = ThreeFry(b, k0, k1, Lo32(b, x), Hi32(b, x));
      return Join64(b, a, c);
    }
    Value* h = I64(b, 0);
    Value* odd = b.getFalse();
    if (!rng.dims.empty()) {
      int s = SplitDim(rng.dims);
      std::vector<int64_t> half = rng.dims;
      half[s] = (half[s] + 1) / 2;
      std::vector<Value*> hidx = index;
      hidx[s] = b.CreateLShr(index[s], I64(b, 1));
      odd = b.CreateTrunc(index[s], b.getInt1Ty());
      h = RowMajor(b, hidx, half);
    }
    Value* x = b.CreateAdd(ctr_lo, h);
    auto [a, c] = ThreeFry(b, k0, k1, Lo32(b, x), Hi32(b, x));
    return b.CreateSelect(odd, c, a);
  }
  Value* block = b.CreateLShr(lin, I64(b, rng.bits == 64 ? 1 : 2));
  auto [lo, hi] = Add128(b, ctr_lo, ctr_hi, block);
  std::array<Value*, 4> w = Philox(b, {Lo32(b, lo), Hi32(b, lo), Lo32(b, hi), Hi32(b, hi)}, k0, k1);
  if (rng.bits == 64) {
    Value* second = b.CreateTrunc(lin, b.getInt1Ty());
    return b.CreateSelect(second, Join64(b, w[2], w[3]), Join64(b, w[0], w[1]));
  }
  Value* word = b.CreateTrunc(b.CreateAnd(lin, I64(b, 3)), b.getInt32Ty());
  Value* v = w[0];
  for (int k = 1; k < 4; ++k) v = b.CreateSelect(b.CreateICmpEQ(word, b.getInt32(k)), w[k], v);
  return v;
}

StatusOr<Rng> Analyse(const KernelSpec& spec) {
  const Instruction& instr = *spec.instr;
  if (instr.opcode() != Opcode::kRngBitGenerator)
    return Status::Error("codegen: the rng-bit-generator emitter was given " + std::string(OpcodeName(instr.opcode())) +
                         " %" + instr.name());
  if (spec.args.size() != 3 || spec.args[0].is_output || !spec.args[1].is_output || !spec.args[2].is_output)
    return RngError(spec, "needs a state argument and two outputs (new state, bits)");
  const Shape& state = spec.args[0].shape;
  if (!state.IsArray() || state.element_type() != PrimitiveType::kU64 || state.rank() != 1 || state.dim(0) < 2)
    return RngError(spec, "the state must be u64[N] with N >= 2, not " + state.ToString());
  if (!spec.args[1].shape.IsArray() || !spec.args[1].shape.SameDims(state) ||
      spec.args[1].shape.element_type() != PrimitiveType::kU64)
    return RngError(spec, "the state result must match the state");
  const Shape& out = spec.args[2].shape;
  if (!out.IsArray()) return RngError(spec, "the bits result must be an array");
  if (out.has_layout() && !out.layout().tiles.empty()) return RngError(spec, "tiled layouts are not supported");
  Rng rng;
  PrimitiveType t = out.element_type();
  rng.bits = BitWidth(t);
  if (IsComplex(t) || t == PrimitiveType::kPred || (rng.bits != 8 && rng.bits != 16 && rng.bits != 32 && rng.bits != 64))
    return RngError(spec, "output type " + std::string(PrimitiveTypeName(t)) + " is not supported");
  std::string alg = "rng_default";
  if (const RawAttr* a = instr.FindRaw("algorithm")) alg = a->value;
  if (alg != "rng_three_fry" && alg != "rng_philox" && alg != "rng_default")
    return RngError(spec, "unknown rng algorithm '" + alg + "'");
  rng.three_fry = alg == "rng_three_fry";
  rng.wide_state = state.dim(0) >= 3;
  rng.dims = out.dims();
  auto n = static_cast<uint64_t>(out.num_elements());
  if (rng.three_fry) {
    if (rng.bits == 64 || rng.dims.empty()) {
      rng.calls = rng.bits == 64 ? n : 1;
    } else {
      std::vector<int64_t> half = rng.dims;
      int s = SplitDim(half);
      half[s] = (half[s] + 1) / 2;
      rng.calls = 1;
      for (int64_t d : half) rng.calls *= static_cast<uint64_t>(d);
    }
  } else {
    uint64_t words = rng.bits == 64 ? 2 * n : n;
    rng.calls = (words + 3) / 4;
  }
  return rng;
}

}  // namespace

StatusOr<EmittedKernel> EmitRngBitGeneratorKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(Rng rng, Analyse(spec));
  const Shape& out = spec.args[2].shape;
  int64_t n = out.num_elements();
  // An output sharing the state's storage (see the header).
  bool shared_state = spec.args[0].aliases >= 0 || spec.args[1].aliases == 0 || spec.args[2].aliases == 0;
  bool state_in_place = spec.args[1].aliases == 0 || spec.args[0].aliases == 1;

  EmittedKernel k;
  k.kind = "rng-bit-generator";
  k.dims = LoopLaunchDims(n, spec.device);
  if (shared_state) {
    int max_block = spec.device && spec.device->max_threads_per_block > 0 ? spec.device->max_threads_per_block : 1024;
    k.dims.block[0] = static_cast<uint32_t>(std::clamp<int64_t>((n + 31) / 32 * 32, 32, std::min(max_block, 1024)));
    k.dims.grid[0] = 1;
  }

  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  MarkKernel(f, k.dims.block[0]);
  Value* state = f->getArg(0);
  Value* new_state = f->getArg(1);
  Value* bits = f->getArg(2);
  llvm::Type* i64 = b.getInt64Ty();
  auto state_at = [&](Value* base, int64_t i) { return b.CreateInBoundsGEP(i64, base, I64(b, i)); };

  // Every thread reads the key and counter before thread 0 may write them.
  Value* key = b.CreateLoad(i64, state_at(state, 0), "key");
  Value* ctr_lo = b.CreateLoad(i64, state_at(state, 1), "ctr.lo");
  Value* ctr_hi = rng.three_fry ? I64(b, 0) : rng.wide_state ? b.CreateLoad(i64, state_at(state, 2), "ctr.hi") : key;
  Value* k0 = Lo32(b, key);
  Value* k1 = Hi32(b, key);
  if (shared_state) SyncThreads(b);

  Value* tid = b.CreateZExt(ThreadIdx(b, Dim::kX), i64);
  Value* ntid = b.CreateZExt(BlockDim(b, Dim::kX), i64);
  Value* start = b.CreateAdd(b.CreateMul(b.CreateZExt(BlockIdx(b, Dim::kX), i64), ntid), tid);
  Value* stride = b.CreateMul(b.CreateZExt(GridDim(b, Dim::kX), i64), ntid);

  RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(start, I64(b, 0)), [&]() -> Status {
    if (!state_in_place)
      for (int64_t i = 0; i < spec.args[0].shape.dim(0); ++i)
        b.CreateStore(b.CreateLoad(i64, state_at(state, i)), state_at(new_state, i));
    if (rng.three_fry) {
      b.CreateStore(b.CreateAdd(ctr_lo, b.getInt64(rng.calls)), state_at(new_state, 1));
      return Status::Ok();
    }
    auto [lo, hi] = Add128(b, ctr_lo, ctr_hi, b.getInt64(rng.calls));
    b.CreateStore(lo, state_at(new_state, 1));
    if (rng.wide_state) b.CreateStore(hi, state_at(new_state, 2));
    return Status::Ok();
  }));
  if (shared_state) SyncThreads(b);

  // Physical order: neighbouring threads write neighbouring elements.
  std::vector<int64_t> major_to_minor = MajorToMinor(out);
  llvm::Type* et = b.getIntNTy(static_cast<unsigned>(rng.bits));
  RETURN_IF_ERROR(ForLoop(b, start, I64(b, n), stride, [&](Value* i) -> Status {
    std::vector<Value*> index(out.rank());
    if (out.rank() > 0) DelinearizeInto(b, i, out, major_to_minor, index);
    Value* lin = RowMajor(b, index, rng.dims);
    Value* v = EmitElement(b, rng, k0, k1, ctr_lo, ctr_hi, index, lin);
    b.CreateStore(b.CreateTrunc(v, et), b.CreateInBoundsGEP(et, bits, i));
    return Status::Ok();
  }));
  b.CreateRetVoid();
  return k;
}

}  // namespace hloscope::codegen
