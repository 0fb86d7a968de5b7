// Normalizations: a fusion whose reductions feed elementwise ops of a larger
// shape — softmax (max → exp → sum → divide), layer norm (mean → variance →
// scale/shift), RMSNorm; XLA GPU's `triton_softmax` fusions and ours. The
// elemental fallback (codegen.cc) redoes every reduction for every output
// element; here each row's reductions are computed once, by the threads of
// the row together, and then read from registers while the row's outputs
// are written.
//
// Rows come from an index analysis of the fused computation, from the root
// down: each instruction's index is followed as a function of the root's
// dimensions (elementwise ops keep it; broadcasts, transposes, and reshapes
// and bitcasts that only add or drop size-1 dims move it). A reduce must be
// asked for one index only, made of root dimensions (and zeros): those root
// dimensions are the row, the others the row's columns. Any other op between
// the root and a reduce (slice, pad, gather, a reshape that splits dims, …)
// refuses the kernel, and the elemental fallback takes it.
//
// Launch: a warp per row (8 rows a block) when the longest loop of a row, its
// columns or a reduction's elements, is ≤ 1024; else a block of 256 (≤ 4096)
// or 1024 threads per row. A pass per reduction, in producer order, then one
// for the outputs. In a pass each thread takes `vec` consecutive positions at
// a time: 16 bytes of the narrowest buffer contiguous along the pass's minor
// dim (4 f32, 8 bf16), halved until it divides that dim, else 1; positions
// (c·vec … c·vec + vec-1) for c = t, t + tpr, …; a parameter read
// contiguously along the row is loaded once per chunk as one <vec x T>
// (ld.global.nc.v4.f32, ld.global.nc.v4.u32 for 8 bf16; kernel buffers are
// 16-byte aligned: allocations are cuMemAlloc's or 64-byte-aligned heap
// offsets), outputs are stored the same way. The same analysis, run through
// the whole fused computation, says at which index each pass reads each
// parameter; one read at one index is served from the chunk's registers,
// anything else (a
// parameter under a slice, read at two indices) by the elemental emitter's
// scalar loads. When a thread's share of the row is ≤ 32 elements the chunks
// are unrolled and each parameter chunk is loaded once for the whole kernel:
// the reductions and the outputs read the row from registers (longer rows
// reload it per pass). Per reduction each thread combines its positions in
// order, then warp shuffles (and shared memory across warps) combine the
// threads'; the result reaches every thread of the row (shuffle from lane 0,
// or shared memory after a barrier), and later passes read it. The init value
// enters once, as in the reduction emitter, so results match the interpreter
// up to reordering.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/line_info.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

// A symbolic index: per dimension, a root dimension (≥ 0), zero (kZero), or a
// reduce's loop variable (≤ kLoop0: inside that reduce's input).
using Sym = std::vector<int>;
constexpr int kZero = -1;
constexpr int kLoop0 = -2;

constexpr int64_t kMinReducedElements = 32;  // below: the elemental fallback is as cheap
constexpr int64_t kMaxRowRegisters = 32;     // a thread's share of a row kept in registers

// Where a pass reads the fused parameters: per parameter, the indices (over
// the root's dims, or the reduce's loop variables kLoop0 - d for its input
// dim d); `irregular` ones are also read under an op the analysis does not
// follow.
struct Reads {
  std::map<const Instruction*, std::set<Sym>> at;
  std::set<const Instruction*> irregular;
};

struct Plan {
  std::vector<const Instruction*> roots;
  std::vector<const Instruction*> reduces;  // producers first
  std::map<const Instruction*, Sym> key;    // per reduce: the index it is asked for
  std::vector<int64_t> row_dims, col_dims;  // of the root shape, physical major → minor
  Shape root_shape;
  int64_t rows = 1, cols = 1;
  std::vector<Reads> reads;  // per reduce (in `reduces` order), then the outputs
};

Status Refuse(const Instruction& fusion, const std::string& why) {
  return Status::Error(fusion.name() + ": not a normalization: " + why);
}

