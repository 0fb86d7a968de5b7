// XLA GPU's own fusion decisions (its priority_fusion_dump, read by
// core/report/xla_fusion_log.h) as the GUI shows them on an XLA dump run:
// one FusionDecision row per producer at the run's after_priority-fusion
// step, so that the decisions panel renders them like ours; the refusals by
// name for the graph's marks; the log's steps in XLA's words for the
// details. And our decisions against XLA's (core/report/decisions_diff.h)
// with our producers' ids, for the panel's "vs XLA" rows. Built on a worker
// thread, then shared read-only.
#pragma once

#include <QHash>
#include <QString>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/passes/fusion_decision.h"
#include "core/report/decisions_diff.h"
#include "core/report/xla_dump.h"
#include "core/report/xla_fusion_log.h"
#include "core/session/session.h"

namespace hloscope::views {

inline constexpr const char* kXlaPriorityFusionPass = "priority-fusion (XLA)";

struct XlaDecisions {
  std::shared_ptr<const report::XlaPriorityFusion> pf;
  int step = -1;           // the run's step priority fusion wrote (-1: none found)
  std::string step_label;  // its pass label
  // One per producer of pf->producers, in the same order: verdict, XLA's
  // reason, us_before = us_unfused and us_after = us_fused of its last
  // update_priority, consumers (those it was fused into, else those of its
  // last priority), result = the fusions it ended in.
  std::vector<FusionDecision> decisions;
  std::vector<char> costed;  // decisions[i] carries XLA's cost numbers
  int fused = 0, refused = 0;
  // Producers XLA did not fuse, by name, with XLA's reason (graph marks).
  QHash<QString, QString> refusals;
  // One line for the decisions panel: what was read, or why nothing was.
  QString summary;
};

// The step of an XLA dump run (one step per file of `module`, as
// report::LoadXlaDumpRun makes it) that is priority fusion's output file,
// or -1.
int XlaPriorityFusionStep(const report::XlaDumpModule& module, const report::XlaPriorityFusion& pf);

// `pf` against `run`'s step `step` (ids by name there, or in the step
// before for producers priority fusion consumed).
std::shared_ptr<const XlaDecisions> MakeXlaDecisions(std::shared_ptr<const report::XlaPriorityFusion> pf,
                                                     const PipelineRun& run, int step);


// Our decisions against XLA's, with the id of our producer per row (-1 when
// only XLA decided it).
struct DecisionsVsXla {
  std::shared_ptr<const report::DecisionsDiff> diff;
  std::vector<int64_t> ids;  // per diff->producers
};

std::shared_ptr<const DecisionsVsXla> MakeDecisionsVsXla(report::DecisionsDiff diff, const PipelineRun& ours);

}  // namespace hloscope::views
