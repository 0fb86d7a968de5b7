// The kernel tab's data: one step's generated code and what its plan does —
// every kernel launch (with code, or missing and why) and every thunk that is
// not a kernel of ours (custom-calls into external targets, collectives, host
// transfers), as report::ListPlan lists them — and a table model over it.
// A KernelListing is built on the worker that generated the code and is
// immutable afterwards; the GUI only reads it.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/report/plan_listing.h"

namespace hloscope::views {

struct KernelListing {
  std::shared_ptr<const codegen::CodegenResult> code;
  std::vector<report::PlanEntry> entries;  // execution order
  report::PlanCounts counts;
  std::string summary;  // report::PlanSummaryLine(counts)
  // Per entry: ptxas's resources and the occupancy on the device current
  // when the listing was made (all "" without SASS).
  std::vector<report::KernelResourceText> resources;

  static std::shared_ptr<const KernelListing> Make(std::shared_ptr<const codegen::CodegenResult> code);
  // The first entry implementing `instruction`; null when it launches nothing.
  const report::PlanEntry* Find(const std::string& instruction) const;
  // The resources of an entry of `entries` (null when not one of them).
  const report::KernelResourceText* ResourcesOf(const report::PlanEntry* e) const;

 private:
  std::unordered_map<std::string, size_t> by_instruction_;
};

// The colour an entry kind is marked with (text and graph agree): missing
// kernels red, external custom-calls teal, others none (invalid QColor).
QColor PlanEntryColor(report::PlanEntry::Kind k);

class KernelsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kIndex, kLaunch, kInstruction, kKind, kRegisters, kOccupancy, kWhat, kColumnCount };
  static constexpr int kInstructionRole = Qt::UserRole + 1;  // QString: the HLO instruction's name
  static constexpr int kKindRole = Qt::UserRole + 2;         // QString: PlanEntryKindName

  explicit KernelsModel(QObject* parent = nullptr);

  void setListing(std::shared_ptr<const KernelListing> listing);  // null: empty
  const std::shared_ptr<const KernelListing>& listing() const { return listing_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const report::KernelResourceText* resourcesOf(int row) const;
  std::shared_ptr<const KernelListing> listing_;
};

}  // namespace hloscope::views
