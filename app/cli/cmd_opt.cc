// list-passes, opt, check: running passes and pipelines on a module.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/stablehlo/load_module.h"
#include "core/cost/cost_model.h"
#include "core/fusion/fusion_builder.h"
#include <sstream>

#include "app/cli/cli_args.h"
#include "core/parser/parser.h"
#include "core/passes/differential_checker.h"
#include "core/passes/dump_writer.h"
#include "core/passes/pass_registry.h"
#include "core/passes/step_recorder.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// The pipeline named by --pipeline / --passes (default `gpu`: the fusion
// pipeline, which is what explain, check and opt are asked about), announced
// on stderr as the command's first line.
std::unique_ptr<Pipeline> BuildFromArgs(const Args& args, const char* cmd) {
  const PassRegistry& reg = PassRegistry::Global();
  StatusOr<std::unique_ptr<Pipeline>> p = Status::Error("");
  if (args.Has("--passes") && args.Has("--pipeline")) {
    std::fprintf(stderr, "hloscope-cli %s: error: give either --pipeline or --passes\n", cmd);
    return nullptr;
  }
  if (args.Has("--passes")) {
    p = reg.BuildPassList(SplitComma(args.GetOr("--passes", "")));
  } else {
    p = reg.BuildPipeline(args.GetOr("--pipeline", "gpu"));
  }
  if (!p.ok()) {
    std::fprintf(stderr, "hloscope-cli %s: error: %s\n", cmd, p.status().message().c_str());
    return nullptr;
  }
  AnnouncePipeline(cmd, args.Has("--passes") ? "of passes " + args.GetOr("--passes", "")
                                              : args.GetOr("--pipeline", "gpu"));
  return std::move(*p);
}

std::unique_ptr<Module> Load(const std::string& path) {
  auto m = LoadModuleFile(path);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return nullptr;
  }
  return std::move(*m);
}

int RunListPasses(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {}, {"--json"}, &err) || !args.positional().empty()) {
    std::fprintf(stderr, "hloscope-cli list-passes: error: %s\n", err.empty() ? "takes no files" : err.c_str());
    return 2;
  }
  const PassRegistry& reg = PassRegistry::Global();
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["passes"] = nlohmann::ordered_json::array();
    for (const PassInfo& p : reg.passes())
      j["passes"].push_back({{"name", p.name}, {"pipelines", reg.PipelinesContaining(p.name)}, {"description", p.description}});
    j["pipelines"] = nlohmann::ordered_json::array();
    for (const PipelineSpec& p : reg.pipelines()) {
      auto built = reg.BuildPipeline(p.name);
      j["pipelines"].push_back({{"name", p.name},
                                {"description", p.description},
                                {"passes", built.ok() ? (*built)->Describe() : built.status().message()}});
    }
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::printf("%-28s %-14s %s\n", "pass", "pipelines", "description");
  for (const PassInfo& p : reg.passes()) {
    std::string pipes;
    for (const std::string& n : reg.PipelinesContaining(p.name)) pipes += (pipes.empty() ? "" : ",") + n;
    std::printf("%-28s %-14s %s\n", p.name.c_str(), pipes.empty() ? "-" : pipes.c_str(), p.description.c_str());
  }
  std::printf("\npipelines:\n");
  for (const PipelineSpec& p : reg.pipelines()) {
    auto built = reg.BuildPipeline(p.name);
    std::printf("  %s: %s\n    %s\n", p.name.c_str(), p.description.c_str(),
                built.ok() ? (*built)->Describe().c_str() : built.status().message().c_str());
  }
  return 0;
}

nlohmann::ordered_json CostJson(const ModuleCost& c) {
  return {{"kernels", c.kernels}, {"hbm_bytes", c.hbm_bytes}, {"est_us", c.est_us}};
}

nlohmann::ordered_json DecisionJson(const FusionDecision& d) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j.get_ref<nlohmann::ordered_json::object_t&>().reserve(11);  // growing copies every pair
  j["pass"] = d.pass;
  j["producer"] = d.producer;
  j["consumers"] = d.consumers;
  j["verdict"] = FusionVerdictName(d.verdict);
  j["reason"] = d.reason;
  if (!d.result.empty()) j["result"] = d.result;
  j["bytes_before"] = d.bytes_before;
  j["bytes_after"] = d.bytes_after;
  j["us_before"] = d.us_before;
  j["us_after"] = d.us_after;
  return j;
}

