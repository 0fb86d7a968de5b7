#include "core/layout/graph_model.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/cost/cost_model.h"
#include "core/ir/attributes.h"
#include "core/ir/computation.h"
#include "core/ir/instruction.h"
#include "core/ir/literal.h"
#include "core/layout/graph_model_internal.h"

namespace hloscope::layout {
namespace {

constexpr size_t kMaxShapeChars = 48;
constexpr size_t kMaxConstantChars = 24;

std::string Truncate(std::string s, size_t n) {
  if (s.size() > n) s = s.substr(0, n - 3) + "...";
  return s;
}

std::string ShapeText(const Shape& s) { return Truncate(s.ToString(false), kMaxShapeChars); }

bool IsSmallConstant(const Instruction* i) {
  if (i->opcode() != Opcode::kConstant || !i->shape().IsArray()) return false;
  return i->shape().num_elements() <= 1;
}

// Constants drawn inside their users' labels: scalar constants and broadcasts
// (or reshapes) of them, when they have users and are not the root.
bool IsInlinable(const Instruction* i) {
  if (i->user_count() == 0 || i->IsRoot()) return false;
  if (IsSmallConstant(i)) return true;
  if ((i->opcode() == Opcode::kBroadcast || i->opcode() == Opcode::kReshape) &&
      i->operand_count() == 1 && IsSmallConstant(i->operand(0)))
    return true;
  return false;
}

// Parameters and constants of any size, folded into their users on request
// (GraphOptions::fold_inputs).
bool IsFoldableInput(const Instruction* i) {
  if (i->user_count() == 0 || i->IsRoot()) return false;
  return i->opcode() == Opcode::kParameter || i->opcode() == Opcode::kConstant;
}

std::string InlinedText(const Instruction* i) {
  if (i->opcode() == Opcode::kParameter) return Truncate("param " + i->name() + " " + ShapeText(i->shape()), 56);
  if (i->opcode() == Opcode::kConstant && !IsSmallConstant(i))
    return Truncate("constant " + i->name() + " " + ShapeText(i->shape()), 56);
  const Instruction* c = i->opcode() == Opcode::kConstant ? i : i->operand(0);
  std::string value = c->literal() ? c->literal()->ToString() : "{...}";
  std::string text = i == c ? "constant " + value
                            : std::string(OpcodeName(i->opcode())) + "(" + value + ") " +
                                  i->shape().ToString(false);
  return Truncate(text, kMaxConstantChars + 16);
}

class Builder {
 public:
  Builder(const Module& m, const ModuleSnapshot& snap, const GraphOptions& o)
      : m_(m), snap_(snap), o_(o) {}

