#include "core/memory/assignment_checker.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

#include "core/ir/custom_calls.h"

namespace hloscope {

std::string Clobber::ToString() const {
  return victim + " (defined at " + std::to_string(victim_defined) + ", read until " +
         std::to_string(victim_last_read) + ") is overwritten at " + std::to_string(written_at) + " by " + writer +
         " (allocation " + std::to_string(allocation) + ", bytes " + std::to_string(offset) + ".." +
         std::to_string(offset + bytes) + ")";
}

namespace {

using Index = std::vector<int64_t>;

void LeafIndices(const Shape& s, Index& at, std::vector<Index>& out) {
  if (!s.IsTuple()) {
    out.push_back(at);
    return;
  }
  for (int i = 0; i < s.tuple_size(); ++i) {
    at.push_back(i);
    LeafIndices(s.tuple_shapes()[static_cast<size_t>(i)], at, out);
    at.pop_back();
  }
}

std::string Name(const std::string& instr, const Index& index) {
  if (index.empty()) return instr;
  std::string s = instr + "{";
  for (size_t i = 0; i < index.size(); ++i) s += (i ? "," : "") + std::to_string(index[i]);
  return s + "}";
}

class Checker {
 public:
  Checker(const Module& m, const BufferAssignment& ba) : m_(m), ba_(ba) {}

  ClobberReport Run(size_t max_reported) {
    ClobberReport report;
    const Computation* entry = m_.entry();
    if (!entry) return report;
    const int64_t n = static_cast<int64_t>(ba_.sequence_ids.size());
    for (int64_t p = 0; p < n; ++p) pos_[ba_.sequence_ids[static_cast<size_t>(p)]] = p;
    // Instructions of loop, branch and call bodies happen at their caller.
    for (const auto& i : entry->instructions()) {
      auto it = pos_.find(i->id());
      if (it == pos_.end()) continue;
      for (const Computation* c : i->called_computations())
        if (!c->fusion_instruction) MapNested(*c, it->second);
    }
    for (size_t b = 0; b < ba_.buffers.size(); ++b) {
      const AssignedBuffer& ab = ba_.buffers[b];
      by_leaf_[{ab.instruction_id, ab.index}] = static_cast<int>(b);
    }
    by_id_.reserve(entry->instructions().size());
    for (const auto& i : entry->instructions()) by_id_[i->id()] = i.get();

    // Last reads, from the module and the schedule alone.
    std::vector<int64_t> last_read(ba_.buffers.size(), -1);
    auto read = [&](const Instruction* o, int64_t p) {
      std::vector<Index> leaves;
      Index at;
      LeafIndices(o->shape(), at, leaves);
      for (const Index& idx : leaves) {
        int v = LeafValue(o, idx, 0);
        if (v >= 0) last_read[static_cast<size_t>(v)] = std::max(last_read[static_cast<size_t>(v)], p);
      }
    };
    for (const auto& i : entry->instructions()) {
      auto it = pos_.find(i->id());
      if (it == pos_.end()) continue;
      for (const Instruction* o : i->operands()) read(o, it->second);
    }
    if (entry->root()) read(entry->root(), n);  // outputs are read after the last instruction

    // Where each value is written: its definition's position.
    std::vector<int64_t> defined(ba_.buffers.size(), -1);
    for (size_t b = 0; b < ba_.buffers.size(); ++b) {
      auto it = pos_.find(ba_.buffers[b].instruction_id);
      if (it != pos_.end()) defined[b] = it->second;
    }
    struct Write {
      int64_t offset, end, at;
      int buffer;
    };
    std::map<int, std::vector<Write>> writes;  // by allocation, sorted by offset
    std::map<int, int64_t> longest;
    for (size_t b = 0; b < ba_.buffers.size(); ++b) {
      const AssignedBuffer& ab = ba_.buffers[b];
      if (defined[b] < 0 || ab.allocation < 0 || ab.bytes <= 0) continue;
      writes[ab.allocation].push_back({ab.offset, ab.offset + ab.bytes, defined[b], static_cast<int>(b)});
      longest[ab.allocation] = std::max(longest[ab.allocation], ab.bytes);
    }
    for (auto& [a, w] : writes)
      std::sort(w.begin(), w.end(), [](const Write& x, const Write& y) { return x.offset < y.offset; });

    for (size_t v = 0; v < ba_.buffers.size(); ++v) {
      const AssignedBuffer& vb = ba_.buffers[v];
      if (defined[v] < 0 || last_read[v] <= defined[v] || vb.allocation < 0 || vb.bytes <= 0) continue;
      ++report.values;
      auto wit = writes.find(vb.allocation);
      if (wit == writes.end()) continue;
      const std::vector<Write>& w = wit->second;
      const int64_t lo = vb.offset - longest[vb.allocation], hi = vb.offset + vb.bytes;
      auto first = std::lower_bound(w.begin(), w.end(), lo, [](const Write& x, int64_t o) { return x.offset < o; });
      bool counted = false;
      for (auto it = first; it != w.end() && it->offset < hi; ++it) {
        if (it->buffer == static_cast<int>(v) || it->end <= vb.offset) continue;
        if (!(defined[v] < it->at && it->at < last_read[v])) continue;
        if (!counted) ++report.clobbered_values;
        counted = true;
        if (report.clobbers.size() < max_reported) {
          const AssignedBuffer& wb = ba_.buffers[static_cast<size_t>(it->buffer)];
          Clobber c;
          c.victim = Name(vb.instruction, vb.index);
          c.writer = Name(wb.instruction, wb.index);
          c.victim_defined = defined[v];
          c.victim_last_read = last_read[v];
          c.written_at = it->at;
          c.allocation = vb.allocation;
          c.offset = std::max(vb.offset, it->offset);
          c.bytes = std::min(vb.offset + vb.bytes, it->end) - c.offset;
          report.clobbers.push_back(std::move(c));
        }
      }
    }
    return report;
  }

