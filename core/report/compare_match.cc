// The matching passes of compare (MatchSides, core/report/compare_match.h):
// the order they run in and the ways of matching one to one: by name, by the
// entry outputs, by op_name and scheduling_name, by structure, through
// operands, neighbours and users, and inside matched kernels. The order of
// trust is docs/compare.md's ("How instructions are matched"). The many-to-one
// passes (copies, expansions) are in compare_match_copies.cc, the Matcher
// class they share in compare_matcher.h, and how two ops compare in
// compare_match_ops.cc.
#include "core/report/compare_match.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/report/compare_matcher.h"

namespace hloscope::report::compare_detail {

std::vector<std::string> SourceKey(const Instruction* i) {
  std::string op = i->MetadataValue("op_name");
  return {op.empty() ? i->name() : op};
}

namespace {

// The same, and the op's own name when its op_name is another (XLA CPU's
// op_name is JAX's path, "jit(f)/conv_general_dilated", while an op of ours
// made from its instruction names it: op_name="conv_general_dilated.3").
std::vector<std::string> SourceKeyAndName(const Instruction* i) {
  std::vector<std::string> keys = SourceKey(i);
  if (keys[0] != i->name()) keys.push_back(i->name());
  return keys;
}
std::vector<std::string> OwnName(const Instruction* i) { return {i->name()}; }
std::vector<std::string> EarlierNames(const Instruction* i) {
  std::vector<std::string> out;
  for (const char* k : {"scheduling_name", "deduplicated_name"})
    if (std::string v = i->MetadataValue(k); !v.empty() && v != i->name()) out.push_back(std::move(v));
  return out;
}

}  // namespace

Matcher::Matcher(Side& a, Side& b, std::map<std::string, int64_t>* by) : a_(a), b_(b), by_(by) {
  for (const Atom& x : a_.atoms) a_names_.insert(x.instr->name());
  for (const Atom& y : b_.atoms) b_names_.insert(y.instr->name());
  for (const Atom& x : a_.atoms) a_leaf_.push_back(RematLeaf(a_, x.instr));
  for (const Atom& y : b_.atoms) b_leaf_.push_back(RematLeaf(b_, y.instr));
  a_renamed_ = Renamed(a_);
  b_renamed_ = Renamed(b_);
}

// Whether a side renamed the ops of the module it was given (XLA GPU's
// output: most ops carry an op_name, an instruction name other than their
// own). Its ops without an op_name are ops it made (a broadcast it split
// off), and their names say nothing about the other side's.
bool Matcher::Renamed(const Side& s) {
  int64_t named = 0, renamed = 0;
  for (const Atom& x : s.atoms) {
    std::string op = x.instr->MetadataValue("op_name");
    if (op.empty()) continue;
    ++named;
    renamed += op != x.instr->name() && IsInstructionName(op);
  }
  return named > 0 && 2 * renamed > static_cast<int64_t>(s.atoms.size());
}

void Matcher::Run() {
  // Rematerializable leaves (RematLeaf) are matched through their users
  // (ByUsers); those that no matched user placed are matched by name,
  // op_name, scheduling_name and structure in a second pass (LeafHeld).
  leaves_by_name_ = false;
  ByName();
  ByOutputs();
  Rounds();
  leaves_by_name_ = true;
  ByName();
  Rounds();
  any_type_ = true;
  ByCopies();
  any_type_ = false;
  PlaceCopies();
}

// Each round tries the ways in order of trust and starts over as soon as
// one matched something: later ways see the earlier ones' matches. The
// numbers are docs/compare.md's ("How instructions are matched"): leaves
// by their users first, 3 op_name, 4 scheduling_name, 5 structure (exact
// shapes), 6 fused contents, 7 structure by element count and op_name
// ties; 8 copies after the rounds.
void Matcher::Rounds() {
  for (int round = 0; round < 1000; ++round) {
    int64_t n = ByUsers();
    if (n == 0) n = ByOpName(false);
    if (n == 0) n = BySchedulingName();
    if (n == 0) n = ByStructure(true);
    if (n == 0) n = ByOperands(false);
    if (n == 0) n = ByNeighbour(false);
    if (n == 0) n = ByStructure(false);
    if (n == 0) n = ByFusedContents();
    if (n == 0) n = ByOperands(true) + ByNeighbour(true);
    if (n == 0) n = ByOpName(true);
    if (n == 0) break;
  }
}

void Matcher::Pair(int ia, int ib, const char* how) {
  ++changes_;
  Atom& x = a_.atoms[ia];
  Atom& y = b_.atoms[ib];
  x.match = ib;
  y.match = ia;
  x.how = y.how = how;
  std::string key = "m" + std::to_string(next_++);
  a_.class_of[x.instr] = key;
  b_.class_of[y.instr] = key;
  (*by_)[how]++;
}

bool Matcher::Free(int ia, int ib) const { return a_.atoms[ia].match < 0 && b_.atoms[ib].match < 0; }

// An op whose op_name names an instruction of the other side came from
// that instruction: a same-named op there is a different one.
bool Matcher::NamesOther(const Instruction* i, const std::set<std::string>& other_names) const {
  std::string op = i->MetadataValue("op_name");
  return !op.empty() && op != i->name() && other_names.count(op);
}

// Whether `i` says, by an op_name that is an instruction name (XLA GPU
// renames its ops and keeps the name of the op they were made from, for a
// module given without JAX metadata), that it was made from an op other
// than `other`: then a shared name is a coincidence of numbering, even
// where `other`'s own passes replaced the op it was made from (our
// algsimp's multiply.40 for div.230 against XLA's multiply.51 with
// op_name="div.230").
bool Matcher::RenamedFromAnother(const Instruction* i, const Instruction* other) {
  std::string op = i->MetadataValue("op_name");
  if (op == i->name() || !IsInstructionName(op)) return false;
  return op != other->name() && op != other->MetadataValue("op_name");
}

// Whether a pair of A's `ia` and B's `ib` waits when either is a leaf,
// rather than being matched by name, op_name, scheduling_name, structure
// or as a copy: always in Run's first pass. In the second, a leaf that a
// matched user's counterpart has a leaf in the place of (ForLeafOperands:
// another copy took that place, this one is a copy too) waits, and the
// others pair only within kernels already linked by a match, or kernels
// with no match yet on either side: the same leaf in another kernel is
// another copy.
bool Matcher::LeafHeld(int ia, int ib) const {
  if (!a_leaf_[ia] && !b_leaf_[ib]) return false;
  if (!leaves_by_name_) return true;
  if (seen_changes_ != changes_) {  // placed and linked change with every match
    a_placed_.assign(a_.atoms.size(), 0);
    b_placed_.assign(b_.atoms.size(), 0);
    ForLeafOperands([&](int x, int y) { a_placed_[x] = b_placed_[y] = 1; });
    linked_.clear();
    a_linked_.clear();
    b_linked_.clear();
    for (const Atom& y : b_.atoms) {
      if (y.match < 0) continue;
      const Instruction* ka = a_.atoms[y.match].kernel;
      linked_.insert({ka, y.kernel});
      a_linked_.insert(ka);
      b_linked_.insert(y.kernel);
    }
    seen_changes_ = changes_;
  }
  if ((a_placed_[ia] && a_.atoms[ia].match < 0) || (b_placed_[ib] && b_.atoms[ib].match < 0)) return true;
  const Instruction* ka = a_.atoms[ia].kernel;
  const Instruction* kb = b_.atoms[ib].kernel;
  return !linked_.count({ka, kb}) && (a_linked_.count(ka) || b_linked_.count(kb));
}

// Calls f(ia, ib) for the leaves in the same place under a matched pair:
// operand k of the op of A and operand k of its match on B (for a
// commutative binary op, the other operand where k's does not fit), both
// leaves of the same opcode and element type and count, the same
// attributes if the same dimensions, and their own operands (the
// broadcast value) not known to differ.
template <typename F>
void Matcher::ForLeafOperands(F f) const {
  auto fits = [&](const Instruction* ox, const Instruction* oy, int* ia, int* ib) {
    *ia = a_.AtomIndex(ox);
    *ib = b_.AtomIndex(oy);
    if (*ia < 0 || *ib < 0 || !a_leaf_[*ia] || !b_leaf_[*ib]) return false;
    const Instruction* p = a_.atoms[*ia].instr;
    const Instruction* q = b_.atoms[*ib].instr;
    int fit = ShapeFit(p, q);
    if (p->opcode() != q->opcode() || fit == 0 || (fit == 2 && Attrs(p) != Attrs(q))) return false;
    for (int k = 0; k < p->operand_count() && k < q->operand_count(); ++k) {
      std::string cp = a_.ClassOf(p->operand(k)), cq = b_.ClassOf(q->operand(k));
      if (!cp.empty() && !cq.empty() && cp != cq) return false;
    }
    return true;
  };
  auto under = [&](const Instruction* u, const Instruction* v) {
    if (u->operand_count() != v->operand_count()) return;
    bool swappable = IsCommutative(u->opcode()) && u->opcode() == v->opcode() && u->operand_count() == 2;
    for (int o = 0; o < u->operand_count(); ++o) {
      int ia = -1, ib = -1;
      if (fits(u->operand(o), v->operand(o), &ia, &ib) ||
          (swappable && fits(u->operand(o), v->operand(1 - o), &ia, &ib)))
        f(ia, ib);
    }
  };
  for (const Atom& x : a_.atoms)
    if (x.match >= 0) under(x.instr, b_.atoms[x.match].instr);
  for (size_t k = 0; k < b_.atoms.size(); ++k) {  // B's copies (many to one)
    const Atom& y = b_.atoms[k];
    if (y.match >= 0 && a_.atoms[y.match].match != static_cast<int>(k))
      under(a_.atoms[y.match].instr, y.instr);
  }
}

// Rematerializable leaves through their users, first in every round: a
// free leaf of A in the place of a free leaf of B under a matched pair
// (ForLeafOperands).
int64_t Matcher::ByUsers() {
  int64_t n = 0;
  ForLeafOperands([&](int ia, int ib) {
    if (!Free(ia, ib)) return;
    Pair(ia, ib, "user");
    ++n;
  });
  return n;
}

// With the copies (8): a leaf of B left over in the place of a leaf of A
// under a matched pair or a copy — many to one when A's is matched (XLA
// made a copy for each consumer where we have one), one to one when it is
// free too.
int64_t Matcher::ByUserCopies() {
  int64_t n = 0;
  ForLeafOperands([&](int ia, int ib) {
    const Atom& x = a_.atoms[ia];
    const Atom& y = b_.atoms[ib];
    if (y.match >= 0) return;
    if (x.match < 0) {  // under a copy, still free on both sides: one to one
      Pair(ia, ib, "user");
      ++n;
      return;
    }
    // The copy takes the class of what it copies, so that its users'
    // signatures are known (ByStructuralCopies).
    if (auto c = a_.class_of.find(x.instr); c != a_.class_of.end()) b_.class_of[y.instr] = c->second;
    Point(ib, ia, "user");
    ++n;
  });
  return n;
}

// 1. Exact names (unique on B), same opcode, element type and dimensions.
void Matcher::ByName() {
  std::unordered_map<std::string, int> b_index;
  std::set<std::string> dup;
  for (size_t k = 0; k < b_.atoms.size(); ++k)
    if (!b_index.emplace(b_.atoms[k].instr->name(), static_cast<int>(k)).second) dup.insert(b_.atoms[k].instr->name());
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    const Instruction* i = a_.atoms[k].instr;
    auto it = b_index.find(i->name());
    if (it == b_index.end() || dup.count(i->name()) || b_.atoms[it->second].match >= 0) continue;
    const Instruction* j = b_.atoms[it->second].instr;
    if (NamesOther(i, b_names_) || NamesOther(j, a_names_)) continue;
    if (RenamedFromAnother(i, j) || RenamedFromAnother(j, i)) continue;
    if ((a_renamed_ && i->MetadataValue("op_name").empty()) || (b_renamed_ && j->MetadataValue("op_name").empty()))
      continue;
    if (LeafHeld(static_cast<int>(k), it->second)) continue;
    if (SameOp(i, j) && ShapeFit(i, j) == 2) Pair(static_cast<int>(k), it->second, "name");
  }
}

