#include "core/fusion/reachability.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace hloscope {

Reachability::Reachability(const Computation& c) : comp_(&c) { Build(); }

void Reachability::Build() {
  std::vector<Instruction*> order = comp_->MakePostOrder();
  int n = static_cast<int>(order.size());
  capacity_ = n + n / 2 + 64;
  words_ = (static_cast<size_t>(capacity_) + 63) / 64;
  bits_.assign(static_cast<size_t>(capacity_) * words_, 0);
  instr_.clear();
  instr_.reserve(static_cast<size_t>(capacity_));
  slot_of_id_.clear();
  ids_unique_ = true;
  depths_stale_ = false;
  for (Instruction* i : order) {
    if (i->id() < 0) {
      ids_unique_ = false;
      continue;
    }
    size_t id = static_cast<size_t>(i->id());
    if (id < slot_of_id_.size() && slot_of_id_[id] >= 0) ids_unique_ = false;
    AddSlot(i);
  }
  depth_.assign(static_cast<size_t>(capacity_), 0);
  for (Instruction* i : order) {
    int s = SlotOf(i);
    if (s < 0) continue;
    Recompute(s, i);
    int d = 0;
    for (const Instruction* o : i->operands())
      if (int os = SlotOf(o); os >= 0) d = std::max(d, depth_[static_cast<size_t>(os)] + 1);
    for (const Instruction* o : i->control_predecessors())
      if (int os = SlotOf(o); os >= 0) d = std::max(d, depth_[static_cast<size_t>(os)] + 1);
    depth_[static_cast<size_t>(s)] = d;
  }
}

int Reachability::SlotOf(const Instruction* i) const {
  int64_t id = i->id();
  if (id < 0 || id >= static_cast<int64_t>(slot_of_id_.size())) return -1;
  int s = slot_of_id_[static_cast<size_t>(id)];
  return s >= 0 && instr_[static_cast<size_t>(s)] == i ? s : -1;
}

int Reachability::AddSlot(const Instruction* i) {
  int s = static_cast<int>(instr_.size());
  instr_.push_back(i);
  size_t id = static_cast<size_t>(i->id());
  if (slot_of_id_.size() <= id) slot_of_id_.resize(std::max(id + 1, slot_of_id_.size() * 2), -1);
  slot_of_id_[id] = s;
  return s;
}

bool Reachability::Recompute(int slot, const Instruction* i) {
  ++recomputed_;
  std::vector<uint64_t>& row = scratch_;
  row.assign(words_, 0);
  row[static_cast<size_t>(slot) / 64] |= uint64_t{1} << (slot % 64);
  auto add = [&](const Instruction* d) {
    int ds = SlotOf(d);
    if (ds < 0) return;
    const uint64_t* src = Row(ds);
    for (size_t w = 0; w < words_; ++w) row[w] |= src[w];
  };
  for (const Instruction* o : i->operands()) add(o);
  for (const Instruction* p : i->control_predecessors()) add(p);
  uint64_t* dst = Row(slot);
  if (std::equal(row.begin(), row.end(), dst)) return false;
  std::copy(row.begin(), row.end(), dst);
  return true;
}

bool Reachability::Reaches(const Instruction* from, const Instruction* to) const {
  if (!ids_unique_) {
    // Duplicate ids inside one computation (not produced by the parser):
    // answer by walking the graph.
    std::vector<const Instruction*> stack = {to}, seen = {to};
    while (!stack.empty()) {
      const Instruction* x = stack.back();
      stack.pop_back();
      if (x == from) return x->parent() == comp_;
      auto visit = [&](const Instruction* d) {
        if (d->parent() != comp_ || std::find(seen.begin(), seen.end(), d) != seen.end()) return;
        seen.push_back(d);
        stack.push_back(d);
      };
      for (const Instruction* o : x->operands()) visit(o);
      for (const Instruction* p : x->control_predecessors()) visit(p);
    }
    return false;
  }
  int f = SlotOf(from), t = SlotOf(to);
  if (f < 0 || t < 0) return false;
  return (Row(t)[static_cast<size_t>(f) / 64] >> (f % 64)) & 1;
}