 private:
  void MapNested(const Computation& c, int64_t p) {
    for (const auto& i : c.instructions()) {
      pos_.emplace(i->id(), p);
      for (const Computation* callee : i->called_computations())
        if (!callee->fusion_instruction) MapNested(*callee, p);
    }
  }

  // The value (buffer) that holds leaf `idx` of `i`'s result: its own
  // buffer, or for a view (bitcast, tuple, get-tuple-element, identity
  // custom-calls) the value it shows; -1 when there is none.
  int LeafValue(const Instruction* i, const Index& idx, int depth) {
    if (depth > 256) return -1;
    if (auto it = by_leaf_.find({i->id(), idx}); it != by_leaf_.end()) return it->second;
    switch (i->opcode()) {
      case Opcode::kTuple:
        if (idx.empty() || idx[0] < 0 || idx[0] >= i->operand_count()) return -1;
        return LeafValue(i->operand(static_cast<int>(idx[0])), Index(idx.begin() + 1, idx.end()), depth + 1);
      case Opcode::kGetTupleElement: {
        Index inner = {i->tuple_index()};
        inner.insert(inner.end(), idx.begin(), idx.end());
        return LeafValue(i->operand(0), inner, depth + 1);
      }
      case Opcode::kBitcast:
      case Opcode::kReshape:
      case Opcode::kOptimizationBarrier:
        return i->operand_count() > 0 ? LeafValue(i->operand(0), idx, depth + 1) : -1;
      case Opcode::kCustomCall:
        return IsIdentityCustomCall(*i) ? LeafValue(i->operand(0), idx, depth + 1) : -1;
      default:
        return -1;
    }
  }

  const Module& m_;
  const BufferAssignment& ba_;
  std::unordered_map<int64_t, int64_t> pos_;
  std::unordered_map<int64_t, const Instruction*> by_id_;
  std::map<std::pair<int64_t, Index>, int> by_leaf_;
};

}  // namespace

ClobberReport FindClobbers(const Module& m, const BufferAssignment& ba, size_t max_reported) {
  return Checker(m, ba).Run(max_reported);
}

}  // namespace hloscope
