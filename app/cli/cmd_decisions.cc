// decisions-diff: our priority fusion decisions against XLA GPU's own log.
#include <cstdio>

#include "app/cli/cli_args.h"
#include "core/cost/device.h"
#include "core/report/decisions_diff.h"
#include "core/report/xla_costs.h"
#include "core/report/xla_fusion_log.h"
#include "core/session/session.h"

namespace hloscope::cli {
namespace {

int RunDecisionsDiff(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--xla-dump", "--pipeline", "--device", "--module", "--svg", "-o"},
                  {"--json", "--all", "--force"}, &err) ||
      args.positional().size() != 1 || !args.Has("--xla-dump")) {
    std::fprintf(stderr, "hloscope-cli decisions-diff: error: %s\n",
                 err.empty() ? "expected FILE and --xla-dump DIR" : err.c_str());
    return 2;
  }
  const std::string dir = args.GetOr("--xla-dump", "");
  auto xla = report::LoadXlaPriorityFusion(dir, args.GetOr("--module", ""));
  if (!xla.ok()) {
    std::fprintf(stderr, "%s\n", xla.status().message().c_str());
    return 1;
  }
  std::string device = args.GetOr("--device", "");
  if (device.empty()) device = report::DevicePresetOfLog(xla->log);
  if (device.empty()) device = kDefaultDevice;
  auto spec = LoadDevice(device);
  if (!spec.ok()) {
    std::fprintf(stderr, "hloscope-cli decisions-diff: error: %s\n", spec.status().message().c_str());
    return 2;
  }
  SetCurrentDevice(*spec);
  const std::string pipeline = args.GetOr("--pipeline", "gpu");
  AnnouncePipeline("decisions-diff", pipeline);
  auto session = Session::Load(args.positional()[0]);
  if (!session.ok()) {
    std::fprintf(stderr, "%s\n", session.status().message().c_str());
    return 1;
  }
  RunOptions opts;
  opts.pipeline = pipeline;
  opts.device = device;
  auto run = (*session)->RunPipeline(opts);
  if (!run.ok()) {
    std::fprintf(stderr, "%s: error: pipeline %s failed: %s\n", args.positional()[0].c_str(), pipeline.c_str(),
                 run.status().message().c_str());
    return 1;
  }
  auto diff = report::DiffDecisions(**run, *xla);
  if (!diff.ok()) {
    std::fprintf(stderr, "hloscope-cli decisions-diff: %s\n", diff.status().message().c_str());
    return 1;
  }
  diff->ours_label = args.positional()[0] + " (pipeline " + pipeline + ", device " + device + ")";
  // XLA's GEMM search, when the folder has XLA's log of it: against our
  // GEMM fusions on the module our priority fusion ran on.
  if (auto log = report::ReadXlaGemmLog(dir); log.ok()) {
    if (auto before = (*run)->ModuleAt(diff->our_step - 1); before.ok()) {
      diff->gemm = report::CompareGemmSearches(**before, *log);
      diff->gemm_log = log->origin;
    }
  }
  // XLA's own estimate of each instruction, when the folder has it
  // (xla_costs.tsv): our cost model on the very module XLA's priority fusion
  // started from.
  if (auto costs = report::InstructionCostsBesideLog(xla->log.origin, *spec); !costs.ok()) {
    std::fprintf(stderr, "hloscope-cli decisions-diff: warning: XLA's cost estimates left out: %s\n",
                 costs.status().message().c_str());
  } else if (*costs) {
    diff->instruction_costs = std::move((*costs)->comparison);
    diff->costs_log = (*costs)->table;
  }
  if (!xla->unresolved.empty())
    std::fprintf(stderr,
                 "hloscope-cli decisions-diff: warning: %zu of %lld names in %s are not instructions of %s (is the log "
                 "from another module?)\n",
                 xla->unresolved.size(), static_cast<long long>(xla->names), xla->log.origin.c_str(),
                 xla->before_label.c_str());
  if (auto svg = args.Get("--svg")) {
    if (!WriteOutput(*svg, report::CostScatterSvg(diff->cost), args.Has("--force"), &err)) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
  }
  std::string text = args.Has("--json") ? report::DecisionsDiffToJson(*diff) + "\n"
                                        : report::DecisionsDiffToText(*diff, args.Has("--all") ? -1 : 60);
  if (!WriteOutput(args.GetOr("-o", "-"), text, args.Has("--force"), &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(decisions_diff, "decisions-diff",
                     "our fusion decisions against XLA GPU's own (its priority_fusion_dump), producer by producer",
                     "usage: hloscope-cli decisions-diff FILE --xla-dump DIR [--pipeline gpu] [--device ID] [--json]\n"
                     "                                   [--all] [--module M] [--svg COST.svg] [-o OUT] [--force]\n"
                     "Runs FILE through --pipeline (default gpu) and sets our priority_fusion decisions beside XLA\n"
                     "GPU's from DIR: an --xla_dump_to folder dumped with --xla_dump_hlo_pass_re=.*, or a folder\n"
                     "written by tools/xla_gpu_reference.py (samples/xla_gpu/STEM). Producers are matched between\n"
                     "the module our priority fusion ran on and the one XLA's ran on (names, op_name and\n"
                     "scheduling_name metadata, fused contents, structure). For each: our verdict and reason, XLA's\n"
                     "verdict and reason (XLA's words), and both cost estimates (us unfused -> fused);\n"
                     "disagreements first. --device defaults to the preset matching the log's device (h100_sxm for\n"
                     "the committed references). --svg writes the cost scatter (ours against XLA's). Where DIR\n"
                     "has xla_costs.tsv (tools/xla_gpu_reference.py --costs), also our cost model against XLA's\n"
                     "own estimate of every instruction of the module XLA's priority fusion started from. --json:\n"
                     "schema in docs/compare.md (\"decisions-diff\").",
                     RunDecisionsDiff);

}  // namespace hloscope::cli
