#include "core/report/decisions_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "core/cost/device.h"
#include "core/fusion/fusion_cost.h"
#include "core/report/compare_match.h"

namespace hloscope::report {
namespace {

using compare_detail::Side;

std::unordered_map<std::string, const Instruction*> ByName(const Module& m) {
  std::unordered_map<std::string, const Instruction*> out;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) out.emplace(i->name(), i.get());
  return out;
}

// Our decisions of one step grouped by the instruction of the module before
// the step that each producer stands for (a fusion the step made stands for
// the consumer it was made from).
struct OurGroup {
  std::string origin;
  DecisionSide side;
  std::vector<const FusionDecision*> records;
};

std::vector<OurGroup> GroupOurs(const Step& step, const std::unordered_map<std::string, const Instruction*>& before) {
  std::unordered_map<std::string, std::string> origin;  // fusion made in the step → what it came from
  auto origin_of = [&](const std::string& n) {
    std::string cur = n;
    for (int guard = 0; guard < 10000; ++guard) {
      auto it = origin.find(cur);
      if (it == origin.end() || it->second == cur) break;
      cur = it->second;
    }
    return cur;
  };
  std::vector<OurGroup> groups;
  std::unordered_map<std::string, size_t> index;
  for (const FusionDecision& d : step.decisions) {
    std::string o = origin_of(d.producer);
    auto [it, fresh] = index.emplace(o, groups.size());
    if (fresh) {
      groups.emplace_back();
      groups.back().origin = o;
    }
    groups[it->second].records.push_back(&d);
    if (d.verdict != FusionVerdict::kNotFused && !d.result.empty()) {
      // results are "f1, f2": one per consumer, in the consumers' order.
      std::vector<std::string> results;
      size_t b = 0;
      while (b <= d.result.size()) {
        size_t e = d.result.find(", ", b);
        results.push_back(d.result.substr(b, e == std::string::npos ? std::string::npos : e - b));
        if (e == std::string::npos) break;
        b = e + 2;
      }
      for (size_t k = 0; k < results.size() && k < d.consumers.size(); ++k)
        if (results[k] != d.consumers[k] && !before.count(results[k])) origin[results[k]] = origin_of(d.consumers[k]);
    }
  }
  for (OurGroup& g : groups) {
    DecisionSide& s = g.side;
    s.present = true;
    s.decisions = static_cast<int>(g.records.size());
    const FusionDecision* fused = nullptr;
    for (const FusionDecision* d : g.records)
      if (d->verdict != FusionVerdict::kNotFused) fused = d;
    const FusionDecision* last = g.records.back();
    const FusionDecision* word = fused ? fused : last;
    s.producer = word->producer;
    s.verdict = fused ? "fused" : "not fused";
    s.reason = word->reason;
  }
  return groups;
}

struct XlaGroup {
  std::string origin;
  DecisionSide side;
  bool used = false;
};

std::vector<XlaGroup> GroupXla(const XlaPriorityFusion& xla) {
  std::vector<XlaGroup> groups;
  std::unordered_map<std::string, size_t> index;
  std::vector<std::vector<const XlaProducerDecision*>> members;
  for (const XlaProducerDecision& d : xla.producers) {
    auto [it, fresh] = index.emplace(d.origin, groups.size());
    if (fresh) {
      groups.emplace_back();
      groups.back().origin = d.origin;
      members.emplace_back();
    }
    members[it->second].push_back(&d);
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    DecisionSide& s = groups[g].side;
    s.present = true;
    const XlaProducerDecision* fused = nullptr;
    int last_step = -1;
    const XlaProducerDecision* last = nullptr;
    for (const XlaProducerDecision* d : members[g]) {
      s.decisions += static_cast<int>(d->steps.size());
      if (d->fused) fused = d;
      if (!d->steps.empty() && d->steps.back() > last_step) {
        last_step = d->steps.back();
        last = d;
      }
    }
    const XlaProducerDecision* word = fused ? fused : last ? last : members[g].front();
    s.producer = word->producer;
    s.verdict = word->verdict();
    s.reason = word->Explanation();
  }
  return groups;
}

// Our cost model's first evaluation of `p` on the module before priority
// fusion: its kernels and those of its non-bitcast users, unfused and fused.
void OurFirstEstimate(const Instruction* p, const DeviceSpec& device, DecisionSide* s) {
  if (!p || p->opcode() == Opcode::kParameter || p->opcode() == Opcode::kTuple ||
      p->opcode() == Opcode::kGetTupleElement)
    return;
  std::vector<const Instruction*> users;
  for (const Instruction* u : p->users())
    if (u->opcode() != Opcode::kBitcast) users.push_back(u);
  if (users.empty()) return;
  s->has_cost = true;
  s->us_unfused = CostUnfused(*p, users, device).time_us;
  s->us_fused = CostFused(*p, users, device).time_us;
}

// XLA's first update_priority of `name`: the full evaluation over all its
// users. Later ones are incremental (XLA re-estimates only the consumers
// that changed and logs that difference).
void XlaFirstEstimate(const XlaFusionLog& log, const std::unordered_map<std::string, int>& first,
                      const std::string& name, DecisionSide* s) {
  auto it = first.find(name);
  if (it == first.end()) return;
  const XlaFusionStep& st = log.steps[static_cast<size_t>(it->second)];
  s->has_cost = true;
  s->us_unfused = st.us_unfused;
  s->us_fused = st.us_fused;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double Mean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

int Rank(const ProducerDiff& p) {
  if (p.ours.present && p.xla.present) return p.agree ? 3 : 0;
  return p.ours.present ? 1 : 2;
}

}  // namespace

StatusOr<DecisionsDiff> DiffDecisions(const PipelineRun& ours, const XlaPriorityFusion& xla) {
  DecisionsDiff out;
  for (int k = 1; k < ours.size(); ++k)
    if (ours.step(k).pass == out.our_pass) {
      out.our_step = k;
      break;
    }
  if (out.our_step < 0)
    return Status::Error("error: run '" + ours.name() + "' has no priority_fusion step (use --pipeline gpu)");
  ASSIGN_OR_RETURN(std::shared_ptr<const Module> before, ours.ModuleAt(out.our_step - 1));
  out.xla_steps = static_cast<int64_t>(xla.log.steps.size());
  out.xla_fusions = xla.log.count(XlaFusionStep::Kind::kFusion);
  out.xla_unresolved = xla.unresolved;
  out.xla_label = xla.log.origin;

  auto our_names = ByName(*before);
  auto xla_names = ByName(*xla.before);
  std::vector<OurGroup> og = GroupOurs(ours.step(out.our_step), our_names);
  std::vector<XlaGroup> xg = GroupXla(xla);
  std::unordered_map<std::string, size_t> xla_index;
  for (size_t i = 0; i < xg.size(); ++i) xla_index.emplace(xg[i].origin, i);

  Side sa, sb;
  sa.CollectModule(*before);
  sb.CollectModule(*xla.before);
  std::map<std::string, int64_t> matched_by;
  compare_detail::MatchSides(sa, sb, &matched_by);

  // The other side's op matched with the value `p` computes, or null.
  auto matched = [](const Side& from, const Side& to, const Instruction* p,
                    std::string* how) -> const compare_detail::Atom* {
    int a = from.AtomIndex(p);
    if (a < 0 || from.atoms[a].match < 0) return nullptr;
    *how = from.atoms[a].how ? from.atoms[a].how : "";
    return &to.atoms[from.atoms[a].match];
  };
  // A matched op that an earlier pass (the GEMM or softmax rewriter) had
  // already put inside a fusion, other than as its root: on that side it
  // was fused before priority fusion ran, so it was never a producer there.
  auto inside = [](const compare_detail::Atom& at, const std::string& side) -> DecisionSide {
    DecisionSide s;
    if (!at.kernel || at.kernel == at.instr || at.kernel->opcode() != Opcode::kFusion) return s;
    const Computation* fc = at.kernel->fused_computation();
    if (!fc || fc->root() == at.instr) return s;
    s.present = true;
    s.producer = at.kernel->name();
    s.verdict = "fused";
    s.reason = "already inside " + side + " " + at.kernel->name() + " when priority fusion began (an earlier pass, " +
               "the GEMM or softmax rewriter, fused it)";
    return s;
  };

  // XLA's priority fusion fuses small constants at its end without logging
  // them; our records of those have no counterpart to compare with.
  og.erase(std::remove_if(og.begin(), og.end(),
                          [&](const OurGroup& g) {
                            auto it = our_names.find(g.origin);
                            bool constant = it != our_names.end() && it->second->opcode() == Opcode::kConstant;
                            if (constant) ++out.ours_constants;
                            return constant;
                          }),
           og.end());

  for (OurGroup& g : og) {
    ProducerDiff row;
    row.producer = g.side.producer;
    row.ours = g.side;
    auto it = our_names.find(g.origin);
    if (it != our_names.end()) {
      std::string how;
      if (const compare_detail::Atom* at = matched(sa, sb, it->second, &how)) {
        const Instruction* x = at->kernel ? at->kernel : at->instr;
        DecisionSide before_pf = inside(*at, "XLA's");
        auto xi = xla_index.find(x->name());
        if (before_pf.present) {
          row.xla = before_pf;
          row.match = how;
        } else if (xi != xla_index.end()) {
          row.xla = xg[xi->second].side;
          row.xla_origin = xg[xi->second].origin;
          row.match = how;
          xg[xi->second].used = true;
        }
      }
    }
    row.agree = row.ours.present && row.xla.present && row.ours.verdict == row.xla.verdict;
    out.producers.push_back(std::move(row));
  }
  for (XlaGroup& g : xg) {
    if (g.used) continue;
    ProducerDiff row;
    row.producer = g.side.producer;
    row.xla = g.side;
    row.xla_origin = g.origin;
    auto it = xla_names.find(g.origin);
    std::string how;
    if (it != xla_names.end())
      if (const compare_detail::Atom* at = matched(sb, sa, it->second, &how)) {
        DecisionSide before_pf = inside(*at, "our");
        if (before_pf.present) {
          row.ours = before_pf;
          row.producer = at->instr->name();
          row.match = how;
        }
      }
    row.agree = row.ours.present && row.xla.present && row.ours.verdict == row.xla.verdict;
    out.producers.push_back(std::move(row));
  }
  // Cost estimates: each side's first evaluation of the producer on the
  // module its priority fusion started from, so that both price the same
  // producer with the same consumers.
  std::unordered_map<std::string, int> first_priority;
  for (size_t i = 0; i < xla.log.steps.size(); ++i)
    if (xla.log.steps[i].kind == XlaFusionStep::Kind::kUpdatePriority)
      first_priority.emplace(xla.log.steps[i].producer, static_cast<int>(i));
  const DeviceSpec device = CurrentDevice();
  for (size_t r = 0; r < out.producers.size(); ++r) {
    ProducerDiff& row = out.producers[r];
    if (row.ours.present && r < og.size() && row.ours.decisions > 0) {
      auto it = our_names.find(og[r].origin);
      OurFirstEstimate(it == our_names.end() ? nullptr : it->second, device, &row.ours);
    }
    if (row.xla.present) XlaFirstEstimate(xla.log, first_priority, row.xla_origin, &row.xla);
  }
  std::stable_sort(out.producers.begin(), out.producers.end(),
                   [](const ProducerDiff& a, const ProducerDiff& b) { return Rank(a) < Rank(b); });

  std::vector<double> ru, rf;
  for (const ProducerDiff& p : out.producers) {
    DecisionsDiffTotals& t = out.totals;
    ++t.producers;
    if (p.ours.present && p.xla.present) ++(p.agree ? t.agree : t.disagree);
    else if (p.ours.present) ++t.only_ours;
    else ++t.only_xla;
    if (p.ours.has_cost && p.xla.has_cost && p.ours.us_unfused > 0 && p.xla.us_unfused > 0) {
      ++out.cost.pairs;
      ru.push_back(p.ours.us_unfused / p.xla.us_unfused);
      if (ru.back() >= 0.5 && ru.back() <= 2.0) ++out.cost.within_2x_unfused;
      out.cost.unfused.push_back({p.ours.us_unfused, p.xla.us_unfused});
      if (p.ours.us_fused > 0 && p.xla.us_fused > 0) {
        ++out.cost.fused_pairs;
        rf.push_back(p.ours.us_fused / p.xla.us_fused);
        if (rf.back() >= 0.5 && rf.back() <= 2.0) ++out.cost.within_2x_fused;
        out.cost.fused.push_back({p.ours.us_fused, p.xla.us_fused});
      }
    }
  }
  out.cost.median_ratio_unfused = Median(ru);
  out.cost.mean_ratio_unfused = Mean(ru);
  out.cost.median_ratio_fused = Median(rf);
  out.cost.mean_ratio_fused = Mean(rf);
  return out;
}

XlaStory XlaStoryOf(const Module& ours, const std::string& name, const XlaPriorityFusion& xla) {
  XlaStory story;
  Side sa, sb;
  sa.CollectModule(ours);
  sb.CollectModule(*xla.before);
  std::map<std::string, int64_t> matched_by;
  compare_detail::MatchSides(sa, sb, &matched_by);
  auto names = ByName(ours);
  auto it = names.find(name);
  if (it == names.end()) return story;
  int a = sa.AtomIndex(it->second);
  if (a < 0 || sa.atoms[a].match < 0) return story;
  const compare_detail::Atom& b = sb.atoms[sa.atoms[a].match];
  story.how = sa.atoms[a].how ? sa.atoms[a].how : "";
  story.counterparts.push_back(b.instr->name());
  if (b.kernel && b.kernel != b.instr) story.counterparts.push_back(b.kernel->name());
  std::unordered_set<std::string> known(story.counterparts.begin(), story.counterparts.end());
  for (size_t i = 0; i < xla.log.steps.size(); ++i) {
    const XlaFusionStep& st = xla.log.steps[i];
    const bool producer = known.count(st.producer) > 0, consumer = known.count(st.consumer) > 0;
    if (!producer && !consumer) continue;
    story.steps.push_back(static_cast<int>(i));
    if (st.kind == XlaFusionStep::Kind::kFusion) known.insert(st.fusion_name);
  }
  return story;
}

std::string XlaStepLine(const XlaFusionStep& s) {
  char buf[96];
  switch (s.kind) {
    case XlaFusionStep::Kind::kFusion:
      return "fusion: " + s.producer + " into " + s.consumer +
             (s.fusion_name == s.consumer ? std::string() : " → " + s.fusion_name);
    case XlaFusionStep::Kind::kUpdatePriority: {
      std::string c;
      for (const auto& n : s.consumers) c += (c.empty() ? "" : ", ") + n;
      std::snprintf(buf, sizeof buf, ": %.3f us unfused, %.3f us fused", s.us_unfused, s.us_fused);
      return "update_priority: " + s.producer + " → {" + c + "}" + buf;
    }
    case XlaFusionStep::Kind::kProducerIneligible: return "producer_ineligible: " + s.producer + ": " + s.reason;
    case XlaFusionStep::Kind::kUnknown: return s.kind_name + " (kept as written): " + s.raw;
  }
  return "";
}

namespace {

std::string Us(double v) {
  if (v < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string Costs(const DecisionSide& s) {
  if (!s.has_cost) return "";
  return " [" + Us(s.us_unfused) + " -> " + Us(s.us_fused) + " us]";
}

}  // namespace

std::string DecisionsDiffToText(const DecisionsDiff& d, int max_rows) {
  const auto& t = d.totals;
  std::string out;
  out += "ours: " + d.ours_label + " (step " + std::to_string(d.our_step) + ", " + d.our_pass + ")\n";
  out += "XLA:  " + d.xla_label + " (" + std::to_string(d.xla_steps) + " steps, " + std::to_string(d.xla_fusions) +
         " fusions)\n";
  out += "producers " + std::to_string(t.producers) + ": agree " + std::to_string(t.agree) + ", disagree " +
         std::to_string(t.disagree) + ", only ours " + std::to_string(t.only_ours) + ", only XLA " +
         std::to_string(t.only_xla) + "\n";
  if (!d.xla_unresolved.empty())
    out += "warning: " + std::to_string(d.xla_unresolved.size()) +
           " names of XLA's log are not in its module before priority fusion (first: " + d.xla_unresolved.front() +
           ")\n";
  if (d.cost.pairs) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "cost model, ours / XLA's on %lld producers: unfused median %.2f mean %.2f (%lld within 2x); "
                  "fused (%lld) median %.2f mean %.2f (%lld within 2x)\n",
                  static_cast<long long>(d.cost.pairs), d.cost.median_ratio_unfused, d.cost.mean_ratio_unfused,
                  static_cast<long long>(d.cost.within_2x_unfused), static_cast<long long>(d.cost.fused_pairs),
                  d.cost.median_ratio_fused, d.cost.mean_ratio_fused, static_cast<long long>(d.cost.within_2x_fused));
    out += buf;
  }
  if (d.gemm) {
    out += "GEMM fusions against XLA's logged search (" + d.gemm_log + "): " + std::to_string(d.gemm->agree) +
           " of " + std::to_string(d.gemm->compared) + " prologue candidates of " +
           std::to_string(d.gemm->searches) + " dots get XLA's verdict\n";
    for (const GemmVerdictDiff& g : d.gemm->differ)
      out += "  " + g.dot + ": XLA " + XlaGemmCandidateLine(g.candidate) + " (line " +
             std::to_string(g.candidate.line) + "); ours " + (g.ours_fused ? "fused it" : "left it out") + "\n";
  }
  if (d.instruction_costs) {
    const InstructionCostComparison& c = *d.instruction_costs;
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "cost model per instruction, ours against XLA's own estimates (%s): %lld of %lld within %.0f%% or "
                  "%.1f ns; launch (blocks, threads per block) as XLA's on %lld\n",
                  d.costs_log.c_str(), static_cast<long long>(c.within), static_cast<long long>(c.compared),
                  InstructionCostComparison::kRel * 100, InstructionCostComparison::kAbsNs,
                  static_cast<long long>(c.same_launch));
    out += buf;
    int shown = 0;
    for (const InstructionCostPair& p : c.pairs) {
      if (p.within || shown++ >= 5) break;
      std::snprintf(buf, sizeof buf,
                    "  %s (%s): ours %.2f ns (%lld x %lld threads), XLA's %.2f ns (%lld x %lld; read %.2f, compute "
                    "%.2f)\n",
                    p.name.c_str(), p.opcode.c_str(), p.exec_ns, static_cast<long long>(p.blocks),
                    static_cast<long long>(p.threads), p.xla.exec_ns, static_cast<long long>(p.xla.blocks),
                    static_cast<long long>(p.xla.threads), p.xla.read_ns, p.xla.compute_ns);
      out += buf;
    }
  }
  out += "\n";
  int rows = 0;
  for (const ProducerDiff& p : d.producers) {
    if (max_rows >= 0 && rows++ >= max_rows) {
      out += "... " + std::to_string(d.producers.size() - static_cast<size_t>(max_rows)) +
             " more (--all or --json for every producer)\n";
      break;
    }
    const char* tag = p.ours.present && p.xla.present ? (p.agree ? "agree   " : "DISAGREE") : p.ours.present ? "ours    " : "XLA     ";
    out += std::string(tag) + " " + p.producer;
    if (p.xla.present && p.ours.present && p.xla.producer != p.ours.producer) out += " (XLA: " + p.xla.producer + ")";
    out += "\n";
    if (p.ours.present) out += "    ours: " + p.ours.verdict + ": " + p.ours.reason + Costs(p.ours) + "\n";
    if (p.xla.present) out += "    XLA:  " + p.xla.verdict + ": " + p.xla.reason + Costs(p.xla) + "\n";
  }
  return out;
}

