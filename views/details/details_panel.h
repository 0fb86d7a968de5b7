// The details panel: everything about the selected instruction of the
// current step — its printed line, shape and layout, bytes, operands and
// users as links (clicking selects them), metadata (op_name, op_type,
// source file:line), backend_config, cost-model numbers and every fusion
// decision of the run that named it, with verdict and reason.
#pragma once

#include <QWidget>
#include <cstdint>
#include <memory>

#include "core/session/session.h"

class QTextBrowser;

namespace hloscope::views {

class DetailsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DetailsPanel(QWidget* parent = nullptr);

  // The run and step whose module is shown (the step's module must be
  // parsed already or is parsed here: call after PipelineRun::ModuleAt).
  void setStep(std::shared_ptr<const PipelineRun> run, int step);
  void setInstruction(int64_t id);
  int64_t instruction() const { return id_; }
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
};

// The HTML shown for one instruction (exposed for tests and reports).
QString InstructionDetailsHtml(const PipelineRun& run, int step, int64_t id);

}  // namespace hloscope::views
