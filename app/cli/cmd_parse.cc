// parse, print, stats: reading HLO and reporting what is in it.
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "core/parser/parser.h"
#include "core/printer/printer.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

enum class Verify { kRequire, kWarn, kSkip };

// Parses and verifies one file; prints the located error on failure. With
// kWarn a module that parses but does not verify is still returned, after
// the verifier's messages are printed as located warnings.
std::unique_ptr<Module> LoadOrReport(const std::string& path, Verify verify) {
  auto m = ParseHloFile(path);
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().message().c_str());
    return nullptr;
  }
  if (verify != Verify::kSkip) {
    Status s = VerifyModule(**m);
    if (!s.ok()) {
      if (verify == Verify::kRequire) {
        std::fprintf(stderr, "%s\n", s.message().c_str());
        return nullptr;
      }
      PrintVerifierWarnings(s.message());
    }
  }
  return std::move(*m);
}

int RunParse(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {}, {"--no-verify"}, &err) || args.positional().empty()) {
    std::fprintf(stderr, "hloscope-cli parse: error: %s\n", err.empty() ? "no input files" : err.c_str());
    return 2;
  }
  for (const auto& path : args.positional()) {
    auto m = LoadOrReport(path, args.Has("--no-verify") ? Verify::kSkip : Verify::kRequire);
    if (!m) return 1;
    std::printf("OK %s computations=%zu instructions=%lld\n", m->name().c_str(), m->computations().size(),
                static_cast<long long>(m->instruction_count()));
  }
  return 0;
}

int RunPrint(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"-o"}, {"--no-verify", "--force", "--no-metadata", "--operand-shapes"}, &err) ||
      args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli print: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  auto m = LoadOrReport(args.positional()[0], args.Has("--no-verify") ? Verify::kSkip : Verify::kWarn);
  if (!m) return 1;
  PrintOptions opts;
  opts.print_metadata = !args.Has("--no-metadata");
  opts.print_operand_shapes = args.Has("--operand-shapes");
  if (!WriteOutput(args.GetOr("-o", "-"), PrintModule(*m, opts), args.Has("--force"), &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 1;
  }
  return 0;
}

int64_t LeafBytes(const Shape& s) { return s.byte_size(); }

int RunStats(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {}, {"--json", "--no-verify"}, &err) || args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli stats: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  auto m = LoadOrReport(args.positional()[0], args.Has("--no-verify") ? Verify::kSkip : Verify::kWarn);
  if (!m) return 1;
  std::map<std::string, int64_t> opcodes, types;
  int64_t fused = 0;
  for (const auto& c : m->computations()) {
    for (const auto& i : c->instructions()) {
      ++opcodes[std::string(OpcodeName(i->opcode()))];
      const Shape& s = i->shape();
      ++types[s.IsTuple() ? "tuple" : std::string(PrimitiveTypeName(s.element_type()))];
      if (c->fusion_instruction) ++fused;
    }
  }
  int64_t param_bytes = 0;
  for (const Instruction* p : m->entry()->parameters())
    if (p) param_bytes += LeafBytes(p->shape());
  int64_t out_bytes = LeafBytes(m->entry()->root()->shape());
  if (args.Has("--json")) {
    nlohmann::ordered_json j;
    j["module"] = m->name();
    j["computations"] = m->computations().size();
    j["instructions"] = m->instruction_count();
    j["fused_instructions"] = fused;
    j["entry"] = m->entry()->name();
    j["entry_parameters"] = m->entry()->num_parameters();
    j["parameter_bytes"] = param_bytes;
    j["output_bytes"] = out_bytes;
    j["opcodes"] = opcodes;
    j["element_types"] = types;
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::printf("module        %s\n", m->name().c_str());
  std::printf("computations  %zu\n", m->computations().size());
  std::printf("instructions  %lld (%lld inside fusions)\n", static_cast<long long>(m->instruction_count()),
              static_cast<long long>(fused));
  std::printf("entry         %s (%d parameters)\n", m->entry()->name().c_str(), m->entry()->num_parameters());
  std::printf("parameters    %lld bytes\n", static_cast<long long>(param_bytes));
  std::printf("outputs       %lld bytes\n", static_cast<long long>(out_bytes));
  std::printf("\nopcodes:\n");
  std::vector<std::pair<int64_t, std::string>> sorted;
  for (auto& [k, v] : opcodes) sorted.push_back({-v, k});
  std::sort(sorted.begin(), sorted.end());
  for (auto& [n, k] : sorted) std::printf("  %-28s %lld\n", k.c_str(), static_cast<long long>(-n));
  std::printf("\nelement types:\n");
  for (auto& [k, v] : types) std::printf("  %-28s %lld\n", k.c_str(), static_cast<long long>(v));
  return 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(parse, "parse", "parse and verify HLO files",
                   "usage: hloscope-cli parse FILE... [--no-verify]\n"
                   "Parses and verifies each file; prints `OK <module> computations=N instructions=M`.\n"
                   "Exits 1 with `FILE:LINE:COL: error: ...` on the first failure.",
                   RunParse);
HLOSCOPE_CLI_COMMAND(print, "print", "print canonical HLO text",
                   "usage: hloscope-cli print FILE [-o OUT] [--force] [--no-metadata] [--operand-shapes]\n"
                   "Writes the module as canonical HLO text (stdout by default). An existing OUT\n"
                   "is only replaced with --force. A module that parses but does not verify is\n"
                   "printed too, after the verifier's messages as FILE:LINE:COL: warning: lines.",
                   RunPrint);
HLOSCOPE_CLI_COMMAND(stats, "stats", "opcode and type histograms, parameter/output bytes",
                   "usage: hloscope-cli stats FILE [--json]\n"
                   "Prints the opcode histogram, element-type histogram and parameter/output bytes.\n"
                   "A module that parses but does not verify is reported too, after the verifier's\n"
                   "messages as FILE:LINE:COL: warning: lines.",
                   RunStats);

}  // namespace hloscope::cli
