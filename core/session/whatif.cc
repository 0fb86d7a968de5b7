// What-if fusion measured: see whatif.h.
#include "core/session/whatif.h"

#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "core/cost/cost_model.h"
#include "core/memory/buffer_assignment.h"
#include "core/passes/pass_registry.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/stablehlo/load_module.h"

namespace hloscope {
namespace {

// The decisions of a run, in order, with the step that made each.
class DecisionLog : public PassInstrumentation {
 public:
  Status AfterPass(const Module&, const PassRunInfo& info, const PassRunResult& result) override {
    if (result.log)
      for (const FusionDecision& d : result.log->decisions) entries.push_back({info.step, d});
    return Status::Ok();
  }
  std::vector<WhatIfDecision> entries;
};

struct Run {
  std::unique_ptr<Module> module;
  DecisionLog log;
  WhatIfTotals totals;
};

// Loads `path`, runs the pipeline (with the verifier after every pass) under
// `overrides`, and measures the result as opt (cost model) and memory
// (buffer assignment's packed peak) do.
Status RunOnce(const std::string& path, const std::string& pipeline_name, const FusionOverrides& overrides, Run* run,
               PassInstrumentation* extra = nullptr) {
  ASSIGN_OR_RETURN(run->module, LoadModuleFile(path));
  ASSIGN_OR_RETURN(std::unique_ptr<Pipeline> pipeline, PassRegistry::Global().BuildPipeline(pipeline_name));
  VerifierInstrumentation verifier;
  pipeline->AddInstrumentation(&run->log);
  pipeline->AddInstrumentation(&verifier);
  if (extra) pipeline->AddInstrumentation(extra);
  {
    ScopedFusionOverrides scope(overrides);
    auto changed = pipeline->Run(*run->module);
    if (!changed.ok()) return changed.status();
  }
  ASSIGN_OR_RETURN(run->totals, MeasureWhatIfTotals(*run->module));
  return Status::Ok();
}

// A decision's identity across the two runs: pass, producer and consumers.
// Instructions of the input keep their names in both runs, but fusions made
// on the way are numbered in the order they were made, which an override
// shifts: a fusion is known by the instruction it was made from (the
// consumer it wrapped), followed through the decisions' results.
class Keys {
 public:
  // priority_fusion decides once per producer (into all its consumers,
  // whose set an override may change); the other passes per pair.
  std::string Of(const FusionDecision& d) {
    std::string k = d.pass + "|" + Canon(d.producer) + "|";
    if (d.pass != "priority_fusion")
      for (const std::string& c : d.consumers) k += Canon(c) + ",";
    return k;
  }
  // After Of(d): the fusions `d` made stand for the consumers they hold.
  void Learn(const FusionDecision& d) {
    std::vector<std::string> results;
    for (size_t at = 0; at < d.result.size();) {
      size_t comma = d.result.find(", ", at);
      results.push_back(d.result.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      at = comma == std::string::npos ? d.result.size() : comma + 2;
    }
    if (results.size() != d.consumers.size()) return;
    for (size_t k = 0; k < results.size(); ++k)
      if (results[k] != d.consumers[k] && !canon_.count(results[k])) canon_[results[k]] = Canon(d.consumers[k]);
  }
  std::string Name(const std::string& n) const { return Canon(n); }

 private:
  std::string Canon(const std::string& n) const {
    auto it = canon_.find(n);
    return it == canon_.end() ? n : it->second;
  }
  std::map<std::string, std::string> canon_;
};

std::string Signed(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.*f", precision, v);
  return buf;
}

template <typename... T>
void Appendf(std::string* out, const char* fmt, T... args) {
  int n = std::snprintf(nullptr, 0, fmt, args...);
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(s.data(), s.size(), fmt, args...);
  s.pop_back();
  *out += s;
}

}  // namespace

WhatIfTotals WhatIfResult::delta() const {
  return {whatif.kernels - base.kernels, whatif.hbm_bytes - base.hbm_bytes, whatif.peak_bytes - base.peak_bytes,
          whatif.est_us - base.est_us};
}

bool WhatIfResult::any_refused() const {
  for (const WhatIfOutcome& o : outcomes)
    if (!o.applied) return true;
  return false;
}

bool AboutOverride(const FusionDecision& d) { return d.reason.find("what-if override") != std::string::npos; }

StatusOr<WhatIfTotals> MeasureWhatIfTotals(const Module& m) {
  WhatIfTotals t;
  ModuleCost cost = EstimateModule(m, CurrentDevice());
  t.kernels = cost.kernels;
  t.hbm_bytes = cost.hbm_bytes;
  t.est_us = cost.est_us;
  auto ba = AssignBuffers(m);
  if (!ba.ok()) return Status::Error("buffer assignment: " + ba.status().message());
  t.peak_bytes = (*ba)->peak_bytes;
  return t;
}

// Decisions whose verdict differs between the runs, or that only one run
// made, and every decision about an override, in the what-if run's order
// (then the base run's leftovers).
std::vector<WhatIfChange> ChangedDecisions(const std::vector<WhatIfDecision>& base,
                                           const std::vector<WhatIfDecision>& whatif) {
  std::map<std::string, const WhatIfDecision*> b, w;
  std::vector<std::string> bkeys, wkeys;
  Keys bk, wk;
  for (const auto& e : base) {
    bkeys.push_back(bk.Of(e.d));
    bk.Learn(e.d);
    b[bkeys.back()] = &e;  // the last decision per key
  }
  for (const auto& e : whatif) {
    wkeys.push_back(wk.Of(e.d));
    wk.Learn(e.d);
    w[wkeys.back()] = &e;
  }
  std::vector<WhatIfChange> out;
  for (size_t i = 0; i < whatif.size(); ++i) {
    const auto& e = whatif[i];
    const std::string& k = wkeys[i];
    if (w[k] != &e && !AboutOverride(e.d)) continue;  // an override's own records, every one
    auto it = b.find(k);
    const WhatIfDecision* old = it == b.end() ? nullptr : it->second;
    if (!old || old->d.verdict != e.d.verdict || AboutOverride(e.d)) {
      WhatIfChange c;
      if (old) c.base = *old;
      c.whatif = e;
      out.push_back(std::move(c));
    }
  }
  for (size_t i = 0; i < base.size(); ++i) {
    const std::string& k = bkeys[i];
    if (b[k] == &base[i] && !w.count(k)) out.push_back({base[i], std::nullopt});
  }
  return out;
}

std::vector<WhatIfOutcome> OverrideOutcomes(const FusionOverrides& o, const std::vector<WhatIfDecision>& whatif_log,
                                            const Module& whatif_final) {
  std::vector<WhatIfOutcome> out;
  for (const FusionOverridePair& p : o.force) {
    WhatIfOutcome r{"force", p, false, ""};
    // The last refusal a pass recorded for it.
    const std::string tag = "(--force " + p.ToString() + "): ";
    std::string refusal;
    for (const auto& e : whatif_log)
      if (e.d.verdict == FusionVerdict::kNotFused && e.d.reason.rfind(kRefusedReason, 0) == 0 &&
          e.d.reason.find(tag) != std::string::npos)
        refusal = e.d.pass + ": " + e.d.reason.substr(e.d.reason.find(tag) + tag.size());
    std::string where;
    if (InOneKernel(whatif_final, p, &where)) {
      // Together in the end, possibly by the passes' own choice after the
      // forced fusion itself was refused.
      r.applied = true;
      r.detail = "fused (in " + where + ")";
      if (!refusal.empty()) r.detail += "; the forced fusion itself was refused (" + refusal + ")";
    } else {
      r.detail = refusal;
      if (r.detail.empty())
        r.detail = "not fused: no fusion pass that reads overrides (priority_fusion, fusion, fusion_dup) found " +
                   p.consumer.ToString() + " reading " + p.producer.ToString();
    }
    out.push_back(r);
  }
  for (const FusionOverridePair& p : o.forbid) {
    WhatIfOutcome r{"forbid", p, true, "kept apart"};
    std::string where;
    if (InOneKernel(whatif_final, p, &where)) {
      r.applied = false;
      r.detail = "both are in " + where + ", made by a pass that does not read overrides "
                 "(triton-gemm-rewriter, triton-softmax-rewriter)";
    }
    out.push_back(r);
  }
  return out;
}

StatusOr<WhatIfResult> RunWhatIfOnFile(const std::string& path, const std::string& pipeline,
                                       const FusionOverrides& o, WhatIfStage* failed) {
  auto fail = [&](WhatIfStage stage, const Status& s) {
    if (failed) *failed = stage;
    return s;
  };
  // Names may be those of the input or made by a pass on the way: checked
  // against the base run.
  Run base, whatif;
  OverrideNameWatch names(o);
  if (Status s = RunOnce(path, pipeline, FusionOverrides{}, &base, &names); !s.ok())
    return fail(WhatIfStage::kBase, s);
  if (Status s = ValidateOverrides(*base.module, o, &names.seen()); !s.ok()) return fail(WhatIfStage::kOverrides, s);
  if (Status s = RunOnce(path, pipeline, o, &whatif); !s.ok()) return fail(WhatIfStage::kWhatIf, s);
  WhatIfResult r;
  r.module_name = base.module->name();
  r.base = base.totals;
  r.whatif = whatif.totals;
  r.changes = ChangedDecisions(base.log.entries, whatif.log.entries);
  r.outcomes = OverrideOutcomes(o, whatif.log.entries, *whatif.module);
  return r;
}

std::vector<WhatIfDecision> DecisionsOfRun(const PipelineRun& run) {
  std::vector<WhatIfDecision> out;
  for (const auto& s : run.steps())
    for (const FusionDecision& d : s->decisions) out.push_back({s->index, d});
  return out;
}

StatusOr<WhatIfTotals> TotalsOfRun(const PipelineRun& run) {
  if (run.size() == 0) return Status::Error("the run has no steps");
  const int last = run.size() - 1;
  const ModuleCost& cost = run.step(last).cost;
  WhatIfTotals t;
  t.kernels = cost.kernels;
  t.hbm_bytes = cost.hbm_bytes;
  t.est_us = cost.est_us;
  auto ba = run.BuffersAt(last);
  if (!ba.ok()) return Status::Error("buffer assignment: " + ba.status().message());
  t.peak_bytes = (*ba)->peak_bytes;
  return t;
}

SeenNames NamesInRun(const PipelineRun& run, const FusionOverrides& o) {
  SeenNames wanted, seen;
  for (const auto* list : {&o.force, &o.forbid})
    for (const FusionOverridePair& p : *list)
      for (const OverrideRef* r : {&p.producer, &p.consumer}) {
        if (r->id >= 0) wanted.ids.insert(r->id);
        else wanted.names.insert(r->name);
      }
  std::set<const ModuleSnapshot*> done;
  for (const auto& s : run.steps()) {
    if (!s->module || !done.insert(s->module.get()).second) continue;
    for (const InstructionRecord& i : s->module->instructions) {
      if (wanted.names.count(i.name)) seen.names.insert(i.name);
      if (wanted.ids.count(i.id)) seen.ids.insert(i.id);
    }
  }
  return seen;
}

std::string OverrideNameIn(const PipelineRun& run, int step, const std::string& name, const FusionDecision* before) {
  Keys keys;
  for (int k = 0; k <= step && k < run.size(); ++k)
    for (const FusionDecision& d : run.step(k).decisions) {
      if (&d == before) return keys.Name(name);
      keys.Learn(d);
    }
  return keys.Name(name);
}

StatusOr<WhatIfResult> CompareWhatIfRuns(const PipelineRun& base, const PipelineRun& whatif,
                                         const FusionOverrides& o) {
  if (whatif.size() == 0) return Status::Error("the what-if run has no steps");
  WhatIfResult r;
  ASSIGN_OR_RETURN(r.base, TotalsOfRun(base));
  ASSIGN_OR_RETURN(r.whatif, TotalsOfRun(whatif));
  ASSIGN_OR_RETURN(std::shared_ptr<const Module> last, whatif.ModuleAt(whatif.size() - 1));
  r.module_name = last->name();
  const std::vector<WhatIfDecision> whatif_log = DecisionsOfRun(whatif);
  r.changes = ChangedDecisions(DecisionsOfRun(base), whatif_log);
  r.outcomes = OverrideOutcomes(o, whatif_log, *last);
  return r;
}

std::string WhatIfReportText(const WhatIfResult& r, size_t shown) {
  std::string out;
  const WhatIfTotals& a = r.base;
  const WhatIfTotals& b = r.whatif;
  Appendf(&out, "%-12s %14s %14s %14s\n", "", "base", "what-if", "delta");
  auto row = [&](const char* what, long long x, long long y) {
    Appendf(&out, "%-12s %14lld %14lld %14s\n", what, x, y, Signed(static_cast<double>(y - x), 0).c_str());
  };
  row("kernels", a.kernels, b.kernels);
  row("HBM bytes", a.hbm_bytes, b.hbm_bytes);
  Appendf(&out, "%-12s %14.3f %14.3f %14s\n", "est. us", a.est_us, b.est_us, Signed(b.est_us - a.est_us, 3).c_str());
  row("peak bytes", a.peak_bytes, b.peak_bytes);
  out += "overrides:\n";
  for (const WhatIfOutcome& o : r.outcomes)
    Appendf(&out, "  --%s %s: %s%s\n", o.flag.c_str(), o.pair.ToString().c_str(), o.applied ? "" : "REFUSED: ",
            o.detail.c_str());
  // Both runs' verdicts first; decisions only one run made (candidates that
  // exist only because kernels were grouped differently) are counted.
  std::vector<const WhatIfChange*> both;
  size_t one_sided = 0;
  for (const WhatIfChange& c : r.changes) {
    if ((c.base && c.whatif) || (c.whatif && AboutOverride(c.whatif->d))) both.push_back(&c);
    else ++one_sided;
  }
  Appendf(&out, "changed decisions (%zu):\n", both.size());
  for (size_t k = 0; k < both.size() && k < shown; ++k) {
    const WhatIfChange& c = *both[k];
    const FusionDecision& d = c.decision();
    std::string cons;
    for (size_t i = 0; i < d.consumers.size(); ++i) cons += (i ? ", " : "") + d.consumers[i];
    Appendf(&out, "  %s: %s → {%s}: %s → %s\n", d.pass.c_str(), d.producer.c_str(), cons.c_str(),
            c.base ? FusionVerdictName(c.base->d.verdict) : "(not considered)",
            c.whatif ? FusionVerdictName(c.whatif->d.verdict) : "(not considered)");
    if (c.base) Appendf(&out, "      base:    %s\n", c.base->d.reason.c_str());
    if (c.whatif) Appendf(&out, "      what-if: %s\n", c.whatif->d.reason.c_str());
  }
  if (both.size() > shown) Appendf(&out, "  ... %zu more (--json lists every one)\n", both.size() - shown);
  if (one_sided)
    Appendf(&out,
            "%zu decision(s) made by one run only (candidates of kernels grouped differently; --json lists "
            "them with the other side null)\n",
            one_sided);
  return out;
}

}  // namespace hloscope
