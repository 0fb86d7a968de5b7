#include "core/report/compare.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "core/cost/cost_model.h"
#include "core/ir/literal.h"
#include "core/printer/printer.h"

namespace hloscope::report {
namespace {

// One matchable op: an instruction of the entry or inside one of its fusions.
struct Atom {
  const Instruction* instr = nullptr;
  const Instruction* kernel = nullptr;  // the entry instruction holding it (fusion or itself)
  int match = -1;                       // index into the other side's atoms
};

bool Transparent(Opcode op) {
  return op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape ||
         op == Opcode::kGetTupleElement || op == Opcode::kTuple || op == Opcode::kParameter ||
         op == Opcode::kConstant;  // constants match by value (Side::ClassOf), they are no kernels
}

struct Side {
  const Module* m = nullptr;
  std::vector<Atom> atoms;
  std::unordered_map<const Instruction*, int> atom_of;
  std::unordered_map<const Instruction*, std::string> class_of;  // resolved value → class key

  void Collect(const Computation& c, const Instruction* kernel) {
    for (const Instruction* i : c.MakePostOrder()) {
      if (i->opcode() == Opcode::kFusion && i->fused_computation()) {
        Collect(*i->fused_computation(), kernel ? kernel : i);
        continue;
      }
      if (Transparent(i->opcode())) continue;
      atom_of[i] = static_cast<int>(atoms.size());
      atoms.push_back({i, kernel ? kernel : i, -1});
    }
  }

  // The instruction whose value `i` carries, looking through fused
  // parameters, fusions (their root), tuples and transparent ops.
  const Instruction* Resolve(const Instruction* i, int depth = 0) const {
    std::vector<int64_t> index;  // pending tuple indices
    for (; depth < 256; ++depth) {
      Opcode op = i->opcode();
      if (op == Opcode::kParameter) {
        const Computation* c = i->parent();
        if (c && c->fusion_instruction && i->parameter_number() < c->fusion_instruction->operand_count()) {
          i = c->fusion_instruction->operand(static_cast<int>(i->parameter_number()));
          continue;
        }
        return i;
      }
      if (op == Opcode::kFusion && i->fused_computation() && i->fused_computation()->root()) {
        i = i->fused_computation()->root();
        continue;
      }
      if (op == Opcode::kGetTupleElement && i->operand_count() == 1) {
        index.push_back(i->tuple_index());
        i = i->operand(0);
        continue;
      }
      if (op == Opcode::kTuple && !index.empty()) {
        int64_t k = index.back();
        index.pop_back();
        if (k < 0 || k >= i->operand_count()) return i;
        i = i->operand(static_cast<int>(k));
        continue;
      }
      if ((op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape) && i->operand_count() == 1) {
        i = i->operand(0);
        continue;
      }
      return i;
    }
    return i;
  }

  std::string ClassOf(const Instruction* operand) const {
    const Instruction* r = Resolve(operand);
    if (r->opcode() == Opcode::kParameter) return "p" + std::to_string(r->parameter_number());
    if (r->opcode() == Opcode::kConstant && r->literal())
      return "c" + r->shape().ToString(false) + (r->shape().num_elements() <= 16 ? r->literal()->ToString() : r->name());
    auto it = class_of.find(r);
    return it == class_of.end() ? std::string() : it->second;
  }
};

std::string ShapeKey(const Instruction* i) { return i->shape().ToString(false); }

// The attributes that change what an op computes (dimensions, directions,
// slices...), without computation names, metadata or backend configs.
std::string AttrKey(const Instruction* i) {
  PrintOptions po;
  po.print_metadata = false;
  po.print_backend_config = false;
  std::string text = PrintAttributes(*i, po);
  std::string key;
  for (const char* name : {"dimensions=", "iota_dimension=", "direction=", "slice=", "padding=", "lhs_contracting_dims=",
                           "rhs_contracting_dims=", "lhs_batch_dims=", "rhs_batch_dims=", "index=", "window=",
                           "dim_labels=", "feature_group_count=", "dynamic_slice_sizes=", "comparison_type="}) {
    size_t p = 0;
    while ((p = text.find(name, p)) != std::string::npos) {
      if (p > 0 && text[p - 1] != ' ' && text[p - 1] != ',') {  // part of a longer name
        p += 1;
        continue;
      }
      int depth = 0;
      size_t e = p;
      for (; e < text.size(); ++e) {
        if (text[e] == '{') ++depth;
        else if (text[e] == '}') --depth;
        else if (text[e] == ',' && depth == 0) break;
      }
      key += "|" + text.substr(p, e - p);
      break;
    }
  }
  return key;
}

// Opcode + shape + operand classes ("" when an operand is not matched yet).
std::string Signature(const Side& s, const Instruction* i) {
  std::vector<std::string> ops;
  for (const Instruction* o : i->operands()) {
    std::string c = s.ClassOf(o);
    if (c.empty()) return {};
    ops.push_back(c);
  }
  if (IsCommutative(i->opcode())) std::sort(ops.begin(), ops.end());
  std::string sig = std::string(OpcodeName(i->opcode())) + "|" + ShapeKey(i) + AttrKey(i);
  if (i->opcode() == Opcode::kConstant && i->literal()) sig += "|" + i->literal()->ToString();
  for (const auto& c : ops) sig += "|" + c;
  return sig;
}

class Matcher {
 public:
  Matcher(Side& a, Side& b, CompareResult& r) : a_(a), b_(b), r_(r) {}

