// The graph view: a QGraphicsView of one step's laid-out graph (built and
// laid out on a worker thread), coloured by category with the shared palette,
// fusion clusters and namespace groups that open on double-click, the step's
// changes highlighted (added, removed = ghosted, folded into a fusion,
// rewritten) with a short animation of surviving nodes, a legend (hidden
// until its corner button is pressed), a minimap for large graphs, search
// (centres and zooms to readable), zoom (wheel around the cursor, +/- around
// the selection), pan (drag, Shift/Alt+wheel) and fit (F).
#pragma once

#include <QHash>
#include <QImage>
#include <QPointF>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "core/ir/module.h"
#include "core/layout/graph_layout.h"
#include "core/layout/graph_model.h"
#include "core/passes/step_recorder.h"

class QGraphicsScene;
class QLabel;
class QThreadPool;
class QToolButton;
class QVariantAnimation;

namespace hloscope::views {

class GraphCanvas;
class GraphMinimap;
class GraphLegend;
class GraphSearchBar;
class NodeItem;
class EdgeItem;
class ClusterItem;
struct KernelListing;

class GraphView : public QWidget {
  Q_OBJECT

 public:
  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  // Shows a step: builds the graph and lays it out off the UI thread (a busy
  // label shows meanwhile), keeping the zoom and surviving node positions.
  // `module` is the snapshot's text parsed; `diff` (may be null) is the
  // step's change against the previous step.
  void showStep(std::shared_ptr<const Module> module, std::shared_ptr<const ModuleSnapshot> snapshot,
                std::shared_ptr<const StepDiff> diff);
  // Shows an already laid-out graph (synchronous; for exports and tests).
  void showGraph(std::shared_ptr<const layout::LaidOutGraph> graph, const StepDiff* diff, bool animate);

  // Selects (and optionally centres) the node showing instruction `id` (its
  // fusion or group when it is hidden). Does not emit instructionSelected;
  // clicks and find do.
  void selectInstruction(int64_t id, bool center);
  int64_t selectedInstruction() const { return selected_; }
  void fitView();
  // By 1.25x around the selected node when it is in sight (it stays at the
  // same screen point), else around the centre.
  void zoomIn();
  void zoomOut();
  double zoom() const;
  // Below this zoom the node labels (10 px at 1x) are under 9 px: find
  // zooms to 1x around its match.
  static constexpr double kReadableZoom = 0.9;
  // Regex over name, opcode and metadata op_name of every instruction of the
  // shown computation and its fusions (hidden ones too: their visible
  // container is selected); selects and centres the next/previous match;
  // false when nothing matches. The match is centred and, when the labels
  // would be unreadable (zoom < kReadableZoom), zoomed to 1x.
  // findStatus() says "k of n" after a find.
  QString findStatus() const { return find_total_ ? QStringLiteral("%1 of %2").arg(find_position_).arg(find_total_) : QString(); }
  bool findNext(const QString& regex);
  bool findPrevious(const QString& regex);
  // The legend's names for the "added" and "rewritten" highlights (the
  // compare view uses them for other differences); hides the other two.
  void setChangeLegend(const QString& added, const QString& rewritten);
  // The legend: hidden by default; the "Legend" button in the top-right
  // corner, View → Show legend and a click on the legend toggle it.
  void setLegendVisible(bool visible);
  bool legendVisible() const;
  // The shown step's kernel plan (after Step → Generate kernels; null: none):
  // instructions whose kernel is missing get a red dashed outline and a "!"
  // badge, custom-calls into external targets a dash-dot outline and an
  // "ext" badge, with the reason or target in the tooltip; the legend
  // explains both. Nodes are matched by instruction name, so the caller
  // passes only the listing of the step that is shown.
  void setKernelListing(std::shared_ptr<const KernelListing> listing);
  // Producers XLA's priority fusion refused, by instruction name, with XLA's
  // reason (an XLA dump run's priority fusion step; empty: none): an orange
  // outline and an "XLA" badge, the reason in the tooltip; the legend
  // explains it. Like the kernel marks, for the step that is shown.
  void setRefusalMarks(QHash<QString, QString> reasons);
  void setExpandFusions(bool expand);
  void setNeighbourhood(int hops);  // 0 = off; around the selection
  // Node budget of one picture: larger computations are grouped (default
  // 800; above ~900 the layout is hloscope's own layered one, not dot).
  // (Choosing a budget turns the readable first view off.)
  void setMaxNodes(int n);
  int maxNodes() const { return static_cast<int>(options_.max_nodes); }
  // The readable first view (default on; docs/graph-view.md): a graph that
  // would not fit the view with labels of >= 9 px is grouped (repeated
  // blocks, chunks, namespaces) and groups open, largest first, only while
  // at most 80 boxes show and the labels stay readable at the fitted zoom.
  void setReadableFirstView(bool on);
  bool readableFirstView() const { return readable_; }
  // "What changed in this step": only the step's added and rewritten
  // instructions (and those that replaced removed ones), with their
  // operands and users; removed ones are ghosted as always. A step that
  // changed nothing is drawn whole.
  void setChangesOnly(bool on);
  bool changesOnly() const { return changes_only_; }
  // Parameters and constants drawn inside their users' labels.
  void setFoldInputs(bool on);
  bool foldInputs() const { return options_.fold_inputs; }
  // What the view shows now, as `hloscope --layout-stats` prints it.
  struct ViewStats {
    int visible_boxes = 0;   // nodes drawn (ghosts of removed ones excluded)
    int groups = 0;          // closed group nodes and open group frames
    double min_label_px = 0; // node and frame labels at the current zoom
    int label_overlaps = 0;  // pairs of labels drawn over each other
    int edges_drawn = 0;
    double first_view_ms = 0;  // from asking for the step's graph to its scene drawn
  };
  ViewStats viewStats() const;
  QSize canvasViewportSize() const;
  void openComputation(const QString& name);  // "" = entry
  QString computation() const;
  QStringList computations() const;  // of the current step
  // Opens/closes a fusion or group node (like double-click).
  void toggleExpanded(int64_t node_id);
  QImage grabImage();