std::string DecisionsDiffToJson(const DecisionsDiff& d) {
  using J = nlohmann::ordered_json;
  auto side = [](const DecisionSide& s) -> J {
    if (!s.present) return nullptr;
    J j = {{"producer", s.producer}, {"verdict", s.verdict}, {"reason", s.reason}};
    j["us_fused"] = s.has_cost && s.us_fused >= 0 ? J(s.us_fused) : J(nullptr);
    j["us_unfused"] = s.has_cost ? J(s.us_unfused) : J(nullptr);
    j["decisions"] = s.decisions;
    return j;
  };
  J j;
  j["format"] = "hloscope-decisions-diff-v1";
  j["ours"] = {{"label", d.ours_label}, {"pass", d.our_pass}, {"step", d.our_step}};
  j["xla"] = {{"log", d.xla_label}, {"unresolved_names", d.xla_unresolved}};
  j["xla_steps"] = d.xla_steps;
  j["xla_fusions"] = d.xla_fusions;
  j["ours_constants_left_out"] = d.ours_constants;
  j["totals"] = {{"producers", d.totals.producers}, {"agree", d.totals.agree}, {"disagree", d.totals.disagree},
                 {"only_ours", d.totals.only_ours}, {"only_xla", d.totals.only_xla}};
  j["cost"] = {{"pairs", d.cost.pairs},
               {"median_ratio_unfused", d.cost.median_ratio_unfused},
               {"mean_ratio_unfused", d.cost.mean_ratio_unfused},
               {"within_2x_unfused", d.cost.within_2x_unfused},
               {"fused_pairs", d.cost.fused_pairs},
               {"within_2x_fused", d.cost.within_2x_fused},
               {"median_ratio_fused", d.cost.median_ratio_fused},
               {"mean_ratio_fused", d.cost.mean_ratio_fused}};
  J rows = J::array();
  for (const ProducerDiff& p : d.producers)
    rows.push_back({{"producer", p.producer}, {"ours", side(p.ours)}, {"xla", side(p.xla)}, {"agree", p.agree},
                    {"match", p.match}});
  j["producers"] = std::move(rows);
  if (d.gemm) {
    J differ = J::array();
    for (const GemmVerdictDiff& g : d.gemm->differ)
      differ.push_back({{"dot", g.dot}, {"op", g.candidate.op_name}, {"xla_name", g.candidate.name},
                        {"xla_fused", g.candidate.fused}, {"ours_fused", g.ours_fused},
                        {"xla_reason", g.candidate.reason}, {"line", g.candidate.line}});
    j["gemm"] = {{"log", d.gemm_log}, {"searches", d.gemm->searches}, {"compared", d.gemm->compared},
                 {"agree", d.gemm->agree}, {"differ", std::move(differ)}};
  }
  if (d.instruction_costs) {
    const InstructionCostComparison& c = *d.instruction_costs;
    J pairs = J::array();
    for (const InstructionCostPair& p : c.pairs)
      pairs.push_back({{"name", p.name},
                       {"opcode", p.opcode},
                       {"within", p.within},
                       {"ours", {{"blocks", p.blocks}, {"threads", p.threads}, {"cycles", p.cycles}, {"exec_ns", p.exec_ns}}},
                       {"xla",
                        {{"blocks", p.xla.blocks},
                         {"threads", p.xla.threads},
                         {"flops", p.xla.flops},
                         {"read_ns", p.xla.read_ns},
                         {"write_ns", p.xla.write_ns},
                         {"compute_ns", p.xla.compute_ns},
                         {"exec_ns", p.xla.exec_ns},
                         {"line", p.xla.line}}}});
    j["instruction_costs"] = {{"file", d.costs_log},
                              {"compared", c.compared},
                              {"within", c.within},
                              {"same_launch", c.same_launch},
                              {"tolerance", {{"abs_ns", InstructionCostComparison::kAbsNs},
                                             {"rel", InstructionCostComparison::kRel}}},
                              {"pairs", std::move(pairs)}};
  }
  return j.dump(2);
}

