// Our fusion decisions against XLA GPU's on the same module: for every
// producer either priority fusion considered, our verdict and reason beside
// XLA's (from its priority_fusion_dump, core/report/xla_fusion_log.h), with
// both cost estimates. Producers are matched by the compare matching
// (core/report/compare_match.h: names, op_name/scheduling_name metadata,
// fused contents, structure) between the module our priority_fusion ran on
// and the one XLA's ran on. Disagreements come first. The JSON is documented
// in docs/compare.md ("decisions-diff").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/report/xla_costs.h"
#include "core/report/xla_fusion_log.h"
#include "core/report/xla_gemm_log.h"
#include "core/session/session.h"
#include "core/support/status.h"

namespace hloscope::report {

struct DecisionSide {
  bool present = false;
  std::string producer;    // the producer's name on this side
  std::string verdict;     // "fused" / "not fused"
  std::string reason;      // a sentence (ours) or XLA's words; for an op an earlier pass had
                           // already fused (decisions == 0), which fusion held it
  // The side's first cost estimate of the producer, on the module its
  // priority fusion started from, with all its non-bitcast users: ours from
  // our cost model (core/fusion/fusion_cost.h), XLA's from its first
  // update_priority (the later ones are incremental differences).
  bool has_cost = false;
  double us_fused = 0, us_unfused = 0;
  int decisions = 0;       // records of ours / steps of XLA's behind this row
};

struct ProducerDiff {
  std::string producer;    // our name (XLA's when only XLA decided it)
  DecisionSide ours, xla;
  std::string xla_origin;  // XLA's instruction (module before its priority fusion) this row stands for
  std::string match;       // how the two producers were matched ("" when one side is absent)
  bool agree = false;      // both decided, with the same verdict
};

struct DecisionsDiffTotals {
  int64_t producers = 0, agree = 0, disagree = 0, only_ours = 0, only_xla = 0;
};

// Our cost model against XLA's on the producers both sides costed.
struct CostComparison {
  int64_t pairs = 0;                            // producers with both estimates
  double median_ratio_unfused = 0, mean_ratio_unfused = 0;  // ours / XLA's
  double median_ratio_fused = 0, mean_ratio_fused = 0;
  int64_t fused_pairs = 0;                      // of them, with a fused estimate on both sides
  // Producers whose estimates are within a factor of 2 of XLA's (0.5 ≤ ours / XLA's ≤ 2).
  int64_t within_2x_unfused = 0, within_2x_fused = 0;
  // (ours, XLA's) per producer, unfused and fused, for the scatter plot.
  std::vector<std::pair<double, double>> unfused, fused;
};

struct DecisionsDiff {
  std::string ours_label, xla_label;  // our input and pipeline; XLA's log
  std::string our_pass = "priority_fusion";
  int our_step = -1;                  // the step of our run
  std::vector<ProducerDiff> producers;  // disagreements, then one side only, then agreements
  DecisionsDiffTotals totals;
  int64_t xla_steps = 0;              // fusion_steps entries read from XLA's log
  int64_t xla_fusions = 0;            // of them, fusion steps
  // Our decisions about constants, left out: XLA's priority fusion fuses
  // small constants at its end without logging them.
  int64_t ours_constants = 0;
  std::vector<std::string> xla_unresolved;  // names of XLA's log not found in its module
  CostComparison cost;
  // Our GEMM fusions (the module priority fusion ran on) against XLA's
  // logged GEMM search, when the dump folder has XLA's log (xla_vlog.txt).
  std::optional<GemmAgreement> gemm;
  std::string gemm_log;  // where it was read
  // Our cost model against XLA's own estimate of every instruction its
  // priority fusion started from, when the folder has them (xla_costs.tsv).
  std::optional<InstructionCostComparison> instruction_costs;
  std::string costs_log;  // where they were read
};

// `ours` must hold a priority_fusion step (the `gpu` pipeline).
StatusOr<DecisionsDiff> DiffDecisions(const PipelineRun& ours, const XlaPriorityFusion& xla);

// XLA's records about one of our instructions (explain --xla-dump): the
// instruction of XLA's module before priority fusion matched with `name` of
// `ours` (the module as the user gave it, or any module of ours), the fusion
// holding it when an earlier pass had fused it, and every step of XLA's log
// that names them or the fusions they went into.
struct XlaStory {
  std::vector<std::string> counterparts;  // XLA's names; empty when nothing matched
  std::string how;                        // how the match was made
  std::vector<int> steps;                 // indices into xla.log.steps, in the log's order
};
XlaStory XlaStoryOf(const Module& ours, const std::string& name, const XlaPriorityFusion& xla);
// One step of XLA's log as a line ("fusion: exp.2.0 into add.3.0 → fusion.7").
std::string XlaStepLine(const XlaFusionStep& s);

std::string DecisionsDiffToText(const DecisionsDiff& d, int max_rows = 60);
std::string DecisionsDiffToJson(const DecisionsDiff& d);
// The cost scatter (ours against XLA's µs, log-log) as an SVG document.
std::string CostScatterSvg(const CostComparison& c);

}  // namespace hloscope::report