// Final fusions with their members (the names the fused instructions had in
// the input) and the earlier fusions they absorbed.
nlohmann::ordered_json FusionsJson(const Module& m, const StepRecorder& rec) {
  std::map<std::string, std::vector<std::string>> absorbed;
  for (const auto& s : rec.steps())
    for (const auto& d : s->decisions)
      if (d.verdict != FusionVerdict::kNotFused && d.producer.rfind("fusion", 0) == 0 && !d.result.empty())
        absorbed[d.result].push_back(d.producer);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& c : m.computations()) {
    if (c->fusion_instruction) continue;
    for (const auto& i : c->instructions()) {
      if (i->opcode() != Opcode::kFusion) continue;
      nlohmann::ordered_json f;
      f["name"] = i->name();
      f["kind"] = std::string(FusionKindName(i->fusion_kind()));
      f["computation"] = i->fused_computation() ? i->fused_computation()->name() : "";
      f["members"] = FusionMembers(*i);
      if (absorbed.count(i->name())) f["absorbed"] = absorbed[i->name()];
      out.push_back(std::move(f));
    }
  }
  return out;
}

nlohmann::ordered_json StepsJson(const Module& m, const StepRecorder& rec) {
  nlohmann::ordered_json j;
  j["module"] = m.name();
  j["device"] = CurrentDevice().id;
  j["initial"] = CostJson(rec.initial_cost());
  j["initial"]["instructions"] = rec.initial()->instruction_count();
  // Every key in place before the large values go in: an ordered_json object
  // is a vector of (const key, value) pairs, and growing it copies them all.
  j["steps"] = nullptr;
  j["final"] = nullptr;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& s : rec.steps()) {
    nlohmann::ordered_json step;
    step["step"] = s->index;  // 1, 2, 3...: the number --step, explain, reports and the GUI use
    step["pass"] = s->pass;
    step["iteration"] = s->iteration;
    step["changed"] = s->changed;
    step["ms"] = s->ms;
    step["instructions"] = s->instructions;
    step["computations"] = s->computations;
    step["kernels"] = s->cost.kernels;
    step["hbm_bytes"] = s->cost.hbm_bytes;
    step["est_us"] = s->cost.est_us;
    step["stats"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s->stats) step["stats"][k] = v;
    step["rewrites"] = nlohmann::ordered_json::array();
    for (const Rewrite& r : s->rewrites) step["rewrites"].push_back(r.ToString(s->pass));
    if (!s->decisions.empty()) {
      nlohmann::ordered_json decisions = nlohmann::ordered_json::array();
      decisions.get_ref<nlohmann::ordered_json::array_t&>().reserve(s->decisions.size());
      for (const auto& d : s->decisions) decisions.push_back(DecisionJson(d));
      step["decisions"] = std::move(decisions);
    }
    steps.push_back(std::move(step));
  }
  j["steps"] = std::move(steps);
  ModuleCost final_cost = rec.steps().empty() ? rec.initial_cost() : rec.steps().back()->cost;
  j["final"] = CostJson(final_cost);
  j["final"]["instructions"] = m.instruction_count();
  j["final"]["fusions"] = FusionsJson(m, rec);
  return j;
}

// --device NAME|FILE.json sets the cost model's device for fusion decisions.
bool ApplyDevice(const Args& args, const char* cmd) {
  if (auto d = args.Get("--device")) {
    auto spec = LoadDevice(*d);
    if (!spec.ok()) {
      std::fprintf(stderr, "hloscope-cli %s: error: %s\n", cmd, spec.status().message().c_str());
      return false;
    }
    SetCurrentDevice(*spec);
  }
  return true;
}

