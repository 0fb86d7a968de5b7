// The tensor-core GEMM (gemm_fusion_emitter.h): mma.sync m16n8k16 with bf16
// or f16 operands and f32 accumulators, for plain dots and GEMM fusions.
//
// A block computes a bm×bn tile of one batch (the tile table below); its
// warps are laid out warps_m × warps_n and each owns a (bm/warps_m) ×
// (bn/warps_n) warp tile of 16×8 mma tiles. The K loop stages bk-wide slices
// of both operands in two shared stages, the next slice on its way while the
// warps multiply the current one, in 16-byte chunks: an operand read
// straight from a 16-bit argument by cp.async (chunks past the problem's
// edges zero-filled), an operand with a fused prologue
// (converts, broadcast scale/bias, any elementwise chain) computed through
// the elemental emitter, 8 k of a row at a time, so that operands of any
// layout, transposed or batched, are read through index mapping (the
// staging below). Shared tiles are k-minor ([m][k] and [n][k], rows padded
// to bk+8 elements: each 8-element row that ldmatrix reads is 16-byte
// aligned, and a matrix's 8 rows fall in distinct banks), or [k][m] / [k][n]
// for an operand contiguous along m or n, read with ldmatrix .trans. The warp then reads its A and B
// fragments with ldmatrix.x4 (one per 16×16 A fragment and per two 8-column
// B fragments; rows of 80 bytes put a matrix's 8 rows in 8 distinct groups
// of 4 banks) and issues its mma.sync ops. At the end, the
// accumulators go through the epilogue (StoreGemmElement) one at a time in a
// loop, so the epilogue's code exists once.
//
// Numerics: the products of bf16/f16 values are exact in f32, and the K
// steps run in ascending order, so a sequential f32 sum (what the CPU
// emulation of mma computes, cpu_threads.cc) equals the interpreter's result
// bit for bit. Real tensor cores add each 16-element group with their own
// internal rounding, so GPU results may differ in the last bits
// (docs/eval-tolerances.md).
#include "core/codegen/gemm_fusion_emitter.h"

#include <algorithm>
#include <optional>

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/line_info.h"

