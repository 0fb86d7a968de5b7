// whatif: the pipeline with and without fusion overrides (issue 30), side by
// side — kernels, HBM bytes, estimated time, peak memory, the decisions that
// changed and the overrides that were refused.
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "app/cli/override_flags.h"
#include "core/cost/cost_model.h"
#include "core/fusion/fusion_overrides.h"
#include "core/memory/buffer_assignment.h"
#include "core/passes/pass_registry.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/stablehlo/load_module.h"

namespace hloscope::cli {
namespace {

// The decisions of a run, in order, with the step that made each.
class DecisionLog : public PassInstrumentation {
 public:
  struct Entry {
    int step;
    FusionDecision d;
  };
  Status AfterPass(const Module&, const PassRunInfo& info, const PassRunResult& result) override {
    if (result.log)
      for (const FusionDecision& d : result.log->decisions) entries.push_back({info.step, d});
    return Status::Ok();
  }
  std::vector<Entry> entries;
};

struct Totals {
  int64_t kernels = 0, hbm_bytes = 0, peak_bytes = 0;
  double est_us = 0;
};

struct Run {
  std::unique_ptr<Module> module;
  DecisionLog log;
  Totals totals;
};

// Loads FILE, runs the pipeline (with the verifier after every pass) under
// `overrides`, and measures the result as opt (cost model) and memory
// (buffer assignment's packed peak) do. "" or the error.
std::string RunOnce(const std::string& path, const Args& args, const FusionOverrides& overrides, Run* run,
                    PassInstrumentation* extra = nullptr) {
  auto m = LoadModuleFile(path);
  if (!m.ok()) return m.status().message();
  run->module = std::move(*m);
  const PassRegistry& reg = PassRegistry::Global();
  auto pipeline = reg.BuildPipeline(args.GetOr("--pipeline", "gpu"));
  if (!pipeline.ok()) return pipeline.status().message();
  VerifierInstrumentation verifier;
  (*pipeline)->AddInstrumentation(&run->log);
  (*pipeline)->AddInstrumentation(&verifier);
  if (extra) (*pipeline)->AddInstrumentation(extra);
  {
    ScopedFusionOverrides scope(overrides);
    auto changed = (*pipeline)->Run(*run->module);
    if (!changed.ok()) return changed.status().message();
  }
  ModuleCost cost = EstimateModule(*run->module, CurrentDevice());
  run->totals.kernels = cost.kernels;
  run->totals.hbm_bytes = cost.hbm_bytes;
  run->totals.est_us = cost.est_us;
  auto ba = AssignBuffers(*run->module);
  if (!ba.ok()) return "buffer assignment: " + ba.status().message();
  run->totals.peak_bytes = (*ba)->peak_bytes;
  return "";
}

nlohmann::ordered_json TotalsJson(const Totals& t) {
  return {{"kernels", t.kernels}, {"hbm_bytes", t.hbm_bytes}, {"est_us", t.est_us}, {"peak_bytes", t.peak_bytes}};
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

 private:
  std::string Canon(const std::string& n) const {
    auto it = canon_.find(n);
    return it == canon_.end() ? n : it->second;
  }
  std::map<std::string, std::string> canon_;
};

bool AboutOverride(const FusionDecision& d) { return d.reason.find("what-if override") != std::string::npos; }

struct Change {
  const DecisionLog::Entry* base = nullptr;
  const DecisionLog::Entry* whatif = nullptr;
};

// Decisions whose verdict differs between the runs, or that only one run
// made, and every decision about an override, in the what-if run's order
// (then the base run's leftovers).
std::vector<Change> ChangedDecisions(const DecisionLog& base, const DecisionLog& whatif) {
  std::map<std::string, const DecisionLog::Entry*> b, w;
  std::vector<std::string> bkeys, wkeys;
  Keys bk, wk;
  for (const auto& e : base.entries) {
    bkeys.push_back(bk.Of(e.d));
    bk.Learn(e.d);
    b[bkeys.back()] = &e;  // the last decision per key
  }
  for (const auto& e : whatif.entries) {
    wkeys.push_back(wk.Of(e.d));
    wk.Learn(e.d);
    w[wkeys.back()] = &e;
  }
  std::vector<Change> out;
  for (size_t i = 0; i < whatif.entries.size(); ++i) {
    const auto& e = whatif.entries[i];
    const std::string& k = wkeys[i];
    if (w[k] != &e && !AboutOverride(e.d)) continue;  // an override's own records, every one
    auto it = b.find(k);
    const DecisionLog::Entry* old = it == b.end() ? nullptr : it->second;
    if (!old || old->d.verdict != e.d.verdict || AboutOverride(e.d)) out.push_back({old, &e});
  }
  for (size_t i = 0; i < base.entries.size(); ++i) {
    const std::string& k = bkeys[i];
    if (b[k] == &base.entries[i] && !w.count(k)) out.push_back({&base.entries[i], nullptr});
  }
  return out;
}

struct Outcome {
  std::string flag;  // "force" or "forbid"
  FusionOverridePair pair;
  bool applied = false;
  std::string detail;  // the kernel holding both, or why not
};

std::vector<Outcome> Outcomes(const FusionOverrides& o, const Run& whatif) {
  std::vector<Outcome> out;
  for (const FusionOverridePair& p : o.force) {
    Outcome r{"force", p, false, ""};
    // The last refusal a pass recorded for it.
    const std::string tag = "(--force " + p.ToString() + "): ";
    std::string refusal;
    for (const auto& e : whatif.log.entries)
      if (e.d.verdict == FusionVerdict::kNotFused && e.d.reason.rfind(kRefusedReason, 0) == 0 &&
          e.d.reason.find(tag) != std::string::npos)
        refusal = e.d.pass + ": " + e.d.reason.substr(e.d.reason.find(tag) + tag.size());
    std::string where;
    if (InOneKernel(*whatif.module, p, &where)) {
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
    Outcome r{"forbid", p, true, "kept apart"};
    std::string where;
    if (InOneKernel(*whatif.module, p, &where)) {
      r.applied = false;
      r.detail = "both are in " + where + ", made by a pass that does not read overrides "
                 "(triton-gemm-rewriter, triton-softmax-rewriter)";
    }
    out.push_back(r);
  }
  return out;
}

nlohmann::ordered_json SideJson(const DecisionLog::Entry* e) {
  if (!e) return nullptr;
  nlohmann::ordered_json j;
  j["step"] = e->step;
  j["verdict"] = FusionVerdictName(e->d.verdict);
  j["reason"] = e->d.reason;
  if (!e->d.result.empty()) j["result"] = e->d.result;
  return j;
}

std::string Signed(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.*f", precision, v);
  return buf;
}

int RunWhatif(const std::vector<std::string>& argv_in) {
  std::vector<std::string> argv = argv_in;
  FusionOverrides overrides;
  std::string err;
  if (!TakeOverrideFlags(&argv, {"--force", "--force-fusion"}, {"--forbid", "--forbid-fusion"}, &overrides, &err)) {
    std::fprintf(stderr, "hloscope-cli whatif: error: %s\n", err.c_str());
    return 2;
  }
  Args args;
  if (!args.Parse(argv, {"--pipeline", "--device"}, {"--json"}, &err) || args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli whatif: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  if (overrides.empty()) {
    std::fprintf(stderr, "hloscope-cli whatif: error: give at least one --force P:C or --forbid P:C\n");
    return 2;
  }
  if (auto d = args.Get("--device")) {
    auto spec = LoadDevice(*d);
    if (!spec.ok()) {
      std::fprintf(stderr, "hloscope-cli whatif: error: %s\n", spec.status().message().c_str());
      return 2;
    }
    SetCurrentDevice(*spec);
  }
  const std::string pipeline = args.GetOr("--pipeline", "gpu");
  if (!PassRegistry::Global().FindPipeline(pipeline)) {
    std::fprintf(stderr, "hloscope-cli whatif: error: no pipeline named '%s' (hloscope-cli list-passes)\n",
                 pipeline.c_str());
    return 2;
  }
  AnnouncePipeline("whatif", pipeline);
  const std::string path = args.positional()[0];
  // Names may be those of the input or made by a pass on the way: checked
  // against the base run.
  Run base, whatif;
  OverrideNameWatch names(overrides);
  if (std::string e = RunOnce(path, args, FusionOverrides{}, &base, &names); !e.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", path.c_str(), e.c_str());
    return 1;
  }
  if (Status s = ValidateOverrides(*base.module, overrides, &names.seen()); !s.ok()) {
    std::fprintf(stderr, "hloscope-cli whatif: error: %s\n", s.message().c_str());
    return 2;
  }
  if (std::string e = RunOnce(path, args, overrides, &whatif); !e.empty()) {
    std::fprintf(stderr, "%s: error: with %s: %s\n", path.c_str(), DescribeOverrides(overrides).c_str(), e.c_str());
    return 1;
  }
  const std::vector<Change> changes = ChangedDecisions(base.log, whatif.log);
  const std::vector<Outcome> outcomes = Outcomes(overrides, whatif);
  const Totals& a = base.totals;
  const Totals& b = whatif.totals;
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["module"] = base.module->name();
    j["pipeline"] = pipeline;
    j["device"] = CurrentDevice().id;
    j["overrides"] = {{"force", nlohmann::ordered_json::array()}, {"forbid", nlohmann::ordered_json::array()}};
    for (const auto& p : overrides.force) j["overrides"]["force"].push_back(p.ToString());
    for (const auto& p : overrides.forbid) j["overrides"]["forbid"].push_back(p.ToString());
    j["base"] = TotalsJson(a);
    j["whatif"] = TotalsJson(b);
    j["delta"] = {{"kernels", b.kernels - a.kernels},
                  {"hbm_bytes", b.hbm_bytes - a.hbm_bytes},
                  {"est_us", b.est_us - a.est_us},
                  {"peak_bytes", b.peak_bytes - a.peak_bytes}};
    j["applied"] = nlohmann::ordered_json::array();
    j["refused"] = nlohmann::ordered_json::array();
    for (const Outcome& o : outcomes)
      j[o.applied ? "applied" : "refused"].push_back(
          {{"flag", "--" + o.flag}, {"pair", o.pair.ToString()}, {o.applied ? "result" : "reason", o.detail}});
    j["changed_decisions"] = nlohmann::ordered_json::array();
    for (const Change& c : changes) {
      const FusionDecision& d = (c.whatif ? c.whatif : c.base)->d;
      j["changed_decisions"].push_back({{"pass", d.pass},
                                        {"producer", d.producer},
                                        {"consumers", d.consumers},
                                        {"base", SideJson(c.base)},
                                        {"whatif", SideJson(c.whatif)}});
    }
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::printf("%s: what-if %s (pipeline %s, device %s)\n", path.c_str(), DescribeOverrides(overrides).c_str(),
              pipeline.c_str(), CurrentDevice().id.c_str());
  std::printf("%-12s %14s %14s %14s\n", "", "base", "what-if", "delta");
  auto row = [](const char* what, long long x, long long y) {
    std::printf("%-12s %14lld %14lld %14s\n", what, x, y, Signed(static_cast<double>(y - x), 0).c_str());
  };
  row("kernels", a.kernels, b.kernels);
  row("HBM bytes", a.hbm_bytes, b.hbm_bytes);
  std::printf("%-12s %14.3f %14.3f %14s\n", "est. us", a.est_us, b.est_us, Signed(b.est_us - a.est_us, 3).c_str());
  row("peak bytes", a.peak_bytes, b.peak_bytes);
  std::printf("overrides:\n");
  for (const Outcome& o : outcomes)
    std::printf("  --%s %s: %s%s\n", o.flag.c_str(), o.pair.ToString().c_str(), o.applied ? "" : "REFUSED: ",
                o.detail.c_str());
  // Both runs' verdicts first; decisions only one run made (candidates that
  // exist only because kernels were grouped differently) are counted.
  std::vector<const Change*> both;
  size_t one_sided = 0;
  for (const Change& c : changes) {
    if ((c.base && c.whatif) || (c.whatif && AboutOverride(c.whatif->d))) both.push_back(&c);
    else ++one_sided;
  }
  std::printf("changed decisions (%zu):\n", both.size());
  constexpr size_t kShown = 40;
  for (size_t k = 0; k < both.size() && k < kShown; ++k) {
    const Change& c = *both[k];
    const FusionDecision& d = (c.whatif ? c.whatif : c.base)->d;
    std::string cons;
    for (size_t i = 0; i < d.consumers.size(); ++i) cons += (i ? ", " : "") + d.consumers[i];
    std::printf("  %s: %s → {%s}: %s → %s\n", d.pass.c_str(), d.producer.c_str(), cons.c_str(),
                c.base ? FusionVerdictName(c.base->d.verdict) : "(not considered)",
                c.whatif ? FusionVerdictName(c.whatif->d.verdict) : "(not considered)");
    if (c.base) std::printf("      base:    %s\n", c.base->d.reason.c_str());
    if (c.whatif) std::printf("      what-if: %s\n", c.whatif->d.reason.c_str());
  }
  if (both.size() > kShown) std::printf("  ... %zu more (--json lists every one)\n", both.size() - kShown);
  if (one_sided)
    std::printf("%zu decision(s) made by one run only (candidates of kernels grouped differently; --json lists "
                "them with the other side null)\n",
                one_sided);
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(whatif, "whatif", "what-if fusion: the pipeline with forced or forbidden fusions, against it without",
                     "usage: hloscope-cli whatif FILE [--pipeline NAME] [--device ID] (--force P:C | --forbid P:C)...\n"
                     "                           [--json]\n"
                     "Runs the pipeline (default gpu) twice, without and with the overrides, the verifier after\n"
                     "every pass, and prints kernels, HBM bytes, estimated us (cost model) and peak bytes (buffer\n"
                     "assignment, as `memory`) of both with their deltas, what became of each override, and\n"
                     "the fusion decisions that changed (verdict differs, made by one run only, or about an\n"
                     "override). --force P:C fuses producer P into consumer C where that is legal, whatever\n"
                     "the pass's heuristics and costs say; an illegal one (a cycle, ops that cannot fuse, an\n"
                     "emitter limit, P or C gone) is refused with the reason and never performed.\n"
                     "--forbid P:C keeps P and C out of one kernel. P and C are names (or #N, stable ids) of\n"
                     "instructions of FILE or made by a pass before (e.g. multiply.1 by algsimp; opt --dump-dir\n"
                     "shows them); fusions made on the way are matched through their members.\n"
                     "Read by priority_fusion, fusion, fusion_dup (forced and forbidden) and fusion_merger,\n"
                     "multi_output_fusion (forbidden); not by the Triton GEMM/softmax rewriters (a forbid\n"
                     "they break is listed as refused). --force-fusion / --forbid-fusion are the same flags\n"
                     "(the names opt and check take). --json: {module, pipeline, device, overrides,\n"
                     "base:{kernels, hbm_bytes, est_us, peak_bytes}, whatif:{...}, delta:{...},\n"
                     "applied:[{flag, pair, result}], refused:[{flag, pair, reason}],\n"
                     "changed_decisions:[{pass, producer, consumers, base:{step, verdict, reason}|null,\n"
                     "whatif:{...}|null}]}.\n"
                     "Exit codes: 0 done (refused overrides are results, not errors); 1 an error (a pass or\n"
                     "the verifier failed); 2 bad usage (a malformed P:C, an unknown name).",
                     RunWhatif);

}  // namespace hloscope::cli
