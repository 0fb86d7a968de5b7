// memory: scheduling and buffer assignment of a module.
#include <cstdio>

#include "app/cli/cli_args.h"
#include "core/stablehlo/load_module.h"
#include "core/cost/device.h"
#include "core/memory/buffer_assignment.h"
#include "core/passes/pass_registry.h"
#include "core/memory/assignment_checker.h"
#include "core/passes/pipeline.h"
#include "core/parser/parser.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

int RunMemory(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--scheduler", "--alignment", "--pipeline", "--device", "-o"},
                  {"--json", "--keep-schedule", "--no-sharing", "--force", "--check"}, &err) ||
      args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli memory: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  MemoryOptions opts;
  std::string sched = args.GetOr("--scheduler", "auto");
  if (sched == "auto") opts.scheduler = SchedulerChoice::kAuto;
  else if (sched == "dfs") opts.scheduler = SchedulerChoice::kDfs;
  else if (sched == "list") opts.scheduler = SchedulerChoice::kList;
  else if (sched == "postorder") opts.scheduler = SchedulerChoice::kPostorder;
  else {
    std::fprintf(stderr, "hloscope-cli memory: error: --scheduler must be auto, dfs, list or postorder\n");
    return 2;
  }
  long long align = 64;
  if (!args.GetInt("--alignment", &align, &err) || align < 1) {
    std::fprintf(stderr, "hloscope-cli memory: error: %s\n", err.empty() ? "--alignment must be >= 1" : err.c_str());
    return 2;
  }
  opts.alignment = align;
  opts.keep_schedule = args.Has("--keep-schedule");
  opts.allow_sharing = !args.Has("--no-sharing");
  auto m = LoadModuleFile(args.positional()[0]);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return 1;
  }
  if (Status s = VerifyModule(**m); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  AnnouncePipeline("memory", args.GetOr("--pipeline", "none (the input as written)"));
  if (auto p = args.Get("--pipeline")) {
    if (auto d = args.Get("--device")) {
      auto spec = LoadDevice(*d);
      if (!spec.ok()) {
        std::fprintf(stderr, "hloscope-cli memory: error: %s\n", spec.status().message().c_str());
        return 2;
      }
      SetCurrentDevice(*spec);
    }
    auto pipeline = PassRegistry::Global().BuildPipeline(*p);
    if (!pipeline.ok()) {
      std::fprintf(stderr, "hloscope-cli memory: error: %s\n", pipeline.status().message().c_str());
      return 2;
    }
    auto ran = (*pipeline)->Run(**m);
    if (!ran.ok()) {
      std::fprintf(stderr, "%s: error: pipeline %s failed: %s\n", args.positional()[0].c_str(), p->c_str(),
                   ran.status().message().c_str());
      return 1;
    }
  }
  auto ba = AssignBuffers(**m, opts);
  if (!ba.ok()) {
    std::fprintf(stderr, "%s: error: %s\n", args.positional()[0].c_str(), ba.status().message().c_str());
    return 1;
  }
  if (args.Has("--check")) {
    std::string problem = CheckBufferAssignment(**ba);
    if (!problem.empty()) {
      std::fprintf(stderr, "%s: error: buffer assignment is invalid: %s\n", args.positional()[0].c_str(),
                   problem.c_str());
      return 1;
    }
    // The independent check: live intervals recomputed from the module and
    // the schedule, blind to the assignment's alias sets.
    ClobberReport clobbers = FindClobbers(**m, **ba);
    if (clobbers.clobbered_values > 0) {
      std::fprintf(stderr, "%s: error: %lld of %lld values are overwritten while still to be read:\n",
                   args.positional()[0].c_str(), static_cast<long long>(clobbers.clobbered_values),
                   static_cast<long long>(clobbers.values));
      for (const Clobber& c : clobbers.clobbers) std::fprintf(stderr, "  %s\n", c.ToString().c_str());
      return 1;
    }
    std::fprintf(stderr, "%s: check: %lld values, none overwritten while live\n", args.positional()[0].c_str(),
                 static_cast<long long>(clobbers.values));
  }
  std::string text = args.Has("--json") ? BufferAssignmentToJson(**ba) + "\n" : BufferAssignmentToText(**ba);
  if (!WriteOutput(args.GetOr("-o", "-"), text, args.Has("--force"), &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(memory, "memory", "schedule + buffer assignment: liveness, heap packing, peak vs lower bound",
                     "usage: hloscope-cli memory FILE [--pipeline NAME] [--scheduler auto|dfs|list|postorder]\n"
                     "                           [--keep-schedule] [--alignment N] [--no-sharing] [--check]\n"
                     "                           [--json] [-o OUT] [--force]\n"
                     "Schedules the entry computation (auto: DFS, list and size-ordered post-order, keeping the\n"
                     "one with the least peak), assigns buffers with XLA's aliasing rules and packs temporaries\n"
                     "into one heap (best fit by size and by area, the smaller wins). Prints allocations and\n"
                     "values like XLA's *-buffer-assignment.txt and `peak=… lower_bound=… ratio=…`.\n"
                     "--check verifies that no two live buffers share bytes, and, independently of the\n"
                     "assignment's alias sets, that no value is overwritten before its last read\n"
                     "(core/memory/assignment_checker.h; exit 1 listing the clobbers).\n"
                     "Each input_output_alias is listed at the end (JSON: io_aliases): taken or not, why, and\n"
                     "the copy copy_insertion added for it.",
                     RunMemory);

}  // namespace hloscope::cli
