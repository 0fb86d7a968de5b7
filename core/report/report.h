// `hloscope-cli report`: one folder per module run through a pipeline —
// report.html (self-contained: inline CSS and SVG, no network), report.json
// (the same data, schema in docs/report-schema.md) and optimized.hlo.
// Built in memory, then written atomically (a temporary sibling folder
// renamed into place), so a failing run leaves nothing behind.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ir/module.h"
#include "core/memory/buffer_assignment.h"
#include "core/report/xla_fusion_log.h"
#include "core/report/xla_gemm_log.h"
#include "core/support/status.h"

namespace hloscope::report {

inline constexpr const char* kReportFormat = "hloscope-report";
inline constexpr int kReportVersion = 2;  // 2: steps numbered from 1 (0 is the input)

struct ReportOptions {
  std::string pipeline = "gpu";
  std::string device = "h200";  // preset id or JSON path
  std::string source;           // input file, for the summary
  std::function<void(const std::string&)> progress;  // one line per stage
  // Optional: another optimized module of the same program (typically XLA's
  // after_optimizations dump) — a "compare" section (core/report/compare.h).
  const Module* compare_with = nullptr;
  std::string compare_label;
  // Optional: XLA's own buffer assignment (its *buffer-assignment.txt, read
  // by ReadXlaBufferAssignment) — drawn next to ours.
  const BufferAssignment* xla_buffers = nullptr;
  std::string xla_buffers_label;
  // Optional: XLA GPU's own priority fusion log with its module
  // (LoadXlaPriorityFusion) — a "decisions against XLA" section: our
  // decisions beside XLA's, producer by producer, and the cost scatter.
  const XlaPriorityFusion* xla_fusion = nullptr;
  // Optional, with xla_fusion: XLA's logged GEMM fusion search (xla_vlog.txt,
  // ReadXlaGemmLog): that section also sets our GEMM fusions against it.
  const XlaGemmLog* xla_gemm = nullptr;
  // "cpu" or "cuda": run the generated kernels (random inputs, seed 1) and
  // fill the kernels' measured µs; outputs are checked against the
  // interpreter. "" = no run. A failed run is noted in the report.
  std::string run;
  // Assemble every kernel (ptxas -v) and disassemble it (nvdisasm) where the
  // tools are found: kernels/<name>.sass, registers, spills and occupancy per
  // kernel. Without the tools the report says which one is missing.
  bool sass = true;
};

struct ReportFile {
  std::string name;     // relative path inside the report folder
  std::string content;
};

struct Report {
  nlohmann::ordered_json data;  // report.json
  std::string html;
  std::vector<ReportFile> files;  // every file of the folder, report.html and report.json included
};

// Runs the pipeline on `m` (which it changes), records every step, lays
// out the graphs, assigns buffers and renders everything.
StatusOr<Report> BuildReport(Module& m, const ReportOptions& opts);

// The HTML page of a report's data with its pictures (report_html.cc).
struct ReportPictures {
  std::string graph_before, graph_after, timeline, xla_timeline;  // inline <svg> or ""
  std::string cost_scatter;  // ours against XLA's cost estimates (decisions_vs_xla), or ""
  std::string traffic;       // HBM traffic per step (core/report/traffic.h), or ""
  std::string graph_before_note, graph_after_note, timeline_note;  // why a picture is missing / grouped
};
std::string RenderReportHtml(const nlohmann::ordered_json& data, const ReportPictures& pictures);

// Writes `files` into `dir`: refuses an existing `dir` unless `force`; the
// files go to a temporary sibling folder that is renamed into place (the
// old folder, with --force, is removed only after the new one is complete).
Status WriteReportDir(const std::string& dir, const std::vector<ReportFile>& files, bool force);

}  // namespace hloscope::report
