// An --xla_dump_to module as a pipeline run the GUI can step through:
// before_optimizations, every per-pass file, after_optimizations, each a
// step. Instructions keep one id across the files by name (XLA keeps names
// through its passes), so the step diffs and the stable graph layout work
// as for our own pipelines. The last step's buffers are XLA's own
// assignment when the folder has its *buffer-assignment.txt.
#pragma once

#include <atomic>
#include <memory>

#include "core/report/xla_dump.h"
#include "core/session/session.h"
#include "core/support/status.h"

namespace hloscope::report {

StatusOr<std::shared_ptr<PipelineRun>> LoadXlaDumpRun(const XlaDumpModule& module,
                                                      const std::atomic<bool>* cancel = nullptr);

}  // namespace hloscope::report
