#include "views/graph/graph_view.h"
#include "views/common/release_off_thread.h"
#include "views/common/ui_timer.h"

#include <QApplication>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QLabel>
#include <QPainterPathStroker>
#include <QRegularExpression>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>
#include <QVariantAnimation>
#include <chrono>
#include <functional>
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "views/graph/graph_canvas.h"
#include "views/graph/graph_items.h"
#include "views/kernels/kernels_model.h"

namespace hloscope::views {

GraphView::GraphView(QWidget* parent) : QWidget(parent) {
  scene_ = new QGraphicsScene(this);
  canvas_ = new GraphCanvas(this, scene_);
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(0, 0, 0, 0);
  box->addWidget(canvas_);
  legend_ = new GraphLegend(this);
  legend_->hide();
  legend_button_ = new QToolButton(this);
  legend_button_->setObjectName(QStringLiteral("graphLegendButton"));
  legend_button_->setText(tr("Legend"));
  legend_button_->setCheckable(true);
  legend_button_->setToolTip(tr("Show or hide the colour legend (View → Show legend)"));
  legend_button_->setFocusPolicy(Qt::NoFocus);
  legend_button_->setStyleSheet(QStringLiteral(
      "QToolButton { background: rgba(255,255,255,210); border: 1px solid #b0bec5; border-radius: 3px;"
      " padding: 1px 6px; font-size: 11px; color: #455a64; }"
      "QToolButton:checked { background: #e3f2fd; border-color: #1565c0; }"));
  legend_button_->adjustSize();
  connect(legend_button_, &QToolButton::toggled, this, &GraphView::setLegendVisible);
  connect(legend_, &GraphLegend::closeRequested, this, [this] { setLegendVisible(false); });
  minimap_ = new GraphMinimap(canvas_, scene_, this);
  minimap_->hide();
  busy_label_ = new QLabel(tr("Laying out..."), this);
  busy_label_->setStyleSheet(QStringLiteral(
      "QLabel { background: rgba(255,255,255,230); border: 1px solid #90a4ae; border-radius: 4px; padding: 6px 12px; }"));
  busy_label_->adjustSize();
  busy_label_->hide();
  animation_ = new QVariantAnimation(this);
  animation_->setDuration(300);
  animation_->setStartValue(0.0);
  animation_->setEndValue(1.0);
  animation_->setEasingCurve(QEasingCurve::InOutQuad);
  connect(animation_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
    double t = v.toDouble();
    for (const Move& m : moves_) m.item->setPos(m.from + (m.to - m.from) * t);
    for (EdgeItem* e : edge_items_) e->setOpacity(t);
  });
  pool_ = new QThreadPool(this);
  pool_->setMaxThreadCount(1);
  cache_ = std::make_shared<layout::LayoutCache>();
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(200, 150);
}

GraphView::~GraphView() {
  latest_->store(~0ull);  // queued layouts give up
  animation_->stop();
  pool_->waitForDone();
}

void GraphView::showStep(std::shared_ptr<const Module> module, std::shared_ptr<const ModuleSnapshot> snapshot,
                         std::shared_ptr<const StepDiff> diff) {
  ReplaceOffThread(module_, std::move(module));
  ReplaceOffThread(snapshot_, std::move(snapshot));
  diff_ = std::move(diff);
  relayout();
}

