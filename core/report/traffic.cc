#include "core/report/traffic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/report/svg.h"

namespace hloscope::report {

TrafficPoint TrafficPointOf(const Step& s) {
  TrafficPoint p;
  p.step = s.index;
  p.pass = s.pass;
  p.changed = s.changed || s.index == 0;
  p.bytes_read = s.cost.bytes_read;
  p.bytes_written = s.cost.bytes_written;
  p.kernels = s.cost.kernels;
  p.est_us = s.cost.est_us;
  return p;
}

std::vector<TrafficPoint> TrafficSeries(const std::vector<std::shared_ptr<const Step>>& steps) {
  std::vector<TrafficPoint> out;
  out.reserve(steps.size());
  for (const auto& s : steps)
    if (s) out.push_back(TrafficPointOf(*s));
  return out;
}

std::vector<TrafficPoint> TrafficSeries(const StepRecorder& recorder) {
  Step input;
  input.index = 0;
  input.pass = "input";
  input.changed = true;
  input.cost = recorder.initial_cost();
  std::vector<TrafficPoint> out;
  out.reserve(recorder.steps().size() + 1);
  out.push_back(TrafficPointOf(input));
  for (const auto& s : recorder.steps()) out.push_back(TrafficPointOf(*s));
  return out;
}

double NiceAxisMax(double v) {
  if (!(v > 0) || !std::isfinite(v)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= v * (1 - 1e-12)) return m * p;
  return 10 * p;
}

std::string TrafficBytes(int64_t bytes) {
  const double b = static_cast<double>(std::llabs(bytes));
  char buf[48];
  if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  else if (b >= 1e3) std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return (bytes < 0 ? "-" : "") + std::string(buf);
}

std::string TrafficSummary(const TrafficPoint& p) {
  char us[48];
  std::snprintf(us, sizeof us, "%.2f", p.est_us);
  return "step " + std::to_string(p.step) + " " + p.pass + (p.changed ? "" : " (no change)") + ": read " +
         TrafficBytes(p.bytes_read) + ", written " + TrafficBytes(p.bytes_written) + ", total " +
         TrafficBytes(p.bytes()) + "; " + std::to_string(p.kernels) + " kernel launches; est. " + us + " µs";
}

std::string AxisBytes(double bytes) {
  std::string s = TrafficBytes(static_cast<int64_t>(std::llround(bytes)));
  const size_t sp = s.find(' ');
  if (sp == std::string::npos || s.find('.') > sp) return s;
  size_t end = sp;
  while (s[end - 1] == '0') --end;
  if (s[end - 1] == '.') --end;
  return s.substr(0, end) + s.substr(sp);
}

namespace {

constexpr const char* kReadColor = "#1e88e5";
constexpr const char* kWrittenColor = "#fb8c00";
constexpr const char* kKernelColor = "#37474f";

std::string Count(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// The steps whose traffic changed most (at least 1% of the axis), at most
// `n`, largest change first.
std::vector<size_t> BiggestChanges(const std::vector<TrafficPoint>& s, double axis, size_t n) {
  std::vector<size_t> idx;
  for (size_t i = 1; i < s.size(); ++i)
    if (std::llabs(s[i].bytes() - s[i - 1].bytes()) >= 0.01 * axis) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return std::llabs(s[a].bytes() - s[a - 1].bytes()) > std::llabs(s[b].bytes() - s[b - 1].bytes());
  });
  if (idx.size() > n) idx.resize(n);
  return idx;
}

}  // namespace

