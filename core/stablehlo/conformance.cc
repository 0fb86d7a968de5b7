#include "core/stablehlo/conformance.h"

#include <fstream>
#include <set>
#include <sstream>

#include "core/eval/compare.h"
#include "core/eval/evaluator.h"
#include "core/stablehlo/convert_to_hlo.h"
#include "core/stablehlo/mlir_parser.h"
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

void RunFunc(const ModuleAst& ast, const Func& f, std::vector<TestResult>* out) {
  TestResult r;
  r.name = ast.file + ":" + std::to_string(f.pos.line) + " @" + f.name;
  ConvertOptions opts;
  opts.entry = f.name;
  opts.checks_as_outputs = true;
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
  auto res = EvaluateModule(*conv->module, {}, eo);
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
    r.detail = path + ": error: cannot open file";
    return {r};
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return RunConformanceText(ss.str(), path);
}

}  // namespace hloscope::mlir
