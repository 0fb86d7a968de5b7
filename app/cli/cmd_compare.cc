// compare: our optimized module against another (typically XLA's).
#include <cstdio>
#include <filesystem>

#include "app/cli/cli_args.h"
#include "core/stablehlo/load_module.h"
#include "core/cost/device.h"
#include "core/parser/parser.h"
#include "core/passes/pass_registry.h"
#include "core/report/compare.h"
#include "core/report/xla_dump.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

// FILE.hlo, or an --xla_dump_to folder (its after_optimizations module),
// optionally run through a pipeline.
std::unique_ptr<Module> LoadSide(const std::string& path, const std::string& module_sel, const std::string& pipeline,
                                 std::string* label) {
  std::string file = path;
  if (std::filesystem::is_directory(path)) {
    auto mods = report::ListXlaDump(path);
    if (!mods.ok()) {
      std::fprintf(stderr, "%s\n", mods.status().message().c_str());
      return nullptr;
    }
    auto m = report::PickXlaDumpModule(*mods, module_sel);
    if (!m.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), m.status().message().c_str());
      return nullptr;
    }
    const report::XlaDumpStep* s = m->after() ? m->after() : &m->steps.back();
    file = s->path;
  }
  auto m = LoadModuleFile(file);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return nullptr;
  }
  *label = file;
  if (!pipeline.empty() && pipeline != "none") {
    auto p = PassRegistry::Global().BuildPipeline(pipeline);
    if (!p.ok()) {
      std::fprintf(stderr, "hloscope-cli compare: error: %s\n", p.status().message().c_str());
      return nullptr;
    }
    auto ran = (*p)->Run(**m);
    if (!ran.ok()) {
      std::fprintf(stderr, "%s: error: pipeline %s failed: %s\n", file.c_str(), pipeline.c_str(),
                   ran.status().message().c_str());
      return nullptr;
    }
    *label += " (pipeline " + pipeline + ")";
  }
  return std::move(*m);
}

int RunCompare(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline-a", "--pipeline-b", "--device", "--module", "-o"}, {"--json", "--force"}, &err) ||
      args.positional().size() != 2) {
    std::fprintf(stderr, "hloscope-cli compare: error: %s\n", err.empty() ? "expected two inputs A and B" : err.c_str());
    return 2;
  }
  auto device = LoadDevice(args.GetOr("--device", kDefaultDevice));
  if (!device.ok()) {
    std::fprintf(stderr, "hloscope-cli compare: error: %s\n", device.status().message().c_str());
    return 2;
  }
  SetCurrentDevice(*device);
  std::string la, lb;
  auto a = LoadSide(args.positional()[0], args.GetOr("--module", ""), args.GetOr("--pipeline-a", ""), &la);
  if (!a) return 1;
  auto b = LoadSide(args.positional()[1], args.GetOr("--module", ""), args.GetOr("--pipeline-b", ""), &lb);
  if (!b) return 1;
  report::CompareResult r = report::CompareModules(*a, *b, *device);
  r.a.label = la;
  r.b.label = lb;
  std::string text = args.Has("--json") ? report::CompareToJson(r) + "\n" : report::CompareToText(r);
  if (!WriteOutput(args.GetOr("-o", "-"), text, args.Has("--force"), &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(compare, "compare", "compare two optimized modules (ours vs XLA's): totals and fusion groupings",
                     "usage: hloscope-cli compare A B [--pipeline-a P] [--pipeline-b P] [--device ID] [--json]\n"
                     "                            [--module M] [-o OUT] [--force]\n"
                     "A and B are HLO files or --xla_dump_to folders (their after_optimizations module; --module\n"
                     "picks one by id or name). --pipeline-a/-b run a pipeline first (e.g. --pipeline-a gpu on\n"
                     "samples/X.hlo against samples/X.xla_cpu_optimized.hlo or\n"
                     "samples/xla_gpu/X/after_optimizations.txt). Matches ops by name, output, op_name and\n"
                     "scheduling_name metadata (XLA GPU renames ops but keeps them), fused contents and structure,\n"
                     "then prints kernels, fusions, HBM bytes and estimated time of both sides (cost model on\n"
                     "--device, default h200) and the fusion groups one side made and the other split. --json:\n"
                     "schema in docs/compare.md (matched_by, and how each match was made in match_how).",
                     RunCompare);

}  // namespace hloscope::cli
