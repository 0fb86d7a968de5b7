#include "core/report/compare.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/cost/cost_model.h"
#include "core/report/compare_match.h"

namespace hloscope::report {
namespace {

using compare_detail::Atom;
using compare_detail::Side;

bool IsFusion(const Instruction* k) { return k->opcode() == Opcode::kFusion; }

// Which op each matched atom of both sides computes, across copies: fusion
// duplicates a cheap op into every kernel that reads it (on either side), and
// the matcher pairs each copy with one copy of the other side, not
// necessarily the one in the corresponding kernel, and leaves the copies
// one side has more of unpaired. Copies are linked through their matches
// and, on each side, through where they came from; the linked atoms are one
// op. Indices: `fused` atoms first, then `other`'s.
class OpClasses {
 public:
  OpClasses(const Side& fused, const Side& other) : n_(fused.atoms.size()), parent_(n_ + other.atoms.size()) {
    for (size_t k = 0; k < parent_.size(); ++k) parent_[k] = k;
    for (size_t k = 0; k < fused.atoms.size(); ++k)
      if (fused.atoms[k].match >= 0) Union(k, n_ + static_cast<size_t>(fused.atoms[k].match));
    for (size_t k = 0; k < other.atoms.size(); ++k)
      if (other.atoms[k].match >= 0) Union(n_ + k, static_cast<size_t>(other.atoms[k].match));
    // A copy is known by the op it came from, its opcode and its shape.
    // Our copies keep the original's name. XLA's get new names and keep as
    // op_name the name of the op of the module it was given. An op_name is
    // taken when it names an instruction of the other side, or when no
    // kernel holds more than two ops under it (copies sit in different
    // kernels; a JAX path, "jit(f)/add", that many ops of one kernel share
    // names no op).
    auto by_name = [&](const Side& s, size_t base, const std::unordered_set<std::string>& other_names) {
      std::unordered_map<std::string, std::vector<size_t>> by_op_name;
      std::vector<std::string> from(s.atoms.size());
      for (size_t k = 0; k < s.atoms.size(); ++k) {
        from[k] = s.atoms[k].instr->MetadataValue("op_name");
        if (!from[k].empty() && !other_names.count(from[k])) by_op_name[from[k]].push_back(k);
      }
      for (const auto& [op_name, ks] : by_op_name) {
        std::unordered_map<const Instruction*, int> per_kernel;
        bool copies = true;
        for (size_t k : ks) copies = copies && ++per_kernel[s.atoms[k].kernel] <= 2;
        // More copies in one kernel are still copies when the op_name is an
        // instruction name and they all have its opcode and shape (multi-
        // output fusion merges kernels that each hold a copy).
        if (!copies && compare_detail::IsInstructionName(op_name)) {
          copies = true;
          for (size_t k : ks)
            copies = copies && s.atoms[k].instr->opcode() == s.atoms[ks[0]].instr->opcode() &&
                     s.atoms[k].instr->shape() == s.atoms[ks[0]].instr->shape();
        }
        if (!copies)
          for (size_t k : ks) from[k].clear();
      }
      std::unordered_map<std::string, size_t> first;
      for (size_t k = 0; k < s.atoms.size(); ++k) {
        const Instruction* i = s.atoms[k].instr;
        const std::string& f = from[k].empty() ? i->name() : from[k];
        const std::string key = f + "|" + std::string(OpcodeName(i->opcode())) + "|" + i->shape().ToString(false);
        auto [it, fresh] = first.emplace(key, base + k);
        if (!fresh) Union(it->second, base + k);
      }
    };
    auto names_of = [](const Side& s) {
      std::unordered_set<std::string> out;
      if (s.m)
        for (const auto& c : s.m->computations())
          for (const auto& i : c->instructions()) out.insert(i->name());
      return out;
    };
    by_name(fused, 0, names_of(other));
    by_name(other, n_, names_of(fused));
    // A broadcast is known by what it broadcasts and how, on both sides:
    // each compiler puts its own copy in every kernel that reads one, and
    // the names and op_names of those copies say little (XLA's
    // `broadcast.36.11` with op_name="jvp_jit_take_along_axis__.3", or
    // none). What it broadcasts: a scalar constant's value, an entry
    // parameter's number, or the op (class) it reads, seen through the
    // kernel's parameters.
    auto source = [&](const Side& s, size_t base, size_t k, bool by_op) -> std::string {
      const Instruction* v = s.atoms[k].instr->operand(0);
      const Instruction* kernel = s.atoms[k].kernel;
      for (int hops = 0; hops < 4 && v->opcode() == Opcode::kParameter && v->parent() &&
                         v->parent()->fusion_instruction == kernel && kernel &&
                         v->parameter_number() < kernel->operand_count();
           ++hops)
        v = kernel->operand(static_cast<int>(v->parameter_number()));
      if (v->opcode() == Opcode::kConstant && v->literal() && v->shape().rank() == 0)
        return "c" + v->literal()->ToString();
      if (v->opcode() == Opcode::kParameter && s.m && v->parent() == s.m->entry())
        return "p" + std::to_string(v->parameter_number());
      if (!by_op) return "";
      auto it = s.atom_of.find(v);
      return it == s.atom_of.end() ? "" : "o" + std::to_string(Of(base + static_cast<size_t>(it->second)));
    };
    for (bool by_op : {false, true}) {
      std::unordered_map<std::string, size_t> by_value;
      auto by_source = [&](const Side& s, size_t base) {
        for (size_t k = 0; k < s.atoms.size(); ++k) {
          const Instruction* i = s.atoms[k].instr;
          if (i->opcode() != Opcode::kBroadcast || i->operand_count() != 1) continue;
          std::string src = source(s, base, k, by_op);
          if (src.empty()) continue;
          // Ranks differ across sides (XLA GPU merges dimensions through
          // bitcasts): the broadcast is known by its element count and the
          // stride of its operand's elements in the result (the elements
          // after its last broadcast dimension).
          const auto& dims = i->shape().dims();
          int64_t elements = 1, stride = 1;
          for (int64_t n : dims) elements *= n;
          const int64_t last = i->dimensions().empty() ? -1 : i->dimensions().back();
          for (int64_t d = last + 1; d < static_cast<int64_t>(dims.size()); ++d) stride *= dims[static_cast<size_t>(d)];
          std::string key = std::string(PrimitiveTypeName(i->shape().element_type())) + "|" + std::to_string(elements) +
                            "|" + std::to_string(stride) + "|" + src;
          auto [it, fresh] = by_value.emplace(key, base + k);
          if (!fresh) Union(it->second, base + k);
        }
      };
      by_source(fused, 0);
      by_source(other, n_);
    }
    for (size_t k = 0; k < parent_.size(); ++k) (k < n_ ? in_fused_ : in_other_).insert(Of(k));
  }
  // True when the op of atom `k` is computed on both sides (some copy of it
  // was matched): a copy the matcher left unpaired still counts.
  bool Matched(size_t k) {
    size_t c = Of(k);
    return in_fused_.count(c) && in_other_.count(c);
  }
  size_t Of(size_t k) {
    while (parent_[k] != k) k = parent_[k] = parent_[parent_[k]];
    return k;
  }