int RunExplain(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--passes", "--instruction", "--device"}, {"--json"}, &err) ||
      args.positional().size() != 1 || !args.Has("--instruction")) {
    std::fprintf(stderr, "hloscope-cli explain: error: %s\n",
                 err.empty() ? "expected FILE and --instruction NAME" : err.c_str());
    return 2;
  }
  if (!ApplyDevice(args, "explain")) return 2;
  std::unique_ptr<Pipeline> pipeline = BuildFromArgs(args, "explain");
  if (!pipeline) return 2;
  std::unique_ptr<Module> m = Load(args.positional()[0]);
  if (!m) return 1;
  std::string name = args.GetOr("--instruction", "");
  if (!name.empty() && name[0] == '%') name = name.substr(1);
  bool exists = false;
  for (const auto& c : m->computations())
    for (const auto& i : c->instructions()) exists |= i->name() == name;
  if (!exists) {
    std::fprintf(stderr, "%s: error: no instruction named '%s'\n", args.positional()[0].c_str(), name.c_str());
    return 1;
  }
  StepRecorder recorder;
  pipeline->AddInstrumentation(&recorder);
  StatusOr<bool> changed = pipeline->Run(*m);
  if (!changed.ok()) {
    std::fprintf(stderr, "hloscope-cli explain: error: %s\n", changed.status().message().c_str());
    return 1;
  }
  // Names this instruction went by: itself and the fusions it ended up in.
  std::set<std::string> names = {name};
  nlohmann::ordered_json story = nlohmann::ordered_json::array();
  std::string text;
  for (const auto& s : recorder.steps()) {
    for (const auto& d : s->decisions) {
      bool about = names.count(d.producer) > 0;
      for (const auto& c : d.consumers) about |= names.count(c) > 0;
      if (!about) continue;
      if (d.verdict != FusionVerdict::kNotFused && !d.result.empty() && names.count(d.producer)) names.insert(d.result);
      if (d.verdict != FusionVerdict::kNotFused && !d.result.empty())
        for (const auto& c : d.consumers)
          if (names.count(c)) names.insert(d.result);
      nlohmann::ordered_json e = DecisionJson(d);
      e["step"] = s->index;
      story.push_back(e);
      char line[128];
      std::snprintf(line, sizeof line, "step %d %s: ", s->index, d.pass.c_str());
      text += line + d.producer + " → {";
      for (size_t k = 0; k < d.consumers.size(); ++k) text += (k ? ", " : "") + d.consumers[k];
      text += "}: " + std::string(FusionVerdictName(d.verdict)) + (d.result.empty() ? "" : " into " + d.result) +
              "\n    " + d.reason + "\n";
      std::snprintf(line, sizeof line, "    bytes %lld → %lld, est. %.3f → %.3f us\n",
                    static_cast<long long>(d.bytes_before), static_cast<long long>(d.bytes_after), d.us_before,
                    d.us_after);
      text += line;
    }
  }
  // Where it ended: inside a fusion (fused instructions keep their names) or on its own.
  std::string ended = "not fused: it is a kernel (or bookkeeping) of its own";
  bool found = false;
  for (const auto& c : m->computations()) {
    for (const auto& i : c->instructions()) {
      if (i->name() != name) continue;
      found = true;
      if (c->fusion_instruction)
        ended = "ended in " + c->fusion_instruction->name() + " (kind=" +
                std::string(FusionKindName(c->fusion_instruction->fusion_kind())) + ", calls=" + c->name() + ")";
    }
  }
  if (!found) ended = "removed by the pipeline (simplified or folded away)";
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["instruction"] = name;
    j["decisions"] = story;
    j["ended"] = ended;
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::printf("%s%s: %s\n", text.empty() ? "no fusion decision named it\n" : text.c_str(), name.c_str(), ended.c_str());
  return 0;
}

