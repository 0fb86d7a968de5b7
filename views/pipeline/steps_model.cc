#include "views/pipeline/steps_model.h"

#include <QBrush>
#include <QColor>
#include <cstdlib>

#include "core/passes/pass_explanations.h"

namespace hloscope::views {

QString SignedCount(long long delta) {
  if (delta == 0) return QStringLiteral("0");
  return (delta > 0 ? QStringLiteral("+") : QStringLiteral("−")) + QString::number(std::llabs(delta));
}

QString HumanBytes(long long bytes) {
  const double b = static_cast<double>(std::llabs(bytes));
  QString s;
  if (b >= 1e9) s = QString::number(b / 1e9, 'f', 2) + " GB";
  else if (b >= 1e6) s = QString::number(b / 1e6, 'f', 2) + " MB";
  else if (b >= 1e3) s = QString::number(b / 1e3, 'f', 1) + " kB";
  else s = QString::number(static_cast<long long>(b)) + " B";
  return bytes < 0 ? "−" + s : s;
}

QString SignedBytes(long long delta) {
  if (delta == 0) return QStringLiteral("0");
  return (delta > 0 ? QStringLiteral("+") : QString()) + HumanBytes(delta);
}

QString PassExplanationText(std::string_view pass) {
  if (pass == "input") return QStringLiteral("The module as it was loaded, before any pass ran.");
  if (pass == "stablehlo→hlo")
    return QStringLiteral("The StableHLO module converted to HLO, before any pass ran: each StableHLO op became "
                          "the HLO instruction (or the few) that computes the same thing.");
  const std::string_view text = PassExplanation(pass);
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

StepsModel::StepsModel(QObject* parent) : QAbstractTableModel(parent) {}

void StepsModel::setSteps(std::vector<std::shared_ptr<const Step>> steps) {
  beginResetModel();
  steps_ = std::move(steps);
  endResetModel();
}

void StepsModel::appendStep(std::shared_ptr<const Step> step) {
  const int row = static_cast<int>(steps_.size());
  beginInsertRows({}, row, row);
  steps_.push_back(std::move(step));
  endInsertRows();
}

void StepsModel::clear() { setSteps({}); }

int StepsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(steps_.size());
}

int StepsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant StepsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= kColumnCount) return {};
  const Step& s = *steps_[index.row()];
  const Step* prev = index.row() > 0 ? steps_[index.row() - 1].get() : nullptr;
  if (role == kStepIndexRole) return index.row();
  if (role == kChangedRole) return s.changed;
  if (role == Qt::ToolTipRole) {
    QString tip = QString::fromStdString(s.pass);
    if (!s.group.empty()) tip += " (in " + QString::fromStdString(s.group) + ")";
    tip += QString("\n%1 instructions, %2 kernels, %3 HBM, est. %4 µs")
               .arg(s.instructions)
               .arg(s.cost.kernels)
               .arg(HumanBytes(s.cost.hbm_bytes))
               .arg(s.cost.est_us, 0, 'f', 2);
    for (const auto& [k, v] : s.stats) tip += QString("\n%1: %2").arg(QString::fromStdString(k)).arg(v);
    if (!s.decisions.empty()) tip += QString("\n%1 fusion decisions").arg(s.decisions.size());
    // The pass cell also teaches: the pass's paragraph (pass_explanations.h),
    // as rich text so that the tooltip wraps.
    const QString text = PassExplanationText(s.pass);
    if (index.column() == kPass && !text.isEmpty())
      return "<p>" + tip.toHtmlEscaped().replace('\n', "<br>") + "</p><p>" + text.toHtmlEscaped() + "</p>";
    return tip;
  }
  if (role == Qt::ForegroundRole && !s.changed && index.row() > 0) return QBrush(QColor("#888888"));
  if (role == Qt::TextAlignmentRole && index.column() != kPass)
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kIndex: return s.index;  // the step number --step takes (0 = the input)
    case kPass: return QString::fromStdString(s.pass);
    case kIteration: return s.group.empty() ? QString() : QString::number(s.iteration);
    case kChanged: return s.changed ? QStringLiteral("yes") : QStringLiteral("–");
    case kDeltaInstructions: return prev ? SignedCount(s.instructions - prev->instructions) : QString::number(s.instructions);
    case kDeltaKernels: return prev ? SignedCount(s.cost.kernels - prev->cost.kernels) : QString::number(s.cost.kernels);
    case kDeltaHbm: return prev ? SignedBytes(s.cost.hbm_bytes - prev->cost.hbm_bytes) : HumanBytes(s.cost.hbm_bytes);
    case kMs: return QString::number(s.ms, 'f', 2);
  }
  return {};
}

QVariant StepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == kIndex)
    return QStringLiteral("step number: 0 is the input, 1, 2, 3... the pass runs in order\n"
                          "(as hloscope --step, hloscope-cli export-graph --step, explain and reports number them)");
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kIndex: return QStringLiteral("#");
    case kPass: return QStringLiteral("pass");
    case kIteration: return QStringLiteral("iter");
    case kChanged: return QStringLiteral("changed");
    case kDeltaInstructions: return QStringLiteral("Δinstr");
    case kDeltaKernels: return QStringLiteral("Δkernels");
    case kDeltaHbm: return QStringLiteral("ΔHBM");
    case kMs: return QStringLiteral("ms");
  }
  return {};
}

void ChangedStepsFilter::setHideNoOps(bool hide) {
  if (hide == hide_) return;
  hide_ = hide;
  invalidateFilter();
}

bool ChangedStepsFilter::filterAcceptsRow(int row, const QModelIndex& parent) const {
  if (!hide_ || row == 0) return true;
  QModelIndex i = sourceModel()->index(row, 0, parent);
  return sourceModel()->data(i, StepsModel::kChangedRole).toBool();
}

}  // namespace hloscope::views
