// eval: runs a module's entry computation in the reference interpreter.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "core/stablehlo/load_module.h"
#include "core/eval/compare.h"
#include "core/eval/data_file.h"
#include "core/eval/evaluator.h"
#include "core/eval/random_inputs.h"
#include "core/parser/parser.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

uint64_t Checksum(const Literal& l) {  // FNV-1a over the element bytes
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < l.raw_size(); ++i) h = (h ^ l.raw()[i]) * 0x100000001b3ull;
  return h;
}

int RunEval(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"--seed", "--inputs", "--expected", "--rtol", "--atol"}, {"--json", "--no-verify"}, &err) ||
      args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli eval: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  if (args.Has("--seed") && args.Has("--inputs")) {
    std::fprintf(stderr, "hloscope-cli eval: error: --seed and --inputs exclude each other\n");
    return 2;
  }
  std::optional<Tolerance> tol;
  if (!ParseTolerance(args, &tol, &err)) {
    std::fprintf(stderr, "hloscope-cli eval: error: %s\n", err.c_str());
    return 2;
  }
  long long seed = 0;
  if (args.Has("--seed") && !args.GetInt("--seed", &seed, &err)) {
    std::fprintf(stderr, "hloscope-cli eval: error: %s\n", err.c_str());
    return 2;
  }
  const std::string& path = args.positional()[0];
  auto m = LoadModuleFile(path);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return 1;
  }
  if (!args.Has("--no-verify")) {
    Status s = VerifyModule(**m);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 1;
    }
  }
  const Computation& entry = *(*m)->entry();
  std::vector<Literal> inputs;
  // Expected outputs only mean something for the inputs they were computed
  // from: without --inputs, the expected file's own inputs are used, and a
  // file without inputs is refused rather than compared with random ones.
  std::optional<std::string> inputs_file = args.Get("--inputs");
  std::optional<DataFile> expected;
  if (auto ex = args.Get("--expected")) {
    auto d = ReadDataFile(*ex);
    if (!d.ok()) {
      std::fprintf(stderr, "%s\n", d.status().message().c_str());
      return 1;
    }
    expected = std::move(*d);
    if (!inputs_file) {
      if (args.Has("--seed") || expected->inputs.empty()) {
        std::fprintf(stderr,
                     "%s: error: --expected compares with outputs computed from particular inputs; this file %s, "
                     "so give them with --inputs F.json (hloscope-data-v1, samples/README.md)\n",
                     ex->c_str(), expected->inputs.empty() ? "carries none" : "has them, but --seed asks for random ones");
        return 2;
      }
      inputs_file = *ex;
    }
  }
  if (auto in = inputs_file) {
    auto d = ReadDataFile(*in);
    if (!d.ok()) {
      std::fprintf(stderr, "%s\n", d.status().message().c_str());
      return 1;
    }
    inputs = std::move(d->inputs);
    if (static_cast<int>(inputs.size()) != entry.num_parameters()) {
      std::fprintf(stderr, "%s: error: %zu inputs given, but the entry computation takes %d parameters\n",
                   in->c_str(), inputs.size(), entry.num_parameters());
      return 1;
    }
  } else {
    inputs = MakeRandomInputs(entry, static_cast<uint64_t>(seed));
  }
  // A module whose collectives exchange data runs on all of its devices:
  // random inputs of each device's own, or the file's inputs on every one.
  const int64_t devices = DevicesToEvaluate(**m);
  if (devices > 1 && expected) {
    std::fprintf(stderr,
                 "%s: error: the module runs on %lld devices (its collectives exchange data between them); "
                 "--expected holds the outputs of one\n",
                 path.c_str(), static_cast<long long>(devices));
    return 2;
  }
  std::vector<std::vector<Literal>> device_inputs;
  if (devices > 1 && !inputs_file) {
    device_inputs = MakeRandomDeviceInputs(entry, static_cast<uint64_t>(seed), devices);
  } else {
    for (int64_t d = 0; d < devices; ++d) device_inputs.push_back(inputs);
    if (devices > 1)
      std::fprintf(stderr, "%s: %lld devices, each on the inputs of %s\n", path.c_str(), static_cast<long long>(devices),
                   inputs_file->c_str());
  }
  auto result = EvaluateOnDevices(**m, devices, device_inputs);
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().message().c_str());
    return 1;
  }
  std::vector<std::vector<Literal>> per_device;
  for (const Literal& r : *result) per_device.push_back(FlattenTuple(r));
  const std::vector<Literal>& outs = per_device[0];
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    auto list = [](const std::vector<Literal>& v) {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (const Literal& o : v) a.push_back(LiteralToJson(o));
      return a;
    };
    j["outputs"] = list(outs);
    if (devices > 1) {
      j["devices"] = nlohmann::ordered_json::array();
      for (const auto& v : per_device) j["devices"].push_back({{"outputs", list(v)}});
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    for (size_t d = 0; d < per_device.size(); ++d)
      for (size_t i = 0; i < per_device[d].size(); ++i) {
        const Literal& o = per_device[d][i];
        std::string first;
        int64_t shown = std::min<int64_t>(o.num_elements(), 8);
        for (int64_t k = 0; k < shown; ++k) {
          if (k) first += ", ";
          o.AppendElement(first, k);
        }
        if (o.num_elements() > shown) first += ", ...";
        const std::string where = devices > 1 ? "device " + std::to_string(d) + " " : "";
        std::printf("%soutput %zu: %s checksum=%016llx values=[%s]\n", where.c_str(), i,
                    o.shape().ToString(false).c_str(), static_cast<unsigned long long>(Checksum(o)), first.c_str());
      }
  }
  if (auto ex = args.Get("--expected")) {
    const DataFile* d = &*expected;
    if (d->outputs.size() != outs.size()) {
      std::fprintf(stderr, "%s: mismatch: expected %zu outputs, got %zu\n", ex->c_str(), d->outputs.size(), outs.size());
      return 1;
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      std::string diff = CompareLiterals(d->outputs[i], outs[i], tol);
      if (!diff.empty()) {
        // Report with the flattened output number.
        auto pos = diff.find("output {}");
        if (pos != std::string::npos) diff.replace(pos, 9, "output {" + std::to_string(i) + "}");
        std::fprintf(stderr, "%s: mismatch: %s (%s)\n", ex->c_str(), diff.c_str(), DescribeTolerance(tol).c_str());
        if (std::string hint = ExcessPrecisionHint(d->outputs); !hint.empty()) std::fprintf(stderr, "%s\n", hint.c_str());
        return 1;
      }
    }
    std::fprintf(stderr, "all %zu outputs match %s (%s)\n", outs.size(), ex->c_str(), DescribeTolerance(tol).c_str());
  }
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(eval, "eval", "run the entry computation in the reference interpreter",
                   "usage: hloscope-cli eval FILE [--seed N | --inputs F.json] [--json] [--expected F.json]\n"
                   "                          [--rtol R] [--atol A] [--no-verify]\n"
                   "Evaluates the entry computation on deterministic random inputs (--seed, default 0)\n"
                   "or on the inputs of a hloscope-data-v1 file. Prints each output (tuples flattened):\n"
                   "shape, an FNV-1a checksum of its bytes and its first values; --json prints\n"
                   "{\"outputs\":[{\"shape\":\"f32[2,2]\",\"values\":[...]}]} with every value.\n"
                   "--expected compares with the outputs of a data file (default tolerances per type,\n"
                   "docs/eval-tolerances.md, or --rtol/--atol for every output) and exits 1 on a mismatch;\n"
                   "without --inputs it evaluates on that file's own inputs (a file without inputs is\n"
                   "refused, exit 2). Data files: hloscope-data-v1, described in samples/README.md.\n"
                   "A module whose collectives exchange data between devices (num_partitions x\n"
                   "replica_count, or as many as its replica_groups name) runs on every device, each on\n"
                   "random inputs of its own (on --inputs' on every one); lines start `device D`, and\n"
                   "--json adds \"devices\":[{\"outputs\":[...]}] (\"outputs\" is device 0's).\n"
                   "Errors are located (FILE:LINE:COL) and exit 1.",
                   RunEval);

}  // namespace hloscope::cli