// The index each operand of `i` is read at when `i` is read at `s`, for the
// ops the analysis follows (elementwise, broadcast, transpose, a reshape or
// bitcast that only adds or drops size-1 dims); else why not.
std::string OperandIndices(const Instruction* i, const Sym& s, std::vector<std::pair<const Instruction*, Sym>>& out) {
  const Shape& shape = i->shape();
  const Opcode op = i->opcode();
  if (IsElementwise(op)) {
    for (const Instruction* o : i->operands()) {
      if (o->shape().IsArray() && o->shape().rank() == 0) {
        out.push_back({o, {}});
      } else if (o->shape().IsArray() && o->shape().SameDims(shape)) {
        out.push_back({o, s});
      } else {
        return "%" + i->name() + " has an operand of another shape";
      }
    }
    return "";
  }
  if (op == Opcode::kBroadcast) {
    const Shape& in = i->operand(0)->shape();
    if (static_cast<int>(i->dimensions().size()) != in.rank()) return "malformed broadcast";
    Sym t(in.rank());
    for (int d = 0; d < in.rank(); ++d) {
      int64_t od = i->dimensions()[d];
      if (od < 0 || od >= shape.rank()) return "malformed broadcast";
      t[d] = s[od];
    }
    out.push_back({i->operand(0), t});
    return "";
  }
  if (op == Opcode::kTranspose) {
    const auto& perm = i->dimensions();
    if (static_cast<int>(perm.size()) != shape.rank()) return "malformed transpose";
    Sym t(shape.rank());
    for (int d = 0; d < shape.rank(); ++d) {
      if (perm[d] < 0 || perm[d] >= shape.rank()) return "malformed transpose";
      t[perm[d]] = s[d];
    }
    out.push_back({i->operand(0), t});
    return "";
  }
  if (op == Opcode::kBitcast || op == Opcode::kReshape) {
    // Only size-1 dims added or dropped: the other dims pair up in order
    // (physical order for a bitcast, logical for a reshape).
    const Shape& in = i->operand(0)->shape();
    if (!in.IsArray()) return "%" + i->name() + " of a tuple";
    auto big = [&](const Shape& sh) {
      std::vector<int64_t> order;
      if (op == Opcode::kBitcast) order = MajorToMinor(sh);
      else for (int d = 0; d < sh.rank(); ++d) order.push_back(d);
      std::vector<int64_t> res;
      for (int64_t d : order)
        if (sh.dim(static_cast<int>(d)) != 1) res.push_back(d);
      return res;
    };
    std::vector<int64_t> a = big(in), b = big(shape);
    if (a.size() != b.size()) return "%" + i->name() + " splits or merges dimensions";
    Sym t(in.rank(), kZero);
    for (size_t k = 0; k < a.size(); ++k) {
      if (in.dim(static_cast<int>(a[k])) != shape.dim(static_cast<int>(b[k])))
        return "%" + i->name() + " splits or merges dimensions";
      t[a[k]] = s[b[k]];
    }
    out.push_back({i->operand(0), t});
    return "";
  }
  return std::string(OpcodeName(op)) + " %" + i->name() + " lies between a reduce and the outputs";
}

// The input index of reduce `r` read at `key`: its reduced dims d are the
// loop variables kLoop0 - d.
Sym ReduceInputIndex(const Instruction* r, const Sym& key) {
  const Shape& in = r->operand(0)->shape();
  const auto& red = r->dimensions();
  Sym t(in.rank(), kZero);
  size_t k = 0;
  for (int d = 0; d < in.rank(); ++d) {
    if (std::find(red.begin(), red.end(), d) != red.end()) t[d] = kLoop0 - d;
    else if (k < key.size()) t[d] = key[k++];
  }
  return t;
}

class Analysis {
 public:
  Analysis(const Instruction& fusion, Plan& p) : fusion_(fusion), p_(p) {}

  Status Run() {
    const Computation* c = fusion_.fused_computation();
    if (!c || !c->root()) return Refuse(fusion_, "no fused computation");
    for (const auto& i : c->instructions()) {
      bool below = i->opcode() == Opcode::kReduce;
      for (const Instruction* o : i->operands()) below = below || reaches_.count(o);
      if (below) reaches_.insert(i.get());
    }
    p_.roots = KernelRoots(fusion_);
    p_.root_shape = p_.roots[0]->shape();
    for (const Instruction* r : p_.roots) {
      if (!r->shape().IsArray() || !r->shape().SameDims(p_.root_shape))
        return Refuse(fusion_, "the outputs differ in shape");
      if (r->opcode() == Opcode::kReduce) return Refuse(fusion_, "a reduce is an output (the reduction emitter's)");
      Sym s(r->shape().rank());
      for (int d = 0; d < r->shape().rank(); ++d) s[d] = d;
      RETURN_IF_ERROR(Visit(r, s));
    }
    if (p_.key.empty()) return Refuse(fusion_, "no reduce under the outputs");
    for (const auto& i : c->instructions())
      if (p_.key.count(i.get())) p_.reduces.push_back(i.get());
    std::set<int> row;
    for (const auto& [r, k] : p_.key)
      for (int e : k)
        if (e >= 0) row.insert(e);
    for (int64_t d : MajorToMinor(p_.root_shape)) {
      (row.count(static_cast<int>(d)) ? p_.row_dims : p_.col_dims).push_back(d);
    }
    p_.rows = Product(p_.root_shape, p_.row_dims);
    p_.cols = Product(p_.root_shape, p_.col_dims);
    if (p_.col_dims.empty())
      return Refuse(fusion_, "the outputs have the reductions' shape (the reduction emitter's epilogue)");
    return Status::Ok();
  }