// 2. The entry outputs carry the same values on both sides (leaf by leaf),
// whatever rewrite produced them.
void Matcher::ByOutputs() {
  const Instruction* ra = a_.m->entry() ? a_.m->entry()->root() : nullptr;
  const Instruction* rb = b_.m->entry() ? b_.m->entry()->root() : nullptr;
  if (!ra || !rb) return;
  std::vector<std::pair<const Instruction*, const Instruction*>> leaves;
  if (ra->opcode() == Opcode::kTuple && rb->opcode() == Opcode::kTuple && ra->operand_count() == rb->operand_count())
    for (int k = 0; k < ra->operand_count(); ++k) leaves.push_back({ra->operand(k), rb->operand(k)});
  else
    leaves.push_back({ra, rb});
  for (const auto& [x, y] : leaves) {
    int ia = a_.AtomIndex(x), ib = b_.AtomIndex(y);
    if (ia < 0 || ib < 0 || !Free(ia, ib)) continue;
    if (!a_.atoms[ia].instr->shape().SameDims(b_.atoms[ib].instr->shape())) continue;
    Pair(ia, ib, "output");
  }
}

// How well x (on A) and y (on B) agree as a candidate pair: -1 not at all
// (another opcode, another element type or count); else exact dimensions,
// the same attributes and each operand already matched to one of the
// other's operands add to it.
int Matcher::Score(int ia, int ib) const {
  const Instruction* x = a_.atoms[ia].instr;
  const Instruction* y = b_.atoms[ib].instr;
  if (!SameOp(x, y)) return -1;
  int fit = ShapeFit(x, y, any_type_);
  if (fit == 0) return -1;
  int s = fit == 2 ? 1 : 0;
  if (fit == 2 && Attrs(x) == Attrs(y)) s += 1;
  s += 2 * CommonCount(KnownOperandClasses(a_, x), KnownOperandClasses(b_, y));
  return s;
}

