// Reductions: an unfused reduce or an input fusion whose root is a reduce (or
// a reduction epilogue: one-operand elementwise ops applied to the reduced
// values, e.g. sqrt(reduce)), a tuple of reduces (multi-output, variadic
// reduces included) and elementwise
// outputs of the reduce input's shape (written in the same pass) or of the
// reduce output's shape (written with the results).
//
// Classified on the reduce input's physical order, ignoring size-1 dims:
//   [kept…, reduced…]            row reduction: a warp per row (rows ≤ 512
//                                elements, 8 rows a block) or a block per row;
//                                each thread accumulates a strided part, then
//                                warp shuffles and shared memory across warps;
//                                a full reduction is one row.
//   [kept…, reduced…, kept…]     column reduction: 32×32 threads per tile of
//                                32 inner columns read coalesced, partials
//                                transposed through shared memory (33-wide
//                                rows) and reduced with warp shuffles.
//   anything else                one thread per output element, sequential.
// The init value enters once per output (threads combine only the elements
// they hold; validity is known from the thread position), so a reducer whose
// init is no identity still gives the interpreter's result up to reordering.
#include <algorithm>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "core/codegen/elemental_scalar.h"
#include "core/codegen/emitters.h"
#include "core/codegen/ir_loops.h"
#include "core/codegen/ir_util.h"
#include "core/codegen/line_info.h"
#include "core/fusion/fusibility.h"
#include "core/ir/computation.h"

