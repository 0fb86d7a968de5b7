// "Buffers live at the peak", as XProf's memory viewer lists them: the temp
// heap's buffers live at the position where the most temp bytes are live,
// largest first, with their size, share of the peak, defining instruction,
// lifetime (first–last schedule position) and shape. A click on a row emits
// instructionSelected; selecting an instruction elsewhere selects its rows.
// The set is computed in one pass over the buffers (core/memory/
// peak_buffers.h); rows hold copies, so the model never points into an
// assignment that was replaced.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/memory/buffer_assignment.h"

class QLabel;
class QTableView;

namespace hloscope::views {

class PeakBuffersModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kSize, kShare, kInstruction, kLive, kShape, kColumns };
  struct Row {
    int buffer = 0;              // index into the assignment's buffers
    int64_t instruction_id = -1; // stable id (the graph's), -1 if unknown
    QString instruction, shape;
    int64_t bytes = 0;           // aligned storage bytes, as live_bytes counts them
    int64_t start = 0, end = 0;  // the storage's live range
    int sharing = 0;             // other buffers in the same storage
  };

  using QAbstractTableModel::QAbstractTableModel;
  void setRows(std::vector<Row> rows, int64_t peak_bytes);
  const Row& row(int r) const { return rows_[static_cast<size_t>(r)]; }
  int64_t totalBytes() const { return total_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  std::vector<Row> rows_;
  int64_t total_ = 0, peak_ = 0;
};

class PeakList : public QWidget {
  Q_OBJECT

 public:
  explicit PeakList(QWidget* parent = nullptr);

  // `id_of(buffer)`: the stable id of a buffer's defining instruction, or -1.
  void setAssignment(std::shared_ptr<const BufferAssignment> ba, const std::function<int64_t(int)>& id_of);
  void selectInstruction(int64_t id);
  // Rows of `id`'s buffers (what selectInstruction selects).
  std::vector<int> rowsOf(int64_t id) const;
  int64_t peakPosition() const { return position_; }

  PeakBuffersModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString title() const;

  QSize sizeHint() const override { return {420, 260}; }

 signals:
  void instructionSelected(qint64 id);

 private:
  PeakBuffersModel* model_;
  QTableView* table_;
  QLabel* title_;
  int64_t position_ = -1;
};

}  // namespace hloscope::views
