#include "views/compare/compare_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "views/graph/graph_view.h"

namespace hloscope::views {

namespace {

bool Transparent(Opcode op) {  // as core/report/compare.cc: no kernels of their own
  return op == Opcode::kBitcast || op == Opcode::kCopy || op == Opcode::kReshape ||
         op == Opcode::kGetTupleElement || op == Opcode::kTuple || op == Opcode::kParameter ||
         op == Opcode::kConstant;
}

// Entry-level kernels with their matchable ops (fused ones included).
void CollectAtoms(const Computation& c, const Instruction* kernel,
                  std::vector<std::pair<const Instruction*, const Instruction*>>* out) {
  for (const auto& owned : c.instructions()) {
    const Instruction* i = owned.get();
    if (i->opcode() == Opcode::kFusion && i->fused_computation()) {
      CollectAtoms(*i->fused_computation(), kernel ? kernel : i, out);
      continue;
    }
    if (Transparent(i->opcode())) continue;
    out->push_back({i, kernel ? kernel : i});
  }
}

QString Bytes(int64_t b) {
  if (b >= (1ll << 30)) return QString::number(b / double(1ll << 30), 'f', 2) + " GiB";
  if (b >= (1ll << 20)) return QString::number(b / double(1ll << 20), 'f', 2) + " MiB";
  if (b >= (1ll << 10)) return QString::number(b / double(1ll << 10), 'f', 1) + " KiB";
  return QString::number(b) + " B";
}

QString SideLine(const char* tag, const report::CompareSide& s) {
  return QStringLiteral("<b>%1</b> %2 — %3 kernels (%4 fusions), HBM %5, est. %6 µs, matched %7 of %8 ops")
      .arg(QString::fromLatin1(tag), QString::fromStdString(s.label).toHtmlEscaped())
      .arg(s.kernels)
      .arg(s.fusions)
      .arg(Bytes(s.hbm_bytes))
      .arg(s.est_us, 0, 'f', 1)
      .arg(s.matched)
      .arg(s.ops);
}

enum Role { kSideRole = Qt::UserRole + 1, kNameRole, kOtherRole };

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  summary_ = new QLabel;
  summary_->setTextFormat(Qt::RichText);
  summary_->setWordWrap(true);
  left_ = new GraphView;
  right_ = new GraphView;
  left_->setObjectName("compare_left");
  right_->setObjectName("compare_right");
  for (GraphView* g : {left_, right_})
    g->setChangeLegend(tr("no counterpart"), tr("grouped differently"));
  table_ = new QTreeWidget;
  table_->setColumnCount(3);
  table_->setHeaderLabels({tr("fusion"), tr("its members"), tr("on the other side")});
  table_->header()->setSectionResizeMode(QHeaderView::Interactive);
  table_->setRootIsDecorated(true);
  auto* graphs = new QSplitter(Qt::Horizontal);
  graphs->addWidget(left_);
  graphs->addWidget(right_);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(graphs);
  split->addWidget(table_);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setSizes({800, 180});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(split, 1);
  connect(left_, &GraphView::instructionSelected, this, [this](int64_t id) { syncFrom(0, id); });
  connect(right_, &GraphView::instructionSelected, this, [this](int64_t id) { syncFrom(1, id); });
  connect(table_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { rowActivated(item); });
}

void CompareView::setComparison(CompareSideInput a, CompareSideInput b,
                                std::shared_ptr<const report::CompareResult> result) {
  side_[0] = std::move(a);
  side_[1] = std::move(b);
  result_ = std::move(result);
  for (auto& m : to_other_) m.clear();
  for (const auto& [an, bn] : result_->matches) {
    to_other_[0].emplace(an, bn);
    to_other_[1].emplace(bn, an);
  }
  // Highlights per side: ops (and whole kernels) with no counterpart, and
  // the fusions (with their members) that the other side grouped otherwise.
  for (int s = 0; s < 2; ++s) {
    unmatched_[s].clear();
    regrouped_[s].clear();
    const CompareSideInput& in = side_[s];
    std::vector<std::pair<const Instruction*, const Instruction*>> atoms;
    if (in.module && in.module->entry()) CollectAtoms(*in.module->entry(), nullptr, &atoms);
    std::unordered_map<const Instruction*, bool> kernel_matched;
    for (const auto& [op, kernel] : atoms) {
      const bool matched = to_other_[s].count(op->name()) > 0;
      kernel_matched[kernel] = kernel_matched[kernel] || matched;
      if (!matched) unmatched_[s].push_back(in.run->IdOfName(in.step, op->name()));
    }
    for (const auto& [kernel, matched] : kernel_matched)
      if (!matched && kernel->opcode() == Opcode::kFusion)
        unmatched_[s].push_back(in.run->IdOfName(in.step, kernel->name()));
  }
  auto mark = [this](int s, const std::string& name) {
    const int64_t id = side_[s].run->IdOfName(side_[s].step, name);
    if (id >= 0) regrouped_[s].push_back(id);
  };
  for (int s = 0; s < 2; ++s) {
    const auto& groups = s == 0 ? result_->fused_only_in_a : result_->fused_only_in_b;
    for (const report::GroupDifference& g : groups) {
      mark(s, g.fusion);
      for (const std::string& m : g.members) mark(s, m);
      for (const auto& [kernel, names] : g.other_kernels) {
        mark(1 - s, kernel);
        for (const std::string& n : names) mark(1 - s, n);
      }
    }
  }
  for (int s = 0; s < 2; ++s) {
    auto& u = unmatched_[s];
    u.erase(std::remove(u.begin(), u.end(), int64_t{-1}), u.end());
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    auto& r = regrouped_[s];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    StepDiff marks;
    marks.added = u;
    marks.modified = r;
    GraphView* g = s == 0 ? left_ : right_;
    const CompareSideInput& in = side_[s];
    g->showStep(in.module, in.run->steps()[in.step]->module, std::make_shared<const StepDiff>(std::move(marks)));
  }
  QString by;
  for (const auto& [how, n] : result_->matched_by) by += QStringLiteral("%1 %2, ").arg(n).arg(QString::fromStdString(how));
  by.chop(2);
  summary_->setText(SideLine("A", result_->a) + "<br>" + SideLine("B", result_->b) +
                    QStringLiteral("<br>%1 fusions grouped alike; %2 groups only in A, %3 only in B; matched by %4. "
                                   "Highlighted: green = no counterpart, orange = grouped differently.")
                        .arg(result_->same_groups)
                        .arg(result_->fused_only_in_a.size())
                        .arg(result_->fused_only_in_b.size())
                        .arg(by));
  buildTable();
}

QString CompareView::summaryText() const { return summary_->text(); }

void CompareView::buildTable() {
  table_->clear();
  for (int s = 0; s < 2; ++s) {
    const auto& groups = s == 0 ? result_->fused_only_in_a : result_->fused_only_in_b;
    auto* top = new QTreeWidgetItem(table_, {s == 0 ? tr("Fused only in A (%1)").arg(groups.size())
                                                    : tr("Fused only in B (%1)").arg(groups.size())});
    top->setFirstColumnSpanned(true);
    for (const report::GroupDifference& g : groups) {
      QStringList members, other;
      for (const std::string& m : g.members) members << QString::fromStdString(m);
      for (const auto& [kernel, names] : g.other_kernels) {
        QStringList n;
        for (const std::string& x : names) n << QString::fromStdString(x);
        other << QStringLiteral("%1 {%2}").arg(QString::fromStdString(kernel), n.join(", "));
      }
      auto* row = new QTreeWidgetItem(top, {QString::fromStdString(g.fusion), members.join(", "), other.join("; ")});
      row->setData(0, kSideRole, s);
      row->setData(0, kNameRole, QString::fromStdString(g.fusion));
      row->setData(0, kOtherRole, g.other_kernels.empty() ? QString() : QString::fromStdString(g.other_kernels[0].first));
      row->setToolTip(2, other.join("\n"));
    }
    top->setExpanded(true);
  }
  table_->resizeColumnToContents(0);
}

void CompareView::rowActivated(QTreeWidgetItem* item) {
  if (!item || !item->data(0, kSideRole).isValid()) return;
  const int s = item->data(0, kSideRole).toInt();
  const std::string name = item->data(0, kNameRole).toString().toStdString();
  const std::string other = item->data(0, kOtherRole).toString().toStdString();
  syncing_ = true;
  GraphView* here = s == 0 ? left_ : right_;
  GraphView* there = s == 0 ? right_ : left_;
  here->selectInstruction(side_[s].run->IdOfName(side_[s].step, name), true);
  if (!other.empty()) there->selectInstruction(side_[1 - s].run->IdOfName(side_[1 - s].step, other), true);
  syncing_ = false;
}

std::string CompareView::counterpart(int side, const std::string& name) const {
  auto it = to_other_[side].find(name);
  if (it != to_other_[side].end()) return it->second;
  // A fusion: the kernel holding the counterpart of its first matched member.
  const CompareSideInput& in = side_[side];
  if (!in.module) return {};
  for (const auto& c : in.module->computations()) {
    for (const auto& owned : c->instructions()) {
      const Instruction* i = owned.get();
      if (i->name() != name || i->opcode() != Opcode::kFusion || !i->fused_computation()) continue;
      std::vector<std::pair<const Instruction*, const Instruction*>> atoms;
      CollectAtoms(*i->fused_computation(), i, &atoms);
      for (const auto& [op, kernel] : atoms) {
        auto m = to_other_[side].find(op->name());
        if (m != to_other_[side].end()) return m->second;
      }
      return {};
    }
  }
  return {};
}

void CompareView::syncFrom(int side, int64_t id) {
  if (syncing_ || id < 0) return;
  const Instruction* i = side_[side].run->InstructionAt(side_[side].step, id);
  if (!i) return;
  const std::string other = counterpart(side, i->name());
  if (other.empty()) return;
  syncing_ = true;
  (side == 0 ? right_ : left_)->selectInstruction(side_[1 - side].run->IdOfName(side_[1 - side].step, other), true);
  syncing_ = false;
}

bool CompareView::selectByName(int side, const std::string& name) {
  const int64_t id = side_[side].run ? side_[side].run->IdOfName(side_[side].step, name) : -1;
  if (id < 0) return false;
  syncing_ = true;
  (side == 0 ? left_ : right_)->selectInstruction(id, true);
  syncing_ = false;
  syncFrom(side, id);
  return true;
}

int64_t CompareView::selected(int side) const { return (side == 0 ? left_ : right_)->selectedInstruction(); }

}  // namespace hloscope::views