  void Run() {
    ByName();
    ByOutputs();
    for (int round = 0; round < 200; ++round) {
      int64_t n = ByStructure(true) + ByOpName();
      if (n == 0) n = ByOperands();
      if (n == 0) n = ByNeighbour();
      if (n == 0) n = ByStructure(false);
      if (n == 0) break;
    }
  }

 private:
  void Pair(int ia, int ib, const char* how) {
    Atom& x = a_.atoms[ia];
    Atom& y = b_.atoms[ib];
    x.match = ib;
    y.match = ia;
    std::string key = "m" + std::to_string(next_++);
    a_.class_of[x.instr] = key;
    b_.class_of[y.instr] = key;
    r_.matched_by[how]++;
  }

  void ByName() {
    std::unordered_map<std::string, int> b_names;
    std::set<std::string> dup;
    for (size_t k = 0; k < b_.atoms.size(); ++k)
      if (!b_names.emplace(b_.atoms[k].instr->name(), static_cast<int>(k)).second) dup.insert(b_.atoms[k].instr->name());
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      const Instruction* i = a_.atoms[k].instr;
      auto it = b_names.find(i->name());
      if (it == b_names.end() || dup.count(i->name()) || b_.atoms[it->second].match >= 0) continue;
      const Instruction* j = b_.atoms[it->second].instr;
      if (i->opcode() == j->opcode() && i->shape().SameDims(j->shape()) &&
          i->shape().element_type() == j->shape().element_type())
        Pair(static_cast<int>(k), it->second, "name");
    }
  }

  int AtomIndex(Side& s, const Instruction* i) {
    auto it = s.atom_of.find(s.Resolve(i));
    return it == s.atom_of.end() ? -1 : it->second;
  }

  // The entry outputs carry the same values on both sides (leaf by leaf),
  // whatever rewrite produced them.
  void ByOutputs() {
    const Instruction* ra = a_.m->entry() ? a_.m->entry()->root() : nullptr;
    const Instruction* rb = b_.m->entry() ? b_.m->entry()->root() : nullptr;
    if (!ra || !rb) return;
    std::vector<std::pair<const Instruction*, const Instruction*>> leaves;
    if (ra->opcode() == Opcode::kTuple && rb->opcode() == Opcode::kTuple && ra->operand_count() == rb->operand_count())
      for (int k = 0; k < ra->operand_count(); ++k) leaves.push_back({ra->operand(k), rb->operand(k)});
    else
      leaves.push_back({ra, rb});
    for (const auto& [x, y] : leaves) {
      int ia = AtomIndex(a_, x), ib = AtomIndex(b_, y);
      if (ia < 0 || ib < 0 || a_.atoms[ia].match >= 0 || b_.atoms[ib].match >= 0) continue;
      if (!a_.atoms[ia].instr->shape().SameDims(b_.atoms[ib].instr->shape())) continue;
      Pair(ia, ib, "output");
    }
  }

