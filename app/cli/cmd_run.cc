// run: codegen + run the kernels (CPU emulation or CUDA) + compare with the
// reference interpreter, in one command.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "core/stablehlo/load_module.h"
#include "core/codegen/codegen.h"
#include "core/codegen/cpu_executor.h"
#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/runtime/bundle.h"
#include "core/runtime/cuda_executor.h"
#include "core/runtime/plan_io.h"
#include "core/runtime/run_report.h"

namespace hloscope::cli {
namespace {

int Fail(const std::string& msg, int code = 1) {
  std::fprintf(stderr, "%s\n", msg.c_str());
  return code;
}

// Largest absolute and relative difference of `actual` from `expected`
// over the elements (relative to |expected|, elements with expected 0 only
// count in the absolute one); NaN where exactly one side is NaN counts as
// infinite.
nlohmann::ordered_json ErrorSizes(const Literal& expected, const Literal& actual) {
  double max_abs = 0, max_rel = 0;
  const int64_t n = std::min(expected.num_elements(), actual.num_elements());
  const bool numeric = expected.shape().IsArray() && actual.shape().IsArray() &&
                       !IsComplex(expected.shape().element_type());
  for (int64_t i = 0; numeric && i < n; ++i) {
    const double e = expected.GetDouble(i), a = actual.GetDouble(i);
    if (std::isnan(e) && std::isnan(a)) continue;
    double d = std::isnan(e) || std::isnan(a) ? INFINITY : (e == a ? 0.0 : std::fabs(a - e));
    max_abs = std::max(max_abs, d);
    if (e != 0) max_rel = std::max(max_rel, d / std::fabs(e));
  }
  nlohmann::ordered_json j;
  j["max_abs"] = std::isfinite(max_abs) ? nlohmann::ordered_json(max_abs) : nlohmann::ordered_json("inf");
  j["max_rel"] = std::isfinite(max_rel) ? nlohmann::ordered_json(max_rel) : nlohmann::ordered_json("inf");
  return j;
}

// `run` of a module whose collectives exchange data between its devices:
// every device runs the kernels over allocations of its own on its own
// inputs, meeting the others at the collectives, and each device's outputs
// are compared with the interpreter's evaluation of that device.
int RunOnEveryDevice(const Args& args, const std::string& path, const Module& original,
                     const codegen::CodegenResult& code, int64_t devices, const std::string& device,
                     const std::optional<Tolerance>& tol, long long seed, int repeat) {
  if (device != "cpu")
    return Fail(path + ": the module runs on " + std::to_string(devices) +
                " devices (its collectives exchange data between them); --device cuda runs one: use --device cpu, "
                "which runs all of them");
  if (code.plan.devices() != devices)
    return Fail(path + ": the kernel plan runs on " + std::to_string(code.plan.devices()) +
                " devices and the interpreter on " + std::to_string(devices));
  // --outputs OUT.json: one data file per device, OUT.device<d>.json, each
  // with that device's inputs and outputs (a data file holds one device's).
  std::vector<std::string> output_files;
  if (auto out = args.Get("--outputs")) {
    std::filesystem::path o(*out);
    for (int64_t d = 0; d < devices; ++d) {
      std::filesystem::path f = o.parent_path() / (o.stem().string() + ".device" + std::to_string(d) + o.extension().string());
      if (std::filesystem::exists(f) && !args.Has("--force"))
        return Fail(f.string() + ": error: file exists (use --force to overwrite)");
      output_files.push_back(f.string());
    }
  }
  if (devices > codegen::kMaxCpuDevices)
    return Fail(path + ": the module runs on " + std::to_string(devices) + " devices; a CPU run takes at most " +
                std::to_string(codegen::kMaxCpuDevices));
  if (Status s = ModuleEvaluableOnDevices(original); !s.ok())
    return Fail(path + ": reference interpreter: " + s.message());
  std::vector<std::vector<Literal>> inputs;
  if (auto in = args.Get("--inputs")) {
    auto d = ReadDataFile(*in);
    if (!d.ok()) return Fail(d.status().message());
    if (!d->outputs.empty())
      return Fail(path + ": the module runs on " + std::to_string(devices) + " devices, and " + *in +
                  " holds the outputs of one; give a data file of inputs alone");
    inputs.assign(static_cast<size_t>(devices), d->inputs);
    std::fprintf(stderr, "%s: %lld devices, each on the inputs of %s\n", path.c_str(), static_cast<long long>(devices),
                 in->c_str());
  } else {
    inputs = MakeRandomDeviceInputs(*original.entry(), static_cast<uint64_t>(seed), devices);
  }
  std::fprintf(stderr, "%s: runs on %lld devices (its collectives exchange data between them): each device runs the "
               "kernels on its own inputs, and its outputs are compared with the interpreter's on that device\n",
               path.c_str(), static_cast<long long>(devices));
  auto reference = EvaluateModuleOnDevices(original, inputs);
  if (!reference.ok()) return Fail(path + ": reference interpreter: " + reference.status().message());
  codegen::CpuRunOptions o;
  o.repeat = repeat;
  auto results = codegen::RunOnCpuDevices(code, inputs, o);
  if (!results.ok()) return Fail(path + ": " + results.status().message());
  std::string mismatch;
  std::vector<std::vector<Literal>> want;
  for (int64_t d = 0; d < devices; ++d) {
    want.push_back(FlattenTuple((*reference)[static_cast<size_t>(d)]));
    std::string m = runtime::CompareOutputs(code.plan, want.back(), (*results)[static_cast<size_t>(d)].outputs, tol);
    if (!m.empty() && mismatch.empty()) mismatch = "device " + std::to_string(d) + ": " + m;
  }
  for (size_t d = 0; d < output_files.size(); ++d) {
    DataFile df;
    df.inputs = inputs[d];
    df.outputs = (*results)[d].outputs;
    if (Status w = WriteDataFile(output_files[d], df); !w.ok()) return Fail(w.message());
  }
  if (!output_files.empty())
    std::fprintf(stderr, "%s: wrote %zu data files, one per device: %s … %s\n", path.c_str(), output_files.size(),
                 output_files.front().c_str(), output_files.back().c_str());
  const runtime::RunResult& first = (*results)[0];
  if (args.Has("--json")) {
    auto j = runtime::RunReportJson(first);
    j["file"] = path;
    j["match"] = mismatch.empty();
    if (!mismatch.empty()) j["mismatch"] = mismatch;
    j["tolerance"] = DescribeTolerance(tol);
    auto outputs = [&](int64_t d) {
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      const auto& got = (*results)[static_cast<size_t>(d)].outputs;
      for (size_t k = 0; k < got.size(); ++k) {
        nlohmann::ordered_json v = LiteralToJson(got[k]);
        if (k < want[static_cast<size_t>(d)].size()) v["vs_interpreter"] = ErrorSizes(want[static_cast<size_t>(d)][k], got[k]);
        list.push_back(std::move(v));
      }
      return list;
    };
    j["outputs"] = outputs(0);  // device 0's, as a run of one device gives
    j["devices"] = nlohmann::ordered_json::array();
    for (int64_t d = 0; d < devices; ++d) {
      std::string m = runtime::CompareOutputs(code.plan, want[static_cast<size_t>(d)],
                                              (*results)[static_cast<size_t>(d)].outputs, tol);
      nlohmann::ordered_json dj{{"device", d}, {"match", m.empty()}};
      if (!m.empty()) dj["mismatch"] = m;
      dj["total_ms"] = (*results)[static_cast<size_t>(d)].total_ms;
      dj["outputs"] = outputs(d);
      j["devices"].push_back(std::move(dj));
    }
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    if (!args.Has("--quiet")) std::printf("device 0 of %lld:\n%s", static_cast<long long>(devices), runtime::RunReportText(first).c_str());
    if (mismatch.empty())
      std::printf("%s: all %zu outputs match the interpreter on every one of %lld devices (%zu kernels on cpu)\n",
                  path.c_str(), want[0].size(), static_cast<long long>(devices), code.kernels.size());
  }
  if (!mismatch.empty())
    return Fail(path + ": mismatch with the interpreter: " + mismatch + " (" + DescribeTolerance(tol) + ")");
  return 0;
}

int RunRun(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv,
                  {"--pipeline", "--device", "--seed", "--inputs", "--sm", "--repeat", "--rtol", "--atol", "--outputs"},
                  {"--json", "--quiet", "--force"}, &err) ||
      args.positional().size() != 1)
    return Fail("hloscope-cli run: error: " + (err.empty() ? std::string("expected one input file") : err), 2);
  if (args.Has("--seed") && args.Has("--inputs"))
    return Fail("hloscope-cli run: error: --seed and --inputs exclude each other", 2);
  std::optional<Tolerance> tol;
  if (!ParseTolerance(args, &tol, &err)) return Fail("hloscope-cli run: error: " + err, 2);
  long long seed = 0, repeat = 1;
  if (args.Has("--seed") && !args.GetInt("--seed", &seed, &err)) return Fail("hloscope-cli run: error: " + err, 2);
  if (args.Has("--repeat") && (!args.GetInt("--repeat", &repeat, &err) || repeat < 1 || repeat > 100000))
    return Fail("hloscope-cli run: error: --repeat takes a count from 1 to 100000", 2);
  std::string device = args.GetOr("--device", "cpu");
  if (device != "cpu" && device != "cuda")
    return Fail("hloscope-cli run: error: unknown device '" + device + "' (cpu, cuda)", 2);
  const std::string& path = args.positional()[0];

