// export-graph, export-timeline, xla-dump: pictures of a step and XLA's dumps.
#include <cstdio>
#include <filesystem>

#include "app/cli/cli_args.h"
#include "core/stablehlo/load_module.h"
#include "core/cost/device.h"
#include "core/layout/graph_layout.h"
#include "core/memory/buffer_assignment.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/passes/step_recorder.h"
#include "core/report/graph_svg.h"
#include "core/report/timeline.h"
#include "core/report/xla_dump.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

// The step --step names: "initial" or 0 is the input, 1..N the pass runs in
// execution order (Step::index, as the GUI's step table, `explain`, `opt
// --json`, reports and --dump-dir number them), "last" the last one. Null
// after printing an error naming the valid range.
std::shared_ptr<const ModuleSnapshot> PickStep(const std::string& step, const char* cmd, const std::string& pipeline,
                                               const std::shared_ptr<const ModuleSnapshot>& initial,
                                               const std::vector<std::shared_ptr<const Step>>& steps) {
  if (step == "initial") return initial;
  if (step == "last") return steps.empty() ? initial : steps.back()->module;
  long long n = -1;
  try {
    size_t pos;
    n = std::stoll(step, &pos);
    if (pos != step.size()) n = -1;
  } catch (...) {
    n = -1;
  }
  if (n < 0 || n > static_cast<long long>(steps.size())) {
    if (steps.empty())
      std::fprintf(stderr,
                   "hloscope-cli %s: error: --step %s: expected initial, last or 0 (0 is the input; pipeline %s "
                   "ran no pass)\n",
                   cmd, step.c_str(), pipeline.c_str());
    else
      std::fprintf(stderr,
                   "hloscope-cli %s: error: --step %s: expected initial, last or a step number 0..%zu "
                   "(0 is the input; pipeline %s made %zu pass run%s, steps 1..%zu)\n",
                   cmd, step.c_str(), steps.size(), pipeline.c_str(), steps.size(), steps.size() == 1 ? "" : "s",
                   steps.size());
    return nullptr;
  }
  if (n == 0) return initial;
  return steps[n - 1]->module;  // steps[k]->index == k + 1
}

// Runs the pipeline with a recorder and picks the snapshot of --step
// (PickStep); returns null after printing an error.
std::shared_ptr<const ModuleSnapshot> StepSnapshot(const Args& args, const char* cmd, const std::string& dflt_step,
                                                   StepRecorder* recorder) {
  if (auto d = args.Get("--device")) {
    auto spec = LoadDevice(*d);
    if (!spec.ok()) {
      std::fprintf(stderr, "hloscope-cli %s: error: %s\n", cmd, spec.status().message().c_str());
      return nullptr;
    }
    SetCurrentDevice(*spec);
  }
  const std::string file = args.positional()[0];
  auto m = LoadModuleFile(file);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return nullptr;
  }
  std::string step = args.GetOr("--step", dflt_step);
  const bool input_step = step == "initial" || step == "0";
  std::string pipeline = args.GetOr("--pipeline", input_step ? "none" : "gpu");
  if (Status v = VerifyModule(**m); !v.ok()) {
    // A module that does not verify can still be looked at as written, but
    // no pass runs on it: only an explicit request for a later step fails.
    const bool asked_for_passes = (args.Has("--pipeline") && pipeline != "none") ||
                                  (args.Has("--step") && !input_step);
    if (asked_for_passes) {
      std::fprintf(stderr, "%s\n", v.message().c_str());
      return nullptr;
    }
    PrintVerifierWarnings(v.message());
    std::fprintf(stderr, "hloscope-cli %s: warning: showing the input as written (step initial, no pipeline)\n", cmd);
    return ModuleSnapshot::Capture(**m);
  }
  AnnouncePipeline(cmd, pipeline == "none" ? "none (the input as written)" : pipeline);
  if (pipeline == "none") {
    return PickStep(step, cmd, pipeline, ModuleSnapshot::Capture(**m), {});
  }
  auto p = PassRegistry::Global().BuildPipeline(pipeline);
  if (!p.ok()) {
    std::fprintf(stderr, "hloscope-cli %s: error: %s\n", cmd, p.status().message().c_str());
    return nullptr;
  }
  (*p)->AddInstrumentation(recorder);
  auto ran = (*p)->Run(**m);
  if (!ran.ok()) {
    std::fprintf(stderr, "%s: error: pipeline %s failed: %s\n", file.c_str(), pipeline.c_str(),
                 ran.status().message().c_str());
    return nullptr;
  }
  return PickStep(step, cmd, pipeline, recorder->initial(), recorder->steps());
}