  StatusOr<Graph> Build() {
    const Computation* comp = o_.computation.empty() ? m_.entry() : m_.FindComputation(o_.computation);
    if (!comp) {
      return Status::Error("graph: no computation named '" + o_.computation + "'");
    }
    for (const ComputationRecord& cr : snap_.computations) {
      auto& names = ids_[cr.name];
      for (size_t k = 0; k < cr.instruction_count; ++k) {
        const InstructionRecord& r = snap_.instructions[cr.first_instruction + k];
        names.emplace(r.name, r.id);
      }
    }
    g_.computation = comp->name();
    ListComputations();

    std::vector<const Instruction*> top;
    for (const auto& up : comp->instructions()) top.push_back(up.get());
    if ((o_.neighbourhood_hops > 0 && o_.center_id >= 0) || !o_.focus.empty()) {
      ASSIGN_OR_RETURN(std::vector<const Instruction*> kept, Neighbourhood(top));
      top = std::move(kept);
    }
    std::unordered_set<const Instruction*> visible(top.begin(), top.end());

    // Nodes.
    for (const Instruction* i : top) {
      if (Inlined(i)) {
        ASSIGN_OR_RETURN(int64_t id, IdOf(i));
        inlined_ids_[i] = id;
        continue;
      }
      int item = static_cast<int>(items_.size());
      items_.emplace_back();
      items_.back().op_name = i->MetadataValue("op_name");
      items_.back().category = CategoryOf(i->opcode());
      DescribeItem(i, items_.back());
      item_of_instr_[i] = item;
      if (IsExpandedFusion(i)) {
        RETURN_IF_ERROR(AddFusionCluster(i, -1, item));
      } else {
        RETURN_IF_ERROR(AddNode(i, -1, item));
      }
    }
    for (const Instruction* i : top) {
      auto it = item_of_instr_.find(i);
      if (it == item_of_instr_.end()) continue;
      std::vector<int>& ops = items_[static_cast<size_t>(it->second)].operands;
      for (const Instruction* op : i->operands())
        if (auto o = item_of_instr_.find(op); o != item_of_instr_.end() &&
                                              std::find(ops.begin(), ops.end(), o->second) == ops.end())
          ops.push_back(o->second);
    }
    // Edges between visible top-level nodes (fusion internals were added with
    // their cluster).
    for (const Instruction* i : top) {
      if (!node_of_.count(i) && !fused_param_.count(i)) continue;
      for (int k = 0; k < i->operand_count(); ++k) {
        const Instruction* op = i->operand(k);
        if (!visible.count(op) || inlined_ids_.count(op)) continue;
        AddEdge(op, i, k);
      }
    }
    // Inlined constants shown by their users.
    for (const auto& [i, id] : inlined_ids_) {
      int64_t shown = ShownFor(i, 0);
      if (shown != -1) g_.shown_by[id] = shown;
    }

    bool force = false;
    for (int64_t id : o_.expanded) force = force || id < 0;
    internal::ApplyGrouping(g_, items_, item_of_node_, item_of_cluster_, o_, force);
    return std::move(g_);
  }

 private:
  StatusOr<int64_t> IdOf(const Instruction* i) {
    auto c = ids_.find(i->parent()->name());
    if (c != ids_.end()) {
      auto it = c->second.find(i->name());
      if (it != c->second.end()) return it->second;
    }
    return Status::Error("graph: instruction '" + i->name() + "' of computation '" +
                         i->parent()->name() + "' is not in the step's snapshot");
  }

  // The node showing an inlined constant: its first drawn user (through
  // inlined broadcasts).
  int64_t ShownFor(const Instruction* i, int depth) {
    for (const Instruction* u : i->users())
      if (auto it = node_of_.find(u); it != node_of_.end()) return it->second;
    if (depth < 3)
      for (const Instruction* u : i->users())
        if (inlined_ids_.count(u))
          if (int64_t s = ShownFor(u, depth + 1); s != -1) return s;
    return -1;
  }

  static int64_t LeafBytes(const Shape& s) {
    if (s.IsTuple()) {
      int64_t b = 0;
      for (const Shape& e : s.tuple_shapes()) b += LeafBytes(e);
      return b;
    }
    return s.IsArray() ? s.byte_size() : 0;
  }

  static void DescribeItem(const Instruction* i, internal::TopItem& it) {
    it.opcode = std::string(OpcodeName(i->opcode()));
    const std::string shape = i->shape().ToString(false);
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : shape) h = (h ^ c) * 1099511628211ull;
    it.shape_hash = h;
    it.out_bytes = LeafBytes(i->shape());
    it.leaf_input = i->opcode() == Opcode::kParameter || i->opcode() == Opcode::kConstant;
    it.kernels = LaunchesKernel(*i) ? 1 : 0;
  }

  bool IsExpandedFusion(const Instruction* i) {
    if (i->opcode() != Opcode::kFusion || !i->fused_computation()) return false;
    auto id = IdOf(i);
    if (!id.ok()) return false;
    if (o_.collapsed.count(*id)) return false;
    return o_.expand_fusions || o_.expanded.count(*id);
  }