  // Operands of a matched pair, position by position, when they have the
  // same opcode and dimensions (backwards from matches; for commutative
  // binary ops the swapped order is tried too).
  int64_t ByOperands() {
    int64_t n = 0;
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      if (a_.atoms[k].match < 0) continue;
      const Instruction* x = a_.atoms[k].instr;
      const Instruction* y = b_.atoms[a_.atoms[k].match].instr;
      if (x->operand_count() != y->operand_count()) continue;
      auto try_pair = [&](const Instruction* ox, const Instruction* oy) {
        int ia = AtomIndex(a_, ox), ib = AtomIndex(b_, oy);
        if (ia < 0 || ib < 0 || a_.atoms[ia].match >= 0 || b_.atoms[ib].match >= 0) return false;
        const Instruction* p = a_.atoms[ia].instr;
        const Instruction* q = b_.atoms[ib].instr;
        if (p->opcode() != q->opcode() || !p->shape().SameDims(q->shape())) return false;
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
  int64_t ByStructure(bool unique_only) {
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
      if (u >= it->second.size()) continue;
      Pair(static_cast<int>(k), it->second[u++], "structure");
      ++n;
    }
    return n;
  }

  int64_t ByOpName() {
    int64_t n = 0;
    auto key = [](const Instruction* i) {
      std::string op = i->MetadataValue("op_name");
      if (op.empty()) return std::string();
      return op + "|" + std::string(OpcodeName(i->opcode())) + "|" + ShapeKey(i);
    };
    std::unordered_map<std::string, std::vector<int>> ka, kb;
    for (size_t k = 0; k < a_.atoms.size(); ++k)
      if (a_.atoms[k].match < 0)
        if (std::string s = key(a_.atoms[k].instr); !s.empty()) ka[s].push_back(static_cast<int>(k));
    for (size_t k = 0; k < b_.atoms.size(); ++k)
      if (b_.atoms[k].match < 0)
        if (std::string s = key(b_.atoms[k].instr); !s.empty()) kb[s].push_back(static_cast<int>(k));
    for (const auto& [s, va] : ka) {
      auto it = kb.find(s);
      if (it == kb.end() || va.size() != 1 || it->second.size() != 1) continue;
      Pair(va[0], it->second[0], "op_name");
      ++n;
    }
    return n;
  }

  // An unmatched op whose matched operand's counterpart has exactly one
  // unmatched user of the same opcode and shape (rewrites like
  // divide → multiply change signatures but keep the neighbourhood).
  int64_t ByNeighbour() {
    int64_t n = 0;
    // users by resolved operand, per side
    auto users_of = [](Side& s) {
      std::unordered_map<const Instruction*, std::vector<int>> u;
      for (size_t k = 0; k < s.atoms.size(); ++k)
        for (const Instruction* o : s.atoms[k].instr->operands()) u[s.Resolve(o)].push_back(static_cast<int>(k));
      return u;
    };
    auto ua = users_of(a_), ub = users_of(b_);
    for (size_t k = 0; k < a_.atoms.size(); ++k) {
      if (a_.atoms[k].match < 0) continue;
      const Instruction* ai = a_.atoms[k].instr;
      const Instruction* bi = b_.atoms[a_.atoms[k].match].instr;
      auto cand = [](Side& s, std::vector<int>& users, const Instruction* like) {
        std::vector<int> out;
        for (int u : users)
          if (s.atoms[u].match < 0) out.push_back(u);
        (void)like;
        return out;
      };
      std::vector<int> ca = cand(a_, ua[ai], ai), cb = cand(b_, ub[bi], bi);
      for (int x : ca) {
        const Instruction* xi = a_.atoms[x].instr;
        int found = -1, count = 0;
        for (int y : cb) {
          const Instruction* yi = b_.atoms[y].instr;
          if (b_.atoms[y].match < 0 && yi->opcode() == xi->opcode() && yi->shape().SameDims(xi->shape())) {
            found = y;
            ++count;
          }
        }
        int count_a = 0;
        for (int x2 : ca)
          if (a_.atoms[x2].match < 0 && a_.atoms[x2].instr->opcode() == xi->opcode() &&
              a_.atoms[x2].instr->shape().SameDims(xi->shape()))
            ++count_a;
        if (count == 1 && count_a == 1 && a_.atoms[x].match < 0) {
          Pair(x, found, "neighbour");
          ++n;
        }
      }
    }
    return n;
  }

  Side& a_;
  Side& b_;
  CompareResult& r_;
  int64_t next_ = 0;
};

bool IsFusion(const Instruction* k) { return k->opcode() == Opcode::kFusion; }

std::vector<GroupDifference> Differences(const Side& fused, const Side& other, int64_t* same) {
  std::vector<GroupDifference> out;
  std::map<const Instruction*, std::vector<int>> by_kernel;  // ordered by pointer is not stable: use names below
  for (size_t k = 0; k < fused.atoms.size(); ++k)
    if (fused.atoms[k].match >= 0 && IsFusion(fused.atoms[k].kernel)) by_kernel[fused.atoms[k].kernel].push_back(static_cast<int>(k));
  std::vector<std::pair<const Instruction*, std::vector<int>>> sorted(by_kernel.begin(), by_kernel.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.first->name() < y.first->name(); });
  for (const auto& [kernel, members] : sorted) {
    if (members.size() < 2) continue;
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
  sa.m = &a;
  sb.m = &b;
  if (a.entry()) sa.Collect(*a.entry(), nullptr);
  if (b.entry()) sb.Collect(*b.entry(), nullptr);
  Matcher(sa, sb, r).Run();
  for (const Atom& x : sa.atoms)
    if (x.match >= 0) r.matches.push_back({x.instr->name(), sb.atoms[x.match].instr->name()});
  Totals(a, sa, device, &r.a);
  Totals(b, sb, device, &r.b);
  r.fused_only_in_b = Differences(sb, sa, &r.same_groups);
  int64_t same_a = 0;
  r.fused_only_in_a = Differences(sa, sb, &same_a);
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
  j["fused_only_in_b"] = groups(r.fused_only_in_b);
  j["fused_only_in_a"] = groups(r.fused_only_in_a);
  j["matches"] = J::array();
  for (const auto& [x, y] : r.matches) j["matches"].push_back({x, y});
  return j.dump(2);
}

}  // namespace hloscope::report