 private:
  Status Visit(const Instruction* i, const Sym& s) {
    if (!reaches_.count(i)) return Status::Ok();  // generated elementally at any index
    if (!seen_.insert({i, s}).second) return Status::Ok();
    if (++visits_ > 200000) return Refuse(fusion_, "the fused computation is too large to analyse");
    const Shape& shape = i->shape();
    if (!shape.IsArray() || static_cast<int>(s.size()) != shape.rank())
      return Refuse(fusion_, "%" + i->name() + " is not an array of the index's rank");
    if (i->opcode() == Opcode::kReduce) return VisitReduce(i, s);
    std::vector<std::pair<const Instruction*, Sym>> ops;
    std::string why = OperandIndices(i, s, ops);
    if (!why.empty()) return Refuse(fusion_, why);
    for (const auto& [o, t] : ops) RETURN_IF_ERROR(Visit(o, t));
    return Status::Ok();
  }

  Status VisitReduce(const Instruction* r, const Sym& s) {
    if (r->operand_count() != 2 || !r->to_apply()) return Refuse(fusion_, "variadic reduce %" + r->name());
    for (int e : s)
      if (e <= kLoop0) return Refuse(fusion_, "%" + r->name() + " is read inside another reduction's loop");
    auto [it, fresh] = p_.key.emplace(r, s);
    if (!fresh) {
      if (it->second != s) return Refuse(fusion_, "%" + r->name() + " is read at two different rows");
      return Status::Ok();
    }
    const Shape& in = r->operand(0)->shape();
    int64_t n = 1;
    for (int64_t d : r->dimensions()) n *= in.dim(static_cast<int>(d));
    if (n < kMinReducedElements) return Refuse(fusion_, "%" + r->name() + " reduces fewer than 32 elements");
    if (static_cast<int>(s.size() + r->dimensions().size()) != in.rank())
      return Refuse(fusion_, "malformed reduce %" + r->name());
    RETURN_IF_ERROR(Visit(r->operand(0), ReduceInputIndex(r, s)));
    return Visit(r->operand(1), {});
  }

  const Instruction& fusion_;
  Plan& p_;
  std::set<const Instruction*> reaches_;
  std::set<std::pair<const Instruction*, Sym>> seen_;
  int64_t visits_ = 0;
};

// Collects a pass's Reads: the index analysis through the whole fused
// computation (not only above the reduces), stopping at reduces (their values
// are the row's by then).
class ReadWalker {
 public:
  explicit ReadWalker(Reads& out) : out_(out) {}

  void Walk(const Instruction* i, const Sym& s) {
    if (!seen_.insert({i, s}).second) return;
    const Opcode op = i->opcode();
    if (op == Opcode::kReduce || op == Opcode::kConstant || op == Opcode::kIota) return;
    if (++visits_ > 100000 || !i->shape().IsArray() || static_cast<int>(s.size()) != i->shape().rank())
      return MarkBelow(i);
    if (op == Opcode::kParameter) {
      out_.at[i].insert(s);
      return;
    }
    std::vector<std::pair<const Instruction*, Sym>> ops;
    if (!OperandIndices(i, s, ops).empty()) return MarkBelow(i);
    for (const auto& [o, t] : ops) Walk(o, t);
  }

 private:
  void MarkBelow(const Instruction* i) {
    if (!marked_.insert(i).second) return;
    if (i->opcode() == Opcode::kParameter) out_.irregular.insert(i);
    for (const Instruction* o : i->operands()) MarkBelow(o);
  }

  Reads& out_;
  std::set<std::pair<const Instruction*, Sym>> seen_;
  std::set<const Instruction*> marked_;
  int64_t visits_ = 0;
};

StatusOr<Plan> MakePlan(const Instruction& fusion) {
  if (fusion.opcode() != Opcode::kFusion) return Refuse(fusion, "not a fusion");
  Plan p;
  Analysis a(fusion, p);
  RETURN_IF_ERROR(a.Run());
  for (const Instruction* r : p.reduces) {
    PrimitiveType t = r->operand(0)->shape().element_type();
    RETURN_IF_ERROR(CheckSupportedType(t, r->name()));
    if (IsComplex(t)) return Refuse(fusion, "complex reduction %" + r->name());
  }
  for (const Instruction* r : p.roots) RETURN_IF_ERROR(CheckSupportedType(r->shape().element_type(), r->name()));
  p.reads.resize(p.reduces.size() + 1);
  for (size_t k = 0; k < p.reduces.size(); ++k) {
    const Instruction* r = p.reduces[k];
    ReadWalker(p.reads[k]).Walk(r->operand(0), ReduceInputIndex(r, p.key.at(r)));
  }
  ReadWalker out(p.reads.back());
  for (const Instruction* r : p.roots) {
    Sym s(r->shape().rank());
    for (int d = 0; d < r->shape().rank(); ++d) s[d] = d;
    out.Walk(r, s);
  }
  return p;
}

Value* Lt(llvm::IRBuilderBase& b, Value* a, int64_t c) { return b.CreateICmpSLT(a, I64(b, c)); }