  void ListComputations() {
    std::unordered_set<const Computation*> fused;
    for (const auto& c : m_.computations())
      for (const auto& i : c->instructions())
        if (i->opcode() == Opcode::kFusion && i->fused_computation())
          fused.insert(i->fused_computation());
    if (m_.entry()) g_.computations.push_back(m_.entry()->name());
    for (const auto& c : m_.computations())
      if (c.get() != m_.entry() && !fused.count(c.get())) g_.computations.push_back(c->name());
  }

  bool Inlined(const Instruction* i) const {
    return (o_.inline_small_constants && IsInlinable(i)) || (o_.fold_inputs && IsFoldableInput(i));
  }

  // The instructions within neighbourhood_hops of center_id, or within one
  // hop of the focus set (what changed in the step).
  StatusOr<std::vector<const Instruction*>> Neighbourhood(const std::vector<const Instruction*>& top) {
    std::unordered_set<int64_t> wanted(o_.focus.begin(), o_.focus.end());
    const int hops = o_.focus.empty() ? o_.neighbourhood_hops : 1;
    if (o_.focus.empty()) wanted.insert(o_.center_id);
    std::vector<const Instruction*> centers;
    for (const Instruction* i : top) {
      ASSIGN_OR_RETURN(int64_t id, IdOf(i));
      bool hit = wanted.count(id) > 0;
      if (i->opcode() == Opcode::kFusion && i->fused_computation() && !hit) {
        for (const auto& f : i->fused_computation()->instructions()) {
          auto fid = IdOf(f.get());
          if (fid.ok() && wanted.count(*fid)) hit = true;
        }
      }
      if (hit) centers.push_back(i);
    }
    if (centers.empty()) return top;  // not in this computation: draw everything
    std::unordered_map<const Instruction*, int> dist;
    std::deque<const Instruction*> queue;
    for (const Instruction* c : centers)
      if (dist.emplace(c, 0).second) queue.push_back(c);
    while (!queue.empty()) {
      const Instruction* i = queue.front();
      queue.pop_front();
      int d = dist[i];
      if (d >= hops) continue;
      auto visit = [&](const Instruction* n) {
        if (dist.emplace(n, d + 1).second) queue.push_back(n);
      };
      for (const Instruction* n : i->operands()) visit(n);
      for (const Instruction* n : i->users()) visit(n);
    }
    std::vector<const Instruction*> kept;
    for (const Instruction* i : top)
      if (dist.count(i)) kept.push_back(i);
    return kept;
  }

  Status AddNode(const Instruction* i, int64_t cluster, int item) {
    ASSIGN_OR_RETURN(int64_t id, IdOf(i));
    GraphNode n;
    n.id = id;
    n.name = i->name();
    n.opcode = std::string(OpcodeName(i->opcode()));
    if (i->opcode() == Opcode::kFusion) n.opcode += " " + std::string(FusionKindName(i->fusion_kind()));
    n.shape = ShapeText(i->shape());
    n.label = n.name + " = " + n.opcode + " " + n.shape;
    if (o_.fit_width > 0 && o_.fit_height > 0) {  // the readable first view: name over "opcode shape"
      n.label = n.name;
      n.details = {n.opcode + " " + n.shape};
    }
    n.category = CategoryOf(i->opcode());
    n.op_name = i->MetadataValue("op_name");
    n.cluster = cluster;
    n.is_fusion = i->opcode() == Opcode::kFusion;
    if (i->opcode() != Opcode::kFusion)
      for (const Computation* c : i->called_computations()) n.called.push_back(c->name());
    for (int k = 0; k < i->operand_count(); ++k) {
      const Instruction* op = i->operand(k);
      if (Inlined(op))
        n.inlined_constants.push_back("op" + std::to_string(k) + ": " + InlinedText(op));
    }
    node_of_[i] = id;
    g_.shown_by[id] = id;
    items_[item].instruction_ids.push_back(id);
    if (i->opcode() == Opcode::kFusion && i->fused_computation()) {
      // Collapsed fusion: its fused instructions are shown by it.
      for (const auto& f : i->fused_computation()->instructions()) {
        auto fid = IdOf(f.get());
        if (fid.ok()) {
          g_.shown_by[*fid] = id;
          items_[item].instruction_ids.push_back(*fid);
        }
      }
      items_[item].instructions += i->fused_computation()->instruction_count();
    }
    g_.nodes.push_back(std::move(n));
    item_of_node_.push_back(item);
    return Status::Ok();
  }