std::string CostScatterSvg(const CostComparison& c) {
  const double W = 420, H = 420, pad = 48;
  double lo = 1e300, hi = 0;
  auto extend = [&](const std::vector<std::pair<double, double>>& v) {
    for (auto [x, y] : v) {
      if (x > 0) lo = std::min(lo, x), hi = std::max(hi, x);
      if (y > 0) lo = std::min(lo, y), hi = std::max(hi, y);
    }
  };
  extend(c.unfused);
  extend(c.fused);
  std::string s;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                W, H, W, H);
  s += buf;
  if (hi <= 0) {
    s += "<text x=\"20\" y=\"40\">no producer costed by both sides</text>\n</svg>\n";
    return s;
  }
  double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi));
  if (l1 <= l0) l1 = l0 + 1;
  auto px = [&](double v) { return pad + (std::log10(v) - l0) / (l1 - l0) * (W - 2 * pad); };
  auto py = [&](double v) { return H - pad - (std::log10(v) - l0) / (l1 - l0) * (H - 2 * pad); };
  std::snprintf(buf, sizeof buf, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n",
                pad, pad, W - 2 * pad, H - 2 * pad);
  s += buf;
  for (double e = l0; e <= l1; e += 1) {
    double v = std::pow(10.0, e);
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#eee\"/><text x=\"%.1f\" y=\"%.0f\" "
                  "text-anchor=\"middle\">%g</text>\n<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
                  "stroke=\"#eee\"/><text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                  px(v), pad, px(v), H - pad, px(v), H - pad + 14, v, pad, py(v), W - pad, py(v), pad - 4, py(v) + 4, v);
    s += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
                px(std::pow(10.0, l0)), py(std::pow(10.0, l0)), px(std::pow(10.0, l1)), py(std::pow(10.0, l1)));
  s += buf;
  auto dots = [&](const std::vector<std::pair<double, double>>& v, const char* color) {
    for (auto [x, y] : v) {
      if (x <= 0 || y <= 0) continue;
      std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.6\"/>\n", px(x),
                    py(y), color);
      s += buf;
    }
  };
  dots(c.unfused, "#1f77b4");
  dots(c.fused, "#d62728");
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">ours (µs)</text>\n<text x=\"14\" y=\"%.0f\" "
                "transform=\"rotate(-90 14 %.0f)\" text-anchor=\"middle\">XLA GPU (µs)</text>\n",
                W / 2, H - 10, H / 2, H / 2);
  s += buf;
  std::snprintf(buf, sizeof buf,
                "<circle cx=\"%.0f\" cy=\"20\" r=\"3\" fill=\"#1f77b4\"/><text x=\"%.0f\" y=\"24\">unfused (%zu)</text>"
                "<circle cx=\"%.0f\" cy=\"20\" r=\"3\" fill=\"#d62728\"/><text x=\"%.0f\" y=\"24\">fused (%zu)</text>\n",
                pad, pad + 8, c.unfused.size(), pad + 110, pad + 118, c.fused.size());
  s += buf;
  s += "</svg>\n";
  return s;
}

}  // namespace hloscope::report