void GraphView::relayout() {
  if (!module_ || !snapshot_) return;
  quint64 gen = ++generation_;
  latest_->store(gen);
  busy_ = true;
  busy_label_->show();
  busy_label_->raise();
  positionOverlays();
  relayout_started_ = std::chrono::steady_clock::now();
  options_.focus.clear();
  if (changes_only_ && diff_) {
    options_.focus = diff_->added;
    options_.focus.insert(options_.focus.end(), diff_->modified.begin(), diff_->modified.end());
    for (const Replacement& r : diff_->replaced) options_.focus.push_back(r.new_id);
    for (const Replacement& r : diff_->folded_into) options_.focus.push_back(r.new_id);
    std::sort(options_.focus.begin(), options_.focus.end());
    options_.focus.erase(std::unique(options_.focus.begin(), options_.focus.end()), options_.focus.end());
  }
  if (readable_) {
    // The view's size, in steps of 40 px (a resize by a few pixels keeps the
    // cached layouts); a view not laid out yet counts as 900x560.
    QSize v = canvas_->viewport()->size();
    if (v.width() < 200 || v.height() < 150) v = QSize(900, 560);
    options_.fit_width = v.width() / 40 * 40;
    options_.fit_height = v.height() / 40 * 40;
  } else {
    options_.fit_width = options_.fit_height = 0;
  }
  auto module = module_;
  auto snapshot = snapshot_;
  auto diff = diff_;
  auto options = options_;
  auto previous = current_;
  auto cache = cache_;
  auto latest = latest_;
  QPointer<GraphView> guard(this);
  pool_->start([=] {
    if (latest->load() != gen) return;  // superseded before it started
    auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const layout::LaidOutGraph> result;
    QString error;
    std::string key = std::to_string(std::hash<std::string>()(snapshot->text)) + "#" +
                      std::to_string(snapshot->instructions.size()) + "|" + layout::OptionsKey(options, {});
    result = cache->Find(key);
    if (!result) {
      layout::LayoutOptions lo;
      if (diff) {
        for (const Replacement& r : diff->replaced) lo.replaced.push_back({r.old_id, r.new_id});
        for (const Replacement& r : diff->folded_into) lo.replaced.push_back({r.old_id, r.new_id});
      }
      auto l = layout::BuildAndLayout(*module, *snapshot, options, lo, previous.get());
      if (!l.ok()) {
        error = QString::fromStdString(l.status().message());
      } else {
        result = std::make_shared<const layout::LaidOutGraph>(std::move(*l));
        cache->Insert(key, result);
      }
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    QMetaObject::invokeMethod(
        qApp, [guard, gen, result, error, ms] {
          if (guard) guard->onLayoutReady(gen, result, error, ms);
        },
        Qt::QueuedConnection);
  });
}

void GraphView::onLayoutReady(quint64 generation, std::shared_ptr<const layout::LaidOutGraph> g, QString error,
                              double total_ms) {
  UiTimer ui_timer("graph: build scene");
  if (generation != generation_) return;
  busy_ = false;
  busy_label_->hide();
  if (!g) {
    emit layoutFailed(error);
    return;
  }
  QString before = current_ ? QString::fromStdString(current_->graph.computation) : QString();
  bool animate = current_ && before == QString::fromStdString(g->graph.computation);
  buildScene(g, diff_.get(), animate);
  last_total_ms_ = total_ms;
  last_view_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - relayout_started_).count();
  if (before != QString::fromStdString(g->graph.computation)) emit computationChanged(computation());
  emit layoutFinished(total_ms, static_cast<int>(g->nodes.size()));
}

void GraphView::showGraph(std::shared_ptr<const layout::LaidOutGraph> graph, const StepDiff* diff, bool animate) {
  ++generation_;
  latest_->store(generation_);
  busy_ = false;
  busy_label_->hide();
  if (graph) buildScene(std::move(graph), diff, animate);
}