namespace hloscope::codegen {
namespace {

using llvm::Value;

enum class Kind { kRow, kColumn, kGeneric };

struct Plan {
  std::vector<const Instruction*> roots;
  std::vector<int> first_leaf;            // per root: its first output leaf
  std::vector<const Instruction*> epilogue_of;  // per root: the reduce under its epilogue, else null
  std::vector<const Instruction*> reduces;
  std::vector<int> slot0;                 // per reduce: its first accumulator slot
  std::vector<llvm::Type*> slot_types;
  Shape in;                               // the reduce input shape
  std::vector<int64_t> red;               // reduced dims (sorted)
  std::vector<int64_t> outer, reduced, inner;  // physical major→minor groups
  int64_t ko = 1, r = 1, ki = 1;
  Kind kind = Kind::kGeneric;
};

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The reduce a kernel root writes: the root itself, or the reduce a
// get-tuple-element root takes a leaf of (flattened multi-output fusions).
const Instruction* ReduceOf(const Instruction* root) {
  if (root->opcode() == Opcode::kReduce) return root;
  if (root->opcode() == Opcode::kGetTupleElement && root->operand(0)->opcode() == Opcode::kReduce) return root->operand(0);
  return nullptr;
}

// The reduce under a reduction epilogue root (sqrt(reduce), a bitcast of
// it, …; the fusion passes' own rule, core/fusion ReductionHero), or null.
const Instruction* EpilogueReduce(const Instruction* root) {
  const Instruction* hero = ReductionHero(root);
  if (!hero || hero == root || hero->shape().IsTuple()) return nullptr;
  return hero;
}

StatusOr<Plan> MakePlan(const KernelSpec& spec, llvm::LLVMContext& ctx) {
  Plan p;
  p.roots = KernelRoots(*spec.instr);
  int leaf = 0;
  for (const Instruction* r : p.roots) {
    p.first_leaf.push_back(leaf);
    leaf += static_cast<int>(r->shape().leaf_count());
    const Instruction* red = ReduceOf(r);
    const Instruction* epi = red ? nullptr : EpilogueReduce(r);
    p.epilogue_of.push_back(epi);
    if (epi) red = epi;
    if (red && std::find(p.reduces.begin(), p.reduces.end(), red) == p.reduces.end()) p.reduces.push_back(red);
  }
  if (p.reduces.empty()) return Status::Error(spec.instr->name() + ": no reduce at the root of the kernel");
  const Instruction* hero = p.reduces[0];
  p.in = hero->operand(0)->shape();
  p.red = hero->dimensions();
  std::sort(p.red.begin(), p.red.end());
  for (const Instruction* r : p.reduces) {
    if (!r->to_apply() || r->operand_count() % 2 != 0)
      return Status::Error(r->name() + ": reduce needs inputs, init values and to_apply");
    std::vector<int64_t> d = r->dimensions();
    std::sort(d.begin(), d.end());
    if (d != p.red || !r->operand(0)->shape().SameDims(p.in))
      return Status::Error(r->name() + ": the reduces of a multi-output reduction must share input shape and dimensions");
    p.slot0.push_back(static_cast<int>(p.slot_types.size()));
    for (int i = 0; i < r->operand_count() / 2; ++i) {
      PrimitiveType t = r->operand(i)->shape().element_type();
      RETURN_IF_ERROR(CheckSupportedType(t, r->name()));
      if (IsComplex(t)) return Status::Error(r->name() + ": complex reductions are not supported by the GPU emitter");
      p.slot_types.push_back(RegisterType(t, ctx));
    }
  }
  for (int64_t d : p.red)
    if (d < 0 || d >= p.in.rank()) return Status::Error(hero->name() + ": reduce dimension out of range");
  // Classify on the physical order without size-1 dims.
  int stage = 0;  // 0: outer kept, 1: reduced, 2: inner kept
  bool generic = false;
  for (int64_t d : MajorToMinor(p.in)) {
    bool is_red = Contains(p.red, d);
    if (p.in.dim(static_cast<int>(d)) == 1) {
      (is_red ? p.reduced : p.outer).push_back(d);
      continue;
    }
    if (is_red) {
      if (stage == 2) generic = true;
      stage = std::max(stage, 1);
      p.reduced.push_back(d);
    } else if (stage == 0) {
      p.outer.push_back(d);
    } else {
      stage = 2;
      p.inner.push_back(d);
    }
  }
  if (generic) {
    p.outer.clear();
    p.reduced.clear();
    p.inner.clear();
    for (int64_t d : MajorToMinor(p.in)) (Contains(p.red, d) ? p.reduced : p.outer).push_back(d);
    p.kind = Kind::kGeneric;
  } else {
    p.kind = p.inner.empty() ? Kind::kRow : Kind::kColumn;
  }
  p.ko = Product(p.in, p.outer);
  p.r = Product(p.in, p.reduced);
  p.ki = Product(p.in, p.inner);
  for (size_t k = 0; k < p.roots.size(); ++k) {
    const Instruction* root = p.roots[k];
    if (ReduceOf(root) || p.epilogue_of[k]) {
      if (p.epilogue_of[k]) RETURN_IF_ERROR(CheckSupportedType(root->shape().element_type(), root->name()));
      continue;
    }
    if (!root->shape().IsArray()) return Status::Error(root->name() + ": a tuple-shaped side output of a reduction");
    RETURN_IF_ERROR(CheckSupportedType(root->shape().element_type(), root->name()));
  }
  return p;
}

class Emitter {
 public:
  Emitter(llvm::IRBuilderBase& b, ElementalEmitter& ee, const KernelSpec& spec, const Plan& p)
      : b_(b), ee_(ee), spec_(spec), p_(p), out0_(FirstOutputArg(spec)) {
    for (llvm::Type* t : p.slot_types) acc_.push_back(EntryAlloca(b, t, "acc"));
  }

  // Accumulates the elements r = start, start+step, … < end into acc_
  // (`index_of(r)` gives the input index); side outputs of the input shape
  // are written on the way.
  Status Accumulate(Value* start, Value* end, int64_t step,
                    const std::function<std::vector<Value*>(Value*)>& index_of) {
    Status st = ForLoop(b_, start, end, I64(b_, step), [&](Value* r) -> Status {
      ee_.ClearCache();
      std::vector<Value*> index = index_of(r);
      ASSIGN_OR_RETURN(std::vector<Value*> x, Inputs(index));
      ASSIGN_OR_RETURN(std::vector<Value*> c, Combine(Load(), x));
      Value* first = b_.CreateICmpEQ(r, start);
      for (size_t s = 0; s < x.size(); ++s) b_.CreateStore(b_.CreateSelect(first, x[s], c[s]), acc_[s]);
      ee_.ClearCache();
      return Status::Ok();
    });
    ee_.ClearCache();
    return st;
  }

