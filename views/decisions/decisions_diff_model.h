// Our priority fusion decisions against XLA GPU's (the decisions panel's
// "vs XLA" rows): one row per producer either side decided, in
// DiffDecisions' order (disagreements, then one side only, then
// agreements), with both verdicts, reasons and cost estimates.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "views/decisions/xla_decisions.h"

namespace hloscope::views {

class DecisionsDiffModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kProducer, kAgreement, kOurVerdict, kOurReason, kOurUnfused, kOurFused,
    kXlaVerdict, kXlaReason, kXlaUnfused, kXlaFused, kXlaProducer, kMatch, kColumnCount
  };
  static constexpr int kProducerIdRole = Qt::UserRole + 1;  // our producer's id (-1: only XLA's)
  static constexpr int kAgreementRole = Qt::UserRole + 4;   // "disagree", "only ours", "only XLA", "agree"

  explicit DecisionsDiffModel(QObject* parent = nullptr);

  void setDiff(std::shared_ptr<const DecisionsVsXla> diff);
  const std::shared_ptr<const DecisionsVsXla>& diff() const { return diff_; }
  const report::ProducerDiff* row(int r) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const DecisionsVsXla> diff_;
};

// "disagree", "only ours", "only XLA" or "agree".
QString AgreementName(const report::ProducerDiff& p);

}  // namespace hloscope::views