void GraphView::buildScene(std::shared_ptr<const layout::LaidOutGraph> g, const StepDiff* diff, bool animate) {
  animation_->stop();
  moves_.clear();
  std::unordered_map<int64_t, QPointF> old_pos;
  for (NodeItem* n : node_items_)
    if (!n->ghost()) old_pos[n->id()] = n->pos();
  std::shared_ptr<const layout::LaidOutGraph> previous = current_;
  current_ = g;
  scene_->clear();
  node_items_.clear();
  edge_items_.clear();
  cluster_items_.clear();
  added_.clear(), removed_.clear(), folded_.clear(), rewritten_.clear();

  std::unordered_set<int64_t> added, modified, folded;
  if (diff) {
    added.insert(diff->added.begin(), diff->added.end());
    modified.insert(diff->modified.begin(), diff->modified.end());
    for (const Replacement& r : diff->folded_into) folded.insert(r.new_id);
    for (const Replacement& r : diff->replaced) folded.insert(r.new_id);
  }
  for (size_t i = 0; i < g->clusters.size() && i < g->graph.clusters.size(); ++i) {
    const layout::GraphCluster* c = nullptr;
    for (const auto& gc : g->graph.clusters)
      if (gc.id == g->clusters[i].id) c = &gc;
    if (!c) continue;
    auto* item = new ClusterItem(this, *c, g->clusters[i]);
    scene_->addItem(item);
    cluster_items_.push_back(item);
  }
  for (size_t i = 0; i < g->edges.size(); ++i) {
    auto* e = new EdgeItem(g->graph.edges[i], g->edges[i]);
    scene_->addItem(e);
    edge_items_.push_back(e);
  }
  for (size_t i = 0; i < g->nodes.size(); ++i) {
    const layout::GraphNode& n = g->graph.nodes[i];
    auto* item = new NodeItem(this, n, g->nodes[i], false);
    ChangeKind k = ChangeKind::kNone;
    if (folded.count(n.id) && (n.is_fusion || !added.count(n.id))) {
      k = ChangeKind::kFolded;
      folded_.push_back(n.id);
    } else if (added.count(n.id)) {
      k = ChangeKind::kAdded;
      added_.push_back(n.id);
    } else if (modified.count(n.id)) {
      k = ChangeKind::kRewritten;
      rewritten_.push_back(n.id);
    }
    item->setChange(k);
    scene_->addItem(item);
    node_items_.push_back(item);
    if (animate) {
      auto it = old_pos.find(n.id);
      if (it != old_pos.end() && it->second != item->pos()) moves_.push_back({item, it->second, item->pos()});
    }
  }
  // Removed instructions, ghosted where the previous picture had them.
  if (diff && previous && previous->graph.computation == g->graph.computation) {
    std::unordered_set<int64_t> now;
    for (const auto& n : g->graph.nodes) now.insert(n.id);
    for (int64_t id : diff->removed) {
      if (now.count(id)) continue;
      for (size_t i = 0; i < previous->nodes.size(); ++i) {
        if (previous->nodes[i].id != id) continue;
        auto* ghost = new NodeItem(this, previous->graph.nodes[i], previous->nodes[i], true);
        ghost->setChange(ChangeKind::kRemoved);
        scene_->addItem(ghost);
        node_items_.push_back(ghost);
        removed_.push_back(id);
        break;
      }
    }
  }
  applyKernelMarks();
  applyRefusalMarks();
  QRectF bounds = scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40);
  scene_->setSceneRect(bounds);
  applySelection(false);
  minimap_->setVisible(g->nodes.size() > 60);
  minimap_->refit();
  if (first_fit_) {
    first_fit_ = false;
    fitView();
  }
  if (animate && !moves_.empty()) {
    for (const Move& m : moves_) m.item->setPos(m.from);
    for (EdgeItem* e : edge_items_) e->setOpacity(0);
    animation_->start();
  }
  positionOverlays();
}

void GraphView::applySelection(bool center) {
  int64_t visible = -1;
  if (current_ && selected_ != -1) {
    visible = current_->graph.FindNode(selected_) ? selected_ : layout::VisibleNodeFor(current_->graph, selected_);
  }
  NodeItem* target = nullptr;
  for (NodeItem* n : node_items_) {
    bool on = !n->ghost() && n->id() == visible;
    if (on != n->selectedNode()) n->setSelectedNode(on);
    if (on) target = n;
  }
  for (EdgeItem* e : edge_items_) e->setEmphasis(visible != -1 && (e->from() == visible || e->to() == visible));
  if (center && target) canvas_->centerOn(target);
}