// The positions of one pass over a row: a reduce's input elements (its
// reduced dims) or the row's outputs (the root's column dims), physical
// major → minor, size-1 dims left out (their coordinate is 0).
struct Space {
  std::vector<int64_t> dims, sizes;
  int64_t n = 1;
  int64_t vec = 1;  // consecutive positions a thread takes at a time
};

Space MakeSpace(const Shape& s, const std::vector<int64_t>& dims) {
  Space sp;
  for (int64_t d : dims) {
    int64_t size = s.dim(static_cast<int>(d));
    if (size == 1) continue;
    sp.dims.push_back(d);
    sp.sizes.push_back(size);
    sp.n *= size;
  }
  return sp;
}

// The most minor dim of `s` in memory that is not of size 1, or -1.
int ContiguousDim(const Shape& s) {
  std::vector<int64_t> m2m = MajorToMinor(s);
  for (auto it = m2m.rbegin(); it != m2m.rend(); ++it)
    if (s.dim(static_cast<int>(*it)) != 1) return static_cast<int>(*it);
  return -1;
}

// Element types moved as <vec x T>: one scalar LLVM type in memory.
bool VectorMovable(PrimitiveType t, llvm::LLVMContext& ctx) {
  if (t == PrimitiveType::kPred || IsSubByte(t) || IsComplex(t)) return false;
  llvm::Type* st = LlvmStorageType(t, ctx);
  return st && (st->isIntegerTy() || st->isFloatingPointTy());
}

// A parameter a pass reads at one index: per parameter dim, a root row dim
// (≥ 0), kZero, or the pass's space position q as kLoop0 - q.
struct Access {
  const Instruction* param = nullptr;
  int arg = -1;
  std::vector<int> at;
  bool contiguous = false;  // along the space's minor dim: one vector load per chunk
};

// A thread's `vec` consecutive positions of a pass.
struct Chunk {
  int64_t it = -1;          // unrolled: which of the thread's chunks; -1 in a loop
  Value* valid = nullptr;   // unrolled: the chunk lies in the row
  Value* first = nullptr;   // loop: the thread's first chunk
  std::vector<std::vector<Value*>> coords;                 // per lane, per space dim
  std::map<const Instruction*, std::vector<Value*>> vals;  // per parameter read: per lane
};

class Emitter {
 public:
  Emitter(llvm::IRBuilderBase& b, ElementalEmitter& ee, const KernelSpec& spec, const Plan& p, int64_t tpr)
      : b_(b), ee_(ee), spec_(spec), p_(p), tpr_(tpr) {}

  Status Run() {
    Value* tid = ThreadId64(b_);
    lane_ = b_.CreateURem(tid, I64(b_, 32));
    warp_ = b_.CreateUDiv(tid, I64(b_, 32));
    Value* row = tpr_ == 32 ? b_.CreateAdd(b_.CreateMul(BlockId64(b_), I64(b_, 8)), warp_) : BlockId64(b_);
    t_ = tpr_ == 32 ? lane_ : tid;
    row_ok_ = Lt(b_, row, p_.rows);
    row_index_.assign(p_.root_shape.rank(), nullptr);
    DelinearizeInto(b_, b_.CreateSelect(row_ok_, row, I64(b_, 0)), p_.root_shape, p_.row_dims, row_index_);
    is_row_.assign(p_.root_shape.rank(), false);
    for (int64_t d : p_.row_dims) is_row_[d] = true;
    // Parameters read in a chunk come from its registers; elsewhere (and
    // those not read at one index) from memory, as the elemental emitter would.
    for (const auto& i : spec_.instr->fused_computation()->instructions()) {
      const Instruction* param = i.get();
      if (param->opcode() != Opcode::kParameter || !param->shape().IsArray()) continue;
      const int arg = ArgOfOperand(spec_, static_cast<int>(param->parameter_number()));
      if (arg < 0) continue;
      ee_.Override(param, [this, param, arg](const std::vector<Value*>& index) -> StatusOr<Value*> {
        if (chunk_) {
          auto it = chunk_->vals.find(param);
          if (it != chunk_->vals.end()) return it->second[static_cast<size_t>(vlane_)];
        }
        return ee_.Load(arg, index);
      });
    }
    for (size_t k = 0; k < p_.reduces.size(); ++k) RETURN_IF_ERROR(Reduce(k));
    return WriteOutputs();
  }