  // Introspection (tests, other panels).
  bool busy() const { return busy_; }
  std::shared_ptr<const layout::LaidOutGraph> laidOut() const { return current_; }
  // Ids of nodes drawn with each highlight in the current picture.
  // Also "missing" and "external" (kernel marks) and "refused" (XLA's refusals).
  std::vector<int64_t> highlighted(const QString& kind) const;  // "added", "removed", "folded", "rewritten"
  // The edge drawn at `pos` (this widget's coordinates; a node there wins),
  // as (from, to) node ids; false when there is none.
  bool edgeAt(const QPoint& pos, int64_t* from, int64_t* to) const;
  // Every edge drawn, as (from, to) node ids.
  std::vector<std::pair<int64_t, int64_t>> edges() const;

 signals:
  void instructionSelected(int64_t id);
  void instructionActivated(int64_t id);
  void layoutFinished(double ms, int nodes);
  void layoutFailed(QString message);
  void computationChanged(QString name);
  void legendVisibilityChanged(bool visible);

 protected:
  void keyPressEvent(QKeyEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  friend class GraphCanvas;
  friend class NodeItem;
  friend class ClusterItem;
  friend class GraphMinimap;
  void relayout();
  void onLayoutReady(quint64 generation, std::shared_ptr<const layout::LaidOutGraph> g, QString error,
                     double total_ms);
  void buildScene(std::shared_ptr<const layout::LaidOutGraph> g, const StepDiff* diff, bool animate);
  void applySelection(bool center);
  void nodeClicked(int64_t id);
  void nodeDoubleClicked(int64_t id);
  bool find(const QString& regex, int direction);
  NodeItem* selectedItem() const;  // the node drawn selected, or null
  void zoomAroundSelection(double factor);
  void positionOverlays();
  void applyKernelMarks();
  void applyRefusalMarks();

  GraphCanvas* canvas_ = nullptr;
  QGraphicsScene* scene_ = nullptr;
  GraphMinimap* minimap_ = nullptr;
  GraphLegend* legend_ = nullptr;
  QToolButton* legend_button_ = nullptr;
  QLabel* busy_label_ = nullptr;
  QVariantAnimation* animation_ = nullptr;

  std::shared_ptr<const Module> module_;
  std::shared_ptr<const ModuleSnapshot> snapshot_;
  std::shared_ptr<const StepDiff> diff_;
  std::shared_ptr<const layout::LaidOutGraph> current_;
  layout::GraphOptions options_;
  std::shared_ptr<layout::LayoutCache> cache_;
  quint64 generation_ = 0;
  bool busy_ = false;
  bool first_fit_ = true;
  int64_t selected_ = -1;
  int find_index_ = -1;
  int find_total_ = 0, find_position_ = 0;
  QString find_regex_;
  std::vector<NodeItem*> node_items_;
  std::vector<int64_t> added_, removed_, folded_, rewritten_;
  std::shared_ptr<const KernelListing> kernels_;
  std::vector<int64_t> missing_, external_;
  QHash<QString, QString> refusals_;
  std::vector<int64_t> refused_;
  std::vector<ClusterItem*> cluster_items_;
  QThreadPool* pool_ = nullptr;
  std::shared_ptr<std::atomic<quint64>> latest_ = std::make_shared<std::atomic<quint64>>(0);
  struct Move {
    NodeItem* item;
    QPointF from, to;
  };
  std::vector<Move> moves_;
  std::vector<EdgeItem*> edge_items_;
  double last_total_ms_ = 0;
  bool readable_ = true;
  bool changes_only_ = false;
  std::chrono::steady_clock::time_point relayout_started_{};
  double last_view_ms_ = 0;
};

}  // namespace hloscope::views