// Pairs candidates (x from xs on A, y from ys on B, both unmatched,
// `valid`) that are each other's single best by Score; with `ties`, the
// first of equally good ones (in post order) instead.
template <typename Valid>
int64_t Matcher::PairBest(const std::vector<int>& xs, const std::vector<int>& ys, Valid valid, bool ties,
                          const char* how) {
  int64_t n = 0;
  // The best partner of `from` (first in order among equals), its score
  // and how many share that score.
  auto best_of = [&](int from, bool from_a, int* score, int* count) {
    int best = -1;
    *score = -1;
    *count = 0;
    for (int to : from_a ? ys : xs) {
      int ia = from_a ? from : to, ib = from_a ? to : from;
      if (!Free(ia, ib) || !valid(ia, ib)) continue;
      int s = Score(ia, ib);
      if (s < 0) continue;
      if (s > *score) *score = s, best = to, *count = 1;
      else if (s == *score) ++*count;
    }
    return best;
  };
  for (int x : xs) {
    if (a_.atoms[x].match >= 0) continue;
    int sy = 0, cy = 0, sx = 0, cx = 0;
    int y = best_of(x, true, &sy, &cy);
    if (y < 0 || (cy != 1 && !ties)) continue;
    int back = best_of(y, false, &sx, &cx);
    if (ties ? sx != sy : (back != x || cx != 1)) continue;
    Pair(x, y, how);
    ++n;
  }
  return n;
}

