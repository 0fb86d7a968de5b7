#include "core/report/timeline.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/layout/palette.h"
#include "core/report/png.h"
#include "core/report/svg.h"
#include "core/report/xml_escape.h"

namespace hloscope::report {
namespace {

std::string Bytes(int64_t b) {
  char buf[48];
  if (b >= (int64_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / double(int64_t{1} << 30));
  else if (b >= (1 << 20)) std::snprintf(buf, sizeof buf, "%.2f MiB", double(b) / double(1 << 20));
  else if (b >= (1 << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / 1024.0);
  else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}

// Where everything goes, shared by the SVG and the PNG renderers.
struct Geometry {
  double left = 80, right = 20, top = 36, bottom = 52;
  double width = 0, height = 0;
  int64_t positions = 1;       // x range [0, positions)
  int64_t max_bytes = 1;       // y range [0, max_bytes)
  std::map<int, int64_t> base;  // allocation index → y base
  double X(double pos) const { return left + (width - left - right) * pos / double(positions); }
  double Y(double bytes) const { return height - bottom - (height - top - bottom) * bytes / double(max_bytes); }
};

Geometry Layout(const BufferAssignment& ba, const TimelineOptions& o) {
  Geometry g;
  g.width = std::max(o.width, 320);
  g.height = std::max(o.height, 200);
  int64_t positions = static_cast<int64_t>(std::max(ba.sequence.size(), ba.live_bytes.size()));
  for (const AssignedBuffer& b : ba.buffers) positions = std::max(positions, b.end + 1);
  g.positions = std::max<int64_t>(positions, 1);
  // Temp allocations first (the heap at the bottom), then the others by index.
  std::vector<const AllocationInfo*> order;
  for (const AllocationInfo& a : ba.allocations) order.push_back(&a);
  std::stable_sort(order.begin(), order.end(), [](const AllocationInfo* a, const AllocationInfo* b) {
    return (a->kind == BufferKind::kTemp) > (b->kind == BufferKind::kTemp);
  });
  int64_t y = 0;
  for (const AllocationInfo* a : order) {
    g.base[a->index] = y;
    y += a->size;
  }
  int64_t live_max = ba.live_bytes.empty() ? 0 : *std::max_element(ba.live_bytes.begin(), ba.live_bytes.end());
  g.max_bytes = std::max<int64_t>({y, ba.peak_bytes, ba.lower_bound_bytes, live_max, 1});
  return g;
}

std::string Title(const BufferAssignment& ba, const TimelineOptions& o) {
  return o.title.empty() ? "buffer timeline — " + ba.module : o.title;
}

std::string Summary(const BufferAssignment& ba) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "peak %s · lower bound %s · ratio %.3f · %zu buffers", Bytes(ba.peak_bytes).c_str(),
                Bytes(ba.lower_bound_bytes).c_str(), ba.ratio(), ba.buffers.size());
  return buf;
}

}  // namespace

std::string RenderTimelineSvg(const BufferAssignment& ba, const TimelineOptions& o) {
  Geometry g = Layout(ba, o);
  SvgWriter svg(g.width, g.height, o.standalone, Title(ba, o));
  svg.Text(g.left, 16, Title(ba, o), 13, "start", "#212121", "font-weight=\"bold\"");
  svg.Text(g.left, 30, Summary(ba), 10, "start", "#424242");
  // Axes.
  double x0 = g.X(0), x1 = g.X(double(g.positions)), y0 = g.Y(0), ytop = g.Y(double(g.max_bytes));
  svg.Rect(x0, ytop, x1 - x0, y0 - ytop, "#fafafa", "#bdbdbd", 0, "class=\"plot\"");
  for (int k = 0; k <= 4; ++k) {
    double bytes = double(g.max_bytes) * k / 4.0;
    double y = g.Y(bytes);
    svg.Line(x0 - 4, y, x0, y, "#616161");
    svg.Text(x0 - 6, y + 3, Bytes(static_cast<int64_t>(bytes)), 9, "end", "#424242");
  }
  int64_t step = std::max<int64_t>(1, g.positions / 10);
  for (int64_t p = 0; p <= g.positions; p += step) {
    svg.Line(g.X(double(p)), y0, g.X(double(p)), y0 + 4, "#616161");
    svg.Text(g.X(double(p)), y0 + 14, std::to_string(p), 9, "middle", "#424242");
  }
  svg.Text((x0 + x1) / 2, g.height - 8, "schedule position", 10, "middle", "#424242");
  svg.Text(12, (y0 + ytop) / 2, "offset (bytes)", 10, "middle", "#424242",
           "transform=\"rotate(-90 12 " + Num((y0 + ytop) / 2) + ")\"");
  // Buffers.
  svg.OpenGroup("buffers");
  for (const AssignedBuffer& b : ba.buffers) {
    auto it = g.base.find(b.allocation);
    int64_t base = it == g.base.end() ? 0 : it->second;
    double bx = g.X(double(b.start)), bw = g.X(double(b.end + 1)) - bx;
    double by = g.Y(double(base + b.offset + b.bytes)), bh = g.Y(double(base + b.offset)) - by;
    std::string kind(BufferKindName(b.kind));
    std::string tip = b.instruction + " " + b.shape + " " + Bytes(b.bytes) + " @" + std::to_string(b.offset) +
                      " alloc " + std::to_string(b.allocation) + " [" + std::to_string(b.start) + ", " +
                      std::to_string(b.end) + "] " + kind;
    if (!b.share_reason.empty()) tip += "; shares: " + b.share_reason;
    const IoAliasOutcome* io = ba.AliasOf(b.id);
    const bool copy = io && !io->copy.empty();
    if (copy) tip += "; copy inserted by copy_insertion for a donated parameter";
    svg.Raw("<g><title>" + XmlEscape(tip) + "</title>");
    svg.Rect(bx, by, bw, std::max(bh, 0.5), layout::BufferKindColor(kind), copy ? "#212121" : "#ffffff", 0,
             copy ? "stroke-width=\"1.5\" stroke-dasharray=\"3 2\" fill-opacity=\"0.85\" class=\"inserted-copy\""
                  : "stroke-width=\"0.5\" fill-opacity=\"0.85\"");
    svg.Raw("</g>\n");
  }
  svg.CloseGroup();
  // Live temp bytes, lower bound, peak.
  std::vector<Point> curve;
  for (size_t p = 0; p < ba.live_bytes.size(); ++p) {
    curve.push_back({g.X(double(p)), g.Y(double(ba.live_bytes[p]))});
    curve.push_back({g.X(double(p + 1)), g.Y(double(ba.live_bytes[p]))});
  }
  svg.Polyline(curve, "#c62828", 1.5, "none", "class=\"live-curve\"");
  double ylb = g.Y(double(ba.lower_bound_bytes));
  svg.Line(x0, ylb, x1, ylb, "#6a1b9a", 1, "stroke-dasharray=\"6 3\" class=\"lower-bound\"");
  svg.Text(x1 - 2, ylb - 3, "lower bound " + Bytes(ba.lower_bound_bytes), 9, "end", "#6a1b9a");
  double ypk = g.Y(double(ba.peak_bytes));
  svg.Line(x0, ypk, x1, ypk, "#c62828", 1, "stroke-dasharray=\"2 2\" class=\"peak\"");
  svg.Text(x0 + 2, ypk - 3, "peak (heap) " + Bytes(ba.peak_bytes), 9, "start", "#c62828");
  double px = g.X(double(ba.peak_position) + 0.5);
  svg.Polygon({{px - 5, ylb - 10}, {px + 5, ylb - 10}, {px, ylb}}, "#c62828");
  // Legend.
  double lx = x1 - 300;
  for (const char* kind : {"parameter", "constant", "temp", "output"}) {
    svg.Rect(lx, 22, 10, 10, layout::BufferKindColor(kind), "#757575");
    svg.Text(lx + 13, 31, kind, 9);
    lx += 72;
  }
  bool any_copy = false;
  for (const IoAliasOutcome& io : ba.io_aliases) any_copy |= !io.copy.empty();
  if (any_copy) {
    svg.Rect(x1 - 300 - 150, 22, 10, 10, "#ffffff", "#212121", 0, "stroke-dasharray=\"3 2\"");
    svg.Text(x1 - 300 - 137, 31, "copy for a donated parameter", 9);
  }
  return svg.Finish();
}

std::string RenderTimelinePng(const BufferAssignment& ba, const TimelineOptions& o) {
  Geometry g = Layout(ba, o);
  Raster r(static_cast<int>(g.width), static_cast<int>(g.height));
  const Rgb ink = ParseColor("#424242"), red = ParseColor("#c62828"), purple = ParseColor("#6a1b9a");
  r.Text(static_cast<int>(g.left), 6, Title(ba, o).substr(0, 120), ParseColor("#212121"));
  r.Text(static_cast<int>(g.left), 20, Summary(ba), ink);
  double x0 = g.X(0), x1 = g.X(double(g.positions)), y0 = g.Y(0), ytop = g.Y(double(g.max_bytes));
  r.FillRect(x0, ytop, x1 - x0, y0 - ytop, ParseColor("#fafafa"));
  for (const AssignedBuffer& b : ba.buffers) {
    auto it = g.base.find(b.allocation);
    int64_t base = it == g.base.end() ? 0 : it->second;
    double bx = g.X(double(b.start)), bw = g.X(double(b.end + 1)) - bx;
    double by = g.Y(double(base + b.offset + b.bytes)), bh = g.Y(double(base + b.offset)) - by;
    r.FillRect(bx, by, bw, bh, ParseColor(layout::BufferKindColor(BufferKindName(b.kind))));
    if (const IoAliasOutcome* io = ba.AliasOf(b.id); io && !io->copy.empty())
      r.StrokeRect(bx, by, bw, std::max(bh, 1.0), ParseColor("#212121"));
  }
  r.StrokeRect(x0, ytop, x1 - x0, y0 - ytop, ParseColor("#bdbdbd"));
  for (size_t p = 0; p < ba.live_bytes.size(); ++p) {
    double y = g.Y(double(ba.live_bytes[p]));
    r.Line(g.X(double(p)), y, g.X(double(p + 1)), y, red, 2);
    if (p + 1 < ba.live_bytes.size()) r.Line(g.X(double(p + 1)), y, g.X(double(p + 1)), g.Y(double(ba.live_bytes[p + 1])), red, 2);
  }
  double ylb = g.Y(double(ba.lower_bound_bytes)), ypk = g.Y(double(ba.peak_bytes));
  for (double x = x0; x < x1; x += 9) r.Line(x, ylb, std::min(x + 5, x1), ylb, purple);
  for (double x = x0; x < x1; x += 4) r.Line(x, ypk, std::min(x + 2, x1), ypk, red);
  double px = g.X(double(ba.peak_position) + 0.5);
  for (int k = 0; k < 8; ++k) r.Line(px - (8 - k) * 0.6, ylb - 10 + k, px + (8 - k) * 0.6, ylb - 10 + k, red);
  for (int k = 0; k <= 4; ++k) {
    double bytes = double(g.max_bytes) * k / 4.0;
    std::string label = Bytes(static_cast<int64_t>(bytes));
    r.Line(x0 - 4, g.Y(bytes), x0, g.Y(bytes), ink);
    r.Text(static_cast<int>(x0) - 6 - Raster::TextWidth(label), static_cast<int>(g.Y(bytes)) - 4, label, ink);
  }
  int64_t step = std::max<int64_t>(1, g.positions / 10);
  for (int64_t p = 0; p <= g.positions; p += step) {
    std::string label = std::to_string(p);
    r.Line(g.X(double(p)), y0, g.X(double(p)), y0 + 4, ink);
    r.Text(static_cast<int>(g.X(double(p))) - Raster::TextWidth(label) / 2, static_cast<int>(y0) + 7, label, ink);
  }
  std::string xl = "schedule position";
  r.Text(static_cast<int>((x0 + x1) / 2) - Raster::TextWidth(xl) / 2, static_cast<int>(g.height) - 14, xl, ink);
  int lx = static_cast<int>(x1) - 300;
  for (const char* kind : {"parameter", "constant", "temp", "output"}) {
    r.FillRect(lx, 6, 10, 10, ParseColor(layout::BufferKindColor(kind)));
    r.Text(lx + 13, 8, kind, ink);
    lx += 72;
  }
  return r.EncodePng();
}

}  // namespace hloscope::report
