#include "core/memory/logical_buffers.h"

#include <algorithm>
#include <climits>
#include <limits>

#include "core/ir/custom_calls.h"
#include "core/memory/instruction_index.h"
#include "core/memory/io_alias.h"

namespace hloscope {

std::string_view BufferKindName(BufferKind k) {
  switch (k) {
    case BufferKind::kParameter: return "parameter";
    case BufferKind::kConstant: return "constant";
    case BufferKind::kTemp: return "temp";
    case BufferKind::kOutput: return "output";
  }
  return "temp";
}

namespace {

void Leaves(const Shape& s, std::vector<int64_t>& prefix, std::vector<std::pair<std::vector<int64_t>, const Shape*>>& out) {
  if (s.IsTuple()) {
    for (int i = 0; i < s.tuple_size(); ++i) {
      prefix.push_back(i);
      Leaves(s.tuple_shapes()[i], prefix, out);
      prefix.pop_back();
    }
    return;
  }
  out.push_back({prefix, &s});
}

int64_t LeafCount(const Shape& s) { return s.leaf_count(); }

// Leaf offset of tuple element k within a shape's flattened leaves.
int64_t LeafOffset(const Shape& s, int64_t k) {
  int64_t off = 0;
  for (int64_t i = 0; i < k && i < s.tuple_size(); ++i) off += LeafCount(s.tuple_shapes()[i]);
  return off;
}

struct Builder {
  const Module& module;
  const BufferOptions& opts;
  BufferAnalysis& a;
  const InstructionIndex& index;  // every instruction of the module
  std::vector<int> parent;        // union-find over buffer ids
  // Final last-use position of every buffer, from a first pass without
  // sharing (empty during that pass); and per storage the latest end.
  std::vector<int64_t> known_end;
  std::vector<int64_t> storage_end;
  // Per instruction (dense index): last use in the current run of its
  // computation, and its output leaves (a span of `leaf_pool`). An entry
  // counts only when its stamp is the run that wrote it: nested
  // computations run once per call site, each run with fresh state.
  std::vector<int64_t> last_use;
  std::vector<int> last_use_stamp;
  std::vector<int> leaf_begin, leaf_count, leaf_stamp;
  std::vector<int> leaf_pool;
  int runs = 0;
  // Buffer ids (as the first pass numbers them) of entry outputs that will
  // take their parameter's bytes (input_output_alias): their instruction
  // writes there and takes over no operand buffer.
  std::vector<char> reserved;
  bool Reserved(int id) const { return id >= 0 && id < static_cast<int>(reserved.size()) && reserved[id]; }

  Builder(const Module& m, const BufferOptions& o, BufferAnalysis& an, const InstructionIndex& idx,
          std::vector<int64_t> ends)
      : module(m), opts(o), a(an), index(idx), known_end(std::move(ends)) {
    const size_t n = static_cast<size_t>(index.size());
    last_use.assign(n, 0);
    last_use_stamp.assign(n, -1);
    leaf_begin.assign(n, 0);
    leaf_count.assign(n, 0);
    leaf_stamp.assign(n, -1);
  }