// Atoms grouped by a key on each side (key order: deterministic), paired
// by PairBest within each group.
template <typename Valid>
int64_t Matcher::ByKeys(KeyFn ka, KeyFn kb, Valid valid, bool ties, const char* how) {
  std::map<std::string, std::pair<std::vector<int>, std::vector<int>>> groups;
  for (size_t k = 0; k < a_.atoms.size(); ++k)
    if (a_.atoms[k].match < 0)
      for (std::string& key : ka(a_.atoms[k].instr)) groups[key].first.push_back(static_cast<int>(k));
  for (size_t k = 0; k < b_.atoms.size(); ++k)
    if (b_.atoms[k].match < 0)
      for (std::string& key : kb(b_.atoms[k].instr)) {
        auto it = groups.find(key);
        if (it != groups.end()) it->second.second.push_back(static_cast<int>(k));
      }
  int64_t n = 0;
  for (const auto& [key, g] : groups)
    if (!g.first.empty() && !g.second.empty()) n += PairBest(g.first, g.second, valid, ties, how);
  return n;
}

// 3. op_name: the same source op (op_name metadata, or the name of the
// instruction it was made from), same opcode and element count.
int64_t Matcher::ByOpName(bool ties) {
  auto has_op_name = [](const Instruction* i) { return !i->MetadataValue("op_name").empty(); };
  // A pair made by one side's own name, where that side's op_name names
  // another instruction of the other side, is a coincidence of numbering
  // (XLA GPU renames its ops: its `rsqrt.10` with op_name="rsqrt.5" is our
  // rsqrt.5, not an op of ours that our passes happened to name rsqrt.10).
  auto named_elsewhere = [&](const Instruction* i, const Instruction* other, const std::set<std::string>& names) {
    std::string op = i->MetadataValue("op_name");
    return !op.empty() && op != SourceKey(other)[0] && op != other->name() && names.count(op);
  };
  auto valid = [&](int ia, int ib) {
    const Instruction* x = a_.atoms[ia].instr;
    const Instruction* y = b_.atoms[ib].instr;
    return (has_op_name(x) || has_op_name(y)) && !named_elsewhere(y, x, a_names_) &&
           !named_elsewhere(x, y, b_names_) && !RenamedFromAnother(x, y) && !RenamedFromAnother(y, x) &&
           !LeafHeld(ia, ib);
  };
  any_type_ = true;
  int64_t n = ByKeys(SourceKey, SourceKeyAndName, valid, ties, "op_name");
  any_type_ = false;
  return n;
}

