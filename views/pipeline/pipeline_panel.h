// The pipeline panel: pipeline and device choosers (a custom pass list with
// checkboxes from the registry), Run/Cancel with progress, the steps table
// (no-op steps can be hidden), first/back/forward/last stepping and, under
// the table, the HBM traffic per step (TrafficChart; a click selects a step).
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "core/passes/step_recorder.h"
#include "views/pipeline/steps_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableView;
class QTextBrowser;
class QToolButton;

namespace hloscope::views {

class TrafficChart;

class PipelinePanel : public QWidget {
  Q_OBJECT

 public:
  explicit PipelinePanel(QWidget* parent = nullptr);

  QString pipeline() const;         // "custom" when the pass list is used
  QStringList customPasses() const;  // checked passes, in registry order
  QString device() const;
  void setPipeline(const QString& name);
  void setDevice(const QString& id);
  void setCustomPasses(const QStringList& passes);

  void setSteps(std::vector<std::shared_ptr<const Step>> steps);
  void appendStep(std::shared_ptr<const Step> step);
  int stepCount() const { return model_->rowCount(); }
  int currentStep() const { return current_; }
  void setRunning(bool running);
  bool running() const { return running_; }

  StepsModel* model() const { return model_; }
  ChangedStepsFilter* filter() const { return filter_; }
  QTableView* table() const { return table_; }
  // At the bottom, a few read-only lines on what the current step's pass
  // does (pass_explanations.h); the "?" toggle shows or hides them.
  QTextBrowser* explanation() const { return explanation_; }
  void setExplanationShown(bool shown);
  bool explanationShown() const;
  TrafficChart* trafficChart() const { return traffic_; }
  void setHideNoOps(bool hide);

 public slots:
  // Selects step k, or when the filter hides it the nearest visible step
  // before it.
  void setCurrentStep(int k);
  void stepFirst();
  void stepBack();
  void stepForward();
  void stepLast();
  void requestRun();

 signals:
  void stepSelected(int k);
  void runRequested(QString pipeline, QStringList passes, QString device);
  void cancelRequested();

 private:
  std::vector<int> visibleSteps() const;
  void onRowChanged();
  void updateButtons();
  void updateExplanation();

  StepsModel* model_;
  ChangedStepsFilter* filter_;
  QComboBox* pipeline_combo_;
  QComboBox* device_combo_;
  QListWidget* pass_list_;
  QPushButton* run_button_;
  QPushButton* cancel_button_;
  QProgressBar* progress_;
  QLabel* status_;
  QCheckBox* hide_noops_;
  QTableView* table_;
  TrafficChart* traffic_;  // HBM traffic per step, under the table
  QToolButton *first_, *back_, *forward_, *last_;
  QTextBrowser* explanation_;  // the current step's pass explained
  QToolButton* explain_;       // shows / hides it
  int current_ = -1;
  bool running_ = false;
  bool updating_ = false;
};

}  // namespace hloscope::views