void Reachability::Update(const std::vector<Instruction*>& seeds) {
  if (!ids_unique_) return;  // queries walk the graph
  if (depths_stale_) return Build();
  // Instructions are recomputed in order of depth (longest path from a
  // source, kept per slot), so operands come first; users are queued only
  // when a set or a depth changed. Merges only add paths between live
  // instructions, so this reaches exactly the sets a fresh build gives,
  // touching only what changed. New instructions (get-tuple-elements, merged
  // fusions) are reached as seeds or as users of seeds and get a slot then.
  using Item = std::pair<int, int>;  // depth, slot
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  std::vector<char>& queued = queued_;
  auto depth_from_deps = [&](const Instruction* i) {
    int d = 0;
    for (const Instruction* o : i->operands())
      if (int s = SlotOf(o); s >= 0) d = std::max(d, depth_[static_cast<size_t>(s)] + 1);
    for (const Instruction* o : i->control_predecessors())
      if (int s = SlotOf(o); s >= 0) d = std::max(d, depth_[static_cast<size_t>(s)] + 1);
    return d;
  };
  auto push = [&](const Instruction* i, int at_least) -> bool {
    if (i->parent() != comp_ || i->id() < 0) return true;
    int s = SlotOf(i);
    if (s < 0) {
      if (static_cast<int>(instr_.size()) >= capacity_) return false;
      s = AddSlot(i);
      depth_[static_cast<size_t>(s)] = depth_from_deps(i);
    }
    int& d = depth_[static_cast<size_t>(s)];
    d = std::max(d, at_least);
    if (queued.size() < instr_.size()) queued.resize(instr_.size() * 2, 0);
    if (queued[static_cast<size_t>(s)]) return true;
    queued[static_cast<size_t>(s)] = 1;
    queue.push({d, s});
    return true;
  };
  std::vector<int> seed_slots;
  for (Instruction* i : seeds) {
    if (!push(i, 0)) return Build();
    seed_slots.push_back(SlotOf(i));
  }
  bool ok = true;
  while (ok && !queue.empty()) {
    auto [d, s] = queue.top();
    queue.pop();
    queued[static_cast<size_t>(s)] = 0;
    const Instruction* i = instr_[static_cast<size_t>(s)];
    int depth = std::max(depth_from_deps(i), d);
    bool deeper = depth != depth_[static_cast<size_t>(s)];
    depth_[static_cast<size_t>(s)] = depth;
    bool seed = std::find(seed_slots.begin(), seed_slots.end(), s) != seed_slots.end();
    if (!Recompute(s, i) && !seed && !deeper) continue;
    for (const Instruction* u : i->users()) ok = ok && push(u, depth + 1);
    for (const Instruction* u : i->control_successors()) ok = ok && push(u, depth + 1);
  }
  while (!queue.empty()) {
    queued[static_cast<size_t>(queue.top().second)] = 0;
    queue.pop();
  }
  if (!ok) Build();  // out of room for new instructions: start over
}

Reachability::SiblingMerge Reachability::BeforeSiblingMerge(const Instruction* a, const Instruction* b) const {
  SiblingMerge t;
  t.slot_a = SlotOf(a);
  t.slot_b = SlotOf(b);
  t.outputs_a = a->shape().IsTuple() ? a->shape().tuple_size() : 1;
  return t;
}

void Reachability::AfterSiblingMerge(const SiblingMerge& t, Instruction* merged) {
  if (!ids_unique_) return;  // queries walk the graph
  if (t.slot_a < 0 || t.slot_b < 0) return Update({merged});
  // The new instructions, operands first: the merged fusion, its
  // get-tuple-elements, the tuples rebuilt from them for tuple-shaped
  // siblings. `side` 0/1: standing for a / b.
  std::vector<std::pair<Instruction*, int>> fresh = {{merged, -1}};
  for (Instruction* g : merged->users()) {
    if (g->opcode() != Opcode::kGetTupleElement || g->parent() != comp_) return Update({merged});
    fresh.push_back({g, g->attrs().index < t.outputs_a ? 0 : 1});
  }
  size_t gtes = fresh.size();
  for (size_t k = 1; k < gtes; ++k)
    for (Instruction* u : fresh[k].first->users())
      if (u->opcode() == Opcode::kTuple && SlotOf(u) < 0 &&
          std::none_of(fresh.begin(), fresh.end(), [&](const auto& f) { return f.first == u; }))
        fresh.push_back({u, fresh[k].second});
  if (static_cast<int>(instr_.size() + fresh.size()) > capacity_) return Build();
  for (auto& [f, side] : fresh) {
    if (SlotOf(f) >= 0) return Update({merged});  // not new: take the general way
    int s = AddSlot(f);
    Recompute(s, f);
    int d = 0;
    for (const Instruction* o : f->operands())
      if (int os = SlotOf(o); os >= 0) d = std::max(d, depth_[static_cast<size_t>(os)] + 1);
    depth_[static_cast<size_t>(s)] = d;
  }
  // What a former descendant of each side gains: the rows of that side's
  // replacement (which include the merged fusion and everything above it).
  // A former descendant of a already has a's row (reachability is
  // transitive), so it gains only the rest: in effect b's own ancestors and
  // the new instructions. Kept as the non-zero words of that difference.
  std::vector<std::pair<size_t, uint64_t>> gain[2];
  for (int side = 0; side < 2; ++side) {
    scratch_.assign(words_, 0);
    for (auto& [f, fs] : fresh) {
      if (fs != side) continue;
      const uint64_t* r = Row(SlotOf(f));
      for (size_t w = 0; w < words_; ++w) scratch_[w] |= r[w];
    }
    const uint64_t* had = Row(side == 0 ? t.slot_a : t.slot_b);
    for (size_t w = 0; w < words_; ++w)
      if (uint64_t bits = scratch_[w] & ~had[w]) gain[side].push_back({w, bits});
  }
  const size_t wa = static_cast<size_t>(t.slot_a) / 64, wb = static_cast<size_t>(t.slot_b) / 64;
  const uint64_t ba = uint64_t{1} << (t.slot_a % 64), bb = uint64_t{1} << (t.slot_b % 64);
  const int first_fresh = static_cast<int>(instr_.size() - fresh.size());
  depths_stale_ = true;  // the general update orders by depth: it rebuilds first
  for (int s = 0; s < first_fresh; ++s) {
    if (s == t.slot_a || s == t.slot_b) continue;
    uint64_t* row = Row(s);
    bool from_a = row[wa] & ba, from_b = row[wb] & bb;
    if (!from_a && !from_b) continue;
    ++recomputed_;
    if (from_a)
      for (const auto& [w, bits] : gain[0]) row[w] |= bits;
    if (from_b)
      for (const auto& [w, bits] : gain[1]) row[w] |= bits;
  }
}

