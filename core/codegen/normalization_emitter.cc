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
// columns or a reduction's elements, is ≤ 512; else a block of 256 (≤ 4096)
// or 1024 threads per row. Per reduction, in producer order: each thread
// accumulates a strided part of the row, then warp shuffles (and shared
// memory across warps) combine the parts; the result reaches every thread of
// the row (shuffle from lane 0, or shared memory after a barrier), and later
// reductions and the outputs read it. The init value enters once, as in the
// reduction emitter, so results match the interpreter up to reordering.
#include <algorithm>
#include <map>
#include <set>

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

struct Plan {
  std::vector<const Instruction*> roots;
  std::vector<const Instruction*> reduces;  // producers first
  std::map<const Instruction*, Sym> key;    // per reduce: the index it is asked for
  std::vector<int64_t> row_dims, col_dims;  // of the root shape, physical major → minor
  Shape root_shape;
  int64_t rows = 1, cols = 1;
};

Status Refuse(const Instruction& fusion, const std::string& why) {
  return Status::Error(fusion.name() + ": not a normalization: " + why);
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
    const Opcode op = i->opcode();
    if (op == Opcode::kReduce) return VisitReduce(i, s);
    if (IsElementwise(op)) {
      for (const Instruction* o : i->operands()) {
        if (o->shape().IsArray() && o->shape().rank() == 0) {
          RETURN_IF_ERROR(Visit(o, {}));
        } else if (o->shape().IsArray() && o->shape().SameDims(shape)) {
          RETURN_IF_ERROR(Visit(o, s));
        } else {
          return Refuse(fusion_, "%" + i->name() + " has an operand of another shape");
        }
      }
      return Status::Ok();
    }
    if (op == Opcode::kBroadcast) {
      const Shape& in = i->operand(0)->shape();
      if (static_cast<int>(i->dimensions().size()) != in.rank()) return Refuse(fusion_, "malformed broadcast");
      Sym t(in.rank());
      for (int d = 0; d < in.rank(); ++d) {
        int64_t od = i->dimensions()[d];
        if (od < 0 || od >= shape.rank()) return Refuse(fusion_, "malformed broadcast");
        t[d] = s[od];
      }
      return Visit(i->operand(0), t);
    }
    if (op == Opcode::kTranspose) {
      const auto& perm = i->dimensions();
      if (static_cast<int>(perm.size()) != shape.rank()) return Refuse(fusion_, "malformed transpose");
      Sym t(shape.rank());
      for (int d = 0; d < shape.rank(); ++d) t[perm[d]] = s[d];
      return Visit(i->operand(0), t);
    }
    if (op == Opcode::kBitcast || op == Opcode::kReshape) {
      // Only size-1 dims added or dropped: the other dims pair up in order
      // (physical order for a bitcast, logical for a reshape).
      const Shape& in = i->operand(0)->shape();
      if (!in.IsArray()) return Refuse(fusion_, "%" + i->name() + " of a tuple");
      auto big = [&](const Shape& sh) {
        std::vector<int64_t> order;
        if (op == Opcode::kBitcast) order = MajorToMinor(sh);
        else for (int d = 0; d < sh.rank(); ++d) order.push_back(d);
        std::vector<int64_t> out;
        for (int64_t d : order)
          if (sh.dim(static_cast<int>(d)) != 1) out.push_back(d);
        return out;
      };
      std::vector<int64_t> a = big(in), b = big(shape);
      if (a.size() != b.size()) return Refuse(fusion_, "%" + i->name() + " splits or merges dimensions");
      Sym t(in.rank(), kZero);
      for (size_t k = 0; k < a.size(); ++k) {
        if (in.dim(static_cast<int>(a[k])) != shape.dim(static_cast<int>(b[k])))
          return Refuse(fusion_, "%" + i->name() + " splits or merges dimensions");
        t[a[k]] = s[b[k]];
      }
      return Visit(i->operand(0), t);
    }
    return Refuse(fusion_, std::string(OpcodeName(op)) + " %" + i->name() + " lies between a reduce and the outputs");
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
    std::vector<int64_t> red = r->dimensions();
    int64_t n = 1;
    for (int64_t d : red) n *= in.dim(static_cast<int>(d));
    if (n < kMinReducedElements) return Refuse(fusion_, "%" + r->name() + " reduces fewer than 32 elements");
    const int id = static_cast<int>(p_.key.size());
    Sym t(in.rank());
    size_t k = 0;
    for (int d = 0; d < in.rank(); ++d) {
      if (std::find(red.begin(), red.end(), d) != red.end()) {
        t[d] = kLoop0 - (id * 64 + d);
      } else {
        if (k >= s.size()) return Refuse(fusion_, "malformed reduce %" + r->name());
        t[d] = s[k++];
      }
    }
    RETURN_IF_ERROR(Visit(r->operand(0), t));
    return Visit(r->operand(1), {});
  }

  const Instruction& fusion_;
  Plan& p_;
  std::set<const Instruction*> reaches_;
  std::set<std::pair<const Instruction*, Sym>> seen_;
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
  return p;
}

