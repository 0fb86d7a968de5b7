#include "views/decisions/decisions_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "views/common/release_off_thread.h"

namespace hloscope::views {
namespace {

QTableView* MakeTable(QAbstractItemModel* model) {
  auto* t = new QTableView;
  t->setModel(model);
  t->setSortingEnabled(true);
  t->sortByColumn(-1, Qt::AscendingOrder);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->verticalHeader()->setVisible(false);
  t->verticalHeader()->setDefaultSectionSize(20);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  t->horizontalHeader()->setStretchLastSection(false);
  // Column widths from the first rows: measuring thousands of XLA's rows would block the UI thread.
  t->horizontalHeader()->setResizeContentsPrecision(200);
  t->setWordWrap(false);
  return t;
}

// Columns fitted to their contents, at most 200 px; the `wide` ones (reasons) at most `wide_max`.
void FitColumns(QTableView* t, int columns, std::initializer_list<int> wide, int wide_max) {
  t->resizeColumnsToContents();
  for (int c = 0; c < columns; ++c)
    t->setColumnWidth(c, std::min(t->columnWidth(c),
                                  std::find(wide.begin(), wide.end(), c) != wide.end() ? wide_max : 200));
}

}  // namespace

DecisionsPanel::DecisionsPanel(QWidget* parent) : QWidget(parent) {
  model_ = new DecisionsModel(this);
  filter_ = new DecisionsFilter(this);
  filter_->setSourceModel(model_);
  diff_model_ = new DecisionsDiffModel(this);
  diff_filter_ = new QSortFilterProxyModel(this);
  diff_filter_->setSourceModel(diff_model_);
  diff_filter_->setFilterKeyColumn(-1);
  diff_filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  all_steps_ = new QCheckBox(tr("All steps"));
  vs_xla_ = new QCheckBox(tr("vs XLA"));
  vs_xla_->setObjectName("vs_xla");
  vs_xla_->setEnabled(false);
  vs_xla_->hide();
  verdict_ = new QComboBox;
  verdict_->addItem(tr("any verdict"), QString());
  for (FusionVerdict v : {FusionVerdict::kFused, FusionVerdict::kNotFused, FusionVerdict::kFusedWithDuplication,
                          FusionVerdict::kMerged})
    verdict_->addItem(QString::fromLatin1(FusionVerdictName(v)), QString::fromLatin1(FusionVerdictName(v)));
  text_ = new QLineEdit;
  text_->setPlaceholderText(tr("filter (name, pass, reason…)"));
  text_->setClearButtonEnabled(true);
  count_ = new QLabel;
  note_ = new QLabel;
  note_->setObjectName("decisions_note");
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // one line, clipped; the tooltip has it all
  note_->setStyleSheet("QLabel { color: #555; }");
  note_->hide();
  table_ = MakeTable(filter_);
  diff_table_ = MakeTable(diff_filter_);
  stack_ = new QStackedWidget;
  stack_->addWidget(table_);
  stack_->addWidget(diff_table_);
  auto* bar = new QHBoxLayout;
  bar->addWidget(all_steps_);
  bar->addWidget(vs_xla_);
  bar->addWidget(verdict_);
  bar->addWidget(text_, 1);
  bar->addWidget(count_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(bar);
  layout->addWidget(note_);
  layout->addWidget(stack_, 1);
  connect(all_steps_, &QCheckBox::toggled, this, [this] { refresh(); });
  connect(vs_xla_, &QCheckBox::toggled, this, [this](bool on) {
    stack_->setCurrentWidget(on ? diff_table_ : table_);
    all_steps_->setEnabled(!on);
    verdict_->setEnabled(!on);
    updateNote();
    updateCount();
  });
  connect(verdict_, &QComboBox::currentIndexChanged, this, [this] {
    filter_->setVerdict(verdict_->currentData().toString());
    updateCount();
  });
  connect(text_, &QLineEdit::textChanged, this, [this](const QString& t) {
    filter_->setText(t);
    diff_filter_->setFilterFixedString(t);
    updateCount();
  });
  for (QTableView* t : {table_, diff_table_}) {
    connect(t, &QTableView::clicked, this, [this](const QModelIndex& i) { activateRow(i.row()); });
    connect(t, &QTableView::activated, this, [this](const QModelIndex& i) { activateRow(i.row()); });
  }
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
  else updateNote();
}

void DecisionsPanel::setAllSteps(bool all) { all_steps_->setChecked(all); }

void DecisionsPanel::setVerdictFilter(const QString& verdict) {
  int i = verdict_->findData(verdict);
  if (i >= 0) verdict_->setCurrentIndex(i);
}

void DecisionsPanel::setTextFilter(const QString& text) { text_->setText(text); }

void DecisionsPanel::setXlaDecisions(std::shared_ptr<const XlaDecisions> xla) {
  if (xla == xla_) return;
  ReplaceOffThread(xla_, std::move(xla));
  refresh();
}

void DecisionsPanel::setNote(const QString& note) {
  note_text_ = note;
  updateNote();
}

QString DecisionsPanel::noteText() const { return note_->isHidden() ? QString() : note_->text(); }

void DecisionsPanel::setVsXla(std::shared_ptr<const DecisionsVsXla> diff, const QString& why) {
  diff_model_->setDiff(std::move(diff));
  vs_why_ = why;
  const bool have = diff_model_->diff() != nullptr;
  vs_xla_->setVisible(have || !why.isEmpty());
  vs_xla_->setEnabled(have);
  vs_xla_->setToolTip(have ? tr("Our priority fusion decisions against XLA GPU's, disagreements first") : why);
  if (!have && vs_xla_->isChecked()) vs_xla_->setChecked(false);
  if (have) FitColumns(diff_table_, DecisionsDiffModel::kColumnCount,
                       {DecisionsDiffModel::kOurReason, DecisionsDiffModel::kXlaReason}, 340);
  updateNote();
  updateCount();
}

bool DecisionsPanel::vsXlaAvailable() const { return diff_model_->diff() != nullptr; }

void DecisionsPanel::setVsXlaShown(bool on) { vs_xla_->setChecked(on && vsXlaAvailable()); }

bool DecisionsPanel::vsXlaShown() const { return vs_xla_->isChecked(); }

int DecisionsPanel::visibleRows() const { return vsXlaShown() ? diff_filter_->rowCount() : filter_->rowCount(); }

void DecisionsPanel::refresh() {
  model_->setSteps(steps_, all_steps_->isChecked() ? -1 : current_, xla_);
  FitColumns(table_, DecisionsModel::kColumnCount, {DecisionsModel::kReason}, 520);
  updateNote();
  updateCount();
}

void DecisionsPanel::updateCount() {
  const int total = vsXlaShown() ? diff_model_->rowCount() : model_->rowCount();
  count_->setText(tr("%1 of %2").arg(visibleRows()).arg(total));
}

void DecisionsPanel::updateNote() {
  QString text;
  if (vsXlaShown()) {
    const report::DecisionsDiff& d = *diff_model_->diff()->diff;
    text = tr("Ours (step %1, %2) vs XLA (%3): %4 producers — %5 disagree, %6 only ours, %7 only XLA, %8 agree")
               .arg(d.our_step)
               .arg(QString::fromStdString(d.our_pass), QString::fromStdString(d.xla_label))
               .arg(d.totals.producers)
               .arg(d.totals.disagree)
               .arg(d.totals.only_ours)
               .arg(d.totals.only_xla)
               .arg(d.totals.agree);
  } else if (!note_text_.isEmpty()) {
    text = note_text_;
  } else if (xla_) {
    if (xla_->step < 0)
      text = tr("XLA's decisions were read (%1), but no step of this run is priority fusion's output file")
                 .arg(QString::fromStdString(xla_->pf->log.origin));
    else if (all_steps_->isChecked() || current_ == xla_->step)
      text = xla_->summary;
    else
      text = tr("XLA's own priority fusion decisions are at step %1 (%2)")
                 .arg(xla_->step)
                 .arg(QString::fromStdString(xla_->step_label));
  } else if (!vsXlaAvailable() && !vs_why_.isEmpty()) {
    text = vs_why_;
  }
  note_->setText(text);
  note_->setToolTip(text);
  note_->setVisible(!text.isEmpty());
}

void DecisionsPanel::activateRow(int visible_row) {
  if (vsXlaShown()) {
    QModelIndex proxy = diff_filter_->index(visible_row, 0);
    if (!proxy.isValid()) return;
    diff_table_->selectRow(visible_row);
    const qint64 id = diff_filter_->data(proxy, DecisionsDiffModel::kProducerIdRole).toLongLong();
    if (id >= 0) emit producerSelected(id, {});
    return;
  }
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