int RunExportGraph(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--step", "--format", "-o", "--computation", "--device", "--max-nodes", "--fit"},
                  {"--expand-fusions", "--force"}, &err) ||
      args.positional().size() != 1 || !args.Has("-o")) {
    std::fprintf(stderr, "hloscope-cli export-graph: error: %s\n", err.empty() ? "expected FILE and -o OUT" : err.c_str());
    return 2;
  }
  std::string format = args.GetOr("--format", "svg");
  if (format != "svg" && format != "png" && format != "dot") {
    std::fprintf(stderr, "hloscope-cli export-graph: error: --format must be svg, png or dot\n");
    return 2;
  }
  const std::string out = args.GetOr("-o", "");
  if (out != "-" && std::filesystem::exists(out) && !args.Has("--force")) {
    std::fprintf(stderr, "%s: error: file exists (use --force to overwrite)\n", out.c_str());
    return 1;
  }
  StepRecorder recorder;
  auto snap = StepSnapshot(args, "export-graph", "last", &recorder);
  if (!snap) return 1;
  layout::GraphOptions go;
  go.computation = args.GetOr("--computation", "");
  go.expand_fusions = args.Has("--expand-fusions");
  if (args.Has("--max-nodes")) {
    long long max_nodes = 0;
    if (!args.GetInt("--max-nodes", &max_nodes, &err) || max_nodes < 8 || max_nodes > 100000) {
      std::fprintf(stderr, "hloscope-cli export-graph: error: --max-nodes: %s\n",
                   err.empty() ? "expected a number from 8 to 100000" : err.c_str());
      return 2;
    }
    go.max_nodes = static_cast<size_t>(max_nodes);
  }
  if (args.Has("--fit")) {  // the GUI's first view for a WxH view
    const std::string fit = args.GetOr("--fit", "");
    int w = 0, h = 0;
    if (std::sscanf(fit.c_str(), "%dx%d", &w, &h) != 2 || w < 100 || h < 100 || w > 20000 || h > 20000) {
      std::fprintf(stderr, "hloscope-cli export-graph: error: --fit: expected WxH (100..20000 pixels), got '%s'\n",
                   fit.c_str());
      return 2;
    }
    go.fit_width = w;
    go.fit_height = h;
  }
  std::string text;
  if (format == "dot") {
    auto m = ParseHloModule(snap->text, "<snapshot>");
    if (!m.ok()) {
      std::fprintf(stderr, "%s\n", m.status().message().c_str());
      return 1;
    }
    auto g = layout::BuildGraph(**m, *snap, go);
    if (!g.ok()) {
      std::fprintf(stderr, "%s: error: %s\n", args.positional()[0].c_str(), g.status().message().c_str());
      return 1;
    }
    text = layout::ToDot(*g);
  } else {
    auto laid = report::LayOutSnapshot(*snap, go);
    if (!laid.ok()) {
      std::fprintf(stderr, "%s: error: %s\n", args.positional()[0].c_str(), laid.status().message().c_str());
      return 1;
    }
    if (format == "svg") {
      report::GraphSvgOptions so;
      so.title = args.positional()[0] + " — " + (laid->graph.computation.empty() ? "entry" : laid->graph.computation) +
                 " (step " + args.GetOr("--step", "last") + ")";
      text = report::RenderGraphSvg(*laid, so);
    } else {
      auto png = report::RenderDotPng(layout::ToDot(laid->graph));
      if (!png.ok()) {
        std::fprintf(stderr, "%s\n", png.status().message().c_str());
        return 1;
      }
      text = std::move(*png);
    }
  }
  if (!WriteOutput(out, text, args.Has("--force"), &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  return 0;
}

int RunExportTimeline(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--step", "--format", "-o", "--device", "--xla-buffer-assignment", "--width",
                         "--height"},
                  {"--force"}, &err) ||
      args.positional().size() > 1 || !args.Has("-o") ||
      (args.positional().empty() && !args.Has("--xla-buffer-assignment"))) {
    std::fprintf(stderr, "hloscope-cli export-timeline: error: %s\n",
                 err.empty() ? "expected FILE (or --xla-buffer-assignment F) and -o OUT" : err.c_str());
    return 2;
  }
  std::string format = args.GetOr("--format", "svg");
  if (format != "svg" && format != "png") {
    std::fprintf(stderr, "hloscope-cli export-timeline: error: --format must be svg or png\n");
    return 2;
  }
  long long width = 960, height = 480;
  if (!args.GetInt("--width", &width, &err) || !args.GetInt("--height", &height, &err) || width < 320 || height < 200 ||
      width > 20000 || height > 20000) {
    std::fprintf(stderr, "hloscope-cli export-timeline: error: %s\n",
                 err.empty() ? "--width/--height must be in 320..20000 / 200..20000" : err.c_str());
    return 2;
  }
  const std::string out = args.GetOr("-o", "");
  if (out != "-" && std::filesystem::exists(out) && !args.Has("--force")) {
    std::fprintf(stderr, "%s: error: file exists (use --force to overwrite)\n", out.c_str());
    return 1;
  }
  report::TimelineOptions to;
  to.width = static_cast<int>(width);
  to.height = static_cast<int>(height);
  std::shared_ptr<const BufferAssignment> ba;
  if (auto xla = args.Get("--xla-buffer-assignment")) {
    auto parsed = report::ReadXlaBufferAssignment(*xla);
    if (!parsed.ok()) {
      std::fprintf(stderr, "%s\n", parsed.status().message().c_str());
      return 1;
    }
    to.title = "XLA buffer timeline — " + parsed->module;
    ba = std::make_shared<const BufferAssignment>(std::move(*parsed));
  } else {
    StepRecorder recorder;
    auto snap = StepSnapshot(args, "export-timeline", "last", &recorder);
    if (!snap) return 1;
    auto m = ParseHloModule(snap->text, "<snapshot>");
    if (!m.ok()) {
      std::fprintf(stderr, "%s\n", m.status().message().c_str());
      return 1;
    }
    auto assigned = AssignBuffers(**m);
    if (!assigned.ok()) {
      std::fprintf(stderr, "%s: error: %s\n", args.positional()[0].c_str(), assigned.status().message().c_str());
      return 1;
    }
    ba = *assigned;
  }
  std::string text = format == "svg" ? report::RenderTimelineSvg(*ba, to) : report::RenderTimelinePng(*ba, to);
  if (!WriteOutput(out, text, args.Has("--force"), &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  return 0;
}

int RunXlaDump(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--module"}, {}, &err) || args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli xla-dump: error: %s\n", err.empty() ? "expected one dump folder" : err.c_str());
    return 2;
  }
  auto mods = report::ListXlaDump(args.positional()[0]);
  if (!mods.ok()) {
    std::fprintf(stderr, "%s\n", mods.status().message().c_str());
    return 1;
  }
  for (const auto& m : *mods) {
    if (args.Has("--module") && m.id != args.GetOr("--module", "") && m.name != args.GetOr("--module", "")) continue;
    std::printf("%s %s: %zu steps%s\n", m.id.c_str(), m.name.c_str(), m.steps.size(),
                m.buffer_assignment.empty() ? "" : ", buffer assignment");
    for (size_t k = 0; k < m.steps.size(); ++k)
      std::printf("  %3zu %-60s %s\n", k, m.steps[k].label.c_str(),
                  std::filesystem::path(m.steps[k].path).filename().c_str());
    if (!m.buffer_assignment.empty()) {
      auto ba = report::ReadXlaBufferAssignment(m.buffer_assignment);
      if (ba.ok())
        std::printf("  buffers: %zu in %zu allocations, temp heap %lld B, lower bound %lld B\n", ba->buffers.size(),
                    ba->allocations.size(), static_cast<long long>(ba->peak_bytes),
                    static_cast<long long>(ba->lower_bound_bytes));
      else
        std::printf("  buffer assignment: %s\n", ba.status().message().c_str());
    }
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(export_graph, "export-graph", "the graph of a step as SVG, PNG or DOT",
                     "usage: hloscope-cli export-graph FILE -o OUT [--format svg|png|dot] [--pipeline P|none]\n"
                     "                                 [--step N|last|initial] [--computation NAME]\n"
                     "                                 [--expand-fusions] [--max-nodes N] [--fit WxH] [--device ID] [--force]\n"
                     "Runs the pipeline (default gpu; none with --step initial) and draws the chosen step's\n"
                     "computation (default: entry) as the GUI does: SVG (own renderer of the GUI's layout),\n"
                     "PNG (Graphviz's renderer) or DOT (renders with `dot`). Computations over --max-nodes (default 800) are grouped; graphs over 900 nodes or 450 edges get hloscope's own layered layout instead of dot's (PNG always re-renders with Graphviz).\n"
                     "--fit WxH: the GUI's first view for a view of WxH pixels: grouped (repeated blocks, chunks,\n"
                     "namespaces) and opened only as far as labels stay readable (docs/graph-view.md).\n"
                     "--step: 0 (or initial) is the input, 1, 2, 3... the pass runs in execution order, numbered\n"
                     "as `opt --json`, `explain`, reports, --dump-dir files and the GUI's step table number them.",
                     RunExportGraph);
HLOSCOPE_CLI_COMMAND(export_timeline, "export-timeline", "the buffer timeline of a step (or XLA's) as SVG or PNG",
                     "usage: hloscope-cli export-timeline FILE -o OUT [--format svg|png] [--pipeline P|none]\n"
                     "                                    [--step N|last|initial] [--width W] [--height H] [--force]\n"
                     "       hloscope-cli export-timeline --xla-buffer-assignment F.txt -o OUT [--format svg|png]\n"
                     "--step numbers steps as export-graph does (0 = the input, 1.. = pass runs; default last).\n"
                     "x = schedule position, y = offset (temp heap at the bottom), one rectangle per buffer\n"
                     "coloured by kind, the live-bytes curve, the lower bound and the peak. The second form\n"
                     "draws XLA's own assignment from its *buffer-assignment.txt dump.",
                     RunExportTimeline);
HLOSCOPE_CLI_COMMAND(xla_dump, "xla-dump", "list the modules and steps of an --xla_dump_to folder",
                     "usage: hloscope-cli xla-dump DIR [--module ID|NAME]\n"
                     "Lists each module of the folder with its steps in order (before_optimizations, every\n"
                     "per-pass file of --xla_dump_hlo_pass_re, after_optimizations) and a summary of its\n"
                     "*buffer-assignment.txt.",
                     RunXlaDump);

}  // namespace hloscope::cli