 private:
  // Chooses the pass's `vec` and the parameters it serves from registers
  // (`r`: the reduce whose pass it is; null: the outputs'). A chunk is 16
  // bytes of the narrowest buffer contiguous along the space's minor dim (4
  // f32, 8 bf16: NVPTX moves 8-byte <4 x bfloat> as two scalar loads), or
  // fewer where the minor dim's size asks.
  std::vector<Access> Prepare(const Reads& reads, const Instruction* r, Space& sp) {
    llvm::LLVMContext& ctx = b_.getContext();
    const int last = kLoop0 - (static_cast<int>(sp.dims.size()) - 1);
    std::vector<Access> out;
    int64_t narrowest = 0;  // bytes of an element, over the buffers that could move as vectors
    auto could_move = [&](PrimitiveType t) {
      const int64_t bytes = BitWidth(t) / 8;
      narrowest = narrowest == 0 ? bytes : std::min(narrowest, bytes);
    };
    for (const auto& [param, at] : reads.at) {
      if (at.size() != 1 || reads.irregular.count(param)) continue;
      Access a;
      a.param = param;
      a.arg = ArgOfOperand(spec_, static_cast<int>(param->parameter_number()));
      if (a.arg < 0 || !spec_.args[a.arg].shape.IsArray()) continue;
      bool moves = false;  // some dim follows the pass's positions
      for (int e : *at.begin()) {
        int space_dim = -1;  // the dim of the pass's shape this one follows
        if (r ? e <= kLoop0 : (e >= 0 && !is_row_[e])) space_dim = r ? kLoop0 - e : e;
        if (space_dim < 0) {
          a.at.push_back(e);  // a row dim, or zero
          continue;
        }
        auto it = std::find(sp.dims.begin(), sp.dims.end(), space_dim);
        a.at.push_back(it == sp.dims.end() ? kZero : kLoop0 - static_cast<int>(it - sp.dims.begin()));
        moves = moves || it != sp.dims.end();
      }
      if (!moves) continue;  // the same element for the whole row
      const Shape& s = spec_.args[a.arg].shape;
      const int cd = ContiguousDim(s);
      a.contiguous = !sp.dims.empty() && cd >= 0 && a.at[cd] == last && VectorMovable(s.element_type(), ctx) &&
                     std::count(a.at.begin(), a.at.end(), last) == 1;
      if (a.contiguous) could_move(s.element_type());
      out.push_back(std::move(a));
    }
    if (!r) {
      for (size_t k = 0; k < p_.roots.size(); ++k)
        if (OutputCapable(k, sp)) could_move(spec_.args[FirstOutputArg(spec_) + static_cast<int>(k)].shape.element_type());
    }
    const int64_t minor = sp.sizes.empty() ? 1 : sp.sizes.back();
    int64_t vec = narrowest > 0 ? std::clamp<int64_t>(16 / narrowest, 1, 8) : 1;
    while (vec > 1 && minor % vec != 0) vec /= 2;
    sp.vec = vec;
    if (sp.vec == 1)
      for (Access& a : out) a.contiguous = false;
    // In parameter order, not `reads.at`'s (by address): the loads, and so
    // the IR, must not depend on where the instructions were allocated.
    std::sort(out.begin(), out.end(), [](const Access& x, const Access& y) {
      return x.param->parameter_number() < y.param->parameter_number();
    });
    return out;
  }

  // Output `k` is contiguous along the output space's minor dim.
  bool OutputCapable(size_t k, const Space& sp) {
    const Shape& s = spec_.args[FirstOutputArg(spec_) + static_cast<int>(k)].shape;
    return !sp.dims.empty() && ContiguousDim(s) == sp.dims.back() && VectorMovable(s.element_type(), b_.getContext());
  }

  // `acc.at` at `chunk`'s lanes: one vector load when contiguous, else a
  // load per lane.
  std::vector<Value*> LoadAccess(const Access& a, const Chunk& c) {
    ScopedHloLocation at(b_, spec_, a.param);
    auto index = [&](size_t v) {
      std::vector<Value*> idx;
      for (int e : a.at) idx.push_back(e == kZero ? I64(b_, 0) : e >= 0 ? row_index_[e] : c.coords[v][kLoop0 - e]);
      return idx;
    };
    std::vector<Value*> out;
    const size_t vec = c.coords.size();
    if (!a.contiguous) {
      for (size_t v = 0; v < vec; ++v) out.push_back(ee_.Load(a.arg, index(v)));
      return out;
    }
    const PrimitiveType t = spec_.args[a.arg].shape.element_type();
    llvm::Type* st = LlvmStorageType(t, b_.getContext());
    auto* vt = llvm::FixedVectorType::get(st, static_cast<unsigned>(vec));
    const uint64_t bytes = static_cast<uint64_t>(BitWidth(t) / 8) * vec;
    Value* ld = b_.CreateAlignedLoad(vt, ee_.ElementAddress(a.arg, index(0)), llvm::Align(std::min<uint64_t>(16, bytes)),
                                     a.param->name());
    for (size_t v = 0; v < vec; ++v) out.push_back(b_.CreateExtractElement(ld, static_cast<uint64_t>(v)));
    return out;
  }