void GraphView::selectInstruction(int64_t id, bool center) {
  selected_ = id;
  applySelection(center);
  if (options_.neighbourhood_hops > 0 && options_.center_id != id && id >= 0) {
    options_.center_id = id;
    relayout();
  }
}

void GraphView::nodeClicked(int64_t id) {
  selectInstruction(id, false);
  if (id >= 0) emit instructionSelected(id);
}

void GraphView::nodeDoubleClicked(int64_t id) {
  if (!current_) return;
  const layout::GraphNode* n = current_->graph.FindNode(id);
  if (!n) return;
  if (n->is_group || n->is_fusion) {
    toggleExpanded(id);
  } else if (!n->called.empty()) {
    openComputation(QString::fromStdString(n->called.front()));
  }
  if (id >= 0) emit instructionActivated(id);
}

void GraphView::setChangeLegend(const QString& added, const QString& rewritten) {
  legend_->setChangeLabels({added, QString(), QString(), rewritten});
  positionOverlays();
}

void GraphView::setLegendVisible(bool visible) {
  if (visible == legendVisible()) return;
  legend_->setVisible(visible);
  legend_button_->setChecked(visible);
  positionOverlays();
  emit legendVisibilityChanged(visible);
}

bool GraphView::legendVisible() const { return !legend_->isHidden(); }

void GraphView::setKernelListing(std::shared_ptr<const KernelListing> listing) {
  if (listing == kernels_) return;
  ReplaceOffThread(kernels_, std::move(listing));
  applyKernelMarks();
}

void GraphView::applyKernelMarks() {
  missing_.clear(), external_.clear();
  auto mark_of = [this](const std::string& name, QString* text) {
    const report::PlanEntry* e = kernels_ ? kernels_->Find(name) : nullptr;
    if (!e) return KernelMark::kNone;
    if (e->kind == report::PlanEntry::Kind::kMissing) {
      *text = tr("kernel %1").arg(QString::fromStdString(e->what));
      return KernelMark::kMissing;
    }
    if (e->kind == report::PlanEntry::Kind::kCustomCall) {
      *text = tr("external call: %1").arg(QString::fromStdString(e->what));
      return KernelMark::kExternal;
    }
    return KernelMark::kNone;
  };
  const layout::Graph* g = current_ && kernels_ ? &current_->graph : nullptr;
  std::unordered_map<int64_t, const layout::GraphNode*> nodes;
  if (g)
    for (const layout::GraphNode& n : g->nodes) nodes.emplace(n.id, &n);
  for (NodeItem* n : node_items_) {
    if (n->ghost() || (!g && n->kernelMark() == KernelMark::kNone)) continue;
    QString text;
    auto it = nodes.find(n->id());
    const layout::GraphNode* node = it == nodes.end() ? nullptr : it->second;
    const KernelMark m = node && !node->is_group ? mark_of(node->name, &text) : KernelMark::kNone;
    n->setKernelMark(m, text);
    if (m == KernelMark::kMissing) missing_.push_back(n->id());
    if (m == KernelMark::kExternal) external_.push_back(n->id());
  }
  for (ClusterItem* c : cluster_items_) {
    QString text;
    KernelMark m = KernelMark::kNone;
    if (g)
      for (const layout::GraphCluster& gc : g->clusters)
        if (gc.id == c->id() && gc.is_fusion) {
          // An expanded fusion's label starts with its name.
          const std::string name = gc.label.substr(0, gc.label.find(' '));
          m = mark_of(name, &text);
        }
    c->setKernelMark(m, text);
    if (m == KernelMark::kMissing) missing_.push_back(c->id());
    if (m == KernelMark::kExternal) external_.push_back(c->id());
  }
  legend_->setKernelMarks(kernels_ && kernels_->counts.missing > 0, kernels_ && kernels_->counts.custom_calls > 0);
  positionOverlays();
}

