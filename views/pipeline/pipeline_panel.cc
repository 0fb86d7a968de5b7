#include "views/pipeline/pipeline_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QStyle>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/cost/device.h"
#include "core/passes/pass_registry.h"
#include "views/pipeline/traffic_chart.h"

namespace hloscope::views {

PipelinePanel::PipelinePanel(QWidget* parent) : QWidget(parent) {
  model_ = new StepsModel(this);
  filter_ = new ChangedStepsFilter(this);
  filter_->setSourceModel(model_);

  pipeline_combo_ = new QComboBox;
  const PassRegistry& reg = PassRegistry::Global();
  for (const PipelineSpec& p : reg.pipelines()) {
    pipeline_combo_->addItem(QString::fromStdString(p.name));
    pipeline_combo_->setItemData(pipeline_combo_->count() - 1, QString::fromStdString(p.description), Qt::ToolTipRole);
  }
  pipeline_combo_->addItem(QStringLiteral("custom"));
  pipeline_combo_->setItemData(pipeline_combo_->count() - 1, tr("The passes checked below, in registry order"),
                               Qt::ToolTipRole);
  device_combo_ = new QComboBox;
  for (const std::string& id : DevicePresetIds()) device_combo_->addItem(QString::fromStdString(id));
  setPipeline(QStringLiteral("gpu"));
  setDevice(QString::fromLatin1(kDefaultDevice));

  pass_list_ = new QListWidget;
  for (const PassInfo& p : reg.passes()) {
    auto* item = new QListWidgetItem(QString::fromStdString(p.name), pass_list_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
    item->setToolTip(QString::fromStdString(p.description));
  }
  pass_list_->setMaximumHeight(140);
  pass_list_->setVisible(false);

  run_button_ = new QPushButton(tr("Run"));
  cancel_button_ = new QPushButton(tr("Cancel"));
  cancel_button_->setEnabled(false);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  progress_->setMaximumHeight(12);
  status_ = new QLabel;
  hide_noops_ = new QCheckBox(tr("Hide no-op steps"));

  table_ = new QTableView;
  table_->setModel(filter_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(20);
  table_->horizontalHeader()->setStretchLastSection(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setMinimumSectionSize(24);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);

  // What the selected step's pass does, why, and what to look for: a few
  // lines, scrollable; the "?" toggle hides it.
  explanation_ = new QTextBrowser;
  explanation_->setReadOnly(true);
  explanation_->setOpenLinks(false);
  explanation_->setMaximumHeight(5 * fontMetrics().lineSpacing() + 12);
  // One line at least (a scroll area's own minimum is taller): the panel
  // must still fit a small window (900×600 screenshots).
  explanation_->setMinimumHeight(fontMetrics().lineSpacing() + 10);
  explanation_->setPlaceholderText(tr("Select a step to see what its pass does."));
  explain_ = new QToolButton;
  explain_->setText(QStringLiteral("?"));
  explain_->setCheckable(true);
  explain_->setChecked(true);
  explain_->setToolTip(tr("Show what the selected step's pass does, why compilers do it and what to look for"));

  auto tool = [this](QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton;
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    return b;
  };
  first_ = tool(QStyle::SP_MediaSkipBackward, tr("First step (Home)"));
  back_ = tool(QStyle::SP_MediaSeekBackward, tr("Previous step (←, PgUp)"));
  forward_ = tool(QStyle::SP_MediaSeekForward, tr("Next step (→, PgDn)"));
  last_ = tool(QStyle::SP_MediaSkipForward, tr("Last step (End)"));

  auto* form = new QHBoxLayout;
  form->addWidget(new QLabel(tr("Pipeline")));
  form->addWidget(pipeline_combo_, 1);
  form->addWidget(new QLabel(tr("Device")));
  form->addWidget(device_combo_, 1);
  auto* runrow = new QHBoxLayout;
  runrow->addWidget(run_button_);
  runrow->addWidget(cancel_button_);
  runrow->addWidget(progress_, 1);
  auto* nav = new QHBoxLayout;
  nav->addWidget(first_);
  nav->addWidget(back_);
  nav->addWidget(forward_);
  nav->addWidget(last_);
  nav->addStretch(1);
  nav->addWidget(hide_noops_);
  nav->addWidget(explain_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(form);
  layout->addWidget(pass_list_);
  layout->addLayout(runrow);
  layout->addWidget(status_);
  layout->addLayout(nav);
  // The steps table over the HBM traffic chart; a click on a bar selects its step.
  traffic_ = new TrafficChart;
  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName("pipeline_steps_split");
  split->setChildrenCollapsible(false);
  split->addWidget(table_);
  split->addWidget(traffic_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({300, 200});  // scaled to the room there is; the chart may shrink to 96 px
  layout->addWidget(split, 1);
  connect(traffic_, &TrafficChart::stepClicked, this, &PipelinePanel::setCurrentStep);
  connect(this, &PipelinePanel::stepSelected, traffic_, &TrafficChart::setCurrentStep);

  connect(pipeline_combo_, &QComboBox::currentTextChanged, this,
          [this](const QString& t) { pass_list_->setVisible(t == "custom"); });
  connect(run_button_, &QPushButton::clicked, this, &PipelinePanel::requestRun);
  connect(cancel_button_, &QPushButton::clicked, this, &PipelinePanel::cancelRequested);
  connect(hide_noops_, &QCheckBox::toggled, this, &PipelinePanel::setHideNoOps);
  connect(first_, &QToolButton::clicked, this, &PipelinePanel::stepFirst);
  connect(back_, &QToolButton::clicked, this, &PipelinePanel::stepBack);
  connect(forward_, &QToolButton::clicked, this, &PipelinePanel::stepForward);
  connect(last_, &QToolButton::clicked, this, &PipelinePanel::stepLast);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PipelinePanel::onRowChanged);
  layout->addWidget(explanation_);  // last: under the table (and what sits below it)
  connect(explain_, &QToolButton::toggled, this, &PipelinePanel::setExplanationShown);
  updateButtons();
}

QString PipelinePanel::pipeline() const { return pipeline_combo_->currentText(); }
QString PipelinePanel::device() const { return device_combo_->currentText(); }

QStringList PipelinePanel::customPasses() const {
  QStringList out;
  for (int i = 0; i < pass_list_->count(); ++i)
    if (pass_list_->item(i)->checkState() == Qt::Checked) out << pass_list_->item(i)->text();
  return out;
}

void PipelinePanel::setPipeline(const QString& name) {
  int i = pipeline_combo_->findText(name);
  if (i >= 0) pipeline_combo_->setCurrentIndex(i);
}

void PipelinePanel::setDevice(const QString& id) {
  int i = device_combo_->findText(id);
  if (i >= 0) device_combo_->setCurrentIndex(i);
}

void PipelinePanel::setCustomPasses(const QStringList& passes) {
  for (int i = 0; i < pass_list_->count(); ++i)
    pass_list_->item(i)->setCheckState(passes.contains(pass_list_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

void PipelinePanel::requestRun() {
  if (running_) return;
  emit runRequested(pipeline(), pipeline() == "custom" ? customPasses() : QStringList(), device());
}

void PipelinePanel::setSteps(std::vector<std::shared_ptr<const Step>> steps) {
  current_ = -1;
  updating_ = true;
  model_->setSteps(std::move(steps));
  traffic_->setSteps(model_->steps());
  updating_ = false;
  status_->setText(tr("%1 steps").arg(model_->rowCount()));
  updateButtons();
}

void PipelinePanel::appendStep(std::shared_ptr<const Step> step) {
  status_->setText(tr("step %1: %2").arg(step->index).arg(QString::fromStdString(step->pass)));
  updating_ = true;
  traffic_->appendStep(*step);
  model_->appendStep(std::move(step));
  updating_ = false;
  updateButtons();
}

void PipelinePanel::setRunning(bool running) {
  running_ = running;
  run_button_->setEnabled(!running);
  cancel_button_->setEnabled(running);
  pipeline_combo_->setEnabled(!running);
  device_combo_->setEnabled(!running);
  pass_list_->setEnabled(!running);
  progress_->setRange(0, running ? 0 : 1);  // busy indicator while running
  progress_->setValue(running ? 0 : 1);
  if (!running) status_->setText(tr("%1 steps").arg(model_->rowCount()));
}

void PipelinePanel::setHideNoOps(bool hide) {
  if (hide_noops_->isChecked() != hide) hide_noops_->setChecked(hide);
  const int keep = current_;
  updating_ = true;
  filter_->setHideNoOps(hide);
  updating_ = false;
  current_ = -1;
  if (keep >= 0) setCurrentStep(keep);
  updateButtons();
}

std::vector<int> PipelinePanel::visibleSteps() const {
  std::vector<int> out;
  for (int r = 0; r < filter_->rowCount(); ++r)
    out.push_back(filter_->mapToSource(filter_->index(r, 0)).row());
  return out;
}

void PipelinePanel::setCurrentStep(int k) {
  std::vector<int> vis = visibleSteps();
  if (vis.empty()) return;
  int target = vis.front();
  for (int v : vis)
    if (v <= k) target = v;
  if (target == current_) return;
  current_ = target;
  QModelIndex src = model_->index(target, 0);
  QModelIndex proxy = filter_->mapFromSource(src);
  updating_ = true;
  table_->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->scrollTo(proxy);
  updating_ = false;
  updateButtons();
  emit stepSelected(current_);
}

void PipelinePanel::onRowChanged() {
  if (updating_) return;
  QModelIndex proxy = table_->selectionModel()->currentIndex();
  if (!proxy.isValid()) return;
  int k = filter_->mapToSource(proxy).row();
  if (k == current_) return;
  current_ = k;
  updateButtons();
  emit stepSelected(k);
}

void PipelinePanel::stepFirst() {
  auto vis = visibleSteps();
  if (!vis.empty()) setCurrentStep(vis.front());
}

void PipelinePanel::stepLast() {
  auto vis = visibleSteps();
  if (!vis.empty()) setCurrentStep(vis.back());
}

void PipelinePanel::stepBack() {
  auto vis = visibleSteps();
  for (auto it = vis.rbegin(); it != vis.rend(); ++it)
    if (*it < current_) return setCurrentStep(*it);
}

void PipelinePanel::stepForward() {
  for (int v : visibleSteps())
    if (v > current_) return setCurrentStep(v);
}

void PipelinePanel::setExplanationShown(bool shown) {
  if (explain_->isChecked() != shown) explain_->setChecked(shown);
  explanation_->setVisible(shown);
}

bool PipelinePanel::explanationShown() const { return explain_->isChecked(); }

void PipelinePanel::updateExplanation() {
  const auto& steps = model_->steps();
  if (current_ < 0 || current_ >= static_cast<int>(steps.size())) {
    explanation_->clear();
    return;
  }
  const std::string& pass = steps[static_cast<size_t>(current_)]->pass;
  QString text = PassExplanationText(pass);
  if (text.isEmpty()) text = tr("No explanation for this pass.");
  explanation_->setHtml("<b>" + QString::fromStdString(pass).toHtmlEscaped() + "</b>: " + text.toHtmlEscaped());
}

void PipelinePanel::updateButtons() {
  updateExplanation();
  const int n = model_->rowCount();
  first_->setEnabled(n > 0);
  last_->setEnabled(n > 0);
  back_->setEnabled(n > 0 && current_ > 0);
  forward_->setEnabled(n > 0 && current_ < n - 1);
}

}  // namespace hloscope::views
