#include "core/stablehlo/conformance.h"

#include <fstream>
#include <set>
#include <sstream>

#include "core/eval/compare.h"
#include "core/eval/evaluator.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/stablehlo/mlir_parser.h"
#include "core/support/str_util.h"
#include "core/verify/verifier.h"

namespace hloscope::mlir {
namespace {

void CollectCallees(const Region& r, std::set<std::string>* out) {
  for (const Block& b : r.blocks)
    for (const Op& op : b.ops) {
      if (!op.callee.empty()) out->insert(op.callee);
      if (const Attr* d = op.FindAttr("decomposition")) out->insert(d->s);
      for (const auto& sub : op.regions) CollectCallees(*sub, out);
    }
}

TestResult::Verdict Classify(const std::string& msg) {
  return msg.find("UNSUPPORTED") != std::string::npos ? TestResult::kUnsupported : TestResult::kFail;
}

std::optional<Tolerance> ToleranceFor(const std::string& kind, PrimitiveType t) {
  if (kind == "expect_eq" || kind == "expect_eq_const" || kind == "eq") return Tolerance{0, 0};
  if (kind == "expect_almost_eq" || kind == "expect_almost_eq_const") return Tolerance{1e-4, 1e-4};
  Tolerance d = DefaultTolerance(t);
  return Tolerance{d.abs * 4, d.rel * 4};  // expect_close: a few ulps of the result type
}

// The values of the test function's run_parallel results, in parameter
// order: each run's operands come from evaluating the function with the
// results known so far (zeros for the rest: a run's operands never read its
// own or later results), then its program runs on its devices, replica r
// and partition p being device r × partitions + p, each taking its share of
// the operands in that order and giving its share of the results.
StatusOr<std::vector<Literal>> RunParallel(const ModuleAst& ast, const ConvertResult& conv, const EvalOptions& eo) {
  std::vector<Literal> params;
  for (const Instruction* p : conv.module->entry()->parameters())
    params.emplace_back(p ? Shape(p->shape().element_type(), p->shape().dims()) : Shape());
  for (const ParallelRun& run : conv.parallel) {
    const std::string& program = run.programs[0][0];
    for (const auto& row : run.programs)
      for (const std::string& name : row)
        if (name != program)
          return Error("UNSUPPORTED: interpreter.run_parallel with different programs on different devices (@" +
                       program + ", @" + name + ")");
    ASSIGN_OR_RETURN(Literal before, EvaluateModule(*conv.module, params, eo));
    ConvertOptions popts;
    popts.entry = program;
    ASSIGN_OR_RETURN(ConvertResult prog, ConvertToHlo(ast, popts));
    const int64_t replicas = static_cast<int64_t>(run.programs.size());
    const int64_t partitions = static_cast<int64_t>(run.programs[0].size());
    prog.module->SetHeader("replica_count", std::to_string(replicas));
    prog.module->SetHeader("num_partitions", std::to_string(partitions));
    const int args = prog.module->entry()->num_parameters();
    const int64_t devices = replicas * partitions;
    if (run.operands != devices * args)
      return Error("interpreter.run_parallel at line " + std::to_string(run.pos.line) + ": " +
                   std::to_string(run.operands) + " operands for " + std::to_string(devices) + " programs of " +
                   std::to_string(args) + " arguments");
    std::vector<std::vector<Literal>> device_args(static_cast<size_t>(devices));
    for (int64_t d = 0; d < devices; ++d)
      for (int a = 0; a < args; ++a)
        device_args[static_cast<size_t>(d)].push_back(
            before.tuple_elements()[static_cast<size_t>(run.first_operand_output + d * args + a)]);
    auto results = EvaluateModuleOnDevices(*prog.module, device_args, eo);
    if (!results.ok()) return Error("interpreter.run_parallel: " + results.status().message());
    int next = run.first_parameter;
    for (const Literal& r : *results) {
      std::vector<Literal> flat = r.IsTuple() && prog.module->entry()->root()->shape().IsTuple()
                                      ? r.tuple_elements()
                                      : std::vector<Literal>{r};
      for (Literal& v : flat) {
        if (next >= run.first_parameter + run.results) return Error("interpreter.run_parallel: more results than declared");
        params[static_cast<size_t>(next++)] = std::move(v);
      }
    }
    if (next != run.first_parameter + run.results) return Error("interpreter.run_parallel: fewer results than declared");
  }
  return params;
}

void RunFunc(const ModuleAst& ast, const Func& f, std::vector<TestResult>* out) {
  TestResult r;
  r.name = ast.file + ":" + std::to_string(f.pos.line) + " @" + f.name;
  ConvertOptions opts;
  opts.entry = f.name;
  opts.checks_as_outputs = true;
  opts.run_parallel_as_parameters = true;
  auto conv = ConvertToHlo(ast, opts);
  if (!conv.ok()) {
    r.verdict = Classify(conv.status().message());
    r.detail = conv.status().message();
    out->push_back(r);
    return;
  }
  VerifyOptions vo;
  Status vs = VerifyModule(*conv->module, vo);
  if (!vs.ok()) {
    r.verdict = TestResult::kFail;
    r.detail = "converted HLO does not verify: " + vs.message().substr(0, vs.message().find('\n'));
    out->push_back(r);
    return;
  }
  EvalOptions eo;
  eo.max_while_iterations = 1'000'000;
  // The results of interpreter.run_parallel are parameters of the test
  // function; they are computed before it is evaluated (RunParallel).
  std::vector<Literal> params;
  if (!conv->parallel.empty()) {
    auto p = RunParallel(ast, *conv, eo);
    if (!p.ok()) {
      r.verdict = Classify(p.status().message());
      r.detail = p.status().message();
      out->push_back(r);
      return;
    }
    params = std::move(*p);
  }
  auto res = EvaluateModule(*conv->module, params, eo);
  if (!res.ok()) {
    r.verdict = TestResult::kFail;
    r.detail = "evaluation failed: " + res.status().message();
    out->push_back(r);
    return;
  }
  const Literal& tup = *res;
  for (const CheckOp& c : conv->checks) {
    if (!tup.IsTuple() || c.expected >= static_cast<int>(tup.tuple_elements().size())) {
      r.verdict = TestResult::kFail;
      r.detail = "internal: missing check value";
      break;
    }
    const Literal& actual = tup.tuple_elements()[c.actual];
    const Literal& expected = tup.tuple_elements()[c.expected];
    std::string diff;
    if (!(actual.shape().Compatible(expected.shape()))) {
      diff = "shape " + actual.shape().ToString(false) + " vs expected " + expected.shape().ToString(false);
    } else {
      PrimitiveType et = actual.shape().IsArray() ? actual.shape().element_type() : PrimitiveType::kF32;
      std::optional<Tolerance> tol = ToleranceFor(c.kind, et);
      if (c.tolerance >= 0) tol = Tolerance{c.tolerance, c.tolerance};
      diff = CompareLiterals(expected, actual, tol);
    }
    if (!diff.empty()) {
      r.verdict = TestResult::kFail;
      r.detail = "line " + std::to_string(c.pos.line) + " check." + c.kind + ": " + diff;
      break;
    }
  }
  out->push_back(r);
}

}  // namespace

std::vector<TestResult> RunConformanceText(const std::string& text, const std::string& file) {
  std::vector<TestResult> out;
  // Split on `// -----` lines, keeping line numbers.
  std::vector<std::pair<std::string, int>> chunks;
  std::istringstream in(text);
  std::string line, cur;
  int line_no = 0, start = 0;
  while (std::getline(in, line)) {
    if (line.rfind("// -----", 0) == 0) {
      chunks.push_back({cur, start});
      cur.clear();
      start = line_no + 1;
    } else {
      cur += line + "\n";
    }
    ++line_no;
  }
  chunks.push_back({cur, start});
  for (const auto& [chunk, offset] : chunks) {
    auto ast = ParseMlir(chunk, file, offset);
    if (!ast.ok()) {
      TestResult r;
      r.name = file + ":" + std::to_string(offset + 1);
      r.verdict = TestResult::kFail;
      r.detail = ast.status().message();
      out.push_back(r);
      continue;
    }
    std::set<std::string> called;
    for (const Func& f : ast->funcs) CollectCallees(f.body, &called);
    for (const Func& f : ast->funcs) {
      if (!f.args.empty() || called.count(f.name)) continue;
      RunFunc(*ast, f, &out);
    }
  }
  return out;
}

std::vector<TestResult> RunConformanceFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    TestResult r;
    r.name = path;
    r.verdict = TestResult::kFail;
    r.detail = path + ": error: cannot open file: " + OpenFailureReason(path);
    return {r};
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return RunConformanceText(ss.str(), path);
}

}  // namespace hloscope::mlir
