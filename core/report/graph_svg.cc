#include "core/report/graph_svg.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <mutex>

#include "core/layout/palette.h"
#include "core/parser/parser.h"
#include "core/report/svg.h"
#include "core/report/xml_escape.h"

namespace hloscope::report {

std::string RenderGraphSvg(const layout::LaidOutGraph& g, const GraphSvgOptions& opts) {
  const double margin = 12, title_h = opts.title.empty() ? 0 : 22;
  double w = g.width + 2 * margin, h = g.height + 2 * margin + title_h;
  SvgWriter svg(w, h, opts.standalone, opts.title);
  if (!opts.title.empty()) svg.Text(margin, 16, opts.title, 13, "start", "#212121", "font-weight=\"bold\"");
  const double ox = margin, oy = margin + title_h;
  // Clusters, outermost first (a parent is listed before its children or not; sort by depth).
  std::vector<size_t> order(g.clusters.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto depth = [&](size_t i) {
    int d = 0;
    for (int64_t p = g.graph.clusters[i].parent; p != -1 && d < 64; ++d) {
      auto it = std::find_if(g.graph.clusters.begin(), g.graph.clusters.end(), [&](const auto& c) { return c.id == p; });
      p = it == g.graph.clusters.end() ? -1 : it->parent;
    }
    return d;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return depth(a) < depth(b); });
  svg.OpenGroup("clusters");
  for (size_t i : order) {
    if (i >= g.clusters.size()) continue;
    const layout::GraphCluster& c = g.graph.clusters[i];
    const layout::ClusterBox& b = g.clusters[i];
    if (c.is_fusion)
      svg.Rect(ox + b.x, oy + b.y, b.w, b.h, layout::kFusionClusterFill, layout::kFusionClusterBorder, 6);
    else
      svg.Rect(ox + b.x, oy + b.y, b.w, b.h, "#fafafa", "#9e9e9e", 6, "stroke-dasharray=\"4 3\"");
    svg.Text(ox + b.x + 6, oy + b.y + 12, c.label, 9, "start", c.is_fusion ? "#6a1b9a" : "#616161");
  }
  svg.CloseGroup();
  svg.OpenGroup("edges");
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const layout::EdgePath& e = g.edges[i];
    std::vector<Point> pts;
    for (const auto& [x, y] : e.points) pts.push_back({ox + x, oy + y});
    std::string extra = "marker-end=\"url(#hs-arrow)\"";
    double width = 1;
    if (i < g.graph.edges.size() && g.graph.edges[i].count > 1) width = std::min(4.0, 1 + 0.5 * double(g.graph.edges[i].count - 1));
    svg.Spline(pts, "#616161", width, extra);
  }
  svg.CloseGroup();
  svg.OpenGroup("nodes");
  for (size_t i = 0; i < g.nodes.size() && i < g.graph.nodes.size(); ++i) {
    const layout::GraphNode& n = g.graph.nodes[i];
    const layout::NodeBox& b = g.nodes[i];
    layout::CategoryStyle st = layout::StyleOf(n.is_fusion ? OpCategory::kFusion : n.category);
    std::string tip = n.label;
    if (!n.op_name.empty()) tip += "\n" + n.op_name;
    const bool subject = opts.highlight.count(n.id) > 0;
    svg.Raw(std::string(subject ? "<g class=\"node subject\">" : "<g class=\"node\">") + "<title>" + XmlEscape(tip) +
            "</title>\n");
    std::string extra = subject       ? "stroke-width=\"3.5\""
                        : n.is_group ? "stroke-dasharray=\"5 3\" stroke-width=\"1.5\""
                                     : "stroke-width=\"1.2\"";
    svg.Rect(ox + b.x, oy + b.y, b.w, b.h, st.fill, subject ? "#e65100" : st.border, 5, extra);
    std::vector<std::string> lines = layout::NodeLabelLines(n);
    double ty = oy + b.y + layout::kNodePadPt / 2 + layout::kLineHeightPt - 3;
    for (size_t k = 0; k < lines.size(); ++k) {
      svg.Text(ox + b.x + b.w / 2, ty + k * layout::kLineHeightPt, lines[k], k == 0 ? layout::kFontPt : layout::kFontPt - 1,
               "middle", st.text, "font-family=\"DejaVu Sans Mono, Menlo, monospace\"");
    }
    svg.Raw("</g>\n");
  }
  svg.CloseGroup();
  std::string out = svg.Finish();
  if (opts.max_width > 0 && w > opts.max_width) {
    // Scale the displayed size; the viewBox keeps the coordinates.
    std::string from = "width=\"" + Num(w) + "\" height=\"" + Num(h) + "\"";
    size_t p = out.find(from);
    if (p != std::string::npos)
      out.replace(p, from.size(), "width=\"" + Num(opts.max_width) + "\" height=\"" + Num(h * opts.max_width / w) + "\"");
  }
  return out;
}

StatusOr<layout::LaidOutGraph> LayOutSnapshot(const ModuleSnapshot& snap, const layout::GraphOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Module> m, ParseHloModule(snap.text, "<snapshot>"));
  ASSIGN_OR_RETURN(layout::Graph g, layout::BuildGraph(*m, snap, options));
  layout::LayoutOptions lo;
  lo.allow_stable = false;
  return layout::LayoutGraph(g, lo);
}

StatusOr<std::string> RenderDotPng(const std::string& dot) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  static GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) return Status::Error("error: Graphviz could not read the DOT text");
  char layout_engine[] = "dot";
  if (gvLayout(gvc, g, layout_engine) != 0) {
    agclose(g);
    return Status::Error("error: Graphviz could not lay out the graph");
  }
  char* data = nullptr;
  unsigned int len = 0;
  char format[] = "png";
  int rc = gvRenderData(gvc, g, format, &data, &len);
  std::string out;
  if (rc == 0 && data) out.assign(data, len);
  if (data) gvFreeRenderData(data);
  gvFreeLayout(gvc, g);
  agclose(g);
  if (rc != 0 || out.empty())
    return Status::Error("error: Graphviz has no PNG renderer here (install the cairo plugin: libgvplugin_pango)");
  return out;
}

}  // namespace hloscope::report