  // Tree reduction across the 32 lanes of a warp; `valid(d)` says whether
  // lane+d holds a value to combine.
  Status WarpReduce(const std::function<Value*(int)>& valid) {
    ScopedHloLocation at(b_, spec_, p_.reduces.front());  // the shuffles: the (first) reduce's
    for (int d = 16; d >= 1; d /= 2) {
      std::vector<Value*> mine = Load(), other;
      for (Value* v : mine) other.push_back(ShuffleDownAny(b_, v, d));
      ASSIGN_OR_RETURN(std::vector<Value*> c, Combine(mine, other));
      Value* ok = valid(d);
      for (size_t s = 0; s < mine.size(); ++s) b_.CreateStore(b_.CreateSelect(ok, c[s], mine[s]), acc_[s]);
    }
    return Status::Ok();
  }

  // Shared arrays, one per accumulator slot (i1 kept as i8).
  std::vector<Value*> Shared(int64_t count, const std::string& what) {
    std::vector<Value*> arrays;
    for (llvm::Type* t : p_.slot_types) arrays.push_back(SharedArray(b_, MemType(t), count, spec_.name + "_" + what));
    return arrays;
  }
  void StoreShared(const std::vector<Value*>& arrays, Value* pos) {
    std::vector<Value*> v = Load();
    for (size_t s = 0; s < arrays.size(); ++s) {
      llvm::Type* mt = MemType(p_.slot_types[s]);
      Value* x = v[s]->getType()->isIntegerTy(1) ? b_.CreateZExt(v[s], mt) : v[s];
      b_.CreateStore(x, b_.CreateInBoundsGEP(mt, arrays[s], pos));
    }
  }
  void LoadShared(const std::vector<Value*>& arrays, Value* pos) {
    for (size_t s = 0; s < arrays.size(); ++s) {
      llvm::Type* mt = MemType(p_.slot_types[s]);
      Value* x = b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, arrays[s], pos));
      if (p_.slot_types[s]->isIntegerTy(1)) x = b_.CreateTrunc(x, b_.getInt1Ty());
      b_.CreateStore(x, acc_[s]);
    }
  }

