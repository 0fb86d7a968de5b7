#include "core/report/report.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/runtime/cuda_executor.h"
#include "core/runtime/plan_io.h"
#include "core/cost/device.h"
#include "core/eval/random_inputs.h"
#include "core/runtime/bundle.h"
#include "core/fusion/fusion_builder.h"
#include "core/memory/buffer_assignment.h"
#include "core/passes/pass_registry.h"
#include "core/passes/step_recorder.h"
#include "core/report/decisions_diff.h"
#include "core/passes/cost_arithmetic.h"
#include "core/passes/pass_explanations.h"
#include "core/session/session.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/printer/printer.h"
#include "core/report/compare.h"
#include "core/report/graph_svg.h"
#include "core/report/plan_listing.h"
#include "core/report/timeline.h"
#include "core/report/traffic.h"

namespace hloscope::report {
namespace fs = std::filesystem;
using J = nlohmann::ordered_json;

namespace {

J CostJson(const ModuleCost& c, int64_t instructions) {
  return {{"instructions", instructions}, {"kernels", c.kernels}, {"hbm_bytes", c.hbm_bytes}, {"est_us", c.est_us}};
}

J GraphJson(const layout::LaidOutGraph& g) {
  return {{"computation", g.graph.computation}, {"nodes", g.graph.nodes.size()}, {"edges", g.graph.edges.size()},
          {"clusters", g.graph.clusters.size()}, {"grouped", g.graph.grouped},
          {"hidden_instructions", g.graph.hidden_instructions}, {"width", g.width}, {"height", g.height}};
}

// Lays out one snapshot and renders it; on failure returns "" and a note.
std::string GraphPicture(const ModuleSnapshot& snap, const std::string& title, J* json, std::string* note) {
  layout::GraphOptions go;
  auto laid = LayOutSnapshot(snap, go);
  if (!laid.ok()) {
    *note = "graph not drawn: " + laid.status().message();
    *json = {{"error", laid.status().message()}};
    return {};
  }
  *json = GraphJson(*laid);
  if (laid->graph.grouped)
    *note = "Large computation: grouped into " + std::to_string(laid->graph.nodes.size()) +
            " nodes (fusions collapsed, groups by op_name namespace or by chunks of consecutive instructions).";
  GraphSvgOptions so;
  so.title = title;
  so.standalone = false;
  return RenderGraphSvg(*laid, so);
}

void Progress(const ReportOptions& o, const std::string& line) {
  if (o.progress) o.progress(line);
}

// Runs the kernels on opts.run ("cpu" or "cuda") and fills measured_us per
// kernel (median over launches) and a "run" record; a failure is recorded,
// not raised (the report stays useful without the run).
void MeasureKernels(const Module& m, const codegen::CodegenResult& cg, const ReportOptions& opts, J& kernels) {
  Progress(opts, "running the kernels on " + opts.run);
  J run = {{"device", opts.run}};
  if (!m.entry()) return;
  // A module whose collectives exchange data runs on every device (the CPU
  // run); the kernels' times are device 0's.
  const int64_t devices = opts.run == "cpu" ? DevicesToEvaluate(m) : 1;
  std::vector<std::vector<Literal>> device_inputs = MakeRandomDeviceInputs(*m.entry(), 1, devices);
  const std::vector<Literal>& inputs = device_inputs[0];
  std::vector<runtime::RunResult> others;
  StatusOr<runtime::RunResult> result = Status::Error("unknown run device '" + opts.run + "' (cpu, cuda)");
  if (devices > 1) {
    auto all = codegen::RunOnCpuDevices(cg, device_inputs);
    if (all.ok()) {
      result = std::move((*all)[0]);
      others.assign(std::make_move_iterator(all->begin() + 1), std::make_move_iterator(all->end()));
    } else {
      result = all.status();
    }
  } else if (opts.run == "cpu") {
    result = codegen::RunOnCpu(cg, inputs);
  } else if (opts.run == "cuda") {
    std::vector<runtime::BundleKernel> ks;
    for (const codegen::KernelCode& k : cg.kernels)
      if (k.same_as < 0) ks.push_back({k.kernel, "", k.ptx, ""});
    result = runtime::RunOnCuda(cg.plan, ks, inputs);
  }
  if (!result.ok()) {
    run["error"] = result.status().message();
    kernels["run"] = run;
    kernels["note"] = "measured µs: the " + opts.run + " run failed: " + result.status().message();
    Progress(opts, "kernel run failed: " + result.status().message());
    return;
  }
  run["device"] = result->device;
  run["total_ms"] = result->total_ms;
  if (devices > 1) run["devices"] = devices;
  auto want = EvaluateOnDevices(m, devices, device_inputs);
  if (want.ok()) {
    std::string mismatch;
    for (int64_t dev = 0; dev < devices && mismatch.empty(); ++dev) {
      const runtime::RunResult& got = dev == 0 ? *result : others[static_cast<size_t>(dev - 1)];
      mismatch = runtime::CompareOutputs(cg.plan, FlattenTuple((*want)[static_cast<size_t>(dev)]), got.outputs);
      if (!mismatch.empty() && devices > 1) mismatch = "device " + std::to_string(dev) + ": " + mismatch;
    }
    run["matches_interpreter"] = mismatch.empty();
    if (!mismatch.empty()) run["mismatch"] = mismatch;
  }
  std::map<std::string, double> median;
  for (const runtime::KernelTiming& t : result->kernels)
    if (t.kernel) median[t.kernel->name] = t.MedianUs();
  for (J& k : kernels["list"]) {
    auto it = median.find(k["name"].get<std::string>());
    if (it != median.end()) k["measured_us"] = it->second;
  }
  kernels["run"] = run;
  kernels["note"] = opts.run == "cpu"
                        ? "measured µs: on this CPU, the kernels' own code with emulated GPU threads (not GPU times)"
                        : "measured µs: on " + result->device + " (median over launches)";
}

}  // namespace

StatusOr<Report> BuildReport(Module& m, const ReportOptions& opts) {
  ASSIGN_OR_RETURN(DeviceSpec device, LoadDevice(opts.device));
  SetCurrentDevice(device);
  Report r;
  J& d = r.data;
  d["format"] = kReportFormat;
  d["version"] = kReportVersion;
  int64_t params = m.entry() ? m.entry()->num_parameters() : 0;
  d["module"] = {{"name", m.name()},
                 {"source", opts.source},
                 {"instructions", m.instruction_count()},
                 {"computations", m.computations().size()},
                 {"parameters", params},
                 {"pipeline", opts.pipeline},
                 {"device", {{"id", device.id}, {"name", device.name}}}};

  Progress(opts, "running pipeline " + opts.pipeline + " (" + std::to_string(m.instruction_count()) + " instructions)");
  ASSIGN_OR_RETURN(std::unique_ptr<Pipeline> pipeline, PassRegistry::Global().BuildPipeline(opts.pipeline));
  StepRecorder recorder;
  VerifierInstrumentation verifier;
  pipeline->AddInstrumentation(&recorder);
  pipeline->AddInstrumentation(&verifier);
  auto ran = pipeline->Run(m);
  if (!ran.ok()) return Status::Error("pipeline " + opts.pipeline + " failed: " + ran.status().message());
  // What each pass that ran does (pass_explanations.h), in the order they
  // first ran: the "What the passes do" section, linked from the steps.
  J passes = J::array();
  {
    std::set<std::string> seen;
    for (const auto& s : recorder.steps())
      if (seen.insert(s->pass).second) {
        const PassInfo* info = PassRegistry::Global().FindPass(s->pass);
        passes.push_back({{"name", s->pass},
                          {"description", info ? info->description : std::string()},
                          {"explanation", std::string(PassExplanation(s->pass))}});
      }
  }
  d["passes"] = std::move(passes);

  d["initial"] = CostJson(recorder.initial_cost(), recorder.initial()->instruction_count());
  ModuleCost final_cost = recorder.steps().empty() ? recorder.initial_cost() : recorder.steps().back()->cost;
  d["final"] = CostJson(final_cost, m.instruction_count());
  J steps = J::array(), decisions = J::array();
  int64_t prev_i = recorder.initial()->instruction_count(), prev_k = recorder.initial_cost().kernels,
          prev_b = recorder.initial_cost().hbm_bytes;
  for (const auto& s : recorder.steps()) {
    steps.push_back({{"index", s->index},  // the step number: 1, 2, 3... (0 is the input)
                     {"step", s->index},
                     {"pass", s->pass},
                     {"group", s->group},
                     {"iteration", s->iteration},
                     {"changed", s->changed},
                     {"ms", s->ms},
                     {"instructions", s->instructions},
                     {"d_instructions", s->instructions - prev_i},
                     {"kernels", s->cost.kernels},
                     {"d_kernels", s->cost.kernels - prev_k},
                     {"hbm_bytes", s->cost.hbm_bytes},
                     {"d_hbm_bytes", s->cost.hbm_bytes - prev_b},
                     {"est_us", s->cost.est_us}});
    prev_i = s->instructions;
    prev_k = s->cost.kernels;
    prev_b = s->cost.hbm_bytes;
    for (const FusionDecision& fd : s->decisions)
      decisions.push_back({{"step", s->index},
                           {"pass", fd.pass},
                           {"producer", fd.producer},
                           {"consumers", fd.consumers},
                           {"verdict", FusionVerdictName(fd.verdict)},
                           {"reason", fd.reason},
                           {"result", fd.result},
                           {"bytes_before", fd.bytes_before},
                           {"bytes_after", fd.bytes_after},
                           {"us_before", fd.us_before},
                           {"us_after", fd.us_after},
                           {"arithmetic", CostArithmetic(fd)}});
  }
  d["steps"] = std::move(steps);
  d["decisions"] = std::move(decisions);
  // HBM traffic per step (the warehouse trips), step 0 = the input.
  const std::vector<TrafficPoint> traffic = TrafficSeries(recorder);
  J tj = J::array();
  for (const TrafficPoint& p : traffic)
    tj.push_back({{"step", p.step},
                  {"pass", p.pass},
                  {"changed", p.changed},
                  {"bytes_read", p.bytes_read},
                  {"bytes_written", p.bytes_written},
                  {"kernels", p.kernels},
                  {"est_us", p.est_us}});
  d["traffic"] = std::move(tj);
  J fusions = J::array();
  if (m.entry())
    for (const auto& i : m.entry()->instructions())
      if (i->opcode() == Opcode::kFusion)
        fusions.push_back({{"name", i->name()}, {"kind", std::string(FusionKindName(i->fusion_kind()))},
                           {"members", FusionMembers(*i)}});
  d["final"]["fusions"] = fusions.size();
  d["fusions"] = std::move(fusions);

  ReportPictures pics;
  TrafficSvgOptions traffic_opts;
  traffic_opts.title = "HBM traffic per step — " + m.name() + ", pipeline " + opts.pipeline;
  pics.traffic = RenderTrafficSvg(traffic, traffic_opts);
  J graphs;
  Progress(opts, "laying out the graph before optimization");
  J gj;
  pics.graph_before = GraphPicture(*recorder.initial(), "before optimization — " + m.name(), &gj, &pics.graph_before_note);
  graphs["before"] = gj;
  Progress(opts, "laying out the graph after optimization");
  const ModuleSnapshot& last = recorder.steps().empty() ? *recorder.initial() : *recorder.steps().back()->module;
  pics.graph_after = GraphPicture(last, "after " + opts.pipeline + " — " + m.name(), &gj, &pics.graph_after_note);
  graphs["after"] = gj;
  d["graphs"] = graphs;

  Progress(opts, "assigning buffers");
  auto ba = AssignBuffers(m);
  if (ba.ok()) {
    const BufferAssignment& b = **ba;
    d["memory"] = {{"scheduler", b.scheduler},        {"peak_bytes", b.peak_bytes},
                   {"lower_bound_bytes", b.lower_bound_bytes}, {"peak_position", b.peak_position},
                   {"ratio", b.ratio()},             {"parameter_bytes", b.parameter_bytes},
                   {"constant_bytes", b.constant_bytes}, {"output_bytes", b.output_bytes},
                   {"total_bytes", b.total_bytes},   {"buffers", b.buffers.size()},
                   {"allocations", b.allocations.size()}, {"positions", b.sequence.size()}};
    if (!b.io_aliases.empty()) {
      J ios = J::array();
      for (const IoAliasOutcome& io : b.io_aliases) {
        J o = {{"alias", io.alias}, {"taken", io.taken}, {"reason", io.reason}};
        if (!io.copy.empty()) o["copy"] = io.copy;
        ios.push_back(std::move(o));
      }
      d["memory"]["io_aliases"] = std::move(ios);
    }
    TimelineOptions to;
    to.standalone = false;
    to.title = "buffer timeline — " + m.name() + " after " + opts.pipeline;
    pics.timeline = RenderTimelineSvg(b, to);
  } else {
    d["memory"] = {{"error", ba.status().message()}};
    pics.timeline_note = "no buffer assignment: " + ba.status().message();
  }
  if (opts.xla_buffers) {
    const BufferAssignment& x = *opts.xla_buffers;
    d["xla_memory"] = {{"source", opts.xla_buffers_label},     {"peak_bytes", x.peak_bytes},
                       {"lower_bound_bytes", x.lower_bound_bytes}, {"peak_position", x.peak_position},
                       {"parameter_bytes", x.parameter_bytes}, {"constant_bytes", x.constant_bytes},
                       {"output_bytes", x.output_bytes},       {"total_bytes", x.total_bytes},
                       {"buffers", x.buffers.size()},          {"allocations", x.allocations.size()},
                       {"positions", x.sequence.size()}};
    TimelineOptions to;
    to.standalone = false;
    to.title = "XLA's buffer timeline — " + opts.xla_buffers_label;
    pics.xla_timeline = RenderTimelineSvg(x, to);
  }
  if (opts.compare_with) {
    Progress(opts, "comparing with " + opts.compare_label);
    CompareResult cr = CompareModules(m, *opts.compare_with, device);
    cr.a.label = (opts.source.empty() ? m.name() : opts.source) + " after " + opts.pipeline;
    cr.b.label = opts.compare_label;
    J cj = J::parse(CompareToJson(cr));
    cj.erase("format");
    cj.erase("matches");  // the pairs are many; `hloscope-cli compare --json` lists them
    d["compare"] = std::move(cj);
  }
  if (opts.xla_fusion) {
    Progress(opts, "setting our fusion decisions beside XLA's (" + opts.xla_fusion->log.origin + ")");
    auto input = std::make_shared<Step>();
    input->index = 0;
    input->pass = "input";
    input->module = recorder.initial();
    input->cost = recorder.initial_cost();
    std::vector<std::shared_ptr<const Step>> steps = {input};
    steps.insert(steps.end(), recorder.steps().begin(), recorder.steps().end());
    PipelineRun run(opts.pipeline, device.id, std::move(steps));
    auto dd = DiffDecisions(run, *opts.xla_fusion);
    if (!dd.ok()) {
      d["decisions_vs_xla"] = {{"note", dd.status().message()}};
    } else {
      dd->ours_label = (opts.source.empty() ? m.name() : opts.source) + " (pipeline " + opts.pipeline + ")";
      if (opts.xla_gemm)
        if (auto before = run.ModuleAt(dd->our_step - 1); before.ok()) {
          dd->gemm = CompareGemmSearches(**before, *opts.xla_gemm);
          dd->gemm_log = opts.xla_gemm->origin;
        }
      if (auto costs = InstructionCostsBesideLog(opts.xla_fusion->log.origin, device); !costs.ok()) {
        Progress(opts, "XLA's cost estimates left out: " + costs.status().message());
      } else if (*costs) {
        dd->instruction_costs = std::move((*costs)->comparison);
        dd->costs_log = (*costs)->table;
      }
      J dj = J::parse(DecisionsDiffToJson(*dd));
      dj.erase("format");
      d["decisions_vs_xla"] = std::move(dj);
      pics.cost_scatter = CostScatterSvg(dd->cost);
    }
  }
  J files = {"report.html", "report.json", "optimized.hlo"};
  std::vector<ReportFile> extra;
  d["kernels"] = {{"generated", false}, {"note", "no buffer assignment, so no kernels"}, {"list", J::array()}};
  if (ba.ok()) {
    const std::string missing_tools = opts.sass ? codegen::MissingSassTools() : std::string();
    const bool with_sass = opts.sass && missing_tools.empty();
    Progress(opts, with_sass ? "generating kernels (LLVM IR + PTX + SASS)" : "generating kernels (LLVM IR + PTX)");
    if (opts.sass && !missing_tools.empty()) Progress(opts, "no SASS: " + missing_tools);
    codegen::CodegenOptions co;
    co.device = device;
    co.sass = with_sass;
    auto cg = codegen::GenerateKernels(m, **ba, co);
    if (!cg.ok()) {
      d["kernels"]["note"] = "kernel generation failed: " + cg.status().message();
    } else {
      J list = J::array();
      std::vector<const runtime::KernelThunk*> thunks = runtime::AllKernels(cg->plan);
      std::set<std::string> written;
      for (size_t ti = 0; ti < thunks.size(); ++ti) {
        const runtime::KernelThunk* t = thunks[ti];
        // Launches that share a kernel link the one file it has.
        const codegen::KernelCode* code = ti < cg->kernels.size() ? &cg->CodeOf(ti) : nullptr;
        const std::string fn = runtime::KernelFunction(*t);
        J kfiles = J::array();
        if (code && written.insert(fn).second) {
          if (!code->ptx.empty()) extra.push_back({"kernels/" + fn + ".ptx", code->ptx});
          if (!code->optimized_ir.empty() || !code->ir.empty())
            extra.push_back({"kernels/" + fn + ".ll", code->optimized_ir.empty() ? code->ir : code->optimized_ir});
          if (!code->sass.empty()) extra.push_back({"kernels/" + fn + ".sass", code->sass});
        }
        if (code && !code->ptx.empty()) kfiles.push_back("kernels/" + fn + ".ptx");
        if (code && (!code->optimized_ir.empty() || !code->ir.empty())) kfiles.push_back("kernels/" + fn + ".ll");
        if (code && !code->sass.empty()) kfiles.push_back("kernels/" + fn + ".sass");
        char launch[128];
        std::snprintf(launch, sizeof launch, "grid %ux%ux%u, block %ux%ux%u", t->dims.grid[0], t->dims.grid[1],
                      t->dims.grid[2], t->dims.block[0], t->dims.block[1], t->dims.block[2]);
        J entry = {{"name", t->name},
                   {"kind", t->kind},
                   {"instruction", t->instruction},
                   {"launch", launch},
                   {"bytes", t->bytes},
                   {"flops", t->flops},
                   {"estimated_us", t->estimated_us},
                   {"measured_us", nullptr},
                   {"files", kfiles}};
        // Never all or nothing: a kernel no emitter implements stays listed, with why.
        if (!t->missing.empty()) entry["missing"] = t->missing;
        // ptxas's resources and the occupancy on every device preset (the
        // manifest's "resources", docs/bundle-format.md).
        if (!t->resources_json.empty()) {
          J r = J::parse(t->resources_json, nullptr, /*allow_exceptions=*/false);
          if (!r.is_discarded()) entry["resources"] = std::move(r);
        } else if (code && !code->sass_error.empty()) {
          entry["sass_error"] = code->sass_error;
        }
        list.push_back(std::move(entry));
      }
      // The thunks that are not kernels of ours: custom-calls into external
      // targets, collectives, host transfers (core/report/plan_listing.h).
      const std::vector<PlanEntry> entries = ListPlan(*cg);
      const PlanCounts counts = CountPlan(entries);
      J other = J::array();
      for (const PlanEntry& e : entries) {
        if (e.kind == PlanEntry::Kind::kKernel || e.kind == PlanEntry::Kind::kMissing) continue;
        other.push_back({{"thunk", PlanEntryKindName(e.kind)},
                         {"instruction", e.instruction},
                         {"target", e.target},
                         {"what", e.what}});
      }
      d["kernels"] = {{"generated", true},
                      {"target", cg->plan.target},
                      {"summary", PlanSummaryLine(counts)},
                      {"counts",
                       {{"generated", counts.kernels},
                        {"missing", counts.missing},
                        {"custom_calls", counts.custom_calls},
                        {"collectives", counts.collectives},
                        {"host_transfers", counts.host_transfers}}},
                      {"device", device.id},
                      {"sass", with_sass ? std::string("made (ptxas -v, nvdisasm)")
                                         : opts.sass ? "not made: " + missing_tools : std::string("not asked")},
                      {"note", "measured µs: no GPU run was done for this report"},
                      {"list", std::move(list)},
                      {"thunks", std::move(other)}};
      for (const PlanEntry& e : entries)
        if (e.kind == PlanEntry::Kind::kMissing) Progress(opts, "kernel " + e.name + ": " + e.what);
      if (!opts.run.empty()) MeasureKernels(m, *cg, opts, d["kernels"]);
      // The kernel bundle (docs/bundle-format.md), runnable by hloscope-run.
      runtime::Bundle bundle;
      bundle.plan = cg->plan;
      for (const auto& k : cg->kernels)
        if (k.same_as < 0 && k.missing.empty())
          bundle.kernels.push_back({k.kernel, k.optimized_ir.empty() ? k.ir : k.optimized_ir, k.ptx, k.sass});
      if (m.entry()) {
        // Seed 1 and the module, not the values: a real-size report stays
        // small (readers regenerate them).
        bundle.input_seed = 1;
        bundle.module_text = PrintModule(m);
      }
      std::error_code ec;
      fs::path tmp = fs::temp_directory_path() / ("hloscope-report-bundle-" + std::to_string(::getpid()) + "-" +
                                                  std::to_string(std::random_device{}() % 1000000));
      Status bs = runtime::WriteBundle(tmp.string(), bundle, false);
      if (bs.ok()) {
        for (const auto& e : fs::recursive_directory_iterator(tmp, ec)) {
          if (!e.is_regular_file()) continue;
          std::ifstream in(e.path(), std::ios::binary);
          std::stringstream ss;
          ss << in.rdbuf();
          extra.push_back({"bundle/" + fs::relative(e.path(), tmp).string(), ss.str()});
        }
        files.push_back("bundle/manifest.json");
        d["kernels"]["bundle"] = "bundle";
      } else {
        d["kernels"]["bundle_error"] = bs.message();
      }
      fs::remove_all(tmp, ec);
    }
  }
  d["files"] = files;

  Progress(opts, "rendering report.html");
  r.html = RenderReportHtml(d, pics);
  r.files.push_back({"report.html", r.html});
  r.files.push_back({"report.json", d.dump(2) + "\n"});
  r.files.push_back({"optimized.hlo", PrintModule(m)});
  for (auto& f : extra) r.files.push_back(std::move(f));
  return r;
}

Status WriteReportDir(const std::string& dir, const std::vector<ReportFile>& files, bool force) {
  std::error_code ec;
  fs::path target = fs::path(dir).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();
  bool exists = fs::exists(target, ec);
  if (exists && !force) return Status::Error(dir + ": error: already exists (use --force to replace it)");
  if (exists && !fs::is_directory(target, ec)) return Status::Error(dir + ": error: exists and is not a directory");
  fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  fs::create_directories(parent, ec);
  std::random_device rd;
  std::string tag = std::to_string(::getpid()) + "-" + std::to_string(rd() % 1000000);
  fs::path tmp = parent / ("." + target.filename().string() + ".tmp-" + tag);
  fs::path old = parent / ("." + target.filename().string() + ".old-" + tag);
  auto cleanup = [&](const std::string& why) {
    std::error_code ignore;
    fs::remove_all(tmp, ignore);
    return Status::Error(dir + ": error: " + why);
  };
  if (!fs::create_directory(tmp, ec)) return cleanup("cannot create a temporary folder: " + ec.message());
  for (const ReportFile& f : files) {
    fs::path rel = fs::path(f.name).lexically_normal();
    if (f.name.empty() || rel.is_absolute() || rel.empty() || *rel.begin() == "..")
      return cleanup("bad file name " + f.name);
    fs::path p = tmp / rel;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary);
    out.write(f.content.data(), static_cast<std::streamsize>(f.content.size()));
    out.close();
    if (!out) return cleanup("cannot write " + f.name);
  }
  if (exists) {
    fs::rename(target, old, ec);
    if (ec) return cleanup("cannot move the old folder aside: " + ec.message());
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignore;
    if (exists) fs::rename(old, target, ignore);
    return cleanup("cannot rename the new folder into place: " + ec.message());
  }
  if (exists) fs::remove_all(old, ec);
  return Status::Ok();
}

}  // namespace hloscope::report
