// What-if fusion (issue 30), measured: a pipeline run without fusion
// overrides against one with them — kernels, HBM bytes, estimated µs (the
// cost model) and peak bytes (buffer assignment's packed peak) of both, what
// became of each override (applied, or refused with the reason), and the
// decisions whose verdict changed. Qt-free; `hloscope-cli whatif` prints it,
// the GUI's what-if (right-click a decision or an edge) shows it.
//
//   WhatIfStage failed;
//   auto r = RunWhatIfOnFile("samples/mlp_gelu.hlo", "gpu", overrides, &failed);   // CLI: two fresh runs
//   auto r = CompareWhatIfRuns(*base_run, *whatif_run, overrides);                 // GUI: two recorded runs
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fusion/fusion_overrides.h"
#include "core/passes/fusion_decision.h"
#include "core/session/session.h"
#include "core/support/status.h"

namespace hloscope {

struct WhatIfTotals {
  int64_t kernels = 0, hbm_bytes = 0, peak_bytes = 0;
  double est_us = 0;
};

// A decision of a run with the step that made it (PassRunInfo::step).
struct WhatIfDecision {
  int step = 0;
  FusionDecision d;
};

// A decision whose verdict differs between the runs, that only one run made
// (the other side empty), or that is about an override.
struct WhatIfChange {
  std::optional<WhatIfDecision> base, whatif;
  const FusionDecision& decision() const { return whatif ? whatif->d : base->d; }
};

// What became of one override.
struct WhatIfOutcome {
  std::string flag;  // "force" or "forbid"
  FusionOverridePair pair;
  bool applied = false;
  std::string detail;  // the kernel holding both, or why not
};

struct WhatIfResult {
  std::string module_name;
  WhatIfTotals base, whatif;
  std::vector<WhatIfOutcome> outcomes;  // forces first, then forbids, in the order given
  std::vector<WhatIfChange> changes;    // the what-if run's order, then the base run's leftovers

  WhatIfTotals delta() const;
  bool any_refused() const;
};

// True when a decision's reason mentions a what-if override (forced,
// forbidden or refused).
bool AboutOverride(const FusionDecision& d);

// Kernels, HBM bytes, est. µs (CurrentDevice()) and peak bytes of `m`.
StatusOr<WhatIfTotals> MeasureWhatIfTotals(const Module& m);

// The changed decisions, matched by pass, producer and consumers (fusions
// made on the way known by the instruction they wrapped).
std::vector<WhatIfChange> ChangedDecisions(const std::vector<WhatIfDecision>& base,
                                           const std::vector<WhatIfDecision>& whatif);

// What became of each override of `o` in the what-if run (its decisions and
// its final module).
std::vector<WhatIfOutcome> OverrideOutcomes(const FusionOverrides& o, const std::vector<WhatIfDecision>& whatif_log,
                                            const Module& whatif_final);

enum class WhatIfStage { kBase, kOverrides, kWhatIf };

// Loads `path`, runs `pipeline` (verifier after every pass) without and
// then with `o`, and compares. On error `*failed` says where: the base run
// (load, pass or verifier), the overrides (a name no module of the base run
// held, a pair both forced and forbidden), or the what-if run.
StatusOr<WhatIfResult> RunWhatIfOnFile(const std::string& path, const std::string& pipeline,
                                       const FusionOverrides& o, WhatIfStage* failed = nullptr);

// The decisions of a recorded run, and its last step's totals (its cost and
// buffer assignment).
std::vector<WhatIfDecision> DecisionsOfRun(const PipelineRun& run);
StatusOr<WhatIfTotals> TotalsOfRun(const PipelineRun& run);
// The names and ids of `o` that any step of `run` held (for ValidateOverrides).
SeenNames NamesInRun(const PipelineRun& run, const FusionOverrides& o);
// How an override names `name`, an instruction of step `step` of `run` (or
// a producer or consumer of the decision `before`, made in that step): a
// fusion made by a decision of the run stands for the instruction it was
// made from (the consumer it wrapped), followed back to the input's names,
// since fusions are numbered in the order they are made, which an override
// shifts. Other names are returned as they are.
std::string OverrideNameIn(const PipelineRun& run, int step, const std::string& name,
                           const FusionDecision* before = nullptr);
// Two recorded runs of one session: `whatif` made under `o`.
StatusOr<WhatIfResult> CompareWhatIfRuns(const PipelineRun& base, const PipelineRun& whatif,
                                         const FusionOverrides& o);

// The table of totals and deltas, the overrides' outcomes and the changed
// decisions (at most `shown`), as `hloscope-cli whatif` prints them.
std::string WhatIfReportText(const WhatIfResult& r, size_t shown = 40);

}  // namespace hloscope