// 4. scheduling_name / deduplicated_name naming an instruction of the
// other side. An op whose op_name names an instruction there is left to
// op_name.
int64_t Matcher::BySchedulingName() {
  auto valid = [&](int ia, int ib) {
    return !NamesOther(a_.atoms[ia].instr, b_names_) && !NamesOther(b_.atoms[ib].instr, a_names_) &&
           !LeafHeld(ia, ib);
  };
  int64_t n = ByKeys(OwnName, EarlierNames, valid, false, "scheduling_name");
  return n + ByKeys(EarlierNames, OwnName, valid, false, "scheduling_name");
}

// 6. Fused contents: the unmatched ops of a fusion against the unmatched
// ops of the kernels its matched ops' counterparts are in, by opcode,
// element count and matched operands.
int64_t Matcher::ByFusedContents() {
  std::unordered_map<const Instruction*, int> kernel_id_a, kernel_id_b;
  auto kid = [](std::unordered_map<const Instruction*, int>& ids, const Instruction* k) {
    return ids.emplace(k, static_cast<int>(ids.size())).first->second;
  };
  std::map<int, std::set<int>> b_to_a, a_to_b;  // kernels linked by a match
  std::map<int, std::vector<int>> a_free, b_free;
  std::vector<int> kernel_of_a(a_.atoms.size());
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    const Atom& x = a_.atoms[k];
    int ka = kernel_of_a[k] = kid(kernel_id_a, x.kernel);
    if (x.match < 0) {
      a_free[ka].push_back(static_cast<int>(k));
      continue;
    }
    int kb = kid(kernel_id_b, b_.atoms[x.match].kernel);
    b_to_a[kb].insert(ka);
    a_to_b[ka].insert(kb);
  }
  for (size_t k = 0; k < b_.atoms.size(); ++k)
    if (b_.atoms[k].match < 0 && b_.atoms[k].kernel->opcode() == Opcode::kFusion)
      b_free[kid(kernel_id_b, b_.atoms[k].kernel)].push_back(static_cast<int>(k));
  // The single best candidate of `from` among `to` (-1 if none or a tie).
  auto best = [&](int from, const std::vector<int>& to, bool from_a) {
    int found = -1, score = -1, count = 0;
    for (int t : to) {
      int ia = from_a ? from : t, ib = from_a ? t : from;
      if (!Free(ia, ib) || !SameOperands(a_.atoms[ia].instr, b_.atoms[ib].instr)) continue;
      int s = Score(ia, ib);
      if (s < 0) continue;
      if (s > score) score = s, found = t, count = 1;
      else if (s == score) ++count;
    }
    return count == 1 ? found : -1;
  };
  auto gather = [](const std::set<int>& kernels, const std::map<int, std::vector<int>>& free) {
    std::vector<int> out;
    for (int k : kernels)
      if (auto f = free.find(k); f != free.end()) out.insert(out.end(), f->second.begin(), f->second.end());
    std::sort(out.begin(), out.end());
    return out;
  };
  // Each pair must be the other's single best among all the ops of the
  // kernels linked to its own: a copy of the op in another linked kernel
  // makes it a tie.
  int64_t n = 0;
  for (const auto& [kb, ys] : b_free) {
    auto it = b_to_a.find(kb);
    if (it == b_to_a.end()) continue;
    std::vector<int> xs = gather(it->second, a_free);
    for (int y : ys) {
      int x = b_.atoms[y].match < 0 ? best(y, xs, false) : -1;
      if (x < 0 || best(x, gather(a_to_b[kernel_of_a[x]], b_free), true) != y) continue;
      Pair(x, y, "fused_contents");
      ++n;
    }
  }
  return n;
}

