// The many-to-one passes of compare's matching (the Matcher, compare_matcher.h),
// run after the one-to-one rounds of compare_match.cc: B's ops left over that
// copy an op of A (XLA duplicated it into more fusions, or computes exactly
// what a matched op computes) or expand one into several point at that op
// (ByCopies, ByStructuralCopies, AtomUsers); then each copy is moved to the
// copy in the kernel its own kernel is anchored in (PlaceCopies).
#include "core/report/compare_matcher.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/report/compare_match.h"

namespace hloscope::report::compare_detail {

// Copies meet copies in the kernels that hold them. Fusion duplicates a
// producer into several consumers on both sides (our copies keep the
// producer's name; XLA's are renamed), and the one-to-one ways
// (compare_match.cc) pair each of XLA's copies with one of ours without
// looking at where either sits.
// Each kernel of B is anchored in the A kernel holding most of the
// counterparts of its ops that have no copies (the dot of a GEMM fusion,
// a reduction); a B op matched to an op of ours that has copies is moved
// to the copy in its kernel's anchor, where there is one. A's side then
// points at a B op that now points back, preferring one anchored in its
// own kernel, or at none.
void Matcher::PlaceCopies() {
  std::map<std::tuple<std::string, int, std::string>, std::vector<int>> copies;
  for (size_t k = 0; k < a_.atoms.size(); ++k) {
    const Instruction* x = a_.atoms[k].instr;
    copies[{x->name(), static_cast<int>(x->opcode()), ShapeKey(x)}].push_back(static_cast<int>(k));
  }
  std::vector<const std::vector<int>*> group_of(a_.atoms.size(), nullptr);
  for (const auto& entry : copies)
    if (entry.second.size() > 1)
      for (int k : entry.second) group_of[static_cast<size_t>(k)] = &entry.second;
  // The anchor of each B kernel.
  std::unordered_map<const Instruction*, std::unordered_map<const Instruction*, int>> votes;
  for (const Atom& y : b_.atoms)
    if (y.match >= 0 && !group_of[static_cast<size_t>(y.match)]) ++votes[y.kernel][a_.atoms[y.match].kernel];
  std::unordered_map<const Instruction*, const Instruction*> anchor;
  for (const auto& [kb, counts] : votes) {
    const Instruction* best = nullptr;
    int most = 0, second = 0;
    for (const auto& [ka, n] : counts) {
      if (n > most) second = most, most = n, best = ka;
      else if (n > second) second = n;
    }
    if (best && most > second) anchor[kb] = best;
  }
  for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
    Atom& y = b_.atoms[kb];
    if (y.match < 0 || !group_of[static_cast<size_t>(y.match)]) continue;
    auto it = anchor.find(y.kernel);
    if (it == anchor.end() || a_.atoms[y.match].kernel == it->second) continue;
    for (int x : *group_of[static_cast<size_t>(y.match)]) {
      if (a_.atoms[x].kernel != it->second) continue;
      y.match = x;
      break;
    }
  }
  // A B op left without a counterpart in an anchored kernel takes the
  // one op of the anchor that computes the same from the same operands
  // and whose own counterpart sits in a kernel anchored elsewhere (a
  // broadcast of a bias, copied into both sides' kernels: one-to-one
  // matching gave our copy to another of XLA's copies).
  std::unordered_map<const Instruction*, std::vector<int>> a_of_kernel;
  for (size_t x = 0; x < a_.atoms.size(); ++x) a_of_kernel[a_.atoms[x].kernel].push_back(static_cast<int>(x));
  for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
    Atom& y = b_.atoms[kb];
    if (y.match >= 0) continue;
    auto it = anchor.find(y.kernel);
    if (it == anchor.end()) continue;
    const std::multiset<std::string> want = KnownOperandClasses(b_, y.instr);
    if (static_cast<int>(want.size()) != y.instr->operand_count()) continue;
    int found = -1, count = 0;
    for (int x : a_of_kernel[it->second]) {
      if (count > 1) break;
      const Atom& ax = a_.atoms[static_cast<size_t>(x)];
      if (!SameOp(ax.instr, y.instr) || ShapeFit(ax.instr, y.instr, true) == 0) continue;
      if (ax.match >= 0) {
        auto there = anchor.find(b_.atoms[static_cast<size_t>(ax.match)].kernel);
        if (there != anchor.end() && there->second == ax.kernel) continue;  // placed at home
      }
      const std::multiset<std::string> have = KnownOperandClasses(a_, ax.instr);
      if (have.size() != want.size() || CommonCount(have, want) != static_cast<int>(want.size())) continue;
      found = x;
      ++count;
    }
    if (count == 1) Point(static_cast<int>(kb), found, "copy in place");
  }
  // A's side: each op points at a B op pointing at it, one anchored in
  // its own kernel where there is one (B's leaves and copies point many
  // to one, so A's pairing may name a B op in another kernel).
  std::vector<int> home(a_.atoms.size(), -1), any(a_.atoms.size(), -1);
  for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
    const int x = b_.atoms[kb].match;
    if (x < 0) continue;
    if (any[static_cast<size_t>(x)] < 0) any[static_cast<size_t>(x)] = static_cast<int>(kb);
    auto it = anchor.find(b_.atoms[kb].kernel);
    if (it != anchor.end() && it->second == a_.atoms[x].kernel && home[static_cast<size_t>(x)] < 0)
      home[static_cast<size_t>(x)] = static_cast<int>(kb);
  }
  for (size_t x = 0; x < a_.atoms.size(); ++x) {
    Atom& ax = a_.atoms[x];
    const bool mutual = ax.match >= 0 && b_.atoms[static_cast<size_t>(ax.match)].match == static_cast<int>(x);
    int pick = ax.match;
    if (home[x] >= 0) {
      auto it = mutual ? anchor.find(b_.atoms[static_cast<size_t>(ax.match)].kernel) : anchor.end();
      if (!mutual || it == anchor.end() || it->second != ax.kernel) pick = home[x];
    } else if (!mutual && group_of[x]) {
      pick = any[x];
    }
    if (pick == ax.match) continue;
    ax.match = pick;
    ax.how = pick >= 0 ? b_.atoms[static_cast<size_t>(pick)].how : nullptr;
  }
}