  // Writes every output at the input index `in_index` (kept dims set; the
  // reduced ones are ignored): result = reducer(init, acc) if the output had
  // elements, else init.
  Status WriteResults(const std::vector<Value*>& in_index) {
    ee_.ClearCache();
    std::vector<Value*> out_index;
    for (int d = 0; d < p_.in.rank(); ++d)
      if (!Contains(p_.red, d)) out_index.push_back(in_index[d]);
    // Side outputs of the reduce output's shape are computed before anything
    // is stored: an output may be written over a parameter that a side
    // output reads at this index (a donated parameter, core/memory/io_alias.h,
    // ComputesEveryOutputBeforeStoring).
    std::vector<std::pair<size_t, Value*>> side;
    for (size_t k = 0; k < p_.roots.size(); ++k) {
      const Instruction* root = p_.roots[k];
      if (ReduceOf(root) || p_.epilogue_of[k] || root->shape().SameDims(p_.in) || InputReshaped(*root)) continue;
      if (root->shape().rank() != static_cast<int>(out_index.size()))
        return Status::Error(root->name() + ": a side output of a reduction must have the reduce input's or output's shape");
      for (int d = 0; d < root->shape().rank(); ++d)
        if (root->shape().dim(d) != OutDim(d))
          return Status::Error(root->name() + ": a side output of a reduction must have the reduce input's or output's shape");
      ASSIGN_OR_RETURN(Value * v, ee_.Emit(root, out_index));
      side.push_back({k, v});
    }
    std::vector<Value*> acc = Load();
    for (size_t k = 0; k < p_.reduces.size(); ++k) {
      const Instruction* r = p_.reduces[k];
      int n = r->operand_count() / 2;
      std::vector<Value*> params;
      for (int i = 0; i < n; ++i) {
        ASSIGN_OR_RETURN(Value * init, EmitOperand(ee_, r, n + i, {}));
        params.push_back(init);
      }
      std::vector<Value*> result = params;
      if (p_.r > 0) {
        ScopedHloLocation at(b_, spec_, r);
        for (int i = 0; i < n; ++i) params.push_back(acc[p_.slot0[k] + i]);
        ASSIGN_OR_RETURN(result, ee_.EmitScalarComputation(*r->to_apply(), params));
        if (static_cast<int>(result.size()) != n) return Status::Error(r->name() + ": reducer returns the wrong number of values");
      }
      for (size_t pos = 0; pos < p_.roots.size(); ++pos) {
        const Instruction* root = p_.roots[pos];
        if (p_.epilogue_of[pos] == r) {
          RETURN_IF_ERROR(WriteEpilogue(root, r, out_index, result[0], out0_ + p_.first_leaf[pos]));
        } else if (root == r) {
          for (int i = 0; i < n; ++i) ee_.Store(out0_ + p_.first_leaf[pos] + i, out_index, result[i]);
        } else if (ReduceOf(root) == r) {
          int64_t leaf = root->tuple_index();
          if (leaf < 0 || leaf >= n) return Status::Error(root->name() + ": tuple index out of range");
          ee_.Store(out0_ + p_.first_leaf[pos], out_index, result[leaf]);
        }
      }
    }
    for (const auto& [k, v] : side) ee_.Store(out0_ + p_.first_leaf[k], out_index, v);
    ee_.ClearCache();
    return Status::Ok();
  }