  auto original = LoadModuleFile(path);
  if (!original.ok()) return Fail(original.status().message());
  // The interpreter sees the same filled values as the kernels (codegen
  // fills elided constants from the same seed).
  for (const std::string& c : FillElidedConstants(**original, 0))
    std::fprintf(stderr, "%s: warning: constant %s has elided values ({...}); filled with deterministic values "
                 "(seed 0) for the kernels and the interpreter alike\n", path.c_str(), c.c_str());
  codegen::CodegenOptions copts;
  if (auto sm = args.Get("--sm")) copts.sm = *sm;
  copts.emit_ptx = device == "cuda";
  AnnouncePipeline("run", args.GetOr("--pipeline", "gpu"));
  auto compiled = codegen::CompileFile(path, args.GetOr("--pipeline", "gpu"), copts);
  if (!compiled.ok()) return Fail(compiled.status().message());
  const codegen::CodegenResult& code = compiled->codegen;
  if (const std::vector<std::string> missing = codegen::MissingKernelMessages(*compiled, path); !missing.empty()) {
    for (const std::string& m : missing) std::fprintf(stderr, "%s\n", m.c_str());
    return Fail(path + ": cannot run: " + std::to_string(missing.size()) + " of " +
                std::to_string(code.kernels.size()) + " kernels could not be generated (named above)");
  }

