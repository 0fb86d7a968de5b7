// whatif: the pipeline with and without fusion overrides (issue 30), side by
// side — kernels, HBM bytes, estimated time, peak memory, the decisions that
// changed and the overrides that were refused.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli/cli_args.h"
#include "app/cli/override_flags.h"
#include "core/cost/device.h"
#include "core/passes/pass_registry.h"
#include "core/session/whatif.h"

namespace hloscope::cli {
namespace {

nlohmann::ordered_json TotalsJson(const WhatIfTotals& t) {
  return {{"kernels", t.kernels}, {"hbm_bytes", t.hbm_bytes}, {"est_us", t.est_us}, {"peak_bytes", t.peak_bytes}};
}

nlohmann::ordered_json SideJson(const std::optional<WhatIfDecision>& e) {
  if (!e) return nullptr;
  nlohmann::ordered_json j;
  j["step"] = e->step;
  j["verdict"] = FusionVerdictName(e->d.verdict);
  j["reason"] = e->d.reason;
  if (!e->d.result.empty()) j["result"] = e->d.result;
  return j;
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
  WhatIfStage failed = WhatIfStage::kBase;
  auto result = RunWhatIfOnFile(path, pipeline, overrides, &failed);
  if (!result.ok()) {
    const std::string e = result.status().message();
    if (failed == WhatIfStage::kOverrides) {
      std::fprintf(stderr, "hloscope-cli whatif: error: %s\n", e.c_str());
      return 2;
    }
    if (failed == WhatIfStage::kBase) std::fprintf(stderr, "%s: error: %s\n", path.c_str(), e.c_str());
    else std::fprintf(stderr, "%s: error: with %s: %s\n", path.c_str(), DescribeOverrides(overrides).c_str(), e.c_str());
    return 1;
  }
  const WhatIfResult& r = *result;
  const WhatIfTotals& a = r.base;
  const WhatIfTotals& b = r.whatif;
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["module"] = r.module_name;
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
    for (const WhatIfOutcome& o : r.outcomes)
      j[o.applied ? "applied" : "refused"].push_back(
          {{"flag", "--" + o.flag}, {"pair", o.pair.ToString()}, {o.applied ? "result" : "reason", o.detail}});
    j["changed_decisions"] = nlohmann::ordered_json::array();
    for (const WhatIfChange& c : r.changes) {
      const FusionDecision& d = c.decision();
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
  std::fputs(WhatIfReportText(r).c_str(), stdout);
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
