// The "Compare with…" view: two modules side by side — typically a step of
// our pipeline (A, left) and XLA's own optimized module of the same program
// (B, right) — with core/report/compare's result: a summary (kernels, HBM
// bytes, estimated time, matched instructions per side), both graphs with
// the differences highlighted (instructions with no counterpart; fusions
// grouped differently on the other side), selection synced through the
// matches, and a table of the fusion groupings that differ.
#pragma once

#include <QString>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/report/compare.h"
#include "core/session/session.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace hloscope::views {

class GraphView;

struct CompareSideInput {
  QString label;
  std::shared_ptr<const PipelineRun> run;  // the side's steps
  int step = 0;                            // the step compared
  std::shared_ptr<const Module> module;    // run->ModuleAt(step)
};

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  void setComparison(CompareSideInput a, CompareSideInput b, std::shared_ptr<const report::CompareResult> result);

  GraphView* left() const { return left_; }
  GraphView* right() const { return right_; }
  QTreeWidget* differences() const { return table_; }
  QString summaryText() const;
  const report::CompareResult* result() const { return result_.get(); }
  const CompareSideInput& side(int s) const { return side_[s]; }
  // Ids highlighted on a side (0 = A, 1 = B): no counterpart / grouped differently.
  const std::vector<int64_t>& unmatched(int side) const { return unmatched_[side]; }
  const std::vector<int64_t>& regrouped(int side) const { return regrouped_[side]; }

  // Selects `name` on one side (0 = A, 1 = B) and its counterpart on the
  // other; false when `name` is not an instruction of that side.
  bool selectByName(int side, const std::string& name);
  // The instruction selected on a side, or -1.
  int64_t selected(int side) const;

 private:
  void syncFrom(int side, int64_t id);
  void buildTable();
  void rowActivated(QTreeWidgetItem* item);
  std::string counterpart(int side, const std::string& name) const;

  QLabel* summary_;
  GraphView* left_;
  GraphView* right_;
  QTreeWidget* table_;
  CompareSideInput side_[2];
  std::shared_ptr<const report::CompareResult> result_;
  std::unordered_map<std::string, std::string> to_other_[2];  // matched names, A→B and B→A
  std::vector<int64_t> unmatched_[2], regrouped_[2];
  bool syncing_ = false;
};

}  // namespace hloscope::views