  // A module whose collectives exchange data runs on all of its devices.
  if (const int64_t devices = DevicesToEvaluate(**original); devices > 1)
    return RunOnEveryDevice(args, path, **original, code, devices, device, tol, seed, static_cast<int>(repeat));

  // Before drawing inputs (gigabytes for a real model): a module the
  // interpreter cannot run has no reference to compare with.
  // (A module on several devices took the branch above.)
  if (Status s = ModuleEvaluable(**original); !s.ok()) return Fail(path + ": reference interpreter: " + s.message());
  std::vector<Literal> inputs, jax_expected;
  if (auto in = args.Get("--inputs")) {
    auto d = ReadDataFile(*in);
    if (!d.ok()) return Fail(d.status().message());
    inputs = std::move(d->inputs);
    jax_expected = std::move(d->outputs);
  } else {
    inputs = MakeRandomInputs(*(*original)->entry(), static_cast<uint64_t>(seed));
  }
  auto reference = EvaluateModule(**original, inputs);
  if (!reference.ok()) return Fail(path + ": reference interpreter: " + reference.status().message());
  std::vector<Literal> want = FlattenTuple(*reference);

  StatusOr<runtime::RunResult> result = Status::Error("not run");
  if (device == "cpu") {
    codegen::CpuRunOptions o;
    o.repeat = static_cast<int>(repeat);
    result = codegen::RunOnCpu(code, inputs, o);
  } else {
    std::vector<runtime::BundleKernel> ks;
    for (const codegen::KernelCode& k : code.kernels)
      if (k.same_as < 0) ks.push_back({k.kernel, "", k.ptx, ""});
    runtime::CudaRunOptions o;
    o.repeat = static_cast<int>(repeat);
    result = runtime::RunOnCuda(code.plan, ks, inputs, o);
  }
  if (!result.ok()) {
    const std::string& m = result.status().message();
    bool no_gpu = m.rfind("no CUDA driver", 0) == 0 || m.rfind("no CUDA device", 0) == 0;
    return Fail(path + ": " + m, no_gpu ? 2 : 1);
  }
  std::string mismatch = runtime::CompareOutputs(code.plan, want, result->outputs, tol);
  std::string jax;
  bool jax_mismatch = false;
  if (!jax_expected.empty()) {
    std::string d = runtime::CompareOutputs(code.plan, jax_expected, result->outputs, tol);
    jax_mismatch = !d.empty();
    jax = d.empty() ? "match" : d;
  }
  if (auto out = args.Get("--outputs")) {
    // The run's outputs with its inputs, as a hloscope-data-v1 file.
    DataFile d;
    d.inputs = inputs;
    d.outputs = result->outputs;
    if (std::filesystem::exists(*out) && !args.Has("--force"))
      return Fail(*out + ": error: file exists (use --force to overwrite)");
    if (Status w = WriteDataFile(*out, d); !w.ok()) return Fail(w.message());
  }
  if (args.Has("--json")) {
    auto j = runtime::RunReportJson(*result);
    j["file"] = path;
    j["match"] = mismatch.empty();
    if (!mismatch.empty()) j["mismatch"] = mismatch;
    if (!jax.empty()) j["jax"] = jax;
    j["tolerance"] = DescribeTolerance(tol);
    // Every output's values and how far it is from each reference.
    j["outputs"] = nlohmann::ordered_json::array();
    for (size_t k = 0; k < result->outputs.size(); ++k) {
      nlohmann::ordered_json o = LiteralToJson(result->outputs[k]);
      if (k < want.size()) o["vs_interpreter"] = ErrorSizes(want[k], result->outputs[k]);
      if (k < jax_expected.size()) o["vs_data_file"] = ErrorSizes(jax_expected[k], result->outputs[k]);
      j["outputs"].push_back(std::move(o));
    }
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    if (!args.Has("--quiet")) std::printf("%s", runtime::RunReportText(*result).c_str());
    if (mismatch.empty())
      std::printf("%s: all %zu outputs match the interpreter (%zu kernels on %s)\n", path.c_str(), want.size(),
                  code.kernels.size(), device.c_str());
    if (!jax.empty()) std::printf("%s: against JAX's outputs: %s\n", path.c_str(), jax.c_str());
  }
  // One rule: any mismatch against any reference (the interpreter, or the
  // data file's outputs) exits 1, naming the tolerance used.
  if (!mismatch.empty())
    return Fail(path + ": mismatch with the interpreter: " + mismatch + " (" + DescribeTolerance(tol) + ")");
  if (jax_mismatch) {
    std::string hint = ExcessPrecisionHint(jax_expected);
    return Fail(path + ": mismatch with the outputs of " + args.GetOr("--inputs", "") + ": " + jax + " (" +
                DescribeTolerance(tol) + ")" + (hint.empty() ? "" : "\n" + hint));
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(run, "run", "generate the kernels, run them (CPU or GPU) and compare with the interpreter",
                     "usage: hloscope-cli run FILE [--pipeline gpu] [--device cpu|cuda] [--seed N | --inputs D.json]\n"
                     "                         [--sm 90] [--repeat N] [--rtol R] [--atol A] [--json] [--quiet]\n"
                     "                         [--outputs OUT.json [--force]]\n"
                     "Optimizes FILE (HLO text, or StableHLO .mlir converted on the way in; --pipeline, default gpu), assigns buffers, generates every kernel and runs\n"
                     "the kernel plan: --device cpu (default) JIT-compiles the kernels' own LLVM IR for this CPU\n"
                     "with emulated GPU threads, block by block; --device cuda loads their PTX with the CUDA\n"
                     "driver. The outputs are compared with the reference interpreter on the same inputs\n"
                     "(--seed N random inputs, default 0, or the inputs of a hloscope-data-v1 file; its outputs,\n"
                     "JAX's, are compared too and reported). Prints per kernel: launch dimensions, median time,\n"
                     "GB/s and the cost model's estimate. Tolerances: per type (docs/eval-tolerances.md) or\n"
                     "--rtol/--atol for every output. Exit 1 on any mismatch, against the interpreter or against\n"
                     "the data file's outputs (naming output, element, tolerance and the kernel that wrote it)\n"
                     "or on an error; 2 when --device cuda finds no driver or GPU. Data files: hloscope-data-v1\n"
                     "(samples/README.md). --outputs writes the inputs and the kernels' outputs as one.\n"
                     "--json adds every output's values and its max_abs/max_rel error against the interpreter\n"
                     "and the data file. With --device cpu the times are CPU-emulation times: no GB/s or\n"
                     "measured/estimated ratio is shown (null in --json, with \"cpu_emulation\": true).\n"
                     "A module whose collectives exchange data between its devices (num_partitions x\n"
                     "replica_count) runs on every device with --device cpu: one thread and one set of\n"
                     "buffers per device, each on inputs of its own (--seed; --inputs gives every device the\n"
                     "same), meeting at the collectives; each device's outputs are compared with the\n"
                     "interpreter's evaluation of that device. --json adds \"devices\":[{\"device\",\"match\",\n"
                     "\"outputs\"}] (\"outputs\" is device 0's); --outputs OUT.json writes OUT.device<d>.json,\n"
                     "one data file per device.",
                     RunRun);

}  // namespace hloscope::cli