 private:
  void Union(size_t a, size_t b) { parent_[Of(a)] = Of(b); }
  size_t n_;
  std::vector<size_t> parent_;
  std::unordered_set<size_t> in_fused_, in_other_;
};

// The ops (classes) of each kernel of `s` that computes ops of both sides.
std::map<const Instruction*, std::set<size_t>> KernelOps(const Side& s, size_t base, OpClasses& classes) {
  std::map<const Instruction*, std::set<size_t>> out;
  for (size_t k = 0; k < s.atoms.size(); ++k)
    if (classes.Matched(base + k)) out[s.atoms[k].kernel].insert(classes.Of(base + k));
  return out;
}

// Fusions of `fused` reproduced with the same members on `other`: some
// kernel of `other` computes exactly the same ops (copies counted as their
// op), each kernel standing for one fusion at most. A fusion of one op
// counts when the other side computes that op alone too (XLA's
// pure-matmul GEMM fusion against ours, its wrapped_dot against our unfused
// dot).
// `classes` indexes `fused`'s atoms from `fused_base`, `other`'s from
// `other_base` (one OpClasses serves both directions).
int64_t SameMemberFusions(const Side& fused, size_t fused_base, const Side& other, size_t other_base,
                          OpClasses& classes, CompareResult* r) {
  const auto other_ops = KernelOps(other, other_base, classes);
  std::map<std::set<size_t>, std::vector<const Instruction*>> available;
  for (const auto& [kernel, ops] : other_ops) available[ops].push_back(kernel);
  for (auto& [ops, ks] : available)
    std::sort(ks.begin(), ks.end(), [](const Instruction* x, const Instruction* y) { return x->name() > y->name(); });
  // One name per op class, for the listing.
  std::map<size_t, std::string> name_of;
  for (size_t k = 0; k < fused.atoms.size(); ++k) name_of.emplace(classes.Of(fused_base + k), fused.atoms[k].instr->name());
  std::map<size_t, std::string> other_name_of;
  for (size_t k = 0; k < other.atoms.size(); ++k)
    other_name_of.emplace(classes.Of(other_base + k), other.atoms[k].instr->name());
  std::vector<std::pair<const Instruction*, std::set<size_t>>> sorted;
  for (const auto& [kernel, ops] : KernelOps(fused, fused_base, classes))
    if (IsFusion(kernel)) sorted.push_back({kernel, ops});
  std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.first->name() < y.first->name(); });
  int64_t same = 0;
  for (const auto& [kernel, ops] : sorted) {
    auto it = available.find(ops);
    if (it != available.end() && !it->second.empty()) {
      r->same_fusions.push_back({kernel->name(), it->second.back()->name()});
      it->second.pop_back();
      ++same;
      continue;
    }
    CompareResult::NearMiss miss;
    miss.fusion = kernel->name();
    const std::set<size_t>* best = nullptr;
    size_t best_common = 0;
    for (const auto& [k, kops] : other_ops) {
      size_t common = 0;
      for (size_t c : ops) common += kops.count(c);
      if (common > best_common || (common == best_common && best && common && k->name() < miss.nearest)) {
        best_common = common;
        best = &kops;
        miss.nearest = k->name();
      }
    }
    for (size_t c : ops)
      if (!best || !best->count(c)) miss.only_in_b.push_back(name_of[c]);
    if (best)
      for (size_t c : *best)
        if (!ops.count(c)) miss.only_in_a.push_back(other_name_of[c]);
    r->differing_b.push_back(std::move(miss));
  }
  return same;
}