// 8. Many to one, for B's ops left over: XLA duplicates an op into more
// fusions than we do ("duplicate": same op_name, opcode and element count
// as an op of ours already matched, all our candidates copies of one
// instruction), and expands one op into several ("expansion": an op of
// another opcode feeding a matched op of the same op_name, e.g. the
// concatenate of iotas XLA builds for a gather's batch dimensions). Only
// B's atom points back.
void Matcher::ByCopies() {
  std::map<std::string, std::vector<int>> a_by_key;
  for (size_t k = 0; k < a_.atoms.size(); ++k) a_by_key[SourceKey(a_.atoms[k].instr)[0]].push_back(static_cast<int>(k));
  for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
    Atom& y = b_.atoms[kb];
    if (y.match >= 0) continue;
    std::string op = y.instr->MetadataValue("op_name");
    if (op.empty()) continue;
    auto it = a_by_key.find(op);
    int best = -1, score = -1;
    std::set<std::string> names;
    for (int x : it == a_by_key.end() ? std::vector<int>() : it->second) {
      const Instruction* xi = a_.atoms[x].instr;
      if (!SameOp(xi, y.instr) || ShapeFit(xi, y.instr, true) == 0) continue;
      if (LeafHeld(x, static_cast<int>(kb))) continue;
      names.insert(xi->name());
      if (a_.atoms[x].match < 0) best = -2;  // a candidate one to one could not place: ambiguous
      if (best == -2) break;
      int s = Score(x, static_cast<int>(kb));
      if (s > score) score = s, best = x;
    }
    if (best >= 0 && names.size() == 1) {
      // The copy takes the class of what it copies (as in ByStructuralCopies).
      if (auto c = a_.class_of.find(a_.atoms[best].instr); c != a_.class_of.end())
        b_.class_of[y.instr] = c->second;
      Point(static_cast<int>(kb), best, "duplicate");
      continue;
    }
    if (!names.empty()) continue;
    // An expansion: y feeds a matched B op of the same op_name.
    for (int ku : AtomUsers(b_, y.instr)) {
      const Instruction* u = b_.atoms[ku].instr;
      if (b_.atoms[ku].match < 0 || u->opcode() == y.instr->opcode() || u->MetadataValue("op_name") != op) continue;
      Point(static_cast<int>(kb), b_.atoms[ku].match, "expansion");
      break;
    }
  }
  ByStructuralCopies();
}

// Many to one without op_name: a B op computing exactly what a matched B op
// computes (same signature: opcode, shape, attributes and operand classes)
// is a copy XLA made — a broadcast or a layer norm's arithmetic duplicated
// into a GEMM prologue — and points to the same op of ours. The copy takes
// the original's class, so copies of copies follow (a few rounds, each
// after ByUserCopies for the leaves under the copies so far). Leaves count
// by value here (whichever copy an op holds), and a leaf joins only a
// kernel LeafHeld allows.
void Matcher::ByStructuralCopies() {
  for (int round = 0; round < 16; ++round) {
    int64_t found = ByUserCopies();  // the leaves of the copies found so far
    std::unordered_map<std::string, std::vector<int>> matched_sig;
    for (size_t k = 0; k < b_.atoms.size(); ++k) {
      if (b_.atoms[k].match < 0) continue;
      std::string sig = Signature(b_, b_.atoms[k].instr, true);
      if (!sig.empty()) matched_sig[sig].push_back(static_cast<int>(k));
    }
    for (size_t kb = 0; kb < b_.atoms.size(); ++kb) {
      Atom& y = b_.atoms[kb];
      if (y.match >= 0) continue;
      std::string sig = Signature(b_, y.instr, true);
      if (sig.empty()) continue;
      auto it = matched_sig.find(sig);
      if (it == matched_sig.end()) continue;
      // The first whose counterpart's kernel a leaf may join (LeafHeld).
      auto o = std::find_if(it->second.begin(), it->second.end(),
                            [&](int k) { return !LeafHeld(b_.atoms[k].match, static_cast<int>(kb)); });
      if (o == it->second.end()) continue;
      const Atom& orig = b_.atoms[static_cast<size_t>(*o)];
      if (auto c = b_.class_of.find(orig.instr); c != b_.class_of.end()) b_.class_of[y.instr] = c->second;
      Point(static_cast<int>(kb), orig.match, "duplicate");
      ++found;
    }
    if (!found) break;
  }
}

// The atoms using `i`'s value, through bitcasts, copies and reshapes.
std::vector<int> Matcher::AtomUsers(const Side& s, const Instruction* i, int depth) {
  std::vector<int> out;
  for (const Instruction* u : i->users()) {
    Opcode op = u->opcode();
    if ((op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape) && depth < 8) {
      for (int k : AtomUsers(s, u, depth + 1)) out.push_back(k);
    } else if (auto it = s.atom_of.find(u); it != s.atom_of.end()) {
      out.push_back(it->second);
    }
  }
  return out;
}

}  // namespace hloscope::report::compare_detail
