#include "core/report/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/report/xml_escape.h"

namespace hloscope::report {

std::string Num(double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

SvgWriter::SvgWriter(double width, double height, bool standalone, std::string_view title) {
  if (standalone) out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width) + "\" height=\"" + Num(height) +
          "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) +
          "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
  if (!title.empty()) out_ += "<title>" + XmlEscape(title) + "</title>\n";
  out_ +=
      "<defs><marker id=\"hs-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
      "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#616161\"/>"
      "</marker></defs>\n";
  out_ += "<rect x=\"0\" y=\"0\" width=\"" + Num(width) + "\" height=\"" + Num(height) + "\" fill=\"#ffffff\"/>\n";
}

static void AppendExtra(std::string& out, std::string_view extra) {
  if (extra.empty()) return;
  out += ' ';
  out += extra;
}

void SvgWriter::Rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke,
                     double rx, std::string_view extra) {
  out_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(std::max(w, 0.0)) + "\" height=\"" +
          Num(std::max(h, 0.0)) + "\"";
  if (rx > 0) out_ += " rx=\"" + Num(rx) + "\"";
  out_ += " fill=\"" + std::string(fill) + "\" stroke=\"" + std::string(stroke) + "\"";
  AppendExtra(out_, extra);
  out_ += "/>\n";
}

void SvgWriter::Line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
                     std::string_view extra) {
  out_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) +
          "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + Num(width) + "\"";
  AppendExtra(out_, extra);
  out_ += "/>\n";
}

static std::string PointList(const std::vector<Point>& pts) {
  std::string s;
  for (const Point& p : pts) {
    if (!s.empty()) s += ' ';
    s += Num(p.x) + "," + Num(p.y);
  }
  return s;
}

void SvgWriter::Polyline(const std::vector<Point>& pts, std::string_view stroke, double width,
                         std::string_view fill, std::string_view extra) {
  if (pts.empty()) return;
  out_ += "<polyline points=\"" + PointList(pts) + "\" fill=\"" + std::string(fill) + "\" stroke=\"" +
          std::string(stroke) + "\" stroke-width=\"" + Num(width) + "\"";
  AppendExtra(out_, extra);
  out_ += "/>\n";
}

void SvgWriter::Polygon(const std::vector<Point>& pts, std::string_view fill, std::string_view stroke) {
  if (pts.empty()) return;
  out_ += "<polygon points=\"" + PointList(pts) + "\" fill=\"" + std::string(fill) + "\" stroke=\"" +
          std::string(stroke) + "\"/>\n";
}

void SvgWriter::Text(double x, double y, std::string_view text, double size, std::string_view anchor,
                     std::string_view fill, std::string_view extra) {
  out_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" font-size=\"" + Num(size) + "\" text-anchor=\"" +
          std::string(anchor) + "\" fill=\"" + std::string(fill) + "\"";
  AppendExtra(out_, extra);
  out_ += ">" + XmlEscape(text) + "</text>\n";
}

void SvgWriter::Spline(const std::vector<Point>& pts, std::string_view stroke, double width,
                       std::string_view extra) {
  if (pts.size() < 2) return;
  std::string d = "M" + Num(pts[0].x) + "," + Num(pts[0].y);
  if ((pts.size() - 1) % 3 == 0) {
    for (size_t i = 1; i + 2 < pts.size(); i += 3)
      d += " C" + Num(pts[i].x) + "," + Num(pts[i].y) + " " + Num(pts[i + 1].x) + "," + Num(pts[i + 1].y) + " " +
           Num(pts[i + 2].x) + "," + Num(pts[i + 2].y);
  } else {
    for (size_t i = 1; i < pts.size(); ++i) d += " L" + Num(pts[i].x) + "," + Num(pts[i].y);
  }
  out_ += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" + Num(width) +
          "\"";
  AppendExtra(out_, extra);
  out_ += "/>\n";
}

void SvgWriter::OpenGroup(std::string_view cls, std::string_view tooltip) {
  out_ += "<g";
  if (!cls.empty()) out_ += " class=\"" + XmlEscape(cls) + "\"";
  out_ += ">";
  if (!tooltip.empty()) out_ += "<title>" + XmlEscape(tooltip) + "</title>";
  out_ += "\n";
}

void SvgWriter::CloseGroup() { out_ += "</g>\n"; }

std::string SvgWriter::Finish() {
  if (!finished_) {
    out_ += "</svg>\n";
    finished_ = true;
  }
  return out_;
}

}  // namespace hloscope::report
