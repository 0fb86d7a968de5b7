// import: StableHLO MLIR text → HLO text; stablehlo-test: the conformance runner.
#include <cstdio>

#include "app/cli/cli_args.h"
#include "core/printer/printer.h"
#include "core/stablehlo/conformance.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/verify/verifier.h"

namespace hloscope::cli {
namespace {

int RunImport(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {"-o", "--entry"}, {"--force", "--no-verify"}, &err) || args.positional().size() != 1) {
    std::fprintf(stderr, "hloscope-cli import: error: %s\n", err.empty() ? "expected one input file" : err.c_str());
    return 2;
  }
  auto m = mlir::ImportStablehloFile(args.positional()[0]);
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
  std::string text = PrintModule(**m);
  if (!WriteOutput(args.GetOr("-o", "-"), text, args.Has("--force"), &err)) {
    std::fprintf(stderr, "hloscope-cli import: error: %s\n", err.c_str());
    return 1;
  }
  return 0;
}

int RunStablehloTest(const std::vector<std::string>& argv) {
  Args args;
  std::string err;
  if (!args.Parse(argv, {}, {"--quiet"}, &err) || args.positional().empty()) {
    std::fprintf(stderr, "hloscope-cli stablehlo-test: error: %s\n", err.empty() ? "expected input files" : err.c_str());
    return 2;
  }
  int pass = 0, fail = 0, skip = 0;
  for (const std::string& f : args.positional()) {
    for (const mlir::TestResult& r : mlir::RunConformanceFile(f)) {
      const char* v = r.verdict == mlir::TestResult::kPass ? "PASS"
                      : r.verdict == mlir::TestResult::kFail ? "FAIL" : "UNSUPPORTED";
      (r.verdict == mlir::TestResult::kPass ? pass : r.verdict == mlir::TestResult::kFail ? fail : skip)++;
      if (r.verdict == mlir::TestResult::kPass) std::printf("PASS %s\n", r.name.c_str());
      else std::printf("%s %s: %s\n", v, r.name.c_str(), r.detail.c_str());
    }
  }
  std::printf("%d passed, %d failed, %d skipped\n", pass, fail, skip);
  return fail ? 1 : 0;
}

}  // namespace

HLOSCOPE_CLI_COMMAND(import_mlir, "import", "convert StableHLO MLIR text to HLO text",
                     "usage: hloscope-cli import FILE.mlir [-o OUT.hlo] [--force] [--no-verify]\n"
                     "Reads StableHLO (generic or pretty form), converts @main to an HLO module,\n"
                     "verifies it and prints it (to stdout, or -o; --force replaces an existing file).\n"
                     "Ops that cannot be converted are refused with 'UNSUPPORTED: <op or type>'.",
                     RunImport);
HLOSCOPE_CLI_COMMAND(stablehlo_test, "stablehlo-test", "run StableHLO conformance programs",
                     "usage: hloscope-cli stablehlo-test FILE.mlir...\n"
                     "Splits each file on '// -----', converts every test function, evaluates it and\n"
                     "applies its check.expect_* ops. One line per test: PASS, FAIL (first differing\n"
                     "element) or UNSUPPORTED (op or type); then 'N passed, N failed, N skipped'.\n"
                     "Exits 1 if anything failed.",
                     RunStablehloTest);

}  // namespace hloscope::cli