namespace hloscope::codegen {

using llvm::Value;

const std::vector<GemmTiles>& GemmTileTable() {
  // One table for sm_80 … sm_90a: the static shared memory of the largest
  // tile, (128 + 128) × 40 × 2 B = 20 KB, fits every target's 48 KB, and the
  // largest warp tile keeps 64 f32 accumulators per thread.
  static const std::vector<GemmTiles> table = {
      // min_m min_n   bm   bn  bk  warps_m warps_n      warp tile (mma tiles)
      {128, 128, 128, 128, 32, 2, 4},  // 8 warps,  64×32 (4×4)
      {128, 64, 128, 64, 32, 2, 4},    // 8 warps,  64×16 (4×2)
      {64, 128, 64, 128, 32, 2, 4},    // 8 warps,  32×32 (2×4)
      {64, 64, 64, 64, 32, 2, 2},      // 4 warps,  32×32 (2×4)
      {128, 1, 128, 32, 32, 2, 2},     // 4 warps,  64×16 (4×2)
      {1, 128, 32, 128, 32, 2, 2},     // 4 warps,  16×64 (1×8)
      {1, 1, 32, 32, 32, 2, 2},        // 4 warps,  16×16 (1×2)
  };
  return table;
}

const GemmTiles& ChooseGemmTiles(int64_t m, int64_t n) {
  for (const GemmTiles& t : GemmTileTable())
    if (m >= t.min_m && n >= t.min_n) return t;
  return GemmTileTable().back();
}

std::optional<PrimitiveType> TensorCoreType(const GemmAnalysis& g, const NvptxTarget& target) {
  if (target.compute_capability < 80) return std::nullopt;
  auto half = [](PrimitiveType t) { return t == PrimitiveType::kBF16 || t == PrimitiveType::kF16; };
  // The interpreter rounds each operand to the result type first: a bf16/f16
  // result makes both operands values of that type, whatever they were.
  if (half(g.rt)) {
    const bool convertible = (IsFloat(g.lt) || IsInteger(g.lt)) && (IsFloat(g.rtt) || IsInteger(g.rtt));
    if (convertible) return g.rt;
    return std::nullopt;
  }
  if (g.rt == PrimitiveType::kF32 && g.lt == g.rtt && half(g.lt)) return g.lt;
  return std::nullopt;
}

StatusOr<Value*> ToTensorCoreBits(llvm::IRBuilderBase& b, Value* v, PrimitiveType from, const GemmAnalysis& g,
                                  PrimitiveType tc) {
  if (g.rt == tc && from != tc) {
    ASSIGN_OR_RETURN(v, EmitConvert(b, v, from, tc));
  }
  return b.CreateBitCast(v, b.getInt16Ty());
}

namespace {

std::vector<int64_t> MinorFirst(const Shape& s) {
  std::vector<int64_t> order = MajorToMinor(s);
  std::reverse(order.begin(), order.end());
  return order;
}

// Strides (in elements) of an array's dims under its layout.
std::vector<int64_t> Strides(const Shape& s) {
  std::vector<int64_t> stride(static_cast<size_t>(s.rank()), 0);
  int64_t step = 1;
  for (int64_t d : MinorFirst(s)) {
    stride[static_cast<size_t>(d)] = step;
    step *= s.dim(static_cast<int>(d));
  }
  return stride;
}

// The layout that gives `dims` the strides `stride` (size-1 dims, whose
// strides do not matter, most major), if those strides are a compact
// layout's.
std::optional<Layout> LayoutOfStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& stride) {
  std::vector<int64_t> order(dims.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
  auto key = [&](int64_t d) {
    return std::pair(dims[static_cast<size_t>(d)] == 1, dims[static_cast<size_t>(d)] == 1 ? d : stride[static_cast<size_t>(d)]);
  };
  std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return key(x) < key(y); });
  int64_t expect = 1;
  for (int64_t d : order) {
    if (dims[static_cast<size_t>(d)] == 1) continue;
    if (stride[static_cast<size_t>(d)] != expect) return std::nullopt;
    expect *= dims[static_cast<size_t>(d)];
  }
  Layout l;
  l.minor_to_major = order;
  return l;
}

// A logical (row-major) reshape of the memory view `from` to `to_dims`, as a
// view of the same bytes: each group of dims whose sizes multiply to the same
// product on both sides must lie in memory row-major and contiguous.
std::optional<Shape> ReshapeView(const Shape& from, const std::vector<int64_t>& to_dims) {
  const std::vector<int64_t>& a = from.dims();
  const std::vector<int64_t>& stride = Strides(from);
  std::vector<int64_t> out(to_dims.size(), 0);
  size_t i = 0, j = 0;
  while (i < a.size() || j < to_dims.size()) {
    const size_t i0 = i, j0 = j;
    int64_t pa = 1, pb = 1;
    if (i < a.size()) pa *= a[i++];
    if (j < to_dims.size()) pb *= to_dims[j++];
    while (pa != pb) {
      if (pa < pb && i < a.size()) pa *= a[i++];
      else if (pb < pa && j < to_dims.size()) pb *= to_dims[j++];
      else return std::nullopt;
    }
    // The group's non-1 source dims: contiguous, row-major.
    int64_t base = 0, last = -1;
    for (size_t d = i0; d < i; ++d) {
      if (a[d] == 1) continue;
      if (last >= 0 && stride[static_cast<size_t>(last)] != stride[d] * a[d]) return std::nullopt;
      last = static_cast<int64_t>(d);
      base = stride[d];
    }
    for (size_t e = j; e-- > j0;) {
      if (to_dims[e] == 1) continue;
      out[e] = base;
      base *= to_dims[e];
    }
  }
  std::optional<Layout> l = LayoutOfStrides(to_dims, out);
  if (!l) return std::nullopt;
  Shape v(from.element_type(), to_dims);
  v.set_layout(*l);
  return v;
}

