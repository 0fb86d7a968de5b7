#include "views/decisions/decisions_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace hloscope::views {

DecisionsPanel::DecisionsPanel(QWidget* parent) : QWidget(parent) {
  model_ = new DecisionsModel(this);
  filter_ = new DecisionsFilter(this);
  filter_->setSourceModel(model_);
  all_steps_ = new QCheckBox(tr("All steps"));
  verdict_ = new QComboBox;
  verdict_->addItem(tr("any verdict"), QString());
  for (FusionVerdict v : {FusionVerdict::kFused, FusionVerdict::kNotFused, FusionVerdict::kFusedWithDuplication,
                          FusionVerdict::kMerged})
    verdict_->addItem(QString::fromLatin1(FusionVerdictName(v)), QString::fromLatin1(FusionVerdictName(v)));
  text_ = new QLineEdit;
  text_->setPlaceholderText(tr("filter (name, pass, reason…)"));
  text_->setClearButtonEnabled(true);
  count_ = new QLabel;
  table_ = new QTableView;
  table_->setModel(filter_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(20);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->setWordWrap(false);
  auto* bar = new QHBoxLayout;
  bar->addWidget(all_steps_);
  bar->addWidget(verdict_);
  bar->addWidget(text_, 1);
  bar->addWidget(count_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(table_, 1);
  connect(all_steps_, &QCheckBox::toggled, this, [this] { refresh(); });
  connect(verdict_, &QComboBox::currentIndexChanged, this, [this] {
    filter_->setVerdict(verdict_->currentData().toString());
    count_->setText(tr("%1 of %2").arg(visibleRows()).arg(model_->rowCount()));
  });
  connect(text_, &QLineEdit::textChanged, this, [this](const QString& t) {
    filter_->setText(t);
    count_->setText(tr("%1 of %2").arg(visibleRows()).arg(model_->rowCount()));
  });
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) { activateRow(i.row()); });
  connect(table_, &QTableView::activated, this, [this](const QModelIndex& i) { activateRow(i.row()); });
}

void DecisionsPanel::setSteps(std::vector<std::shared_ptr<const Step>> steps, int current) {
  steps_ = std::move(steps);
  current_ = current;
  refresh();
}

void DecisionsPanel::setCurrentStep(int k) {
  if (k == current_) return;
  current_ = k;
  if (!all_steps_->isChecked()) refresh();
}

void DecisionsPanel::setAllSteps(bool all) { all_steps_->setChecked(all); }

void DecisionsPanel::setVerdictFilter(const QString& verdict) {
  int i = verdict_->findData(verdict);
  if (i >= 0) verdict_->setCurrentIndex(i);
}

void DecisionsPanel::setTextFilter(const QString& text) { text_->setText(text); }

int DecisionsPanel::visibleRows() const { return filter_->rowCount(); }

void DecisionsPanel::refresh() {
  model_->setSteps(steps_, all_steps_->isChecked() ? -1 : current_);
  table_->resizeColumnsToContents();
  for (int c = 0; c < DecisionsModel::kColumnCount; ++c)
    table_->setColumnWidth(c, std::min(table_->columnWidth(c), c == DecisionsModel::kReason ? 520 : 200));
  count_->setText(tr("%1 of %2").arg(visibleRows()).arg(model_->rowCount()));
}

void DecisionsPanel::activateRow(int visible_row) {
  QModelIndex proxy = filter_->index(visible_row, 0);
  if (!proxy.isValid()) return;
  table_->selectRow(visible_row);
  QModelIndex src = filter_->mapToSource(proxy);
  qint64 producer = model_->data(src, DecisionsModel::kProducerIdRole).toLongLong();
  QList<qint64> consumers;
  for (const QVariant& v : model_->data(src, DecisionsModel::kConsumerIdsRole).toList()) consumers << v.toLongLong();
  emit producerSelected(producer, consumers);
}

}  // namespace hloscope::views
