// The StableHLO conformance runner: splits a test file on `// -----`,
// converts each test function (a function without arguments that nothing
// calls) with its check ops as outputs, evaluates it and applies the
// check.expect_* semantics.
#pragma once
#include <string>
#include <vector>

namespace hloscope::mlir {

struct TestResult {
  enum Verdict { kPass, kFail, kUnsupported } verdict = kPass;
  std::string name;    // FILE:LINE @func
  std::string detail;  // first differing element, or the unsupported op/type
};

// Never fails: problems become FAIL or UNSUPPORTED results.
std::vector<TestResult> RunConformanceFile(const std::string& path);
std::vector<TestResult> RunConformanceText(const std::string& text, const std::string& file);

}  // namespace hloscope::mlir
