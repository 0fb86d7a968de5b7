#include "views/decisions/decisions_diff_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace hloscope::views {
namespace {

QString Us(const report::DecisionSide& s, bool fused) {
  if (!s.present || !s.has_cost) return QStringLiteral("–");
  const double v = fused ? s.us_fused : s.us_unfused;
  return v < 0 ? QStringLiteral("–") : QString::number(v, 'f', 3);
}

QColor VerdictColor(const report::DecisionSide& s) {
  return QColor(s.verdict == "fused" ? "#2e7d32" : "#c62828");
}

}  // namespace

QString AgreementName(const report::ProducerDiff& p) {
  if (p.ours.present && p.xla.present) return p.agree ? QStringLiteral("agree") : QStringLiteral("disagree");
  return p.ours.present ? QStringLiteral("only ours") : QStringLiteral("only XLA");
}

DecisionsDiffModel::DecisionsDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void DecisionsDiffModel::setDiff(std::shared_ptr<const DecisionsVsXla> diff) {
  beginResetModel();
  diff_ = std::move(diff);
  endResetModel();
}

const report::ProducerDiff* DecisionsDiffModel::row(int r) const {
  return r >= 0 && r < rowCount() ? &diff_->diff->producers[static_cast<size_t>(r)] : nullptr;
}

int DecisionsDiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !diff_ ? 0 : static_cast<int>(diff_->diff->producers.size());
}

int DecisionsDiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant DecisionsDiffModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= kColumnCount) return {};
  const report::ProducerDiff& p = *row(index.row());
  const int c = index.column();
  switch (role) {
    case kProducerIdRole:
      return QVariant::fromValue<qint64>(static_cast<size_t>(index.row()) < diff_->ids.size()
                                             ? diff_->ids[static_cast<size_t>(index.row())]
                                             : -1);
    case kAgreementRole: return AgreementName(p);
    case Qt::ForegroundRole:
      if (c == kOurVerdict && p.ours.present) return QBrush(VerdictColor(p.ours));
      if (c == kXlaVerdict && p.xla.present) return QBrush(VerdictColor(p.xla));
      if (c == kAgreement && !p.agree) return QBrush(QColor(p.ours.present && p.xla.present ? "#c62828" : "#777777"));
      return {};
    case Qt::FontRole:
      if (c == kAgreement && p.ours.present && p.xla.present && !p.agree) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      if (c == kOurReason || c == kOurVerdict) return QString::fromStdString(p.ours.reason);
      if (c == kXlaReason || c == kXlaVerdict) return QString::fromStdString(p.xla.reason);
      if (c == kMatch) return QString::fromStdString(p.match);
      return {};
    case Qt::TextAlignmentRole:
      if (c == kOurUnfused || c == kOurFused || c == kXlaUnfused || c == kXlaFused)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::DisplayRole: break;
    default: return {};
  }
  auto side = [](const report::DecisionSide& s, const std::string& v) {
    return s.present ? QString::fromStdString(v) : QStringLiteral("–");
  };
  switch (c) {
    case kProducer: return QString::fromStdString(p.producer);
    case kAgreement: return AgreementName(p);
    case kOurVerdict: return side(p.ours, p.ours.verdict);
    case kOurReason: return side(p.ours, p.ours.reason);
    case kOurUnfused: return Us(p.ours, false);
    case kOurFused: return Us(p.ours, true);
    case kXlaVerdict: return side(p.xla, p.xla.verdict);
    case kXlaReason: return side(p.xla, p.xla.reason);
    case kXlaUnfused: return Us(p.xla, false);
    case kXlaFused: return Us(p.xla, true);
    case kXlaProducer: return side(p.xla, p.xla.producer);
    case kMatch: return QString::fromStdString(p.match);
  }
  return {};
}

QVariant DecisionsDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  static const char* names[] = {"producer",      "vs XLA",     "our verdict", "our reason",
                                "our µs unfused", "our µs fused", "XLA verdict", "XLA reason",
                                "XLA µs unfused", "XLA µs fused", "XLA producer", "matched by"};
  return section >= 0 && section < kColumnCount ? QString::fromUtf8(names[section]) : QVariant();
}

}  // namespace hloscope::views