void GraphView::setRefusalMarks(QHash<QString, QString> reasons) {
  if (reasons.isEmpty() && refusals_.isEmpty()) return;
  refusals_ = std::move(reasons);
  applyRefusalMarks();
}

void GraphView::applyRefusalMarks() {
  refused_.clear();
  std::unordered_map<int64_t, const layout::GraphNode*> nodes;
  if (current_ && !refusals_.isEmpty())
    for (const layout::GraphNode& n : current_->graph.nodes) nodes.emplace(n.id, &n);
  for (NodeItem* n : node_items_) {
    if (n->ghost() || (nodes.empty() && !n->refusalMark())) continue;
    auto it = nodes.find(n->id());
    const layout::GraphNode* node = it == nodes.end() ? nullptr : it->second;
    auto r = node && !node->is_group ? refusals_.constFind(QString::fromStdString(node->name))
                                     : refusals_.constEnd();
    const bool on = r != refusals_.constEnd();
    n->setRefusalMark(on, on ? *r : QString());
    if (on) refused_.push_back(n->id());
  }
  legend_->setRefusalMarks(!refused_.empty());
  positionOverlays();
}

void GraphView::toggleExpanded(int64_t id) {
  bool open = false;
  if (current_)
    for (const auto& c : current_->graph.clusters) open = open || c.id == id;
  if (open) {
    options_.expanded.erase(id);
    options_.collapsed.insert(id);
  } else {
    options_.collapsed.erase(id);
    options_.expanded.insert(id);
  }
  relayout();
}