int RunOpt(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--passes", "-o", "--dump-dir", "--device"}, {"--json", "--force", "--no-verify"},
                  &err) ||
      args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli opt: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  if (!ApplyDevice(args, "opt")) return 2;
  std::unique_ptr<Pipeline> pipeline = BuildFromArgs(args, "opt");
  if (!pipeline) return 2;
  const std::string out_path = args.GetOr("-o", "-");
  if (out_path != "-" && !args.Has("--force") && std::filesystem::exists(out_path)) {
    std::fprintf(stderr, "%s: error: file exists (use --force to overwrite)\n", out_path.c_str());
    return 1;
  }
  std::unique_ptr<Module> m = Load(args.positional()[0]);
  if (!m) return 1;

  StepRecorder recorder;
  VerifierInstrumentation verifier;
  std::unique_ptr<DumpWriter> dumper;
  pipeline->AddInstrumentation(&recorder);
  if (!args.Has("--no-verify")) pipeline->AddInstrumentation(&verifier);
  if (args.Has("--dump-dir")) {
    dumper = std::make_unique<DumpWriter>(DumpOptions{args.GetOr("--dump-dir", ""), 0, args.Has("--force")});
    pipeline->AddInstrumentation(dumper.get());
  }
  StatusOr<bool> changed = pipeline->Run(*m);
  if (!changed.ok()) {
    std::fprintf(stderr, "hloscope-cli opt: error: %s\n", changed.status().message().c_str());
    return 1;
  }
  const bool json = args.Has("--json");
  if (args.Has("-o") || !json) {
    if (!WriteOutput(out_path, PrintModule(*m), args.Has("--force"), &err)) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
  }
  if (json) {
    nlohmann::ordered_json j = StepsJson(*m, recorder);
    j["pipeline"] = args.Has("--passes") ? "custom" : args.GetOr("--pipeline", "gpu");
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  // A short summary on stderr (stdout may hold the module).
  int changed_steps = 0;
  for (const auto& s : recorder.steps()) changed_steps += s->changed;
  std::fprintf(stderr, "%s: %zu pass runs, %d changed the module; instructions %lld → %lld\n",
               pipeline->name().c_str(), recorder.steps().size(), changed_steps,
               static_cast<long long>(recorder.initial()->instruction_count()),
               static_cast<long long>(m->instruction_count()));
  return 0;
}