  // One pass over the row's positions in `sp`: `body` per chunk, with the
  // parameters of `reads` in its registers. Unrolled when a thread takes ≤
  // kMaxRowRegisters positions: then a parameter chunk loaded by an earlier
  // unrolled pass is not loaded again.
  Status Pass(const Space& sp, const std::vector<Access>& reads, const std::function<Status(Chunk&)>& body) {
    const int64_t vec = sp.vec, active = sp.n / vec;  // chunks in the row
    Value* end = b_.CreateSelect(row_ok_, I64(b_, active), I64(b_, 0));
    auto place = [&](Chunk& c, Value* chunk) {
      Value* pos = vec == 1 ? chunk : b_.CreateMul(chunk, I64(b_, vec));
      c.coords.assign(static_cast<size_t>(vec), Delinearize(b_, pos, sp.sizes));
      for (int64_t v = 1; v < vec; ++v) c.coords[v].back() = b_.CreateAdd(c.coords[0].back(), I64(b_, v));
    };
    struct InChunk {  // the parameter override reads `c` while alive
      Emitter* e;
      InChunk(Emitter* e, Chunk* c) : e(e) { e->chunk_ = c; }
      ~InChunk() { e->chunk_ = nullptr; }
    };
    const int64_t chunks = (active + tpr_ - 1) / tpr_;
    if (chunks * vec <= kMaxRowRegisters) {
      std::vector<Chunk> cs(static_cast<size_t>(chunks));
      for (int64_t it = 0; it < chunks; ++it) {  // every load first
        Chunk& c = cs[static_cast<size_t>(it)];
        c.it = it;
        Value* id = it == 0 ? t_ : b_.CreateAdd(t_, I64(b_, it * tpr_));
        c.valid = b_.CreateICmpSLT(id, end);
        place(c, b_.CreateSelect(c.valid, id, I64(b_, 0)));  // out of the row: read position 0
        for (const Access& a : reads) {
          auto key = std::make_tuple(a.param, a.at, sp.sizes, vec, it);
          auto found = registers_.find(key);
          c.vals[a.param] = found != registers_.end() ? found->second : (registers_[key] = LoadAccess(a, c));
        }
      }
      for (Chunk& c : cs) {
        ee_.ClearCache();
        InChunk in(this, &c);
        RETURN_IF_ERROR(body(c));
      }
      ee_.ClearCache();
      return Status::Ok();
    }
    ee_.ClearCache();
    RETURN_IF_ERROR(ForLoop(b_, t_, end, I64(b_, tpr_), [&](Value* id) -> Status {
      ee_.ClearCache();
      Chunk c;
      c.first = b_.CreateICmpEQ(id, t_);
      place(c, id);
      for (const Access& a : reads) c.vals[a.param] = LoadAccess(a, c);
      {
        InChunk in(this, &c);
        RETURN_IF_ERROR(body(c));
      }
      ee_.ClearCache();
      return Status::Ok();
    }));
    ee_.ClearCache();
    return Status::Ok();
  }