std::string RenderTrafficSvg(const std::vector<TrafficPoint>& series, const TrafficSvgOptions& o) {
  const size_t n = series.size();
  const double width = o.width > 0 ? o.width : std::clamp(120.0 + 22.0 * static_cast<double>(n), 640.0, 1240.0);
  const double height = std::max(o.height, 200);
  const double left = 78, right = 70, top = 46, bottom = 44;
  const double x0 = left, x1 = width - right, y0 = top, y1 = height - bottom;
  SvgWriter w(width, height, o.standalone, o.title);
  w.Text(left, 18, o.title, 14, "start", "#212121", "font-weight=\"bold\"");
  // Legend.
  double lx = x1 - 330;
  w.Rect(lx, 27, 10, 10, kReadColor, "none");
  w.Text(lx + 14, 36, "read", 11);
  w.Rect(lx + 52, 27, 10, 10, kWrittenColor, "none");
  w.Text(lx + 66, 36, "written", 11);
  w.Line(lx + 122, 32, lx + 140, 32, kKernelColor, 2);
  w.Text(lx + 144, 36, "kernel launches (right axis)", 11);
  if (n == 0) {
    w.Text((x0 + x1) / 2, (y0 + y1) / 2, "no steps", 12, "middle", "#757575");
    return w.Finish();
  }
  int64_t max_bytes = 0, max_kernels = 0;
  for (const TrafficPoint& p : series) {
    max_bytes = std::max(max_bytes, p.bytes());
    max_kernels = std::max(max_kernels, p.kernels);
  }
  const double bytes_axis = NiceAxisMax(static_cast<double>(max_bytes));
  const double kernel_axis = NiceAxisMax(static_cast<double>(max_kernels));
  auto yb = [&](double b) { return y1 - (y1 - y0) * b / bytes_axis; };
  auto yk = [&](double k) { return y1 - (y1 - y0) * k / kernel_axis; };
  // Grid and both axes' labels.
  for (int t = 0; t <= 4; ++t) {
    const double f = t / 4.0, y = y1 - (y1 - y0) * f;
    w.Line(x0, y, x1, y, t == 0 ? "#9e9e9e" : "#eeeeee", 1);
    w.Text(x0 - 6, y + 4, AxisBytes(bytes_axis * f), 10, "end", "#616161");
    w.Text(x1 + 6, y + 4, Count(kernel_axis * f), 10, "start", kKernelColor);
  }
  w.Text(14, (y0 + y1) / 2, "HBM bytes", 11, "middle", "#616161",
         "transform=\"rotate(-90 14 " + Num((y0 + y1) / 2) + ")\"");
  w.Text(width - 12, (y0 + y1) / 2, "kernels", 11, "middle", kKernelColor,
         "transform=\"rotate(90 " + Num(width - 12) + " " + Num((y0 + y1) / 2) + ")\"");
  const double slot = (x1 - x0) / static_cast<double>(n);
  const double bar = std::max(1.0, slot * 0.7);
  const size_t label_every = std::max<size_t>(1, static_cast<size_t>(std::ceil(28.0 / slot)));
  std::vector<Point> line;
  for (size_t i = 0; i < n; ++i) {
    const TrafficPoint& p = series[i];
    const double cx = x0 + slot * (static_cast<double>(i) + 0.5);
    w.OpenGroup("traffic-step", TrafficSummary(p));
    // The whole slot answers the tooltip, not only the bar.
    w.Rect(x0 + slot * static_cast<double>(i), y0, slot, y1 - y0, "#ffffff", "none", 0, "fill-opacity=\"0\"");
    const std::string faded = p.changed ? "" : "fill-opacity=\"0.45\"";
    const double yr = yb(static_cast<double>(p.bytes_read)), yt = yb(static_cast<double>(p.bytes()));
    w.Rect(cx - bar / 2, yr, bar, y1 - yr, kReadColor, "none", 0, "class=\"read\" " + faded);
    w.Rect(cx - bar / 2, yt, bar, yr - yt, kWrittenColor, "none", 0, "class=\"written\" " + faded);
    w.CloseGroup();
    line.push_back({cx, yk(static_cast<double>(p.kernels))});
    if (i % label_every == 0 || i + 1 == n) w.Text(cx, y1 + 14, std::to_string(p.step), 10, "middle", "#616161");
  }
  w.Text((x0 + x1) / 2, y1 + 32, "step (0 = the input; faded: the pass changed nothing)", 11, "middle", "#616161");
  w.Polyline(line, kKernelColor, 2, "none", "class=\"kernels\"");
  for (const Point& q : line)
    w.Raw("<circle cx=\"" + Num(q.x) + "\" cy=\"" + Num(q.y) + "\" r=\"2.5\" fill=\"" + kKernelColor + "\"/>\n");
  // Name the passes that moved the traffic most (the largest first; one that
  // would crowd a name already placed is left to its tooltip).
  std::vector<double> placed;
  for (size_t i : BiggestChanges(series, bytes_axis, 4)) {
    const double cx = x0 + slot * (static_cast<double>(i) + 0.5);
    if (std::any_of(placed.begin(), placed.end(), [&](double x) { return std::abs(x - cx) < 90; })) continue;
    placed.push_back(cx);
    const double y = std::max(y0 + 10, yb(static_cast<double>(std::max(series[i].bytes(), series[i - 1].bytes()))) - 5);
    const int64_t delta = series[i].bytes() - series[i - 1].bytes();
    w.Text(cx, y, series[i].pass + " " + (delta > 0 ? "+" : "") + TrafficBytes(delta), 9, "middle", "#212121",
           "class=\"annotation\"");
  }
  return w.Finish();
}

}  // namespace hloscope::report
