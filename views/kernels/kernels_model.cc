#include "views/kernels/kernels_model.h"

#include <QFont>

#include "core/layout/palette.h"
#include "views/common/qt_palette.h"

namespace hloscope::views {

std::shared_ptr<const KernelListing> KernelListing::Make(std::shared_ptr<const codegen::CodegenResult> code) {
  auto l = std::make_shared<KernelListing>();
  if (code) l->entries = report::ListPlan(*code);
  if (code) {
    const DeviceSpec device = CurrentDevice();
    const std::vector<const runtime::KernelThunk*> thunks = runtime::AllKernels(code->plan);
    l->resources.reserve(l->entries.size());
    for (const report::PlanEntry& e : l->entries)
      l->resources.push_back(report::DescribeResources(*code, e, device, &thunks));
  }
  l->code = std::move(code);
  l->counts = report::CountPlan(l->entries);
  l->summary = report::PlanSummaryLine(l->counts);
  for (size_t i = 0; i < l->entries.size(); ++i) l->by_instruction_.emplace(l->entries[i].instruction, i);
  return l;
}

const report::PlanEntry* KernelListing::Find(const std::string& instruction) const {
  auto it = by_instruction_.find(instruction);
  return it == by_instruction_.end() ? nullptr : &entries[it->second];
}

const report::KernelResourceText* KernelListing::ResourcesOf(const report::PlanEntry* e) const {
  if (!e || entries.empty() || e < entries.data() || e >= entries.data() + entries.size()) return nullptr;
  const size_t i = static_cast<size_t>(e - entries.data());
  return i < resources.size() ? &resources[i] : nullptr;
}

QColor PlanEntryColor(report::PlanEntry::Kind k) {
  switch (k) {
    case report::PlanEntry::Kind::kMissing:
      return ToQColor(layout::kMissingKernelColor);
    case report::PlanEntry::Kind::kCustomCall:
      return ToQColor(layout::kExternalCallColor);
    default:
      return {};
  }
}

KernelsModel::KernelsModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelsModel::setListing(std::shared_ptr<const KernelListing> listing) {
  beginResetModel();
  listing_ = std::move(listing);
  endResetModel();
}

int KernelsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !listing_ ? 0 : static_cast<int>(listing_->entries.size());
}

int KernelsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant KernelsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !listing_) return {};
  const report::PlanEntry& e = listing_->entries[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case kIndex:
          return index.row() + 1;
        case kLaunch:
          return QString::fromStdString(e.name);
        case kInstruction:
          return QString::fromStdString(e.instruction);
        case kKind:
          return QString::fromLatin1(report::PlanEntryKindName(e.kind));
        case kRegisters: {
          const report::KernelResourceText* r = resourcesOf(index.row());
          if (!r || r->resources.empty()) return {};
          return r->spill_bytes ? QString("%1 (spills %2 B)").arg(r->registers).arg(r->spill_bytes)
                                : QString::number(r->registers);
        }
        case kOccupancy: {
          const report::KernelResourceText* r = resourcesOf(index.row());
          if (!r || r->resources.empty()) return {};
          return QString("%1/%2 warps").arg(r->active_warps).arg(r->max_warps) +
                 (r->active_warps < r->max_warps ? QString(" (%1)").arg(QString::fromStdString(r->limited_by))
                                                 : QString());
        }
        case kWhat:
          return QString::fromStdString(e.what);
        default:
          return {};
      }
      return {};
    case Qt::ToolTipRole: {
      const report::KernelResourceText* r = resourcesOf(index.row());
      std::string tip = "%" + e.instruction + ": " + e.what;
      if (r && !r->resources.empty()) tip += "\n" + r->resources + "\n" + r->occupancy + "\nSASS: " + r->sass;
      return QString::fromStdString(tip);
    }
    case Qt::ForegroundRole: {
      QColor c = PlanEntryColor(e.kind);
      return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::FontRole:
      if (e.kind == report::PlanEntry::Kind::kMissing && index.column() == kKind) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::TextAlignmentRole:
      return index.column() == kIndex || index.column() == kRegisters
                 ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                 : QVariant();
    case kInstructionRole:
      return QString::fromStdString(e.instruction);
    case kKindRole:
      return QString::fromLatin1(report::PlanEntryKindName(e.kind));
    default:
      return {};
  }
}

const report::KernelResourceText* KernelsModel::resourcesOf(int row) const {
  if (!listing_ || row < 0 || static_cast<size_t>(row) >= listing_->resources.size()) return nullptr;
  return &listing_->resources[static_cast<size_t>(row)];
}

QVariant KernelsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kIndex:
      return tr("#");
    case kLaunch:
      return tr("launch");
    case kInstruction:
      return tr("instruction");
    case kKind:
      return tr("kind");
    case kRegisters:
      return tr("registers");
    case kOccupancy:
      return tr("occupancy");
    case kWhat:
      return tr("what");
    default:
      return {};
  }
}

}  // namespace hloscope::views