Reachability::ExtraOutput Reachability::BeforeExtraOutput(const Instruction* producer,
                                                         const Instruction* consumer) const {
  ExtraOutput t;
  t.slot_c = SlotOf(consumer);
  for (const Instruction* u : producer->users()) {
    if (u == consumer) continue;
    int s = SlotOf(u);
    if (s < 0) {  // unknown user: the general update
      t.slot_c = -1;
      break;
    }
    t.other_users.push_back(s);
  }
  return t;
}

void Reachability::AfterExtraOutput(const ExtraOutput& t, Instruction* consumer) {
  if (!ids_unique_) return;  // queries walk the graph
  if (t.slot_c < 0 || consumer->parent() != comp_ || !consumer->shape().IsTuple()) return Update({consumer});
  // New: the consumer when it was wrapped into a fusion, the get-tuple-element
  // for its former users (index 0, when it was not a tuple before) and the
  // one for the producer's other users (the last index).
  const int64_t last = consumer->shape().tuple_size() - 1;
  Instruction* g0 = nullptr;
  Instruction* gp = nullptr;
  for (Instruction* u : consumer->users()) {
    if (SlotOf(u) >= 0) continue;
    if (u->opcode() != Opcode::kGetTupleElement || u->parent() != comp_) return Update({consumer});
    if (u->attrs().index == last && !gp) gp = u;
    else if (u->attrs().index == 0 && !g0) g0 = u;
    else return Update({consumer});
  }
  if (!gp) return Update({consumer});
  if (static_cast<int>(instr_.size()) + 3 > capacity_) return Build();
  int k = SlotOf(consumer);
  if (k < 0) k = AddSlot(consumer);
  Recompute(k, consumer);
  const int first_fresh = static_cast<int>(instr_.size());
  int s0 = -1;
  if (g0) {
    s0 = AddSlot(g0);
    Recompute(s0, g0);
  }
  int sp = AddSlot(gp);
  Recompute(sp, gp);
  depths_stale_ = true;  // the general update orders by depth: it rebuilds first
  auto has = [&](const uint64_t* row, int slot) {
    return (row[static_cast<size_t>(slot) / 64] >> (slot % 64)) & 1;
  };
  // The gains as their non-zero words.
  auto sparse = [&](int slot) {
    std::vector<std::pair<size_t, uint64_t>> out;
    if (slot < 0) return out;
    const uint64_t* r = Row(slot);
    for (size_t w = 0; w < words_; ++w)
      if (r[w]) out.push_back({w, r[w]});
    return out;
  };
  const auto gain_p = sparse(sp);
  const auto gain_c = sparse(s0);
  for (int s = 0; s < first_fresh; ++s) {
    if (s == k || s == t.slot_c) continue;
    uint64_t* row = Row(s);
    bool from_c = s0 >= 0 && has(row, t.slot_c);
    bool from_others = false;
    for (int u : t.other_users) from_others = from_others || has(row, u);
    if (!from_c && !from_others) continue;
    ++recomputed_;
    if (from_c)
      for (const auto& [w, bits] : gain_c) row[w] |= bits;
    if (from_others)
      for (const auto& [w, bits] : gain_p) row[w] |= bits;
  }
}

}  // namespace hloscope
