#include "views/decisions/decisions_model.h"

#include <QBrush>
#include <QColor>

#include "core/passes/cost_arithmetic.h"

namespace hloscope::views {

DecisionsModel::DecisionsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DecisionsModel::setSteps(std::vector<std::shared_ptr<const Step>> steps, int step,
                              std::shared_ptr<const XlaDecisions> xla) {
  beginResetModel();
  steps_ = std::move(steps);
  xla_ = std::move(xla);
  rows_.clear();
  for (int k = 0; k < static_cast<int>(steps_.size()); ++k) {
    if (step >= 0 && k != step) continue;
    for (const FusionDecision& d : steps_[k]->decisions) rows_.push_back({k, &d, true, false});
    if (xla_ && xla_->step == k)
      for (size_t i = 0; i < xla_->decisions.size(); ++i)
        rows_.push_back({k, &xla_->decisions[i], i < xla_->costed.size() && xla_->costed[i], true});
  }
  endResetModel();
}

const FusionDecision* DecisionsModel::decision(int row) const {
  return row >= 0 && row < static_cast<int>(rows_.size()) ? rows_[row].decision : nullptr;
}

int DecisionsModel::stepOf(int row) const {
  return row >= 0 && row < static_cast<int>(rows_.size()) ? rows_[row].step : -1;
}

int DecisionsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DecisionsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant DecisionsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= kColumnCount) return {};
  const Row& row = rows_[index.row()];
  const FusionDecision& d = *row.decision;
  auto us = [&row](double v) { return row.costed ? QString::number(v, 'f', 3) : QStringLiteral("–"); };
  switch (role) {
    case kProducerIdRole: return QVariant::fromValue<qint64>(d.producer_id);
    case kConsumerIdsRole: {
      QVariantList ids;
      for (int64_t c : d.consumer_ids) ids << QVariant::fromValue<qint64>(c);
      return ids;
    }
    case kVerdictRole: return QString::fromLatin1(FusionVerdictName(d.verdict));
    case Qt::ForegroundRole:
      if (index.column() == kVerdict)
        return QBrush(QColor(d.verdict == FusionVerdict::kNotFused ? "#c62828" : "#2e7d32"));
      return {};
    case Qt::ToolTipRole: {
      // The reason, and the arithmetic behind the cost numbers (HBM bytes
      // at the device's bandwidth plus launches) on the reason, verdict and
      // cost columns; rich text so that the tooltip wraps.
      const QString arithmetic = row.xla ? QString() : QString::fromStdString(CostArithmetic(d));
      const bool cost_column = index.column() >= kDeltaBytes;
      if (index.column() == kReason || index.column() == kVerdict || (cost_column && !arithmetic.isEmpty())) {
        QString tip = cost_column ? QString() : "<p>" + QString::fromStdString(d.reason).toHtmlEscaped() + "</p>";
        if (!arithmetic.isEmpty()) tip += "<p>" + arithmetic.toHtmlEscaped() + "</p>";
        return tip;
      }
      if (!d.result.empty()) return QString("→ %1").arg(QString::fromStdString(d.result));
      return {};
    }
    case kArithmeticRole: return row.xla ? QString() : QString::fromStdString(CostArithmetic(d));
    case Qt::TextAlignmentRole:
      if (index.column() == kStep || index.column() >= kDeltaBytes)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::DisplayRole: break;
    default: return {};
  }
  switch (index.column()) {
    case kStep: return row.step;
    case kPass: return QString::fromStdString(d.pass);
    case kProducer: return QString::fromStdString(d.producer);
    case kConsumers: {
      QStringList c;
      for (const auto& s : d.consumers) c << QString::fromStdString(s);
      return c.join(", ");
    }
    case kVerdict: return QString::fromLatin1(FusionVerdictName(d.verdict));
    case kReason: return QString::fromStdString(d.reason);
    case kDeltaBytes:
      if (row.xla) return QStringLiteral("–");
      return static_cast<qlonglong>(d.bytes_after - d.bytes_before);
    case kDeltaUs: return us(d.us_after - d.us_before);
    case kUsBefore: return us(d.us_before);
    case kUsAfter: return us(d.us_after);
  }
  return {};
}

QVariant DecisionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && (section == kUsBefore || section == kUsAfter))
    return tr("The cost model's estimate without and with the fusion (XLA's rows: us_unfused and us_fused of "
              "its last update_priority for the producer)");
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  static const char* names[] = {"step",   "pass", "producer",   "consumers", "verdict",
                                "reason", "Δbytes", "Δµs", "µs unfused", "µs fused"};
  return section >= 0 && section < kColumnCount ? QString::fromUtf8(names[section]) : QVariant();
}

void DecisionsFilter::setVerdict(const QString& verdict) {
  verdict_ = verdict;
  invalidateFilter();
}

void DecisionsFilter::setText(const QString& text) {
  text_ = text;
  invalidateFilter();
}

bool DecisionsFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
  QAbstractItemModel* m = sourceModel();
  if (!verdict_.isEmpty() && m->data(m->index(row, 0, parent), DecisionsModel::kVerdictRole).toString() != verdict_)
    return false;
  if (text_.isEmpty()) return true;
  for (int c = 0; c < m->columnCount(parent); ++c)
    if (m->data(m->index(row, c, parent)).toString().contains(text_, Qt::CaseInsensitive)) return true;
  return false;
}

}  // namespace hloscope::views
