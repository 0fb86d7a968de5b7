// The details panel: everything about the selected instruction of the
// current step — its printed line, shape and layout, bytes, operands and
// users as links (clicking selects them), metadata (op_name, op_type,
// source file:line), backend_config, cost-model numbers and every fusion
// decision of the run that named it, with verdict and reason; on an XLA
// dump run, the steps of XLA's priority fusion log that name it, in XLA's
// words.
#pragma once

#include <QWidget>
#include <cstdint>
#include <memory>

#include "core/session/session.h"

class QTextBrowser;

namespace hloscope::views {

struct KernelListing;
struct XlaDecisions;

class DetailsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DetailsPanel(QWidget* parent = nullptr);

  // The run and step whose module is shown (the step's module must be
  // parsed already or is parsed here: call after PipelineRun::ModuleAt).
  void setStep(std::shared_ptr<const PipelineRun> run, int step);
  void setInstruction(int64_t id);
  int64_t instruction() const { return id_; }
  // The shown step's kernel plan (after Step → Generate kernels; null:
  // none): a "kernel" row says what the instruction launches — its kernel,
  // that it is missing and why, or the external target it calls.
  void setKernelListing(std::shared_ptr<const KernelListing> listing);
  // XLA's priority fusion log for the run (an XLA dump run; null: none).
  void setXlaDecisions(std::shared_ptr<const XlaDecisions> xla);
  // The rendered text (tests).
  QString plainText() const;
  QString html() const;

 signals:
  void instructionActivated(qint64 id);

 private:
  void render();

  QTextBrowser* browser_;
  std::shared_ptr<const PipelineRun> run_;
  int step_ = -1;
  int64_t id_ = -1;
  std::shared_ptr<const KernelListing> kernels_;
  std::shared_ptr<const XlaDecisions> xla_;
};

// The HTML shown for one instruction (exposed for tests and reports);
// `kernels`: the step's kernel plan, or null; `xla`: XLA's priority fusion
// log for the run, or null.
QString InstructionDetailsHtml(const PipelineRun& run, int step, int64_t id, const KernelListing* kernels = nullptr,
                               const XlaDecisions* xla = nullptr);

}  // namespace hloscope::views