  Status AddFusionCluster(const Instruction* fusion, int64_t parent, int item) {
    ASSIGN_OR_RETURN(int64_t id, IdOf(fusion));
    const Computation* fc = fusion->fused_computation();
    g_.clusters.push_back({id, fusion->name() + " (" + std::string(FusionKindName(fusion->fusion_kind())) +
                                   " fusion)", parent, true});
    item_of_cluster_.push_back(item);
    g_.shown_by[id] = id;
    items_[item].instruction_ids.push_back(id);
    std::vector<const Instruction*> inner;
    for (const auto& up : fc->instructions()) inner.push_back(up.get());
    for (const Instruction* i : inner) {
      if (Inlined(i)) {
        ASSIGN_OR_RETURN(int64_t iid, IdOf(i));
        inlined_ids_[i] = iid;
        continue;
      }
      if (i->opcode() == Opcode::kFusion && i->fused_computation()) {
        RETURN_IF_ERROR(AddNode(i, id, item));  // nested fusions stay collapsed
      } else {
        RETURN_IF_ERROR(AddNode(i, id, item));
      }
      ++items_[item].instructions;
    }
    for (const Instruction* i : inner) {
      if (!node_of_.count(i)) continue;
      for (int k = 0; k < i->operand_count(); ++k)
        if (!inlined_ids_.count(i->operand(k))) AddEdge(i->operand(k), i, k);
    }
    // The fusion's operands feed its parameters; its users read its root.
    for (int k = 0; k < fc->num_parameters(); ++k) fused_param_[fusion].push_back(fc->parameter(k));
    out_of_[fusion] = fc->root();
    return Status::Ok();
  }

  void AddEdge(const Instruction* from, const Instruction* to, int operand_index) {
    const Instruction* src = from;
    if (auto it = out_of_.find(src); it != out_of_.end()) src = it->second;
    const Instruction* dst = to;
    if (auto it = fused_param_.find(to); it != fused_param_.end()) {
      if (operand_index >= static_cast<int>(it->second.size())) return;
      dst = it->second[operand_index];
    }
    auto s = node_of_.find(src);
    auto d = node_of_.find(dst);
    if (s == node_of_.end() || d == node_of_.end()) return;
    g_.edges.push_back({s->second, d->second, operand_index, ShapeText(from->shape()), 1});
  }

  const Module& m_;
  const ModuleSnapshot& snap_;
  const GraphOptions& o_;
  Graph g_;
  std::unordered_map<std::string, std::unordered_map<std::string, int64_t>> ids_;
  std::unordered_map<const Instruction*, int64_t> node_of_;
  std::unordered_map<const Instruction*, int64_t> inlined_ids_;
  std::unordered_map<const Instruction*, std::vector<const Instruction*>> fused_param_;
  std::unordered_map<const Instruction*, const Instruction*> out_of_;
  std::vector<internal::TopItem> items_;
  std::unordered_map<const Instruction*, int> item_of_instr_;
  std::vector<int> item_of_node_, item_of_cluster_;
};

}  // namespace

const GraphNode* Graph::FindNode(int64_t id) const {
  for (const GraphNode& n : nodes)
    if (n.id == id) return &n;
  return nullptr;
}

int64_t VisibleNodeFor(const Graph& g, int64_t id) {
  auto it = g.shown_by.find(id);
  return it == g.shown_by.end() ? -1 : it->second;
}

StatusOr<Graph> BuildGraph(const Module& m, const ModuleSnapshot& snap, const GraphOptions& options) {
  return Builder(m, snap, options).Build();
}

}  // namespace hloscope::layout
