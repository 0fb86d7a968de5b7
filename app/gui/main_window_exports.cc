// File → Export… and the right-click menus of the graph and the timeline:
// pictures of what is shown (SVG, PNG, DOT), written atomically.
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSaveFile>
#include <QStatusBar>
#include <QTableView>

#include "app/gui/main_window.h"
#include "core/layout/graph_layout.h"
#include "core/report/graph_svg.h"
#include "core/report/timeline.h"
#include "core/session/whatif.h"
#include "views/decisions/decisions_panel.h"
#include "views/graph/graph_view.h"
#include "views/log/log_panel.h"
#include "views/timeline/timeline_widget.h"

namespace hloscope::gui {

bool MainWindow::exportPicture(const QString& what, const QString& path, bool force, QString* error) {
  if (QFileInfo::exists(path) && !force) {
    *error = tr("%1: file exists").arg(path);
    return false;
  }
  QByteArray bytes;
  if (what == "graph-svg" || what == "graph-png") {
    if (!graph_->laidOut()) {
      *error = tr("no graph is shown");
      return false;
    }
    if (what == "graph-svg") {
      report::GraphSvgOptions o;
      o.title = QFileInfo(path_).fileName().toStdString() + " — step " + std::to_string(step_);
      bytes = QByteArray::fromStdString(report::RenderGraphSvg(*graph_->laidOut(), o));
    } else {
      QBuffer buf(&bytes);
      buf.open(QIODevice::WriteOnly);
      graph_->grabImage().save(&buf, "PNG");
    }
  } else if (what == "graph-dot") {
    if (!graph_->laidOut()) {
      *error = tr("no graph is shown");
      return false;
    }
    bytes = QByteArray::fromStdString(layout::ToDot(graph_->laidOut()->graph));
  } else if (what == "timeline-svg" || what == "timeline-png") {
    if (!timeline_->assignment()) {
      *error = tr("no buffer timeline is shown");
      return false;
    }
    bytes = QByteArray::fromStdString(what == "timeline-svg" ? report::RenderTimelineSvg(*timeline_->assignment())
                                                             : report::RenderTimelinePng(*timeline_->assignment()));
  } else {
    *error = tr("unknown export '%1'").arg(what);
    return false;
  }
  QSaveFile out(path);
  if (bytes.isEmpty() || !out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
    *error = tr("%1: cannot write").arg(path);
    return false;
  }
  log_->info(tr("exported %1 to %2 (%3 bytes)").arg(what, path).arg(bytes.size()));
  return true;
}

void MainWindow::exportDialog(const QString& what) {
  const QString filter = what.endsWith("svg")   ? tr("SVG (*.svg)")
                         : what.endsWith("dot") ? tr("Graphviz DOT (*.dot *.gv)")
                                                : tr("PNG (*.png)");
  QString f = QFileDialog::getSaveFileName(this, tr("Export"), QString(), filter);
  if (f.isEmpty()) return;
  QString error;
  // The dialog has asked before replacing an existing file.
  if (!exportPicture(what, f, /*force=*/true, &error)) showError(tr("Export failed"), error);
}

QMenu* MainWindow::contextMenuFor(const QString& panel, qint64 edge_from, qint64 edge_to) {
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  if (panel == "graph") {
    menu->addAction(tr("Fit"), this, [this] { graph_->fitView(); });
    if (selected_ >= 0 && run_ && step_ >= 0) {
      const InstructionRecord* rec = run_->step(step_).module->Find(selected_);
      if (rec) {
        const QString name = QString::fromStdString(rec->name);
        menu->addAction(tr("Copy name “%1”").arg(name), this, [name] { QApplication::clipboard()->setText(name); });
      }
    }
    // An edge between two instructions: what-if fusion of its producer into its consumer.
    if (edge_from >= 0 && edge_to >= 0 && run_ && step_ >= 0 && step_ < run_->size()) {
      const InstructionRecord* p = run_->step(step_).module->Find(edge_from);
      const InstructionRecord* c = run_->step(step_).module->Find(edge_to);
      if (p && c) {
        menu->addSeparator();
        addWhatIfActions(menu, QString::fromStdString(OverrideNameIn(*run_, step_, p->name)),
                         QString::fromStdString(OverrideNameIn(*run_, step_, c->name)),
                         QString::fromStdString(p->name + " → " + c->name));
      }
    }
    menu->addSeparator();
    menu->addAction(tr("Export graph as SVG…"), this, [this] { exportDialog("graph-svg"); });
    menu->addAction(tr("Export graph as PNG…"), this, [this] { exportDialog("graph-png"); });
    menu->addAction(tr("Export graph as DOT…"), this, [this] { exportDialog("graph-dot"); });
  } else if (panel == "timeline") {
    menu->addAction(tr("Export timeline as SVG…"), this, [this] { exportDialog("timeline-svg"); });
    menu->addAction(tr("Export timeline as PNG…"), this, [this] { exportDialog("timeline-png"); });
  }
  return menu;
}

void MainWindow::installContextMenus() {
  graph_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(graph_, &QWidget::customContextMenuRequested, this,
          [this](const QPoint& pos) {
            int64_t from = -1, to = -1;
            graph_->edgeAt(pos, &from, &to);
            contextMenuFor("graph", from, to)->popup(graph_->mapToGlobal(pos));
          });
  timeline_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(timeline_, &QWidget::customContextMenuRequested, this,
          [this](const QPoint& pos) { contextMenuFor("timeline")->popup(timeline_->mapToGlobal(pos)); });
  QTableView* decisions = decisions_->table();
  decisions->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(decisions, &QWidget::customContextMenuRequested, this, [this, decisions](const QPoint& pos) {
    const QModelIndex at = decisions->indexAt(pos);
    if (at.isValid()) decisionMenu(at.row())->popup(decisions->viewport()->mapToGlobal(pos));
  });
}

}  // namespace hloscope::gui
