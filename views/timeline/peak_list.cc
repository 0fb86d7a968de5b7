#include "views/timeline/peak_list.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/memory/peak_buffers.h"
#include "views/common/ui_timer.h"
#include "views/pipeline/steps_model.h"

namespace hloscope::views {

void PeakBuffersModel::setRows(std::vector<Row> rows, int64_t peak_bytes) {
  beginResetModel();
  rows_ = std::move(rows);
  total_ = 0;
  for (const Row& r : rows_) total_ += r.bytes;
  peak_ = peak_bytes;
  endResetModel();
}

int PeakBuffersModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PeakBuffersModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumns; }

QVariant PeakBuffersModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
  const Row& r = rows_[static_cast<size_t>(index.row())];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kSize: return HumanBytes(r.bytes);
      case kShare: return peak_ > 0 ? QString::number(100.0 * double(r.bytes) / double(peak_), 'f', 1) + "%" : QString();
      case kInstruction: return r.sharing > 0 ? tr("%1 (+%2 in place)").arg(r.instruction).arg(r.sharing) : r.instruction;
      case kShape: return r.shape;
      case kLive: return tr("%1–%2").arg(r.start).arg(r.end);
    }
  }
  if (role == Qt::TextAlignmentRole && (index.column() == kSize || index.column() == kShare || index.column() == kLive))
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole)
    return tr("<b>%1</b><br><code>%2</code><br>%3 bytes, live at positions %4–%5 (%6 positions)%7")
        .arg(r.instruction.toHtmlEscaped(), r.shape.toHtmlEscaped())
        .arg(r.bytes)
        .arg(r.start)
        .arg(r.end)
        .arg(r.end - r.start + 1)
        .arg(r.sharing > 0 ? tr("<br>shares its bytes with %1 other buffer(s) updated in place").arg(r.sharing)
                           : QString());
  if (role == Qt::UserRole) return QVariant::fromValue<qlonglong>(r.instruction_id);
  return {};
}

QVariant PeakBuffersModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kSize: return tr("size");
    case kShare: return tr("of peak");
    case kInstruction: return tr("defined by");
    case kShape: return tr("shape");
    case kLive: return tr("live");
  }
  return {};
}

PeakList::PeakList(QWidget* parent) : QWidget(parent) {
  model_ = new PeakBuffersModel(this);
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  QFont small = title_->font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1));
  title_->setFont(small);
  table_ = new QTableView(this);
  table_->setObjectName("peak_buffers");
  table_->setModel(model_);
  table_->setFont(small);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(false);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(QFontMetrics(small).height() + 4);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->setColumnWidth(PeakBuffersModel::kSize, 74);
  table_->setColumnWidth(PeakBuffersModel::kShare, 50);
  table_->setColumnWidth(PeakBuffersModel::kInstruction, 160);
  table_->setColumnWidth(PeakBuffersModel::kLive, 80);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(title_);
  layout->addWidget(table_, 1);
  connect(table_, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
    if (!index.isValid()) return;
    const int64_t id = model_->row(index.row()).instruction_id;
    if (id >= 0) emit instructionSelected(id);
  });
  connect(table_, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
    if (!index.isValid()) return;
    const int64_t id = model_->row(index.row()).instruction_id;
    if (id >= 0) emit instructionSelected(id);
  });
  setAssignment(nullptr, {});
}

void PeakList::setAssignment(std::shared_ptr<const BufferAssignment> ba, const std::function<int64_t(int)>& id_of) {
  UiTimer ui_timer("peak list: setAssignment");
  std::vector<PeakBuffersModel::Row> rows;
  position_ = -1;
  if (!ba || ba->live_bytes.empty()) {
    model_->setRows({}, 0);
    title_->setText(ba ? tr("<b>Buffers live at the peak</b>: no temporaries in this step.")
                       : tr("<b>Buffers live at the peak</b>: no buffer assignment yet."));
    return;
  }
  const LiveSet live = BuffersLiveAtPeak(*ba);
  position_ = live.position;
  rows.reserve(live.entries.size());
  for (const LiveBuffer& e : live.entries) {
    const AssignedBuffer& b = ba->buffers[static_cast<size_t>(e.buffer)];
    PeakBuffersModel::Row r;
    r.buffer = e.buffer;
    r.instruction_id = id_of ? id_of(e.buffer) : -1;
    QString index;
    for (int64_t x : b.index) index += (index.isEmpty() ? "" : ",") + QString::number(x);
    r.instruction = QString::fromStdString(b.instruction) + (index.isEmpty() ? QString() : " {" + index + "}");
    r.shape = QString::fromStdString(b.shape);
    r.bytes = e.bytes;
    r.start = e.start;
    r.end = e.end;
    r.sharing = e.sharing;
    rows.push_back(std::move(r));
  }
  model_->setRows(std::move(rows), live.bytes);
  const QString at = position_ >= 0 && position_ < static_cast<int64_t>(ba->sequence.size())
                         ? QString::fromStdString(ba->sequence[static_cast<size_t>(position_)])
                         : QString();
  title_->setText(tr("<b>Buffers live at the peak</b>: %1 temporaries, %2 at position %3%4 (packed heap %5)")
                      .arg(model_->rowCount())
                      .arg(HumanBytes(live.bytes))
                      .arg(position_)
                      .arg(at.isEmpty() ? QString() : " (" + at.toHtmlEscaped() + ")")
                      .arg(HumanBytes(ba->peak_bytes)));
}

QString PeakList::title() const { return title_->text(); }

std::vector<int> PeakList::rowsOf(int64_t id) const {
  std::vector<int> rows;
  if (id < 0) return rows;
  for (int r = 0; r < model_->rowCount(); ++r)
    if (model_->row(r).instruction_id == id) rows.push_back(r);
  return rows;
}

void PeakList::selectInstruction(int64_t id) {
  QItemSelectionModel* sel = table_->selectionModel();
  const std::vector<int> rows = rowsOf(id);
  QItemSelection selection;
  for (int r : rows) selection.select(model_->index(r, 0), model_->index(r, PeakBuffersModel::kColumns - 1));
  sel->select(selection, QItemSelectionModel::ClearAndSelect);
  if (!rows.empty()) table_->scrollTo(model_->index(rows.front(), 0));
}

}  // namespace hloscope::views