void GraphView::fitView() {
  QRectF r = scene_->itemsBoundingRect();
  if (r.isEmpty()) return;
  canvas_->fitInView(r.adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
  if (canvas_->zoom() > 1.5) {
    canvas_->resetTransform();
    canvas_->scale(1.5, 1.5);
    canvas_->centerOn(r.center());
  }
  emit canvas_->viewportChanged();
}

void GraphView::zoomIn() { zoomAroundSelection(1.25); }
void GraphView::zoomOut() { zoomAroundSelection(1 / 1.25); }

void GraphView::zoomAroundSelection(double factor) {
  const QRect vp = canvas_->viewport()->rect();
  QPointF at = QRectF(vp).center();
  if (NodeItem* n = selectedItem()) {
    const QPointF p = canvas_->viewportTransform().map(n->sceneBoundingRect().center());
    if (QRectF(vp).contains(p)) at = p;
  }
  canvas_->zoomAt(factor, at);
}

NodeItem* GraphView::selectedItem() const {
  for (NodeItem* n : node_items_)
    if (n->selectedNode() && !n->ghost()) return n;
  return nullptr;
}

double GraphView::zoom() const { return canvas_->zoom(); }

bool GraphView::find(const QString& regex, int direction) {
  QRegularExpression re(regex, QRegularExpression::CaseInsensitiveOption);
  if (!re.isValid() || regex.isEmpty() || !current_) return false;
  // Every instruction of the shown computation and of the fusions it calls,
  // hidden ones (inside a closed group or fusion) included: a hidden match
  // selects its visible container, and the details show the instruction.
  std::vector<int64_t> matches;
  if (module_ && snapshot_) {
    // Node ids are the snapshot's stable ids: by (computation, name).
    std::unordered_map<std::string, int64_t> id_of;
    for (const InstructionRecord& r : snapshot_->instructions)
      id_of.emplace(snapshot_->computations[static_cast<size_t>(r.computation)].name + '\n' + r.name, r.id);
    const Computation* shown = nullptr;
    for (const auto& c : module_->computations())
      if (current_->graph.computation.empty() ? c->is_entry() : c->name() == current_->graph.computation)
        shown = c.get();
    std::vector<const Computation*> todo;
    if (shown) todo.push_back(shown);
    while (!todo.empty()) {
      const Computation* c = todo.back();
      todo.pop_back();
      for (const auto& owned : c->instructions()) {
        const Instruction* i = owned.get();
        const std::string text = i->name() + " = " + std::string(OpcodeName(i->opcode())) + " " +
                                 i->MetadataValue("op_name");
        if (re.match(QString::fromStdString(text)).hasMatch()) {
          auto it = id_of.find(c->name() + '\n' + i->name());
          if (it != id_of.end()) matches.push_back(it->second);
        }
        if (i->opcode() == Opcode::kFusion && i->fused_computation()) todo.push_back(i->fused_computation());
      }
    }
  } else {
    for (NodeItem* n : node_items_)
      if (!n->ghost() && re.match(n->searchText()).hasMatch()) matches.push_back(n->id());
  }
  if (matches.empty()) return false;
  int at = -1;
  for (size_t i = 0; i < matches.size(); ++i)
    if (matches[i] == selected_) at = static_cast<int>(i);
  int n = static_cast<int>(matches.size());
  int next = at < 0 ? (direction > 0 ? 0 : n - 1) : ((at + direction) % n + n) % n;
  int64_t id = matches[next];
  find_total_ = n;
  find_position_ = next + 1;
  selectInstruction(id, true);
  if (NodeItem* item = selectedItem()) {  // readable and in the middle
    if (canvas_->zoom() < kReadableZoom) canvas_->zoomBy(1.0 / canvas_->zoom());
    canvas_->centerOn(item);
  }
  if (id >= 0) emit instructionSelected(id);
  return true;
}

bool GraphView::findNext(const QString& regex) { return find(regex, +1); }
bool GraphView::findPrevious(const QString& regex) { return find(regex, -1); }

void GraphView::setExpandFusions(bool expand) {
  if (options_.expand_fusions == expand) return;
  options_.expand_fusions = expand;
  options_.collapsed.clear();
  options_.expanded.clear();
  relayout();
}

void GraphView::setNeighbourhood(int hops) {
  options_.neighbourhood_hops = hops;
  options_.center_id = selected_;
  relayout();
}

void GraphView::setMaxNodes(int n) {
  const size_t want = static_cast<size_t>(std::clamp(n, 50, 20000));
  if (options_.max_nodes == want && !readable_) return;
  options_.max_nodes = want;
  readable_ = false;
  relayout();
}

void GraphView::setChangesOnly(bool on) {
  if (changes_only_ == on) return;
  changes_only_ = on;
  relayout();
}

void GraphView::setFoldInputs(bool on) {
  if (options_.fold_inputs == on) return;
  options_.fold_inputs = on;
  relayout();
}

void GraphView::setReadableFirstView(bool on) {
  if (readable_ == on) return;
  readable_ = on;
  if (on) options_.max_nodes = layout::GraphOptions().max_nodes;
  relayout();
}

QSize GraphView::canvasViewportSize() const { return canvas_->viewport()->size(); }

GraphView::ViewStats GraphView::viewStats() const {
  ViewStats s;
  const double zoom = canvas_->zoom();
  s.min_label_px = current_ ? layout::kFontPt * zoom : 0;
  std::vector<QRectF> labels;  // scene rectangles of the drawn label text
  for (const NodeItem* n : node_items_) {
    if (n->ghost()) continue;
    ++s.visible_boxes;
    labels.push_back(n->mapRectToScene(n->labelRect()));
  }
  for (const ClusterItem* c : cluster_items_) labels.push_back(c->mapRectToScene(c->labelRect()));
  if (current_) {
    for (const layout::GraphNode& n : current_->graph.nodes) s.groups += n.is_group;
    for (const layout::GraphCluster& c : current_->graph.clusters) s.groups += !c.is_fusion;
  }
  // Sweep over x: pairs whose rectangles intersect by more than a pixel.
  std::sort(labels.begin(), labels.end(), [](const QRectF& a, const QRectF& b) { return a.left() < b.left(); });
  for (size_t i = 0; i < labels.size(); ++i)
    for (size_t j = i + 1; j < labels.size() && labels[j].left() < labels[i].right(); ++j) {
      QRectF both = labels[i].intersected(labels[j]);
      if (both.width() * zoom > 1 && both.height() * zoom > 1) ++s.label_overlaps;
    }
  s.edges_drawn = static_cast<int>(edge_items_.size());
  s.first_view_ms = last_view_ms_;
  return s;
}

void GraphView::openComputation(const QString& name) {
  options_.computation = name.toStdString();
  options_.expanded.clear();
  options_.collapsed.clear();
  relayout();
}

QString GraphView::computation() const {
  return current_ ? QString::fromStdString(current_->graph.computation) : QString();
}

QStringList GraphView::computations() const {
  QStringList out;
  if (current_)
    for (const std::string& c : current_->graph.computations) out << QString::fromStdString(c);
  return out;
}

QImage GraphView::grabImage() {
  if (animation_->state() == QAbstractAnimation::Running) {  // show the end state
    animation_->stop();
    for (const Move& m : moves_) m.item->setPos(m.to);
    for (EdgeItem* e : edge_items_) e->setOpacity(1);
  }
  return grab().toImage();
}

std::vector<int64_t> GraphView::highlighted(const QString& kind) const {
  if (kind == QLatin1String("added")) return added_;
  if (kind == QLatin1String("removed")) return removed_;
  if (kind == QLatin1String("folded")) return folded_;
  if (kind == QLatin1String("rewritten")) return rewritten_;
  if (kind == QLatin1String("missing")) return missing_;
  if (kind == QLatin1String("external")) return external_;
  if (kind == QLatin1String("refused")) return refused_;
  return {};
}

void GraphView::keyPressEvent(QKeyEvent* e) {
  switch (e->key()) {
    case Qt::Key_F: fitView(); return;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); return;
    case Qt::Key_Minus: zoomOut(); return;
    default: QWidget::keyPressEvent(e);
  }
}