// `op` as a view of its parameter's bytes (`*param`), where the chain from
// the parameter only bitcasts, transposes and reshapes without moving data:
// the gpu pipeline's canonical dots read [2, 8192, 4096] activations as
// [16384, 4096], and the backward pass's weights through a transpose.
std::optional<Shape> ByteView(const Instruction* op, const Instruction** param) {
  auto with_layout = [](Shape s) {
    if (!s.has_layout()) s.set_layout(Shape::DefaultLayout(s.rank()));
    return s;
  };
  for (int64_t d : op->shape().dims())
    if (d == 0) return std::nullopt;
  if (op->shape().has_layout() && !op->shape().layout().tiles.empty()) return std::nullopt;  // tiled memory
  switch (op->opcode()) {
    case Opcode::kParameter:
      *param = op;
      return with_layout(op->shape());
    case Opcode::kBitcast:
      if (!ByteView(op->operand(0), param)) return std::nullopt;
      return with_layout(op->shape());
    case Opcode::kTranspose: {
      std::optional<Shape> in = ByteView(op->operand(0), param);
      if (!in) return std::nullopt;
      const std::vector<int64_t>& perm = op->dimensions();
      Shape v(in->element_type(), op->shape().dims());
      Layout l;
      for (int64_t d : MinorFirst(*in))
        for (size_t r = 0; r < perm.size(); ++r)
          if (perm[r] == d) l.minor_to_major.push_back(static_cast<int64_t>(r));
      v.set_layout(l);
      return v;
    }
    case Opcode::kReshape: {
      std::optional<Shape> in = ByteView(op->operand(0), param);
      if (!in) return std::nullopt;
      return ReshapeView(*in, op->shape().dims());
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<DirectOperand> FindDirectOperand(const KernelSpec& spec, const GemmAnalysis& g, int k,
                                               PrimitiveType tc) {
  const Instruction* dot = g.dot;
  const Instruction* op = dot->operand(k);
  int arg = -1;
  std::optional<Shape> view;
  if (dot == spec.instr) {
    arg = ArgOfOperand(spec, k);
    if (arg >= 0) view = spec.args[static_cast<size_t>(arg)].shape;
  } else {
    const Instruction* param = nullptr;
    view = ByteView(op, &param);
    if (view && param) arg = ArgOfOperand(spec, static_cast<int>(param->parameter_number()));
  }
  if (arg < 0 || !view || (view->has_layout() && !view->layout().tiles.empty())) return std::nullopt;
  const Shape& s = spec.args[static_cast<size_t>(arg)].shape;
  if (!s.IsArray() || !view->IsArray() || s.element_type() != tc || view->element_type() != tc ||
      view->rank() == 0 || view->dims() != op->shape().dims() || s.num_elements() != view->num_elements())
    return std::nullopt;
  const std::vector<int64_t>& free = k == 0 ? g.lfree : g.rfree;
  const std::vector<int64_t>& contract = k == 0 ? g.dn.lhs_contracting : g.dn.rhs_contracting;
  if (free.empty() || contract.empty()) return std::nullopt;
  const int64_t minor = MajorToMinor(*view).back();
  if (view->dim(static_cast<int>(minor)) % 8 != 0) return std::nullopt;
  if (minor != free.back() && minor != contract.back()) return std::nullopt;
  DirectOperand d;
  d.arg = arg;
  d.view = *view;
  d.k_minor = minor == contract.back();
  return d;
}

llvm::Value* InsideOperand(llvm::IRBuilderBase& b, const GemmAnalysis& g, int k, Value* gr, Value* gk) {
  return b.CreateAnd(b.CreateICmpSLT(gr, I64(b, k == 0 ? g.mm : g.nn)), b.CreateICmpSLT(gk, I64(b, g.kk)));
}

StatusOr<Value*> ComputeOperandChunk(llvm::IRBuilderBase& b, ElementalEmitter& ee, const GemmAnalysis& g, int k,
                                     PrimitiveType tc, const std::vector<Value*>& base, Value* gr, Value* gk,
                                     Value* staged, Value* chunk) {
  const Instruction* dot = g.dot;
  const Shape& s = dot->operand(k)->shape();
  auto* v8 = llvm::FixedVectorType::get(b.getInt16Ty(), 8);
  // A loop, not 8 copies: a long prologue's code then exists once per chunk
  // (LLVM unrolls it where the body is small).
  RETURN_IF_ERROR(ForLoop(b, I64(b, 0), I64(b, 8), I64(b, 1), [&](Value* q) -> Status {
    Value* kq = b.CreateAdd(gk, q);
    b.CreateStore(b.getInt16(0), staged);
    RETURN_IF_ERROR(IfThen(b, InsideOperand(b, g, k, gr, kq), [&]() -> Status {
      ee.ClearCache();
      std::vector<Value*> at = base;
      DelinearizeInto(b, gr, s, k == 0 ? g.lfree : g.rfree, at);
      DelinearizeInto(b, kq, s, k == 0 ? g.dn.lhs_contracting : g.dn.rhs_contracting, at);
      ASSIGN_OR_RETURN(Value * v, EmitOperand(ee, dot, k, at));
      ASSIGN_OR_RETURN(v, ToTensorCoreBits(b, v, k == 0 ? g.lt : g.rtt, g, tc));
      b.CreateStore(v, staged);
      ee.ClearCache();
      return Status::Ok();
    }));
    b.CreateStore(b.CreateLoad(b.getInt16Ty(), staged), b.CreateInBoundsGEP(b.getInt16Ty(), chunk, q));
    return Status::Ok();
  }));
  return b.CreateLoad(v8, chunk, "computed_chunk");
}

Value* DirectChunkAddress(llvm::IRBuilderBase& b, ElementalEmitter& ee, const GemmAnalysis& g, const DirectOperand& d,
                          int k, const std::vector<Value*>& base, Value* gr, Value* gk, Value* in) {
  const Shape& s = g.dot->operand(k)->shape();
  if (in) {
    gr = b.CreateSelect(in, gr, I64(b, 0));
    gk = b.CreateSelect(in, gk, I64(b, 0));
  }
  std::vector<Value*> idx = base;
  DelinearizeInto(b, gr, s, k == 0 ? g.lfree : g.rfree, idx);
  DelinearizeInto(b, gk, s, k == 0 ? g.dn.lhs_contracting : g.dn.rhs_contracting, idx);
  return ee.ElementAddressAs(d.arg, d.view, idx);
}

StatusOr<EmittedKernel> EmitGemmMmaKernel(llvm::Module& m, const KernelSpec& spec, const GemmAnalysis& g,
                                          PrimitiveType tc) {
  const GemmTiles& t = ChooseGemmTiles(g.mm, g.nn);
  const int64_t threads = t.warps_m * t.warps_n * 32;
  const int64_t wtm = t.bm / t.warps_m, wtn = t.bn / t.warps_n;  // warp tile
  const int64_t mt = wtm / 16, nt = wtn / 8;                      // mma tiles per warp
  if (nt % 2 != 0) return Status::Error("codegen: GEMM tile with an odd number of 8-column mma tiles per warp");
  const int64_t pitch = t.bk + 8;
  const Instruction* dot = g.dot;

  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  llvm::Type* i16 = b.getInt16Ty();
  llvm::Type* f32 = b.getFloatTy();
  const int64_t tiles_m = (g.mm + t.bm - 1) / t.bm, tiles_n = (g.nn + t.bn - 1) / t.bn;

  Value* tid = ThreadId64(b);
  Value* warp = b.CreateUDiv(tid, I64(b, 32));
  Value* lane = b.CreateURem(tid, I64(b, 32));
  Value* grp = b.CreateUDiv(lane, I64(b, 4));  // the PTX ISA's groupID
  Value* tig = b.CreateURem(lane, I64(b, 4));  // threadID_in_group
  Value* wm = b.CreateURem(warp, I64(b, t.warps_m));
  Value* wn = b.CreateUDiv(warp, I64(b, t.warps_m));
  const GemmBlock blk = LocateGemmBlock(b, g, t.bm, t.bn);
  Value* row0 = blk.row0;
  Value* col0 = blk.col0;
  const std::vector<Value*>&lbase = blk.lbase, &rbase = blk.rbase;
  // How each operand reaches shared memory (the staging below): 16-byte
  // chunks, through two shared stages, the next slice on its way while the
  // warps multiply the current one.
  enum class Staging {
    kCopyRows,  // read straight from an argument, contiguous along k: cp.async into [row][k]
    kCopyK,     // read straight from an argument, contiguous along m or n: cp.async into [k][row]
    kComputed,  // a prologue or conversion to compute: 8 k of a row in registers, then one store
  };
  const std::optional<DirectOperand> direct[2] = {FindDirectOperand(spec, g, 0, tc), FindDirectOperand(spec, g, 1, tc)};
  Staging how[2];
  for (int k = 0; k < 2; ++k)
    how[k] = !direct[k] ? Staging::kComputed : direct[k]->k_minor ? Staging::kCopyRows : Staging::kCopyK;
  const bool full_tiles = g.mm % t.bm == 0 && g.nn % t.bn == 0 && g.kk % t.bk == 0;
  if ((t.bm * t.bk / 8) % threads != 0 || (t.bn * t.bk / 8) % threads != 0)
    return Status::Error("codegen: GEMM tile whose 16-byte chunks do not split evenly over its threads");
  // An operand contiguous along its free dim (B [k][n] or A [k][m] in
  // memory) is kept [k][n] or [k][m] in shared memory too, copied by
  // cp.async, and its fragments read transposed (ldmatrix .trans); rows of
  // bn + 8 or bm + 8 elements keep them 16-byte aligned and a matrix's 8 rows
  // in distinct bank groups.
  const bool a_km = how[0] == Staging::kCopyK, b_kn = how[1] == Staging::kCopyK;
  const int64_t pitch_m = t.bm + 8, pitch_n = t.bn + 8;
  const int64_t a_stage = a_km ? t.bk * pitch_m : t.bm * pitch;  // elements of one stage
  const int64_t b_stage = b_kn ? t.bk * pitch_n : t.bn * pitch;
  Value* as = SharedArray(b, i16, 2 * a_stage, spec.name + "_lhs_tile");
  Value* bs = SharedArray(b, i16, 2 * b_stage, spec.name + "_rhs_tile");
  std::vector<Value*> acc(mt * nt * 4);
  for (Value*& a : acc) {
    a = EntryAlloca(b, f32, "acc");
    b.CreateStore(llvm::ConstantFP::get(f32, 0.0), a);
  }
  Value* staged = EntryAlloca(b, i16, "staged");
  auto* v8 = llvm::FixedVectorType::get(i16, 8);
  Value* chunk = EntryAlloca(b, v8, "chunk");

  // The rows each lane addresses for ldmatrix (lane l: row l % 8 of matrix
  // j = l / 8), and the 16-byte row's address in a shared tile.
  Value* l8 = b.CreateURem(lane, I64(b, 8));
  Value* mj = b.CreateUDiv(lane, I64(b, 8));
  Value* a_row = b.CreateAdd(b.CreateMul(b.CreateAnd(mj, I64(b, 1)), I64(b, 8)), l8);
  Value* a_k = b.CreateMul(b.CreateLShr(mj, I64(b, 1)), I64(b, 8));
  Value* b_col = b.CreateAdd(b.CreateMul(b.CreateLShr(mj, I64(b, 1)), I64(b, 8)), l8);
  Value* b_k = b.CreateMul(b.CreateAnd(mj, I64(b, 1)), I64(b, 8));
  auto row_address = [&](Value* tile, Value* row, Value* k) {
    return b.CreateInBoundsGEP(i16, tile, b.CreateAdd(b.CreateMul(row, I64(b, pitch)), k));
  };

  // The warp's mma ops over the staged slice.
  auto mma_slice = [&](Value* atile, Value* btile) {
    ScopedHloLocation at(b, spec, dot);  // the tile's tensor-core ops
    for (int64_t ks = 0; ks < t.bk; ks += 16) {
      std::vector<std::vector<Value*>> afrag(mt), bfrag(nt);
      // A: one ldmatrix.x4 per 16×16 fragment; matrix j is rows 8·(j & 1)
      // and k 8·(j >> 1) on: registers a0-a3 in the mma's order.
      for (int64_t mi = 0; mi < mt; ++mi) {
        if (a_km) {
          // [k][m]: lane l addresses k row 8·(j >> 1) + l % 8 at m 8·(j & 1)
          // of matrix j = l / 8, read transposed: the same a0-a3.
          Value* mrow = b.CreateAdd(b.CreateAdd(b.CreateMul(wm, I64(b, wtm)), I64(b, mi * 16)),
                                    b.CreateMul(b.CreateAnd(mj, I64(b, 1)), I64(b, 8)));
          Value* kr = b.CreateAdd(I64(b, ks), b.CreateAdd(a_k, l8));
          afrag[mi] = LdMatrixX4(b, b.CreateInBoundsGEP(i16, atile, b.CreateAdd(b.CreateMul(kr, I64(b, pitch_m)), mrow)),
                                 /*trans=*/true);
          continue;
        }
        Value* r = b.CreateAdd(b.CreateAdd(b.CreateMul(wm, I64(b, wtm)), I64(b, mi * 16)), a_row);
        afrag[mi] = LdMatrixX4(b, row_address(atile, r, b.CreateAdd(I64(b, ks), a_k)));
      }
      // B ([n][k]): one ldmatrix.x4 per two 8-column fragments (every warp
      // tile of the table has an even count); matrix j is columns 8·(j >> 1)
      // and k 8·(j & 1) on: b0, b1 of the first, then of the second.
      for (int64_t ni = 0; ni + 1 < nt; ni += 2) {
        std::vector<Value*> w;
        if (b_kn) {
          // [k][n]: lane l addresses k row 8·(j & 1) + l % 8 at n 8·(j >> 1)
          // of matrix j = l / 8, read transposed.
          Value* n = b.CreateAdd(b.CreateAdd(b.CreateMul(wn, I64(b, wtn)), I64(b, ni * 8)),
                                 b.CreateMul(b.CreateLShr(mj, I64(b, 1)), I64(b, 8)));
          Value* kr = b.CreateAdd(I64(b, ks), b.CreateAdd(b.CreateMul(b.CreateAnd(mj, I64(b, 1)), I64(b, 8)), l8));
          w = LdMatrixX4(b, b.CreateInBoundsGEP(i16, btile, b.CreateAdd(b.CreateMul(kr, I64(b, pitch_n)), n)),
                         /*trans=*/true);
        } else {
          Value* n = b.CreateAdd(b.CreateAdd(b.CreateMul(wn, I64(b, wtn)), I64(b, ni * 8)), b_col);
          w = LdMatrixX4(b, row_address(btile, n, b.CreateAdd(I64(b, ks), b_k)));
        }
        bfrag[ni] = {w[0], w[1]};
        bfrag[ni + 1] = {w[2], w[3]};
      }
      for (int64_t mi = 0; mi < mt; ++mi)
        for (int64_t ni = 0; ni < nt; ++ni) {
          Value** slot = &acc[(mi * nt + ni) * 4];
          std::vector<Value*> cin;
          for (int q = 0; q < 4; ++q) cin.push_back(b.CreateLoad(f32, slot[q]));
          std::vector<Value*> d = MmaM16N8K16(b, tc == PrimitiveType::kBF16, afrag[mi], bfrag[ni], cin);
          for (int q = 0; q < 4; ++q) b.CreateStore(d[q], slot[q]);
        }
    }
  };

  // Staging: each thread moves 16-byte chunks of both operands (every tile
  // of the table splits evenly), through two shared stages: while the warps
  // run the mma ops of the slice in one stage, the next slice is on its way
  // into the other. An operand read straight from an argument (no prologue
  // to compute; FindDirectOperand) goes by cp.async where its shared layout
  // keeps its memory's order (sm_80: global to shared without passing
  // through registers, one commit group a slice, waited for before the
  // barrier that opens the slice): 8 k of one row into a 16-byte segment of
  // a [row][k] row (rows are 80 bytes apart), or 8 m or n at one k into a
  // [k][m] or [k][n] row (consecutive threads on consecutive chunks of one
  // k row, so that a warp's copies read whole 32-byte sectors). Chunks past
  // the problem's edges copy 0 bytes and fill zeros (the src-size form). An
  // operand with a prologue is computed before the mma ops, 8 k
  // of a row at a time (zeros past the edges), and stored after them as one
  // 16-byte vector: the global loads behind it are in flight while the
  // tensor cores work.
  std::vector<Value*> regs[2];
  for (int k = 0; k < 2; ++k)
    if (how[k] == Staging::kComputed)
      for (int64_t v = 0; v < (k == 0 ? t.bm : t.bn) * t.bk / 8 / threads; ++v)
        regs[k].push_back(EntryAlloca(b, v8, k == 0 ? "lhs_next" : "rhs_next"));
  const int64_t vectors[2] = {t.bm * t.bk / 8 / threads, t.bn * t.bk / 8 / threads};
  // Chunk v of operand k: its row (free index within the tile) and k offset.
  auto place = [&](int k, int64_t v) -> std::pair<Value*, Value*> {
    Value* e = b.CreateAdd(I64(b, v * threads), tid);
    if (how[k] == Staging::kCopyRows || how[k] == Staging::kComputed)
      return {b.CreateUDiv(e, I64(b, t.bk / 8)), b.CreateMul(b.CreateURem(e, I64(b, t.bk / 8)), I64(b, 8))};
    const int64_t chunks = (k == 0 ? t.bm : t.bn) / 8;  // of one k row
    return {b.CreateMul(b.CreateURem(e, I64(b, chunks)), I64(b, 8)), b.CreateUDiv(e, I64(b, chunks))};
  };
  // Operand k's tile in stage s (0 or 1).
  auto tile_of = [&](int k, Value* s) {
    return b.CreateInBoundsGEP(i16, k == 0 ? as : bs, b.CreateMul(s, I64(b, k == 0 ? a_stage : b_stage)));
  };
  // Starts slice k0 on its way into stage s: the copies (one commit group),
  // the loads and computations into registers.
  auto issue = [&](Value* k0, Value* s) -> Status {
    for (int k = 0; k < 2; ++k)
      for (int64_t v = 0; v < vectors[k]; ++v) {
        auto [row, kc] = place(k, v);
        Value* gr = b.CreateAdd(k == 0 ? row0 : col0, row);
        Value* gk = b.CreateAdd(k0, kc);
        const std::vector<Value*>& base = k == 0 ? lbase : rbase;
        if (how[k] == Staging::kComputed) {
          ASSIGN_OR_RETURN(Value * val, ComputeOperandChunk(b, ee, g, k, tc, base, gr, gk, staged, chunk));
          b.CreateStore(val, regs[k][static_cast<size_t>(v)]);
          continue;
        }
        Value* in = full_tiles ? nullptr : InsideOperand(b, g, k, gr, gk);
        Value* from = DirectChunkAddress(b, ee, g, *direct[k], k, base, gr, gk, in);
        Value* at = how[k] == Staging::kCopyRows ? b.CreateAdd(b.CreateMul(row, I64(b, pitch)), kc)
                                                 : b.CreateAdd(b.CreateMul(kc, I64(b, k == 0 ? pitch_m : pitch_n)), row);
        Value* to = b.CreateInBoundsGEP(i16, tile_of(k, s), at);
        if (in) CpAsync16ZeroFill(b, to, from, b.CreateSelect(in, b.getInt32(16), b.getInt32(0)));
        else CpAsync16(b, to, from);
      }
    CpAsyncCommit(b);
    return Status::Ok();
  };
  // The computed chunks into stage s.
  auto store_regs = [&](Value* s) {
    for (int k = 0; k < 2; ++k)
      for (size_t v = 0; v < regs[k].size(); ++v) {
        auto [row, kc] = place(k, static_cast<int64_t>(v));
        Value* at = b.CreateInBoundsGEP(i16, tile_of(k, s), b.CreateAdd(b.CreateMul(row, I64(b, pitch)), kc));
        b.CreateAlignedStore(b.CreateLoad(v8, regs[k][v]), at, llvm::Align(16));
      }
  };
  {
    ScopedHloLocation at(b, spec, dot);
    RETURN_IF_ERROR(issue(I64(b, 0), I64(b, 0)));
    store_regs(I64(b, 0));
  }
  Status st = ForLoop(b, I64(b, 0), I64(b, g.kk), I64(b, t.bk), [&](Value* k0) -> Status {
    ScopedHloLocation at(b, spec, dot);
    Value* s = b.CreateAnd(b.CreateUDiv(k0, I64(b, t.bk)), I64(b, 1));
    Value* other = b.CreateXor(s, I64(b, 1));
    Value* next = b.CreateAdd(k0, I64(b, t.bk));
    Value* more = b.CreateICmpSLT(next, I64(b, g.kk));
    RETURN_IF_ERROR(IfThen(b, more, [&]() -> Status {
      RETURN_IF_ERROR(issue(next, other));
      CpAsyncWait(b, 1);  // this slice's copies are in; the next slice's may not be
      return Status::Ok();
    }));
    RETURN_IF_ERROR(IfThen(b, b.CreateNot(more), [&]() -> Status {
      CpAsyncWait(b, 0);
      return Status::Ok();
    }));
    SyncThreads(b);
    mma_slice(tile_of(0, s), tile_of(1, s));
    RETURN_IF_ERROR(IfThen(b, more, [&]() -> Status {
      store_regs(other);
      return Status::Ok();
    }));
    SyncThreads(b);
    return Status::Ok();
  });
  RETURN_IF_ERROR(st);

  // The epilogue once, in a loop over this thread's accumulators (copied to
  // an indexable array; the main loop's stay in registers).
  st = StoreGemmAccumulators(b, ee, spec, g, blk, acc, f32, [&](Value* q) -> std::pair<Value*, Value*> {
    Value* mi = b.CreateUDiv(q, I64(b, nt * 4));
    Value* ni = b.CreateURem(b.CreateUDiv(q, I64(b, 4)), I64(b, nt));
    Value* r = b.CreateURem(q, I64(b, 4));
    // c0,c1: row groupID; c2,c3: row groupID+8; column 2·threadID_in_group + (r & 1).
    Value* i = b.CreateAdd(b.CreateAdd(row0, b.CreateMul(wm, I64(b, wtm))),
                           b.CreateAdd(b.CreateMul(mi, I64(b, 16)),
                                       b.CreateAdd(grp, b.CreateMul(b.CreateUDiv(r, I64(b, 2)), I64(b, 8)))));
    Value* j = b.CreateAdd(b.CreateAdd(col0, b.CreateMul(wn, I64(b, wtn))),
                           b.CreateAdd(b.CreateMul(ni, I64(b, 8)),
                                       b.CreateAdd(b.CreateMul(tig, I64(b, 2)), b.CreateURem(r, I64(b, 2)))));
    return {i, j};
  });
  RETURN_IF_ERROR(st);
  b.CreateRetVoid();
  MarkKernel(f, threads);
  EmittedKernel k;
  k.kind = "gemm-mma";
  auto travel = [&](int o) -> std::string {
    const char* side = o == 0 ? "m" : "n";
    switch (how[o]) {
      case Staging::kCopyRows: return "by cp.async along k";
      case Staging::kCopyK: return std::string("by cp.async along ") + side + " into [k][" + side + "] (ldmatrix.trans)";
      case Staging::kComputed: return "computed (its prologue or conversion) in 16-byte chunks of 8 k";
    }
    return "";
  };
  k.strategy = std::string("mma.sync m16n8k16 ") + (tc == PrimitiveType::kBF16 ? "bf16" : "f16") + ", tile " +
               std::to_string(t.bm) + "x" + std::to_string(t.bn) + "x" + std::to_string(t.bk) + ", " +
               std::to_string(t.warps_m * t.warps_n) + " warps, 2 shared stages; lhs " + travel(0) + "; rhs " +
               travel(1) + (full_tiles ? "" : "; tiles past the edges zero-filled");
  k.dims.block[0] = static_cast<uint32_t>(threads);
  k.dims.grid[0] = BlocksFor(g.nb * tiles_m * tiles_n, 1);
  return k;
}

}  // namespace hloscope::codegen