// The fusions of `fused` whose ops `other` splits over several kernels
// (a fusion whose ops one kernel of `other` computes exactly, copies
// counted as their op, is not listed).
std::vector<GroupDifference> Differences(const Side& fused, size_t fused_base, const Side& other, size_t other_base,
                                         OpClasses& classes, int64_t* same) {
  std::vector<GroupDifference> out;
  std::set<std::set<size_t>> alike;
  for (const auto& [kernel, ops] : KernelOps(other, other_base, classes)) alike.insert(ops);
  const auto fused_ops = KernelOps(fused, fused_base, classes);
  std::map<const Instruction*, std::vector<int>> by_kernel;  // ordered by pointer is not stable: use names below
  for (size_t k = 0; k < fused.atoms.size(); ++k)
    if (fused.atoms[k].match >= 0 && IsFusion(fused.atoms[k].kernel)) by_kernel[fused.atoms[k].kernel].push_back(static_cast<int>(k));
  std::vector<std::pair<const Instruction*, std::vector<int>>> sorted(by_kernel.begin(), by_kernel.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.first->name() < y.first->name(); });
  for (const auto& [kernel, members] : sorted) {
    if (members.size() < 2) continue;
    if (alike.count(fused_ops.at(kernel))) {
      ++*same;
      continue;
    }
    std::vector<std::pair<std::string, std::vector<std::string>>> others;
    for (int k : members) {
      const Atom& o = other.atoms[fused.atoms[k].match];
      const std::string& kn = o.kernel->name();
      auto it = std::find_if(others.begin(), others.end(), [&](const auto& p) { return p.first == kn; });
      if (it == others.end()) others.push_back({kn, {o.instr->name()}});
      else it->second.push_back(o.instr->name());
    }
    if (others.size() < 2) {
      ++*same;
      continue;
    }
    GroupDifference d;
    d.fusion = kernel->name();
    for (int k : members) d.members.push_back(fused.atoms[k].instr->name());
    d.other_kernels = std::move(others);
    out.push_back(std::move(d));
  }
  return out;
}

