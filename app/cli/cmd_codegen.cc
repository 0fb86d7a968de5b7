// codegen: compile a module's kernels to LLVM IR and PTX and export a bundle
// (manifest.json, <kernel>.ll/.ptx, constants, inputs, expected outputs).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "core/codegen/codegen.h"
#include "core/codegen/nvptx_backend.h"
#include "core/codegen/nvptx_targets.h"
#include "core/cost/device.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/ir/computation.h"
#include "core/printer/printer.h"
#include "core/report/ptx_compare.h"
#include "core/runtime/bundle.h"
#include "core/stablehlo/load_module.h"

namespace hloscope::cli {
namespace {

int Fail(const std::string& msg, int code = 1) {
  std::fprintf(stderr, "hloscope-cli codegen: error: %s\n", msg.c_str());
  return code;
}

// --compare-xla DIR: our kernels against the PTX XLA compiled for the same
// program (core/report/ptx_compare.h); no bundle is written.
// The pipeline and codegen of FILE, announced as every command announces
// its pipeline.
StatusOr<codegen::CompiledFile> CompileForCodegen(const Args& args, const std::string& file,
                                                  const codegen::CodegenOptions& opts) {
  AnnouncePipeline("codegen", args.GetOr("--pipeline", "gpu"));
  return codegen::CompileFile(file, args.GetOr("--pipeline", "gpu"), opts);
}

// Codegen's errors are located (FILE:LINE:COL: error: ...) and printed as
// they are; others get the file's name once.
int ReportCompileError(const std::string& file, const std::string& m) {
  if (m.rfind(file + ":", 0) == 0 && m.find(": error: ") != std::string::npos) {
    std::fprintf(stderr, "%s\n", m.c_str());
    return 1;
  }
  return Fail(file + ": " + m);
}

int RunCompareXla(const Args& args, const std::string& dir, codegen::CodegenOptions opts) {
  const std::string& file = args.positional()[0];
  auto files = report::ReadXlaKernelFiles(dir, args.GetOr("--module", ""));
  if (!files.ok()) return Fail(files.status().message());
  auto xla = LoadModuleFile(files->module_path);
  if (!xla.ok()) return Fail(xla.status().message());
  opts.sass = false;  // ptxas -v runs once per kernel below, on the same -arch for both sides
  auto compiled = CompileForCodegen(args, file, opts);
  if (!compiled.ok()) return ReportCompileError(file, compiled.status().message());
  for (const std::string& m : codegen::MissingKernelMessages(*compiled, file))
    std::fprintf(stderr, "%s (left out of the comparison)\n", m.c_str());
  report::PtxCompareOptions copts;
  report::PtxComparison c = report::ComparePtx(*compiled->module, compiled->codegen, **xla, *files, copts);
  if (!c.ptxas_missing.empty())
    std::fprintf(stderr, "hloscope-cli codegen: note: no registers, spills or ptxas shared memory: %s\n",
                 c.ptxas_missing.c_str());
  if (args.Has("--json")) {
    std::printf("%s\n", report::PtxComparisonToJson(c).c_str());
  } else {
    std::printf("%s (pipeline %s) against %s\n\n%s", file.c_str(), args.GetOr("--pipeline", "gpu").c_str(),
                files->module_path.c_str(), report::PtxComparisonToText(c).c_str());
  }
  return 0;
}

int RunCodegen(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--pipeline", "--sm", "--device", "--out", "--inputs", "--seed", "--jobs", "--compare-xla",
                         "--module"},
                  {"--validate", "--force", "--no-expected", "--write-inputs", "--sass", "--no-sass", "--json"}, &err) ||
      args.positional().size() != 1)
    return Fail(err.empty() ? "expected one input file" : err, 2);
  auto out_dir = args.Get("--out");
  auto compare_xla = args.Get("--compare-xla");
  if (compare_xla && out_dir) return Fail("--compare-xla writes no bundle; leave out --out", 2);
  if (!compare_xla && args.Has("--module")) return Fail("--module picks a module of the --compare-xla folder", 2);
  if (!out_dir && !compare_xla) return Fail("--out DIR is required", 2);
  // Beside XLA GPU's PTX (sm_90a), ours is generated for sm_90a too unless
  // --sm says otherwise: the same arch-specific features on both sides
  // (wgmma for full 16-bit GEMM tiles).
  std::string sm = args.GetOr("--sm", compare_xla ? "90a" : "90");
  if (!codegen::FindNvptxTarget(sm)) return Fail("unknown --sm " + sm + " (known: " + codegen::NvptxTargetList() + ")", 2);
  long long seed = 0, jobs = 0;
  if (!args.GetInt("--seed", &seed, &err) || !args.GetInt("--jobs", &jobs, &err)) return Fail(err, 2);
  if (jobs < 0) return Fail("--jobs must be at least 1 (0: one per core)", 2);
  bool force = args.Has("--force");
  std::error_code ec;
  if (out_dir && std::filesystem::exists(*out_dir, ec) && !force &&
      !(std::filesystem::is_directory(*out_dir, ec) && std::filesystem::is_empty(*out_dir, ec)))
    return Fail(*out_dir + " already exists; pass --force to replace its bundle");
  codegen::CodegenOptions opts;
  opts.sm = sm;
  opts.validate = args.Has("--validate");
  opts.threads = static_cast<int>(jobs);
  // Progress on long runs, every few seconds, on stderr.
  auto started = std::chrono::steady_clock::now();
  auto last_report = started;
  opts.progress = [&](size_t done, size_t total) {
    auto now = std::chrono::steady_clock::now();
    if (done == total || now - last_report < std::chrono::seconds(3)) return;
    last_report = now;
    std::fprintf(stderr, "hloscope-cli codegen: %zu of %zu distinct kernels compiled (%.0f s)\n", done, total,
                 std::chrono::duration<double>(now - started).count());
  };
  if (auto d = args.Get("--device")) {
    auto spec = LoadDevice(*d);
    if (!spec.ok()) return Fail(spec.status().message(), 2);
    SetCurrentDevice(*spec);
    opts.device = *spec;
  }
  if (opts.validate && codegen::PtxasPath().empty()) return Fail("--validate needs ptxas (set HLOSCOPE_PTXAS or PATH)");
  if (compare_xla) return RunCompareXla(args, *compare_xla, opts);
  // SASS and resources: on when ptxas and nvdisasm are found (said once
  // when not), --sass insists, --no-sass skips them.
  const std::string missing_tools = codegen::MissingSassTools();
  if (args.Has("--sass") && !missing_tools.empty()) return Fail("--sass: " + missing_tools, 2);
  opts.sass = !args.Has("--no-sass") && missing_tools.empty();
  if (!args.Has("--no-sass") && !missing_tools.empty())
    std::fprintf(stderr, "hloscope-cli codegen: note: no SASS or kernel resources: %s\n", missing_tools.c_str());
  const std::string& file = args.positional()[0];
  auto compiled = CompileForCodegen(args, file, opts);
  if (!compiled.ok()) return ReportCompileError(file, compiled.status().message());

  for (const std::string& c : compiled->synthesized_constants)
    std::fprintf(stderr, "%s: warning: constant %s has elided values ({...}); filled with deterministic values "
                 "(seed 0), marked in manifest.json (synthesized_constants)\n", file.c_str(), c.c_str());
  runtime::Bundle bundle;
  bundle.plan = compiled->codegen.plan;
  for (const codegen::KernelCode& k : compiled->codegen.kernels) bundle.kernels.push_back({k.name, k.ir, k.ptx, k.sass});
  std::vector<std::string> sass_errors;
  for (const codegen::KernelCode& k : compiled->codegen.kernels)
    if (!k.sass_error.empty()) sass_errors.push_back(k.name + ": " + k.sass_error);
  for (const std::string& e : sass_errors) std::fprintf(stderr, "%s: warning: no SASS for %s\n", file.c_str(), e.c_str());
  const std::vector<std::string> missing = codegen::MissingKernelMessages(*compiled, file);
  if (auto in = args.Get("--inputs")) {
    auto data = ReadDataFile(*in);
    if (!data.ok()) return Fail(data.status().message());
    bundle.inputs = data->inputs;
  }
  // The interpreter cannot run a module with collectives across several
  // devices: no expected outputs, and no inputs drawn for them (a sharded
  // Llama 3.1 8B's parameters took 50 s to draw).
  const Status evaluable = ModuleEvaluable(*compiled->module);
  if (!evaluable.ok() && !args.Has("--no-expected"))
    std::fprintf(stderr, "%s: warning: no expected outputs in the bundle (the interpreter cannot compute them: %s)\n",
                 file.c_str(), evaluable.message().c_str());
  if (!args.Get("--inputs")) {
    // The values only where they are written or evaluated: a real model's
    // parameters are gigabytes.
    if (args.Has("--write-inputs") || (!args.Has("--no-expected") && evaluable.ok()))
      bundle.inputs = MakeRandomInputs(*compiled->module->entry(), static_cast<uint64_t>(seed));
    if (!args.Has("--write-inputs")) {
      // The seed and the module, not the values: real-size bundles stay small.
      bundle.input_seed = static_cast<uint64_t>(seed);
      bundle.module_text = PrintModule(*compiled->module);
    }
  }
  if (!args.Has("--no-expected") && evaluable.ok()) {
    auto expected = EvaluateModule(*compiled->module, bundle.inputs);
    if (expected.ok()) {
      bundle.expected = FlattenTuple(*expected);
    } else {
      // The kernels are still worth exporting; the bundle says nothing to compare with.
      std::fprintf(stderr, "%s: warning: no expected outputs in the bundle (the interpreter cannot compute them: %s)\n",
                   file.c_str(), expected.status().message().c_str());
    }
  }
  if (Status s = runtime::WriteBundle(*out_dir, bundle, force); !s.ok()) return Fail(s.message());
  const codegen::CodegenResult& cg = compiled->codegen;
  const size_t launches = cg.kernels.size() - missing.size();
  std::string shared;
  if (cg.distinct != launches) shared = " (" + std::to_string(cg.distinct) + " distinct, shared by identical fusions)";
  if (args.Has("--json")) {
    // Per distinct kernel: its SASS statistics and resources (the manifest
    // has them per launch, with the occupancy on every device preset).
    nlohmann::ordered_json j = {{"file", file}, {"target", cg.plan.target}, {"out", *out_dir},
                                {"sass", opts.sass}, {"kernels", nlohmann::ordered_json::array()}};
    for (size_t k = 0; k < cg.kernels.size(); ++k) {
      const codegen::KernelCode& c = cg.kernels[k];
      if (c.same_as >= 0 || !c.missing.empty()) continue;
      nlohmann::ordered_json e = {{"kernel", c.kernel}, {"kind", c.kind}, {"instruction", c.instruction},
                                  {"ptx_bytes", c.ptx.size()}, {"ms", c.ms}};
      if (!c.strategy.empty()) e["strategy"] = c.strategy;
      for (const runtime::KernelThunk* t : runtime::AllKernels(cg.plan))
        if (runtime::KernelFunction(*t) == c.kernel && !t->resources_json.empty()) {
          e["sass"] = t->sass;
          e["resources"] = nlohmann::ordered_json::parse(t->resources_json);
          break;
        }
      if (!c.sass_error.empty()) e["sass_error"] = c.sass_error;
      j["kernels"].push_back(std::move(e));
    }
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("%s: %zu kernels%s for %s%s%s in %.1f ms on %d thread%s → %s\n", file.c_str(), launches,
                shared.c_str(), cg.plan.target.c_str(), opts.validate ? " (ptxas-validated)" : "",
                opts.sass ? " with SASS" : "", cg.wall_ms, cg.threads, cg.threads == 1 ? "" : "s", out_dir->c_str());
  }
  if (auto calls = runtime::AllCustomCalls(cg.plan); !calls.empty()) {
    std::map<std::string, int> targets;
    for (const runtime::CustomCallThunk* x : calls) ++targets[x->target];
    std::string list;
    for (const auto& [t, n] : targets) list += (list.empty() ? "" : ", ") + t + (n > 1 ? " ×" + std::to_string(n) : "");
    std::fprintf(stderr,
                 "%s: note: %zu custom-call thunk%s call%s external targets (%s): the bundle keeps their places "
                 "and slices (\"custom-call\" in manifest.json); run needs a runtime that provides them\n",
                 file.c_str(), calls.size(), calls.size() == 1 ? "" : "s", calls.size() == 1 ? "s" : "", list.c_str());
  }
  if (!missing.empty()) {
    // Never all or nothing: every other kernel is in the bundle.
    for (const std::string& m : missing) std::fprintf(stderr, "%s\n", m.c_str());
    std::fprintf(stderr,
                 "%s: %zu of %zu kernels could not be generated; the bundle holds all the others and marks these "
                 "(\"missing\" in manifest.json), and run refuses it\n",
                 file.c_str(), missing.size(), compiled->codegen.kernels.size());
    return kExitIncomplete;
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(codegen, "codegen", "compile kernels to LLVM IR + PTX and export a runnable bundle",
                     "usage: hloscope-cli codegen FILE --out DIR [--pipeline gpu] [--sm 90] [--device h200]\n"
                     "                            [--validate] [--inputs DATA.json | --seed N [--write-inputs]]\n"
                     "                            [--no-expected] [--force] [--jobs N] [--sass | --no-sass] [--json]\n"
                     "FILE is HLO text or StableHLO (.mlir). Runs the pipeline (default gpu; none: the module as written, e.g. XLA's own\n"
                     "fusions), assigns buffers and emits one kernel per fusion and per remaining\n"
                     "instruction; launches of identical fused computations share one kernel (the manifest's\n"
                     "\"kernel\"), compiled on --jobs threads (default: one per core). DIR gets manifest.json\n"
                     "(thunks, launch dimensions, argument slices, allocations, target), <kernel>.ll (as\n"
                     "emitted) and <kernel>.ptx per kernel, constants/, "
                     "the inputs and expected.data.json (the interpreter's outputs). Inputs: those of --inputs\n"
                     "(hloscope-data-v1, samples/README.md) as inputs.data.json; else random ones (--seed N,\n"
                     "default 0) recorded as their seed and the module (inputs.random.json + module.hlo, a few\n"
                     "KB; readers regenerate them), or as values with --write-inputs. --validate runs ptxas\n"
                     "-arch=sm_XX on every PTX. An existing DIR is refused unless --force.\n"
                     "SASS: when ptxas and nvdisasm are found (tools/install_deps.sh fetches nvdisasm into .tools/),\n"
                     "every PTX is assembled (ptxas -v) and disassembled: DIR gets <kernel>.sass and each kernel\n"
                     "thunk in manifest.json \"sass\" and \"resources\" (registers, spills, shared memory, barriers,\n"
                     "constant bank, SASS instruction classes, occupancy per device preset; docs/bundle-format.md).\n"
                     "--sass fails when a tool is missing, --no-sass skips it. --json prints per kernel its\n"
                     "kind, strategy (how it works: tile, stages, how each operand reaches shared memory),\n"
                     "resources and SASS statistics instead of the summary line.\n"
                     "Collectives and partition/replica ids become collective thunks, not kernels; a custom-call\n"
                     "no kernel implements (a library's or a framework's target) becomes a custom-call thunk,\n"
                     "named on stderr, which run refuses. A kernel no\n"
                     "emitter implements is marked \"missing\" (with its reason) in manifest.json and named on\n"
                     "stderr; every other kernel is still written, and the exit code is 3 (run refuses such a\n"
                     "bundle). A module the interpreter cannot evaluate is written without expected outputs.\n"
                     "\n"
                     "usage: hloscope-cli codegen FILE --compare-xla DIR [--pipeline gpu] [--sm 90a] [--module M] [--json]\n"
                     "Our kernels against XLA GPU's: DIR is a reference folder (samples/xla_gpu/X: its\n"
                     "after_optimizations.txt, kernels.ptx, thunk_sequence.txt) or an --xla_dump_to folder\n"
                     "(--module picks a module). Ops are matched as compare matches them; for each kernel in\n"
                     "XLA's PTX, the kernel of ours holding its dot's counterpart, else most of its matched ops:\n"
                     "PTX instructions by class,\n"
                     "ld/st.global bytes per access, registers, spills and shared memory (ptxas -v -arch=sm_90a\n"
                     "for both sides; n/a without ptxas; ours generated for sm_90a unless --sm says\n"
                     "otherwise), threads per block; then the kernels of each side\n"
                     "without a counterpart. Text: Markdown tables; --json: docs/codegen.md. No bundle is written.",
                     RunCodegen);

}  // namespace hloscope::cli
