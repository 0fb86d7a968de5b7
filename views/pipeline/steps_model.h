// The recorded steps of a pipeline run as a table (pass, iteration, changed,
// Δinstructions, Δkernels, ΔHBM bytes, ms), each delta against the previous
// step, and a proxy that hides steps whose pass changed nothing.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <memory>
#include <string_view>
#include <vector>

#include "core/passes/step_recorder.h"

namespace hloscope::views {

class StepsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kIndex, kPass, kIteration, kChanged, kDeltaInstructions, kDeltaKernels, kDeltaHbm, kMs, kColumnCount };
  static constexpr int kStepIndexRole = Qt::UserRole + 1;
  static constexpr int kChangedRole = Qt::UserRole + 2;

  explicit StepsModel(QObject* parent = nullptr);

  void setSteps(std::vector<std::shared_ptr<const Step>> steps);
  // Adds one step (while a run is in progress).
  void appendStep(std::shared_ptr<const Step> step);
  void clear();
  const std::vector<std::shared_ptr<const Step>>& steps() const { return steps_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<std::shared_ptr<const Step>> steps_;
};

// Hides no-op steps (the input step always shows).
class ChangedStepsFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void setHideNoOps(bool hide);
  bool hideNoOps() const { return hide_; }

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  bool hide_ = false;
};

// The teaching paragraph of a step's pass (pass_explanations.h), with a
// sentence for the input step; "" for a pass without one.
QString PassExplanationText(std::string_view pass);

// "+12", "−3", "0"; bytes as "+1.5 MB".
QString SignedCount(long long delta);
QString SignedBytes(long long delta);
QString HumanBytes(long long bytes);

}  // namespace hloscope::views
