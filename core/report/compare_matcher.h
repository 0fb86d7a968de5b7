// Internal to compare's matching: the Matcher that MatchSides
// (core/report/compare_match.h) runs, shared by the files of its passes:
// compare_match.cc (the order of the passes and the ways of matching one to
// one) and compare_match_copies.cc (many to one, and placing copies). Each
// member is described at its definition.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/report/compare_match.h"

namespace hloscope::report::compare_detail {

// Keys an atom is known by for one way of matching (op_name, scheduling_name).
using KeyFn = std::vector<std::string> (*)(const Instruction*);

// Where an op came from: its op_name metadata, or its own name when it has
// none (XLA names the ops of a module read from HLO text after the input's
// instructions: op_name="mul.33").
std::vector<std::string> SourceKey(const Instruction* i);

class Matcher {
 public:
  Matcher(Side& a, Side& b, std::map<std::string, int64_t>* by);

  static bool Renamed(const Side& s);
  void Run();
  void PlaceCopies();  // compare_match_copies.cc

 private:
  // compare_match.cc: the rounds, their primitives and the one-to-one ways.
  void Rounds();
  void Pair(int ia, int ib, const char* how);
  bool Free(int ia, int ib) const;
  bool NamesOther(const Instruction* i, const std::set<std::string>& other_names) const;
  static bool RenamedFromAnother(const Instruction* i, const Instruction* other);
  bool LeafHeld(int ia, int ib) const;
  template <typename F>
  void ForLeafOperands(F f) const;
  int64_t ByUsers();
  int64_t ByUserCopies();
  void ByName();
  void ByOutputs();
  int Score(int ia, int ib) const;
  template <typename Valid>
  int64_t PairBest(const std::vector<int>& xs, const std::vector<int>& ys, Valid valid, bool ties,
                   const char* how);
  template <typename Valid>
  int64_t ByKeys(KeyFn ka, KeyFn kb, Valid valid, bool ties, const char* how);
  int64_t ByOpName(bool ties);
  int64_t BySchedulingName();
  int64_t ByFusedContents();
  void Point(int ib, int ia, const char* how);
  int64_t ByOperands(bool relaxed);
  int64_t ByStructure(bool unique_only);
  int64_t ByNeighbour(bool relaxed);
  bool SameOperands(const Instruction* x, const Instruction* y) const;
  const std::string& Attrs(const Instruction* i) const;

  // compare_match_copies.cc: many to one.
  void ByCopies();
  void ByStructuralCopies();
  static std::vector<int> AtomUsers(const Side& s, const Instruction* i, int depth = 0);

  Side& a_;
  Side& b_;
  std::map<std::string, int64_t>* by_;
  mutable std::unordered_map<const Instruction*, std::string> attrs_;
  bool any_type_ = false;  // Score: element types may differ (op_name only)
  std::set<std::string> a_names_, b_names_;
  bool a_renamed_ = false, b_renamed_ = false;
  int64_t next_ = 0;
  std::vector<char> a_leaf_, b_leaf_;  // RematLeaf, by atom
  bool leaves_by_name_ = false;        // Run's second pass (LeafHeld)
  int64_t changes_ = 0;                // matches made so far (Pair, Point)
  // LeafHeld's view of the matches, as of seen_changes_: leaves whose place
  // a copy took, kernels linked by a match, kernels with any match.
  mutable int64_t seen_changes_ = -1;
  mutable std::vector<char> a_placed_, b_placed_;
  mutable std::set<std::pair<const Instruction*, const Instruction*>> linked_;
  mutable std::unordered_set<const Instruction*> a_linked_, b_linked_;
};

}  // namespace hloscope::report::compare_detail