void Totals(const Module& m, const Side& s, const DeviceSpec& d, CompareSide* out) {
  out->module = m.name();
  out->instructions = m.instruction_count();
  out->ops = static_cast<int64_t>(s.atoms.size());
  for (const Atom& a : s.atoms) out->matched += a.match >= 0;
  ModuleCost c = EstimateModule(m, d);
  out->kernels = c.kernels;
  out->hbm_bytes = c.hbm_bytes;
  out->est_us = c.est_us;
  // Fusion instructions of every computation that is not itself fused (the
  // entry and the bodies it calls), as `kernels` and `opt --json` count.
  for (const auto& c : m.computations()) {
    if (c->fusion_instruction) continue;
    for (const auto& i : c->instructions()) out->fusions += i->opcode() == Opcode::kFusion;
  }
}

}  // namespace

CompareResult CompareModules(const Module& a, const Module& b, const DeviceSpec& device) {
  CompareResult r;
  Side sa, sb;
  sa.CollectModule(a);  // the entry and the control-flow bodies: where kernels launch
  sb.CollectModule(b);
  compare_detail::MatchSides(sa, sb, &r.matched_by);
  for (const Atom& x : sa.atoms) {
    if (x.match < 0) {
      r.unmatched_a.push_back(x.instr->name());
      continue;
    }
    r.matches.push_back({x.instr->name(), sb.atoms[x.match].instr->name()});
    r.match_how.push_back(x.how);
  }
  for (size_t k = 0; k < sb.atoms.size(); ++k) {
    const Atom& y = sb.atoms[k];
    if (y.match < 0) {
      r.unmatched_b.push_back(y.instr->name());
    } else if (sa.atoms[y.match].match != static_cast<int>(k)) {  // many to one (a duplicate, an expansion)
      r.matches.push_back({sa.atoms[y.match].instr->name(), y.instr->name()});
      r.match_how.push_back(y.how);
    }
  }
  Totals(a, sa, device, &r.a);
  Totals(b, sb, device, &r.b);
  // One partition of both sides' ops into ops (copies linked): B's atoms
  // first, then A's.
  OpClasses classes(sb, sa);
  const size_t base_b = 0, base_a = sb.atoms.size();
  int64_t grouped_b = 0;
  r.fused_only_in_b = Differences(sb, base_b, sa, base_a, classes, &grouped_b);
  r.same_groups = SameMemberFusions(sb, base_b, sa, base_a, classes, &r);
  int64_t same_a = 0;
  r.fused_only_in_a = Differences(sa, base_a, sb, base_b, classes, &same_a);
  return r;
}

namespace {

std::string Fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

void AppendGroups(std::string& out, const std::vector<GroupDifference>& groups, const char* side, const char* other) {
  for (const GroupDifference& g : groups) {
    out += "  " + std::string(side) + " " + g.fusion + " {";
    for (size_t k = 0; k < g.members.size(); ++k) out += (k ? ", " : "") + g.members[k];
    out += "}\n    " + std::string(other) + " splits it into " + std::to_string(g.other_kernels.size()) + " kernels: ";
    for (size_t k = 0; k < g.other_kernels.size(); ++k) {
      out += (k ? "; " : "") + g.other_kernels[k].first + " {";
      for (size_t j = 0; j < g.other_kernels[k].second.size(); ++j) out += (j ? ", " : "") + g.other_kernels[k].second[j];
      out += "}";
    }
    out += "\n";
  }
}

}  // namespace