  // The value of reduce `k` for this row, in every thread of the row.
  Status Reduce(size_t k) {
    const Instruction* r = p_.reduces[k];
    const Sym& key = p_.key.at(r);
    const Shape& in = r->operand(0)->shape();
    std::vector<int64_t> red;
    for (int64_t d : MajorToMinor(in))
      if (std::find(r->dimensions().begin(), r->dimensions().end(), d) != r->dimensions().end()) red.push_back(d);
    const int64_t n = Product(in, red);
    Space sp = MakeSpace(in, red);
    std::vector<Access> reads = Prepare(p_.reads[k], r, sp);
    const int64_t active = sp.n / sp.vec;  // threads holding a part
    llvm::Type* t = RegisterType(in.element_type(), b_.getContext());
    Value* acc = EntryAlloca(b_, t, "acc");
    std::vector<Value*> base(in.rank(), I64(b_, 0));
    {
      size_t j = 0;
      for (int d = 0; d < in.rank(); ++d) {
        if (std::find(red.begin(), red.end(), d) != red.end()) continue;
        int e = key[j++];
        if (e >= 0) base[d] = row_index_[e];
      }
    }
    // Each thread combines its positions in order (the first one taken as is).
    RETURN_IF_ERROR(Pass(sp, reads, [&](Chunk& c) -> Status {
      for (size_t v = 0; v < c.coords.size(); ++v) {
        vlane_ = static_cast<int64_t>(v);
        std::vector<Value*> idx = base;
        for (size_t q = 0; q < sp.dims.size(); ++q) idx[sp.dims[q]] = c.coords[v][q];
        ASSIGN_OR_RETURN(Value * x, ee_.Emit(r->operand(0), idx));
        if (c.it == 0 && v == 0) {
          b_.CreateStore(x, acc);
          continue;
        }
        Value* old = b_.CreateLoad(t, acc);
        ASSIGN_OR_RETURN(Value * next, Combine(r, old, x));
        if (c.it > 0) next = b_.CreateSelect(c.valid, next, old);
        if (c.it < 0 && v == 0) next = b_.CreateSelect(c.first, x, next);
        b_.CreateStore(next, acc);
      }
      return Status::Ok();
    }));
    // Lanes combine down to lane 0 of each warp; lane + d holds a value when
    // it took a chunk of the row.
    RETURN_IF_ERROR(WarpReduce(r, acc, t, [&](int d) {
      return b_.CreateAnd(Lt(b_, b_.CreateAdd(lane_, I64(b_, d)), 32),
                          Lt(b_, b_.CreateAdd(t_, I64(b_, d)), active));
    }));
    Value* slot = EntryAlloca(b_, t, "row_value");
    auto finish = [&]() -> Status {  // reducer(init, acc), or init for an empty row
      ScopedHloLocation at(b_, spec_, r);
      ASSIGN_OR_RETURN(Value * init, ee_.Emit(r->operand(1), {}));
      Value* v = init;
      if (n > 0) {
        ASSIGN_OR_RETURN(v, Combine(r, init, b_.CreateLoad(t, acc)));
      }
      b_.CreateStore(v, slot);
      ee_.ClearCache();
      return Status::Ok();
    };
    if (tpr_ == 32) {
      RETURN_IF_ERROR(finish());  // lane 0's is the row's; the others' are replaced
      b_.CreateStore(Broadcast(b_.CreateLoad(t, slot)), slot);
    } else {
      const int64_t nw = tpr_ / 32;
      llvm::Type* mt = t->isIntegerTy(1) ? b_.getInt8Ty() : t;
      Value* parts = SharedArray(b_, mt, nw + 1, spec_.name + "_row" + std::to_string(k));
      auto to_mem = [&](Value* v) { return t->isIntegerTy(1) ? b_.CreateZExt(v, mt) : v; };
      auto from_mem = [&](Value* v) { return t->isIntegerTy(1) ? b_.CreateTrunc(v, b_.getInt1Ty()) : v; };
      RETURN_IF_ERROR(IfThen(b_, b_.CreateICmpEQ(lane_, I64(b_, 0)), [&] {
        b_.CreateStore(to_mem(b_.CreateLoad(t, acc)), b_.CreateInBoundsGEP(mt, parts, warp_));
        return Status::Ok();
      }));
      SyncThreads(b_);
      RETURN_IF_ERROR(IfThen(b_, b_.CreateICmpEQ(warp_, I64(b_, 0)), [&]() -> Status {
        RETURN_IF_ERROR(IfThen(b_, Lt(b_, lane_, nw), [&] {
          b_.CreateStore(from_mem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, parts, lane_))), acc);
          return Status::Ok();
        }));
        RETURN_IF_ERROR(WarpReduce(r, acc, t, [&](int d) {
          Value* l = b_.CreateAdd(lane_, I64(b_, d));
          return b_.CreateAnd(Lt(b_, l, nw), Lt(b_, b_.CreateMul(l, I64(b_, 32)), active));
        }));
        return IfThen(b_, b_.CreateICmpEQ(lane_, I64(b_, 0)), [&]() -> Status {
          RETURN_IF_ERROR(finish());
          b_.CreateStore(to_mem(b_.CreateLoad(t, slot)), b_.CreateInBoundsGEP(mt, parts, I64(b_, nw)));
          return Status::Ok();
        });
      }));
      SyncThreads(b_);
      b_.CreateStore(from_mem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, parts, I64(b_, nw)))), slot);
    }
    // From here on, the reduce is this row's value (its index is the row's,
    // by the analysis).
    ee_.Override(r, [this, t, slot](const std::vector<Value*>&) -> StatusOr<Value*> {
      return b_.CreateLoad(t, slot);
    });
    return Status::Ok();
  }

  // Every output of the row: a chunk's elements of all outputs are computed
  // before any is stored (an output may be written over a parameter another
  // one reads).
  Status WriteOutputs() {
    const int out0 = FirstOutputArg(spec_);
    Space sp = MakeSpace(p_.root_shape, p_.col_dims);
    std::vector<Access> reads = Prepare(p_.reads.back(), nullptr, sp);
    std::vector<bool> contiguous;
    for (size_t k = 0; k < p_.roots.size(); ++k) contiguous.push_back(sp.vec > 1 && OutputCapable(k, sp));
    return Pass(sp, reads, [&](Chunk& c) -> Status {
      const size_t vec = c.coords.size();
      std::vector<std::vector<Value*>> idx(vec, row_index_);
      std::vector<std::vector<Value*>> vals(p_.roots.size());
      for (size_t v = 0; v < vec; ++v) {
        vlane_ = static_cast<int64_t>(v);
        for (int64_t d : p_.col_dims) idx[v][d] = I64(b_, 0);
        for (size_t q = 0; q < sp.dims.size(); ++q) idx[v][sp.dims[q]] = c.coords[v][q];
        for (size_t k = 0; k < p_.roots.size(); ++k) {
          ASSIGN_OR_RETURN(Value * x, ee_.Emit(p_.roots[k], idx[v]));
          vals[k].push_back(x);
        }
      }
      auto store = [&]() -> Status {
        for (size_t k = 0; k < vals.size(); ++k) {
          const int arg = out0 + static_cast<int>(k);
          llvm::Type* st = LlvmStorageType(spec_.args[arg].shape.element_type(), b_.getContext());
          if (!contiguous[k] || vals[k][0]->getType() != st) {
            for (size_t v = 0; v < vec; ++v) ee_.Store(arg, idx[v], vals[k][v]);
            continue;
          }
          Value* packed = llvm::PoisonValue::get(llvm::FixedVectorType::get(st, static_cast<unsigned>(vec)));
          for (size_t v = 0; v < vec; ++v) packed = b_.CreateInsertElement(packed, vals[k][v], static_cast<uint64_t>(v));
          const uint64_t bytes = static_cast<uint64_t>(BitWidth(spec_.args[arg].shape.element_type()) / 8) * vec;
          b_.CreateAlignedStore(packed, ee_.ElementAddress(arg, idx[0]), llvm::Align(std::min<uint64_t>(16, bytes)));
        }
        return Status::Ok();
      };
      return c.valid ? IfThen(b_, c.valid, store) : store();
    });
  }

  Status WarpReduce(const Instruction* r, Value* acc, llvm::Type* t, const std::function<Value*(int)>& valid) {
    ScopedHloLocation at(b_, spec_, r);
    for (int d = 16; d >= 1; d /= 2) {
      Value* mine = b_.CreateLoad(t, acc);
      Value* other = ShuffleDownAny(b_, mine, d);
      ASSIGN_OR_RETURN(Value * c, Combine(r, mine, other));
      b_.CreateStore(b_.CreateSelect(valid(d), c, mine), acc);
    }
    return Status::Ok();
  }

  StatusOr<Value*> Combine(const Instruction* r, Value* a, Value* x) {
    ScopedHloLocation at(b_, spec_, r);
    ASSIGN_OR_RETURN(std::vector<Value*> res, ee_.EmitScalarComputation(*r->to_apply(), {a, x}));
    if (res.size() != 1) return Status::Error(r->name() + ": reducer returns the wrong number of values");
    return res[0];
  }

  Value* Broadcast(Value* v) {  // lane 0's value in every lane
    if (v->getType()->isIntegerTy(1))
      return b_.CreateTrunc(ShuffleIdx(b_, b_.CreateZExt(v, b_.getInt32Ty()), I64(b_, 0)), b_.getInt1Ty());
    return ShuffleIdx(b_, v, I64(b_, 0));
  }

  llvm::IRBuilderBase& b_;
  ElementalEmitter& ee_;
  const KernelSpec& spec_;
  const Plan& p_;
  int64_t tpr_;
  Value *lane_ = nullptr, *warp_ = nullptr, *t_ = nullptr, *row_ok_ = nullptr;
  std::vector<Value*> row_index_;
  std::vector<bool> is_row_;
  Chunk* chunk_ = nullptr;  // the chunk being emitted
  int64_t vlane_ = 0;       // its lane being emitted
  // Unrolled passes' parameter chunks: (parameter, index, space sizes, vec,
  // chunk) → per lane.
  std::map<std::tuple<const Instruction*, std::vector<int>, std::vector<int64_t>, int64_t, int64_t>,
           std::vector<Value*>>
      registers_;
};

}  // namespace

