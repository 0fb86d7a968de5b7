// Fusion decisions as a table (pass, producer, consumers, verdict, reason,
// Δbytes, Δµs, µs unfused, µs fused) for one step or for every step of a
// run — on an XLA dump run with XLA's own decisions at its priority fusion
// step (xla_decisions.h) — and a proxy that filters by verdict and by text.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <memory>
#include <vector>

#include "core/passes/step_recorder.h"
#include "views/decisions/xla_decisions.h"

namespace hloscope::views {

class DecisionsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kStep, kPass, kProducer, kConsumers, kVerdict, kReason, kDeltaBytes, kDeltaUs, kUsBefore, kUsAfter,
    kColumnCount
  };
  static constexpr int kProducerIdRole = Qt::UserRole + 1;
  static constexpr int kConsumerIdsRole = Qt::UserRole + 2;  // QVariantList of qint64
  static constexpr int kVerdictRole = Qt::UserRole + 3;      // FusionVerdictName
  // The arithmetic behind the row's cost numbers (cost_arithmetic.h); ""
  // for XLA's rows. Also in the reason, verdict and cost columns' tooltips.
  static constexpr int kArithmeticRole = Qt::UserRole + 4;

  explicit DecisionsModel(QObject* parent = nullptr);

  // The decisions of `steps[step]`, or of every step when `step` < 0; with
  // XLA's (after the step's own) at `xla->step`.
  void setSteps(std::vector<std::shared_ptr<const Step>> steps, int step,
                std::shared_ptr<const XlaDecisions> xla = nullptr);
  const FusionDecision* decision(int row) const;
  int stepOf(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    int step;
    const FusionDecision* decision;
    bool costed;  // false: an XLA decision without XLA's cost numbers
    bool xla;     // XLA's decision (no byte counts)
  };
  std::vector<std::shared_ptr<const Step>> steps_;
  std::shared_ptr<const XlaDecisions> xla_;
  std::vector<Row> rows_;
};

class DecisionsFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  void setVerdict(const QString& verdict);  // "" = all
  void setText(const QString& text);        // case-insensitive, any column

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  QString verdict_, text_;
};

}  // namespace hloscope::views
