#include "core/memory/logical_buffers.h"

#include <algorithm>
#include <unordered_set>

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

bool ReshapeIsBitcast(const Instruction& i) {
  const Shape& in = i.operand(0)->shape();
  const Shape& out = i.shape();
  auto default_layout = [](const Shape& s) {
    return !s.has_layout() || s.layout().minor_to_major == Shape::DefaultLayout(s.rank()).minor_to_major;
  };
  return in.element_type() == out.element_type() && default_layout(in) && default_layout(out) &&
         !in.IsDynamic() && !out.IsDynamic();
}

struct Builder {
  const Module& module;
  const BufferOptions& opts;
  BufferAnalysis& a;
  std::vector<int> parent;  // union-find over buffer ids
  // Final last-use position of every buffer, from a first pass without
  // sharing (empty during that pass); and per storage the latest end.
  std::vector<int64_t> known_end;
  std::vector<int64_t> storage_end;

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

  int NewBuffer(const Instruction* i, std::vector<int64_t> index, const Shape& s, BufferKind kind, int64_t pos) {
    LogicalBuffer b;
    b.id = static_cast<int>(a.buffers.size());
    b.instr = i;
    b.index = std::move(index);
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

  std::vector<int> DefineAll(const Instruction* i, BufferKind kind, int64_t pos) {
    std::vector<std::pair<std::vector<int64_t>, const Shape*>> leaves;
    std::vector<int64_t> prefix;
    Leaves(i->shape(), prefix, leaves);
    std::vector<int> ids;
    for (auto& [idx, s] : leaves) ids.push_back(NewBuffer(i, idx, *s, kind, pos));
    return ids;
  }

  // Last position at which each buffer is used, filled as we go.
  void Use(int id, int64_t pos) { a.buffers[id].end = std::max(a.buffers[id].end, pos); }

  // Runs one computation's sequence at positions [base, base + n).
  // Nested computations (while bodies, branches, calls) run entirely at the
  // caller's position: their values are live there.
  void Run(const Computation& comp, const Sequence& seq, int64_t base, bool is_entry,
           std::unordered_map<const Instruction*, std::vector<int>>& leaves) {
    // Last user position of each instruction (for in-place sharing).
    std::unordered_map<const Instruction*, int64_t> pos_of;
    for (size_t k = 0; k < seq.size(); ++k) pos_of[seq[k]] = base + static_cast<int64_t>(k);
    std::unordered_map<const Instruction*, int64_t> last_use;
    for (size_t k = 0; k < seq.size(); ++k)
      for (const Instruction* o : seq[k]->operands()) last_use[o] = std::max(last_use[o], pos_of[seq[k]]);

    auto dying_operand_buffer = [&](const Instruction* user, int operand_index, int64_t pos) -> int {
      const Instruction* o = user->operand(operand_index);
      auto it = leaves.find(o);
      if (it == leaves.end() || it->second.size() != 1) return -1;
      int b = it->second[0];
      if (known_end.empty()) return -1;  // first pass: liveness only
      const LogicalBuffer& lb = a.buffers[Find(b)];
      if (lb.kind != BufferKind::kTemp || a.buffers[b].kind != BufferKind::kTemp) return -1;
      if (last_use[o] != pos || o == comp.root()) return -1;
      // Every view of the storage (bitcasts, tuples...) must be dead after
      // this position too.
      if (b >= static_cast<int>(known_end.size()) || known_end[b] != pos || storage_end[Find(b)] != pos)
        return -1;
      return b;
    };

    for (size_t k = 0; k < seq.size(); ++k) {
      const Instruction* i = seq[k];
      int64_t pos = base + static_cast<int64_t>(k);
      for (const Instruction* o : i->operands()) {
        auto it = leaves.find(o);
        if (it != leaves.end())
          for (int id : it->second) Use(id, pos);
      }
      std::vector<int> out;
      switch (i->opcode()) {
        case Opcode::kParameter:
          if (is_entry) {
            out = DefineAll(i, BufferKind::kParameter, pos);
          } else {
            out = DefineAll(i, BufferKind::kTemp, pos);
          }
          break;
        case Opcode::kConstant:
          out = DefineAll(i, BufferKind::kConstant, pos);
          break;
        case Opcode::kBitcast:
          out = leaves[i->operand(0)];
          break;
        case Opcode::kReshape:
          if (ReshapeIsBitcast(*i)) out = leaves[i->operand(0)];
          else out = DefineAll(i, BufferKind::kTemp, pos);
          break;
        case Opcode::kTuple:
          for (const Instruction* o : i->operands()) {
            const auto& l = leaves[o];
            out.insert(out.end(), l.begin(), l.end());
          }
          break;
        case Opcode::kGetTupleElement: {
          const auto& l = leaves[i->operand(0)];
          int64_t off = LeafOffset(i->operand(0)->shape(), i->tuple_index());
          int64_t cnt = LeafCount(i->shape());
          if (off + cnt <= static_cast<int64_t>(l.size()))
            out.assign(l.begin() + off, l.begin() + off + cnt);
          else
            out = DefineAll(i, BufferKind::kTemp, pos);
          break;
        }
        default: {
          out = DefineAll(i, BufferKind::kTemp, pos);
          // In-place reuse of an operand buffer whose last use this is.
          if (opts.allow_sharing && out.size() == 1) {
            int candidate = -1;
            std::string reason;
            if (i->opcode() == Opcode::kDynamicUpdateSlice || i->opcode() == Opcode::kScatter) {
              candidate = dying_operand_buffer(i, 0, pos);
              reason = std::string("in place into operand 0 (") + std::string(OpcodeName(i->opcode())) + ")";
            } else if (IsElementwise(i->opcode()) || (i->opcode() == Opcode::kFusion &&
                                                       i->fusion_kind() == FusionKind::kLoop)) {
              for (int k2 = 0; k2 < i->operand_count() && candidate < 0; ++k2) {
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
          // While results take over their init buffers when this is their last use.
          if (i->opcode() == Opcode::kWhile) {
            const auto& init = leaves[i->operand(0)];
            if (init.size() == out.size() && last_use[i->operand(0)] == pos) {
              for (size_t l = 0; l < out.size(); ++l) {
                const LogicalBuffer& ib = a.buffers[init[l]];
                if (ib.kind == BufferKind::kTemp && ib.bytes == a.buffers[out[l]].bytes) {
                  Union(init[l], out[l]);
                  a.buffers[out[l]].share_reason = "while loop state (init → result)";
                }
              }
            }
          }
          // Values of nested computations live at this position.
          if (i->opcode() == Opcode::kWhile || i->opcode() == Opcode::kConditional ||
              i->opcode() == Opcode::kCall) {
            for (const Computation* callee : i->called_computations()) {
              std::unordered_map<const Instruction*, std::vector<int>> inner;
              Sequence s = DfsSchedule(*callee);
              size_t before = a.buffers.size();
              Run(*callee, s, pos, false, inner);
              for (size_t b = before; b < a.buffers.size(); ++b) {
                a.buffers[b].start = pos;
                a.buffers[b].end = pos;
              }
            }
          }
          break;
        }
      }
      leaves[i] = out;
    }
  }
};

}  // namespace

BufferAnalysis AnalyzeBuffers(const Module& m, const Sequence& entry_sequence, const BufferOptions& opts) {
  const Computation& entry = *m.entry();
  std::vector<int64_t> ends;
  if (opts.allow_sharing) {
    BufferAnalysis first;
    first.positions = static_cast<int64_t>(entry_sequence.size());
    Builder b0{m, opts, first, {}, {}, {}};
    b0.Run(entry, entry_sequence, 0, true, first.leaves);
    for (const auto& buf : first.buffers) ends.push_back(buf.end);
    if (entry.root())
      for (int id : first.leaves[entry.root()]) ends[id] = std::max<int64_t>(0, first.positions - 1);
  }
  BufferAnalysis a;
  a.sequence = entry_sequence;
  a.positions = static_cast<int64_t>(entry_sequence.size());
  Builder b{m, opts, a, {}, std::move(ends), {}};
  b.Run(entry, entry_sequence, 0, true, a.leaves);
  const int64_t last = std::max<int64_t>(0, a.positions - 1);
  // Parameters and constants live for the whole program.
  for (auto& buf : a.buffers) {
    if (buf.kind == BufferKind::kParameter || buf.kind == BufferKind::kConstant) {
      buf.start = 0;
      buf.end = last;
    }
  }
  // Entry outputs live to the end (maybe-live-out).
  if (entry.root()) {
    for (int id : a.leaves[entry.root()]) {
      LogicalBuffer& buf = a.buffers[id];
      buf.end = last;
      if (buf.kind == BufferKind::kTemp) buf.kind = BufferKind::kOutput;
    }
  }
  // input_output_alias={ {0}: (0, {}, may-alias), ... }: the output leaf
  // shares the parameter's storage.
  if (const RawAttr* io = m.FindHeader("input_output_alias"); io && entry.root()) {
    const std::string& t = io->value;
    size_t p = 0;
    const auto& out_leaves = a.leaves[entry.root()];
    while ((p = t.find('{', p + 1)) != std::string::npos) {
      size_t close = t.find('}', p);
      size_t colon = t.find(':', close);
      size_t lpar = t.find('(', colon);
      if (close == std::string::npos || colon == std::string::npos || lpar == std::string::npos) break;
      std::string out_idx = t.substr(p + 1, close - p - 1);
      int64_t param = std::atoll(t.c_str() + lpar + 1);
      int64_t leaf = out_idx.empty() ? 0 : std::atoll(out_idx.c_str());
      const Instruction* pi = param < entry.num_parameters() ? entry.parameter(static_cast<int>(param)) : nullptr;
      auto pl = pi ? a.leaves.find(pi) : a.leaves.end();
      if (pi && pl != a.leaves.end() && !pl->second.empty() && leaf < static_cast<int64_t>(out_leaves.size()) &&
          pi->shape().IsArray()) {
        int ob = out_leaves[leaf], pb = pl->second[0];
        if (a.buffers[ob].bytes == a.buffers[pb].bytes && a.buffers[ob].kind == BufferKind::kOutput) {
          b.Union(pb, ob);
          a.buffers[ob].share_reason = "input_output_alias with parameter " + std::to_string(param);
        }
      }
      p = t.find(')', lpar);
      if (p == std::string::npos) break;
    }
  }
  for (auto& buf : a.buffers) buf.storage = b.Find(buf.id);
  // A storage's kind: parameter > constant > output > temp.
  std::unordered_map<int, BufferKind> kind_of;
  auto rank = [](BufferKind k) {
    switch (k) {
      case BufferKind::kParameter: return 3;
      case BufferKind::kConstant: return 2;
      case BufferKind::kOutput: return 1;
      default: return 0;
    }
  };
  for (const auto& buf : a.buffers) {
    auto it = kind_of.find(buf.storage);
    if (it == kind_of.end() || rank(buf.kind) > rank(it->second)) kind_of[buf.storage] = buf.kind;
  }
  for (auto& buf : a.buffers) buf.kind = kind_of[buf.storage];
  return a;
}

std::vector<int64_t> LiveBytes(const BufferAnalysis& a, int64_t alignment, bool include_outputs) {
  // Each storage counted once over the union of its members' ranges.
  std::unordered_map<int, std::pair<int64_t, int64_t>> range;
  std::unordered_map<int, int64_t> bytes;
  for (const auto& b : a.buffers) {
    if (b.kind == BufferKind::kParameter || b.kind == BufferKind::kConstant) continue;
    if (b.kind == BufferKind::kOutput && !include_outputs) continue;
    auto [it, inserted] = range.try_emplace(b.storage, b.start, b.end);
    if (!inserted) {
      it->second.first = std::min(it->second.first, b.start);
      it->second.second = std::max(it->second.second, b.end);
    }
    int64_t aligned = alignment > 1 ? (b.bytes + alignment - 1) / alignment * alignment : b.bytes;
    bytes[b.storage] = std::max(bytes[b.storage], aligned);
  }
  std::vector<int64_t> delta(a.positions + 1, 0);
  for (auto& [s, r] : range) {
    if (r.first < 0 || r.first >= a.positions) continue;
    delta[r.first] += bytes[s];
    delta[std::min<int64_t>(r.second + 1, a.positions)] -= bytes[s];
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