 private:
  // Applies the epilogue ops between `reduce` and `root` to the reduced
  // value and stores it where the root's element lies: bitcasts (and
  // reshapes that are bitcasts) keep the
  // physical position, so the root index is the reduce output's physical
  // linear index laid out over the root's shape.
  Status WriteEpilogue(const Instruction* root, const Instruction* reduce, const std::vector<Value*>& out_index,
                       Value* value, int arg) {
    std::vector<const Instruction*> chain;
    for (const Instruction* i = root; i != reduce; i = i->operand(0)) chain.push_back(i);
    Value* v = value;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Instruction* op = *it;
      if (op->opcode() == Opcode::kBitcast || op->opcode() == Opcode::kReshape) continue;  // bytes in place
      ScopedHloLocation at(b_, spec_, op);
      ASSIGN_OR_RETURN(v, EmitElementwiseOp(b_, *op, {v}, {op->operand(0)->shape().element_type()}));
    }
    const Shape& rs = reduce->shape();
    if (root->shape().SameDims(rs) && MajorToMinor(root->shape()) == MajorToMinor(rs)) {
      ee_.Store(arg, out_index, v);
      return Status::Ok();
    }
    ee_.Store(arg, SamePlaceIn(rs, out_index, root->shape()), v);
    return Status::Ok();
  }

  // The index over `to` of the element at physical position of `index` over
  // `from` (shapes of equal element counts).
  std::vector<Value*> SamePlaceIn(const Shape& from, const std::vector<Value*>& index, const Shape& to) {
    Value* linear = I64(b_, 0);
    for (int64_t d : MajorToMinor(from))
      linear = b_.CreateAdd(b_.CreateMul(linear, I64(b_, from.dim(static_cast<int>(d)))), index[d]);
    std::vector<Value*> idx(to.rank());
    DelinearizeInto(b_, linear, to, MajorToMinor(to), idx);
    return idx;
  }

  // A side output with other dims than the reduce input's but as many
  // elements, and not of the reduce output's dims.
  bool InputReshaped(const Instruction& root) const {
    const Shape& s = root.shape();
    if (!s.IsArray() || s.SameDims(p_.in) || s.num_elements() != p_.in.num_elements()) return false;
    if (s.rank() != p_.in.rank() - static_cast<int>(p_.red.size())) return true;
    for (int d = 0; d < s.rank(); ++d)
      if (s.dim(d) != OutDim(d)) return true;
    return false;
  }

  int64_t OutDim(int d) const {
    int k = 0;
    for (int i = 0; i < p_.in.rank(); ++i)
      if (!Contains(p_.red, i) && k++ == d) return p_.in.dim(i);
    return -1;
  }
  llvm::Type* MemType(llvm::Type* t) { return t->isIntegerTy(1) ? b_.getInt8Ty() : t; }
  std::vector<Value*> Load() {
    std::vector<Value*> v;
    for (size_t s = 0; s < acc_.size(); ++s) v.push_back(b_.CreateLoad(p_.slot_types[s], acc_[s]));
    return v;
  }
  // The reduce inputs at `index` (all slots); writes side outputs of the input shape.
  StatusOr<std::vector<Value*>> Inputs(const std::vector<Value*>& index) {
    std::vector<Value*> x;
    for (const Instruction* r : p_.reduces)
      for (int i = 0; i < r->operand_count() / 2; ++i) {
        ASSIGN_OR_RETURN(Value * v, EmitOperand(ee_, r, i, index));
        x.push_back(v);
      }
    // Every side output's element first, then the stores: a side output may
    // be written over a parameter that another one also reads at this index
    // (a donated parameter, core/memory/io_alias.h).
    // A side output of the input's element count but other dims (XLA's
    // multi-output fusion takes a producer one bitcast reshape away, e.g.
    // [512,128256] beside a tree-reduced [4096,16032]) is written at the
    // element in the same place in memory.
    std::vector<std::pair<size_t, Value*>> side;
    std::vector<std::vector<Value*>> at;
    for (size_t k = 0; k < p_.roots.size(); ++k) {
      const Instruction* root = p_.roots[k];
      if (ReduceOf(root) || p_.epilogue_of[k]) continue;
      if (root->shape().SameDims(p_.in)) {
        at.push_back(index);
      } else if (InputReshaped(*root)) {
        at.push_back(SamePlaceIn(p_.in, index, root->shape()));
      } else {
        continue;
      }
      ASSIGN_OR_RETURN(Value * v, ee_.Emit(root, at.back()));
      side.push_back({k, v});
    }
    for (size_t n = 0; n < side.size(); ++n) ee_.Store(out0_ + p_.first_leaf[side[n].first], at[n], side[n].second);
    return x;
  }
  StatusOr<std::vector<Value*>> Combine(const std::vector<Value*>& a, const std::vector<Value*>& x) {
    std::vector<Value*> out;
    for (size_t k = 0; k < p_.reduces.size(); ++k) {
      const Instruction* r = p_.reduces[k];
      int n = r->operand_count() / 2;
      ScopedHloLocation at(b_, spec_, r);  // the reducer applied is the reduce's code
      std::vector<Value*> params;
      for (int i = 0; i < n; ++i) params.push_back(a[p_.slot0[k] + i]);
      for (int i = 0; i < n; ++i) params.push_back(x[p_.slot0[k] + i]);
      ASSIGN_OR_RETURN(std::vector<Value*> res, ee_.EmitScalarComputation(*r->to_apply(), params));
      if (static_cast<int>(res.size()) != n) return Status::Error(r->name() + ": reducer returns the wrong number of values");
      out.insert(out.end(), res.begin(), res.end());
    }
    return out;
  }

  llvm::IRBuilderBase& b_;
  ElementalEmitter& ee_;
  const KernelSpec& spec_;
  const Plan& p_;
  int out0_;
  std::vector<Value*> acc_;
};

Value* Lt(llvm::IRBuilderBase& b, Value* a, int64_t c) { return b.CreateICmpSLT(a, I64(b, c)); }