std::string CompareToText(const CompareResult& r) {
  std::string out;
  char line[256];
  out += "A: " + r.a.label + " (module " + r.a.module + ")\n";
  out += "B: " + r.b.label + " (module " + r.b.module + ")\n\n";
  std::snprintf(line, sizeof line, "%-22s %16s %16s\n", "", "A", "B");
  out += line;
  auto row = [&](const char* name, const std::string& x, const std::string& y) {
    std::snprintf(line, sizeof line, "%-22s %16s %16s\n", name, x.c_str(), y.c_str());
    out += line;
  };
  row("instructions", std::to_string(r.a.instructions), std::to_string(r.b.instructions));
  row("kernels", std::to_string(r.a.kernels), std::to_string(r.b.kernels));
  row("fusions (all comps.)", std::to_string(r.a.fusions), std::to_string(r.b.fusions));
  row("HBM bytes", std::to_string(r.a.hbm_bytes), std::to_string(r.b.hbm_bytes));
  row("estimated time (us)", Fmt("%.3f", r.a.est_us), Fmt("%.3f", r.b.est_us));
  row("ops matched", std::to_string(r.a.matched) + "/" + std::to_string(r.a.ops),
      std::to_string(r.b.matched) + "/" + std::to_string(r.b.ops));
  out += "matched by:";
  for (const auto& [how, n] : r.matched_by) out += " " + how + "=" + std::to_string(n);
  out += "\nfusions grouped alike on both sides: " + std::to_string(r.same_groups) + "\n\n";
  out += "fused together in B, not in A (" + std::to_string(r.fused_only_in_b.size()) + "):\n";
  AppendGroups(out, r.fused_only_in_b, "B", "A");
  out += "\nfused together in A, not in B (" + std::to_string(r.fused_only_in_a.size()) + "):\n";
  AppendGroups(out, r.fused_only_in_a, "A", "B");
  out += "\nB's fusions without an alike kernel in A (" + std::to_string(r.differing_b.size()) +
         "), beside A's kernel computing most of their ops:\n";
  auto names = [](const std::vector<std::string>& v) {
    std::string t;
    for (size_t k = 0; k < v.size() && k < 8; ++k) t += (k ? ", " : "") + v[k];
    if (v.size() > 8) t += ", … (" + std::to_string(v.size()) + ")";
    return t;
  };
  for (const auto& d : r.differing_b) {
    out += "  " + d.fusion + " ~ " + (d.nearest.empty() ? std::string("(none)") : d.nearest);
    if (!d.only_in_b.empty()) out += "; only B's: {" + names(d.only_in_b) + "}";
    if (!d.only_in_a.empty()) out += "; only A's: {" + names(d.only_in_a) + "}";
    out += "\n";
  }
  return out;
}

std::string CompareToJson(const CompareResult& r) {
  using J = nlohmann::ordered_json;
  auto side = [](const CompareSide& s) {
    return J{{"label", s.label},       {"module", s.module}, {"instructions", s.instructions}, {"ops", s.ops},
             {"matched", s.matched},   {"kernels", s.kernels}, {"fusions", s.fusions},       {"hbm_bytes", s.hbm_bytes},
             {"est_us", s.est_us}};
  };
  auto groups = [](const std::vector<GroupDifference>& gs) {
    J arr = J::array();
    for (const auto& g : gs) {
      J o = {{"fusion", g.fusion}, {"members", g.members}, {"other_kernels", J::array()}};
      for (const auto& [k, names] : g.other_kernels) o["other_kernels"].push_back({{"kernel", k}, {"members", names}});
      arr.push_back(std::move(o));
    }
    return arr;
  };
  J j;
  j["format"] = "hloscope-compare-v1";
  j["a"] = side(r.a);
  j["b"] = side(r.b);
  j["matched_by"] = r.matched_by;
  j["same_groups"] = r.same_groups;
  j["same_fusions"] = J::array();
  for (const auto& [x, y] : r.same_fusions) j["same_fusions"].push_back({{"b", x}, {"a", y}});
  j["differing_b"] = J::array();
  for (const auto& d : r.differing_b)
    j["differing_b"].push_back(
        {{"fusion", d.fusion}, {"nearest", d.nearest}, {"only_in_b", d.only_in_b}, {"only_in_a", d.only_in_a}});
  j["fused_only_in_b"] = groups(r.fused_only_in_b);
  j["fused_only_in_a"] = groups(r.fused_only_in_a);
  j["matches"] = J::array();
  for (const auto& [x, y] : r.matches) j["matches"].push_back({x, y});
  j["match_how"] = r.match_how;
  j["unmatched_a"] = r.unmatched_a;
  j["unmatched_b"] = r.unmatched_b;
  return j.dump(2);
}

}  // namespace hloscope::report
