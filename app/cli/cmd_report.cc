// report: a self-contained HTML report + JSON + optimized HLO in one folder.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/cli/cli_args.h"
#include "core/stablehlo/load_module.h"
#include "core/parser/parser.h"
#include "core/report/lesson_html.h"
#include "core/report/report.h"
#include "core/session/lesson.h"
#include "core/session/session.h"
#include "core/report/xla_dump.h"
#include "core/report/xla_fusion_log.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// report --lesson: the guided tour as DIR/lesson.html (core/report/lesson_html.h).
int RunLessonReport(const Args& args, const std::string& file, const std::string& out) {
  for (const char* flag : {"--compare-with", "--xla-buffer-assignment", "--xla-dump", "--xla-module", "--run"})
    if (args.Has(flag)) {
      std::fprintf(stderr, "hloscope-cli report: error: --lesson does not take %s (it belongs to the full report)\n", flag);
      return 2;
    }
  const bool quiet = args.Has("--quiet");
  auto say = [&](const std::string& line) {
    if (!quiet) std::fprintf(stderr, "report: %s\n", line.c_str());
  };
  auto t0 = std::chrono::steady_clock::now();
  auto session = Session::Load(file);
  if (!session.ok()) {
    std::fprintf(stderr, "%s\n", session.status().message().c_str());
    return 1;
  }
  say("loaded " + file + " (" + std::to_string((*session)->instruction_count()) + " instructions) in " +
      std::to_string(static_cast<int>(MsSince(t0))) + " ms");
  RunOptions ro;
  ro.pipeline = args.GetOr("--pipeline", "gpu");
  ro.device = args.GetOr("--device", "h200");
  AnnouncePipeline("report", ro.pipeline);
  auto t1 = std::chrono::steady_clock::now();
  auto run = (*session)->RunPipeline(ro);
  if (!run.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", file.c_str(), run.status().message().c_str());
    return 1;
  }
  say("pipeline " + ro.pipeline + ": " + std::to_string((*run)->size() - 1) + " steps in " +
      std::to_string(static_cast<int>(MsSince(t1))) + " ms");
  auto t2 = std::chrono::steady_clock::now();
  auto lesson = BuildLesson(**session, **run);
  if (!lesson.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", file.c_str(), lesson.status().message().c_str());
    return 1;
  }
  say("lesson: " + std::to_string(lesson->stages.size()) + " stages in " + std::to_string(static_cast<int>(MsSince(t2))) +
      " ms");
  auto t3 = std::chrono::steady_clock::now();
  report::LessonPageOptions po;
  po.source = file;
  po.progress = say;
  std::string html = report::RenderLessonHtml(**session, **run, *lesson, po);
  say("lesson.html rendered in " + std::to_string(static_cast<int>(MsSince(t3))) + " ms");
  if (Status s = report::WriteReportDir(out, {{"lesson.html", html}}, args.Has("--force")); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  std::fprintf(stderr, "report: wrote %s/lesson.html (%zu bytes, %zu stages)\n", out.c_str(), html.size(),
               lesson->stages.size());
  return 0;
}

int RunReport(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--device", "--out", "--compare-with", "--xla-buffer-assignment", "--xla-dump",
                         "--xla-module", "--run"},
                  {"--force", "--quiet", "--no-sass", "--lesson"}, &err) ||
      args.positional().size() != 1 || !args.Has("--out")) {
    std::fprintf(stderr, "hloscope-cli report: error: %s\n", err.empty() ? "expected FILE and --out DIR" : err.c_str());
    return 2;
  }
  const std::string file = args.positional()[0], out = args.GetOr("--out", "");
  if (std::filesystem::exists(out) && !args.Has("--force")) {
    std::fprintf(stderr, "%s: error: already exists (use --force to replace it)\n", out.c_str());
    return 1;
  }
  if (args.Has("--lesson")) return RunLessonReport(args, file, out);
  auto m = LoadModuleFile(file);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return 1;
  }
  if (Status s = VerifyModule(**m); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  // What to set next to ours: another optimized module and/or XLA's own
  // buffer assignment, given directly or picked from an --xla_dump_to folder.
  std::string compare_file = args.GetOr("--compare-with", ""), xla_ba_file = args.GetOr("--xla-buffer-assignment", "");
  if (args.Has("--xla-dump")) {
    auto mods = report::ListXlaDump(args.GetOr("--xla-dump", ""));
    if (!mods.ok()) {
      std::fprintf(stderr, "%s\n", mods.status().message().c_str());
      return 1;
    }
    auto picked = report::PickXlaDumpModule(*mods, args.GetOr("--xla-module", ""));
    if (!picked.ok()) {
      std::fprintf(stderr, "%s\n", picked.status().message().c_str());
      return 1;
    }
    if (compare_file.empty() && picked->after()) compare_file = picked->after()->path;
    if (xla_ba_file.empty()) xla_ba_file = picked->buffer_assignment;
  }
  // XLA's own fusion decisions, when the dump has its priority fusion log.
  std::optional<report::XlaPriorityFusion> xla_fusion;
  if (args.Has("--xla-dump")) {
    auto pf = report::LoadXlaPriorityFusion(args.GetOr("--xla-dump", ""), args.GetOr("--xla-module", ""));
    if (pf.ok()) {
      xla_fusion = std::move(*pf);
    } else if (!args.Has("--quiet")) {
      std::fprintf(stderr, "report: no decisions-against-XLA section: %s\n", pf.status().message().c_str());
    }
  }
  std::unique_ptr<Module> other;
  if (!compare_file.empty()) {
    auto o = LoadModuleFile(compare_file);
    if (!o.ok()) {
      std::fprintf(stderr, "%s\n", o.status().message().c_str());
      return 1;
    }
    other = std::move(*o);
  }
  std::optional<BufferAssignment> xla_ba;
  if (!xla_ba_file.empty()) {
    auto x = report::ReadXlaBufferAssignment(xla_ba_file);
    if (!x.ok()) {
      std::fprintf(stderr, "%s\n", x.status().message().c_str());
      return 1;
    }
    xla_ba = std::move(*x);
  }
  report::ReportOptions opts;
  opts.run = args.GetOr("--run", "");
  opts.sass = !args.Has("--no-sass");
  if (!opts.run.empty() && opts.run != "cpu" && opts.run != "cuda") {
    std::fprintf(stderr, "hloscope-cli report: error: --run takes cpu or cuda, not '%s'\n", opts.run.c_str());
    return 2;
  }
  if (other) {
    opts.compare_with = other.get();
    opts.compare_label = compare_file;
  }
  if (xla_ba) {
    opts.xla_buffers = &*xla_ba;
    opts.xla_buffers_label = xla_ba_file;
  }
  if (xla_fusion) opts.xla_fusion = &*xla_fusion;
  // XLA's logged GEMM search, when the folder has it (xla_vlog.txt).
  std::optional<report::XlaGemmLog> xla_gemm;
  if (xla_fusion)
    if (auto log = report::ReadXlaGemmLog(args.GetOr("--xla-dump", "")); log.ok()) xla_gemm = std::move(*log);
  if (xla_gemm) opts.xla_gemm = &*xla_gemm;
  opts.pipeline = args.GetOr("--pipeline", "gpu");
  AnnouncePipeline("report", opts.pipeline);
  // Against XLA's decisions, our cost model prices the device XLA's priced.
  std::string log_device = xla_fusion ? report::DevicePresetOfLog(xla_fusion->log) : "";
  opts.device = args.GetOr("--device", log_device.empty() ? "h200" : log_device);
  opts.source = file;
  if (!args.Has("--quiet")) opts.progress = [](const std::string& line) { std::fprintf(stderr, "report: %s\n", line.c_str()); };
  auto r = report::BuildReport(**m, opts);
  if (!r.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", file.c_str(), r.status().message().c_str());
    return 1;
  }
  if (Status s = report::WriteReportDir(out, r->files, args.Has("--force")); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  std::fprintf(stderr, "report: wrote %s/report.html (%zu bytes), report.json, optimized.hlo\n", out.c_str(),
               r->html.size());
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(report, "report", "self-contained HTML report (+ JSON, optimized HLO) of a pipeline run",
                     "usage: hloscope-cli report FILE --out DIR [--pipeline gpu] [--device h200] [--force] [--quiet]\n"
                     "                           [--compare-with OTHER.hlo] [--xla-buffer-assignment F.txt]\n"
                     "                           [--xla-dump DIR [--xla-module ID|NAME]] [--run cpu|cuda] [--no-sass]\n"
                     "       hloscope-cli report FILE --lesson --out DIR [--pipeline gpu] [--device h200] [--force] [--quiet]\n"
                     "Runs the pipeline (default gpu) with the verifier and writes DIR/report.html (one file:\n"
                     "inline CSS and SVG, opens offline: summary, steps with no-op steps folded, graphs before\n"
                     "and after, fusion decisions, buffer timeline, kernels), DIR/report.json (schema\n"
                     "docs/report-schema.md) and DIR/optimized.hlo. DIR is written atomically; an existing DIR\n"
                     "is only replaced with --force. Progress lines go to stderr.\n"
                     "The kernels section is never all or nothing: it counts and lists the kernels generated,\n"
                     "those missing (no emitter implements the op; with the reason) and the thunks that are not\n"
                     "kernels of ours (custom-calls into external targets, collectives, host transfers). Where\n"
                     "ptxas and nvdisasm are found, each kernel's SASS is written (kernels/NAME.sass) and the table\n"
                     "lists its registers, spills and occupancy on the device (--no-sass: skip that).\n"
                     "--compare-with adds a section comparing our optimized module with OTHER (typically XLA's\n"
                     "after_optimizations dump; as `compare`); --xla-buffer-assignment draws XLA's own buffer\n"
                     "timeline next to ours; --xla-dump takes both from an --xla_dump_to folder (the module\n"
                     "picked by --xla-module, else the largest; a folder of tools/xla_gpu_reference.py such as\n"
                     "samples/xla_gpu/STEM works too) and, when it has XLA's priority_fusion_dump, adds our fusion\n"
                     "decisions beside XLA's with the cost scatter (as `decisions-diff`; --device then defaults\n"
                     "to the log's device). --run runs the kernels (random inputs, seed 1) on\n"
                     "the CPU executor or the local GPU, checks them against the interpreter and fills the kernel\n"
                     "table's measured µs (a failed run, e.g. no GPU, is noted in the report).\n"
                     "--lesson writes, instead of the report, DIR/lesson.html: the guided tour of the run (docs/lesson.md;\n"
                     "the GUI's Help > Guided tour) as one offline page, each stage with its text generated from the\n"
                     "run, the graph of its step with its subjects outlined, the HBM traffic chart (fusion), the buffer\n"
                     "timeline (buffers) and one kernel's LLVM IR and PTX (kernels). It compiles one kernel, not all,\n"
                     "so it stays quick on large modules; the full report is the same command without --lesson.",
                     RunReport);

}  // namespace hloscope::cli