// Row reduction: `tpr` threads per row (32: a warp per row; else a block).
Status EmitRow(llvm::IRBuilderBase& b, Emitter& e, const Plan& p, int64_t tpr, int64_t block) {
  Value* tid = ThreadId64(b);
  Value* lane = b.CreateURem(tid, I64(b, 32));
  Value* warp = b.CreateUDiv(tid, I64(b, 32));
  Value* row = tpr == 32 ? b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, block / 32)), warp) : BlockId64(b);
  Value* t = tpr == 32 ? lane : tid;  // thread position inside the row
  Value* row_ok = Lt(b, row, p.ko);
  std::vector<Value*> index(p.in.rank());
  DelinearizeInto(b, b.CreateSelect(row_ok, row, I64(b, 0)), p.in, p.outer, index);
  Value* end = b.CreateSelect(row_ok, I64(b, p.r), I64(b, 0));
  RETURN_IF_ERROR(e.Accumulate(t, end, tpr, [&](Value* r) {
    std::vector<Value*> idx = index;
    DelinearizeInto(b, r, p.in, p.reduced, idx);
    return idx;
  }));
  RETURN_IF_ERROR(e.WarpReduce([&](int d) {
    return b.CreateAnd(Lt(b, b.CreateAdd(lane, I64(b, d)), 32), Lt(b, b.CreateAdd(t, I64(b, d)), p.r));
  }));
  Value* writer = b.CreateICmpEQ(lane, I64(b, 0));
  if (tpr > 32) {
    int64_t nw = tpr / 32;
    auto shared = e.Shared(nw, "warps");
    RETURN_IF_ERROR(IfThen(b, writer, [&] {
      e.StoreShared(shared, warp);
      return Status::Ok();
    }));
    SyncThreads(b);
    RETURN_IF_ERROR(IfThen(b, b.CreateICmpEQ(warp, I64(b, 0)), [&]() -> Status {
      RETURN_IF_ERROR(IfThen(b, Lt(b, lane, nw), [&] {
        e.LoadShared(shared, lane);
        return Status::Ok();
      }));
      return e.WarpReduce([&](int d) {
        Value* l = b.CreateAdd(lane, I64(b, d));
        return b.CreateAnd(Lt(b, l, nw), Lt(b, b.CreateMul(l, I64(b, 32)), p.r));
      });
    }));
    writer = b.CreateICmpEQ(tid, I64(b, 0));
  }
  return IfThen(b, b.CreateAnd(writer, row_ok), [&] { return e.WriteResults(index); });
}

// Column reduction over [ko, r, ki]: 32×32 threads per tile of 32 columns.
Status EmitColumn(llvm::IRBuilderBase& b, Emitter& e, const Plan& p, int64_t tiles) {
  Value* tid = ThreadId64(b);
  Value* tx = b.CreateURem(tid, I64(b, 32));
  Value* ty = b.CreateUDiv(tid, I64(b, 32));
  Value* blk = BlockId64(b);
  Value* tile = b.CreateURem(blk, I64(b, tiles));
  Value* ko = b.CreateUDiv(blk, I64(b, tiles));
  Value* col0 = b.CreateMul(tile, I64(b, 32));
  Value* col = b.CreateAdd(col0, tx);
  Value* col_ok = Lt(b, col, p.ki);
  std::vector<Value*> index(p.in.rank());
  DelinearizeInto(b, ko, p.in, p.outer, index);
  std::vector<Value*> in_index = index;
  DelinearizeInto(b, b.CreateSelect(col_ok, col, I64(b, 0)), p.in, p.inner, in_index);
  Value* end = b.CreateSelect(col_ok, I64(b, p.r), I64(b, 0));
  RETURN_IF_ERROR(e.Accumulate(ty, end, 32, [&](Value* r) {
    std::vector<Value*> idx = in_index;
    DelinearizeInto(b, r, p.in, p.reduced, idx);
    return idx;
  }));
  auto shared = e.Shared(32 * 33, "tile");
  e.StoreShared(shared, b.CreateAdd(b.CreateMul(ty, I64(b, 33)), tx));
  SyncThreads(b);
  e.LoadShared(shared, b.CreateAdd(b.CreateMul(tx, I64(b, 33)), ty));
  RETURN_IF_ERROR(e.WarpReduce([&](int d) {
    Value* l = b.CreateAdd(tx, I64(b, d));
    return b.CreateAnd(Lt(b, l, 32), Lt(b, l, p.r));
  }));
  Value* out_col = b.CreateAdd(col0, ty);
  Value* ok = b.CreateAnd(b.CreateICmpEQ(tx, I64(b, 0)), Lt(b, out_col, p.ki));
  return IfThen(b, ok, [&] {
    std::vector<Value*> idx = index;
    DelinearizeInto(b, b.CreateSelect(ok, out_col, I64(b, 0)), p.in, p.inner, idx);
    for (int64_t d : p.red) idx[d] = I64(b, 0);
    return e.WriteResults(idx);
  });
}

