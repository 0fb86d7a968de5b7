// Work off the UI thread: loading a file, running a pipeline, preparing a
// step (parsed module + buffer assignment). Each job runs on its own
// QThread; results come back as queued signals of a Relay, which the main
// window receives on the UI thread.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "core/codegen/codegen.h"
#include "core/memory/buffer_assignment.h"
#include "core/fusion/fusion_overrides.h"
#include "core/session/session.h"
#include "core/session/whatif.h"
#include "views/compare/compare_view.h"
#include "views/decisions/xla_decisions.h"
#include "views/kernels/kernels_model.h"

Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::Step>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::Session>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::PipelineRun>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::Module>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::BufferAssignment>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::codegen::CodegenResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::views::KernelListing>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::views::XlaDecisions>)
Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::views::DecisionsVsXla>)

namespace hloscope::gui {

// Both sides of a comparison and its result (File → Compare with…).
struct CompareBundle {
  views::CompareSideInput a, b;
  std::shared_ptr<const report::CompareResult> result;
};

}  // namespace hloscope::gui

Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::gui::CompareBundle>)

namespace hloscope::gui {

// A what-if run (right-click → Force / Forbid this fusion): the deltas, and
// the what-if run beside the base run (null when no override was applied).
struct WhatIfBundle {
  FusionOverrides overrides;
  std::shared_ptr<const WhatIfResult> result;
  std::shared_ptr<const PipelineRun> run;        // the what-if run
  std::shared_ptr<const CompareBundle> compare;  // base last step vs what-if last step
  double ms = 0;                                 // on the worker
};

}  // namespace hloscope::gui

Q_DECLARE_METATYPE(std::shared_ptr<const hloscope::gui::WhatIfBundle>)

namespace hloscope::gui {

void RegisterMetaTypes();

// Emitted from worker threads; connect with the receiver as context.
class Relay : public QObject {
  Q_OBJECT

 signals:
  void loaded(quint64 generation, std::shared_ptr<const hloscope::Session> session,
              std::shared_ptr<const hloscope::PipelineRun> input);
  void loadFailed(quint64 generation, QString path, QString message);
  void stepRecorded(quint64 generation, std::shared_ptr<const hloscope::Step> step);
  void runFinished(quint64 generation, std::shared_ptr<const hloscope::PipelineRun> run);
  void runFailed(quint64 generation, QString message);
  void stepPrepared(quint64 generation, int step, std::shared_ptr<const hloscope::Module> module,
                    std::shared_ptr<const hloscope::BufferAssignment> buffers, QString error);
  void buffersReady(quint64 generation, int step, std::shared_ptr<const hloscope::BufferAssignment> buffers,
                    QString error);
  void compareReady(quint64 generation, std::shared_ptr<const hloscope::gui::CompareBundle> bundle, QString error);
  // The code and its plan listing (built on the worker); null with `error`.
  void kernelsReady(quint64 generation, int step, std::shared_ptr<const hloscope::views::KernelListing> kernels,
                    QString error, double ms);
  // XLA's own decisions for an XLA dump run (null with `error`: none).
  void xlaDecisionsReady(quint64 generation, std::shared_ptr<const hloscope::views::XlaDecisions> xla, QString error);
  // A what-if run and its deltas (null with `error`).
  void whatIfReady(quint64 generation, std::shared_ptr<const hloscope::gui::WhatIfBundle> bundle, QString error);
  // Our decisions against XLA's (null with `error`).
  void vsXlaReady(quint64 generation, std::shared_ptr<const hloscope::views::DecisionsVsXla> diff, QString error);
};

}  // namespace hloscope::gui