Status CheckNormalization(const Instruction& fusion) { return MakePlan(fusion).status(); }

StatusOr<EmittedKernel> EmitNormalizationKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(Plan p, MakePlan(*spec.instr));
  int64_t longest = p.cols;
  for (const Instruction* r : p.reduces) {
    int64_t n = 1;
    for (int64_t d : r->dimensions()) n *= r->operand(0)->shape().dim(static_cast<int>(d));
    longest = std::max(longest, n);
  }
  // A warp per row while a lane's share of the row (≤ 32 positions) stays in
  // registers: no barriers, only shuffles, and every load of the row issued
  // before the first reduction (rows of 1024 ran at 43% of the copy bandwidth
  // on an H200 with a 256-thread block per row).
  const int64_t tpr = longest <= 32 * kMaxRowRegisters ? 32 : (longest <= 4096 ? 256 : 1024);
  const int64_t block = tpr == 32 ? 256 : tpr;
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  Emitter e(b, ee, spec, p, tpr);
  RETURN_IF_ERROR(e.Run());
  b.CreateRetVoid();
  MarkKernel(f, block);
  EmittedKernel k;
  k.kind = "normalization";
  k.strategy = tpr == 32 ? "a warp per row (8 rows a block), the row in registers, shuffle reductions"
                         : "a block of " + std::to_string(tpr) + " threads per row, shuffles then shared memory";
  k.dims.block[0] = static_cast<uint32_t>(block);
  k.dims.grid[0] = tpr == 32 ? BlocksFor(p.rows, 8) : BlocksFor(p.rows, 1);
  return k;
}

}  // namespace hloscope::codegen