// One thread per output element, sequential over the reduced elements.
Status EmitGeneric(llvm::IRBuilderBase& b, Emitter& e, const Plan& p, int64_t block) {
  Value* g = b.CreateAdd(b.CreateMul(BlockId64(b), I64(b, block)), ThreadId64(b));
  Value* ok = Lt(b, g, p.ko);
  return IfThen(b, ok, [&]() -> Status {
    std::vector<Value*> index(p.in.rank());
    DelinearizeInto(b, g, p.in, p.outer, index);
    RETURN_IF_ERROR(e.Accumulate(I64(b, 0), I64(b, p.r), 1, [&](Value* r) {
      std::vector<Value*> idx = index;
      DelinearizeInto(b, r, p.in, p.reduced, idx);
      return idx;
    }));
    for (int64_t d : p.red) index[d] = I64(b, 0);
    return e.WriteResults(index);
  });
}

}  // namespace

StatusOr<EmittedKernel> EmitReductionKernel(llvm::Module& m, const KernelSpec& spec) {
  ASSIGN_OR_RETURN(Plan p, MakePlan(spec, m.getContext()));
  llvm::IRBuilder<> b(m.getContext());
  llvm::Function* f = CreateKernelFunction(m, spec, b);
  std::vector<Value*> args = KernelArguments(f);
  ElementalEmitter ee(b, spec, args);
  Emitter e(b, ee, spec, p);
  EmittedKernel k;
  int64_t block = 256;
  if (p.kind == Kind::kRow) {
    int64_t tpr = p.r <= 512 ? 32 : (p.ko >= 1024 ? 256 : 1024);
    block = tpr == 32 ? 256 : tpr;
    RETURN_IF_ERROR(EmitRow(b, e, p, tpr, block));
    k.kind = "row-reduction";
    k.strategy = tpr == 32 ? "a warp per row (8 rows a block), shuffle reduction"
                           : "a block of " + std::to_string(tpr) + " threads per row, shuffles then shared memory";
    k.dims.grid[0] = tpr == 32 ? BlocksFor(p.ko, block / 32) : BlocksFor(p.ko, 1);
  } else if (p.kind == Kind::kColumn) {
    int64_t tiles = (p.ki + 31) / 32;
    block = 1024;
    RETURN_IF_ERROR(EmitColumn(b, e, p, tiles));
    k.kind = "column-reduction";
    k.strategy = "32-column tiles, a block of 1024 threads each, partial sums through shared memory";
    k.dims.grid[0] = BlocksFor(p.ko * tiles, 1);
  } else {
    RETURN_IF_ERROR(EmitGeneric(b, e, p, block));
    k.kind = "reduction";
    k.dims.grid[0] = BlocksFor(p.ko, block);
  }
  b.CreateRetVoid();
  MarkKernel(f, block);
  k.dims.block[0] = static_cast<uint32_t>(block);
  return k;
}

}  // namespace hloscope::codegen
