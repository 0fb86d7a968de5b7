// Shared helpers for the pass tests: parse inline HLO, run one pass (or a
// pipeline) with the verifier and the differential checker after every
// step, and look at the result.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "core/parser/parser.h"
#include "core/passes/differential_checker.h"
#include "core/passes/pass_registry.h"
#include "core/passes/step_recorder.h"
#include "core/passes/verifier_instrumentation.h"
#include "core/printer/printer.h"

namespace hloscope::testing {

inline std::unique_ptr<Module> ParseOrDie(const std::string& text) {
  auto m = ParseHloModule(text, "test.hlo");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(*m) : nullptr;
}

struct PassRun {
  std::unique_ptr<Module> module;
  bool changed = false;
  bool evaluable = false;  // the differential checker could run the module
  std::vector<std::shared_ptr<const Step>> steps;
  std::vector<std::string> rules;  // rewrite rules applied, in order

  bool Applied(const std::string& rule) const {
    return std::find(rules.begin(), rules.end(), rule) != rules.end();
  }
  Instruction* root() const { return module->entry()->root(); }
  std::string text() const {
    PrintOptions o;
    o.print_metadata = false;
    return PrintComputation(*module->entry(), o);
  }
};

// Runs `names` (passes or one pipeline name) on `text` with the verifier
// and the differential checker (2 seeds); any failure fails the test.
inline PassRun RunPasses(const std::vector<std::string>& names, const std::string& text) {
  PassRun run;
  run.module = ParseOrDie(text);
  if (!run.module) return run;
  const PassRegistry& reg = PassRegistry::Global();
  auto pipeline = names.size() == 1 && reg.FindPipeline(names[0]) ? reg.BuildPipeline(names[0])
                                                                   : reg.BuildPassList(names);
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().message();
  if (!pipeline.ok()) return run;
  StepRecorder recorder;
  VerifierInstrumentation verifier(VerifyOptions{}, /*verify_input=*/true, /*only_changed=*/false);
  DifferentialOptions dopts;
  dopts.seeds = 2;
  DifferentialChecker checker(dopts);
  (*pipeline)->AddInstrumentation(&recorder);
  (*pipeline)->AddInstrumentation(&verifier);
  (*pipeline)->AddInstrumentation(&checker);
  auto changed = (*pipeline)->Run(*run.module);
  EXPECT_TRUE(changed.ok()) << changed.status().message();
  run.changed = changed.ok() && *changed;
  run.evaluable = checker.evaluable();
  run.steps = recorder.steps();
  for (const auto& s : recorder.steps()) {
    // A pass that says "no change" must not have changed anything.
    EXPECT_TRUE(s->changed || s->diff.empty()) << s->pass << " changed the module but returned false";
    for (const Rewrite& r : s->rewrites) run.rules.push_back(r.rule);
  }
  return run;
}

inline PassRun RunPass(const std::string& name, const std::string& text) { return RunPasses({name}, text); }

inline Instruction* FindInstruction(const Module& m, const std::string& name) {
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions())
      if (i->name() == name) return i.get();
  return nullptr;
}

inline int CountOpcode(const Module& m, Opcode op) {
  int n = 0;
  for (const auto& c : m.computations())
    for (const auto& i : c->instructions()) n += i->opcode() == op;
  return n;
}

}  // namespace hloscope::testing

namespace hloscope::testing {

// A one-computation module around `entry_body` (plus optional computations before it).
inline std::string Module1(const std::string& entry_body, const std::string& before = "") {
  return "HloModule m\n" + before + "\nENTRY e {\n" + entry_body + "\n}\n";
}

// One algsimp rewrite: applying algsimp to the module applies `rule`, and the
// entry root printed afterwards contains `root_contains`.
struct RewriteCase {
  const char* rule;
  std::string hlo;
  const char* root_contains;
};

inline void PrintTo(const RewriteCase& c, std::ostream* os) { *os << c.rule; }

inline void CheckRewrite(const RewriteCase& c, const std::string& pass = "algsimp") {
  SCOPED_TRACE(c.rule);
  PassRun r = RunPass(pass, c.hlo);
  ASSERT_TRUE(r.module);
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(r.Applied(c.rule)) << "rules applied: " << ::testing::PrintToString(r.rules);
  std::string root = PrintInstruction(*r.root());
  EXPECT_NE(root.find(c.root_contains), std::string::npos) << root << "\n" << r.text();
}

inline void CheckNoChange(const std::string& hlo, const std::string& pass = "algsimp") {
  PassRun r = RunPass(pass, hlo);
  ASSERT_TRUE(r.module);
  EXPECT_FALSE(r.changed) << ::testing::PrintToString(r.rules) << "\n" << r.text();
}

}  // namespace hloscope::testing