Value* Lt(llvm::IRBuilderBase& b, Value* a, int64_t c) { return b.CreateICmpSLT(a, I64(b, c)); }

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
    for (size_t k = 0; k < p_.reduces.size(); ++k) RETURN_IF_ERROR(Reduce(k));
    return WriteOutputs();
  }

 private:
  // The value of reduce `k` for this row, in every thread of the row.
  Status Reduce(size_t k) {
    const Instruction* r = p_.reduces[k];
    const Sym& key = p_.key.at(r);
    const Shape& in = r->operand(0)->shape();
    std::vector<int64_t> red;
    for (int64_t d : MajorToMinor(in))
      if (std::find(r->dimensions().begin(), r->dimensions().end(), d) != r->dimensions().end()) red.push_back(d);
    const int64_t n = Product(in, red);
    llvm::Type* t = RegisterType(in.element_type(), b_.getContext());
    Value* acc = EntryAlloca(b_, t, "acc");
    std::vector<Value*> base(in.rank(), nullptr);
    {
      size_t j = 0;
      for (int d = 0; d < in.rank(); ++d) {
        if (std::find(red.begin(), red.end(), d) != red.end()) continue;
        int e = key[j++];
        base[d] = e >= 0 ? row_index_[e] : I64(b_, 0);
      }
    }
    Value* end = b_.CreateSelect(row_ok_, I64(b_, n), I64(b_, 0));
    ee_.ClearCache();
    RETURN_IF_ERROR(ForLoop(b_, t_, end, I64(b_, tpr_), [&](Value* j) -> Status {
      ee_.ClearCache();
      std::vector<Value*> idx = base;
      DelinearizeInto(b_, j, in, red, idx);
      ASSIGN_OR_RETURN(Value * x, ee_.Emit(r->operand(0), idx));
      ASSIGN_OR_RETURN(Value * c, Combine(r, b_.CreateLoad(t, acc), x));
      b_.CreateStore(b_.CreateSelect(b_.CreateICmpEQ(j, t_), x, c), acc);
      ee_.ClearCache();
      return Status::Ok();
    }));
    ee_.ClearCache();
    // Lanes combine down to lane 0 of each warp; lane + d holds a value when
    // its position in the row is below n.
    RETURN_IF_ERROR(WarpReduce(r, acc, t, [&](int d) {
      return b_.CreateAnd(Lt(b_, b_.CreateAdd(lane_, I64(b_, d)), 32), Lt(b_, b_.CreateAdd(t_, I64(b_, d)), n));
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
          return b_.CreateAnd(Lt(b_, l, nw), Lt(b_, b_.CreateMul(l, I64(b_, 32)), n));
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

  // Every output of the row: all outputs' elements are computed before any
  // is stored (an output may be written over a parameter another one reads).
  Status WriteOutputs() {
    const int out0 = FirstOutputArg(spec_);
    Value* end = b_.CreateSelect(row_ok_, I64(b_, p_.cols), I64(b_, 0));
    ee_.ClearCache();
    RETURN_IF_ERROR(ForLoop(b_, t_, end, I64(b_, tpr_), [&](Value* j) -> Status {
      ee_.ClearCache();
      std::vector<Value*> idx = row_index_;
      DelinearizeInto(b_, j, p_.root_shape, p_.col_dims, idx);
      std::vector<Value*> vals;
      for (const Instruction* root : p_.roots) {
        ASSIGN_OR_RETURN(Value * v, ee_.Emit(root, idx));
        vals.push_back(v);
      }
      for (size_t k = 0; k < vals.size(); ++k) ee_.Store(out0 + static_cast<int>(k), idx, vals[k]);
      ee_.ClearCache();
      return Status::Ok();
    }));
    ee_.ClearCache();
    return Status::Ok();
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
  const int64_t tpr = longest <= 512 ? 32 : (longest <= 4096 ? 256 : 1024);
  const int64_t block = tpr == 32 ? 256 : tpr;
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args;
  for (llvm::Argument& a : f->args()) args.push_back(&a);
  ElementalEmitter ee(b, spec, args);
  Emitter e(b, ee, spec, p, tpr);
  RETURN_IF_ERROR(e.Run());
  b.CreateRetVoid();
  MarkKernel(f, block);
  EmittedKernel k;
  k.kind = "normalization";
  k.dims.block[0] = static_cast<uint32_t>(block);
  k.dims.grid[0] = tpr == 32 ? BlocksFor(p.rows, 8) : BlocksFor(p.rows, 1);
  return k;
}

}  // namespace hloscope::codegen
