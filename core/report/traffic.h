// HBM traffic per step — the warehouse trips: bytes the kernels read from
// and write to HBM, and kernel launches, after every step of a run (step 0 =
// the input, then each pass run). The numbers are the cost model's
// (EstimateModule: every kernel reads its operands once and writes its
// result), which the step recorder already computes on the pipeline's
// thread for every step; the series only collects them, so it is O(steps).
// The GUI's chart (views/pipeline/traffic_chart) and the report's "HBM
// traffic per step" section (inline SVG + table) draw the same series.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/passes/step_recorder.h"

namespace hloscope::report {

struct TrafficPoint {
  int step = 0;            // the step number (0 = the input)
  std::string pass;        // "input" for step 0
  bool changed = true;     // the pass changed the module (step 0: true)
  int64_t bytes_read = 0;  // HBM bytes all kernels read
  int64_t bytes_written = 0;
  int64_t kernels = 0;     // kernel launches
  double est_us = 0;       // the cost model's estimated time
  int64_t bytes() const { return bytes_read + bytes_written; }
};

TrafficPoint TrafficPointOf(const Step& s);
// `steps` as PipelineRun and the GUI hold them: steps[0] is the input.
std::vector<TrafficPoint> TrafficSeries(const std::vector<std::shared_ptr<const Step>>& steps);
// A recorder's run: its input (step 0) and then every recorded pass run.
std::vector<TrafficPoint> TrafficSeries(const StepRecorder& recorder);

// The top of a chart axis: the smallest 1, 2, 2.5 or 5 × 10^k at least `v`
// (1 for v <= 0).
double NiceAxisMax(double v);
// "1.25 GB", "640 kB", "12 B" (decimal units, as the steps table).
std::string TrafficBytes(int64_t bytes);
// An axis label: "20 GB", "2.5 MB", "750 kB" (no trailing zeros).
std::string AxisBytes(double bytes);
// One line per point for tooltips: "step 30 priority_fusion: read …, written
// …, total …, 21 kernel launches, est. 12.3 µs".
std::string TrafficSummary(const TrafficPoint& p);

struct TrafficSvgOptions {
  std::string title = "HBM traffic per step";
  bool standalone = false;  // XML declaration (false: inline in HTML)
  int height = 300;
  int width = 0;  // 0: from the number of steps (640 to 1240)
};
// Stacked bars (read below, written on top) per step on the bytes axis
// (left), kernel launches as a line on the right axis; each step is one
// <g class="traffic-step"> with a <title> tooltip; the passes that changed
// the traffic most are named above their bars.
std::string RenderTrafficSvg(const std::vector<TrafficPoint>& series, const TrafficSvgOptions& opts = {});

}  // namespace hloscope::report