// B's atom `ib` to A's `ia`, one way (A's keeps its own match).
void Matcher::Point(int ib, int ia, const char* how) {
  ++changes_;
  b_.atoms[ib].match = ia;
  b_.atoms[ib].how = how;
  (*by_)[how]++;
}

// Operands of a matched pair, position by position, when they have the
// same opcode and dimensions (`relaxed`: element count) — backwards from
// matches; for commutative binary ops the swapped order is tried too.
int64_t Matcher::ByOperands(bool relaxed) {
  int64_t n = 0;
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    if (a_.atoms[k].match < 0) continue;
    const Instruction* x = a_.atoms[k].instr;
    const Instruction* y = b_.atoms[a_.atoms[k].match].instr;
    if (x->operand_count() != y->operand_count()) continue;
    auto try_pair = [&](const Instruction* ox, const Instruction* oy) {
      int ia = a_.AtomIndex(ox), ib = b_.AtomIndex(oy);
      if (ia < 0 || ib < 0 || !Free(ia, ib)) return false;
      const Instruction* p = a_.atoms[ia].instr;
      const Instruction* q = b_.atoms[ib].instr;
      if (!SameOp(p, q) || ShapeFit(p, q) < (relaxed ? 1 : 2)) return false;
      Pair(ia, ib, "operand");
      ++n;
      return true;
    };
    bool swapped = IsCommutative(x->opcode()) && x->opcode() == y->opcode() && x->operand_count() == 2;
    for (int o = 0; o < x->operand_count(); ++o)
      if (!try_pair(x->operand(o), y->operand(o)) && swapped) try_pair(x->operand(o), y->operand(1 - o));
  }
  return n;
}