  int Find(int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void Union(int x, int y) {
    x = Find(x);
    y = Find(y);
    if (x == y) return;
    int lo = std::min(x, y), hi = std::max(x, y);
    parent[hi] = lo;
    storage_end[lo] = std::max(storage_end[lo], storage_end[hi]);
  }

  // Output leaves of `i` as defined by run `run` (empty if none).
  std::pair<const int*, int> LeavesOf(const Instruction* i, int run) const {
    int k = index.Of(i);
    if (k < 0 || leaf_stamp[k] != run) return {nullptr, 0};
    return {leaf_pool.data() + leaf_begin[k], leaf_count[k]};
  }
  void AppendLeaves(const Instruction* i, int run, std::vector<int>& out) const {
    auto [p, c] = LeavesOf(i, run);
    if (c > 0) out.insert(out.end(), p, p + c);
  }
  void SetLeaves(const Instruction* i, int run, const std::vector<int>& ids) {
    int k = index.Of(i);
    if (k < 0) return;
    leaf_stamp[k] = run;
    leaf_begin[k] = static_cast<int>(leaf_pool.size());
    leaf_count[k] = static_cast<int>(ids.size());
    leaf_pool.insert(leaf_pool.end(), ids.begin(), ids.end());
  }
  int64_t LastUse(const Instruction* i, int run) const {
    int k = index.Of(i);
    return k >= 0 && last_use_stamp[k] == run ? last_use[k] : 0;
  }

  int NewBuffer(const Instruction* i, std::vector<int64_t> idx, const Shape& s, BufferKind kind, int64_t pos) {
    LogicalBuffer b;
    b.id = static_cast<int>(a.buffers.size());
    b.instr = i;
    b.index = std::move(idx);
    b.shape = s;
    b.bytes = s.IsArray() ? s.byte_size() : 0;
    b.kind = kind;
    b.start = b.end = pos;
    b.storage = b.id;
    a.buffers.push_back(std::move(b));
    parent.push_back(static_cast<int>(parent.size()));
    int id = static_cast<int>(parent.size()) - 1;
    storage_end.push_back(id < static_cast<int>(known_end.size()) ? known_end[id] : pos);
    return a.buffers.back().id;
  }

  void DefineAll(const Instruction* i, BufferKind kind, int64_t pos, std::vector<int>& ids) {
    if (i->shape().IsArray()) {  // the common case: one leaf, no index
      ids.push_back(NewBuffer(i, {}, i->shape(), kind, pos));
      return;
    }
    std::vector<std::pair<std::vector<int64_t>, const Shape*>> leaves;
    std::vector<int64_t> prefix;
    Leaves(i->shape(), prefix, leaves);
    for (auto& [idx, s] : leaves) ids.push_back(NewBuffer(i, idx, *s, kind, pos));
  }

  // Last position at which each buffer is used, filled as we go.
  void Use(int id, int64_t pos) { a.buffers[id].end = std::max(a.buffers[id].end, pos); }

  // A loop fusion whose root is a dynamic-update-slice of fused parameter
  // `slots` (read by nothing else): the dynamic-update-slice emitter then
  // writes the update alone into the operand's bytes (XLA's in-place
  // dynamic-update-slice fusions).
  static bool UpdatesFusedOperandInPlace(const Instruction& x, const std::vector<int>& slots) {
    const Computation* fused = x.opcode() == Opcode::kFusion ? x.fused_computation() : nullptr;
    if (!fused || x.fusion_kind() != FusionKind::kLoop || slots.size() != 1 || slots[0] >= fused->num_parameters())
      return false;
    const Instruction* root = fused->root();
    const Instruction* p = fused->parameter(slots[0]);
    return root && root->opcode() == Opcode::kDynamicUpdateSlice && root->operand(0) == p && p->user_count() == 1 &&
           std::count(root->operands().begin(), root->operands().end(), p) == 1 && root->shape() == p->shape();
  }

  // A while body's next state element goes straight into the state buffer
  // it replaces when nothing reads that element after it is computed (XLA
  // shares them the same way): an h' = tanh(h + x·w) or a dynamic update of
  // ys in place, instead of a device copy of the root into the state after
  // every iteration. `first` is the first buffer the body's run defined.
  void WriteNextStateInPlace(const Computation& body, const Sequence& seq, int run, size_t first) {
    const Instruction* root = body.root();
    if (body.num_parameters() != 1 || !root || root->opcode() != Opcode::kTuple) return;
    auto [state, count] = LeavesOf(body.parameter(0), run);
    if (count != root->operand_count()) return;  // flat array state only
    std::vector<int64_t> position(static_cast<size_t>(index.size()), -1);
    for (size_t k = 0; k < seq.size(); ++k)
      if (int d = index.Of(seq[k]); d >= 0) position[static_cast<size_t>(d)] = static_cast<int64_t>(k);
    for (int l = 0; l < count; ++l) {
      const Instruction* v = root->operand(l);
      const int sb = state[l];
      auto [vleaves, vcount] = LeavesOf(v, run);
      if (vcount != 1 || std::count(root->operands().begin(), root->operands().end(), v) != 1) continue;
      const int vb = vleaves[0];
      if (a.buffers[vb].instr != v || a.buffers[vb].kind != BufferKind::kTemp || Find(vb) != vb ||
          a.buffers[vb].bytes != a.buffers[sb].bytes || a.buffers[sb].kind != BufferKind::kTemp)
        continue;
      const int vd = index.Of(v);
      if (vd < 0 || position[static_cast<size_t>(vd)] < 0) continue;
      const int64_t pv = position[static_cast<size_t>(vd)];
      // The state's storage holds nothing else of the body's.
      const int ss = Find(sb);
      bool alone = true;
      for (size_t b = first; b < a.buffers.size() && alone; ++b) {
        const int f = Find(static_cast<int>(b));
        if ((static_cast<int>(b) != sb && f == ss && a.buffers[b].instr != body.parameter(0)) ||
            (static_cast<int>(b) != vb && f == vb))
          alone = false;
      }
      if (!alone) continue;
      // Every read of the element comes before v, or is v's own
      // element-by-element (or in-place update) read.
      bool ok = true;
      for (size_t k = 0; k < seq.size() && ok; ++k) {
        const Instruction* x = seq[k];
        std::vector<int> slots;
        for (int o = 0; o < x->operand_count(); ++o) {
          auto [leaves, c] = LeavesOf(x->operand(o), run);
          for (int q = 0; q < c; ++q)
            if (Find(leaves[q]) == ss) slots.push_back(o);
        }
        if (slots.empty()) continue;
        if (x == root) {  // the element forwarded into another one: read after v
          ok = false;
          break;
        }
        if (x->opcode() == Opcode::kGetTupleElement || x->opcode() == Opcode::kTuple || IsBufferView(*x))
          continue;  // views, not reads
        const int64_t px = static_cast<int64_t>(k);
        if (px < pv) continue;
        ok = x == v && (WritesOverOperandInPlace(*x, slots) || UpdatesFusedOperandInPlace(*x, slots));
      }
      if (!ok) continue;
      Union(sb, vb);
      a.buffers[vb].share_reason = "the while body's next state element " + std::to_string(l) + ", in place";
    }
  }

  // Runs one computation's sequence at positions [base, base + n); returns
  // the run's id (for LeavesOf). Nested computations (while bodies,
  // branches, calls) run entirely at the caller's position: their values
  // are live there.
  int Run(const Computation& comp, const Sequence& seq, int64_t base, bool is_entry) {
    const int run = runs++;
    // Last user position of each instruction (for in-place sharing).
    for (size_t k = 0; k < seq.size(); ++k) {
      const int64_t pos = base + static_cast<int64_t>(k);
      for (const Instruction* o : seq[k]->operands()) {
        int d = index.Of(o);
        if (d < 0) continue;
        if (last_use_stamp[d] != run) {
          last_use_stamp[d] = run;
          last_use[d] = 0;
        }
        last_use[d] = std::max(last_use[d], pos);
      }
    }

    auto dying_operand_buffer = [&](const Instruction* user, int operand_index, int64_t pos) -> int {
      const Instruction* o = user->operand(operand_index);
      auto [leaves, count] = LeavesOf(o, run);
      if (count != 1) return -1;
      int b = leaves[0];
      if (known_end.empty()) return -1;  // first pass: liveness only
      const LogicalBuffer& lb = a.buffers[Find(b)];
      if (lb.kind != BufferKind::kTemp || a.buffers[b].kind != BufferKind::kTemp) return -1;
      if (LastUse(o, run) != pos || o == comp.root()) return -1;
      // Every view of the storage (bitcasts, tuples...) must be dead after
      // this position too.
      if (b >= static_cast<int>(known_end.size()) || known_end[b] != pos || storage_end[Find(b)] != pos)
        return -1;
      return b;
    };

    std::vector<int> out;
    for (size_t k = 0; k < seq.size(); ++k) {
      const Instruction* i = seq[k];
      int64_t pos = base + static_cast<int64_t>(k);
      for (const Instruction* o : i->operands()) {
        auto [leaves, count] = LeavesOf(o, run);
        for (int l = 0; l < count; ++l) Use(leaves[l], pos);
      }
      out.clear();
      switch (i->opcode()) {
        case Opcode::kParameter:
          DefineAll(i, is_entry ? BufferKind::kParameter : BufferKind::kTemp, pos, out);
          break;
        case Opcode::kConstant:
          DefineAll(i, BufferKind::kConstant, pos, out);
          break;
        case Opcode::kBitcast:
          AppendLeaves(i->operand(0), run, out);
          break;
        case Opcode::kCustomCall:
          if (IsIdentityCustomCall(*i)) {
            AppendLeaves(i->operand(0), run, out);  // a view of its operand, like a bitcast
            break;
          }
          DefineAll(i, BufferKind::kTemp, pos, out);
          // JAX's potrf / getrf / geqrf / orgqr / syevd / gesvd / sytrd / gehrd / gtsv / trsm calls write
          // their first result over operand 0 (trsm and cuSPARSE's gtsv: their right-hand sides, 1 and 3)
          // (their output_to_operand_aliasing, which XLA honours;
          // our kernels read each element before writing it), where that
          // operand dies here and no other operand reads its storage.
          if (std::optional<LinalgCall> call = LinalgCustomCall(*i);
              call && opts.allow_sharing && !out.empty() && !Reserved(out[0])) {
            const int k = call->kind == LinalgCall::Kind::kTrsm                           ? 1
                          : call->kind == LinalgCall::Kind::kGtsv && !i->shape().IsTuple() ? 3
                                                                                           : 0;  // the operand the call aliases
            const Shape& result = i->shape().IsTuple() ? i->shape().tuple_shapes()[0] : i->shape();
            int candidate = i->operand(k)->shape() == result ? dying_operand_buffer(i, k, pos) : -1;
            for (int k2 = 0; candidate >= 0 && k2 < i->operand_count(); ++k2) {
              if (k2 == k) continue;
              auto [leaves, count] = LeavesOf(i->operand(k2), run);
              for (int l = 0; l < count; ++l)
                if (Find(leaves[l]) == Find(candidate)) candidate = -1;
            }
            if (candidate >= 0 && a.buffers[candidate].bytes == a.buffers[out[0]].bytes) {
              Union(candidate, out[0]);
              a.buffers[out[0]].share_reason =
                  "in place into operand " + std::to_string(k) + " (" + i->attrs().custom_call_target + ")";
            }
          }
          break;
        case Opcode::kReshape:
          if (ReshapeIsBitcast(*i)) AppendLeaves(i->operand(0), run, out);
          else DefineAll(i, BufferKind::kTemp, pos, out);
          break;
        case Opcode::kTuple:
          for (const Instruction* o : i->operands()) AppendLeaves(o, run, out);
          break;
        case Opcode::kGetTupleElement: {
          auto [leaves, count] = LeavesOf(i->operand(0), run);
          int64_t off = LeafOffset(i->operand(0)->shape(), i->tuple_index());
          int64_t cnt = LeafCount(i->shape());
          if (off + cnt <= count)
            out.assign(leaves + off, leaves + off + cnt);
          else
            DefineAll(i, BufferKind::kTemp, pos, out);
          break;
        }
        default: {
          DefineAll(i, BufferKind::kTemp, pos, out);
          // In-place reuse of an operand buffer whose last use this is.
          if (opts.allow_sharing && out.size() == 1 && !Reserved(out[0])) {
            int candidate = -1;
            std::string reason;
            if (i->opcode() == Opcode::kDynamicUpdateSlice || i->opcode() == Opcode::kScatter) {
              candidate = dying_operand_buffer(i, 0, pos);
              reason = std::string("in place into operand 0 (") + std::string(OpcodeName(i->opcode())) + ")";
              // Only where the output keeps the operand's layout and no other
              // operand (the update, the indices) reads the same storage: a
              // scatter of x into x would read updates it has overwritten
              // (XLA copies such an operand first).
              if (candidate >= 0 && !(i->operand(0)->shape() == i->shape())) candidate = -1;
              for (int k2 = 1; candidate >= 0 && k2 < i->operand_count(); ++k2) {
                auto [leaves, count] = LeavesOf(i->operand(k2), run);
                for (int l = 0; l < count; ++l)
                  if (Find(leaves[l]) == Find(candidate)) candidate = -1;
              }
            } else if (IsElementwise(i->opcode()) || (i->opcode() == Opcode::kFusion &&
                                                       i->fusion_kind() == FusionKind::kLoop)) {
              for (int k2 = 0; k2 < i->operand_count() && candidate < 0; ++k2) {
                // A fusion may write over an operand only where every
                // element is read by the thread that writes it: the fused
                // parameter feeds the root through elementwise ops of the
                // output's shape only (XLA's CanShareBuffer); a transpose,
                // slice, broadcast or reduce of it would read elements
                // another thread has already overwritten.
                if (i->opcode() == Opcode::kFusion && !FusedParameterReadElementwise(*i, k2)) continue;
                int b = dying_operand_buffer(i, k2, pos);
                if (b >= 0 && a.buffers[b].bytes == a.buffers[out[0]].bytes &&
                    a.buffers[b].shape.element_type() == i->shape().element_type()) {
                  candidate = b;
                  reason = "reuses the buffer of operand " + std::to_string(k2) + " (its last use)";
                }
              }
            }
            if (candidate >= 0 && a.buffers[candidate].bytes == a.buffers[out[0]].bytes) {
              Union(candidate, out[0]);
              a.buffers[out[0]].share_reason = reason;
            }
          }
          // While results take over their init buffers when this is their
          // last use: the last use of the init tuple and of every value that
          // shares the leaf's storage (a leaf of the init may also be read
          // after the loop, through another tuple or a get-tuple-element,
          // and the loop writes its state in place).
          if (i->opcode() == Opcode::kWhile) {
            auto [init, count] = LeavesOf(i->operand(0), run);
            if (count == static_cast<int>(out.size()) && LastUse(i->operand(0), run) == pos && !known_end.empty()) {
              for (size_t l = 0; l < out.size(); ++l) {
                const int b = init[l];
                const LogicalBuffer& ib = a.buffers[b];
                const bool dies_here = b < static_cast<int>(known_end.size()) && known_end[b] == pos &&
                                       storage_end[Find(b)] == pos;
                if (dies_here && !Reserved(out[l]) && ib.kind == BufferKind::kTemp && ib.bytes == a.buffers[out[l]].bytes) {
                  Union(init[l], out[l]);
                  a.buffers[out[l]].share_reason = "while loop state (init → result)";
                }
              }
            }
          }
          // Values of nested computations live at this position.
          if (i->opcode() == Opcode::kWhile || i->opcode() == Opcode::kConditional ||
              i->opcode() == Opcode::kCall || i->opcode() == Opcode::kAsyncStart) {
            for (const Computation* callee : i->called_computations()) {
              Sequence s = DfsSchedule(*callee);
              size_t before = a.buffers.size();
              const int callee_run = Run(*callee, s, pos, false);
              if (i->opcode() == Opcode::kWhile && callee == i->called("body") && opts.allow_sharing &&
                  !known_end.empty())
                WriteNextStateInPlace(*callee, s, callee_run, before);
              for (size_t b = before; b < a.buffers.size(); ++b) {
                a.buffers[b].start = pos;
                a.buffers[b].end = pos;
              }
              // A while loop's state is one set of buffers, as XLA's buffer
              // assignment makes it: the body's and the condition's
              // parameter share the result's storage, so the runtime
              // copies the state in only where the init lives elsewhere (a
              // parameter, a constant, a value still read after the loop:
              // copy_insertion copies those that the loop changes) and never
              // copies it out.
              if (i->opcode() == Opcode::kWhile && opts.allow_sharing && !known_end.empty() &&
                  callee->num_parameters() == 1) {
                auto [state, count] = LeavesOf(callee->parameter(0), callee_run);
                if (count == static_cast<int>(out.size())) {
                  for (size_t l = 0; l < out.size(); ++l) {
                    if (Reserved(out[l]) || a.buffers[state[l]].kind != BufferKind::kTemp ||
                        a.buffers[state[l]].bytes != a.buffers[out[l]].bytes)
                      continue;
                    Union(out[l], state[l]);
                    if (a.buffers[state[l]].share_reason.empty())
                      a.buffers[state[l]].share_reason = "while loop state (" + std::string(callee == i->called("body") ? "body" : "condition") + " parameter → result)";
                  }
                }
              }
            }
          }
          break;
        }
      }
      SetLeaves(i, run, out);
    }
    return run;
  }
};

}  // namespace

namespace {

// Flat leaf offset of tuple path `index` within `s` (-1 when it names no leaf).
int64_t FlatLeaf(const Shape& s, const std::vector<int64_t>& index) {
  const Shape* cur = &s;
  int64_t off = 0;
  for (int64_t k : index) {
    if (!cur->IsTuple() || k < 0 || k >= cur->tuple_size()) return -1;
    off += LeafOffset(*cur, k);
    cur = &cur->tuple_shapes()[static_cast<size_t>(k)];
  }
  return cur->IsTuple() ? -1 : off;
}

struct PlannedAlias {
  IoAlias alias;
  AliasHazard hazard;
  int64_t out_leaf = -1, param_leaf = -1;  // flat leaf offsets
  bool writer_reads_badly = false;         // the writer reads the parameter other than element-wise
};

}  // namespace

BufferAnalysis AnalyzeBuffers(const Module& m, const Sequence& entry_sequence, const BufferOptions& opts) {
  const Computation& entry = *m.entry();
  const InstructionIndex index(m);
  std::vector<PlannedAlias> planned;
  if (entry.root()) {
    std::vector<IoAlias> aliases = ParseInputOutputAlias(m);
    std::vector<AliasHazard> hazards = AnalyzeAliasHazards(m, aliases);
    for (size_t k = 0; k < aliases.size(); ++k) {
      IoAlias& al = aliases[k];
      PlannedAlias pa;
      pa.hazard = std::move(hazards[k]);
      pa.out_leaf = FlatLeaf(entry.root()->shape(), al.output_index);
      if (al.parameter >= 0 && al.parameter < entry.num_parameters())
        pa.param_leaf = FlatLeaf(entry.parameter(static_cast<int>(al.parameter))->shape(), al.parameter_index);
      for (const Instruction* r : pa.hazard.late_readers) pa.writer_reads_badly |= r == pa.hazard.writer;
      pa.alias = std::move(al);
      planned.push_back(std::move(pa));
    }
  }
  std::vector<int64_t> ends;
  std::vector<char> reserved;
  if (opts.allow_sharing) {
    BufferAnalysis first;
    first.positions = static_cast<int64_t>(entry_sequence.size());
    Builder b0(m, opts, first, index, {});
    int run = b0.Run(entry, entry_sequence, 0, true);
    ends.reserve(first.buffers.size());
    for (const auto& buf : first.buffers) ends.push_back(buf.end);
    if (entry.root()) {
      auto [root, count] = b0.LeavesOf(entry.root(), run);
      for (int l = 0; l < count; ++l) ends[root[l]] = std::max<int64_t>(0, first.positions - 1);
      // An aliased output written no earlier than its parameter's last
      // read goes straight into the parameter's bytes: it must not take
      // over an operand buffer, which would drag that operand's earlier
      // writes into the parameter's bytes.
      reserved.assign(first.buffers.size(), 0);
      for (const PlannedAlias& pa : planned) {
        if (pa.out_leaf < 0 || pa.out_leaf >= count || pa.param_leaf < 0 || pa.writer_reads_badly) continue;
        const Instruction* pi = entry.parameter(static_cast<int>(pa.alias.parameter));
        auto [pl, pcount] = b0.LeavesOf(pi, run);
        if (pa.param_leaf >= pcount) continue;
        const LogicalBuffer& ob = first.buffers[root[pa.out_leaf]];
        const LogicalBuffer& pb = first.buffers[pl[pa.param_leaf]];
        if (ob.kind == BufferKind::kTemp && pb.kind == BufferKind::kParameter && ob.bytes == pb.bytes &&
            pb.end <= ob.start)
          reserved[root[pa.out_leaf]] = 1;
      }
    }
  }
  BufferAnalysis a;
  a.sequence = entry_sequence;
  a.positions = static_cast<int64_t>(entry_sequence.size());
  Builder b(m, opts, a, index, std::move(ends));
  b.reserved = std::move(reserved);
  const int entry_run = b.Run(entry, entry_sequence, 0, true);
  if (entry.root()) {
    auto [root, count] = b.LeavesOf(entry.root(), entry_run);
    a.root_leaves.assign(root, root + count);
  }
  const int64_t last = std::max<int64_t>(0, a.positions - 1);
  // Each parameter's last read, before parameters are made to live for the
  // whole program (input_output_alias below must respect it).
  std::vector<int64_t> param_last_read(a.buffers.size(), -1);
  for (const auto& buf : a.buffers)
    if (buf.kind == BufferKind::kParameter) param_last_read[static_cast<size_t>(buf.id)] = buf.end;
  // Parameters and constants live for the whole program.
  for (auto& buf : a.buffers) {
    if (buf.kind == BufferKind::kParameter || buf.kind == BufferKind::kConstant) {
      buf.start = 0;
      buf.end = last;
    }
  }
  // Entry outputs live to the end (maybe-live-out).
  if (entry.root()) {
    for (int id : a.root_leaves) {
      LogicalBuffer& buf = a.buffers[id];
      buf.end = last;
      if (buf.kind == BufferKind::kTemp) buf.kind = BufferKind::kOutput;
    }
  }
  // input_output_alias: the output leaf shares the parameter's storage
  // when nothing is written there before the parameter's last read.
  for (const PlannedAlias& pa : planned) {
    IoAliasOutcome oc;
    oc.alias = pa.alias.ToString();
    const std::string with = "input_output_alias with parameter " + std::to_string(pa.alias.parameter);
    const Instruction* pi = pa.alias.parameter >= 0 && pa.alias.parameter < entry.num_parameters()
                                ? entry.parameter(static_cast<int>(pa.alias.parameter))
                                : nullptr;
    auto [pl, pcount] = pi ? b.LeavesOf(pi, entry_run) : std::pair<const int*, int>{nullptr, 0};
    if (!pi || pa.param_leaf < 0 || pa.param_leaf >= pcount || pa.out_leaf < 0 ||
        pa.out_leaf >= static_cast<int64_t>(a.root_leaves.size())) {
      oc.reason = with + " names no leaf of the output or the parameter; ignored";
      a.io_aliases.push_back(std::move(oc));
      continue;
    }
    const int ob = a.root_leaves[static_cast<size_t>(pa.out_leaf)], pb = pl[pa.param_leaf];
    oc.output_buffer = ob;
    oc.parameter_buffer = pb;
    const Instruction* w = pa.hazard.writer;
    if (w && w->opcode() == Opcode::kCopy && !w->control_predecessors().empty()) oc.copy = w->name();
    if (b.Find(ob) == b.Find(pb)) {
      oc.taken = true;
      oc.reason = with + ": the output is the parameter's own value";
      a.io_aliases.push_back(std::move(oc));
      continue;
    }
    std::string why;
    if (a.buffers[ob].bytes != a.buffers[pb].bytes) {
      why = "the output has " + std::to_string(a.buffers[ob].bytes) + " bytes and the parameter " +
            std::to_string(a.buffers[pb].bytes);
    } else if (a.buffers[ob].kind != BufferKind::kOutput) {
      why = "the output's bytes are a " + std::string(BufferKindName(a.buffers[ob].kind)) + "'s";
    } else if (pa.writer_reads_badly) {
      why = pa.hazard.why_not;
    } else {
      // The output's storage (it and every value that handed its bytes
      // on to it) may take the parameter's bytes only if nothing is
      // written there before the parameter's last read.
      const int os = b.Find(ob);
      int64_t first_write = std::numeric_limits<int64_t>::max();
      std::string first_writer;
      for (const auto& buf : a.buffers)
        if (b.Find(buf.id) == os && buf.start < first_write) {
          first_write = buf.start;
          first_writer = buf.instr ? buf.instr->name() : "?";
        }
      const int64_t read_until = param_last_read[static_cast<size_t>(pb)];
      if (first_write >= read_until) {
        b.Union(pb, ob);
        oc.taken = true;
        if (!oc.copy.empty())
          oc.reason = with + ", written by %" + oc.copy +
                      ", the copy copy_insertion ordered after every read of the parameter";
        else if (pa.hazard.why_not.empty())
          oc.reason = with + ": every read of the parameter comes before %" + first_writer + " writes it";
        else
          oc.reason = with + ": in this schedule the parameter's last read (" + std::to_string(read_until) +
                      ") is not after the first write (%" + first_writer + ", " + std::to_string(first_write) + ")";
        a.buffers[ob].share_reason = oc.reason;
        a.io_aliases.push_back(std::move(oc));
        continue;
      }
      why = first_writer + ", which hands its bytes on to this output, is written at " + std::to_string(first_write) +
            " while the parameter is read until " + std::to_string(read_until);
    }
    oc.reason = with + " not taken: " + why + " (the output keeps bytes of its own; " +
                (pa.hazard.copy_fixes ? "copy_insertion, in the simplify and gpu pipelines, keeps it with a copy)"
                                      : "a donating caller needs a copy)");
    a.buffers[ob].share_reason = oc.reason;
    a.io_aliases.push_back(std::move(oc));
  }
  for (auto& buf : a.buffers) buf.storage = b.Find(buf.id);
  // A storage's kind: parameter > constant > output > temp.
  std::vector<int> kind_rank(a.buffers.size(), -1);
  auto rank = [](BufferKind k) {
    switch (k) {
      case BufferKind::kParameter: return 3;
      case BufferKind::kConstant: return 2;
      case BufferKind::kOutput: return 1;
      default: return 0;
    }
  };
  std::vector<BufferKind> kind_of(a.buffers.size(), BufferKind::kTemp);
  for (const auto& buf : a.buffers) {
    if (rank(buf.kind) > kind_rank[buf.storage]) {
      kind_rank[buf.storage] = rank(buf.kind);
      kind_of[buf.storage] = buf.kind;
    }
  }
  for (auto& buf : a.buffers) buf.kind = kind_of[buf.storage];
  return a;
}

std::vector<int64_t> LiveBytes(const BufferAnalysis& a, int64_t alignment, bool include_outputs) {
  // Each storage counted once over the union of its members' ranges.
  const size_t n = a.buffers.size();
  std::vector<int64_t> first(n, INT64_MAX), last(n, INT64_MIN), bytes(n, 0);
  for (const auto& b : a.buffers) {
    if (b.kind == BufferKind::kParameter || b.kind == BufferKind::kConstant) continue;
    if (b.kind == BufferKind::kOutput && !include_outputs) continue;
    first[b.storage] = std::min(first[b.storage], b.start);
    last[b.storage] = std::max(last[b.storage], b.end);
    int64_t aligned = alignment > 1 ? (b.bytes + alignment - 1) / alignment * alignment : b.bytes;
    bytes[b.storage] = std::max(bytes[b.storage], aligned);
  }
  std::vector<int64_t> delta(a.positions + 1, 0);
  for (size_t s = 0; s < n; ++s) {
    if (last[s] == INT64_MIN) continue;  // not counted
    if (first[s] < 0 || first[s] >= a.positions) continue;
    delta[first[s]] += bytes[s];
    delta[std::min<int64_t>(last[s] + 1, a.positions)] -= bytes[s];
  }
  std::vector<int64_t> live(a.positions, 0);
  int64_t cur = 0;
  for (int64_t p = 0; p < a.positions; ++p) {
    cur += delta[p];
    live[p] = cur;
  }
  return live;
}

}  // namespace hloscope
