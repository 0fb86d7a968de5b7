// DOT text of a Graph with the shared palette: what `export-graph --format
// dot` writes and Graphviz's own `dot` renders.
#include <unordered_map>

#include "core/layout/graph_layout.h"
#include "core/layout/palette.h"

namespace hloscope::layout {
namespace {

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Id(const char* prefix, int64_t id) {
  return std::string(prefix) + (id < 0 ? "m" + std::to_string(-id) : std::to_string(id));
}

class DotWriter {
 public:
  explicit DotWriter(const Graph& g) : g_(g) {
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      int64_t c = g.nodes[i].cluster;
      nodes_in_[ClusterKnown(c) ? c : -1].push_back(i);
    }
    for (size_t i = 0; i < g.clusters.size(); ++i) {
      int64_t p = g.clusters[i].parent;
      clusters_in_[ClusterKnown(p) && p != g.clusters[i].id ? p : -1].push_back(i);
    }
  }

  std::string Write() {
    out_ = "digraph " + Quote(g_.computation.empty() ? "hlo" : g_.computation) + " {\n";
    out_ += "  rankdir=TB;\n  nodesep=0.25;\n  ranksep=0.35;\n";
    if (g_.nodes.size() > 250)
      out_ += "  searchsize=10;\n  nslimit=1;\n  nslimit1=1;\n  mclimit=0.1;\n  remincross=false;\n  splines=false;\n";
    out_ += "  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\", fontsize=10, margin=\"0.08,0.04\"];\n";
    out_ += "  edge [color=\"#616161\", arrowsize=0.6];\n";
    Body(-1, "  ");
    for (const GraphEdge& e : g_.edges) {
      out_ += "  " + Id("n", e.from) + " -> " + Id("n", e.to);
      std::string tip = e.operand_index >= 0 ? "operand " + std::to_string(e.operand_index) + ": " + e.shape
                                             : std::to_string(e.count) + " edges";
      out_ += " [tooltip=" + Quote(tip);
      if (e.count > 1) out_ += ", label=" + Quote("x" + std::to_string(e.count)) + ", fontsize=8";
      out_ += "];\n";
    }
    out_ += "}\n";
    return out_;
  }

 private:
  bool ClusterKnown(int64_t id) const {
    if (id == -1) return false;
    for (const GraphCluster& c : g_.clusters)
      if (c.id == id) return true;
    return false;
  }

  void Body(int64_t cluster, const std::string& indent) {
    for (size_t ci : clusters_in_[cluster]) {
      const GraphCluster& c = g_.clusters[ci];
      out_ += indent + "subgraph " + Id("cluster_", c.id) + " {\n";
      std::string in = indent + "  ";
      out_ += in + "label=" + Quote(c.label) + ";\n" + in + "fontname=\"monospace\";\n" + in + "fontsize=10;\n";
      if (c.is_fusion) {
        out_ += in + "style=\"rounded,filled\";\n" + in + "fillcolor=" + Quote(kFusionClusterFill) + ";\n" + in +
                "color=" + Quote(kFusionClusterBorder) + ";\n";
      } else {
        out_ += in + "style=\"rounded,dashed\";\n" + in + "color=\"#90a4ae\";\n";
      }
      Body(c.id, in);
      out_ += indent + "}\n";
    }
    for (size_t ni : nodes_in_[cluster]) {
      const GraphNode& n = g_.nodes[ni];
      CategoryStyle s = StyleOf(n.category);
      std::string label;
      for (const std::string& l : NodeLabelLines(n)) label += (label.empty() ? "" : "\n") + l;
      out_ += indent + Id("n", n.id) + " [label=" + Quote(label) + ", fillcolor=" + Quote(s.fill) +
              ", color=" + Quote(s.border) + ", fontcolor=" + Quote(s.text);
      if (n.is_group) out_ += ", peripheries=2";
      if (!n.op_name.empty()) out_ += ", tooltip=" + Quote(n.op_name);
      out_ += "];\n";
    }
  }

  const Graph& g_;
  std::string out_;
  std::unordered_map<int64_t, std::vector<size_t>> nodes_in_, clusters_in_;
};

}  // namespace

std::string ToDot(const Graph& g) { return DotWriter(g).Write(); }

}  // namespace hloscope::layout
