// A small SVG writer for the report and the picture exports: numbers are
// printed with a fixed precision, text is escaped, and the document is one
// string (inline in report.html or a standalone .svg file).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hloscope::report {

struct Point {
  double x = 0, y = 0;
};

class SvgWriter {
 public:
  // A standalone document (with the XML declaration) or an inline <svg>.
  SvgWriter(double width, double height, bool standalone, std::string_view title = {});

  void Rect(double x, double y, double w, double h, std::string_view fill, std::string_view stroke,
            double rx = 0, std::string_view extra = {});
  void Line(double x1, double y1, double x2, double y2, std::string_view stroke, double width = 1,
            std::string_view extra = {});
  void Polyline(const std::vector<Point>& pts, std::string_view stroke, double width = 1,
                std::string_view fill = "none", std::string_view extra = {});
  void Polygon(const std::vector<Point>& pts, std::string_view fill, std::string_view stroke = "none");
  // anchor: start, middle, end.
  void Text(double x, double y, std::string_view text, double size = 11, std::string_view anchor = "start",
            std::string_view fill = "#212121", std::string_view extra = {});
  // A cubic Bézier path through `pts` (1 + 3k points, Graphviz's spline form).
  void Spline(const std::vector<Point>& pts, std::string_view stroke, double width = 1,
              std::string_view extra = {});
  // <title> tooltip for the next element group.
  void OpenGroup(std::string_view cls = {}, std::string_view tooltip = {});
  void CloseGroup();
  void Raw(std::string_view s) { out_ += s; }

  std::string Finish();

 private:
  std::string out_;
  bool finished_ = false;
};

// "12.5" / "3" — a number for an SVG attribute (2 decimals at most).
std::string Num(double v);

}  // namespace hloscope::report