int RunCheck(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--passes", "--seeds", "--rtol", "--atol"}, {"--allow-unevaluable"}, &err) ||
      args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli check: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  std::optional<Tolerance> tol;
  if (!ParseTolerance(args, &tol, &err)) {
    std::fprintf(stderr, "hloscope-cli check: error: %s\n", err.c_str());
    return 2;
  }
  long long seeds = 1;
  if (!args.GetInt("--seeds", &seeds, &err) || seeds < 1 || seeds > 1000) {
    std::fprintf(stderr, "hloscope-cli check: error: %s\n", err.empty() ? "--seeds must be in 1..1000" : err.c_str());
    return 2;
  }
  std::unique_ptr<Pipeline> pipeline = BuildFromArgs(args, "check");
  if (!pipeline) return 2;
  std::unique_ptr<Module> m = Load(args.positional()[0]);
  if (!m) return 1;
  DifferentialOptions opts;
  opts.seeds = static_cast<int>(seeds);
  opts.tolerance = tol;
  DifferentialChecker checker(opts);
  VerifierInstrumentation verifier;
  StepRecorder recorder;
  pipeline->AddInstrumentation(&recorder);
  pipeline->AddInstrumentation(&verifier);
  pipeline->AddInstrumentation(&checker);
  StatusOr<bool> changed = pipeline->Run(*m);
  if (!changed.ok()) {
    std::fprintf(stderr, "%s: FAIL: %s\n", args.positional()[0].c_str(), changed.status().message().c_str());
    if (checker.mismatch()) std::fprintf(stderr, "(compared with %s)\n", DescribeTolerance(tol).c_str());
    return 1;
  }
  int changed_steps = 0;
  for (const auto& s : recorder.steps()) changed_steps += s->changed;
  if (!checker.evaluable()) {
    // Nothing was compared: not a pass for a CI that relies on this command.
    const bool allowed = args.Has("--allow-unevaluable");
    std::printf("%s: %s: verified %d changed steps, but the interpreter cannot evaluate the module, so "
                "nothing was compared (%s)%s\n",
                args.positional()[0].c_str(), allowed ? "NOT CHECKED (allowed)" : "NOT CHECKED", changed_steps,
                checker.not_evaluable_reason().c_str(),
                allowed ? "" : "; exit 3 (--allow-unevaluable accepts this)");
    return allowed ? 0 : kExitNotChecked;
  }
  std::printf("%s: OK, %zu pass runs, %d changed, %d comparisons on %lld seeds, 0 mismatches\n",
              args.positional()[0].c_str(), recorder.steps().size(), changed_steps, checker.comparisons(), seeds);
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(list_passes, "list-passes", "list the registered passes and pipelines",
                     "usage: hloscope-cli list-passes [--json]\n"
                     "Prints every pass (name, the pipelines that run it, a one-line description)\n"
                     "and every pipeline with its passes.",
                     RunListPasses);
HLOSCOPE_CLI_COMMAND(opt, "opt", "run a pass pipeline and record every step",
                     "usage: hloscope-cli opt FILE [--pipeline NAME | --passes a,b,c] [--device ID|FILE.json]\n"
                     "                        [-o OUT.hlo] [--dump-dir DIR] [--json] [--force] [--no-verify]\n"
                     "Runs the pipeline (default `gpu`) with the verifier after every pass that\n"
                     "changed the module. Writes the result to OUT (stdout without -o and --json).\n"
                     "The first line on stderr names the pipeline; --json carries it as \"pipeline\".\n"
                     "--json prints {\"module\", \"steps\":[{\"step\", \"pass\", \"iteration\", \"changed\", \"ms\",\n"
                     "\"instructions\", \"computations\", \"kernels\", \"hbm_bytes\", \"est_us\", \"stats\",\n"
                     "\"rewrites\", \"decisions\":[{\"pass\", \"producer\", \"consumers\", \"verdict\", \"reason\",\n"
                     "\"bytes_before\", \"bytes_after\", \"us_before\", \"us_after\"}]}], \"final\":{\"instructions\",\n"
                     "\"kernels\", \"hbm_bytes\", \"est_us\", \"fusions\":[{\"name\", \"kind\", \"members\"}]}}.\n"
                     "\"step\" is the step number: 1, 2, 3... in execution order (step 0 is the input), as\n"
                     "export-graph --step, explain, reports, dumps and the GUI's step table number them.\n"
                     "--device picks the cost model's GPU (h200 default, h100_sxm, a100_80gb, rtx4090, l4).\n"
                     "--dump-dir writes XLA-style dumps: module_0000.<name>.before_optimizations.txt,\n"
                     "module_0000.<name>.NNNN.<pipeline>.after_<pass>.txt for each pass that changed\n"
                     "something (NNNN = its step number), module_0000.<name>.after_optimizations.txt. Existing files (OUT or\n"
                     "dumps) are only replaced with --force.",
                     RunOpt);
HLOSCOPE_CLI_COMMAND(check, "check", "differential check of every pass of a pipeline",
                     "usage: hloscope-cli check FILE [--pipeline NAME | --passes a,b,c] [--seeds K]\n"
                     "                          [--rtol R] [--atol A] [--allow-unevaluable]\n"
                     "Runs the pipeline (default `gpu`) with the verifier and the interpreter:\n"
                     "after every pass that changed the module, its outputs on K random input sets\n"
                     "(seeds 1..K, default 1) must equal those before the pass (float tolerance by\n"
                     "type, docs/eval-tolerances.md, or --rtol/--atol for every output).\n"
                     "Exit codes: 0 checked and equal; 1 a mismatch (naming the pass, the output\n"
                     "element and the tolerance) or an error; 3 nothing was compared because the\n"
                     "interpreter cannot evaluate the module (0 with --allow-unevaluable).",
                     RunCheck);
HLOSCOPE_CLI_COMMAND(explain, "explain", "the fusion story of one instruction",
                     "usage: hloscope-cli explain FILE --instruction NAME [--pipeline NAME | --passes a,b,c]\n"
                     "                            [--device ID] [--json]\n"
                     "Runs the pipeline (default gpu) and prints every fusion decision that\n"
                     "named the instruction (or the fusions it became part of), with its reason and\n"
                     "cost numbers, then the fusion it ended in.",
                     RunExplain);

}  // namespace hloscope::cli