// Same signature on both sides. `unique_only`: only signatures that occur
// once on each side (duplicated ops — iotas, ops a fusion duplicated —
// are left to the neighbourhood first, then paired in order).
int64_t Matcher::ByStructure(bool unique_only) {
  int64_t n = 0;
  std::unordered_map<std::string, std::vector<int>> a_sigs, b_sigs;
  for (size_t k = 0; k < b_.atoms.size(); ++k) {
    if (b_.atoms[k].match >= 0) continue;
    std::string s = Signature(b_, b_.atoms[k].instr);
    if (!s.empty()) b_sigs[s].push_back(static_cast<int>(k));
  }
  std::vector<std::string> a_sig(a_.atoms.size());
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    if (a_.atoms[k].match >= 0) continue;
    a_sig[k] = Signature(a_, a_.atoms[k].instr);
    if (!a_sig[k].empty()) a_sigs[a_sig[k]].push_back(static_cast<int>(k));
  }
  std::unordered_map<std::string, size_t> used;
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    if (a_.atoms[k].match >= 0) continue;
    const std::string& s = a_sig[k];
    if (s.empty()) continue;
    auto it = b_sigs.find(s);
    if (it == b_sigs.end()) continue;
    if (unique_only && (it->second.size() != 1 || a_sigs[s].size() != 1)) continue;
    size_t& u = used[s];
    while (u < it->second.size() && b_.atoms[it->second[u]].match >= 0) ++u;
    size_t v = u;  // the first that may pair with k (LeafHeld)
    while (v < it->second.size() &&
           (b_.atoms[it->second[v]].match >= 0 || LeafHeld(static_cast<int>(k), it->second[v])))
      ++v;
    if (v >= it->second.size()) continue;
    Pair(static_cast<int>(k), it->second[v], "structure");
    if (v == u) ++u;
    ++n;
  }
  return n;
}

// An unmatched op whose matched operand's counterpart has exactly one
// unmatched user of the same opcode and dimensions (`relaxed`: element
// count) — rewrites like divide → multiply change signatures but keep the
// neighbourhood.
int64_t Matcher::ByNeighbour(bool relaxed) {
  int64_t n = 0;
  auto users_of = [](Side& s) {
    std::unordered_map<const Instruction*, std::vector<int>> u;
    for (size_t k = 0; k < s.atoms.size(); ++k)
      for (const Instruction* o : s.atoms[k].instr->operands()) u[s.Resolve(o)].push_back(static_cast<int>(k));
    return u;
  };
  auto ua = users_of(a_), ub = users_of(b_);
  auto like = [&](const Instruction* p, const Instruction* q) {
    return SameOp(p, q) && ShapeFit(p, q) >= (relaxed ? 1 : 2);
  };
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    if (a_.atoms[k].match < 0) continue;
    const std::vector<int>& ca = ua[a_.atoms[k].instr];
    const std::vector<int>& cb = ub[b_.atoms[a_.atoms[k].match].instr];
    for (int x : ca) {
      if (a_.atoms[x].match >= 0) continue;
      const Instruction* xi = a_.atoms[x].instr;
      int found = -1, count = 0, count_a = 0;
      for (int y : cb)
        if (b_.atoms[y].match < 0 && like(b_.atoms[y].instr, xi)) found = y, ++count;
      for (int x2 : ca)
        if (a_.atoms[x2].match < 0 && like(a_.atoms[x2].instr, xi)) ++count_a;
      if (count == 1 && count_a == 1) {
        Pair(x, found, "neighbour");
        ++n;
      }
    }
  }
  return n;
}

// The same operands, as far as they are known: operand k of each has the
// same class (any order for commutative ops), an unmatched operand only
// against an unmatched one (it cannot be the counterpart of a matched
// op), and at least one operand known unless neither has any.
bool Matcher::SameOperands(const Instruction* x, const Instruction* y) const {
  if (x->operand_count() != y->operand_count()) return false;
  std::vector<std::string> cx, cy;
  bool known = x->operand_count() == 0;
  for (int k = 0; k < x->operand_count(); ++k) {
    cx.push_back(a_.ClassOf(x->operand(k)));
    cy.push_back(b_.ClassOf(y->operand(k)));
    known |= !cx.back().empty();
  }
  if (IsCommutative(x->opcode())) {
    std::sort(cx.begin(), cx.end());
    std::sort(cy.begin(), cy.end());
  }
  return known && cx == cy;
}

const std::string& Matcher::Attrs(const Instruction* i) const {
  auto it = attrs_.find(i);
  if (it == attrs_.end()) it = attrs_.emplace(i, AttrKey(i)).first;
  return it->second;
}

void MatchSides(Side& a, Side& b, std::map<std::string, int64_t>* matched_by) { Matcher(a, b, matched_by).Run(); }

}  // namespace hloscope::report::compare_detail