void GraphView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  positionOverlays();
}

void GraphView::positionOverlays() {
  const int m = 8;
  legend_button_->move(width() - legend_button_->width() - m - 16, m);
  legend_button_->raise();
  legend_->move(width() - legend_->width() - m - 16, m + legend_button_->height() + 4);
  legend_->raise();
  minimap_->move(width() - minimap_->width() - m - 16, height() - minimap_->height() - m - 16);
  minimap_->raise();
  busy_label_->move((width() - busy_label_->width()) / 2, (height() - busy_label_->height()) / 2);
}

bool GraphView::edgeAt(const QPoint& pos, int64_t* from, int64_t* to) const {
  if (!canvas_) return false;
  const QPoint at = canvas_->viewport()->mapFrom(this, pos);
  const QPointF scene = canvas_->mapToScene(at);
  // The edge whose drawn curve passes nearest, within a few pixels (an
  // item's default shape would fill the area under an open curve, which its
  // neighbours overlap).
  std::vector<EdgeItem*> near;
  for (QGraphicsItem* item : canvas_->items(QRect(at - QPoint(4, 4), QSize(9, 9)))) {
    if (dynamic_cast<NodeItem*>(item) && item->contains(item->mapFromScene(scene))) return false;
    if (auto* e = dynamic_cast<EdgeItem*>(item)) near.push_back(e);
  }
  const double px = 1 / std::max(canvas_->zoom(), 0.01);
  for (double width : {1.0, 3.0, 5.0, 7.0}) {
    QPainterPathStroker stroker;
    stroker.setWidth(width * px);
    for (EdgeItem* e : near) {
      if (!stroker.createStroke(e->path()).contains(e->mapFromScene(scene))) continue;
      *from = e->from();
      *to = e->to();
      return true;
    }
  }
  return false;
}

std::vector<std::pair<int64_t, int64_t>> GraphView::edges() const {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const EdgeItem* e : edge_items_) out.emplace_back(e->from(), e->to());
  return out;
}

}  // namespace hloscope::views
