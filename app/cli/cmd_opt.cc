// list-passes, opt, check: running passes and pipelines on a module.
#include <cctype>
#include <cstdio>
#include <optional>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/stablehlo/load_module.h"
#include "core/cost/cost_model.h"
#include "core/fusion/fusion_builder.h"
#include <sstream>

#include "app/cli/cli_args.h"
#include "app/cli/override_flags.h"
#include "core/report/decisions_diff.h"
#include "core/report/xla_gemm_log.h"
#include "core/report/xla_fusion_log.h"
#include "core/parser/parser.h"
#include "core/passes/cost_arithmetic.h"
#include "core/passes/differential_checker.h"
#include "core/passes/dump_writer.h"
#include "core/passes/pass_explanations.h"
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

// `text` broken at spaces so that, printed from column `indent`, no line
// passes `width` columns; continuation lines are indented by `indent`.
std::string Wrap(const std::string& text, size_t indent, size_t width) {
  std::string out, line;
  std::istringstream words(text);
  auto columns = [](const std::string& s) {  // UTF-8 characters, not bytes
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  for (std::string w; words >> w;) {
    if (!line.empty() && indent + columns(line) + 1 + columns(w) > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line;
}

int RunListPasses(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {}, {"--json", "--long"}, &err) || !args.positional().empty()) {
    std::fprintf(stderr, "hloscope-cli list-passes: error: %s\n", err.empty() ? "takes no files" : err.c_str());
    return 2;
  }
  const PassRegistry& reg = PassRegistry::Global();
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["passes"] = nlohmann::ordered_json::array();
    for (const PassInfo& p : reg.passes())
      j["passes"].push_back({{"name", p.name},
                             {"pipelines", reg.PipelinesContaining(p.name)},
                             {"description", p.description},
                             {"explanation", std::string(PassExplanation(p.name))}});
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
  // Columns sized to their widest entry; descriptions wrapped at 100 columns
  // under their own column.
  std::vector<std::pair<std::string, std::string>> rows;
  size_t name_w = 4, pipe_w = 9;
  for (const PassInfo& p : reg.passes()) {
    std::string pipes;
    for (const std::string& n : reg.PipelinesContaining(p.name)) pipes += (pipes.empty() ? "" : ",") + n;
    if (pipes.empty()) pipes = "-";
    name_w = std::max(name_w, p.name.size());
    pipe_w = std::max(pipe_w, pipes.size());
    rows.push_back({p.name, pipes});
  }
  const size_t indent = name_w + pipe_w + 2;
  std::printf("%-*s %-*s %s\n", static_cast<int>(name_w), "pass", static_cast<int>(pipe_w), "pipelines", "description");
  const bool long_form = args.Has("--long");
  for (size_t k = 0; k < rows.size(); ++k) {
    std::printf("%-*s %-*s %s\n", static_cast<int>(name_w), rows[k].first.c_str(), static_cast<int>(pipe_w),
                rows[k].second.c_str(), Wrap(reg.passes()[k].description, indent, 100).c_str());
    // --long: the teaching paragraph (pass_explanations.h) under the row,
    // indented by 4 and wrapped at 100 columns, then a blank line.
    if (long_form) {
      const std::string_view text = PassExplanation(rows[k].first);
      if (!text.empty()) std::printf("\n    %s\n\n", Wrap(std::string(text), 4, 100).c_str());
    }
  }
  std::printf("\npipelines:\n");
  for (const PipelineSpec& p : reg.pipelines()) {
    auto built = reg.BuildPipeline(p.name);
    std::printf("  %s\n    %s\n", Wrap(p.name + ": " + p.description, 4, 100).c_str(),
                Wrap(built.ok() ? (*built)->Describe() : built.status().message(), 4, 100).c_str());
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

// A refusal's reason with the instruction names in it (`fusion.45`,
// `x.1`) blanked: refusals that differ only in which sibling they name fold.
std::string ReasonShape(const std::string& reason) {
  std::string out;
  for (size_t i = 0; i < reason.size();) {
    size_t j = i;
    while (j < reason.size() && (std::isalnum(static_cast<unsigned char>(reason[j])) || reason[j] == '_' ||
                                 reason[j] == '-' || reason[j] == '.'))
      ++j;
    if (j > i) {
      const std::string word = reason.substr(i, j - i);
      const size_t dot = word.rfind('.');
      const bool named = dot != std::string::npos && dot + 1 < word.size() &&
                         std::isdigit(static_cast<unsigned char>(word[dot + 1]));
      out += named ? "…" : word;
      i = j;
    } else {
      out += reason[i++];
    }
  }
  return out;
}

int RunExplain(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--passes", "--instruction", "--device", "--xla-dump", "--module"},
                  {"--json", "--all"}, &err) ||
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
  // XLA GPU's own records about it, from its priority fusion log; matched
  // on the module as given (before our pipeline changes it).
  std::optional<report::XlaStory> xla_story;
  std::optional<report::XlaPriorityFusion> xla;
  std::string gemm_log;  // "" when the folder has no XLA log of its GEMM search
  std::vector<report::XlaGemmSearch> gemm_story;
  if (args.Has("--xla-dump")) {
    auto pf = report::LoadXlaPriorityFusion(args.GetOr("--xla-dump", ""), args.GetOr("--module", ""));
    if (!pf.ok()) {
      std::fprintf(stderr, "%s\n", pf.status().message().c_str());
      return 1;
    }
    xla = std::move(*pf);
    xla_story = report::XlaStoryOf(*m, name, *xla);
    // XLA's GEMM fusion search, when the folder has XLA's log of it.
    if (auto log = report::ReadXlaGemmLog(args.GetOr("--xla-dump", "")); log.ok()) {
      gemm_log = log->origin;
      gemm_story = report::XlaGemmStoryOf(*log, name);
    }
  }
  StepRecorder recorder;
  pipeline->AddInstrumentation(&recorder);
  StatusOr<bool> changed = pipeline->Run(*m);
  if (!changed.ok()) {
    std::fprintf(stderr, "hloscope-cli explain: error: %s\n", changed.status().message().c_str());
    return 1;
  }
  // Names this instruction went by: itself and the fusions it ended up in
  // (every one of them when it was duplicated), and the fusions those were
  // merged into later (multi-output, sibling and horizontal fusion).
  std::set<std::string> names = {name};
  nlohmann::ordered_json story = nlohmann::ordered_json::array();
  struct Line {
    int step;
    const FusionDecision* d;
  };
  std::vector<Line> lines;
  for (const auto& s : recorder.steps()) {
    for (const auto& d : s->decisions) {
      // About it: it (or a fusion holding it) is the producer; or it is a
      // consumer and the decision merges two kernels or refuses one (other
      // instructions joining its fusion, constants and broadcasts, are not
      // its story).
      const bool producer = names.count(d.producer) > 0;
      bool consumer = false;
      for (const auto& c : d.consumers) consumer |= names.count(c) > 0;
      // (A merge: of kernels, or of collectives into one by a combiner.)
      const bool merge = d.producer.rfind("fusion", 0) == 0 || d.verdict == FusionVerdict::kMerged;
      if (d.verdict != FusionVerdict::kNotFused && (producer || consumer)) {
        // The names it goes by next: every result when it is the producer
        // ("fused with duplication into fusion.21, fusion.20"), the result
        // standing for its own consumer slot when it is a consumer.
        std::vector<std::string> results;
        for (const std::string& r : SplitComma(d.result)) {
          std::string t = r;
          while (!t.empty() && t.front() == ' ') t.erase(t.begin());
          if (!t.empty()) results.push_back(t);
        }
        std::vector<std::string> next;
        if (producer) next = results;
        for (size_t c = 0; c < d.consumers.size(); ++c)
          if (names.count(d.consumers[c]))
            next.push_back(results.size() == d.consumers.size() ? results[c] : results.empty() ? "" : results.back());
        for (const std::string& n : next)
          if (!n.empty()) names.insert(n);
      }
      if (!producer && !(consumer && (merge || d.verdict == FusionVerdict::kNotFused))) continue;
      nlohmann::ordered_json e = DecisionJson(d);
      e["step"] = s->index;
      if (std::string a = CostArithmetic(d); !a.empty()) e["arithmetic"] = std::move(a);
      story.push_back(e);
      lines.push_back({s->index, &d});
    }
  }
  const bool all = args.Has("--all");
  std::string text;
  auto line_of = [](int step, const FusionDecision& d) {
    char head[128];
    std::snprintf(head, sizeof head, "step %d %s: ", step, d.pass.c_str());
    std::string t = head + d.producer + " → {";
    for (size_t k = 0; k < d.consumers.size(); ++k) t += (k ? ", " : "") + d.consumers[k];
    t += "}: " + std::string(FusionVerdictName(d.verdict)) + (d.result.empty() ? "" : " into " + d.result) + "\n    " +
         d.reason + "\n";
    char cost[128];
    std::snprintf(cost, sizeof cost, "    bytes %lld → %lld, est. %.3f → %.3f us\n",
                  static_cast<long long>(d.bytes_before), static_cast<long long>(d.bytes_after), d.us_before,
                  d.us_after);
    const std::string arithmetic = CostArithmetic(d);
    return t + cost + (arithmetic.empty() ? "" : "    " + arithmetic + "\n");
  };
  for (size_t k = 0; k < lines.size();) {
    const FusionDecision& d = *lines[k].d;
    // Refusals in a row with the same pass and reason (e.g. one per
    // sibling) fold into one line with a count unless --all.
    size_t run = 1;
    if (!all && d.verdict == FusionVerdict::kNotFused)
      while (k + run < lines.size() && lines[k + run].step == lines[k].step &&
             lines[k + run].d->verdict == FusionVerdict::kNotFused && lines[k + run].d->pass == d.pass &&
             ReasonShape(lines[k + run].d->reason) == ReasonShape(d.reason))
        ++run;
    if (run < 3) {
      for (size_t j = 0; j < run; ++j) text += line_of(lines[k + j].step, *lines[k + j].d);
    } else {
      std::set<std::string> who;
      for (size_t j = 0; j < run; ++j) {
        who.insert(lines[k + j].d->producer);
        for (const auto& c : lines[k + j].d->consumers) who.insert(c);
      }
      who.erase(name);
      std::string list;
      int shown = 0;
      for (const std::string& w : who) {
        if (shown++ == 6) {
          list += ", ...";
          break;
        }
        list += (list.empty() ? "" : ", ") + w;
      }
      char head[160];
      std::snprintf(head, sizeof head, "step %d %s: %zu refusals with the same reason (with %s; --all lists each)\n",
                    lines[k].step, d.pass.c_str(), run, list.c_str());
      text += head + std::string("    ") + d.reason + "\n";
    }
    k += run;
  }
  // Where it ended: in every fusion that holds it (fused instructions keep
  // their names; a duplicated producer is in several), or on its own.
  std::vector<std::string> ended_in;
  bool found = false;
  for (const auto& c : m->computations()) {
    for (const auto& i : c->instructions()) {
      if (i->name() != name) continue;
      found = true;
      if (c->fusion_instruction)
        ended_in.push_back(c->fusion_instruction->name() + " (kind=" +
                           std::string(FusionKindName(c->fusion_instruction->fusion_kind())) + ", calls=" + c->name() +
                           ")");
    }
  }
  std::string ended;
  if (!found) {
    ended = "removed by the pipeline (simplified or folded away)";
  } else if (ended_in.empty()) {
    ended = "not fused: it is a kernel (or bookkeeping) of its own";
  } else {
    ended = "ended in ";
    for (size_t k = 0; k < ended_in.size(); ++k) ended += (k ? " and " : "") + ended_in[k];
    if (ended_in.size() > 1) ended += " (duplicated into " + std::to_string(ended_in.size()) + " fusions)";
  }
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["instruction"] = name;
    j["decisions"] = story;
    j["ended"] = ended;
    j["ended_in"] = nlohmann::ordered_json::array();
    for (const std::string& e : ended_in) j["ended_in"].push_back(e.substr(0, e.find(' ')));
    if (xla_story) {
      nlohmann::ordered_json x = {{"log", xla->log.origin}, {"counterparts", xla_story->counterparts},
                                  {"match", xla_story->how}, {"steps", nlohmann::ordered_json::array()}};
      for (int k : xla_story->steps)
        x["steps"].push_back({{"index", k}, {"line", xla->log.steps[k].line},
                              {"kind", xla->log.steps[k].kind_name},
                              {"text", report::XlaStepLine(xla->log.steps[k])}});
      j["xla"] = std::move(x);
    }
    if (!gemm_log.empty()) {
      nlohmann::ordered_json g = {{"log", gemm_log}, {"searches", nlohmann::ordered_json::array()}};
      for (const auto& s : gemm_story) {
        nlohmann::ordered_json cs = nlohmann::ordered_json::array();
        for (const auto& c : s.candidates)
          cs.push_back({{"fused", c.fused}, {"user", c.user}, {"name", c.name}, {"op_name", c.op_name},
                        {"reason", c.reason}, {"line", c.line}});
        g["searches"].push_back({{"dot", s.dot}, {"op_name", s.op_name}, {"line", s.line}, {"candidates", cs}});
      }
      j["xla_gemm"] = std::move(g);
    }
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::printf("%s%s: %s\n", text.empty() ? "no fusion decision named it\n" : text.c_str(), name.c_str(), ended.c_str());
  if (xla_story) {
    if (xla_story->counterparts.empty()) {
      std::printf("XLA GPU (%s): no counterpart of %s in XLA's module before priority fusion\n",
                  xla->log.origin.c_str(), name.c_str());
    } else {
      std::string who;
      for (const auto& c : xla_story->counterparts) who += (who.empty() ? "" : ", inside ") + c;
      std::printf("XLA GPU (%s): %s is XLA's %s (matched by %s); %zu record(s) of XLA's priority fusion:\n",
                  xla->log.origin.c_str(), name.c_str(), who.c_str(), xla_story->how.c_str(),
                  xla_story->steps.size());
      for (int k : xla_story->steps)
        std::printf("  line %d %s\n", xla->log.steps[k].line, report::XlaStepLine(xla->log.steps[k]).c_str());
    }
  }
  for (const auto& s : gemm_story) {
    const bool around = s.op_name == name || s.dot == name;
    std::printf("XLA GPU's GEMM fusion search (%s line %d) around its %s (the dot %s)%s:\n", gemm_log.c_str(), s.line,
                s.dot.c_str(), s.op_name.empty() ? "?" : s.op_name.c_str(),
                around ? ", candidate by candidate" : ", the candidates that came from it");
    for (const auto& c : s.candidates)
      std::printf("  line %d %s\n", c.line, report::XlaGemmCandidateLine(c).c_str());
  }
  return 0;
}

// --force-fusion / --forbid-fusion P:C (what-if fusion, fusion_overrides.h),
// checked against the input module: false after printing the error.
// `check` also takes whatif's --force / --forbid; `opt` cannot (its --force
// means overwrite).
bool TakeOverrides(std::vector<std::string>* argv, FusionOverrides* o, const char* cmd) {
  std::string err;
  const bool short_too = std::string(cmd) == "check";
  std::vector<std::string> force = {"--force-fusion"}, forbid = {"--forbid-fusion"};
  if (short_too) {
    force.push_back("--force");
    forbid.push_back("--forbid");
  }
  if (!TakeOverrideFlags(argv, force, forbid, o, &err)) {
    std::fprintf(stderr, "hloscope-cli %s: error: %s\n", cmd, err.c_str());
    return false;
  }
  return true;
}
// After the run: every name was in the input or made on the way (`seen`).
bool ValidateOverridesOrSay(const Module& m, const FusionOverrides& o, const SeenNames& seen, const char* cmd) {
  if (o.empty()) return true;
  if (Status s = ValidateOverrides(m, o, &seen); !s.ok()) {
    std::fprintf(stderr, "hloscope-cli %s: error: %s\n", cmd, s.message().c_str());
    return false;
  }
  return true;
}

int RunOpt(const std::vector<std::string>& argv_in) {
  std::vector<std::string> argv = argv_in;
  FusionOverrides overrides;
  if (!TakeOverrides(&argv, &overrides, "opt")) return 2;
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
  ScopedFusionOverrides what_if(overrides);
  OverrideNameWatch names(overrides);

  StepRecorder recorder;
  VerifierInstrumentation verifier;
  if (!overrides.empty()) pipeline->AddInstrumentation(&names);
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
  if (!ValidateOverridesOrSay(*m, overrides, names.seen(), "opt")) return 2;
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
    if (!overrides.empty()) j["overrides"] = DescribeOverrides(overrides);
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  // A short summary on stderr (stdout may hold the module).
  int changed_steps = 0;
  for (const auto& s : recorder.steps()) changed_steps += s->changed;
  const ModuleCost final_cost = recorder.steps().empty() ? recorder.initial_cost() : recorder.steps().back()->cost;
  std::fprintf(stderr,
               "%s: %zu pass runs, %d changed the module; instructions %lld → %lld (fused included), kernels "
               "%lld → %lld\n",
               pipeline->name().c_str(), recorder.steps().size(), changed_steps,
               static_cast<long long>(recorder.initial()->instruction_count()),
               static_cast<long long>(m->instruction_count()),
               static_cast<long long>(recorder.initial_cost().kernels), static_cast<long long>(final_cost.kernels));
  return 0;
}

int RunCheck(const std::vector<std::string>& argv_in) {
  std::vector<std::string> argv = argv_in;
  FusionOverrides overrides;
  if (!TakeOverrides(&argv, &overrides, "check")) return 2;
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
  ScopedFusionOverrides what_if(overrides);
  OverrideNameWatch names(overrides);
  if (!overrides.empty()) pipeline->AddInstrumentation(&names);
  DifferentialOptions opts;
  opts.seeds = static_cast<int>(seeds);
  opts.tolerance = tol;
  if (const int64_t devices = DevicesToEvaluate(*m); devices > 1)
    std::fprintf(stderr,
                 "hloscope-cli check: the module's collectives exchange data between its %lld devices: every "
                 "evaluation runs all of them (one thread and one set of values each)\n",
                 static_cast<long long>(devices));
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
  if (!ValidateOverridesOrSay(*m, overrides, names.seen(), "check")) return 2;
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
  const std::string on_devices =
      checker.devices() > 1 ? " (each on " + std::to_string(checker.devices()) + " devices)" : "";
  std::printf("%s: OK, %zu pass runs, %d changed, %d comparisons on %lld seeds%s, 0 mismatches\n",
              args.positional()[0].c_str(), recorder.steps().size(), changed_steps, checker.comparisons(), seeds,
              on_devices.c_str());
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(list_passes, "list-passes", "list the registered passes and pipelines",
                     "usage: hloscope-cli list-passes [--long] [--json]\n"
                     "Prints every pass (name, the pipelines that run it, a one-line description)\n"
                     "and every pipeline with its passes. --long adds, under each pass, a paragraph on\n"
                     "what it does, why compilers do it and what to look for in the graph (the text the\n"
                     "GUI's pipeline panel and the report show). --json has both, as \"description\" and\n"
                     "\"explanation\".",
                     RunListPasses);
HLOSCOPE_CLI_COMMAND(opt, "opt", "run a pass pipeline and record every step",
                     "usage: hloscope-cli opt FILE [--pipeline NAME | --passes a,b,c] [--device ID|FILE.json]\n"
                     "                        [-o OUT.hlo] [--dump-dir DIR] [--json] [--force] [--no-verify]\n"
                     "                        [--force-fusion P:C]... [--forbid-fusion P:C]...\n"
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
                     "dumps) are only replaced with --force.\n"
                     "--force-fusion P:C / --forbid-fusion P:C (any number): what-if fusion overrides, as\n"
                     "`whatif --force/--forbid` (hloscope-cli whatif --help); --json then has \"overrides\".",
                     RunOpt);
HLOSCOPE_CLI_COMMAND(check, "check", "differential check of every pass of a pipeline",
                     "usage: hloscope-cli check FILE [--pipeline NAME | --passes a,b,c] [--seeds K]\n"
                     "                          [--rtol R] [--atol A] [--allow-unevaluable]\n"
                     "                          [--force-fusion P:C]... [--forbid-fusion P:C]...\n"
                     "Runs the pipeline (default `gpu`) with the verifier and the interpreter:\n"
                     "after every pass that changed the module, its outputs on K random input sets\n"
                     "(seeds 1..K, default 1) must equal those before the pass (float tolerance by\n"
                     "type, docs/eval-tolerances.md, or --rtol/--atol for every output).\n"
                     "A module whose collectives exchange data between devices (num_partitions x\n"
                     "replica_count) is evaluated on every device, each on inputs of its own.\n"
                     "Exit codes: 0 checked and equal; 1 a mismatch (naming the pass, the output\n"
                     "element and the tolerance) or an error; 3 nothing was compared because the\n"
                     "interpreter cannot evaluate the module (0 with --allow-unevaluable).\n"
                     "--force-fusion P:C / --forbid-fusion P:C (any number; also spelled --force / --forbid\n"
                     "as whatif spells them): check the pipeline run with these what-if fusion overrides\n"
                     "(hloscope-cli whatif --help).",
                     RunCheck);
HLOSCOPE_CLI_COMMAND(explain, "explain", "the fusion story of one instruction",
                     "usage: hloscope-cli explain FILE --instruction NAME [--pipeline NAME | --passes a,b,c]\n"
                     "                            [--device ID] [--json] [--all] [--xla-dump DIR [--module M]]\n"
                     "Runs the pipeline (default gpu) and prints every fusion decision that\n"
                     "named the instruction (or the fusions it became part of), with its reason and\n"
                     "cost numbers and the arithmetic behind them (HBM bytes at the device's bandwidth plus\n"
                     "launches; --json: \"arithmetic\"), then every fusion it ended in (a duplicated\n"
                     "producer is in several) and the later merges of those fusions. Three or more refusals in a row for the\n"
                     "same reason fold into one line with a count; --all lists each.\n"
                     "--xla-dump DIR (an --xla_dump_to folder or samples/xla_gpu/STEM) adds XLA GPU's own\n"
                     "records from its priority fusion log: the instruction XLA's module had for it and\n"
                     "every step naming it or the fusions it went into, in XLA's words (--module picks a\n"
                     "module of a dump with several). Where DIR has XLA's log (xla_vlog.txt, written by\n"
                     "`xla-gpu`'s default --vlog gemm_fusion=6), also XLA's GEMM fusion search: for a dot,\n"
                     "every prologue/epilogue candidate XLA took or left out and why; for another op, the\n"
                     "candidates that came from it (--json: \"xla_gemm\").",
                     RunExplain);

}  // namespace hloscope::cli
